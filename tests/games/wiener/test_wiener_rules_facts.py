"""Every rules fact of rules §5.9 (Wiener Rummy), the buy-back of §5.5, the presets of §5.6 and
American Knock Rummy (§5.8), each checked by playing the engine (``WienerGame``, ``KnockRummyGame``)
through its checked ``apply``. Tests are named after their section.
"""

from __future__ import annotations

import re
import dataclasses

import pytest

from rumino.cards import JOKER, parse_hand
from rumino.engine.actions import Deal, Discard, Draw, KnockWith
from rumino.errors import IllegalActionError, RuleConfigError
from rumino.melds import is_meld
from rumino.variants import find_variant
from rumino.variants.wiener import (KNOCK_RUMMY, WIENER, WIENER_13, BuyBack, CallRummy, DeclineBuyBack,
                                    KnockRummyGame, LayOff, WienerGame, WienerRules, knock_rummy_settlement)

C = lambda text: parse_hand(text)[0]  # noqa: E731 - one card

DW5 = "2c 3c 4c 7d 7h 7s Js Qs Ks 5h"  # §5.9.2: deadwood 5
DW_ACE = "2c 3c 4c 7d 7h 7s Js Qs Ks Ah"  # §5.9.2: deadwood 11
NEAR_RUMMY = "5c 6c 7c 8d 8c 8h 9h 10h Jh Kd"  # Qh makes 10 cards in melds, Kd goes
MELDED = "Ad 2d 3d 4d 9c 9d 9s Qc Qd Qh"  # 0 deadwood
MELDED2 = "5s 6s 7s 8s 10c 10d 10h Kc Kd Kh"  # 0 deadwood
HIGH = "Kh Qd 9d 8s 6c 4h 2d Jc 10c 5s"  # no meld: 74


def opened(n: int = 3, rules=WIENER, seed: int = 1) -> WienerGame:
    """A game whose dealer (the last seat) has made his opening discard: seat 0 is to draw."""
    g = WienerGame.new(rules, n, seed=seed, dealer=n - 1)
    g.apply(Discard(g.hands[n - 1][0]))
    assert (g.phase, g.to_act) == ("turn", 0)
    return g


def refused(game, action, rule: str, *words: str) -> IllegalActionError:
    """Apply ``action``: it must be refused naming ``rule`` and ``words``, the state unchanged."""
    before = game.snapshot()
    with pytest.raises(IllegalActionError) as err:
        game.apply(action)
    text = str(err.value)
    assert f"rules {rule}" in text and re.search(r"\((player \d+|nobody|the table), [^;()]+; rules §", text), text
    for w in words:
        assert w in text, text
    assert game.snapshot() == before
    game.check_invariants()
    return err.value


def rummy_by_seat0(scores: dict, hands: dict, n: int = 3) -> WienerGame:
    """Seat 0 draws Qh and calls rummy discarding Kd; the other seats score their deadwood."""
    g = opened(n)
    g.set_position(hands={0: NEAR_RUMMY, **hands}, scores=scores, stock_top="Qh")
    g.apply(Draw("stock"))
    g.apply(CallRummy(C("Kd")))
    g.check_invariants()
    return g


# ----------------------------------------------------------------------------- §5.9


def test_s5_9_1_pack_106_with_two_jokers_dealer_holds_11_and_discards_first():
    assert WienerGame.PACK.size == 106 and WienerGame.PACK.copies(JOKER) == 2
    for n in (2, 3, 6):
        g = WienerGame.new(WIENER, n, seed=n, dealer=0)
        assert [len(h) for h in g.hands] == [11] + [10] * (n - 1)
        assert g.discard == [] and g.stock_size == 106 - 10 * n - 1 and (g.phase, g.to_act) == ("discard", 0)
        assert g.view(0).opening and not any(isinstance(a, Draw) for a in g.legal_actions())
        refused(g, Draw("stock"), "§5.4", "must now get rid of a card")
        card = g.hands[0][3]
        g.apply(Discard(card))
        g.check_invariants()
        assert len(g.hands[0]) == 10 and g.discard == [card] and (g.phase, g.to_act) == ("turn", 1)
    assert WienerGame.new(WIENER, 6, seed=1, dealer=0).stock_size == 45  # §5.1


