"""ClassExperiment driven in Python: typed groups, virtual groups, bad tallies, the plot, reset, another experiment."""

from __future__ import annotations

from html import escape

import pytest

from rumino.classroom.experiment import EXPERIMENTS, parse_tally, pool, running
from rumino.errors import RuminoError

from rumino_widgets.class_experiment import ClassExperiment, ClassExperimentController


def _type(w: ClassExperiment, successes: str, trials: str, name: str = "") -> None:
    w.successes.value, w.trials.value, w.group_name.value = successes, trials, name
    w.add_button.click()


def test_typed_groups_pool_into_the_readout_and_the_table():
    w = ClassExperiment("knock_meld", hands=10)
    _type(w, "4", "30", "Ana's table")
    _type(w, "5", "30")
    groups = w.controller.tally.groups
    assert [(g.name, g.successes, g.trials) for g in groups] == [("Ana's table", 4, 30), ("group 2", 5, 30)]
    e = pool(groups)
    assert f"9 of 60 = {e.value:.1%}" in w.readout.value and f"{e.lo:.1%} – {e.hi:.1%}" in w.readout.value
    exact = float(EXPERIMENTS["knock_meld"].exact)
    assert f"exact {exact:.1%}" in w.readout.value
    assert ("inside" in w.readout.value) == e.contains(EXPERIMENTS["knock_meld"].exact)
    assert "Ana&#x27;s table" in w.table.value and w.table.value.count("<tr>") == 3  # head + 2 groups
    # the fields are cleared for the next group, and the message says what was added
    assert (w.successes.value, w.trials.value, w.group_name.value) == ("", "", "")
    assert "added group 2: 5 of 30" in w.message.value


@pytest.mark.parametrize("successes, trials", [("", "30"), ("-1", "30"), ("31", "30"), ("2.5", "30"),
                                               ("3", "0"), ("3", "1000000"), ("three", "30")])
def test_a_bad_tally_shows_its_message_and_changes_nothing(successes, trials):
    w = ClassExperiment("first_out")
    _type(w, "10", "20")
    table, readout, fig_x = w.table.value, w.readout.value, tuple(w.figure.data[2].x)
    _type(w, successes, trials)
    with pytest.raises(RuminoError) as info:
        parse_tally(successes, trials)
    assert "rumino-error" in w.message.value and escape(str(info.value)) in w.message.value
    assert len(w.controller.tally.groups) == 1
    assert (w.table.value, w.readout.value, tuple(w.figure.data[2].x)) == (table, readout, fig_x)
    # the refused text stays in the fields, to be corrected
    assert (w.successes.value, w.trials.value) == (successes, trials)


def test_virtual_groups_show_the_cards_and_the_engines_verdicts():
    w = ClassExperiment("rumino_meld", hands=12, seed=5)
    assert w.deal_button.description == "Deal 12 virtual hands"
    w.deal_button.click()
    trials = w.controller.tally.last_trials
    assert len(trials) == 12 and w.dealt.value.count('class="rumino-trial"') == 12
    assert w.dealt.value.count('data-success="1"') == sum(t.success for t in trials)
    judge = EXPERIMENTS["rumino_meld"].judge
    assert all(judge(t.cards) == (t.success, t.verdict) for t in trials)
    g = w.controller.tally.groups[0]
    assert g.virtual and g.successes == sum(t.success for t in trials)
    assert "(virtual)" in w.table.value
    # the same seed deals the same group in a fresh widget; the next group is a new deal
    again = ClassExperiment("rumino_meld", hands=12, seed=5)
    again.deal_button.click()
    assert again.controller.tally.last_trials == trials
    w.deal_button.click()
    assert w.controller.tally.last_trials != trials and len(w.controller.tally.groups) == 2


def test_the_plot_draws_the_running_estimate_its_band_and_the_exact_line():
    w = ClassExperiment("first_out", hands=20, seed=3)
    for _ in range(3):
        w.deal_button.click()
    _type(w, "7", "10")
    r = running(w.controller.tally.groups)
    hi, lo, est, exact = w.figure.data
    assert list(est.x) == [1, 2, 3, 4] and list(est.y) == [e.value for e in r]
    assert list(lo.y) == [e.lo for e in r] and list(hi.y) == [e.hi for e in r] and lo.fill == "tonexty"
    assert list(exact.y) == [float(EXPERIMENTS["first_out"].exact)] * 2
    assert exact.x[0] <= 1 and exact.x[1] >= 4


def test_reset_and_another_experiment_start_over():
    w = ClassExperiment("knock_meld", hands=5)
    w.deal_button.click()
    _type(w, "1", "5")
    w.reset_button.click()
    assert w.controller.tally.groups == [] and w.dealt.value == "" and list(w.figure.data[2].x) == []
    assert "No groups yet" in w.table.value
    _type(w, "1", "5")
    w.choice.value = "first_out"
    assert w.controller.tally.groups == [] and "7 or an 8" in w.instructions.value
    assert w.deal_button.description == "Deal 5 virtual tries"
    w.hands.value = 1
    assert w.deal_button.description == "Deal 1 virtual try"
    p = EXPERIMENTS["first_out"].exact
    assert f"{p.numerator:,}" in w.instructions.value and f"{float(p):.2%}" in w.instructions.value


def test_every_experiment_shows_its_instructions():
    for key, e in EXPERIMENTS.items():
        html = ClassExperimentController(key).instructions_html()
        assert all(s.split(",")[0].replace("'", "&#x27;") in html for s in e.steps)


def test_static_fallback_carries_the_groups():
    w = ClassExperiment("knock_meld")
    _type(w, "3", "30")
    html = w.static_html()
    assert w._repr_mimebundle_()["text/html"] == html
    assert "rumino-tally" in html and "3 / 30" in html and "Exact chance" in html  # the page's tally, the groups in it


def test_controller_rejects_an_unknown_experiment():
    c = ClassExperimentController("knock_meld")
    c.choose("poker")
    assert c.error.startswith("unknown experiment 'poker'") and c.key == "knock_meld"
