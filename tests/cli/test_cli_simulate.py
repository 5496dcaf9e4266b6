"""``rumino simulate`` and ``rumino play``: figures with intervals, stable JSON keys, seeded
reproducibility, errors that exit with code 2 and name the bad input, and a terminal game
played through piped input."""

from __future__ import annotations

import contextlib
import io
import json
import subprocess
import sys

import pytest

from rumino.cli import main
from rumino.cli.play import play_terminal
from rumino.cli.simulate import simulate
from rumino.stats import wilson_interval
from rumino.variants.rumino import RUMINO, RuminoGame


def run_json(capsys, *args) -> dict:
    assert main(["simulate", *args, "--json", "--no-progress"]) == 0
    return json.loads(capsys.readouterr().out)


def test_simulate_json_has_stable_keys_and_intervals(capsys):
    s = run_json(capsys, "--players", "greedy,greedy,random", "--games", "40", "--seed", "5")
    assert {"games", "seed", "win_rate", "hand_endings", "mean_hands_per_game", "mean_rebuys_per_game",
            "mean_pool"} <= set(s)
    assert s["games"] == 40 and s["seed"] == 5 and s["players"] == ["greedy", "greedy", "random"]
    assert len(s["win_rate"]) == 3
    assert sum(w["value"] for w in s["win_rate"]) == pytest.approx(1.0)
    for w in s["win_rate"]:
        lo, hi = w["ci95"]
        assert lo <= w["value"] <= hi
        assert (lo, hi) == pytest.approx(wilson_interval(w["value"] * 40, 40))
    assert set(s["hand_endings"]) == {"knock", "gin", "rumino", "stock_exhausted"}
    assert sum(e["count"] for e in s["hand_endings"].values()) == s["hands"]
    assert s["mean_hands_per_game"]["value"] == pytest.approx(s["hands"] / 40)
    for key in ("mean_hands_per_game", "mean_rebuys_per_game", "mean_pool"):
        lo, hi = s[key]["ci95"]
        assert lo <= s[key]["value"] <= hi
    assert s["mean_pool"]["value"] >= 30  # three stakes of 10 at least


def test_simulate_figures_match_the_games_played_one_by_one():
    from rumino.engine import play
    from rumino.players import make_players

    s = simulate(["greedy", "chaser"], 8, seed=2)
    wins = [0.0, 0.0]
    hands = 0
    for i in range(8):
        g = play(RuminoGame.new(RUMINO, 2, seed=[2, i]), make_players(["greedy", "chaser"], seed=[2, i, 1]))
        for w in g.result.winners:
            wins[w] += 1 / len(g.result.winners)
        hands += len(g.results)
    assert [w["value"] for w in s["win_rate"]] == [x / 8 for x in wins]
    assert s["hands"] == hands


def test_simulate_is_reproducible_and_the_seed_matters(capsys):
    a = run_json(capsys, "--players", "greedy,random", "--games", "15", "--seed", "1")
    b = run_json(capsys, "--players", "greedy,random", "--games", "15", "--seed", "1")
    c = run_json(capsys, "--players", "greedy,random", "--games", "15", "--seed", "2")
    assert a == b and a != c


def test_simulate_applies_house_rules(capsys):
    s = run_json(capsys, "--players", "greedy,greedy", "--games", "10", "--rules", "knock_max_deadwood=0",
                 "stock_exhausted=void_hand", "--rules", "stake=3")
    assert s["rules"]["knock_max_deadwood"] == 0 and s["rules"]["stock_exhausted"] == "void_hand"
    assert s["rules"]["stake"] == 3
    assert s["hand_endings"]["knock"]["count"] == 0  # at 0 deadwood a knock scores as gin
    assert s["mean_pool"]["value"] >= 6


class Terminal(io.StringIO):
    """A stderr that says it is a terminal, as a shell's is."""

    def isatty(self):
        return True


def test_simulate_prints_a_table_and_a_progress_bar_on_a_terminal_only(capsys):
    argv = ["simulate", "--players", "greedy,threshold:2", "--games", "5", "--seed", "3"]
    assert main(argv) == 0
    out, err = capsys.readouterr()  # stderr is not a terminal here: no bar, no carriage return, no escape code
    assert "win rate" in out and "95% CI" in out and "hands per game" in out and "how hands end" in out
    assert "threshold:2" in out and "rebuys per game" in out and "pool per game" in out
    assert err == ""
    terminal = Terminal()
    with contextlib.redirect_stderr(terminal):
        assert main(argv) == 0
    drawn = terminal.getvalue()
    assert "games:" in drawn and "/5 games" in drawn and "\r" in drawn  # tqdm draws it on stderr, not stdout
    assert "it/s" not in drawn and "game/s" not in drawn  # its units in words


