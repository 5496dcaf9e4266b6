"""Exact deal odds: Rumino's whole deal distribution, dealt gin in Gin Rummy, 4+3 split hands.

Every figure is an integer count over ``C(N, k)`` and a ``Fraction``; three
independent routes are used so that each number is checked by another:

* **Classes up to suit symmetry** (:mod:`rumino.odds.enumerate`): every class
  of dealt hands is evaluated by the batch kernel and weighted by its deals.
  This gives the full minimum-deadwood distribution. It takes seconds for
  Rumino's 7 cards from 108 (14,945,658 classes) and for 7 cards of one deck
  (6,009,159), about 3.2 CPU-minutes for Gin's 10 cards of one deck
  (671,225,412: under two minutes with ``--workers 2``), and is out of reach for Wiener's 10 from 106
  (3,851,104,712) or Rommé's 13 from 110 (4.7 × 10^11): see
  :func:`feasibility_table`.
* **Unions of disjoint melds** (:func:`zero_deadwood_hands`): a hand has
  deadwood 0 exactly when it is a union of disjoint melds, so listing every
  combination of disjoint melds whose sizes add up to the hand size and
  removing duplicates counts those hands directly — however big the pack.
* **A rank-by-rank automaton** (:func:`count_zero_deadwood_dp`): walk the ranks
  A…K; for each rank choose which suits hold it; keep the *set* of run states
  (per suit: the length of the run still open) some split of the cards so far
  can be in. A hand has deadwood 0 when its final set holds a closed state.
  Counting hands (not splits) by this subset construction is a second count
  of dealt gin that shares nothing with the meld lists.

>>> from rumino.melds import GIN_MELDS
>>> count_zero_deadwood_dp(GIN_MELDS, 3) == len(zero_deadwood_hands(GIN_MELDS, 3)) == 52 + 44
True
"""

from __future__ import annotations

from concurrent.futures import Executor
from dataclasses import dataclass
from fractions import Fraction
from math import comb
from typing import Callable, Sequence

import numpy as np

from rumino.cards import JOKER, Pack, STANDARD_PACK
from rumino.errors import RuleConfigError
from rumino.melds import GIN_MELDS, MeldRules, RUMINO_MELDS, candidate_melds
from rumino.odds.enumerate import DealDistribution, PackShape, class_count, deal_distribution
from rumino.variants import find_variant

RUMINO = find_variant("rumino").rules  # the game these deals are of (rules §1), read from its row
RuminoRules = find_variant("rumino").rules_class
HAND_SIZE = find_variant("rumino").hand_size  # 7 (rules §1.1)

# --------------------------------------------------------------------------- showing a probability


def one_in(p: Fraction) -> str:
    """``"1 in N"`` for a probability (N rounded to 3 significant figures, or "never").

    >>> one_in(Fraction(1, 3)), one_in(Fraction(2, 7)), one_in(Fraction(0))
    ('1 in 3', '1 in 3.5', 'never')
    """
    if p <= 0:
        return "never"
    n = 1 / p
    if n.denominator == 1:
        return f"1 in {n.numerator:,}"
    x = float(n)
    return f"1 in {x:,.0f}" if x >= 1000 else f"1 in {float(f'{x:.3g}'):,g}"


def show(p: Fraction) -> str:
    """A probability as fraction, decimal and "1 in N".

    >>> show(Fraction(1, 4))
    '1/4 = 0.25 (1 in 4)'
    """
    return f"{p.numerator}/{p.denominator} = {float(p):.6g} ({one_in(p)})"


def as_json(p: Fraction) -> dict:
    """``{"numerator", "denominator", "value"}`` for the command line's ``--json``."""
    return {"numerator": p.numerator, "denominator": p.denominator, "value": float(p)}


# --------------------------------------------------------------------------- Rumino's deal


_CACHE: dict = {}


