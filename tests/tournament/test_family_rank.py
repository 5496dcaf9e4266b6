"""The family ranked from the strength matches (rumino.tournament.family_rank): which player is each game's
top, the luck figures read from the hands, and the tests between games, on made-up matches whose answers
are known and on the committed strength file."""

from fractions import Fraction
from pathlib import Path

import pytest

from rumino.stats import fisher_exact_test, holm, wilson_interval
from rumino.tournament.duplicate import variance_split
from rumino.tournament.family_rank import (baseline_of, deal_share_tests, family_luck, luck_tests, luck_tiers,
                                          shown_within)
from rumino.tournament.strength import Match, read_matches

FILE = Path(__file__).resolve().parents[2] / "book" / "data" / "family_strength.json"


def match(game, a, b, scores, margins=None):
    """A match known only by its hands (its stored figures are zeros: the ranking must read the hands)."""
    margins = margins or [[2 * s1 - 1, 2 * s2 - 1] for s1, s2 in scores]
    return Match(game, a, b, len(scores), 2 * len(scores), [0, 0, 0], [0, 0, 0], 0.0, 1, "",
                 margins=margins, scores=scores)


def trio(game, random_won_vs_top, base_won_vs_best, deals=100, base="greedy"):
    """A game's three matches: the baseline beats random on every hand but ``random_won_vs_top`` against
    the best; the baseline wins ``base_won_vs_best`` hands against the best."""
    def lost(k):  # a's scores: a loses k of the 2·deals hands
        flat = [0] * k + [1] * (2 * deals - k)
        return [flat[i:i + 2] for i in range(0, 2 * deals, 2)]
    return [match(game, base, "random", lost(0)), match(game, "best", base, lost(base_won_vs_best)),
            match(game, "best", "random", lost(random_won_vs_top))]


def test_the_top_is_the_best_only_where_its_match_shows_it_ahead():
    shown = trio("gin", 5, 60)            # the baseline wins 60 of 200: the best is shown ahead
    undecided = trio("wiener", 5, 95)     # 95 of 200: not shown
    rows = {r.game: r for r in family_luck(shown + undecided)}
    assert rows["gin"].top == "best" and rows["gin"].baseline_hands == (60, 0, 140)
    assert rows["gin"].random_hands == (5, 0, 195)
    # where the best is not shown stronger, the baseline is the top: random's chance is read from the
    # baseline's match against random, and the baseline has no chance against itself
    assert rows["wiener"].top == "greedy" and rows["wiener"].random_hands == (0, 0, 200)
    assert rows["wiener"].baseline_wins is None
    assert rows["wiener"].best_vs_baseline == pytest.approx((105 / 200, *wilson_interval(105, 200)))
    # the deal's share would be greedy's against random's, but greedy won every hand by the same margin
    assert rows["wiener"].deal_share is None


def test_figures_are_read_from_the_hands_with_wilson_intervals_and_ties_half():
    scores = [[0.5, 1]] * 10 + [[0, 1]] * 10 + [[1, 1]] * 80
    matches = [match("gin", "greedy", "random", [[1, 1]] * 100), match("gin", "best", "greedy", [[1, 1]] * 100),
               match("gin", "best", "random", scores)]
    (row,) = family_luck(matches)
    assert row.random_hands == (10, 10, 180)
    assert row.random_wins == pytest.approx((15 / 200, *wilson_interval(15, 200)))


def test_the_deal_share_is_the_exact_split_and_none_without_points():
    margins = [[6, -2], [-3, 5], [4, 4], [-8, 0], [1, -1]] * 20
    scores = [[1 if m1 > 0 else 0, 1 if m2 > 0 else 0] for m1, m2 in margins]
    gin = [match("gin", "greedy", "random", [[1, 1]] * 100), match("gin", "best", "greedy", scores, margins),
           match("gin", "best", "random", [[1, 1]] * 100)]
    robber = [match("robber", "greedy", "random", [[1, 1]] * 100, [[0, 0]] * 100)]
    rows = {r.game: r for r in family_luck(gin + robber)}
    # Robber scores no points (every margin 0): no share; its two matches with the best not played yet
    assert rows["robber"].deal_share is None
    assert rows["robber"].top == "" and rows["robber"].random_wins is None   # the top is not known yet
    assert rows["robber"].missing == ["best against greedy", "best against random"]
    # the best shown ahead of greedy (every hand won), on margins whose split is known in Fractions
    top_margins = [[m1 + 9, m2 + 9] for m1, m2 in margins]
    gin[1] = match("gin", "best", "greedy", [[1, 1]] * 100, top_margins)
    (row,) = family_luck(gin)
    exact = variance_split(top_margins).deal_share
    assert row.top == "best" and row.deal_share[0] == pytest.approx(float(exact))
    assert row.deal_share[1] <= float(exact) <= row.deal_share[2]
    assert Fraction(row.deal_share[0]).limit_denominator(10_000) == exact


