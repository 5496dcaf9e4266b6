"""Rumino: 7-card knock rummy with two decks and four jokers (rules §1).

Every knob of rules §1.6 is a field of :class:`RuminoRules`, with the default
given there. House rules are ``dataclasses.replace(RUMINO, knock_max_deadwood=5)``.

>>> RUMINO.knock_max_deadwood, RUMINO.meld_rules.max_run
(7, 4)
>>> from rumino.cards import parse_hand
>>> is_rumino(parse_hand("3h 4h 5h 6h 7h 8h 9h")), is_rumino(parse_hand("5h 5h 5s 5s 5d JK 5c"))
(True, True)
"""

from __future__ import annotations

from dataclasses import dataclass, field, replace
from functools import cached_property
from itertools import combinations
from typing import Any, Callable, ClassVar, Iterable, Sequence

from rumino.cards import JOKER, RUMINO_PACK, Pack, format_card, format_hand
from rumino.engine import evaluator as engine_evaluator
from rumino.engine.actions import (DEAL, DECLINE, DRAW_DISCARD, DRAW_STOCK, JOIN, KNOCK, REBUY, Deal, DeclineRebuy,
                                   Discard, Draw, Gin, Join, Knock, Rebuy)
from rumino.engine.drawdiscard import DrawDiscardGame, TableView, expect, HandResult as _HandResult
from rumino.engine.protocol import TABLE, Action, ActionSet, refuse
from rumino.engine.results import GameResult as BaseGameResult
from rumino.engine.words import money
from rumino.engine.scoring import everyone_adds_deadwood, undercut as is_undercut
from rumino.errors import IllegalActionError, InvalidCardError
from rumino.hand.arrange import min_deadwood
from rumino.melds import RUMINO_MELDS, MeldRules
from rumino.engine.knobs import check_knobs, knob, may_rediscard_pickup, pickup_bars_twin, stock_exhausted

HAND_SIZE = 7  # rules §1.1