def exact_deal_distribution(meld_rules: MeldRules, hand_size: int, *, rumino: bool = False,
                            rumino_distinct: bool = False, rumino_natural_only: bool = False,
                            executor: Executor | None = None, progress: bool = False,
                            evaluator: Callable[[np.ndarray], np.ndarray] | None = None) -> DealDistribution:
    """:func:`~rumino.odds.enumerate.deal_distribution` with an in-process cache (results must not be mutated).

    The cache is keyed by the rules and flags, so the command line, the book and
    the tests share one enumeration per process; an ``evaluator`` bypasses it.
    """
    key = (meld_rules, hand_size, rumino, rumino_distinct, rumino_natural_only)
    if evaluator is None and key in _CACHE:
        return _CACHE[key]
    dist = deal_distribution(meld_rules, hand_size, rumino=rumino, rumino_distinct=rumino_distinct,
                             rumino_natural_only=rumino_natural_only, executor=executor, progress=progress,
                             evaluator=evaluator)
    if evaluator is None:
        _CACHE[key] = dist
    return dist


def rumino_deal_distribution(rules: RuminoRules | None = None, *, executor: Executor | None = None,
                             progress: bool = False,
                             evaluator: Callable[[np.ndarray], np.ndarray] | None = None) -> DealDistribution:
    """The exact distribution of every 7-card Rumino deal (all ``C(108, 7)`` of them).

    ``rules`` is a :class:`~rumino.variants.rumino.RuminoRules` (house rules
    included); the result counts deadwood by jokers and rumino hands.
    """

    rules = rules or RUMINO
    return exact_deal_distribution(rules.meld_rules, HAND_SIZE, rumino=True,
                                   rumino_distinct=rules.set_suits == "distinct",
                                   rumino_natural_only=rules.rumino_natural_only, executor=executor,
                                   progress=progress, evaluator=evaluator)


def rumino_count_closed_form(hand_size: int = 7, pack: Pack | None = None) -> dict[int, int]:
    """Rumino deals by jokers, counted by formula (no enumeration): ``{jokers: deals}``.

    Seven of a kind: 13 ranks × C(8 copies, 7−j naturals) × C(4, j). Straight
    flush: 4 suits × (sets of 7−j ranks spanning at most 7, ace low) × 2^(7−j)
    copies × C(4, j). The two never overlap (3 or more naturals of one rank
    and one suit would need 3 copies of a card; 2 naturals of one rank and suit
    are not a run), except a lone natural with six jokers, counted once.

    >>> rumino_count_closed_form()[0]   # 28 windows × 2^7 + 13 × 8
    3688
    """
    from itertools import combinations

    pack = pack or RUMINO_MELDS.pack
    d, J = pack.decks, pack.jokers
    out = {}
    for j in range(min(J, hand_size) + 1):
        m = hand_size - j
        kinds = 13 * comb(4 * d, m)
        spans = sum(1 for rs in combinations(range(13), m) if m and rs[-1] - rs[0] <= hand_size - 1) if m else 0
        # one natural (6+ jokers: only with a joker-count house rule) is both a "7 of a kind" and a
        # "straight flush": count it once, as a 7 of a kind
        flushes = 4 * spans * d ** m if m >= 2 else 0
        out[j] = (kinds + flushes) * comb(J, j) if m else comb(J, j)
    return out


