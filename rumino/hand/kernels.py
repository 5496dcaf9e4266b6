"""Compiled minimum-deadwood evaluators: whole batches of hands, or one hand with little overhead.

:mod:`rumino.hand.arrange` is the readable reference; this module computes the same
numbers fast enough for Monte Carlo (millions of hands) and for bots and the
game engine (one hand, thousands of times a second). It works for **any**
:class:`~rumino.melds.MeldRules`, not only the presets, and the tests check it
against :mod:`rumino.hand.arrange` on many thousands of hands of every preset.

The algorithm
-------------
1. **Rules as tables.** The fields of a :class:`~rumino.melds.MeldRules` are
   encoded as a small int array (:func:`encode_rules`), from which one compiled
   pass builds lookup tables once per rules object:

   * ``set_ok[k]``: a bit mask of the joker counts ``j`` with which ``k``
     naturals of one rank make a legal set (sizes, ``min_naturals``,
     ``max_jokers_per_meld``);
   * ``run_ok[M]``: for each of the 8192 sets ``M`` of ranks of one suit, the
     joker counts ``j`` for which the naturals ``M`` plus ``j`` jokers can be
     laid as a run. It is filled by walking every window a run may occupy
     (ace low / high / both / around, ``min_meld`` … ``max_run``) and every
     placement of jokers in it that the joker limits allow (``min_naturals``,
     ``max_jokers_per_meld``, ``max_adjacent_jokers``,
     ``adjacent_jokers_min_run``);
   * ``tail[j]``: the cost of ``j`` jokers left over when every natural is
     placed, from :func:`rumino.melds.leftover_jokers` (all-joker melds exist
     only when ``min_naturals == 0``), and the value of every card;
   * ``run_reach[j][row]``: the ranks of a suit that lie in *some* run made of
     the ranks ``row`` present and at most ``j`` jokers (for the lower bound).

   The search needs no more than this: a meld matters only through the cards
   it uses, the naturals and a *number* of jokers.
2. **Search.** The hand is a count vector (53 entries, index 52 = jokers) plus
   a 13-bit "ranks present" mask per suit. Take the lowest natural card ``c``
   still in the hand (suit-major order, so every card below ``c`` is decided).
   In any arrangement either ``c`` starts a meld — a set of its rank made of
   ``c`` and cards of the same rank in later suits, or a run of its suit made
   of ``c`` and higher ranks of that suit, plus ``j`` jokers — or it is
   unmatched, and then so are its other copies unless a later branch melds
   them. Branching on those choices (each meld with each allowed ``j``)
   reaches every split of the hand into disjoint melds and unmatched cards,
   exactly as :mod:`rumino.hand.arrange` does.
3. **Branch and bound.** The depth-first search keeps the best total found so
   far and abandons a branch as soon as its deadwood already reaches it.
   The bound is sharpened by *lone* cards: a natural that lies in no set and
   no run that the cards still in hand (and the jokers left) could make is
   unmatched whatever happens, so its value is certain. Lone cards are set
   aside at once (taking them out changes no other card's possible melds, as
   none of those melds used them), and the search branches only on cards
   that can still meld. Melds are tried before the "unmatched" branch, the
   biggest and the ones using the most jokers first, so a good total is found
   early; the search stops outright at 0. Pruning only skips branches whose
   deadwood cannot go below a total already reached, so the minimum is exact.

The value after a draw (one card more than is kept) is one search with one
extra choice: "discard this card" costs nothing, may be taken once, and a
joker may be the discard at the end. The discards that reach the minimum are
then found by re-searching each distinct card with the minimum as a known
floor (the search stops as soon as it reaches it).

>>> from rumino.cards import parse_hand, to_counts
>>> from rumino.melds import GIN_MELDS, RUMINO_MELDS, ROMME_MELDS
>>> min_deadwood_fast(parse_hand("Tc Qc 4d 9d 4h 9h Jh 4s 5s 6s"), GIN_MELDS)
56
>>> after_draw_fast(parse_hand("6s 2c 4c 5c 6c 3d 4d 5d 6d 3h 5h"), GIN_MELDS)
(10, (5,))
>>> hands = np.stack([to_counts(parse_hand("7h 8h 9h 10h 5c 5d 5s")), to_counts(parse_hand("JK JK 5h 9c 9d 9s 2c"))])
>>> min_deadwood_batch(hands, RUMINO_MELDS).tolist()
[0, 2]
>>> min_deadwood_fast(parse_hand("Qc Kc Ac JK 7h 7d 7s 2d"), ROMME_MELDS)
2
"""

from __future__ import annotations

from typing import Iterable, Sequence

import numba
import numpy as np