@dataclass(frozen=True, kw_only=True)
class RuminoRules:
    """The rules of Rumino; every field is a house-rule knob (rules §1.6)."""

    max_lay_size: int | None = knob(4, section="§1.2", choices=(4,), allow_none=True, label="Longest meld",
                                    words={4: "3 or 4 cards"},
                                    doc="the most cards one meld may hold; unlimited: runs of any length and sets "
                                        "of up to 8")
    set_suits: str = knob("any", section="§1.2", choices=("any", "distinct"), label="Suits in a set",
                          words={"any": "any suits", "distinct": "all different"},
                          doc="whether a set may repeat a suit (with two decks, 5♥ 5♥ 5♠ is possible)")
    n_jokers: int = knob(4, section="§1.1", low=0, high=8, label="Jokers in the pack",
                         doc="jokers shuffled in with the two decks (4 jokers: 108 cards)")
    ace: str = knob("low", section="§1.2", choices=("low",), label="Ace", words={"low": "low only"},
                    doc="aces are low: A-2-3 is a run, Q-K-A is not")
    min_naturals_per_lay: int = knob(1, section="§1.2", choices=(1, 0), label="Natural cards a meld needs",
                                     doc="cards other than jokers that every meld must hold")
    rumino_natural_only: bool = knob(False, section="§1.2", choices=(False, True), label="Rumino without jokers",
                                     doc="a rumino may not use a joker")
    knock_max_deadwood: int = knob(7, section="§1.3", low=0, high=70, label="Knock limit",
                                   doc="you may knock, instead of drawing, with this much deadwood or less")
    knock_zero_is_gin: bool = knob(True, section="§1.3", choices=(True, False), label="Knock with no deadwood is gin",
                                   doc="a knock with 0 deadwood scores as gin")
    gin_bonus: int = knob(-10, section="§1.4", low=-100, high=0, label="Gin bonus",
                          doc="added to the score of a player who goes gin (low scores are good)")
    knock_undercut_penalty: int = knob(0, section="§1.4", low=0, high=100, label="Undercut penalty",
                                       doc="added to a knocker whom another player strictly undercuts")
    elimination_at: int = knob(101, section="§1.5", choices=(101, 100), label="Out at",
                               doc="a player whose score reaches this is out")
    rebuy_price: str = knob("doubling", section="§1.5", choices=("doubling", "flat"), label="Rebuy price",
                            words={"doubling": "doubles each time", "flat": "always the buy-in"},
                            doc="the k-th rebuy costs the buy-in times 2^(k−1), or always the buy-in")
    rebuy_requires_others: int = knob(2, section="§1.5", choices=(2, 1), label="Players needed for a rebuy",
                                      doc="players still in, besides the one who rebuys, for a rebuy to be allowed")
    out_of_turn_claim_priority: str = knob("nearest_left", section="§1.3", choices=("nearest_left", "first_to_call"),
                                           label="Two claims for one discard",
                                           words={"nearest_left": "nearest on the left",
                                                  "first_to_call": "first to call"},
                                           doc="who takes a discard that would complete a rumino for several players")
    stock_exhausted: str = stock_exhausted("what happens when a player must draw from an empty stock")
    triple_gin_wins: bool = knob(True, section="§1.4", choices=(True, False), label="Three gins win",
                                 doc="gin in each of the first three hands wins the game")
    may_rediscard_pickup: bool = may_rediscard_pickup()
    pickup_bars_twin: bool = pickup_bars_twin()
    allow_new_entrants: bool = knob(True, section="§1.5", choices=(True, False), label="Newcomers may join",
                                    doc="a new player may join between hands, at the highest score")
    stake: int = knob(10, section="§1.5", low=1, high=1_000_000, label="Buy-in",
                      doc="the buy-in, in whole currency units")

    def __post_init__(self):
        check_knobs(self)

    @cached_property
    def meld_rules(self) -> MeldRules:
        """The meld rules these knobs imply (for the arrangement search); built once per rules object."""
        unlimited = self.max_lay_size is None
        # Unlimited lays allow sets of all 8 copies of a rank, but a set of distinct suits
        # holds at most 4 cards (rules §1.2), and MeldRules refuses max_set > 4 then.
        biggest_set = 4 if not unlimited or self.set_suits == "distinct" else 8
        # n_jokers (house rule; rules §1.1 fixes 4): the pack the deal, the engine and the odds all read
        pack = RUMINO_MELDS.pack if self.n_jokers == RUMINO_MELDS.pack.jokers else Pack(decks=2, jokers=self.n_jokers)
        return replace(RUMINO_MELDS, pack=pack, max_set=biggest_set, max_run=13 if unlimited else 4,
                       set_suits=self.set_suits, min_naturals=self.min_naturals_per_lay)

    def rebuy_cost(self, k: int) -> int:
        """Price of a player's ``k``-th rebuy (k ≥ 1): B·2^(k−1), or B when flat (rules §1.5).

        >>> [RUMINO.rebuy_cost(k) for k in (1, 2, 3)]
        [10, 20, 40]
        """
        if k < 1:
            raise ValueError(f"rebuy number k is {k}: it counts from 1.")
        return self.stake * (2 ** (k - 1) if self.rebuy_price == "doubling" else 1)

    def rebuys_total(self, k: int) -> int:
        """What a player's first ``k`` rebuys cost together: B·(2^k − 1), or B·k when flat (rules §1.5).

        The invariants check it after every action, so it is the closed form, not a sum over the rebuys
        (a long game's sum cost a quarter of its checking time).

        >>> all(r.rebuys_total(k) == sum(r.rebuy_cost(i) for i in range(1, k + 1))
        ...     for r in (RUMINO, replace(RUMINO, rebuy_price="flat", stake=3)) for k in range(40))
        True
        """
        if k < 0:
            raise ValueError(f"rebuy count k is {k}: it cannot be negative.")
        return self.stake * (2 ** k - 1 if self.rebuy_price == "doubling" else k)

    def is_rumino(self, cards: Iterable[int]) -> bool:
        """True if 7 cards are a rumino under these rules (:func:`is_rumino`)."""
        return is_rumino(cards, self)

    def rumino_in(self, cards: Iterable[int]) -> tuple[int, ...] | None:
        """Seven of the (usually 8) cards that form a rumino under these rules, or None (:func:`rumino_in`)."""
        return rumino_in(cards, self)


RUMINO = RuminoRules()
PACK = RUMINO_PACK


def is_rumino(cards: Iterable[int], rules: RuminoRules = RUMINO) -> bool:
    """True if 7 cards are a rumino: a 7-card straight flush (ace low) or 7 of a kind (rules §1.2).

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
    cards = list(cards)
    for combo in combinations(range(len(cards)), HAND_SIZE):
        pick = [cards[i] for i in combo]
        if is_rumino(pick, rules):
            return tuple(pick)
    return None


def rumino_outs(hand: Iterable[int], rules: RuminoRules = RUMINO) -> frozenset:
    """Every card that, added to the 7 cards of ``hand``, makes 8 cards holding a rumino.

    Every card if ``hand`` already is a rumino. Used for the out-of-turn claim
    (rules §1.3) and for the call after a draw.

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
    by_rank: dict[int, list] = {}
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


