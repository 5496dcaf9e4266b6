"""German Rommé in play (rules §3): every fact of §3.7 through the engine, every knob of §3.6 in play,
the opening summed over a turn's play, hand-Rommé, atomic refusals, notation and records, golden
playthroughs (tests/golden/romme_*.json) and the CLI."""

from __future__ import annotations

import dataclasses
import io
import json

import numpy as np
import pytest
from golden_replay import cases_of, check_bots_choose_the_same_actions, check_playthrough

from rumino.cards import JOKER, format_card, parse_card, parse_hand
from rumino.cli import main
from rumino.cli.play import play_terminal
from rumino.engine.actions import DRAW_DISCARD, DRAW_STOCK, Discard
from rumino.errors import IllegalActionError
from rumino.melds import why_not_meld
from rumino.players import GreedyPlayer, RandomPlayer, make_players
from rumino.playing.records import dumps_record, loads_record, replay
from rumino.table.melds import Exchange, Lay, LayOff, declare
from rumino.variants.romme import ROMME, RommeRules
from rumino.variants.romme import Play, RommeGame, evaluate_play



def C(text):
    return tuple(parse_hand(text))


def P(text) -> Play:
    return RommeGame.ACTIONS.parse("play " + text)


def dealer_turn(rules=ROMME, *, hand, table=(), opened=None, others=None, n=2):
    """A game at the dealer's (seat 0's) first turn, with a position set: no draw is due."""
    g = RommeGame.new(rules, n, seed=1, dealer=0)
    hands = {0: hand, **(others or {})}
    g.set_position(hands=hands, table=table, opened=opened or {})
    assert g.phase == "discard" and g.turn == 0
    return g


def refused(g, action, section: str):
    before = g.snapshot()
    with pytest.raises(IllegalActionError) as err:
        g.apply(action)
    text = str(err.value)
    assert "rules §" in text and section in text.rsplit("rules ", 1)[1], text
    assert g.snapshot() == before, "a refused action changed the state"
    g.check_invariants()
    return str(err.value)


def rest_of_pack(g, used) -> str:
    """Every card of the game's pack not in ``used`` (to leave the stock empty)."""
    from collections import Counter
    spare = Counter(g.PACK.cards()) - Counter(used)
    return " ".join(format_card(c) for c in spare.elements())


# ----------------------------------------------------------------------------- §3.7 facts

def test_s3_7_1_pack_and_stock_after_the_deal():
    assert ROMME.meld_rules.pack.size == 110 and ROMME.meld_rules.pack.jokers == 6
    g6 = RommeGame.new(ROMME, 6, seed=3)
    assert g6.stock_size == 31 and sorted(map(len, g6.hands)).count(13) == 5 and len(g6.hands[g6.dealer]) == 14
    g2 = RommeGame.new(ROMME, 2, seed=3)
    assert g2.stock_size == 83 and g2.discard == [] and g2.turn == g2.dealer and g2.phase == "discard"
    g6.check_invariants(), g2.check_invariants()


def test_s3_7_2_joker_limits_in_play():
    mr = ROMME.meld_rules
    assert why_not_meld(C("JK JK 6s"), mr) and not why_not_meld(C("3s JK JK 6s"), mr)
    assert not why_not_meld(C("3s JK JK 6s 7s"), mr)
    g = dealer_turn(hand="JK JK 6s 3s 8s 9s 10s Js Qs Ks 2d 4d 5h 7c", opened={0: True})
    refused(g, P("lay JK JK 6s"), "§3.2")
    g.apply(P("lay 3s JK JK 6s"))
    assert str(g.table[0]) == "3s JK(4s) JK(5s) 6s"


