"""Wiener Rummy, *Rommé ohne Auslegen* / 101 (rules §5), and American Knock Rummy (§5.8).

Wiener: 10 cards from 106 (two decks, two jokers); the dealer holds 11 and opens
by discarding; draw then discard; a rummy call (10 cards in melds after drawing,
the 11th discarded) ends the deal at once; a knock at 5 deadwood or less (after
drawing and discarding) gives everyone else one more draw-and-discard, then all
show, with no laying off; knock money in chips; out at 101; one buy-back a game.

>>> WIENER.knock_max_deadwood, WIENER.meld_rules.pack.size, WIENER_13.hand_size, WIENER.buyback_target
(5, 106, 13, 'second_worst')
>>> g = WienerGame.new(WIENER, 3, seed=1, dealer=2)
>>> g.phase, g.to_act, [len(h) for h in g.hands], g.stock_size, g.pool   # the dealer opens with a discard
('discard', 2, [10, 10, 11], 75, 15)
>>> KNOCK_RUMMY.hand_size, KnockRummyGame.new(KNOCK_RUMMY, 3, seed=1).hand_size   # 7 cards for 3 players
('by_players', 7)
"""

from __future__ import annotations

from dataclasses import dataclass, replace
from functools import cached_property
from typing import Any, Callable, ClassVar, Sequence

from rumino.cards import STANDARD_PACK, Pack, format_card
from rumino.engine.actions import Deal, Discard, Draw, KnockWith
from rumino.engine.drawdiscard import DrawDiscardGame, TableView, expect, HandResult as _HandResult
from rumino.engine.protocol import Action, ActionSet, one_card, refuse
from rumino.engine.results import GameResult as BaseGameResult
from rumino.engine.words import plural
from rumino.engine.scoring import everyone_adds_deadwood, undercut as is_undercut
from rumino.engine.table import from_left_of
from rumino.errors import IllegalActionError, RuleConfigError
from rumino.hand.arrange import min_deadwood
from rumino.melds import GIN_MELDS, WIENER_MELDS, MeldRules
from rumino.engine.knobs import check_knobs, knob, may_rediscard_pickup, pickup_bars_twin, stock_exhausted


@dataclass(frozen=True, kw_only=True)
class WienerRules:
    """The rules of Wiener Rummy; every field is a knob of rules §5.7 (its section is named)."""

    deal_mode: str = knob("dealer11", section="§5.1", choices=("dealer11", "upcard"), label="The deal",
                          words={"dealer11": "the dealer takes 11 and discards first",
                                 "upcard": "10 each and an upcard"},
                          doc="how many cards and who starts")
    # W-D2: rules §5.4 make the dealer's first turn "a discard only", so by default it neither knocks nor calls
    # rummy; the house rule lets a dealer whose 11 dealt cards allow it end the deal with that discard
    dealer_opening_ends: bool = knob(False, section="§5.4", choices=(False, True),
                                     label="Knock on the dealer's first discard",
                                     doc="the dealer may knock or call rummy with his opening discard (dealt 11)")
    hand_size: int = knob(10, section="§5.6", choices=(10, 13), label="Cards each",
                          doc="cards dealt to each player (13: the 13-card game without laying off)")
    # house rule (rules §5.1 fixes one joker a deck): the joker count is the knob every joker game shares
    # (Rumino, Rommé, Robber), so "what the jokers do" can be one knob moved across games; up to 6, as in
    # Rommé's two-deck pack
    n_jokers: int = knob(2, section="§5.1", low=0, high=6, label="Jokers in the pack",
                         doc="jokers shuffled in with the two decks (2 jokers: 106 cards)")
    knock_max_deadwood: int = knob(5, section="§5.4", low=0, high=100, label="Knock limit",
                                   doc="you may knock with this much deadwood or less")
    extra_turn_after_knock: bool = knob(True, section="§5.4", choices=(True, False),
                                        label="One more turn after a knock",
                                        doc="after a knock the others draw and discard once more")
    knock_undercut_penalty: int = knob(0, section="§5.4", choices=(0, 10), label="Undercut penalty",
                                       doc="added to a knocker whom another player undercuts")
    ace_value: int = knob(11, section="§5.3", choices=(11, 10), label="Ace counts", doc="deadwood points of an ace")
    joker_value: int = knob(20, section="§5.3", choices=(20, 25), label="Joker counts",
                            doc="deadwood points of a joker")
    entry_chips: int = knob(5, section="§5.5", low=0, high=10_000, label="Entry to the pot",
                            doc="chips each player puts in the pot at the start")
    buyback_chips: int = knob(5, section="§5.5", low=0, high=10_000, label="Buy-back price",
                              doc="chips a buy-back costs")
    buyback_low: int = knob(81, section="§5.5", low=0, high=100, label="Buy back from",
                            doc="the lowest score that may buy back")
    buyback_target: str = knob("second_worst", section="§5.5", choices=("second_worst", "best_other"),
                               label="Bought back to",
                               words={"second_worst": "the second-worst score", "best_other": "the best other score"},
                               doc="the score a buy-back sets: the second-worst score still in, the buyer's own "
                                   "counted (it never raises a score), or the lowest score among the others")
    elimination_at: int = knob(101, section="§5.5", choices=(101,), label="Out at",
                               doc="a player whose score reaches this is out")
    rummy_call_money: int = knob(1, section="§5.5", choices=(1, 2), label="A rummy call pays",
                                 doc="chips each other player pays a player who calls rummy")
    knock_money_to_pot: bool = knob(False, section="§5.5", choices=(False, True), label="Knock money to the pot",
                                    doc="the knock money goes to the pot instead of to the player who knocked "
                                        "or called rummy")
    stock_exhausted: str = stock_exhausted()
    may_rediscard_pickup: bool = may_rediscard_pickup()
    pickup_bars_twin: bool = pickup_bars_twin()

    def __post_init__(self):
        check_knobs(self)
        if self.buyback_low >= self.elimination_at:
            raise RuleConfigError(f"Buy back from: {self.buyback_low} is not allowed; it must be below the score that "
                                  f"puts a player out ({self.elimination_at}) (rules §5.5).")

    @cached_property
    def meld_rules(self) -> MeldRules:
        """Built once per rules object, so the evaluator's kernel tables are built once too."""
        pack = WIENER_MELDS.pack if self.n_jokers == WIENER_MELDS.pack.jokers else Pack(decks=2, jokers=self.n_jokers)
        return replace(WIENER_MELDS, pack=pack, ace_value=self.ace_value, joker_value=self.joker_value)


