"""German Rommé's words at the terminal (rules §3): its commands, a play typed without its ``play``, and a
play told in words."""

from __future__ import annotations

from typing import Any, ClassVar, Sequence

from rumino.engine.protocol import Action, PlayerView
from rumino.engine.words import DRAW_HELP, DrawNarrator, meld_words, parse_human_action, token_words
from rumino.errors import IllegalActionError, InvalidCardError
from rumino.hand.opening import max_opening_fast
from rumino.melds import Meld
from rumino.table.melds import meld_tokens, parse_token


class RommeNarrator(DrawNarrator):
    """The terminal's narrator of German Rommé: the steps of a play may be typed without ``play``, and a
    play is told step by step, with the melds it lays to (:func:`romme_steps`)."""

    HELP: ClassVar[tuple[str, ...]] = DRAW_HELP + (
        "play …         after the draw, one play of steps split by ';' (rules §3.4):",
        "                 lay 10s Js Qs Ks      a new meld from your hand",
        "                 layoff 8h on 0        a card on table meld [0] (once you have opened)",
        "                 exchange 7h on 1      your 7h for the joker it stands for in meld [1]",
        "deal           deal the next hand")

    def describe(self, view: PlayerView) -> str:
        """The prompt, the hand's line saying what it would cost if caught now (every card in hand counts, rules
        §3.3: a meld held is not yet a meld) and, until the player has opened, his best opening against the
        minimum (rules §3.4)."""
        lines = super().describe(view).split("\n")
        for i, line in enumerate(lines):
            if line.startswith("your hand: ") and "   (deadwood " in line:
                g = self.game
                cost = f"penalty if caught now: {g.penalty(view.hand)}"
                if not g.opened[view.seat]:
                    best = max_opening_fast(list(view.hand), g.rules.meld_rules)
                    cost += f"; best opening {best}, {g.rules.opening_min} needed to open"
                lines[i] = line[:line.index("   (deadwood ")] + f"   ({cost})"
        return "\n".join(lines)

    def read(self, line: str, view: PlayerView) -> Action | None:
        parts = line.lower().split()
        if parts and parts[0] in ("lay", "layoff", "exchange") and "play" in view.action_set.by_word:
            return parse_human_action("play " + line.strip(), view)  # the steps, without 'play'
        return None

    def before(self, g: Any, seat: int, action: Action) -> None:
        super().before(g, seat, action)
        self.table_before = tuple(g.table)

    def say(self, g: Any, seat: int, action: Action) -> str:
        if action.word == "play":
            return f"{self.names[seat]} plays to the table: " + romme_steps(str(action), self.table_before)
        return super().say(g, seat, action)


def romme_steps(notation: str, table: Sequence[Meld]) -> str:
    """A Rommé play told in words: ``lays A♠ A♣ A♥; lays off 2♦ on [0] A♦ JK(2♦) 3♦``."""
    def cards(tokens):
        out = []
        for t in tokens:
            try:
                out.append(token_words(parse_token(t)))
            except (InvalidCardError, IllegalActionError, ValueError):
                out.append(t)
        return " ".join(out)

    parts = []
    for step in notation.removeprefix("play ").split(";"):
        words = step.split()
        if not words:
            continue
        head, rest = words[0], words[1:]
        where = ""
        if "on" in rest:
            k = rest.index("on")
            rest, at = rest[:k], rest[k + 1:]
            if at and at[0].isascii() and at[0].isdigit() and int(at[0]) < len(table):
                where = f" on [{at[0]}] {meld_words(meld_tokens(table[int(at[0])]))}"
            elif at:
                where = f" on [{at[0]}]"
        verb = {"lay": "lays", "layoff": "lays off", "exchange": "exchanges"}.get(head, head)
        tail = " for the joker" if head == "exchange" else ""
        parts.append(f"{verb} {cards(rest)}{tail}{where}")
    return "; ".join(parts)


__all__ = ["RommeNarrator", "romme_steps"]
