"""Every bad input, file and interrupt of issue 38, item 4, one test (or one row) a bullet.

A refusal is one line naming the input and the reason, exit code 2, and nothing written before it; a
Ctrl-C is one line, "interrupted", and exit code 130; no data is lost. The Hypothesis fuzz of the same
surfaces (argument shapes, files, the environment, stdin, interrupts) is ``test_cli_fuzz.py``.
"""

from __future__ import annotations

import json
import os
import signal
import socket
import subprocess
import sys
import threading
import time
from pathlib import Path

import numpy as np
import pytest

from rumino.cli import main

ROOT = Path(__file__).resolve().parents[2]
HAND = "7h 8h 9h 5c 5d 5s Ks 2c"


def refused(argv: list[str], capsys) -> str:
    """The one line ``rumino argv`` printed on stderr when refusing it with exit code 2 (nothing on stdout)."""
    try:
        code = main(argv)
    except SystemExit as done:  # argparse's own refusals
        code = done.code
    out, err = capsys.readouterr()
    assert code == 2 and "Traceback" not in err, (argv, code, err)
    lines = [line for line in err.splitlines() if line.strip()]
    assert len(lines) == 1 and out == "", (argv, out, err)
    return lines[0]


def env_with_rumino(**extra) -> dict:
    return dict(os.environ, PYTHONPATH=os.pathsep.join([str(ROOT), str(ROOT / "widgets")]), **extra)


def run_rumino(*argv: str, **kw) -> subprocess.CompletedProcess:
    return subprocess.run([sys.executable, "-m", "rumino", *argv], capture_output=True, text=True,
                          env=kw.pop("env", env_with_rumino()), timeout=kw.pop("timeout", 120), **kw)


# ---------------------------------------------------------------------------- tracebacks found


def test_play_with_stdin_closed_is_refused_before_the_deal():
    done = subprocess.run([sys.executable, "-m", "rumino", "play", "--seed", "1"], capture_output=True, text=True,
                          env=env_with_rumino(), timeout=120, preexec_fn=lambda: os.close(0))
    assert done.returncode == 2 and done.stdout == "", done.stderr
    assert done.stderr.strip() == ("rumino play: there is no input to read your moves from (stdin is closed): run "
                                   "rumino play at a terminal, or pipe the moves in.")


@pytest.mark.parametrize("argv", [["tournament", "--players", "greedy,random", "--games", "1"],
                                  ["ladder", "--variants", "rummoli", "--games", "1"],
                                  ["strength", "--variant", "gin", "--a", "greedy", "--b", "random", "--deals", "1"]])
def test_a_negative_seed_is_refused(argv, capsys):
    assert refused(argv + ["--seed", "-1", "--no-progress"], capsys) == \
        f"rumino {argv[0]}: --seed is -1: it must be 0 or more (the seed of the deals)."


GOOD_GAME = {"players": ["random", "default"], "left_out": {}, "hands": {}, "cpu_seconds": 1.0, "wall_seconds": 1.0,
             "tournament": {"variant": "rummoli", "players": ["random", "default"], "deals": 1, "seed": 1, "table": 2,
                            "model": "bradley-terry", "ratings_elo": {}, "win_rate": {},
                            "luck": {"best": "default", "weakest": "random", "spread_elo": [1, 0, 2]}}}