from rumino.cards import JOKER, N_KINDS, format_card
from rumino.jit import jit as _jit
from rumino.errors import IllegalActionError, InvalidCardError, RuleConfigError
from rumino.melds import MeldRules, leftover_jokers

__all__ = [
    "encode_rules",
    "rule_tables",
    "min_deadwood_batch",
    "after_draw_batch",
    "min_deadwood_fast",
    "after_draw_fast",
    "best_discards_fast",
]


# --------------------------------------------------------------------------- rules as an int array

# Positions in the parameter array made by encode_rules.
P_MIN_MELD, P_MAX_SET, P_MAX_RUN, P_DISTINCT, P_ACE, P_MIN_NATURALS, P_MAX_JOKERS_PER_MELD = range(7)
P_MAX_ADJACENT, P_ADJACENT_MIN_RUN, P_ACE_VALUE, P_FACE_VALUE, P_JOKER_VALUE, P_DECKS, P_JOKERS = range(7, 14)
ACE_CODES = {"low": 0, "high": 1, "both": 2, "around": 3}
NONE = -1  # "no limit" for max_jokers_per_meld and max_adjacent_jokers


def encode_rules(rules: MeldRules) -> np.ndarray:
    """The fields of ``rules`` as the int32 parameter array the compiled code reads.

    >>> from rumino.melds import GIN_MELDS
    >>> encode_rules(GIN_MELDS).tolist()
    [3, 4, 13, 0, 0, 1, -1, -1, 0, 1, 10, 10, 1, 0]
    """
    if not isinstance(rules, MeldRules):
        raise RuleConfigError(f"rules is {rules!r}: the kernels need a rumino.melds.MeldRules "
                              f"(a variant's rules give one as .meld_rules).")

    def limit(v):
        return NONE if v is None else v

    p = [rules.min_meld, rules.max_set, rules.max_run, int(rules.set_suits == "distinct"), ACE_CODES[rules.ace],
         rules.min_naturals, limit(rules.max_jokers_per_meld), limit(rules.max_adjacent_jokers),
         rules.adjacent_jokers_min_run, rules.ace_value, rules.face_value, rules.joker_value,
         rules.pack.decks, rules.pack.jokers]
    return np.array(p, dtype=np.int32)


# Layout of the flat int32 table built from the parameters (one array keeps the
# recursive search's signature short).
T_VALUE = 0  # 53 card values
T_CAP = T_VALUE + 53  # 53 copies in the pack
T_TAIL = T_CAP + 53  # 17 cost of j leftover jokers, j = 0..16
T_SET = T_TAIL + 17  # 64 set_ok[k], k naturals of one rank
T_REACH = T_SET + 64  # 13 ranks that can share a run with rank r as its lowest natural
T_J0_START = T_REACH + 13  # 14 start of rank r's joker-free run masks in T_J0_LIST
T_J0_LIST = T_J0_START + 14  # 512 joker-free run masks grouped by lowest rank, biggest first
T_DISTINCT = T_J0_LIST + 512  # 1 sets need distinct suits
T_SET_BY_SUITS = T_DISTINCT + 1  # 1 a rank's set capacity is its number of suits (distinct, or one deck)
T_SET_NEED = T_SET_BY_SUITS + 1  # 17 fewest naturals of one rank that make a set with at most j jokers
T_RUN = T_SET_NEED + 17  # 8192 run_ok[M]
T_RUN_REACH = T_RUN + 8192  # (jokers + 1) * 8192: ranks of a suit row that fit some run with <= j jokers
NO_SET = 99

BIG = 1 << 30  # "no arrangement found yet"

# LOWBIT[m] = index of the lowest set bit of a 13-bit mask (m > 0).
LOWBIT = np.zeros(1 << 13, dtype=np.int64)
for _m in range(1, 1 << 13):
    LOWBIT[_m] = (_m & -_m).bit_length() - 1
del _m


@_jit
def _max_jokers(P, size):
    # MeldRules.max_jokers: most jokers a meld of `size` cards may hold
    j = size - P[P_MIN_NATURALS]
    if P[P_MAX_JOKERS_PER_MELD] >= 0 and P[P_MAX_JOKERS_PER_MELD] < j:
        j = P[P_MAX_JOKERS_PER_MELD]
    return j if j > 0 else 0