WIENER = WienerRules()
# rules §5.6: the 13-card form, knock under 10, no extra turn after a knock.
WIENER_13 = WienerRules(hand_size=13, knock_max_deadwood=9, extra_turn_after_knock=False)
PACK = WIENER_MELDS.pack


@dataclass(frozen=True, kw_only=True)
class KnockRummyRules:
    """American Knock Rummy (Bicycle), rules §5.8: one 52-card pack, ace low (A = 1), no knock limit.

    >>> KNOCK_RUMMY.meld_rules.pack.size, KNOCK_RUMMY.meld_rules.ace, KNOCK_RUMMY.knock_max_deadwood
    (52, 'low', None)
    """

    hand_size: int | str = knob("by_players", section="§5.8", choices=("by_players", 10, 7, 6), label="Cards each",
                                words={"by_players": "10 cards for 2 players, 7 for 3–4, 6 for 5"},
                                doc="cards dealt to each: 10 for 2 players, 7 for 3 or 4, 6 for 5; or a fixed number")
    knock_max_deadwood: int | None = knob(None, section="§5.8", low=0, high=100, allow_none=True, label="Knock limit",
                                          doc="the most deadwood a player may knock with; unlimited: at any count "
                                              "(Bicycle rules); 9: the 'under 10' game")
    rummy_bonus: int = knob(25, section="§5.8", low=0, high=100, label="Rummy bonus",
                            doc="what a knocker with no deadwood wins from each opponent besides the difference")
    knock_penalty: int = knob(10, section="§5.8", low=0, high=100, label="Knock penalty",
                              doc="what a knocker who is not lowest pays the winner besides the difference")
    game_to: int = knob(100, section="§5.8", low=1, high=10_000, label="Game to",
                        doc="the game ends when a player's points reach this")
    stock_exhausted: str = stock_exhausted()
    may_rediscard_pickup: bool = may_rediscard_pickup()
    pickup_bars_twin: bool = pickup_bars_twin()

    def __post_init__(self):
        check_knobs(self)

    @cached_property
    def meld_rules(self) -> MeldRules:
        """Gin's melds: one pack, sets of 3–4 by rank, runs ace low, A = 1, faces 10 (rules §5.8)."""
        return replace(GIN_MELDS, name="knock-rummy")


KNOCK_RUMMY = KnockRummyRules()
KNOCK_RUMMY_PACK = STANDARD_PACK


# ===================================================================== the games
#
# WienerGame and KnockRummyGame are the shared draw-and-discard engine (rumino.engine)
# plus the knock-after-discarding family's hooks (_KnockFamily): the dealer's opening
# discard, the knock and the rummy call after a draw, the last round after a knock,
# and no laying off. WienerGame adds knock money, elimination at 101 and the buy-back;
# KnockRummyGame the Bicycle settlement (the lowest count wins the difference).
#
# Decisions where the rules leave a point open, each named where it is applied:
#   W-D1 §5.1   first dealer: high card (the engine's rule); the deal passes left.
#   W-D2 §5.4   the dealer's opening turn (dealer11) is a discard without a draw and, as §5.4
#               says, "a discard only": no knock and no rummy call with it. The house rule
#               dealer_opening_ends lets a dealer whose 11 dealt cards allow it end the deal
#               with that discard.
#   W-D3 §5.4   a knock at 0 deadwood is allowed (it is ≤ 5) but is not a rummy call:
#               only the call ends the deal at once; a bot always calls.
#   W-D4 §5.4   during the last round after a knock nobody may knock or call rummy; a
#               player who completes 10 melded cards there simply scores 0 (the rules' default).
#   W-D5 §0.4   under stock_exhausted = void_hand / end_and_score the deal ends once the
#               last stock card is drawn and discarded; a knock already made is still
#               scored as a knock (its last round is cut short).
#   W-D6 §5.5   knock and rummy-call money is paid by every other player dealt into the
#               deal (all were in the game when it was played), also by one it eliminates;
#               chips are on credit (the ledger records what each seat paid and received).
#   W-D7 §5.5   buy-backs are offered after the deal's eliminations, when two or more
#               players are still in, in order from the dealer's left; each target is
#               computed when that player decides (an earlier buyer may have moved).
#   W-D8 §5.5   everyone still in reaching 101 in one deal: the lowest score wins, ties
#               split the pot, the odd chip from the dealer's left (engine ledger).
#   W-D9 §5.4   the knocker's discard is an ordinary face-up discard (he knocks "after drawing and
#               discarding"): the first player of the last round may take it.
#   W-D10 §5.5  players tied for the worst score (say 90, 90 and 40): under second_worst nobody
#               is offered a buy-back. The score of "the second-worst player" is, for each of
#               the tied players, the other one's 90, so buying back would cost 5 chips and
#               move nothing; rules §5.5 settles the case this way, and a careful player holds
#               to the rule as written rather than slide down to the next lower score (40),
#               which would be the generous best_other reading. Under best_other the tied
#               players are offered it (the best other score is below theirs), each target
#               taken when that player decides (W-D7). A lone worst player above a tie (95
#               over 90, 90) buys back to 90 and joins the tie.
#   K-D1 §5.8   the winner of a Knock Rummy hand: a player who ties the knocker's count
#               when the knocker is lowest wins instead of him; several such players, or
#               several lowest non-knockers, split the hand's points (odd points from the
#               knocker's left). The rummy bonus goes only to a knocker who wins at 0.
#   K-D2 §5.8   Knock Rummy is played for points won; the game ends after the hand in which
#               a player reaches ``game_to`` (default 100), and the highest total wins.
#   K-D3 §0.4   a Knock Rummy hand ended by the stock (end_and_score) is settled as if no
#               one had knocked: the lowest count wins the differences.

