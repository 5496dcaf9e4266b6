"""Rumino's words at the terminal (rules §1): the commands ``?`` lists, and the stake the table plays for.

What the table is told of Rumino's actions (a knock, gin, a rumino called or claimed, a rebuy, a newcomer)
is the common narration's (:class:`~rumino.engine.words.DrawNarrator`); the end of the game is the result's
own :meth:`~rumino.variants.rumino.game.GameResult.summary`.
"""

from __future__ import annotations

from typing import ClassVar

from rumino.engine.words import DRAW_HELP, DrawNarrator


class RuminoNarrator(DrawNarrator):
    """The terminal's narrator of Rumino: its commands and the stake of the table."""

    HELP: ClassVar[tuple[str, ...]] = DRAW_HELP + (
        "k / knock      knock instead of drawing (rules §1.3: deadwood at or below the limit)",
        "g 7h / gin 7h  discard 7h and go gin",
        "r / rumino     call a rumino",
        "c / p          claim the discard for a rumino, or let it go",
        "y / n          rebuy when you are out, or not (rules §1.5)",
        "deal           deal the next hand")

    def table_terms(self) -> str:
        return f", stake {self.game.rules.stake} each"


__all__ = ["RuminoNarrator"]
