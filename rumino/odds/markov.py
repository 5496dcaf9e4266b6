"""A Markov chain for "hitting a rumino within N draws" under a keep-the-target policy.

The policy
----------
At the start the player fixes the rumino the hand is closest to
(:func:`rumino_targets`, :func:`best_target`): one 7-card straight flush window
(7 consecutive ranks of one suit, ace low) or one rank for 7 of a kind. Every
drawn card that is a missing target card, or a joker, is kept; some card that is
not part of the target is discarded instead. The target never changes. Because
nothing useful is ever thrown away, the target is complete after ``N`` draws
exactly when the ``N`` drawn cards hold the missing cards (jokers filling gaps),
so the chain must agree with :func:`rumino.odds.draws.p_complete` — a second,
independent route to the same number, and the tests check that they are equal.

The chain
---------
A state is what is still missing: a multiset of ``(unseen copies, copies
needed)`` per target kind, the unseen jokers, and the jokers already held. After
``t`` draws ``U − t`` cards are unseen (the player's discards are seen), so the
draw number is part of the state and the chain is time-inhomogeneous. From a
state, one draw

* hits a needed kind with ``a`` unseen copies with probability ``a / (U − t)``:
  that kind needs one copy fewer (its other copies become blanks once it needs none);
* draws a joker with probability ``j / (U − t)``: one more joker held;
* otherwise draws a blank and the state stays.

Every move lowers the shortfall (copies needed − jokers held) by one or leaves
it, so ordering the states by shortfall makes each transition matrix upper
triangular; the states with shortfall ≤ 0 are merged into one absorbing state
``DONE``. ``P(hit within N)`` is the mass on ``DONE`` after ``N`` steps.

>>> from rumino.cards import parse_hand
>>> chain = KeepTargetChain.for_hand(parse_hand("3h 4h 5h 6h Kc Kd 2s"))
>>> chain.target.describe(), chain.target.describe(unicode=True)
('straight flush Ah–7h', 'straight flush A♥–7♥')
>>> chain.hit_probabilities(2)[2] == chain.hit_probability(2)
True
"""

from __future__ import annotations

from dataclasses import dataclass
from fractions import Fraction
from typing import Iterable, Sequence

import numpy as np

from rumino.cards import JOKER, RANKS, RUMINO_PACK, SUIT_SYMBOLS, SUITS, Pack, format_card, to_counts
from rumino.odds.draws import OddsArgumentError, p_complete
from rumino.variants import find_variant

RUMINO = find_variant("rumino").rules  # the game whose hands these are (rules §1), read from its row

DONE = "DONE"


@dataclass(frozen=True)
class Target:
    """One rumino a hand can aim for, and what it is missing.

    ``kinds`` are the natural card ids that make the target (a straight flush's 7
    cards, or the 4 ids of one rank for 7 of a kind); ``needs`` is the
    ``(unseen copies, copies needed)`` list for :func:`p_complete`; ``jokers_held``
    and ``jokers_unseen`` count usable jokers.
    """

    kind: str  # "straight flush" or "seven of a kind"
    suit: int | None
    low_rank: int  # first rank of the window, or the rank of the 7 of a kind
    kinds: tuple[int, ...]
    needs: tuple[tuple[int, int], ...]
    jokers_held: int
    jokers_unseen: int
    unseen: int

    @property
    def shortfall(self) -> int:
        """Copies still needed after the jokers held are used (≤ 0: the target is already made)."""
        return sum(n for _, n in self.needs) - self.jokers_held

    @property
    def live_cards(self) -> int:
        """Unseen cards that would help: copies of needed kinds plus jokers."""
        return sum(a for a, n in self.needs if n > 0) + self.jokers_unseen

    def describe(self, *, unicode: bool = False) -> str:
        """The target in words, its cards as typed (``straight flush Ah–7h``) or, with ``unicode``, as the
        table shows them (``straight flush A♥–7♥``, for a screen)."""
        if self.kind == "straight flush":
            lo, hi = self.low_rank, self.low_rank + 6
            suit = (SUIT_SYMBOLS if unicode else SUITS)[self.suit]
            return f"straight flush {RANKS[lo]}{suit}–{RANKS[hi]}{suit}"
        return f"seven of a kind of rank {RANKS[self.low_rank]}"

    def p_hit(self, draws: int) -> Fraction:
        """P(the target is complete within ``draws`` draws), by the hypergeometric DP."""
        return p_complete(self.needs, self.unseen, draws, self.jokers_unseen, jokers_held=self.jokers_held)