@pytest.mark.parametrize("content, said", [
    ("[]", "it holds a list"), ("null", "it holds null"), ('"x"', "it holds a text"), ("7", "it holds a number"),
    ("{not json", "it is not JSON"), ("\x00\xff", "it is not JSON"),
    ('{"games": {}}', "no whole numbers 'deals' and 'seed'"),
    ('{"deals": 1, "seed": 1}', "neither games nor house-rule columns"),
    ('{"deals": 1, "seed": 1, "games": 5}', "its 'games' is not an object"),
    ('{"deals": 1, "seed": 1, "games": {"canasta": {}}}', "its game 'canasta' has no ladder"),
    ('{"deals": 1, "seed": 1, "games": {"rummoli": []}}', "its game 'rummoli' is not an object"),
    ('{"deals": 1, "seed": 1, "games": {"rummoli": {"players": "x"}}}', "has no list of players"),
    (json.dumps({"deals": 1, "seed": 1, "games": {"rummoli": dict(GOOD_GAME, tournament={"luck": 3})}}),
     "a tournament has no valid 'variant'"),
    ('{"deals": 1, "seed": 1, "columns": []}', "its 'columns' is not an object"),
    ('{"deals": 1, "seed": 1, "columns": {"x": {}}}', "its column 'x' is not a house-rule column"),
    ('{"deals": 1, "seed": 1, "columns": {"romme-opening": {"values": 3}}}', "lacks its game, knob, default or values"),
])
def test_a_ladder_file_of_the_wrong_shape_is_refused_and_kept(content, said, tmp_path, capsys):
    out = tmp_path / "ladder.json"
    out.write_bytes(content.encode("latin-1"))
    line = refused(["ladder", "--variants", "rummoli", "--games", "1", "--seed", "1", "--no-progress", "--out",
                    str(out)], capsys)
    assert said in line and str(out) in line and "--replace" in line, line
    assert out.read_bytes() == content.encode("latin-1") and sorted(tmp_path.iterdir()) == [out]


class Listener:
    """A TCP listener on 127.0.0.1 that greets each connection with ``greeting`` (None: says nothing)."""

    def __init__(self, greeting: bytes | None):
        self.sock = socket.create_server(("127.0.0.1", 0))
        self.port = self.sock.getsockname()[1]
        self.greeting, self.conns = greeting, []
        threading.Thread(target=self._serve, daemon=True).start()

    def _serve(self):
        while True:
            try:
                conn, _ = self.sock.accept()
            except OSError:
                return
            self.conns.append(conn)
            if self.greeting is not None:
                conn.sendall(self.greeting)

    def close(self):
        for c in self.conns:
            c.close()
        self.sock.close()


GARBAGE = b"HTTP/1.1 200 OK\r\n\r\nnot a scheduler" * 3  # its first 8 bytes read as a length: 3 EiB


@pytest.mark.parametrize("argv", [["compare", "knock-rummy", "--samples", "5", "--games", "1", "--seed", "1"],
                                  ["tournament", "--players", "greedy,random", "--games", "1"],
                                  ["ladder", "--variants", "rummoli", "--games", "1"]])
def test_dask_at_a_listener_that_answers_garbage_is_refused(argv, capsys):
    listener = Listener(GARBAGE)
    try:
        line = refused(argv + ["--no-progress", "--dask", f"tcp://127.0.0.1:{listener.port}"], capsys)
    finally:
        listener.close()
    assert f"something at tcp://127.0.0.1:{listener.port} answered, but not as a Dask scheduler does" in line


def test_dask_at_a_listener_that_never_answers_times_out():
    from rumino.compare.figures import check_dask_reachable
    from rumino.errors import RuleConfigError

    listener = Listener(None)
    try:
        start = time.monotonic()
        with pytest.raises(RuleConfigError, match="accepted the connection but said nothing within 0.5 s"):
            check_dask_reachable(f"tcp://127.0.0.1:{listener.port}", timeout=0.5)
        assert time.monotonic() - start < 30  # not a hang (a bound, not a timing claim)
    finally:
        listener.close()


def test_a_real_scheduler_greeting_passes_the_check():
    """What distributed's TCP comm sends first: 8 bytes of length, then the frames' count, lengths and bytes."""
    import struct

    from rumino.compare.figures import check_dask_reachable

    frames = [b"\x82\xa2op\xa9handshake", b"x" * 40]
    body = struct.pack(f"<{len(frames) + 1}Q", len(frames), *map(len, frames)) + b"".join(frames)
    listener = Listener(struct.pack("<Q", len(body)) + body)
    try:
        assert check_dask_reachable(f"tcp://127.0.0.1:{listener.port}", timeout=5).endswith(str(listener.port))
    finally:
        listener.close()


def _damaged_table(base: Path, damage: str) -> Path:
    """A table folder of the full pack with one kind of damage."""
    from rumino.odds.enumerate import PackShape
    from rumino.odds.optimal import RUMINO, shape_key

    d = base / shape_key(PackShape(4, 13, 2, 4), RUMINO)
    d.mkdir(parents=True)
    (d / "meta.json").write_text("{not json" if damage == "meta" else json.dumps({"horizon": 10}))
    if damage == "prob-garbage":
        (d / "prob.npy").write_bytes(b"garbage, not an array")
    elif damage == "prob-shape":
        np.save(d / "prob.npy", np.zeros((3, 10, 5), np.float32))
    elif damage == "prob-cut":
        np.save(d / "prob.npy", np.zeros((3, 2, 20), np.float32))
        with open(d / "prob.npy", "r+b") as f:  # a header that promises more than the file holds
            f.truncate(200)
    return base


