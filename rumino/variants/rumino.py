"""Rumino: 7-card knock rummy with two decks and four jokers (RULES.md §1).

Every knob of RULES §1.6 is a field of :class:`RuminoRules`, with the default
given there. House rules are ``dataclasses.replace(RUMINO, knock_max_deadwood=5)``.

>>> RUMINO.knock_max_deadwood, RUMINO.meld_rules.max_run
(7, 4)
>>> from rumino.cards import parse_hand
>>> is_rumino(parse_hand("3h 4h 5h 6h 7h 8h 9h")), is_rumino(parse_hand("5h 5h 5s 5s 5d JK 5c"))
(True, True)
"""

from __future__ import annotations

from dataclasses import dataclass, replace
from functools import cached_property
from typing import Iterable

from ..cards import JOKER, RUMINO_PACK, format_hand
from ..errors import InvalidCardError
from ..melds import RUMINO_MELDS, MeldRules
from ._fields import knob, validate

HAND_SIZE = 7  # RULES §1.1


@dataclass(frozen=True, kw_only=True)
class RuminoRules:
    """The rules of Rumino; every field is a house-rule knob (RULES §1.6)."""

    max_lay_size: int | None = knob(4, section="§1.2", choices=(4,), allow_none=True,
                                    doc="4: lays of 3 or 4 cards; None: runs of any length and sets up to 8")
    set_suits: str = knob("any", section="§1.2", choices=("any", "distinct"),
                          doc="any: 5♥ 5♥ 5♠ is a set; distinct: a set's suits all differ")
    ace: str = knob("low", section="§1.2", choices=("low",), doc="aces are low only (A-2-3; Q-K-A is not a lay)")
    min_naturals_per_lay: int = knob(1, section="§1.2", choices=(1, 0), doc="natural cards every lay needs")
    rumino_natural_only: bool = knob(False, section="§1.2", choices=(False, True),
                                     doc="True: a rumino may not use jokers")
    knock_max_deadwood: int = knob(7, section="§1.3", low=0, high=70, doc="knock in lieu of drawing at this deadwood or less")
    knock_zero_is_gin: bool = knob(True, section="§1.3", choices=(True, False),
                                   doc="a knock at 0 deadwood scores as gin")
    gin_bonus: int = knob(-10, section="§1.4", low=-100, high=0, doc="what going gin adds to the player's score")
    knock_undercut_penalty: int = knob(0, section="§1.4", low=0, high=100,
                                       doc="added to a knocker whom someone strictly undercuts")
    elimination_at: int = knob(101, section="§1.5", choices=(101, 100), doc="a score at or above this is out")
    rebuy_price: str = knob("doubling", section="§1.5", choices=("doubling", "flat"),
                            doc="doubling: the k-th rebuy costs B·2^(k−1); flat: always B")
    rebuy_requires_others: int = knob(2, section="§1.5", choices=(2, 1),
                                      doc="players still in, besides the rebuyer, needed for a rebuy")
    out_of_turn_claim_priority: str = knob("nearest_left", section="§1.3", choices=("nearest_left", "first_to_call"),
                                           doc="who wins when several players can claim a discard for rumino")
    stock_exhausted: str = knob("reshuffle", section="§0.4", choices=("reshuffle", "void_hand", "end_and_score"),
                                doc="what happens when a player must draw from an empty stock")
    triple_gin_wins: bool = knob(True, section="§1.4", choices=(True, False),
                                 doc="gin in each of the first three hands wins the game")
    may_rediscard_pickup: bool = knob(False, section="§0.5", choices=(False, True),
                                      doc="may the card just taken from the discard pile be discarded again")
    allow_new_entrants: bool = knob(True, section="§1.5", choices=(True, False),
                                    doc="a new player may join between hands at the highest score")
    stake: int = knob(10, section="§1.5", low=1, high=1_000_000, doc="the buy-in B, in whole currency units")

    def __post_init__(self):
        validate(self)

    @cached_property
    def meld_rules(self) -> MeldRules:
        """The meld rules these knobs imply (for the arrangement search); built once per rules object."""
        unlimited = self.max_lay_size is None
        # Unlimited lays allow sets of all 8 copies of a rank, but a set of distinct suits
        # holds at most 4 cards (RULES §1.2), and MeldRules refuses max_set > 4 then.
        biggest_set = 4 if not unlimited or self.set_suits == "distinct" else 8
        return replace(RUMINO_MELDS, max_set=biggest_set, max_run=13 if unlimited else 4,
                       set_suits=self.set_suits, min_naturals=self.min_naturals_per_lay)

    def rebuy_cost(self, k: int) -> int:
        """Price of a player's ``k``-th rebuy (k ≥ 1): B·2^(k−1), or B when flat (RULES §1.5).

        >>> [RUMINO.rebuy_cost(k) for k in (1, 2, 3)]
        [10, 20, 40]
        """
        if k < 1:
            raise ValueError(f"rebuy number k is {k}: it counts from 1.")
        return self.stake * (2 ** (k - 1) if self.rebuy_price == "doubling" else 1)


RUMINO = RuminoRules()
PACK = RUMINO_PACK