def rumino_targets(hand: Iterable[int], *, seen: Iterable[int] = (), pack: Pack = RUMINO_PACK,
                   set_suits: str = "any", jokers_allowed: bool = True) -> list[Target]:
    """Every rumino target of ``hand``, with its needs given the cards ``seen`` elsewhere.

    ``seen`` are cards the player knows are out of play (the discard pile,
    opponents' shown cards); every other card not in ``hand`` is unseen.

    >>> from rumino.cards import parse_hand
    >>> ts = rumino_targets(parse_hand("5h 5h 5s 5s 5d JK 9c"))
    >>> best = min(ts, key=lambda t: t.shortfall); best.describe(), best.shortfall, best.needs
    ('seven of a kind of rank 5', 1, ((3, 2),))
    """
    hand = list(hand)
    seen = list(seen)
    pack.check_hand(hand + seen, name="hand and seen cards together")
    h = to_counts(hand).astype(int)
    s = to_counts(seen).astype(int)
    unseen = pack.size - len(hand) - len(seen)
    jh = int(h[JOKER]) if jokers_allowed else 0
    ju = (pack.jokers - int(h[JOKER]) - int(s[JOKER])) if jokers_allowed else 0
    out: list[Target] = []
    for suit in range(4):
        for lo in range(0, 7):  # windows A–7 … 7–K (ace low, no wrap)
            kinds = tuple(suit * 13 + r for r in range(lo, lo + 7))
            needs = tuple((pack.decks - int(h[c]) - int(s[c]), 1) for c in kinds if h[c] == 0)
            out.append(Target("straight flush", suit, lo, kinds, needs, jh, ju, unseen))
    for rank in range(13):
        kinds = tuple(su * 13 + rank for su in range(4))
        if set_suits == "any":
            held = int(sum(h[c] for c in kinds))
            left = 4 * pack.decks - held - int(sum(s[c] for c in kinds))
            needs = ((left, max(0, 7 - held)),)
        else:  # distinct suits: at most one natural per suit; the other 3 places only jokers can fill
            needs = tuple((pack.decks - int(h[c]) - int(s[c]), 1) for c in kinds if h[c] == 0) + ((0, 3),)
        out.append(Target("seven of a kind", None, rank, kinds, needs, jh, ju, unseen))
    return out


def best_target(hand: Iterable[int], **kwargs) -> Target:
    """The target the policy fixes: fewest cards short, then most live cards, then first listed.

    >>> from rumino.cards import parse_hand
    >>> best_target(parse_hand("As 2s 3s 4s 9d 9c Kh")).describe()
    'straight flush As–7s'
    """
    targets = rumino_targets(hand, **kwargs)
    return min(targets, key=lambda t: (t.shortfall, -t.live_cards))


State = tuple  # (sorted needs tuple, jokers unseen, jokers held)