DAMAGE = ["meta", "prob-garbage", "prob-shape", "prob-cut", "prob-missing"]


@pytest.mark.parametrize("damage", DAMAGE)
def test_a_damaged_table_is_refused_wherever_it_is_given(damage, tmp_path, capsys, monkeypatch):
    base = _damaged_table(tmp_path / "tables", damage)
    out = tmp_path / "figures.json"
    for argv in (["odds", "best", HAND, "--goal", "gin", "--draws", "1", "--table-dir", str(base)],
                 ["optimal", "figures", "--dir", str(base), "--out", str(out)],
                 ["optimal", "play", "--dir", str(base), "--out", str(out)]):
        line = refused(argv, capsys)
        assert "is damaged" in line and "rumino optimal build" in line, line
    monkeypatch.setenv("RUMINO_OPTIMAL_DIR", str(base))
    for argv in (["odds", "best", HAND, "--goal", "knock", "--draws", "1"],
                 ["ladder", "--variants", "rumino", "--games", "1", "--no-progress"],  # this one crashed the ladder
                 ["tournament", "--players", "solitaire,greedy", "--games", "1", "--no-progress"]):
        assert "is damaged" in refused(argv, capsys)
    assert not out.exists()


def test_a_table_with_values_that_are_not_chances_is_refused(tmp_path):
    from rumino.odds.enumerate import PackShape, class_count
    from rumino.odds.optimal import OptimalTable, TableDamagedError, TableMissingError, build_tables

    small = PackShape(2, 6, 1, 2)
    d = build_tables(small, tmp_path, horizon=2, tol=1e-6, threads=1)
    assert OptimalTable.load(small, directory=tmp_path).horizon == 2  # a good one loads
    prob = np.load(d / "prob.npy")
    prob[0, 0, 0] = np.nan
    np.save(d / "prob.npy", prob)
    with pytest.raises(TableDamagedError, match="holds values that are not chances"):
        OptimalTable.load(small, directory=tmp_path)
    (d / "goal.npy").unlink()
    np.save(d / "prob.npy", np.zeros((3, 2, class_count(small, 7)), np.float32))
    with pytest.raises(TableDamagedError, match="goal.npy is missing"):
        OptimalTable.load(small, directory=tmp_path)
    (d / "meta.json").unlink()
    with pytest.raises(TableMissingError):  # no table at all: the commands' other route (built, or direct)
        OptimalTable.load(small, directory=tmp_path)


@pytest.fixture
def no_build(monkeypatch):
    """A refusal must come first: reaching the build is a failed test, not a 16-minute build."""
    def stop(*a, **k):
        raise AssertionError("the build started")

    monkeypatch.setattr("rumino.cli.optimal.build_tables", stop)


@pytest.mark.parametrize("argv, said", [
    (["--threads", "999"], "--threads is 999: this machine has"),
    (["--threads", "0"], "--threads is 0: it must be at least 1"),
    (["--dir", "/proc/rumino"], "--dir is '/proc/rumino': nothing can be written in /proc"),
    (["--dir", "/etc/passwd/x"], "/etc/passwd is a file, not a folder"),
    (["--dir", ""], "--dir is '': give a folder"),
    (["--shape", "1,5,1,1"], "a pack of 6 cards cannot hold a 7-card hand and a card to draw"),
])
def test_optimal_build_refuses_before_any_work(argv, said, capsys, no_build):
    assert said in refused(["optimal", "build", "--no-progress"] + (["--shape", "2,5,1,1"] if "--shape" not in argv
                                                                    else []) + argv, capsys)