def is_rumino(cards: Iterable[int], rules: RuminoRules = RUMINO) -> bool:
    """True if 7 cards are a rumino: a 7-card straight flush (ace low) or 7 of a kind (RULES §1.2).

    Jokers stand for any missing card unless ``rules.rumino_natural_only``; under
    ``set_suits="distinct"`` the naturals of a 7 of a kind must differ in suit.
    """
    cards = list(cards)
    if len(cards) != HAND_SIZE:
        raise InvalidCardError(f"a rumino is 7 cards; {format_hand(cards)} has {len(cards)}.")
    nat = [c for c in cards if c != JOKER]
    jokers = len(cards) - len(nat)
    if jokers and rules.rumino_natural_only:
        return False
    if not nat:
        return True
    ranks = {c % 13 for c in nat}
    suits = {c // 13 for c in nat}
    if len(ranks) == 1:  # seven of a kind
        return rules.set_suits == "any" or len(suits) == len(nat)
    if len(suits) == 1 and len(ranks) == len(nat):  # straight flush, A low, no wrap
        return max(ranks) - min(ranks) <= 6
    return False


def rumino_in(cards: Iterable[int], rules: RuminoRules = RUMINO) -> tuple[int, ...] | None:
    """Seven of the (usually 8) ``cards`` that form a rumino, or ``None``."""
    from itertools import combinations

    cards = list(cards)
    for combo in combinations(range(len(cards)), HAND_SIZE):
        pick = [cards[i] for i in combo]
        if is_rumino(pick, rules):
            return tuple(pick)
    return None


# ===================================================================== the game
#
# Everything below is the Rumino state machine (RULES §1.1–§1.5). The rules
# code above is unchanged and used by other modules.
#
# Decisions where RULES leaves a point open, each named where it is applied:
#   D1 §1.1   first dealer: every player draws one card from a freshly shuffled pack;
#             a joker redraws, and when the highest rank is tied only the tied
#             players redraw (king high, ace low). Each round is a fresh shuffle.
#   D2 §1.3   no claim window on the upcard (nobody discarded it) or on the card
#             discarded with a gin (the hand "immediately stops").
#   D3 §0.5   the card just taken from the discard pile may not be discarded, nor
#             an identical copy of it: two copies cannot be told apart, and putting
#             either back undoes the pick-up the rule forbids. Going gin with it as
#             the discard is refused for the same reason.
#   D4 §1.3   under out_of_turn_claim_priority="first_to_call" every eligible player
#             decides without seeing the others' decisions; if several claim, who
#             called first is a chance event drawn from the game's rng.
#   D5 §0.4   stock_exhausted="void_hand" / "end_and_score" (Gin's "50th card"
#             style): the hand ends as soon as the last stock card has been drawn
#             and discarded (after any rumino claim on that discard). "reshuffle":
#             a player who draws from an empty stock first turns the discard pile,
#             except its top card, into a new shuffled stock.
#   D6 §1.4   a void hand still counts as a hand of the game (it was dealt): it
#             breaks a triple-gin run and the deal passes left.
#   D7 §1.4   a knock at 0 deadwood that scores as gin (knock_zero_is_gin) is a gin
#             for the triple-gin rule too.
#   D8 §1.5   rebuy decisions are taken in seat order from the dealer's left; the
#             re-entry score is the highest score of the players still in after the
#             hand, fixed before anyone rebuys.
#   D9 §1.5   a new entrant (table action Join, between hands) needs a free chair:
#             at most 6 seats are ever used in a game (RULES §1.1: 2–6 players).
#             The newcomer sits after the highest seat (between it and seat 0).
#   D10 §1.5  ties split the pool to the cent; the indivisible remainder goes one
#             cent each to the tied winners nearest the last dealer's left (the
#             poker "odd chip" rule), and that same player deals the next game.
#   D11 §1.3  a player whose seven cards are already a rumino calls it after
#             drawing (7 of the 8 cards are a rumino); there is no call in lieu
#             of drawing.
#   D12 §1.5  the heads-up test looks at the number of players dealt into the bust
#             hand; the "≥ 2 other players" test counts players still in after
#             the hand (not busted in it), before any rebuy.

import dataclasses as _dc
import os as _os
from typing import ClassVar as _ClassVar

import numpy as _np

from ..cards import format_card
from ..errors import IllegalActionError, RuleConfigError
from ..game import (TABLE, Action, Deal, DeclineRebuy, Discard, Draw, Gin, Join, Knock, PlayerView, Rebuy,
                    refuse, register_action)

MAX_SEATS = 6  # RULES §1.1
MIN_PLAYERS = 2
ENDINGS = ("knock", "gin", "rumino", "stock_exhausted")


@register_action
@_dc.dataclass(frozen=True, slots=True)
class CallRumino(Action):
    """After drawing: announce that 7 of your 8 cards are a rumino, and win the game (RULES §1.3)."""

    word: _ClassVar[str] = "rumino"
    verb: _ClassVar[str] = "call a rumino"


@register_action
@_dc.dataclass(frozen=True, slots=True)
class ClaimRumino(Action):
    """Out of turn: take the card just discarded to complete a rumino, and win the game (RULES §1.3)."""

    word: _ClassVar[str] = "claim"
    verb: _ClassVar[str] = "claim the discard for a rumino"


@register_action
@_dc.dataclass(frozen=True, slots=True)
class PassClaim(Action):
    """Let a discard that would complete your rumino go by."""

    word: _ClassVar[str] = "pass"
    verb: _ClassVar[str] = "pass"


DRAW_STOCK, DRAW_DISCARD = Draw("stock"), Draw("discard")
KNOCK, CALL, CLAIM, PASS = Knock(), CallRumino(), ClaimRumino(), PassClaim()
REBUY, DECLINE, DEAL, JOIN = Rebuy(), DeclineRebuy(), Deal(), Join()
_ALL_CARDS = frozenset(range(53))
_NO_OUTS: frozenset = frozenset()


# --------------------------------------------------------------------- hand evaluation


def _load_kernels():
    """The compiled evaluators of :mod:`rumino.kernels` if they import and agree with
    :mod:`rumino.arrange` on a few hands; otherwise ``None`` (arrange is used)."""
    if _os.environ.get("RUMINO_NO_KERNELS"):
        return None
    try:
        from .. import kernels
        from ..arrange import after_draw as _ad, min_deadwood as _md
        from ..cards import parse_hand

        mr = RUMINO.meld_rules
        for text in ("7h 8h 9h 10h 5c 5d 5s", "JK JK 5h 9c 9d 9s 2c", "Qs Ks As 2d 3d 4d 7c"):
            h = parse_hand(text)
            if kernels.min_deadwood_fast(h, mr) != _md(h, mr):
                return None
        h = parse_hand("2c 3c 4c 9d 9h 9s 8d 7d")
        dv = _ad(h, mr, forbidden=[h[0]])
        if kernels.best_discards_fast(h, mr, (h[0],)) != (dv.deadwood, tuple(sorted(dv.discards))):
            return None
        return kernels
    except Exception:  # any failure: fall back to the reference search
        return None


_KERNELS: list = []  # [module or None], filled on first use


def _kernels():
    if not _KERNELS:
        _KERNELS.append(_load_kernels())
    return _KERNELS[0]


class Evaluator:
    """Deadwood, value after a draw and rumino outs under one rules object, cached per hand.

    Uses the compiled :mod:`rumino.kernels` when it works and :mod:`rumino.arrange`
    otherwise (same numbers). The engine and the bots share one evaluator per
    rules object (:func:`evaluator_for`), so a bot's question and the engine's
    legality check cost one search.

    >>> from rumino.cards import parse_hand
    >>> ev = evaluator_for(RUMINO)
    >>> ev.deadwood(parse_hand("2c 3c 4c 9d 9h 9s 7d")), ev.after_draw(parse_hand("2c 3c 4c 9d 9h 9s 7d 7c"))
    (7, (7, (19, 32)))
    """

    _LIMIT = 60_000  # entries per cache before it is cleared (bounds memory to some tens of MB)

    def __init__(self, rules: "RuminoRules"):
        self.rules = rules
        self.meld_rules = rules.meld_rules
        self.values = [int(v) for v in self.meld_rules.values]  # deadwood value by card id
        self._dw: dict = {}
        self._ad: dict = {}
        self._outs: dict = {}
        k = _kernels()
        self.kernels = k
        if k is not None:
            k.rule_tables(self.meld_rules)

    def clear(self) -> None:
        """Forget every cached value (benchmarks time a cold start with it)."""
        self._dw.clear()
        self._ad.clear()
        self._outs.clear()

    def deadwood(self, cards) -> int:
        """Minimum deadwood of ``cards`` (RULES §0.3)."""
        key = tuple(sorted(cards))
        v = self._dw.get(key)
        if v is None:
            if self.kernels is not None:
                v = self.kernels.min_deadwood_fast(key, self.meld_rules)
            else:
                from ..arrange import min_deadwood
                v = min_deadwood(key, self.meld_rules)
            if len(self._dw) > self._LIMIT:
                self._dw.clear()
            self._dw[key] = v
        return v

    def after_draw(self, cards, forbidden: int | None = None) -> tuple[int, tuple[int, ...]]:
        """``(value, best discards)`` of a hand one card over, never discarding ``forbidden``."""
        key = (tuple(sorted(cards)), forbidden)
        hit = self._ad.get(key)
        if hit is None:
            ban = () if forbidden is None else (forbidden,)
            if self.kernels is not None:
                hit = self.kernels.best_discards_fast(key[0], self.meld_rules, ban)
            else:
                from ..arrange import after_draw
                dv = after_draw(key[0], self.meld_rules, forbidden=ban)
                hit = (dv.deadwood, tuple(sorted(dv.discards)))
            if len(self._ad) > self._LIMIT:
                self._ad.clear()
            self._ad[key] = hit
        return hit

    def outs(self, hand) -> frozenset:
        """Cards that would give ``hand`` (7 cards) plus that card a rumino (every card if it is one)."""
        key = tuple(sorted(hand))
        hit = self._outs.get(key)
        if hit is None:
            hit = rumino_outs(key, self.rules)
            if len(self._outs) > self._LIMIT:
                self._outs.clear()
            self._outs[key] = hit
        return hit


_EVALUATORS: dict = {}
_LAST_EV: list = [None, None]


def evaluator_for(rules: "RuminoRules") -> Evaluator:
    """The shared :class:`Evaluator` of ``rules`` (one per distinct rules value)."""
    if _LAST_EV[0] is rules:
        return _LAST_EV[1]
    ev = _EVALUATORS.get(rules)
    if ev is None:
        if len(_EVALUATORS) > 64:
            _EVALUATORS.clear()
        ev = _EVALUATORS[rules] = Evaluator(rules)
    _LAST_EV[0], _LAST_EV[1] = rules, ev
    return ev


def rumino_outs(hand, rules: "RuminoRules" = RUMINO) -> frozenset:
    """Every card that, added to the 7 cards of ``hand``, makes 8 cards holding a rumino.

    Every card if ``hand`` already is a rumino. Used for the out-of-turn claim
    (RULES §1.3) and for the call after a draw.

    >>> from rumino.cards import parse_hand, format_hand
    >>> format_hand(sorted(rumino_outs(parse_hand("3h 4h 5h 6h 7h 8h Kc"))))
    '2h 9h JK'
    >>> rumino_outs(parse_hand("2c 3c 4c 9d 9h 9s 7d"))
    frozenset()
    """
    hand = tuple(hand)
    if len(hand) != HAND_SIZE:
        raise InvalidCardError(f"rumino outs are asked of 7 cards; {format_hand(hand)} has {len(hand)}.")
    if is_rumino(hand, rules):
        return _ALL_CARDS
    nat = [c for c in hand if c != JOKER]
    usable = 0 if rules.rumino_natural_only else len(hand) - len(nat)
    need = HAND_SIZE - 1 - usable  # naturals of one target a 6-card core must hold
    candidates: set[int] = set()
    by_rank: dict[int, set | list] = {}
    by_suit: dict[int, set] = {}
    for c in nat:
        by_suit.setdefault(c // 13, set()).add(c % 13)
        by_rank.setdefault(c % 13, []).append(c // 13)
    for r, suits in by_rank.items():
        if (len(set(suits)) if rules.set_suits == "distinct" else len(suits)) >= need:
            candidates.update(s * 13 + r for s in range(4))
    for s, ranks in by_suit.items():
        if len(ranks) >= need:
            candidates.update(s * 13 + r for r in range(13))
    if not candidates:
        return _NO_OUTS
    if not rules.rumino_natural_only:
        candidates.add(JOKER)
    outs = set()
    for c in candidates:
        eight = hand + (c,)
        for drop in set(eight):
            seven = list(eight)
            seven.remove(drop)
            if is_rumino(seven, rules):
                outs.add(c)
                break
    return frozenset(outs)


# --------------------------------------------------------------------- results


@_dc.dataclass(frozen=True)
class HandResult:
    """How one hand ended and what everyone scored (RULES §1.4).

    ``deadwood`` and ``deltas`` are per seat (``None`` for a seat not dealt in);
    ``hands`` holds the cards shown at the end (none for a void hand).
    """

    number: int
    dealer: int
    players: tuple[int, ...]  # seats dealt into the hand, from the dealer's left
    ending: str  # one of ENDINGS
    by: int | None  # knocker, gin player or rumino caller; None when the stock ran out
    detail: str
    deadwood: tuple
    deltas: tuple
    scores: tuple  # everyone's score after the hand (before rebuys)
    hands: dict
    busted: tuple[int, ...] = ()
    rumino: tuple[int, ...] | None = None
    undercut: bool = False

    @property
    def started_heads_up(self) -> bool:
        return len(self.players) == 2

    def describe(self) -> str:
        who = f"player {self.by}" if self.by is not None else "nobody"
        text = {"knock": f"{who} knocked", "gin": f"{who} went gin", "rumino": f"{who} made a rumino",
                "stock_exhausted": "the stock ran out"}[self.ending]
        return f"hand {self.number}: {text} ({self.detail})" if self.detail else f"hand {self.number}: {text}"


@_dc.dataclass(frozen=True)
class GameResult:
    """Who won, how, and what each seat received from the pool (in cents)."""

    winners: tuple[int, ...]
    how: str  # "last_player", "rumino", "triple_gin", "lowest_score"
    pool_cents: int
    payouts_cents: tuple[int, ...]
    hands: int
    rebuys: int
    joins: int
    next_dealer: int

    def share(self, seat: int) -> float:
        """The fraction of the win that ``seat`` holds (1/k in a k-way tie)."""
        return 1 / len(self.winners) if seat in self.winners else 0.0


# --------------------------------------------------------------------- the view


@_dc.dataclass(eq=False, kw_only=True, slots=True)
class RuminoView(PlayerView):
    """What one Rumino player sees: own hand, the whole discard pile, stock size,
    scores, who is in, money, the card just picked up, a claimable discard, and
    the last hand's showdown. Opponents' cards are only counted, never shown
    (until a showdown, in ``last_result.hands``).
    """

    rules: RuminoRules
    discard_pile: tuple[int, ...]
    stock_size: int
    scores: tuple[int, ...]
    in_game: tuple[bool, ...]
    in_hand: tuple[bool, ...]
    hand_sizes: tuple[int, ...]
    dealer: int
    turn: int | None
    hand_number: int
    pool_cents: int
    paid_cents: tuple[int, ...]
    rebuys: tuple[int, ...]
    pickup: int | None = None  # the card taken from the discard pile this turn (may not go back: §0.5)
    claim_card: int | None = None  # in the claim phase: the discard that completes your rumino
    rumino_ready: bool = False  # in the discard phase: 7 of your 8 cards are a rumino
    rebuy_price_cents: int | None = None
    rebuy_score: int | None = None
    last_result: HandResult | None = None
    result: GameResult | None = None

    @property
    def top_discard(self) -> int | None:
        return self.discard_pile[-1] if self.discard_pile else None

    @property
    def knock_limit(self) -> int:
        return self.rules.knock_max_deadwood

    @property
    def evaluator(self) -> Evaluator:
        return evaluator_for(self.rules)

    @property
    def unseen(self) -> _np.ndarray:
        """Count vector (53) of the cards this player has not seen: the pack minus own hand and discards."""
        v = PACK.counts().astype(_np.int16)
        for c in self.hand:
            v[c] -= 1
        for c in self.discard_pile:
            v[c] -= 1
        return v

    @property
    def deadwood(self) -> int:
        """Own deadwood (7 cards) or value after the best discard (8 cards)."""
        ev = self.evaluator
        if len(self.hand) > HAND_SIZE:
            return ev.after_draw(self.hand, self.pickup if not self.rules.may_rediscard_pickup else None)[0]
        return ev.deadwood(self.hand)


# --------------------------------------------------------------------- the state machine

_PACK_ARRAY = _np.array(PACK.cards(), dtype=_np.int64)
_PACK_COUNTS = [PACK.copies(c) for c in range(53)]


class RuminoGame:
    """One game of Rumino, from the first deal to the winner taking the pool (RULES §1).

    Start it with :meth:`new`; then ``to_act``, ``legal_actions()``, ``apply``
    (checked) or ``apply_unchecked`` (fast, for simulations that pick legal
    actions), ``view(seat)``, ``hand_over``, ``game_over``, ``scores`` and
    ``result``. Chance (shuffles, the first-dealer draw, a race between claims)
    comes only from the injected rng, so ``(rules, seed, actions)`` replays a
    game exactly.

    Phases: ``turn`` (knock or draw), ``discard`` (discard, gin or call a
    rumino), ``claim`` (out-of-turn rumino claims on a discard), ``rebuy``
    (busted players decide), ``between_hands`` (the next dealer deals; a
    newcomer may Join), ``game_over``.

    >>> g = RuminoGame.new(RUMINO, 3, seed=7)
    >>> g.phase, g.hand_number, len(g.hands[g.to_act]), g.stock_size
    ('turn', 1, 7, 86)
    >>> g.apply(Draw("stock")); g.phase
    'discard'
    """

    def __init__(self, rules: RuminoRules, n_players: int, rng: _np.random.Generator, *,
                 seed=None, dealer: int | None = None):
        if not isinstance(rules, RuminoRules):
            raise RuleConfigError(f"rules must be a RuminoRules; got {type(rules).__name__}.")
        if isinstance(n_players, bool) or not isinstance(n_players, int) or not MIN_PLAYERS <= n_players <= MAX_SEATS:
            raise RuleConfigError(f"n_players is {n_players!r}: Rumino is for 2 to 6 players (RULES §1.1).")
        if dealer is not None and (isinstance(dealer, bool) or not isinstance(dealer, int)
                                   or not 0 <= dealer < n_players):
            raise RuleConfigError(f"dealer is {dealer!r}: it must be a seat from 0 to {n_players - 1}.")
        self.rules = rules
        self.rng = rng
        self.seed = seed
        self.initial_rng_state = rng.bit_generator.state
        self.initial_dealer = dealer
        self.initial_players = n_players
        self._ev = evaluator_for(rules)
        self._limit = rules.knock_max_deadwood
        self._elim = rules.elimination_at
        self._no_rediscard = not rules.may_rediscard_pickup
        self.stake_cents = rules.stake * 100
        n = n_players
        self.hands: list[list[int]] = [[] for _ in range(n)]
        self.stock: list[int] = []  # the top card is the last one
        self.discard: list[int] = []  # the top card is the last one
        self.scores = [0] * n
        self.in_game = [True] * n
        self.in_hand = [False] * n
        self.rebuys = [0] * n
        self.paid = [self.stake_cents] * n  # every stake goes into the pool (RULES §1.5)
        self.received = [0] * n
        self.pool = self.stake_cents * n
        self.joins = 0
        self.phase = "deal"
        self.turn: int | None = None
        self.pickup: int | None = None
        self.drawn: int | None = None
        self.rumino_ready = False
        self.claim_card: int | None = None
        self.claim_queue: list[int] = []
        self.claimers: list[int] = []
        self.discarder: int | None = None
        self.rebuy_queue: list[int] = []
        self.rebuy_score: int | None = None
        self.hand_number = 0
        self.hand_players: tuple[int, ...] = ()
        self.results: list[HandResult] = []
        self.result: GameResult | None = None
        self.history: list[tuple[int, Action]] = []
        self.reshuffles = 0
        self._score_log: list[tuple] = []  # ("hand", i) / ("rebuy", seat, score, hand i) / ("join"|"set", seat, score)
        self._dw: dict[int, int] = {}
        self._outs: dict[int, frozenset] = {}
        self._inv_replay: tuple = (0, [], 0, 0)  # check_invariants' progress through the score log
        self.first_dealer_draws: tuple = ()
        self.rigged = False  # True once set_position arranged cards by hand
        if dealer is None:
            dealer = self._draw_for_dealer()
        self.dealer = dealer
        self._deal()

    @classmethod
    def new(cls, rules: RuminoRules = RUMINO, n_players: int = 4, *, seed=None,
            rng: _np.random.Generator | None = None, dealer: int | None = None) -> "RuminoGame":
        """A new game: everyone pays the stake, the first dealer is drawn by high card
        (unless ``dealer`` is given, as when the previous winner deals) and the first hand is dealt.

        Give ``seed`` (an int or a list of ints, for ``numpy.random.default_rng``) or
        an ``rng``; the seed goes into game records.
        """
        if rng is not None and seed is not None:
            raise RuleConfigError("give a seed or an rng, not both.")
        if rng is None:
            if seed is not None:
                _check_seed(seed)
            rng = _np.random.default_rng(seed)
        elif not isinstance(rng, _np.random.Generator):
            raise RuleConfigError(f"rng must be a numpy.random.Generator; got {type(rng).__name__}.")
        return cls(rules, n_players, rng, seed=seed, dealer=dealer)

    def next_game(self, *, seed=None, rng=None) -> "RuminoGame":
        """The next game at this table: every seat buys in again and the winner deals (RULES §1.1)."""
        if self.result is None:
            raise IllegalActionError("the game is not over: the next game starts after a winner takes the pool.")
        return RuminoGame.new(self.rules, self.n_seats, seed=seed, rng=rng, dealer=self.result.next_dealer)

    # ----------------------------------------------------------------- queries

    @property
    def n_seats(self) -> int:
        return len(self.hands)

    @property
    def to_act(self) -> int | None:
        """The seat that must decide now (None when the game is over)."""
        ph = self.phase
        if ph == "turn" or ph == "discard":
            return self.turn
        if ph == "claim":
            return self.claim_queue[0]
        if ph == "rebuy":
            return self.rebuy_queue[0]
        if ph == "between_hands":
            return self.next_dealer
        return None

    @property
    def next_dealer(self) -> int:
        """The deal passes left to the next player still in (RULES §1.1)."""
        return self._next_in(self.dealer, self.in_game)

    @property
    def hand_over(self) -> bool:
        return self.phase in ("rebuy", "between_hands", "game_over")

    @property
    def game_over(self) -> bool:
        return self.phase == "game_over"

    @property
    def stock_size(self) -> int:
        return len(self.stock)

    @property
    def players_in(self) -> list[int]:
        return [p for p in range(self.n_seats) if self.in_game[p]]

    def deadwood(self, seat: int) -> int:
        """The current deadwood of ``seat``'s hand (after the best discard if holding 8 cards)."""
        h = self.hands[seat]
        if len(h) > HAND_SIZE:
            return self._ev.after_draw(h, self._forbidden())[0]
        return self._deadwood(seat)

    def _deadwood(self, seat: int) -> int:
        v = self._dw.get(seat)
        if v is None:
            v = self._dw[seat] = self._ev.deadwood(self.hands[seat])
        return v

    def _outs_of(self, seat: int) -> frozenset:
        v = self._outs.get(seat)
        if v is None:
            v = self._outs[seat] = self._ev.outs(self.hands[seat])
        return v

    def _forbidden(self) -> int | None:
        return self.pickup if self._no_rediscard else None

    def _next_in(self, seat: int, flags) -> int:
        n = len(flags)
        for k in range(1, n + 1):
            p = (seat + k) % n
            if flags[p]:
                return p
        raise IllegalActionError("no player is left in the game.")  # pragma: no cover - guarded by the callers

    def _from_left_of(self, seat: int, seats) -> list[int]:
        n = self.n_seats
        return sorted(seats, key=lambda p: (p - seat - 1) % n)

    def legal_actions(self) -> list[Action]:
        """Every action the player to act may take now, in a fixed order."""
        ph = self.phase
        if ph == "turn":
            out = []
            if self._deadwood(self.turn) <= self._limit:
                out.append(KNOCK)
            if self._can_draw_stock():
                out.append(DRAW_STOCK)
            if self.discard:
                out.append(DRAW_DISCARD)
            return out
        if ph == "discard":
            out = [CALL] if self.rumino_ready else []
            forbidden = self._forbidden()
            value, best = self._ev.after_draw(self.hands[self.turn], forbidden)
            if value == 0:
                out.extend(Gin(c) for c in best)
            out.extend(Discard(c) for c in sorted(set(self.hands[self.turn])) if c != forbidden)
            return out
        if ph == "claim":
            return [CLAIM, PASS]
        if ph == "rebuy":
            return [REBUY, DECLINE]
        if ph == "between_hands":
            return [DEAL]
        return []

    def table_actions(self) -> list[Action]:
        """Actions the table may take now whoever is to act: a newcomer's Join (RULES §1.5, D9)."""
        return [JOIN] if self._join_refusal() is None else []

    def _can_draw_stock(self) -> bool:
        return bool(self.stock) or (self.rules.stock_exhausted == "reshuffle" and len(self.discard) > 1)

    def _join_refusal(self) -> str | None:
        if self.phase != "between_hands":
            return "a new player may join only between hands"
        if not self.rules.allow_new_entrants:
            return "these house rules allow no new entrants (allow_new_entrants=False)"
        if len(self.players_in) < 2:
            return "fewer than two players remain"  # pragma: no cover - between hands always has two
        if self.n_seats >= MAX_SEATS:
            return f"all {MAX_SEATS} chairs are taken (RULES §1.1: 2–6 players)"
        return None

    # ----------------------------------------------------------------- views

    def view(self, seat: int) -> RuminoView:
        """What ``seat`` can see now."""
        if isinstance(seat, bool) or not isinstance(seat, int) or not 0 <= seat < self.n_seats:
            raise IllegalActionError(f"seat {seat!r} is not at this table: seats are 0 to {self.n_seats - 1}.")
        ph = self.phase
        to_act = self.to_act
        mine = to_act == seat
        rebuy_price = None
        if ph == "rebuy" and mine:
            rebuy_price = self.rules.rebuy_cost(self.rebuys[seat] + 1) * 100
        return RuminoView(
            seat=seat, phase=ph, to_act=to_act, hand=tuple(self.hands[seat]),
            _legal=_StaleGuard(self, len(self.history)),
            rules=self.rules, discard_pile=tuple(self.discard), stock_size=len(self.stock),
            scores=tuple(self.scores), in_game=tuple(self.in_game), in_hand=tuple(self.in_hand),
            hand_sizes=tuple(len(h) for h in self.hands), dealer=self.dealer, turn=self.turn,
            hand_number=self.hand_number, pool_cents=self.pool, paid_cents=tuple(self.paid),
            rebuys=tuple(self.rebuys),
            pickup=self.pickup if (ph == "discard" and self.turn == seat) else None,
            claim_card=self.claim_card if (ph == "claim" and mine) else None,
            rumino_ready=self.rumino_ready if (ph == "discard" and self.turn == seat) else False,
            rebuy_price_cents=rebuy_price, rebuy_score=self.rebuy_score if ph == "rebuy" else None,
            last_result=self.results[-1] if self.results else None, result=self.result)

    # ----------------------------------------------------------------- applying actions

    def apply(self, action: Action) -> None:
        """Apply ``action`` for the player to act (or the table, for Join) after checking it.

        An illegal action raises :class:`IllegalActionError` naming the player,
        the phase, the action, the reason and the RULES section; the state is unchanged.
        """
        self.check(action)
        self.apply_unchecked(action)

    def apply_unchecked(self, action: Action) -> None:
        """Apply an action known to be legal, without checking (the fast path for simulations)."""
        _DISPATCH[type(action)](self, action)

    def check(self, action) -> None:
        """Raise :class:`IllegalActionError` (player, phase, action, reason, RULES section) if
        ``action`` is not legal now; otherwise return ``None``. Never changes the state."""
        ph = self.phase
        actor = self.to_act
        if not isinstance(action, Action) or type(action) not in _DISPATCH:
            raise refuse(action, player=actor, phase=ph, rule="§1.3",
                         reason=f"{action!r} is not a Rumino action")
        if isinstance(action, Join):
            why = self._join_refusal()
            if why is not None:
                raise refuse(action, player=TABLE, phase=ph, reason=why, rule="§1.5")
            return
        if ph == "game_over":
            raise refuse(action, player=None, phase=ph, rule="§1.5",
                         reason="the game is over: the winner has taken the pool")
        kind = type(action)
        allowed = _PHASE_ACTIONS[ph]
        if kind not in allowed:
            raise refuse(action, player=actor, phase=ph, rule=_PHASE_RULE[ph],
                         reason=f"{_PHASE_WHAT[ph].format(p=actor)}: the choices are {_PHASE_CHOICES[ph]}")
        if ph == "turn":
            if kind is Knock:
                dw = self._deadwood(actor)
                if dw > self._limit:
                    raise refuse(action, player=actor, phase=ph, rule="§1.3",
                                 reason=f"player {actor} has {dw} deadwood, the limit is {self._limit}")
            elif action.source == "stock":
                if not self._can_draw_stock():
                    raise refuse(action, player=actor, phase=ph, rule="§0.4",
                                 reason="the stock is empty and there is no discard pile to turn over")
            elif not self.discard:
                raise refuse(action, player=actor, phase=ph, rule="§1.3", reason="the discard pile is empty")
        elif ph == "discard":
            hand = self.hands[actor]
            if kind is CallRumino:
                if rumino_in(hand, self.rules) is None:
                    raise refuse(action, player=actor, phase=ph, rule="§1.2",
                                 reason=f"no 7 of player {actor}'s cards {format_hand(sorted(hand))} are a "
                                        f"7-card straight flush or 7 of a kind")
                return
            card = action.card
            if not isinstance(card, (int, _np.integer)) or isinstance(card, bool) or card not in hand:
                raise refuse(action, player=actor, phase=ph, rule="§1.3",
                             reason=f"player {actor} does not hold {_card_text(card)}")
            if card == self._forbidden():
                raise refuse(action, player=actor, phase=ph, rule="§0.5",
                             reason=f"{format_card(card)} was just taken from the discard pile and may not be "
                                    f"discarded again this turn (may_rediscard_pickup=False)")
            if kind is Gin:
                kept = list(hand)
                kept.remove(card)
                dw = self._ev.deadwood(kept)
                if dw != 0:
                    raise refuse(action, player=actor, phase=ph, rule="§1.2",
                                 reason=f"after discarding {format_card(card)} the seven cards have {dw} "
                                        f"deadwood: gin is a 4-lay plus a 3-lay (0 deadwood)")
        elif ph == "claim":
            if kind is ClaimRumino and rumino_in(self.hands[actor] + [self.claim_card], self.rules) is None:
                raise refuse(action, player=actor, phase=ph, rule="§1.3",  # pragma: no cover - queue is eligible
                             reason=f"{format_card(self.claim_card)} does not complete a rumino for player {actor}")

    # each _do_* mutates the state; only called with legal actions

    def _do_draw(self, action: Draw) -> None:
        seat = self.turn
        hand = self.hands[seat]
        if action.source == "stock":
            if not self.stock:
                self._reshuffle()
            card = self.stock.pop()
            self.pickup = None
        else:
            card = self.discard.pop()
            self.pickup = card
        self.rumino_ready = card in self._outs_of(seat)
        hand.append(card)
        self.drawn = card
        self._dw.pop(seat, None)
        self._outs.pop(seat, None)
        self.phase = "discard"
        self.history.append((seat, action))

    def _reshuffle(self) -> None:
        # §0.4 (D5): the discard pile except its top card becomes a new shuffled stock
        top = self.discard.pop()
        rest = _np.array(self.discard, dtype=_np.int64)
        self.rng.shuffle(rest)
        self.stock = rest.tolist()
        self.discard = [top]
        self.reshuffles += 1

    def _do_discard(self, action: Discard) -> None:
        seat = self.turn
        card = action.card
        self.hands[seat].remove(card)
        self.discard.append(card)
        self._dw.pop(seat, None)
        self.pickup = None
        self.drawn = None
        self.rumino_ready = False
        self.history.append((seat, action))
        # the out-of-turn claim window (§1.3): players who can claim, nearest the discarder's left first
        n = self.n_seats
        eligible = []
        for k in range(1, n):
            p = (seat + k) % n
            if self.in_hand[p] and card in self._outs_of(p):
                eligible.append(p)
        if eligible:
            self.phase = "claim"
            self.claim_card = card
            self.claim_queue = eligible
            self.claimers = []
            self.discarder = seat
        else:
            self._after_discard()

    def _after_discard(self) -> None:
        self.phase = "turn"
        self.claim_card = None
        self.claim_queue = []
        self.claimers = []
        self.discarder = None
        if not self.stock and self.rules.stock_exhausted != "reshuffle":
            self._end_hand("stock_exhausted", None)  # D5
            return
        self.turn = self._next_in(self.turn, self.in_hand)

    def _do_knock(self, action: Knock) -> None:
        self.history.append((self.turn, action))
        self._end_hand("knock", self.turn)

    def _do_gin(self, action: Gin) -> None:
        seat = self.turn
        self.hands[seat].remove(action.card)
        self.discard.append(action.card)
        self._dw.pop(seat, None)
        self._outs.pop(seat, None)
        self.pickup = None
        self.history.append((seat, action))
        self._end_hand("gin", seat)

    def _do_call(self, action: CallRumino) -> None:
        seat = self.turn
        self.history.append((seat, action))
        self._end_hand("rumino", seat, detail="called after a draw")

    def _do_claim(self, action: ClaimRumino) -> None:
        seat = self.claim_queue.pop(0)
        self.history.append((seat, action))
        if self.rules.out_of_turn_claim_priority == "nearest_left":
            self._take_claim(seat)
            return
        self.claimers.append(seat)
        if not self.claim_queue:
            self._resolve_claims()

    def _do_pass(self, action: PassClaim) -> None:
        seat = self.claim_queue.pop(0)
        self.history.append((seat, action))
        if not self.claim_queue:
            self._resolve_claims()

    def _resolve_claims(self) -> None:
        if not self.claimers:
            self._after_discard()
            return
        # D4: who called first is a chance event when several claim at once
        winner = self.claimers[0] if len(self.claimers) == 1 else self.claimers[int(self.rng.integers(len(self.claimers)))]
        self._take_claim(winner)

    def _take_claim(self, seat: int) -> None:
        card = self.discard.pop()
        self.hands[seat].append(card)
        self._dw.pop(seat, None)
        self._outs.pop(seat, None)
        self.claim_queue = []
        self.turn = seat
        self._end_hand("rumino", seat, detail=f"claimed {format_card(card)} out of turn")

    def _do_rebuy(self, action: Rebuy) -> None:
        seat = self.rebuy_queue.pop(0)
        self.history.append((seat, action))
        self.rebuys[seat] += 1
        cost = self.rules.rebuy_cost(self.rebuys[seat]) * 100
        self.paid[seat] += cost
        self.pool += cost
        self.scores[seat] = self.rebuy_score
        self.in_game[seat] = True
        self._score_log.append(("rebuy", seat, self.rebuy_score, len(self.results) - 1))
        if not self.rebuy_queue:
            self._after_rebuys()

    def _do_decline(self, action: DeclineRebuy) -> None:
        seat = self.rebuy_queue.pop(0)
        self.history.append((seat, action))
        if not self.rebuy_queue:
            self._after_rebuys()

    def _do_deal(self, action: Deal) -> None:
        self.history.append((self.next_dealer, action))
        self.dealer = self.next_dealer
        self._deal()

    def _do_join(self, action: Join) -> None:
        # D9: the newcomer takes the next chair, at the highest score still in, for the stake B
        level = max(self.scores[p] for p in self.players_in)
        seat = self.n_seats
        self.history.append((TABLE, action))
        self.hands.append([])
        self.scores.append(level)
        self.in_game.append(True)
        self.in_hand.append(False)
        self.rebuys.append(0)
        self.paid.append(self.stake_cents)
        self.received.append(0)
        self.pool += self.stake_cents
        self.joins += 1
        self._score_log.append(("join", seat, level))

    # ----------------------------------------------------------------- dealing and scoring

    def _draw_for_dealer(self) -> int:
        """D1: high card deals, king high and ace low; jokers and ties for high redraw."""
        drawing = list(range(self.n_seats))
        rounds = []
        while True:
            order = self.rng.permutation(_PACK_ARRAY)
            draws = tuple((p, int(order[i])) for i, p in enumerate(drawing))
            rounds.append(draws)
            ranked = [(c % 13, p) for p, c in draws if c != JOKER]
            if ranked:
                top = max(r for r, _ in ranked)
                leaders = [p for r, p in ranked if r == top]
                if len(leaders) == 1:
                    self.first_dealer_draws = tuple(rounds)
                    return leaders[0]
                drawing = leaders
            # everyone drew a joker: the same players draw again

    def _deal(self) -> None:
        """Shuffle the whole pack and deal 7 cards each, one at a time from the dealer's left, then the upcard."""
        n = self.n_seats
        self.hand_number += 1
        self.in_hand = list(self.in_game)
        order = self._from_left_of(self.dealer, [p for p in range(n) if self.in_game[p]])
        self.hand_players = tuple(order)
        k = len(order)
        cards = self.rng.permutation(_PACK_ARRAY).tolist()
        self.hands = [[] for _ in range(n)]
        for i, p in enumerate(order):
            self.hands[p] = cards[i:HAND_SIZE * k:k]
        self.discard = [cards[HAND_SIZE * k]]
        self.stock = cards[:HAND_SIZE * k:-1]  # the rest, face down; the next card dealt is on top
        self._dw.clear()
        self._outs.clear()
        self.pickup = None
        self.drawn = None
        self.rumino_ready = False
        self.reshuffles = 0
        self.turn = order[0]
        self.phase = "turn"

    def _end_hand(self, ending: str, by: int | None, detail: str = "") -> None:
        rules = self.rules
        players = self.hand_players
        n = self.n_seats
        deadwood: list = [None] * n
        deltas: list = [None] * n
        shown = {}
        rumino_cards = None
        undercut = False
        void = ending == "stock_exhausted" and rules.stock_exhausted == "void_hand"
        if ending == "rumino":
            rumino_cards = rumino_in(self.hands[by], rules)
            shown[by] = tuple(self.hands[by])
            for p in players:
                deltas[p] = 0
        elif void:
            detail = "void hand: nobody scores"
            for p in players:
                deltas[p] = 0
        else:
            for p in players:
                deadwood[p] = self._deadwood(p)
                shown[p] = tuple(self.hands[p])
                deltas[p] = deadwood[p]
            if ending == "knock" and deadwood[by] == 0 and rules.knock_zero_is_gin:
                ending, detail = "gin", "knock at 0 deadwood, scored as gin"  # §1.3, D7
            if ending == "gin":
                deltas[by] = rules.gin_bonus
            elif ending == "knock":
                if any(deadwood[p] < deadwood[by] for p in players if p != by):
                    undercut = True
                    deltas[by] += rules.knock_undercut_penalty
                    detail = f"undercut: +{rules.knock_undercut_penalty} to the knocker" if rules.knock_undercut_penalty else "undercut (no penalty)"
            elif ending == "stock_exhausted":
                detail = "everyone scores their deadwood"
        for p in players:
            self.scores[p] += deltas[p]
        busted = ()
        if ending != "rumino":
            busted = tuple(p for p in players if self.scores[p] >= self._elim)
        result = HandResult(self.hand_number, self.dealer, players, ending, by, detail, tuple(deadwood),
                            tuple(deltas), tuple(self.scores), shown, busted, rumino_cards, undercut)
        self.results.append(result)
        self._score_log.append(("hand", len(self.results) - 1))
        self.claim_queue = []
        self.claim_card = None
        self.pickup = None
        self.rumino_ready = False
        if ending == "rumino":
            self._finish((by,), "rumino")
            return
        for p in busted:
            self.in_game[p] = False
        if (rules.triple_gin_wins and self.hand_number == 3 and len(self.results) == 3
                and all(r.ending == "gin" and r.by == by for r in self.results)):
            self._finish((by,), "triple_gin")
            return
        remaining = [p for p in players if self.in_game[p]]
        if busted and len(players) > 2 and len(remaining) >= rules.rebuy_requires_others:
            self.rebuy_score = max(self.scores[p] for p in remaining)  # D8
            self.rebuy_queue = list(busted)  # already in order from the dealer's left
            self.phase = "rebuy"
            return
        self._after_rebuys()

    def _after_rebuys(self) -> None:
        self.rebuy_queue = []
        self.rebuy_score = None
        still = self.players_in
        if len(still) >= 2:
            self.phase = "between_hands"
            return
        if len(still) == 1:
            self._finish((still[0],), "last_player")
            return
        # everyone in the last hand busted and nobody could rebuy (§1.5): the lowest score wins
        last = self.results[-1].players
        low = min(self.scores[p] for p in last)
        self._finish(tuple(p for p in last if self.scores[p] == low), "lowest_score")

    def _finish(self, winners: tuple[int, ...], how: str) -> None:
        """The winner takes the pool; a tie splits it to the cent (D10)."""
        winners = tuple(self._from_left_of(self.dealer, winners))
        pool = self.pool
        share, extra = divmod(pool, len(winners))
        payouts = [0] * self.n_seats
        for i, w in enumerate(winners):
            payouts[w] = share + (1 if i < extra else 0)
            self.received[w] += payouts[w]
        self.pool = 0
        self.result = GameResult(winners, how, pool, tuple(payouts), self.hand_number, sum(self.rebuys),
                                 self.joins, winners[0])
        self.phase = "game_over"
        self.turn = None

    # ----------------------------------------------------------------- set positions (examples, tests, puzzles)

    def set_position(self, *, hands: dict | None = None, discard=None, stock_top=None,
                     scores: dict | None = None) -> None:
        """Arrange a position at the start of a turn, keeping every card in exactly one place.

        ``hands`` maps seats to their 7 cards, ``discard`` is the whole discard pile
        (bottom to top), ``stock_top`` the next cards of the stock (first drawn
        first), ``scores`` maps seats to cumulative scores (below the elimination
        score). Cards are taken from wherever they are; displaced cards go back
        where there is room, so the pack stays whole. A game so arranged cannot
        be recorded (its deal did not come from the seed).

        >>> from rumino.cards import parse_hand
        >>> g = RuminoGame.new(RUMINO, 2, seed=1, dealer=1)
        >>> g.set_position(hands={0: parse_hand("2c 3c 4c 9d 9h 9s 7d")}, scores={1: 95})
        >>> g.legal_actions()[0], g.scores
        (Knock(), [0, 95])
        """
        if self.phase != "turn":
            raise IllegalActionError(f"a position can be set only at the start of a turn; the phase is {self.phase!r}.")
        from collections import Counter

        from ..cards import parse_hand

        hands = {p: list(parse_hand(h)) for p, h in (hands or {}).items()}
        for p, h in hands.items():
            if not (isinstance(p, int) and 0 <= p < self.n_seats and self.in_hand[p]):
                raise IllegalActionError(f"seat {p!r} is not in this hand: the seats in it are {list(self.hand_players)}.")
            if len(h) != HAND_SIZE:
                raise IllegalActionError(f"seat {p} must hold 7 cards at the start of a turn; {format_hand(h)} is "
                                         f"{len(h)}.")
        pile = None if discard is None else list(parse_hand(discard))
        if pile is not None and not pile:
            raise IllegalActionError("the discard pile needs at least one card.")
        top = [] if stock_top is None else list(parse_hand(stock_top))
        required = Counter(c for h in hands.values() for c in h) + Counter(pile or []) + Counter(top)
        pack = Counter(PACK.cards())
        for c, k in required.items():
            if k > pack[c]:
                raise InvalidCardError(f"the position uses {k} copies of {format_card(c)}; the pack has {pack[c]}.")
        for p, v in (scores or {}).items():
            if not (isinstance(p, int) and 0 <= p < self.n_seats) or isinstance(v, bool) or not isinstance(v, int):
                raise IllegalActionError(f"scores must map seats to integers; got {p!r}: {v!r}.")
            if (v >= self._elim) == self.in_game[p]:
                raise IllegalActionError(f"seat {p} {'is in' if self.in_game[p] else 'is out'}, so its score must be "
                                         f"{'below' if self.in_game[p] else 'at least'} {self._elim}; got {v}.")
        spare = pack - required
        new_hands = {}
        for p in range(self.n_seats):
            if p in hands:
                new_hands[p] = hands[p]
                continue
            keep = []
            for c in self.hands[p]:
                if spare[c] > 0:
                    spare[c] -= 1
                    keep.append(c)
            new_hands[p] = keep
        if pile is None:
            pile = []
            for c in self.discard:
                if spare[c] > 0:
                    spare[c] -= 1
                    pile.append(c)
            if not pile:
                pile = [self._take_any(spare)]
        rest = []
        for c in self.stock:
            if spare[c] > 0:
                spare[c] -= 1
                rest.append(c)
        rest = list(spare.elements()) + rest  # cards freed from elsewhere go to the bottom
        for p in range(self.n_seats):
            while len(new_hands[p]) < (HAND_SIZE if self.in_hand[p] else 0):
                new_hands[p].append(rest.pop())
        self.hands = [new_hands[p] for p in range(self.n_seats)]
        self.discard = pile
        self.stock = rest + top[::-1]
        for p, v in (scores or {}).items():
            self.scores[p] = v
            self._score_log.append(("set", p, v))
        self._dw.clear()
        self._outs.clear()
        self.pickup = None
        self.rigged = True

    @staticmethod
    def _take_any(spare) -> int:
        for c, k in spare.items():
            if k > 0:
                spare[c] -= 1
                return c
        raise IllegalActionError("no card is left for the discard pile.")  # pragma: no cover

    # ----------------------------------------------------------------- conservation

    def snapshot(self) -> tuple:
        """Everything that defines the state, as nested tuples (equal snapshots, equal states)."""
        return (self.phase, self.turn, self.dealer, tuple(map(tuple, self.hands)), tuple(self.stock),
                tuple(self.discard), tuple(self.scores), tuple(self.in_game), tuple(self.in_hand),
                tuple(self.rebuys), tuple(self.paid), tuple(self.received), self.pool, self.pickup,
                self.claim_card, tuple(self.claim_queue), tuple(self.claimers), tuple(self.rebuy_queue),
                self.rebuy_score, self.hand_number, len(self.results), self.result, len(self.history),
                self.joins, repr(self.rng.bit_generator.state))

    def check_invariants(self, *, deep: bool = True) -> None:
        """Raise ``AssertionError`` (an engine bug, never a user error) unless:

        * each of the 108 cards is in exactly one place (hands, stock, discard pile);
        * hand sizes fit the phase;
        * money in cents is conserved: stakes + rebuys paid == pool + payouts, and
          each seat paid exactly its stake plus its rebuy prices;
        * scores are the sum of the hand results, rebuys and joins, every hand
          result follows RULES §1.4 from deadwood recomputed by :mod:`rumino.arrange`,
          and who is in matches the elimination rule.

        ``deep=False`` skips recomputing the deadwood with :mod:`rumino.arrange`
        (the slow reference search) and checks the scoring from the recorded deadwood.
        Each hand result and rebuy is checked once, by the first call after it.
        """
        from ..arrange import min_deadwood

        n = self.n_seats
        counts = [0] * 53
        for pile in (*self.hands, self.stock, self.discard):
            for c in pile:
                counts[c] += 1  # an id outside 0–52 raises IndexError: also a broken invariant
        if counts != _PACK_COUNTS:
            bad = [format_card(c) for c in range(53) if counts[c] != PACK.copies(c)]
            raise AssertionError(f"cards not conserved: {sum(counts)} cards; wrong counts for {bad}")
        phase = self.phase
        if phase not in _PHASES:
            raise AssertionError(f"unknown phase {phase!r}")
        rumino_winner = self.result.winners[0] if (self.result is not None and self.result.how == "rumino") else None
        for p in range(n):
            size = len(self.hands[p])
            if not self.in_hand[p]:
                if size:
                    raise AssertionError(f"seat {p} is not in the hand but holds {size} cards")
                continue
            big = (phase == "discard" and p == self.turn) or p == rumino_winner
            if size != (HAND_SIZE + 1 if big else HAND_SIZE):
                raise AssertionError(f"seat {p} holds {size} cards in phase {phase}")
        if phase in ("turn", "claim") and not self.discard:
            raise AssertionError("the discard pile is empty at the start of a turn")
        if phase in ("turn", "discard", "claim") and not self.in_hand[self.turn]:
            raise AssertionError(f"seat {self.turn} acts but is not in the hand")
        if phase == "discard" and self.pickup is not None and self.pickup not in self.hands[self.turn]:
            raise AssertionError("the picked-up card left the hand before the discard")
        # money, in cents: every stake and rebuy is in the pool or paid out to a winner
        total_paid = sum(self.paid)
        if total_paid != self.pool + sum(self.received) or self.pool < 0:
            raise AssertionError(f"money not conserved: paid {total_paid} != pool {self.pool} + payouts "
                                 f"{sum(self.received)}")
        for p in range(n):
            k = self.rebuys[p]
            expect_paid = self.stake_cents + (sum(self.rules.rebuy_cost(i) * 100 for i in range(1, k + 1)) if k else 0)
            if self.paid[p] != expect_paid:
                raise AssertionError(f"seat {p} paid {self.paid[p]} cents, the rules say {expect_paid}")
        if self.result is not None:
            shares = [self.received[w] for w in self.result.winners]
            if self.pool != 0 or max(shares) - min(shares) > 1 or sum(self.received) != total_paid:
                raise AssertionError(f"the pool was not paid out evenly to the winners: {self.received}")
        # scores: replay the log from zero (incrementally: each event is checked once), checking every
        # hand result against RULES §1.4 and every rebuy against §1.5
        done, scores, joins, rebuys = self._inv_replay
        scores = scores + [0] * (n - len(scores))
        for ev in self._score_log[done:]:
            kind = ev[0]
            if kind == "hand":
                r = self.results[ev[1]]
                self._verify_result(r, scores, min_deadwood if deep else None)
                for p in r.players:
                    scores[p] += r.deltas[p]
                continue
            _, seat, level = ev[:3]
            if kind == "rebuy":
                rebuys += 1
                r = self.results[ev[3]]
                left = [p for p in r.players if p not in r.busted]
                if not (seat in r.busted and len(r.players) > 2 and len(left) >= self.rules.rebuy_requires_others
                        and r.ending != "rumino" and level == max(r.scores[p] for p in left)):
                    raise AssertionError(f"seat {seat} rebought after hand {r.number} against RULES §1.5")
            elif kind == "join":
                joins += 1
            scores[seat] = level
        self._inv_replay = (len(self._score_log), scores, joins, rebuys)
        if scores != self.scores:
            raise AssertionError(f"scores {self.scores} are not the sum of the hand results {scores}")
        if joins != self.joins or rebuys != sum(self.rebuys) or not n == len(self.in_game) == len(self.paid):
            raise AssertionError("seats, joins or rebuys out of step with the log")
        for p in range(n):
            if self.in_game[p] != (self.scores[p] < self._elim):
                raise AssertionError(f"seat {p} is {'in' if self.in_game[p] else 'out'} at {self.scores[p]} points")

    def _verify_result(self, r: HandResult, before: list, min_deadwood) -> None:
        rules = self.rules
        mr = rules.meld_rules
        for p in r.players:
            if r.deadwood[p] is not None and min_deadwood is not None:
                true = min_deadwood(r.hands[p], mr)
                _expect(true == r.deadwood[p], f"hand {r.number}: seat {p} scored deadwood {r.deadwood[p]}, "
                                               f"the arrangement search says {true}")
            after = before[p] + r.deltas[p]
            _expect(r.scores[p] == after, f"hand {r.number}: seat {p}'s score after the hand is wrong")
        if r.ending == "rumino":
            _expect(r.rumino is not None and is_rumino(r.rumino, rules), f"hand {r.number}: no rumino shown")
            _expect(all(d == 0 for p, d in enumerate(r.deltas) if p in r.players), "a rumino hand changed scores")
            return
        if r.ending == "stock_exhausted" and rules.stock_exhausted == "void_hand":
            _expect(all(r.deltas[p] == 0 for p in r.players), "a void hand changed scores")
            return
        for p in r.players:
            if p == r.by:
                continue
            _expect(r.deltas[p] == r.deadwood[p], f"hand {r.number}: seat {p} must add its deadwood")
        if r.ending == "gin":
            _expect(r.deadwood[r.by] == 0 and r.deltas[r.by] == rules.gin_bonus, f"hand {r.number}: bad gin score")
        elif r.ending == "knock":
            _expect(r.deadwood[r.by] <= rules.knock_max_deadwood, f"hand {r.number}: knock above the limit")
            lower = any(r.deadwood[p] < r.deadwood[r.by] for p in r.players if p != r.by)
            _expect(r.deltas[r.by] == r.deadwood[r.by] + (rules.knock_undercut_penalty if lower else 0),
                    f"hand {r.number}: the knocker's score is wrong")
            _expect(not (r.deadwood[r.by] == 0 and rules.knock_zero_is_gin), "a zero knock was not scored as gin")
        _expect(set(r.busted) == {p for p in r.players if r.scores[p] >= self._elim},
                f"hand {r.number}: the busted players are wrong")

    def __repr__(self) -> str:
        return (f"<RuminoGame {self.n_seats} seats, hand {self.hand_number}, phase {self.phase!r}, "
                f"to act {self.to_act}, scores {self.scores}>")


class _StaleGuard:
    """A view's lazy ``legal_actions``: the game's list, as long as the game has not moved on."""

    __slots__ = ("game", "moves")

    def __init__(self, game: RuminoGame, moves: int):
        self.game, self.moves = game, moves

    def __call__(self) -> list:
        if len(self.game.history) != self.moves:
            raise IllegalActionError("this view is out of date: the game has moved on since it was made; "
                                     "ask the game for a new view.")
        return self.game.legal_actions()


def _expect(cond: bool, message: str) -> None:
    if not cond:
        raise AssertionError(message)


def _card_text(card) -> str:
    try:
        return format_card(card)
    except Exception:
        return repr(card)


def _check_seed(seed) -> None:
    ok = (isinstance(seed, int) and not isinstance(seed, bool) and seed >= 0) or (
        isinstance(seed, (list, tuple)) and seed and all(isinstance(s, int) and not isinstance(s, bool) and s >= 0
                                                         for s in seed))
    if not ok:
        raise RuleConfigError(f"seed is {seed!r}: it must be a non-negative integer or a list of them.")


_PHASES = ("turn", "discard", "claim", "rebuy", "between_hands", "game_over")
_DISPATCH = {
    Draw: RuminoGame._do_draw, Discard: RuminoGame._do_discard, Knock: RuminoGame._do_knock,
    Gin: RuminoGame._do_gin, CallRumino: RuminoGame._do_call, ClaimRumino: RuminoGame._do_claim,
    PassClaim: RuminoGame._do_pass, Rebuy: RuminoGame._do_rebuy, DeclineRebuy: RuminoGame._do_decline,
    Deal: RuminoGame._do_deal, Join: RuminoGame._do_join,
}
_PHASE_ACTIONS = {
    "turn": (Knock, Draw), "discard": (Discard, Gin, CallRumino), "claim": (ClaimRumino, PassClaim),
    "rebuy": (Rebuy, DeclineRebuy), "between_hands": (Deal,), "game_over": (),
}
_PHASE_RULE = {"turn": "§1.3", "discard": "§1.3", "claim": "§1.3", "rebuy": "§1.5", "between_hands": "§1.1",
               "game_over": "§1.5"}
_PHASE_WHAT = {
    "turn": "it is the start of player {p}'s turn",
    "discard": "player {p} has drawn and must now get rid of a card",
    "claim": "player {p} may claim the discard for a rumino",
    "rebuy": "player {p} is out and decides whether to rebuy",
    "between_hands": "the hand is over and player {p} deals the next one",
    "game_over": "the game is over",
}
_PHASE_CHOICES = {
    "turn": "knock (deadwood ≤ the limit), draw stock or draw discard",
    "discard": "discard a card, go gin with a discard, or call a rumino",
    "claim": "claim or pass", "rebuy": "rebuy or decline", "between_hands": "deal", "game_over": "none",
}

GAME = RuminoGame