def test_s5_9_2_knock_at_five_after_the_discard_ace_eleven_blocks_knock():
    g = opened()
    g.set_position(hands={0: DW5}, stock_top="Kd")
    g.apply(Draw("stock"))
    assert KnockWith(C("Kd")) in g.legal_actions() and g.view(0).deadwood == 5
    assert KnockWith(C("5h")) not in g.legal_actions()  # keeping Kd leaves 10
    refused(g, KnockWith(C("5h")), "§5.4", "10 deadwood", "limit is 5")
    g.apply(KnockWith(C("Kd")))
    assert g.knocker == 0 and g.discard[-1] == C("Kd")

    g = opened()
    g.set_position(hands={0: DW_ACE}, stock_top="Kd")
    g.apply(Draw("stock"))
    assert g._ev.deadwood(parse_hand(DW_ACE)) == 11 and g._ev.deadwood(parse_hand(DW5)) == 5
    assert g.view(0).deadwood == 10 and not any(isinstance(a, KnockWith) for a in g.legal_actions())
    refused(g, KnockWith(C("Kd")), "§5.4", "11 deadwood", "limit is 5")


def test_s5_9_3_rummy_call_ends_the_deal_at_once():
    g = opened()
    g.set_position(hands={0: "2c 3c 4c 5c 7d 7h 7s Js Qs 9h", 1: DW5, 2: HIGH}, stock_top="Ks")
    g.apply(Draw("stock"))
    assert CallRummy(C("9h")) in g.legal_actions()
    refused(g, CallRummy(C("5c")), "§5.4", "a rummy call needs all 10 in melds")
    moves = len(g.history)
    g.apply(CallRummy(C("9h")))
    g.check_invariants()
    r = g.results[-1]
    assert r.ending == "rummy" and r.by == 0 and g.phase == "between_hands" and len(g.history) == moves + 1
    assert sorted(g.hands[0]) == sorted(parse_hand("2c 3c 4c 5c 7d 7h 7s Js Qs Ks"))  # 4 + 3 + 3 melded
    assert (r.deadwood, r.deltas, g.scores) == ((0, 5, 74), (0, 5, 74), [0, 5, 74])
    assert g.legal_actions() == [Deal()]  # nobody draws again in this deal
    refused(g, Draw("stock"), "§5.1", "the hand is over")


def test_s5_9_4_one_more_draw_and_discard_after_a_knock_and_no_laying_off():
    g = opened()
    g.set_position(hands={0: DW5, 1: NEAR_RUMMY, 2: DW_ACE}, stock_top="Kd Qh 9c")
    g.apply(Draw("stock"))
    g.apply(KnockWith(C("Kd")))
    v = g.view(1)
    assert (g.phase, g.to_act, v.knocker, v.last_round) == ("turn", 1, 0, True)
    assert Draw("discard") in g.legal_actions() and v.top_discard == C("Kd")  # W-D9: a face-up discard
    refused(g, LayOff(C("5h")), "§5.4", "no laying off")
    g.apply(Draw("stock"))  # Qh: seat 1 now holds 10 cards in melds plus Kd
    assert not any(isinstance(a, (KnockWith, CallRummy)) for a in g.legal_actions())
    refused(g, CallRummy(C("Kd")), "§5.4", "last round")
    refused(g, LayOff(C("Kd")), "§5.4", "no laying off")
    g.apply(Discard(C("Kd")))
    assert (g.phase, g.to_act) == ("turn", 2)
    g.apply(Draw("stock"))
    g.apply(Discard(C("Ah")))  # 9c kept: 2c3c4c 7d7h7s JsQsKs 9c
    g.check_invariants()
    r = g.results[-1]
    assert r.ending == "knock" and r.by == 0 and g.phase == "between_hands"
    assert r.deadwood == (5, 0, 9) and r.deltas == (5, 0, 9)  # W-D4: a rummy in the last round scores 0
    assert [a for _, a in g.history[-6:]] == [Draw("stock"), KnockWith(C("Kd")), Draw("stock"), Discard(C("Kd")),
                                               Draw("stock"), Discard(C("Ah"))]


