"""Exact best-five-of-n tables: how many n-card hands from one 52-card deck make each poker category.

For every n from 5 to 18 (Rummoli's hand sizes: 8 players hold 5 or 6 cards,
2 players 17 or 18, rules §2.1) :func:`best_five_table` gives the number of the
C(52, n) hands whose best five cards are a straight flush (royal flushes
included), four of a kind, … high card, as exact integers.
Published tables stop at seven cards; these go on to eighteen.

>>> t = best_five_table(5)
>>> t["straight_flush"], t["four_of_a_kind"], t["high_card"], sum(t.values())
(40, 624, 1302540, 2598960)
>>> best_five_table(7)["straight"]
6180020

Two independent exact methods compute every table, and the tests and
``bench/bench_poker.py`` check that they agree for every n, that n = 5, 6 and 7
match brute force over all hands, and that every n matches a seeded simulation.

**(B) Complements and inclusion–exclusion** (:func:`table_by_complements`, the
default). Counting hands that *avoid* the better categories is easier than
counting a category directly. With N0 … N7 the numbers of hands that have

    N0: no straight flush          N4: … and no straight
    N1: … and no four of a kind    N5: … and no three of a kind
    N2: … and no full house        N6: … and at most one pair
    N3: no flush, no four of a kind, no full house      N7: no pair

every category is a difference: straight flush = C(52, n) − N0, four of a kind
= N0 − N1, …, flush = N2 − N3, straight = N3 − N4, …, high card = N7.

* N0: the four suits are independent, and a suit avoids a straight flush when
  its set of ranks holds no five in a row (ace low or high), so N0 is the
  coefficient of x^n in A(x)^4, A(x) = Σ_M x^|M| over such run-free rank sets M.
* N1: inclusion–exclusion over the set Q of ranks held four times: for a fixed Q
  each suit must hold all of Q, so N1 = Σ_Q (−1)^|Q| [x^n] A_Q(x)^4 with A_Q
  summing over the run-free supersets of Q (a superset-sum transform over the
  8192 rank sets).
* N2: no four of a kind and no full house leaves two rank profiles: every rank
  at most twice, or one rank three times and the others once. A dynamic
  programme over the ranks (ace first, its suits remembered for 10-J-Q-K-A)
  tracks, per suit, how many ranks in a row that suit holds, and drops a hand
  as soon as some suit reaches five.
* N3 … N7 have no flush, so no straight flush; they depend on the ranks only
  through the *profile* (how many ranks are held once, twice, three times) and
  the set of ranks present: sum over profiles of (number of rank sets of that
  size, or of run-free ones) × (ways to give each rank its count) × (ways to
  give the cards suits with no suit above four). The last factor is counted
  suit by suit (:func:`_suit_ways_by_columns`).

**(A) Rank patterns with their suit assignments** (:func:`table_by_rank_patterns`).
Walks the ranks ace, 2, …, king, choosing how many cards of each rank (0–4) and
their suits, and classifies every hand directly, not by differences. The
patterns are merged by what decides the category: the rank profile so far
(ranks held 1, 2, 3, 4 times), the length of the current run of ranks present,
and for each suit its current run of ranks (a straight flush ends the walk for
that suit assignment). The ace's suits are fixed in advance (by symmetry only
how many matter), so 10-J-Q-K-A is checked at the end. For each final pattern
class the method knows the number of rank patterns W, the suit assignments
without a straight flush, and (ranks counted rank by rank, :func:`_suit_ways_by_rows`)
the suit assignments without a flush; the category follows from the profile.
"""

from __future__ import annotations

from functools import lru_cache
from math import comb, factorial
from typing import Dict

import numpy as np

from rumino.jit import jit as _jit
from rumino.errors import RuminoError

__all__ = [
    "CATEGORIES",
    "MIN_CARDS",
    "MAX_CARDS",
    "best_five_table",
    "table_by_complements",
    "table_by_rank_patterns",
    "brute_force_table",
    "simulate_table",
    "compare_with_simulation",
    "one_in",
]

MIN_CARDS, MAX_CARDS = 5, 18
# Best first, as the tables print; keys as `rumino odds poker --json` writes them.
CATEGORIES = ("straight_flush", "four_of_a_kind", "full_house", "flush", "straight", "three_of_a_kind",
              "two_pair", "one_pair", "high_card")


