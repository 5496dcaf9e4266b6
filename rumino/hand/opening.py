"""Compiled Rommé opening values: the most a hand can lay from its own cards (rules §3.3, §3.4).

:func:`rumino.hand.arrange.max_opening` is the readable reference (a memoised search
over candidate melds); this module computes the same number fast enough for
Monte Carlo over hundreds of millions of deals (``rumino odds opening``). Like
:mod:`rumino.hand.kernels` it works for any :class:`~rumino.melds.MeldRules` (every
knob of rules §3.6 that changes melds: ``ace``, ``joker_rules``, ``n_jokers``),
and the tests check it against ``arrange.max_opening`` on many thousands of
seeded hands, joker-heavy and meld-dense ones included.

What is maximised
-----------------
A hand's *opening value* is the largest total, over every choice of disjoint
melds laid from the hand, of the melds' values toward the opening (rules §3.3,
:meth:`rumino.melds.Meld.opening_value`): 2–10 at face value, J Q K 10, an ace
1 at the low end of a run (A-2-3…) and 11 anywhere else (in a set, after the
king), a joker the value of the card it stands for. Cards left in hand count
nothing. A meld that can be read in several ways (``5h 6h JK`` as 4-5-6 or
5-6-7) counts its best reading, since the player declares it (rules §3.2, G10).

Two methods, one answer
-----------------------
Both start from run tables this module builds (the set rules come from
:func:`rumino.hand.kernels.rule_tables`): for each of the 8192 sets ``M`` of ranks
of one suit and each joker count ``j``, ``run_value[j][M]`` is the best opening
value of the naturals ``M`` plus ``j`` jokers laid as one run, over every window
the run may occupy (:meth:`~rumino.melds.MeldRules.run_windows`: ace low, high,
both or around, all 13 rotations of a 13-card run around the corner) and every
placement of the jokers the joker limits allow; −1 if none. The ace's value
depends on the window (1 only as the first card of a run starting at the ace),
which is why it is a table and not a sum.

*Split* (the default for the Rommé family: sets of distinct suits, two decks).
Sets cross the suits, one rank each; runs stay in their suit. So choose the
sets rank by rank (only ranks that still hold enough suits for a set with the
jokers left; a second set of the same rank only in canonical order), and for
what is left add, for each suit, the best run value of its row with ``j``
jokers, sharing the jokers by a small max-plus convolution over the suits.
Every choice of sets is visited and each suit's runs are solved exactly, so the
total is the maximum. A suit's best run value depends only on its row (13
base-3 digits: 0, 1 or 2 copies of each rank) and ``j``: it is memoised in a
table of 3^13 × (jokers + 1) entries, filled lazily by a search over runs
(the lowest card is either not laid or the lowest natural of a run). Rows are
first stripped of ranks that lie in no run they could make, so deals meet only
a few tens of thousands of distinct rows and the memo's reads stay in cache.

*Search* (any :class:`~rumino.melds.MeldRules`). The deadwood kernel's split:
take the lowest natural ``c`` left; either it is the lowest natural of a run of
its suit (with higher ranks of that suit and ``j`` jokers, which may also stand
below ``c``), or of a set of its rank (with cards of later suits), or it is not
laid (nor its copies, unless a later branch lays them). A natural in no set and
no run the cards left could make is dropped at once, and a branch is abandoned
when what it has laid plus every natural left (an ace at 11) plus 11 per joker
left cannot beat the best total found: no card counts more than 11 toward an
opening, so the bound never cuts the optimum.

With ``cap`` either method stops as soon as a total of ``cap`` is reached (the
answer is then "at least ``cap``"), which is all a threshold question needs.
The tests compare both methods with ``arrange.max_opening`` hand by hand.

>>> from rumino.cards import parse_hand, to_counts
>>> from rumino.melds import ROMME_MELDS
>>> max_opening_fast(parse_hand("10s Js Qs Ks 3d"), ROMME_MELDS)
40
>>> max_opening_fast(parse_hand("10s Js Qs 3d 3h 3c Kd"), ROMME_MELDS)
39
>>> hands = np.stack([to_counts(parse_hand("Qc Kc Ac 7h JK 9h")), to_counts(parse_hand("JK JK 6s 2d"))])
>>> max_opening_batch(hands, ROMME_MELDS).tolist()
[55, 0]
"""