def lay_union_counts(rules: MeldRules, hand_size: int = 7) -> dict[int, int]:
    """Deals (by jokers) whose cards are exactly two disjoint lays, counted from the lays themselves.

    Lists every meld the pack can make (:func:`rumino.melds.candidate_melds` on
    the whole pack: naturals plus a number of jokers), adds every pair of sizes
    adding up to ``hand_size`` that fits in the pack, removes duplicate hands,
    and weights each hand by its deals (copies and jokers). For Rumino's 7 cards
    (lays of 3–4) these are exactly the gin hands: a route to P(gin) that uses
    neither the arrangement search nor the kernel.
    """

    pack = rules.pack
    cands = candidate_melds(pack.counts(), rules)
    vecs: dict[int, list[np.ndarray]] = {}
    for c in cands:
        v = np.zeros(53, dtype=np.int8)
        for x in c.naturals:
            v[x] += 1
        v[JOKER] = c.jokers
        vecs.setdefault(len(c.naturals) + c.jokers, []).append(v)
    cap = pack.counts().astype(np.int8)
    hands = set()
    for a in sorted(vecs):
        b = hand_size - a
        if b < a or b not in vecs:
            continue
        A = np.stack(vecs[a])
        B = np.stack(vecs[b])
        for row in A:
            u = B + row
            ok = (u <= cap).all(axis=1)
            for h in u[ok]:
                hands.add(h.tobytes())
    out: dict[int, int] = {}
    for key in hands:
        h = np.frombuffer(key, dtype=np.int8)
        w = comb(pack.jokers, int(h[JOKER]))
        for x in h[:52][h[:52] > 0]:
            w *= comb(pack.decks, int(x))
        out[int(h[JOKER])] = out.get(int(h[JOKER]), 0) + w
    return dict(sorted(out.items()))


# --------------------------------------------------------------------------- melds of one deck, as bit masks


def meld_masks(rules: MeldRules, *, sizes: Sequence[int] | None = None, suits: int = 4, ranks: int = 13
               ) -> list[tuple[int, int]]:
    """Every joker-free meld of a one-deck pack as ``(size, 52-bit mask)`` (bit = card id).

    >>> len(meld_masks(GIN_MELDS)), len(meld_masks(GIN_MELDS, sizes=(3, 4, 5)))   # ANCHORS: 329 and 185
    (329, 185)
    """
    out = []
    top = max(rules.max_set, rules.max_run)
    want = set(sizes) if sizes is not None else set(range(rules.min_meld, top + 1))
    for r in range(ranks):
        for mask4 in range(1, 1 << suits):
            k = bin(mask4).count("1")
            if rules.min_meld <= k <= rules.max_set and k in want and rules.min_naturals <= k:
                out.append((k, sum(1 << (s * 13 + r) for s in range(suits) if mask4 >> s & 1)))
    for length in range(rules.min_meld, rules.max_run + 1):
        if length not in want:
            continue
        for window in rules.run_windows(length):
            rs = [p % 13 for p in window]
            if max(rs) >= ranks:
                continue
            for s in range(suits):
                out.append((length, sum(1 << (s * 13 + r) for r in rs)))
    # a run and a set never coincide, but windows of "around" rules can repeat a rank set: keep each once
    return sorted(set(out))


def zero_deadwood_hands(rules: MeldRules, hand_size: int, *, suits: int = 4, ranks: int = 13) -> set[int]:
    """Every ``hand_size``-card one-deck hand (as a 52-bit mask) that is a union of disjoint melds.

    >>> len(zero_deadwood_hands(GIN_MELDS, 6))   # 3+3 or one 6-run
    4010
    """
    if rules.pack.jokers or rules.pack.decks != 1:
        raise RuleConfigError("zero_deadwood_hands counts one-deck hands without jokers: use rules whose pack "
                              f"is one deck and no jokers (got {rules.pack.describe()}).")
    melds = meld_masks(rules, suits=suits, ranks=ranks)
    found: set[int] = set()

    def go(start: int, used: int, left: int):
        if left == 0:
            found.add(used)
            return
        for i in range(start, len(melds)):
            size, m = melds[i]
            if size <= left and not (m & used) and (left - size == 0 or left - size >= rules.min_meld):
                go(i + 1, used | m, left - size)

    go(0, 0, hand_size)
    return found


def split_pairs(rules: MeldRules, big: int = 4, small: int = 3) -> int:
    """Ordered pairs (a ``big``-meld, a disjoint ``small``-meld): what a count that forgets
    double splits finds (see :func:`four_three_report`)."""
    melds = meld_masks(rules)
    bigs = [m for s, m in melds if s == big]
    smalls = [m for s, m in melds if s == small]
    return sum(1 for a in bigs for b in smalls if not a & b)


