"""The turn game every game stands on (see DESIGN "Adding a game").

:class:`TurnGame` owns what a game of any kind shares: the seats, the seeded
rng, :meth:`~TurnGame.new` and :meth:`~TurnGame.next_game`, the checked
``apply`` (refusals name the player, the phase, the reason and the rules
section, and leave the state unchanged) with its unchecked fast path, actions
dispatched by their class and legal actions listed by phase, the player views
and their stale-view guard, snapshots, and the invariants (every card in one
place, the ledger balanced). A kind of game subclasses it — the
draw-and-discard template :class:`~rumino.engine.drawdiscard.DrawDiscardGame`,
Rummoli's poker-then-stops game — and a game subclasses its kind.

Class attributes
----------------
``NAME``, ``ACTIONS``, ``RULES_CLASS``, ``PACK``, ``MIN_PLAYERS``, ``MAX_SEATS``,
``VIEW``, ``SECTIONS`` (rules sections cited by refusals: ``deal``, ``turn``,
``end``; optional ``actions`` for an action of another game), ``LEDGER``;
``HANDLERS`` (action class → method name applying it), ``PHASE_ACTIONS`` (phase →
action classes allowed), ``PHASE_LEGAL`` (phase → method name listing the legal
actions; other phases ask :meth:`~TurnGame.phase_actions`), ``PHASE_WHAT``,
``PHASE_CHOICES`` and ``PHASE_RULE`` (what the refusals say). A kind of game adds
its own phases to these tables in its ``_BASE_*`` class attributes; a game's tables
are merged over its kind's when the class is made. ``KNOBS`` lists the rules
fields the engine reads, with the value a game plays when its rules class has no
such field; a field spelt nearly like a knob is refused when the game class is
made (a misspelt knob would silently take the stand-in).

Hooks of a kind of game: :meth:`~TurnGame.create_state` (its state, before the
game's :meth:`~TurnGame.setup`), :meth:`~TurnGame.check_move` (its checks after the
phase table), :meth:`~TurnGame.public_fields` (its view fields),
:meth:`~TurnGame.cards_outside_hands`, :meth:`~TurnGame.position_snapshot` and
:meth:`~TurnGame.check_position` (its invariants). Hooks of a game:
:meth:`~TurnGame.setup`, :meth:`~TurnGame.choose_first_dealer`,
:meth:`~TurnGame.deal`, :meth:`~TurnGame.actor`, :meth:`~TurnGame.check_action`,
:meth:`~TurnGame.view_fields`, :meth:`~TurnGame.snapshot_extra`,
:meth:`~TurnGame.check_game_invariants`.

A minimal game: one card each, the highest card wins the ante.

>>> from dataclasses import dataclass
>>> from rumino.cards import STANDARD_PACK
>>> from rumino.engine.actions import DEAL, Deal
>>> @dataclass(frozen=True)
... class HighRules:
...     ante: int = 1
>>> class HighCard(TurnGame):
...     NAME, RULES_CLASS, PACK, ACTIONS = "High card", HighRules, STANDARD_PACK, ActionSet("High card", (Deal,))
...     HANDLERS, PHASE_ACTIONS, PHASE_LEGAL = {Deal: "_do_deal"}, {"deal": (Deal,)}, {"deal": "_deal_actions"}
...     def cards_outside_hands(self):
...         return (self.stock,)
...     def deal(self):
...         self.stock = self.rng.permutation(self._pack_array).tolist()
...         self.in_hand = [True] * self.n_seats
...         self.phase, self.turn = "deal", self.dealer
...     def _deal_actions(self):
...         return [DEAL]
...     def _do_deal(self, action):
...         self.history.append((self.turn, action))
...         for p in range(self.n_seats):
...             self.ledger.pay_in(p, self.rules.ante, "ante")
...             self.hands[p].append(self.stock.pop())
...         best = max(range(self.n_seats), key=lambda p: (self.hands[p][0] % 13 or 13, self.hands[p][0]))
...         self.ledger.pay_out((best,))
...         self.phase, self.turn = "game_over", None
>>> g = HighCard.new(n_players=3, seed=2)
>>> g.legal_actions(), g.to_act == g.dealer
([Deal()], True)
>>> g.apply(DEAL); g.check_invariants()
>>> g.game_over, sorted(g.received), g.legal_actions()
(True, [0, 0, 3], [])
"""