_ALL_CARDS = frozenset(range(53))
_NO_OUTS: frozenset = frozenset()


# ===================================================================== the game
#
# RuminoGame is the shared draw-and-discard engine (rumino.engine) plus what only
# Rumino has: the knock in lieu of drawing, gin and the rumino call after a draw,
# the out-of-turn claim, rebuys and newcomers, triple gin, and its scoring.
#
# Decisions where the rules leave a point open, each named where it is applied:
#   D1 §1.1   first dealer: high card, the engine's rule (rumino.engine.table.draw_for_dealer); a joker
#             is put aside and replaced from the same spread, a tie for high redraws.
#   D2 §1.3   no claim window on the upcard (nobody discarded it) or on the card
#             discarded with a gin (the hand "immediately stops"); a player whose
#             seven cards already are a rumino may not claim (he calls it on his turn).
#   D3 §0.5   the card just taken from the discard pile may not be discarded; knob
#             pickup_bars_twin says whether its identical twin is barred too. Going
#             gin with a barred card as the discard is refused for the same reason.
#   D4 §1.3   under out_of_turn_claim_priority="first_to_call" every eligible player
#             decides without seeing the others' decisions; if several claim, who
#             called first is a chance event drawn from the game's rng.
#   D5 §0.4   the engine's stock rules (DrawDiscardGame.stock_ends_hand); a hand ended by
#             the last stock card ends after any rumino claim on that discard.
#   D6 §1.4   a void hand still counts as a hand of the game (it was dealt): it
#             breaks a triple-gin run and the deal passes left.
#   D7 §1.4   a knock at 0 deadwood that scores as gin (knock_zero_is_gin) is a gin
#             for the triple-gin rule too.
#   D8 §1.5   rebuy decisions are taken in seat order from the dealer's left; the
#             re-entry score is the highest score of the players still in after the
#             hand, fixed before anyone rebuys.
#   D9 §1.5   a new entrant (table action Join, between hands) needs a free chair: at
#             most 6 players are in at once; a chair frees when a player goes out and
#             does not rebuy. The newcomer gets a new seat number after the highest one
#             (seats are never reused, so every seat's scores and money stay its own).
#   D10 §1.5  ties split the pool to the cent, the odd cents from the dealer's left
#             (rumino.engine.ledger.Ledger.pay_out); that same player deals the next game.
#   D11 §1.3  a player whose seven cards are already a rumino calls it after
#             drawing (7 of the 8 cards are a rumino); there is no call in lieu
#             of drawing.
#   D12 §1.5  the heads-up test looks at the number of players dealt into the bust
#             hand; the "≥ 2 other players" test counts players still in after
#             the hand (not busted in it), before any rebuy.

MAX_SEATS = 6  # rules §1.1
MIN_PLAYERS = 2
ENDINGS = ("knock", "gin", "rumino", "stock_exhausted")


@dataclass(frozen=True, slots=True)
class CallRumino(Action):
    """After drawing: announce that 7 of your 8 cards are a rumino, and win the game (rules §1.3)."""

    word: ClassVar[str] = "rumino"
    verb: ClassVar[str] = "call a rumino"


@dataclass(frozen=True, slots=True)
class ClaimRumino(Action):
    """Out of turn: take the card just discarded to complete a rumino, and win the game (rules §1.3)."""

    word: ClassVar[str] = "claim"
    verb: ClassVar[str] = "claim the discard for a rumino"


@dataclass(frozen=True, slots=True)
class PassClaim(Action):
    """Let a discard that would complete your rumino go by."""

    word: ClassVar[str] = "pass"
    verb: ClassVar[str] = "pass"


ACTIONS = ActionSet("Rumino", (Draw, Discard, Knock, Gin, CallRumino, ClaimRumino, PassClaim, Rebuy, DeclineRebuy,
                               Deal, Join))
CALL, CLAIM, PASS = CallRumino(), ClaimRumino(), PassClaim()