def test_the_docstring_pack_builds_instead_of_dividing_by_zero(tmp_path, capsys):
    """``--shape 2,5,1,1`` (the module's own example): 4 cards unseen, and the check against chapter 5's
    no-reshuffle chain drew a 5th (ZeroDivisionError). With nothing left to draw, nothing changes."""
    from rumino.odds.enumerate import PackShape
    from rumino.odds.optimal import KeepTarget, OptimalTable

    target = KeepTarget(PackShape(2, 5, 1, 1), 10, replace=False)
    assert np.isfinite(target.sf).all() and np.isfinite(target.st).all()
    assert np.array_equal(target.sf[4], target.sf[10]) and np.array_equal(target.st[4], target.st[10])
    assert main(["optimal", "build", "--shape", "2,5,1,1", "--horizon", "5", "--threads", "1", "--no-progress",
                 "--dir", str(tmp_path)]) == 0
    assert "'violations': 0" in capsys.readouterr().out
    table = OptimalTable.load(PackShape(2, 5, 1, 1), directory=tmp_path)
    assert 0 <= table.probability("2s 3s 4s 5s 2c 3c JK", "rumino", 5) <= 1


@pytest.mark.parametrize("argv", [
    ["compare", "rumino", "--samples", "5", "--games", "1", "--seed", "1", "--no-progress", "--save"],
    ["book", "build", "--out"], ["book", "pdf", "--out"], ["book", "slides", "--out"], ["book", "kit", "--out"],
    ["book", "assignments", "--out"], ["book", "student"], ["optimal", "build", "--shape", "2,5,1,1", "--dir"],
    ["optimal", "figures", "--out"], ["optimal", "play", "--out"],
    ["ladder", "--variants", "rummoli", "--games", "1", "--no-progress", "--out"],
])
@pytest.mark.parametrize("where", ["", " ", "/proc/rumino-out", "/etc/passwd/x"])
def test_an_odd_or_unwritable_out_is_refused_before_any_work(argv, where, capsys, no_build, monkeypatch):
    monkeypatch.setattr("rumino.cli.bookbuild.build", lambda *a, **k: pytest.fail("the build started"))
    line = refused(argv + [where], capsys)
    assert repr(where) in line or where in line, line
    assert any(words in line for words in ("give a", "nothing can be written", "is a file, not a folder",
                                           "is not a folder", "does not exist")), line
    assert ".part" not in line


def test_an_out_that_is_a_folder_or_a_file_is_named(tmp_path, capsys):
    line = refused(["compare", "rumino", "--samples", "5", "--seed", "1", "--save", str(tmp_path)], capsys)
    assert line.endswith(f"it is a folder; give a file (such as {tmp_path / 'results.json'}).")
    afile = tmp_path / "a.txt"
    afile.write_text("mine")
    assert "it is a file, not a folder" in refused(["book", "build", "--out", str(afile)], capsys)
    assert afile.read_text() == "mine"


@pytest.mark.parametrize("argv, shown", [
    (["deadwood", "7♥ 8♥ 9♥ 10♥ 5♣ 5♦ 5♠", "--variant", "romme"], "7h 8h 9h 10h"),
    (["deadwood", "7h 8h 9h 10h 5c 5d 5s"], "deadwood 0 - gin: yes"),
])
def test_a_terminal_without_unicode_gets_ascii_card_names(argv, shown):
    done = run_rumino(*argv, env=env_with_rumino(PYTHONIOENCODING="ascii"))
    assert done.returncode == 0 and done.stderr == "", done.stderr
    assert shown in done.stdout and done.stdout.isascii()


def test_play_on_a_terminal_without_unicode_plays_in_ascii():
    done = run_rumino("play", "--seed", "1", input="7♥\n?\nq\n", env=env_with_rumino(PYTHONIOENCODING="ascii"))
    assert done.returncode == 0 and "Traceback" not in done.stderr, done.stderr
    assert done.stdout.isascii() and "your hand:" in done.stdout and "is not understood" in done.stdout


# ---------------------------------------------------------------------------- Ctrl-C


