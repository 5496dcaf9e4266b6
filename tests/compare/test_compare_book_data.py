"""The book's stored play figures (``book/data/*_play.json``, ``family_own_terms.json``) against a replay.

Chapters 7, 10 and 11 read their play figures from results files written by ``rumino compare … --save``.
Here the first games of some matches are played again with the file's seeds and bots, and their figure must
lie within 4 standard errors of the stored one (the replayed games are the first of the stored sample, so
a file written by other code, other seeds or other rules fails). The headers and the exact figures are
checked too.
"""

from __future__ import annotations

import dataclasses
import json
import math
from pathlib import Path

import pytest

from rumino.compare import profile
from rumino.compare import rummoli_profile
from rumino.compare.figures import Figure
from rumino.compare.profile import DEFAULT_BOTS, Profile, _games_chunk, load_profiles
from rumino.variants import find_variant

DATA = Path(__file__).resolve().parents[2] / "book" / "data"
FILES = ("family_play.json", "family_own_terms.json", "house_rules_play.json")
K = 16  # games replayed a match: a few seconds


def _rules(p: Profile):
    v = find_variant(p.variant)
    return dataclasses.replace(v.rules, **p.rules) if p.rules else v.rules


def _mean_se(xs):
    n = len(xs)
    m = sum(xs) / n
    sd = math.sqrt(sum((x - m) ** 2 for x in xs) / (n - 1))
    return m, sd / math.sqrt(n)


@pytest.fixture(scope="module", params=FILES)
def stored(request):
    run, profiles = load_profiles(DATA / request.param)
    return request.param, run, profiles


def test_header_and_columns(stored):
    name, run, profiles = stored
    assert run["command"].startswith("rumino compare ") and f"--save book/data/{name}" in run["command"]
    assert run["cpu_seconds"] > 0 and run["games"] >= 500 and run["seed"] == 7
    data = json.loads((DATA / name).read_text(encoding="utf-8"))
    assert data["matrix"]["columns"] == [p.label for p in profiles]
    for p in profiles:
        assert p.seed == run["seed"] and p.samples == run["samples"]
        assert p.games == run["games"] and (p.play == run["play"] or p.variant == "rummoli")
        for key, fig in data["profiles"][profiles.index(p)]["figures"].items():
            assert Figure.from_json(key, fig) == p[key]  # the file reads back figure for figure


@pytest.mark.parametrize("name, pick", [("family_play.json", 1), ("family_play.json", 2),
                                        ("family_own_terms.json", 0), ("house_rules_play.json", 0),
                                        ("house_rules_play.json", 8), ("house_rules_play.json", 17)])
def test_first_games_replayed_within_4_se(name, pick):
    """Mean turns a hand of the first K games of the default match, against the stored mean."""
    run, profiles = load_profiles(DATA / name)
    p = profiles[pick]
    tallies = _games_chunk(K, 0, p.variant, _rules(p), DEFAULT_BOTS, p.seed)
    turns = [h[0] for t in tallies for h in t.hands]
    m, se = _mean_se(turns)
    assert abs(m - p["hand.turns"].value) < 4 * se, (p.label, m, se, p["hand.turns"].value)
    # the replayed hands are the first of the stored histogram's: none longer than its longest
    assert max(turns) <= max(int(t) for t in p.distributions["hand.turns"]["counts"])


def test_a_win_rate_replayed_within_4_se():
    run, profiles = load_profiles(DATA / "family_play.json")
    p = next(q for q in profiles if q.variant == "gin")
    tallies = _games_chunk(K, 0, p.variant, _rules(p), ("greedy", "random"), p.seed)
    rate = sum(t.share for t in tallies) / K
    stored = p["luck.greedy_vs_random"].value
    se = math.sqrt(max(stored * (1 - stored), 1 / K) / K)  # a rate near 1: at least one game's worth
    assert abs(rate - stored) < 4 * se


def test_rummoli_replayed_within_4_se():
    run, profiles = load_profiles(DATA / "family_own_terms.json")
    p = next(q for q in profiles if q.variant == "rummoli")
    tallies = rummoli_profile.games_chunk(K, 0, p.variant, _rules(p), rummoli_profile.BOTS, p.seed)
    stakes = [float(t.stakes) for t in tallies]
    m, se = _mean_se(stakes)
    assert abs(m - p["game.stakes"].value) < 4 * max(se, 1e-9)


def test_exact_deal_figures_are_the_engines():
    """The exact figures of the file are the engine's, and Wiener's simulated deal is the one of chapter 7
    (simulate_deals with the same n and seed: the profile uses its chunks)."""
    from rumino.odds.montecarlo import simulate_deals

    run, profiles = load_profiles(DATA / "family_play.json")
    fam = {p.variant: p for p in profiles}
    fresh = profile("gin", samples=10, games=1, seed=0)
    assert fam["gin"]["deal.p_can_knock"] == fresh["deal.p_can_knock"]
    assert fam["gin"]["deal.p_can_knock"].kind == "exact"
    w = fam["wiener"].distributions["deal.deadwood"]
    sim = simulate_deals(find_variant("wiener"), run["samples"], run["seed"])
    assert {int(d): c for d, c in w["counts"].items()} == dict(sim.hist.counts())


def test_stakes_are_in_one_unit_a_game():
    """Points in a points game, chips in Wiener, the buy-in's currency in Rumino: never a mix."""
    run, profiles = load_profiles(DATA / "family_play.json")
    units = {p.variant: p.stakes_unit for p in profiles}
    assert units == {"rumino": "currency units", "wiener": "chips", "gin": "points", "knock-rummy": "points"}
    for p in profiles:
        assert p["game.stakes"].label.startswith(p.stakes_unit)