@_jit
def _build_tables(P):
    n_jokers = P[P_JOKERS]
    T = np.zeros(T_RUN_REACH + (n_jokers + 1) * 8192, dtype=np.int32)
    min_meld, max_set, max_run, min_nat = P[P_MIN_MELD], P[P_MAX_SET], P[P_MAX_RUN], P[P_MIN_NATURALS]
    for c in range(52):
        r = c % 13
        T[T_VALUE + c] = P[P_ACE_VALUE] if r == 0 else (P[P_FACE_VALUE] if r >= 10 else r + 1)
        T[T_CAP + c] = P[P_DECKS]
    T[T_VALUE + 52] = P[P_JOKER_VALUE]
    T[T_CAP + 52] = n_jokers
    T[T_DISTINCT] = P[P_DISTINCT]
    T[T_SET_BY_SUITS] = 1 if (P[P_DISTINCT] == 1 or P[P_DECKS] == 1) else 0

    # T_TAIL (leftover jokers) is filled by rule_tables from melds.leftover_jokers itself

    # sets: k naturals of one rank (k >= 1) and j jokers
    for k in range(1, 64):
        if k < min_nat:
            continue
        for j in range(n_jokers + 1):
            size = k + j
            if min_meld <= size <= max_set and j <= _max_jokers(P, size):
                T[T_SET + k] |= 1 << j

    for j in range(17):
        T[T_SET_NEED + j] = NO_SET
        for k in range(63, 0, -1):
            if T[T_SET + k] & ((2 << j) - 1):
                T[T_SET_NEED + j] = k

    # runs: every window and every placement of jokers in it
    ace = P[P_ACE]
    ranks = np.zeros(14, dtype=np.int64)
    for length in range(min_meld, max_run + 1):
        if ace == 0:
            lo, hi = 0, 13 - length
        elif ace == 1:
            lo, hi = 1, 14 - length
        elif ace == 2:
            lo, hi = 0, 14 - length
        else:
            lo, hi = 0, 12  # every start, even for 13 cards: the rotation moves the jokers' neighbours
        most = _max_jokers(P, length)
        if most > n_jokers:
            most = n_jokers
        for start in range(lo, hi + 1):
            for i in range(length):
                ranks[i] = (start + i) % 13
            for jm in range(1 << length):
                j = 0
                longest = 0
                cur = 0
                M = 0
                for i in range(length):
                    if (jm >> i) & 1:
                        j += 1
                        cur += 1
                        if cur > longest:
                            longest = cur
                    else:
                        cur = 0
                        M |= 1 << ranks[i]
                if j > most or length - j < min_nat or length - j < 1:
                    continue
                if j >= 2 and longest >= 2 and length < P[P_ADJACENT_MIN_RUN]:
                    continue
                if j >= 2 and P[P_MAX_ADJACENT] >= 0 and longest > P[P_MAX_ADJACENT]:
                    continue
                T[T_RUN + M] |= 1 << j

    # per lowest rank: reach masks and the joker-free runs, biggest first
    pos = 0
    for r in range(13):
        T[T_J0_START + r] = pos
        for M in range(8191, 0, -1):
            if T[T_RUN + M] != 0 and LOWBIT[M] == r:
                T[T_REACH + r] |= M
                if T[T_RUN + M] & 1:
                    T[T_J0_LIST + pos] = M
                    pos += 1
    T[T_J0_START + 13] = pos

    # run reach: for each row of ranks present and joker budget j, the ranks that lie in
    # some run made of those ranks and at most j jokers (a natural outside it and outside
    # every set is unmatched whatever else happens: the search's lower bound)
    fewest = np.full(8192, NO_SET, dtype=np.int64)
    for M in range(1, 8192):
        if T[T_RUN + M] != 0:
            fewest[M] = LOWBIT[T[T_RUN + M]]
    fill_run_reach(fewest, n_jokers, T, T_RUN_REACH)
    return T


@_jit
def fill_run_reach(fewest, n_jokers, out, base):
    """``out[base + j·8192 + row]`` = the ranks of ``row`` that lie in some run needing at most ``j`` jokers,
    given ``fewest[M]``, the fewest jokers a run on exactly the ranks ``M`` needs (shared with the
    opening kernel, :mod:`rumino.hand.opening`)."""
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
            out[base + j * 8192 + row] = reach


# --------------------------------------------------------------------------- the search


@_jit
def _take_run(cnt, rows, s, M):
    base = s * 13
    m = M
    while m:
        q = LOWBIT[m]
        m &= m - 1
        cnt[base + q] -= 1
        if cnt[base + q] == 0:
            rows[s] &= ~(1 << q)


@_jit
def _put_run(cnt, rows, s, M):
    base = s * 13
    m = M
    while m:
        q = LOWBIT[m]
        m &= m - 1
        cnt[base + q] += 1
        rows[s] |= 1 << q


