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
from rumino.players import HumanPlayer, SearchPlayer, parse_human_action
from rumino.players.human import HELP
from rumino.players.coach import explain
from rumino.players.search import best_player



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
    ``autoplay(view)`` may return an action to take without asking, ``forced(view)`` an action the
    rules leave no choice about (a forced card): it is asked for with Enter, or played without asking
    once the player types ``auto``. ``translate(line, view)`` reads the game's own short forms (an
    action, or None to leave the line to :func:`~rumino.players.parse_human_action`), and
    ``pending()`` returns narration held back until the human is asked (a compact auction line), and
    ``refusal(err, view)`` says an illegal line's refusal in the player's words.
    """

    def __init__(self, game, players, *, stdin: TextIO | None, stdout: TextIO | None,
                 describe: Callable, help_text: str, autoplay: Callable | None = None,
                 forced: Callable | None = None, translate: Callable | None = None,
                 pending: Callable | None = None, refusal: Callable | None = None,
                 choices: Callable | None = None, move_words: Callable | None = None):
        self.game, self.players = game, players
        self.stdin = stdin if stdin is not None else sys.stdin
        self.out = stdout if stdout is not None else sys.stdout
        self.describe, self.help_text, self.autoplay = describe, help_text, autoplay
        self.forced, self.translate, self.pending = forced, translate, pending
        self.refusal = refusal  # refusal(err, view): a refusal in the player's words (else one_line)
        self.choices, self.move_words = choices, move_words  # the menu the coach weighs, and its words
        self.auto = False  # the player typed 'auto': forced cards are played without asking
        self.names = player_names(players)
        for p in players:
            if isinstance(p, HumanPlayer):
                p.ask = self.ask

    def emit(self, text: str = "") -> None:
        print(text, file=self.out)

    def readline(self) -> str:
        """The next line typed (echoed when piped, so a transcript reads like a session); q ends the game."""
        self.out.write("> ")
        self.out.flush()
        try:
            line = self.stdin.readline()
        except (OSError, ValueError, AttributeError):  # the terminal went away, or stdin is closed
            raise EndOfInput from None
        if line == "":
            raise EndOfInput
        if not (hasattr(self.stdin, "isatty") and self.stdin.isatty()):
            self.emit(line.rstrip("\n"))
        if line.strip().lower() in ("q", "quit", "exit"):
            raise EndOfInput("You left the game: it is left unfinished.")
        return line

    def ask(self, view):
        """The human's next action: read until a line parses to a legal action (refusals say why)."""
        if self.autoplay is not None:
            auto = self.autoplay(view)
            if auto is not None:
                return auto
        if self.pending is not None:
            for line in self.pending():
                self.emit(line)
        forced = self.forced(view) if self.forced is not None else None
        if forced is not None and self.auto:
            return forced
        self.emit()
        self.emit(self.describe(view))
        if forced is not None:
            self.emit(f"only '{forced}' is legal here: press Enter to play it, or type auto to have every "
                      f"forced play made for you from now on")
        while True:
            line = self.readline()
            word = line.strip().lower()
            if word in ("?", "h", "help"):
                self.emit(self.help_text)
                continue
            if word in ("v", "look", "view"):
                self.emit(self.describe(view))
                continue
            if word in ("hint", "coach"):
                self.emit(search_hint(self.game, view, moves=self.choices, words=self.move_words))
                continue
            if word == "auto" and self.forced is not None:
                self.auto = True
                self.emit("  auto: forced plays are made for you from now on")
                if forced is not None:
                    return forced
                continue
            try:
                action = self.translate(line, view) if self.translate is not None else None
                if action is None:
                    action = parse_human_action(line, view)
                self.game.check(action)  # an illegal choice is explained, and asked again
                return action
            except IllegalActionError as err:
                self.emit(f"  {self.refusal(err, view) if self.refusal is not None else one_line(err)}")

    def run(self, *, before=None, after=None, finish: Callable[[], None]) -> int:
        """Play to the end (``finish`` then narrates the result); returns the exit code, 0 also at end of input."""
        try:
            play(self.game, self.players, before=before, after=after)
            finish()
        except EndOfInput as end:
            self.emit()
            self.emit(str(end) or "End of input: the game is left unfinished.")
        return 0


def search_hint(game, view, simulations: int | None = None, *, moves: Callable | None = None,
                words: Callable | None = None) -> str:
    """The search coach at the prompt: the search player's move for ``view`` and each move's estimated
    chance of winning the hand (its share of the rollouts won), seeded by the position; ``simulations``
    None is the game's default budget (under a second a move). ``moves(view)`` is the menu it weighs (the
    prompt's list; default the legal actions) and ``words(action, view)`` how it writes a move (default as typed).

    >>> from rumino.playing.seeding import new_table
    >>> game, _ = new_table("gin", ["human", "greedy"], 3, 0)
    >>> print(search_hint(game, game.view(game.to_act), simulations=20).strip())  # doctest: +ELLIPSIS
    search (20 rollouts): ... · chance of winning the hand by move: ...
    """
    if not SearchPlayer.fits(type(game)):
        return f"  the search coach does not play {game.NAME} yet."
    seed = [len(game.history), view.seat]
    # min_worlds=0: a hint weighs the moves even where the best player's budget is too small to leave its rule
    player = (best_player(seed=seed, min_worlds=0) if simulations is None
              else SearchPlayer(simulations, seed=seed, model=True))
    player.moves = moves
    say = (lambda a: words(a, view)) if words is not None else str  # noqa: E731
    action = player.choose(view)
    d = player.last
    if d.forced:
        return f"  search: {say(action)} ({d.reason})"
    listed = " · ".join(f"{say(a)} {share:.0%}" for a, share, _n in d.values[:5])
    what = ("chance of winning the hand" if len(game.hand_players) <= 2
            else "share of the other players beaten")  # a hand at a table of three can be half won
    reasons = "".join(f"\n    {line}" for line in explain(d, view)[1:-1])
    return f"  search ({d.simulations} rollouts): {say(action)} · {what} by move: {listed}{reasons}"


def one_line(err) -> str:
    """A refusal as one line: the reason and its rule, and where the player's own text was not
    understood, a pointer to ``?`` rather than the list of every game's commands."""
    text = " ".join(str(err).split())
    if HELP in text:
        text = text.replace(HELP, "type ? for this game's commands")
    return text


__all__ = ["EndOfInput", "TerminalSession", "fresh_seed", "one_line", "player_names"]
