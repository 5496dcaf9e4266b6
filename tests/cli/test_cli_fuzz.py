"""Bad arguments, files, environments, input and interrupts for every command: exit code 0 or 2 (130 for
Ctrl-C), never a traceback, at most one line on stderr (issues 25 and 38).

Four parts: the smallest failing examples the fuzzer found, each kept as a plain test; a table of
bad invocations across all commands, each refused with one line naming the bad input (those of
``test_cli_package.py``, ``test_cli_inputs.py`` and the commands' own test files are not repeated); the
Hypothesis fuzzer of the arguments, one test per command; and the fuzzer of what is not an argument: the
files a command reads (results files, optimal tables, game records), the environment, what is typed at
``rumino play``, and Ctrl-C at any moment of a command. All of it is seeded (``derandomize``) and small.

Every call runs ``guarded``: the steps that build the book or the optimal tables, serve, print PDFs,
or replace this process with JupyterLab raise :class:`WorkStarted` instead of starting. The
strategies never ask for them with good arguments; the guard turns a mistake into a failed test
instead of a 16-minute build.
"""

from __future__ import annotations

import contextlib
import io
import json
import os
import sys
from pathlib import Path
from unittest import mock

import pytest
from hypothesis import HealthCheck, example, given, settings
from hypothesis import strategies as st

from rumino.cli import main

NOWHERE = "/nonexistent/rumino-fuzz"  # never created: no book, no table, no built HTML
VARIANTS = ["rumino", "rummoli", "romme", "robber", "wiener", "gin", "knock-rummy"]


class WorkStarted(BaseException):
    """An expensive step was reached (a BaseException, so no ``except Exception`` of the command hides it)."""


def _stop(*args, **kwargs):
    raise WorkStarted


EXPENSIVE = ("rumino.cli.book.build", "rumino.cli.book.make_server", "rumino.cli.book.print_pdfs",
             "rumino.cli.bookbuild.chapters", "rumino.cli.book.os.execv", "rumino.odds.optimal.SolitaireModel.solve",
             "rumino.playing.optimal_play.policy_figures", "rumino.playing.optimal_play.game_figures")


def guarded() -> contextlib.ExitStack:
    stack = contextlib.ExitStack()
    for target in EXPENSIVE:
        stack.enter_context(mock.patch(target, _stop))
    return stack


def run(argv: list[str], stdin: str = "", env: dict | None = None) -> tuple[int, str, str]:
    """``rumino argv`` in this process, guarded: ``(exit code, stdout, stderr)``. stdin is ``stdin`` (its end
    ends ``rumino play``; pytest's own stdin refuses reads), ``env`` is added to the environment, and the
    environment is put back after (``rumino optimal play`` sets ``RUMINO_OPTIMAL_DIR``)."""
    out, err, saved, saved_stdin = io.StringIO(), io.StringIO(), dict(os.environ), sys.stdin
    os.environ.update(env or {})
    sys.stdin = io.StringIO(stdin)
    try:
        with guarded(), contextlib.redirect_stdout(out), contextlib.redirect_stderr(err):
            try:
                code = main(argv)
            except SystemExit as done:  # argparse's errors
                code = done.code
    finally:
        sys.stdin = saved_stdin
        os.environ.clear()
        os.environ.update(saved)
    return code, out.getvalue(), err.getvalue()


def error_lines(err: str) -> list[str]:
    return [line for line in err.splitlines() if line.strip()]


def refused(argv: list[str]) -> str:
    """The one line ``rumino argv`` printed on stderr when refusing it with exit code 2."""
    code, out, err = run(argv)
    assert code == 2 and "Traceback" not in err, (argv, code, err)
    lines = error_lines(err)
    assert len(lines) == 1, (argv, err)
    return lines[0]


# ---------------------------------------------------------------------------- what the fuzzer found


@pytest.mark.parametrize("argv, said", [
    # argparse printed its whole usage (two or three lines) before the error
    (["play", "--seed", "abc"], "rumino play: argument --seed: 'abc' is not a whole number written with the digits 0-9 "
                                "(see rumino play --help)."),
    (["odds", "poker", "--cards", "5", "--method", "bogus"], "argument --method: invalid choice: 'bogus'"),
    (["compare"], "rumino compare: the following arguments are required: COLUMN"),
    (["optimal"], "rumino optimal: the following arguments are required: WHAT"),
    # argparse quotes an unrecognized argument as typed: its newline made a second line
    (["deadwood", "7h", "--bogus", "a\nb"], "unrecognized arguments: --bogus a\\nb"),
])
def test_a_usage_error_is_one_line(argv, said):
    assert said in refused(argv)


DASK = ["compare", "knock-rummy", "--samples", "5", "--games", "1", "--seed", "1", "--no-progress", "--dask"]


@pytest.mark.parametrize("address, said", [
    ("tcp://127.0.0.1:²", "is not [scheme://]host:port"),  # '²'.isdigit(), then int('²'): ValueError
    ("inproc://x", "is an in-process one"),  # distributed's parser: ValueError (not enough values to unpack)
    ("tcp://.:8786", "has a host that is not a name or an address (UnicodeError)"),  # the idna codec
])
def test_a_dask_address_no_one_can_reach_is_one_line(address, said):
    line = refused(DASK + [address])
    assert repr(address) in line and said in line, line


def test_compare_games_are_bounded():
    """10**20 games a match planned 10**20 / chunk jobs: a MemoryError traceback."""
    line = refused(["compare", "rumino", "--samples", "10", "--seed", "1", "--games", "99999999999999999999"])
    assert "--games is 99999999999999999999: it must be from 1 to 10000000" in line


# every `optimal build` here also has a bad --shape, so a check that failed could never start a build
@pytest.mark.parametrize("argv, said", [
    # '²'.isdigit() is true, int('²') a ValueError
    (["--shape", "²,13,2,4"], "--shape is '²,13,2,4': write suits,ranks,copies,jokers"),
    (["--tol", "nan", "--shape", "x"], "--tol is nan: it must be a number above 0 and below 1"),  # never reached
    (["--tol", "-1", "--shape", "x"], "--tol is -1.0"),
    (["--max-minutes", "-1", "--shape", "x"], "--max-minutes is -1.0: it must be a number above 0"),
])
def test_optimal_build_refuses_what_it_could_never_finish(argv, said):
    assert said in refused(["optimal", "build"] + argv)


