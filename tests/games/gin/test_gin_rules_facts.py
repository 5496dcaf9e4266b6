"""Every fact of rules §6 (Gin Rummy) as a test named after its section, on set positions.

Positions are arranged with ``set_position`` (cards move, the pack stays whole)
and played through the checked ``apply``; the invariants are checked after
every action. Numbers are worked out by hand in the comments.
"""

from __future__ import annotations

import re
import dataclasses

import pytest

from rumino.hand.arrange import min_deadwood
from rumino.cards import format_card, parse_card, parse_hand
from rumino.engine.actions import DEAL, DRAW_DISCARD, DRAW_STOCK, Discard, Gin, KnockWith
from rumino.engine.evaluator import evaluator_for
from rumino.errors import IllegalActionError
from rumino.melds import GIN_MELDS, is_meld
from rumino.players import GreedyPlayer
from rumino.variants.gin import GIN, PASS, GinGame


def c(text: str) -> int:
    return parse_card(text)


def act(g: GinGame, *actions) -> None:
    for a in actions:
        g.apply(a)
        g.check_invariants()


def forced_draw(rules=GIN, *, hand: str, top: str, defender: str | None = None, scores=None) -> GinGame:
    """Both players pass the upcard; the non-dealer (seat 0) holds ``hand`` and must draw ``top``."""
    g = GinGame.new(rules, 2, seed=11, dealer=1)
    act(g, PASS, PASS)
    hands = {0: hand} if defender is None else {0: hand, 1: defender}
    g.set_position(hands=hands, stock_top=top, scores=scores)
    act(g, DRAW_STOCK)
    return g


def refused(g: GinGame, action, *words) -> str:
    before = g.snapshot()
    with pytest.raises(IllegalActionError) as err:
        g.apply(action)
    text = str(err.value)
    assert re.search(r"\((player \d+|nobody|the table), [^;()]+; rules §", text), text  # who, when (in words), the rule
    for w in words:
        assert w in text, text
    assert g.snapshot() == before
    return text


# --------------------------------------------------------------------------- the deal and the upcard


def test_s6_two_players_52_cards_ten_each_and_an_upcard():
    g = GinGame.new(GIN, 2, seed=5)
    assert GinGame.MIN_PLAYERS == GinGame.MAX_SEATS == 2
    assert sorted(len(h) for h in g.hands) == [10, 10] and len(g.discard) == 1 and len(g.stock) == 31
    assert sorted(g.hands[0] + g.hands[1] + g.discard + g.stock) == list(range(52))  # one pack, no joker


def test_s6_upcard_offered_to_the_non_dealer_then_the_dealer():
    g = GinGame.new(GIN, 2, seed=5, dealer=1)
    assert g.phase == "offer" and g.to_act == 0 and g.view(0).offer and not g.view(1).offer
    assert refused(g, DRAW_STOCK, "upcard is on offer")
    act(g, PASS)
    assert g.phase == "offer" and g.to_act == 1
    act(g, DRAW_DISCARD)  # the dealer takes it, discards, and the non-dealer plays next
    assert g.phase == "discard" and g.turn == 1
    act(g, Discard(next(x for x in g.hands[1] if x != g.pickup)))
    assert g.phase == "turn" and g.to_act == 0 and set(map(str, g.legal_actions())) == {"draw stock", "draw discard"}


def test_s6_non_dealer_takes_the_upcard_and_may_not_discard_it():
    g = GinGame.new(GIN, 2, seed=5, dealer=0)
    up = g.discard[-1]
    assert g.to_act == 1
    act(g, DRAW_DISCARD)
    assert refused(g, Discard(up), "§0.5")
    assert Discard(up) not in g.legal_actions()


def test_s6_both_pass_then_the_non_dealer_draws_from_the_stock():
    g = GinGame.new(GIN, 2, seed=5, dealer=1)
    act(g, PASS, PASS)
    assert g.phase == "turn" and g.to_act == 0 and g.legal_actions() == [DRAW_STOCK] and g.view(0).must_draw_stock
    refused(g, DRAW_DISCARD, "both players passed", "§6")
    act(g, DRAW_STOCK)
    act(g, Discard(g.drawn))
    assert g.to_act == 1 and DRAW_DISCARD in g.legal_actions()  # the dealer may take that discard


# --------------------------------------------------------------------------- melds and values


def test_s6_ace_low_only_no_wrap():
    assert is_meld(parse_hand("Ah 2h 3h"), GIN_MELDS)
    assert not is_meld(parse_hand("Qh Kh Ah"), GIN_MELDS) and not is_meld(parse_hand("Kh Ah 2h"), GIN_MELDS)