def test_s3_7_3_sets_distinct_suits_at_most_four():
    mr = ROMME.meld_rules
    assert why_not_meld(C("6s 6s 6h"), mr) and not why_not_meld(C("6s 6h 6d 6c"), mr)
    assert why_not_meld(C("6s 6h 6d 6c JK"), mr)
    g = dealer_turn(hand="6s 6s 6h 6d 6c JK 9s 10s Js Qs Ks 2d 4d 5h", opened={0: True})
    refused(g, P("lay 6s 6s 6h"), "§3.2")
    refused(g, P("lay 6s 6h 6d 6c JK"), "§3.2")
    g.apply(P("lay 6s 6h 6d 6c"))


def test_s3_7_4_ace_low_or_high_never_around():
    mr = ROMME.meld_rules
    assert why_not_meld(C("Ks As 2s"), mr)
    assert not why_not_meld(C("Qc Kc Ac"), mr) and not why_not_meld(C("Ah 2h 3h"), mr)
    assert not why_not_meld(C("Ks As 2s"), dataclasses.replace(ROMME, ace="around").meld_rules)


def test_s3_7_5_opening_values_and_the_40():
    mr = ROMME.meld_rules
    for text, value in (("Qc Kc Ac", 31), ("Ah 2h 3h", 6), ("As Ah Ad", 33), ("7h JK 9h", 24)):
        assert declare(C(text), mr).opening_value() == value, text
    g = dealer_turn(hand="10s Js Qs Ks 3d 3h 3c 5c 7d 9h 2s 4s 8c 6d")
    msg = refused(g, P("lay 10s Js Qs; lay 3d 3h 3c"), "§3.4.2")
    assert "39" in msg and not g.opened[0]
    g.apply(P("lay 10s Js Qs Ks"))
    assert g.opened[0] and len(g.hands[0]) == 10


def test_s3_7_6_penalty_and_its_double_after_a_hand_romme():
    hand = "As 2s 3s 4s Ah 2h 3h Ad 2d 3d Ac 2c 3c 9h"  # 28 points: below 40, but the whole hand
    g = dealer_turn(hand=hand, others={1: "As JK Kd 5c"})
    assert g.penalty(C("As JK Kd 5c")) == 46
    g.apply(P("lay As 2s 3s 4s; lay Ah 2h 3h; lay Ad 2d 3d; lay Ac 2c 3c"))
    assert g.last_card_only and g.legal_actions() == [Discard(parse_card("9h"))]
    g.apply(Discard(parse_card("9h")))
    r = g.results[-1]
    assert r.ending == "hand_romme" and r.deadwood[1] == 46 and r.deltas == (0, -92)
    g.check_invariants()


def test_s3_7_7_no_lay_off_or_exchange_before_opening():
    table = ["5h 6h JK(7h)"]
    g = dealer_turn(hand="7h 8h 2c 3d 9s Kc", table=table, opened={1: True}, others={1: "4c 4d"})
    refused(g, P("layoff 8h on 0"), "§3.7.7")
    refused(g, P("exchange 7h on 0"), "§3.7.7")
    # once the same play reaches 40, both are allowed (G15)
    g2 = dealer_turn(hand="7h 8h 10s Js Qs Ks 2c 3c 9s", table=table, opened={1: True}, others={1: "4c 4d"})
    g2.apply(P("lay 10s Js Qs Ks; exchange 7h on 0; lay 2c 3c JK"))
    assert str(g2.table[0]) == "5h 6h 7h" and g2.opened[0]


def test_s3_7_8_dskv_set_joker_only_completed_to_four():
    dskv = dataclasses.replace(ROMME, joker_exchange="dskv")
    table = ["6s 6h JK(6c)", "9s 9h 9c JK(9d)"]
    g = dealer_turn(dskv, hand="6d 6c 9d 10d Jd 2s 3s", table=table, opened={0: True})
    refused(g, P("exchange 6d on 0; lay 10d Jd JK"), "§3.4.5")
    g.apply(P("exchange 6d 6c on 0; exchange 9d on 1; lay 2s 3s JK; lay 10d Jd JK"))
    assert sorted(map(str, g.table[:2])) == ["6s 6c 6d 6h", "9s 9c 9d 9h"] and g.hands[0] == []
    # the general rule frees a set joker with one missing suit
    g2 = dealer_turn(hand="6d 10d Jd 2s", table=table, opened={0: True})
    g2.apply(P("exchange 6d on 0; lay 10d Jd JK"))


