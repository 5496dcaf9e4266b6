"""HouseRuleLab driven in Python: choose a knob, set A and B, press Run; compare with `rumino simulate`."""

from __future__ import annotations

import dataclasses
from pathlib import Path

import ipywidgets as W
import pytest

from rumino.cli.simulate import simulate
from rumino.variants import find_variant
from rumino_widgets import HouseRuleLab, HouseRuleLabController

ROOT = Path(__file__).resolve().parents[2]


def test_each_setting_matches_rumino_simulate_for_the_same_seed():
    lab = HouseRuleLabController(knob="knock_max_deadwood", a=7, b=3, players="greedy,greedy,threshold:3",
                                 games=12, seed=4)
    res = lab.run()
    specs = ["greedy", "greedy", "threshold:3"]
    for label, value in (("A", 7), ("B", 3)):
        rules = dataclasses.replace(find_variant("rumino").rules, knock_max_deadwood=value)
        ref = simulate(specs, 12, 4, rules)
        mine = res[label]
        assert mine["value"] == value and mine["games"] == 12
        assert [(e.estimate, [e.lo, e.hi]) for e in mine["win_rate"]] == [
            (w["value"], w["ci95"]) for w in ref["win_rate"]]
        assert mine["hands"] == ref["hands"]
        assert {k: e.estimate for k, e in mine["endings"].items()} == {
            k: v["value"] for k, v in ref["hand_endings"].items()}
        assert mine["hands_per_game"].estimate == ref["mean_hands_per_game"]["value"]
        assert mine["pool"].estimate == ref["mean_pool"]["value"]


def test_run_button_fills_the_progress_bar_and_the_figure():
    lab = HouseRuleLab(knob="knock_max_deadwood", a=7, b=2, players="greedy,greedy", games=6, seed=2)
    seen = []
    lab.progress.observe(lambda ch: seen.append(ch["new"]), names="value")
    lab.run_button.click()
    assert seen[-1] == lab.progress.max == 12 and seen == sorted(seen) and len(seen) == 12
    c = lab.controller
    assert c.error is None and "done: 6 games per setting" in lab.status.value
    # traces: A's and B's proportions (left) and hands per game (right), values and bars from the estimates
    names = [t.name for t in lab.figure.data]
    # series named in words, not code (`knock_max_deadwood=7`), and the proportions in percent
    assert names[0] == "A: knock limit 7" and names[2] == "B: knock limit 2"
    assert lab.figure.layout.yaxis.tickformat == ".0%"
    for trace, label in ((lab.figure.data[0], "A"), (lab.figure.data[2], "B")):
        res = c.results[label]
        ests = list(res["win_rate"]) + list(res["endings"].values())
        assert list(trace.y) == [e.estimate for e in ests]
        assert list(trace.error_y.array) == pytest.approx([e.hi - e.estimate for e in ests])
        assert list(trace.error_y.arrayminus) == pytest.approx([e.estimate - e.lo for e in ests])
    assert lab.figure.data[1].y[0] == c.results["A"]["hands_per_game"].estimate
    assert "knock limit 7 vs 2" in lab.figure.layout.title.text


def test_settings_use_the_rule_knobs_controls():
    lab = HouseRuleLab(knob="knock_max_deadwood", atlas=None)  # without an atlas: B is a nearby value
    a, b = lab.controls["A"], lab.controls["B"]
    assert isinstance(a.main, W.IntSlider) and (a.main.value, b.main.value) == (7, 4)
    lab.knob_box.value = "set_suits"
    assert isinstance(lab.controls["A"].main, W.ToggleButtons)
    assert (lab.controller.a, lab.controller.b) == ("any", "distinct")
    lab.controls["B"].main.value = "any"
    assert lab.controller.b == "any"
    lab.knob_box.value = "max_lay_size"  # allow_none: B defaults to unlimited
    assert (lab.controller.a, lab.controller.b) == (4, None) and lab.controls["B"].unlimited.value