from __future__ import annotations

from typing import Sequence

import numpy as np

from rumino.cards import N_KINDS
from rumino.jit import jit as _jit
from rumino.hand.kernels import (BIG, fill_run_reach, LOWBIT, NO_SET, P_ACE, P_ADJACENT_MIN_RUN, P_JOKERS, P_MAX_ADJACENT, P_MAX_RUN,
                      P_MIN_MELD, P_MIN_NATURALS, T_CAP, T_DISTINCT, T_SET, T_SET_NEED, _as_counts, _drop, _ids,
                      _lift, _load_ids, load_rows, _max_jokers, _put, _put_run, _raise_count, _refuse,
                      _set_ranks, _take, _take_run, encode_rules, rule_tables)
from rumino.errors import RuleConfigError, RuminoError
from rumino.melds import MeldRules

__all__ = ["opening_tables", "max_opening_batch", "max_opening_fast", "OPENING_CARD_MAX", "KernelArgumentError"]


class KernelArgumentError(RuminoError, ValueError):
    """An argument of the opening kernels outside its range (``cap``, ``method``)."""

OPENING_CARD_MAX = 11  # the most any card, natural or joker, counts toward an opening (an ace at 11)

# Layout of the flat int32 run table built by _build_run_values (J = jokers in the pack).
O_RANKV = 0  # 13 opening value of a natural of rank r outside a low run (ace 11)
O_NV = O_RANKV + 13  # 8192 sum of O_RANKV over the ranks of M: the most the naturals M can count
O_REACH = O_NV + 8192  # 13 ranks that can share a run with rank r as its lowest natural
O_J0_START = O_REACH + 13  # 14 start of rank r's joker-free runs in O_J0_LIST
O_J0_LIST = O_J0_START + 14  # 8192 joker-free run masks grouped by lowest rank, biggest value first
O_W = O_J0_LIST + 8192  # 8192 base-3 code of a rank mask: a suit row's code is W[held] + W[held twice]
O_SET = O_W + 8192  # 64 set_ok[k] copied from the deadwood kernel's tables (joker counts allowed)
O_SET_NEED = O_SET + 64  # 17 fewest naturals of one rank that make a set with at most j jokers
O_NJ = O_SET_NEED + 17  # 1 jokers in the pack
O_RV = O_NJ + 1  # (J + 1) * 8192 best opening value of run M with j jokers, or -1
# then (J + 1) * 8192 run reach: ranks of a row that lie in some run of those ranks and <= j jokers


@_jit
def _opening_rank_value(q):
    # rules §3.3 in the opening: 2–10 face value, J Q K 10, ace 11 (except first in a low run)
    if q == 0:
        return 11
    if q >= 10:
        return 10
    return q + 1


