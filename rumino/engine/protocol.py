"""The protocol every playable game follows: actions, action sets, player views, games, refusals.

A game is started from rules, a number of players and a seeded
``numpy.random.Generator``; one asks whose turn it is (``to_act``), which
actions are legal (``legal_actions()``), applies one (``apply`` checks it and
refuses an illegal one with the rule it breaks, leaving the state unchanged;
``apply_unchecked`` is the fast path for simulations that only ever pick legal
actions), and asks whether the hand or game is over and what everyone scored.

Actions are small frozen records printed in the book's notation. Each game has
its own :class:`ActionSet` (its words), so two games may both have a ``pass``
that mean different things; records are read back through the game's set:

>>> from rumino.engine.actions import Draw, Discard, Knock
>>> words = ActionSet("demo", (Draw, Discard, Knock))
>>> words.parse("discard 10h") == Discard(48), words.parse("DRAW  discard")
(True, Draw(source='discard'))
>>> words.parse("shuffle")
Traceback (most recent call last):
...
rumino.errors.IllegalActionError: 'shuffle' is not an action of demo: the actions are discard, draw, knock.

A refusal names the player, the phase, the action, the reason and the rule:

>>> print(refuse(Knock(), player=2, phase="turn", reason="player 2 has 12 deadwood, the limit is 7",
...              rule="§1.3"))
cannot knock: player 2 has 12 deadwood, the limit is 7 (player 2, the start of a turn; rules §1.3).
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any, Callable, ClassVar, Iterable, Protocol, Sequence, runtime_checkable

from rumino.cards import parse_card
from rumino.errors import IllegalActionError, InvalidCardError

TABLE = -1
"""The actor of a *table* action (a newcomer sitting down): nobody's turn, decided by the table."""


class Action:
    """Base of every action: a frozen dataclass with a ``word`` and a book notation."""

    __slots__ = ()
    word: ClassVar[str] = ""
    verb: ClassVar[str] = ""  # what a refusal says: "cannot <verb>"
    discards_card: ClassVar[bool] = False  # True: the action puts its ``card`` from the hand on the pile (§0.5)

    def notation(self) -> str:
        return self.word

    def __str__(self) -> str:
        return self.notation()

    def choice_text(self) -> str:
        """The move in a player's words, as a list of the choices names it (its ``verb``: ``knock``)."""
        return self.verb or self.word

    @classmethod
    def parse_args(cls, args: list[str]) -> "Action":
        if args:
            raise InvalidCardError(f"{cls.word!r} takes no argument; got {' '.join(args)!r}.")
        return cls()


def one_card(cls, args: list[str]) -> int:
    """The single card argument of an action such as ``discard 7h``."""
    if len(args) != 1:
        raise InvalidCardError(f"{cls.word!r} takes one card, such as '{cls.word} 7h'.")
    return parse_card(args[0])


class ActionSet:
    """The actions of one game, by word: parses records and human input for that game only.

    Two classes with the same word in one set is a programming error (``ValueError``).
    """

    def __init__(self, game: str, classes: Iterable[type[Action]]):
        self.game = game
        self.by_word: dict[str, type[Action]] = {}
        for cls in classes:
            key = cls.word.lower()
            if key in self.by_word and self.by_word[key] is not cls:
                raise ValueError(f"two {game} actions use the word {cls.word!r}.")
            self.by_word[key] = cls
        self.classes = frozenset(self.by_word.values())

    @property
    def words(self) -> tuple[str, ...]:
        return tuple(sorted(self.by_word))

    def __contains__(self, action) -> bool:
        return type(action) in self.classes

    def parse(self, text: str) -> Action:
        """Read an action back from its notation; nothing in the text is evaluated.

        Raises :class:`IllegalActionError` naming the text and the words this game knows.
        """
        if not isinstance(text, str):
            raise IllegalActionError(f"{text!r} is not an action: an action is text such as 'draw stock'.")
        parts = text.strip().split()
        if not parts:
            raise IllegalActionError("an empty text is not an action.")
        cls = self.by_word.get(parts[0].lower())
        if cls is None:
            raise IllegalActionError(
                f"{text.strip()!r} is not an action of {self.game}: the actions are {', '.join(self.words)}.")
        try:
            return cls.parse_args(parts[1:])
        except InvalidCardError as err:
            raise IllegalActionError(f"{text.strip()!r} is not an action: {err}") from None

    def __repr__(self) -> str:
        return f"ActionSet({self.game!r}, {', '.join(self.words)})"


PHASE_WORDS = {
    "deal": "the deal", "turn": "the start of a turn", "discard": "after the draw", "offer": "the upcard offered",
    "wall": "the last cards of the stock", "claim": "the discard may be claimed", "rebuy": "rebuying",
    "buyback": "buying back", "between_hands": "between hands", "between_deals": "between deals",
    "game_over": "the game is over", "widow": "the widow", "auction": "the widow's auction",
    "betting": "the poker round", "stops": "the stops", "arranged": "a position set up",
}
"""What a game's phase is called on a screen (a table's headline, the prompt): never the engine's name."""


def phase_words(phase: str) -> str:
    """The phase in a player's words.

    >>> phase_words("turn"), phase_words("between_hands")
    ('the start of a turn', 'between hands')
    """
    return PHASE_WORDS.get(phase, phase.replace("_", " "))



def choices_words(actions: Iterable[Action]) -> str:
    """The kinds of move in ``actions`` in a player's words, each once, in their order: what a refusal
    lists as the choices legal now.

    >>> from rumino.engine.actions import Draw, Discard, KnockWith
    >>> choices_words([Discard(3), Discard(5), KnockWith(5)])
    'discard a card or knock'
    >>> choices_words([Draw("stock"), Draw("discard")]), choices_words([])
    ('draw from the stock or take the discard', 'none')
    """
    seen = list(dict.fromkeys(a.choice_text() for a in actions))
    if not seen:
        return "none"
    return seen[0] if len(seen) == 1 else ", ".join(seen[:-1]) + " or " + seen[-1]