def test_s3_7_9_freed_joker_may_not_stay_in_hand():
    g = dealer_turn(hand="7h 2c 9s Kd", table=["5h 6h JK(7h)", "3c 4c 5c"], opened={0: True})
    refused(g, P("exchange 7h on 0"), "§3.7.9")
    # new_meld: a joker laid off comes from the hand, and the freed one is not there (it may not be)
    msg = refused(g, P("exchange 7h on 0; layoff JK on 1"), "§3.4")
    assert "JK is not in the hand" in msg
    loose = dataclasses.replace(ROMME, freed_joker_use="new_meld_or_layoff")
    g2 = dealer_turn(loose, hand="7h 2c 9s Kd", table=["5h 6h JK(7h)", "3c 4c 5c"], opened={0: True})
    g2.apply(P("exchange 7h on 0; layoff JK on 1"))
    assert JOKER not in g2.hands[0] and str(g2.table[1]) == "3c 4c 5c JK(6c)"


# ----------------------------------------------------------------------------- a whole turn, atomically

def test_the_opening_is_summed_over_the_whole_play_and_layoffs_do_not_count():
    g = dealer_turn(hand="10s Js Qs 3d 3h 3c 4h 5h 6h 9c 2d Kd Kh", table=["7h 8h 9h"], opened={1: True},
                    others={1: "2c"})
    # 30 + 9 = 39 with a lay-off of 6h onto 7h 8h 9h: the lay-off does not count toward the 40
    refused(g, P("lay 10s Js Qs; lay 3d 3h 3c; layoff 6h on 0"), "§3.4.2")
    g.apply(P("lay 10s Js Qs; lay 3d 3h 3c; lay 4h 5h 6h"))  # 30 + 9 + 15 = 54
    assert g.opened[0] and [str(m) for m in g.table[1:]] == ["10s Js Qs", "3c 3d 3h", "4h 5h 6h"]


def test_an_illegal_step_refuses_the_whole_play_and_changes_nothing():
    g = dealer_turn(hand="10s Js Qs Ks 3d 3h 3c 8d 2c", table=["5h 6h 7h"], opened={1: True}, others={1: "2d"})
    refused(g, P("lay 10s Js Qs Ks; lay 3d 3h 3c; layoff 8d on 0"), "§3.2")
    refused(g, P("lay 10s Js Qs Ks; layoff 2c on 7"), "§3.4")
    refused(g, P("lay 10s Js Qs Ks Ah"), "§3.4")  # Ah is not held
    g.apply(P("lay 10s Js Qs Ks; lay 3d 3h 3c"))
    refused(g, P("lay 8d 9d 10d"), "§3.4")  # one play per turn


def test_going_out_with_and_without_a_last_discard():
    g = dealer_turn(hand="5c 6c 7c 8c", table=["10s Js Qs Ks"], opened={0: True}, others={1: "Ks 2d"})
    g.apply(P("lay 5c 6c 7c 8c"))
    r = g.results[-1]
    assert r.ending == "romme" and r.deltas == (0, -12) and g.phase == "between_hands"
    strict = dataclasses.replace(ROMME, must_discard_to_go_out=True)
    g2 = dealer_turn(strict, hand="5c 6c 7c 8c", table=["10s Js Qs Ks"], opened={0: True}, others={1: "2d"})
    refused(g2, P("lay 5c 6c 7c 8c"), "§3.4.7")
    g2.apply(P("lay 5c 6c 7c"))
    g2.apply(Discard(parse_card("8c")))
    assert g2.results[-1].ending == "romme" and g2.results[-1].deltas == (0, -2)