class PokerOddsError(RuminoError, ValueError):
    """A hand size outside 5 … 18, or a bad simulation size."""


def _check_n(n) -> int:
    if isinstance(n, bool) or not isinstance(n, (int, np.integer)):
        raise PokerOddsError(f"the number of cards must be a whole number from {MIN_CARDS} to {MAX_CARDS}, got {n!r}.")
    n = int(n)
    if not MIN_CARDS <= n <= MAX_CARDS:
        raise PokerOddsError(f"the number of cards must be from {MIN_CARDS} to {MAX_CARDS} "
                             f"(the best five of n cards of one deck), got {n}.")
    return n


# ------------------------------------------------------------------ rank sets (bit r = rank r, ace = bit 0)

# The ten straights as rank masks: A-2-3-4-5 … 9-10-J-Q-K, and 10-J-Q-K-A.
_RUNS = tuple(0b11111 << w for w in range(9)) + ((0b1111 << 9) | 1,)


def _run_free() -> np.ndarray:
    """Boolean per 13-bit rank set: True when it holds no five ranks in a row (ace low or high)."""
    m = np.arange(8192)
    ok = np.ones(8192, dtype=bool)
    for r in _RUNS:
        ok &= (m & r) != r
    return ok


def _popcount(m: np.ndarray) -> np.ndarray:
    return sum((m >> b) & 1 for b in range(13))


# ------------------------------------------------------------------ method B: complements

def _power4(p: np.ndarray) -> np.ndarray:
    """Row-wise 4th power of polynomials (coefficients along the last axis), truncated to degree 18."""
    def mul(a, b):
        out = np.zeros(a.shape[:-1] + (MAX_CARDS + 1,), dtype=np.int64)
        for i in range(min(a.shape[-1], MAX_CARDS + 1)):
            for j in range(min(b.shape[-1], MAX_CARDS + 1 - i)):
                out[..., i + j] += a[..., i] * b[..., j]
        return out

    p2 = mul(p, p)
    return mul(p2, p2)


def _no_sf_counts(with_quads_excluded: bool) -> list[int]:
    """N0 (hands without a straight flush) or N1 (… and without four of a kind), for n = 0 … 18."""
    masks = np.arange(8192)
    pop = _popcount(masks)
    f = np.zeros((8192, 14), dtype=np.int64)
    rf = _run_free()
    f[masks[rf], pop[rf]] = 1
    if not with_quads_excluded:
        return [int(x) for x in _power4(f.sum(axis=0, keepdims=True))[0]]
    # superset sums: f[Q] = Σ over run-free M ⊇ Q of x^|M|
    for b in range(13):
        without = (masks >> b) & 1 == 0
        f[masks[without]] += f[masks[without] | (1 << b)]
    p4 = _power4(f)
    sign = np.where(pop % 2 == 0, 1, -1)
    return [int(sum(int(s) * int(v) for s, v in zip(sign, p4[:, k]) if v)) for k in range(MAX_CARDS + 1)]


@_jit
def _no_sf_profile_dp(out):
    """N2 of method B: hands with no straight flush, no four of a kind and no full house, for n = 0 … 18.

    Such a hand holds every rank at most twice, or one rank three times and the
    others once. The profile state u is 0 (every rank once so far), 1 (some rank
    twice, none three times) or 2 (one rank three times, the rest once); the suit
    state is each suit's current run of ranks (0–4, base 5), and a hand is
    dropped when a suit reaches five in a row.
    """
    size = np.zeros(16, dtype=np.int64)
    nxt = np.full((16, 625), -1, dtype=np.int64)
    for S in range(16):
        size[S] = (S & 1) + ((S >> 1) & 1) + ((S >> 2) & 1) + ((S >> 3) & 1)
        for st in range(625):
            x = st
            new = 0
            p = 1
            ok = True
            for s in range(4):
                run = x % 5
                x //= 5
                r2 = run + 1 if (S >> s) & 1 else 0
                if r2 >= 5:
                    ok = False
                new += r2 * p
                p *= 5
            if ok:
                nxt[S, st] = new
    # profile transitions: step[u, c] = new u, or -1
    step = np.full((3, 5), -1, dtype=np.int64)
    for u in range(3):
        step[u, 0] = u
        step[u, 1] = u
    step[0, 2] = 1
    step[1, 2] = 1
    step[0, 3] = 2
    N = 19
    for A in range(16):  # the ace's suits, remembered for 10-J-Q-K-A
        a = size[A]
        if step[0, a] < 0:
            continue
        dp = np.zeros((N, 3, 625), dtype=np.int64)
        start = 0
        p = 1
        for s in range(4):
            start += ((A >> s) & 1) * p
            p *= 5
        dp[a, step[0, a], start] = 1
        for rank in range(12):  # 2 … K
            new = np.zeros((N, 3, 625), dtype=np.int64)
            for n in range(N):
                for u in range(3):
                    for st in range(625):
                        v = dp[n, u, st]
                        if v == 0:
                            continue
                        for S in range(16):
                            c = size[S]
                            if n + c >= N:
                                continue
                            u2 = step[u, c]
                            s2 = nxt[S, st]
                            if u2 < 0 or s2 < 0:
                                continue
                            new[n + c, u2, s2] += v
            dp = new
        for n in range(N):
            for u in range(3):
                for st in range(625):
                    v = dp[n, u, st]
                    if v == 0:
                        continue
                    x = st
                    sf = False
                    for s in range(4):
                        if (A >> s) & 1 and x % 5 >= 4:
                            sf = True
                        x //= 5
                    if not sf:
                        out[n] += v
    return 0


