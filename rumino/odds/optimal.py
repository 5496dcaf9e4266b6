"""The best possible play against the stock, exactly: optimal discards for Rumino (issue 14).

The model
---------
Solitaire against the stock. The player holds 7 cards. Each draw comes from the
cards the player does not hold, in proportion to their copies in the pack: the
discards are reshuffled in, so the unseen pack is always *the pack minus the
hand* (``U = 108 − 7 = 101`` cards for Rumino, the same at every draw). After a
draw the player holds 8 cards and throws one. The goal is reached when the 7
cards kept

* may **knock** (deadwood ≤ ``knock_max_deadwood``, 7 by default, rules §1.3),
* are a **gin** (deadwood 0, rules §1.2: "0 deadwood" and gin are the same), or
* are a **rumino** (rules §1.2),

each goal its own table. A hand that already meets the goal has met it (0 draws).

The dynamic programme
---------------------
Meld rules never name a suit, so a hand's value depends only on its suit class
(:mod:`rumino.odds.enumerate`). With ``P_n(h)`` the best chance to reach the goal
within ``n`` draws from the 7-card hand ``h``:

    P_0(h) = goal(h),
    P_n(h) = 1 if goal(h), else Σ_c  (copies of c unseen / U) · max_d P_{n−1}(h + c − d),

and the expected number of draws ``E(h) = 0`` on the goal, else
``1 + Σ_c p_c · min_d E(h + c − d)``. An 8-card hand is worth its best discard.

Computed over classes, the sum over draws is turned round: for every 8-card
class ``H8`` and every distinct card ``d`` it holds, ``H7 = H8 − d`` receives
``(|O8| / |O7|) · (copies of d unseen from H7) / U`` times the value of ``H8``,
where ``|O|`` is the number of hands in a class (its suit relabellings). This is
the same sum: the pairs (7-card hand of ``O7``, card drawn) that land in ``O8``
are, counted from the other side, the pairs (8-card hand of ``O8``, card
thrown) that land in ``O7``. The tests check that these weights add up to 1 for
every class and compare every value with a brute-force expectimax over
explicit hands (exact fractions) on reduced packs.

Class indices are a *perfect hash*: the position of a hand's class in the
enumeration order of :func:`rumino.odds.enumerate.iter_classes`, computed
directly (the rank of each suit row among the rows of its size, the rank of
equal-size rows as a multiset, mixed-radix over the groups, plus the offset of
the joker count and row sizes), so a look-up costs a few hundred operations and
no search.

Error bounds
------------
*Finite horizon.* Each step forms, for each class, a sum of at most ``K = 53``
terms ``coef · value`` with values in [0, 1] and coefficients adding up to 1;
the max over discards is exact. In binary64 each step adds at most
``(K + 3) u`` (``u = 2⁻⁵³``) to the error, and a convex combination does not
amplify earlier errors, so ``|P_n − P_n^float| ≤ n (K + 3) u < 7·10⁻¹⁴`` for
``n ≤ 10``. The tables are stored as float32 (relative rounding ``2⁻²⁴ ≈ 6·10⁻⁸``).

*Infinite horizon.* With ``T`` the Bellman operator and any ``V ≥ 0`` (0 on the
goal), ``T(αV) = α TV + (1 − α)`` off the goal, for every α ≥ 0. Let
``δ = TV − V`` off the goal, with ``δ < 1``. Then

    min_h 1/(1 − δ_h) · V  ≤  E*  ≤  max_h 1/(1 − δ_h) · V      (every class).

Upper: ``W = α⁺V`` has ``TW ≤ W``; the greedy policy of ``W`` then has
``W ≥ 1 + P_π W`` off the goal, so by induction ``W ≥ E_π[min(τ, k)]`` for all
``k``, hence ``W ≥ E_π[τ] ≥ E*``. Lower: ``L = α⁻V`` has ``L ≤ TL ≤ T_{π*}L``
for an optimal stationary policy π* (it exists and reaches the goal surely:
every goal can be completed by drawing the missing cards), so
``L ≤ E*[min(τ,k)] + max L · P*(τ > k) → E*``. Value iteration (with geometric
extrapolation of the last step, which only moves the trial vector) stops when the
certified relative gap is below the tolerance; ``δ`` is computed with a margin
for its own rounding.

Keep-the-target, and chapter 5
------------------------------
Keeping one rumino target (:class:`KeepTarget`) is one policy among all, so in
this model its chance is a lower bound of the optimal one; the build checks it
on every class and horizon. Chapter 5's chain (:mod:`rumino.odds.markov`)
draws *without* putting blanks back (``U − t`` unseen after ``t`` draws): a
different model, in which the same policy does better, so it is **not** a bound
here: six fives and a nine make a rumino within 10 draws with chance 0.474 in
chapter 5's chain, 0.458 here by keeping the fives (``1 − (95/101)¹⁰``), which
the full table shows is also the optimum; the build counts the classes where
chapter 5's figure exceeds the optimum.

Decisions where the rules are open: the goal is tested on the 7 cards kept (a hand
dealt at the goal has reached it); a rumino follows :func:`rumino.variants.rumino.is_rumino`
with the default knobs (jokers allowed, any suits); the look-ups and the
direct solver cover the default meld knobs of :class:`~rumino.variants.rumino.RuminoRules`
and any ``knock_max_deadwood``.

Building the full tables
------------------------
``rumino optimal build`` solves the 108-card pack (14,945,658
classes of 7 cards, 104,437,554 of 8, 750,725,326 discard edges) and writes
``prob.npy`` (float32, goal × draws × class), ``expected.npy``, ``goal.npy``,
``deadwood.npy``, ``meta.json`` (timings, error bounds, checks) and
``figures.json`` under :func:`default_table_dir` (1.94 GB in all). The packed
edges (one uint32 each: 24-bit class index, copies unseen, a joker flag) take
3.3 GB of memory; one uninterrupted build on the shared 2-core machine took
16 min wall, 11 min CPU, 6.9 GB peak resident (bench/bench_optimal.py times
the look-ups).

>>> from rumino.odds.enumerate import PackShape
>>> m = SolitaireModel(PackShape(suits=2, ranks=5, copies=1, jokers=1))
>>> t = m.solve(horizon=2, infinite=False)
>>> 0 <= t.probability("3s 4s 5s 2c 3c 4c 5c", "gin", 2) <= 1
True
"""

from __future__ import annotations

import json
import os
import sys
import time
from dataclasses import dataclass, field
from math import comb
from pathlib import Path
from typing import Sequence

import numba
import numpy as np

from rumino.jit import jit as _jit
from rumino.cards import JOKER, N_KINDS, format_card, parse_hand, to_counts
from rumino.console import NoBar, make_bar
from rumino.errors import InvalidCardError, RuleConfigError, RuminoError
from rumino.hand.kernels import BIG, deadwood_dfs, load_rows, rule_tables, min_deadwood_batch
from rumino.odds.enumerate import PackShape, class_count, is_rumino_batch, iter_classes, row_count, tasks
from rumino.variants import find_variant

RUMINO = find_variant("rumino").rules  # the game the tables are of (rules §1), read from its row
RuminoRules = find_variant("rumino").rules_class
HAND_SIZE = find_variant("rumino").hand_size  # 7 (rules §1.1)

__all__ = ["GOALS", "SolitaireModel", "OptimalTable", "ClassIndex", "direct_values", "default_table_dir",
           "best_answer", "TableMissingError", "keep_target_values", "KeepTarget", "goal_bits",
           "BUILD_COMMAND", "BUILD_COST", "build_tables", "write_table_figures"]

GOALS = ("knock", "gin", "rumino")
TIMED_GOALS = ("knock", "gin")  # goals with an infinite-horizon table (expected draws)
MAX_HORIZON = 10
_MASK = (1 << 24) - 1
K_TERMS = 53
U_ROUND = 2.0 ** -53


class TableMissingError(RuminoError, LookupError):
    """The optimal table asked for has not been built (and the answer cannot be computed directly)."""


class TableDamagedError(RuminoError, ValueError):
    """A saved optimal table that cannot be read as one (a file missing, cut short or of the wrong shape)."""


def open_array(path: Path, shape: tuple[int | None, ...], what: str = "the optimal table") -> np.ndarray:
    """The saved array at ``path`` memory-mapped, if it is one of ``shape`` (None: any length from 1 to
    64); else a one-line :class:`TableDamagedError` naming the file and the command that builds it again."""
    def damaged(why: str) -> TableDamagedError:
        return TableDamagedError(f"{what} in {path.parent} is damaged ({path.name} {why}): build it again with "
                                 f"`{BUILD_COMMAND}` ({BUILD_COST}), or set RUMINO_OPTIMAL_DIR to a folder with a "
                                 f"good one.")

    try:
        arr = np.load(path, mmap_mode="r", allow_pickle=False)
    except FileNotFoundError:
        raise damaged("is missing") from None
    except (OSError, ValueError, EOFError) as err:  # a bad header, or a file shorter than its header says
        raise damaged(f"cannot be read: {str(err).splitlines()[0] if str(err) else type(err).__name__}") from None
    fits = isinstance(arr, np.ndarray) and arr.ndim == len(shape) and all(
        (1 <= n <= 64) if want is None else n == want for n, want in zip(arr.shape, shape))
    if not fits:
        raise damaged("is of the wrong size for this pack")
    if arr.dtype.kind not in "fiu":
        raise damaged(f"holds {arr.dtype} values, not numbers")
    return arr