# each with a --book that does not exist: should the check under test fail, nothing is built or served
@pytest.mark.parametrize("argv, said", [
    (["build", "--timeout", "0"], "--timeout is 0: it must be from 1 to 86400"),  # both started a whole build
    (["build", "--timeout", "-1"], "--timeout is -1"),
    (["serve", "--dir", ""], "--dir is '': give the folder"),  # an empty --dir served the default build
    (["pdf", "--dir", " "], "--dir is ' ': give the folder"),
])
def test_book_refuses_a_timeout_that_is_none_and_an_empty_folder(argv, said):
    assert said in refused(["book", "--book", "/nonexistent"] + argv)


def test_odds_best_names_the_tables_horizon():
    """99999999999999999999 draws said to build the tables, which stop at 10 draws."""
    line = refused(["odds", "best", "7h 8h 9h 5c 5d 5s Ks 2c", "--goal", "gin", "--draws", "11",
                    "--table-dir", NOWHERE])
    assert "--draws is 11: it must be from 0 to 10 (the optimal tables go up to that many draws)." in line


# ---------------------------------------------------------------------------- a table of bad invocations


BEST = ["odds", "best", "7h 8h 9h 5c 5d 5s Ks 2c", "--goal", "gin", "--table-dir", NOWHERE]


@pytest.mark.parametrize("argv, named", [
    ([], "the following arguments are required: COMMAND"),
    (["canasta"], "invalid choice: 'canasta'"),
    (["deadwood", "--variant", "rumino:knock_max_deadwood=5", "7h 8h 9h 10h 5c 5d 5s"],
     "deadwood values a hand under the game's own rules and takes no house rules"),
    (["deadwood", "--variant", "robber", "JK JK JK JK JK JK JK 2c 3c 4c 5c 6c 7c"], "the hand holds 7 jokers"),
    (["table", "--table", "5c 6c", "--hand", "8c"], "the table 5c 6c does not form valid melds"),
    (["table", "--table", "5c 6c 7c | 8c 9c", "--hand", "Kd"], "the table meld 8c 9c is not a meld"),
    (["table", "--table", " ".join(["JK"] * 9), "--hand", "8c"], "the table holds 9 jokers"),
    (["table", "--table", "5c 6c 7c", "--hand", "5c 5c 5c"], "the hand holds 3 copies of 5c"),
    (["table", "--table", "5c 6c 7x", "--hand", "8c"], "'7x' is not a card"),
    (["table", "--variant", "rummoli", "--table", "5c 6c 7c", "--hand", "8c"], "Rummoli has no melds"),
    (["simulate", "--games", "-1"], "--games is -1"),
    (["simulate", "--games", "1.5"], "argument --games: '1.5' is not a whole number"),
    (["simulate", "--games", "1", "--players", "greedy,chaser:0"], "player 'chaser:0'"),
    (["simulate", "--games", "1", "--players", ",,"], "the players list ['', '', ''] has an empty name"),
    (["simulate", "--games", "1", "--rules", "rumino:nonexistent=1"], "no rule 'rumino:nonexistent'"),
    (["simulate", "--games", "1", "--rules", "knock_max_deadwood=1e400"], "the rule 'knock_max_deadwood' cannot be '1e400'"),
    (["simulate", "--games", "1", "--variant", "gin", "--players", "greedy,greedy,greedy"], "lists 3 player(s)"),
    (["play", "--variant", "canasta"], "unknown variant 'canasta'"),
    (["play", "--players", "human,clever"], "unknown player 'clever'"),
    (["play", "--variant", "gin", "--players", "human,chaser"], "player 'chaser' does not fit Gin Rummy"),
    (["play", "--rules", "knock_max_deadwood=5", "knock_max_deadwood=9"], "'knock_max_deadwood' is given twice"),
    (["compare", "rumino:nonexistent=1"], "no rule 'nonexistent'"),
    (["compare", "rumino:knock_max_deadwood"], "house rule 'knock_max_deadwood' in column 'rumino:knock_max_deadwood'"),
    (["compare", "rumino", "--width", "201"], "--width is 201"),
    (["compare", "rumino", "--samples", "10", "--seed", "1", "--games", "0"], "--games is 0"),
    (["compare", "rumino", "--samples", "10", "--seed", "1", "--dask", "tcp://127.0.0.1:0"], "has port 0"),
    (["compare", "rumino", "--workers", "2"], "--workers and --dask run the profiles: give --samples N"),
    (["odds", "deal", "--samples", "10", "--seed", "-1"], "--seed is -1"),
    (["odds", "deal", "--exact", "--variant", "rumino:n_jokers=9"], "Jokers in the pack: 9 is not allowed"),
    (["odds", "deal", "--exact", "--variant", "knock-rummy", "--workers", "0"], "--workers is 0"),
    (["odds", "draws", "--outs", "-1", "--unseen", "10", "--draws", "1"], "outs is -1"),
    (["odds", "draws", "--outs", "1", "--unseen", "10001", "--draws", "1"], "unseen is 10001"),
    (["odds", "poker", "--cards", "99999999999999999999"], "got 99999999999999999999"),
    (["odds", "poker", "--cards", "five"], "argument --cards: 'five' is not a whole number"),
    (BEST + ["--draws", "-1"], "--draws is -1"),
    (BEST + ["--draws", "99999999999999999999"], "--draws is 99999999999999999999"),
    (["odds", "best", "7h 8h", "--goal", "gin", "--draws", "1"], "the hand has 2 cards"),
    (["odds", "best", "7h 8h 9h 5c 5d 5s Ks 2c", "--goal", "win", "--draws", "1"], "invalid choice: 'win'"),
    (["optimal", "build", "--horizon", "11", "--shape", "x"], "--horizon is 11"),  # --shape x: never a build
    (["optimal", "build", "--threads", "0", "--shape", "x"], "--threads is 0"),
    (["optimal", "build", "--shape", "0,13,2,4"], "PackShape.suits is 0"),
    (["optimal", "play", "--dir", NOWHERE, "--hands", "0"], "--hands is 0"),
    (["optimal", "play", "--dir", NOWHERE, "--seed", "-1"], "--seed is -1"),
    (["book", "serve", "--port", "99999999999999999999"], "--port is 99999999999999999999"),
    (["book", "serve", "--dir", NOWHERE], f"{NOWHERE} holds no built book"),
    (["book", "pdf", "--dir", NOWHERE], f"{NOWHERE} holds no built book"),
    (["book", "--book", "/etc/passwd", "build"], "no book found at /etc/passwd"),
    (["book", "--book", NOWHERE, "student", NOWHERE + "/student"], f"no book found at {NOWHERE}"),
    (["lab", "--port", "70000"], "--port is 70000"),
    (["lab", "--book", NOWHERE], f"no book found at {NOWHERE}"),
])
def test_bad_invocations_are_refused_in_one_line_naming_the_input(argv, named):
    line = refused(argv)
    assert named in line, line
    assert line.startswith("rumino"), line  # the command says who is speaking


