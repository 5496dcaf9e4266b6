"""The optimal discard in the HandExplorer and the GameTable's coach (issue 14), without the full tables.

With the table absent (an empty RUMINO_OPTIMAL_DIR, as in CI) the widgets show the
discard computed directly and a note naming the folder; with a table (here one
solved on a reduced pack, whose cards are also Rumino cards) they show its values.
"""

from __future__ import annotations

import numpy as np
import pytest

import rumino.odds.optimal_policy as op
from rumino.cards import format_hand, parse_hand, to_counts
from rumino.engine import Draw
from rumino.odds.enumerate import PackShape
from rumino.odds.optimal import SolitaireModel, direct_values
from rumino_widgets import GameTableController
from rumino_widgets.hand_explorer import HandExplorerController

SMALL = PackShape(suits=2, ranks=6, copies=1, jokers=2)
FULL = PackShape(4, 13, 2, 4)


@pytest.fixture
def no_table(tmp_path, monkeypatch):
    monkeypatch.setenv("RUMINO_OPTIMAL_DIR", str(tmp_path))
    return tmp_path


def _discard_values(hand, goal, draws, shape, values):
    cnt = to_counts(parse_hand(hand)).astype(np.int64)
    out = {}
    for d in set(parse_hand(hand)):
        c7 = cnt.copy()
        c7[d] -= 1
        out[d] = values(c7, goal, draws, shape)
    return out


def test_explorer_without_table_computes_directly_and_says_so(no_table):
    c = HandExplorerController("rumino", "7h 8h 9h 4c 5d Js Ks 2c", optimal_draws=1)
    a = c.optimal
    assert a["source"] == "direct" and a["draws"] == 1
    assert "RUMINO_OPTIMAL_DIR" in a["note"] and str(no_table) in a["note"]
    truth = _discard_values("7h 8h 9h 4c 5d Js Ks 2c", "knock", 1, FULL, direct_values)
    best = parse_hand([a["best_discard"]])[0]
    assert truth[best] == pytest.approx(max(truth.values()), abs=1e-12)
    assert len(a["discards"]) == 8  # every distinct card with its value
    labels = dict(c.facts())
    assert labels["optimal discard (computed directly, no table)"]
    assert "note" in labels and "rumino optimal build" in labels["note"]
    assert "optimal discard" in c.html()
    # a 7-card hand, or another variant: no optimal discard asked
    c.set_text("7h 8h 9h 4c 5d Js Ks")
    assert c.optimal is None
    c = HandExplorerController("gin", "7h 8h 9h 4c 5d Js Ks 2c 3c 4d 5s")
    assert c.optimal is None and not any(k.startswith("optimal") for k, _ in c.facts())


def test_explorer_reads_the_table_when_there_is_one(monkeypatch):
    small = SolitaireModel(SMALL).solve(horizon=3, tol=1e-6)
    monkeypatch.setattr(op, "load_table", lambda directory=None, rules=None: small)
    hand = "As 2s 3s 5s Ac 3c 4c 6c"
    c = HandExplorerController("rumino", hand, optimal_draws=5)
    a = c.optimal
    assert a["source"] == "table" and a["draws"] == 3 and a["note"] is None  # capped at the table's horizon
    truth = {d: small.value7(c7, "knock", 3) for d, c7 in
             ((d, to_counts(parse_hand(hand)).astype(np.int64) - to_counts([d])) for d in set(parse_hand(hand)))}
    assert [r["probability"] for r in a["discards"]] == sorted(truth.values(), reverse=True)
    assert all(r["expected_draws"] is not None for r in a["discards"])
    assert truth[parse_hand([a["best_discard"]])[0]] == max(truth.values())
    assert "optimal discard (optimal table)" in dict(c.facts())


def test_coach_shows_the_optimal_discard_without_the_pickup(no_table):
    c = GameTableController("greedy,greedy", seed=3, coach_draws=1, coach_samples=100)
    assert c.view().phase == "turn"
    top = c.view().top_discard
    c.act(Draw("discard") if top is not None else Draw("stock"))
    v = c.view()
    assert v.phase == "discard"
    a = c.coach()["optimal"]
    assert a["source"] == "direct" and "RUMINO_OPTIMAL_DIR" in a["note"]
    cards = [parse_hand([r["card"]])[0] for r in a["discards"]]
    if v.forbidden is not None:
        assert v.forbidden not in cards  # the card just taken may not be thrown (rules §0.5)
    truth = _discard_values(format_hand(v.hand), "knock", 1, FULL, direct_values)
    assert truth[cards[0]] == pytest.approx(max(truth[x] for x in cards), abs=1e-12)
    html = c.coach_html()
    assert "optimal discard (computed directly, no table)" in html and "P(knock within 1 draw) by discard" in html
