"""Compiled Rommé opening values: the most a hand can lay from its own cards (RULES §3.3, §3.4).

:func:`rumino.arrange.max_opening` is the readable reference (a memoised search
over candidate melds); this module computes the same number fast enough for
Monte Carlo over hundreds of millions of deals (``rumino odds opening``). Like
:mod:`rumino.kernels` it works for any :class:`~rumino.melds.MeldRules` (every
knob of RULES §3.6 that changes melds: ``ace``, ``joker_rules``, ``n_jokers``),
and the tests check it against ``arrange.max_opening`` on many thousands of
seeded hands, joker-heavy and meld-dense ones included.

What is maximised
-----------------
A hand's *opening value* is the largest total, over every choice of disjoint
melds laid from the hand, of the melds' values toward the opening (RULES §3.3,
:meth:`rumino.melds.Meld.opening_value`): 2–10 at face value, J Q K 10, an ace
1 at the low end of a run (A-2-3…) and 11 anywhere else (in a set, after the
king), a joker the value of the card it stands for. Cards left in hand count
nothing. A meld that can be read in several ways (``5h 6h JK`` as 4-5-6 or
5-6-7) counts its best reading, since the player declares it (RULES §3.2, G10).

The algorithm
-------------
1. **Tables.** The set rules come from :func:`rumino.kernels.rule_tables`
   (``set_ok``, and which ranks can still make a set). For runs this module
   builds its own: for each of the 8192 sets ``M`` of ranks of one suit and
   each joker count ``j``, ``run_value[j][M]``: the best opening value of the
   naturals ``M`` plus ``j`` jokers laid as one run, over every window the run
   may occupy (:meth:`~rumino.melds.MeldRules.run_windows`: ace low, high,
   both or around, all 13 rotations of a 13-card run around the corner) and
   every placement of the jokers the joker limits allow; −1 if none. The ace's
   value depends on the window (1 only as the first card of a run starting at
   the ace), which is why the value is a table and not a sum.
2. **Search.** The same split as the deadwood kernel: take the lowest natural
   ``c`` left; either it is the lowest natural of a run of its suit (with
   higher ranks of that suit and ``j`` jokers, which may also stand below
   ``c``), or the lowest natural of a set of its rank (with cards of later
   suits), or it is not laid (nor are its copies, unless a later branch lays
   them). That reaches every choice of disjoint melds.
3. **Branch and bound.** A natural that lies in no set and no run the cards
   left could make (a *lone* card) is never laid, so it is dropped at once. A
   branch is abandoned when what it has laid plus every natural left (an ace
   at 11) plus 11 per joker left cannot beat the best total found: no card
   counts more than 11 toward an opening, so the bound never cuts the optimum
   and the maximum is exact. With ``cap`` the search also stops as soon as a
   total of ``cap`` is reached (the answer is then "at least ``cap``"): the
   Monte Carlo needs only to know which thresholds up to 50 a hand reaches.

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

from .cards import N_KINDS
from .kernels import (BIG, LOWBIT, P_ACE, P_ADJACENT_MIN_RUN, P_JOKERS, P_MAX_ADJACENT, P_MAX_RUN,
                      P_MIN_MELD, P_MIN_NATURALS, T_CAP, T_DISTINCT, T_SET, _as_counts, _drop, _ids, _jit, _lift,
                      _load_ids, _load_rows, _max_jokers, _put, _put_run, _raise_count, _refuse, _set_ranks, _take,
                      _take_run, encode_rules, rule_tables)
from .melds import MeldRules

__all__ = ["opening_tables", "max_opening_batch", "max_opening_fast", "OPENING_CARD_MAX"]

OPENING_CARD_MAX = 11  # the most any card, natural or joker, counts toward an opening (an ace at 11)

# Layout of the flat int32 run table built by _build_run_values (J = jokers in the pack).
O_RANKV = 0  # 13 opening value of a natural of rank r outside a low run (ace 11)
O_NV = O_RANKV + 13  # 8192 sum of O_RANKV over the ranks of M: the most the naturals M can count
O_REACH = O_NV + 8192  # 13 ranks that can share a run with rank r as its lowest natural
O_J0_START = O_REACH + 13  # 14 start of rank r's joker-free runs in O_J0_LIST
O_J0_LIST = O_J0_START + 14  # 8192 joker-free run masks grouped by lowest rank, biggest value first
O_RV = O_J0_LIST + 8192  # (J + 1) * 8192 best opening value of run M with j jokers, or -1
# then (J + 1) * 8192 run reach: ranks of a row that lie in some run of those ranks and <= j jokers


def _o_reach(n_jokers):
    return O_RV + (n_jokers + 1) * 8192


@_jit
def _opening_rank_value(q):
    # RULES §3.3 in the opening: 2–10 face value, J Q K 10, ace 11 (except first in a low run)
    if q == 0:
        return 11
    if q >= 10:
        return 10
    return q + 1


@_jit
def _build_run_values(P):
    n_jokers = P[P_JOKERS]
    O = np.zeros(O_RV + 2 * (n_jokers + 1) * 8192, dtype=np.int32)
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
    acc = np.zeros(n_jokers + 1, dtype=np.int64)
    for row in range(1, 8192):
        acc[:] = 0
        sub = row
        while sub:
            if fewest[sub] <= n_jokers:
                acc[fewest[sub]] |= sub
            sub = (sub - 1) & row
        reach = 0
        for j in range(n_jokers + 1):
            reach |= acc[j]
            O[reach_at + j * 8192 + row] = reach
    return O


@_jit
def _lone_value(cnt, t, lone, O):
    v = 0
    while lone:
        q = LOWBIT[lone]
        lone &= lone - 1
        v += cnt[t * 13 + q] * O[O_RANKV + q]
    return v


# An explicit signature: one compiled version, and recursive calls resolve against it.
@_jit(sig="int64(int64[::1], int64[::1], int64, int64, int64, int64, int64, int32[::1], int32[::1])")
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
        _load_rows(cnt, rows)
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


# --------------------------------------------------------------------------- Python API

_TABLES: dict[MeldRules, tuple[np.ndarray, np.ndarray]] = {}


def opening_tables(rules: MeldRules) -> tuple[np.ndarray, np.ndarray]:
    """``(T, O)``: the deadwood kernel's tables (sets) and this module's run-value tables.

    >>> from rumino.melds import ROMME_MELDS
    >>> T, O = opening_tables(ROMME_MELDS)
    >>> int(O[O_RV + 0b111]), int(O[O_RV + (0b111 << 10)]), int(O[O_RV + 0b101])  # A-2-3, J-Q-K, A-3
    (6, 30, -1)
    >>> int(O[O_RV + 8192 + 0b11])  # A-2 and a joker: A-2-3 = 6
    6
    """
    hit = _TABLES.get(rules)
    if hit is None:
        T = rule_tables(rules)
        O = _build_run_values(encode_rules(rules))
        if len(_TABLES) > 64:  # rules objects are few; this only bounds a pathological caller
            _TABLES.clear()
        hit = _TABLES[rules] = (T, O)
    return hit


def _cap(cap) -> int:
    if cap is None:
        return BIG
    if isinstance(cap, bool) or not isinstance(cap, (int, np.integer)) or cap < 1:
        raise ValueError(f"cap is {cap!r}: it must be a positive integer (or None for the exact maximum).")
    return int(cap)


def max_opening_batch(counts: np.ndarray, rules: MeldRules, *, cap: int | None = None) -> np.ndarray:
    """The opening value of every row of an ``(n, 53)`` array of count vectors (int32, shape ``(n,)``).

    The same number as ``rumino.arrange.max_opening(hand, rules).value``. With
    ``cap``, a value of ``cap`` or more is returned as soon as one is found (it is
    then at least ``cap``, not the maximum); values below ``cap`` are exact.

    >>> from rumino.cards import ROMME_PACK
    >>> from rumino.melds import ROMME_MELDS
    >>> from rumino.odds.montecarlo import sample_deals
    >>> hands = sample_deals(ROMME_PACK, 13, 1000, np.random.default_rng(0))
    >>> exact = max_opening_batch(hands, ROMME_MELDS)
    >>> capped = max_opening_batch(hands, ROMME_MELDS, cap=40)
    >>> bool(((exact >= 40) == (capped >= 40)).all() and (exact[exact < 40] == capped[exact < 40]).all())
    True
    """
    T, O = opening_tables(rules)
    arr = _as_counts(counts)
    out = np.empty(arr.shape[0], dtype=np.int32)
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
    T, O = opening_tables(rules)
    ids = _ids(cards)
    value = _opening_single(ids, T, O, _cap(cap))
    if value < 0:
        _refuse(cards, ids, rules, -BIG - value)
    return int(value)

