"""GameTable driven in Python: press the buttons, click cards, step through the record."""

from __future__ import annotations

import pytest

from rumino.cards import format_card
from rumino.engine import Discard, Draw, Gin
from rumino.odds.markov import best_target
from rumino.players import GreedyPlayer
from rumino.playing.records import record_of, replay
from rumino.variants.rumino import (CALL, CLAIM, DEAL, DECLINE, KNOCK, PASS, REBUY, RuminoGame, RUMINO,
                                    evaluator_for)
from rumino_widgets import GameTable, GameTableController


@pytest.fixture
def table():
    return GameTable("greedy,greedy", seed=3, coach_draws=4, coach_samples=300)


def test_the_reader_is_to_act_and_sees_own_hand(table):
    c = table.controller
    assert c.my_turn() and c.game.phase == "turn"
    assert table.hand_row.cards == list(c.view().hand)
    assert not any(table.hand_row.clickable)  # nothing to discard before drawing
    assert not table.buttons["stock"].disabled and table.buttons["rumino"].disabled
    # opponents' cards are counted, never shown
    for seat in (1, 2):
        assert f'data-seat="{seat}"' in table.table.value
    for card in c.game.hands[1]:
        assert f'data-card="{card}"' not in table.hand_row.faces


def test_draw_stock_then_click_a_card_discards_it_and_the_bots_move(table):
    c = table.controller
    before = len(c.game.history)
    table.buttons["stock"].click()
    assert c.game.phase == "discard" and len(table.hand_row.cards) == 8
    assert all(table.hand_row.clickable)
    drawn = c.game.drawn
    assert table.hand_row.selected == [7] and table.hand_row.cards[7] == drawn  # the new card is marked
    card = table.hand_row.cards[0]
    table.hand_row.click(0)
    assert c.game.history[before:before + 2] == [(0, Draw("stock")), (0, Discard(card))]
    assert c.my_turn() or c.game.hand_over  # the bots played their turns
    assert len(c.game.history) > before + 2
    c.game.check_invariants()
    assert f"You discard {format_card(card, unicode=True)}\n" in table.log_box.value
    assert f"You draw from the stock: {format_card(drawn, unicode=True)}\n" in table.log_box.value


def test_an_illegal_discard_is_refused_with_the_rule_and_the_state_unchanged(table):
    c = table.controller
    table.buttons["discard"].click()  # take the upcard
    taken = c.game.drawn
    snap = c.game.snapshot()
    table.hand_row.click(table.hand_row.cards.index(taken))
    assert c.game.snapshot() == snap
    assert "§0.5" in c.error and "may not be discarded again" in c.error
    assert "rumino-error" in table.message.value


def test_knock_and_gin_are_refused_by_the_engine_when_not_allowed(table):
    c = table.controller
    dw = evaluator_for(RUMINO).deadwood(c.view().hand)
    assert dw > 7, "this seed deals a hand that cannot knock"
    assert table.buttons["knock"].disabled
    snap = c.game.snapshot()
    assert not c.knock()
    assert c.error.startswith(f"cannot knock: player 0 has {dw} deadwood, the limit is 7")
    assert c.game.snapshot() == snap
    assert not c.gin() and "cannot go gin" in c.error


def test_coach_numbers_come_from_the_engine(table):
    c = table.controller
    table.buttons["stock"].click()
    v = c.view()
    info = c.coach()
    ev = evaluator_for(RUMINO)
    value, best = ev.after_draw(v.hand, v.pickup)
    assert info["deadwood"] == value == v.deadwood and info["best_discards"] == best
    base = list(v.hand)
    base.remove(best[0])
    assert c.base_hand() == tuple(base)
    t = best_target(base, seen=v.discard_pile)
    assert info["p_rumino"] == t.p_hit(4) and info["target"] == t.describe(unicode=True)
    e = info["p_knock"]
    assert e.n == 300 and e.method == "wilson" and e.lo <= e.value <= e.hi
    assert c.coach() is info  # cached per position
    # a fresh controller on the same position gives the same seeded estimate
    other = GameTableController("greedy,greedy", seed=3, coach_draws=4, coach_samples=300)
    other.draw("stock")
    assert other.coach()["p_knock"] == e
    assert "P(knockable within 4 draws)" in table.coach.value and "seed" in table.coach.value


def test_a_knockable_hand_has_p_knock_one():
    c = GameTableController("greedy,greedy", seed=3, coach_samples=50)
    c.game.set_position(hands={0: "2c 3c 4c 9d 9h 9s 7d"})  # rules §1.7.5: deadwood 7
    c._coach_cache.clear()
    assert c.coach()["p_knock"].value == 1.0 and c.can(KNOCK)


def test_stepping_through_the_record_replays_the_game(table):
    c = table.controller
    table.buttons["stock"].click()
    table.hand_row.click(0)
    total = c.record_length()
    table.back_button.click()
    assert c.review == total - 1
    rec = record_of(c.game, c.player_names)
    assert c.shown_game().snapshot() == replay(rec, upto=total - 1).snapshot()
    assert "position after action" in table.review_label.value
    assert all(b.disabled for b in table.buttons.values()) and not any(table.hand_row.clickable)
    assert not c.draw("stock") and "earlier position" in c.error
    for _ in range(3):
        table.back_button.click()
    assert c.review == total - 4
    table.forward_button.click()
    assert c.review == total - 3
    assert c.shown_game().snapshot() == replay(rec, upto=total - 3).snapshot()
    table.live_button.click()
    assert c.review is None and c.shown_game() is c.game and not table.buttons["stock"].disabled