from __future__ import annotations

import copy
import dataclasses
import difflib
from collections import Counter
from itertools import chain
from typing import Any, ClassVar, Iterable, Self, Sequence

import numpy as np

from rumino.cards import Pack, format_card
from rumino.engine.ledger import POT, Ledger
from rumino.engine.protocol import TABLE, Action, ActionSet, PlayerView, choices_words, refuse
from rumino.engine.table import draw_for_dealer, from_left_of, next_in
from rumino.errors import IllegalActionError, RuleConfigError


class _StaleGuard:
    """A view's lazy ``legal_actions``: the game's list, as long as the game has not moved on."""

    __slots__ = ("game", "moves")

    def __init__(self, game, moves: int):
        self.game, self.moves = game, moves

    def __call__(self) -> list:
        self._check()
        return self.game.legal_actions()

    @property
    def game_type(self) -> type:
        """The kind of game the view is of (its class: no card in it)."""
        return type(self.game)

    def world(self, seat: int, rng: np.random.Generator):
        """The view's :meth:`~rumino.engine.PlayerView.sample_world`: a world for ``seat``, drawn from ``rng``."""
        self._check()
        return self.game.sample_world(seat, rng)

    def _check(self) -> None:
        if len(self.game.history) != self.moves:
            raise IllegalActionError("this view is out of date: the game has moved on since it was made; "
                                     "ask the game for a new view.")


def _fork_value(value: Any) -> Any:
    """A copy of a piece of game state deep enough that playing the copy never touches the original:
    lists, dicts and sets are copied all the way down; tuples, frozen results, numbers and strings
    are immutable and shared."""
    kind = value.__class__
    if kind is list:
        if not value or value[0].__class__ in _FLAT:  # a list of cards, seats or actions (the hot case)
            return value.copy()
        return [_fork_value(v) for v in value]
    if kind is dict:
        return {k: _fork_value(v) for k, v in value.items()}
    if kind is set:
        return set(value)
    if isinstance(value, Ledger):
        return value.copy()
    if isinstance(value, Counter):
        return Counter(value)
    return value


_FLAT = frozenset({int, bool, str, tuple, type(None)})  # immutable elements: a list of them copies shallowly


class _FirstChoice:
    """A chooser that takes the first legal action (for examples)."""

    def choose(self, view):
        return view.legal_actions[0]


def check_seed(seed: object) -> None:
    """Refuse a seed ``numpy.random.default_rng`` would take but a record could not hold.

    >>> check_seed([1, 2]); check_seed(-1)
    Traceback (most recent call last):
    ...
    rumino.errors.RuleConfigError: seed is -1: it must be a non-negative integer or a list of them.
    """
    ok = (isinstance(seed, int) and not isinstance(seed, bool) and seed >= 0) or (
        isinstance(seed, (list, tuple)) and seed and all(isinstance(s, int) and not isinstance(s, bool) and s >= 0
                                                         for s in seed))
    if not ok:
        raise RuleConfigError(f"seed is {seed!r}: it must be a non-negative integer or a list of them.")


def card_text(card: object) -> str:
    """A card as people write it, or the bad value as it is (for refusals of bad input).

    >>> card_text(48), card_text("x")
    ('10h', "'x'")
    """
    try:
        return format_card(card)
    except Exception:  # noqa: BLE001 - any bad value is shown as it is
        return repr(card)


def expect(cond: bool, message: str) -> None:
    """Raise ``AssertionError(message)`` unless ``cond`` (for invariant checks)."""
    if not cond:
        raise AssertionError(message)


def rules_fields(rules_class: type) -> frozenset[str]:
    """The public names a rules class answers: its dataclass fields and properties (``meld_rules``)."""
    fields = {f.name for f in dataclasses.fields(rules_class)} if dataclasses.is_dataclass(rules_class) else set()
    return frozenset(fields | {n for n in dir(rules_class) if not n.startswith("_")})



def _quoted(action: Any) -> str:
    """An action as a refusal quotes it: its notation (``'gin 4h'``), never its Python form."""
    return f"'{action}'" if isinstance(action, Action) else repr(action)

