"""rumino.compare profiles and the `rumino compare` command: schema, exact values, workers.

Small seeded runs only (a few thousand deals, a few dozen games): the figures
are checked for their shape, against exact values where those exist (within 4
standard errors), and for being identical whatever the number of workers.
"""

from __future__ import annotations

import json
from fractions import Fraction

import pytest

from rumino.cli import main
from rumino.compare import Column, profile, profiles
from rumino.compare.figures import Figure, dealt_hand_size

EXACT_KEYS = {"numerator", "denominator", "value"}
SIM_KEYS = {"estimate", "ci95", "n", "seed"}


def check_schema(fig: dict) -> None:
    if fig["kind"] == "exact":
        assert EXACT_KEYS <= set(fig)
        assert fig["denominator"] > 0 and fig["value"] == pytest.approx(fig["numerator"] / fig["denominator"])
    else:
        assert fig["kind"] == "simulated" and SIM_KEYS <= set(fig)
        lo, hi = fig["ci95"]
        assert lo <= fig["estimate"] <= hi and fig["n"] >= 1 and isinstance(fig["seed"], int)


@pytest.fixture(scope="module")
def wiener_small():
    return profile("wiener", samples=3000, games=12, seed=3)


def test_figure_needs_one_kind():
    with pytest.raises(ValueError):
        Figure("x", "deal", "x")


def test_profile_sections_and_schema(wiener_small):
    p = wiener_small
    assert p.engine and p.variant == "wiener" and p.deal_method.startswith("simulated")
    for key in ("deal.p_end_at_once", "deal.p_deadwood_0", "deal.p_can_knock", "deal.mean_deadwood",
                "deal.var_deadwood", "deal.jokers.0.p_dealt", "deal.jokers.1.mean_deadwood", "hand.turns",
                "hand.ending.knock", "hand.ending.rummy", "hand.p_stock_exhausted", "game.hands", "game.stakes",
                "game.stakes_sd", "luck.greedy_vs_random", "luck.best_vs_random", "luck.best_vs_greedy"):
        assert key in p.figures, key
    js = json.loads(json.dumps(p.as_json()))
    for fig in js["figures"].values():
        check_schema(fig)
    # the endings' shares add up to one, and the deal distribution to the samples
    shares = [f.estimate.successes for k, f in p.figures.items() if k.startswith("hand.ending.")]
    assert sum(shares) == p["hand.ending.knock"].estimate.n
    assert sum(js["distributions"]["deal.deadwood"]["counts"].values()) == 3000
    # the jokers' shares add up to one
    assert sum(p[f"deal.jokers.{j}.p_dealt"].estimate.successes for j in range(3)
               if f"deal.jokers.{j}.p_dealt" in p.figures) == 3000


def test_deal_figures_are_exact_where_stored_and_match_meld_unions():
    """Gin's 10-card deal is read from the stored enumeration; P(gin) equals the meld-union count."""
    from rumino.odds.exact import p_dealt_gin

    p = profile("gin", samples=500, games=4, seed=1)
    assert p.deal_method.startswith("exact")
    g, n = p_dealt_gin()
    assert p["deal.p_deadwood_0"].exact == Fraction(g, n)
    assert p["deal.p_end_at_once"].exact == p["deal.p_can_knock"].exact
    # the stored mean (56.569, published in rumino.odds.exact's feasibility table) to the last digit
    assert p["deal.mean_deadwood"].exact == Fraction(223732454111, 3955006055)
    # Knock Rummy heads-up deals 10 cards with Gin's melds: the same stored table, any count may knock
    k = profile("knock-rummy", samples=500, games=4, seed=1)
    assert dealt_hand_size(Column.parse("knock-rummy")) == 10
    assert k["deal.mean_deadwood"].exact == p["deal.mean_deadwood"].exact
    assert k["deal.p_end_at_once"].exact == 1


@pytest.mark.parametrize("column", ["gin", "rumino:n_jokers=2,knock_max_deadwood=10"])
def test_simulated_deal_within_4_se_of_exact(column):
    """The deal simulated (deal="simulated") against the exact table: every deal figure (jokers
    included) within 4 standard errors of its exact value."""
    exact = profile(column, samples=500, games=1, seed=1)
    sim = profile(column, samples=20_000, games=1, seed=5, deal="simulated")
    assert sim.deal_method.startswith("simulated")
    compared = 0
    for key, fig in sim.figures.items():
        if key.startswith("deal.") and exact[key].kind == "exact":
            e = fig.estimate
            if e.se:
                assert abs(e.z_score(exact[key].exact)) < 4, key
            else:  # nothing seen (P(gin) is 1 in 3,000): the interval must still hold the exact value
                assert e.contains(exact[key].exact), key
            compared += 1
    assert compared >= 4


def test_profiles_html_has_one_row_per_figure(wiener_small):
    from rumino.compare import profiles_html

    gin = profile("gin", samples=200, games=2, seed=3)
    html = profiles_html([wiener_small, gin])
    assert html.count('<th scope="col">') == 3 and "Gin Rummy" in html and "(exact)" in html
    keys = set(wiener_small.figures) | set(gin.figures)
    assert all(f'data-key="{k}"' in html for k in keys) and html.count("<tr data-key=") == len(keys)
    assert "≤" in html and "<script" not in html


