"""Rummoli on the command line: ``rumino simulate --variant rummoli`` (chips won per seat with 95%
intervals, what each section paid) and ``rumino play --variant rummoli`` (piped input); bad input
exits 2 with one line."""

from __future__ import annotations

import io
import json

import pytest

from rumino.cli import main
from rumino.cli.play import play_terminal


def test_simulate_json_reports_chips_won_and_sections(capsys):
    assert main(["simulate", "--variant", "rummoli", "--players", "default,default,default,random", "--games", "20",
                 "--seed", "1", "--json", "--no-progress"]) == 0
    data = json.loads(capsys.readouterr().out)
    assert data["variant"] == "rummoli" and data["games"] == 20 and data["seed"] == 1
    won = data["chips_won"]
    assert [w["player"] for w in won] == ["default", "default", "default", "random"]
    for w in won:
        lo, hi = w["ci95"]
        assert lo <= w["estimate"] <= hi and w["n"] == 20 and w["interval"] == "normal"
    assert abs(sum(w["estimate"] for w in won)) < 1e-9  # chips only change hands
    sections = data["sections"]
    assert list(sections) == ["rummoli", "poker", "10s", "Jd", "Qc", "Kh", "As", "Ad+Kd", "7-8-9"]
    assert abs(sum(s["share"] for s in sections.values()) - 1) < 1e-9
    assert data["mean_hands_per_game"]["estimate"] == 4.0  # one round of the deal with 4 players
    assert set(data["hand_endings"]) == {"rummoli", "deadlock"}


def test_simulate_text_and_house_rules(capsys):
    assert main(["simulate", "--variant", "rummoli", "--players", "default,random", "--games", "5", "--seed", "2",
                 "--rules", "poker_method=betting", "rounds=2", "--no-progress"]) == 0
    out = capsys.readouterr().out
    assert "house rules: poker_method=betting, rounds=2" in out and "share of chips paid" in out


def test_simulate_default_players_are_default_bots(capsys):
    assert main(["simulate", "--variant", "rummoli", "--games", "2", "--json", "--no-progress"]) == 0
    assert json.loads(capsys.readouterr().out)["players"] == ["default"] * 4


@pytest.mark.parametrize("argv, words", [
    (["--players", "greedy,default"], "player 'greedy' does not fit Rummoli: the players for Rummoli are random, "
                                      "default, search[:N], best, human."),
    (["--players", ",".join(["default"] * 9)], "Rummoli is for 2 to 8"),
    (["--players", "default,human"], "simulate plays bots only"),
    (["--rules", "short_ante=borrow"], "the rule 'short_ante' cannot be 'borrow'"),
    (["--rules", "stake=3"], "there is no rule 'stake' in this game"),
    (["--games", "0"], "--games is 0"),
])
def test_simulate_bad_input_exits_2_with_one_line(capsys, argv, words):
    assert main(["simulate", "--variant", "rummoli", "--no-progress", *argv]) == 2
    err = capsys.readouterr().err.strip()
    assert words in err and len(err.splitlines()) == 1


def test_play_in_the_terminal_with_piped_input(capsys):
    lines = "keep\nplay 2s\n" + "\n".join(["1"] * 400) + "\n"
    out = io.StringIO()
    assert play_terminal(["human", "default", "random"], seed=3, stdin=io.StringIO(lines), stdout=out,
                         variant="rummoli") == 0
    text = out.getvalue()
    assert "your hand:" in text and "choices:" in text and "sheet: rummoli=" in text
    assert "final sweep" in text and "wins with" in text


def test_play_explains_an_illegal_choice_and_asks_again():
    out = io.StringIO()
    assert play_terminal(["human", "default"], seed=5, stdin=io.StringIO("fold\nbid 3\n"), stdout=out,
                         variant="rummoli") == 0
    text = out.getvalue()
    assert "rules §2" in text and "End of input" in text


def test_play_bad_input_exits_2(capsys):
    assert main(["play", "--variant", "rummoli", "--players", "human,chaser"]) == 2
    err = capsys.readouterr().err.strip()
    assert "does not fit Rummoli" in err and len(err.splitlines()) == 1
