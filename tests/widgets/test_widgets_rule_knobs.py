"""RuleKnobs driven in Python: every control of every variant against the rules dataclass itself."""

from __future__ import annotations

import dataclasses
from html import escape

import ipywidgets as W
import pytest

from rumino.errors import RuminoError
from rumino.variants import VARIANTS
from rumino.engine.knobs import knob_table, value_words
from rumino_widgets import RuleKnobs, RuleKnobsController
from rumino_widgets.rule_knobs import control_kind, group_rows


def _engine(cls, values):
    """What the engine itself says about these values: (rules, None) or (None, message)."""
    try:
        rules = cls(**values)
        rules.meld_rules
        return rules, None
    except RuminoError as err:
        return None, str(err)


@pytest.mark.parametrize("key", list(VARIANTS))
def test_form_has_the_right_control_for_every_field(key):
    v = VARIANTS[key]
    form = RuleKnobs(key)
    rows = knob_table(v.rules_class)
    # every field once, grouped under the rules matrix's topics (in the matrix's order)
    assert sorted(form.controls) == sorted(r["name"] for r in rows) == sorted(
        f.name for f in dataclasses.fields(v.rules_class) if "section" in f.metadata)
    assert list(form.controls) == [r["name"] for _topic, group in group_rows(rows) for r in group]
    topics = [c.value for c in form.form.children if "rumino-knob-topic" in c._dom_classes]
    assert [t.split(">")[1].split("<")[0] for t in topics] == [t for t, _ in group_rows(rows)]
    expected = {"checkbox": W.Checkbox, "toggle": W.ToggleButtons, "dropdown": W.Dropdown,
                "slider": W.IntSlider, "number": W.IntText}
    for r in rows:
        ctl = form.controls[r["name"]]
        assert isinstance(ctl.main, expected[control_kind(r)])
        assert (ctl.unlimited is not None) == r["allow_none"]
        if isinstance(ctl.main, W.IntSlider):
            assert (ctl.main.min, ctl.main.max) == (r["low"], r["high"])
        if r["choices"] is not None and not isinstance(ctl.main, W.Checkbox):
            assert [val for _label, val in ctl.main.options] == list(r["choices"])
            # a choice shows a player's words, never its code name
            assert [label for label, _val in ctl.main.options] == [value_words(r, c) for c in r["choices"]]
            assert not any("_" in label for label, _val in ctl.main.options)
        shown = ctl.caption.value if ctl.kind == "toggle" else ctl.main.description
        assert escape(r["label"]) in shown if ctl.kind == "toggle" else r["label"] == shown
    # untouched, the form makes exactly the variant's default rules
    assert form.rules == v.rules and form.controller.error is None
    assert "the default rules" in form.status.value


@pytest.mark.parametrize("key", list(VARIANTS))
def test_every_choice_of_every_knob_gives_the_engine_verdict(key):
    v = VARIANTS[key]
    for r in knob_table(v.rules_class):
        if r["choices"] is None:
            continue
        form = RuleKnobs(key, choose_variant=False)
        for choice in r["choices"]:
            form.controls[r["name"]].main.value = choice
            values = dict(form.controller.values)
            assert values[r["name"]] == choice
            rules, msg = _engine(v.rules_class, values)
            assert form.rules == rules and form.controller.error == msg


def test_slider_sets_the_value_and_the_code_to_paste():
    form = RuleKnobs("rumino")
    form.controls["knock_max_deadwood"].main.value = 10
    assert form.rules.knock_max_deadwood == 10
    assert form.controller.code() == "RuminoRules(knock_max_deadwood=10)"
    assert "1 house rule: knock limit: 10" in form.status.value  # in a player's words, not the code
    assert "RuminoRules" not in form.status.value