def test_ctrl_c_keeps_the_ladder_games_finished_and_the_run_resumes(tmp_path):
    """The results file is written after each game: interrupted in the second, the first is kept, and the
    run again with the same settings plays only what is missing."""
    out = tmp_path / "ladder.json"
    argv = [sys.executable, "-m", "rumino", "ladder", "--variants", "rummoli,romme", "--games", "1", "--seed", "1",
            "--out", str(out)]
    p = subprocess.Popen(argv, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True, env=env_with_rumino(),
                         start_new_session=True)
    try:
        deadline = time.monotonic() + 600
        while not out.exists() and p.poll() is None and time.monotonic() < deadline:
            time.sleep(0.2)
        assert p.poll() is None, p.communicate()  # still playing Rommé's ladder
        os.killpg(p.pid, signal.SIGINT)  # as a terminal sends Ctrl-C: to the whole group
        _, err = p.communicate(timeout=120)
    finally:
        if p.poll() is None:
            os.killpg(p.pid, signal.SIGKILL)
    assert p.returncode == 130 and err == "rumino ladder: interrupted\n", err
    kept = json.loads(out.read_text())
    assert list(kept["games"]) == ["rummoli"] and kept["deals"] == 1
    assert not Path(str(out) + ".part").exists()
    from rumino.tournament import ladder

    assert ladder.read_results(out, deals=1, seed=1)["games"]["rummoli"] == kept["games"]["rummoli"]


def _ctrl_c_when(argv: list[str], ready) -> tuple[int, str]:
    """Run ``rumino argv``, send it a Ctrl-C once ``ready()`` is true, and return its exit code and stderr."""
    p = subprocess.Popen([sys.executable, "-m", "rumino", *argv], stdout=subprocess.PIPE, stderr=subprocess.PIPE,
                         text=True, env=env_with_rumino(), start_new_session=True)
    try:
        deadline = time.monotonic() + 600
        while not ready() and p.poll() is None and time.monotonic() < deadline:
            time.sleep(0.2)
        assert p.poll() is None, p.communicate()  # still playing
        os.killpg(p.pid, signal.SIGINT)  # as a terminal sends Ctrl-C: to the whole group
        _, err = p.communicate(timeout=120)
    finally:
        if p.poll() is None:
            os.killpg(p.pid, signal.SIGKILL)
    return p.returncode, err


def test_ctrl_c_keeps_the_strength_deals_finished_and_the_match_resumes(tmp_path, capsys, monkeypatch):
    """A strength match keeps each chunk of deals as it finishes: stopped by Ctrl-C (two workers), it keeps
    whole deals only, and the same command again starts from them and plays on (here stopped again after a
    chunk, in this process: the whole match would take minutes)."""
    from rumino.tournament import strength

    out, deals = tmp_path / "strength.json", 20_000  # minutes of play: the Ctrl-C comes long before the end
    argv = ["strength", "--variant", "gin", "--a", "greedy", "--b", "random", "--deals", str(deals), "--seed", "2",
            "--workers", "2", "--out", str(out)]
    path = strength.journal_path(out, "gin", "greedy", "random", 2, deals)
    settings = strength.match_settings("gin", "greedy", "random", deals=deals, seed=2)
    code, err = _ctrl_c_when(argv, lambda: path.exists() and path.read_bytes().count(b"\n") > 3)
    assert code == 130 and err == "rumino strength: interrupted\n", err
    first = strength.open_journal(path, settings)
    assert len(first.kept) >= 3 and not first.torn and not out.exists()
    i = min(first.kept)
    assert strength.play_deal("gin", "greedy", "random", 2, i)["margins"] == first.kept[i]["margins"]
    real, chunks = strength._play_chunk, []

    def one_chunk_then_ctrl_c(job):
        if chunks:
            raise KeyboardInterrupt
        chunks.append(job)
        return real(job)

    monkeypatch.setattr(strength, "_play_chunk", one_chunk_then_ctrl_c)
    assert main(argv[:-3] + ["1", "--out", str(out)]) == 130
    assert capsys.readouterr().err == (f"resuming: {len(first.kept):,} of {deals:,} deals already played (kept in "
                                       f"{path})\nrumino strength: interrupted\n")
    again = strength.open_journal(path, settings)
    assert set(again.kept) == set(first.kept) | set(chunks[0][3]) and len(again.kept) == len(first.kept) + 5
    assert all(again.kept[k] == r for k, r in first.kept.items())