@_jit
def _build_run_values(P, T):
    n_jokers = P[P_JOKERS]
    O = np.zeros(O_RV + 2 * (n_jokers + 1) * 8192, dtype=np.int32)
    O[O_NJ] = n_jokers
    for k in range(64):
        O[O_SET + k] = T[T_SET + k]
    for j in range(17):
        O[O_SET_NEED + j] = T[T_SET_NEED + j]
    for m in range(8192):
        w = 0
        p3 = 1
        for q in range(13):
            if (m >> q) & 1:
                w += p3
            p3 *= 3
        O[O_W + m] = w
    RV = O_RV
    O[RV:RV + (n_jokers + 1) * 8192] = -1
    for q in range(13):
        O[O_RANKV + q] = _opening_rank_value(q)
    for M in range(8192):
        v = 0
        for q in range(13):
            if (M >> q) & 1:
                v += O[O_RANKV + q]
        O[O_NV + M] = v

    min_meld, max_run, min_nat, ace = P[P_MIN_MELD], P[P_MAX_RUN], P[P_MIN_NATURALS], P[P_ACE]
    pos = np.zeros(14, dtype=np.int64)
    for length in range(min_meld, max_run + 1):
        # the windows of MeldRules.run_windows (positions 0..13, 13 = the high ace)
        if ace == 0:
            lo, hi = 0, 13 - length
        elif ace == 1:
            lo, hi = 1, 14 - length
        elif ace == 2:
            lo, hi = 0, 14 - length
        else:
            lo, hi = 0, 12  # around: every start, the 13-card run included (its rotations differ)
        most = _max_jokers(P, length)
        if most > n_jokers:
            most = n_jokers
        for start in range(lo, hi + 1):
            for i in range(length):
                pos[i] = start + i if ace != 3 else (start + i) % 13
            for jm in range(1 << length):
                j = 0
                longest = 0
                cur = 0
                M = 0
                value = 0
                for i in range(length):
                    q = pos[i] % 13
                    # Meld.opening_value: an ace counts 1 only as the first card at position 0
                    if q == 0 and i == 0 and pos[i] == 0:
                        value += 1
                    else:
                        value += O[O_RANKV + q]
                    if (jm >> i) & 1:
                        j += 1
                        cur += 1
                        if cur > longest:
                            longest = cur
                    else:
                        cur = 0
                        M |= 1 << q
                if j > most or length - j < min_nat or length - j < 1:
                    continue
                if j >= 2 and longest >= 2 and length < P[P_ADJACENT_MIN_RUN]:
                    continue
                if j >= 2 and P[P_MAX_ADJACENT] >= 0 and longest > P[P_MAX_ADJACENT]:
                    continue
                if value > O[RV + j * 8192 + M]:
                    O[RV + j * 8192 + M] = value

    # per lowest rank: the reach masks, and the joker-free runs (best value first)
    n0 = 0
    for r in range(13):
        O[O_J0_START + r] = n0
        first = n0
        for M in range(8191, 0, -1):
            if LOWBIT[M] != r:
                continue
            for j in range(n_jokers + 1):
                if O[RV + j * 8192 + M] >= 0:
                    O[O_REACH + r] |= M
            if O[RV + M] >= 0:
                # insertion by value, so a good total is found early
                k = n0
                while k > first and O[RV + O[O_J0_LIST + k - 1]] < O[RV + M]:
                    O[O_J0_LIST + k] = O[O_J0_LIST + k - 1]
                    k -= 1
                O[O_J0_LIST + k] = M
                n0 += 1
    O[O_J0_START + 13] = n0

    # run reach: for a row of ranks present and a joker budget j, the ranks that lie in some
    # run made of those ranks and at most j jokers (the others are never laid in a run)
    reach_at = O_RV + (n_jokers + 1) * 8192
    fewest = np.full(8192, 99, dtype=np.int64)
    for M in range(1, 8192):
        for j in range(n_jokers + 1):
            if O[RV + j * 8192 + M] >= 0:
                fewest[M] = j
                break
    fill_run_reach(fewest, n_jokers, O, reach_at)
    return O


@_jit
def _lone_value(cnt, t, lone, O):
    v = 0
    while lone:
        q = LOWBIT[lone]
        lone &= lone - 1
        v += cnt[t * 13 + q] * O[O_RANKV + q]
    return v


