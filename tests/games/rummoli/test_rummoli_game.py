"""Rummoli's engine (rules §2): every fact of §2.8, every knob of §2.7 in play, refusals, chips and cards
conserved after every action, records that replay, and the bots.

Positions are arranged with ``set_deal`` (a whole deal, before the widow decision) and
``set_stops`` (the stops phase with given hands and dead hand; every other card counts as
played earlier), then played through the checked ``apply``.
"""

from __future__ import annotations

import dataclasses

import numpy as np
import pytest

from rumino.cards import parse_card, parse_hand
from rumino.engine.protocol import play
from rumino.errors import IllegalActionError, RuleConfigError
from rumino.players import RandomPlayer, make_players
from rumino.variants.rummoli.bots import RummoliDefault
from rumino.hand.poker import hand_value
from rumino.playing.records import dumps_record, loads_record, replay
from rumino.variants import find_variant
from rumino.variants.rummoli import (BET, CALL, CHECK, CLAIM, DEAL, FOLD, FORGO, KEEP, KEEP_UNSOLD, PASS, RAISE, RUMMOLI,
                                     SECTIONS, SWAP, Bid, Keep, Play, RummoliGame, hand_sizes)


def C(text):
    return parse_card(text)


def P(text):
    return Play(C(text))


def new(n=3, dealer=None, seed=0, **rules):
    """A game whose first deal is dealt; ``dealer`` None: the dealer is the last seat, so seats play 0, 1, …"""
    return RummoliGame.new(dataclasses.replace(RUMMOLI, **rules), n, seed=seed,
                           dealer=n - 1 if dealer is None else dealer)


def apply_all(game, actions):
    for a in actions:
        game.apply(P(a) if isinstance(a, str) else a)
        game.check_invariants()


def refused(game, action, rule):
    before = game.snapshot()
    with pytest.raises(IllegalActionError) as err:
        game.apply(action)
    assert f"rules {rule}" in str(err.value), str(err.value)
    assert game.snapshot() == before
    return str(err.value)


def board(game, key):
    return game.board[SECTIONS.index(key)]


# ----------------------------------------------------------------------------- the facts of §2.8


def test_s2_8_1_the_sheet_has_nine_sections():
    assert SECTIONS == ("rummoli", "poker", "10s", "Jd", "Qc", "Kh", "As", "Ad+Kd", "7-8-9")
    g = new(3)
    assert len(g.board) == 9 and len(g.view(0).board_chips) == 9


def test_s2_8_2_each_deal_adds_nine_chips_per_player():
    g = new(5)
    assert sum(g.board) == 45 and g.chips == [91] * 5  # the first deal's antes
    bots = [RandomPlayer(seed=s) for s in range(5)]
    play(g, bots, until=lambda x: x.phase == "between_deals")
    before = sum(g.board)
    g.apply(DEAL)
    assert sum(g.board) - before == 45
    assert all(board(g, k) >= 1 for k in SECTIONS)


def test_s2_8_3_four_players_get_11_11_10_10_10():
    g = new(4)
    sizes = [len(g.hands[p]) for p in g.hand_players] + [len(g.widow)]
    assert sizes == [11, 11, 10, 10, 10] and sum(sizes) == 52
    assert g.hand_players[0] == (g.dealer + 1) % 4  # the dealer's left is dealt first
    assert [hand_sizes(n) for n in (2, 3, 5, 6, 7, 8)] == [
        (18, 17, 17), (13,) * 4, (9, 9, 9, 9, 8, 8), (8, 8, 8, 7, 7, 7, 7), (7, 7, 7, 7, 6, 6, 6, 6), (6,) * 7 + (5, 5)]
    for n in range(2, 9):
        g = new(n, seed=n)
        assert [len(g.hands[p]) for p in g.hand_players] + [len(g.widow)] == list(hand_sizes(n))


def test_s2_8_4_poker_ranking():
    v = lambda t: hand_value(parse_hand(t))  # noqa: E731
    assert v("9h 10h Jh Qh Kh") > v("As Ac Ad Ah 2c")  # straight flush over four of a kind
    assert v("Ah 2c 3d 4s 5h") < v("2h 3c 4d 5s 6h")  # the wheel is the lowest straight
    assert v("Ah 2c 3d 4s 5h") > v("Ah Ac Ad Ks Qh")  # … but a straight
    assert v("2h 4h 6h 8h 10h") > v("10s Jc Qd Ks Ah")  # flush over straight
    assert v("Ah Kh 9c 7d 4s") == v("As Ks 9h 7c 4d")  # suits never break ties