def test_s5_9_5_score_100_stays_in_101_is_out():
    g = rummy_by_seat0({1: 95, 2: 96}, {1: DW5, 2: DW5})
    assert g.scores == [0, 100, 101] and g.in_game == [True, True, False]
    assert g.results[-1].busted == (2,) and (g.phase, g.to_act) == ("buyback", 1)  # 100 is worst of those in
    g.apply(DeclineBuyBack())
    g.apply(Deal())  # the deal passes to seat 0; seat 2 is no longer dealt in
    assert g.in_hand == [True, True, False] and g.hands[2] == [] and len(g.hands[0]) == 11
    g.check_invariants()


def test_s5_9_6_buy_back_to_the_second_worst_once_per_game():
    # 85 (worst) with others at 60 and 40: pay 5 chips, go to 60
    g = rummy_by_seat0({0: 60, 1: 80, 2: 40}, {1: DW5, 2: MELDED})
    assert g.scores == [60, 85, 40] and (g.phase, g.to_act) == ("buyback", 1)
    v = g.view(1)
    assert (v.buyback_target, v.buyback_price) == (60, 5)
    pot = g.pool
    g.apply(BuyBack())
    g.check_invariants()
    assert g.scores == [60, 60, 40] and g.pool == pot + 5 and g.ledger.paid_for(1, "buyback") == 5
    assert g.phase == "between_hands" and g.buyback_used == [False, True, False]
    # a second buy-back by the same player is refused: next deal, he is worst at 85 again
    g.apply(Deal())
    g.apply(Discard(g.hands[0][0]))  # dealer 0's opening discard; seat 1 plays first
    g.set_position(hands={0: MELDED, 1: DW5, 2: NEAR_RUMMY}, scores={1: 80}, stock_top="3h Qh")
    g.apply(Draw("stock"))
    g.apply(Discard(C("3h")))
    g.apply(Draw("stock"))
    g.apply(CallRummy(C("Kd")))
    g.check_invariants()
    assert g.scores == [60, 85, 40] and g.phase == "between_hands"
    assert "already bought back once" in g.buyback_refusal(1)
    refused(g, BuyBack(), "§5.1", "deal")


def test_s5_9_6_a_player_at_80_may_not_buy_back():
    g = rummy_by_seat0({0: 60, 1: 75, 2: 40}, {1: DW5, 2: MELDED})
    assert g.scores == [60, 80, 40] and g.phase == "between_hands"
    assert "80 points; a buy-back needs 81 to 100" in g.buyback_refusal(1)
    refused(g, BuyBack(), "§5.1")


def test_s5_9_7_knocker_receives_a_chip_from_each_of_three_others():
    g = opened(4)
    g.set_position(hands={0: DW5})
    g.apply(Draw("stock"))
    dealt = g.hands[0][-1]
    g.apply(KnockWith(dealt) if KnockWith(dealt) in g.legal_actions() else
            next(a for a in g.legal_actions() if isinstance(a, KnockWith)))
    for _ in range(3):  # the last round: draw from the stock, throw the card back
        g.apply(Draw("stock"))
        g.apply(Discard(g.hands[g.turn][-1]))
    g.check_invariants()
    r = g.results[-1]
    assert r.ending == "knock" and r.money == (3, -1, -1, -1)
    assert g.received == [3, 0, 0, 0] and g.paid == [5, 6, 6, 6] and g.pool == 20


