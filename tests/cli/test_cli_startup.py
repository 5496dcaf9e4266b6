"""The command starts light (issue 38): ``rumino --help`` and ``--version`` load no numba, numpy, scipy or plotly.

Tests never assert on time: these check which modules a start imports (what made it slow), and
``bench/bench_startup.py`` measures the CPU time beside a bare Python.
"""

from __future__ import annotations

import argparse
import os
import subprocess
import sys
from pathlib import Path

import pytest

from rumino.cli import COMMANDS, build_parser, main

ROOT = Path(__file__).resolve().parents[2]
HEAVY = ("numba", "numpy", "scipy", "plotly", "tqdm", "ipywidgets", "pandas")


# runs the command as `python -m rumino` does, then writes every module it imported into a file
PROBE = """
import runpy, sys
sys.argv = ["rumino", *sys.argv[2:]]
code = 0
try:
    runpy.run_module("rumino", run_name="__main__")
except SystemExit as done:
    code = done.code
open(OUT, "w").write("\\n".join(sorted(sys.modules)))
sys.exit(code)
"""


def _imported(tmp_path: Path, *argv: str, code: str | None = None) -> tuple[set[str], subprocess.CompletedProcess]:
    """The modules a fresh ``python -m rumino argv`` (or the Python ``code``) imported, and the finished run."""
    env = dict(os.environ, PYTHONPATH=os.pathsep.join([str(ROOT), str(ROOT / "widgets")]))
    out = tmp_path / "modules.txt"
    body = PROBE if code is None else code + "\nimport sys\nopen(OUT, 'w').write('\\n'.join(sys.modules))"
    script = f"OUT = {str(out)!r}\n" + body
    done = subprocess.run([sys.executable, "-c", script, "-", *argv], capture_output=True, text=True, env=env,
                          cwd=ROOT)
    return set(out.read_text().split("\n")) if out.exists() else set(), done


@pytest.mark.parametrize("argv", [["--help"], ["--version"], []])
def test_help_and_version_load_nothing_heavy(argv, tmp_path):
    names, done = _imported(tmp_path, *argv)
    assert done.returncode == (0 if argv else 2), done.stderr[-500:]  # no command: refused, as light
    assert "rumino.cli" in names  # the list is real: it names what was imported
    assert sorted(h for h in HEAVY if h in names) == []


def test_importing_rumino_loads_its_names_on_first_use(tmp_path):
    names, done = _imported(tmp_path, code="import rumino, rumino.cli; assert rumino.__version__")
    assert done.returncode == 0, done.stderr[-500:]
    assert "rumino.cli" in names and sorted(h for h in HEAVY if h in names) == []
    names, done = _imported(tmp_path, code="import rumino; rumino.min_deadwood")  # the first use loads the engine
    assert done.returncode == 0 and "rumino.hand.arrange" in names and "numpy" in names


def test_a_command_loads_only_its_own_module(tmp_path):
    names, done = _imported(tmp_path, "odds", "draws", "--outs", "8", "--unseen", "47", "--draws", "1")
    assert done.returncode == 0, done.stderr[-500:]
    assert "rumino.cli.odds" in names
    assert not {"rumino.cli.book", "rumino.cli.ladder", "rumino.cli.play", "plotly"} & names


def _help_lines(parser: argparse.ArgumentParser) -> dict[str, str]:
    for action in parser._actions:  # argparse keeps the subcommands only here
        if isinstance(action, argparse._SubParsersAction):
            return {a.dest: a.help for a in action._choices_actions}
    return {}


def test_the_command_table_is_what_the_modules_register():
    """Every module's commands, with the very line of ``rumino --help`` the table gives without loading it."""
    full = _help_lines(build_parser())
    assert full == {name: line for name, (_, line) in COMMANDS.items()}
    assert list(full) == list(COMMANDS)  # the same order in the help
    registering = sorted(p.stem for p in (ROOT / "rumino" / "cli").glob("*.py")
                         if "\ndef register(" in p.read_text(encoding="utf-8"))
    assert registering == sorted({module for module, _ in COMMANDS.values()})
    light = _help_lines(build_parser(""))  # what `rumino --help` shows: the same lines
    assert light == full


@pytest.mark.parametrize("argv", [["--version", "extra"], ["--version", "deadwood", "7h"], ["--version", "--json"]])
def test_version_takes_nothing_else(argv, capsys):
    with pytest.raises(SystemExit) as done:
        main(argv)
    assert done.value.code == 2
    err = capsys.readouterr().err.strip()
    assert len(err.splitlines()) == 1 and "--version takes nothing else" in err, err
