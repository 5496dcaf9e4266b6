"""Chapters 8 (Rummoli) and 9 (German Rommé and Robber Rummy): the facts their prose rests on.

The chapters assert their own figures when they are built; these tests pin, quickly and without
building, the engine behaviour and the conventions the reader review of issue 22 asked for:

* the stops' colour change passes left and a deadlock puts one chip per card on the centre
  (the two arranged positions chapter 8 draws);
* the poker pot pays back exactly its antes, which fall short of four per deal when a player
  sits out for want of the ante;
* exercise 9.1's openings, and the Rommé table's penalty (not deadwood) on the static page;
* rules citations written ``rules §N``, visible code lines of at most 76 characters, and a
  static counterpart (a plotly slider or menu) after each live widget that freezes.
"""

from __future__ import annotations

import json
import re
from pathlib import Path

import pytest

from rumino.cards import JOKER, format_card, parse_hand
from rumino.engine.protocol import play
from rumino.hand.arrange import max_opening
from rumino.playing.seeding import new_table
from rumino.variants import find_variant

BOOK = Path(__file__).resolve().parents[2] / "book"
CH8, CH9 = BOOK / "08_rummoli.ipynb", BOOK / "09_romme_robber.ipynb"
HIDDEN = {"remove-cell", "remove-input"}
CODE_WIDTH = 76  # the code column holds 77 characters at 1280 px


def _cells(path: Path) -> list[dict]:
    return json.loads(path.read_text(encoding="utf-8"))["cells"]


def _src(cell: dict) -> str:
    s = cell["source"]
    return s if isinstance(s, str) else "".join(s)


def _tags(cell: dict) -> set[str]:
    return set(cell.get("metadata", {}).get("tags", []))


def _stops(hands: dict, dead: str):
    """Chapter 8's ``arranged``: three players put into the stops, player 0 to lead."""
    g, bots = new_table("rummoli", ["default"] * 3, seed=1)
    g.set_stops(hands, dead=dead, lead=0)
    play(g, bots, until=lambda g: g.hand_over)
    return g


# ------------------------------------------------------------------------------------ chapter 8


def test_colour_change_passes_left_to_the_first_holder():
    g = _stops({0: "4h 5h 9c", 1: "6h Jd", 2: "3s Qd Kc"}, "7h")
    plays = [(s, str(a)) for s, a in g.history]
    # player 1 holds no black card after 6h: player 2 (on his left) leads his lowest black, 3s
    assert plays == [(0, "play 4h"), (0, "play 5h"), (1, "play 6h"),
                     (2, "play 3s"), (2, "play Qd"), (2, "play Kc")]
    r = g.results[-1]
    assert r.ending == "rummoli" and r.out == 2 and r.payments == (-1, -1, 2)


def test_deadlock_puts_a_chip_per_card_on_the_centre():
    g = _stops({0: "3d 9h 10h", 1: "5d", 2: "Qd Kd"}, "4d")
    before = 3  # three players' antes
    r = g.results[-1]
    assert [str(a) for _, a in g.history] == ["play 3d"]
    assert r.ending == "deadlock" and r.out is None and r.deadlock == (2, 1, 2)
    assert g.view(0).board_chips["rummoli"] == before + 5


def test_a_deadlock_needs_nobody_holding_the_other_colour():
    # the same position with one black card in player 2's hand is no deadlock: he must lead it
    g = _stops({0: "3d 9h 10h", 1: "5d", 2: "Qd 2s"}, "4d")
    assert g.results[-1].ending != "deadlock"
    assert (2, "play 2s") in [(s, str(a)) for s, a in g.history]


def test_poker_pot_pays_back_its_antes_and_sitting_out_lowers_them():
    rules = find_variant("rummoli").with_rules(rounds=5)
    short = 0
    for i in (2, 3):  # two of the chapter's games (seed 12); in game 3 players sit out
        g, bots = new_table("rummoli", ["default"] * 4, 12, i, rules=rules)
        play(g, bots)
        antes = sum(len(r.players) for r in g.results)
        paid = sum(c for r in g.results for s, _, c in r.won if s == "poker")
        assert paid == antes <= 4 * len(g.results)
        short += sum(len(r.players) < 4 for r in g.results)
    assert short == 5  # why the chapter's pot gets fewer than 4 antes a deal