# --------------------------------------------------------------------------- refusals


def refuse(action: Action | Any, *, player: int | None, phase: str, reason: str, rule: str) -> IllegalActionError:
    """An :class:`IllegalActionError` naming the action, player, phase, reason and rule.

    The error carries them as attributes too (``err.player``, ``err.phase``,
    ``err.action``, ``err.reason``, ``err.rule``), so a user interface can
    show them separately. The caller raises it *before* touching the state.
    """
    verb = getattr(action, "verb", "") or str(action)
    who = "the table" if player == TABLE else (f"player {player}" if player is not None else "nobody")
    err = IllegalActionError(f"cannot {verb}: {reason} ({who}, {phase_words(phase)}; rules {rule}).")
    err.player, err.phase, err.action, err.reason, err.rule = player, phase, action, reason, rule
    return err


# --------------------------------------------------------------------------- views and games


@dataclass(eq=False, kw_only=True, slots=True)
class PlayerView:
    """What one player can see. Games subclass it with their public information.

    A view is a snapshot made of copies (tuples): changing it changes nothing in
    the game. ``legal_actions`` is computed on first use, so bots that know what
    they want never pay for the full list.
    """

    seat: int
    phase: str
    to_act: int | None
    hand: tuple[int, ...]
    _legal: Callable[[], list] | None = field(default=None, repr=False)
    _legal_cache: list | None = field(default=None, init=False, repr=False)

    @property
    def legal_actions(self) -> list:
        """The actions this player may take now (empty when it is not this player's decision)."""
        if self._legal_cache is None:
            self._legal_cache = list(self._legal()) if (self._legal is not None and self.to_act == self.seat) else []
        return self._legal_cache

    @property
    def my_turn(self) -> bool:
        return self.to_act == self.seat

    @property
    def game_type(self) -> type | None:
        """The class of the game this view is of (no card in it: what a bot may know of its game), or None
        for a view made by hand."""
        return getattr(self._legal, "game_type", None)

    def sample_world(self, rng: Any) -> Any:
        """A game consistent with this view, the cards this seat cannot see dealt at random from ``rng``
        (:meth:`rumino.engine.base.TurnGame.sample_world`): what a search plays its moves on. The world
        is made from what the view shows; it cannot tell where the hidden cards really are."""
        world = getattr(self._legal, "world", None)
        if world is None:
            raise ValueError("this view was not made by a game, so it has no world to sample.")
        return world(self.seat, rng)


@runtime_checkable
class Game(Protocol):
    """What every game's state machine offers (see :class:`rumino.engine.base.TurnGame`)."""

    phase: str

    @property
    def to_act(self) -> int | None: ...

    @property
    def hand_over(self) -> bool: ...

    @property
    def game_over(self) -> bool: ...

    def legal_actions(self) -> list: ...

    def table_actions(self) -> list: ...

    def apply(self, action: Action) -> None: ...

    def apply_unchecked(self, action: Action) -> None: ...

    def view(self, seat: int) -> PlayerView: ...

    def check_invariants(self) -> None: ...


class Chooser(Protocol):
    def choose(self, view: PlayerView) -> Action: ...


def play(game: Game, players: Sequence[Chooser] | Callable[[int], Chooser], *, checked: bool = True,
         max_actions: int = 10_000_000, after: Callable[[Game, int, Any], None] | None = None,
         before: Callable[[Game, int, Any], None] | None = None,
         until: Callable[[Game], bool] | None = None) -> Game:
    """Play ``game`` with one chooser per seat until it is over (or ``until(game)`` is true); returns the game.

    The one game loop: simulations, the odds of play, the widgets and the terminal
    all step games through it (or through :func:`step`, one decision at a time).
    ``players`` is a list by seat, or a function ``seat -> player`` (seats can be
    added by table actions). ``before(game, actor, action)`` runs after the choice
    and before it is applied, ``after(game, actor, action)`` after it is applied
    (tests call ``game.check_invariants`` there). Raises ``RuntimeError`` if the
    game has not stopped after ``max_actions`` actions.
    """
    get = players if callable(players) else players.__getitem__
    done = until if until is not None else _over
    if before is None and after is None:  # the hot loop of simulations, written out
        apply, view = (game.apply if checked else game.apply_unchecked), game.view
        for _ in range(max_actions):
            if done(game):
                return game
            seat = game.to_act
            apply(get(seat).choose(view(seat)))
    else:
        for _ in range(max_actions):
            if done(game):
                return game
            step(game, get, checked=checked, after=after, before=before)
    if done(game):
        return game
    raise RuntimeError(f"the game did not end within {max_actions} actions.")


def _over(game: Game) -> bool:
    return game.game_over


def step(game: Game, get: Callable[[int], Chooser], *, checked: bool = True,
         after: Callable[[Game, int, Any], None] | None = None,
         before: Callable[[Game, int, Any], None] | None = None) -> Action:
    """One decision: ask the chooser of the seat to act for an action and apply it; returns the action."""
    seat = game.to_act
    action = get(seat).choose(game.view(seat))
    if before is not None:
        before(game, seat, action)
    (game.apply if checked else game.apply_unchecked)(action)
    if after is not None:
        after(game, seat, action)
    return action


__all__ = ["TABLE", "Action", "ActionSet", "one_card", "choices_words", "refuse", "PlayerView", "Game", "Chooser", "play", "step"]