def test_s2_8_4_tied_poker_hands_split_the_pot_and_the_odd_chip_stays():
    g = new(3, dealer=0)
    p0 = "Ah Kh Qh Jh 10h 2c 3c 4c 5c 2d 3d 4d 5d"
    p1 = "As Ks Qs Js 10s 6c 7c 8c 6d 7d 8d 9d 9s"
    rest = [c for c in range(52) if c not in set(parse_hand(p0 + " " + p1)) and c not in (C("Ac"), C("Ad"))]
    p2, widow = rest[:13], rest[13:] + [C("Ac"), C("Ad")]
    g.set_deal({0: p0, 1: p1, 2: p2}, widow)
    apply_all(g, [KEEP, PASS, PASS])  # the dealer keeps, nobody bids: the widow is the dead hand
    assert g.poker_winners == (1, 0)  # from the dealer's left: P1 first
    assert g.chips[:2] == [92, 92] and board(g, "poker") == 1  # 3 chips: one each, the odd chip stays
    assert g.turn == 1 and g.legal_actions() == [P("6c"), P("6d")]  # P1 leads; two lowest cards: his choice


def test_s2_8_5_kd_then_ad_by_one_player_takes_the_section():
    g = new(3)
    g.set_stops({0: "7s 2c", 1: "Qd Kd Ad 9s", 2: "Jc 3c"}, lead=1, colour="red")
    before = g.chips[1]
    apply_all(g, ["Qd", "Kd"])
    assert g.turn == 1 and g.legal_actions() == [P("Ad")]  # the continuation is his: he must play it
    apply_all(g, ["Ad"])
    assert ("Ad+Kd", 1, 3) in g.won and board(g, "Ad+Kd") == 0 and g.chips[1] == before + 3
    assert g.lead_colour is False and g.turn == 1  # the suit is closed: P1 changes colour (9♠)


def test_s2_8_5_with_kd_dead_the_section_cannot_be_won():
    g = new(3)
    g.set_stops({0: "7s 2c", 1: "Qd Ad 9s", 2: "Jc 3c"}, dead="Kd", lead=1, colour="red")
    bots = [RummoliDefault(seed=1) for _ in range(3)]
    play(g, bots, until=lambda x: x.phase not in ("stops", "claim"), after=lambda gm, s, a: gm.check_invariants())
    assert P("Ad") in [a for _, a in g.history]  # A♦ was played, after a stop, not after K♦
    assert not [w for w in g.results[-1].won if w[0] == "Ad+Kd"] and board(g, "Ad+Kd") == 3


def test_s2_8_6_seven_eight_nine_by_two_players_pays_nothing_by_one_pays():
    g = new(4)
    g.set_stops({0: "As 4d", 1: "Ks 5d", 2: "7h 2s", 3: "8h 9h 7c 8c 9c Kd"}, dead="10h 10c", lead=2, colour="red")
    apply_all(g, ["7h", "8h", "9h"])  # P2 plays 7♥, P3 8♥ 9♥; 10♥ is dead: a stop
    assert not [w for w in g.won if w[0] == "7-8-9"] and board(g, "7-8-9") == 4
    assert g.turn == 3 and g.legal_actions() == [P("7c")]  # P3 changes colour: his lowest black card
    apply_all(g, ["7c", "8c", "9c"])
    assert ("7-8-9", 3, 4) in g.won and board(g, "7-8-9") == 0


def test_s2_8_7_a_blocked_suit_makes_the_last_player_change_colour():
    g = new(3)
    g.set_stops({0: "2h 3h 4h Kd 9s", 1: "5h 6h 3c Jc Qd", 2: "8s 10d"}, dead="7h", lead=0)
    assert g.legal_actions() == [P("2h")]  # the opening lead: the lowest card in the hand
    apply_all(g, ["2h", "3h", "4h", "5h", "6h"])
    assert g.turn == 1 and g.lead_colour is False and g.legal_actions() == [P("3c")]
    msg = refused(g, P("Qd"), "§2.5")
    assert "lowest black card" in msg and "3c" in msg


def test_s2_8_8_deadlock_puts_a_chip_per_card_on_the_rummoli_section():
    g = new(3)
    g.set_stops({0: "2s 5c 6c 7c 8c", 1: "9c 10c", 2: "Jc Qc Kc"}, dead="3s", lead=0)
    chips, rummoli = list(g.chips), board(g, "rummoli")
    apply_all(g, ["2s"])  # 3♠ is dead; nobody holds a red card: deadlock with 4, 2 and 3 cards
    r = g.results[-1]
    assert r.ending == "deadlock" and r.out is None and r.deadlock == (4, 2, 3)
    assert board(g, "rummoli") == rummoli + 9 and [chips[p] - g.chips[p] for p in range(3)] == [4, 2, 3]
    assert not [w for w in r.won if w[0] == "rummoli"]
    assert g.phase == "between_deals"