# =========================================================================== perfect hash of classes


@_jit()
def _comb(n, k):
    if k < 0 or n < k:
        return 0
    r = 1
    for i in range(1, k + 1):
        r = r * (n - k + i) // i
    return r


@_jit()
def _row_rank(cnt, s, R, NR):
    """(size, lexicographic rank among rows of that size) of suit ``s``'s row."""
    m = 0
    for r in range(R):
        m += cnt[s * 13 + r]
    rank = 0
    left = m
    for r in range(R):
        c = cnt[s * 13 + r]
        for x in range(c):
            rank += NR[left - x, R - r - 1]
        left -= c
    return m, rank


@_jit()
def _index_of_rows(sizes0, ranks0, S, jokers, R, NR, offs, B, sizes, ranks):
    """``(class index, suit relabellings)`` from the unsorted (size, rank) of each suit row.

    ``sizes``/``ranks`` are scratch arrays of length 4 (no allocation in the hot loop).
    """
    for i in range(S):
        sizes[i] = sizes0[i]
        ranks[i] = ranks0[i]
    for i in range(1, S):  # insertion sort by (size, rank): the canonical order of enumerate.py
        a = sizes[i]
        b = ranks[i]
        j = i - 1
        while j >= 0 and (sizes[j] > a or (sizes[j] == a and ranks[j] > b)):
            sizes[j + 1] = sizes[j]
            ranks[j + 1] = ranks[j]
            j -= 1
        sizes[j + 1] = a
        ranks[j + 1] = b
    key = jokers
    for i in range(S):
        key = key * B + sizes[i]
    base = offs[key]
    flat = 0
    orbit = 1
    for i in range(2, S + 1):
        orbit *= i
    i = 0
    while i < S:
        size = sizes[i]
        g = 1
        while i + g < S and sizes[i + g] == size:
            g += 1
        L = NR[size, R]
        rk = 0
        prev = 0
        run = 1
        for t in range(g):
            m = g - t - 1
            b = ranks[i + t]
            if b > prev:  # tuples whose t-th entry lies in [prev, b): hockey-stick sum
                rk += _comb(L - prev + m, m + 1) - _comb(L - b + m, m + 1)
            if t > 0:
                if b == ranks[i + t - 1]:
                    run += 1
                    orbit //= run
                else:
                    run = 1
            prev = b
        flat = flat * _comb(L + g - 1, g) + rk
        i += g
    return base + flat, orbit


@_jit()
def _index_range(counts, lo, hi, S, R, NR, offs, B, out_idx, out_orbit):
    cnt = np.empty(53, np.int64)
    s0 = np.empty(4, np.int64)
    r0 = np.empty(4, np.int64)
    s1 = np.empty(4, np.int64)
    r1 = np.empty(4, np.int64)
    for i in range(lo, hi):
        for c in range(53):
            cnt[c] = counts[i, c]
        for s in range(S):
            s0[s], r0[s] = _row_rank(cnt, s, R, NR)
        out_idx[i], out_orbit[i] = _index_of_rows(s0, r0, S, cnt[52], R, NR, offs, B, s1, r1)