# Compiled on first use (an explicit signature compiled it at import, in every process: in
# each test worker at once): the on-disk cache the first user writes is loaded by the other
# processes, those already running too. Every caller passes the same types (int64 scalars,
# C-contiguous arrays), so there is one compiled version, and recursive calls resolve against it.
@_jit
def _odfs(cnt, rows, J, cur, pot, best, cap, T, O):
    """Best opening total (> ``best``) of the cards left plus ``cur``, or ``best`` if none is higher.

    ``pot``: the opening value of the naturals left (aces at 11); ``cap``: stop once
    ``best`` reaches it. ``cnt``/``rows`` are modified and restored.
    """
    if best >= cap:
        return best
    s = 0
    while s < 4 and rows[s] == 0:
        s += 1
    if s == 4:  # no natural left: jokers alone are never laid (every meld needs a natural)
        return cur if cur > best else best
    n_jokers = T[T_CAP + 52]
    reach = O_RV + (n_jokers + 1) * 8192 + J * 8192

    # lone naturals (in no set and no run the cards left can make) are never laid: drop them
    in_sets = _set_ranks(cnt, rows, J, T)
    l0 = rows[0] & ~(O[reach + rows[0]] | in_sets)
    l1 = rows[1] & ~(O[reach + rows[1]] | in_sets)
    l2 = rows[2] & ~(O[reach + rows[2]] | in_sets)
    l3 = rows[3] & ~(O[reach + rows[3]] | in_sets)
    if l0 | l1 | l2 | l3:
        lost = _lone_value(cnt, 0, l0, O) + _lone_value(cnt, 1, l1, O) + _lone_value(cnt, 2, l2, O) \
            + _lone_value(cnt, 3, l3, O)
        k0 = _lift(cnt, rows, 0, l0)
        k1 = _lift(cnt, rows, 1, l1)
        k2 = _lift(cnt, rows, 2, l2)
        k3 = _lift(cnt, rows, 3, l3)
        best = _odfs(cnt, rows, J, cur, pot - lost, best, cap, T, O)
        _drop(cnt, rows, 0, l0, k0)
        _drop(cnt, rows, 1, l1, k1)
        _drop(cnt, rows, 2, l2, k2)
        _drop(cnt, rows, 3, l3, k3)
        return best

    # bound: no card counts more than 11 toward an opening
    if cur + pot + 11 * J <= best:
        return best

    row = rows[s]
    r = LOWBIT[row]
    c = s * 13 + r
    bit = 1 << r

    # 1. c is the lowest natural of a run of its suit (jokers may stand below it)
    if J == 0:
        for i in range(O[O_J0_START + r], O[O_J0_START + r + 1]):
            M = O[O_J0_LIST + i]
            if M & ~row == 0:
                _take_run(cnt, rows, s, M)
                best = _odfs(cnt, rows, J, cur + O[O_RV + M], pot - O[O_NV + M], best, cap, T, O)
                _put_run(cnt, rows, s, M)
                if best >= cap:
                    return best
    else:
        avail = row & O[O_REACH + r] & ~bit
        sub = avail
        while True:
            M = sub | bit
            taken = False
            for j in range(J, -1, -1):  # more jokers first: each adds value
                v = O[O_RV + j * 8192 + M]
                if v >= 0:
                    if not taken:
                        _take_run(cnt, rows, s, M)
                        taken = True
                    best = _odfs(cnt, rows, J - j, cur + v, pot - O[O_NV + M], best, cap, T, O)
                    if best >= cap:
                        break
            if taken:
                _put_run(cnt, rows, s, M)
                if best >= cap:
                    return best
            if sub == 0:
                break
            sub = (sub - 1) & avail

    # 2. c is the lowest natural of a set of its rank: copies of c and cards of later suits
    rv = O[O_RANKV + r]
    jmask = (2 << J) - 1
    a0 = cnt[c]
    a1 = cnt[c + 13] if s < 3 else 0
    a2 = cnt[c + 26] if s < 2 else 0
    a3 = cnt[c + 39] if s < 1 else 0
    if T[T_DISTINCT] == 1:
        a0 = min(a0, 1)
        a1 = min(a1, 1)
        a2 = min(a2, 1)
        a3 = min(a3, 1)
    for k0 in range(a0, 0, -1):
        for k1 in range(a1, -1, -1):
            for k2 in range(a2, -1, -1):
                for k3 in range(a3, -1, -1):
                    k = k0 + k1 + k2 + k3
                    ok = T[T_SET + k] & jmask
                    if ok == 0:
                        continue
                    _take(cnt, rows, c, k0)
                    _take(cnt, rows, c + 13, k1)
                    _take(cnt, rows, c + 26, k2)
                    _take(cnt, rows, c + 39, k3)
                    for j in range(J, -1, -1):
                        if (ok >> j) & 1:
                            best = _odfs(cnt, rows, J - j, cur + (k + j) * rv, pot - k * rv, best, cap, T, O)
                            if best >= cap:
                                break
                    _put(cnt, rows, c, k0)
                    _put(cnt, rows, c + 13, k1)
                    _put(cnt, rows, c + 26, k2)
                    _put(cnt, rows, c + 39, k3)
                    if best >= cap:
                        return best

    # 3. c and its remaining copies are not laid (laying a copy is covered by branches 1-2)
    m = cnt[c]
    rest = pot - m * rv
    if cur + rest + 11 * J > best:
        cnt[c] = 0
        rows[s] &= ~bit
        best = _odfs(cnt, rows, J, cur, rest, best, cap, T, O)
        cnt[c] = m
        rows[s] |= bit
    return best


