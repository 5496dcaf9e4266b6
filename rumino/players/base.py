"""The player protocol: a player sees a :class:`~rumino.engine.PlayerView` and returns an action.

A player never sees the game state itself, only the view of its own seat:
its hand, the discard pile, the scores and the counts of cards it has not
seen. Bots are strategies, not rules: the engine checks every action they take.
"""

from __future__ import annotations

from rumino.engine import Action, PlayerView, TurnGame


class Player:
    """Base class of every player. Subclasses implement :meth:`choose`."""

    kind = "player"

    def __init__(self, name: str | None = None):
        self.name = name or self.kind

    @classmethod
    def fits(cls, game: type[TurnGame]) -> bool:
        """Can this player play ``game`` (a game class)? Default: any game."""
        return True

    def choose(self, view: PlayerView) -> Action:  # pragma: no cover - abstract
        raise NotImplementedError

    def __repr__(self) -> str:
        return f"{type(self).__name__}(name={self.name!r})"