def test_s6_sets_by_rank_of_3_or_4_and_runs_of_3_or_more():
    assert is_meld(parse_hand("7h 7s 7d"), GIN_MELDS) and is_meld(parse_hand("7h 7s 7d 7c"), GIN_MELDS)
    assert not is_meld(parse_hand("7h 7s"), GIN_MELDS) and not is_meld(parse_hand("7h 8h"), GIN_MELDS)
    assert is_meld(parse_hand("As 2s 3s 4s 5s 6s 7s 8s 9s 10s"), GIN_MELDS)
    assert not is_meld(parse_hand("7h 8s 9h"), GIN_MELDS)


def test_s6_ace_counts_1_and_faces_10():
    values = GIN_MELDS.values
    assert [values[c(x)] for x in ("As", "2h", "9d", "10c", "Jc", "Qd", "Kh")] == [1, 2, 9, 10, 10, 10, 10]


def test_s6_deadwood_is_the_shared_s0_3_function():
    ev = evaluator_for(GIN)
    for text in ("Ah 2h 3h 7c 7d 7s Kd Qd 5c 9s", "4s 5s 6s 4h 4d 9c 10c Jc Qc Kc", "As Ac Ad 2s 3s 5h 6h 7h 8h 8d"):
        h = parse_hand(text)
        assert ev.deadwood(h) == min_deadwood(h, GIN_MELDS)
    # 4s is in a run or in the set of fours, not both (§0.3: disjoint melds): 4h 4d stay deadwood = 8 ... + 9c..Kc run
    assert ev.deadwood(parse_hand("4s 5s 6s 4h 4d 9c 10c Jc Qc Kc")) == 8


# --------------------------------------------------------------------------- knocking

KNOCKER = "5h 6h 7h 8s 8c 8d Ks Kc Kd 2c"  # melds 5h6h7h, 888, KKK; deadwood 2
DEFENDER = "4h 8h Qs Qc Jd 3d 5d 7c 9s 10c"  # deadwood 76; 4h and 8h can be laid off


def test_s6_knock_at_10_or_less_after_drawing_discarding_face_down():
    g = forced_draw(hand=KNOCKER, top="Qh", defender=DEFENDER)
    assert KnockWith(c("Qh")) in g.legal_actions() and KnockWith(c("2c")) in g.legal_actions()
    act(g, KnockWith(c("Qh")))
    # the hand ends at once: the discard lies on the pile and nobody draws it
    r = g.results[-1]
    assert g.phase == "between_hands" and r.ending == "knock" and r.by == 0 and g.discard[-1] == c("Qh")
    assert r.deadwood[0] == 2 and len(g.history) == 4


def test_s6_knock_above_10_is_refused():
    # 5h-8h and 8s8c8d meld; 2c 4c 5s Kd are loose: after discarding Kd the deadwood is 11
    g = forced_draw(hand="5h 6h 7h 8h 8s 8c 8d 2c 4c 5s", top="Kd")
    text = refused(g, KnockWith(c("Kd")), "keeps 11 deadwood, the limit is 10")
    assert "§6" in text and not any(isinstance(a, KnockWith) for a in g.legal_actions())


def test_s6_knock_only_after_drawing():
    g = GinGame.new(GIN, 2, seed=11, dealer=1)
    act(g, PASS, PASS)
    g.set_position(hands={0: KNOCKER})
    refused(g, KnockWith(c("2c")), "the choices are draw from the stock")  # the moves legal now


def test_s6_knock_limit_is_a_knob():
    g = forced_draw(dataclasses.replace(GIN, knock_max_deadwood=1), hand=KNOCKER, top="Qh")
    refused(g, KnockWith(c("Qh")), "the limit is 1")


def test_s6_defender_lays_off_onto_the_knockers_melds():
    g = forced_draw(hand=KNOCKER, top="Qh", defender=DEFENDER)
    act(g, KnockWith(c("Qh")))
    r = g.results[-1]
    # 4h extends 5h6h7h; 8h extends the run or joins the 8s: 76 - 4 - 8 = 64; the knocker scores 64 - 2
    assert sorted(r.layoffs) == sorted(parse_hand("4h 8h")) and r.defender_before == 76 and r.deadwood[1] == 64
    assert r.winner == 0 and r.points == 62 and g.scores == [62, 0] and not r.undercut


def test_s6_knocker_blocks_layoffs_with_his_choice_of_melds():
    # 5h6h7h8h + 8s8c8d or 5h6h7h + 8h8s8c8d: both leave As Ac 2c = 4. The second blocks 9h (G3)
    g = forced_draw(hand="5h 6h 7h 8h 8s 8c 8d As Ac 2c", top="Qh", defender="9h Qs Qc Jd 3d 5d 7c 9s 10c 2s")
    act(g, KnockWith(c("Qh")))
    r = g.results[-1]
    assert sorted(map(sorted, r.melds)) == sorted(map(sorted, (parse_hand("5h 6h 7h"), parse_hand("8s 8c 8d 8h"))))
    # 9+10+10+10+3+5+7+9+10+2 = 75, nothing laid off; the knocker scores 75 - 4
    assert r.layoffs == () and r.deadwood == (4, 75) and r.points == 71


