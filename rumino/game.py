"""The protocol every playable variant follows: actions, player views, games and refusals.

A game is started from rules, a number of players and a seeded
``numpy.random.Generator``; one asks whose turn it is (``to_act``), which
actions are legal (``legal_actions()``), applies one (``apply`` checks it and
refuses an illegal one with the rule it breaks, leaving the state unchanged;
``apply_unchecked`` is the fast path for simulations that only ever pick legal
actions), and asks whether the hand or game is over and what everyone scored.

Actions are small frozen records printed in the book's notation, and parsed
back from it (records store that text, never code):

>>> str(Draw("stock")), str(Discard(45)), str(Knock()), str(Gin(52))
('draw stock', 'discard 7h', 'knock', 'gin JK')
>>> parse_action("discard 10h") == Discard(48), parse_action("DRAW  discard")
(True, Draw(source='discard'))

A refusal names the player, the phase, the action, the reason and the rule:

>>> print(refuse(Knock(), player=2, phase="turn", reason="player 2 has 12 deadwood, the limit is 7",
...              rule="§1.3"))
cannot knock: player 2 has 12 deadwood, the limit is 7 (player 2, phase 'turn', RULES §1.3).
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any, Callable, ClassVar, Protocol, Sequence, runtime_checkable

from .cards import format_card, parse_card
from .errors import IllegalActionError, InvalidCardError

TABLE = -1
"""The actor of a *table* action (a newcomer sitting down): nobody's turn, decided by the table."""


# --------------------------------------------------------------------------- actions

_ACTION_WORDS: dict[str, type["Action"]] = {}


class Action:
    """Base of every action: a frozen dataclass with a ``word`` and a book notation.

    Subclasses register their word with :func:`register_action` so that
    :func:`parse_action` can read them back from a record.
    """

    __slots__ = ()
    word: ClassVar[str] = ""
    verb: ClassVar[str] = ""  # what a refusal says: "cannot <verb>"

    def notation(self) -> str:
        return self.word

    def __str__(self) -> str:
        return self.notation()

    @classmethod
    def parse_args(cls, args: list[str]) -> "Action":
        if args:
            raise InvalidCardError(f"{cls.word!r} takes no argument; got {' '.join(args)!r}.")
        return cls()


def register_action(cls: type[Action]) -> type[Action]:
    """Class decorator: make ``cls.word`` parseable by :func:`parse_action`."""
    key = cls.word.lower()
    if key in _ACTION_WORDS and _ACTION_WORDS[key] is not cls:
        raise ValueError(f"two actions use the word {cls.word!r}.")
    _ACTION_WORDS[key] = cls
    return cls


def action_words() -> tuple[str, ...]:
    """The words :func:`parse_action` knows (after the variant modules registered theirs)."""
    return tuple(sorted(_ACTION_WORDS))


def parse_action(text: str) -> Action:
    """Read an action back from its notation (``'draw stock'``, ``'discard 7h'``, ``'gin JK'`` …).

    Only registered action words and card names are accepted; nothing in the
    text is ever evaluated. Raises :class:`IllegalActionError` naming the text.

    >>> parse_action("deal")
    Deal()
    >>> parse_action("shuffle")
    Traceback (most recent call last):
    ...
    rumino.errors.IllegalActionError: 'shuffle' is not an action: the actions are ...
    """
    if not isinstance(text, str):
        raise IllegalActionError(f"{text!r} is not an action: an action is text such as 'draw stock'.")
    parts = text.strip().split()
    if not parts:
        raise IllegalActionError("an empty text is not an action.")
    cls = _ACTION_WORDS.get(parts[0].lower())
    if cls is None:
        raise IllegalActionError(
            f"{text.strip()!r} is not an action: the actions are {', '.join(action_words())}.")
    try:
        return cls.parse_args(parts[1:])
    except InvalidCardError as err:
        raise IllegalActionError(f"{text.strip()!r} is not an action: {err}") from None


def _one_card(cls, args: list[str]) -> int:
    if len(args) != 1:
        raise InvalidCardError(f"{cls.word!r} takes one card, such as '{cls.word} 7h'.")
    return parse_card(args[0])


@register_action
@dataclass(frozen=True, slots=True)
class Draw(Action):
    """Draw the top card of the stock or of the discard pile (RULES §1.3 b)."""

    source: str = "stock"
    word: ClassVar[str] = "draw"
    verb: ClassVar[str] = "draw"

    def __post_init__(self):
        if self.source not in ("stock", "discard"):
            raise IllegalActionError(f"Draw source is {self.source!r}: it must be 'stock' or 'discard'.")

    def notation(self) -> str:
        return f"draw {self.source}"

    @classmethod
    def parse_args(cls, args):
        if len(args) != 1 or args[0].lower() not in ("stock", "discard"):
            raise InvalidCardError("'draw' takes 'stock' or 'discard'.")
        return cls(args[0].lower())


