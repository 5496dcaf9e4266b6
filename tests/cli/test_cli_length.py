"""``rumino length``: bad input refused in one line with exit 2 before any game; a results file that
resumes and is never silently overwritten by a run with other settings."""

from __future__ import annotations

import json

import pytest

from rumino.cli import main


@pytest.mark.parametrize("argv, said", [
    (["--variants", "canasta"], "unknown variant 'canasta'"),
    (["--variants", "gin,gin"], "names gin twice"),
    (["--players", "1"], "table sizes from 2 to 8"),
    (["--players", "2,x"], "table sizes from 2 to 8"),
    (["--players", "3,3"], "names 3 twice"),
    (["--variants", "gin", "--players", "3,4"], "Gin Rummy is for 2 to 2 players"),
    (["--games", "0"], "--games is 0"),
    (["--games", "10000000"], "--games is 10000000"),
    (["--costly-games", "0"], "--costly-games is 0"),
    (["--seed", "-1"], "--seed is -1"),
    (["--workers", "0"], "--workers is 0"),
    (["--out", "/etc/passwd/x.json"], "--out is '/etc/passwd/x.json'"),
    (["--out", "/"], "--out is '/'"),
])
def test_bad_input_is_one_line_and_exit_2(argv, said, capsys):
    assert main(["length", "--no-progress", *argv]) == 2
    err = capsys.readouterr().err.strip()
    assert said in err and "\n" not in err and "Traceback" not in err


def test_a_results_file_resumes_and_refuses_other_settings(tmp_path, capsys):
    out = tmp_path / "length.json"
    assert main(["length", "--variants", "gin", "--games", "2", "--seed", "3", "--out", str(out),
                 "--no-progress"]) == 0
    first = json.loads(out.read_text())
    assert list(first["lengths"]) == ["gin"] and first["run"]["seed"] == 3
    text = capsys.readouterr().out
    assert "Gin Rummy" in text and "minutes a game" in text
    # the same settings: the tables already measured are kept, a new game is added
    assert main(["length", "--variants", "gin,knock-rummy", "--players", "2", "--games", "2", "--seed", "3",
                 "--out", str(out), "--no-progress"]) == 0
    second = json.loads(out.read_text())
    assert second["lengths"]["gin"] == first["lengths"]["gin"] and "knock-rummy" in second["lengths"]
    capsys.readouterr()
    # other settings: refused, the file untouched
    before = out.read_text()
    assert main(["length", "--variants", "gin", "--games", "3", "--seed", "3", "--out", str(out),
                 "--no-progress"]) == 2
    assert "other settings" in capsys.readouterr().err and out.read_text() == before
    # a file that is not a results file of this command: refused
    foreign = tmp_path / "foreign.json"
    foreign.write_text('{"deals": 50}')
    assert main(["length", "--variants", "gin", "--games", "2", "--out", str(foreign), "--no-progress"]) == 2
    assert "not a results file of rumino length" in capsys.readouterr().err
    foreign.write_text("not json")
    assert main(["length", "--variants", "gin", "--games", "2", "--out", str(foreign), "--no-progress"]) == 2
    assert "cannot be read" in capsys.readouterr().err


def test_json_output(capsys):
    assert main(["length", "--variants", "rummoli", "--players", "2", "--games", "1", "--seed", "1", "--json",
                 "--no-progress"]) == 0
    data = json.loads(capsys.readouterr().out)
    assert data["lengths"]["rummoli"]["2"]["games"] == 1 and data["run"]["seed"] == 1