# ----------------------------------------------------------------------------- hand-Rommé

def test_hand_romme_condition_and_multiplier():
    hand = "As 2s 3s 4s Ah 2h 3h Ad 2d 3d Ac 2c 3c 9h"
    lays = P("lay As 2s 3s 4s; lay Ah 2h 3h; lay Ad 2d 3d; lay Ac 2c 3c")
    # someone has melded: no hand-Rommé under the default condition, so 28 cannot open
    g = dealer_turn(hand=hand, table=["10d Jd Qd"], opened={1: True}, others={1: "Kc"})
    refused(g, lays, "§3.4.2")
    own = dataclasses.replace(ROMME, hand_romme_condition="no_own_prior_melds", hand_romme_multiplier=3,
                              winner_collects_sum=True)
    g2 = dealer_turn(own, hand=hand, table=["10d Jd Qd"], opened={1: True}, others={1: "Kc"})
    g2.apply(lays)
    g2.apply(Discard(parse_card("9h")))
    r = g2.results[-1]
    assert r.ending == "hand_romme" and r.multiplier == 3 and r.deltas == (30, -30)
    # laying all but two cards is no hand-Rommé: the waiver does not apply
    g3 = dealer_turn(hand="As 2s 3s Ah 2h 3h 9c 9h 4d 5d 6d 7d 8d Kc")
    refused(g3, P("lay As 2s 3s; lay Ah 2h 3h"), "§3.4.2")


def test_hand_romme_with_all_fourteen_cards_and_no_discard():
    g = dealer_turn(hand="As 2s 3s 4s 5s Ah 2h 3h Ad 2d 3d Ac 2c 3c", others={1: "Kd 9s"})
    g.apply(P("lay As 2s 3s 4s 5s; lay Ah 2h 3h; lay Ad 2d 3d; lay Ac 2c 3c"))  # 33 points, all laid
    r = g.results[-1]
    assert r.ending == "hand_romme" and r.deltas == (0, -38) and g.hands[0] == [] and g.phase == "between_hands"
    g.check_invariants()


def test_the_invariants_catch_a_table_card_out_of_place():
    g = dealer_turn(hand="5c 6c 7c 8c 2d", table=["10s Js Qs Ks"], opened={0: True})
    g.apply(P("lay 5c 6c 7c 8c"))
    g.check_invariants()
    g.table = (g.table[0], declare(C("5c 6c 7c"), ROMME.meld_rules))  # 8c vanishes from the table
    with pytest.raises(AssertionError, match="cards not conserved"):
        g.check_invariants()
    g2 = dealer_turn(hand="5c 6c 7c 8c 2d", table=["10s Js Qs Ks"], opened={0: True})
    m = g2.table[0]
    g2.table = (dataclasses.replace(m, stands_for=m.stands_for[::-1]),)  # the same cards read backwards
    with pytest.raises(AssertionError, match="not a valid reading"):
        g2.check_invariants()


# ----------------------------------------------------------------------------- knobs of §3.6 in play

def test_knob_deal_mode_upcard_left_starts_and_hand_size_5_6p():
    g = RommeGame.new(dataclasses.replace(ROMME, deal_mode="upcard_left_starts"), 4, seed=2, dealer=1)
    assert g.phase == "turn" and g.turn == 2 and len(g.discard) == 1 and all(len(h) == 13 for h in g.hands)
    assert g.stock_size == 110 - 52 - 1
    g5 = RommeGame.new(dataclasses.replace(ROMME, hand_size_5_6p=11), 5, seed=2, dealer=0)
    assert sorted(map(len, g5.hands)) == [11, 11, 11, 11, 12] and g5.stock_size == 110 - 56