def test_s2_8_9_going_out_takes_a_chip_per_card_and_the_rummoli_section():
    g = new(3)
    g.set_stops({0: "2s", 1: "3s 4s 5s", 2: "6d 7d 8d 9d Qc"}, lead=0)
    chips, rummoli = list(g.chips), board(g, "rummoli")
    apply_all(g, ["2s"])
    r = g.results[-1]
    assert r.ending == "rummoli" and r.out == 0
    assert g.chips[0] == chips[0] + 8 + rummoli and r.payments == (8, -3, -5)
    assert g.chips[1] == chips[1] - 3 and g.chips[2] == chips[2] - 5 and board(g, "rummoli") == 0


def test_s2_8_10_an_ace_closes_its_suit_and_the_ace_of_spades_pays():
    g = new(3)
    g.set_stops({0: "Ks 2h", 1: "As 3d 4c", 2: "5c 6c"}, lead=0, colour="black")
    chips = g.chips[1]
    apply_all(g, ["Ks", "As"])
    assert ("As", 1, 3) in g.won and g.chips[1] == chips + 3
    assert g.need is None and g.turn == 1 and g.lead_colour is True  # closed: P1 changes to red
    assert g.legal_actions() == [P("3d")]


# ----------------------------------------------------------------------------- the knobs of §2.7


def test_widow_deal_position_first_gives_the_widow_the_first_card():
    g = new(4, widow_deal_position="first")
    assert [len(g.widow)] + [len(g.hands[p]) for p in g.hand_players] == [11, 11, 10, 10, 10]


def test_the_dealer_swaps_unseen_and_his_hand_is_dead():
    g = new(3)
    mine, widow = list(g.hands[2]), list(g.widow)
    g.apply(SWAP)
    assert g.hands[2] == widow and g.dead == mine and g.widow == [] and g.widow_to == 2
    assert g.phase == "stops"  # showdown: no decision
    g.check_invariants()


def test_widow_paycard_restriction_bars_the_swap_and_the_bid():
    g = new(3, widow_paycard_restriction=True)
    g.set_deal({0: "10s 2c 3c 4c 5c 6c 7c 8c 9c 10c Jc Qc Kc", 1: "As 2s 3s 4s 5s 6s 7s 8s 9s Js Qs Ks Ac",
                2: "Jd 2d 3d 4d 5d 6d 7d 8d 9d 10d Qd Kd Ad"}, "Ah 2h 3h 4h 5h 6h 7h 8h 9h 10h Jh Qh Kh")
    assert g.legal_actions() == [KEEP, KEEP_UNSOLD]  # the dealer may still sell; P1 and P2 hold pay cards
    msg = refused(g, SWAP, "§2.3")
    assert "pay card" in msg
    g.apply(KEEP)  # P0 holds 10♠ and P1 A♠: nobody may bid, the widow is dead
    assert g.phase == "stops" and len(g.dead) == 13 and g.widow_how == "unsold"


def test_open_auction_the_winner_pays_the_dealer_and_swaps():
    g = new(4)
    widow, p1 = list(g.widow), list(g.hands[1])
    g.apply(KEEP)
    assert g.phase == "auction" and g.turn == 0
    refused(g, Bid(0), "§2.3")
    apply_all(g, [Bid(2), Bid(3), PASS])  # P0 2, P1 3, P2 passes
    refused(g, Bid(3), "§2.3")  # a bid must exceed the current one
    assert "only 91 chips" in refused(g, Bid(500), "§2.3")  # more than his chips
    assert g.legal_actions()[-1] == Bid(91)  # his chips, not the 36 on the sheet
    dealer = g.chips[3]
    apply_all(g, [PASS])  # P0 passes: P1 is the only bidder left and takes the widow
    assert g.widow_to == 1 and g.hands[1] == widow and g.dead == p1 and g.chips[3] == dealer + 3
    assert g.chips[1] == 91 - 3


def test_sealed_auction_hides_the_bids_and_the_first_highest_wins():
    g = new(4, widow_auction="sealed")
    g.apply(KEEP)
    apply_all(g, [Bid(4), Bid(4)])
    v = g.view(2)
    assert v.high_bid == 0 and v.high_bidder is None  # secret until the end
    apply_all(g, [Bid(3)])
    assert g.widow_to == 0 and g.chips[3] == 91 + 4  # a tie goes to the bidder nearest the dealer's left