@register_action
@dataclass(frozen=True, slots=True)
class Discard(Action):
    """Put one card from the hand face up on the discard pile, ending the turn."""

    card: int
    word: ClassVar[str] = "discard"
    verb: ClassVar[str] = "discard"

    def notation(self) -> str:
        return f"discard {format_card(self.card)}"

    @classmethod
    def parse_args(cls, args):
        return cls(_one_card(cls, args))


@register_action
@dataclass(frozen=True, slots=True)
class Knock(Action):
    """End the hand in lieu of drawing; everyone scores their deadwood (RULES §1.3 a)."""

    word: ClassVar[str] = "knock"
    verb: ClassVar[str] = "knock"


@register_action
@dataclass(frozen=True, slots=True)
class Gin(Action):
    """Discard ``card`` and go gin with the seven cards kept (RULES §1.3 b)."""

    card: int
    word: ClassVar[str] = "gin"
    verb: ClassVar[str] = "go gin"

    def notation(self) -> str:
        return f"gin {format_card(self.card)}"

    @classmethod
    def parse_args(cls, args):
        return cls(_one_card(cls, args))


@register_action
@dataclass(frozen=True, slots=True)
class Rebuy(Action):
    """Pay the rebuy price and re-enter the game (RULES §1.5)."""

    word: ClassVar[str] = "rebuy"
    verb: ClassVar[str] = "rebuy"


@register_action
@dataclass(frozen=True, slots=True)
class DeclineRebuy(Action):
    """Stay out of the game rather than rebuy."""

    word: ClassVar[str] = "decline"
    verb: ClassVar[str] = "decline a rebuy"


@register_action
@dataclass(frozen=True, slots=True)
class Deal(Action):
    """The dealer shuffles and deals the next hand."""

    word: ClassVar[str] = "deal"
    verb: ClassVar[str] = "deal"


@register_action
@dataclass(frozen=True, slots=True)
class Join(Action):
    """A table action: a new player sits down between hands and pays the stake (RULES §1.5)."""

    word: ClassVar[str] = "join"
    verb: ClassVar[str] = "join"


# --------------------------------------------------------------------------- refusals


def refuse(action: Action | Any, *, player: int | None, phase: str, reason: str, rule: str) -> IllegalActionError:
    """An :class:`IllegalActionError` naming the action, player, phase, reason and rule.

    The error carries them as attributes too (``err.player``, ``err.phase``,
    ``err.action``, ``err.reason``, ``err.rule``), so a user interface can
    show them separately. The caller raises it *before* touching the state.
    """
    verb = getattr(action, "verb", "") or str(action)
    who = "the table" if player == TABLE else (f"player {player}" if player is not None else "nobody")
    err = IllegalActionError(f"cannot {verb}: {reason} ({who}, phase {phase!r}, RULES {rule}).")
    err.player, err.phase, err.action, err.reason, err.rule = player, phase, action, reason, rule
    return err


# --------------------------------------------------------------------------- views and games


@dataclass(eq=False, kw_only=True, slots=True)
class PlayerView:
    """What one player can see. Variants subclass it with their public information.

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


@runtime_checkable
class Game(Protocol):
    """What every variant's state machine offers (see :class:`rumino.variants.rumino.RuminoGame`)."""

    phase: str

    @property
    def to_act(self) -> int | None: ...

    @property
    def hand_over(self) -> bool: ...

    @property
    def game_over(self) -> bool: ...

    def legal_actions(self) -> list: ...

    def table_actions(self) -> list: ...

    def apply(self, action) -> None: ...

    def apply_unchecked(self, action) -> None: ...

    def view(self, seat: int) -> PlayerView: ...

    def check_invariants(self) -> None: ...


class Chooser(Protocol):
    def choose(self, view: PlayerView): ...


def play(game: Game, players: Sequence[Chooser] | Callable[[int], Chooser], *, checked: bool = True,
         max_actions: int = 10_000_000, after: Callable[[Game, int, Any], None] | None = None) -> Game:
    """Play ``game`` to its end with one chooser per seat; returns the game.

    ``players`` is a list by seat, or a function ``seat -> player`` (seats can
    be added by table actions). ``after(game, actor, action)`` runs after each
    action (tests call ``game.check_invariants`` there). Raises ``RuntimeError``
    if the game has not ended after ``max_actions`` actions.
    """
    get = players if callable(players) else players.__getitem__
    step = game.apply if checked else game.apply_unchecked
    for _ in range(max_actions):
        if game.game_over:
            return game
        seat = game.to_act
        action = get(seat).choose(game.view(seat))
        step(action)
        if after is not None:
            after(game, seat, action)
    if game.game_over:
        return game
    raise RuntimeError(f"the game did not end within {max_actions} actions.")


__all__ = [
    "TABLE", "Action", "register_action", "action_words", "parse_action", "Draw", "Discard", "Knock", "Gin",
    "Rebuy", "DeclineRebuy", "Deal", "Join", "refuse", "PlayerView", "Game", "play",
]
