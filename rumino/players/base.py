"""The player protocol (:class:`~rumino.engine.player.Player`): a player sees a view and returns an action."""

from rumino.engine.player import Player

__all__ = ["Player"]
