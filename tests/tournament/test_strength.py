"""Strength matches and their file (rumino.tournament.strength, book/data/family_strength.json).

The file's figures are read again from the hands it keeps, and the first deals of every match are
played again and must give the same hands: a change to a game or a player that would move the book's
strength figures is caught here. The search players of the file are costly at full budget, so the
replays of the slower games are marked ``slow`` (one deal each; the quick ones run on every CI).
"""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from rumino.cli import main
from rumino.tournament.run import tournament
from rumino.tournament.strength import (Match, StrengthFileError, figures_from_hands, find_match, match_from_json,
                                        play_match, read_matches, replay_deal, write_match)

FILE = Path(__file__).resolve().parents[2] / "book" / "data" / "family_strength.json"


def test_a_match_is_the_tournament_of_its_pair():
    """play_match plays the deals exactly as `rumino tournament` does: the same margins and scores."""
    m = play_match("rumino", "threshold:3", "greedy", deals=6, seed=4)
    t = tournament("rumino", ["threshold:3", "greedy"], deals=6, seed=4)
    assert m.margins == t.margins[(0, 1)].tolist() and m.scores == t.scores[(0, 1)].tolist()
    w = t.win_rate(0, 1)
    assert m.share == pytest.approx([w.value, w.lo, w.hi])
    assert m.points == pytest.approx(list(t.mean_margin(0, 1)), abs=1e-3)  # the same normal interval (z 1.96)
    assert m.decisions > 0 and m.seconds_per_decision >= 0 and m.hands == 12


def test_figures_count_a_tie_half_and_read_points_by_deal():
    share, points, ties = figures_from_hands([[3, -1], [0, 0]], [[1, 0], [0.5, 0.5]])
    assert share[0] == 0.5 and ties == 2
    assert points[0] == pytest.approx(0.5)
    assert points[1] < 0.5 < points[2]


def test_the_file_round_trips_and_a_match_replaces_its_twin(tmp_path):
    path = tmp_path / "strength.json"
    assert read_matches(path) == []
    a = play_match("gin", "greedy", "random", deals=2, seed=1)
    b = play_match("knock-rummy", "greedy", "random", deals=2, seed=1)
    write_match(path, a)
    write_match(path, b)
    again = play_match("gin", "greedy", "random", deals=2, seed=1)
    matches = write_match(path, again)
    assert [m.game for m in matches] == ["gin", "knock-rummy"] and read_matches(path) == [again, b]
    data = json.loads(path.read_text())
    assert isinstance(data, list) and {"game", "a", "b", "deals", "hands", "share", "points",
                                       "seconds_per_decision", "seed", "command"} <= set(data[0])
    assert find_match(read_matches(path), "Gin Rummy", b="random") == again


def test_a_bad_file_is_refused_with_its_reason(tmp_path):
    path = tmp_path / "strength.json"
    path.write_text("{not json")
    with pytest.raises(StrengthFileError, match="is not JSON"):
        read_matches(path)
    path.write_text('{"game": "gin"}')
    with pytest.raises(StrengthFileError, match="not a list of matches"):
        read_matches(path)
    path.write_text('[{"game": "gin", "a": "best"}]')
    with pytest.raises(StrengthFileError, match="lacks b, deals"):
        read_matches(path)
    m = play_match("gin", "greedy", "random", deals=2, seed=1).as_json()
    m["deals"] = 3
    with pytest.raises(StrengthFileError, match="keeps 2 deals' hands but says 3 deals"):
        match_from_json(m)


def test_the_command_writes_the_match_and_refuses_bad_input(tmp_path, capsys):
    out = tmp_path / "s.json"
    assert main(["strength", "--variant", "knock-rummy", "--a", "greedy", "--b", "random", "--deals", "2",
                 "--seed", "3", "--out", str(out), "--no-progress"]) == 0
    assert "greedy against random, 2 deals" in capsys.readouterr().out
    assert read_matches(out)[0].command.startswith("rumino strength --variant knock-rummy --a greedy --b random")
    assert main(["strength", "--variant", "rumino", "--a", "best", "--b", "openspiel-simple", "--out", str(out)]) == 2
    assert "OpenSpiel's bots play Gin only" in capsys.readouterr().err
    assert main(["strength", "--variant", "gin", "--a", "clever", "--b", "greedy", "--out", str(out)]) == 2
    assert "unknown player 'clever'" in capsys.readouterr().err
    assert main(["strength", "--variant", "gin", "--a", "greedy", "--b", "random", "--out", str(tmp_path)]) == 2
    assert capsys.readouterr().err.strip().endswith("it is a folder; give a file (such as "
                                                    f"{tmp_path / 'results.json'}).")
    assert main(["strength", "--variant", "gin", "--a", "greedy", "--b", "random", "--out",
                 str(tmp_path / "no" / "s.json")]) == 2
    assert "the folder" in capsys.readouterr().err and not (tmp_path / "no").exists()
    assert main(["strength", "--list", "--out", str(tmp_path)]) == 2  # a folder is no strength file to list
    assert capsys.readouterr().err.strip().endswith("is a folder or a device, not a strength file (a JSON list of "
                                                    "matches).")
    assert main(["strength", "--list", "--out", ""]) == 2
    assert capsys.readouterr().err.strip() == "rumino strength: --out is '': give a file name."
    assert len(read_matches(out)) == 1  # nothing written by a refusal


# --------------------------------------------------------------------------- the book's file

MATCHES = read_matches(FILE) if FILE.exists() else []
QUICK = {"knock-rummy", "gin", "rumino", "wiener"}  # compiled rollouts: a deal replays in seconds


def test_the_book_file_figures_are_its_hands():
    assert MATCHES, f"{FILE} holds no match"
    for m in MATCHES:
        share, points, ties = figures_from_hands(m.margins, m.scores)
        assert m.share == pytest.approx(share) and m.points == pytest.approx(points) and m.ties == ties, m.describe()
        assert m.hands == 2 * m.deals and m.seconds_per_decision > 0
        if "openspiel" in m.b:
            assert m.game == "gin"


@pytest.mark.parametrize("m", [pytest.param(m, id=f"{m.game}-{m.a}-{m.b}",
                                            marks=() if m.game in QUICK and "openspiel" not in m.b
                                            else pytest.mark.slow)
                               for m in MATCHES])
def test_the_first_deal_of_each_book_match_replays(m: Match):
    if "openspiel" in m.b:
        pytest.importorskip("pyspiel")
    margins, scores = replay_deal(m, 0)
    assert margins == m.margins[0] and scores == m.scores[0], m.describe()