class Evaluator(engine_evaluator.Evaluator):
    """The engine's evaluator plus Rumino's question: which cards complete a rumino (cached per hand).

    >>> from rumino.cards import parse_hand
    >>> ev = evaluator_for(RUMINO)
    >>> ev.deadwood(parse_hand("2c 3c 4c 9d 9h 9s 7d")), ev.after_draw(parse_hand("2c 3c 4c 9d 9h 9s 7d 7c"))
    (7, (7, (19, 32)))
    """

    def __init__(self, rules: RuminoRules):
        super().__init__(rules)
        self._outs: dict = {}

    def clear(self) -> None:
        super().clear()
        self._outs.clear()

    def outs(self, hand: Iterable[int]) -> frozenset:
        """Cards that would give ``hand`` (7 cards) plus that card a rumino (every card if it is one)."""
        key = tuple(sorted(hand))
        hit = self._outs.get(key)
        if hit is None:
            hit = rumino_outs(key, self.rules)
            if len(self._outs) > self._LIMIT:
                self._outs.clear()
            self._outs[key] = hit
        return hit


def evaluator_for(rules: RuminoRules) -> Evaluator:
    """The shared :class:`Evaluator` of ``rules`` (one per distinct rules value)."""
    return engine_evaluator.evaluator_for(rules, Evaluator)


@dataclass(frozen=True, kw_only=True)
class HandResult(_HandResult):
    """How one Rumino hand ended and what everyone scored (rules §1.4); ``rumino``: the 7 cards shown."""

    rumino: tuple[int, ...] | None = None

    TEXT: ClassVar[dict] = {**_HandResult.TEXT, "rumino": "{who} made a rumino"}


@dataclass(frozen=True, kw_only=True)
class GameResult(BaseGameResult):
    """Who won, how (``"last_player"``, ``"rumino"``, ``"triple_gin"``, ``"lowest_score"``), what each seat
    received from the pool (``payouts_cents``) and won or lost by the game (``returns``, in cents: its payout
    less its stake and rebuys), the hands played, the rebuys and the newcomers."""

    hands: int
    rebuys: int
    joins: int

    UNIT: ClassVar[str] = "cents"
    ZERO_SUM: ClassVar[bool] = True
    HOW: ClassVar[dict] = {"last_player": "as the last player in", "rumino": "with a rumino",
                           "triple_gin": "with three gins", "lowest_score": "with the lowest score"}

    def numbers(self, game: Any) -> list[tuple[str, str, list]]:
        return [("scores", "final scores (low is good)", list(game.scores))]

    def verdict(self, game: Any, name: Callable[[int], str], win: str, take: str) -> str:
        """How the winner went out and the pool taken (rules §1.5; a tie splits it to the cent)."""
        how = self.HOW.get(self.how, self.how.replace("_", " "))
        share = "" if len(self.winners) == 1 else " (" + ", ".join(
            f"{name(w)} ${money(self.payouts_cents[w])}" for w in self.winners) + ")"
        return f"{win} {how} and {take} the pool, ${money(self.pool_cents)}{share}."


@dataclass(eq=False, kw_only=True, slots=True)
class RuminoView(TableView):
    """What one Rumino player sees: the table (:class:`~rumino.engine.drawdiscard.TableView`) plus
    money, a claimable discard, whether a rumino can be called, and rebuy terms."""

    pool_cents: int = 0
    paid_cents: tuple[int, ...] = ()
    rebuys: tuple[int, ...] = ()
    claim_card: int | None = None  # in the claim phase: the discard that completes your rumino
    rumino_ready: bool = False  # in the discard phase: 7 of your 8 cards are a rumino
    rebuy_price_cents: int | None = None
    rebuy_score: int | None = None

    @property
    def win_now(self) -> Action | None:
        if self.rumino_ready:
            return CALL
        return CLAIM if self.claim_card is not None else None

    _outs: frozenset | None = field(default=None, init=False, repr=False)

    def _my_outs(self) -> frozenset:
        if self._outs is None:
            self._outs = self.evaluator.outs(self.hand) if len(self.hand) == HAND_SIZE else _NO_OUTS
        return self._outs

    @property
    def holds_win(self) -> bool:
        return self._my_outs() is _ALL_CARDS

    def completes(self, card: int) -> bool:
        return card in self._my_outs()