def test_an_out_of_range_number_shows_the_engine_message_and_no_rules():
    form = RuleKnobs("rumino")
    form.controls["stake"].main.value = 0
    rules, msg = _engine(type(VARIANTS["rumino"].rules), form.controller.values)
    assert rules is None and form.rules is None and form.controller.error == msg
    assert "Buy-in: 0 is not allowed" in msg and "rumino-error" in form.status.value
    form.controls["stake"].main.value = 25
    assert form.rules.stake == 25 and form.controller.error is None


def test_unlimited_checkbox_gives_none_and_disables_the_choice():
    form = RuleKnobs("rumino")
    ctl = form.controls["max_lay_size"]
    ctl.unlimited.value = True
    assert form.controller.values["max_lay_size"] is None and ctl.main.disabled
    assert form.rules is not None and form.rules.max_lay_size is None
    assert form.rules.meld_rules.max_run == 13  # rules §1.6: unlimited runs
    ctl.unlimited.value = False
    assert form.rules.max_lay_size == 4


def test_a_combination_is_judged_by_the_engine():
    # unlimited lays with distinct-suit sets: whatever the engine says, the form says
    form = RuleKnobs("rumino")
    form.controls["max_lay_size"].unlimited.value = True
    form.controls["set_suits"].main.value = "distinct"
    rules, msg = _engine(type(VARIANTS["rumino"].rules), form.controller.values)
    assert form.rules == rules and form.controller.error == msg
    if msg:
        assert "rumino-error" in form.status.value


def test_reset_and_variant_switch_rebuild_the_form():
    form = RuleKnobs("rumino")
    form.controls["knock_max_deadwood"].main.value = 3
    form.reset_button.click()
    assert form.rules == VARIANTS["rumino"].rules and form.controls["knock_max_deadwood"].main.value == 7
    form.variant_box.value = "wiener"
    assert set(form.controls) == {r["name"] for r in knob_table(type(VARIANTS["wiener"].rules))}
    form.controls["knock_max_deadwood"].main.value = 9
    assert form.rules.knock_max_deadwood == 9 and type(form.rules).__name__ == "WienerRules"


def test_listeners_hear_every_change():
    seen = []
    c = RuleKnobsController("gin")
    c.on_change(seen.append)
    c.set("gin_bonus", 20)
    c.set("game_to", 0)
    assert seen[0].gin_bonus == 20 and seen[1] is None
    c.set("no_such_rule", 1)
    assert "there is no rule 'no_such_rule' in this game" in c.error


def test_static_html_lists_every_knob_and_marks_changes():
    form = RuleKnobs("gin")
    form.controls["knock_max_deadwood"].main.value = 5
    html = form.static_html()
    for r in knob_table(type(VARIANTS["gin"].rules)):
        assert f"<td>{r['label']}</td>" in html and f"<code>{r['name']}</code>" not in html
    assert "1 house rule: knock limit: 5" in html and "GinRules" not in html
    assert form._repr_mimebundle_()["text/html"] == html


JOKER_KEYS = [k for k, v in VARIANTS.items() if any(r["name"] == "n_jokers" for r in knob_table(v.rules_class))]


@pytest.mark.parametrize("key", JOKER_KEYS)
def test_the_jokers_note_names_the_pack_of_the_count_shown(key):
    """The book review's slip: "jokers in the pack … (4 jokers: 108 cards)" beside a count of 0. The note
    beside the control, and the static table's meaning column, name the pack of the count the form shows."""
    form = RuleKnobs(key)
    ctl = form.controls["n_jokers"]
    row = ctl.row
    counts = list(row["choices"]) if row["choices"] is not None else list(range(row["low"], row["high"] + 1))
    for n in counts:
        ctl.main.value = n
        pack = form.rules.meld_rules.pack
        assert pack.jokers == n
        words = f"{n} joker{'s' if n != 1 else ''}, {pack.size} cards"
        assert words in ctl.note.value, (n, ctl.note.value)
        assert ctl.note.value.count(" cards") == 1  # the default's pack is not named as well
        assert f"{escape(words)}</td>" in form.static_html()