# --------------------------------------------------------------------------- the rank-by-rank automaton


def count_zero_deadwood_dp(rules: MeldRules, hand_size: int, *, suits: int = 4, ranks: int = 13,
                           by_size: bool = False) -> int | dict[int, int]:
    """Count one-deck, joker-free ``hand_size``-card hands with deadwood 0, rank by rank.

    Works for ace-low rules (the only ones whose runs never pass the king).
    A state per suit is the length of the run still open (0: none). At each
    rank, each suit either lacks the card (its run must be closed: length 0 or
    ≥ ``min_meld``), or holds it in the rank's set (same closing rule), or holds
    it in a run: extending the open run (up to ``max_run``) or starting a new
    one after a closed run. The set at the rank must be empty or hold
    ``min_meld … max_set`` cards. The DP's state is the *set* of run states some
    split can reach, so each hand is counted once however many splits it has.

    >>> count_zero_deadwood_dp(GIN_MELDS, 10) == len(zero_deadwood_hands(GIN_MELDS, 10))
    True
    """
    if rules.ace != "low":
        raise RuleConfigError(f"count_zero_deadwood_dp walks the ranks from the ace up, so it needs ace='low' "
                              f"(got ace={rules.ace!r}); use zero_deadwood_hands for the other rules.")
    if rules.pack.jokers or rules.pack.decks != 1:
        raise RuleConfigError("count_zero_deadwood_dp counts one-deck hands without jokers.")
    lo, top = rules.min_meld, rules.max_run
    closed = lambda length: length == 0 or lo <= length  # noqa: E731

    # per-suit moves: (old length, card present?) -> list of (new length, in set?)
    def suit_moves(length: int, present: bool):
        if not present:
            return [(0, False)] if closed(length) else []
        out = []
        if closed(length):
            out.append((0, True))  # the card goes to this rank's set
            out.append((1, False))  # a new run starts here
        if 0 < length < top:
            out.append((length + 1, False))  # the open run goes on
        return out

    from functools import lru_cache
    from itertools import product

    @lru_cache(maxsize=None)
    def step(state: tuple[int, ...], present_mask: int) -> frozenset:
        options = [suit_moves(state[s], bool(present_mask >> s & 1)) for s in range(suits)]
        out = set()
        for choice in product(*options):
            in_set = sum(1 for _, is_set in choice if is_set)
            if in_set == 0 or lo <= in_set <= rules.max_set:
                out.add(tuple(length for length, _ in choice))
        return frozenset(out)

    start = frozenset({(0,) * suits})
    table: dict[tuple[frozenset, int], int] = {(start, 0): 1}
    for _ in range(ranks):
        nxt: dict[tuple[frozenset, int], int] = {}
        for (states, n), ways in table.items():
            for mask in range(1 << suits):
                k = n + bin(mask).count("1")
                if k > hand_size:
                    continue
                new = frozenset().union(*(step(st, mask) for st in states))
                if new:
                    key = (new, k)
                    nxt[key] = nxt.get(key, 0) + ways
        table = nxt
    sizes: dict[int, int] = {}
    for (states, n), ways in table.items():
        if any(all(closed(length) for length in st) for st in states):
            sizes[n] = sizes.get(n, 0) + ways
    return sizes if by_size else sizes.get(hand_size, 0)


# --------------------------------------------------------------------------- Gin Rummy and the 4+3 hands


def p_dealt_gin(rules: MeldRules = GIN_MELDS, hand_size: int = 10) -> tuple[int, int]:
    """``(gin hands, all hands)`` for a one-deck deal of ``hand_size`` cards (exact).

    >>> g, n = p_dealt_gin(hand_size=3); g, n
    (96, 22100)
    """
    return len(zero_deadwood_hands(rules, hand_size)), comb(52, hand_size)


ACE_RULES = ("low", "high", "both", "around")