@lru_cache(maxsize=None)
def _suit_ways_by_columns(profile: tuple[int, int, int, int]) -> int:
    """Ways to give suits to ranks held (1, 2, 3, 4) times ``profile`` with no suit holding five or more cards.

    Counted one suit (column) at a time: the state is how many ranks still need
    0, 1, 2, 3, 4 more suits; a suit takes j_i ranks from each class i (at most
    four in all), which moves them to class i − 1. Method B.
    """
    need = (13 - sum(profile),) + tuple(profile)

    @lru_cache(maxsize=None)
    def go(suits_left: int, state: tuple) -> int:
        if suits_left == 0:
            return 1 if all(c == 0 for c in state[1:]) else 0
        total = 0

        def pick(i, taken, ways, new):
            nonlocal total
            if i == 5:
                total += ways * go(suits_left - 1, tuple(new))
                return
            if i == 0:
                pick(1, taken, ways, new)
                return
            for j in range(0, min(state[i], 4 - taken) + 1):
                new2 = list(new)
                new2[i] -= j
                new2[i - 1] += j
                pick(i + 1, taken + j, ways * comb(state[i], j), new2)

        pick(0, 0, 1, list(state))
        return total

    return go(4, need)


def _profiles(max_cards: int = MAX_CARDS):
    for m4 in range(5):
        for m3 in range(7):
            for m2 in range(10):
                for m1 in range(14):
                    if m1 + m2 + m3 + m4 <= 13 and m1 + 2 * m2 + 3 * m3 + 4 * m4 <= max_cards:
                        yield (m1, m2, m3, m4)


def _no_flush_counts() -> dict[str, list[int]]:
    """N3 … N7 of method B, each a list over n = 0 … 18."""
    rf = _run_free()
    pop = _popcount(np.arange(8192))
    run_free_sets = [int(np.sum(rf & (pop == p))) for p in range(14)]
    out = {k: [0] * (MAX_CARDS + 1) for k in ("N3", "N4", "N5", "N6", "N7")}
    for prof in _profiles():
        m1, m2, m3, m4 = prof
        if m4 or (m3 and (m2 or m3 > 1)):
            continue  # four of a kind or a full house
        n = m1 + 2 * m2 + 3 * m3
        p = m1 + m2 + m3
        arrange = factorial(p) // (factorial(m1) * factorial(m2) * factorial(m3))
        g = _suit_ways_by_columns(prof)
        out["N3"][n] += comb(13, p) * arrange * g
        free = run_free_sets[p] * arrange * g
        out["N4"][n] += free
        if m3 == 0:
            out["N5"][n] += free
            if m2 <= 1:
                out["N6"][n] += free
            if m2 == 0:
                out["N7"][n] += free
    return out


