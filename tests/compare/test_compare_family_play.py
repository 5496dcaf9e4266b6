"""The play profiles of the games outside the knock family: Rummoli in its own terms, Rommé and Robber
through their own bots, and the hand lengths as a distribution for every game that plays.

Small seeded runs only (a few dozen to a few hundred games, Robber a couple); exact figures are
checked against an independent route and simulated ones against exact values within 4 standard errors.
"""

from __future__ import annotations

import json
from fractions import Fraction
from math import comb, sqrt

import pytest

from rumino.cli import main
from rumino.compare import profile
from rumino.compare.profile import games_for
from rumino.odds.poker import best_five_table
from rumino.variants.rummoli import SECTIONS, hand_sizes

from test_compare_profile import check_schema


@pytest.fixture(scope="module")
def rummoli():
    return profile("rummoli", games=150, seed=4)


@pytest.fixture(scope="module")
def romme():
    return profile("romme", samples=500, games=20, seed=2)


def test_rummoli_own_terms_figures_and_schema(rummoli):
    p = rummoli
    assert p.engine and p.games == 150 and p.best_bot == "default" and p.deal_method == ""
    for key in ("hand.turns", "hand.ending.rummoli", "hand.ending.deadlock", "game.hands", "game.stakes",
                "game.stakes_sd", "luck.best_vs_random", "rummoli.poker.pot", "rummoli.poker.p_win_quads_or_better",
                "rummoli.poker.p_win_straight_flush", "rummoli.section.swept", "rummoli.luck.mean_chips_vs_random",
                *(f"rummoli.section.{s}.share" for s in SECTIONS)):
        assert key in p.figures, key
    js = json.loads(json.dumps(p.as_json()))
    for fig in js["figures"].values():
        check_schema(fig)
    # heads-up: one round of the deal is two deals; the endings' shares and the sections' shares add up to one
    assert p["game.hands"].value == 2 and p["hand.ending.rummoli"].estimate.n == 300
    assert abs(p["hand.ending.rummoli"].value + p["hand.ending.deadlock"].value - 1) < 1e-12
    assert abs(sum(p[f"rummoli.section.{s}.share"].value for s in SECTIONS) - 1) < 1e-9
    # the ante is one chip a section from each player: the poker pot pays 2 a deal, but for an odd chip of a tie
    assert 1.9 <= p["rummoli.poker.pot"].value <= 2.05
    # 52 cards, each played or held: a deal cannot play more than the two hands in play (18 + 17)
    assert 0 < p["hand.turns"].value <= 35
    assert p["rummoli.poker.p_win_straight_flush"].value <= p["rummoli.poker.p_win_quads_or_better"].value


@pytest.mark.parametrize("k", sorted(set(hand_sizes(2))))
def test_rummoli_exact_poker_figures_are_the_tables(rummoli, k):
    """The exact figures are fractions of the best-five table (whose two methods and brute force the poker
    tables' own tests compare); heads-up every hand holds a flush or better, hence the bar of four of a kind."""
    t = best_five_table(k)
    total = comb(52, k)
    assert sum(t.values()) == total and t["straight"] == t["three_of_a_kind"] == t["high_card"] == 0
    assert rummoli[f"rummoli.poker.p_dealt_straight_flush.{k}"].exact == Fraction(t["straight_flush"], total)
    assert rummoli[f"rummoli.poker.p_dealt_quads_or_better.{k}"].exact == Fraction(
        t["straight_flush"] + t["four_of_a_kind"], total)


@pytest.mark.parametrize("k", sorted(set(hand_sizes(2))))
def test_rummoli_dealt_hands_within_4_se_of_the_exact_table(rummoli, k):
    """The engine's deals (one hand of each size a deal) against the exact best-five table, every category."""
    d = rummoli.distributions["rummoli.poker.dealt"][str(k)]
    exact, sim = d["exact"], d["simulated"]
    n = sim["total"]
    assert n == 300 and exact["total"] == comb(52, k)
    for cat, count in exact["counts"].items():
        p = count / exact["total"]
        seen = sim["counts"].get(cat, 0)
        if p == 0:
            assert seen == 0, cat
            continue
        se = sqrt(p * (1 - p) / n)
        assert abs(seen / n - p) < 4 * se, (cat, seen / n, p)


def test_rummoli_luck_default_beats_random(rummoli):
    # the default bot's plan (the widow, the stops' leads) against a random player, 150 games heads-up
    assert rummoli["luck.best_vs_random"].ci95[0] > 0.5
    assert rummoli["rummoli.luck.mean_chips_vs_random"].ci95[0] > 0


