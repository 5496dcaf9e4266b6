"""Bad arguments for every command: exit code 0 or 2, never a traceback, at most one line on stderr (issue 25).

The smallest failing examples of a sweep of bad arguments, each kept as a plain test.

Every call runs ``guarded``: the steps that build the book or the optimal tables, serve, print PDFs,
or replace this process with JupyterLab raise :class:`WorkStarted` instead of starting. The
strategies never ask for them with good arguments; the guard turns a mistake into a failed test
instead of a 16-minute build.
"""

from __future__ import annotations

import contextlib
import io
import os
import sys
from unittest import mock

import pytest

from rumino.cli import main

NOWHERE = "/nonexistent/rumino-fuzz"  # never created: no book, no table, no built HTML


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


def run(argv: list[str]) -> tuple[int, str, str]:
    """``rumino argv`` in this process, guarded: ``(exit code, stdout, stderr)``. stdin is empty (its end
    ends ``rumino play``; pytest's own stdin refuses reads) and the environment is put back after
    (``rumino optimal play`` sets ``RUMINO_OPTIMAL_DIR``)."""
    out, err, env, stdin = io.StringIO(), io.StringIO(), dict(os.environ), sys.stdin
    sys.stdin = io.StringIO("")
    try:
        with guarded(), contextlib.redirect_stdout(out), contextlib.redirect_stderr(err):
            try:
                code = main(argv)
            except SystemExit as done:  # argparse's errors
                code = done.code
    finally:
        sys.stdin = stdin
        os.environ.clear()
        os.environ.update(env)
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
    (["play", "--seed", "abc"], "rumino play: argument --seed: invalid int value: 'abc' (see rumino play --help)."),
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
