"""rumino.render.cards: card faces, hands and arrangements as SVG/HTML strings."""

from __future__ import annotations

import xml.etree.ElementTree as ET

import pytest

from rumino.hand.arrange import all_best_arrangements, best_arrangement
from rumino.cards import JOKER, SUIT_NAMES, InvalidCardError, format_card, parse_hand
from rumino.melds import RUMINO_MELDS, check_meld
from rumino.render.cards import arrangement_html, card_name, card_svg, hand_html, hand_svg, meld_html, suit_key_html

SVG = "{http://www.w3.org/2000/svg}"


def _xml(text: str) -> ET.Element:
    """Parse the markup as XML: every string we emit must be well-formed."""
    return ET.fromstring(text)


@pytest.mark.parametrize("c", range(53))
def test_every_card_face_is_well_formed_and_named(c):
    root = _xml(card_svg(c))
    assert root.tag == SVG + "svg"
    assert root.get("role") == "img"
    assert root.get("aria-label") == card_name(c) == root.find(SVG + "title").text
    assert root.get("data-card") == str(c) and root.get("data-text") == format_card(c)


def test_card_names():
    assert [card_name(c) for c in parse_hand("As 10d Qh Kc JK")] == [
        "ace of spades", "10 of diamonds", "queen of hearts", "king of clubs", "joker"]


def _shapes(c: int) -> list[str]:
    """The drawn suit shapes of a face (the <g> groups holding paths/circles), without position."""
    root = _xml(card_svg(c))
    return [ET.tostring(child).decode().split(">", 1)[1] for child in root.iter(SVG + "g")]


def test_suits_differ_by_shape_and_text_not_only_colour():
    # 7♦ and 7♥ share the red ink: their shapes and their text must still differ
    d, h = parse_hand("7d 7h")
    assert _shapes(d) and _shapes(h) and set(_shapes(d)).isdisjoint(_shapes(h))
    texts = lambda c: {t.text for t in _xml(card_svg(c)).iter(SVG + "text")}  # noqa: E731
    assert "7d" in texts(d) and "7h" in texts(h)
    # the same holds for the two black suits, and all four shapes are distinct
    shapes = [frozenset(_shapes(s * 13 + 6)) for s in range(4)]
    assert len(set(shapes)) == 4
    # each suit has one ink; the red suits share it, which is why shape and text are needed
    inks = [{g.get("fill") for g in _xml(card_svg(s * 13)).iter(SVG + "g")} for s in range(4)]
    assert inks[2] == inks[3] and inks[0] == inks[1] and inks[0] != inks[2]


def test_joker_face_and_stands_for_note():
    root = _xml(card_svg(JOKER, stands_for=parse_hand("8h")[0]))
    assert "joker standing for the 8 of hearts" == root.get("aria-label")
    assert any(t.text == "= 8♥" for t in root.iter(SVG + "text"))
    # a natural card ignores stands_for
    assert "standing for" not in card_svg("7h", stands_for=1)


def test_selected_and_scale():
    root = _xml(card_svg("Qs", scale=2, selected=True))
    assert root.get("width") == "120" and root.get("height") == "168"
    assert root.get("data-selected") == "true"
    assert _xml(card_svg("Qs")).get("data-selected") == "false"


def test_bad_card_is_refused_with_the_engine_message():
    with pytest.raises(InvalidCardError, match="'11h' is not a card"):
        card_svg("11h")
    with pytest.raises(InvalidCardError, match="53 is not a card id"):
        card_svg(53)


def test_hand_svg_holds_one_titled_face_per_card_in_order():
    cards = parse_hand("7h 8h 9h JK 7h")
    root = _xml(hand_svg(cards, selected=[1, 4]))
    faces = [e for e in root if e.tag == SVG + "svg"]
    assert [int(f.get("data-card")) for f in faces] == list(cards)
    assert [f.find(SVG + "title").text for f in faces] == [card_name(c) for c in cards]
    # selected positions are raised (y=0) and the others sit lower
    assert [f.get("y") == "0" for f in faces] == [False, True, False, False, True]
    assert root.get("aria-label") == "hand: 7 of hearts, 8 of hearts, 9 of hearts, joker, 7 of hearts"


def test_empty_hand_draws_a_placeholder():
    root = _xml(hand_svg(()))
    assert root.get("aria-label") == "empty hand" and root.find(SVG + "rect") is not None


def test_hand_html_caption_is_the_cards_in_text():
    html = hand_html("2c 3c 4c")
    assert "2♣ 3♣ 4♣" in html
    _xml(html)
    assert "my caption" in hand_html("2c", caption="my caption")


def _blocks(html: str, cls: str) -> list[ET.Element]:
    return [e for e in _xml(html).iter() if e.get("class") == cls]


@pytest.mark.parametrize("text, deadwood, n_melds, unmatched", [
    ("7h 8h 9h 10h 5c 5d 5s", 0, 2, ""),       # rules §1.7.2: gin
    ("2c 3c 4c 9d 9h 9s 7d", 7, 2, "7d"),      # rules §1.7.5
    ("JK 4s 6s 8d 8d 8c Ah", 1, 2, "Ah"),      # rules §1.7.8
    ("Qs Ks As 2d 3d 4d 7c", 28, 1, "As 7c Qs Ks"),  # rules §1.7.4: Q-K-A is no lay
])
def test_arrangement_html_groups_melds_and_sets_unmatched_apart(text, deadwood, n_melds, unmatched):
    arr = best_arrangement(parse_hand(text), RUMINO_MELDS)
    html = arrangement_html(arr)
    root = _xml(html)
    assert root.get("data-deadwood") == str(deadwood)
    melds = _blocks(html, "rumino-meld")
    assert len(melds) == n_melds
    # each meld block draws exactly that meld's cards
    for block, meld in zip(melds, arr.melds):
        drawn = [int(e.get("data-card")) for e in block.iter(SVG + "svg") if e.get("data-index") is not None]
        assert drawn == list(meld.cards)
    (apart,) = _blocks(html, "rumino-unmatched")
    drawn = sorted(int(e.get("data-card")) for e in apart.iter(SVG + "svg") if e.get("data-index") is not None)
    assert drawn == sorted(parse_hand(unmatched))
    assert f"deadwood {deadwood}" in root.find("figcaption").text
    # the engine object shows the same thing in a notebook
    assert arr._repr_html_() == html


def test_joker_in_a_run_is_labelled_with_the_card_it_stands_for():
    arr = best_arrangement(parse_hand("JK 4s 6s 8d 8d 8c Ah"), RUMINO_MELDS)
    html = arrangement_html(arr)
    assert "★(5♠)" in html and "= 5♠" in html


def test_meld_repr_html_and_description():
    meld = check_meld(parse_hand("9d 9h 9s"), RUMINO_MELDS)
    assert meld._repr_html_() == meld_html(meld)
    (block,) = _blocks(meld_html(meld), "rumino-meld")
    assert block.get("data-kind") == "set" and "set of 9s" in meld_html(meld)


def test_every_best_arrangement_renders():
    # several optimal splits of one hand all render, each with the same deadwood caption
    arrs = all_best_arrangements(parse_hand("5h 5h 5s 5s 6h 7h 8h"), RUMINO_MELDS)
    assert len(arrs) >= 1
    for arr in arrs:
        assert f"deadwood {arr.deadwood}" in arrangement_html(arr)


def test_suit_key_names_every_suit():
    html = suit_key_html()
    _xml(html)
    for name in SUIT_NAMES:
        assert name in html