class TurnGame:
    """The base of every game (see the module docstring for the tables and hooks)."""

    NAME: ClassVar[str] = "game"
    ACTIONS: ClassVar[ActionSet]
    RULES_CLASS: ClassVar[type] = object
    PACK: ClassVar[Pack]
    MIN_PLAYERS: ClassVar[int] = 2
    MAX_SEATS: ClassVar[int] = 6
    VIEW: ClassVar[type[PlayerView]] = PlayerView
    LEDGER: ClassVar[type[Ledger]] = Ledger
    SECTIONS: ClassVar[dict] = {"deal": "§0.1", "turn": "§0.1", "end": "§0.1"}
    ENDINGS: ClassVar[tuple] = ()  # how a hand can end (tallied by simulations)
    HANDLERS: ClassVar[dict] = {}
    PHASE_ACTIONS: ClassVar[dict] = {}
    PHASE_LEGAL: ClassVar[dict] = {}
    PHASE_WHAT: ClassVar[dict] = {}
    PHASE_CHOICES: ClassVar[dict] = {}
    PHASE_RULE: ClassVar[dict] = {}
    TABLE_ACTIONS: ClassVar[tuple] = ()  # action classes nobody's turn decides (a newcomer joining)
    IN_HAND_PHASES: ClassVar[tuple] = ()  # phases in which the hand is still being played
    KNOCK_GAME: ClassVar[bool] = False  # True: deadwood and a knock limit decide (the knock bots fit)
    POT_SCALE: ClassVar[int] = 1  # ledger units per unit shown to people (Rumino keeps cents: 100)
    OVER_REASON: ClassVar[str] = "the game is over"  # what a refusal after the end says
    notices: Sequence[tuple[int, str]] = ()  # what the game noted of an action unasked: (index in history, text)
    # True: a seat's score counts up towards winning (Gin's points, Rummoli's chips, Rommé's minus penalties);
    # False: a score is penalty points and the lowest wins (Rumino, Wiener). Tournaments compare hands by it.
    HIGHER_SCORE_WINS: ClassVar[bool] = True
    KNOBS: ClassVar[dict] = {}  # rules field the engine reads → the value played when the rules class lacks it
    HOOKS: ClassVar[frozenset] = frozenset({
        "create_state", "setup", "choose_first_dealer", "deal", "actor", "phase_actions", "check_move",
        "check_action", "table_actions", "check_table_action", "public_fields", "view_fields",
        "cards_outside_hands", "position_snapshot", "snapshot_extra", "check_position", "check_game_invariants",
        "hidden_places", "after_hidden_dealt", "sample_world", "next_dealer", "pot_paid_out"})
    """The methods a kind of game, or a game standing on this base, overrides, and no others (the module
    docstring says what each decides; tests/engine/test_hooks.py checks every registered game)."""
    TURN_ACTIONS: ClassVar[tuple] = ()  # action classes that begin a player's turn besides a draw (profiles count turns)
    PLAY_COST: ClassVar[int] = 1  # how many times a typical game costs what a knock game does (profiles play fewer)
    reshuffles: int = 0  # times the stock was made again from the pile this hand (a game with a stock counts them)

    # a kind of game extends these with its own phases (phase → SECTIONS key for _BASE_RULE_KEYS)
    _BASE_HANDLERS: ClassVar[dict] = {}
    _BASE_PHASES: ClassVar[dict] = {"game_over": ()}
    _BASE_LEGAL: ClassVar[dict] = {"game_over": "_no_actions"}
    _BASE_WHAT: ClassVar[dict] = {"game_over": "the game is over"}
    _BASE_CHOICES: ClassVar[dict] = {"game_over": "none"}
    _BASE_RULE_KEYS: ClassVar[dict] = {"game_over": "end"}

    def __init_subclass__(cls, **kw):
        super().__init_subclass__(**kw)
        handlers = {**cls._BASE_HANDLERS, **cls.HANDLERS}
        cls._dispatch = {k: getattr(cls, name) for k, name in handlers.items()}
        cls._legal = {ph: getattr(cls, name) for ph, name in {**cls._BASE_LEGAL, **cls.PHASE_LEGAL}.items()}
        cls._phase_actions = {**cls._BASE_PHASES, **cls.PHASE_ACTIONS}
        cls._phase_what = {**cls._BASE_WHAT, **cls.PHASE_WHAT}
        cls._phase_choices = {**cls._BASE_CHOICES, **cls.PHASE_CHOICES}
        sec = cls.SECTIONS
        cls._phase_rule = {**{ph: sec[key] for ph, key in cls._BASE_RULE_KEYS.items()}, **cls.PHASE_RULE}
        if hasattr(cls, "PACK"):
            cls._pack_array = np.array(cls.PACK.cards(), dtype=np.int64)
            cls._pack_counts = [cls.PACK.copies(c) for c in range(53)]
            # the same as a Counter, for check_invariants (Counter(chain(...)) counts in C); a game
            # whose pack changes per instance (Rommé's n_jokers) sets both on the instance
            cls._pack_counter = Counter({c: k for c, k in enumerate(cls._pack_counts) if k})
        names = rules_fields(cls.RULES_CLASS)
        for knob, stand_in in cls.KNOBS.items():
            near = [] if knob in names else difflib.get_close_matches(knob, names, n=1, cutoff=0.8)
            if near:
                raise RuleConfigError(f"{cls.__name__}: its rules class {cls.RULES_CLASS.__name__} has a field "
                                      f"{near[0]!r} but the engine reads {knob!r}; spelt so, the game would play "
                                      f"the stand-in {stand_in!r}.")
        cls._knob_fields = frozenset(k for k in cls.KNOBS if k in names)

    # ----------------------------------------------------------------- construction

    def __init__(self, rules: Any, n_players: int, rng: np.random.Generator, *,
                 seed: int | Sequence[int] | None = None, dealer: int | None = None) -> None:
        if not isinstance(rules, self.RULES_CLASS):
            raise RuleConfigError(f"rules must be a {self.RULES_CLASS.__name__}; got {type(rules).__name__}.")
        lo, hi = self.MIN_PLAYERS, self.MAX_SEATS
        if isinstance(n_players, bool) or not isinstance(n_players, int) or not lo <= n_players <= hi:
            raise RuleConfigError(f"n_players is {n_players!r}: {self.NAME} is for {lo} to {hi} players "
                                  f"(rules {self.SECTIONS['deal']}).")
        if dealer is not None and (isinstance(dealer, bool) or not isinstance(dealer, int)
                                   or not 0 <= dealer < n_players):
            raise RuleConfigError(f"dealer is {dealer!r}: it must be a seat from 0 to {n_players - 1}.")
        self.rules: Any = rules  # (isinstance above would narrow it to the RULES_CLASS: object)
        self.rng = rng
        self.seed = seed
        self.initial_rng_state = rng.bit_generator.state
        self.initial_dealer = dealer
        self.initial_players = n_players
        n = n_players
        self.hands: list[list[int]] = [[] for _ in range(n)]
        self.in_game = [True] * n
        self.in_hand = [False] * n
        self.ledger = self.LEDGER(n)
        self.phase = "deal"
        self.turn: int | None = None
        self.hand_number = 0
        self.hand_players: tuple[int, ...] = ()
        self.results: list = []
        self.result: Any = None  # the game's result once it is over (each game has its own class)
        self.history: list[tuple[int, Action]] = []
        self.first_dealer_draws: tuple = ()
        self.rigged = False  # True once cards were arranged by hand (such a game cannot be recorded)
        self.create_state()
        self.setup()
        if dealer is None:
            dealer = self.choose_first_dealer()
        self.dealer = dealer
        self.deal()

    @classmethod
    def new(cls, rules: Any = None, n_players: int | None = None, *, seed: int | Sequence[int] | None = None,
            rng: np.random.Generator | None = None, dealer: int | None = None) -> Self:
        """A new game from ``rules`` (None: the game's defaults) and ``seed`` (an int or a list of
        ints, for ``numpy.random.default_rng``; it goes into records) or an ``rng``."""
        if rng is not None and seed is not None:
            raise RuleConfigError("give a seed or an rng, not both.")
        if rng is None:
            if seed is not None:
                check_seed(seed)
            rng = np.random.default_rng(seed)
        elif not isinstance(rng, np.random.Generator):
            raise RuleConfigError(f"rng must be a numpy.random.Generator; got {type(rng).__name__}.")
        if rules is None:
            rules = cls.RULES_CLASS()
        if n_players is None:
            n_players = max(cls.MIN_PLAYERS, min(4, cls.MAX_SEATS))
        return cls(rules, n_players, rng, seed=seed, dealer=dealer)

    def next_game(self, *, seed: int | Sequence[int] | None = None,
                  rng: np.random.Generator | None = None) -> Self:
        """The next game at this table: everyone starts again and the winner deals."""
        if self.result is None:
            raise IllegalActionError("the game is not over: the next game starts once this one has a winner.")
        return type(self).new(self.rules, self.n_seats, seed=seed, rng=rng, dealer=self.result.next_dealer)

    def knob(self, name: str) -> Any:
        """The rules' value of a knob the engine reads (:attr:`KNOBS`), or its stand-in when the
        game's rules class has no such field; a name not declared in ``KNOBS`` is a ``KeyError``."""
        return getattr(self.rules, name) if name in self._knob_fields else self.KNOBS[name]

    # ----------------------------------------------------------------- hooks

    def create_state(self) -> None:
        """The state of the kind of game (a stock, a pile, scores), made before :meth:`setup`."""

    def setup(self) -> None:
        """Create the game's own state (called before the first dealer is chosen)."""

    def choose_first_dealer(self) -> int:
        """High card deals; the draws are kept in ``first_dealer_draws``."""
        dealer, self.first_dealer_draws = draw_for_dealer(self.rng, self._pack_array, range(self.n_seats))
        return dealer

    def deal(self) -> None:  # pragma: no cover - abstract
        """Deal a hand and set the first phase."""
        raise NotImplementedError

    def actor(self, phase: str) -> int | None:
        """Who decides in ``phase`` (default: the seat whose turn it is)."""
        return self.turn

    def phase_actions(self, phase: str) -> list:
        """The legal actions in a phase :attr:`PHASE_LEGAL` does not list."""
        raise NotImplementedError(f"{type(self).__name__} must list the actions of phase {phase!r}.")

    def check_move(self, action: Action, actor: int | None, phase: str) -> None:
        """The kind of game's checks once the phase allows the action's class (default: the game's)."""
        self.check_action(action, actor, phase)

    def check_action(self, action: Action, actor: int | None, phase: str) -> None:
        """Refuse a game action the phase allows but the position does not (raise :func:`refuse`)."""

    def table_actions(self) -> list:
        """Actions the table may take now, whoever is to act (default none)."""
        return []

    def check_table_action(self, action: Action) -> None:
        raise refuse(action, player=TABLE, phase=self.phase, reason="no table action is possible now",
                     rule=self.SECTIONS["deal"])

    def public_fields(self, seat: int) -> dict:
        """The view fields of the kind of game (what every player sees, and ``seat``'s own)."""
        return {}

    def view_fields(self, seat: int) -> dict:
        """The game's own extra view fields."""
        return {}

    def cards_outside_hands(self) -> tuple:
        """Where the cards not in hands are (lists of cards: stock, pile, table, widow …)."""
        return ()

    def position_snapshot(self) -> tuple:
        """The kind of game's state, for equality of snapshots."""
        return ()

    def snapshot_extra(self) -> tuple:
        """The game's own state, for equality of snapshots."""
        return ()

    def check_position(self, deep: bool) -> None:
        """The kind of game's invariants (hand sizes, scores re-added …)."""

    def check_game_invariants(self, deep: bool) -> None:
        """The game's own invariants (money rules, who is in)."""

    # ----------------------------------------------------------------- queries

    @property
    def n_seats(self) -> int:
        return len(self.hands)

    @property
    def to_act(self) -> int | None:
        """The seat that must decide now (None when the game is over)."""
        ph = self.phase
        return None if ph == "game_over" else self.actor(ph)

    @property
    def next_dealer(self) -> int:
        """The deal passes left to the next player still in."""
        return next_in(self.dealer, self.in_game)

    @property
    def hand_over(self) -> bool:
        return self.phase not in self.IN_HAND_PHASES

    @property
    def game_over(self) -> bool:
        return self.phase == "game_over"

    @property
    def players_in(self) -> list[int]:
        return [p for p in range(self.n_seats) if self.in_game[p]]

    @property
    def paid(self) -> list[int]:
        return self.ledger.paid

    @property
    def received(self) -> list[int]:
        return self.ledger.received

    @property
    def pool(self) -> int:
        return self.ledger.pot

    def net_chips(self) -> tuple[int, ...]:
        """What each seat received, less what it paid in, in the ledger's unit (cents in Rumino): its
        result's ``returns`` in a game played for a pot."""
        return tuple(got - paid for got, paid in zip(self.ledger.received, self.ledger.paid))

    @property
    def pot_paid_out(self) -> int:
        """What the winners took from the pot at the end (0 before the end), in ledger units."""
        return sum(a for src, _, a, why in self.ledger.log if src == POT and why == "pot")

    def score_events(self, *kinds: str) -> int:
        """How many logged score changes of these kinds happened (e.g. "rebuy", "join"); none by default."""
        return 0

    def from_left_of(self, seat: int, seats: Iterable[int]) -> list[int]:
        """``seats`` in playing order starting at ``seat``'s left (``seat`` itself last)."""
        return from_left_of(seat, seats, self.n_seats)

    def legal_actions(self) -> list[Action]:
        """Every action the player to act may take now, in a fixed order."""
        lister = self._legal.get(self.phase)
        return lister(self) if lister is not None else self.phase_actions(self.phase)

    def _no_actions(self) -> list:
        return []

    # ----------------------------------------------------------------- views

    def view(self, seat: int) -> PlayerView:
        """What ``seat`` can see now (a :attr:`VIEW`)."""
        if seat.__class__ is not int or not 0 <= seat < len(self.hands):  # (a bool is not a seat)
            if not (isinstance(seat, int) and not isinstance(seat, bool) and 0 <= seat < self.n_seats):
                raise IllegalActionError(f"seat {seat!r} is not at this table: seats are 0 to {self.n_seats - 1}.")
        return self.VIEW(seat=seat, phase=self.phase, to_act=self.to_act, hand=tuple(self.hands[seat]),
                         _legal=_StaleGuard(self, len(self.history)), **self.public_fields(seat),
                         **self.view_fields(seat))

    # ----------------------------------------------------------------- applying actions

    def apply(self, action: Action) -> None:
        """Apply ``action`` for the player to act (or the table) after checking it.

        An illegal action raises :class:`IllegalActionError` naming the player,
        the phase, the action, the reason and the rules section; the state is unchanged.
        """
        self.check(action)
        self.apply_unchecked(action)

    def apply_unchecked(self, action: Action) -> None:
        """Apply an action known to be legal, without checking (the fast path for simulations)."""
        self._dispatch[type(action)](self, action)

    def check(self, action: Action) -> None:
        """Raise :class:`IllegalActionError` (player, phase, action, reason, rules section) if
        ``action`` is not legal now; otherwise return ``None``. Never changes the state."""
        ph = self.phase
        actor = self.to_act
        kind = type(action)
        if not isinstance(action, Action) or kind not in self.ACTIONS.classes or kind not in self._dispatch:
            raise refuse(action, player=actor, phase=ph, rule=self.SECTIONS.get("actions", self.SECTIONS["turn"]),
                         reason=f"{_quoted(action)} is not a{'n' if self.NAME[0] in 'AEIOU' else ''} {self.NAME} "
                                f"action (its actions are {', '.join(self.ACTIONS.words)})")
        if kind in self.TABLE_ACTIONS:
            self.check_table_action(action)
            return
        if ph == "game_over":
            raise refuse(action, player=None, phase=ph, rule=self.SECTIONS["end"], reason=self.OVER_REASON)
        if kind not in self._phase_actions[ph]:
            legal = self.legal_actions()  # the choices listed are the moves legal now (no knock above the limit)
            choices = choices_words(legal) if legal else self._phase_choices[ph]
            err = refuse(action, player=actor, phase=ph, rule=self._phase_rule[ph],
                         reason=f"{self._phase_what[ph].format(p=actor)}: the choices are {choices}")
            err.legal_now = tuple(legal)  # a screen may say them in its own words
            raise err
        self.check_move(action, actor, ph)

    # ----------------------------------------------------------------- worlds for search

    SHARED_STATE: ClassVar[frozenset] = frozenset({"rules", "_ev", "rng", "initial_rng_state"})
    """State a fork shares with its original: immutable rules and the evaluator's pure caches."""

    def fork(self, rng: np.random.Generator) -> Self:
        """An independent copy of this game that draws its future shuffles from ``rng``: playing the
        copy never changes this game (a search plays its candidate moves on forks).

        >>> from rumino.variants.gin import GinGame
        >>> g = GinGame.new(seed=3)
        >>> twin = g.fork(np.random.default_rng(0))
        >>> twin.apply(twin.legal_actions()[0])
        >>> len(twin.history) == len(g.history) + 1, twin.snapshot() != g.snapshot()
        (True, True)
        """
        twin = copy.copy(self)
        shared = self.SHARED_STATE
        for name, value in vars(self).items():
            if name not in shared:
                setattr(twin, name, _fork_value(value))
        twin.rng = rng
        twin.rigged = True  # a world is not a dealt game: it cannot be recorded
        return twin

    def hidden_places(self, seat: int) -> list[list[int]]:
        """The containers of the cards ``seat`` cannot see (other hands, the stock …), as this game's own
        lists; a kind of game that supports search overrides it (:meth:`sample_world`)."""
        raise NotImplementedError(f"{self.NAME} does not say which cards a player cannot see, "
                                  f"so no world can be sampled for a search.")

    def after_hidden_dealt(self) -> None:
        """Clear caches that read the hidden cards (called on a world after :meth:`sample_world` deals them)."""

    def sample_world(self, seat: int, rng: np.random.Generator) -> Self:
        """A world for ``seat``'s search (a *determinization*): a fork in which every card ``seat``
        cannot see is dealt again at random among the places it could be, each keeping its size.

        The world depends only on what ``seat`` sees and on ``rng``: the hidden cards are pooled and
        sorted before they are shuffled, so two games that differ only in where the hidden cards lie
        give the same world for the same ``rng`` (a search can never read a hidden card through it).

        >>> from rumino.variants.gin import GinGame
        >>> g = GinGame.new(seed=3)
        >>> w = g.sample_world(0, np.random.default_rng(1))
        >>> w.hands[0] == g.hands[0], w.discard == g.discard, len(w.stock) == len(g.stock)
        (True, True, True)
        """
        world = self.fork(rng)
        places = world.hidden_places(seat)
        pool = sorted(c for place in places for c in place)
        order = rng.permutation(len(pool))
        at = 0
        for place in places:
            size = len(place)
            place[:] = [pool[i] for i in order[at:at + size]]
            at += size
        world.after_hidden_dealt()
        return world

    # ----------------------------------------------------------------- conservation

    def snapshot(self) -> tuple:
        """Everything that defines the state, as nested tuples (equal snapshots, equal states)."""
        return (self.phase, self.turn, self.dealer, tuple(map(tuple, self.hands)), tuple(self.in_game),
                tuple(self.in_hand), self.ledger.snapshot(), self.hand_number, len(self.results), self.result,
                len(self.history), repr(self.rng.bit_generator.state), self.position_snapshot(), self.snapshot_extra())

    def check_invariants(self, *, deep: bool = True) -> None:
        """Raise ``AssertionError`` (an engine bug, never a user error) unless every card of the pack
        is in exactly one place, the phase is known, the ledger balances, the seats agree, and the
        kind's (:meth:`check_position`) and the game's own invariants (:meth:`check_game_invariants`) hold.

        ``deep=False`` lets a game skip its slow checks (recomputing deadwood with the reference search).
        """
        counts = Counter(chain(*self.hands, *self.cards_outside_hands()))
        if not dict.__eq__(counts, self._pack_counter):  # dict's C equality (Counter's own is Python)
            bad = sorted({*counts, *self._pack_counter} - {c for c in counts if counts[c] == self._pack_counter[c]},
                         key=str)
            raise AssertionError(f"cards not conserved: {sum(counts.values())} cards; wrong counts for "
                                 f"{[format_card(c) if isinstance(c, int) and 0 <= c < 53 else repr(c) for c in bad]}")
        if self.phase not in self._phase_actions:
            raise AssertionError(f"unknown phase {self.phase!r}")
        self.ledger.check()
        if not self.n_seats == len(self.in_game) == len(self.in_hand) == len(self.ledger.paid):
            raise AssertionError("seats out of step between hands, the players in and the ledger")
        self.check_position(deep)
        self.check_game_invariants(deep)

    def __repr__(self) -> str:  # every game keeps ``scores``, one number a seat (Rummoli: the chips)
        return (f"<{type(self).__name__} {self.n_seats} seats, hand {self.hand_number}, phase {self.phase!r}, "
                f"to act {self.to_act}, scores {list(self.scores)}>")


__all__ = ["TurnGame", "check_seed", "card_text", "expect", "rules_fields"]
