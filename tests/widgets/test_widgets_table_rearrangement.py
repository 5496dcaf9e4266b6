"""TableRearrangement driven in Python: examples, typed positions, marks not by colour alone, errors."""

from __future__ import annotations

import re

import pytest

from rumino.cards import parse_hand
from rumino.melds import ROBBER_MELDS
from rumino.table.solver import solve_table
from rumino.variants import find_variant
from rumino_widgets import TableRearrangement, TableRearrangementController
from rumino_widgets.table_rearrangement import EXAMPLES


def _marks(html: str, section: str) -> list[tuple[int, str]]:
    """(card, mark) of every card shown in a section of the view (``before`` or ``after``)."""
    m = re.search(rf'<section class="rumino-table-{section}".*?</section>', html, re.S)
    assert m, f"no table {section}"
    return [(int(c), k) for c, k in re.findall(r'class="rumino-marked-card" data-card="(\d+)" data-mark="([^"]*)"',
                                               m.group(0))]


@pytest.mark.parametrize("name", list(EXAMPLES))
def test_every_example_shows_the_solvers_move(name):
    table, hand = EXAMPLES[name]
    c = TableRearrangementController(table, hand)
    assert c.error is None
    sol = c.result.solution
    cards = [x for m in c.result.diff.before for x in m.cards]
    ref = solve_table(cards, parse_hand(hand), ROBBER_MELDS)  # the solver asked directly
    assert (sol.placed, sol.value) == (ref.placed, ref.value)
    html = c.html()
    before = _marks(html, "before")
    assert sorted(x for x, _ in before) == sorted(cards)
    if sol.placed:
        after = _marks(html, "after")
        assert sorted(x for x, k in after if k == "from hand") == list(sol.placed)
        assert sorted(x for x, k in after if k == "moved") == list(c.result.diff.moved)
        assert sum(k == "moves" for _, k in before) == len(c.result.diff.moved)
        assert "hand left: " in html and "rumino-legend" in html
    else:
        assert "rumino-table-after" not in html and "Nothing from this hand can be placed" in html
        assert all(k == "" for _, k in before)


def test_marks_are_text_and_accessible_names_not_colour_alone():
    html = TableRearrangementController(*EXAMPLES["rules §4.5.2: the joker moves to a new run"]).html()
    # each marked card: a text badge, a tooltip and an accessible name carrying the mark
    assert html.count('class="rumino-badge"') == html.count('data-mark="from hand"') + \
        html.count('data-mark="moved"') + html.count('data-mark="moves"')
    assert 'aria-label="5 of clubs, from hand"' in html and 'title="5 of clubs, from hand"' in html
    # the joker, before and after, with the card it stands for
    assert "joker standing for the 7 of spades, moves" in html
    assert "joker standing for the 8 of diamonds, moved" in html
    assert "★(8♦)" in html
    # the two marks differ in outline pattern, not only in colour
    assert re.search(r'data-mark="from hand" title="[^"]*" style="[^"]*border:3px solid', html)
    assert re.search(r'data-mark="moved" title="[^"]*" style="[^"]*border:3px dashed', html)


@pytest.mark.parametrize("table, hand, start", [
    ("5c 6c 11c", "7c", "table: '11c' is not a card"),
    ("5c 6c 7c | 8c 9c", "7c", "table: meld 2: 8c 9c is not a meld"),
    ("5c 6c 7c", "7x", "hand: '7x' is not a card"),
    ("5c 6c 7c | 7c 8c 9c", "7c", "the table and hand together holds 3 copies of 7c"),
])
def test_bad_input_shows_the_engine_message_naming_the_input(table, hand, start):
    w = TableRearrangement()
    w.table_box.value, w.hand_box.value = table, hand
    c = w.controller
    assert c.result is None and c.error.startswith(start)
    assert "rumino-error" in w.output.value and "Traceback" not in w.output.value
    assert w.example_box.value == "" and w.example_box.label == "(your own)"  # typing leaves the example
    w.table_box.value, w.hand_box.value = "5c 6c 7c 8c 9c", "7c"
    assert c.error is None and c.result.solution.value == 7


def test_picking_an_example_fills_the_boxes_and_solves():
    w = TableRearrangement()
    name = "a natural 8♥ takes the joker's place, 8♣ fills the set; the joker joins the queens"
    w.example_box.value = name
    assert (w.table_box.value, w.hand_box.value) == EXAMPLES[name]
    d = w.controller.result.diff
    assert w.controller.result.solution.value == 16
    assert [str(m) for m in d.after] == ["8s 8c 8d 8h", "Qs Qc Qd JK"]
    assert "joker standing for the 8 of hearts, moves" in w.output.value
    assert "joker standing for the queen of hearts, moved" in w.output.value


def test_objective_and_meld_rules_reach_the_solver():
    w = TableRearrangement("5c 6c 7c 8c 9c", "4c 10c Kd")
    assert w.controller.result.solution.value == 14
    w.objective_box.value = True
    assert w.controller.most_cards and w.controller.result.solution.value == 2
    assert "cards placed: <b>2</b>" in w.output.value
    w.variant_box.value = "romme"
    assert w.controller.rules is find_variant("romme").rules and "German Rommé" in w.output.value


def test_static_fallback_is_the_view():
    w = TableRearrangement()
    bundle = w._repr_mimebundle_()
    assert bundle["text/html"] == w.static_html() == w.output.value
    assert bundle["application/vnd.jupyter.widget-view+json"]["model_id"] == w.model_id
