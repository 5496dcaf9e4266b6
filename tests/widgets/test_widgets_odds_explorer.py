"""OddsExplorer driven in Python: move sliders, switch targets; compare the figure with the engine."""

from __future__ import annotations

from fractions import Fraction

import pytest

from rumino.cards import JOKER, RUMINO_PACK, parse_hand
from rumino.odds.draws import p_at_least_one, p_complete
from rumino.odds.exact import one_in
from rumino.odds.markov import best_target
from rumino_widgets import OddsExplorer, OddsExplorerController


def _assert_mc_agrees(widget, limit=4.0):
    """Every simulated point is within ``limit`` standard errors of the exact value (seeded: deterministic)."""
    c = widget.controller
    spec = c.figure_spec()
    assert spec["mc_x"], "no Monte Carlo points"
    for n in spec["mc_x"]:
        est = spec["mc"][n]
        assert est.n == c.samples and est.seed == c.seed and est.method == "wilson"
        assert abs(est.z_score(c.exact_at(n))) < limit, (n, est, c.exact_at(n))


def test_outs_curve_is_the_exact_hypergeometric_and_the_figure_shows_it():
    w = OddsExplorer("outs", outs=8, unseen=47, draws=6, samples=4000, seed=3)
    exact, sim = w.figure.data
    assert list(exact.x) == list(range(7))
    assert list(exact.y) == [float(p_at_least_one(8, 47, n)) for n in range(7)]
    assert w.controller.exact_at(1) == Fraction(8, 47)
    # Monte Carlo diamonds with asymmetric Wilson bars, agreeing with the exact curve
    spec = w.controller.figure_spec()
    assert list(sim.x) == spec["mc_x"] and list(sim.y) == spec["mc_y"]
    assert list(sim.error_y.array) == spec["mc_plus"] and list(sim.error_y.arrayminus) == spec["mc_minus"]
    assert all(lo <= y <= hi for y, lo, hi in zip(sim.y, (e.lo for e in spec["mc"].values()),
                                                   (e.hi for e in spec["mc"].values())))
    _assert_mc_agrees(w)
    assert one_in(p_at_least_one(8, 47, 6)) in w.figure.layout.title.text
    assert one_in(p_at_least_one(8, 47, 6)) in w.readout.value


def test_moving_the_sliders_recomputes_curve_title_and_readout():
    w = OddsExplorer("outs", outs=4, unseen=40, draws=5, samples=500, seed=1)
    w.draws_slider.value = 12
    assert len(w.figure.data[0].x) == 13 and "within 12 draws" in w.figure.layout.title.text
    assert w.figure.data[0].y[-1] == float(p_at_least_one(4, 40, 12))
    w.outs_slider.value = 10
    assert w.figure.data[0].y[-1] == float(p_at_least_one(10, 40, 12))
    w.unseen_slider.value = 20
    assert w.controller.unseen == 20
    assert w.figure.data[0].y[-1] == float(p_at_least_one(10, 20, 12))
    assert "from 20 unseen" in w.readout.value
    # draws can never exceed the unseen cards: the slider's range follows
    w.unseen_slider.value = 10
    assert w.draws_slider.max <= 10 and w.controller.draws <= 10


def test_straight_flush_target_uses_the_engine_target_and_the_joker_dp():
    hand = parse_hand("3h 4h 5h 6h Kc Kd 2s")
    w = OddsExplorer("straight_flush", hand="3h 4h 5h 6h Kc Kd 2s", draws=12, samples=1500, seed=2)
    t = best_target(hand)
    assert t.describe() == "straight flush Ah–7h" and w.controller.describe() == "straight flush A♥–7♥"
    assert [Fraction(y).limit_denominator(10**15) for y in w.figure.data[0].y][:1] == [0]
    assert list(w.figure.data[0].y) == [float(p_complete(t.needs, 101, n, 4)) for n in range(13)]
    assert w.controller.unseen == RUMINO_PACK.size - 7
    _assert_mc_agrees(w)


def test_unseen_slider_counts_blanks_as_seen_and_keeps_the_needs():
    w = OddsExplorer("straight_flush", draws=8, samples=800, seed=5)
    c = w.controller
    full = c.target()
    w.unseen_slider.value = 60
    t = c.target()
    assert c.unseen == t.unseen == 60 and len(c.seen()) == 101 - 60
    assert t.needs == full.needs and t.jokers_unseen == full.jokers_unseen
    assert JOKER not in c.seen() and not set(c.seen()) & set(t.kinds)
    assert w.figure.data[0].y[-1] == float(p_complete(t.needs, 60, 8, t.jokers_unseen))
    # the slider cannot go below the live cards: every blank seen is the least
    assert w.unseen_slider.min == c.min_unseen == 101 - len(c._blanks())
    _assert_mc_agrees(w)


def test_seven_of_a_kind_target():
    w = OddsExplorer("outs")
    w.target_box.value = "seven_kind"
    c = w.controller
    assert w.hand_box.value == "5h 5h 5s 5s 5d JK 9c"
    assert c.describe() == "seven of a kind of rank 5"
    t = c.target()
    assert t.needs == ((3, 2),) and t.jokers_held == 1
    # six of the seven held (the joker counts): any of the 3 unseen 5s or 3 unseen jokers completes it
    assert c.exact_at(1) == Fraction(6, 101)
    assert c.exact_at(2) == p_complete(((3, 2),), 101, 2, 3, jokers_held=1)


def test_a_bad_hand_shows_the_engine_message_and_empties_the_plot():
    w = OddsExplorer()
    w.hand_box.value = "3h 4h 5h 6h Kc Kd 11s"
    assert "&#x27;11s&#x27; is not a card" in w.readout.value and "rumino-error" in w.readout.value
    assert len(w.figure.data[0].x) == 0 and w.figure.layout.title.text == "no target"
    w.hand_box.value = "3h 4h"
    assert "a Rumino hand has 7 cards" in w.readout.value
    w.hand_box.value = "3h 4h 5h 6h Kc Kd 2s"
    assert w.controller.error is None and len(w.figure.data[0].x) == w.controller.draws + 1


def test_seed_and_samples_are_reported_and_reproducible():
    a = OddsExplorerController("outs", outs=5, unseen=30, draws=4, samples=700, seed=9).monte_carlo()
    b = OddsExplorerController("outs", outs=5, unseen=30, draws=4, samples=700, seed=9).monte_carlo()
    assert {n: e.successes for n, e in a.items()} == {n: e.successes for n, e in b.items()}
    w = OddsExplorer("outs", samples=700, seed=9)
    assert "n = 700 per point, seed 9" in w.readout.value


def test_static_html_has_the_curve_table():
    w = OddsExplorer("outs", outs=8, unseen=47, draws=3, samples=300)
    html = w.static_html()
    # exact fractions are spaced and ruled off from their neighbours (they used to run together)
    assert "8&thinsp;/&thinsp;47" in html and "1,081" in html and "1 in 5.88" in html and "seed 1" in html
    assert "padding:3px 10px" in html and "17.02%" in html
    assert w._repr_mimebundle_()["text/html"] == html


@pytest.mark.parametrize("bad", ["cards", "flush"])
def test_unknown_target_is_a_message(bad):
    c = OddsExplorerController("outs")
    c.set_target(bad)
    assert c.error.startswith(f"unknown target {bad!r}")