# ---------------------------------------------------------------------------- the fuzzer
#
# Each command's strategy draws its real options, each with a cheap good value (so the checks further
# on are reached) or a bad one (negative, zero, astronomic, other digits, fractional, empty, random
# text), options repeated, positional arguments, and in one example of three a random token or a text
# for a whole-number option, all in any order. What would run long, serve or start JupyterLab is never
# drawn with good arguments: `book` and `lab` always get a --book (or --dir) that holds no book,
# `optimal figures|play` a --dir that holds no table, `optimal build` a --shape it refuses, games and
# samples are a few, `odds deal --exact` only Gin's shortcut or the refused variants. A progress bar is
# no error line: each command that draws one is given --no-progress.

# a text as a shell passes it: no NUL (argv cannot hold one), no lone surrogates (Hypothesis's default)
typed = st.text(st.characters(blacklist_characters="\x00"), max_size=24)


def mostly(*common, rare):
    """One of ``common`` three times in four, else ``rare``."""
    return st.integers(0, 3).flatmap(lambda i: rare if i == 3 else st.one_of(*common))


# whole numbers argparse takes and the command must refuse, and texts argparse refuses itself
bad_int = st.one_of(st.sampled_from(["-1", "0", "-0", "99999999999999999999", "-99999999999999999999", "9" * 400,
                                     "1_000_000_000_000", "１２", "٣"]),
                    st.integers(-10**30, 10**30).map(str))
not_int = st.one_of(st.sampled_from(["", " ", "1.5", "1e3", "nan", "inf", "abc", "²", "0x10", "--1", "1,000",
                                     "1" + "0" * 5000]), typed)
bad_float = st.sampled_from(["nan", "inf", "-inf", "-1", "0", "1e400", "-1e-400", "abc", "", "1,5"])


def number(low: int, high: int, limit: int | None = None):
    """A cheap good whole number from ``low`` to ``high``, or one that argparse takes and the command
    must refuse: below ``low`` or above ``limit`` (default ``high``; 2,509 games are good, and slow)."""
    top = high if limit is None else limit
    return st.one_of(st.integers(low, high).map(str), bad_int.filter(lambda t: not low <= int(t) <= top))


garbage = st.one_of(typed.filter(bool), st.sampled_from(["--", "-", "--bogus", "-x", "--no-such-option=1",
                                                          "x" * 10_000, "\n", "a\nb", "\u2028", "--help-me"]))
good_card = st.sampled_from([r + s for r in "A 2 3 4 5 6 7 8 9 10 J Q K".split() for s in "scdh♠♥"] + ["JK", "*"])
bad_card = st.sampled_from(["1h", "11c", "7x", "0h", "½h", "JKK", "10", "h", "♥", "7h7h", "|", "Th "])
card = mostly(good_card, rare=bad_card)


def hand(*sizes):
    """Distinct good cards, as many as a hand of the game has; or else cards of all kinds, or any text."""
    return mostly(st.sampled_from(sizes).flatmap(lambda n: st.lists(good_card, min_size=n, max_size=n, unique=True))
                  .map(" ".join),
                  rare=st.one_of(st.lists(card, max_size=15).map(" ".join), typed))


variant = mostly(st.sampled_from(VARIANTS), rare=st.one_of(
    st.sampled_from(["canasta", "", ":", "RUMINO", "gin ", "knock_rummy", "rumino:knock_max_deadwood=5"]), typed))
# keys whose good values keep a game short (game_to=1000000 would not), and keys no game has
rule_key = mostly(st.sampled_from(["knock_max_deadwood", "n_jokers", "stock_exhausted", "set_suits"]),
                  rare=st.sampled_from(["nonexistent", "rumino:nonexistent", "", " ", "KNOCK_MAX_DEADWOOD"]))
rule_value = mostly(st.sampled_from(["5", "2", "void_hand", "distinct", "any"]),
                    rare=st.one_of(bad_int, not_int, st.sampled_from(["=", "5=6", "void hand"])))
rule = mostly(st.builds("{}={}".format, rule_key, rule_value),
              rare=st.one_of(st.sampled_from(["knock_max_deadwood", "=1", "=="]), typed))
rules = st.lists(rule, min_size=1, max_size=3).map(lambda r: ["--rules"] + r)
column = mostly(variant, st.builds(lambda v, r: f"{v}:{','.join(r)}", st.sampled_from(VARIANTS),
                                   st.lists(rule, max_size=3)), rare=typed)
bots = st.sampled_from(["random", "greedy", "default", "threshold:3", "chaser"])
players = mostly(st.lists(bots, min_size=2, max_size=4).map(",".join), rare=st.one_of(
    st.lists(st.sampled_from(["greedy", "threshold:-1", "chaser:0", "human", "solitaire", "solitaire:bogus",
                              "clever", "", "greedy:1"]), max_size=9).map(",".join), typed))