def test_knob_cut_joker_robbing():
    rules = dataclasses.replace(ROMME, cut_joker_robbing=True)
    robbed = 0
    for seed in range(60):
        g = RommeGame.new(rules, 3, seed=seed, dealer=0)
        g.check_invariants()
        if g.robbed is not None:
            robbed += 1
            # the dealer's right-hand neighbour (seat 2, who plays just before the dealer) cuts
            assert g.robbed == 2 and JOKER in g.hands[2] and len(g.hands[2]) == 14
    assert robbed >= 1
    assert all(RommeGame.new(ROMME, 3, seed=s).robbed is None for s in range(10))


def test_knob_n_jokers_and_joker_rules():
    g = RommeGame.new(dataclasses.replace(ROMME, n_jokers=2), 2, seed=1)
    assert g.PACK.size == 106 and g.stock_size == 106 - 27
    g.check_invariants()
    one = dataclasses.replace(ROMME, joker_rules="one_per_meld").meld_rules
    assert why_not_meld(C("3s JK JK 6s"), one)
    lenient = dataclasses.replace(ROMME, joker_rules="lenient").meld_rules
    assert not why_not_meld(C("JK Ah JK"), lenient) and why_not_meld(C("JK Ah JK"), ROMME.meld_rules)


def test_knob_opening_min_and_penalties():
    g = dealer_turn(dataclasses.replace(ROMME, opening_min=30), hand="10s Js Qs 2c 5d 9h")
    g.apply(P("lay 10s Js Qs"))
    assert g.opened[0]
    g50 = dealer_turn(dataclasses.replace(ROMME, opening_min=50), hand="10s Js Qs Ks 2c 5d")
    refused(g50, P("lay 10s Js Qs Ks"), "§3.4.2")
    dear = dataclasses.replace(ROMME, joker_penalty=30, ace_penalty=15)
    g2 = dealer_turn(dear, hand="5c 6c 7c", table=["10s Js Qs Ks"], opened={0: True}, others={1: "As JK Kd 5c"})
    g2.apply(P("lay 5c 6c 7c"))
    assert g2.results[-1].deltas == (0, -(15 + 30 + 10 + 5))


def _after_dealer_discard(rules, *, hand1, top, table=(), opened=None):
    """Seat 1 to draw, with ``top`` on the pile (dealt by set_position at the dealer's turn)."""
    g = RommeGame.new(rules, 2, seed=5, dealer=0)
    g.set_position(hands={0: f"{top} 2c 2d", 1: hand1}, table=table, opened=opened or {})
    g.apply(Discard(parse_card(top)))
    assert g.phase == "turn" and g.turn == 1
    return g


def test_knob_must_meld_immediately():
    rules = dataclasses.replace(ROMME, discard_pickup_rule="must_meld_immediately")
    g = _after_dealer_discard(rules, hand1="10s Js Qs 3c 7d 8h", top="9h")
    assert DRAW_DISCARD not in g.legal_actions()
    refused(g, DRAW_DISCARD, "§3.4.1")
    g2 = _after_dealer_discard(rules, hand1="10s Js Qs 3c 7d 8h", top="Ks")  # 10s Js Qs Ks = 40 opens
    g2.apply(DRAW_DISCARD)
    refused(g2, Discard(parse_card("3c")), "§3.4.1")
    refused(g2, P("lay 10s Js Qs; layoff Ks on 0"), "§3.4")
    g2.apply(P("lay 10s Js Qs Ks"))
    g2.apply(Discard(parse_card("3c")))
    assert g2.opened[1]


def test_knob_pickup_counts_for_opening():
    rules = dataclasses.replace(ROMME, pickup_counts_for_opening=False)
    g = _after_dealer_discard(rules, hand1="10s Js Qs 3c 7d 8h 9c 9d 9h", top="Ks")
    g.apply(DRAW_DISCARD)
    refused(g, P("lay 10s Js Qs Ks"), "§3.4.1")
    refused(g, P("lay 10s Js Qs Ks; lay 9c 9d 9h"), "§3.4.1")  # 27 without the meld holding Ks
    g_free = _after_dealer_discard(ROMME, hand1="10s Js Qs 3c 7d 8h 9c 9d 9h", top="Ks")
    g_free.apply(DRAW_DISCARD)
    g_free.apply(P("lay 10s Js Qs Ks"))