class RuminoGame(DrawDiscardGame):
    """One game of Rumino, from the first deal to the winner taking the pool (rules §1).

    The draw-and-discard engine (:class:`~rumino.engine.drawdiscard.DrawDiscardGame`)
    plus Rumino's hooks. Phases: ``turn`` (knock or draw), ``discard`` (discard,
    gin or call a rumino), ``claim`` (out-of-turn rumino claims on a discard),
    ``rebuy`` (busted players decide), ``between_hands`` (the next dealer deals;
    a newcomer may Join), ``game_over``.

    >>> g = RuminoGame.new(RUMINO, 3, seed=7)
    >>> g.phase, g.hand_number, len(g.hands[g.to_act]), g.stock_size
    ('turn', 1, 7, 86)
    >>> g.apply(Draw("stock")); g.phase
    'discard'

    A set position (scores must stay below the elimination score for players in):

    >>> from rumino.cards import parse_hand
    >>> g = RuminoGame.new(RUMINO, 2, seed=1, dealer=1)
    >>> g.set_position(hands={0: parse_hand("2c 3c 4c 9d 9h 9s 7d")}, scores={1: 95})
    >>> g.legal_actions()[0], g.scores
    (Knock(), [0, 95])
    """

    NAME = "Rumino"
    HIGHER_SCORE_WINS = False  # penalty points: the lowest score wins
    POT_SCALE = 100  # the ledger keeps cents
    ENDINGS = ENDINGS
    ACTIONS = ACTIONS
    RULES_CLASS = RuminoRules
    PACK = PACK
    HAND_SIZE = HAND_SIZE
    MIN_PLAYERS, MAX_SEATS = MIN_PLAYERS, MAX_SEATS
    EVALUATOR = Evaluator
    VIEW = RuminoView
    SECTIONS = {"deal": "§1.1", "turn": "§1.3", "end": "§1.5", "gin": "§1.2", "knock": "§1.3"}
    GIN_IS = "is a 4-lay plus a 3-lay (0 deadwood)"
    HANDLERS = {Knock: "_do_knock", Gin: "_do_gin", CallRumino: "_do_call", ClaimRumino: "_do_claim",
                PassClaim: "_do_pass", Rebuy: "_do_rebuy", DeclineRebuy: "_do_decline", Join: "_do_join"}
    PHASE_ACTIONS = {"turn": (Knock, Draw), "discard": (Discard, Gin, CallRumino), "claim": (ClaimRumino, PassClaim),
                     "rebuy": (Rebuy, DeclineRebuy)}
    PHASE_RULE = {"claim": "§1.3", "rebuy": "§1.5"}
    PHASE_WHAT = {"claim": "player {p} may claim the discard for a rumino",
                  "rebuy": "player {p} is out and decides whether to rebuy"}
    PHASE_CHOICES = {"turn": "knock (deadwood ≤ the limit), draw stock or draw discard",
                     "discard": "discard a card, go gin with a discard, or call a rumino",
                     "claim": "claim or pass", "rebuy": "rebuy or decline"}
    TABLE_ACTIONS = (Join,)
    IN_HAND_PHASES = ("turn", "discard", "claim")
    BUTTONS = (*DrawDiscardGame.BUTTONS[:2],
               ("knock", KNOCK, "Knock", "knock in lieu of drawing, at the knock limit or less (rules §1.3)"),
               ("gin", Gin, "Go gin", "discard and lay a 4-lay plus a 3-lay (rules §1.3)"),
               ("rumino", CALL, "Call rumino", "7 of your 8 cards are a rumino: win the game (rules §1.3)"),
               ("claim", CLAIM, "Claim rumino", "take the discard for a rumino, out of turn (rules §1.3)"),
               ("pass", PASS, "Pass", "let the discard go"),
               DrawDiscardGame.BUTTONS[2],
               ("rebuy", REBUY, "Rebuy", "re-enter at the highest score still in (rules §1.5)"),
               ("decline", DECLINE, "Decline", "stay out"))

    # ----------------------------------------------------------------- hooks

    def setup(self) -> None:
        self.stake_cents = self.rules.stake * 100
        for seat in range(self.n_seats):  # every stake goes into the pool (rules §1.5)
            self.ledger.pay_in(seat, self.stake_cents, "stake")
        self.rebuys = [0] * self.n_seats
        self.joins = 0
        self.rumino_ready = False
        self.claim_card: int | None = None
        self.claim_queue: list[int] = []
        self.claimers: list[int] = []
        self.discarder: int | None = None
        self.rebuy_queue: list[int] = []
        self.rebuy_score: int | None = None
        self._outs: dict[int, frozenset] = {}

    def after_deal(self, order: Sequence[int]) -> None:
        self._outs.clear()
        self.rumino_ready = False
        super().after_deal(order)

    def _outs_of(self, seat: int) -> frozenset:
        v = self._outs.get(seat)
        if v is None:
            v = self._outs[seat] = self._ev.outs(self.hands[seat])
        return v

    def on_draw(self, seat: int, card: int, source: str) -> None:
        self.rumino_ready = card in self._outs_of(seat)
        self._outs.pop(seat, None)

    def after_draw_actions(self, seat: int, forbidden: int | None) -> list:
        return ([CALL] if self.rumino_ready else []) + super().after_draw_actions(seat, forbidden)

    def on_discard(self, seat: int, card: int) -> None:
        self.rumino_ready = False
        # the out-of-turn claim window (§1.3): players who can claim, nearest the discarder's left first
        n = self.n_seats
        # a player whose seven cards already are a rumino calls it on his own turn (D11): the claim is only
        # for the card that completes one (§1.3, "the card you need"), so he is not eligible
        eligible = []
        in_hand = self.in_hand
        for k in range(1, n):
            p = (seat + k) % n
            if in_hand[p]:
                outs = self._outs_of(p)
                if card in outs and outs is not _ALL_CARDS:
                    eligible.append(p)
        if eligible:
            self.phase = "claim"
            self.claim_card = card
            self.claim_queue = eligible
            self.claimers = []
            self.discarder = seat
        else:
            self.next_turn()

    def next_turn(self) -> None:
        if self.discarder is not None:  # after a claim window
            self.claim_card, self.claim_queue, self.claimers, self.discarder = None, [], [], None
        super().next_turn()  # D5 under void_hand / end_and_score

    def actor(self, phase: str) -> int | None:
        return self.claim_queue[0] if phase == "claim" else self.rebuy_queue[0]

    def phase_actions(self, phase: str) -> list:
        return [CLAIM, PASS] if phase == "claim" else [REBUY, DECLINE]

    def table_actions(self) -> list[Action]:
        """A newcomer's Join, when allowed now (rules §1.5, D9)."""
        return [JOIN] if self._join_refusal() is None else []

    def check_table_action(self, action: Action) -> None:
        why = self._join_refusal()
        if why is not None:
            raise refuse(action, player=TABLE, phase=self.phase, reason=why, rule="§1.5")

    def _join_refusal(self) -> str | None:
        if self.phase != "between_hands":
            return "a new player may join only between hands"
        if not self.rules.allow_new_entrants:
            return "these house rules allow no new entrants (allow_new_entrants=False)"
        if len(self.players_in) >= MAX_SEATS:  # D9: a chair frees when a player goes out and does not rebuy
            return f"all {MAX_SEATS} chairs are taken by players still in (rules §1.1: 2–6 players)"
        return None

    def check_action(self, action: Action, actor: int | None, phase: str) -> None:
        super().check_action(action, actor, phase)  # the knock limit, gin
        if type(action) is CallRumino and rumino_in(self.hands[actor], self.rules) is None:
            raise refuse(action, player=actor, phase=phase, rule="§1.2",
                         reason=f"no 7 of player {actor}'s cards {format_hand(sorted(self.hands[actor]))} are a "
                                f"7-card straight flush or 7 of a kind")

    def view_fields(self, seat: int) -> dict:
        ph = self.phase
        money = {"pool_cents": self.ledger.pot, "paid_cents": tuple(self.ledger.paid), "rebuys": tuple(self.rebuys)}
        if ph == "turn" or ph == "discard":  # the common case, first (bots ask at every decision)
            return {**money, "rumino_ready": self.rumino_ready and ph == "discard" and self.turn == seat}
        mine = self.to_act == seat
        price = self.rules.rebuy_cost(self.rebuys[seat] + 1) * 100 if (ph == "rebuy" and mine) else None
        return dict(money, claim_card=self.claim_card if (ph == "claim" and mine) else None,
                    rebuy_price_cents=price, rebuy_score=self.rebuy_score if ph == "rebuy" else None)

    # ----------------------------------------------------------------- Rumino's actions

    def _do_knock(self, action: Knock) -> None:
        self.history.append((self.turn, action))
        self.end_hand("knock", self.turn)

    def _do_gin(self, action: Gin) -> None:
        self.discard_and_end(action, "gin")

    def _do_call(self, action: CallRumino) -> None:
        self.history.append((self.turn, action))
        self.end_hand("rumino", self.turn, detail="called after a draw")

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
            self.next_turn()
            return
        # D4: who called first is a chance event when several claim at once
        winner = self.claimers[0] if len(self.claimers) == 1 else self.claimers[int(self.rng.integers(len(self.claimers)))]
        self._take_claim(winner)

    def _take_claim(self, seat: int) -> None:
        card = self.discard.pop()
        self.hands[seat].append(card)
        self.took_face_up(seat, [card])  # a claim is made in full view
        self._dw.pop(seat, None)
        self._outs.pop(seat, None)
        self.claim_queue = []
        self.turn = seat
        self.end_hand("rumino", seat, detail=f"claimed {format_card(card)} out of turn")

    def _do_rebuy(self, action: Rebuy) -> None:
        seat = self.rebuy_queue.pop(0)
        self.history.append((seat, action))
        self.rebuys[seat] += 1
        self.ledger.pay_in(seat, self.rules.rebuy_cost(self.rebuys[seat]) * 100, "rebuy")
        self.set_score(seat, self.rebuy_score, "rebuy", len(self.results) - 1)
        self.in_game[seat] = True
        if not self.rebuy_queue:
            self._after_rebuys()

    def _do_decline(self, action: DeclineRebuy) -> None:
        seat = self.rebuy_queue.pop(0)
        self.history.append((seat, action))
        if not self.rebuy_queue:
            self._after_rebuys()

    def _do_join(self, action: Join) -> None:
        # D9: the newcomer takes the next chair, at the highest score still in, for the stake B
        level = max(self.scores[p] for p in self.players_in)
        self.history.append((TABLE, action))
        self.rebuys.append(0)
        self.ledger.pay_in(self.add_seat(level), self.stake_cents, "stake")
        self.joins += 1

    # ----------------------------------------------------------------- scoring (§1.4) and the game's end (§1.5)

    def score_hand(self, ending: str, by: int | None, detail: str) -> HandResult:
        rules, players = self.rules, self.hand_players
        deadwood, shown = [None] * self.n_seats, {}
        deltas = [0 if p in players else None for p in range(self.n_seats)]
        rumino_cards, undercut = None, False
        if ending == "rumino":
            rumino_cards = rumino_in(self.hands[by], rules)
            shown[by] = tuple(self.hands[by])
        elif ending == "stock_exhausted" and rules.stock_exhausted == "void_hand":
            detail = "void hand: nobody scores"
        else:
            deadwood, shown = self.showdown()
            if ending == "knock" and deadwood[by] == 0 and rules.knock_zero_is_gin:
                ending, detail = "gin", "knock at 0 deadwood, scored as gin"  # §1.3, D7
            pen = rules.knock_undercut_penalty if ending == "knock" else 0
            deltas = everyone_adds_deadwood(deadwood, by, players, undercut_penalty=pen)  # §1.4
            if ending == "gin":
                deltas[by] = rules.gin_bonus
            elif ending == "knock" and (undercut := is_undercut(deadwood, by, players)):
                detail = f"undercut: +{pen} to the knocker" if pen else "undercut, no penalty"
            elif ending == "stock_exhausted":
                detail = "everyone scores their deadwood"
        for p in players:
            self.scores[p] += deltas[p]
        busted = () if ending == "rumino" else self.busted(players)
        self.claim_queue, self.claim_card, self.rumino_ready = [], None, False
        return HandResult(number=self.hand_number, dealer=self.dealer, players=players, ending=ending, by=by,
                          detail=detail, deadwood=tuple(deadwood), deltas=tuple(deltas), scores=tuple(self.scores),
                          hands=shown, busted=busted, rumino=rumino_cards, undercut=undercut)

    def after_hand(self, result: HandResult) -> None:
        rules, by, players = self.rules, result.by, result.players
        if result.ending == "rumino":
            self.end_game((by,), "rumino")
            return
        for p in result.busted:
            self.in_game[p] = False
        if (rules.triple_gin_wins and self.hand_number == 3 and len(self.results) == 3
                and all(r.ending == "gin" and r.by == by for r in self.results)):
            self.end_game((by,), "triple_gin")
            return
        remaining = [p for p in players if self.in_game[p]]
        if result.busted and len(players) > 2 and len(remaining) >= rules.rebuy_requires_others:
            self.rebuy_score = max(self.scores[p] for p in remaining)  # D8
            self.rebuy_queue = list(result.busted)  # already in order from the dealer's left
            self.phase = "rebuy"
            return
        self._after_rebuys()

    def _after_rebuys(self) -> None:
        self.rebuy_queue = []
        self.rebuy_score = None
        self.continue_or_end()  # everyone busted and nobody could rebuy (§1.5): the lowest score wins

    def end_game(self, winners: tuple[int, ...], how: str) -> None:
        """The winner takes the pool; a tie splits it to the cent (D10)."""
        pool = self.pool
        winners, payouts = self.finish(winners)
        self.result = GameResult(winners=winners, how=how, next_dealer=winners[0], returns=self.net_chips(), pool_cents=pool,
                                 payouts_cents=tuple(payouts), hands=self.hand_number, rebuys=sum(self.rebuys),
                                 joins=self.joins)

    # ----------------------------------------------------------------- positions, snapshots, invariants

    def check_score(self, seat: int, value: int) -> None:
        if (value >= self._elim) == self.in_game[seat]:
            raise IllegalActionError(f"seat {seat} {'is in' if self.in_game[seat] else 'is out'}, so its score must "
                                     f"be {'below' if self.in_game[seat] else 'at least'} {self._elim}; got {value}.")

    def after_set_position(self) -> None:
        self._outs.clear()

    def snapshot_extra(self) -> tuple:
        return (tuple(self.rebuys), self.claim_card, tuple(self.claim_queue), tuple(self.claimers),
                tuple(self.rebuy_queue), self.rebuy_score, self.joins, self.rumino_ready)

    def expected_hand_size(self, seat: int) -> int:
        res = self.result
        if res is not None and res.how == "rumino" and seat == res.winners[0]:
            return HAND_SIZE + 1
        return super().expected_hand_size(seat)

    def check_game_invariants(self, deep: bool = True) -> None:
        """Rumino's own invariants, after the engine's (cards, ledger, scores re-added from the log,
        each hand result checked by :meth:`check_result`): each seat paid exactly its stake plus its
        rebuy prices (§1.5), and joins and rebuys match the log."""
        n = self.n_seats
        if self.phase == "claim":
            expect(bool(self.discard) and self.in_hand[self.discarder], "a claim without a discard or discarder")
        for p in range(n):
            k = self.rebuys[p]
            expect_paid = self.stake_cents + self.rules.rebuys_total(k) * 100
            expect(self.paid[p] == expect_paid, f"seat {p} paid {self.paid[p]} cents, the rules say {expect_paid}")
        counts = self._inv_replay[2]
        expect(counts["join"] == self.joins and counts["rebuy"] == sum(self.rebuys) and n == len(self.rebuys),
               "seats, joins or rebuys out of step with the log")

    def check_score_event(self, ev: tuple, scores: list) -> None:
        if ev[0] == "rebuy":  # §1.5
            seat, level, r = ev[1], ev[2], self.results[ev[3]]
            left = [p for p in r.players if p not in r.busted]
            expect(seat in r.busted and len(r.players) > 2 and len(left) >= self.rules.rebuy_requires_others
                   and r.ending != "rumino" and level == max(r.scores[p] for p in left),
                   f"seat {seat} rebought after hand {r.number} against rules §1.5")

    def check_result(self, r: HandResult, before: list, deep: bool) -> None:
        """One hand result against rules §1.4, from deadwood recomputed by :mod:`rumino.hand.arrange` if ``deep``."""
        rules = self.rules
        for p in r.players:
            if r.deadwood[p] is not None and deep:
                true = min_deadwood(r.hands[p], rules.meld_rules)
                expect(true == r.deadwood[p], f"hand {r.number}: seat {p} scored deadwood {r.deadwood[p]}, "
                                              f"the arrangement search says {true}")
        if r.ending == "rumino":
            expect(r.rumino is not None and is_rumino(r.rumino, rules), f"hand {r.number}: no rumino shown")
            expect(all(r.deltas[p] == 0 for p in r.players), "a rumino hand changed scores")
            return
        if r.ending == "stock_exhausted" and rules.stock_exhausted == "void_hand":
            expect(all(r.deltas[p] == 0 for p in r.players), "a void hand changed scores")
            return
        for p in r.players:
            if p != r.by:
                expect(r.deltas[p] == r.deadwood[p], f"hand {r.number}: seat {p} must add its deadwood")
        if r.ending == "gin":
            expect(r.deadwood[r.by] == 0 and r.deltas[r.by] == rules.gin_bonus, f"hand {r.number}: bad gin score")
        elif r.ending == "knock":
            expect(r.deadwood[r.by] <= rules.knock_max_deadwood, f"hand {r.number}: knock above the limit")
            lower = any(r.deadwood[p] < r.deadwood[r.by] for p in r.players if p != r.by)
            expect(r.deltas[r.by] == r.deadwood[r.by] + (rules.knock_undercut_penalty if lower else 0),
                   f"hand {r.number}: the knocker's score is wrong")
            expect(not (r.deadwood[r.by] == 0 and rules.knock_zero_is_gin), "a zero knock was not scored as gin")