@pytest.mark.parametrize("args,message", [
    (["--players", "greedy,clever"], "unknown player 'clever'"),
    (["--players", "greedy"], "1 player(s); Rumino is for 2 to 6"),
    (["--players", ",".join(["greedy"] * 7)], "7 player(s)"),
    (["--players", "greedy,human"], "simulate plays bots only"),
    (["--players", "greedy,threshold:x"], "threshold:3"),
    (["--rules", "knock_max=3"], "no rule 'knock_max' in this game; its rules are: ace"),
    (["--rules", "knock_max_deadwood=x"], "the rule 'knock_max_deadwood' cannot be 'x'"),
    (["--rules", "knock_max_deadwood=500"], "Knock limit: 500 is not allowed; it must be a whole number from 0 to 70"),
    (["--rules", "stock_exhausted=never"], "it must be reshuffle, void_hand or end_and_score"),
    (["--rules", "knock_max_deadwood"], "is not KEY=VALUE"),
    (["--games", "0"], "--games is 0"),
    (["--seed", "-4"], "--seed is -4"),
    (["--variant", "canasta"], "unknown variant 'canasta'"),
    (["--variant", "robber"], "Robber Rummy has no playable engine yet: the playable variants are rumino"),
    (["--variant", "canasta"], "unknown variant 'canasta': the playable variants are rumino"),
    (["--games", "99999999999999999999"], "--games is 99999999999999999999: it must be an integer from 1 to"),
    (["--players", "greedy"], "Rumino is for 2 to 6 (rules §1.1). Players: random, greedy"),
])
def test_simulate_bad_input_exits_2_naming_it(capsys, args, message, robber_without_engine):
    assert main(["simulate", "--games", "2", "--no-progress", *args]) == 2
    err = capsys.readouterr().err
    assert err.startswith("rumino simulate: ") and message in err, err


# ---------------------------------------------------------------------------- rumino play


def test_play_a_whole_game_through_piped_input():
    out = io.StringIO()
    # "1" takes the first listed choice every time: a legal (if naive) player
    code = play_terminal(["human", "greedy", "greedy"], seed=11, stdin=io.StringIO("1\n" * 5000), stdout=out)
    text = out.getvalue()
    assert code == 0 and "wins" in text and "your hand:" in text and "choices:" in text
    assert "P0 (you)" in text and "deals hand 1" in text


def test_play_explains_bad_input_and_ends_cleanly_at_the_end_of_input():
    out = io.StringIO()
    code = play_terminal(["human", "greedy"], seed=4, stdin=io.StringIO("fly\n?\nknock\n"), stdout=out)
    text = out.getvalue()
    assert code == 0
    assert "'fly' is not understood: type ? for this game's commands" in text and "s / stock" in text
    assert "cannot knock" in text or "knocks" in text
    assert text.rstrip().endswith("End of input: the game is left unfinished.")


def test_play_quit_and_bot_only_games():
    out = io.StringIO()
    assert play_terminal(["human", "random"], seed=1, stdin=io.StringIO("q\n"), stdout=out) == 0
    assert "left unfinished" in out.getvalue()
    out = io.StringIO()
    assert play_terminal(["greedy", "chaser", "threshold:1"], seed=6, stdin=io.StringIO(""), stdout=out) == 0
    assert " wins " in out.getvalue()


@pytest.mark.parametrize("args,message", [
    (["--players", "human,wizard"], "unknown player 'wizard'"),
    (["--rules", "gin_bonus=5"], "Gin bonus: 5 is not allowed"),
    (["--variant", "robber"], "Robber Rummy has no playable engine yet"),
])
def test_play_bad_input_exits_2(capsys, args, message, robber_without_engine):
    assert main(["play", *args]) == 2
    assert message in capsys.readouterr().err


def test_the_rumino_command_plays_from_a_pipe():
    proc = subprocess.run([sys.executable, "-m", "rumino.cli", "play", "--seed", "3", "--players", "human,greedy"],
                          input="s\n1\n", capture_output=True, text=True, timeout=120)
    assert proc.returncode == 0, proc.stderr
    assert "End of input" in proc.stdout and "draws from the stock" in proc.stdout


def test_a_game_without_money_prints_no_rebuy_or_pool_rows(capsys):
    """Gin has no rebuys and no pool: no rows of 0.00 about them (Rumino keeps them, the test above)."""
    assert main(["simulate", "--variant", "gin", "--games", "3", "--seed", "1", "--no-progress"]) == 0
    out = capsys.readouterr().out
    assert "hands per game" in out and "rebuys per game" not in out and "pool per game" not in out


def test_q_leaves_the_game_in_its_own_words_and_draw_alone_draws_from_the_stock():
    out = io.StringIO()
    assert play_terminal(["human", "greedy"], seed=4, stdin=io.StringIO("draw\nq\n"), stdout=out) == 0
    text = out.getvalue()
    assert "You (seat 0) draws" not in text and "not understood" not in text  # 'draw' is the stock's draw
    assert text.rstrip().endswith("You left the game: it is left unfinished.") and "End of input" not in text