KNOCK_MONEY = 1  # rules §5.5: one chip from every other player still in


@dataclass(frozen=True, slots=True)
class CallRummy(Action):
    """After drawing: lay 10 cards in melds and discard ``card``; the deal ends at once (rules §5.4)."""

    card: int
    word: ClassVar[str] = "rummy"
    verb: ClassVar[str] = "call rummy"
    discards_card: ClassVar[bool] = True

    def notation(self) -> str:
        return f"rummy {format_card(self.card)}"

    @classmethod
    def parse_args(cls, args: list[str]) -> CallRummy:
        return cls(one_card(cls, args))


@dataclass(frozen=True, slots=True)
class LayOff(Action):
    """Put ``card`` on another player's meld: never legal here (no laying off, rules §5.4, §5.8).

    It is an action word so that a player who tries it hears the rule, not "unknown action".
    """

    card: int
    word: ClassVar[str] = "layoff"
    verb: ClassVar[str] = "lay off"

    def notation(self) -> str:
        return f"layoff {format_card(self.card)}"

    @classmethod
    def parse_args(cls, args: list[str]) -> LayOff:
        return cls(one_card(cls, args))


@dataclass(frozen=True, slots=True)
class BuyBack(Action):
    """Between deals, once per game: pay the buy-back chips and go down to the target score (rules §5.5)."""

    word: ClassVar[str] = "buyback"
    verb: ClassVar[str] = "buy back"


@dataclass(frozen=True, slots=True)
class DeclineBuyBack(Action):
    """Keep one's score rather than buy back."""

    word: ClassVar[str] = "decline"
    verb: ClassVar[str] = "decline the buy-back"


BUYBACK, DECLINE_BUYBACK = BuyBack(), DeclineBuyBack()
ACTIONS = ActionSet("Wiener Rummy", (Draw, Discard, KnockWith, CallRummy, LayOff, BuyBack, DeclineBuyBack, Deal))
KNOCK_RUMMY_ACTIONS = ActionSet("American Knock Rummy", (Draw, Discard, KnockWith, LayOff, Deal))


@dataclass(frozen=True, kw_only=True)
class HandResult(_HandResult):
    """How one deal ended, what everyone scored, and the chips that moved (``money``: per seat, + received)."""

    money: tuple = ()
    winners: tuple = ()  # Knock Rummy: who won the hand's points

    TEXT: ClassVar[dict] = {**_HandResult.TEXT, "rummy": "{who} called rummy"}


@dataclass(frozen=True, kw_only=True)
class GameResult(BaseGameResult):
    """Who won, how (``"last_player"``, ``"lowest_score"`` (§5.5), ``"game_to"`` (§5.8)), what each seat
    received from the pot and won or lost by the game (``returns``: the chips of the hands and the pot, less
    what it paid), the hands played and the buy-backs.

    ``pool_cents`` and ``payouts_cents`` are the names records read: for these games they hold chips
    (``POT_SCALE`` = 1), not cents; :attr:`pot` and :attr:`payouts` name them so.
    """

    hands: int
    buybacks: int

    UNIT: ClassVar[str] = "chips"
    ZERO_SUM: ClassVar[bool] = True
    HOW: ClassVar[dict] = {"last_player": "as the last player in", "lowest_score": "with the lowest score"}

    @property
    def pot(self) -> int:
        return self.pool_cents

    @property
    def payouts(self) -> tuple[int, ...]:
        return self.payouts_cents

    def numbers(self, game: Any) -> list[tuple[str, str, list]]:
        return [("scores", "final scores (low is good)", list(game.scores))]

    def verdict(self, game: Any, name: Callable[[int], str], win: str, take: str) -> str:
        """How the winner won Wiener Rummy's pot (rules §5.5; a tie splits it)."""
        how = self.HOW.get(self.how, self.how.replace("_", " "))
        share = "" if len(self.winners) == 1 else " (" + ", ".join(
            f"{name(w)} {self.payouts_cents[w]}" for w in self.winners) + ")"
        return f"{win} {how} and {take} the pot, {plural(self.pool_cents, 'chip')}{share}."


@dataclass(frozen=True, kw_only=True)
class KnockRummyResult(GameResult):
    """American Knock Rummy's end (rules §5.8): the first to the game's points wins them."""

    def numbers(self, game: Any) -> list[tuple[str, str, list]]:
        return [("points", "final points", list(game.scores))]

    def verdict(self, game: Any, name: Callable[[int], str], win: str, take: str) -> str:
        return f"{win} the game with {max(game.scores)} points (the game is to {game.rules.game_to})."