def test_romme_play_figures_through_its_own_bot(romme):
    p = romme
    assert p.engine and p.games == 20 and p.best_bot == "greedy"
    for ending in ("romme", "hand_romme", "stock_exhausted"):
        assert f"hand.ending.{ending}" in p.figures
    assert p["game.hands"].value >= 1 and p["game.stakes"].value > 0
    assert p["luck.greedy_vs_random"].ci95[0] > 0.5  # Rommé's own bot beats random play
    assert "luck.threshold:3_vs_greedy" not in p.figures and "luck.candidates" not in p.distributions
    assert p["deal.p_open"].estimate.n == 500


@pytest.mark.parametrize("name", ["romme", "rummoli", "gin"])
def test_hand_turns_distribution_matches_the_mean(name, romme, rummoli):
    p = {"romme": romme, "rummoli": rummoli}.get(name) or profile(name, samples=300, games=10, seed=1)
    h = p.distributions["hand.turns"]
    assert h["kind"] == "simulated" and h["seed"] == p.seed and sum(h["counts"].values()) == h["total"] == h["n"]
    assert h["n"] == p["hand.turns"].estimate.n
    mean = sum(int(t) * c for t, c in h["counts"].items()) / h["total"]
    assert mean == pytest.approx(p["hand.turns"].value)
    assert json.loads(json.dumps(p.as_json()))["distributions"]["hand.turns"] == h


def test_robber_plays_fewer_costly_games_and_counts_turns_without_draws():
    from rumino.variants.robber import RobberGame

    assert games_for(RobberGame, 500) == 20 and games_for(RobberGame, 5000) == 100 and games_for(RobberGame, 2) == 2
    p = profile("robber", samples=300, games=1, seed=3)
    assert p.games == 1 and p.best_bot == "greedy" and p["game.hands"].value == 1
    # a Robber turn is a placement, a draw or a pass: each game's turns are its actions' runs by one seat
    assert p["hand.turns"].value > 0 and sum(p.distributions["hand.turns"]["counts"].values()) == 1
    # scoring "none": only the win changes hands, and the profile says so
    assert p["game.stakes"].value == 0 and any("nothing but the win" in n for n in p.notes)


def test_robber_turn_count_is_the_number_of_turns():
    """The turn count of the profile's chunk on one Robber game equals the runs of one seat's actions."""
    from rumino.compare.profile import _games_chunk
    from rumino.engine.protocol import play
    from rumino.playing.seeding import new_table
    from rumino.variants import find_variant

    v = find_variant("robber")
    (tally,) = _games_chunk(1, 0, "robber", v.rules, ("greedy", "random"), 7)
    game, players = new_table(v, ["greedy", "random"], 7, 0)
    play(game, players, checked=False)
    seats = [s for s, _ in game.history]
    runs = 1 + sum(1 for a, b in zip(seats, seats[1:]) if a != b)
    assert tally.hands[0][0] == runs


def test_workers_give_identical_own_terms_and_romme_profiles():
    one = profile("rummoli", games=6, seed=9)
    assert profile("rummoli", games=6, seed=9, workers=2).as_json() == one.as_json()
    r1 = profile("romme", samples=300, games=3, seed=9)
    assert profile("romme", samples=300, games=3, seed=9, workers=2).as_json() == r1.as_json()


def test_cli_json_with_rummoli_and_romme(capsys):
    assert main(["compare", "rummoli", "romme", "--samples", "300", "--games", "4", "--seed", "1", "--json",
                 "--no-progress"]) == 0
    out = json.loads(capsys.readouterr().out)
    rum, rom = out["profiles"]
    assert rum["engine"] and rum["best_bot"] == "default" and rum["games"] == 4
    for p in (rum, rom):
        for fig in p["figures"].values():
            check_schema(fig)
        assert set(p["distributions"]["hand.turns"]) >= {"kind", "total", "n", "seed", "counts"}
    assert rum["figures"]["rummoli.poker.p_dealt_straight_flush.18"]["kind"] == "exact"
    assert {"rummoli.poker.winning", "rummoli.poker.dealt"} <= set(rum["distributions"])


def test_cli_text_shows_rummolis_own_sections(capsys):
    assert main(["compare", "rummoli", "gin", "--samples", "200", "--games", "2", "--seed", "1",
                 "--no-progress"]) == 0
    out = capsys.readouterr().out
    assert "[rummoli.poker]" in out and "[rummoli.section]" in out and "(exact)" in out
    assert out.index("[luck]") < out.index("[rummoli.poker]")


def test_dask_cluster_gives_the_same_rummoli_profile():
    """Rummoli's own-terms chunks on a (here in-process) Dask cluster: the same profile to the last digit."""
    import distributed

    with distributed.LocalCluster(n_workers=1, processes=False, threads_per_worker=1,
                                  dashboard_address=None) as cluster:
        on_dask = profile("rummoli", games=4, seed=5, dask=cluster.scheduler_address)
    assert on_dask.as_json() == profile("rummoli", games=4, seed=5).as_json()
