"""Oklahoma Gin's words at the terminal (rules §6.1): Gin's, and what the hand's upcard set, at every prompt."""

from __future__ import annotations

from typing import ClassVar

from rumino.engine.protocol import PlayerView
from rumino.engine.words import card_words
from rumino.variants.gin.words import GinNarrator
from rumino.variants.oklahoma.game import upcard_limit


class OklahomaNarrator(GinNarrator):
    """The terminal's narrator of Oklahoma Gin: Gin's words, and the upcard's knock limit and doubling (§6.1)."""

    HELP: ClassVar[tuple[str, ...]] = tuple(
        line.replace("(rules §6: deadwood at or below the limit)", "(rules §6.1: deadwood at or below the upcard's)")
        for line in GinNarrator.HELP)

    @classmethod
    def hand_notices(cls, view: PlayerView) -> list[str]:
        """The upcard that set this hand's knock limit, and the doubling, in a sentence (O1, O2).

        >>> from rumino.variants.oklahoma.game import OKLAHOMA, OklahomaGame
        >>> OklahomaNarrator.hand_notices(OklahomaGame.new(OKLAHOMA, 2, seed=10).view(0))
        ['The upcard 3♠ sets the knock limit at 3, and the spade doubles this hand (rules §6.1).']
        >>> OklahomaNarrator.hand_notices(OklahomaGame.new(OKLAHOMA, 2, seed=2).view(0))
        ['The upcard A♣ allows no knock in this hand: gin only (rules §6.1).']
        """
        if view.upcard is None or view.phase in ("between_hands", "game_over"):
            return []
        up = card_words(view.upcard)
        if view.knock_limit == 0:
            limit = f"The upcard {up} allows no knock in this hand: gin only"
        else:
            limit = f"The upcard {up} sets the knock limit at {view.knock_limit}"
            if view.knock_limit < upcard_limit(view.upcard):
                limit += ", the house rule's highest"
        return [limit + (", and the spade doubles this hand" if view.doubled else "") + " (rules §6.1)."]

    def prompt_lines(self, view: PlayerView) -> list[str]:
        if view.upcard is None or view.phase in ("between_hands", "game_over"):
            return super().prompt_lines(view)
        limit = "gin only" if view.knock_limit == 0 else f"knock with {view.knock_limit} or less"
        double = "; a spade: the hand counts double" if view.doubled else ""
        return [f"this hand's upcard {card_words(view.upcard)}: {limit}{double} (rules §6.1)",
                *super().prompt_lines(view)]


__all__ = ["OklahomaNarrator"]