def test_ctrl_c_while_the_chapters_run_stops_their_kernels_in_one_line(tmp_path):
    """nbclient takes the Ctrl-C itself while a notebook runs (it stops the kernel and the chapter fails):
    the build still says "interrupted" once, exit 130, the kernels' own complaints kept out of sight."""
    from tests.cli.test_cli_fuzz import _slow_book

    _slow_book(tmp_path / "slow")
    out = tmp_path / "built"
    p = subprocess.Popen([sys.executable, "-m", "rumino", "book", "--book", str(tmp_path / "slow"), "build", "--out",
                          str(out), "--no-handouts"], stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True,
                         env=env_with_rumino(), start_new_session=True)
    try:
        deadline = time.monotonic() + 300
        while not (out / "kernel-logs" / "a.log").exists() and p.poll() is None and time.monotonic() < deadline:
            time.sleep(0.2)
        time.sleep(3)  # the kernels started and at their minute-long cell
        assert p.poll() is None
        os.killpg(p.pid, signal.SIGINT)
        _, err = p.communicate(timeout=120)
    finally:
        if p.poll() is None:
            os.killpg(p.pid, signal.SIGKILL)
    assert p.returncode == 130 and err == "rumino book build: interrupted\n", err


# numba's C extensions import each other while it loads; a Ctrl-C there was printed with a traceback by
# the one cut short, and numba, half imported, was then reported as a broken evaluator (found by the fuzz
# test's Ctrl-C, 1 s into `rumino play`). The interrupt is sent here at the import itself, so the test
# does not depend on timing.
_CTRL_C_AT_IMPORT = """
import os, runpy, signal, sys
module = sys.argv[1]
class CtrlCAtImport:
    fired = False
    @classmethod
    def find_spec(cls, name, path=None, target=None):
        if name == module and not cls.fired:
            cls.fired = True
            os.kill(os.getpid(), signal.SIGINT)
        return None
sys.meta_path.insert(0, CtrlCAtImport)
sys.argv = ["rumino", "play", "--seed", "1"]
runpy.run_module("rumino", run_name="__main__", alter_sys=True)
"""


@pytest.mark.parametrize("module", ["numba._devicearray", "numba.core.config", "llvmlite.binding.ffi",
                                    "rumino.hand.kernels"])
def test_ctrl_c_while_numba_loads_is_one_line(module):
    p = subprocess.run([sys.executable, "-c", _CTRL_C_AT_IMPORT, module], input="q\n", capture_output=True,
                       text=True, env=env_with_rumino(), timeout=120)
    assert p.returncode == 130 and p.stderr == "rumino play: interrupted\n", p.stderr


# ---------------------------------------------------------------------------- data never lost


@pytest.fixture
def short_ladder(monkeypatch):
    """Rummoli's ladder cut to its two cheap players: a results file in a second, not in ten."""
    from rumino.tournament import ladder

    monkeypatch.setitem(ladder.LADDERS, "rummoli", ("random", "default"))


def _rummoli_ladder_file(path: Path, deals: int = 1, seed: int = 1) -> dict:
    from rumino.tournament.ladder import run_ladder

    return run_ladder(deals=deals, seed=seed, variants=["rummoli"], out=path)


def test_ladder_out_refuses_other_settings_unless_replace(tmp_path, capsys, short_ladder):
    out = tmp_path / "l.json"
    _rummoli_ladder_file(out)
    before = out.read_text()
    for argv in (["--games", "2", "--seed", "1"], ["--games", "1", "--seed", "2"]):
        line = refused(["ladder", "--variants", "rummoli", "--no-progress", "--out", str(out)] + argv, capsys)
        assert "holds results of 1 deal with seed 1" in line and "--replace" in line
    assert out.read_text() == before
    line = refused(["ladder", "--variants", "rummoli", "--no-progress", "--replace"], capsys)
    assert "--replace is for --out FILE" in line
    assert main(["ladder", "--variants", "rummoli", "--games", "1", "--seed", "2", "--no-progress", "--out",
                 str(out), "--replace", "--json"]) == 0
    capsys.readouterr()
    assert json.loads(out.read_text())["seed"] == 2  # told to: the other file is replaced


