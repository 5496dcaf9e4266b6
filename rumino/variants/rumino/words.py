"""Rumino's words at the terminal (rules §1): the commands ``?`` lists, and the stake the table plays for.

What the table is told of Rumino's actions (a knock, gin, a rumino called or claimed, a rebuy, a newcomer)
is the common narration's (:class:`~rumino.engine.words.DrawNarrator`); the end of the game is the result's
own :meth:`~rumino.variants.rumino.game.GameResult.summary`.
"""

from __future__ import annotations

from typing import Any, ClassVar

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

    def hand_end(self, g: Any) -> list[str]:
        """The common end of a hand and, when a player went out and no rebuy is offered, why (rules §1.5)."""
        lines = super().hand_end(g)
        r = g.results[-1]
        if r.busted and g.phase != "rebuy":
            still = sum(1 for p in r.players if g.in_game[p])
            if len(r.players) <= 2:
                why = "a rebuy needs a table of three or more (rules §1.5)"
            else:
                why = (f"{still} player{'s' if still != 1 else ''} still in, and a rebuy needs at least "
                       f"{g.rules.rebuy_requires_others} still in (rules §1.5)")
            lines.append(f"  no rebuy is offered: {why}")
        return lines


__all__ = ["RuminoNarrator"]
