"""Gin Rummy's words at the terminal (rules §6): its commands, the upcard offer at the prompt, a pass on it."""

from __future__ import annotations

from typing import Any, ClassVar

from rumino.engine.protocol import Action, PlayerView
from rumino.engine.words import DRAW_HELP_NO_JOKERS as DRAW_HELP, DrawNarrator, card_words


class GinNarrator(DrawNarrator):
    """The terminal's narrator of Gin Rummy: the upcard offer (rules §6) is said at the prompt and told."""

    HELP: ClassVar[tuple[str, ...]] = (
        DRAW_HELP[0],
        "t / take       take the top card of the discard pile (the upcard, when it is offered)",
        "p / pass       leave the upcard on offer (rules §6)",
        *DRAW_HELP[2:],
        "k 7h / knock 7h  knock, discarding 7h (rules §6: deadwood at or below the limit)",
        "g 7h / gin 7h  discard 7h and go gin",
        "deal           deal the next hand")

    def prompt_lines(self, view: PlayerView) -> list[str]:
        if view.offer and view.top_discard is not None and view.my_turn:
            return [f"the upcard {card_words(view.top_discard)} is offered: t takes it, p passes (rules §6)"]
        return []

    def say(self, g: Any, seat: int, action: Action) -> str:
        if action.word == "pass":
            return f"{self.names[seat]} passes on the upcard {card_words(self.top)}"
        return super().say(g, seat, action)


__all__ = ["GinNarrator"]