# ----------------------------------------------------------------------------- §5.4, §5.5 details


def test_s5_4_rummy_call_money_knob_and_knock_money_to_pot():
    rules = dataclasses.replace(WIENER, rummy_call_money=2)
    g = opened(4, rules)
    g.set_position(hands={0: NEAR_RUMMY}, stock_top="Qh")
    g.apply(Draw("stock"))
    g.apply(CallRummy(C("Kd")))
    assert g.received == [6, 0, 0, 0] and g.results[-1].money == (6, -2, -2, -2)
    g = opened(3, dataclasses.replace(WIENER, knock_money_to_pot=True))
    g.set_position(hands={0: NEAR_RUMMY}, stock_top="Qh")
    g.apply(Draw("stock"))
    g.apply(CallRummy(C("Kd")))
    g.check_invariants()
    assert g.received == [0, 0, 0] and g.pool == 15 + 2 and g.paid == [5, 6, 6]


def test_s5_4_undercut_penalty_knob():
    for pen in (0, 10):
        g = opened(3, dataclasses.replace(WIENER, knock_undercut_penalty=pen))
        g.set_position(hands={0: DW5, 1: NEAR_RUMMY, 2: MELDED}, stock_top="Kd 2s 3s")
        g.apply(Draw("stock"))
        g.apply(KnockWith(C("Kd")))
        for _ in range(2):
            g.apply(Draw("stock"))
            g.apply(Discard(g.hands[g.turn][-1]))
        r = g.results[-1]
        assert r.undercut and r.deltas[0] == 5 + pen and r.deltas[2] == 0


def test_s5_4_the_dealers_first_turn_is_a_discard_only():
    # W-D2: 11 cards that would allow a knock and a rummy call; by default neither is offered, and typed
    # each is refused with the rule, the game unchanged (swapping cards with the stock keeps the pack whole)
    g = WienerGame.new(WIENER, 3, seed=1, dealer=0)
    rig_dealer(g, parse_hand("2c 3c 4c 5c 7d 7h 7s Js Qs Ks 9h"))
    legal = g.legal_actions()
    assert Discard(C("9h")) in legal and not any(isinstance(a, (KnockWith, CallRummy, Draw)) for a in legal)
    before = (list(g.hands[0]), list(g.stock), list(g.discard), g.phase)
    for action in (KnockWith(C("9h")), CallRummy(C("9h"))):
        with pytest.raises(IllegalActionError, match=r"first turn is a discard only.*rules §5\.4"):
            g.apply(action)
        assert (list(g.hands[0]), list(g.stock), list(g.discard), g.phase) == before


def test_s5_4_a_house_rule_lets_the_dealer_knock_or_call_rummy_with_the_opening_discard():
    rules = dataclasses.replace(WIENER, dealer_opening_ends=True)
    for action, ending in ((KnockWith(C("9h")), None), (CallRummy(C("9h")), "rummy")):
        g = WienerGame.new(rules, 3, seed=1, dealer=0)
        rig_dealer(g, parse_hand("2c 3c 4c 5c 7d 7h 7s Js Qs Ks 9h"))
        assert action in g.legal_actions() and not any(isinstance(a, Draw) for a in g.legal_actions())
        g.apply(action)
        g.check_invariants()
        if ending is None:
            assert g.knocker == 0 and (g.phase, g.to_act, g.view(1).last_round) == ("turn", 1, True)
        else:
            assert g.results[-1].ending == "rummy" and g.phase == "between_hands"


def rig_dealer(g: WienerGame, cards) -> None:
    """Give the dealer exactly ``cards`` (11) by swapping with the stock; the pack stays whole."""
    hand = g.hands[g.dealer]
    want = list(cards)
    keep = []
    for c in want:
        if c in hand:
            hand.remove(c)
            keep.append(c)
    for c in want:
        if c in keep:
            keep.remove(c)
            continue
        i = g.stock.index(c)
        g.stock[i] = hand.pop()
    assert not hand
    hand.extend(want)
    g._dw.clear()
    g.rigged = True
    g.check_invariants()