class KeepTargetChain:
    """The time-inhomogeneous Markov chain of the keep-the-target policy (see the module docstring).

    >>> chain = KeepTargetChain(needs=[(2, 1)] * 2, unseen=10, jokers_unseen=0)
    >>> [str(p) for p in chain.hit_probabilities(3)]
    ['0', '0', '4/45', '7/30']
    """

    def __init__(self, needs: Sequence[tuple[int, int]], unseen: int, jokers_unseen: int = 0, jokers_held: int = 0,
                 target: Target | None = None):
        needs = [(int(a), int(n)) for a, n in needs]
        if any(a < 0 or n < 0 for a, n in needs) or jokers_unseen < 0 or jokers_held < 0:
            raise OddsArgumentError("needs, jokers_unseen and jokers_held must be non-negative.")
        if sum(a for a, _ in needs) + jokers_unseen > unseen:
            raise OddsArgumentError(f"the needed kinds and jokers hold more than the {unseen} unseen cards.")
        self.unseen = unseen
        self.target = target
        self.start = self._normal(tuple(needs), jokers_unseen, jokers_held)

    @classmethod
    def for_hand(cls, hand: Iterable[int], **kwargs) -> "KeepTargetChain":
        """The chain for the target :func:`best_target` picks for ``hand``."""
        t = best_target(hand, **kwargs)
        return cls(t.needs, t.unseen, t.jokers_unseen, t.jokers_held, target=t)

    @staticmethod
    def _normal(needs: tuple, ju: int, jh: int) -> State | str:
        live = tuple(sorted((a, n) for a, n in needs if n > 0))
        if sum(n for _, n in live) <= jh:
            return DONE
        return (live, ju, jh)

    def step(self, state: State | str, t: int) -> list[tuple[object, Fraction]]:
        """Transitions out of ``state`` on draw number ``t + 1`` (``t`` draws made so far)."""
        if state == DONE:
            return [(DONE, Fraction(1))]
        needs, ju, jh = state
        u = self.unseen - t
        if u <= 0:
            return [(state, Fraction(1))]
        moves: dict = {}
        stay = Fraction(1)
        for i, (a, n) in enumerate(needs):
            if a == 0:
                continue
            # each list entry is one kind; identical entries give identical next states, which merge
            p = Fraction(a, u)
            nxt = self._normal(needs[:i] + ((a - 1, n - 1),) + needs[i + 1:], ju, jh)
            moves[nxt] = moves.get(nxt, 0) + p
            stay -= p
        if ju:
            p = Fraction(ju, u)
            nxt = self._normal(needs, ju - 1, jh + 1)
            moves[nxt] = moves.get(nxt, 0) + p
            stay -= p
        if stay:
            moves[state] = moves.get(state, 0) + stay
        return list(moves.items())

    def distributions(self, draws: int) -> list[dict]:
        """The distribution over states after ``0 … draws`` draws (exact)."""
        if isinstance(draws, bool) or not isinstance(draws, int) or draws < 0:
            raise OddsArgumentError(f"draws is {draws!r}: it must be a non-negative integer.")
        if draws > self.unseen:
            raise OddsArgumentError(f"draws is {draws} but only {self.unseen} cards are unseen.")
        dist = {self.start: Fraction(1)}
        out = [dist]
        for t in range(draws):
            nxt: dict = {}
            for state, p in dist.items():
                for s2, q in self.step(state, t):
                    nxt[s2] = nxt.get(s2, 0) + p * q
            dist = nxt
            out.append(dist)
        return out

    def hit_probabilities(self, draws: int) -> list[Fraction]:
        """``P(target complete within n draws)`` for ``n = 0 … draws``."""
        return [Fraction(d.get(DONE, 0)) for d in self.distributions(draws)]

    def hit_probability(self, draws: int) -> Fraction:
        return self.hit_probabilities(draws)[-1]

    def states(self, draws: int) -> list:
        """Every state reachable within ``draws`` draws, ordered by shortfall (largest first), DONE last."""
        seen = set()
        for d in self.distributions(draws):
            seen |= set(d)
        return self._ordered(seen)

    @staticmethod
    def _ordered(states) -> list:
        live = [s for s in states if s != DONE]
        live.sort(key=lambda s: (-(sum(n for _, n in s[0]) - s[2]), s))
        return live + ([DONE] if DONE in states else [])

    def transition_matrix(self, t: int, states: list | None = None) -> tuple[list, list[list[Fraction]]]:
        """``(states, P)`` with ``P[i][j]`` = P(state j after draw t+1 | state i after draw t).

        Ordered by shortfall, ``P`` is upper triangular; DONE (last) is absorbing.

        >>> chain = KeepTargetChain(needs=[(2, 1)], unseen=5)
        >>> states, P = chain.transition_matrix(0)
        >>> states, [[str(x) for x in row] for row in P]
        ([(((2, 1),), 0, 0), 'DONE'], [['3/5', '2/5'], ['0', '1']])
        >>> from rumino.cards import parse_hand
        >>> states, P = KeepTargetChain.for_hand(parse_hand("3h 4h 5h 6h Kc Kd 2s")).transition_matrix(0)
        >>> all(sum(row) == 1 for row in P), all(P[i][j] == 0 for i in range(len(P)) for j in range(i))
        (True, True)
        """
        if states is None:
            # every state reachable within t+1 draws, closed under one more step so that
            # each row's successors have a column (states one draw further are listed too)
            known = set(self.states(t + 1))
            frontier = list(known)
            while frontier:
                for s2, _ in self.step(frontier.pop(), t):
                    if s2 not in known:
                        known.add(s2)
                        frontier.append(s2)
            states = self._ordered(known)
        index = {s: i for i, s in enumerate(states)}
        P = [[Fraction(0)] * len(states) for _ in states]
        for s in states:
            for s2, q in self.step(s, t):
                P[index[s]][index[s2]] += q
        return states, P

    def expected_draws(self) -> Fraction:
        """Expected draws until the target is complete: Σ_n P(not complete after n draws)."""
        probs = self.hit_probabilities(self.unseen)
        if probs[-1] != 1:
            raise OddsArgumentError("the target cannot be completed from the unseen cards: the wait is infinite.")
        return sum((1 - p for p in probs), Fraction(0))