# 2 would start a process pool: a second of start-up, and no new check
workers = st.one_of(st.just("1"), bad_int.filter(lambda t: not 1 <= int(t) <= (os.cpu_count() or 1)))
seed = number(0, 5)
port = number(0, 65535)
dask = st.one_of(st.sampled_from(["", " ", "http://127.0.0.1:8786", "tcp://127.0.0.1", "tcp://127.0.0.1:70000",
                                  "tcp://127.0.0.1:0", "tcp://:8786", "tcp://.:8786", "tcp://a..b:1",
                                  "inproc://x", "tcp://127.0.0.1:²", "tcp://127.0.0.1:9", "tcp://[::1]:9",
                                  "127.0.0.1:9"]),
                 typed.filter(lambda t: ":" not in t))  # no name look-ups: random text fails before them
no_book = st.one_of(st.sampled_from([NOWHERE, "", "/etc/passwd", "/dev/null", "/"]), typed).filter(
    lambda p: not (Path(p) / "_toc.yml").exists())
no_table = st.sampled_from([NOWHERE, "/etc/passwd", "/dev/null"])
refused_shape = st.one_of(  # parse_shape or PackShape refuses it, or the pack cannot hold 7 cards and a draw
    st.sampled_from(["", "4,13,2", "4,13,2,4,0", "a,b,c,d", "²,13,2,4", "0,13,2,4", "4,14,2,4", "4,13,9,4",
                     "4,13,2,17", "-1,13,2,4", "1,1,1,0", "1,6,1,0", "1,5,1,2", "4,,2,4",
                     "99999999999999999999,13,2,4"]),
    typed.filter(lambda t: t.count(",") != 3))


def option(name: str, values):
    return values.map(lambda v: [name, v])


def flag(name: str):
    return st.just([name])


def argv(command: list[str], *parts, required=(), positional=None, positionals=(0, 2), ints=()):
    """``command`` + up to six of ``parts`` (each ``[option, value]`` or ``[flag]``; repeats allowed) + all
    of ``required`` + ``positionals`` positional arguments, in any order (an option keeps its value),
    and in one example of three a random token or, for one of the whole-number options ``ints``, a text."""
    chosen = st.lists(st.one_of(*parts), max_size=6) if parts else st.just([])
    needed = st.tuples(*required).map(list)
    low, high = positionals
    pos = st.lists(positional.map(lambda p: [p]), min_size=low, max_size=high) if positional is not None \
        else st.just([])
    odd = [garbage.map(lambda g: [[g]])]
    if ints:
        odd.append(st.tuples(st.sampled_from(ints), not_int).map(lambda o: [list(o)]))
    extra = st.integers(0, 2).flatmap(lambda i: st.one_of(*odd) if i == 2 else st.just([]))
    groups = st.builds(lambda *g: [x for part in g for x in part], chosen, needed, pos, extra)
    return groups.flatmap(st.permutations).map(lambda gs: command + [tok for g in gs for tok in g])


NO_BAR = flag("--no-progress")