def test_s5_5_buyback_never_raises_a_score_and_the_targets():
    g = rummy_by_seat0({0: 60, 1: 85, 2: 90}, {1: MELDED, 2: MELDED2})
    # seat 1 at 85 is not the worst (90 is): second-worst counting himself is his own 85
    assert g.scores == [60, 85, 90] and g.buyback_target(1) == 85
    assert "never raises a score" in g.buyback_refusal(1)
    assert (g.phase, g.to_act, g.buyback_target(2)) == ("buyback", 2, 85)
    g.apply(DeclineBuyBack())
    assert g.scores == [60, 85, 90] and g.phase == "between_hands" and g.buyback_used == [False] * 3
    g = rummy_by_seat0({0: 60, 1: 85, 2: 40}, {1: MELDED, 2: MELDED2}, n=3)
    assert g.buyback_target(1) == 60
    rules = dataclasses.replace(WIENER, buyback_target="best_other")
    g = opened(3, rules)
    g.set_position(hands={0: NEAR_RUMMY, 1: MELDED, 2: MELDED2}, scores={0: 60, 1: 85, 2: 40}, stock_top="Qh")
    g.apply(Draw("stock"))
    g.apply(CallRummy(C("Kd")))
    assert g.buyback_target(1) == 40
    g.apply(BuyBack())
    g.check_invariants()
    assert g.scores == [60, 40, 40]
    # the withdrawn default is gone: it is no longer a value of the knob
    with pytest.raises(RuleConfigError, match="^Bought back to: highest_other is not allowed"):
        WienerRules(buyback_target="highest_other")
    assert WIENER.buyback_target == "second_worst"


MELDED3 = "As 2s 3s 4s Jc Jd Jh 6h 6d 6s"  # 0 deadwood


def test_rules_5_5_players_tied_for_worst_can_buy_back_only_under_best_other():
    """W-D10: at 90, 90 and 40 each tied player's second-worst score is the other 90, so under the
    default nobody is offered a buy-back; under best_other both may go down to 40."""
    g = rummy_by_seat0({0: 40, 1: 90, 2: 90}, {1: MELDED, 2: MELDED2})
    assert g.scores == [40, 90, 90] and g.phase == "between_hands"
    for seat in (1, 2):
        assert g.buyback_target(seat) == 90
        assert "it is not offered when it changes nothing" in g.buyback_refusal(seat)
    assert g.buyback_used == [False] * 3
    refused(g, BuyBack(), "§5.1", "cannot buy back")  # the hand is over: the next deal is due

    rules = dataclasses.replace(WIENER, buyback_target="best_other")
    g = opened(3, rules)
    g.set_position(hands={0: NEAR_RUMMY, 1: MELDED, 2: MELDED2}, scores={0: 40, 1: 90, 2: 90}, stock_top="Qh")
    g.apply(Draw("stock"))
    g.apply(CallRummy(C("Kd")))
    # offered from the dealer's (seat 2's) left: seat 1 first, then seat 2
    assert (g.phase, g.to_act, g.buyback_target(1)) == ("buyback", 1, 40)
    g.apply(BuyBack())
    assert g.scores == [40, 40, 90] and (g.phase, g.to_act, g.buyback_target(2)) == ("buyback", 2, 40)
    g.apply(BuyBack())
    g.check_invariants()
    assert g.scores == [40, 40, 40] and g.buyback_used == [False, True, True] and g.phase == "between_hands"