def simulate_keep_target(hand: Sequence[int], draws: int, n: int, seed: int, *, seen: Sequence[int] = (),
                         pack: Pack = RUMINO_PACK) -> tuple[int, int]:
    """Play the keep-the-target policy with real cards ``n`` times: ``(hits, n)``.

    Each trial shuffles the unseen cards with ``numpy.random.default_rng(seed)``,
    draws one at a time, keeps a card only if it is a missing target card or a
    joker (discarding a non-target card), and counts a hit when the 7 cards held
    are a rumino made of the target. A direct check of :class:`KeepTargetChain`.

    >>> from rumino.cards import parse_hand
    >>> simulate_keep_target(parse_hand("As 2s 3s 4s 5s 6s Kd"), draws=1, n=200, seed=1)[1]
    200
    """

    hand = list(hand)
    target = best_target(hand, seen=seen, pack=pack)
    rest = to_counts(pack.cards()).astype(int) - to_counts(hand).astype(int) - to_counts(seen).astype(int)
    unseen_cards = np.repeat(np.arange(53), rest)
    rng = np.random.default_rng(seed)
    kinds = set(target.kinds)
    hits = 0
    for _ in range(n):
        order = rng.permutation(unseen_cards)[:draws]
        held = list(hand)
        for c in order:
            c = int(c)
            keep_set = _target_cards(held, target, kinds)
            useful = c == JOKER or (c in kinds and _helps(c, held, target, kinds))
            if useful:
                # throw away a card that is not part of the target
                junk = [x for i, x in enumerate(held) if i not in keep_set]
                held.remove(junk[0])
                held.append(c)
            if target.shortfall <= 0 or _made(held, target, kinds):
                break
        if _made(held, target, kinds):
            if not RUMINO.is_rumino(held):  # the policy's bookkeeping and the rules must agree
                raise AssertionError(f"policy completed {target.describe()} but {[format_card(x) for x in held]} "
                                     "is not a rumino")
            hits += 1
    return hits, n


def _helps(c: int, held: list[int], target: Target, kinds: set[int]) -> bool:
    if target.kind == "straight flush":
        return c not in held
    return sum(1 for x in held if x in kinds) < 7


def _target_cards(held: list[int], target: Target, kinds: set[int]) -> set[int]:
    """Positions in ``held`` the policy keeps: jokers and one copy of each target kind (7 of a rank at most)."""
    keep, got = set(), set()
    for i, x in enumerate(held):
        if x == JOKER:
            keep.add(i)
        elif x in kinds and (target.kind != "straight flush" or x not in got):
            if target.kind == "seven of a kind" and len([k for k in keep if held[k] != JOKER]) >= 7:
                continue
            keep.add(i)
            got.add(x)
    return keep


def _made(held: list[int], target: Target, kinds: set[int]) -> bool:
    return len(_target_cards(held, target, kinds)) >= 7
