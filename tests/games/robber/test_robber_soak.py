"""A small seeded version of the Robber soak (``bench/soak.py --variant robber``), run by its own code.

The long run (100,000 games, hours of CPU) is the soak's job; here a few games of each kind check that
the soak finds no leak, that it does count one when a card goes missing, and that a run resumes from
its state file.
"""

from __future__ import annotations

import importlib.util
import json
import os
import pathlib

import pytest

SOAK = pathlib.Path(__file__).parents[3] / "bench" / "soak.py"


@pytest.fixture(scope="module")
def soak():
    env = dict(os.environ)  # the script asks for one thread at import: leave this process's settings alone
    spec = importlib.util.spec_from_file_location("rumino_bench_soak", SOAK)
    mod = importlib.util.module_from_spec(spec)
    try:
        spec.loader.exec_module(mod)
    finally:
        os.environ.clear()
        os.environ.update(env)
    return mod


def test_a_small_seeded_robber_soak_finds_no_leak(soak):
    out = soak.soak_range("robber", 0, 12, seed=5, random_share=0.3, deep=False, max_actions=20_000)
    assert out["games"] == 12 and 1 <= out["random_games"] < 12  # both greedy (solver) and all-random games
    assert {k: out[k] for k in soak.KINDS} == dict.fromkeys(soak.KINDS, 0), out["failures"]
    assert out["actions"] > 12 * 10 and out["cpu_seconds"] > 0


def test_the_soak_counts_a_lost_card_as_a_leak(soak, monkeypatch):
    from rumino.variants.robber import RobberGame

    real = RobberGame.table_cards
    monkeypatch.setattr(RobberGame, "table_cards", lambda self: real(self)[1:])  # one table card goes missing
    out = soak.soak_range("robber", 0, 1, seed=5, random_share=0.0, deep=False, max_actions=20_000)
    assert out["cards"] == 1 and "cards not conserved" in out["failures"][0][2]


def test_a_soak_resumes_from_its_state_file(soak, tmp_path, monkeypatch, capsys):
    state = tmp_path / "soak.jsonl"
    argv = ["--variant", "robber", "--games", "4", "--chunk", "2", "--random-share", "0.5", "--seed", "5",
            "--state", str(state), "--no-progress"]
    assert soak.main(argv) == 0
    lines = [json.loads(line) for line in state.read_text().splitlines()]
    assert lines[0]["params"]["chunk"] == 2 and sorted(p["range"] for p in lines[1:]) == [[0, 2], [2, 4]]
    first = capsys.readouterr().out

    def no_more(*a, **k):
        raise AssertionError("a finished chunk was played again")

    monkeypatch.setattr(soak, "soak_range", no_more)
    assert soak.main(argv) == 0
    again = capsys.readouterr().out
    assert "4 games done, 0 chunks left" in again
    def totals(out):  # the games line up to its wall time, and the leaks line
        lines = out.splitlines()
        return lines[-2].split(" in ")[0], lines[-1]

    assert totals(again) == totals(first) and totals(first)[1].startswith("leaks: cards 0")
    with pytest.raises(SystemExit, match="other options"):
        soak.main(argv[:-3] + ["--seed", "6", "--state", str(state)])
