"""VariantCompare driven in Python: columns, knobs through RuleKnobs, the matrix, the profiles, the plots.

The wiring tests use a stand-in profile source (it records what it is asked and answers a
fixed view), so they check what the widget asks for and redraws without playing games;
the tests marked "real" run :func:`rumino.compare.profile` itself, small and seeded.
"""

from __future__ import annotations

import dataclasses

import pytest

from rumino.compare import rules_matrix
from rumino.errors import RuleConfigError
from rumino.stats import proportion_estimate
from rumino.variants import find_variant
from rumino_widgets import VariantCompare, VariantCompareController
from rumino_widgets.variant_compare import ColumnView, matrix_table


class StandIn:
    """A profile source that records each call and answers a view built from the rules' knock limit."""

    def __init__(self):
        self.calls = []

    def __call__(self, variant, rules, *, samples, games, seed, progress=None):
        self.calls.append((variant, rules, samples, games, seed))
        for done in range(1, 5):
            if progress is not None:
                progress(done, 4)
        limit = getattr(rules, "knock_max_deadwood", None) or 0
        e = proportion_estimate(3, 4)
        return ColumnView(variant, deal={0: 0.1, limit: 0.9}, deal_note="stand-in", turns=(3.0, 2.0, 4.0),
                          skill=[("best vs random", e.value, e.lo, e.hi)],
                          rows=[("knock", "knock limit seen", str(limit)), (variant, f"only in {variant}", "x")])


def test_moving_a_knob_recomputes_that_column_only_and_the_matrix_follows():
    src = StandIn()
    c = VariantCompareController(["rumino", "gin"], samples=300, games=5, seed=7, source=src)
    c.compute()
    assert [call[0] for call in src.calls] == ["rumino", "gin"]
    assert all(call[2:] == (300, 5, 7) for call in src.calls)
    assert c.stale() == []
    c.set_knob(0, "knock_max_deadwood", 3)
    assert c.stale() == [0]
    c.compute()
    assert len(src.calls) == 3 and src.calls[-1][1].knock_max_deadwood == 3
    # the matrix is the engine's matrix of exactly these rules
    expected = rules_matrix([("rumino", dataclasses.replace(find_variant("rumino").rules, knock_max_deadwood=3)),
                             "gin"])
    assert c.matrix().cells == expected.cells and c.matrix_html() == matrix_table(expected)
    assert c.labels == ["Rumino (knock limit: 3)", "Gin Rummy"]
    # back to the default: cached, nothing recomputed
    c.set_knob(0, "knock_max_deadwood", 7)
    assert c.stale() == [] and len(src.calls) == 3


def test_profile_table_lists_every_quantity_of_every_column():
    c = VariantCompareController(["rumino", "wiener", "gin"], source=StandIn())
    c.compute()
    html = c.profile_html()
    for text in ("knock limit seen", "only in rumino", "only in wiener", "only in gin", "Wiener Rummy"):
        assert text in html
    # a quantity a game lacks is a dash, not an empty cell
    assert html.count(">—<") == 6


def test_one_game_under_two_settings_and_the_same_game_twice():
    c = VariantCompareController(["rumino", "rumino:knock_max_deadwood=5"], source=StandIn())
    assert c.labels == ["Rumino", "Rumino (knock limit: 5)"]
    twice = VariantCompareController(["gin", "gin"], source=StandIn())
    assert twice.labels == ["A: Gin Rummy", "B: Gin Rummy"]


def test_refused_rules_show_the_engine_message_and_are_not_profiled():
    src = StandIn()
    c = VariantCompareController(["rumino", "gin"], source=src)
    c.set_knob(0, "stake", 0)
    assert c.errors[0] == "Buy-in: 0 is not allowed; it must be a whole number from 1 to 1,000,000 (rules §1.5)."
    c.compute()
    assert [call[0] for call in src.calls] == ["gin"]
    assert c.views()[0] is None and "rules refused" in c.labels[0]
    assert c.errors[0] in c.html() and c.matrix().labels == ["Gin Rummy"]


def test_column_count_and_bad_columns():
    with pytest.raises(RuleConfigError, match="2 or 3 columns"):
        VariantCompareController(["rumino"])
    with pytest.raises(RuleConfigError, match="no value"):
        VariantCompareController(["rumino:knock_max_deadwood", "gin"])
    c = VariantCompareController(["rumino", "gin"], source=StandIn())
    c.add_column("wiener")
    with pytest.raises(RuleConfigError, match="at most 3"):
        c.add_column("gin")
    c.remove_column(2)
    with pytest.raises(RuleConfigError, match="at least 2"):
        c.remove_column(1)


def test_widget_knob_moves_redraw_with_a_full_progress_bar():
    src = StandIn()
    w = VariantCompare(["rumino", "gin"], samples=200, games=3, seed=2, source=src)
    assert [t.name for t in w.figure.data if t.showlegend is not False] == ["Rumino", "Gin Rummy", "an even match"]
    seen = []
    w.progress.observe(lambda ch: seen.append(ch["new"]), names="value")
    w.forms[0].controls["knock_max_deadwood"].main.value = 4  # the reader moves the slider
    assert src.calls[-1][1].knock_max_deadwood == 4 and len(src.calls) == 3
    assert seen[-1] == w.progress.max == 100 and seen == sorted(seen) and len(seen) > 2
    assert "done: 2 columns" in w.status.value
    assert "knock limit: 4" in w.matrix.value
    assert "Rumino (knock limit: 4)" in w.table.value
    # the deal panel of column A moved to the new limit; three panels, each column once per panel
    deal_a = w.figure.data[0]
    assert list(deal_a.x) == [0, 4] and deal_a.name == "Rumino (knock limit: 4)"
    assert len(w.figure.data) == 7 and w.figure.data[1].y[0] == 3.0 and list(w.figure.data[6].y) == [0.5]
    # a column told apart by marker and line style, not colour alone
    assert w.figure.data[0].marker.symbol != w.figure.data[3].marker.symbol
    assert w.figure.data[0].line.dash != w.figure.data[3].line.dash
    # what JupyterLab draws: the Output area holds the same figure as plotly's MIME output
    shown = w.plot.outputs[0]["data"]["application/vnd.plotly.v1+json"]
    assert shown["layout"]["title"]["text"] == "Rumino (knock limit: 4) vs Gin Rummy"
    assert [t["x"] for t in shown["data"]][0] == [0, 4] and len(shown["data"]) == 7


