"""rumino.render.rummoli: the Rummoli play sheet (rules §2.2) as SVG."""

from __future__ import annotations

import xml.etree.ElementTree as ET

import pytest

from rumino.cards import parse_card
from rumino.render.rummoli import BoardError, board_svg
from rumino.variants.rummoli import SECTIONS

NS = "{http://www.w3.org/2000/svg}"


def sections(svg: str) -> dict[str, ET.Element]:
    root = ET.fromstring(svg)  # well-formed XML
    return {g.get("data-section"): g for g in root.iter(f"{NS}g") if g.get("class") == "rummoli-section"}


def test_nine_sections_with_their_chips():
    chips = dict(zip(SECTIONS, [27, 9, 3, 1, 0, 14, 5, 2, 11]))
    svg = board_svg(chips)
    found = sections(svg)
    assert set(found) == set(SECTIONS) and len(found) == 9
    for key, n in chips.items():
        g = found[key]
        assert g.get("data-chips") == str(n)
        assert g.get("aria-label").endswith(f": {n} chip{'s' if n != 1 else ''}")
        # a chip drawn per chip, at most ten
        assert len(list(g.iter(f"{NS}ellipse"))) == min(n, 10)
    assert 'aria-label="Rummoli play sheet: 72 chips on the sheet"' in svg


def test_pay_cards_are_drawn_in_their_sections_2_2():
    found = sections(board_svg())
    expect = {"rummoli": [], "poker": [], "10s": ["10s"], "Jd": ["Jd"], "Qc": ["Qc"], "Kh": ["Kh"], "As": ["As"],
              "Ad+Kd": ["Kd", "Ad"], "7-8-9": ["7h", "8h", "9h"]}
    for key, cards in expect.items():
        drawn = [int(s.get("data-card")) for s in found[key].iter(f"{NS}svg")]
        assert drawn == [parse_card(c) for c in cards], key
    assert "any suit" in ET.tostring(found["7-8-9"], encoding="unicode")


def test_sequence_form_highlight_and_scale():
    svg = board_svg([1] * 9, highlight="As", scale=0.5)
    root = ET.fromstring(svg)
    assert float(root.get("width")) == pytest.approx((3 * 150 + 4 * 8) * 0.5)
    g = sections(svg)["As"]
    assert 'stroke="#1565c0"' in ET.tostring(g, encoding="unicode")
    assert 'stroke="#1565c0"' not in ET.tostring(sections(svg)["Kh"], encoding="unicode")


@pytest.mark.parametrize("chips,message", [
    ({"Js": 1}, "'Js' is not a Rummoli section"),
    ({"poker": -1}, "holds -1 chips"),
    ({"poker": 1.5}, "holds 1.5 chips"),
    ({"poker": True}, "holds True chips"),
    ([1, 2, 3], "chips for 3 sections given"),
    ("rummoli", "must map sections to counts"),
])
def test_bad_chips_raise(chips, message):
    with pytest.raises(BoardError, match=message):
        board_svg(chips)
    with pytest.raises(BoardError, match="cannot highlight 'Js'"):
        board_svg(highlight="Js")


def test_rules_2_8_1_the_sheet_has_nine_sections():
    # rules §2.8 fact 1: Rummoli, Poker, 10♠, J♦, Q♣, K♥, A♠, A♦+K♦, 7-8-9 same suit
    titles = [g.find(f"{NS}title").text.split(":")[0] for g in sections(board_svg()).values()]
    assert sorted(titles) == sorted(["Rummoli", "Poker pot", "10♠", "J♦", "Q♣", "K♥", "A♠", "A♦ + K♦",
                                     "7-8-9 of a suit"])


def test_the_sheet_draws_the_sections_of_the_rules_in_their_order():
    """The drawing keeps its own keys (it sits below the games); they are the rules' sections (rules §2.2)."""
    from rumino.render.rummoli import SECTION_KEYS
    from rumino.variants.rummoli import SECTIONS

    assert SECTION_KEYS == SECTIONS