STRATEGIES = {
    "deadwood": argv(["deadwood"], option("--variant", variant), flag("--json"),
                     positional=hand(6, 7, 8, 10, 11, 13, 14), positionals=(1, 2)),
    "table": argv(["table"], option("--variant", mostly(st.sampled_from(["robber", "romme"]), rare=variant)),
                  flag("--most-cards"), flag("--json"),
                  required=[option("--table", mostly(
                      st.lists(st.lists(card, min_size=3, max_size=4).map(" ".join), max_size=3).map(" | ".join),
                      st.lists(card, max_size=9).map(" ".join), rare=typed)),
                            option("--hand", mostly(st.lists(card, max_size=5).map(" ".join), rare=typed))]),
    "simulate": argv(["simulate"], option("--variant", variant), option("--seed", seed), rules,
                     option("--players", players), flag("--json"), flag("--checked"),
                     required=[NO_BAR, option("--games", number(1, 2, 10**7))], ints=("--games", "--seed")),
    # the first seat is the human's, whose stdin is empty: the game ends at the human's first turn
    "play": argv(["play"], option("--variant", variant), option("--seed", seed), rules,
                 required=[option("--players", players.map(lambda p: "human," + p))], ints=("--seed",)),
    # profiles with --samples up to 20 (it defaults to 20,000) and --games 1 or 2 (a match defaults to 40)
    "tournament": argv(["tournament"], option("--variant", variant), option("--seed", seed), rules,
                       option("--table", number(2, 4, 8)), option("--workers", workers), option("--dask", dask),
                       flag("--json"),
                       required=[NO_BAR, option("--players", players), option("--games", number(1, 2, 10**6))],
                       ints=("--games", "--seed", "--table", "--workers")),
    # cheap ladders only (Robber's has no search player; Rummoli's searches take milliseconds), or a bad list
    "ladder": argv(["ladder"], option("--workers", workers), option("--dask", dask), option("--seed", seed),
                   flag("--json"), option("--out", st.sampled_from([NOWHERE + "/l.json", "/etc", "/etc/passwd/x"])),
                   required=[NO_BAR, option("--games", number(1, 1, 10**6)),
                             option("--variants", mostly(st.sampled_from(["robber", "rummoli", "robber,rummoli"]),
                                                         rare=st.one_of(st.sampled_from(["", ",", "robber,robber",
                                                                                         "canasta"]), typed)))],
                   ints=("--games", "--seed", "--workers")),
    # the atlas's own checks only: --out is always one that is refused, so no deal is ever played
    "atlas": argv(["atlas"], option("--workers", workers), option("--dask", dask), option("--seed", seed),
                  flag("--json"),
                  option("--games", mostly(st.sampled_from(["gin", "knock-rummy", "gin,knock-rummy"]),
                                           rare=st.one_of(st.sampled_from(["", ",", "gin,gin", "canasta"]), typed))),
                  option("--knobs", mostly(st.sampled_from(["wall_knock", "game_to=50", "knock_max_deadwood=0,20",
                                                            "Knock limit"]),
                                           rare=st.one_of(st.sampled_from(["bogus", "game_to=0", "=", "=5",
                                                                           "wall_knock=maybe", "game_to=1,,2"]),
                                                          typed))),
                  required=[NO_BAR, option("--deals", number(2, 2, 10**6)),
                            option("--out", st.sampled_from([NOWHERE + "/a.json", "/etc", "/etc/passwd/x",
                                                             "/proc/a.json", "", " "]))],
                  ints=("--deals", "--seed", "--workers")),
    # never the book's file: --out is always given, and never a folder where a match could be written, so
    # every match is refused before it is played (or the file is only listed)
    "strength": argv(["strength"], option("--variant", variant), option("--seed", seed), option("--workers", workers),
                     option("--deals", number(1, 2, 10**6)), flag("--list"),
                     option("--a", mostly(bots, st.sampled_from(["best", "search:5"]), rare=typed)),
                     option("--b", mostly(bots, st.just("openspiel-simple"), rare=typed)),
                     required=[NO_BAR, option("--out", st.sampled_from([NOWHERE + "/s.json", "/etc", "/etc/passwd",
                                                                        "/etc/passwd/x", "/dev/null", "", " "]))],
                     ints=("--deals", "--seed", "--workers")),
    "compare": argv(["compare"], option("--width", number(12, 200)), option("--workers", workers),
                    option("--dask", dask), flag("--json"),
                    required=[NO_BAR, option("--samples", number(1, 20, 10**8)), option("--games", number(1, 2, 10**7)),
                              option("--seed", seed)],
                    positional=column, positionals=(1, 3),
                    ints=("--width", "--samples", "--games", "--seed", "--workers")),
    "odds deal": argv(["odds", "deal"], option("--workers", workers), flag("--json"), option("--variant", column),
                      required=[NO_BAR, option("--samples", number(1, 50, 10**8)), option("--seed", seed)],
                      ints=("--samples", "--seed", "--workers")),
    # --exact enumerates: only Gin's shortcut or a variant refused (never --full: 3 CPU-minutes for Gin)
    "odds deal --exact": argv(["odds", "deal", "--exact"], option("--samples", number(1, 50, 10**8)), flag("--json"),
                              option("--workers", workers),
                              required=[NO_BAR, option("--variant", mostly(
                                  st.sampled_from(["gin", "gin:knock_max_deadwood=5", "wiener", "romme", "robber",
                                                   "rummoli", "rumino:n_jokers=9", "rumino:bogus=1"]),
                                  rare=variant.filter(lambda v: v not in VARIANTS)))],
                              ints=("--samples", "--workers")),
    "odds draws": argv(["odds", "draws"], flag("--json"),
                       required=[option("--outs", number(0, 60)), option("--unseen", number(0, 10_000)),
                                 option("--draws", number(0, 60))], ints=("--outs", "--unseen", "--draws")),
    "odds poker": argv(["odds", "poker"], flag("--json"),
                       option("--method", mostly(st.sampled_from(["complements", "patterns"]),
                                                 rare=st.sampled_from(["bogus", ""]))),
                       required=[option("--cards", number(5, 18))], ints=("--cards",)),
    "odds opening": argv(["odds", "opening"], option("--variant", variant), option("--cards", number(10, 15)),
                         option("--opening-min", number(1, 60)), option("--workers", workers),
                         flag("--table"), flag("--json"),
                         required=[NO_BAR, option("--samples", number(1, 50, 10**8)), option("--seed", seed)],
                         ints=("--samples", "--seed", "--cards", "--opening-min", "--workers")),
    "odds best": argv(["odds", "best"], flag("--json"),
                      required=[option("--goal", mostly(st.sampled_from(["knock", "gin", "rumino"]),
                                                        rare=st.sampled_from(["win", ""]))),
                                option("--draws", number(0, 2)), option("--table-dir", st.just(NOWHERE))],
                      positional=hand(7, 8), positionals=(1, 1), ints=("--draws",)),
    "optimal build": argv(["optimal", "build"], option("--horizon", number(1, 10)), option("--threads", number(1, 2)),
                          option("--tol", st.one_of(bad_float, st.just("1e-6"))),
                          option("--max-minutes", st.one_of(bad_float, st.just("1"))), flag("--reuse-finite"),
                          flag("--no-progress"),
                          option("--dir", st.just(NOWHERE)), required=[option("--shape", refused_shape)],
                          ints=("--horizon", "--threads")),
    "optimal figures": argv(["optimal", "figures"],
                            option("--shape", st.one_of(st.sampled_from(["4,13,2,4", "2,5,1,1", "0,0,0,0"]), typed)),
                            required=[option("--dir", no_table), option("--out", st.just(NOWHERE + "/f.json"))]),
    "optimal play": argv(["optimal", "play"], option("--hands", number(1, 10)), option("--games", number(1, 10)),
                         option("--seed", seed), option("--only", st.sampled_from(["policies", "games", "bogus", ""])),
                         flag("--no-progress"),
                         required=[option("--dir", no_table), option("--out", st.just(NOWHERE + "/f.json"))],
                         ints=("--hands", "--games", "--seed")),
    "book build": argv(["book", "build"], option("--timeout", number(1, 300)), option("--out", st.just(NOWHERE)),
                       flag("--student"), flag("--quiet"), required=[option("--book", no_book)],
                       ints=("--timeout",)),
    "book serve": argv(["book", "serve"], option("--port", port), flag("--student"),
                       required=[st.one_of(option("--book", no_book),
                                           option("--dir", st.sampled_from([NOWHERE, "", " ", "/etc/passwd"])))],
                       ints=("--port",)),
    "book pdf": argv(["book", "pdf"], flag("--student"), option("--out", st.just(NOWHERE)),
                     required=[st.one_of(option("--book", no_book),
                                         option("--dir", st.sampled_from([NOWHERE, "", "/etc/passwd"])))],
                     positional=st.one_of(st.sampled_from(["4", "99", "04_odds_of_the_deal", "-1"]), typed)),
    "book student": argv(["book", "student"], required=[option("--book", no_book)],
                         positional=st.sampled_from([NOWHERE, "", "/dev/null"]), positionals=(1, 1)),
    "book slides": argv(["book", "slides"], option("--out", st.just(NOWHERE)),
                        required=[st.one_of(option("--book", no_book),
                                            option("--dir", st.sampled_from([NOWHERE, "", "/etc/passwd"])))],
                        positional=st.one_of(st.sampled_from(["4", "99", "00a", "04_odds_of_the_deal", "-1"]), typed)),
    "book assignments": argv(["book", "assignments"],
                             option("--out", st.sampled_from(["/etc/passwd", "/etc/passwd/x", "/proc/rumino"])),
                             required=[option("--book", no_book)],
                             positional=st.one_of(st.sampled_from(["4", "99", "00a", "-1"]), typed)),
    "book kit": argv(["book", "kit"], flag("--no-handouts"), flag("--quiet"),
                     option("--out", st.sampled_from(["/etc/passwd", "/etc/passwd/x", "/proc/rumino"])),
                     required=[option("--book", no_book)]),
    "lab": argv(["lab"], option("--port", port), flag("--no-browser"), option("--option", typed),
                required=[option("--book", no_book)], ints=("--port",)),
}
EXAMPLES = {"atlas": 25, "deadwood": 60, "table": 60, "simulate": 50, "tournament": 40, "ladder": 25, "strength": 40, "play": 50, "compare": 50, "odds deal": 40,
            "odds deal --exact": 30, "odds draws": 60, "odds poker": 30, "odds opening": 40, "odds best": 40,
            "optimal build": 40, "optimal figures": 20, "optimal play": 30, "book build": 30, "book serve": 30,
            "book pdf": 30, "book student": 15, "book slides": 20, "book assignments": 20, "book kit": 15,
            "lab": 30}


