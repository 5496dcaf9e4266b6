"""PokerOddsExplorer driven in Python: move the hand-size slider, switch the log axis; compare with the engine."""

from __future__ import annotations

import re
from math import comb

import pytest

from rumino.odds.poker import CATEGORIES, best_five_table
from rumino.variants.rummoli import hand_sizes
from rumino_widgets import PokerOddsExplorer, PokerOddsExplorerController
from rumino_widgets.poker_odds_explorer import players_text, sizes_to_players

# The published seven-card table (e.g. Wikipedia, "Poker probability": 7-card poker hands)
SEVEN = {"straight_flush": 41_584, "four_of_a_kind": 224_848, "full_house": 3_473_184, "flush": 4_047_644,
         "straight": 6_180_020, "three_of_a_kind": 6_461_620, "two_pair": 31_433_400, "one_pair": 58_627_800,
         "high_card": 23_294_460}


def _cells(html: str) -> list[str]:
    return [re.sub(r"<[^>]+>", "", c) for c in re.findall(r"<t[dh][^>]*>(.*?)</t[dh]>", html)]


def test_every_slider_position_shows_the_exact_table():
    w = PokerOddsExplorer(cards=5)
    for n in range(5, 19):
        w.slider.value = n
        exact = best_five_table(n)
        bars = w.figure.data[0]
        assert bars.name == f"{n} cards" and list(bars.x) == [k.replace("_", " ") for k in CATEGORIES]
        assert list(bars.y) == [exact[k] / comb(52, n) for k in CATEGORIES]
        assert list(bars.customdata) == [exact[k] for k in CATEGORIES]
        assert sum(bars.customdata) == comb(52, n)
        # the table beside the plot: one row per category, counts with separators, and the total
        cells = _cells(w.table.value)
        for k in CATEGORIES:
            i = cells.index(k.replace("_", " "))
            assert cells[i + 1] == f"{exact[k]:,}"
        assert cells[cells.index("total") + 1] == f"{comb(52, n):,}"
        assert f"C(52, {n}) = {comb(52, n):,} hands" in w.readout.value


def test_seven_cards_reproduce_the_published_counts():
    c = PokerOddsExplorerController(cards=7)
    assert c.counts == SEVEN and c.total == comb(52, 7)
    assert "two pair or better in 38.77%" in c.readout()  # (41,584 + … + 31,433,400) / C(52, 7)


def test_reference_markers_are_five_card_poker_and_more_cards_beat_them():
    w = PokerOddsExplorer(cards=18)
    five = best_five_table(5)
    assert list(w.figure.data[1].y) == [five[k] / comb(52, 5) for k in CATEGORIES]
    assert w.figure.data[1].marker.symbol == "diamond"  # told apart by shape, not colour only
    bars, ref = w.figure.data
    assert bars.y[-1] < ref.y[-1]  # high card: far rarer with 18 cards than with 5
    assert bars.y[0] > ref.y[0]    # straight flush: far likelier


def test_log_axis_switch_changes_the_axis_not_the_data():
    w = PokerOddsExplorer(cards=9)
    ys = list(w.figure.data[0].y)
    assert w.figure.layout.yaxis.type == "linear"
    w.log_box.value = True
    assert w.figure.layout.yaxis.type == "log" and list(w.figure.data[0].y) == ys
    w.slider.value = 10  # the axis stays log while the size changes
    assert w.figure.layout.yaxis.type == "log"
    w.log_box.value = False
    assert w.figure.layout.yaxis.type == "linear" and w.figure.layout.yaxis.tickformat == ".0%"


def test_rummoli_sizes_come_from_the_engine_deal():
    c = PokerOddsExplorerController()
    for players in range(2, 9):
        sizes = hand_sizes(players)
        assert sum(sizes) == 52 and len(sizes) == players + 1  # the players' hands and the widow
        for n in sizes:
            assert players in c.players_for(n)
    # rules §2.8.3: four players get 11, 11, 10, 10, 10 (one of them the widow)
    assert sorted(hand_sizes(4)) == [10, 10, 10, 11, 11]
    assert c.players_for(10) == (4,) and c.players_for(13) == (3,) and c.players_for(12) == ()
    c.set_cards(12)
    assert "no Rummoli deal gives this size" in c.readout()
    c.set_cards(6)
    assert "a Rummoli hand with 7 or 8 players" in c.readout()
    strip = c.sizes_html()
    bold = [int(x) for x in re.findall(r'rumino-size-rummoli" data-cards="(\d+)"', strip)]
    assert bold == sorted({n for p in range(2, 9) for n in hand_sizes(p)})
    assert re.search(r'rumino-size-chosen[^"]*" data-cards="6"', strip)


def test_helpers():
    assert sizes_to_players({2: (18, 17, 17), 4: (11, 11, 10, 10, 10)}) == {10: (4,), 11: (4,), 17: (2,), 18: (2,)}
    assert players_text((4,)) == "4 players" and players_text((5, 6, 7)) == "5, 6 or 7 players"


def test_bad_size_shows_the_engine_message_and_keeps_the_table():
    c = PokerOddsExplorerController(cards=8)
    c.set_cards(19)
    assert c.error.startswith("the number of cards must be from 5 to 18") and c.cards == 8
    assert "rumino-error" in c.table_html() and "rumino-error" in c.static_html()
    c.set_cards(8)
    assert c.error is None and "rumino-error" not in c.table_html()


def test_static_view_has_a_plotly_slider_over_every_size_and_the_table():
    w = PokerOddsExplorer(cards=7)
    fig = w.controller.static_figure()
    slider = fig.layout.sliders[0]
    assert [s.label.rstrip("*") for s in slider.steps] == [str(n) for n in range(5, 19)]
    assert slider.active == 2 and [t.visible for t in fig.data[:14]] == [n == 7 for n in range(5, 19)]
    # each step shows exactly its own table's bars, and the title names the size
    for i, (step, n) in enumerate(zip(slider.steps, range(5, 19))):
        assert step.args[0]["visible"] == [j == i for j in range(14)] + [True]
        assert step.args[1]["title.text"].startswith(f"Best five of {n} cards")
        exact = best_five_table(n)
        assert list(fig.data[i].y) == [exact[k] / comb(52, n) for k in CATEGORIES]
        assert step.label.endswith("*") == bool(w.controller.players_for(n))
    html = w.static_html()
    assert html == w._repr_mimebundle_()["text/html"]
    assert "Plotly.newPlot" in html and "<script src" not in html  # plotly.js comes from the page
    assert f"{SEVEN['straight']:,}" in html and "rumino-poker-table" in html


def test_static_view_switches_the_axis_without_a_kernel():
    fig = PokerOddsExplorerController(cards=11).static_figure()
    menu = fig.layout.updatemenus[0]
    assert [b.label for b in menu.buttons] == ["linear axis", "log axis"] and menu.active == 0
    assert menu.buttons[1].args[0]["yaxis.type"] == "log" and menu.buttons[0].args[0]["yaxis.type"] == "linear"
    assert PokerOddsExplorerController(cards=11, log_axis=True).static_figure().layout.updatemenus[0].active == 1
