"""The player protocol: a player sees a :class:`~rumino.engine.PlayerView` and returns an action.

A player never sees the game state itself, only the view of its own seat:
its hand, the discard pile, the scores and the counts of cards it has not
seen. Bots are strategies, not rules: the engine checks every action they take.

The base class lives with the engine so that a game's own folder (``rumino/variants/<game>/``) can
define its own bot (Rummoli's default) and its decisions for the generic bots of :mod:`rumino.players`,
with the tie-breaks and measures they share (:func:`pick_discard`, :func:`neighbours`,
:func:`forbidden_after_taking`).
"""

from __future__ import annotations

from typing import Sequence

from rumino.cards import JOKER
from rumino.engine.base import TurnGame
from rumino.engine.drawdiscard import TableView
from rumino.engine.protocol import Action, PlayerView


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


def pick_discard(best: Sequence[int], view: TableView) -> int:
    """Among equally good discards keep jokers, then shed the highest card (a fixed tie-break)."""
    values = view.evaluator.values
    return max(best, key=lambda c: (c != JOKER, values[c], c))


def neighbours(card: int, hand: Sequence[int]) -> float:
    """How many cards of ``hand`` could meld with ``card`` one day: another suit of its rank counts one, its
    suit one rank away one, two ranks away a half (the gap a third card fills); its twin and jokers count
    nothing (a joker melds with anything, so it tells nothing of the card).

    >>> from rumino.cards import parse_hand, parse_card
    >>> hand = parse_hand("7h 8h 9h 7s Kd Kc 2c")
    >>> neighbours(parse_card("7h"), hand), neighbours(parse_card("2c"), hand)
    (2.5, 0.0)
    """
    n = 0.0
    for x in hand:
        if x == JOKER or x == card:
            continue
        if x % 13 == card % 13:
            n += 1
        elif x // 13 == card // 13:
            gap = abs(x % 13 - card % 13)
            n += 1 if gap == 1 else 0.5 if gap == 2 else 0
    return n


def forbidden_after_taking(view: TableView, top: int) -> int | None:
    """The card that could not be discarded after taking ``top`` from the pile (rules §0.5)."""
    if view.may_rediscard_pickup:
        return None
    if top in view.hand and not view.pickup_bars_twin:
        return None  # the twin taken may go back
    return top


__all__ = ["Player", "pick_discard", "neighbours", "forbidden_after_taking"]