@dataclass(eq=False, kw_only=True, slots=True)
class WienerView(TableView):
    """What one player sees: the table plus the pot, chips, the knocker and the last round, and
    (when it is this player's decision) the buy-back terms."""

    pot: int = 0
    chips_paid: tuple[int, ...] = ()
    chips_received: tuple[int, ...] = ()
    knocker: int | None = None
    last_round: bool = False  # a knock was made: this is the one more draw-and-discard (§5.4)
    opening: bool = False  # the dealer's opening discard (no draw)
    buyback_used: tuple[bool, ...] = ()
    buyback_target: int | None = None  # in the buy-back phase, for the player deciding
    buyback_price: int | None = None


class _KnockFamily(DrawDiscardGame):
    """What Wiener Rummy and American Knock Rummy share (see the module notes)."""

    VIEW = WienerView
    ENDINGS = ("knock", "rummy", "stock_exhausted")
    POT_SCALE = 1  # the ledger counts chips
    HANDLERS = {KnockWith: "_do_knock", CallRummy: "_do_rummy", LayOff: "_do_layoff"}
    PHASE_ACTIONS = {"turn": (Draw, LayOff), "discard": (Discard, KnockWith, CallRummy, LayOff)}
    PHASE_CHOICES = {"discard": "discard a card, knock with a discard (deadwood ≤ the limit after it), or call "
                                "rummy with a discard (10 cards in melds)"}

    # ----------------------------------------------------------------- hooks

    def setup(self) -> None:
        self._extra = False  # the others' last draw-and-discard after a knock (Wiener's knob)
        self._dealer11 = False  # the dealer holds 11 and opens with a discard (Wiener's knob)
        self._size = self._hand_size_for(self.n_seats)
        self.knocker: int | None = None
        self.knock_queue: list[int] = []  # the players still to take their last draw-and-discard
        self.opening = False

    def _hand_size_for(self, n: int) -> int:
        return self.rules.hand_size

    @property
    def hand_size(self) -> int:
        return self._size

    def after_deal(self, order: Sequence[int]) -> None:
        """Under dealer11 the dealer takes the card that would have been the upcard (11 in all), there is
        no upcard, and the dealer opens with a discard (rules §5.1, W-D2); otherwise the engine's upcard."""
        if not self._dealer11:
            super().after_deal(order)
            return
        self.hands[self.dealer].append(self.discard.pop())
        self.turn = self.dealer
        self.phase = "discard"
        self.opening = True

    def after_draw_actions(self, seat: int, forbidden: int | None) -> list:
        """The rummy calls (every best discard at 0 deadwood), then the template's knocks."""
        if self.knocker is not None:
            return []  # W-D4: the last round is one plain draw and discard
        if self.opening and not self.rules.dealer_opening_ends:
            return []  # W-D2: the dealer's first turn is a discard only
        calls: list = []
        if self.CALLS_RUMMY:
            value, best = self._ev.after_draw(self.hands[seat], forbidden)
            calls = [CallRummy(c) for c in best] if value == 0 else []
        return calls + super().after_draw_actions(seat, forbidden)

    def check_action(self, action: Action, actor: int | None, phase: str) -> None:
        """No laying off, no knock or call in the last round, a call only with every card kept in melds;
        the knock limit is the template's check."""
        kind = type(action)
        if kind is LayOff:
            raise refuse(action, player=actor, phase=phase, rule=self.SECTIONS["layoff"],
                         reason=f"there is no laying off in {self.NAME}: melds are only shown at the end")
        if (kind is KnockWith or kind is CallRummy) and self.knocker is not None:
            raise refuse(action, player=actor, phase=phase, rule=self.SECTIONS["turn"],
                         reason=f"player {self.knocker} has knocked: this is the last round, a plain draw "
                                f"and discard")
        if (kind is KnockWith or kind is CallRummy) and self.opening and not self.rules.dealer_opening_ends:
            raise refuse(action, player=actor, phase=phase, rule=self.SECTIONS["turn"],
                         reason="the dealer's first turn is a discard only: a knock or a rummy call waits for the "
                                "next turn (the house rule 'Knock on the dealer's first discard' allows it)")
        if kind is CallRummy and (left := self._kept_deadwood(self.hands[actor], action.card)) != 0:
            raise refuse(action, player=actor, phase=phase, rule=self.SECTIONS["turn"],
                         reason=f"after discarding {format_card(action.card)} the {self.hand_size} cards have "
                                f"{left} deadwood: a rummy call needs all {self.hand_size} in melds")
        super().check_action(action, actor, phase)

    def _do_layoff(self, action) -> None:  # pragma: no cover - check_action always refuses it
        raise AssertionError("laying off is never applied")

    def on_discard(self, seat: int, card: int) -> None:
        self.opening = False
        if self.knocker is None:
            self.next_turn()
            return
        self.knock_queue.pop(0)
        self._next_in_last_round()

    def _next_in_last_round(self) -> None:
        self.phase = "turn"
        if not self.knock_queue or self.stock_ends_hand():  # W-D5
            self.end_hand("knock", self.knocker)
            return
        self.turn = self.knock_queue[0]

    def _do_knock(self, action: KnockWith) -> None:
        seat = self.turn
        self.hands[seat].remove(action.card)
        self.let_go(seat, [action.card])
        self.discard.append(action.card)
        self._dw.pop(seat, None)
        self.pickup = None
        self.drawn = None
        self.opening = False
        self.history.append((seat, action))
        self.knocker = seat
        if not self._extra:
            self.end_hand("knock", seat)
            return
        # §5.4: everyone else draws and discards once more, from the knocker's left
        self.knock_queue = [p for p in self.from_left_of(seat, self.hand_players) if p != seat]
        self._next_in_last_round()

    def _do_rummy(self, action: CallRummy) -> None:
        self.opening = False
        self.discard_and_end(action, "rummy")

    def view_fields(self, seat: int) -> dict:
        return dict(pot=self.pool, chips_paid=tuple(self.paid), chips_received=tuple(self.received),
                    knocker=self.knocker, last_round=self.knocker is not None and self.phase in ("turn", "discard"),
                    opening=self.opening)

    def snapshot_extra(self) -> tuple:
        return (self.knocker, tuple(self.knock_queue), self.opening)

    def check_game_invariants(self, deep: bool = True) -> None:
        if self.phase in ("turn", "discard") and self.knocker is not None:
            expect(self.turn == self.knock_queue[0] and self.knocker not in self.knock_queue,
                   "the last round after a knock is out of order")
        if self.opening:
            expect(self.phase == "discard" and self.turn == self.dealer and not self.discard,
                   "the dealer's opening discard is out of place")

    def _check_deadwood(self, r, deep: bool) -> None:
        if not deep:
            return
        for p in r.players:
            if r.deadwood[p] is not None:
                true = min_deadwood(r.hands[p], self.rules.meld_rules)
                expect(true == r.deadwood[p], f"hand {r.number}: seat {p} scored deadwood {r.deadwood[p]}, "
                                              f"the arrangement search says {true}")


