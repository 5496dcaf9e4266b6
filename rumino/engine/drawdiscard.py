"""The draw-and-discard turn as a template: a game is this class plus its own rules and hooks.

:class:`DrawDiscardGame` stands on :class:`~rumino.engine.base.TurnGame` (seats,
seeds, ``new``/``next_game``, dispatch, the checked ``apply``, views, snapshots,
the card and ledger invariants) and adds what every draw-and-discard game
shares: the deal (rules §0.1), the stock and its reshuffle (§0.4), drawing,
discarding and the rule on re-discarding a card just taken (§0.5), turn order,
dealing the next hand, scores and their log, set positions, and the score and
money invariants. A game subclass adds only what is its own, through the
named hooks below.

Phases the template runs: ``turn`` (before drawing), ``discard`` (after
drawing), ``between_hands`` (the next dealer deals) and ``game_over``. A game
adds its own phases (Rumino: ``claim``, ``rebuy``) by listing them in
``PHASE_ACTIONS`` and answering :meth:`actor` for them.

The hook contract
-----------------
Class attributes a game **must** set:

``NAME``, ``ACTIONS`` (its :class:`~rumino.engine.protocol.ActionSet`: the only
words its records and players may use), ``RULES_CLASS``, ``PACK``,
``HAND_SIZE`` (or override :attr:`hand_size`), ``MIN_PLAYERS``, ``MAX_SEATS``,
``VIEW`` (a :class:`TableView` subclass), ``SECTIONS`` (rules sections cited by
refusals: keys ``deal``, ``turn``, ``end``), and ``HANDLERS`` — ``{action class:
method name}`` for its own actions (merged with the template's: ``Draw``,
``Discard``, ``Deal``). ``PHASE_ACTIONS``, ``PHASE_WHAT`` and ``PHASE_CHOICES``
are merged with the template's too (phase → allowed action classes, what is
happening, what the choices are: they make the refusal messages).
Optional: ``ENDINGS`` (how a hand can end; simulations tally them),
``IN_HAND_PHASES`` (phases during which ``hand_over`` is false; add e.g. an
upcard-offer phase), ``TABLE_ACTIONS`` (action classes nobody's turn decides),
``KNOCK_GAME`` (True: the knock bots greedy/threshold fit this game),
``EVALUATOR`` (an :class:`~rumino.engine.evaluator.Evaluator` subclass caching the
game's own questions). Knock after drawing with a face-down discard is
:class:`~rumino.engine.actions.KnockWith` (``knock 7h``); ``Knock`` is the knock in
lieu of drawing. An action with ``discards_card = True`` and a ``card`` gets the
template's checks in the ``discard`` phase (the player holds it; §0.5).

Rules fields the template reads, declared in ``KNOBS`` with the value a game plays
when its rules class has no such field (a field spelt nearly like one is refused when
the game class is made): ``stock_exhausted`` (§0.4), ``may_rediscard_pickup`` and
``pickup_bars_twin`` (§0.5), ``elimination_at`` (players at or above it are out; checked
by the invariants), ``knock_max_deadwood`` (the views' ``knock_limit``). Every rules class
has ``meld_rules`` (the evaluator; its ``pack``, when it differs from ``PACK``, is the pack
this game is dealt from: a joker-count house rule).

Register the game in :data:`rumino.variants.VARIANTS` with ``game=YourGame``:
the CLI (``--variant``), records, simulations, widgets, the seeding scheme
(:mod:`rumino.playing.seeding`) and the conformance test find it there.

The hooks, in one place (:attr:`DrawDiscardGame.HOOKS` lists them; a test checks that every registered
game overrides only these, each named for what it decides). A game **must** override:

* :meth:`score_hand` ``(ending, by, detail) -> result`` — score a finished hand
  (update ``self.scores``, return the game's hand-result object);
* :meth:`after_hand` ``(result)`` — what follows a hand: ``self.phase =
  "between_hands"``, a game phase (rebuys, buy-backs) or :meth:`end_game`;
* :meth:`end_game` ``(winners, how)`` — set the game's ``result``, a
  :class:`~rumino.engine.results.GameResult` of its own (call :meth:`finish` to pay the pot).

A game **may** override (the defaults are the common rules):

*the table and the deal* —
:meth:`setup` (the game's own state, made before the first deal);
:meth:`choose_first_dealer` (default: high card deals, :func:`~rumino.engine.table.draw_for_dealer`);
:attr:`hand_size` (the cards each holds between turns; default ``HAND_SIZE``) and :attr:`upcards` (the
cards turned up to start the pile; default one); :meth:`deal` / :meth:`after_deal` ``(order)`` (default:
shuffle the whole pack, deal ``hand_size`` each from the dealer's left, the upcards; the dealer's left
plays first, the phase is ``turn``); :meth:`hand_knock_limit` (the knock limit of the hand just dealt;
default the rules' ``knock_max_deadwood``);

*the turn* —
:meth:`start_of_turn_actions` ``(seat)`` (actions besides drawing; default :class:`Knock` in lieu of
drawing when the game has it and the deadwood is within the limit); :meth:`may_take_discard` ``(seat)``
(whether the top of the pile may be taken; default yes); :meth:`stock_refusal` (the rule and reason an
empty stock refuses a draw); :meth:`on_draw` ``(seat, card, source)`` (the card is taken, not yet in the
hand; the phase is still the draw's); :meth:`draw_ends_turn` (a draw is the whole turn; default no);
:meth:`after_draw_actions` ``(seat, forbidden)`` (actions listed before the discards; default, for the
actions the game has: :class:`Gin` with each best discard at 0 deadwood, :class:`KnockWith` with each
discard keeping the deadwood within the limit); :meth:`forbidden` (the card that may not be discarded
now, §0.5); :meth:`discard_choices` ``(seat, forbidden)`` (the cards that may be discarded; default
all but the forbidden one); :meth:`on_discard` ``(seat, card)`` (default :meth:`next_turn`);
:meth:`next_turn` (default: end the hand if :meth:`stock_ends_hand`, else the next seat in the hand
plays); :meth:`stock_ends_hand` (default: the stock is empty and the rules' ``stock_exhausted`` is not
``reshuffle``, §0.4);

*refusals* —
:meth:`check_action` ``(action, actor, phase)`` (refuse a game action the phase allows but the position
does not, raising :func:`~rumino.engine.protocol.refuse`; the default checks the knock limit and gin:
call ``super()``; ``SECTIONS["knock"]`` and ``SECTIONS["gin"]`` name the rules cited, ``GIN_IS`` ends the
gin refusal); :meth:`actor` ``(phase)`` and :meth:`phase_actions` ``(phase)`` (who acts in a phase the game
added and what may be done there, or ``{phase: method name}`` in ``PHASE_LEGAL``); :meth:`table_actions` /
:meth:`check_table_action` (actions nobody's turn decides: a newcomer joining);

*what a player sees* —
:meth:`view_fields` ``(seat)`` (the game's own view fields); :meth:`view_hand_size` ``(seat)`` (the hand
size a view shows; default :attr:`hand_size`); :meth:`table_cards` (the cards laid in melds on the table,
counted with hands, stock and pile); :meth:`snapshot_extra` (the game's own state, for equal snapshots);

*checking* (one verb: every check is ``check_…``) —
:meth:`expected_hand_size` ``(seat)`` (default: one more for the player who has drawn);
:meth:`check_result` ``(result, before, deep)`` and :meth:`check_score_event` ``(event, scores)`` (each hand
result and logged score change against the game's rules; the engine re-adds every score from its log after
every action in :meth:`check_invariants`); :meth:`check_game_invariants` ``(deep)`` (money rules, who is in);
:meth:`check_score` ``(seat, value)`` (the scores :meth:`set_position` may set);
:meth:`position_refusal` ``(discard)`` (why a position may not be set now) and :meth:`after_set_position`.

Helpers a game calls: :meth:`end_hand` (score, keep the result, then ``after_hand``),
:meth:`showdown`, :meth:`set_score` (log a score change), :meth:`add_seat` (a newcomer),
:meth:`continue_or_end` (after eliminations), :meth:`finish` (pay the pot), ``self.ledger``
(:class:`~rumino.engine.ledger.Ledger`), ``self._ev`` (the game's cached evaluator),
:meth:`deadwood`, :meth:`forbidden`, :meth:`can_draw_stock`, :meth:`from_left_of`,
:meth:`lowest_seats`; and :mod:`rumino.engine.scoring` for knock scores.

A minimal game — everyone adds his deadwood when the stock runs out, the
lowest total after one hand wins:

>>> from rumino.cards import STANDARD_PACK
>>> from rumino.engine.actions import Deal, Discard, Draw
>>> from rumino.engine.protocol import ActionSet
>>> from rumino.melds import GIN_MELDS
>>> from dataclasses import dataclass
>>> @dataclass(frozen=True)
... class MiniRules:
...     stock_exhausted: str = "end_and_score"
...     meld_rules = GIN_MELDS
>>> class Mini(DrawDiscardGame):
...     NAME, RULES_CLASS, PACK, HAND_SIZE, MIN_PLAYERS, MAX_SEATS = "Mini", MiniRules, STANDARD_PACK, 7, 2, 4
...     ACTIONS = ActionSet("Mini", (Draw, Discard, Deal))
...     def score_hand(self, ending, by, detail):
...         dw = [self.deadwood(p) for p in range(self.n_seats)]
...         for p in self.hand_players:
...             self.scores[p] += dw[p]
...         return HandResult(number=self.hand_number, dealer=self.dealer, players=self.hand_players,
...                           ending=ending, by=by, detail=detail, deadwood=tuple(dw), deltas=tuple(dw),
...                           scores=tuple(self.scores), hands={})
...     def after_hand(self, result):
...         self.finish(self.lowest_seats())
>>> from rumino.engine.protocol import play
>>> g = play(Mini.new(MiniRules(), 2, seed=1), [_FirstChoice(), _FirstChoice()])
>>> g.game_over, g.stock_size, g.results[0].describe(), g.check_invariants()
(True, 0, 'hand 1: the stock ran out', None)
"""

