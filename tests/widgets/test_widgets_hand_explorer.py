"""HandExplorer driven in Python: set the text, press the buttons, click cards; compare with the engine."""

from __future__ import annotations

import numpy as np
import pytest

from rumino.hand.arrange import after_draw, best_arrangement, min_deadwood
from rumino.cards import RUMINO_PACK, deal, format_hand, parse_hand, sort_cards, to_counts
from rumino.compare.hand_report import evaluate_hand
from rumino.errors import RuminoError
from rumino.melds import GIN_MELDS, RUMINO_MELDS
from rumino.render.cards import arrangement_html
from rumino_widgets import HandExplorer, HandExplorerController


def _engine_message(text: str, variant: str = "rumino") -> str:
    with pytest.raises(RuminoError) as info:
        evaluate_hand(text, variant)
    return str(info.value)


def test_typing_a_gin_hand_shows_the_engine_arrangement():
    w = HandExplorer()
    w.text_box.value = "7h 8h 9h 10h 5c 5d 5s"  # rules §1.7.2
    c = w.controller
    assert c.error is None and c.report == evaluate_hand("7h 8h 9h 10h 5c 5d 5s", "rumino")
    assert c.report["gin"] is True and c.report["deadwood"] == 0
    assert c.arrangement == best_arrangement(parse_hand("7h 8h 9h 10h 5c 5d 5s"), RUMINO_MELDS)
    assert arrangement_html(c.arrangement, scale=0.7, title="best arrangement") in w.output.value
    assert w.hand_row.cards == list(parse_hand("7h 8h 9h 10h 5c 5d 5s"))
    assert "gin: <b>yes</b>" in w.output.value and "may knock: <b>yes (limit 7)</b>" in w.output.value


@pytest.mark.parametrize("text, deadwood, knock", [
    ("2c 3c 4c 9d 9h 9s 7d", 7, True),    # rules §1.7.5
    ("2c 3c 4c 9d 9h 9s 8d", 8, False),
    ("JK JK 5h 9c 9d 9s 2c", 2, True),     # rules §1.7.7
])
def test_deadwood_and_may_knock_follow_the_engine(text, deadwood, knock):
    c = HandExplorerController("rumino", text)
    assert (c.report["deadwood"], c.report["can_knock"]) == (deadwood, knock)
    assert c.arrangement.deadwood == deadwood == min_deadwood(parse_hand(text), RUMINO_MELDS)


@pytest.mark.parametrize("text, variant", [
    ("2c 3c 11c", "rumino"),                  # not a card
    ("7h 7h 7h 8h 9h 10h Jh", "rumino"),      # more copies than the pack holds
    ("2c 3c 4c", "rumino"),                   # wrong size
    ("2c 3c 4c 5c 6c 7c 8c", "rummoli"),      # a variant without melds
    ("JK 2c 3c 4c 5c 6c 7c 8c 9c 10c", "gin"),  # no jokers in gin's pack
])
def test_invalid_text_shows_the_engine_message_not_a_traceback(text, variant):
    w = HandExplorer(variant)
    w.text_box.value = text
    msg = _engine_message(text, variant)
    assert w.controller.error == msg and w.controller.report is None
    assert "rumino-error" in w.output.value and msg.replace("'", "&#x27;") in w.output.value
    assert w.draw_button.disabled and w.discard_button.disabled
    assert not any(w.hand_row.clickable)


def test_empty_text_is_a_hint_not_an_error():
    w = HandExplorer()
    assert w.controller.error is None and "Type a Rumino hand" in w.output.value


def test_switching_variant_re_evaluates_the_same_text():
    w = HandExplorer(text="Tc Qc 4d 9d 4h 9h Jh 4s 5s 6s")
    assert w.controller.error == _engine_message("Tc Qc 4d 9d 4h 9h Jh 4s 5s 6s", "rumino")
    w.variant_box.value = "gin"
    assert w.controller.report["deadwood"] == 56 == min_deadwood(parse_hand("Tc Qc 4d 9d 4h 9h Jh 4s 5s 6s"),
                                                                  GIN_MELDS)
    assert "rumino" not in w.controller.report  # gin has no rumino


def test_deal_is_seeded_and_uses_the_engine_deal():
    w = HandExplorer(seed=7)
    w.deal_button.click()
    hands, _ = deal(RUMINO_PACK, [7], np.random.default_rng(7))
    assert w.controller.hand == sort_cards(hands[0])
    assert w.text_box.value == format_hand(sort_cards(hands[0]))
    w.seed_box.value = 7  # same seed again restarts the stream
    w.seed_box.value = 8
    w.seed_box.value = 7
    w.deal_button.click()
    assert w.controller.hand == sort_cards(hands[0])


def test_draw_then_best_discard_matches_after_draw():
    w = HandExplorer(text="2c 3c 4c 9d 9h 9s 8d", seed=3)
    w.draw_button.click()
    c = w.controller
    assert len(c.hand) == 8 and c.last_drawn is not None
    # the drawn card was unseen: the pack still holds every card of the hand
    assert (to_counts(c.hand) <= RUMINO_PACK.counts()).all()
    dv = after_draw(c.hand, RUMINO_MELDS)
    assert c.report["deadwood"] == dv.deadwood
    assert parse_hand(c.report["discards"]) == dv.discards
    assert "best discard" in w.output.value and not w.discard_button.disabled
    assert w.draw_button.disabled  # 8 cards: discard first
    w.discard_button.click()
    assert len(c.hand) == 7 and min_deadwood(c.hand, RUMINO_MELDS) == dv.deadwood


def test_draw_on_a_wrong_size_hand_is_refused_with_a_reason():
    c = HandExplorerController("rumino", "2c 3c 4c 9d 9h 9s 8d 7d")
    c.draw()
    assert "discard first" in c.error and len(c.hand) == 8


def test_clicking_a_card_discards_it_after_a_draw():
    w = HandExplorer(text="2c 3c 4c 9d 9h 9s 8d")
    assert not any(w.hand_row.clickable)  # 7 cards: a discard would leave an illegal hand
    w.hand_row.click(0)
    assert len(w.controller.hand) == 7
    w.text_box.value = "2c 3c 4c 9d 9h 9s 8d Kh"
    assert all(w.hand_row.clickable)
    w.hand_row.click(7)  # the king of hearts
    assert w.controller.hand == parse_hand("2c 3c 4c 9d 9h 9s 8d")
    assert w.controller.report["deadwood"] == 8


def test_static_html_and_mime_bundle():
    w = HandExplorer(text="JK 4s 6s 8d 8d 8c Ah")
    html = w.static_html()
    assert "deadwood 1" in html and "rumino-hand" in html  # the static page draws the hand too
    bundle = w._repr_mimebundle_()
    assert bundle["text/html"] == html
    assert bundle["application/vnd.jupyter.widget-view+json"]["model_id"] == w.model_id