def test_no_auction_leaves_the_widow_dead():
    g = new(4, widow_auction="none")
    widow = list(g.widow)
    assert g.legal_actions() == [SWAP, KEEP]  # nothing to sell, nothing to decline
    assert "widow_auction='none'" in refused(g, KEEP_UNSOLD, "§2.3")
    g.apply(KEEP)
    assert g.phase == "stops" and g.dead == widow


@pytest.mark.parametrize("auction", ["open", "sealed"])
def test_rules_2_3_the_dealer_who_keeps_may_decline_to_auction_the_widow(auction):
    g = new(4, widow_auction=auction)
    assert g.legal_actions() == [SWAP, KEEP, KEEP_UNSOLD]
    widow, hands, chips = list(g.widow), [list(h) for h in g.hands], list(g.chips)
    g.apply(KEEP_UNSOLD)
    g.check_invariants()
    assert g.phase == "stops" and g.dead == widow and g.widow == [] and g.widow_how == "unsold"
    assert g.widow_to is None and [list(h) for h in g.hands] == hands  # nobody's hand changed
    won = [0] * 4
    for w in g.poker_winners:  # the showdown has paid the poker pot; no chip went to or from the dealer
        won[w] += g.poker_won
    assert g.chips == [c + x for c, x in zip(chips, won)]
    assert [(s, str(a)) for s, a in g.history] == [(3, "keep unsold")]
    g2 = new(4, widow_auction=auction)
    g2.apply(KEEP)  # the other choice: the widow is offered, the dealer's left bids first
    assert g2.phase == "auction" and g2.turn == 0


def test_rules_2_3_keep_unsold_is_written_and_read_back():
    from rumino.variants.rummoli import ACTIONS

    assert str(KEEP_UNSOLD) == "keep unsold" and str(KEEP) == "keep" and KEEP == Keep(sell=True)
    assert ACTIONS.parse("keep unsold") == KEEP_UNSOLD and ACTIONS.parse("KEEP Unsold") == KEEP_UNSOLD
    assert ACTIONS.parse("keep") == KEEP
    with pytest.raises(IllegalActionError, match="unsold"):
        ACTIONS.parse("keep sold")
    g = new(3, seed=4)
    g.apply(KEEP_UNSOLD)
    play(g, [RummoliDefault(seed=s) for s in range(3)])
    text = dumps_record(g, players=["default"] * 3)
    assert '"keep unsold"' in text
    assert replay(loads_record(text)).snapshot() == g.snapshot()


def test_rules_2_3_bids_are_not_capped_at_the_chips_on_the_sheet():
    g = new(3)
    assert sum(g.board) == 27
    g.apply(KEEP)
    assert g.legal_actions()[-1] == Bid(91)  # the bidder's chips, far above the 27 on the sheet
    dealer, bidder = g.chips[2], g.chips[0]
    apply_all(g, [Bid(60), PASS])  # P0 bids 60, more than the sheet holds; P1 passes: P0 buys
    assert g.widow_to == 0 and g.widow_how == "auction"
    assert g.chips[2] == dealer + 60 and g.chips[0] == bidder - 60  # from the buyer to the dealer, nowhere else
    assert sum(g.chips) + sum(g.board) == 300 and g.high_bid == 60
    sealed = new(3, widow_auction="sealed")
    sealed.apply(KEEP)
    apply_all(sealed, [Bid(91), PASS])  # a sealed bid of all his chips
    assert sealed.widow_to == 0 and sealed.chips[0] == 0 and sealed.chips[2] == 91 + 91


def test_rules_2_3_a_bid_above_the_bidders_chips_is_refused_and_nothing_changes():
    g = new(3)
    g.apply(KEEP)
    msg = refused(g, Bid(92), "§2.3")  # P0 holds 91
    assert "only 91 chips" in msg and "paid in full" in msg and "player 0" in msg
    apply_all(g, [Bid(5)])
    refused(g, Bid(5), "§2.3")  # not more than the bid before
    refused(g, Bid(200), "§2.3")
    assert g.turn == 1 and g.high_bid == 5 and g.high_bidder == 0