def test_house_rules_into_a_ladder_file_keep_its_games(tmp_path, monkeypatch, short_ladder):
    from rumino.tournament import ladder

    out = tmp_path / "both.json"
    first = _rummoli_ladder_file(out, deals=2, seed=4)
    monkeypatch.setattr(ladder, "HOUSE_RULE_COLUMNS",
                        {"knock-limit": ("knock-rummy", "knock_max_deadwood", (0, 10), ("random", "greedy"))})
    ladder.run_house_rules(deals=2, seed=4, out=out)
    both = json.loads(out.read_text())
    assert both["games"] == json.loads(json.dumps(first["games"])) and both["ranking"]
    assert list(both["columns"]["knock-limit"]["values"]) == ["0", "10"]
    again = ladder.run_ladder(deals=2, seed=4, variants=["rummoli"], out=out)  # and the other way round
    assert again["columns"] == both["columns"]
    assert json.loads(out.read_text())["columns"] == both["columns"]


def test_book_build_out_never_replaces_what_it_did_not_make(tmp_path, capsys):
    from rumino.cli.bookbuild import BUILD_MARK, check_build_out

    mine = tmp_path / "mine"
    (mine / "html").mkdir(parents=True)
    (mine / "html" / "notes.txt").write_text("precious")
    line = refused(["book", "build", "--out", str(mine)], capsys)
    assert "already holds html that rumino book build did not make" in line
    assert (mine / "html" / "notes.txt").read_text() == "precious"
    check_build_out(tmp_path / "new")  # a new folder, or one of its own builds, is fine
    (mine / BUILD_MARK).write_text("made by rumino book build\n")
    check_build_out(mine)
    (tmp_path / "other").mkdir()
    (tmp_path / "other" / "photos").mkdir()
    check_build_out(tmp_path / "other")  # what a build does not touch is no reason to refuse


def test_book_student_never_writes_into_the_books_sources(tmp_path, capsys):
    book = ROOT / "book"
    before = {p: p.stat().st_mtime_ns for p in book.glob("*.ipynb")}
    for dest in (book, book / "student", book / "rules" / ".."):
        line = refused(["book", "--book", str(book), "student", str(dest)], capsys)
        assert "would replace its chapters" in line
    assert {p: p.stat().st_mtime_ns for p in book.glob("*.ipynb")} == before
    from rumino.cli.bookbuild import check_not_in_sources

    check_not_in_sources(book / "_build" / "student", book, "the student copy")  # its _build is the place
    check_not_in_sources(tmp_path / "copy", book, "the student copy")


def test_optimal_figures_and_play_write_into_the_book_not_the_current_folder(tmp_path, capsys, monkeypatch):
    from rumino.cli.optimal import figures_file

    monkeypatch.chdir(tmp_path)
    assert figures_file(None) == ROOT / "book" / "data" / "optimal_figures.json"
    for command in ("figures", "play"):
        line = refused(["optimal", command, "--dir", str(tmp_path / "no-table")], capsys)
        assert "no optimal table" in line or "is not built" in line, line
    assert list(tmp_path.iterdir()) == []  # nothing written relative to the current folder


def test_optimal_figures_out_must_be_a_figures_file(tmp_path, capsys):
    out = tmp_path / "f.json"
    out.write_text("[1, 2]")
    line = refused(["optimal", "figures", "--dir", str(tmp_path), "--out", str(out)], capsys)
    assert "the file there is not a figures file" in line and out.read_text() == "[1, 2]"


# ---------------------------------------------------------------------------- wrongly accepted


