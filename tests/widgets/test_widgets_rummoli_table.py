"""RummoliTable driven in Python like a reader: buttons, bids, card clicks; checked against the engine."""

from __future__ import annotations

import re

from rumino.cards import format_hand, parse_hand
from rumino.hand.poker import describe, hand_value as hand_value_of
from rumino.render.rummoli import board_svg
from rumino.variants import find_variant
from rumino.variants.rummoli import STRENGTH
from rumino_widgets import RummoliTable, RummoliTableController

BOTS = "default,default,default"


def _first_legal_through_the_widget(t: RummoliTable) -> str:
    """Do what a reader would do for the engine's first legal action: a button, a bid, or a card click."""
    c = t.controller
    first = c.legal()[0]
    if first.word == "play":
        i = t.hand_row.cards.index(first.card)
        assert t.hand_row.clickable[i]
        t.hand_row.click(i)
    elif first.word == "bid":
        t.bid_box.value = first.amount
        t.bid_button.click()
    else:
        b = t.buttons[first.word]
        assert not b.disabled and b.layout.display is None
        b.click()
    return str(first)


def _said(done: str, deal: int) -> str:
    """What the log says of the reader's action ``done`` (the engine's notation), in a card player's words."""
    word, *rest = done.split()
    if word == "play":
        return f"You play {format_hand(parse_hand(rest[0]), unicode=True)}"
    return {"swap": "You swap your hand for the widow, unseen", "keep": "You keep your hand",
            "keep unsold": "You keep your hand, the widow unsold", "pass": "You pass", "check": "You check",
            "call": "You call", "fold": "You fold", "deal": f"You deal the cards (deal {deal})"}.get(done) or f"You bid {rest[0]}"


def test_a_whole_game_through_the_widget_conserves_every_chip():
    t = RummoliTable(BOTS, seed=4)
    c = t.controller
    g = c.game
    total = g.n_seats * c.rules.initial_chips
    moves = 0
    while not g.game_over:
        assert c.my_turn()
        v = c.view()
        # what the widget shows is the engine's view of the reader's seat
        assert sorted(t.hand_row.cards) == sorted(v.hand)
        assert t.board.controller.chips == v.board_chips
        assert f"deal {v.hand_number} of {v.deals_total}" in t.status.value
        # only the legal plays are clickable, and only the legal words have a live button
        playable = {a.card for a in c.legal() if a.word == "play"}
        assert {x for x, ok in zip(t.hand_row.cards, t.hand_row.clickable) if ok} == playable
        words = {str(a) if a.word == "keep" else a.word for a in c.legal()}  # "keep" and "keep unsold" apart
        assert {w for w, b in t.buttons.items() if not b.disabled} == words - {"bid", "play"}
        n_log, n_actions = len(c.log), len(g.history)
        done = _first_legal_through_the_widget(t)
        assert c.error is None, c.error
        said = _said(done, g.hand_number)
        assert c.told[n_actions] == said  # the record's action in words
        if not done.startswith(("bid", "pass")):  # the auction is told in one line when it ends
            assert c.log[n_log] == said, c.log[n_log:]
        else:  # told with the others' bids, by the time the reader is asked again
            assert any(line.startswith("Widow auction: ") and "y" + said[1:] in line.split(" · ")
                       or line.startswith("Widow auction: y" + said[1:]) for line in c.log[n_log:]), c.log[n_log:]
        assert sum(g.chips) + sum(g.board) == total  # showdown rules: no chips in a betting pot
        g.check_invariants()
        moves += 1
    assert moves > 10 and f"Game over after {len(g.results)} deals" in t.message.value
    assert all(b.disabled for b in t.buttons.values())  # nothing to press any more


def test_the_dealer_swaps_for_the_widow():
    c = RummoliTableController(BOTS, seed=0)
    v = c.view()
    assert v.phase == "widow" and v.dealer == c.human
    assert [str(a) for a in c.legal()] == ["swap", "keep", "keep unsold"]  # rules §2.3: selling is his choice
    assert "swap or keep" in c.message_html() and "keep unsold" in c.message_html()
    widow = sorted(c.game.widow)  # unseen by the reader; the test may look
    assert c.log == [] and c.act_text("swap")  # the dealer decides first
    assert c.log[0] == "You swap your hand for the widow, unseen" and c.view().widow_to == c.human
    assert sorted(c.view().hand) == widow  # the bots never play the reader's cards
    assert "dead hand" in c.status_html()