class WienerGame(_KnockFamily):
    """One game (*Partie*) of Wiener Rummy, from the entry chips to the last player taking the pot (rules §5).

    Phases: ``discard`` (the dealer's opening discard, and after every draw: discard,
    knock or call rummy), ``turn`` (draw), ``buyback`` (an eligible player decides),
    ``between_hands``, ``game_over``.

    >>> from rumino.cards import parse_hand
    >>> g = WienerGame.new(WIENER, 3, seed=4, dealer=2)
    >>> g.apply(Discard(g.hands[2][0])); g.phase, g.to_act       # the dealer's opening discard
    ('turn', 0)
    >>> g.set_position(hands={0: parse_hand("2c 3c 4c 7d 7h 7s Js Qs Ks 5h")}, stock_top="Kd")
    >>> g.apply(Draw("stock")); [str(a) for a in g.legal_actions() if not isinstance(a, Discard)]
    ['knock Kd']
    """

    NAME = "Wiener Rummy"
    HIGHER_SCORE_WINS = False  # penalty points: the lowest score wins
    ACTIONS = ACTIONS
    RULES_CLASS = WienerRules
    PACK = PACK
    HAND_SIZE = 10
    MIN_PLAYERS, MAX_SEATS = 2, 6  # rules §5.1
    CALLS_RUMMY = True
    SECTIONS = {"deal": "§5.1", "turn": "§5.4", "end": "§5.5", "layoff": "§5.4"}
    HANDLERS = {**_KnockFamily.HANDLERS, BuyBack: "_do_buyback", DeclineBuyBack: "_do_decline"}
    PHASE_ACTIONS = {**_KnockFamily.PHASE_ACTIONS, "buyback": (BuyBack, DeclineBuyBack)}
    PHASE_RULE = {"buyback": "§5.5"}
    PHASE_WHAT = {"buyback": "player {p} may buy back (once per game, rules §5.5)"}
    PHASE_CHOICES = {**_KnockFamily.PHASE_CHOICES, "buyback": "buyback or decline"}

    def setup(self) -> None:
        super().setup()
        rules = self.rules
        self._extra = rules.extra_turn_after_knock
        self._dealer11 = rules.deal_mode == "dealer11"
        for seat in range(self.n_seats):  # rules §5.5: the entry chips go into the pot
            self.ledger.pay_in(seat, rules.entry_chips, "entry")
        self.buyback_used = [False] * self.n_seats
        self.buyback_queue: list[int] = []

    # ----------------------------------------------------------------- scoring (§5.4, §5.5)

    def score_hand(self, ending: str, by: int | None, detail: str) -> HandResult:
        rules, players, n = self.rules, self.hand_players, self.n_seats
        deadwood, shown = [None] * n, {}
        deltas = [0 if p in players else None for p in range(n)]
        money = [0] * n
        undercut = False
        if ending == "stock_exhausted" and rules.stock_exhausted == "void_hand":
            detail = "void hand: nobody scores"
        else:
            deadwood, shown = self.showdown()
            pen = rules.knock_undercut_penalty if ending == "knock" else 0
            deltas = everyone_adds_deadwood(deadwood, by if ending == "knock" else None, players, undercut_penalty=pen)
            if ending == "knock" and (undercut := is_undercut(deadwood, by, players)):
                detail = f"undercut: +{pen} to the knocker" if pen else "undercut, no penalty"
            elif ending == "stock_exhausted":
                detail = "everyone scores their deadwood"
            if ending in ("knock", "rummy"):  # §5.5 knock money / rummy-call money, W-D6
                each = KNOCK_MONEY if ending == "knock" else rules.rummy_call_money
                why = "knock money" if ending == "knock" else "rummy money"
                for p in players:
                    if p == by:
                        continue
                    if rules.knock_money_to_pot:
                        self.ledger.pay_in(p, each, why)
                    else:
                        self.ledger.transfer(p, by, each, why)
                        money[by] += each
                    money[p] -= each
        for p in players:
            self.scores[p] += deltas[p]
        return HandResult(number=self.hand_number, dealer=self.dealer, players=players, ending=ending, by=by,
                          detail=detail, deadwood=tuple(deadwood), deltas=tuple(deltas), scores=tuple(self.scores),
                          hands=shown, busted=self.busted(players), undercut=undercut, money=tuple(money))

    def after_hand(self, result: HandResult) -> None:
        self.knocker, self.knock_queue, self.opening = None, [], False
        for p in result.busted:
            self.in_game[p] = False
        if len(self.players_in) >= 2:  # W-D7: buy-backs between deals, from the dealer's left
            self.buyback_queue = [p for p in self.from_left_of(self.dealer, self.players_in)
                                  if self.buyback_refusal(p) is None]
            if self.buyback_queue:
                self.phase = "buyback"
                return
        self.continue_or_end()  # W-D8 when nobody is left

    def buyback_target(self, seat: int) -> int:
        """The score ``seat`` would go down to (rules §5.5, knob ``buyback_target``).

        second_worst: the second-highest score among the players still in, counting ``seat``
        (so a buyer who is not the worst would keep his own score); best_other: the lowest
        score of the others still in.
        """
        others = [self.scores[p] for p in self.players_in if p != seat]
        if self.rules.buyback_target == "best_other":
            return min(others)
        ranked = sorted(others + [self.scores[seat]], reverse=True)
        return ranked[1]

    def buyback_refusal(self, seat: int) -> str | None:
        """Why ``seat`` may not buy back now (rules §5.5), or None if it may."""
        rules, score = self.rules, self.scores[seat]
        if not self.in_game[seat]:
            return f"player {seat} is out of the game ({score} points; a player at {rules.elimination_at} or more " \
                   f"may not buy back)"
        if self.buyback_used[seat]:
            return f"player {seat} has already bought back once in this game"
        if score < rules.buyback_low:
            return f"player {seat} has {score} points; a buy-back needs {rules.buyback_low} to " \
                   f"{rules.elimination_at - 1}"
        if len(self.players_in) < 2:
            return "the game is over"
        target = self.buyback_target(seat)
        # W-D10: a player tied for the worst score meets the other tied score here (second_worst)
        # and is not offered a buy-back that would change nothing
        if target >= score:
            return (f"the buy-back would take player {seat} from {score} to {target} points: a buy-back never "
                    f"raises a score, and it is not offered when it changes nothing")
        return None

    def actor(self, phase: str) -> int | None:
        return self.buyback_queue[0]

    def phase_actions(self, phase: str) -> list:
        return [BUYBACK, DECLINE_BUYBACK]

    def check_action(self, action: Action, actor: int | None, phase: str) -> None:
        if type(action) is BuyBack:
            why = self.buyback_refusal(actor)
            if why is not None:  # pragma: no cover - the queue holds only eligible players
                raise refuse(action, player=actor, phase=phase, rule="§5.5", reason=why)
            return
        super().check_action(action, actor, phase)

    def _do_buyback(self, action: BuyBack) -> None:
        seat = self.buyback_queue.pop(0)
        self.history.append((seat, action))
        target = self.buyback_target(seat)
        self.ledger.pay_in(seat, self.rules.buyback_chips, "buyback")
        self.buyback_used[seat] = True
        self.set_score(seat, target, "buyback", self.scores[seat])
        self._next_buyback()

    def _do_decline(self, action: DeclineBuyBack) -> None:
        seat = self.buyback_queue.pop(0)
        self.history.append((seat, action))
        self._next_buyback()

    def _next_buyback(self) -> None:
        # W-D7: an earlier buyer may have changed a later player's target; skip whom it no longer helps
        self.buyback_queue = [p for p in self.buyback_queue if self.buyback_refusal(p) is None]
        if not self.buyback_queue:
            self.phase = "between_hands"

    def end_game(self, winners: Sequence[int], how: str) -> None:
        pot = self.pool
        winners, payouts = self.finish(winners)
        self.result = GameResult(winners=winners, how=how, next_dealer=winners[0], returns=self.net_chips(),
                                 pool_cents=pot, payouts_cents=tuple(payouts), hands=self.hand_number,
                                 buybacks=sum(self.buyback_used))

    # ----------------------------------------------------------------- views, positions, invariants

    def view_fields(self, seat: int) -> dict:
        out = super().view_fields(seat)
        mine = self.phase == "buyback" and self.to_act == seat
        out.update(buyback_used=tuple(self.buyback_used),
                   buyback_target=self.buyback_target(seat) if mine else None,
                   buyback_price=self.rules.buyback_chips if mine else None)
        return out

    def snapshot_extra(self) -> tuple:
        return super().snapshot_extra() + (tuple(self.buyback_used), tuple(self.buyback_queue))

    def check_score(self, seat: int, value: int) -> None:
        if value < 0 or (value >= self._elim) == self.in_game[seat]:
            raise IllegalActionError(f"seat {seat} {'is in' if self.in_game[seat] else 'is out'}, so its score must "
                                     f"be {'from 0 to' if self.in_game[seat] else 'at least'} "
                                     f"{self._elim - 1 if self.in_game[seat] else self._elim}; got {value}.")

    def check_game_invariants(self, deep: bool = True) -> None:
        """Wiener's own invariants after the engine's: every chip each seat paid or received is its entry,
        its buy-back and the knock and rummy money of the hand results (§5.5), recomputed from them."""
        super().check_game_invariants(deep)
        rules, n = self.rules, self.n_seats
        # what the rules say each seat paid and received, recomputed only when a result, a ledger entry
        # or a buy-back is new (the comparison with the ledger below still runs after every action)
        key = (n, len(self.results), len(self.ledger.log), tuple(self.buyback_used))
        cached = getattr(self, "_inv_money", None)
        if cached is None or cached[0] != key:
            paid = [rules.entry_chips + (rules.buyback_chips if self.buyback_used[p] else 0) for p in range(n)]
            received = [0] * n
            for r in self.results:
                for p in r.players:
                    if r.money[p] < 0:
                        paid[p] -= r.money[p]
                    elif r.money[p] > 0:
                        received[p] += r.money[p]
            received = [received[p] + sum(a for src, dst, a, why in self.ledger.log if src == "pot" and dst == p)
                        for p in range(n)]
            self._inv_money = cached = (key, paid, received)
        paid, received = cached[1], cached[2]
        expect(paid == self.paid and received == self.received,
               f"chips out of step with the rules: paid {self.paid} (rules {paid}), received {self.received} "
               f"(rules {received})")
        counts = self._inv_replay[2]
        expect(counts["buyback"] == sum(self.buyback_used), "buy-backs out of step with the log")
        if self.phase == "buyback":
            expect(all(self.buyback_refusal(p) is None for p in self.buyback_queue), "an ineligible buy-back offer")

    def check_score_event(self, ev: tuple, scores: list) -> None:
        if ev[0] == "set":  # a set position (examples, tests): not a rule of the game
            return
        expect(ev[0] == "buyback", f"unexpected score event {ev[0]!r}")
        seat, new, old = ev[1], ev[2], ev[3]
        rules = self.rules
        still = [p for p in range(len(scores)) if scores[p] < rules.elimination_at]
        others = [scores[p] for p in still if p != seat]
        want = min(others) if rules.buyback_target == "best_other" else sorted(others + [old], reverse=True)[1]
        expect(scores[seat] == old and rules.buyback_low <= old < rules.elimination_at and new == want < old,
               f"seat {seat} bought back from {old} to {new} against rules §5.5")

    def check_result(self, r: HandResult, before: list, deep: bool) -> None:
        """One deal's result against rules §5.4–§5.5, from deadwood recomputed by :mod:`rumino.hand.arrange`."""
        rules = self.rules
        self._check_deadwood(r, deep)
        if r.ending == "stock_exhausted" and rules.stock_exhausted == "void_hand":
            expect(all(r.deltas[p] == 0 for p in r.players) and not any(r.money), "a void hand changed scores")
            return
        for p in r.players:
            if p != r.by or r.ending == "stock_exhausted":
                expect(r.deltas[p] == r.deadwood[p], f"hand {r.number}: seat {p} must add its deadwood")
        if r.ending == "rummy":
            expect(r.deadwood[r.by] == 0 == r.deltas[r.by] and len(r.hands[r.by]) == self.hand_size,
                   f"hand {r.number}: a rummy call without 10 cards in melds")
        elif r.ending == "knock":
            expect(r.deadwood[r.by] <= rules.knock_max_deadwood, f"hand {r.number}: knock above the limit")
            lower = any(r.deadwood[p] < r.deadwood[r.by] for p in r.players if p != r.by)
            expect(r.deltas[r.by] == r.deadwood[r.by] + (rules.knock_undercut_penalty if lower else 0),
                   f"hand {r.number}: the knocker's score is wrong")
        if r.ending in ("knock", "rummy"):
            each = KNOCK_MONEY if r.ending == "knock" else rules.rummy_call_money
            others = [p for p in r.players if p != r.by]
            expect(all(r.money[p] == -each for p in others)
                   and r.money[r.by] == (0 if rules.knock_money_to_pot else each * len(others)),
                   f"hand {r.number}: the knock money is wrong")
        else:
            expect(not any(r.money), f"hand {r.number}: chips moved although nobody knocked")