def test_s6_no_layoff_after_gin_and_gin_scores_difference_plus_25():
    g = forced_draw(hand="4h 5h 6h 7h 8s 8c 8d Ks Kc Kd", top="Qh", defender="3h 8h Qs Qc Jd 3d 5d 7c 9s 10c")
    assert Gin(c("Qh")) in g.legal_actions() and KnockWith(c("Qh")) not in g.legal_actions()
    refused(g, KnockWith(c("Qh")), "go gin")
    act(g, Gin(c("Qh")))
    r = g.results[-1]
    # 3h and 8h would fit the knocker's melds, but there are no lay-offs after gin: 3+8+10+10+10+3+5+7+9+10 = 75
    assert r.ending == "gin" and r.layoffs == () and r.deadwood[1] == 75 and r.points == 75 + 25
    assert g.scores == [100, 0] and g.game_over  # 100 reaches game_to


def test_s6_gin_bonus_is_a_knob():
    g = forced_draw(dataclasses.replace(GIN, gin_bonus=20), hand="4h 5h 6h 7h 8s 8c 8d Ks Kc Kd", top="Qh",
                    defender="3h 8h Qs Qc Jd 3d 5d 7c 9s As")
    act(g, Gin(c("Qh")))
    assert g.results[-1].points == g.results[-1].deadwood[1] + 20


def test_s6_knocker_scores_the_difference_only_if_strictly_lower():
    g = forced_draw(hand=KNOCKER, top="Qh", defender="As Ac 2d 3d 4d 9c 10c Jc Qd Jh")  # 1+1+10+10 = 22
    act(g, KnockWith(c("Qh")))
    r = g.results[-1]
    assert (r.deadwood[0], r.deadwood[1], r.winner, r.points) == (2, 22, 0, 20)


@pytest.mark.parametrize("defender, dd", [("2d 3d 4d 9c 10c Jc 6s 6d 6c 2s", 2), ("2d 3d 4d 9c 10c Jc 6s 6d 6c As", 1)])
def test_s6_undercut_opponent_equal_or_lower_scores_difference_plus_25(defender, dd):
    # the knocker has 2; a defender at 2 (a tie) or 1 undercuts him
    g = forced_draw(hand=KNOCKER, top="Qh", defender=defender)
    act(g, KnockWith(c("Qh")))
    r = g.results[-1]
    assert r.deadwood == (2, dd) and r.undercut and r.winner == 1 and r.points == 2 - dd + 25
    assert g.scores == [0, 2 - dd + 25]


@pytest.mark.parametrize("bonus", [10, 20])
def test_s6_undercut_bonus_is_a_knob(bonus):
    g = forced_draw(dataclasses.replace(GIN, undercut_bonus=bonus), hand=KNOCKER, top="Qh",
                    defender="2d 3d 4d 9c 10c Jc 6s 6d 6c As")
    act(g, KnockWith(c("Qh")))
    assert g.results[-1].points == 1 + bonus


# --------------------------------------------------------------------------- the void hand


def _play_out(g: GinGame) -> None:
    """Everyone draws from the stock and throws the card drawn, never knocking."""
    while not g.hand_over:
        if g.phase == "offer":
            act(g, PASS)
        elif g.phase == "turn":
            act(g, DRAW_STOCK)
        elif g.phase == "discard":
            act(g, Discard(g.drawn))
        else:
            break


def test_s6_hand_is_void_when_2_stock_cards_remain():
    g = GinGame.new(GIN, 2, seed=3)
    _play_out(g)
    r = g.results[-1]
    assert r.ending == "void" and len(g.stock) == 2 and g.scores == [0, 0] and r.deltas == (0, 0)
    assert g.phase == "between_hands" and g.boxes == [0, 0]
    act(g, DEAL)  # the deal passes to the other player
    assert g.dealer != r.dealer and g.hand_number == 2


def test_s6_the_player_who_draws_the_last_playable_card_may_still_knock():
    g = GinGame.new(GIN, 2, seed=3, dealer=1)
    g.set_position(hands={0: KNOCKER})  # the non-dealer draws at 31, 29, …, 3 stock cards
    while not (g.phase == "turn" and len(g.stock) == 3):
        _step_no_knock(g)
    assert g.turn == 0
    act(g, DRAW_STOCK)
    assert len(g.stock) == 2 and KnockWith(g.drawn) in g.legal_actions()
    act(g, KnockWith(g.drawn))
    assert g.results[-1].ending == "knock"