@_jit
def _pot(cnt, O):
    v = 0
    for c in range(52):
        v += cnt[c] * O[O_RANKV + c % 13]
    return v


@_jit
def _opening_batch(counts, T, O, cap, out):
    """Evaluate every row into ``out``; -1, or ``row * 53 + card`` of the first count outside the pack."""
    n = counts.shape[0]
    zero, cap = np.int64(0), np.int64(cap)
    cnt = np.zeros(53, dtype=np.int64)
    rows = np.zeros(4, dtype=np.int64)
    for i in range(n):
        for c in range(53):
            x = counts[i, c]
            if x < 0 or x > T[T_CAP + c]:
                return i * 53 + c
            cnt[c] = x
        load_rows(cnt, rows)
        out[i] = _odfs(cnt, rows, cnt[52], zero, _pot(cnt, O), zero, cap, T, O)
    return -1


@_jit
def _opening_single(ids, T, O, cap):
    """Opening value of one hand of card ids, or ``-BIG - code`` for bad input (see kernels._load_ids)."""
    zero, big = np.int64(0), np.int64(BIG)
    cnt = np.zeros(53, dtype=np.int64)
    rows = np.zeros(4, dtype=np.int64)
    status = _load_ids(ids, T, cnt, rows)
    if status != 0:
        return -big - status
    return _odfs(cnt, rows, cnt[52], zero, _pot(cnt, O), zero, np.int64(cap), T, O)


# --------------------------------------------------------------------------- suits apart: the fast path

# For the Rommé family (sets of distinct suits, at most two copies of a card) the hand splits
# into sets (across suits, one rank each) and runs (within one suit). Once the sets are chosen,
# each suit's runs are a problem of its own: the best run value of a row of one suit with at most
# j jokers. Those values are memoised in one table indexed by the row (13 base-3 digits: 0, 1
# or 2 copies of each rank) and j, filled lazily as rows turn up; a hand then costs a short walk
# over its set choices and a few table reads. The few thousand suit rows that deals meet are
# each solved once. (The compiled functions take few array arguments: each one costs a call.)

N_CODES = 3 ** 13  # rows of one suit, two decks
POP4 = np.array([bin(i).count("1") for i in range(16)], dtype=np.int64)  # suits in a 4-bit mask

# Layout of the int64 workspace of one search: the suit rows and the convolution's buffers.
WS_M1 = 0  # 4 ranks held in each suit
WS_M2 = 4  # 4 ranks held twice in each suit
WS_ACC = 8  # 17 runs' best total with at most j jokers, over the suits so far
WS_BUF = WS_ACC + 17  # 4 x 20 each suit's last stripped row, twice-held ranks, J, values for j = 0..J
WS_SIZE = WS_BUF + 4 * 20