@lru_cache(maxsize=1)
def _complement_tables() -> dict[int, dict[str, int]]:
    n0 = _no_sf_counts(False)
    n1 = _no_sf_counts(True)
    n2 = np.zeros(MAX_CARDS + 1, dtype=np.int64)
    _no_sf_profile_dp(n2)
    nf = _no_flush_counts()
    tables = {}
    for n in range(MIN_CARDS, MAX_CARDS + 1):
        N = [n0[n], n1[n], int(n2[n]), nf["N3"][n], nf["N4"][n], nf["N5"][n], nf["N6"][n],
             nf["N7"][n]]
        chain = [comb(52, n)] + N
        diffs = [chain[i] - chain[i + 1] for i in range(8)] + [chain[8]]
        tables[n] = dict(zip(CATEGORIES, diffs))
    return tables


def table_by_complements(n: int) -> dict[str, int]:
    """Method B (see the module docstring): the counts for ``n`` cards, best category first.

    >>> table_by_complements(6)["straight_flush"]
    1844
    """
    return dict(_complement_tables()[_check_n(n)])


# ------------------------------------------------------------------ method A: rank patterns

@_jit
def _suit_ways_rows(prof_m, out):
    """For each profile (rows of prof_m: m1, m2, m3, m4), the suit assignments with no suit above four.

    Rank by rank (row by row): the state is the four suit counts (0–4 each, base 5). Method A.
    """
    for i in range(prof_m.shape[0]):
        cur = np.zeros(625, dtype=np.int64)
        cur[0] = 1
        for c in range(1, 5):
            for _ in range(prof_m[i, c - 1]):
                new = np.zeros(625, dtype=np.int64)
                for st in range(625):
                    v = cur[st]
                    if v == 0:
                        continue
                    for S in range(16):
                        if ((S & 1) + ((S >> 1) & 1) + ((S >> 2) & 1) + ((S >> 3) & 1)) != c:
                            continue
                        x = st
                        new_st = 0
                        p = 1
                        ok = True
                        for s in range(4):
                            k = x % 5 + ((S >> s) & 1)
                            x //= 5
                            if k > 4:
                                ok = False
                            new_st += k * p
                            p *= 5
                        if ok:
                            new[new_st] += v
                cur = new
        out[i] = cur.sum()


@_jit
def _rank_pattern_walk(k, prof_index, prof_m, W_out, NS_out):
    """Walk the ranks 2 … K with the ace held in suits 0 … k−1 (method A).

    State: (profile, rank run 0–4 or 5 = a straight seen, per-suit runs base 5).
    W_out[profile, straight] = rank patterns; NS_out[profile, straight] = their suit
    assignments with no straight flush (the ace's suits fixed).
    """
    P = prof_m.shape[0]
    nxt = np.full((16, 625), -1, dtype=np.int64)
    size = np.zeros(16, dtype=np.int64)
    for S in range(16):
        size[S] = (S & 1) + ((S >> 1) & 1) + ((S >> 2) & 1) + ((S >> 3) & 1)
        for st in range(625):
            x = st
            new = 0
            p = 1
            ok = True
            for s in range(4):
                run = x % 5
                x //= 5
                r2 = run + 1 if (S >> s) & 1 else 0
                if r2 >= 5:
                    ok = False
                new += r2 * p
                p *= 5
            if ok:
                nxt[S, st] = new
    W = np.zeros((P, 6), dtype=np.int64)
    NS = np.zeros((P, 6, 625), dtype=np.int64)
    start = 0
    p = 1
    for s in range(4):
        if s < k:
            start += p
        p *= 5
    m = np.zeros(4, dtype=np.int64)
    if k > 0:
        m[k - 1] = 1
    p0 = prof_index[m[0], m[1], m[2], m[3]]
    W[p0, 1 if k > 0 else 0] = 1
    NS[p0, 1 if k > 0 else 0, start] = 1
    for rank in range(12):
        W2 = np.zeros((P, 6), dtype=np.int64)
        NS2 = np.zeros((P, 6, 625), dtype=np.int64)
        for pi in range(P):
            ncards = prof_m[pi, 0] + 2 * prof_m[pi, 1] + 3 * prof_m[pi, 2] + 4 * prof_m[pi, 3]
            for rr in range(6):
                w = W[pi, rr]
                if w == 0:
                    continue
                for c in range(5):
                    if c > 0:
                        m[0] = prof_m[pi, 0]
                        m[1] = prof_m[pi, 1]
                        m[2] = prof_m[pi, 2]
                        m[3] = prof_m[pi, 3]
                        m[c - 1] += 1
                        if ncards + c > 18 or m[0] > 13 or m[1] > 9 or m[2] > 6 or m[3] > 4:
                            continue
                        q = prof_index[m[0], m[1], m[2], m[3]]
                        if q < 0:
                            continue
                        rr2 = 5 if rr == 5 else (5 if rr + 1 >= 5 else rr + 1)
                    else:
                        q = pi
                        rr2 = 5 if rr == 5 else 0
                    W2[q, rr2] += w
                    for st in range(625):
                        v = NS[pi, rr, st]
                        if v == 0:
                            continue
                        for S in range(16):
                            if size[S] != c:
                                continue
                            s2 = nxt[S, st]
                            if s2 >= 0:
                                NS2[q, rr2, s2] += v
        W = W2
        NS = NS2
    # 10-J-Q-K-A: the rank run at the king is 4 or more and the ace is held; per suit likewise.
    for pi in range(P):
        for rr in range(6):
            straight = 1 if rr == 5 or (rr >= 4 and k > 0) else 0
            W_out[pi, straight] += W[pi, rr]
            for st in range(625):
                v = NS[pi, rr, st]
                if v == 0:
                    continue
                x = st
                sf = False
                for s in range(4):
                    if s < k and x % 5 >= 4:
                        sf = True
                    x //= 5
                if not sf:
                    NS_out[pi, straight] += v
    return 0