def test_betting_fixed_limit_raise_cap_and_folding():
    g = new(3, poker_method="betting", bet_size=2, raise_cap=1)
    g.apply(KEEP)
    apply_all(g, [PASS, PASS])
    assert g.phase == "betting" and g.turn == 0 and g.legal_actions() == [CHECK, BET]
    refused(g, CALL, "§2.4")
    refused(g, FOLD, "§2.4")
    apply_all(g, [BET])  # P0 puts 2 on the poker section
    assert board(g, "poker") == 3 + 2 and g.legal_actions() == [CALL, RAISE, FOLD]
    refused(g, CHECK, "§2.4")
    apply_all(g, [RAISE])  # P1 raises to 4: the one raise allowed
    assert g.legal_actions() == [CALL, FOLD]
    assert "raise_cap" in refused(g, RAISE, "§2.4")
    apply_all(g, [FOLD, FOLD])  # P2 folds, P0 folds: P1 is the last one in and takes the pot
    assert g.poker_winners == (1,) and g.poker_how == "fold" and board(g, "poker") == 0
    assert g.chips == [91 - 2, 91 - 4 + 3 + 2 + 4, 91] and g.turn == 1  # he leads the stops


def test_betting_showdown_among_those_still_in():
    g = new(3, poker_method="betting")
    g.apply(KEEP)
    apply_all(g, [PASS, PASS, BET, CALL, FOLD])
    values = {p: hand_value(tuple(g.hands[p])) for p in (0, 1)}
    best = max(values.values())
    assert set(g.poker_winners) == {p for p in (0, 1) if values[p] == best} and 2 not in g.poker_winners


def test_manual_claims_claim_or_forgo():
    g = new(3, manual_claims=True)
    g.set_stops({0: "9s 10s 3h", 1: "Js 3c", 2: "4c 5c"}, lead=0, colour="black")
    apply_all(g, ["9s", "10s"])
    assert g.phase == "claim" and g.legal_actions() == [CLAIM, FORGO] and g.view(0).claimable == ("10s",)
    apply_all(g, [FORGO])  # the chips stay on the 10♠ section
    assert board(g, "10s") == 3 and g.turn == 1 and g.legal_actions() == [P("Js")]
    g2 = new(3, manual_claims=True)
    g2.set_stops({0: "9s 10s 3h", 1: "Js 3c", 2: "4c 5c"}, lead=0, colour="black")
    apply_all(g2, ["9s", "10s", CLAIM])
    assert board(g2, "10s") == 0 and ("10s", 0, 3) in g2.won


def test_colour_change_irwin_passes_the_duty_left():
    g = new(3)
    g.set_stops({0: "2h 3d", 1: "5d 6d", 2: "4s 9c"}, dead="3h", lead=0)
    apply_all(g, ["2h"])  # 3♥ dead; P0 holds no black card: P1 holds none either; P2 leads his lowest black
    assert g.turn == 2 and g.legal_actions() == [P("4s")]


def test_colour_change_fine_per_pass_fines_each_player_who_cannot():
    g = new(3, colour_change_rule="fine_per_pass")
    g.set_stops({0: "2h 3d", 1: "5d 6d", 2: "4s 9c"}, dead="3h", lead=0)
    chips, rummoli = list(g.chips), board(g, "rummoli")
    apply_all(g, ["2h"])
    assert g.turn == 2 and g.fines == [1, 1, 0] and board(g, "rummoli") == rummoli + 2
    assert g.chips[:2] == [chips[0] - 1, chips[1] - 1]


def test_colour_change_any_colour_fallback_never_deadlocks():
    g = new(3, colour_change_rule="any_colour_fallback")
    g.set_stops({0: "2s 5c 6c 7c 8c", 1: "9c 10c", 2: "Jc Qc Kc"}, dead="3s", lead=0)
    apply_all(g, ["2s"])  # nobody holds red: P0 leads his lowest card of any colour
    assert g.phase == "stops" and g.turn == 0 and g.legal_actions() == [P("5c")]


@pytest.mark.parametrize("sweep", ["cut", "poker_deal"])
def test_final_sweep_gives_the_whole_sheet_to_one_player(sweep):
    g = new(3, final_sweep=sweep, seed=4)
    play(g, make_players("default,random,default", seed=2, game=RummoliGame))
    res = g.result
    assert g.game_over and sum(g.board) == 0 and res.payouts[res.swept_by] == res.swept
    assert sum(res.payouts) == res.swept and res.swept > 0
    draws = res.sweep_draws[-1]
    assert len(draws) == 3 and (len(draws[0][1]) == 5 if sweep == "poker_deal" else isinstance(draws[0][1], int))
    assert res.winners == tuple(p for p in range(3) if g.chips[p] == max(g.chips))