def test_rules_5_5_a_lone_worst_above_players_tied_for_worst_buys_back_to_the_tie():
    """W-D10 with four players at 95, 90, 90 and 40: the 95 buys back to 90 and joins the tie; the
    tied players at 90 are not offered it."""
    g = opened(4)
    g.set_position(hands={0: NEAR_RUMMY, 1: MELDED, 2: MELDED2, 3: MELDED3},
                   scores={0: 40, 1: 95, 2: 90, 3: 90}, stock_top="Qh")
    g.apply(Draw("stock"))
    g.apply(CallRummy(C("Kd")))
    assert g.scores == [40, 95, 90, 90]
    assert [g.buyback_target(p) for p in (1, 2, 3)] == [90, 90, 90]
    assert g.buyback_refusal(2) is not None and g.buyback_refusal(3) is not None
    assert (g.phase, g.to_act) == ("buyback", 1)
    g.apply(BuyBack())
    g.check_invariants()
    assert g.scores == [40, 90, 90, 90] and g.buyback_used == [False, True, False, False]
    assert g.phase == "between_hands"


def test_s5_5_a_player_out_at_101_may_not_buy_back_and_the_last_player_takes_the_pot():
    g = rummy_by_seat0({1: 99}, {1: DW5, 2: MELDED}, n=3)
    assert g.scores == [0, 104, 0] and not g.in_game[1] and "out of the game" in g.buyback_refusal(1)
    g = rummy_by_seat0({1: 99}, {1: DW5}, n=2)
    assert g.game_over and g.result.winners == (0,) and g.result.how == "last_player"
    assert g.result.payouts == (10, 0) and g.received == [1 + 10, 0] and g.paid == [5, 6]  # the pot: 2 entries


def test_s5_5_everyone_out_in_the_same_deal_lowest_wins_ties_split():
    g = opened(3)
    g.set_position(hands={0: DW5, 1: HIGH, 2: "Kc Qc 9h 8h 6d 4s 2h Jd 10s 5d"}, scores={0: 97, 1: 28, 2: 40},
                   stock_top="Kd")
    g.apply(Draw("stock"))
    g.apply(KnockWith(C("Kd")))
    for _ in range(2):  # the last round: each takes a card from the stock and throws it back
        g.apply(Draw("stock"))
        g.apply(Discard(g.hands[g.turn][-1]))
    g.check_invariants()
    r = g.results[-1]
    assert g.scores == [102, 102, 114] and r.busted == (0, 1, 2) and g.game_over
    assert g.result.how == "lowest_score" and g.result.winners == (0, 1)
    # the pot of 15 entry chips splits 8 / 7: the odd chip to the first winner from the dealer's left (W-D8)
    assert g.result.pot == 15 and g.result.payouts == (8, 7, 0)


def test_s0_4_stock_exhausted_reshuffles():
    from rumino.engine.protocol import play
    from rumino.players import RandomPlayer

    seen = []
    g = WienerGame.new(WIENER, 6, seed=3)
    play(g, [RandomPlayer(seed=[3, i]) for i in range(6)], after=lambda g, a, b: seen.append(g.reshuffles))
    g.check_invariants()
    assert max(seen) >= 1


# ----------------------------------------------------------------------------- §5.6, §5.7


def test_s5_6_thirteen_card_form_knocks_under_ten_without_an_extra_turn():
    assert (WIENER_13.hand_size, WIENER_13.knock_max_deadwood, WIENER_13.extra_turn_after_knock) == (13, 9, False)
    g = opened(3, WIENER_13)
    assert [len(h) for h in g.hands] == [13, 13, 13]
    g.set_position(hands={0: "2c 3c 4c 7d 7h 7s Js Qs Ks 9d 9h 9c 9s"}, stock_top="8h")
    g.apply(Draw("stock"))
    g.apply(KnockWith(C("9s")))  # 2c3c4c 7d7h7s JsQsKs 9d9h9c + 8h: deadwood 8 < 10
    g.check_invariants()
    r = g.results[-1]
    assert r.ending == "knock" and r.deadwood[0] == 8 and g.hand_over and len(g.results) == 1  # no extra turn
    assert g.history[-1] == (0, KnockWith(C("9s")))