def book_option_first(argv: list[str]) -> list[str]:
    """``book``'s own --book goes before its action, where argparse reads it."""
    if argv[0] != "book" or "--book" not in argv:
        return argv
    rest = argv[2:]
    i = rest.index("--book")
    return ["book", *rest[i:i + 2], argv[1], *rest[:i], *rest[i + 2:]]


def check(argv: list[str]) -> None:
    """Exit code 0 or 2, no traceback, at most one line on stderr (and on exit 2, that line)."""
    code, out, err = run(argv)
    assert "Traceback" not in err, (argv, err)
    assert code in (0, 2), (argv, code, err)
    assert len(error_lines(err)) == (1 if code == 2 else 0), (argv, code, err)


@pytest.mark.parametrize("command", list(STRATEGIES))
def test_fuzz(command):
    @settings(max_examples=EXAMPLES[command], deadline=None, derandomize=True, database=None,
              suppress_health_check=list(HealthCheck))
    @given(STRATEGIES[command].map(book_option_first))
    def every_argv(argv):
        check(argv)

    from rumino.tournament import ladder

    # the arguments are under test, not the players: each ladder cut to its two cheapest (minutes less)
    with mock.patch.dict(ladder.LADDERS, {key: players[:2] for key, players in ladder.LADDERS.items()}):
        every_argv()


# ---------------------------------------------------------------------------- what is not an argument
#
# The files a command reads, the environment, what is typed at `rumino play`, and Ctrl-C. The same
# promise: exit code 0 or 2 (130 after Ctrl-C), never a traceback, at most one line on stderr, and a
# refused file left as it was.

FEW = dict(deadline=None, derandomize=True, database=None, suppress_health_check=list(HealthCheck))

json_value = st.recursive(st.none() | st.booleans() | st.integers(-5, 10**20) | st.floats(allow_nan=True)
                          | st.text(max_size=6),
                          lambda inner: st.lists(inner, max_size=3) | st.dictionaries(st.text(max_size=6), inner,
                                                                                       max_size=3),
                          max_leaves=8)


def mutated(document):
    """``document`` (decoded JSON) with one change somewhere in it: a value replaced, a key dropped, a list
    cut; or its text cut short, or bytes that are not text at all."""
    def paths(x, here=()):
        yield here
        if isinstance(x, dict):
            for k, v in x.items():
                yield from paths(v, here + (k,))
        elif isinstance(x, list):
            for i, v in enumerate(x[:3]):
                yield from paths(v, here + (i,))

    every = list(paths(document))

    def change(path, how, value):
        import copy

        doc = copy.deepcopy(document)
        if not path:
            return value
        parent = doc
        for key in path[:-1]:
            parent = parent[key]
        if how == "drop" and isinstance(parent, dict):
            del parent[path[-1]]
        else:
            parent[path[-1]] = value
        return doc

    as_json = st.builds(change, st.sampled_from(every), st.sampled_from(["set", "drop"]), json_value)
    text = json.dumps(document)
    return st.one_of(as_json.map(json.dumps), st.integers(0, len(text)).map(lambda n: text[:n]),
                     st.binary(max_size=40).map(lambda b: b.decode("latin-1")))


def check_outcome(code, err, allowed=(0, 2)):
    assert "Traceback" not in err, err
    assert code in allowed, (code, err)
    assert len(error_lines(err)) == (1 if code == 2 else 0), (code, err)


@pytest.fixture(scope="module")
def ladder_file(tmp_path_factory):
    """A good results file of a cheap ladder (Rummoli's random against its default bot, 1 deal, seed 1)."""
    from rumino.tournament import ladder

    with mock.patch.dict(ladder.LADDERS, {"rummoli": ("random", "default")}):
        path = tmp_path_factory.mktemp("ladder") / "good.json"
        ladder.run_ladder(deals=1, seed=1, variants=["rummoli"], out=path)
    return json.loads(path.read_text())


def _fuzz_a_results_file(good: dict, out: Path, first_work: str, argv: list[str]) -> None:
    """A results file changed anywhere (from ``good``) is resumed or refused in one line, and a refused one is
    kept: ``argv`` runs with ``--out out``, and reaching ``first_work`` (patched) means the file was accepted."""
    @settings(max_examples=60, **FEW)
    @given(mutated(good))
    def any_file(text):
        out.write_text(text, encoding="utf-8", errors="surrogateescape")
        before = out.read_bytes()
        with mock.patch(first_work, _stop):
            try:
                code, _, err = run([*argv, "--no-progress", "--out", str(out)])
            except WorkStarted:
                return
        check_outcome(code, err)
        if code == 2:
            assert out.read_bytes() == before

    any_file()