def test_rounds_set_the_number_of_deals():
    g = new(3, rounds=2, seed=5)
    play(g, [RummoliDefault(seed=s) for s in range(3)])
    assert len(g.results) == 6 and g.result.how == "rounds"
    assert [r.dealer for r in g.results] == [2, 0, 1, 2, 0, 1]  # the deal passes left


@pytest.mark.parametrize("short", ["sit_out", "eliminated", "partial"])
def test_a_player_short_of_the_ante(short):
    g = new(3, short_ante=short, initial_chips=20, rounds=50, seed=6)
    play(g, [RandomPlayer(seed=s) for s in range(3)], after=lambda gm, s, a: gm.check_invariants())
    need = 1 if short == "partial" else 9
    for prev, r in zip(g.results, g.results[1:]):
        assert set(r.players) == {p for p in range(3) if prev.chips[p] >= need}, (short, r.number)
    low = [p for p in range(3) if g.chips[p] < need]
    assert low and g.result.how == "last_player"  # 50 rounds of 20 chips: someone runs short
    assert g.in_game == [short == "sit_out" or p not in low for p in range(3)]
    if short == "sit_out":  # still at the table: he takes part in the final sweep
        assert len(g.result.sweep_draws[0]) == 3


def test_partial_ante_antes_what_he_can():
    g = new(3, short_ante="partial", initial_chips=12, seed=1)
    assert g.chips == [3, 3, 3] and sum(g.board) == 27
    for seed in range(20):
        g = new(3, short_ante="partial", initial_chips=12, seed=seed)
        play(g, [RandomPlayer(seed=s) for s in range(3)], until=lambda x: x.phase != "widow" and x.hand_over)
        if g.game_over or all(c >= 9 for c in g.chips) or not any(0 < c < 9 for c in g.chips):
            continue
        before, sheet = list(g.chips), list(g.board)
        g.apply(DEAL)
        g.check_invariants()
        paid = {p: min(before[p], 9) for p in g.hand_players}
        assert all(g.chips[p] == before[p] - paid[p] for p in g.hand_players)
        assert [g.board[i] - sheet[i] for i in range(9)] == [sum(1 for x in paid.values() if x > i) for i in range(9)]
        return
    raise AssertionError("no seed gave a player short of the ante")


def test_every_knob_is_a_field_with_a_section():
    from rumino.engine.knobs import knob_table

    names = {r["name"] for r in knob_table(type(RUMMOLI))}
    assert {"widow_deal_position", "widow_paycard_restriction", "widow_auction", "poker_method", "bet_size",
            "raise_cap", "colour_change_rule", "manual_claims", "final_sweep", "initial_chips", "rounds",
            "short_ante"} <= names
    with pytest.raises(RuleConfigError, match="^A player short of the ante: borrow is not allowed"):
        dataclasses.replace(RUMMOLI, short_ante="borrow")


# ----------------------------------------------------------------------------- refusals and conservation


def test_illegal_actions_are_refused_with_the_rule_and_change_nothing():
    g = new(3)
    refused(g, P("2s"), "§2.3")  # the dealer's decision comes first
    refused(g, BET, "§2.3")
    g.apply(SWAP)
    lead = g.legal_actions()[0]
    other = next(c for c in g.hands[g.turn] if Play(c) not in g.legal_actions())
    assert "lowest card" in refused(g, Play(other), "§2.5")
    not_held = next(c for c in range(52) if c not in g.hands[g.turn])
    assert "does not hold" in refused(g, Play(not_held), "§2.5")
    refused(g, DEAL, "§2.5")
    g.apply(lead)
    if g.need is not None:
        alt = next((c for c in g.hands[g.turn] if c != g.need), None)
        if alt is not None:
            assert "mandatory" in refused(g, Play(alt), "§2.5")


def test_a_game_over_refuses_everything():
    g = new(2, seed=3)
    play(g, [RandomPlayer(seed=1), RandomPlayer(seed=2)])
    refused(g, DEAL, "§2.6")
    assert g.legal_actions() == [] and g.to_act is None


