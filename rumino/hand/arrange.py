"""Exact best arrangement of a hand: minimum deadwood, every optimal split, the
value after a draw, and the largest opening a hand can lay.

The algorithm
-------------
1. **Candidates.** :func:`rumino.melds.candidate_melds` lists every meld the hand
   can make, as the multiset of cards it uses (naturals plus a number of jokers).
   Melds with jokers are listed once per choice of which positions the jokers
   fill, within the joker limits, so nothing a player could lay is missing.
2. **Search.** Take the *lowest* natural card ``c`` left in the hand. In any
   arrangement ``c`` is either unmatched (it costs its value) or lies in exactly
   one meld, and every other card of that meld is ``≥ c`` (all lower cards were
   already decided). So branching on "``c`` is deadwood" or "``c`` is the lowest
   natural of meld M", for each candidate M that still fits, visits every
   partition of the hand into disjoint melds plus leftovers. When no natural is
   left, the remaining jokers are deadwood unless the rules allow all-joker melds.
3. **Memo.** The best value of what remains depends only on the remaining
   multiset, so it is cached; the search is a dynamic programme over sub-hands.

Because every partition is reachable and the minimum is taken over all of them,
the result is exact: it is the definition of deadwood in rules §0.3, evaluated
without shortcuts. The tests check it against a brute force over all partitions.

>>> from rumino.cards import parse_hand
>>> from rumino.melds import RUMINO_MELDS, GIN_MELDS
>>> min_deadwood(parse_hand("7h 8h 9h 10h 5c 5d 5s"), RUMINO_MELDS)
0
>>> best_arrangement(parse_hand("Tc Qc 4d 9d 4h 9h Jh 4s 5s 6s"), GIN_MELDS).deadwood
56
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Iterable, Sequence

from rumino.errors import IllegalActionError
from rumino.cards import JOKER, format_card, format_hand, sort_cards, to_counts
from rumino.melds import Candidate, Meld, MeldRules, candidate_melds, joker_only_split, leftover_jokers, meld_readings


@dataclass(frozen=True)
class Arrangement:
    """A hand split into melds and unmatched cards, with its deadwood.

    >>> from rumino.cards import parse_hand; from rumino.melds import RUMINO_MELDS
    >>> best_arrangement(parse_hand("2c 3c 4c 9d 9h 9s 7d"), RUMINO_MELDS)
    Arrangement(melds=('2c 3c 4c', '9s 9d 9h'), unmatched='7d', deadwood=7)
    """

    melds: tuple[Meld, ...]
    unmatched: tuple[int, ...]
    deadwood: int

    @property
    def cards(self) -> tuple[int, ...]:
        return tuple(c for m in self.melds for c in m.cards) + self.unmatched

    @property
    def key(self):
        return (tuple(sorted(m.key for m in self.melds)), tuple(sorted(self.unmatched)))

    def __repr__(self) -> str:
        melds = tuple(m.format() for m in self.melds)
        return f"Arrangement(melds={melds!r}, unmatched={format_hand(self.unmatched)!r}, deadwood={self.deadwood})"

    def as_json(self) -> dict:
        return {
            "melds": [[format_card(c) for c in m.cards] for m in self.melds],
            "unmatched": [format_card(c) for c in self.unmatched],
            "deadwood": self.deadwood,
        }

    def _repr_html_(self) -> str:  # pragma: no cover - exercised by the widgets' tests
        from rumino.render.cards import arrangement_html

        return arrangement_html(self)


class _Searcher:
    """Memoised search over sub-hands (see the module docstring)."""

    def __init__(self, cards: Sequence[int], rules: MeldRules):
        self.rules = rules
        self.values = rules.values
        counts = to_counts(cards)
        self.jokers = int(counts[JOKER])
        self.cands = candidate_melds(counts, rules)
        by_low: dict[int, list[Candidate]] = {}
        for cand in self.cands:
            if cand.naturals:
                by_low.setdefault(cand.naturals[0], []).append(cand)
        self.by_low = by_low
        self.memo: dict[tuple, int] = {}
        self.all_memo: dict[tuple, list] = {}

    def _fits(self, cand: Candidate, rest: tuple[int, ...], jokers: int) -> tuple[int, ...] | None:
        if cand.jokers > jokers:
            return None
        left = list(rest)
        for c in cand.naturals:
            try:
                left.remove(c)
            except ValueError:
                return None
        return tuple(left)

    def options(self, rest: tuple[int, ...], jokers: int):
        """Yield ``(cost now, next rest, next jokers, meld or None)`` for the lowest card of ``rest``."""
        c = rest[0]
        yield int(self.values[c]), rest[1:], jokers, None
        for cand in self.by_low.get(c, ()):
            nxt = self._fits(cand, rest, jokers)
            if nxt is not None:
                yield 0, nxt, jokers - cand.jokers, cand

    def best(self, rest: tuple[int, ...], jokers: int) -> int:
        key = (rest, jokers)
        hit = self.memo.get(key)
        if hit is not None:
            return hit
        if not rest:
            value = leftover_jokers(jokers, self.rules) * int(self.values[JOKER])
        else:
            value = min(cost + self.best(nxt, j) for cost, nxt, j, _ in self.options(rest, jokers))
        self.memo[key] = value
        return value

    def all_best(self, rest: tuple[int, ...], jokers: int, limit: int):
        """Optimal completions as (melds, unmatched) lists, distinct by the cards in each
        meld, at most ``limit`` of them (memoised per sub-hand).

        The branching can reach one arrangement by several paths (two copies of a
        card: "first copy deadwood, second in meld M" and the reverse), up to
        2**pairs paths each. So duplicates are dropped at every level, not only at
        the end: a raw cap at the top could fill up with copies of the first
        arrangement and hide the others. Capping each level at ``limit`` is sound:
        a fixed first choice maps distinct completions of the rest to distinct
        arrangements, so a capped child already gives its parent ``limit`` of them.
        """
        key = (rest, jokers, limit)
        hit = self.all_memo.get(key)
        if hit is not None:
            return hit
        target = self.best(rest, jokers)
        if not rest:
            spare = leftover_jokers(jokers, self.rules)
            melded = jokers - spare
            melds = [] if melded == 0 else _joker_only_melds(melded, self.rules)
            out = [(melds, [JOKER] * spare)]
            self.all_memo[key] = out
            return out
        out, seen = [], set()
        for cost, nxt, j, cand in self.options(rest, jokers):
            if cost + self.best(nxt, j) != target:
                continue
            for melds, unmatched in self.all_best(nxt, j, limit):
                if cand is None:
                    item = (melds, [rest[0]] + unmatched)
                else:
                    item = ([cand.reading] + melds, unmatched)
                ident = (tuple(sorted(m.key for m in item[0])), tuple(sorted(item[1])))
                if ident in seen:
                    continue
                seen.add(ident)
                out.append(item)
                if len(out) >= limit:
                    self.all_memo[key] = out
                    return out
        self.all_memo[key] = out
        return out


def _meld_order(m: Meld):
    # runs before sets, each by its lowest card: the order a player fans a hand
    return (m.kind != "run", min(m.stands_for), m.cards)


def _joker_only_melds(j: int, rules: MeldRules) -> list[Meld]:
    return [meld_readings([JOKER] * s, rules)[0] for s in joker_only_split(j, rules)]


def _prepare(hand: Iterable[int], rules: MeldRules) -> tuple[_Searcher, tuple[int, ...]]:
    cards = tuple(hand)
    rules.pack.check_hand(cards)
    searcher = _Searcher(cards, rules)
    return searcher, tuple(sorted(c for c in cards if c != JOKER))


def min_deadwood(hand: Iterable[int], rules: MeldRules) -> int:
    """The minimum deadwood of ``hand`` (any size) under ``rules``.

    >>> from rumino.melds import RUMINO_MELDS
    >>> min_deadwood([52, 52, 39 + 4, 13 + 8, 26 + 8, 8, 13 + 1], RUMINO_MELDS)  # JK JK 5h 9c 9d 9s 2c
    2
    """
    searcher, rest = _prepare(hand, rules)
    return searcher.best(rest, searcher.jokers)


def all_best_arrangements(hand: Iterable[int], rules: MeldRules, *, limit: int = 1000) -> list[Arrangement]:
    """Every arrangement reaching the minimum deadwood (distinct by the cards in each meld)."""
    searcher, rest = _prepare(hand, rules)
    target = searcher.best(rest, searcher.jokers)
    seen, out = set(), []
    for melds, unmatched in searcher.all_best(rest, searcher.jokers, limit):
        arr = Arrangement(tuple(sorted(melds, key=_meld_order)), sort_cards(unmatched), target)
        if arr.key not in seen:
            seen.add(arr.key)
            out.append(arr)
            if len(out) >= limit:
                break
    return out


def best_arrangement(hand: Iterable[int], rules: MeldRules) -> Arrangement:
    """One arrangement reaching the minimum deadwood (the first the search finds)."""
    return all_best_arrangements(hand, rules, limit=1)[0]


@dataclass(frozen=True)
class DrawValue:
    """The value of a hand holding one card more than it keeps: the best discards.

    ``deadwood`` is the minimum over discards of the deadwood of what is kept;
    ``discards`` lists (once each) every card whose discard reaches it.
    """

    deadwood: int
    discards: tuple[int, ...]
    by_discard: dict

    def __repr__(self) -> str:
        return f"DrawValue(deadwood={self.deadwood}, discards={format_hand(self.discards)!r})"


def after_draw(hand: Iterable[int], rules: MeldRules, *, forbidden: Iterable[int] = ()) -> DrawValue:
    """Value after a draw: try each distinct discard (except ``forbidden`` ones) and keep the best.

    >>> from rumino.cards import parse_hand; from rumino.melds import GIN_MELDS
    >>> after_draw(parse_hand("6s 2c 4c 5c 6c 3d 4d 5d 6d 3h 5h"), GIN_MELDS)
    DrawValue(deadwood=10, discards='6s')
    """
    cards = list(hand)
    rules.pack.check_hand(cards)
    banned = set(forbidden)
    by: dict[int, int] = {}
    for d in sorted(set(cards)):
        if d in banned:
            continue
        kept = list(cards)
        kept.remove(d)
        by[d] = min_deadwood(kept, rules)
    if not by:
        raise IllegalActionError(f"no discard is possible: every card of {format_hand(cards)} is forbidden.")
    best = min(by.values())
    return DrawValue(best, tuple(d for d, v in by.items() if v == best), by)


@dataclass(frozen=True)
class Opening:
    """The largest total a hand can lay as an opening (Rommé's 40), and the melds that reach it."""

    value: int
    melds: tuple[Meld, ...]

    def __repr__(self) -> str:
        return f"Opening(value={self.value}, melds={tuple(m.format() for m in self.melds)!r})"


def max_opening(hand: Iterable[int], rules: MeldRules) -> Opening:
    """The largest opening value of disjoint melds from ``hand`` (rules §3.3 values).

    Same search as deadwood, maximising the laid value instead; jokers count as
    the card they replace, read in the way worth most.

    >>> from rumino.cards import parse_hand; from rumino.melds import ROMME_MELDS
    >>> max_opening(parse_hand("10s Js Qs Ks 3d"), ROMME_MELDS).value
    40
    """
    cards = tuple(hand)
    rules.pack.check_hand(cards)
    searcher = _Searcher(cards, rules)
    memo: dict[tuple, tuple[int, tuple]] = {}

    def go(rest: tuple[int, ...], jokers: int):
        key = (rest, jokers)
        if key in memo:
            return memo[key]
        if not rest:
            res = (0, ())
        else:
            res = go(rest[1:], jokers)  # lowest card not laid
            for cand in searcher.by_low.get(rest[0], ()):
                nxt = searcher._fits(cand, rest, jokers)
                if nxt is not None:
                    v, ms = go(nxt, jokers - cand.jokers)
                    if v + cand.opening > res[0]:
                        res = (v + cand.opening, (cand.reading,) + ms)
        memo[key] = res
        return res

    value, melds = go(tuple(sorted(c for c in cards if c != JOKER)), searcher.jokers)
    return Opening(value, melds)