def _press(table, action):
    """Do ``action`` the way a reader would: the matching button, or a click on the card."""
    c = table.controller
    names = {Draw("stock"): "stock", Draw("discard"): "discard", KNOCK: "knock", CALL: "rumino", CLAIM: "claim",
             PASS: "pass", DEAL: "deal", REBUY: "rebuy", DECLINE: "decline"}
    if isinstance(action, Gin):
        button = table.buttons["gin"]
    elif isinstance(action, Discard):
        i = table.hand_row.cards.index(action.card)
        assert table.hand_row.clickable[i]
        table.hand_row.click(i)
        return
    else:
        button = table.buttons[names[action]]
    assert not button.disabled, f"{action} is legal but its button is disabled"
    button.click()


def test_a_whole_game_through_the_buttons():
    table = GameTable("greedy,greedy", seed=11, coach_draws=2, coach_samples=20)
    c = table.controller
    me = GreedyPlayer()
    used = set()
    for _ in range(2000):
        if c.game.game_over:
            break
        assert c.my_turn()
        action = me.choose(c.view())
        used.add(type(action).__name__)
        _press(table, action)
        assert c.error is None, c.error
        c.game.check_invariants()
    assert c.game.game_over
    assert "Game over after" in table.message.value
    assert {"Draw", "Discard"} <= used
    # the game replays from its record to the same final state
    assert replay(record_of(c.game, c.player_names)).snapshot() == c.game.snapshot()
    html = table.static_html()
    assert "Game over after" in html and "rumino-hand" in html
    assert table._repr_mimebundle_()["text/html"] == html
    table.new_button.click()
    assert c.seed == 12 and not c.game.game_over


def test_new_game_is_seeded():
    a = GameTableController("greedy,random", seed=5)
    b = GameTableController("greedy,random", seed=5)
    assert a.game.snapshot() == b.game.snapshot() and a.log == b.log
    assert isinstance(a.game, RuminoGame) and a.player_names == ["human", "greedy", "random"]


def test_the_search_coach_names_its_move_and_each_moves_chance_and_the_coach_plays_it():
    """Ticking "search coach": the coach's move becomes the search player's, and the panel lists every move
    the search tried with its share of hands won; the same position gives the same advice."""
    t = GameTable("greedy", seed=3, variant="gin")
    c = t.controller
    assert not t.search_box.layout.display and "winning the hand" not in t.coach.value
    t.search_box.value = True
    advice = c.search_advice()
    assert not advice.forced and advice.action in c.legal()
    assert "chance of winning the hand, by move" in t.coach.value
    assert "best player, 5000 rollouts" in t.coach.value  # the best player's budget at Gin
    assert "the coach says" in t.coach.value
    assert c.coach_move() == advice.action
    for action, share, n in advice.values:
        assert 0 <= share <= 1 and n >= 1 and action in c.legal()
    again = GameTableController("greedy", seed=3, variant="gin")
    again.search_on = True
    assert again.search_advice().values == advice.values
    t.search_box.value = False
    assert "winning the hand" not in t.coach.value


def test_the_search_coach_is_not_offered_where_the_search_does_not_play(monkeypatch):
    """Every game is searched now (Robber at a small budget); a game the search did not fit would get no
    coach box and no advice."""
    from rumino.players.search import SearchPlayer

    assert GameTable("greedy", seed=3, variant="robber").search_box.layout.display != "none"
    monkeypatch.setattr(SearchPlayer, "fits", classmethod(lambda cls, game: False))
    t = GameTable("greedy", seed=3, variant="robber")
    assert t.search_box.layout.display == "none" and t.controller.search_advice() is None


def test_at_a_table_of_three_the_search_coach_says_share_of_players_beaten():
    t = GameTable("greedy,greedy", seed=3)  # Rumino, you and two bots
    t.search_box.value = True
    assert "share of the other players beaten in the hand, by move" in t.coach.value
    assert "chance of winning the hand" not in t.coach.value


def test_the_opponents_menu_seats_the_search_player_on_the_same_deal_and_back():
    """Choosing "the search player" redeals the same seed with search in every other seat; its moves are
    the search player's, and the reader's cards are those of the game with the table's own bots."""
    t = GameTable("greedy", seed=3, variant="gin")
    c = t.controller
    own_hand = sorted(c.view().hand)
    assert not t.opponents_box.layout.display and t.opponents_box.value == "own"
    t.opponents_box.value = "search"
    assert c.player_names == ["human", "search"] and c.opponents == "search"
    assert sorted(c.view().hand) == own_hand  # the same deal: the seed is kept
    assert type(c.bots[1]).__name__ == "SearchPlayer"
    before = len(c.game.history)
    c.act(c.legal()[0])  # the reader acts; the search player answers
    assert not c.error and len(c.game.history) > before
    assert c.told[before].startswith("You ") and any(line.startswith("Seat 1 ") for line in c.told), c.told
    t.opponents_box.value = "own"
    assert c.player_names == ["human", "greedy"] and sorted(c.view().hand) == own_hand
    t.opponents_box.value = "best"
    assert c.player_names == ["human", "best"] and sorted(c.view().hand) == own_hand and c.bots[1].model
    with pytest.raises(ValueError, match="choose one of"):
        c.set_opponents("grandmaster")


def test_the_opponents_menu_is_not_offered_where_the_search_does_not_play(monkeypatch):
    from rumino.players.search import SearchPlayer

    monkeypatch.setattr(SearchPlayer, "fits", classmethod(lambda cls, game: False))
    t = GameTable("greedy", seed=3, variant="robber")
    assert t.opponents_box.layout.display == "none"
    with pytest.raises(ValueError, match="does not play"):
        t.controller.set_opponents("search")