@_jit
def _take(cnt, rows, card, k):
    if k:
        cnt[card] -= k
        if cnt[card] == 0:
            rows[card // 13] &= ~(1 << (card % 13))


@_jit
def _put(cnt, rows, card, k):
    if k:
        cnt[card] += k
        rows[card // 13] |= 1 << (card % 13)


@_jit
def _lone_cost(cnt, t, lone, T, banned, disc):
    """Deadwood of the lone cards of suit ``t``, and the dearest one that may be discarded (-1: none)."""
    bound = 0
    most = -1
    while lone:
        q = LOWBIT[lone]
        lone &= lone - 1
        v = T[T_VALUE + t * 13 + q]
        bound += cnt[t * 13 + q] * v
        if disc == 1 and banned[t * 13 + q] == 0 and v > most:
            most = v
    return bound, most


@_jit
def _lift(cnt, rows, t, mask):
    """Take every copy of the cards ``mask`` of suit ``t``; return their counts packed 4 bits each."""
    saved = 0
    m = mask
    while m:
        q = LOWBIT[m]
        m &= m - 1
        saved |= cnt[t * 13 + q] << (4 * q)
        cnt[t * 13 + q] = 0
    rows[t] &= ~mask
    return saved


@_jit
def _drop(cnt, rows, t, mask, saved):
    """Undo :func:`_lift`."""
    m = mask
    while m:
        q = LOWBIT[m]
        m &= m - 1
        cnt[t * 13 + q] = (saved >> (4 * q)) & 15
    rows[t] |= mask


@_jit
def _set_ranks(cnt, rows, J, T):
    """Mask of the ranks whose naturals left can still make a set with at most ``J`` jokers."""
    need = T[T_SET_NEED + J]
    if need == NO_SET:
        return 0
    if T[T_SET_BY_SUITS]:  # capacity = number of suits present: count with bit operations
        r0, r1, r2, r3 = rows[0], rows[1], rows[2], rows[3]
        if need == 1:
            return r0 | r1 | r2 | r3
        if need == 2:
            return (r0 & r1) | (r0 & r2) | (r0 & r3) | (r1 & r2) | (r1 & r3) | (r2 & r3)
        if need == 3:
            return (r0 & r1 & (r2 | r3)) | (r2 & r3 & (r0 | r1))
        if need == 4:
            return r0 & r1 & r2 & r3
        return 0
    m = 0
    for r in range(13):
        if cnt[r] + cnt[13 + r] + cnt[26 + r] + cnt[39 + r] >= need:
            m |= 1 << r
    return m


# Compiled on first use (an explicit signature compiled it at import, in every process: in
# each test worker at once): the on-disk cache the first user writes is loaded by the other
# processes, those already running too. Every caller passes the same types (int64 scalars,
# C-contiguous arrays), so there is one compiled version, and recursive calls resolve against it.
@_jit
def deadwood_dfs(cnt, rows, J, cost, best, floor, disc, T, banned):
    """Best total (< ``best``) of the cards left, or ``best`` if none is lower.

    ``cost``: deadwood already committed; ``floor``: stop once reached;
    ``disc``: 1 while one card must still be discarded (``banned[c]`` may not be).
    ``cnt``/``rows`` are modified and restored.
    """
    if cost >= best:
        return best
    s = 0
    while s < 4 and rows[s] == 0:
        s += 1
    if s == 4:  # only jokers left
        if disc == 0:
            v = cost + T[T_TAIL + J]
        elif J > 0 and banned[52] == 0:
            v = cost + T[T_TAIL + J - 1]
        else:
            return best
        return v if v < best else best
    row = rows[s]
    r = LOWBIT[row]
    c = s * 13 + r
    bit = 1 << r
    jmask = (2 << J) - 1

    # Lower bound: a natural in no set and no run of the cards left ("lone") is unmatched
    # whatever happens. Lone cards are set aside at once; removing them changes no other
    # card's melds, so the search below only branches on cards that can still meld.
    in_sets = _set_ranks(cnt, rows, J, T)
    reach = T_RUN_REACH + J * 8192
    l0 = rows[0] & ~(T[reach + rows[0]] | in_sets)
    l1 = rows[1] & ~(T[reach + rows[1]] | in_sets)
    l2 = rows[2] & ~(T[reach + rows[2]] | in_sets)
    l3 = rows[3] & ~(T[reach + rows[3]] | in_sets)
    if l0 | l1 | l2 | l3:
        b0, m0 = _lone_cost(cnt, 0, l0, T, banned, disc)
        b1, m1 = _lone_cost(cnt, 1, l1, T, banned, disc)
        b2, m2 = _lone_cost(cnt, 2, l2, T, banned, disc)
        b3, m3 = _lone_cost(cnt, 3, l3, T, banned, disc)
        bound = b0 + b1 + b2 + b3
        most = max(max(m0, m1), max(m2, m3))  # the dearest lone card that may be discarded, or -1
        if cost + bound - max(most, 0) >= best:
            return best
        k0 = _lift(cnt, rows, 0, l0)
        k1 = _lift(cnt, rows, 1, l1)
        k2 = _lift(cnt, rows, 2, l2)
        k3 = _lift(cnt, rows, 3, l3)
        if disc == 0:
            best = deadwood_dfs(cnt, rows, J, cost + bound, best, floor, disc, T, banned)
        else:
            if most >= 0:  # the discard is the dearest lone card ...
                best = deadwood_dfs(cnt, rows, J, cost + bound - most, best, floor, disc - 1, T, banned)
            if best > floor:  # ... or a card that could meld, or a joker
                best = deadwood_dfs(cnt, rows, J, cost + bound, best, floor, disc, T, banned)
        _drop(cnt, rows, 0, l0, k0)
        _drop(cnt, rows, 1, l1, k1)
        _drop(cnt, rows, 2, l2, k2)
        _drop(cnt, rows, 3, l3, k3)
        return best

    # 1. c is the lowest natural of a run of its suit (higher ranks only: lower ones are gone)
    if J == 0:
        for i in range(T[T_J0_START + r], T[T_J0_START + r + 1]):
            M = T[T_J0_LIST + i]
            if M & ~rows[s] == 0:
                _take_run(cnt, rows, s, M)
                best = deadwood_dfs(cnt, rows, J, cost, best, floor, disc, T, banned)
                _put_run(cnt, rows, s, M)
                if best <= floor:
                    return best
    else:
        avail = row & T[T_REACH + r] & ~bit
        sub = avail
        while True:
            M = sub | bit
            ok = T[T_RUN + M] & jmask
            if ok != 0:
                _take_run(cnt, rows, s, M)
                for j in range(J, -1, -1):  # more jokers first: a joker left over costs the most
                    if (ok >> j) & 1:
                        best = deadwood_dfs(cnt, rows, J - j, cost, best, floor, disc, T, banned)
                        if best <= floor:
                            break
                _put_run(cnt, rows, s, M)
                if best <= floor:
                    return best
            if sub == 0:
                break
            sub = (sub - 1) & avail

    # 2. c is the lowest natural of a set of its rank: copies of c and cards of later suits
    one = T[T_DISTINCT] == 1
    a0 = cnt[c]
    a1 = cnt[c + 13] if s < 3 else 0
    a2 = cnt[c + 26] if s < 2 else 0
    a3 = cnt[c + 39] if s < 1 else 0
    if one:
        a0 = min(a0, 1)
        a1 = min(a1, 1)
        a2 = min(a2, 1)
        a3 = min(a3, 1)
    for k0 in range(a0, 0, -1):
        for k1 in range(a1, -1, -1):
            for k2 in range(a2, -1, -1):
                for k3 in range(a3, -1, -1):
                    ok = T[T_SET + k0 + k1 + k2 + k3] & jmask
                    if ok == 0:
                        continue
                    _take(cnt, rows, c, k0)
                    if k1:
                        _take(cnt, rows, c + 13, k1)
                    if k2:
                        _take(cnt, rows, c + 26, k2)
                    if k3:
                        _take(cnt, rows, c + 39, k3)
                    for j in range(J, -1, -1):
                        if (ok >> j) & 1:
                            best = deadwood_dfs(cnt, rows, J - j, cost, best, floor, disc, T, banned)
                            if best <= floor:
                                break
                    _put(cnt, rows, c, k0)
                    if k1:
                        _put(cnt, rows, c + 13, k1)
                    if k2:
                        _put(cnt, rows, c + 26, k2)
                    if k3:
                        _put(cnt, rows, c + 39, k3)
                    if best <= floor:
                        return best

    # 3. c is the card discarded (after a draw), at no cost
    if disc == 1 and banned[c] == 0:
        _take(cnt, rows, c, 1)
        best = deadwood_dfs(cnt, rows, J, cost, best, floor, disc - 1, T, banned)
        _put(cnt, rows, c, 1)
        if best <= floor:
            return best

    # 4. c and its remaining copies are unmatched (melding a copy is covered by branches 1-2)
    m = cnt[c]
    v = cost + m * T[T_VALUE + c]
    if v < best:
        cnt[c] = 0
        rows[s] &= ~bit
        best = deadwood_dfs(cnt, rows, J, v, best, floor, disc, T, banned)
        cnt[c] = m
        rows[s] |= bit
    return best


@_jit
def load_rows(cnt, rows):
    for s in range(4):
        m = 0
        for q in range(13):
            if cnt[s * 13 + q] > 0:
                m |= 1 << q
        rows[s] = m


@_jit
def _batch(counts, T, disc, out, banned):
    """Evaluate every row into ``out``. Returns -1, or ``row * 53 + card`` of the first count
    outside the pack, or ``n * 53 + row`` of the first empty row when a discard is needed."""
    n = counts.shape[0]
    zero, big, disc = np.int64(0), np.int64(BIG), np.int64(disc)  # typed int64, not literals
    cnt = np.zeros(53, dtype=np.int64)
    rows = np.zeros(4, dtype=np.int64)
    for i in range(n):
        total = 0
        for c in range(53):
            x = counts[i, c]
            if x < 0 or x > T[T_CAP + c]:
                return i * 53 + c
            cnt[c] = x
            total += x
        if disc == 1 and total == 0:
            return n * 53 + i
        load_rows(cnt, rows)
        out[i] = deadwood_dfs(cnt, rows, cnt[52], zero, big, zero, disc, T, banned)
    return -1


@_jit
def _load_ids(ids, T, cnt, rows):
    """Count vector and suit rows of a hand of card ids; 0, or an error code:
    ``1 + i`` if ``ids[i]`` is not a card id, ``-(1 + card)`` for too many copies."""
    for i in range(ids.shape[0]):
        c = ids[i]
        if c < 0 or c > 52:
            return 1 + i
        cnt[c] += 1
    for c in range(53):
        if cnt[c] > T[T_CAP + c]:
            return -(1 + c)
    load_rows(cnt, rows)
    return 0


@_jit
def _single_value(ids, T):
    """Minimum deadwood of one hand of card ids, or ``-BIG - code`` for bad input (see _load_ids)."""
    zero, big = np.int64(0), np.int64(BIG)  # typed int64, not literals
    cnt = np.zeros(53, dtype=np.int64)
    rows = np.zeros(4, dtype=np.int64)
    status = _load_ids(ids, T, cnt, rows)
    if status != 0:
        return -big - status
    return deadwood_dfs(cnt, rows, cnt[52], zero, big, zero, zero, T, np.zeros(53, dtype=np.int8))


_NO_BAN_CONST = np.zeros(53, dtype=np.int8)  # a constant the kernels read (numba freezes a global array)


@_jit
def _tuple_value(ids, T):
    """:func:`_single_value` of a tuple of card ids: one call from Python with no array made there
    (numba reads the tuple as it is), the path of :func:`min_deadwood_fast` for a tuple of ints."""
    zero, big = np.int64(0), np.int64(BIG)
    cnt = np.zeros(53, dtype=np.int64)
    rows = np.zeros(4, dtype=np.int64)
    i = 0
    for c in ids:
        i += 1
        if c < 0 or c > 52:
            return -big - i
        cnt[c] += 1
        if cnt[c] > T[T_CAP + c]:
            return -big + 1 + c
        if c < 52:
            rows[c // 13] |= 1 << (c % 13)
    return deadwood_dfs(cnt, rows, cnt[52], zero, big, zero, zero, T, _NO_BAN_CONST)


@_jit
def _single_draw(ids, T, banned, discards):
    """Value after a draw of one hand of card ids: ``(status, value, number of best discards)``.

    status: 0, or the error code of _load_ids. Fills ``discards`` with the distinct
    cards whose discard reaches the minimum, in id order (value ``BIG``: no card
    may be discarded).
    """
    zero, one, big = np.int64(0), np.int64(1), np.int64(BIG)  # typed int64, not literals
    cnt = np.zeros(53, dtype=np.int64)
    rows = np.zeros(4, dtype=np.int64)
    status = _load_ids(ids, T, cnt, rows)
    if status != 0:
        return status, zero, zero
    J = cnt[52]
    value = deadwood_dfs(cnt, rows, J, zero, big, zero, one, T, banned)
    if value >= BIG:
        return zero, value, zero
    # which discards reach `value`: search each kept hand with `value` as a floor (stop there)
    n = 0
    for d in range(53):
        if cnt[d] == 0 or banned[d]:
            continue
        if d == 52:
            v = deadwood_dfs(cnt, rows, J - 1, zero, value + 1, value, zero, T, banned)
        else:
            _take(cnt, rows, d, 1)
            v = deadwood_dfs(cnt, rows, J, zero, value + 1, value, zero, T, banned)
            _put(cnt, rows, d, 1)
        if v == value:
            discards[n] = d
            n += 1
    return zero, value, n


# --------------------------------------------------------------------------- Python API

_BY_ID: dict[int, tuple[MeldRules, np.ndarray]] = {}
_BY_VALUE: dict[MeldRules, np.ndarray] = {}
_NO_BAN = np.zeros(53, dtype=np.int8)


def rule_tables(rules: MeldRules) -> np.ndarray:
    """The compiled lookup tables for ``rules`` (built once per rules object and cached).

    >>> from rumino.melds import GIN_MELDS
    >>> t = rule_tables(GIN_MELDS)
    >>> bool(t[T_RUN + 0b111] & 1), bool(t[T_RUN + 0b101] & 1)  # A-2-3 is a run, A-3 is not
    (True, False)
    """
    hit = _BY_ID.get(id(rules))
    if hit is not None and hit[0] is rules:
        return hit[1]
    table = _BY_VALUE.get(rules) if isinstance(rules, MeldRules) else None
    if table is None:
        table = _build_tables(encode_rules(rules))
        # jokers left once every natural is placed: the reference's own rule (all-joker melds
        # only when min_naturals == 0, of the sizes is_meld accepts)
        for j in range(rules.pack.jokers + 1):
            table[T_TAIL + j] = leftover_jokers(j, rules) * rules.joker_value
        if len(_BY_VALUE) > 256:  # rules objects are few; this only bounds a pathological caller
            _BY_VALUE.clear()
        _BY_VALUE[rules] = table
    if len(_BY_ID) > 256:
        _BY_ID.clear()
    _BY_ID[id(rules)] = (rules, table)  # holding `rules` keeps its id from being reused
    return table


def _as_counts(counts) -> np.ndarray:
    arr = np.asarray(counts)
    if arr.ndim != 2 or arr.shape[1] != N_KINDS:
        raise InvalidCardError(f"counts must be an array of shape (n, 53), one count vector per row "
                               f"(index 52 = jokers); got shape {arr.shape}.")
    if arr.dtype.kind not in "iu":
        raise InvalidCardError(f"counts must hold integers; got dtype {arr.dtype}.")
    if arr.dtype != np.int8:
        if arr.size and (arr.min() < -128 or arr.max() > 127):
            # out of the int8 range: certainly outside every pack; find and name the first one
            bad = np.argwhere((arr < 0) | (arr > 127))[0]
            _raise_count(arr, int(bad[0]), int(bad[1]), None)
        arr = arr.astype(np.int8)
    return np.ascontiguousarray(arr)


def _raise_count(arr, row: int, card: int, rules: MeldRules | None):
    have = int(arr[row, card])
    name = ("joker" if have == 1 else "jokers") if card == JOKER else f"copies of {format_card(card)}"
    if have < 0:
        raise InvalidCardError(f"row {row} of counts has a negative count ({have}) of {name}.")
    pack = f"a pack of {rules.pack.describe()} has only {rules.pack.copies(card)}" if rules else "no pack has that many"
    raise InvalidCardError(f"row {row} of counts holds {have} {name}, but {pack}.")


def _run_batch(counts, rules: MeldRules, disc: int) -> np.ndarray:
    table = rule_tables(rules)
    arr = _as_counts(counts)
    out = np.empty(arr.shape[0], dtype=np.int32)
    bad = _batch(arr, table, disc, out, _NO_BAN)
    if bad >= arr.shape[0] * N_KINDS:
        raise InvalidCardError(f"row {bad - arr.shape[0] * N_KINDS} of counts is an empty hand: "
                               f"there is no card to discard.")
    if bad >= 0:
        _raise_count(arr, bad // N_KINDS, bad % N_KINDS, rules)
    return out


def min_deadwood_batch(counts: np.ndarray, rules: MeldRules) -> np.ndarray:
    """Minimum deadwood of every row of an ``(n, 53)`` array of count vectors (int32, shape ``(n,)``).

    Rows may hold any number of cards; each must fit in ``rules.pack``.

    >>> from rumino.cards import sample_hands, RUMINO_PACK
    >>> from rumino.melds import RUMINO_MELDS
    >>> hands = sample_hands(RUMINO_PACK, 7, 5, np.random.default_rng(0))
    >>> min_deadwood_batch(hands, RUMINO_MELDS).shape
    (5,)
    """
    return _run_batch(counts, rules, 0)


def after_draw_batch(counts: np.ndarray, rules: MeldRules) -> np.ndarray:
    """For each row (one card more than is kept): the minimum over discards of the deadwood kept.

    >>> from rumino.cards import to_counts, parse_hand
    >>> from rumino.melds import GIN_MELDS
    >>> after_draw_batch(to_counts(parse_hand("6s 7s 8s 8c 9c 6d 7d 8d 9d 6h 9h"))[None, :], GIN_MELDS).tolist()
    [6]
    """
    return _run_batch(counts, rules, 1)


def _ids(cards: Sequence[int]) -> np.ndarray:
    arr = np.asarray(cards)
    if arr.ndim != 1 or (arr.size and arr.dtype.kind not in "iu"):
        if isinstance(cards, (str, bytes)):
            raise InvalidCardError(f"{cards!r} is a string: pass card ids (rumino.cards.parse_hand turns text into ids).")
        for c in (cards if arr.ndim == 1 else [cards]):
            if isinstance(c, bool) or not isinstance(c, (int, np.integer)):
                raise InvalidCardError(f"{c!r} is not a card id: ids are 0–51 for naturals and 52 for a joker.")
        raise InvalidCardError(f"{cards!r} is not a sequence of card ids.")
    return arr.astype(np.int64, copy=False)


def _refuse(cards, ids, rules, status: int):
    if status > 0:
        raise InvalidCardError(f"{cards[status - 1]!r} is not a card id: ids are 0–51 for naturals and 52 for a joker.")
    rules.pack.check_hand([int(c) for c in ids])  # raises, naming the card and the pack
    raise InvalidCardError(f"the hand holds too many copies of {format_card(-status - 1)}.")  # pragma: no cover


_TUPLE_ENTRY: dict[int, object] = {}  # hand size -> the compiled _tuple_value for a tuple of that many ints


def _tuple_first(cards: tuple, table: np.ndarray) -> int:
    """The first call for a hand size: numba compiles (or loads) :func:`_tuple_value` for a tuple of
    that many ints, and its compiled version is kept in :data:`_TUPLE_ENTRY` to be called directly
    (numba's dispatcher would otherwise work out the type of every card on every call). -1 for a
    tuple numba cannot loop over (a bool among the ints): the checked path answers."""
    try:
        value = _tuple_value(cards, table)
    except Exception:
        return -1
    compiled = _tuple_value.overloads.get((numba.typeof(cards), numba.typeof(table)))
    if compiled is not None and len(_TUPLE_ENTRY) < 64:
        _TUPLE_ENTRY[len(cards)] = compiled.entry_point
    return value


def min_deadwood_fast(cards: Sequence[int], rules: MeldRules) -> int:
    """Minimum deadwood of one hand given as card ids (same value as :func:`rumino.hand.arrange.min_deadwood`).

    >>> from rumino.cards import parse_hand
    >>> from rumino.melds import RUMINO_MELDS
    >>> min_deadwood_fast(parse_hand("JK JK 5h 9c 9d 9s 2c"), RUMINO_MELDS)
    2
    """
    hit = _BY_ID.get(id(rules))
    table = hit[1] if hit is not None and hit[0] is rules else rule_tables(rules)
    if cards.__class__ is tuple and cards and cards[0].__class__ is int:
        # the one-call path (bench_deadwood.py (a)): a tuple of Python ints goes to the kernel as it is;
        # floats, text or numpy numbers among them take the checked path, which names the bad card
        try:
            if sum(cards).__class__ is int:
                entry = _TUPLE_ENTRY.get(len(cards))
                value = entry(cards, table) if entry is not None else _tuple_first(cards, table)
                if value >= 0:
                    return value
        except (TypeError, OverflowError):  # text among them; an int too big for a card id
            pass
    ids = _ids(cards)
    value = _single_value(ids, table)
    if value < 0:
        _refuse(cards, ids, rules, -BIG - value)
    return int(value)


def after_draw_fast(cards: Sequence[int], rules: MeldRules) -> tuple[int, tuple[int, ...]]:
    """``(value, discards)`` of a hand one card over: the minimum over discards of the deadwood
    kept, and every distinct card whose discard reaches it (in id order), as
    :func:`rumino.hand.arrange.after_draw` gives them.

    >>> from rumino.cards import parse_hand, format_hand
    >>> from rumino.melds import GIN_MELDS
    >>> value, discards = after_draw_fast(parse_hand("JS JH JD 8C 7S 7H 7D 4S 3D 2S AC"), GIN_MELDS)
    >>> value, format_hand(discards)
    (10, '8c')
    """
    return best_discards_fast(cards, rules)


def best_discards_fast(cards: Sequence[int], rules: MeldRules,
                       forbidden: Iterable[int] = ()) -> tuple[int, tuple[int, ...]]:
    """Like :func:`after_draw_fast`, but the cards in ``forbidden`` may not be discarded
    (for example the card just taken from the discard pile).

    >>> from rumino.cards import parse_hand
    >>> from rumino.melds import GIN_MELDS
    >>> best_discards_fast(parse_hand("6s 2c 4c 5c 6c 3d 4d 5d 6d 3h 5h"), GIN_MELDS, forbidden=[5])
    (11, (43,))
    """
    banned = _NO_BAN
    forbidden = tuple(forbidden)
    if forbidden:
        banned = np.zeros(53, dtype=np.int8)
        for c in _ids(forbidden):
            if not 0 <= c <= JOKER:
                raise InvalidCardError(f"forbidden holds {int(c)!r}, which is not a card id: ids are 0–52.")
            banned[c] = 1
    if len(cards) == 0:
        raise InvalidCardError("the hand is empty: there is no card to discard.")
    table = rule_tables(rules)
    ids = _ids(cards)
    discards = np.empty(53, dtype=np.int64)
    status, value, n = _single_draw(ids, table, banned, discards)
    if status:
        _refuse(cards, ids, rules, status)
    if value >= BIG:
        raise IllegalActionError("no card may be discarded: every card of the hand is forbidden.")
    return int(value), tuple(discards[:n].tolist())