def test_widget_third_column_variant_switch_and_static_fallback():
    src = StandIn()
    w = VariantCompare(["rumino", "gin"], source=src)
    w.count_box.value = 3
    assert len(w.tabs.children) == 3 and len(w.controller.knobs) == 3
    third = w.controller.knobs[2].variant.key
    assert third not in ("rumino", "gin") and src.calls[-1][0] == third
    w.forms[1].variant_box.value = "wiener"  # column B becomes another game
    assert w.controller.knobs[1].variant.key == "wiener" and src.calls[-1][0] == "wiener"
    assert w.tabs.titles[1] == "B: Wiener Rummy"
    w.count_box.value = 2
    assert len(w.tabs.children) == 2 and len(w.controller.knobs) == 2
    bundle = w._repr_mimebundle_()
    assert bundle["text/html"] == w.static_html() == w.controller.html()
    assert "rumino-matrix" in bundle["text/html"] and "rumino-compare-profiles" in bundle["text/html"]


def test_turns_panel_overlays_the_distributions_and_places_a_mean_only_column_on_the_axis():
    """Columns with a hand-length distribution are drawn as distributions; a column that has only the mean
    (a stand-in here) is a point on the turns axis with its interval, so the panel keeps one x axis."""
    class WithDist(StandIn):
        def __call__(self, variant, rules, **kw):
            v = super().__call__(variant, rules, **kw)
            if variant == "gin":
                v.turns_dist = {4: 0.25, 6: 0.5, 9: 0.25}
            return v

    c = VariantCompareController(["rumino", "gin"], source=WithDist())
    c.compute()
    fig = c.figure()
    turns = [t for t in fig.data if t.xaxis == "x2"]
    assert len(turns) == 2
    mean_only, dist = turns
    assert list(mean_only.x) == [3.0] and list(mean_only.y) == [0] and mean_only.error_x.array == (1.0,)
    assert list(dist.x) == [4, 6, 9] and sum(dist.y) == pytest.approx(1)
    assert fig.layout.annotations[1].text == "turns per hand (share of hands)"
    assert fig.layout.xaxis2.title.text == "turns in a hand"


def test_real_rummoli_and_romme_columns_show_their_own_figures_and_turns_distributions():
    """Real profiles, small: Rummoli's own-terms rows and Rommé's play rows side by side, each figure a dash
    where the other game lacks it; both hand-length distributions drawn; a Rummoli knob recomputes its column."""
    c = VariantCompareController(["rummoli", "romme"], samples=300, games=4, seed=1)
    views = c.compute()
    rum, rom = views
    assert rum.deal == {} and rum.turns_dist and rom.turns_dist
    assert sum(rum.turns_dist.values()) == pytest.approx(1) and sum(rom.turns_dist.values()) == pytest.approx(1)
    assert [s[0] for s in rum.skill] == ["best (default) vs random"]
    html = c.profile_html()
    for text in ("mean chips the poker pot pays a deal", "share of the chips paid in play by the poker section",
                 "P(dealt hand can open with 40 or more)", "share of hands ending by a hand-Rommé", "(exact)"):
        assert text in html, text
    fig = c.figure()
    turns = [t for t in fig.data if t.xaxis == "x2"]
    assert [t.name for t in turns] == ["Rummoli", "German Rommé"] and all(len(t.x) >= 1 for t in turns)
    # any_colour_fallback: the last player leads any colour, so no Rummoli deal ends in a deadlock
    c.set_knob(0, "colour_change_rule", "any_colour_fallback")
    assert c.stale() == [0]
    rum = c.compute()[0]
    deadlock = dict((k, t) for k, _, t in rum.rows)["hand.ending.deadlock"]
    assert deadlock.startswith("0% ")


def test_two_real_columns_show_game_length_and_each_difference_in_words_from_its_test():
    from rumino.compare import profile
    from rumino.stats import mean_difference, verdict

    c = VariantCompareController(["rumino", "rumino:knock_max_deadwood=3"], samples=200, games=12, seed=2)
    c.compute()
    html = c.profile_html()
    assert "minutes a game at the book" in html and "turns a game" in html and "hands per game" in html
    assert "the difference, and what it shows" in html
    # the minutes row's verdict is the engine's: the two profiles' figures, their normal difference
    a = profile("rumino", samples=200, games=12, seed=2)["game.minutes"].estimate
    b = profile(("rumino", find_variant("rumino").with_rules(knock_max_deadwood=3)), samples=200, games=12,
                seed=2)["game.minutes"].estimate
    words = verdict(mean_difference(a, b), c.labels[0], c.labels[1], more="is higher", p=False, digits=2)
    assert words.replace("'", "&#x27;") in html
    assert words.startswith(("shown", "not shown"))
    # three columns: no difference column (a difference is between two)
    c3 = VariantCompareController(["rumino", "gin", "wiener"], samples=200, games=4, seed=2)
    c3.compute()
    assert "the difference, and what it shows" not in c3.profile_html()
