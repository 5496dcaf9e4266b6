"""The terminal loop that every ``rumino play`` game shares: prompt, echo, help, quit, refusals.

A game's own module says what the table sees (its narration and its view of the
hand); this module reads the human's lines, explains an illegal choice with the
rule it breaks and asks again, and ends the program cleanly at the end of input.

>>> import io
>>> from rumino.playing.seeding import new_table
>>> game, players = new_table("gin", ["human", "greedy"], 3, 0)
>>> out = io.StringIO()
>>> session = TerminalSession(game, players, stdin=io.StringIO("?\\n"), stdout=out,
...                           describe=lambda view: "your turn", help_text="s t k … q")
>>> session.run(finish=lambda: session.emit("done"))
0
>>> out.getvalue().splitlines()[-1]
'End of input: the game is left unfinished.'
"""

from __future__ import annotations

import sys
from typing import Callable, TextIO

from rumino.engine.protocol import play
from rumino.errors import IllegalActionError
from rumino.players import HumanPlayer, parse_human_action


class EndOfInput(Exception):
    """The human's input ended (or they typed q): the game is left unfinished."""


def fresh_seed(seed: int | None) -> int:
    """``seed``, or a fresh one from the OS when none is given (printed, so the game can be replayed)."""
    if seed is not None:
        return seed
    import numpy as np

    return int(np.random.SeedSequence().generate_state(1)[0])


def player_names(players) -> list[str]:
    """``P0 (you)``, ``P1 (greedy)``, …: how the narration names the seats."""
    return [f"P{i} ({'you' if isinstance(p, HumanPlayer) else p.name})" for i, p in enumerate(players)]


class TerminalSession:
    """One game at the terminal: the human seats ask ``stdin``; :meth:`run` steps the game to its end.

    ``describe(view)`` is what the human is shown before each choice, ``help_text`` what ``?`` prints,
    and ``autoplay(view)`` may return an action to take without asking (a forced card).
    """

    def __init__(self, game, players, *, stdin: TextIO | None, stdout: TextIO | None,
                 describe: Callable, help_text: str, autoplay: Callable | None = None):
        self.game, self.players = game, players
        self.stdin = stdin if stdin is not None else sys.stdin
        self.out = stdout if stdout is not None else sys.stdout
        self.describe, self.help_text, self.autoplay = describe, help_text, autoplay
        self.names = player_names(players)
        for p in players:
            if isinstance(p, HumanPlayer):
                p.ask = self.ask

    def emit(self, text: str = "") -> None:
        print(text, file=self.out)

    def ask(self, view):
        """The human's next action: read until a line parses to a legal action (refusals say why)."""
        if self.autoplay is not None:
            forced = self.autoplay(view)
            if forced is not None:
                return forced
        self.emit()
        self.emit(self.describe(view))
        while True:
            self.out.write("> ")
            self.out.flush()
            line = self.stdin.readline()
            if line == "":
                raise EndOfInput
            if not (hasattr(self.stdin, "isatty") and self.stdin.isatty()):
                self.emit(line.rstrip("\n"))  # piped input: echo it, so the transcript reads like a session
            if line.strip().lower() in ("q", "quit", "exit"):
                raise EndOfInput
            if line.strip() in ("?", "h", "help"):
                self.emit(self.help_text)
                continue
            try:
                action = parse_human_action(line, view)
                self.game.check(action)  # an illegal choice is explained, and asked again
                return action
            except IllegalActionError as err:
                self.emit(f"  {err}")

    def run(self, *, before=None, after=None, finish: Callable[[], None]) -> int:
        """Play to the end (``finish`` then narrates the result); returns the exit code, 0 also at end of input."""
        try:
            play(self.game, self.players, before=before, after=after)
            finish()
        except EndOfInput:
            self.emit()
            self.emit("End of input: the game is left unfinished.")
        return 0


__all__ = ["EndOfInput", "TerminalSession", "fresh_seed", "player_names"]