@_jit
def _suit_best(m1, m2, j, O, memo):
    """Best opening value of runs laid from one suit's row (``m1``: ranks held, ``m2``: ranks
    held twice) with at most ``j`` jokers; memoised in ``memo``."""
    if m1 == 0:
        return 0
    NJ = O[O_NJ]
    idx = (O[O_W + m1] + O[O_W + m2]) * (NJ + 1) + j
    hit = memo[idx]
    if hit >= 0:
        return hit
    r = LOWBIT[m1]
    bit = 1 << r
    # the lowest rank is not laid (nor its other copy: laying that one is the branch below)
    best = _suit_best(m1 & ~bit, m2 & ~bit, j, O, memo)
    # or its lowest card starts a run M (jokers may stand below it) with jj jokers
    reach = O_RV + (NJ + 1) * 8192 + j * 8192
    if O[reach + m1] & bit:
        avail = m1 & O[reach + m1] & O[O_REACH + r] & ~bit
        sub = avail
        while True:
            M = sub | bit
            rest1 = m1 & (~M | m2)
            rest2 = m2 & ~M
            for jj in range(j + 1):
                v = O[O_RV + jj * 8192 + M]
                if v >= 0:
                    v += _suit_best(rest1, rest2, j - jj, O, memo)
                    if v > best:
                        best = v
            if sub == 0:
                break
            sub = (sub - 1) & avail
    memo[idx] = best
    return best


@_jit
def _runs_value(ws, J, O, memo):
    """Best total of the four suits' runs sharing at most ``J`` jokers (a small max-plus convolution).

    Each row is first stripped of the ranks that lie in no run it could make with ``J``
    jokers: they are never laid in a run, and the stripped rows are fewer and more often
    met, so the memo is smaller and its reads hit the cache. The workspace keeps each
    suit's last row and values: the leaves of one hand differ in a suit or two.
    """
    NJ = O[O_NJ]
    reach = O_RV + (NJ + 1) * 8192 + J * 8192
    for j in range(J + 1):
        ws[WS_ACC + j] = 0
    total = 0
    for s in range(4):
        m = ws[WS_M1 + s]
        live = m & O[reach + m]
        if live == 0:
            continue
        two = ws[WS_M2 + s] & live
        b = WS_BUF + 20 * s
        if ws[b] != live or ws[b + 1] != two or ws[b + 2] != J:
            ws[b] = live
            ws[b + 1] = two
            ws[b + 2] = J
            base = (O[O_W + live] + O[O_W + two]) * (NJ + 1)
            for j in range(J + 1):
                v = memo[base + j]
                ws[b + 3 + j] = v if v >= 0 else _suit_best(live, two, j, O, memo)
        if J == 0:
            total += ws[b + 3]
            continue
        for j in range(J, -1, -1):  # acc[j] = max over a of acc[j - a] + values[a], in place from the top
            best = ws[WS_ACC + j] + ws[b + 3]
            for a in range(1, j + 1):
                v = ws[WS_ACC + j - a] + ws[b + 3 + a]
                if v > best:
                    best = v
            ws[WS_ACC + j] = best
    return total if J == 0 else ws[WS_ACC + J]