def test_rediscarding_the_card_taken_is_refused_unless_the_knob_allows_it():
    g = _after_dealer_discard(ROMME, hand1="10s Js Qs 3c 7d 8h", top="9h")
    g.apply(DRAW_DISCARD)
    refused(g, Discard(parse_card("9h")), "§0.5")
    g2 = _after_dealer_discard(dataclasses.replace(ROMME, may_rediscard_pickup=True), hand1="10s Js Qs 3c", top="9h")
    g2.apply(DRAW_DISCARD)
    g2.apply(Discard(parse_card("9h")))
    assert g2.discard[-1] == parse_card("9h") and g2.turn == 0


def test_knob_game_end_rotations_and_threshold():
    g = _bots_game(dataclasses.replace(ROMME, game_end="rotations:2"), 3, seed=4)
    assert len(g.results) == 6 and g.result.how == "rotations"
    assert set(g.result.winners) == {p for p in range(3) if g.scores[p] == max(g.scores)}
    t = _bots_game(dataclasses.replace(ROMME, game_end="threshold:500"), 2, seed=4, random_seat=1)
    assert min(t.scores) <= -500 and all(min(r.scores) > -500 for r in t.results[:-1])


@pytest.mark.parametrize("how", ["void_hand", "end_and_score", "reshuffle"])
def test_knob_stock_exhausted(how):
    rules = dataclasses.replace(ROMME, stock_exhausted=how)
    g = RommeGame.new(rules, 2, seed=5, dealer=0)
    hands = {0: "Kc 2c 2d", 1: "10s Js Qs 3c 7d 8h"}
    used = [c for h in hands.values() for c in parse_hand(h)]
    g.set_position(hands=hands, discard=rest_of_pack(g, used))
    assert g.stock_size == 0
    g.apply(Discard(parse_card("Kc")))
    if how == "reshuffle":
        assert g.phase == "turn" and g.can_draw_stock()
        g.apply(DRAW_STOCK)
        assert g.reshuffles == 1 and g.stock_size == 110 - 8 - 1 - 1  # all but the hands and the top
    else:
        r = g.results[-1]
        assert r.ending == "stock_exhausted"
        assert r.deltas == ((0, 0) if how == "void_hand" else (-4, -48))
    g.check_invariants()


# ----------------------------------------------------------------------------- bots, invariants, records

def _bots_game(rules, n, seed, random_seat=None, check=True):
    g = RommeGame.new(rules, n, seed=seed)
    bots = [RandomPlayer(seed=seed + s) if s == random_seat else GreedyPlayer() for s in range(n)]
    while not g.game_over:
        g.apply(bots[g.to_act].choose(g.view(g.to_act)))
        if check:
            g.check_invariants()
    return g


def test_the_bot_opens_lays_off_and_exchanges_jokers():
    g = dealer_turn(hand="10s Js Qs Ks 7h 3c 4c 9d 2h", table=["5h 6h JK(7h)"], opened={1: True},
                    others={1: "4c 4d"})
    bot = make_players("greedy,greedy", game=RommeGame)[0]
    action = bot.choose(g.view(0))
    text = str(action)
    assert text.startswith("play lay 10s Js Qs Ks") and "exchange 7h on 0" in text, text
    g.apply(action)
    assert g.opened[0] and str(g.table[0]) == "5h 6h 7h" and JOKER not in g.hands[0] and len(g.hands[0]) == 2
    g2 = dealer_turn(hand="8h 2c 9d", table=["5h 6h 7h"], opened={0: True})
    assert str(bot.choose(g2.view(0))) == "play layoff 8h on 0"


