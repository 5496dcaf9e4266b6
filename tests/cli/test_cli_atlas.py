"""``rumino atlas``: bad input refused in one line with exit 2 before any play, nothing written; a results
file resumed by the same command and never overwritten by one of other settings; the rules in words."""

from __future__ import annotations

import json

import pytest

from rumino.cli import main

SMALL = ["--games", "gin", "--knobs", "wall_knock", "Knock limit=0", "--deals", "2", "--seed", "4", "--no-progress"]


@pytest.mark.parametrize("argv, said", [
    (["--games", "canasta"], "unknown variant 'canasta'"),
    (["--games", "gin,Gin Rummy"], "names Gin Rummy twice"),
    (["--games", "gin", "--knobs", "jokers_galore"], "'jokers_galore' is not a rule of Gin Rummy"),
    (["--games", "gin", "--knobs", "knock_max_deadwood=101"], "Knock limit: 101 is not allowed"),
    (["--games", "gin", "--knobs", "knock_max_deadwood=ten"], "cannot be 'ten'"),
    (["--games", "gin", "--knobs", "wall_knock=maybe"], "cannot be 'maybe'"),
    (["--games", "gin", "--knobs", "knock_max_deadwood=10"], "is Gin Rummy's default"),
    (["--games", "gin", "--knobs", "wall_knock", "Knock at the wall"], "twice"),
    (["--deals", "1"], "--deals is 1"),
    (["--seed", "-1"], "--seed is -1"),
    (["--workers", "0"], "--workers is 0"),
    (["--out", "/etc/passwd/atlas.json"], "--out is '/etc/passwd/atlas.json'"),
    (["--out", "/proc/atlas.json"], "nothing can be written in /proc"),
    (["--out", "/"], "--out is '/'"),
])
def test_bad_input_is_one_line_and_exit_2(argv, said, capsys, tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)  # the default --out (book/data/...) is not there: nothing may be written
    assert main(["atlas", "--no-progress", *argv]) == 2
    err = capsys.readouterr().err.strip()
    assert said in err and "\n" not in err and "Traceback" not in err, err
    assert list(tmp_path.iterdir()) == []


def test_the_results_file_resumes_and_refuses_other_settings_or_a_foreign_file(tmp_path, capsys):
    out = tmp_path / "atlas.json"
    assert main(["atlas", *SMALL, "--out", str(out)]) == 0
    first = json.loads(out.read_text())
    text = capsys.readouterr().out
    assert "Gin Rummy" in text and "Knock at the wall" in text and "Knock limit" in text
    for internal in ("wall_knock", "knock_max_deadwood", "hands_a_game", "deal_share", "True", "None"):
        assert internal not in text, internal
    # the same command again: nothing left to play, the figures kept
    assert main(["atlas", *SMALL, "--out", str(out)]) == 0
    again = json.loads(out.read_text())
    assert again["games"] == first["games"]
    capsys.readouterr()
    # another knob with the same settings: added beside the others
    assert main(["atlas", "--games", "gin", "--knobs", "game_to=50", "--deals", "2", "--seed", "4",
                 "--no-progress", "--out", str(out)]) == 0
    more = json.loads(out.read_text())
    assert set(more["games"]["gin"]["knobs"]) == {"wall_knock", "knock_max_deadwood", "game_to"}
    assert more["games"]["gin"]["knobs"]["wall_knock"] == first["games"]["gin"]["knobs"]["wall_knock"]
    capsys.readouterr()
    # other settings: refused before any play, the file untouched
    before = out.read_text()
    for other in (["--deals", "3", "--seed", "4"], ["--deals", "2", "--seed", "5"]):
        assert main(["atlas", "--games", "gin", "--knobs", "wall_knock", *other, "--no-progress",
                     "--out", str(out)]) == 2
        err = capsys.readouterr().err.strip()
        assert "give its settings to resume it" in err and "\n" not in err
        assert out.read_text() == before
    # a file that is not an atlas: refused
    foreign = tmp_path / "foreign.json"
    for text in ('{"deals": 2, "seed": 4, "games": {}}', "[]", "not json"):
        foreign.write_text(text)
        assert main(["atlas", *SMALL, "--out", str(foreign)]) == 2
        err = capsys.readouterr().err.strip()
        assert ("not a results file of rumino atlas" in err or "cannot be read" in err) and "\n" not in err
        assert foreign.read_text() == text


def test_a_knob_with_one_allowed_value_is_said_in_words(capsys):
    assert main(["atlas", "--games", "rumino", "--knobs", "ace", "n_jokers=0", "--deals", "2", "--no-out",
                 "--no-progress"]) == 0
    text = capsys.readouterr().out
    assert "Ace (rules §1.2): not measured, the rules allow this one value only (low only)" in text
    assert "Jokers in the pack (rules §1.1), 0 instead of 4" in text
    assert "n_jokers" not in text and "'ace'" not in text


def test_a_rule_that_never_comes_into_play_is_said_so(capsys):
    """Gin's game bonus scores the end of a game: not its length, not a hand's points, not who wins a hand."""
    assert main(["atlas", "--games", "gin", "--knobs", "game_bonus=200", "--deals", "2", "--no-out",
                 "--no-progress"]) == 0
    text = capsys.readouterr().out
    assert "Game bonus (rules §6), 200 points instead of 100 points: every deal counted exactly as under " \
           "the default (nothing measured here changed)" in text