def test_the_atlas_answers_before_the_lab_plays():
    from rumino.pages.atlas import measured_answer, project_atlas

    atlas = project_atlas()
    lab = HouseRuleLab("gin", knob="knock_max_deadwood", players="greedy,greedy", games=2)
    # B starts at the atlas's first value (0: gin only), and its answer is the book's page's, marks and all
    assert (lab.controller.a, lab.controller.b) == (10, 0)
    assert "Measured already, on 200 deals" in lab.atlas_box.value
    assert "<strong>−6.6 [−8.3, −4.8]</strong> ✔" in lab.atlas_box.value  # minutes a game, as on the page
    page = (ROOT / "book" / "house_rules" / "gin.md").read_text(encoding="utf-8")
    assert "| Knock limit: 0 (rules §6) | **−6.6 [−8.3, −4.8]** ✔ |" in page
    lab.controls["B"].main.value = 20
    assert "<strong>−10.7 [−12.1, −9.4]</strong> ✔" in lab.atlas_box.value
    # A and B swapped: the change turns sign, its interval with it
    assert measured_answer(atlas, "gin", "knock_max_deadwood", 20, 10)["rows"][0][1] == "**+10.7 [+9.4, +12.1]** ✔"
    lab.controls["B"].main.value = 13  # a value the atlas did not play: it says which it did
    assert "has measured knock limit at 0, 5, 20 against the default, 10" in lab.atlas_box.value
    lab.knob_box.value = "wall_knock"  # a rule that plays every deal as the default at two seats
    assert "every deal played exactly as under A" in lab.atlas_box.value
    assert "_" not in lab.atlas_box.value.replace("rumino-lab", "").replace("font:13px sans-serif", "")
    assert "Measured already" in lab.static_html()  # the static page shows it too


def test_bad_settings_show_the_engine_message():
    lab = HouseRuleLab(knob="stake", games=2)
    lab.controls["B"].main.value = 0
    lab.run_button.click()
    assert "Buy-in: 0 is not allowed" in lab.controller.error and "rumino-error" in lab.status.value
    lab.players_box.value = "greedy,wizard"
    lab.controls["B"].main.value = 5
    lab.run_button.click()
    assert "unknown player 'wizard'" in lab.controller.error
    lab.players_box.value = "greedy"
    lab.run_button.click()
    assert "2 to 6 players" in lab.controller.error


def test_a_variant_without_an_engine_says_so(robber_without_engine):
    lab = HouseRuleLab()  # every game has an engine now: Robber Rummy without its engine stands in
    lab.variant_box.value = "robber"
    lab.run_button.click()
    assert "Robber Rummy has no playable engine yet" in lab.controller.error


def test_static_html_table():
    lab = HouseRuleLab(knob="knock_max_deadwood", a=7, b=3, players="greedy,greedy", games=4, seed=1)
    assert "not run yet" in lab.static_html()
    lab.run_button.click()
    html = lab.static_html()
    assert "hands ending by knock" in html and "A: 7" in html and "B: 3" in html
    assert lab._repr_mimebundle_()["text/html"] == html


def test_the_lab_tests_each_difference_game_by_game():
    from rumino.stats import paired_mean_difference, proportion_difference, verdict

    c = HouseRuleLabController(knob="knock_max_deadwood", a=7, b=3, players="greedy,greedy", games=30, seed=2)
    c.run()
    A, B = c.results["A"], c.results["B"]
    diffs = c.differences()
    # the same seeded games under both settings: hands a game compared game by game
    assert diffs["hands per game"] == paired_mean_difference(
        [b - a for a, b in zip(A["per_game"]["hands_per_game"], B["per_game"]["hands_per_game"])])
    assert sum(A["per_game"]["hands_per_game"]) == A["hands"]
    gin = diffs["hands ending by gin"]
    assert gin == proportion_difference(B["counts"]["endings"]["gin"], B["hands"], A["counts"]["endings"]["gin"],
                                        A["hands"])
    html = c.html()
    assert "B − A, and what it shows" in html
    assert verdict(diffs["hands per game"], "B", "A", more="is higher", p=False, digits=2) in html