def test_fuzz_the_ladder_results_file(ladder_file, tmp_path):
    """A results file changed anywhere is resumed or refused in one line, and a refused one is kept."""
    _fuzz_a_results_file(ladder_file, tmp_path / "l.json", "rumino.tournament.ladder.tournament",  # a game to play
                         ["ladder", "--variants", "rummoli", "--games", "1", "--seed", "1"])


@pytest.fixture(scope="module")
def atlas_file(tmp_path_factory):
    """A good house-rule atlas: Gin's knock at the wall against its default, 2 deals, seed 1."""
    from rumino.tournament.atlas import run_atlas

    path = tmp_path_factory.mktemp("atlas") / "good.json"
    run_atlas(games=["gin"], knobs={"gin": {"wall_knock": None}}, deals=2, seed=1, out=path)
    return json.loads(path.read_text())


def test_fuzz_the_atlas_results_file(atlas_file, tmp_path):
    """An atlas changed anywhere is resumed or refused in one line, and a refused one is kept."""
    _fuzz_a_results_file(atlas_file, tmp_path / "a.json", "rumino.tournament.atlas.play_deal",  # a deal to play
                         ["atlas", "--games", "gin", "--knobs", "wall_knock", "--deals", "2", "--seed", "1"])


array_file = st.one_of(
    st.binary(max_size=64),  # not an array at all
    st.tuples(st.lists(st.integers(0, 4), min_size=0, max_size=3), st.sampled_from(["f4", "f8", "u1", "i8", "U3", "O"]))
    .map(lambda spec: ("array", tuple(spec[0]), spec[1])),
    st.just("missing"), st.just("cut"))


def _write_array(path: Path, spec) -> None:
    import numpy as np

    if spec == "missing":
        return
    if spec == "cut":
        np.save(path, np.zeros((3, 2, 50), np.float32))
        with open(path, "r+b") as f:
            f.truncate(100)
    elif isinstance(spec, bytes):
        path.write_bytes(spec)
    else:
        _, shape, dtype = spec
        np.save(path, np.zeros(shape, dtype=dtype), allow_pickle=True)


def test_fuzz_the_optimal_tables(tmp_path):
    """Any files where a table should be: the answer (direct, for 1 draw) or a one-line refusal."""
    from rumino.odds.enumerate import PackShape
    from rumino.odds.optimal import RUMINO, shape_key

    key = shape_key(PackShape(4, 13, 2, 4), RUMINO)

    @settings(max_examples=40, **FEW)
    @given(st.one_of(st.just(None), json_value.map(json.dumps), st.text(max_size=20)),
           st.fixed_dictionaries({name: array_file for name in ("prob", "goal", "deadwood", "expected")}),
           st.sampled_from(["--table-dir", "RUMINO_OPTIMAL_DIR"]))
    def any_table(meta, arrays, how):
        import shutil

        base = tmp_path / "tables"
        shutil.rmtree(base, ignore_errors=True)
        d = base / key
        d.mkdir(parents=True)
        if meta is not None:
            (d / "meta.json").write_text(meta)
        for name, spec in arrays.items():
            _write_array(d / f"{name}.npy", spec)
        argv = ["odds", "best", "7h 8h 9h 5c 5d 5s Ks 2c", "--goal", "gin", "--draws", "1"]
        if how == "--table-dir":
            code, _, err = run(argv + ["--table-dir", str(base)])
        else:
            code, _, err = run(argv, env={"RUMINO_OPTIMAL_DIR": str(base)})
        check_outcome(code, err)
        assert code == 2 or meta is None  # a meta.json means a table to read: these are all damaged

    any_table()


@pytest.fixture(scope="module")
def record_text():
    return (Path(__file__).resolve().parents[2] / "book" / "data" / "record_example.json").read_text()


def test_fuzz_game_records(record_text):
    """A game record changed anywhere loads and replays, or is refused with a RecordError: nothing else."""
    from rumino.errors import RecordError
    from rumino.playing.records import loads_record, replay

    @settings(max_examples=80, **FEW)
    @given(mutated(json.loads(record_text)))
    def any_record(text):
        try:
            replay(loads_record(text))
        except RecordError as err:
            assert str(err) and "\n" not in str(err), err

    any_record()


table_dir_env = st.one_of(st.sampled_from(["", " ", "/etc/passwd", "/proc", "/dev/null", NOWHERE, "~", "."]), typed)


@settings(max_examples=40, **FEW)
@given(st.fixed_dictionaries({"RUMINO_OPTIMAL_DIR": table_dir_env},
                             optional={"XDG_CACHE_HOME": table_dir_env, "COLUMNS": st.sampled_from(["0", "-1", "x",
                                                                                                    "99999"])}),
       st.sampled_from([["odds", "best", "7h 8h 9h 5c 5d 5s Ks 2c", "--goal", "knock", "--draws", "1"],
                        ["optimal", "figures", "--out", NOWHERE + "/f.json"],
                        ["simulate", "--players", "solitaire,greedy", "--games", "1", "--no-progress"]]))
def test_fuzz_the_environment(env, argv):
    env = {k: v.replace("\x00", "") for k, v in env.items()}
    code, _, err = run(argv, env=env)
    check_outcome(code, err)


def _python_with(encoding: str) -> dict:
    root = Path(__file__).resolve().parents[2]
    return dict(os.environ, PYTHONIOENCODING=encoding,
                PYTHONPATH=os.pathsep.join([str(root), str(root / "widgets")]))


@settings(max_examples=5, **FEW)
@given(st.sampled_from(["ascii", "latin-1", "cp1252", "ascii:strict", "utf-8"]),
       st.sampled_from([["deadwood", "7♥ 8♥ 9♥ 10♥ 5♣ 5♦ 5♠", "--variant", "romme"],
                        ["table", "--table", "5c 6c 7c 8c 9c", "--hand", "7c Kd JK"],
                        ["play", "--variant", "gin", "--seed", "2"], ["odds", "draws", "--outs", "8", "--unseen",
                                                                      "47", "--draws", "1"]]))