@pytest.mark.parametrize("argv, said", [
    (["simulate", "--games", "1", "--players", "greedy,threshold:"], "player 'threshold:' has a colon and no value"),
    (["tournament", "--games", "1", "--players", "greedy,search:"], "player 'search:' has a colon and no value"),
    (["simulate", "--games", "٥"], "argument --games: '٥' is not a whole number written with the digits 0-9"),
    (["simulate", "--games", "1_0"], "argument --games: '1_0' is not a whole number"),
    (["odds", "draws", "--outs", "１", "--unseen", "10", "--draws", "1"], "'１' is not a whole number"),
    (["simulate", "--games", "1", "--players", "greedy,threshold:٣"], "player 'threshold:٣': the parameter must be"),
    (["simulate", "--games", "1", "--rules", "knock_max_deadwood=1_0"], "the rule 'knock_max_deadwood' cannot be '1_0'"),
    (["compare", "rumino:knock_max_deadwood=٥"], "the rule 'knock_max_deadwood' cannot be '٥'"),
    (["optimal", "build", "--tol", "1_0", "--shape", "x"], "'1_0' is not a number written with the digits 0-9"),
    (["odds", "deal", "--exact", "--seed", "5"], "--seed is 5, and --exact counts every deal: an exact figure has "
                                                 "no seed"),
    (["compare", "rumino", "--seed", "5"], "--seed is 5, and the rules matrix alone has no seed"),
    (["odds", "opening", "--samples", "10", "--seed", "1", "--opening-min", "99999"],
     "--opening-min is 99999: it must be from 1 to 143"),
    (["odds", "best", HAND, "--goal", "gin", "--draws", "1", "--table-dir", ""], "--table-dir is '': give a folder"),
    (["odds", "best", HAND, "--goal", "gin", "--draws", "1", "--table-dir", "/etc/passwd"],
     "--table-dir is '/etc/passwd': it is a file, not a folder"),
    (["ladder", "--variants", "rummoli", "--games", "1", "--out", ""], "--out is '': give a file name"),
    (["book", "--book", "", "build"], "--book is '': give the book's folder"),
    (["compare", ":"], "column ':' names no game before the colon"),
    (["compare", "rumino:=5"], "house rule '=5' in column 'rumino:=5' has no name before the '='"),
    (["deadwood", "--variant", "rumino:knock_max_deadwood=5", "7h 8h 9h 10h 5c 5d 5s"],
     "--variant 'rumino:knock_max_deadwood=5': deadwood values a hand under the game's own rules and takes no "
     "house rules; give the game alone (rumino)"),
    (["simulate", "--variant", "robber", "--players", "solitaire,greedy", "--games", "1"],
     "player 'solitaire' does not fit Robber Rummy"),
    (["tournament", "--variant", "robber", "--players", "solitaire,greedy", "--games", "1"],
     "player 'solitaire' does not play Robber Rummy"),
    (["play", "--variant", "robber", "--players", "human,solitaire"], "player 'solitaire' does not fit Robber"),
])
def test_wrongly_accepted_and_unclear_inputs_are_refused_in_plain_words(argv, said, capsys, monkeypatch):
    monkeypatch.setenv("RUMINO_OPTIMAL_DIR", "/nonexistent/rumino-tables")  # a missing table is not the reason
    line = refused(argv + (["--no-progress"] if argv[0] in ("simulate", "tournament") else []), capsys)
    assert said in line, line
    assert "RuminoRules" not in line or "knock_max_deadwood" in line  # the house rules keep their field's name


def test_an_unwritable_ladder_out_is_refused_before_the_play(capsys, monkeypatch):
    monkeypatch.setattr("rumino.tournament.ladder.tournament", lambda *a, **k: pytest.fail("played first"))
    line = refused(["ladder", "--variants", "rummoli", "--games", "1", "--no-progress", "--out", "/proc/l.json"],
                   capsys)
    assert line == "rumino ladder: --out is '/proc/l.json': nothing can be written in /proc (it takes no new files)."


# ---------------------------------------------------------------------------- the rest of the bullet


def test_table_reads_the_joker_notation_it_prints(capsys):
    assert main(["table", "--table", "5c 6c 7c 8c 9c", "--hand", "7c Kd JK"]) == 0
    table = capsys.readouterr().out.splitlines()[1].removeprefix("table: ")
    assert "JK(" in table
    assert main(["table", "--table", table, "--hand", "Kd"]) == 0  # what it printed, typed back
    assert "nothing can be placed" in capsys.readouterr().out
    line = refused(["table", "--table", "5c JK(9h) 7c | 8c 9c 10c", "--hand", "Kd"], capsys)
    assert "the table meld 5c JK(9h) 7c" in line and "standing for 9h" in line


def test_outside_the_repository_the_book_is_the_repositorys(tmp_path, monkeypatch):
    from rumino.cli.bookbuild import find_book

    monkeypatch.chdir(tmp_path)
    assert find_book() == ROOT / "book"


def test_odds_deal_names_knock_rummy_in_its_help(capsys):
    with pytest.raises(SystemExit):
        main(["odds", "deal", "--help"])
    assert "knock-rummy" in capsys.readouterr().out
    assert main(["odds", "deal", "--variant", "knock-rummy", "--samples", "200", "--seed", "1", "--no-progress"]) == 0