def test_bots_beat_random_and_keep_every_invariant():
    wins = 0
    for seed in range(4):
        g = _bots_game(ROMME, 2, seed, random_seat=1)
        wins += g.result.winners == (0,)
        again = replay(loads_record(dumps_record(g)))
        assert again.snapshot() == g.snapshot()
    assert wins == 4


def test_notation_round_trips_for_listed_plays():
    rng = np.random.default_rng(3)
    g = RommeGame.new(ROMME, 3, seed=9)
    bots = [RandomPlayer(rng=rng), GreedyPlayer(), RandomPlayer(rng=rng)]
    seen = 0
    for _ in range(400):
        if g.game_over:
            break
        for a in g.legal_actions():
            assert g.ACTIONS.parse(str(a)) == a, str(a)
            seen += isinstance(a, Play)
        g.apply(bots[g.to_act].choose(g.view(g.to_act)))
    assert seen > 20


def test_evaluate_play_is_pure_and_matches_the_game():
    g = dealer_turn(hand="10s Js Qs Ks 3d 3h 3c 8d 2c")
    before = g.snapshot()
    out = evaluate_play(g.table, g.hands[0], P("lay 10s Js Qs Ks; lay 3d 3h 3c").steps, ROMME, opened=False,
                        eligible=True)
    assert out.opening_value == 49 and out.opens and not out.hand_romme and g.snapshot() == before


# ----------------------------------------------------------------------------- golden playthroughs

# The cases are in tests/golden_trace.py, the committed record and readable playthrough of each in
# tests/golden/romme_*.json and romme_*.playthrough.txt; the shared checker and the one writer
# (``python tests/golden_replay.py --write``) in tests/golden_replay.py.
CASES = cases_of("romme")


def test_every_golden_case_is_there():
    assert len(CASES) == 3 and all(c["name"].startswith("romme_") for c in CASES)


@pytest.mark.parametrize("case", CASES, ids=lambda c: c["name"])
def test_golden_playthrough_replays_identically(case):
    """Replaying the record writes the committed playthrough line by line (invariants after every action)."""
    check_playthrough(case)


@pytest.mark.parametrize("case", CASES, ids=lambda c: c["name"])
def test_golden_bots_choose_the_same_actions(case):
    check_bots_choose_the_same_actions(case)


# ----------------------------------------------------------------------------- the CLI

def test_cli_simulate_romme(capsys):
    assert main(["simulate", "--variant", "romme", "--players", "greedy,random,greedy", "--games", "6", "--seed", "1",
                 "--json", "--no-progress"]) == 0
    data = json.loads(capsys.readouterr().out)
    assert data["variant"] == "romme" and abs(sum(w["estimate"] for w in data["win_rate"]) - 1) < 1e-9
    assert data["win_rate"][1]["estimate"] < 0.5 and data["hand_endings"]["romme"]["count"] >= 1


def test_cli_simulate_romme_house_rule_and_bad_input(capsys):
    assert main(["simulate", "--variant", "romme", "--players", "greedy,greedy", "--games", "2", "--seed", "2",
                 "--rules", "opening_min=30", "--json", "--no-progress"]) == 0
    assert json.loads(capsys.readouterr().out)["rules"]["opening_min"] == 30
    assert main(["simulate", "--variant", "romme", "--players", ",".join(["greedy"] * 7), "--games", "1",
                 "--no-progress"]) == 2
    err = capsys.readouterr().err
    assert "2 to 6" in err and len(err.strip().splitlines()) == 1


def test_cli_play_romme_in_the_terminal():
    out = io.StringIO()
    code = play_terminal(["human", "greedy"], seed=3, stdin=io.StringIO("play lay 7c 9c Jc\n1\n1\n1\nq\n"),
                         stdout=out, variant="romme")
    text = out.getvalue()
    assert code == 0 and "table: (no melds yet)" in text and "rules §3.2" in text and "discards" in text