def test_s5_7_every_knob_names_its_section_and_the_registry():
    from rumino.engine.knobs import knob_table

    rows = knob_table(WienerRules)
    assert {r["name"] for r in rows} >= {"deal_mode", "hand_size", "knock_max_deadwood", "extra_turn_after_knock",
                                         "knock_undercut_penalty", "ace_value", "joker_value", "entry_chips",
                                         "buyback_chips", "buyback_low", "buyback_target", "elimination_at",
                                         "rummy_call_money", "knock_money_to_pot"}
    assert all(r["section"].startswith("§") for r in rows)
    assert find_variant("wiener").game is WienerGame and find_variant("101").key == "wiener"
    assert find_variant("knock-rummy").game is KnockRummyGame
    assert find_variant("Knock Rummy").title == "American Knock Rummy"
    with pytest.raises(RuleConfigError, match="^Buy back from: 101 is not allowed"):
        WienerRules(buyback_low=101)


def test_s5_1_upcard_deal_mode():
    g = WienerGame.new(dataclasses.replace(WIENER, deal_mode="upcard"), 3, seed=2, dealer=2)
    assert [len(h) for h in g.hands] == [10, 10, 10] and len(g.discard) == 1 and (g.phase, g.to_act) == ("turn", 0)


# ----------------------------------------------------------------------------- §5.8 American Knock Rummy


def test_s5_8_pack_ace_low_and_deal_sizes():
    m = KNOCK_RUMMY.meld_rules
    assert KnockRummyGame.PACK.size == 52 and KnockRummyGame.PACK.copies(JOKER) == 0
    assert is_meld(parse_hand("Ah 2h 3h"), m) and not is_meld(parse_hand("Qh Kh Ah"), m)
    assert m.value(C("Ah")) == 1 and m.value(C("Kh")) == 10
    for n, size in ((2, 10), (3, 7), (4, 7), (5, 6)):
        g = KnockRummyGame.new(KNOCK_RUMMY, n, seed=n)
        assert all(len(h) == size for h in g.hands) and len(g.discard) == 1 and g.phase == "turn"
    with pytest.raises(RuleConfigError, match="2 to 5 players"):
        KnockRummyGame.new(KNOCK_RUMMY, 6, seed=1)


def test_s5_8_knock_at_any_count_ends_the_hand_no_laying_off():
    g = KnockRummyGame.new(KNOCK_RUMMY, 3, seed=1, dealer=2)
    g.set_position(hands={0: "Kc Qd Jh 9s 8c 7d 6h", 1: "Ac 2c 3c 4d 4h 4s 9h", 2: "Kd Kh Ks 5c 5d 5h 2s"},
                   stock_top="10d")
    g.apply(Draw("stock"))
    assert all(KnockWith(c) in g.legal_actions() for c in set(g.hands[0]))
    refused(g, LayOff(C("10d")), "§5.8", "no laying off")
    g.apply(KnockWith(C("Kc")))
    g.check_invariants()
    r = g.results[-1]
    # counts: knocker Qd Jh 10d 9s 8c 7d 6h = 10+10+10+9+8+7+6 = 60; seat 1: 9; seat 2: 2
    assert r.deadwood == (60, 9, 2) and r.winners == (2,) and g.phase == "between_hands"
    assert r.deltas == (0, 0, (60 - 2) + 10 + (9 - 2))  # a knocker not lowest pays 10 more


