"""The committed figures of the optimal tables (book/data/optimal_figures.json) against a recomputation.

The file is written by ``rumino optimal figures`` from the full
tables (``rumino optimal build``, about 16 minutes on 2 cores); CI cannot build
them, so this test recomputes the sampled classes it records from scratch with
the direct solver (explicit hands, compiled deadwood, no table) and checks the
internal consistency of the distributions.
"""

from __future__ import annotations

import json
from math import comb
from pathlib import Path

import numpy as np
import pytest

from rumino.cards import parse_hand, to_counts
from rumino.odds.enumerate import PackShape
from rumino.odds.optimal import GOALS, ClassIndex, direct_values

FIGURES = Path(__file__).resolve().parents[2] / "book" / "data" / "optimal_figures.json"
FULL = PackShape(4, 13, 2, 4)


@pytest.fixture(scope="module")
def fig():
    return json.loads(FIGURES.read_text())


def test_sampled_classes_recomputed_from_scratch(fig):
    ci = ClassIndex(FULL, 7)
    assert len(fig["samples"]) >= 10
    for row in fig["samples"]:
        cnt = to_counts(parse_hand(row["hand"])).astype(np.int64)
        assert int(ci.index(cnt)) == row["class"]
        for goal in GOALS:
            for n in (1, 2):
                assert direct_values(cnt, goal, n, FULL) == pytest.approx(row[goal][n - 1], rel=1e-6, abs=1e-9)


def test_figures_are_consistent(fig):
    dealt = fig["dealt"]
    assert dealt["deals"] == comb(108, 7)
    for goal in GOALS:
        p = dealt["mean_probability"][goal]
        assert len(p) == fig["horizon"] + 1
        assert all(0 <= a <= b <= 1 for a, b in zip(p, p[1:]))  # more draws never hurt
    # at 0 draws: the exact deal odds of chapter 4 (asserted in tests/odds/test_odds_exact.py)
    assert dealt["mean_probability"]["gin"][0] == pytest.approx(91129 / 129088973, rel=1e-12)
    assert dealt["mean_probability"]["rumino"][0] == pytest.approx(865 / 129088973, rel=1e-12)
    assert dealt["mean_probability"]["knock"][0] == pytest.approx(34253780 / 3485402271, rel=1e-12)
    for goal in ("knock", "gin"):
        e = dealt[f"expected_draws_{goal}"]
        assert sum(e["histogram_share"]) == pytest.approx(1.0, abs=1e-9)
        assert e["at_goal"] == pytest.approx(dealt["mean_probability"][goal][0], rel=1e-9)
        q = list(e["quantiles"].values())
        assert q == sorted(q) and q[-1] <= e["max"]
    build = fig["build"]
    assert build["keep_target_check"]["violations"] == 0
    assert build["infinite"]["relative_error_bound"] <= 1e-6
    for key, v in fig["discard"].items():
        if key != "hands":
            assert 0 <= v["best_is_not_least_deadwood"] <= 1 and v["mean_loss"] >= 0


def test_play_figures_are_consistent(fig):
    """The figures of ``rumino optimal play``: n, seed and intervals present; in the model
    the optimal policy's simulation is within 4 standard errors of the table (issue 14, item 6); the
    bots never beat the optimum beyond sampling error; the dealt hands' optimal values agree with
    the mean over every deal."""
    pol = fig["policies"]
    n, seed, H = pol["hands"], pol["seed"], pol["horizon"]
    assert n >= 5000 and H == fig["horizon"]
    dealt = fig["dealt"]
    for goal, row in pol["optimal_model"].items():
        for key, m in row.items():
            assert m["gap"]["n"] == n and m["gap"]["seed"] == seed
            assert abs(m["z"]) < 4, (goal, key, m["z"])
            if key == f"within_{H}":  # a sample of deals: its mean table value is near the mean over all deals
                assert m["table"] == pytest.approx(dealt["mean_probability"][goal][H], abs=0.02)
            else:
                assert m["table"] == pytest.approx(dealt[f"expected_draws_{goal}"]["mean"], rel=0.03)
                assert m["censored"] == 0
    for goal, row in pol["optimal_real"].items():
        assert set(row) == set(pol["optimal_model"][goal])
    for bot, rows in pol["bots"].items():
        for goal, row in rows.items():
            loss = row[f"loss_within_{H}"]
            assert loss["ci95"][0] <= loss["estimate"] <= loss["ci95"][1]
            assert loss["estimate"] > -4 * loss["se"]  # no bot beats the optimum
            if "loss_draws" in row:
                assert row["loss_draws"]["estimate"] > -4 * row["loss_draws"]["se"]
    games = fig["games"]
    for key, seats in (("heads_up", 2), ("four_seats", 4)):
        g = games[key]
        assert g["players"][0] == "solitaire" and len(g["players"]) == seats and g["fair_share"] == 1 / seats
        w = g["win_rate"]
        assert w["n"] == games["games"] >= 1000 and w["seed"] == games["seed"]
        assert w["ci95"][0] <= w["estimate"] <= w["ci95"][1]