@pytest.mark.parametrize("seed", range(8))
def test_chips_and_cards_are_conserved_after_every_action(seed):
    rng = np.random.default_rng([seed, 99])
    changes = dict(poker_method=["showdown", "betting"][seed % 2], widow_auction=["open", "sealed", "none"][seed % 3],
                   colour_change_rule=["irwin", "fine_per_pass", "any_colour_fallback"][seed % 3],
                   manual_claims=bool(seed % 2), final_sweep=["cut", "poker_deal"][seed % 2],
                   short_ante=["sit_out", "eliminated", "partial"][seed % 3], initial_chips=int(rng.integers(20, 60)),
                   widow_paycard_restriction=seed % 4 == 0, rounds=2)
    n = 2 + seed % 7
    g = RummoliGame.new(dataclasses.replace(RUMMOLI, **changes), n, seed=seed)
    bots = make_players(["default", "random"] * 4, seed=seed, game=RummoliGame)[:n]
    total = n * changes["initial_chips"]

    def after(game, seat, action):
        game.check_invariants()
        assert sum(game.chips) + sum(game.board) == total
        assert sum(map(len, game.hands)) + len(game.widow) + len(game.dead) + len(game.played) == 52

    play(g, bots, after=after)
    assert g.game_over and sum(g.chips) == total


def test_the_ledger_catches_a_leak():
    g = new(3)
    g.chips[0] += 1
    with pytest.raises(AssertionError, match="chips"):
        g.check_invariants()
    g = new(3)
    g.hands[0].append(g.widow.pop())
    with pytest.raises(AssertionError):
        g.check_invariants()


# ----------------------------------------------------------------------------- records, views, bots


def test_a_record_replays_to_the_same_state():
    g = RummoliGame.new(dataclasses.replace(RUMMOLI, poker_method="betting", manual_claims=True), 4, seed=12)
    play(g, make_players("default,random,default,random", seed=3, game=RummoliGame))
    again = replay(loads_record(dumps_record(g, players=["default", "random", "default", "random"])))
    assert again.snapshot() == g.snapshot()


def test_an_arranged_game_cannot_be_recorded():
    from rumino.errors import RecordError

    g = new(3)
    g.set_stops({0: "2s", 1: "3s", 2: "4s"}, lead=0)
    with pytest.raises(RecordError):
        dumps_record(g)


def test_views_hide_the_widow_the_dead_hand_and_other_hands():
    g = new(4)
    v = g.view(1)
    assert v.hand == tuple(g.hands[1]) and v.widow_size == 10 and not hasattr(v, "widow")
    assert v.board == tuple(g.board) and v.chips == tuple(g.chips) and v.phase == "widow"
    assert v.legal_actions == [] and g.view(3).legal_actions == [SWAP, KEEP, KEEP_UNSOLD]
    with pytest.raises(IllegalActionError):
        g.view(9)


def test_bots_fit_only_where_they_should():
    from rumino.players import UnknownPlayerError

    with pytest.raises(UnknownPlayerError, match="does not fit Rummoli"):
        make_players("greedy,default", game=RummoliGame)
    from rumino.variants.rumino import RuminoGame

    with pytest.raises(UnknownPlayerError, match="does not fit Rumino"):
        make_players("default,greedy", game=RuminoGame)


def test_rules_2_3_the_judging_bot_sells_the_widow_only_when_a_sale_can_only_help_it():
    bot = RummoliDefault(seed=0, sell_widow="judged")
    g = new(3, dealer=0)
    strong = "As Ac Ad Ah Ks Kc Kd Kh 10s Jd Qc 2c 3c"  # four aces: a random widow hardly ever beats it
    rest = [c for c in range(52) if c not in set(parse_hand(strong))]
    g.set_deal({0: strong, 1: rest[:13], 2: rest[13:26]}, rest[26:])
    assert bot.sells(g.view(0)) and bot.choose(g.view(0)) == KEEP
    g = new(3, dealer=0)
    paying = "10s Jd Qc Kh As Kd Ad 2c 3h 5s 7c 8h 9d"  # every pay card, but only a straight for poker
    rest = [c for c in range(52) if c not in set(parse_hand(paying))]
    g.set_deal({0: paying, 1: rest[:13], 2: rest[13:26]}, rest[26:])
    v = g.view(0)
    assert bot.widow_gain(v) < 0 and not bot.sells(v)  # keep the pay cards; a sold widow often beats a straight
    assert bot.choose(v) == KEEP_UNSOLD
    assert RummoliDefault(seed=0).choose(v) == KEEP  # the default bot offers the widow whenever it keeps
    with pytest.raises(ValueError, match="sell_widow is 'never'"):
        RummoliDefault(sell_widow="never")