def test_luck_tests_are_fisher_on_the_hands_holm_adjusted():
    matches = trio("gin", 4, 60) + trio("rumino", 40, 60) + trio("wiener", 6, 60)
    rows = family_luck(matches)
    assert [r.game for r in rows] == ["rumino", "wiener", "gin"]   # the most luck first
    tests = {(t["a"], t["b"]): t for t in luck_tests(rows)}
    raw = {k: fisher_exact_test(*(dict(rumino=(40, 200), wiener=(6, 200), gin=(4, 200))[g][i]
                                  for g in k for i in (0, 1))).p_value for k in tests}
    adjusted = dict(zip(raw, holm(list(raw.values()))))
    for k, t in tests.items():
        assert t["p_holm"] == pytest.approx(adjusted[k])
    assert tests[("rumino", "wiener")]["more_luck"] == "rumino"
    assert tests[("rumino", "gin")]["shown"] and not tests[("wiener", "gin")]["shown"]
    with pytest.raises(ValueError, match="random or the baseline"):
        luck_tests(rows, "greedy")


def test_deal_share_tests_compare_independent_resamples():
    lucky = [[10, -10], [-8, 8], [6, -6], [1, 1]] * 50          # the cards decide nearly all
    skilled = [[5, 5], [3, 3], [-2, -2], [4, -4]] * 50          # the players decide most
    def game(key, margins):
        scores = [[1 if m1 > 0 else 0, 1 if m2 > 0 else 0] for m1, m2 in margins]
        return [match(key, "greedy", "random", [[1, 1]] * 200),
                match(key, "best", "greedy", [[1, 1]] * 150 + [[0, 0]] * 50, margins),
                match(key, "best", "random", [[1, 1]] * 200)]
    rows = family_luck(game("gin", lucky) + game("rumino", skilled))
    (t,) = deal_share_tests(rows)
    assert t["shown"] and t["more_luck"] == "gin"
    assert {r.game for r in rows} == {"gin", "rumino"}


def test_the_committed_file_agrees_with_its_own_figures():
    """Every game's luck figures, read from the hands of book/data/family_strength.json, agree with the
    shares the matches stored when they were played (a second route to the same numbers)."""
    matches = read_matches(FILE)
    rows = family_luck(matches)
    assert {r.game for r in rows} >= {"gin", "rumino", "knock-rummy", "wiener", "romme", "oklahoma", "rummoli",
                                      "robber"}
    by = {(m.game, m.a, m.b): m for m in matches}
    for r in rows:
        assert r.baseline == baseline_of(r.game)
        top_vs_random = by.get((r.game, r.top, "random"))
        if top_vs_random is not None:
            assert r.random_wins[0] == pytest.approx(1 - top_vs_random.share[0])
            assert r.random_wins[1] == pytest.approx(1 - top_vs_random.share[2])
        if r.top == "best":
            assert by[(r.game, "best", r.baseline)].share[1] > 0.5
            assert r.baseline_wins[0] == pytest.approx(1 - by[(r.game, "best", r.baseline)].share[0])


def test_tiers_cut_only_where_every_pair_across_is_shown_and_name_what_is_shown_within():
    # x > y > z shown, w shown below x and y but not told from z, and z > w not shown: x | y | z w
    def t(a, b, more):
        return {"a": a, "b": b, "shown": more is not None, "more_luck": more}
    tests = [t("x", "y", "x"), t("x", "z", "x"), t("x", "w", "x"), t("y", "z", "y"), t("y", "w", "y"),
             t("z", "w", None)]
    assert luck_tiers(tests, ["x", "y", "z", "w"]) == [["x"], ["y"], ["z", "w"]]
    assert shown_within(tests, [["x"], ["y"], ["z", "w"]]) == []
    # one pair across a would-be cut not shown: no cut there, and the pair shown inside the tier is named
    tests[1] = t("x", "z", None)
    # (nor before w: z is not shown above it)
    tiers = luck_tiers(tests, ["x", "y", "z", "w"])
    assert tiers == [["x", "y", "z", "w"]]
    assert [(u["a"], u["b"]) for u in shown_within(tests, tiers)] == [("x", "y"), ("x", "w"), ("y", "z"), ("y", "w")]
    assert luck_tiers([], []) == [] and luck_tiers([], ["x"]) == [["x"]]