def test_workers_give_identical_results(wiener_small):
    two = profile("wiener", samples=3000, games=12, seed=3, workers=2)
    assert two.as_json() == wiener_small.as_json()


def test_progress_is_called_to_the_end():
    calls = []
    profile("knock-rummy", samples=200, games=3, seed=2, progress=lambda d, t: calls.append((d, t)))
    assert calls and calls[-1][0] == calls[-1][1] and [d for d, _ in calls] == list(range(1, len(calls) + 1))


def test_game_without_engine_gets_deal_profile_only():
    """A variant whose engine is not registered (here Robber with its engine taken away, so the test
    does not depend on which engines have landed): the deal only, simulated, and a note saying so;
    its 40-point opening from the dealt cards is part of the deal."""
    import dataclasses

    from rumino.variants import find_variant

    v = dataclasses.replace(find_variant("robber"), game=None)
    p = profile(Column(v, v.rules, "Robber (no engine)"), samples=500, games=2, seed=1)
    assert not p.engine and any("no engine" in n for n in p.notes)
    assert not any(k.startswith(("hand.", "game.", "luck.")) for k in p.figures)
    assert p["deal.mean_deadwood"].kind == "simulated" and p["deal.p_open"].estimate.n == 500
    assert p["deal.p_open"].label.endswith("40 or more)")


def test_game_without_melds_has_no_deal_figures():
    p = profile("rummoli", samples=100, games=2, seed=1)
    assert not any(k.startswith("deal.") for k in p.figures)
    assert any("no melds" in n for n in p.notes)
    # Rummoli is played by its own bots and profiled in its own terms (tests/compare/test_compare_family_play.py)
    assert p.engine and p.best_bot == "default" and "rummoli.poker.pot" in p.figures


def test_cli_json_schema(capsys):
    assert main(["compare", "knock-rummy", "wiener:knock_max_deadwood=3", "--samples", "1000", "--games", "6",
                 "--seed", "1", "--json", "--no-progress"]) == 0
    out = json.loads(capsys.readouterr().out)
    assert out["matrix"]["columns"] == ["American Knock Rummy", "Wiener Rummy (knock limit: 3)"]
    assert [p["column"] for p in out["profiles"]] == out["matrix"]["columns"]
    for p in out["profiles"]:
        assert {"variant", "rules", "engine", "samples", "games", "seed", "figures", "distributions", "notes"} <= set(p)
        for fig in p["figures"].values():
            check_schema(fig)
    assert out["profiles"][1]["rules"] == {"knock_max_deadwood": 3}
    assert out["profiles"][1]["figures"]["deal.p_can_knock"]["label"].endswith("limit 3)")


def test_cli_text_side_by_side(capsys):
    assert main(["compare", "knock-rummy", "gin", "--samples", "300", "--games", "3", "--seed", "2",
                 "--no-progress"]) == 0
    out = capsys.readouterr().out
    assert "Pack" in out and "[deal]" in out and "[luck]" in out and "(exact)" in out


@pytest.mark.parametrize("argv, words", [
    (["compare", "canasta", "--samples", "10", "--seed", "1"], "unknown variant 'canasta'"),
    (["compare", "rumino:n_jokers=9", "--samples", "10", "--seed", "1"], "n_jokers"),
    (["compare", "gin", "--samples", "10"], "--seed"),
    (["compare", "gin", "--samples", "0", "--seed", "1"], "--samples"),
    (["compare", "gin", "--workers", "2"], "--samples"),
])
def test_cli_bad_input_exits_2_with_one_line(capsys, argv, words):
    assert main(argv) == 2
    err = capsys.readouterr().err
    assert err.count("\n") == 1 and words in err


def test_dask_cluster_gives_identical_results():
    """The same chunks on a (here in-process) Dask cluster: the same profile to the last digit."""
    import distributed  # dask[distributed] is a dependency (pyproject)
    with distributed.LocalCluster(n_workers=1, processes=False, threads_per_worker=1,
                                  dashboard_address=None) as cluster:
        on_dask = profile("knock-rummy", samples=500, games=4, seed=2, dask=cluster.scheduler_address)
    assert on_dask.as_json() == profile("knock-rummy", samples=500, games=4, seed=2).as_json()


def test_two_columns_print_each_difference_in_the_words_its_test_allows():
    from rumino.compare.figures import difference_text
    from rumino.compare.profile import profiles, profiles_text

    a, b = profiles(["gin", "gin:knock_max_deadwood=5"], samples=100, games=8, seed=3)
    text = profiles_text([a, b])
    assert "the difference, Gin Rummy less Gin Rummy (knock limit: 5)" in text
    words = difference_text("hand.turns", a["hand.turns"], b["hand.turns"], a.label, b.label)
    assert words.startswith(("shown", "not shown")) and words.split(",")[0] in text
    assert "the difference," not in profiles_text([a])     # one column: nothing to compare