def test_fuzz_terminals_that_cannot_show_unicode(encoding, argv):
    import subprocess

    done = subprocess.run([sys.executable, "-m", "rumino", *argv], input="s\n7♦\nq\n", capture_output=True,
                          text=True, encoding="utf-8", errors="replace", env=_python_with(encoding), timeout=120)
    check_outcome(done.returncode, done.stderr)


# what a person may type at the prompt: the game's words and cards, numbers of every kind, noise
typed_line = st.one_of(
    st.sampled_from(["s", "t", "d", "stock", "discard", "draw", "1", "2", "9", "0", "-1", "²", "٣", "?", "h", "v",
                     "auto", "", " ", "k", "g", "r", "b 3", "y", "n", "p", "knock 7h", "gin 2c", "new 5c 6c 7c",
                     "lay 7c on 0", "move 9c from 1 to new", "place 5c 6c 7c", "play lay 10s Js Qs Ks",
                     "layoff 8h on 0", "exchange 7h on 1", "JK(8c)", "\x1b[A", "\x00", "x" * 3000]),
    good_card.map(lambda c: c), st.builds(lambda a, b: f"{a} {b}", st.sampled_from(["k", "g", "r", "discard"]),
                                          good_card),
    typed.map(lambda t: t.replace("\n", " ")))


@settings(max_examples=30, **FEW)
@given(st.sampled_from(VARIANTS), st.integers(0, 3), st.lists(typed_line, max_size=12))
def test_fuzz_what_is_typed_at_rumino_play(variant, seed, lines):
    """Any lines typed (then the end of input): refusals at the prompt, never a traceback, exit code 0."""
    code, out, err = run(["play", "--variant", variant, "--seed", str(seed)], stdin="\n".join(lines) + "\n")
    check_outcome(code, err, allowed=(0,))
    assert ("End of input" in out or "You left the game" in out or "wins" in out or "game over" in out.lower()), \
        out[-300:]


# Ctrl-C at a random moment of a command that runs a while (or of one that ends first: it must simply end)
LONG = {
    "simulate": ["simulate", "--games", "1000000", "--players", "greedy,random"],
    "tournament": ["tournament", "--players", "greedy,random", "--games", "100000", "--workers", "2"],
    "odds deal": ["odds", "deal", "--samples", "100000000", "--seed", "1", "--workers", "2"],
    "odds opening": ["odds", "opening", "--samples", "100000000", "--seed", "1"],
    "compare": ["compare", "knock-rummy", "--samples", "1000000", "--games", "100000", "--seed", "1", "--workers",
                "2"],
    "play": ["play", "--seed", "1"],  # waiting at the prompt, its stdin open
    "ladder": ["ladder", "--variants", "romme", "--games", "50", "--out", "{tmp}/ladder.json"],
    "atlas": ["atlas", "--games", "romme", "--deals", "200", "--out", "{tmp}/atlas.json"],
    "optimal build": ["optimal", "build", "--shape", "4,13,1,2", "--dir", "{tmp}/tables"],
    "book serve": ["book", "serve", "--dir", "{tmp}/site", "--port", "0"],
    "book build": ["book", "--book", "{tmp}/slow", "build", "--out", "{tmp}/built", "--no-handouts"],  # kernels
    "deadwood": ["deadwood", "7h 8h 9h 10h 5c 5d 5s"],  # ends in about a second: before or after the Ctrl-C
}


def _slow_book(book: Path) -> None:
    """Two chapters whose one cell waits a minute: a build with two kernels at work to interrupt."""
    import shutil

    real = Path(__file__).resolve().parents[2] / "book"
    book.mkdir()
    for name in ("_config.yml", "bookutils.py"):
        shutil.copy2(real / name, book / name)
    shutil.copytree(real / "_ext", book / "_ext")
    (book / "_toc.yml").write_text("format: jb-book\nroot: a\nchapters:\n- file: b\n")
    for name in "ab":
        cells = [{"cell_type": "markdown", "metadata": {}, "source": f"# {name}", "id": "c0"},
                 {"cell_type": "code", "metadata": {}, "execution_count": None, "outputs": [], "id": "c1",
                  "source": "import time\ntime.sleep(60)"}]
        (book / f"{name}.ipynb").write_text(json.dumps({"cells": cells, "nbformat": 4, "nbformat_minor": 5,
                                                        "metadata": {"kernelspec": {"name": "python3",
                                                                                    "language": "python",
                                                                                    "display_name": "Python 3"}}}))


def test_fuzz_ctrl_c(tmp_path):
    import signal
    import subprocess
    import time

    (tmp_path / "site").mkdir()
    (tmp_path / "site" / "index.html").write_text("<p>a book</p>")
    _slow_book(tmp_path / "slow")

    @settings(max_examples=10, **FEW)
    @example("book build", 3.0)  # kernels at work: nbclient takes the Ctrl-C itself
    @example("play", 1.5)
    @given(st.sampled_from(sorted(LONG)), st.floats(1.0, 3.0))  # after Python's own start (none of rumino's)
    def interrupted(name, delay):
        argv = [a.replace("{tmp}", str(tmp_path)) for a in LONG[name]]
        p = subprocess.Popen([sys.executable, "-m", "rumino", *argv], stdin=subprocess.PIPE, stdout=subprocess.PIPE,
                             stderr=subprocess.PIPE, text=True, env=_python_with("utf-8"), start_new_session=True)
        try:
            time.sleep(delay)
            os.killpg(p.pid, signal.SIGINT)  # as a terminal sends Ctrl-C: to the command and its workers
            _, err = p.communicate(timeout=120)
        finally:
            if p.poll() is None:
                os.killpg(p.pid, signal.SIGKILL)
                p.communicate()
        assert "Traceback" not in err, (argv, err)
        if p.returncode == 130:  # while its module still loads, the command is named without its action
            assert error_lines(err) in ([f"rumino {name}: interrupted"], [f"rumino {argv[0]}: interrupted"]), err
        else:  # it ended before the Ctrl-C came
            assert name == "deadwood" and p.returncode == 0, (argv, p.returncode, err)

    interrupted()
