"""The command as a Python user expects it: ``--version``, ``python -m rumino``, help texts that read right."""

from __future__ import annotations

import argparse
import subprocess
import sys
import tomllib
from pathlib import Path

import pytest

import rumino
from rumino.cli import build_parser, main

ROOT = Path(__file__).resolve().parents[2]


def test_version_is_typed_once_and_printed_by_the_command(capsys):
    project = tomllib.loads((ROOT / "pyproject.toml").read_text())["project"]
    assert "version" not in project and "version" in project["dynamic"]  # read from rumino.__version__
    with pytest.raises(SystemExit) as done:
        main(["--version"])
    assert done.value.code == 0
    assert capsys.readouterr().out.strip() == f"rumino {rumino.__version__}"


def test_python_dash_m_rumino_is_the_command():
    done = subprocess.run([sys.executable, "-m", "rumino", "--help"], capture_output=True, text=True, cwd=ROOT)
    assert done.returncode == 0, done.stderr
    assert done.stdout.startswith("usage: rumino")
    assert "simulate" in done.stdout and "odds" in done.stdout


def _every_parser(parser: argparse.ArgumentParser, name: str = "rumino"):
    yield name, parser
    for action in parser._actions:  # argparse keeps the subcommands only here
        if isinstance(action, argparse._SubParsersAction):
            for sub_name, sub in action.choices.items():
                yield from _every_parser(sub, f"{name} {sub_name}")


def test_no_help_text_shows_a_doubled_percent_sign():
    """argparse %-formats ``help=`` but not ``description=``: '95%%' is right in one, wrong in the other."""
    shown = {name: p.format_help() for name, p in _every_parser(build_parser())}
    assert len(shown) > 10
    assert [name for name, text in shown.items() if "%%" in text] == []
    assert any("95%" in text for text in shown.values())


@pytest.mark.parametrize("argv", [
    ["simulate", "--games", "1", "--rules", "knock_max_deadwood=5", "knock_max_deadwood=9"],
    ["compare", "rumino:knock_max_deadwood=5,knock_max_deadwood=6"],
])
def test_a_house_rule_given_twice_is_refused_in_one_line(argv, capsys):
    """The last value used to win silently; now the command says which rule was doubled (exit 2)."""
    assert main(argv) == 2
    err = capsys.readouterr().err.strip()
    assert len(err.splitlines()) == 1 and "knock_max_deadwood" in err and "twice" in err, err


@pytest.mark.parametrize("argv, named", [
    (["play", "--seed", "-1"], "--seed is -1"),
    (["compare", "--width", "0", "rumino"], "--width is 0"),
    (["book", "serve", "--port", "-1"], "--port is -1"),
    (["book", "serve", "--port", "70000"], "--port is 70000"),
    (["lab", "--port", "-1"], "--port is -1"),
    (["odds", "deal", "--samples", "10", "--seed", "1", "--workers", "999"], "--workers is 999"),
    (["compare", "rumino", "--samples", "10", "--seed", "1", "--workers", "999"], "--workers is 999"),
])
def test_numbers_out_of_range_are_refused_in_one_line(argv, named, capsys):
    """These printed a traceback (seed, width, ports) or were accepted (999 workers would start 999 processes)."""
    assert main(argv) == 2
    err = capsys.readouterr().err.strip()
    assert len(err.splitlines()) == 1 and named in err, err


@pytest.mark.parametrize("argv, said", [
    # the sizes are 6, 7, 8, 10 and 11: "6 to 11" gave the wrong reason for 9
    (["deadwood", "--variant", "knock", "2c 3c 4c 5c 6c 7c 8c 9c 10c"],
     "an American Knock Rummy hand has 6, 7, 8, 10 or 11 cards; 2c 3c 4c 5c 6c 7c 8c 9c 10c has 9."),
    # Gin keeps its melds in the hand: the help says robber or romme, and now the command does too
    (["table", "--variant", "gin", "--table", "5c 6c 7c", "--hand", "8c"], "the games with melds on the table are"),
    # no book there is bad input (exit 2), not a failed build (exit 1)
    (["book", "--book", "/nonexistent", "build"], "no book found at /nonexistent"),
])
def test_wrong_inputs_get_the_right_reason_and_exit_2(argv, said, capsys):
    assert main(argv) == 2
    err = capsys.readouterr().err.strip()
    assert len(err.splitlines()) == 1 and said in err, err


@pytest.mark.parametrize("argv, named", [
    (["odds", "deal", "--samples", "99999999999999999999", "--seed", "1"], "--samples is 99999999999999999999"),
    (["odds", "opening", "--samples", "99999999999999999999", "--seed", "1"], "--samples is 99999999999999999999"),
    (["compare", "rumino", "--samples", "99999999999999999999", "--seed", "1"], "--samples is 99999999999999999999"),
    (["odds", "draws", "--outs", "3", "--unseen", "99999999999999999999", "--draws", "99999999999"],
     "unseen is 99999999999999999999"),
])
def test_astronomic_counts_are_refused_before_any_work(argv, named, capsys):
    """These ran out of memory (a MemoryError traceback) or hung on exact binomials of a 10^20-card pack."""
    assert main(argv) == 2
    err = capsys.readouterr().err.strip()
    assert len(err.splitlines()) == 1 and named in err, err


@pytest.mark.parametrize("address, said", [
    ("", "is empty"),  # was silently ignored: the profiles ran locally
    ("http://127.0.0.1:8786", "has the scheme 'http'"),
    ("tcp://127.0.0.1", "is not [scheme://]host:port"),
    ("tcp://127.0.0.1:70000", "has port 70000"),
    ("tcp://127.0.0.1:9", "no Dask scheduler answered"),  # nothing listens on port 9: a 30 s wait, then OSError
])
def test_a_dask_address_is_checked_and_an_unreachable_scheduler_is_one_line(address, said, capsys):
    argv = ["compare", "knock-rummy", "--samples", "50", "--games", "1", "--seed", "1", "--dask", address]
    assert main(argv) == 2
    err = capsys.readouterr().err.strip()
    assert len(err.splitlines()) == 1 and said in err, err


def test_the_optimal_tables_are_built_by_the_one_command_and_a_missing_table_says_how(tmp_path, capsys):
    """`python -m rumino.odds.optimal` died with a traceback when the tables were missing, and two
    messages gave two build times; now `rumino optimal` names one command and one measured cost."""
    from rumino.odds.optimal import BUILD_COMMAND, BUILD_COST

    assert BUILD_COMMAND == "rumino optimal build" and "16 minutes" in BUILD_COST
    for argv in (["optimal", "figures", "--dir", str(tmp_path), "--out", str(tmp_path / "f.json")],
                 ["optimal", "play", "--dir", str(tmp_path), "--out", str(tmp_path / "f.json")],
                 ["odds", "best", "7h 8h 9h 5c 5d 5s Ks 2c", "--goal", "gin", "--draws", "5", "--table-dir", str(tmp_path)]):
        assert main(argv) == 2, argv
        err = capsys.readouterr().err.strip()
        assert len(err.splitlines()) == 1 and BUILD_COMMAND in err and BUILD_COST in err, err
    assert main(["optimal", "build", "--shape", "4,13"]) == 2
    assert "--shape is '4,13'" in capsys.readouterr().err