@_jit
def _sets_walk(ws, r, last, J, cur, pot, best, cap, O, memo):
    """Choose the sets rank by rank (from ``r``; ``last`` orders two sets of one rank), then
    add the runs of what is left. Returns the best total, at least ``best``."""
    if best >= cap or cur + pot + 11 * J <= best:
        return best
    # the ranks (from r on) whose naturals can still make a set with at most J jokers
    need = O[O_SET_NEED + J]
    a0, a1, a2, a3 = ws[WS_M1], ws[WS_M1 + 1], ws[WS_M1 + 2], ws[WS_M1 + 3]
    if need == 1:
        ranks = a0 | a1 | a2 | a3
    elif need == 2:
        ranks = (a0 & a1) | (a0 & a2) | (a0 & a3) | (a1 & a2) | (a1 & a3) | (a2 & a3)
    elif need == 3:
        ranks = (a0 & a1 & (a2 | a3)) | (a2 & a3 & (a0 | a1))
    elif need == 4:
        ranks = a0 & a1 & a2 & a3
    else:
        ranks = 0
    ranks &= ~((1 << r) - 1)
    while True:
        if ranks == 0:
            v = cur + _runs_value(ws, J, O, memo)
            return v if v > best else best
        q = LOWBIT[ranks]
        if q != r:
            r = q
            last = 15
        present = ((ws[WS_M1] >> r) & 1) | (((ws[WS_M1 + 1] >> r) & 1) << 1) | \
            (((ws[WS_M1 + 2] >> r) & 1) << 2) | (((ws[WS_M1 + 3] >> r) & 1) << 3)
        bit = 1 << r
        rv = O[O_RANKV + r]
        jmask = (2 << J) - 1
        S = present
        while S:  # every set of suits S (S <= last as a number, so two sets of a rank are not tried twice)
            if S <= last:
                k = POP4[S]
                ok = O[O_SET + k] & jmask
                if ok:
                    for s in range(4):
                        if (S >> s) & 1:
                            if (ws[WS_M2 + s] >> r) & 1:
                                ws[WS_M2 + s] &= ~bit
                            else:
                                ws[WS_M1 + s] &= ~bit
                    for j in range(J, -1, -1):
                        if (ok >> j) & 1:
                            best = _sets_walk(ws, r, S, J - j, cur + (k + j) * rv, pot - k * rv, best, cap, O, memo)
                    for s in range(4):
                        if (S >> s) & 1:
                            if (ws[WS_M1 + s] >> r) & 1:
                                ws[WS_M2 + s] |= bit
                            else:
                                ws[WS_M1 + s] |= bit
                    if best >= cap:
                        return best
            S = (S - 1) & present
        # or no (further) set of rank r: on to the next rank
        ranks &= ~(1 << r)


@_jit
def _split_batch(counts, T, O, memo, cap, out):
    """Like _opening_batch, by the suits-apart method (Rommé family: distinct sets, two decks)."""
    n = counts.shape[0]
    NJ = np.int64(O[O_NJ])
    zero, every, cap = np.int64(0), np.int64(15), np.int64(cap)
    ws = np.zeros(WS_SIZE, dtype=np.int64)
    for s in range(4):
        ws[WS_BUF + 20 * s] = -1  # no row read yet
    for i in range(n):
        pot = 0
        for s in range(4):
            a = 0
            b = 0
            for q in range(13):
                x = counts[i, s * 13 + q]
                if x < 0 or x > T[T_CAP + s * 13 + q]:
                    return i * 53 + s * 13 + q
                if x:
                    a |= 1 << q
                    pot += x * O[O_RANKV + q]
                    if x == 2:
                        b |= 1 << q
            ws[WS_M1 + s] = a
            ws[WS_M2 + s] = b
        J = np.int64(counts[i, 52])
        if J < 0 or J > NJ:
            return i * 53 + 52
        out[i] = _sets_walk(ws, zero, every, J, zero, np.int64(pot), zero, cap, O, memo)
    return -1


# --------------------------------------------------------------------------- Python API

_TABLES: dict[MeldRules, tuple] = {}


def _split_ok(rules: MeldRules) -> bool:
    """Does the suits-apart method apply (sets of distinct suits, at most two copies of a card)?"""
    return rules.set_suits == "distinct" and rules.pack.decks <= 2