from __future__ import annotations

import math
from collections import Counter
from dataclasses import dataclass
from typing import Any, ClassVar, Iterable, Self, Sequence

import numpy as np

from rumino.cards import format_card, format_hand, parse_hand
from rumino.engine.actions import DEAL, DRAW_DISCARD, DRAW_STOCK, KNOCK, Deal, Discard, Draw, Gin, Knock, KnockWith
from rumino.engine.base import TurnGame, _FirstChoice, _StaleGuard, card_text, check_seed, expect  # noqa: F401 - re-exported
from rumino.engine.evaluator import Evaluator, evaluator_for
from rumino.engine.protocol import Action, ActionSet, PlayerView, refuse
from rumino.engine.table import can_draw_stock, deal_round_robin, forbidden_discard, from_left_of, next_in, reshuffle
from rumino.errors import IllegalActionError, InvalidCardError


@dataclass(eq=False, kw_only=True, slots=True)
class TableView(PlayerView):
    """What every player of a draw-and-discard game sees: own hand, the whole discard pile,
    the stock size, scores, who is in, the dealer, the card just picked up and what may
    not be discarded now. Opponents' cards are only counted, never shown."""

    rules: Any
    evaluator: Evaluator
    action_set: ActionSet  # the game's action words (for reading typed or recorded actions)
    hand_size: int
    discard_pile: tuple[int, ...]
    stock_size: int
    scores: tuple[int, ...]
    in_game: tuple[bool, ...]
    in_hand: tuple[bool, ...]
    hand_sizes: tuple[int, ...]
    dealer: int
    turn: int | None
    hand_number: int
    can_draw_stock: bool = True
    pickup: int | None = None  # the card taken from the discard pile this turn (§0.5)
    forbidden: int | None = None  # the card that may not be discarded now (§0.5), if any
    knock_limit: int | None = None  # the rules' knock_max_deadwood (None: no knocking, or no limit)
    may_rediscard_pickup: bool = False  # §0.5 as this game plays it (the rules' knob, or the template's stand-in)
    pickup_bars_twin: bool = False  # §0.5: taking a card bars discarding its twin too
    last_result: Any = None
    result: Any = None

    @property
    def top_discard(self) -> int | None:
        return self.discard_pile[-1] if self.discard_pile else None

    # what bots that fit every knock game ask a view; a game's view answers for its own rules
    @property
    def win_now(self) -> Action | None:
        """An action that wins at once and should always be taken (Rumino's call or claim), or None."""
        return None

    @property
    def holds_win(self) -> bool:
        """True if the hand already wins after any draw (Rumino: seven cards that are a rumino)."""
        return False

    def completes(self, card: int) -> bool:
        """True if taking ``card`` wins at once (Rumino: it completes a rumino)."""
        return False

    @property
    def unseen(self) -> np.ndarray:
        """Count vector (53) of the cards this player has not seen: the pack minus own hand and discards."""
        v = self.evaluator.meld_rules.pack.counts().astype(np.int16)
        for c in self.hand:
            v[c] -= 1
        for c in self.discard_pile:
            v[c] -= 1
        return v

    @property
    def deadwood(self) -> int:
        """Own deadwood (a hand between turns) or value after the best allowed discard (one card over)."""
        if len(self.hand) > self.hand_size:
            return self.evaluator.after_draw(self.hand, self.forbidden)[0]
        return self.evaluator.deadwood(self.hand)


