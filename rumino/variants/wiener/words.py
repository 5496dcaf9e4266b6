"""Wiener Rummy's and American Knock Rummy's words at the terminal (rules §5): their commands, the pot at the
prompt, and the chips a hand moved."""

from __future__ import annotations

import dataclasses
from typing import Any, ClassVar

from rumino.engine.knobs import value_words
from rumino.engine.protocol import PlayerView
from rumino.engine.words import DRAW_HELP, DRAW_HELP_NO_JOKERS, DrawNarrator, card_words


def value_words_of(rules: Any, name: str) -> str:
    """A knob's value in a player's words (:func:`rumino.engine.knobs.value_words`)."""
    meta = next(f.metadata for f in dataclasses.fields(rules) if f.name == name)
    return value_words({"words": meta["words"], "allow_none": meta["allow_none"]}, getattr(rules, name))


class _KnockFamilyNarrator(DrawNarrator):
    """What the two games' tables share: the pot (rules §5.5) at the prompt, the chips a hand moved."""

    def prompt_lines(self, view: PlayerView) -> list[str]:
        return [f"pot: {view.pot} chips"] if view.pot else []

    def hand_end(self, g: Any) -> list[str]:
        lines = super().hand_end(g)
        moved = g.results[-1].money  # chips each seat received (+) or paid (−) in the hand
        if any(moved):
            lines.append("  chips: " + ", ".join(f"{self.names[p]} {m:+d}" for p, m in enumerate(moved) if m))
        return lines


class WienerNarrator(_KnockFamilyNarrator):
    """The terminal's narrator of Wiener Rummy."""

    # the knock's discard goes face up on the pile like any other (rules §5.4: the next player may take it),
    # and the others' last round begins
    SAY: ClassVar[dict] = {**DrawNarrator.SAY, "knock": lambda who, g, a, top: (
        f"{who} knocks, discarding {card_words(a.card)}: everyone else draws and discards once more")}

    def describe(self, view: PlayerView) -> str:
        """The prompt; in the last round after a knock it says so, in place of the knock limit (rules §5.4)."""
        text = super().describe(view)
        knocker = self.game.knocker
        if knocker is not None and view.phase in ("turn", "discard"):
            text = text.replace(f"; knock at ≤ {view.knock_limit})",
                                f"; the last round: {self.names[knocker]} has knocked)")
        return text

    def choices(self, view: PlayerView) -> list:
        """The legal moves, less a knock with a card that a rummy can discard instead: going rummy with the same
        discard is never worse (the hand ends at once, and pays more, rules §5.4). Advice only: the knock is
        still accepted when typed."""
        legal = list(view.legal_actions)
        rummy = {a.card for a in legal if a.word == "rummy"}
        return [a for a in legal if not (a.word == "knock" and getattr(a, "card", None) in rummy)]

    def prompt_lines(self, view: PlayerView) -> list[str]:
        """The pot and, when the player may buy back, the offer in full: the score it sets and its price (§5.5)."""
        lines = super().prompt_lines(view)
        if view.phase == "buyback" and view.my_turn:
            g = self.game
            lines.append(f"buy back? your score {g.scores[view.seat]} would become {g.buyback_target(view.seat)} "
                         f"({value_words_of(g.rules, 'buyback_target')}), for {g.rules.buyback_chips} chips into "
                         f"the pot, once a game (rules §5.5): y buys back, n declines")
        return lines

    def own(self, g: Any, seat: int, action: Any) -> str:
        return "" if action.word == "knock" else super().own(g, seat, action)  # the knock's card is already told

    HELP: ClassVar[tuple[str, ...]] = DRAW_HELP + (
        "k 7h / knock 7h  knock, discarding 7h: the others then play once more (rules §5.4)",
        "r 7h / rummy 7h  call rummy: every card melded after discarding 7h",
        "y / n          buy back (once a game, rules §5.5), or not",
        "deal           deal the next hand")


class KnockRummyNarrator(_KnockFamilyNarrator):
    """The terminal's narrator of American Knock Rummy."""

    HELP: ClassVar[tuple[str, ...]] = DRAW_HELP_NO_JOKERS + (
        "k 7h / knock 7h  knock, putting 7h on the pile face down (rules §5.8)",
        "deal           deal the next hand")


__all__ = ["WienerNarrator", "KnockRummyNarrator"]