def opening_tables(rules: MeldRules) -> tuple:
    """``(T, O, memo)``: the deadwood kernel's tables (sets), this module's run-value tables, and
    the memo of suit rows for the suits-apart method (``None`` where it does not apply).

    >>> from rumino.melds import ROMME_MELDS
    >>> T, O, memo = opening_tables(ROMME_MELDS)
    >>> int(O[O_RV + 0b111]), int(O[O_RV + (0b111 << 10)]), int(O[O_RV + 0b101])  # A-2-3, J-Q-K, A-3
    (6, 30, -1)
    >>> int(O[O_RV + 8192 + 0b11]), int(O[O_RV + 8192 + (0b11 << 11)])  # A-2 + joker: A-2-3; Q-K + joker: Q-K-A
    (6, 31)
    """
    hit = _TABLES.get(rules)
    if hit is None:
        T = rule_tables(rules)
        O = _build_run_values(encode_rules(rules), T)
        memo = np.full(N_CODES * (rules.pack.jokers + 1), -1, dtype=np.int16) if _split_ok(rules) else None
        if len(_TABLES) > 16:  # each holds a 20 MB memo; rules objects are few
            _TABLES.clear()
        hit = _TABLES[rules] = (T, O, memo)
    return hit


def _cap(cap) -> int:
    if cap is None:
        return BIG
    if isinstance(cap, bool) or not isinstance(cap, (int, np.integer)) or cap < 1:
        raise KernelArgumentError(f"cap is {cap!r}: it must be a positive integer (or None for the exact maximum).")
    return int(cap)


def max_opening_batch(counts: np.ndarray, rules: MeldRules, *, cap: int | None = None,
                      method: str = "auto") -> np.ndarray:
    """The opening value of every row of an ``(n, 53)`` array of count vectors (int32, shape ``(n,)``).

    The same number as ``rumino.hand.arrange.max_opening(hand, rules).value``. With
    ``cap``, a value of ``cap`` or more is returned as soon as one is found (it is
    then at least ``cap``, not the maximum); values below ``cap`` are exact.
    ``method``: ``"split"`` (suits apart, memoised: the Rommé family), ``"search"``
    (branch and bound: any rules), or ``"auto"`` (split where it applies).

    >>> from rumino.cards import ROMME_PACK
    >>> from rumino.melds import ROMME_MELDS
    >>> from rumino.odds.montecarlo import sample_deals
    >>> hands = sample_deals(ROMME_PACK, 13, 1000, np.random.default_rng(0))
    >>> exact = max_opening_batch(hands, ROMME_MELDS)
    >>> capped = max_opening_batch(hands, ROMME_MELDS, cap=40)
    >>> bool(((exact >= 40) == (capped >= 40)).all() and (exact[exact < 40] == capped[exact < 40]).all())
    True
    >>> bool((max_opening_batch(hands, ROMME_MELDS, method="search") == exact).all())
    True
    """
    T, O, memo = opening_tables(rules)
    if method not in ("auto", "split", "search"):
        raise KernelArgumentError(f"method is {method!r}: it must be 'auto', 'split' or 'search'.")
    if method == "split" and memo is None:
        raise RuleConfigError(f"the suits-apart method needs sets of distinct suits and at most two decks; "
                              f"{rules.name} has set_suits={rules.set_suits!r} and {rules.pack.describe()}.")
    arr = _as_counts(counts)
    out = np.empty(arr.shape[0], dtype=np.int32)
    if memo is not None and method != "search":
        bad = _split_batch(arr, T, O, memo, _cap(cap), out)
    else:
        bad = _opening_batch(arr, T, O, _cap(cap), out)
    if bad >= 0:
        _raise_count(arr, bad // N_KINDS, bad % N_KINDS, rules)
    return out


def max_opening_fast(cards: Sequence[int], rules: MeldRules, *, cap: int | None = None) -> int:
    """The opening value of one hand given as card ids (see :func:`max_opening_batch`).

    >>> from rumino.cards import parse_hand
    >>> from rumino.melds import ROMME_MELDS
    >>> max_opening_fast(parse_hand("As Ah Ad 2s 3s"), ROMME_MELDS)  # the aces as a set: 33
    33
    """
    T, O, _ = opening_tables(rules)
    ids = _ids(cards)
    value = _opening_single(ids, T, O, _cap(cap))
    if value < 0:
        _refuse(cards, ids, rules, -BIG - value)
    return int(value)