@lru_cache(maxsize=1)
def _rank_pattern_tables() -> dict[int, dict[str, int]]:
    profs = list(_profiles())
    prof_m = np.array(profs, dtype=np.int64)
    prof_index = np.full((14, 10, 7, 5), -1, dtype=np.int64)
    for i, (a, b, c, d) in enumerate(profs):
        prof_index[a, b, c, d] = i
    g = np.zeros(len(profs), dtype=np.int64)
    _suit_ways_rows(prof_m, g)
    tables = {n: dict.fromkeys(CATEGORIES, 0) for n in range(MIN_CARDS, MAX_CARDS + 1)}
    for k in range(5):
        W = np.zeros((len(profs), 2), dtype=np.int64)
        NS = np.zeros((len(profs), 2), dtype=np.int64)
        _rank_pattern_walk(k, prof_index, prof_m, W, NS)
        ck = comb(4, k)
        for i, (m1, m2, m3, m4) in enumerate(profs):
            n = m1 + 2 * m2 + 3 * m3 + 4 * m4
            if n < MIN_CARDS:
                continue
            per_pattern = 4 ** m1 * 6 ** m2 * 4 ** m3  # suit choices of every rank (ace's included)
            for straight in (0, 1):
                w = int(W[i, straight])
                if w == 0:
                    continue
                total = w * per_pattern                 # all suit assignments, summed over the ace's C(4, k) choices
                no_sf = ck * int(NS[i, straight])       # the ace's suits fixed above: C(4, k) choices by symmetry
                no_flush = w * int(g[i])
                t = tables[n]
                t["straight_flush"] += total - no_sf
                rank_cat = _rank_category(m2, m3, m4, straight)
                if rank_cat in ("four_of_a_kind", "full_house"):
                    t[rank_cat] += no_sf
                else:
                    t["flush"] += no_sf - no_flush
                    t[rank_cat] += no_flush
    return tables


def _rank_category(m2: int, m3: int, m4: int, straight: int) -> str:
    """The category a rank profile makes without a flush (four of a kind … high card)."""
    if m4:
        return "four_of_a_kind"
    if m3 and (m3 >= 2 or m2):
        return "full_house"
    if straight:
        return "straight"
    if m3:
        return "three_of_a_kind"
    if m2 >= 2:
        return "two_pair"
    if m2:
        return "one_pair"
    return "high_card"


def table_by_rank_patterns(n: int) -> dict[str, int]:
    """Method A (see the module docstring): the counts for ``n`` cards, best category first."""
    return dict(_rank_pattern_tables()[_check_n(n)])


def best_five_table(n: int, *, method: str = "complements") -> dict[str, int]:
    """Exact number of ``n``-card hands (5 ≤ n ≤ 18, one deck) whose best five is each category.

    ``method`` is ``"complements"`` (B, the default) or ``"patterns"`` (A). The
    counts sum to C(52, n).
    """
    if method == "complements":
        return table_by_complements(n)
    if method == "patterns":
        return table_by_rank_patterns(n)
    raise PokerOddsError(f"unknown method {method!r}: use 'complements' or 'patterns'.")