class KnockRummyGame(_KnockFamily):
    """American Knock Rummy (Bicycle), rules §5.8: one pack, ace low, upcard, knock at any count after
    drawing; the lowest count wins the difference from each opponent; played for points to ``game_to``.

    >>> g = KnockRummyGame.new(KNOCK_RUMMY, 2, seed=3)
    >>> g.hand_size, len(g.discard), g.stock_size, g.phase
    (10, 1, 31, 'turn')
    """

    NAME = "American Knock Rummy"
    ACTIONS = KNOCK_RUMMY_ACTIONS
    RULES_CLASS = KnockRummyRules
    PACK = KNOCK_RUMMY_PACK
    HAND_SIZE = 7
    MIN_PLAYERS, MAX_SEATS = 2, 5  # rules §5.8: 10 cards for 2, 7 for 3–4, 6 for 5
    CALLS_RUMMY = False  # a knock at count 0 is the rummy (§5.8)
    ENDINGS = ("knock", "stock_exhausted")
    SECTIONS = {"deal": "§5.8", "turn": "§5.8", "end": "§5.8", "layoff": "§5.8"}
    HANDLERS = {KnockWith: "_do_knock", LayOff: "_do_layoff"}
    PHASE_ACTIONS = {"turn": (Draw, LayOff), "discard": (Discard, KnockWith, LayOff)}
    PHASE_CHOICES = {"discard": "discard a card, or knock with a discard"}

    def _hand_size_for(self, n: int) -> int:
        size = self.rules.hand_size
        if size == "by_players":
            return 10 if n == 2 else (7 if n <= 4 else 6)
        return size

    def score_hand(self, ending: str, by: int | None, detail: str) -> HandResult:
        rules, players, n = self.rules, self.hand_players, self.n_seats
        deadwood, shown = [None] * n, {}
        deltas = [0 if p in players else None for p in range(n)]
        winners: tuple = ()
        undercut = False
        if not (ending == "stock_exhausted" and rules.stock_exhausted == "void_hand"):
            deadwood, shown = self.showdown()
            winners, points = knock_rummy_settlement(deadwood, players, by, rules, self.n_seats)
            for w, pts in zip(winners, points):
                deltas[w] = pts
            undercut = by is not None and by not in winners
            if ending == "knock" and by in winners and deadwood[by] == 0:
                detail = f"rummy: +{rules.rummy_bonus} from each opponent"
            elif undercut and deadwood[by] > min(deadwood[p] for p in players):
                detail = f"the knocker pays {rules.knock_penalty} more"
            elif undercut:  # tied for lowest: the hand is lost to the other, without the penalty (§5.8)
                detail = "the knocker ties for lowest and loses the hand, without a penalty"
        else:
            detail = "void hand: nobody scores"
        for p in players:
            self.scores[p] += deltas[p]
        return HandResult(number=self.hand_number, dealer=self.dealer, players=players, ending=ending, by=by,
                          detail=detail, deadwood=tuple(deadwood), deltas=tuple(deltas), scores=tuple(self.scores),
                          hands=shown, undercut=undercut, money=(0,) * n, winners=winners)

    def after_hand(self, result: HandResult) -> None:
        self.knocker, self.knock_queue, self.opening = None, [], False
        top = max(self.scores)
        if top >= self.rules.game_to:  # K-D2
            self.end_game(tuple(p for p in range(self.n_seats) if self.scores[p] == top), "game_to")
        else:
            self.phase = "between_hands"

    def end_game(self, winners: Sequence[int], how: str) -> None:
        pot = self.pool
        winners, payouts = self.finish(winners)
        self.result = KnockRummyResult(winners=winners, how=how, next_dealer=winners[0], returns=self.net_chips(),
                                       pool_cents=pot, payouts_cents=tuple(payouts), hands=self.hand_number,
                                       buybacks=0)

    def check_result(self, r: HandResult, before: list, deep: bool) -> None:
        self._check_deadwood(r, deep)
        if not r.hands:
            expect(all(r.deltas[p] == 0 for p in r.players), "a void hand changed scores")
            return
        winners, points = knock_rummy_settlement(r.deadwood, r.players, r.by, self.rules, self.n_seats)
        expect(tuple(winners) == r.winners and all(r.deltas[p] == (points[winners.index(p)] if p in winners else 0)
                                                   for p in r.players), f"hand {r.number}: wrong settlement")
        if r.by is not None and self.rules.knock_max_deadwood is not None:
            expect(r.deadwood[r.by] <= self.rules.knock_max_deadwood, f"hand {r.number}: knock above the limit")