def _dead_hand_game(limit: int):
    """Two opened players holding one joker each; the table holds all 104 naturals in full sets and the
    other four jokers lie in the stock and the pile: no card can ever be laid (the soak's endless hand)."""
    from rumino.cards import RANKS, SUITS

    rules = dataclasses.replace(ROMME, deal_mode="upcard_left_starts", reshuffle_limit=limit)
    g = RommeGame.new(rules, 2, seed=3, dealer=0)
    full_sets = [" ".join(f"{r}{s}" for s in SUITS) for r in RANKS] * 2
    g.set_position(hands={0: "JK", 1: "JK"}, table=full_sets, opened={0: True, 1: True}, discard="JK",
                   stock_top="JK JK JK")
    assert g.phase == "turn" and len(g.stock) == 3
    g.check_invariants()
    return g


@pytest.mark.parametrize("limit", [1, 3])
def test_s0_4_a_dead_hand_ends_after_reshuffle_limit_turn_overs_with_no_card_laid(limit):
    """The rules leave open a hand nobody can finish; the engine calls it dead after ``reshuffle_limit``
    turn-overs of the stock with nothing laid, and everyone pays his penalty (a joker: 20)."""
    g = _dead_hand_game(limit)
    bots = [GreedyPlayer(), GreedyPlayer()]
    actions = 0
    while not g.hand_over:
        seat = g.to_act
        action = bots[seat].choose(g.view(seat))
        assert action != DRAW_DISCARD, "a bot took a joker it cannot lay"
        g.apply(action)
        g.check_invariants()
        actions += 1
        assert actions < 200, "the dead hand did not end"
    r = g.results[-1]
    assert r.ending == "stock_exhausted" and "dead hand" in r.detail and f"after {limit} turn-overs" in r.detail
    assert "reshuffle_limit" not in r.detail  # the house rule's words, never its setting's name
    assert g.reshuffles == limit
    assert r.deltas == (-20, -20)


def test_the_bot_takes_a_discarded_joker_only_when_two_naturals_meld_with_it():
    """The soak's endless hand: each bot took the other's discarded (dead) joker for ever."""
    from rumino.variants.romme.bots import _joker_melds

    mr = ROMME.meld_rules
    assert _joker_melds(C("7h 9h Kc"), mr) and _joker_melds(C("5s 5d 2c"), mr)
    assert not _joker_melds(C("7h Kc"), mr) and not _joker_melds(C("JK Kc"), mr) and not _joker_melds(C("Kc"), mr)


def test_romme_laying_off_the_card_a_joker_stands_for_slides_it_and_says_so():
    g = dealer_turn(hand="7h 2c 2d Kc", table=["5h 6h JK(7h)"], opened={0: True})
    g.apply(P("layoff 7h on 0"))
    assert [str(m) for m in g.table] == ["JK(4h) 5h 6h 7h"]
    assert g.notices == [(len(g.history) - 1, "laying off 7♥ on meld 0 slides its joker to the other end: "
                                              "the joker now stands for 4♥")]
    g2 = dealer_turn(hand="8h 2c 2d Kc", table=["5h 6h JK(7h)"], opened={0: True})
    g2.apply(P("layoff 8h on 0"))  # a plain lay-off: no notice
    assert g2.notices == []


def test_romme_the_terminal_tells_of_a_joker_slide():
    from rumino.variants.romme.words import RommeNarrator
    g = dealer_turn(hand="7h 2c 2d Kc", table=["5h 6h JK(7h)"], opened={0: True})
    narrator = RommeNarrator(g, ["P0", "P1"])
    action = P("layoff 7h on 0")
    narrator.before(g, 0, action)
    g.apply(action)
    lines = narrator.after(g, 0, action)
    assert any("the joker now stands for 4♥" in line for line in lines[1:]), lines