def _step_no_knock(g: GinGame) -> None:
    if g.phase == "offer":
        act(g, PASS)
    elif g.phase == "turn":
        act(g, DRAW_STOCK)
    else:
        act(g, Discard(g.drawn))


def test_s6_void_at_stock_is_a_knob():
    g = GinGame.new(dataclasses.replace(GIN, void_at_stock=0), 2, seed=3)
    _play_out(g)
    assert g.results[-1].ending == "void" and len(g.stock) == 0


def test_s6_wall_knock_knob_next_player_may_take_the_last_discard_only_to_knock():
    rules = dataclasses.replace(GIN, wall_knock=True)
    g = GinGame.new(rules, 2, seed=3, dealer=1)
    while not (g.phase == "discard" and len(g.stock) == 2):
        _step_no_knock(g)
    other = 1 - g.turn
    act(g, Discard(g.drawn))
    assert g.phase == "wall" and g.to_act == other and g.view(other).wall
    refused(g, DRAW_STOCK, "no more stock draws")
    if DRAW_DISCARD not in g.legal_actions():
        refused(g, DRAW_DISCARD, "only to knock")
    act(g, PASS)
    assert g.results[-1].ending == "void"


def test_s6_wall_knock_taking_the_discard_forces_a_knock():
    rules = dataclasses.replace(GIN, wall_knock=True)
    g = GinGame.new(rules, 2, seed=3, dealer=1)
    # the dealer (seat 1) would knock with Kd: KsKcKd, then Qh away leaves 2c
    g.set_position(hands={1: "5h 6h 7h 8s 8c 8d Ks Kc 2c Qh", 0: "Kd As 3c 4d 6s 9s Jh Jd 10s 9c"})
    while not (g.phase == "discard" and len(g.stock) == 2):
        _step_no_knock(g)
    assert g.turn == 0
    act(g, Discard(c("Kd")))
    assert g.phase == "wall" and g.to_act == 1 and g.legal_actions() == [DRAW_DISCARD, PASS]
    act(g, DRAW_DISCARD)
    assert g.view(1).must_knock and all(not isinstance(a, Discard) for a in g.legal_actions())
    refused(g, Discard(c("Qh")), "must knock")
    refused(g, KnockWith(c("Kd")), "§0.5")
    act(g, KnockWith(c("Qh")))
    assert g.results[-1].ending == "knock" and g.results[-1].by == 1 and g.results[-1].deadwood[1] == 2


# --------------------------------------------------------------------------- the game


def test_s6_game_to_100_with_game_and_box_bonuses():
    g = forced_draw(hand=KNOCKER, top="Qh", defender=DEFENDER, scores={0: 40, 1: 30})
    act(g, KnockWith(c("Qh")))  # +62: 102 ≥ 100
    res = g.result
    assert g.game_over and res.winners == (0,) and res.how == "game_to"
    # totals: the winner's score + game bonus 100 + one box of 25; the loser 30 (the set score) and no box
    assert res.boxes == (1, 0) and res.totals == (102 + 100 + 25, 30)


def test_s6_game_and_box_bonuses_are_optional_knobs():
    rules = dataclasses.replace(GIN, game_bonus=0, box_bonus=0, game_to=50)
    g = forced_draw(rules, hand=KNOCKER, top="Qh", defender=DEFENDER)
    act(g, KnockWith(c("Qh")))
    assert g.game_over and g.result.totals == (62, 0)


def test_s6_game_goes_on_below_game_to():
    g = forced_draw(hand=KNOCKER, top="Qh", defender=DEFENDER)
    act(g, KnockWith(c("Qh")))
    assert g.phase == "between_hands" and not g.game_over and g.legal_actions() == [DEAL]


def test_s6_a_whole_game_between_bots_ends_at_game_to():
    from rumino.engine import play

    g = play(GinGame.new(GIN, 2, seed=8), [GreedyPlayer(), GreedyPlayer()],
             after=lambda game, *_: game.check_invariants())
    w = g.result.winners[0]
    assert g.scores[w] >= 100 > g.scores[1 - w]
    assert g.result.totals[w] == g.scores[w] + 100 + 25 * g.boxes[w]
    assert sum(g.boxes) == sum(r.ending != "void" for r in g.results)


def test_s6_refusals_name_player_phase_action_and_rule():
    g = GinGame.new(GIN, 2, seed=2, dealer=1)
    text = refused(g, Discard(g.hands[0][0]), "offered the upcard")
    assert format_card(g.hands[0][0]) in text or "discard" in text
    act(g, DRAW_DISCARD)
    refused(g, Gin(g.hands[0][0]), "gin is every card in melds")
    refused(g, PASS, "discard")