def test_chapter8_says_where_bold_is_and_why_the_pot_falls_short():
    md = "\n".join(_src(c) for c in _cells(CH8) if c["cell_type"] == "markdown")
    bold = [m.start() for m in re.finditer(r"\bin bold\b", md)]
    assert bold and all("JupyterLab" in md[max(0, k - 300):k] for k in bold)
    assert "asterisk" in md
    k = md.index("pays back exactly what the antes put on it")
    assert "rm_short_deals" in md[k:k + 800] and "sits the deal out" in md[k:k + 800]
    for word in ("deadlock", "changes colour"):
        assert re.search(rf"\*\*{word}\*\*", md, re.I), word
    assert "{admonition} Aside: the spread of a mean" in md and "standard deviation" in md


# ------------------------------------------------------------------------------------ chapter 9


def test_exercise_9_1_openings():
    mr = find_variant("romme").rules.meld_rules
    worked = parse_hand("10s Js Qs 3d 3h 3c Kd")
    assert max_opening(worked, mr).value == 39
    best = {format_card(c): max_opening(worked + (c,), mr).value for c in [*range(52), JOKER]}
    opens = {c: v for c, v in best.items() if v >= 40}
    assert opens == {"3s": 42, "9s": 48, "Ks": 49, "JK": 49}


def test_exercise_9_1_text_keeps_run_values_apart_from_openings():
    text = "\n".join(_src(c) for c in _cells(CH9))
    assert "K♠ extends the run to 40 and a 9♠ to 48" not in text
    for key in ("rr_x_Ks", "rr_x_9s", "rr_x_3s", "rr_x_JK"):
        assert f"{{glue:text}}`{key}`" in text


def test_romme_static_table_shows_a_penalty_not_deadwood():
    from rumino_widgets import GameTable

    c = GameTable("greedy,greedy", seed=15, variant="romme").controller
    hand = tuple(c.view().hand)
    assert c.game.penalty(hand) == 105 > c.view().deadwood == 75
    src = next(_src(x) for x in _cells(CH9) if "romme_table = GameTable(" in _src(x))
    assert "live(romme_table, static=" in src and "penalty" in src


def test_going_out_is_said_in_words():
    text = "\n".join(_src(c) for c in _cells(CH9))
    assert "ending by romme" not in text.lower()
    assert "“Rommé!”" in text


# ------------------------------------------------------------------------------------ both


@pytest.mark.parametrize("path", [CH8, CH9], ids=["08_rummoli", "09_romme_robber"])
def test_rules_citations_say_rules(path):
    bare = []
    for c in _cells(path):
        if c["cell_type"] != "markdown":
            continue
        for m in re.finditer(r"§\d", _src(c)):
            before = _src(c)[max(0, m.start() - 40):m.start()]
            # "rules §3.4.4, §3.4.5" and "rules §2.4–§2.5" cite twice after one "rules"
            if not re.search(r"rules (?:§[\d.]+(?:, | and | or |–))*$", before):
                bare.append(before[-20:] + _src(c)[m.start():m.start() + 6])
    assert not bare, bare


def test_the_check_of_rules_citations_can_fail():
    md = "the dealer starts (§3.1)"
    assert not re.search(r"rules (?:§[\d.]+(?:, | and | or |–))*$", md[:md.index("§")])


@pytest.mark.parametrize("path", [CH8, CH9], ids=["08_rummoli", "09_romme_robber"])
def test_visible_code_fits_the_code_column(path):
    long = [line for c in _cells(path) if c["cell_type"] == "code" and not _tags(c) & HIDDEN
            for line in _src(c).splitlines() if len(line) > CODE_WIDTH]
    assert not long, long


@pytest.mark.parametrize("path", [CH8, CH9], ids=["08_rummoli", "09_romme_robber"])
def test_each_frozen_widget_has_a_static_counterpart(path):
    cells = _cells(path)
    for k, c in enumerate(cells):
        s = _src(c)
        if c["cell_type"] != "code" or "live(" not in s:
            continue
        if "PokerOddsExplorer" in s:  # its own static view is a slider figure
            continue
        nearby = [_src(x) for x in cells[k + 1:k + 4] if x["cell_type"] == "code"]
        assert any("sliders=" in n or "updatemenus=" in n for n in nearby), s[:80]


def test_poker_explorer_static_view_has_a_slider_marking_rummoli_sizes():
    from rumino_widgets import PokerOddsExplorer

    fig = PokerOddsExplorer(cards=13).controller.static_figure()
    labels = [s["label"] for s in fig.layout.sliders[0].steps]
    assert labels[13 - 5] == "13*" and labels[12 - 5] == "12"