# ------------------------------------------------------------------ brute force and simulation

@_jit
def _brute(n, counts):
    idx = np.arange(n)
    while True:
        m = 0
        for j in range(n):
            m |= 1 << idx[j]
        counts[_value(m) >> 20] += 1
        # next combination in lexicographic order
        i = n - 1
        while i >= 0 and idx[i] == 52 - n + i:
            i -= 1
        if i < 0:
            break
        idx[i] += 1
        for j in range(i + 1, n):
            idx[j] = idx[j - 1] + 1
    return 0


def brute_force_table(n: int) -> dict[str, int]:
    """Every one of the C(52, n) hands evaluated by :mod:`rumino.hand.poker`, for n ≤ 8.

    Seven cards (134 M hands) take seconds, eight (753 M) about a minute; nine (3.7 G) is refused.
    """
    n = _check_n(n)
    if n > 8:
        raise PokerOddsError(f"brute force over C(52, {n}) = {comb(52, n):,} hands is too long; use n ≤ 8.")
    counts = np.zeros(9, dtype=np.int64)
    _brute(n, counts)
    return _by_key(counts)


@_jit
def _simulate(n, samples, seed, counts):
    np.random.seed(seed)
    deck = np.arange(52)
    for _ in range(samples):
        m = 0
        for j in range(n):  # partial Fisher–Yates: the first n cards of a shuffled deck
            r = j + np.random.randint(0, 52 - j)
            t = deck[j]
            deck[j] = deck[r]
            deck[r] = t
            m |= 1 << deck[j]
        counts[_value(m) >> 20] += 1
    return 0


def simulate_table(n: int, samples: int, seed: int) -> dict[str, int]:
    """Category counts of ``samples`` random ``n``-card hands (numba's generator seeded with ``seed``)."""
    n = _check_n(n)
    if samples < 1:
        raise PokerOddsError(f"the number of samples must be at least 1, got {samples}.")
    counts = np.zeros(9, dtype=np.int64)
    _simulate(n, int(samples), int(seed), counts)
    return _by_key(counts)


def compare_with_simulation(n: int, samples: int, seed: int) -> dict[str, dict]:
    """For each category: exact probability, simulated count, and z = (count − np) / √(np(1 − p)).

    A correct table gives |z| < 4 for every category except with probability about 6 in 10^5.
    """
    exact = best_five_table(n)
    total = comb(52, n)
    sim = simulate_table(n, samples, seed)
    out = {}
    for k in CATEGORIES:
        p = exact[k] / total
        sd = (samples * p * (1 - p)) ** 0.5
        z = (sim[k] - samples * p) / sd if sd > 0 else (0.0 if sim[k] == 0 else float("inf"))
        out[k] = {"p": p, "count": sim[k], "expected": samples * p, "z": z}
    return out


def _by_key(counts: np.ndarray) -> dict[str, int]:
    # counts are indexed by rumino.hand.poker's category index (0 = high card … 8 = straight flush)
    return {k: int(counts[8 - i]) for i, k in enumerate(CATEGORIES)}


def one_in(count: int, total: int) -> str:
    """``'1 in 64,974'``-style odds of a count among a total (rounded to 3 significant figures above 1,000).

    >>> one_in(40, 2598960), one_in(0, 10), one_in(5, 10)
    ('1 in 64,974', 'never', '1 in 2')
    """
    if count == 0:
        return "never"
    x = total / count
    if x >= 1000:
        return f"1 in {round(x):,}"
    if x >= 10:
        return f"1 in {x:.1f}"
    return f"1 in {x:.3g}"


def table_text(n: int, counts: Dict[str, int]) -> str:
    """The table as ``rumino odds poker --cards N`` prints it."""
    total = comb(52, n)
    lines = [f"best five of {n} cards from 52: C(52, {n}) = {total:,} hands (exact)"]
    width = len(f"{total:,}")
    for k in CATEGORIES:
        v = counts[k]
        lines.append(f"{k.replace('_', ' '):<16} {v:>{width},}  {100 * v / total:9.5f}%  {one_in(v, total)}")
    lines.append(f"{'total':<16} {total:>{width},}  {100:9.5f}%")
    return "\n".join(lines)


from rumino.hand.poker import value_of_mask as _value  # noqa: E402  (the compiled evaluator, used by _brute and _simulate)