def test_the_auction_offers_the_engine_bids():
    t = RummoliTable(BOTS, seed=4)
    c = t.controller
    v = c.view()
    assert v.phase == "auction"
    bids = [a.amount for a in c.legal() if a.word == "bid"]
    assert (t.bid_box.min, t.bid_box.max) == (min(bids), max(bids)) and t.bid_box.layout.display is None
    assert f"bid {min(bids)} to {max(bids)} chips, or pass" in t.message.value
    # a bid over the reader's chips is refused by the engine, naming the rule; nothing changes
    n = len(c.game.history)
    assert not c.act_text(f"bid {max(bids) + 1}")
    assert "§2.3" in c.error and len(c.game.history) == n
    n_log = len(c.log)
    t.buttons["pass"].click()
    assert c.error is None and c.told[n] == "You pass"
    assert re.fullmatch(r"Widow auction: (seat \d (bids \d+|passes) · )*you pass( · seat \d (bids \d+|passes))*",
                        c.log[n_log]), c.log[n_log:]


def test_an_illegal_card_is_refused_with_the_rule_and_changes_nothing():
    c = RummoliTableController(BOTS, seed=1)
    v = c.view()
    assert v.phase == "stops"
    legal = {a.card for a in c.legal()}
    other = next(x for x in v.hand if x not in legal)
    before = (len(c.game.history), c.view().hand, c.view().board)
    assert not c.play_card(other)
    assert "§2.5" in c.error and c.error.startswith("cannot play")
    assert (len(c.game.history), c.view().hand, c.view().board) == before
    assert "rumino-error" in c.message_html()
    assert c.play_card(next(iter(legal))) and c.error is None


def test_out_of_turn_and_bad_text():
    c = RummoliTableController(BOTS, seed=2)
    assert not c.act_text("dance")
    assert "'dance' is not an action of Rummoli" in c.error
    while not c.game.game_over:
        c.act(c.legal()[0])
    assert not c.act_text("deal") and c.error == "the game is over: start a new game."
    c.new_game(3)
    assert c.error is None and all(x.startswith(("Seat ", "Widow auction: seat", "  ")) for x in c.log)
    assert all(x.startswith("Seat") for x in c.told)  # only the bots have acted



def showdown_cards(c) -> list[int]:
    """The reader's cards at the showdown: the hand now and the cards the reader has played since."""
    v = c.view()
    return list(v.hand) + [card for seat, card in v.played if seat == c.human]


def test_showdown_and_stops_are_shown_as_the_engine_has_them():
    c = RummoliTableController(BOTS, seed=1)  # the reader leads the stops: the showdown is over
    v = c.view()
    assert v.poker_winners
    shown = c.showdown_html()
    for seat, value in enumerate(v.poker_values):
        if value is not None:
            assert describe(value) in shown
            # the five cards shown face up, as the engine chose them from the whole hand
            assert format_hand(v.poker_shown[seat], unicode=True) in shown and hand_value_of(v.poker_shown[seat]) == value
    assert shown.count("wins the poker pot") == len(v.poker_winners)
    # the reader's own best five cards, the engine's choice, worth the value the engine compared
    from rumino.hand.poker import hand_value
    from rumino.variants.rummoli import best_five
    five = best_five(showdown_cards(c))
    assert hand_value(five) == v.poker_values[c.human] and "your best five" in shown
    for _ in range(3):
        c.act(c.legal()[0])
    v = c.view()
    assert best_five(showdown_cards(c)) == five  # the cards played since still count
    stops = c.stops_html()
    cards = [int(x) for x in re.findall(r'class="rumino-stop" data-card="(\d+)"', stops)]
    seats = [int(x) for x in re.findall(r'data-seat="(\d+)"', stops)]
    assert list(zip(seats, cards)) == list(v.played) == [p for run in v.runs for p in run]
    assert stops.count('class="rumino-run"') == len(v.runs)


def test_hand_is_sorted_by_suit_and_strength_and_static_view():
    t = RummoliTable(BOTS, seed=1)
    c = t.controller
    cards = t.hand_row.cards
    assert cards == sorted(c.view().hand, key=lambda x: (x // 13, STRENGTH[x]))
    html = t._repr_mimebundle_()["text/html"]
    assert html == t.static_html() == c.html()
    assert board_svg(c.view().board_chips, highlight=c.paid) in html
    assert find_variant("rummoli").game is type(c.game)