def test_s5_8_settlement_tie_beats_the_knocker_and_rummy_bonus():
    assert knock_rummy_settlement([3, 12, 20], [0, 1, 2], 0, KNOCK_RUMMY, 3) == ((0,), (26,))
    assert knock_rummy_settlement([0, 12, 20], [0, 1, 2], 0, KNOCK_RUMMY, 3) == ((0,), (82,))
    assert knock_rummy_settlement([5, 5, 20], [0, 1, 2], 0, KNOCK_RUMMY, 3) == ((1,), (15,))  # no penalty on a tie
    assert knock_rummy_settlement([0, 0, 20], [0, 1, 2], 0, KNOCK_RUMMY, 3) == ((1,), (20,))  # no bonus to the tier
    assert knock_rummy_settlement([8, 2, 20], [0, 1, 2], 0, KNOCK_RUMMY, 3) == ((1,), (34,))
    assert knock_rummy_settlement([8, 2, 2], [0, 1, 2], 0, KNOCK_RUMMY, 3) == ((1, 2), (8, 8))  # split 16
    assert knock_rummy_settlement([9, 2, 2], [0, 1, 2], 0, KNOCK_RUMMY, 3) == ((1, 2), (9, 8))  # odd point left
    # an independent route: brute force over who wins from the text of §5.8, on small counts
    import itertools
    for counts in itertools.product(range(0, 4), repeat=3):
        for knocker in range(3):
            winners, pts = knock_rummy_settlement(list(counts), [0, 1, 2], knocker, KNOCK_RUMMY, 3)
            low = min(counts)
            if counts[knocker] == low and counts.count(low) == 1:
                want = {knocker}
            else:
                want = {p for p in range(3) if counts[p] == low and p != knocker}
            assert set(winners) == want
            total = sum(counts[p] - low for p in range(3) if p not in want)
            total += 10 if counts[knocker] > low else 0
            total += 25 * 2 if want == {knocker} and low == 0 else 0
            assert sum(pts) == total and max(pts) - min(pts) <= 1


def test_s5_8_game_to_100_points():
    from rumino.engine.protocol import play
    from rumino.players import GreedyPlayer, RandomPlayer

    g = play(KnockRummyGame.new(KNOCK_RUMMY, 3, seed=4), [GreedyPlayer(), RandomPlayer(seed=1), GreedyPlayer()])
    g.check_invariants()
    top = max(g.scores)
    assert top >= 100 and g.result.how == "game_to" and all(g.scores[w] == top for w in g.result.winners)
    assert all(max(r.scores) < 100 for r in g.results[:-1])


def _drain_stock_but(g: WienerGame, keep: int) -> None:
    """Move all but the top ``keep`` stock cards under the discard pile (every card stays in one place)."""
    while len(g.stock) > keep:
        g.discard.insert(0, g.stock.pop(0))
    g.check_invariants()


@pytest.mark.parametrize("mode", ["end_and_score", "void_hand", "reshuffle"])
def test_s0_4_last_stock_card_with_and_without_a_knock(mode):
    rules = dataclasses.replace(WIENER, stock_exhausted=mode)
    # W-D5: a knock on the last stock card is scored at once, its last round cut short
    g = opened(2, rules)
    g.set_position(hands={0: DW5, 1: HIGH}, stock_top="Kd")
    _drain_stock_but(g, 1)
    g.apply(Draw("stock"))
    g.apply(KnockWith(C("Kd")))
    g.check_invariants()
    if mode == "reshuffle":
        assert (g.phase, g.to_act, g.knocker) == ("turn", 1, 0)
        g.apply(Draw("stock"))  # from the reshuffled discards (§0.4)
        assert g.reshuffles == 1 and len(g.discard) == 1
        g.apply(Discard(g.hands[1][-1]))
    r = g.results[-1]
    assert r.ending == "knock" and r.deltas == (5, 74) and g.hand_over
    # without a knock the hand ends (or goes on) by the knob
    g = opened(2, rules)
    g.set_position(hands={0: DW5, 1: HIGH}, stock_top="Kd")
    _drain_stock_but(g, 1)
    g.apply(Draw("stock"))
    g.apply(Discard(C("Kd")))
    g.check_invariants()
    if mode == "reshuffle":
        assert (g.phase, g.to_act, g.can_draw_stock()) == ("turn", 1, True) and not g.results
    else:
        r = g.results[-1]
        assert r.ending == "stock_exhausted" and r.by is None and not any(r.money)
        assert r.deltas == ((0, 0) if mode == "void_hand" else (5, 74))
