"""``rumino play``: a game of any playable variant (Rumino by default) in the terminal against bots.

One terminal loop (:class:`~rumino.cli._terminal.TerminalSession`) plays every game;
what the table is told, what ``?`` lists and how a typed line is read are the game's own
narrator's (``Variant.narrator``, a :class:`~rumino.engine.words.DrawNarrator` subclass in the
game's folder, ``rumino/variants/<game>/words.py``), and the end of the game is its result's
:meth:`~rumino.engine.results.GameResult.summary`:

* the draw-and-discard games: you type ``s`` (draw from the stock),
  ``t`` (take the discard), a card such as ``7h`` to discard it, ``k`` (Rumino's
  knock) or ``k 7h`` (a knock with a card face down), ``g 7h`` to go gin, ``r`` rumino
  or ``r 7h`` Wiener's rummy, ``c``/``p`` claim or pass, ``y``/``n`` rebuy or buy back,
  or a number from the list; you are told the card you drew, and the others' hand sizes;
* Robber Rummy also takes moves, joined by ``;``:
  ``new 5c 6c 7c``, ``lay 7c on 2``, ``move 9c from 1 to 3`` (or ``to new``), and a
  bot's placement is told as what moved where;
* Rummoli (rules §2): ``swap`` / ``keep`` / ``keep unsold`` (the dealer and
  the widow: keep his hand and auction the widow, or keep it and sell nothing),
  ``b N`` / ``p`` (the auction, told in one line), ``check``, ``bet``, ``call``, ``raise``,
  ``fold`` (with ``poker_method=betting``), a card such as ``7h`` to play it in the
  stops, ``claim`` / ``forgo`` (with ``manual_claims``), ``deal``, or a number from
  the list. The poker result and your hand are shown when the stops begin; a card you
  are forced to play (the only legal one) is asked for with Enter, or played for you
  after ``auto``.

Input may be piped, which is how the tests play; the end of input ends the
program cleanly.

>>> import io
>>> out = io.StringIO()
>>> play_terminal(["greedy", "greedy"], seed=2, stdin=io.StringIO(""), stdout=out)
0
>>> "wins" in out.getvalue()
True
>>> out = io.StringIO()
>>> play_terminal(["default", "random"], seed=2, stdin=io.StringIO(""), stdout=out, variant="rummoli")
0
>>> "final chips:" in out.getvalue()
True
"""

from __future__ import annotations

import sys
from typing import Sequence, TextIO

from rumino.playing.seeding import new_table
from rumino.players import ALLOWED, HumanPlayer
from rumino.cli import CommandError
from rumino.cli.inputs import check_seed
from rumino.cli._terminal import TerminalSession, fresh_seed, player_names
from rumino.cli.simulate import default_players, parse_player_list, parse_rules, playable


# ---------------------------------------------------------------------------- the help (? at the prompt)

_COMMON = ["1, 2, …        a choice from the list; Enter: the only choice, when there is one",
           "v / look       show your hand and the table again",
           "hint           the search coach: its move, and each move's chance of winning the hand",
           "                 (at a table of three or more: the share of the other players it beats)",
           "? / help       this help;  q / quit  leave the game"]


def game_help(key: str) -> str:
    """What ``?`` prints at the prompt of ``key``'s game: its actions and their short forms (its narrator's
    :attr:`~rumino.engine.words.DrawNarrator.HELP`), then the terminal's own commands."""
    v = playable(key)
    return "\n".join([f"{v.title} — commands:"] + [f"  {line}" for line in [*v.narrator.HELP, *_COMMON]])


def make_session(specs: Sequence[str], *, seed: int | None = None, rules=None, stdin: TextIO | None = None,
                 stdout: TextIO | None = None, variant: str = "rumino"):
    """The game, its narrator and the terminal session of :func:`play_terminal`, not yet played
    (``tests/terminal_transcripts.py`` types into it); returns ``(session, narrator, seed)``."""
    v = playable(variant)
    rules = rules if rules is not None else v.rules
    seed = fresh_seed(seed)
    game, players = new_table(v, list(specs), seed, 0, rules=rules)
    humans = [i for i, p in enumerate(players) if isinstance(p, HumanPlayer)]
    narrator = v.narrator(game, player_names(players), humans)
    session = TerminalSession(game, players, stdin=stdin, stdout=stdout, describe=narrator.describe,
                              help_text=game_help(v.key), autoplay=narrator.autoplay, forced=narrator.forced,
                              translate=narrator.translate, pending=narrator.pending, refusal=narrator.refusal,
                              choices=narrator.choices, move_words=narrator.move_words)
    return session, narrator, seed


def play_terminal(specs: Sequence[str], *, seed: int | None = None, rules=None, stdin: TextIO | None = None,
                  stdout: TextIO | None = None, variant: str = "rumino") -> int:
    """Play one game of ``variant`` with the players ``specs`` (``human`` reads ``stdin``); returns the exit code.

    The game and its bots are seeded by the one scheme (:func:`rumino.playing.seeding.new_table`, game 0
    of the run ``seed``) and stepped by the one game loop (:func:`rumino.engine.protocol.play`); the
    game's narrator (``Variant.narrator``, in the game's own folder) says what the table sees.
    """
    session, narrator, seed = make_session(specs, seed=seed, rules=rules, stdin=stdin, stdout=stdout,
                                           variant=variant)
    return run_session(session, narrator, seed)


def run_session(session, narrator, seed: int) -> int:
    def emit(lines):
        for line in lines:
            session.emit(line)

    emit(narrator.opening(seed))
    return session.run(before=narrator.before, after=lambda g, seat, a: emit(narrator.after(g, seat, a)),
                       finish=lambda: emit(narrator.finish()))


def run(args) -> int:
    if args.seed is not None:
        check_seed(args.seed)
    variant = playable(args.variant)
    rules = parse_rules(variant, args.rules)
    if args.players is None:
        bots = default_players(variant).split(",")
        args.players = ",".join(["human"] + bots[1:])
    specs = parse_player_list(args.players, variant)
    if sys.stdin is None and any(s.strip().lower() == "human" for s in specs):
        raise CommandError("there is no input to read your moves from (stdin is closed): run rumino play at a "
                           "terminal, or pipe the moves in.")
    return play_terminal(specs, seed=args.seed, rules=rules, variant=variant.key)


def register(sub) -> None:
    p = sub.add_parser("play", help="play a game (Rumino by default) in the terminal against bots",
                       description="Play a game of any playable variant (Rumino by default) against bots, typing "
                                   "actions at the prompt (? for help). Input may be piped; end of input ends "
                                   "the game.")
    p.add_argument("--variant", default="rumino", help="the game (a playable variant; default rumino)")
    p.add_argument("--players", default=None,
                   help=f"comma-separated: {ALLOWED} (default: you and the game's own bots, four players or as "
                        f"many as the game allows)")
    p.add_argument("--seed", type=int, default=None, help="seed of the deal (default: a fresh one)")
    p.add_argument("--rules", nargs="+", action="extend", default=[], metavar="KEY=VALUE",
                   help="house rules, e.g. knock_max_deadwood=5")
    p.set_defaults(run=run)


__all__ = ["play_terminal", "make_session", "run_session", "game_help", "register"]
