"""Oklahoma Gin's words at the terminal (rules §6.1): Gin's, and what the hand's upcard set, at every prompt."""

from __future__ import annotations

from typing import ClassVar

from rumino.engine.protocol import PlayerView
from rumino.engine.words import card_words
from rumino.variants.gin.words import GinNarrator


class OklahomaNarrator(GinNarrator):
    """The terminal's narrator of Oklahoma Gin: Gin's words, and the upcard's knock limit and doubling (§6.1)."""

    HELP: ClassVar[tuple[str, ...]] = tuple(
        line.replace("(rules §6: deadwood at or below the limit)", "(rules §6.1: deadwood at or below the upcard's)")
        for line in GinNarrator.HELP)

    def prompt_lines(self, view: PlayerView) -> list[str]:
        if view.upcard is None or view.phase in ("between_hands", "game_over"):
            return super().prompt_lines(view)
        limit = "gin only" if view.knock_limit == 0 else f"knock with {view.knock_limit} or less"
        double = "; a spade: the hand counts double" if view.doubled else ""
        return [f"this hand's upcard {card_words(view.upcard)}: {limit}{double} (rules §6.1)",
                *super().prompt_lines(view)]


__all__ = ["OklahomaNarrator"]