def test_the_default_bot_swaps_by_expected_value():
    bot = RummoliDefault(seed=0)
    g = new(3, dealer=0)
    strong = "As Ac Ad Ah Ks Kc Kd Kh 10s Jd Qc 2c 3c"  # four aces, four kings and three pay cards
    rest = [c for c in range(52) if c not in set(parse_hand(strong))]
    g.set_deal({0: strong, 1: rest[:13], 2: rest[13:26]}, rest[26:])
    assert bot.choose(g.view(0)) == KEEP
    g = new(3, dealer=0)
    weak = "2s 3c 4d 5h 7s 8c 9d Jh 2c 3d 4h 6s 7c"
    rest = [c for c in range(52) if c not in set(parse_hand(weak))]
    g.set_deal({0: weak, 1: rest[:13], 2: rest[13:26]}, rest[26:])
    assert bot.widow_gain(g.view(0)) > 0 and bot.choose(g.view(0)) == SWAP


def test_default_bots_beat_random_bots():
    from rumino.playing.simulation import play_games

    run = play_games(None, ["default", "random", "default", "random"], games=60, seed=3, variant="rummoli")
    assert run.chips_won(0).value > 0 > run.chips_won(1).hi
    assert sum(sum(x) for x in run.net) == 0


def test_registered_once_with_its_engine():
    v = find_variant("rummoli")
    assert v.game is RummoliGame and v.playable and RummoliGame.ACTIONS.words == (
        "bet", "bid", "call", "check", "claim", "deal", "fold", "forgo", "keep", "pass", "play", "raise", "swap")


def test_the_default_bot_bids_up_to_half_its_expected_gain():
    weak = "2s 3c 4d 5h 7s 8c 9d Jh 2c 3d 4h 6s 7c"
    rest = [c for c in range(52) if c not in set(parse_hand(weak))]
    g = new(3, dealer=2)
    g.set_deal({0: weak, 1: rest[:13], 2: rest[13:26]}, rest[26:])
    g.apply(KEEP)
    bot = RummoliDefault(seed=0)
    v = g.view(0)
    limit = int(bot.widow_gain(v) / 2)
    assert limit >= 1 and bot.choose(v) == Bid(1)  # the open auction: the lowest allowed bid, within the limit
    g.apply(Bid(limit))
    g.apply(PASS)
    assert g.phase != "auction" and g.widow_to == 0  # P1 passed: P0 takes the widow for his limit


def test_the_default_bot_bets_a_strong_hand_and_folds_a_weak_one_facing_a_bet():
    g = new(3, dealer=2, poker_method="betting")
    strong = "As Ks Qs Js 10s 2c 3c 4d 5d 6h 7h 8c 9d"
    weak = "2s 3h 4c 5h 7s 8h 9c Jd 2h 3d 4s 6c 7d"
    rest = [c for c in range(52) if c not in set(parse_hand(strong + " " + weak))]
    g.set_deal({0: strong, 1: weak, 2: rest[:13]}, rest[13:])
    apply_all(g, [KEEP, PASS, PASS])
    bots = [RummoliDefault(seed=s) for s in range(3)]
    assert bots[0].choose(g.view(0)) == BET
    g.apply(BET)
    assert bots[1].choose(g.view(1)) == FOLD


def test_s2_5_3_a_run_stops_at_a_card_already_played():
    g = new(3)
    g.set_stops({0: "5h 6h 9c Kd", 1: "3h 10c", 2: "4h Jc 2s"}, dead="7h", lead=0, colour="red")
    apply_all(g, ["5h", "6h"])  # 7♥ is dead: a stop; P0 changes to black (9♣), 10♣ J♣ follow, Q♣ was played
    apply_all(g, ["9c", "10c", "Jc"])
    assert g.turn == 2 and g.lead_colour is True and g.legal_actions() == [P("4h")]
    apply_all(g, ["4h"])  # a suit entered again lower down: 5♥ is already played, so the run stops at once
    assert g.turn == 2 and g.need is None and g.lead_colour is False and g.legal_actions() == [P("2s")]


def test_the_next_game_is_dealt_by_the_winner():
    g = new(3, seed=9)
    with pytest.raises(IllegalActionError, match="not over"):
        g.next_game(seed=1)
    play(g, [RummoliDefault(seed=s) for s in range(3)])
    nxt = g.next_game(seed=10)
    assert nxt.dealer == g.result.winners[0] and nxt.chips == [91] * 3 and nxt.phase == "widow"


def test_best_five_is_a_best_hand_of_five_shown_cards():
    from rumino.variants.rummoli import best_five

    rng = np.random.default_rng(5)
    for n in (5, 7, 11, 18):
        for _ in range(5):
            hand = tuple(int(c) for c in rng.permutation(52)[:n])
            five = best_five(hand)
            assert len(five) == 5 and set(five) <= set(hand) and hand_value(five) == hand_value(hand)