@dataclass(frozen=True)
class SplitCount:
    """One-deck 7-card hands that split into a 4-meld and a 3-meld, under one ace rule."""

    ace: str
    hands: int  # distinct hands (the exact answer)
    pairs: int  # ordered (4-meld, disjoint 3-meld) pairs: counts a hand once per split
    total: int = comb(52, 7)

    @property
    def probability(self) -> Fraction:
        return Fraction(self.hands, self.total)

    @property
    def double_counted(self) -> int:
        return self.pairs - self.hands


def four_three_rules(ace: str) -> MeldRules:
    """One deck, no jokers, lays of 3–4 cards (sets by rank, runs by suit), the given ace rule."""
    return MeldRules(name=f"4+3 ace {ace}", pack=STANDARD_PACK, max_set=4, max_run=4, ace=ace)


def four_three_counts(aces: Sequence[str] = ACE_RULES) -> list[SplitCount]:
    """For each ace rule: the 7-card hands that split into a 4-meld and a 3-meld, and the pair count.

    perplexus.info's "Rummy Luck" (2005) gives 4,728 with the ace high or low;
    that is a count of *pairs* of melds, and a hand with two splits (for
    example 4♠5♠6♠7♠ 8♠9♠10♠, which also splits as 4♠5♠6♠ 7♠8♠9♠10♠, or four
    of a kind with a run through one of them) is counted once per split.

    >>> c = four_three_counts(["low"])[0]; c.hands < c.pairs
    True
    """
    out = []
    for ace in aces:
        rules = four_three_rules(ace)
        hands = len(zero_deadwood_hands(rules, 7))
        out.append(SplitCount(ace, hands, split_pairs(rules)))
    return out


# --------------------------------------------------------------------------- what is feasible


@dataclass(frozen=True)
class Feasibility:
    """How many suit classes a full deal distribution would have to evaluate."""

    name: str
    pack_size: int
    hand_size: int
    classes: int
    deals: int
    note: str


def feasibility_table() -> list[Feasibility]:
    """Class counts (Burnside) of the deal distributions one might ask for, with a verdict.

    >>> rows = {f.name: f for f in feasibility_table()}
    >>> rows["Rumino 7 of 108"].classes, rows["Gin 10 of 52"].classes
    (14945658, 671225412)
    """
    specs = [
        ("Rumino 7 of 108", PackShape(copies=2, jokers=4), 7,
         "computed here: about 15 M kernel calls, well under a minute"),
        ("one deck 7 of 52", PackShape(copies=1), 7, "computed here (Knock Rummy's 7-card deal, the 4+3 check)"),
        ("Gin 10 of 52", PackShape(copies=1), 10,
         "feasible offline with `rumino odds deal --variant gin --exact --full`: 191 s of CPU "
         "time in all (about 95 s on two quiet cores with --workers 2; longer on a 2-core machine shared with "
         "other jobs), 441 MB (mean deadwood 223732454111/3955006055 = 56.569, "
         "sd 13.79); dealt gin alone is counted at once by meld unions and the rank automaton"),
        ("Gin 11 of 52", PackShape(copies=1), 11,
         "about 4× Gin's 10 (15 CPU-minutes): only the zero-deadwood count is practical"),
        ("Wiener 10 of 106", PackShape(copies=2, jokers=2), 10, "out of reach (billions of classes): Monte Carlo"),
        ("Rommé 13 of 110", PackShape(copies=2, jokers=6), 13, "out of reach (hundreds of billions): Monte Carlo"),
    ]
    out = []
    for name, shape, k, note in specs:
        out.append(Feasibility(name, shape.size, k, class_count(shape, k), comb(shape.size, k), note))
    return out

__all__ = [
    "one_in", "show", "as_json", "exact_deal_distribution", "rumino_deal_distribution", "rumino_count_closed_form",
    "lay_union_counts", "meld_masks", "zero_deadwood_hands", "split_pairs",
    "count_zero_deadwood_dp", "p_dealt_gin", "ACE_RULES", "SplitCount", "four_three_rules", "four_three_counts",
    "Feasibility", "feasibility_table",
]