@dataclass(frozen=True, kw_only=True)
class HandResult:
    """How one hand ended and what everyone scored.

    ``deadwood`` and ``deltas`` are per seat (``None`` for a seat not dealt in);
    ``hands`` holds the cards shown at the end (none for a void hand); ``scores``
    are everyone's scores after the hand (before anything between hands).
    """

    number: int
    dealer: int
    players: tuple[int, ...]  # seats dealt into the hand, from the dealer's left
    ending: str  # one of the game's ENDINGS
    by: int | None  # who ended it (knocker, gin player, caller); None when the stock ran out
    detail: str
    deadwood: tuple
    deltas: tuple
    scores: tuple
    hands: dict
    busted: tuple[int, ...] = ()
    undercut: bool = False

    TEXT: ClassVar[dict] = {"knock": "{who} knocked", "gin": "{who} went gin", "stock_exhausted": "the stock ran out"}

    def describe(self) -> str:
        who = f"player {self.by}" if self.by is not None else "nobody"
        text = self.TEXT.get(self.ending, self.ending.replace("_", " ")).format(who=who)
        return f"hand {self.number}: {text} ({self.detail})" if self.detail else f"hand {self.number}: {text}"


class DrawDiscardGame(TurnGame):
    """The template of every draw-and-discard game (see the module docstring for the hooks)."""

    ENDINGS: ClassVar[tuple] = ("knock", "gin", "stock_exhausted")  # how a hand can end (tallied by simulations)
    HAND_SIZE: ClassVar[int] = 7
    EVALUATOR: ClassVar[type[Evaluator]] = Evaluator
    VIEW: ClassVar[type[TableView]] = TableView
    IN_HAND_PHASES: ClassVar[tuple] = ("turn", "discard")  # phases in which the hand is still being played
    # the buttons a table widget shows for this game: (name, action or action class, label, tooltip);
    # a class stands for its first legal instance (e.g. Gin: the first card the engine lists)
    BUTTONS: ClassVar[tuple] = (("stock", DRAW_STOCK, "Draw stock", "draw the top card of the stock"),
                                ("discard", DRAW_DISCARD, "Draw discard", "take the top card of the discard pile"),
                                ("deal", DEAL, "Deal next hand", ""))
    GIN_IS: ClassVar[str] = "needs every card kept in melds (0 deadwood)"  # the end of a gin refusal
    KNOCK_GAME: ClassVar[bool] = True  # deadwood and a knock limit decide: the knock bots (greedy, threshold) fit
    HOOKS: ClassVar[frozenset] = frozenset({
        "score_hand", "after_hand", "end_game",  # must
        "setup", "choose_first_dealer", "hand_size", "upcards", "deal", "hand_knock_limit", "after_deal",
        "start_of_turn_actions", "may_take_discard", "stock_refusal", "on_draw", "draw_ends_turn",
        "after_draw_actions", "forbidden", "discard_choices", "on_discard", "next_turn", "stock_ends_hand",
        "check_action", "actor", "phase_actions", "table_actions", "check_table_action",
        "view_fields", "view_hand_size", "table_cards", "snapshot_extra",
        "expected_hand_size", "check_result", "check_score_event", "check_game_invariants", "check_score",
        "position_refusal", "after_set_position"})
    """The methods a game on this template overrides, and no others (the module docstring says what each
    decides; tests/engine/test_hooks.py checks every registered game)."""
    OVER_REASON: ClassVar[str] = "the game is over: the winner has taken the pool"
    # the rules fields the template reads, and what a game whose rules class has none plays (rules §0.4, §0.5)
    KNOBS: ClassVar[dict] = {"stock_exhausted": "reshuffle", "may_rediscard_pickup": False, "pickup_bars_twin": False,
                             "elimination_at": None, "knock_max_deadwood": None}

    _BASE_HANDLERS = {Draw: "_do_draw", Discard: "_do_discard", Deal: "_do_deal"}
    _BASE_PHASES = {**TurnGame._BASE_PHASES, "turn": (Draw,), "discard": (Discard,), "between_hands": (Deal,)}
    _BASE_LEGAL = {**TurnGame._BASE_LEGAL, "turn": "_turn_actions", "discard": "_discard_actions",
                   "between_hands": "_deal_actions"}
    _BASE_WHAT = {**TurnGame._BASE_WHAT, "turn": "it is the start of player {p}'s turn",
                  "discard": "player {p} has drawn and must now get rid of a card",
                  "between_hands": "the hand is over and player {p} deals the next one"}
    _BASE_CHOICES = {**TurnGame._BASE_CHOICES, "turn": "draw stock or draw discard", "discard": "discard a card",
                     "between_hands": "deal"}
    _BASE_RULE_KEYS = {**TurnGame._BASE_RULE_KEYS, "turn": "turn", "discard": "turn", "between_hands": "deal"}

    # the hooks the hot paths call only where a game overrides them (a view, a list of legal actions)
    _fixed_view_size: ClassVar[bool] = True  # the views show hand_size (view_hand_size not overridden)
    _any_discard: ClassVar[bool] = True  # every card but the forbidden one may be discarded (discard_choices)
    _pile_open: ClassVar[bool] = True  # the top of the pile may always be taken (may_take_discard)

    def __init_subclass__(cls, **kw):
        super().__init_subclass__(**kw)
        cls._fixed_view_size = cls.view_hand_size is DrawDiscardGame.view_hand_size
        cls._any_discard = cls.discard_choices is DrawDiscardGame.discard_choices
        cls._pile_open = cls.may_take_discard is DrawDiscardGame.may_take_discard

    # ----------------------------------------------------------------- construction

    def create_state(self) -> None:
        """The stock, the discard pile, the scores and the knobs of rules §0.4–§0.5."""
        rules = self.rules
        pack = rules.meld_rules.pack
        if pack != self.PACK:  # a house rule changed the pack (e.g. Rumino's n_jokers)
            self.PACK = pack
            self._pack_array = np.array(pack.cards(), dtype=np.int64)
            self._pack_counts = [pack.copies(c) for c in range(53)]
            self._pack_counter = Counter({c: k for c, k in enumerate(self._pack_counts) if k})
        self._ev = evaluator_for(rules, self.EVALUATOR)
        self._no_rediscard = not self.knob("may_rediscard_pickup")
        self._bar_twin = self.knob("pickup_bars_twin")
        self._stock_exhausted = self.knob("stock_exhausted")
        self._elim = self.knob("elimination_at")  # a score at or above this is out (None: no elimination)
        self._set_knock_limit(self.knob("knock_max_deadwood"))
        # §0.5 as this game plays it, for every view (read once: a view is made at every decision)
        self._pickup_rule = {"may_rediscard_pickup": self.knob("may_rediscard_pickup"),
                             "pickup_bars_twin": self.knob("pickup_bars_twin")}
        classes = self.ACTIONS.classes
        self._knock_in_lieu, self._knock_with, self._has_gin = Knock in classes, KnockWith in classes, Gin in classes
        n = self.initial_players
        self.stock: list[int] = []  # the top card is the last one
        self.discard: list[int] = []  # the top card is the last one
        self.scores = [0] * n
        self.pickup: int | None = None
        self.drawn: int | None = None
        self.reshuffles = 0
        self.taken: list[list[int]] = [[] for _ in range(n)]  # face-up cards each seat took and still holds
        self._taken_hand = 0  # the hand they were taken in (a new deal forgets them)
        self.open_log: list[tuple[int, str, int | None]] = []  # the hand's open play (open_play)
        self._dw: dict[int, int] = {}
        self._score_log: list[tuple] = []  # ("hand", i) or (kind, seat, new score, *details): how scores moved
        self._inv_replay: tuple = (0, [], Counter())  # check_invariants' progress through the score log

    # ----------------------------------------------------------------- hooks with defaults

    @property
    def hand_size(self) -> int:
        """Cards each player holds between turns."""
        return self.HAND_SIZE

    def view_hand_size(self, seat: int) -> int:
        """The hand size ``seat``'s view shows: what it holds between turns (default :attr:`hand_size`; a game
        whose hands change size, Robber Rummy, says what the seat holds now)."""
        return self.hand_size

    @property
    def upcards(self) -> int:
        """Cards turned face up to start the discard pile after the deal (default one, the upcard)."""
        return 1

    def deal(self) -> None:
        """Shuffle the whole pack and deal ``hand_size`` cards each, one at a time from the dealer's left,
        then the upcards (:attr:`upcards`); the rest is the stock."""
        n = self.n_seats
        self.hand_number += 1
        self.in_hand = list(self.in_game)
        order = from_left_of(self.dealer, [p for p in range(n) if self.in_game[p]], n)
        self.hand_players = tuple(order)
        cards = self.rng.permutation(self._pack_array).tolist()
        self.hands, self.discard, self.stock = deal_round_robin(cards, order, n, self.hand_size,
                                                                upcards=self.upcards)
        self._dw.clear()
        self.pickup = None
        self.drawn = None
        self.reshuffles = 0
        self._set_knock_limit(self.hand_knock_limit())
        self.after_deal(order)

    def _set_knock_limit(self, limit: int | None) -> None:
        # what the views show (None: no knocking, or no limit), and what the checks compare with: no limit is
        # no bound (Knock Rummy), a game whose rules have no knock limit never knocks (-1)
        self._shown_limit = limit
        self._limit = (math.inf if limit is None else limit) if "knock_max_deadwood" in self._knob_fields else -1

    def hand_knock_limit(self) -> int | None:
        """The knock limit of the hand just dealt (the pile's upcards are known): what the views show as
        ``knock_limit`` and the knock checks use. Default: the rules' ``knock_max_deadwood`` (None: no
        knocking, or no limit); a game whose limit changes from hand to hand says it here."""
        return self.knob("knock_max_deadwood")

    def after_deal(self, order: Sequence[int]) -> None:
        """The dealer's left plays first."""
        self.turn = order[0]
        self.phase = "turn"

    def start_of_turn_actions(self, seat: int) -> list:
        """Actions besides drawing at the start of ``seat``'s turn. Default: :class:`Knock` (in lieu of
        drawing) when the game has it and the hand's deadwood is within ``knock_max_deadwood``."""
        return [KNOCK] if self._knock_in_lieu and self._deadwood(seat) <= self._limit else []

    def may_take_discard(self, seat: int) -> bool:
        """Whether ``seat`` may take the top card of the discard pile at the start of its turn (there is one).
        Default: yes (Gin's G2 forbids it after both passed the upcard; Rommé's pick-up rule asks for a play)."""
        return True

    def on_draw(self, seat: int, card: int, source: str) -> None:
        """Called when ``card`` has been taken from ``source``, before it joins ``seat``'s hand (the phase is
        still the one the draw was made in: Gin's upcard offer, its wall)."""

    def draw_ends_turn(self) -> bool:
        """Whether a draw is the whole turn, the next player's turn following it (:meth:`next_turn`) with no
        discard (Robber Rummy without a discard pile, rules §4.3). Default: no, a discard follows."""
        return False

    def stock_refusal(self) -> tuple[str, str]:
        """The rules section and the reason a draw from an empty stock is refused (rules §0.4, when no
        discard pile can be turned over)."""
        return "§0.4", "the stock is empty and there is no discard pile to turn over"

    def after_draw_actions(self, seat: int, forbidden: int | None) -> list:
        """Actions listed before the plain discards once ``seat`` has drawn. Default, for the actions the
        game has: :class:`Gin` with each best discard when the rest has 0 deadwood, and
        :class:`KnockWith` with each discard that leaves at most ``knock_max_deadwood``."""
        out = []
        if self._has_gin or self._knock_with:
            value, best = self._ev.after_draw(self.hands[seat], forbidden)
            if value == 0 and self._has_gin:
                out.extend(Gin(c) for c in best)
            if self._knock_with and value <= self._limit:
                hand = self.hands[seat]
                for c in sorted(set(hand)):
                    if c != forbidden and self._kept_deadwood(hand, c) <= self._limit:
                        out.append(KnockWith(c))
        return out

    def discard_choices(self, seat: int, forbidden: int | None) -> list[int]:
        """The cards ``seat`` may discard now that it has drawn (listed after :meth:`after_draw_actions`).
        Default: every card held but the forbidden one (rules §0.5, :meth:`forbidden`)."""
        return [c for c in sorted(set(self.hands[seat])) if c != forbidden]

    def _kept_deadwood(self, hand, card: int) -> int:
        kept = list(hand)
        kept.remove(card)
        return self._ev.deadwood(kept)

    def on_discard(self, seat: int, card: int) -> None:
        """After ``seat`` discarded ``card``: by default the next player's turn."""
        self.next_turn()

    def stock_ends_hand(self) -> bool:
        """rules §0.4: under ``void_hand`` / ``end_and_score`` the hand ends once the last stock card
        has been drawn and discarded."""
        return not self.stock and self._stock_exhausted != "reshuffle"

    def next_turn(self) -> None:
        self.phase = "turn"
        if self.stock_ends_hand():
            self.end_hand("stock_exhausted", None)
            return
        self.turn = next_in(self.turn, self.in_hand)

    def actor(self, phase: str) -> int | None:
        """Who decides in a phase the game added."""
        raise NotImplementedError(f"{type(self).__name__} must say who acts in phase {phase!r}.")

    def check_action(self, action: Action, actor: int | None, phase: str) -> None:
        """Refuse a game action the phase allows but the position does not. The template checks the
        knock limit (:class:`Knock`, :class:`KnockWith`) and gin (0 deadwood kept); a game adds its own."""
        kind = type(action)
        if kind is Knock:
            dw = self._deadwood(actor)
            if dw > self._limit:
                raise refuse(action, player=actor, phase=phase, rule=self.SECTIONS.get("knock", self.SECTIONS["turn"]),
                             reason=f"player {actor} has {dw} deadwood, the limit is {self._limit}")
        elif kind is Gin or kind is KnockWith:
            dw = self._kept_deadwood(self.hands[actor], action.card)
            if kind is Gin and dw != 0:
                raise refuse(action, player=actor, phase=phase, rule=self.SECTIONS.get("gin", self.SECTIONS["turn"]),
                             reason=f"after discarding {format_card(action.card)} the {self.hand_size} cards kept have "
                                    f"{dw} deadwood: gin {self.GIN_IS}")
            if kind is KnockWith and dw > self._limit:
                raise refuse(action, player=actor, phase=phase, rule=self.SECTIONS.get("knock", self.SECTIONS["turn"]),
                             reason=f"after discarding {format_card(action.card)} player {actor} keeps {dw} "
                                    f"deadwood, the limit is {self._limit}")

    def expected_hand_size(self, seat: int) -> int:
        big = self.phase == "discard" and seat == self.turn
        return self.hand_size + 1 if big else self.hand_size

    def table_cards(self) -> list[int]:
        """Cards laid face up on the table in melds (Rommé, Robber); counted by the invariants. Default none."""
        return []

    def check_result(self, result: HandResult, before: list, deep: bool) -> None:
        """Check one hand result against the game's scoring rules (``before``: scores before the hand)."""

    def check_score_event(self, event: tuple, scores: list) -> None:
        """Check one logged score change (a rebuy, a buy-back…) against the game's rules."""

    def check_score(self, seat: int, value: int) -> None:
        """Refuse a score :meth:`set_position` may not set (default: any integer)."""

    def score_hand(self, ending: str, by: int | None, detail: str) -> HandResult:  # pragma: no cover - abstract
        raise NotImplementedError

    def after_hand(self, result: HandResult) -> None:  # pragma: no cover - abstract
        raise NotImplementedError

    # ----------------------------------------------------------------- queries

    @property
    def to_act(self) -> int | None:
        """The seat that must decide now (None when the game is over)."""
        ph = self.phase
        if ph == "turn" or ph == "discard":
            return self.turn
        if ph == "between_hands":
            return self.next_dealer
        if ph == "game_over":
            return None
        return self.actor(ph)

    @property
    def stock_size(self) -> int:
        return len(self.stock)

    def score_events(self, *kinds: str) -> int:
        """How many logged score changes of these kinds happened (e.g. "rebuy", "join")."""
        return sum(1 for ev in self._score_log if ev[0] in kinds)

    def deadwood(self, seat: int) -> int:
        """The current deadwood of ``seat``'s hand (after the best allowed discard if one card over)."""
        h = self.hands[seat]
        if len(h) > self.hand_size:
            return self._ev.after_draw(h, self.forbidden())[0]
        return self._deadwood(seat)

    def _deadwood(self, seat: int) -> int:
        v = self._dw.get(seat)
        if v is None:
            v = self._dw[seat] = self._ev.deadwood(self.hands[seat])
        return v

    def lowest_seats(self) -> list[int]:
        """The seats of the last hand with the lowest score."""
        players = self.hand_players
        low = min(self.scores[p] for p in players)
        return [p for p in players if self.scores[p] == low]

    def forbidden(self) -> int | None:
        """The card the player who drew may not discard now (rules §0.5), or None."""
        if self.pickup is None or not self._no_rediscard:
            return None
        return forbidden_discard(self.pickup, self.hands[self.turn], self._bar_twin)

    def can_draw_stock(self) -> bool:
        return can_draw_stock(self.stock, self.discard, self._stock_exhausted)

    def _turn_actions(self) -> list:
        seat = self.turn
        out = self.start_of_turn_actions(seat)
        if self.can_draw_stock():
            out.append(DRAW_STOCK)
        if self.discard and (self._pile_open or self.may_take_discard(seat)):
            out.append(DRAW_DISCARD)
        return out

    def _discard_actions(self) -> list:
        seat = self.turn
        forbidden = self.forbidden()
        out = self.after_draw_actions(seat, forbidden)
        if self._any_discard:
            out.extend(Discard(c) for c in sorted(set(self.hands[seat])) if c != forbidden)
        else:
            out.extend(Discard(c) for c in self.discard_choices(seat, forbidden))
        return out

    def _deal_actions(self) -> list:
        return [DEAL]

    # ----------------------------------------------------------------- views

    def public_fields(self, seat: int) -> dict:
        """The table as ``seat`` sees it: the whole discard pile, the stock's size, scores, who is in."""
        drew = self.phase == "discard" and self.turn == seat
        stock, pile = self.stock, self.discard
        return dict(rules=self.rules, evaluator=self._ev, action_set=self.ACTIONS, hand_size=self.hand_size if self._fixed_view_size else self.view_hand_size(seat),
                    discard_pile=tuple(pile), stock_size=len(stock), scores=tuple(self.scores),
                    in_game=tuple(self.in_game), in_hand=tuple(self.in_hand), hand_sizes=tuple(map(len, self.hands)),
                    dealer=self.dealer, turn=self.turn, hand_number=self.hand_number,
                    can_draw_stock=bool(stock) or (self._stock_exhausted == "reshuffle" and len(pile) > 1),
                    pickup=self.pickup if drew else None, forbidden=self.forbidden() if drew else None,
                    knock_limit=self._shown_limit, last_result=self.results[-1] if self.results else None,
                    **self._pickup_rule,
                    result=self.result)

    def view(self, seat: int) -> TableView:
        """What ``seat`` can see now: the base's view with :meth:`public_fields` written out in one call.

        Bots ask for a view at every decision; building the public fields as a dict and unpacking it
        again cost a quarter of a simulated Rumino hand (bench/bench_game.py). A test checks that this
        view equals the base's (tests/engine/test_base.py).
        """
        if seat.__class__ is not int or not 0 <= seat < len(self.hands):  # (a bool is not a seat)
            return super().view(seat)  # the base names the bad seat
        ph = self.phase
        drew = ph == "discard" and self.turn == seat
        stock, pile = self.stock, self.discard
        return self.VIEW(
            seat=seat, phase=ph, to_act=self.to_act, hand=tuple(self.hands[seat]),
            _legal=_StaleGuard(self, len(self.history)), rules=self.rules, evaluator=self._ev, action_set=self.ACTIONS,
            hand_size=self.hand_size if self._fixed_view_size else self.view_hand_size(seat), discard_pile=tuple(pile), stock_size=len(stock), scores=tuple(self.scores),
            in_game=tuple(self.in_game), in_hand=tuple(self.in_hand), hand_sizes=tuple(map(len, self.hands)),
            dealer=self.dealer, turn=self.turn, hand_number=self.hand_number,
            can_draw_stock=bool(stock) or (self._stock_exhausted == "reshuffle" and len(pile) > 1),
            pickup=self.pickup if drew else None, forbidden=self.forbidden() if drew else None,
            knock_limit=self._shown_limit, last_result=self.results[-1] if self.results else None,
            result=self.result, **self._pickup_rule, **self.view_fields(seat))

    # ----------------------------------------------------------------- applying actions

    def check_move(self, action: Action, actor: int | None, phase: str) -> None:
        """The draw (§0.4: a stock or a pile to take from) and the discard (a card held; §0.5), then the
        game's :meth:`check_action`."""
        kind = type(action)
        if phase == "turn" and kind is Draw:
            if action.source == "stock":
                if not self.can_draw_stock():
                    rule, reason = self.stock_refusal()
                    raise refuse(action, player=actor, phase=phase, rule=rule, reason=reason)
            elif not self.discard:
                raise refuse(action, player=actor, phase=phase, rule=self.SECTIONS["turn"],
                             reason="the discard pile is empty")
        elif phase == "discard" and kind.discards_card:
            card = action.card
            hand = self.hands[actor]
            if not isinstance(card, (int, np.integer)) or isinstance(card, bool) or card not in hand:
                raise refuse(action, player=actor, phase=phase, rule=self.SECTIONS["turn"],
                             reason=f"player {actor} does not hold {card_text(card)}")
            if card == self.forbidden():
                twin = " (nor its twin, by the house rule 'its twin barred too')" if self._bar_twin else ""
                raise refuse(action, player=actor, phase=phase, rule="§0.5",
                             reason=f"{format_card(card)} was just taken from the discard pile and may not be "
                                    f"discarded again this turn{twin}")
        self.check_action(action, actor, phase)

    # each _do_* mutates the state; only called with legal actions

    def _do_draw(self, action: Draw) -> None:
        # the seat whose turn it is (or who takes the upcard offered to it in a phase of its own: Gin's offer)
        seat = self.turn if self.phase == "turn" else self.to_act
        if action.source == "stock":
            self.saw(seat, "stock", self.discard[-1] if self.discard else None)
            if not self.stock:
                self.stock, self.discard = reshuffle(self.discard, self.rng)
                self.reshuffles += 1
            card = self.stock.pop()
            self.pickup = None
        else:
            card = self.discard.pop()
            self.pickup = card
            self.took_face_up(seat, [card])  # everyone saw it go into that hand
            self.saw(seat, "take", card)
        self.on_draw(seat, card, action.source)
        self.turn = seat
        self.hands[seat].append(card)
        self.drawn = card
        self._dw.pop(seat, None)
        self.phase = "discard"
        self.history.append((seat, action))
        if self.draw_ends_turn():
            self.next_turn()

    def _do_discard(self, action: Discard) -> None:
        seat = self.turn
        card = action.card
        self.hands[seat].remove(card)
        self.let_go(seat, [card])
        self.saw(seat, "discard", card)
        self.discard.append(card)
        self._dw.pop(seat, None)
        self.pickup = None
        self.drawn = None
        self.history.append((seat, action))
        self.on_discard(seat, card)

    def _do_deal(self, action: Deal) -> None:
        self.history.append((self.next_dealer, action))
        self.dealer = self.next_dealer
        self.deal()

    def end_hand(self, ending: str, by: int | None, detail: str = "") -> None:
        """Score the hand (:meth:`score_hand`), keep its result, then :meth:`after_hand`."""
        result = self.score_hand(ending, by, detail)
        self._score_log.append(("hand", len(self.results)))
        self.results.append(result)
        self.pickup = None
        self.after_hand(result)

    def busted(self, players: Iterable[int]) -> tuple[int, ...]:
        """The seats of ``players`` whose score reached the rules' ``elimination_at``."""
        return tuple(p for p in players if self.scores[p] >= self._elim) if self._elim is not None else ()

    def discard_and_end(self, action: Action, ending: str) -> None:
        """The player who drew puts ``action.card`` on the pile and the hand ends at once (a gin,
        a rummy call); no one may take that discard."""
        seat = self.turn
        self.hands[seat].remove(action.card)
        self.let_go(seat, [action.card])
        self.discard.append(action.card)
        self._dw.pop(seat, None)
        self.pickup = None
        self.history.append((seat, action))
        self.end_hand(ending, seat)

    def showdown(self, players: Iterable[int] | None = None) -> tuple[list, dict]:
        """Everyone in the hand shows: ``(deadwood by seat, None if not shown; {seat: cards})``."""
        deadwood: list = [None] * self.n_seats
        shown = {}
        for p in (self.hand_players if players is None else players):
            deadwood[p] = self._deadwood(p)
            shown[p] = tuple(self.hands[p])
        return deadwood, shown

    def add_seat(self, score: int) -> int:
        """A newcomer takes the next chair (after the highest seat), out of the current hand, at
        ``score`` (logged as a "join"); returns the seat. The caller takes the stake with the ledger."""
        self.hands.append([])
        seat = self.ledger.add_seat()
        self.scores.append(0)
        self.in_game.append(True)
        self.in_hand.append(False)
        self.set_score(seat, score, "join")
        return seat

    def continue_or_end(self) -> None:
        """After eliminations: with two or more players still in, the next dealer deals; with one,
        that player wins ("last_player"); with none, the lowest score of the last hand wins
        ("lowest_score", ties split) — through the game's :meth:`end_game`."""
        still = self.players_in
        if len(still) >= 2:
            self.phase = "between_hands"
        elif len(still) == 1:
            self.end_game((still[0],), "last_player")
        else:
            self.end_game(tuple(self.lowest_seats()), "lowest_score")

    def end_game(self, winners: tuple[int, ...], how: str) -> None:
        """End the game with ``winners`` (a game sets its ``result`` here; default: pay the pot out)."""
        self.finish(winners, how)

    def finish(self, winners: Iterable[int], how: str = "lowest_score") -> tuple[tuple[int, ...], list[int]]:
        """The game is over: the pot goes to ``winners`` (the odd unit from the dealer's left);
        returns ``(winners in that order, payouts)``; the game's ``result`` is set by the caller."""
        winners = tuple(self.from_left_of(self.dealer, winners))
        payouts = self.ledger.pay_out(winners)
        self.phase = "game_over"
        self.turn = None
        return winners, payouts

    # ----------------------------------------------------------------- set positions (examples, tests, puzzles)

    def set_position(self, *, hands: dict | None = None, discard: str | Iterable | None = None,
                     stock_top: str | Iterable | None = None,
                     scores: dict | None = None) -> None:
        """Arrange a position at the start of a turn, keeping every card in exactly one place.

        ``hands`` maps seats to their cards, ``discard`` is the whole discard pile
        (bottom to top), ``stock_top`` the next cards of the stock (first drawn
        first), ``scores`` maps seats to cumulative scores. Cards are taken from
        wherever they are; displaced cards go back where there is room, so the
        pack stays whole. A game so arranged cannot be recorded (its deal did not
        come from the seed).
        """
        why = self.position_refusal(discard)
        if why is not None:
            raise IllegalActionError(why)
        size = self.hand_size
        hands = {p: list(parse_hand(h)) for p, h in (hands or {}).items()}
        for p, h in hands.items():
            if not (isinstance(p, int) and 0 <= p < self.n_seats and self.in_hand[p]):
                raise IllegalActionError(f"seat {p!r} is not in this hand: the seats in it are {list(self.hand_players)}.")
            if len(h) != size:
                raise IllegalActionError(f"seat {p} must hold {size} cards at the start of a turn; {format_hand(h)} "
                                         f"is {len(h)}.")
        pile = None if discard is None else list(parse_hand(discard))
        if pile is not None and not pile:
            raise IllegalActionError("the discard pile needs at least one card.")
        top = [] if stock_top is None else list(parse_hand(stock_top))
        required = Counter(c for h in hands.values() for c in h) + Counter(pile or []) + Counter(top)
        pack = Counter(self.PACK.cards())
        for c, k in required.items():
            if k > pack[c]:
                raise InvalidCardError(f"the position uses {k} copies of {format_card(c)}; the pack has {pack[c]}.")
        for p, v in (scores or {}).items():
            if not (isinstance(p, int) and 0 <= p < self.n_seats) or isinstance(v, bool) or not isinstance(v, int):
                raise IllegalActionError(f"scores must map seats to integers; got {p!r}: {v!r}.")
            self.check_score(p, v)
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
                pile = [next(c for c, k in spare.items() if k > 0)]
                spare[pile[0]] -= 1
        rest = []
        for c in self.stock:
            if spare[c] > 0:
                spare[c] -= 1
                rest.append(c)
        rest = list(spare.elements()) + rest  # cards freed from elsewhere go to the bottom
        for p in range(self.n_seats):
            while len(new_hands[p]) < (size if self.in_hand[p] else 0):
                new_hands[p].append(rest.pop())
        self.hands = [new_hands[p] for p in range(self.n_seats)]
        self.discard = pile
        self.stock = rest + top[::-1]
        for p, v in (scores or {}).items():
            self.set_score(p, v)
        self._dw.clear()
        self.pickup = None
        self.forget_taken()
        self.rigged = True
        self.after_set_position()

    def position_refusal(self, discard: str | Iterable | None) -> str | None:
        """Why a position may not be set now, or None (default: only at the start of a turn)."""
        if self.phase != "turn":
            return f"a position can be set only at the start of a turn; the phase is {self.phase!r}."
        return None

    def set_score(self, seat: int, value: int, kind: str = "set", *details) -> None:
        """Set ``seat``'s score outside a hand's scoring (a rebuy, a buy-back, a newcomer, a set
        position) and log it, so the invariants can re-add every score from the log."""
        self.scores[seat] = value
        self._score_log.append((kind, seat, value, *details))

    def after_set_position(self) -> None:
        """Forget what the game cached about the hands."""

    # ----------------------------------------------------------------- conservation

    def cards_outside_hands(self) -> tuple:
        return (self.stock, self.discard, self.table_cards())

    def hidden_places(self, seat: int) -> list[list[int]]:
        """What ``seat`` cannot see: the other players' hands and the stock (the discard pile, the
        melds on the table and every count are open)."""
        return [hand for s, hand in enumerate(self.hands) if s != seat] + [self.stock]

    # ----------------------------------------------------------------- cards everyone saw taken

    def forget_taken(self) -> None:
        """A new hand (or a position set by hand): nobody has taken a face-up card yet, nor played openly."""
        self.taken = [[] for _ in range(self.n_seats)]
        self.open_log = []
        self._taken_hand = self.hand_number

    def _taken_now(self) -> list[list[int]]:
        if self._taken_hand != self.hand_number:  # every deal starts afresh, whoever deals it
            self.forget_taken()
        return self.taken

    def saw(self, seat: int, what: str, card: int | None) -> None:
        """Everyone saw ``seat`` do ``what`` with ``card`` (:meth:`open_play`)."""
        self._taken_now()
        self.open_log.append((seat, what, card))

    def open_play(self) -> tuple[tuple[int, str, int | None], ...]:
        """The hand's open play so far, as everyone at the table saw it, oldest first: ``(seat, "take", card)``
        (the top discard taken), ``(seat, "stock", top)`` (a draw from the stock, leaving ``top`` on the pile;
        None: no pile), ``(seat, "pass", card)`` (an offered card passed, Gin's upcard), ``(seat, "discard",
        card)``. What a player remembers of the others' play, and what a search may weigh its worlds by; it
        never holds a hidden card.

        >>> from rumino.variants.gin import GinGame, PASS
        >>> g = GinGame.new(seed=3, dealer=1)
        >>> up = g.discard[-1]
        >>> g.apply(PASS); g.apply(PASS); g.apply(g.legal_actions()[0])
        >>> g.open_play()[:3] == ((0, "pass", up), (1, "pass", up), (0, "stock", up))
        True
        """
        self._taken_now()
        return tuple(self.open_log)

    def took_face_up(self, seat: int, cards: Iterable[int]) -> None:
        """``seat`` took ``cards`` in full view (the discard pile, a claim, a joker from the table)."""
        self._taken_now()[seat].extend(cards)

    def let_go(self, seat: int, cards: Iterable[int]) -> None:
        """``seat`` let ``cards`` go in full view (a discard, a meld laid): a card of them that it had taken
        face up is no longer known to be in its hand (one copy a card: a two-deck pack has twins)."""
        held = self._taken_now()[seat]
        for c in cards:
            if c in held:
                held.remove(c)

    def known_held(self, seat: int) -> dict[int, list[int]]:
        """The cards ``seat`` knows to be in each other hand: those it saw taken face up and not let go
        since. Only open play goes into it (every card taken face up and every card let go is seen by
        all), so it never reads a hidden card.

        >>> from rumino.variants.gin import GinGame
        >>> from rumino.engine.actions import Draw
        >>> g = GinGame.new(seed=3)
        >>> top = g.discard[-1]
        >>> g.apply(next(a for a in g.legal_actions() if getattr(a, "source", "") == "discard"))
        >>> g.known_held(1 - g.turn)[g.turn] == [top]
        True
        """
        taken = self._taken_now()
        return {s: list(taken[s]) for s in range(self.n_seats) if s != seat and taken[s]}

    def sample_world(self, seat: int, rng: np.random.Generator) -> Self:
        """A world for ``seat``'s search (:meth:`TurnGame.sample_world`) in which the cards ``seat`` saw
        another player take face up and keep (:meth:`known_held`) stay in that player's hand; every
        other hidden card is dealt again at random among the places it could be.

        >>> from rumino.variants.gin import GinGame
        >>> g = GinGame.new(seed=3)
        >>> top = g.discard[-1]
        >>> g.apply(next(a for a in g.legal_actions() if getattr(a, "source", "") == "discard"))
        >>> me, other = 1 - g.turn, g.turn
        >>> all(top in g.sample_world(me, np.random.default_rng(i)).hands[other] for i in range(20))
        True
        """
        known = self.known_held(seat)
        if not known:
            return super().sample_world(seat, rng)
        world = self.fork(rng)
        places = world.hidden_places(seat)
        fixed = [next((known.get(s, []) for s in range(self.n_seats) if place is world.hands[s]), [])
                 for place in places]
        spare = Counter(c for place in places for c in place)
        spare.subtract(Counter(c for cards in fixed for c in cards))
        if min(spare.values(), default=0) < 0:  # a known card not in its hand: the engine lost track of it
            raise AssertionError(f"cards known to be held are not where the game has them: {fixed}")
        pool = sorted(spare.elements())  # sorted before the shuffle: the world never depends on where they lie
        order = rng.permutation(len(pool))
        at = 0
        for place, keep in zip(places, fixed):
            free = len(place) - len(keep)
            place[:] = list(keep) + [pool[i] for i in order[at:at + free]]
            at += free
        world.after_hidden_dealt()
        return world

    def after_hidden_dealt(self) -> None:
        self._dw.clear()  # deadwood by seat, read from the hands just dealt again

    def position_snapshot(self) -> tuple:
        return tuple(self.stock), tuple(self.discard), tuple(self.scores), self.pickup

    def check_position(self, deep: bool) -> None:
        """Hand sizes fit the phase, the player to act is in the hand, and every score is the sum of
        the logged hand results and score changes (each checked by :meth:`check_result` and
        :meth:`check_score_event`); eliminations follow ``elimination_at``; the pot went evenly."""
        phase = self.phase
        if len(self.scores) != self.n_seats:
            raise AssertionError("seats out of step between hands, scores and the ledger")
        for p in range(self.n_seats):
            size = len(self.hands[p])
            if not self.in_hand[p]:
                if size:
                    raise AssertionError(f"seat {p} is not in the hand but holds {size} cards")
                continue
            if size != self.expected_hand_size(p):
                raise AssertionError(f"seat {p} holds {size} cards in phase {phase}")
        if phase == "turn" and not self.discard and self.upcards:
            raise AssertionError("the discard pile is empty at the start of a turn")
        if phase in ("turn", "discard") and not self.in_hand[self.turn]:
            raise AssertionError(f"seat {self.turn} acts but is not in the hand")
        if phase == "discard" and self.pickup is not None and self.pickup not in self.hands[self.turn] \
                and self.pickup not in self.table_cards():  # (a game with melds on the table may lay it there)
            raise AssertionError("the picked-up card left the hand before the discard")
        # scores: replay the log from zero (incrementally: each event is checked once)
        done, scores, counts = self._inv_replay
        if len(scores) < self.n_seats or done < len(self._score_log):  # copy only when there is news
            scores = scores + [0] * (self.n_seats - len(scores))
            counts = Counter(counts)
        for ev in self._score_log[done:]:
            counts[ev[0]] += 1
            if ev[0] == "hand":
                r = self.results[ev[1]]
                for p in r.players:
                    expect(r.scores[p] == scores[p] + r.deltas[p],
                           f"hand {r.number}: seat {p}'s score after the hand is wrong")
                if self._elim is not None:
                    expect(set(r.busted) == {p for p in r.players if r.scores[p] >= self._elim},
                           f"hand {r.number}: the busted players are wrong")
                self.check_result(r, scores, deep)
                for p in r.players:
                    scores[p] += r.deltas[p]
            else:
                self.check_score_event(ev, scores)
                scores[ev[1]] = ev[2]
        self._inv_replay = (len(self._score_log), scores, counts)
        if scores != self.scores:
            raise AssertionError(f"scores {self.scores} are not the sum of the hand results {scores}")
        if self._elim is not None:
            for p in range(self.n_seats):
                expect(self.in_game[p] == (self.scores[p] < self._elim),
                       f"seat {p} is {'in' if self.in_game[p] else 'out'} at {self.scores[p]} points")
        if self.phase == "game_over":  # the pot went evenly to the winners (the odd units excepted)
            shares = [a for src, _, a, why in self.ledger.log if src == "pot" and why == "pot"]
            expect(self.ledger.pot == 0 and shares and max(shares) - min(shares) <= 1,
                   f"the pot was not paid out evenly to the winners: {shares}")


__all__ = ["DrawDiscardGame", "TableView", "HandResult", "check_seed", "card_text", "expect"]