@_jit(parallel=True)
def _index_batch(counts, S, R, NR, offs, B, out_idx, out_orbit):
    n = counts.shape[0]
    nb = min(n, 64)
    for blk in numba.prange(nb):
        _index_range(counts, blk * n // nb, (blk + 1) * n // nb, S, R, NR, offs, B, out_idx, out_orbit)


@_jit()
def _index_small(counts, S, R, NR, offs, B, out_idx, out_orbit):
    """One or a few hands: no thread-pool start-up (it would dominate a single look-up)."""
    _index_range(counts, 0, counts.shape[0], S, R, NR, offs, B, out_idx, out_orbit)


class ClassIndex:
    """The perfect hash of the suit classes of ``k``-card hands of ``shape`` (see the module docstring).

    >>> ci = ClassIndex(PackShape(suits=4, ranks=13, copies=1), 3)
    >>> ci.n == class_count(PackShape(suits=4, ranks=13, copies=1), 3)
    True
    >>> int(ci.index(to_counts(parse_hand("As 2s 3s")))) == int(ci.index(to_counts(parse_hand("Ah 2h 3h"))))
    True
    """

    def __init__(self, shape: PackShape, k: int):
        shape.check_hand_size(k)
        self.shape, self.k = shape, k
        R, C = shape.ranks, shape.copies
        top = max(k, 1)
        self.NR = np.zeros((top + 1, R + 1), dtype=np.int64)
        for s in range(top + 1):
            for r in range(R + 1):
                self.NR[s, r] = row_count(s, r, C) if r else int(s == 0)
        self.B = k + 1
        self.offs = np.full((k + 1) * self.B ** shape.suits, -1, dtype=np.int64)
        pos = 0
        seen = []
        for t in tasks(shape, k, chunk=1 << 62):
            key = t.jokers
            for s in t.sizes:
                key = key * self.B + s
            self.offs[key] = pos
            seen.append(t.n)
            pos += t.n
        self.n = pos

    def index(self, counts: np.ndarray) -> np.ndarray:
        """Class indices (int64) of count vectors ``(n, 53)`` or one vector ``(53,)``."""
        arr = np.asarray(counts)
        one = arr.ndim == 1
        arr = np.ascontiguousarray(arr.reshape(-1, N_KINDS), dtype=np.int8)
        idx = np.empty(len(arr), np.int64)
        orb = np.empty(len(arr), np.int64)
        run = _index_batch if len(arr) > 4096 else _index_small
        run(arr, self.shape.suits, self.shape.ranks, self.NR, self.offs, self.B, idx, orb)
        return idx[0] if one else idx

    def orbits(self, counts: np.ndarray) -> np.ndarray:
        """Number of hands in each class (distinct suit relabellings)."""
        arr = np.ascontiguousarray(np.asarray(counts).reshape(-1, N_KINDS), dtype=np.int8)
        idx = np.empty(len(arr), np.int64)
        orb = np.empty(len(arr), np.int64)
        _index_batch(arr, self.shape.suits, self.shape.ranks, self.NR, self.offs, self.B, idx, orb)
        return orb


# =========================================================================== the transition structure


JOKER_FLAG = 1 << 31


@_jit(parallel=True)
def _edges_chunk(counts, caps, S, R, NR, offs, B, edges, o8):
    """For each 8-card class: its suit relabellings, and per distinct card d:
    ``index(H8 − d) | w << 24 | JOKER_FLAG if d is a joker``, with w = copies of d
    unseen once d is thrown (a 0 entry pads the row)."""
    n = counts.shape[0]
    nb = min(n, 64)
    for blk in numba.prange(nb):
        cnt = np.empty(53, np.int64)
        sizes = np.empty(4, np.int64)
        ranks = np.empty(4, np.int64)
        s1 = np.empty(4, np.int64)
        r1 = np.empty(4, np.int64)
        for i in range(blk * n // nb, (blk + 1) * n // nb):
            for c in range(53):
                cnt[c] = counts[i, c]
            for s in range(S):
                sizes[s], ranks[s] = _row_rank(cnt, s, R, NR)
            idx, o8[i] = _index_of_rows(sizes, ranks, S, cnt[52], R, NR, offs, B, s1, r1)
            e = 0
            for c in range(53):
                h = cnt[c]
                if h == 0:
                    continue
                cnt[c] = h - 1
                if c == 52:
                    idx, orb = _index_of_rows(sizes, ranks, S, cnt[52], R, NR, offs, B, s1, r1)
                    flag = 1 << 31
                else:
                    s = c // 13
                    keep_s, keep_r = sizes[s], ranks[s]
                    sizes[s], ranks[s] = _row_rank(cnt, s, R, NR)
                    idx, orb = _index_of_rows(sizes, ranks, S, cnt[52], R, NR, offs, B, s1, r1)
                    sizes[s], ranks[s] = keep_s, keep_r
                    flag = 0
                cnt[c] = h
                edges[i, e] = idx | ((caps[c] - h + 1) << 24) | flag
                e += 1
            for f in range(e, edges.shape[1]):
                edges[i, f] = 0


# =========================================================================== goals


@_jit()
def _is_rumino_counts(cnt, hand_size, distinct, natural_only):
    """Single-hand form of :func:`rumino.odds.enumerate.is_rumino_batch` (same rules)."""
    jokers = cnt[52]
    if natural_only and jokers > 0:
        return False
    total = jokers
    most = 0
    rmask = 0
    smask = 0
    for suit in range(4):
        for rank in range(13):
            k = cnt[suit * 13 + rank]
            if k > 0:
                total += k
                if k > most:
                    most = k
                rmask |= 1 << rank
                smask |= 1 << suit
    if total != hand_size:
        return False
    if rmask == 0:
        return True
    if (rmask & (rmask - 1)) == 0 and (not distinct or most <= 1):
        return True
    if (smask & (smask - 1)) == 0 and most <= 1:
        lo = 0
        while not (rmask >> lo) & 1:
            lo += 1
        hi = 12
        while not (rmask >> hi) & 1:
            hi -= 1
        if hi - lo <= hand_size - 1:
            return True
    return False


def goal_bits(counts: np.ndarray, rules: RuminoRules = RUMINO) -> tuple[np.ndarray, np.ndarray]:
    """``(bits, deadwood)`` of 7-card count vectors: bit 0 may knock, bit 1 gin, bit 2 rumino.

    Deadwood is the compiled kernel's (:func:`rumino.hand.kernels.min_deadwood_batch`);
    the rumino test is :func:`rumino.odds.enumerate.is_rumino_batch`.
    """

    dw = min_deadwood_batch(counts, rules.meld_rules)
    rum = is_rumino_batch(counts, HAND_SIZE, distinct=rules.set_suits == "distinct",
                          natural_only=rules.rumino_natural_only)
    bits = ((dw <= rules.knock_max_deadwood).astype(np.uint8) | ((dw == 0).astype(np.uint8) << 1)
            | (rum.astype(np.uint8) << 2))
    return bits, np.minimum(dw, 255).astype(np.uint8)


# =========================================================================== the Bellman passes


@_jit(parallel=True)
def _pass(edges, o8, inv7, V, modes, acc, bounds):
    """One sweep over the 8-card classes: the best discard's value, pushed back to each 7-card class.

    ``modes[k]`` 0: probability (max over discards), 1: expected draws (min).
    ``acc[t]`` is thread part ``t``'s private accumulator (deterministic sums).
    """
    T = acc.shape[0]
    K = V.shape[1]
    for t in numba.prange(T):
        a = acc[t]
        a[:, :] = 0.0
        best = np.empty(K)
        for i in range(bounds[t], bounds[t + 1]):
            for k in range(K):
                best[k] = -1.0 if modes[k] == 0 else 1e300
            for e in range(edges.shape[1]):
                x = edges[i, e]
                if x == 0:
                    break
                idx = x & 16777215
                for k in range(K):
                    v = V[idx, k]
                    if modes[k] == 0:
                        if v > best[k]:
                            best[k] = v
                    elif v < best[k]:
                        best[k] = v
            ow = np.float64(o8[i])
            for e in range(edges.shape[1]):
                x = edges[i, e]
                if x == 0:
                    break
                idx = x & 16777215
                coef = ow * np.float64((x >> 24) & 127) * inv7[idx]
                for k in range(K):
                    a[idx, k] += coef * best[k]


@_jit(parallel=True)
def _finish(acc, goal, gbits, modes, out):
    n = out.shape[0]
    K = out.shape[1]
    for i in numba.prange(n):
        for k in range(K):
            hit = (goal[i] >> gbits[k]) & 1
            if modes[k] == 0:
                if hit:
                    out[i, k] = 1.0
                else:
                    s = 0.0
                    for t in range(acc.shape[0]):
                        s += acc[t, i, k]
                    out[i, k] = s
            else:
                if hit:
                    out[i, k] = 0.0
                else:
                    s = 0.0
                    for t in range(acc.shape[0]):
                        s += acc[t, i, k]
                    out[i, k] = 1.0 + s


@_jit(parallel=True)
def _certify(V, TV, goal, gbits, rel_tv, rel_v, stats):
    """Per column, over the classes off the goal: max and min of ``δ = TV − V`` widened by its rounding
    margin, and max |δ| (``stats[k] = (max, min, max abs)``)."""
    n = V.shape[0]
    K = V.shape[1]
    nb = 64
    part = np.empty((nb, K, 3))
    for blk in numba.prange(nb):
        for k in range(K):
            part[blk, k, 0] = -np.inf
            part[blk, k, 1] = np.inf
            part[blk, k, 2] = 0.0
        for i in range(blk * n // nb, (blk + 1) * n // nb):
            for k in range(K):
                if (goal[i] >> gbits[k]) & 1:
                    continue
                d = TV[i, k] - V[i, k]
                m = rel_tv * abs(TV[i, k]) + rel_v * abs(V[i, k])
                if d + m > part[blk, k, 0]:
                    part[blk, k, 0] = d + m
                if d - m < part[blk, k, 1]:
                    part[blk, k, 1] = d - m
                if abs(d) > part[blk, k, 2]:
                    part[blk, k, 2] = abs(d)
    for k in range(K):
        stats[k, 0] = -np.inf
        stats[k, 1] = np.inf
        stats[k, 2] = 0.0
        for blk in range(nb):
            stats[k, 0] = max(stats[k, 0], part[blk, k, 0])
            stats[k, 1] = min(stats[k, 1], part[blk, k, 1])
            stats[k, 2] = max(stats[k, 2], part[blk, k, 2])


@_jit(parallel=True)
def _extrapolate(V, TV, goal, gbits, factor):
    """``V ← max(TV + factor·(TV − V), 1)`` off the goal (E* ≥ 1 there), 0 on it."""
    for i in numba.prange(V.shape[0]):
        for k in range(V.shape[1]):
            if (goal[i] >> gbits[k]) & 1:
                V[i, k] = 0.0
            else:
                v = TV[i, k] + factor[k] * (TV[i, k] - V[i, k])
                V[i, k] = v if v > 1.0 else 1.0


# =========================================================================== model and solver


def shape_key(shape: PackShape, rules: RuminoRules) -> str:
    knobs = f"k{rules.knock_max_deadwood}"
    if rules.max_lay_size is None:
        knobs += "-unlim"
    if rules.set_suits != "any":
        knobs += "-distinct"
    if rules.min_naturals_per_lay != 1:
        knobs += f"-nat{rules.min_naturals_per_lay}"
    if rules.rumino_natural_only:
        knobs += "-rnat"
    return f"s{shape.suits}r{shape.ranks}c{shape.copies}j{shape.jokers}-{knobs}"


def stage_bar(progress: bool, total: int | None, desc: str, unit: str, scale: bool = False):
    """A progress bar on stderr for one stage of a build (tqdm, as the other long commands draw
    theirs), or one that draws nothing; ``total=None`` counts without an end (the iteration to the
    tolerance, whose number of sweeps is not known in advance); ``scale`` writes 14.9M for 14,945,658."""
    return make_bar(total, desc, unit, scale=scale) if progress else NoBar()


@dataclass
class SolitaireModel:
    """The model of the module docstring on ``shape`` (default: the 108-card Rumino pack) and ``rules``.

    >>> m = SolitaireModel(PackShape(suits=2, ranks=4, copies=1, jokers=1))
    >>> m.unseen, m.n7 == class_count(m.shape, 7)
    (2, True)
    """

    shape: PackShape = field(default_factory=lambda: PackShape(4, 13, 2, 4))
    rules: RuminoRules = RUMINO
    threads: int = 2
    verbose: bool = False
    progress: bool = False  # a bar on stderr for each stage of solve() (classes, draws tabled, sweeps)

    def __post_init__(self):
        if self.shape.size < HAND_SIZE + 1:
            raise RuleConfigError(f"a pack of {self.shape.size} cards cannot hold a 7-card hand and a card to draw.")
        self.unseen = self.shape.size - HAND_SIZE
        self.idx7 = ClassIndex(self.shape, HAND_SIZE)
        self.n7 = self.idx7.n
        if self.n7 > _MASK:
            raise RuleConfigError(f"{self.n7:,} classes of 7 cards: the packed transition table holds at most "
                                  f"{_MASK:,} (a 24-bit index).")
        self.caps = np.zeros(53, np.int64)
        for c in self.shape.card_ids():
            self.caps[c] = self.shape.copies
        self.caps[JOKER] = self.shape.jokers
        self._log = []

    def log(self, msg: str) -> None:
        self._log.append(msg)
        if self.verbose and self.progress:
            from tqdm.auto import tqdm

            tqdm.write(msg, file=sys.stdout)  # above the bars, which it redraws
        elif self.verbose:
            print(msg, flush=True)

    # ---- building blocks

    def classes7(self) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
        """Goals, deadwood and suit relabellings of every 7-card class (checked against the perfect hash)."""
        goal = np.empty(self.n7, np.uint8)
        dw = np.empty(self.n7, np.uint8)
        orbit = np.empty(self.n7, np.uint8)
        self.w7 = np.empty(self.n7, np.float64)  # deals per class (exact: far below 2**53)
        pos = 0
        bar = stage_bar(self.progress, self.n7, "7-card classes", "classes", scale=True)
        for counts, w, _j in iter_classes(self.shape, HAND_SIZE):
            self.w7[pos:pos + len(counts)] = w
            n = len(counts)
            idx = np.empty(n, np.int64)
            orb = np.empty(n, np.int64)
            _index_batch(counts, self.shape.suits, self.shape.ranks, self.idx7.NR, self.idx7.offs, self.idx7.B,
                         idx, orb)
            if not np.array_equal(idx, np.arange(pos, pos + n)):
                raise ArithmeticError("the perfect hash disagrees with the enumeration order: a bug")
            goal[pos:pos + n], dw[pos:pos + n] = goal_bits(counts, self.rules)
            orbit[pos:pos + n] = orb
            pos += n
            bar.update(n)
        bar.close()
        return goal, dw, orbit

    def transitions(self) -> tuple[np.ndarray, np.ndarray]:
        """``(edges (n8, 8) uint32, o8 (n8,) uint8)`` over every 8-card class."""
        n8 = class_count(self.shape, HAND_SIZE + 1)
        edges = np.empty((n8, HAND_SIZE + 1), np.uint32)
        o8 = np.empty(n8, np.uint8)
        pos = 0
        ci = self.idx7
        bar = stage_bar(self.progress, n8, "8-card classes", "classes", scale=True)
        for counts, _w, _j in iter_classes(self.shape, HAND_SIZE + 1):
            n = len(counts)
            e = np.empty((n, HAND_SIZE + 1), np.int64)
            o = np.empty(n, np.int64)
            _edges_chunk(counts, self.caps, self.shape.suits, self.shape.ranks, ci.NR, ci.offs, ci.B, e, o)
            edges[pos:pos + n] = e
            o8[pos:pos + n] = o
            pos += n
            bar.update(n)
        bar.close()
        if pos != n8:
            raise ArithmeticError("8-card class count mismatch: a bug")
        return edges, o8

    # ---- solving

    def solve(self, horizon: int = MAX_HORIZON, infinite: bool = True, tol: float = 1e-6,
              max_iter: int = 2000, out_dir: Path | None = None, reuse_finite: bool = False,
              max_seconds: float | None = None) -> "OptimalTable":
        """Every table: ``P_n`` for n = 1 … ``horizon`` and each goal; ``E`` for knock and gin if ``infinite``.

        With ``out_dir`` the big probability table is written straight into
        ``out_dir/prob.npy`` (memory-mapped) instead of being held in memory, and
        the finite-horizon table is saved (usable) as soon as it is done; with
        ``reuse_finite`` a finished ``prob.npy`` there (marked by ``finite.done``)
        is kept instead of recomputed. ``max_seconds`` caps the infinite-horizon
        iteration: it then stops with the certified bound reached so far (recorded).
        """
        if isinstance(horizon, bool) or not isinstance(horizon, int) or not 1 <= horizon <= 64:
            raise RuleConfigError(f"horizon is {horizon!r}: it must be an integer from 1 to 64.")
        t0 = time.perf_counter()
        goal, dw, orbit7 = self.classes7()
        self.log(f"7-card classes: {self.n7:,} (goals, deadwood) in {time.perf_counter() - t0:.1f} s")
        t1 = time.perf_counter()
        edges, o8 = self.transitions()
        self.log(f"8-card classes: {len(o8):,}, {int(np.count_nonzero(edges)):,} discard edges in "
                 f"{time.perf_counter() - t1:.1f} s")
        inv7 = 1.0 / (orbit7.astype(np.float64) * self.unseen)
        T = max(1, int(self.threads))
        bounds = np.linspace(0, len(o8), T + 1).astype(np.int64)
        # weights add up to 1 for every class (the turned-round sum is the sum over draws)
        modes = np.zeros(1, np.int64)
        acc = np.zeros((T, self.n7, 1))
        _pass(edges, o8, inv7, np.ones((self.n7, 1)), modes, acc, bounds)
        wsum = acc.sum(axis=0)[:, 0]
        weight_error = float(np.abs(wsum - 1).max())
        if weight_error > 1e-12:
            raise ArithmeticError(f"draw weights add up to 1 ± {weight_error}: a bug in the transitions")
        del acc
        # ---- finite horizon: the three goals side by side
        t2 = time.perf_counter()
        K = len(GOALS)
        done_mark = Path(out_dir) / "finite.done" if out_dir is not None else None
        reuse = bool(reuse_finite and done_mark is not None and done_mark.exists())
        if reuse:
            prob = open_array(Path(out_dir) / "prob.npy", (K, horizon, self.n7), "the finished table to reuse")
            self.log("finite horizon: reusing the finished prob.npy")
            rumino_last = np.asarray(prob[GOALS.index("rumino"), horizon - 1], dtype=np.float64)
        else:
            prob, rumino_last = self._finite(edges, o8, inv7, goal, bounds, horizon, out_dir)
        finite_seconds = time.perf_counter() - t2
        table = OptimalTable(shape=self.shape, rules=self.rules, prob=prob, goal=goal, deadwood=dw,
                             expected=None, meta={})
        table.meta.update(classes7=self.n7, classes8=int(len(o8)), edges=int(np.count_nonzero(edges)),
                          unseen=self.unseen, horizon=horizon, weight_error=weight_error,
                          finite_error_bound=horizon * (K_TERMS + 3) * U_ROUND, finite_seconds=finite_seconds,
                          finite_reused=reuse)
        table.figures["dealt"] = dealt_figures(table.prob, goal, None, self.w7, comb(self.shape.size, HAND_SIZE))
        if out_dir is not None:  # usable at once (probabilities), before the long infinite phase
            if not reuse:
                done_mark.write_text("finite horizon complete\n")
            table.meta["log"] = list(self._log)
            table.save(Path(out_dir).parent)
        return self._solve_rest(table, edges, o8, inv7, goal, dw, bounds, horizon, infinite, tol, max_iter,
                                rumino_last, max_seconds, t0)

    def _finite(self, edges, o8, inv7, goal, bounds, horizon, out_dir):
        t2 = time.perf_counter()
        K = len(GOALS)
        T = len(bounds) - 1
        modes = np.zeros(K, np.int64)
        gb = np.arange(K, dtype=np.int64)
        V = np.stack([(goal >> k) & 1 for k in range(K)], axis=1).astype(np.float64)
        acc = np.zeros((T, self.n7, K))
        if out_dir is not None:
            Path(out_dir).mkdir(parents=True, exist_ok=True)
            prob = np.lib.format.open_memmap(Path(out_dir) / "prob.npy", mode="w+", dtype=np.float32,
                                             shape=(K, horizon, self.n7))
        else:
            prob = np.empty((K, horizon, self.n7), np.float32)
        bar = stage_bar(self.progress, horizon, "finite horizon", "draws")  # one sweep of every class per draw
        for n in range(1, horizon + 1):
            _pass(edges, o8, inv7, V, modes, acc, bounds)
            _finish(acc, goal, gb, modes, V)
            prob[:, n - 1, :] = V.T
            self.log(f"  horizon {n}: {time.perf_counter() - t2:.1f} s")
            bar.update(1)
        bar.close()
        finite_seconds = time.perf_counter() - t2
        del acc
        rumino_last = V[:, GOALS.index("rumino")].copy()  # P_horizon(rumino), for the discard figures
        del V
        if out_dir is not None:  # flush, and map read-only: its pages stop counting against this process
            prob.flush()
            del prob
            prob = np.load(Path(out_dir) / "prob.npy", mmap_mode="r")
        return prob, rumino_last

    def _solve_rest(self, table, edges, o8, inv7, goal, dw, bounds, horizon, infinite, tol, max_iter,
                    rumino_last, max_seconds, t0):
        T = len(bounds) - 1
        if infinite:
            t3 = time.perf_counter()
            E, info = self._expected(edges, o8, inv7, goal, bounds, tol, max_iter, max_seconds)
            table.meta.update(infinite=info, infinite_seconds=time.perf_counter() - t3)
        if infinite and E is not None:
            table.expected = E.astype(np.float32).T.copy()
            t4 = time.perf_counter()
            ctab = np.array([[comb(n, k) for k in range(17)] for n in range(17)], dtype=np.float64)
            fig = np.zeros((T, 3, 5))
            _discard_figures(edges, o8, dw, np.ascontiguousarray(E), rumino_last,
                             self.shape.copies, self.shape.jokers, ctab, bounds, fig)
            fig = fig.sum(axis=0)
            total8 = comb(self.shape.size, HAND_SIZE + 1)
            if abs(fig[0, 0] - total8) > 1e-9 * total8:
                raise ArithmeticError(f"8-card deal weights add up to {fig[0, 0]}, not C(pack, 8) = {total8}")
            names = ["knock_expected_draws", "gin_expected_draws", f"rumino_probability_{horizon}_draws"]
            table.figures["discard"] = {"hands": total8, **{
                nm: {"best_is_not_least_deadwood": fig[k, 1] / total8, "mean_loss": fig[k, 2] / total8,
                     "not_at_goal": fig[k, 3] / total8,
                     "best_is_not_least_deadwood_among_not_at_goal": fig[k, 4] / fig[k, 3] if fig[k, 3] else None}
                for k, nm in enumerate(names)}}
            self.log(f"discard figures in {time.perf_counter() - t4:.1f} s")
        table.figures["dealt"] = dealt_figures(table.prob, goal, table.expected, self.w7,
                                               comb(self.shape.size, HAND_SIZE))
        table.meta["build_seconds"] = time.perf_counter() - t0
        table.meta["log"] = list(self._log)
        return table

    def _expected(self, edges, o8, inv7, goal, bounds, tol, max_iter, max_seconds=None):
        K = len(TIMED_GOALS)
        modes = np.ones(K, np.int64)
        gb = np.array([GOALS.index(g) for g in TIMED_GOALS], np.int64)
        T = len(bounds) - 1
        acc = np.zeros((T, self.n7, K))
        V = np.zeros((self.n7, K))
        TV = np.empty_like(V)
        stats = np.empty((K, 3))
        prev_step = None
        ratios: list = []
        last_jump = 0
        info = {"tolerance": tol, "iterations": 0, "extrapolations": 0, "converged": False}
        t0 = time.perf_counter()
        lo = hi = None
        # sweeps until the certified gap is below tol: their number is not known in advance
        bar = stage_bar(self.progress, None, "expected draws", "sweeps")
        for it in range(1, max_iter + 1):
            _pass(edges, o8, inv7, V, modes, acc, bounds)
            _finish(acc, goal, gb, modes, TV)
            _certify(V, TV, goal, gb, (K_TERMS + 3) * U_ROUND, 4 * U_ROUND, stats)
            dmax, dmin, step = stats[:, 0].copy(), stats[:, 1].copy(), stats[:, 2].copy()
            info["iterations"] = it
            bar.update(1)
            if np.all(dmax < 1) and it > 1:
                lo = 1.0 / (1.0 - dmin)  # per goal: E* >= lo * V
                hi = 1.0 / (1.0 - dmax)  # E* <= hi * V
                gap = float(np.max(hi - lo))
                bar.set_postfix_str(f"gap {gap:.1e}, tolerance {tol:g}")
                self.log(f"  expected draws, iteration {it}: certified relative gap {gap:.2e} "
                         f"({time.perf_counter() - t0:.0f} s)")
                if gap <= tol:
                    info["converged"] = True
                    break
                if max_seconds is not None and time.perf_counter() - t0 > max_seconds:
                    info["stopped"] = f"time budget of {max_seconds:.0f} s reached: the bound is the one certified"
                    break
                if prev_step is not None:
                    ratios.append(step / np.maximum(prev_step, 1e-300))
                stable = (len(ratios) >= 3 and it - last_jump >= 4
                          and np.all(np.abs(ratios[-1] - ratios[-2]) < 0.01)
                          and np.all(np.abs(ratios[-2] - ratios[-3]) < 0.01) and np.all(ratios[-1] < 0.995))
                if stable:
                    # geometric extrapolation of the last step once its ratio has settled (the dominant
                    # mode): only the trial vector moves; the certificate is recomputed at the next sweep
                    r = ratios[-1]
                    _extrapolate(V, TV, goal, gb, r / (1 - r))
                    info["extrapolations"] += 1
                    last_jump = it
                    ratios.clear()
                else:
                    V, TV = TV, V
            else:
                if max_seconds is not None and time.perf_counter() - t0 > max_seconds:
                    info["stopped"] = f"time budget of {max_seconds:.0f} s reached before any certificate"
                    bar.close()
                    return None, info
                V, TV = TV, V
            prev_step = step
        else:
            raise ArithmeticError(f"value iteration did not reach the tolerance {tol} in {max_iter} sweeps")
        bar.close()
        del acc, TV
        # V (the last trial vector) with its certificate; report the midpoint of the interval
        V *= ((lo + hi) / 2)[None, :]
        info.update(lower_factor=lo.tolist(), upper_factor=hi.tolist(),
                    relative_error_bound=float(np.max((hi - lo) / (hi + lo))), goals=list(TIMED_GOALS))
        return V, info


# =========================================================================== the table


BUILD_COMMAND = "rumino optimal build"
# measured: 932 s on the 2-core CI machine, 1.94 GB written (book/data/optimal_figures.json, "build")
BUILD_COST = "about 16 minutes on 2 cores and 2 GB of disk"

def default_table_dir() -> Path:
    """Where built tables live: ``$RUMINO_OPTIMAL_DIR``, else ``$XDG_CACHE_HOME/rumino/optimal``
    (``~/.cache/rumino/optimal``)."""
    env = os.environ.get("RUMINO_OPTIMAL_DIR")
    if env:
        return Path(env)
    base = os.environ.get("XDG_CACHE_HOME") or str(Path.home() / ".cache")
    return Path(base) / "rumino" / "optimal"


@dataclass
class OptimalTable:
    """The solved tables of one pack shape and rules, in memory or memory-mapped from disk.

    ``prob[g, n−1, i]``: best P(goal ``GOALS[g]`` within ``n`` draws) of 7-card class ``i``;
    ``expected[g, i]``: best expected draws to ``TIMED_GOALS[g]``; ``goal``: goal bits.
    """

    shape: PackShape
    rules: RuminoRules
    prob: np.ndarray
    goal: np.ndarray
    deadwood: np.ndarray
    expected: np.ndarray | None
    meta: dict
    figures: dict = field(default_factory=dict)

    _index: ClassIndex | None = None

    @property
    def index(self) -> ClassIndex:
        if self._index is None:
            self._index = ClassIndex(self.shape, HAND_SIZE)
        return self._index

    @property
    def horizon(self) -> int:
        return self.prob.shape[1]

    def class_of(self, hand: str | Sequence[int] | np.ndarray) -> int:
        cnt = _counts_of(hand, self.shape)
        if int(cnt.sum()) != HAND_SIZE:
            raise InvalidCardError(f"a class of the table is a 7-card hand; this one has {int(cnt.sum())} cards.")
        return int(self.index.index(cnt))

    def value7(self, cnt: np.ndarray, goal: str, draws: int) -> float:
        i = int(self.index.index(cnt))
        g = GOALS.index(goal)
        if draws == 0:
            return float((self.goal[i] >> g) & 1)
        return float(self.prob[g, draws - 1, i])

    def expected7(self, cnt: np.ndarray, goal: str) -> float | None:
        if self.expected is None or goal not in TIMED_GOALS:
            return None
        i = int(self.index.index(cnt))
        return float(self.expected[TIMED_GOALS.index(goal), i])

    def probability(self, hand: str | Sequence[int] | np.ndarray, goal: str, draws: int) -> float:
        """Best P(goal within ``draws`` draws) of a 7-card hand (text or card ids)."""
        return self.value7(_counts_of(hand, self.shape, size=HAND_SIZE), goal, draws)

    # ---- disk

    def save(self, directory: Path | str | None = None) -> Path:
        """Write the table under ``directory`` (default :func:`default_table_dir`) / its shape key."""
        d = Path(directory or default_table_dir()) / shape_key(self.shape, self.rules)
        d.mkdir(parents=True, exist_ok=True)
        if not (isinstance(self.prob, np.memmap) and Path(self.prob.filename).resolve() == (d / "prob.npy").resolve()):
            np.save(d / "prob.npy", self.prob)
        else:
            self.prob.flush()
        np.save(d / "goal.npy", self.goal)
        np.save(d / "deadwood.npy", self.deadwood)
        if self.expected is not None:
            np.save(d / "expected.npy", self.expected)
        meta = dict(self.meta, shape=[self.shape.suits, self.shape.ranks, self.shape.copies, self.shape.jokers],
                    knock_max_deadwood=self.rules.knock_max_deadwood, goals=list(GOALS))
        (d / "meta.json").write_text(json.dumps(meta, indent=1))
        if self.figures:
            (d / "figures.json").write_text(json.dumps(self.figures, indent=1))
        return d

    @classmethod
    def load(cls, shape: PackShape | None = None, rules: RuminoRules = RUMINO,
             directory: Path | str | None = None) -> "OptimalTable":
        """Memory-map a saved table (nothing is read until looked up)."""
        shape = shape or PackShape(4, 13, 2, 4)
        d = Path(directory or default_table_dir()) / shape_key(shape, rules)
        if not (d / "meta.json").exists():
            raise TableMissingError(f"no optimal table for this pack and rules in {d}: build it with "
                                    f"`{BUILD_COMMAND}` ({BUILD_COST}).")
        # every file checked against the pack before a look-up: a damaged one is refused in one line here,
        # not met as a numpy error (or a wrong answer) in the middle of a game
        try:
            meta = json.loads((d / "meta.json").read_text(encoding="utf-8"))
        except (OSError, ValueError) as err:
            raise TableDamagedError(f"the optimal table in {d} is damaged (meta.json cannot be read: "
                                    f"{type(err).__name__}): build it again with `{BUILD_COMMAND}` ({BUILD_COST}), "
                                    f"or set RUMINO_OPTIMAL_DIR to a folder with a good one.") from None
        dims = [shape.suits, shape.ranks, shape.copies, shape.jokers]
        if not isinstance(meta, dict) or meta.get("shape", dims) != dims:
            raise TableDamagedError(f"the optimal table in {d} is damaged (meta.json does not describe this pack): "
                                    f"build it again with `{BUILD_COMMAND}` ({BUILD_COST}).")
        n7 = class_count(shape, HAND_SIZE)
        prob = open_array(d / "prob.npy", (len(GOALS), None, n7))
        sample = np.asarray(prob[:, :, : min(n7, 4096)], dtype=np.float64)
        if not np.all((sample >= 0) & (sample <= 1)):  # NaN included: a chance is from 0 to 1
            raise TableDamagedError(f"the optimal table in {d} is damaged (prob.npy holds values that are not "
                                    f"chances): build it again with `{BUILD_COMMAND}` ({BUILD_COST}).")
        exp = (open_array(d / "expected.npy", (len(TIMED_GOALS), n7)) if (d / "expected.npy").exists() else None)
        return cls(shape=shape, rules=rules, prob=prob, goal=open_array(d / "goal.npy", (n7,)),
                   deadwood=open_array(d / "deadwood.npy", (n7,)), expected=exp, meta=meta)


def _counts_of(hand, shape: PackShape, size: int | None = None) -> np.ndarray:
    """Count vector of a hand (text, card ids or counts), checked against ``shape``."""
    if isinstance(hand, str):
        hand = parse_hand(hand)
    if isinstance(hand, np.ndarray) and hand.shape == (N_KINDS,):
        cnt = hand.astype(np.int64)
    else:
        cnt = to_counts([int(c) for c in hand]).astype(np.int64)
    allowed = set(shape.card_ids())
    for c in range(53):
        if cnt[c] == 0:
            continue
        cap = shape.jokers if c == JOKER else (shape.copies if c in allowed else 0)
        if cnt[c] > cap:
            name = "jokers" if c == JOKER else f"copies of {format_card(c)}"
            raise InvalidCardError(f"the hand holds {int(cnt[c])} {name}, but the pack has {cap}.")
    if size is not None and int(cnt.sum()) != size:
        raise InvalidCardError(f"the hand has {int(cnt.sum())} cards; {size} are needed here.")
    return cnt


# =========================================================================== direct answers (no table)


@_jit()
def _goal_after(cnt, rows, goal, limit, T, banned, disc):
    """Goal of the hand (disc=0), or of its best 7 after discarding one (disc=1)."""
    if goal == 2:
        if disc == 0:
            return _is_rumino_counts(cnt, 7, False, False)
        for d in range(53):
            if cnt[d] > 0:
                cnt[d] -= 1
                ok = _is_rumino_counts(cnt, 7, False, False)
                cnt[d] += 1
                if ok:
                    return True
        return False
    load_rows(cnt, rows)
    v = deadwood_dfs(cnt, rows, cnt[52], np.int64(0), np.int64(BIG), np.int64(0), np.int64(disc), T, banned)
    load_rows(cnt, rows)
    return v <= (limit if goal == 0 else 0)


@_jit()
def _p1(cnt, caps, U, goal, limit, T, banned, rows):
    """Best P(goal within 1 draw) of a 7-card hand."""
    if _goal_after(cnt, rows, goal, limit, T, banned, 0):
        return 1.0
    s = 0.0
    for c in range(53):
        w = caps[c] - cnt[c]
        if w <= 0:
            continue
        cnt[c] += 1
        if _goal_after(cnt, rows, goal, limit, T, banned, 1):
            s += w / U
        cnt[c] -= 1
    return s


@_jit()
def _p2(cnt, caps, U, goal, limit, T, banned, rows):
    if _goal_after(cnt, rows, goal, limit, T, banned, 0):
        return 1.0
    s = 0.0
    for c in range(53):
        w = caps[c] - cnt[c]
        if w <= 0:
            continue
        cnt[c] += 1
        best = 0.0
        for d in range(53):
            if cnt[d] == 0:
                continue
            cnt[d] -= 1
            v = _p1(cnt, caps, U, goal, limit, T, banned, rows)
            cnt[d] += 1
            if v > best:
                best = v
                if best >= 1.0:
                    break
        s += w / U * best
        cnt[c] -= 1
    return s


def direct_values(cnt7: np.ndarray, goal: str, draws: int, shape: PackShape, rules: RuminoRules = RUMINO) -> float:
    """Best P(goal within ``draws`` ≤ 2 draws) of one 7-card hand, computed from scratch (no table).

    The same recursion as the table, over explicit hands (compiled): the check
    of the table on the full pack and the answer when no table is built.

    >>> from rumino.odds.enumerate import PackShape
    >>> p = direct_values(to_counts(parse_hand("7h 8h 9h 5c 5d 5s Ks")), "gin", 1, PackShape(4, 13, 2, 4))
    >>> round(p * 101)   # 6h ×2, 10h ×2, a five ×5 (5555 + 7-8-9), a joker ×4: 13 of the 101 unseen
    13
    """
    if goal not in GOALS:
        raise RuleConfigError(f"goal {goal!r} is not one of {', '.join(GOALS)}.")
    if rules.rumino_natural_only or rules.set_suits != "any":
        if goal == "rumino":
            raise RuleConfigError("the direct rumino answer covers the default rumino rules only.")
    if not 0 <= draws <= 2:
        raise TableMissingError(f"{draws} draws cannot be answered directly (at most 2 without the table).")
    caps = np.zeros(53, np.int64)
    for c in shape.card_ids():
        caps[c] = shape.copies
    caps[JOKER] = shape.jokers
    cnt = np.asarray(cnt7, dtype=np.int64).copy()
    T = rule_tables(rules.meld_rules)
    banned = np.zeros(53, np.int8)
    rows = np.zeros(4, np.int64)
    U = float(shape.size - HAND_SIZE)
    g = GOALS.index(goal)
    lim = rules.knock_max_deadwood
    if draws == 0:
        return float(_goal_after(cnt, rows, g, lim, T, banned, 0))
    if draws == 1:
        return float(_p1(cnt, caps, U, g, lim, T, banned, rows))
    return float(_p2(cnt, caps, U, g, lim, T, banned, rows))


# =========================================================================== one hand's answer


def best_answer(hand: str | Sequence[int] | np.ndarray, goal: str, draws: int, *, table: OptimalTable | None = None,
                shape: PackShape | None = None, rules: RuminoRules = RUMINO,
                directory: Path | str | None = None) -> dict:
    """The answer ``rumino odds best`` prints: from the table if one is given or saved, else directly.

    An 8-card hand: which card to throw, then ``draws`` more draws (``discards``
    lists every distinct card with its value). A 7-card hand: its value, and what
    each possible next draw is worth after the best discard.
    """
    if goal not in GOALS:
        raise RuleConfigError(f"goal {goal!r} is not one of {', '.join(GOALS)}.")
    if isinstance(draws, bool) or not isinstance(draws, int) or draws < 0:
        raise RuleConfigError(f"draws is {draws!r}: it must be a non-negative integer.")
    shape = shape or (table.shape if table is not None else PackShape(4, 13, 2, 4))
    cnt = _counts_of(hand, shape)
    n = int(cnt.sum())
    if n not in (HAND_SIZE, HAND_SIZE + 1):
        raise InvalidCardError(f"the hand has {n} cards: give 7 (what the next draw is worth) or 8 "
                               f"(which card to throw).")
    source = "table"
    if table is None:
        try:
            table = OptimalTable.load(shape, rules, directory)
        except TableMissingError:
            if draws > 2:
                raise TableMissingError(
                    f"{draws} draws from {'an' if n == 8 else 'a'} {n}-card hand need the optimal table, which is "
                    f"not built in {Path(directory or default_table_dir())}: run `{BUILD_COMMAND}` ({BUILD_COST}), "
                    f"or ask for at most 2 draws.") from None
            source = "direct"
    if table is not None and draws > table.horizon:
        raise RuleConfigError(f"draws is {draws}: the table goes up to {table.horizon} draws.")

    g = GOALS.index(goal)

    def many(c7s, k):
        """Values of several 7-card hands after ``k`` draws (one batched look-up from the table)."""
        if table is None:
            return [direct_values(c7, goal, k, shape, rules) for c7 in c7s]
        idx = table.index.index(np.stack(c7s))
        if k == 0:
            return [float((int(table.goal[i]) >> g) & 1) for i in idx]
        return [float(x) for x in np.asarray(table.prob[g, k - 1])[idx]]

    def v7(c7, k):
        return many([c7], k)[0]

    def e7s(c7s):
        if table is None or table.expected is None or goal not in TIMED_GOALS:
            return [None] * len(c7s)
        idx = table.index.index(np.stack(c7s))
        return [float(x) for x in np.asarray(table.expected[TIMED_GOALS.index(goal)])[idx]]

    def e7(c7):
        return e7s([c7])[0]

    out = {"hand": " ".join(format_card(c) for c in range(53) for _ in range(int(cnt[c]))), "goal": goal,
           "draws": draws, "source": source}
    if n == HAND_SIZE + 1:
        cards, c7s = [], []
        for d in range(53):
            if cnt[d] == 0:
                continue
            c7 = cnt.copy()
            c7[d] -= 1
            cards.append(d)
            c7s.append(c7)
        rows = [{"card": format_card(d), "probability": p, "expected_draws": e}
                for d, p, e in zip(cards, many(c7s, draws), e7s(c7s))]
        rows.sort(key=lambda r: (-r["probability"], r["expected_draws"] if r["expected_draws"] is not None else 0))
        out["probability"] = rows[0]["probability"]
        if goal in TIMED_GOALS:
            exps = [r["expected_draws"] for r in rows]
            out["expected_draws"] = None if exps[0] is None else min(exps)
        out["best_discard"] = rows[0]["card"]
        out["discards"] = rows
    else:
        out["probability"] = v7(cnt, draws)
        if goal in TIMED_GOALS:
            out["expected_draws"] = e7(cnt)
        out["best_discard"] = None
        out["discards"] = []
        if draws >= 1:
            U = shape.size - HAND_SIZE
            caps = np.zeros(53, np.int64)
            for c in shape.card_ids():
                caps[c] = shape.copies
            caps[JOKER] = shape.jokers
            nexts, keys, c7s = [], [], []
            for c in range(53):
                w = int(caps[c] - cnt[c])
                if w <= 0:
                    continue
                c8 = cnt.copy()
                c8[c] += 1
                for d in range(53):
                    if c8[d]:
                        c7 = c8.copy()
                        c7[d] -= 1
                        keys.append((c, w, d))
                        c7s.append(c7)
            vals = many(c7s, draws - 1)
            best: dict = {}
            for (c, w, d), v in zip(keys, vals):
                if c not in best or v > best[c][0]:
                    best[c] = (v, d, w)
            for c, (v, d, w) in best.items():
                nexts.append({"card": format_card(c), "chance": w / U, "probability": v,
                              "best_discard": format_card(d)})
            nexts.sort(key=lambda r: -r["probability"])
            out["next_draws"] = nexts
    return out


# =========================================================================== keep-the-target bounds


def _chain_table(kind: str, horizon: int, U: int, copies: int, max_k: int, max_j: int, replace: bool) -> np.ndarray:
    """P(target made within n draws) of the keep-the-target policy, for every small state.

    ``kind == "sf"``: state ``(k1, k0, ju, jh)`` — missing kinds that can be drawn
    (``copies`` unseen each), missing kinds outside the pack (only jokers fill
    them), jokers unseen, jokers held. ``kind == "set"``: ``(a, need, ju, jh)`` —
    copies of the rank unseen, naturals still needed. Drawn blanks go back to the
    stock when ``replace`` (this module's model: ``U`` unseen at every draw), or
    not (chapter 5's chain: ``U − t`` unseen after ``t`` draws).
    """
    dims = (max_k + 1, max_k + 1, max_j + 1, max_j + 1)
    out = np.zeros((horizon + 1,) + dims)

    def done(x, y, ju, jh):
        return (x + y <= jh) if kind == "sf" else (y <= jh)

    # P[t][state] = P(made by the end | state after t draws); backwards over t
    nxt = np.zeros(dims)
    for x, y, ju, jh in np.ndindex(*dims):
        nxt[x, y, ju, jh] = float(done(x, y, ju, jh))
    # values by draws left: table[n] = P(made within n draws) from a fresh start (t = horizon - n)
    tables = [nxt.copy()]
    cur = nxt
    for left in range(1, horizon + 1):
        t = horizon - left  # draws already made when `left` remain (chapter 5's u = U - t)
        u = U if replace else U - t
        new = np.zeros(dims)
        for x, y, ju, jh in np.ndindex(*dims):
            if done(x, y, ju, jh):
                new[x, y, ju, jh] = 1.0
                continue
            if u <= 0:  # no card left to draw (a small pack, no reshuffle): nothing changes any more
                new[x, y, ju, jh] = cur[x, y, ju, jh]
                continue
            if kind == "sf":
                p_hit = x * copies / u
                hit = cur[x - 1, y, ju, jh] if x > 0 else 0.0
            else:
                p_hit = x / u
                hit = cur[x - 1, y - 1, ju, jh] if x > 0 and y > 0 else 0.0
            p_j = ju / u
            jok = cur[x, y, ju - 1, jh + 1] if ju > 0 and jh < max_j else 0.0
            p_stay = max(0.0, 1.0 - p_hit - p_j)
            new[x, y, ju, jh] = p_hit * hit + p_j * jok + p_stay * cur[x, y, ju, jh]
        tables.append(new)
        cur = new
    return np.stack(tables)  # without replacement only tables[horizon] starts at t = 0: see _chain_stack


@_jit(parallel=True)
def _keep_target(counts, R, S, C, jokers, sf, st, out):
    """``out[i, n-1]`` = best keep-the-target P(rumino within n draws), n = 1 … out.shape[1]."""
    n = counts.shape[0]
    H = out.shape[1]
    for i in numba.prange(n):
        jh = counts[i, 52]
        ju = jokers - jh
        for m in range(H):
            out[i, m] = 0.0
        for s in range(S):
            for lo in range(0, 7):  # windows A–7 … 7–K
                x = 0
                y = 0
                for r in range(lo, lo + 7):
                    if r < R:
                        if counts[i, s * 13 + r] == 0:
                            x += 1
                    else:
                        y += 1
                for m in range(H):
                    v = sf[m + 1, x, y, ju, jh]
                    if v > out[i, m]:
                        out[i, m] = v
        for r in range(R):
            h = 0
            for s in range(S):
                h += counts[i, s * 13 + r]
            need = 7 - h
            if need < 0:
                need = 0
            a = S * C - h
            for m in range(H):
                v = st[m + 1, a, need, ju, jh]
                if v > out[i, m]:
                    out[i, m] = v


class KeepTarget:
    """The best keep-the-target P(rumino within n draws), n = 1 … ``horizon``, for count vectors of ``shape``.

    The best over every target (each straight-flush window of each suit and each
    rank), so with ``replace=True`` (this module's model) a lower bound of the
    optimal value: keeping one target is one policy among all. With
    ``replace=False`` it is the no-reshuffle chain of chapter 5
    (:class:`rumino.odds.markov.KeepTargetChain`, maximised over targets), which
    lives in a different model and is *not* a bound here.
    """

    def __init__(self, shape: PackShape, horizon: int, replace: bool = True):
        self.shape, self.horizon = shape, horizon
        U = shape.size - HAND_SIZE
        mk = max(8, shape.suits * shape.copies + 1)
        mj = max(shape.jokers, 1)
        self.sf = _chain_stack("sf", horizon, U, shape.copies, mk, mj, replace)
        self.st = _chain_stack("set", horizon, U, shape.copies, mk, mj, replace)

    def __call__(self, counts: np.ndarray) -> np.ndarray:
        arr = np.ascontiguousarray(np.asarray(counts).reshape(-1, N_KINDS), dtype=np.int64)
        out = np.empty((len(arr), self.horizon))
        s = self.shape
        _keep_target(arr, s.ranks, s.suits, s.copies, s.jokers, self.sf, self.st, out)
        return out


def _chain_stack(kind, horizon, U, copies, mk, mj, replace):
    """``[P within n draws]`` for n = 0 … horizon, each from a fresh start (t = 0)."""
    if replace:  # time-homogeneous: one backward run gives every n
        return _chain_table(kind, horizon, U, copies, mk, mj, True)
    return np.stack([_chain_table(kind, n, U, copies, mk, mj, False)[n] for n in range(horizon + 1)])


def keep_target_values(counts: np.ndarray, draws: int, shape: PackShape, *, replace: bool = True) -> np.ndarray:
    """:class:`KeepTarget` for one number of draws.

    >>> from rumino.odds.enumerate import PackShape
    >>> c = to_counts(parse_hand("5h 5h 5s 5s 5d 5c 9c"))[None, :]
    >>> round(float(keep_target_values(c, 1, PackShape(4, 13, 2, 4))[0]), 6)  # 1 five + 4 jokers of 101
    0.059406
    """
    if isinstance(draws, bool) or not isinstance(draws, int) or draws < 1:
        raise RuleConfigError(f"draws is {draws!r}: it must be a positive integer.")
    return KeepTarget(shape, draws, replace)(counts)[:, draws - 1]


def check_keep_target(table: "OptimalTable", verbose: bool = False, progress: bool = False) -> dict:
    """Compare the rumino table with keep-the-target on every class: the reshuffle chain must never
    exceed the optimal value (a lower bound); count how often chapter 5's no-reshuffle chain does.

    Returns the number of violations (tolerance 1e-6: the float32 storage), the
    smallest margin, and the count and largest excess of chapter 5's chain at the horizon.
    ``progress`` draws a bar over the classes on stderr.
    """
    H = table.horizon
    low = KeepTarget(table.shape, H, replace=True)
    ch5 = KeepTarget(table.shape, H, replace=False)
    g = GOALS.index("rumino")
    pos = 0
    violations, margin, over, excess = 0, np.inf, 0, 0.0
    bar = stage_bar(progress, table.index.n, "keep-target check", "classes", scale=True)
    for counts, _w, _j in iter_classes(table.shape, HAND_SIZE):
        n = len(counts)
        opt = np.asarray(table.prob[g, :, pos:pos + n], dtype=np.float64).T
        lb = low(counts)
        diff = opt - lb
        violations += int((diff < -1e-6 * np.maximum(lb, 1e-30) - 1e-12).sum())
        margin = min(margin, float(diff.min()))
        c5 = ch5(counts)[:, H - 1] - opt[:, H - 1]
        over += int((c5 > 1e-6).sum())
        excess = max(excess, float(c5.max()))
        pos += n
        bar.update(n)
    bar.close()
    out = {"classes": pos, "horizons": H, "violations": violations, "smallest_margin": margin,
           "chapter5_chain_above_optimal": over, "chapter5_largest_excess": excess}
    return out


# =========================================================================== figures (issue 14, item 4)


@_jit(parallel=True)
def _discard_figures(edges, o8, dw, E, P, copies, jokers, ctab, bounds, out):
    """Over every 8-card hand (each class weighted by its deals): does some least-deadwood discard reach
    the optimum? ``out[t, k]`` = (weight, weight where it does not, weighted loss, weight not at goal,
    weight not at goal where it does not) for criterion k: E[:, 0], E[:, 1] (min), P (max)."""
    T = bounds.shape[0] - 1
    for t in numba.prange(T):
        for i in range(bounds[t], bounds[t + 1]):
            w = np.float64(o8[i])
            least = 1 << 30
            for e in range(edges.shape[1]):
                x = edges[i, e]
                if x == 0:
                    break
                u = (x >> 24) & 127
                if x >> 31:
                    w *= ctab[jokers, jokers + 1 - u]
                else:
                    w *= ctab[copies, copies + 1 - u]
                d = dw[x & 16777215]
                if d < least:
                    least = d
            for k in range(3):
                best = 1e300 if k < 2 else -1.0
                best_least = 1e300 if k < 2 else -1.0
                for e in range(edges.shape[1]):
                    x = edges[i, e]
                    if x == 0:
                        break
                    idx = x & 16777215
                    v = E[idx, k] if k < 2 else P[idx]
                    if k < 2:
                        if v < best:
                            best = v
                        if dw[idx] == least and v < best_least:
                            best_least = v
                    else:
                        if v > best:
                            best = v
                        if dw[idx] == least and v > best_least:
                            best_least = v
                if k < 2:
                    loss = best_least - best
                    differs = loss > 1e-5 * max(best, 1.0)  # far above the certified error
                    done = best == 0.0
                else:
                    loss = best - best_least
                    differs = loss > 1e-9
                    done = best >= 1.0
                out[t, k, 0] += w
                out[t, k, 2] += w * loss
                if differs:
                    out[t, k, 1] += w
                if not done:
                    out[t, k, 3] += w
                    if differs:
                        out[t, k, 4] += w


def _weighted_quantiles(x: np.ndarray, w: np.ndarray, qs) -> list[float]:
    order = np.argsort(x, kind="stable")
    cw = np.cumsum(w[order].astype(np.float64))
    cw /= cw[-1]
    return [float(x[order][min(len(x) - 1, np.searchsorted(cw, q))]) for q in qs]


def dealt_figures(prob, goal, expected, w7, total) -> dict:
    """Over every 7-card deal: mean best P(goal within n draws), and the distribution of the optimal
    expected draws to knock and gin (each class weighted by its deals, ``w7``)."""
    K, H, _ = prob.shape
    out = {"deals": total, "mean_probability": {}}
    for g, name in enumerate(GOALS):
        at0 = float(w7 @ ((np.asarray(goal) >> g) & 1)) / total
        out["mean_probability"][name] = [at0] + [float(np.asarray(prob[g, n], dtype=np.float64) @ w7) / total
                                                 for n in range(H)]
    if expected is not None:
        for i, name in enumerate(TIMED_GOALS):
            e = np.asarray(expected[i], dtype=np.float64)
            qs = (0.1, 0.25, 0.5, 0.75, 0.9, 0.99)
            bins = np.arange(0, 41, 1.0)
            hist, _ = np.histogram(np.minimum(e, 40 - 1e-9), bins=bins, weights=w7)
            out[f"expected_draws_{name}"] = {
                "mean": float(e @ w7) / total, "max": float(e.max()), "at_goal": float(w7[e == 0].sum()) / total,
                "quantiles": dict(zip([str(q) for q in qs], _weighted_quantiles(e, w7, qs))),
                "histogram_bins": bins.tolist(), "histogram_share": (hist / total).tolist()}
    return out


def sample_rows(table: "OptimalTable", seed: int = 14, samples: int = 12) -> list[dict]:
    """A few seeded classes with their table values for 1 and 2 draws (a test recomputes them directly)."""
    rng = np.random.default_rng(seed)
    picks = set(int(x) for x in rng.choice(table.index.n, samples, replace=False))
    # and classes where two draws can reach gin, and a rumino (random classes rarely can)
    for g in ("gin", "rumino"):
        live = np.flatnonzero(np.asarray(table.prob[GOALS.index(g), 1]) > 0)
        picks |= set(int(x) for x in rng.choice(live, min(samples // 2, len(live)), replace=False))
    picks = sorted(picks)
    rows, pos = [], 0
    for counts, _w, _j in iter_classes(table.shape, HAND_SIZE):
        for k in [p for p in picks if pos <= p < pos + len(counts)]:
            hand = " ".join(format_card(c) for c in range(53) for _ in range(int(counts[k - pos, c])))
            row = {"class": k, "hand": hand}
            for g in GOALS:
                row[g] = [float(table.prob[GOALS.index(g), n - 1, k]) for n in (1, 2)]
            if table.expected is not None:
                row["expected_draws"] = {g: float(table.expected[i, k]) for i, g in enumerate(TIMED_GOALS)}
            rows.append(row)
        pos += len(counts)
        if pos > picks[-1]:
            break
    return rows


# =========================================================================== building (rumino optimal)


def build_tables(shape: PackShape, directory: Path | str | None = None, *, horizon: int = MAX_HORIZON, tol: float = 1e-6,
                 threads: int = 2, reuse_finite: bool = False, max_minutes: float | None = None,
                 progress: bool = False) -> Path:
    """Solve every class of ``shape``, check the keep-the-target property and save the tables
    (what ``rumino optimal build`` runs; :data:`BUILD_COST` for the full pack). Returns the folder.

    ``progress`` draws a bar on stderr for each stage: the 7- and 8-card classes, the draws of the
    finite horizon, the sweeps to the tolerance, and the classes of the keep-the-target check.
    """
    numba.set_num_threads(min(threads, numba.config.NUMBA_NUM_THREADS))
    model = SolitaireModel(shape, threads=threads, verbose=True, progress=progress)
    target = Path(directory or default_table_dir()) / shape_key(shape, model.rules)
    table = model.solve(horizon=horizon, tol=tol, out_dir=target, reuse_finite=reuse_finite,
                        max_seconds=None if max_minutes is None else 60 * max_minutes)
    t = time.perf_counter()
    table.meta["keep_target_check"] = check_keep_target(table, verbose=True, progress=progress)
    print(f"keep-the-target check in {time.perf_counter() - t:.0f} s: {table.meta['keep_target_check']}")
    t = time.perf_counter()
    d = table.save(directory)
    size = sum(f.stat().st_size for f in d.iterdir())
    print(f"saved to {d} ({size / 1e6:.1f} MB) in {time.perf_counter() - t:.1f} s; "
          f"build {table.meta['build_seconds']:.0f} s")
    return d


def write_table_figures(shape: PackShape, directory: Path | str | None = None,
                        out: Path | str = "book/data/optimal_figures.json") -> Path:
    """The book's figures from a built table, as JSON (what ``rumino optimal figures`` writes); the play
    figures already in ``out`` (``rumino optimal play``) are kept, not recomputed."""
    table = OptimalTable.load(shape, directory=directory)
    d = Path(directory or default_table_dir()) / shape_key(shape, table.rules)
    table.meta["table_bytes"] = sum(f.stat().st_size for f in d.iterdir() if f.suffix == ".npy")
    res = {"model": "solitaire against the stock, discards reshuffled in (rumino.odds.optimal)",
           "shape": [shape.suits, shape.ranks, shape.copies, shape.jokers],
           "knock_max_deadwood": table.rules.knock_max_deadwood, "horizon": table.horizon,
           "build": {k: table.meta.get(k) for k in ("build_seconds", "classes7", "classes8", "edges", "horizon",
                                                     "finite_error_bound", "infinite", "keep_target_check",
                                                     "table_bytes")},
           **json.loads((d / "figures.json").read_text()), "samples": sample_rows(table)}
    out = Path(out)
    if out.exists():
        old = json.loads(out.read_text())
        res.update({k: old[k] for k in ("policies", "games") if k in old})
    out.parent.mkdir(parents=True, exist_ok=True)
    out.write_text(json.dumps(res, indent=1) + "\n")
    return out