def knock_rummy_settlement(deadwood: Sequence[int | None], players: Sequence[int], knocker: int | None,
                           rules: KnockRummyRules, n_seats: int) -> tuple[tuple[int, ...], tuple[int, ...]]:
    """American Knock Rummy's hand settlement (rules §5.8, K-D1): ``(winners, points each)``.

    The lowest count wins the difference from each opponent; a player tying a lowest knocker
    wins instead of him; a knocker who is not lowest pays ``knock_penalty`` more; a knocker
    winning at 0 (rummy) gets ``rummy_bonus`` from each opponent. Tied winners split the total,
    the odd points from the knocker's left.

    >>> knock_rummy_settlement([3, 12, 20], [0, 1, 2], 0, KNOCK_RUMMY, 3)   # 9 + 17
    ((0,), (26,))
    >>> knock_rummy_settlement([0, 12, 20], [0, 1, 2], 0, KNOCK_RUMMY, 3)   # rummy: 12 + 20 + 2 x 25
    ((0,), (82,))
    >>> knock_rummy_settlement([5, 5, 20], [0, 1, 2], 0, KNOCK_RUMMY, 3)    # a tie beats the knocker
    ((1,), (15,))
    >>> knock_rummy_settlement([8, 2, 20], [0, 1, 2], 0, KNOCK_RUMMY, 3)    # undercut: 6 + 10 + 18
    ((1,), (34,))
    """
    low = min(deadwood[p] for p in players)
    lowest = [p for p in players if deadwood[p] == low]
    if knocker is not None and lowest != [knocker]:
        lowest = [p for p in lowest if p != knocker]  # a tie with the knocker beats him
    start = knocker if knocker is not None else players[-1]
    winners = tuple(from_left_of(start, lowest, n_seats))
    total = sum(deadwood[p] - low for p in players if p not in winners)
    if knocker is not None and deadwood[knocker] > low:  # not lowest (a tie is no penalty, only a lost hand)
        total += rules.knock_penalty
    if knocker is not None and winners == (knocker,) and low == 0:
        total += rules.rummy_bonus * (len(players) - 1)
    share, extra = divmod(total, len(winners))
    return winners, tuple(share + (1 if i < extra else 0) for i in range(len(winners)))


__all__ = ["WienerRules", "WIENER", "WIENER_13", "PACK", "KnockRummyRules", "KNOCK_RUMMY", "KNOCK_RUMMY_PACK",
           "WienerGame", "KnockRummyGame", "WienerView", "HandResult", "GameResult", "CallRummy", "LayOff", "BuyBack",
           "DeclineBuyBack", "BUYBACK", "DECLINE_BUYBACK", "ACTIONS", "KNOCK_RUMMY_ACTIONS", "knock_rummy_settlement"]
