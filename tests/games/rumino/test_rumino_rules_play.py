"""rules §1 (Rumino) as tests: the play, scoring and rebuy facts of §1.7, and the rules of §1.1–§1.5.

Each test sets up a position with ``RuminoGame.set_position`` (every card stays
in exactly one place) and plays actions through the checked ``apply``. Tests
are named after the rules section they check.
"""

from __future__ import annotations

import dataclasses
import itertools
from collections import Counter

import pytest

from rumino.cards import JOKER, RUMINO_PACK, format_card, parse_card, parse_hand
from rumino.errors import IllegalActionError
from rumino.engine import Deal, DeclineRebuy, Discard, Draw, Gin, Join, Knock, Rebuy
from rumino.variants.rumino import (RUMINO, CallRumino, ClaimRumino, PassClaim, RuminoGame, is_rumino)

C = parse_card
KNOCK7 = "2c 3c 4c 9d 9h 9s 7d"  # deadwood 7 (rules §1.7 item 5)
KNOCK8 = "2c 3c 4c 9d 9h 9s 8d"  # deadwood 8
GIN7 = "7h 8h 9h 10h 5c 5d 5s"  # rules §1.7 item 2
JUNK = ["Ks Qc Jd 9h 7s 5c 3d", "Kc Qd Jh 9s 7c 5d 3h", "Kd Qh Js 9c 7d 5h 3s", "Kh Qs Jc 8d 7h 5s 2h",
        "Ks Qc Jd 9h 7s 5c 3d", "Kc Qd Jh 9s 7c 5d 3h"]
JUNK_DW = 54  # JUNK hands: 10+10+10+9+7+5+3 (52 for JUNK[3])


def new(n=3, *, seed=0, dealer=None, **rules) -> RuminoGame:
    """A game whose seat 0 acts first (the dealer is the last seat) unless ``dealer`` is given."""
    return RuminoGame.new(dataclasses.replace(RUMINO, **rules), n, seed=seed,
                          dealer=n - 1 if dealer is None else dealer)


def junk_for(game, but=()) -> dict:
    return {p: JUNK[p] for p in game.hand_players if p not in but}


def pass_turns_until(game: RuminoGame, seat: int) -> None:
    """Players other than ``seat`` draw from the stock and throw the drawn card back."""
    while not (game.phase == "turn" and game.to_act == seat):
        if game.phase == "claim":
            game.apply(PassClaim())
            continue
        assert game.phase == "turn", game.phase
        game.apply(Draw("stock"))
        game.apply(Discard(game.drawn))


def refused(game: RuminoGame, action, *fragments: str) -> IllegalActionError:
    """Assert that ``action`` is refused, the message names each fragment, and nothing changed."""
    before = game.snapshot()
    with pytest.raises(IllegalActionError) as info:
        game.apply(action)
    assert game.snapshot() == before
    for f in fragments:
        assert f in str(info.value), (f, str(info.value))
    game.check_invariants()
    return info.value


# ====================================================================== rules §1.7


def test_rules_1_7_1_pack_has_108_cards_and_stock_sizes():
    counts = Counter(RUMINO_PACK.cards())
    assert RUMINO_PACK.size == 108 and counts[JOKER] == 4
    assert sum(k for c, k in counts.items() if c != JOKER) == 104
    assert all(sum(counts[s * 13 + r] for s in range(4)) == 8 for r in range(13))  # 8 of each rank
    six, two = RuminoGame.new(RUMINO, 6, seed=1), RuminoGame.new(RUMINO, 2, seed=1)
    assert six.stock_size == 65 and two.stock_size == 93
    assert len(six.discard) == len(two.discard) == 1
    six.check_invariants()
    two.check_invariants()


def test_rules_1_7_2_gin_after_a_draw_scores_minus_10():
    g = new(3)
    g.set_position(hands={0: "7h 8h 9h 10h 5c 5d Kc", **junk_for(g, but=[0])}, stock_top="5s")
    g.apply(Draw("stock"))
    assert Gin(C("Kc")) in g.legal_actions()
    g.apply(Gin(C("Kc")))
    r = g.results[-1]
    assert (r.ending, r.by, r.deadwood[0]) == ("gin", 0, 0)
    assert r.deltas == (-10, JUNK_DW, JUNK_DW) and g.scores == [-10, JUNK_DW, JUNK_DW]
    assert g.discard[-1] == C("Kc") and sorted(g.hands[0]) == sorted(parse_hand(GIN7))
    g.check_invariants()


def test_rules_1_7_2_gin_in_lieu_of_drawing_scores_minus_10():
    g = new(2)
    g.set_position(hands={0: GIN7, 1: JUNK[1]})
    g.apply(Knock())
    r = g.results[-1]
    assert (r.ending, r.deltas[0]) == ("gin", -10) and "scored as gin" in r.detail


def _knock_against(hand: str, **rules) -> int:
    """Seat 0 knocks with deadwood 7; what does seat 1 holding ``hand`` score?"""
    g = new(2, **rules)
    g.set_position(hands={0: KNOCK7, 1: hand})
    g.apply(Knock())
    g.check_invariants()
    return g.results[-1].deltas[1]


def test_rules_1_7_3_same_suit_duplicates_make_a_set():
    assert _knock_against("5h 5h 5s 2c 3c 4c Kd") == 10
    assert _knock_against("5h 5h 5s 2c 3c 4c Kd", set_suits="distinct") == 25


def test_rules_1_7_4_aces_are_low_only():
    assert _knock_against("Qs Ks As 2d 3d 4d 7c") == 28


def test_rules_1_7_5_knock_at_7_allowed_at_8_refused():
    g = new(3)
    g.set_position(hands={0: KNOCK7})
    assert Knock() in g.legal_actions()
    g.apply(Knock())
    assert g.results[-1].deltas[0] == 7
    g = new(3)
    g.set_position(hands={0: KNOCK8})
    assert Knock() not in g.legal_actions()
    err = refused(g, Knock(), "cannot knock: player 0 has 8 deadwood, the limit is 7", "the start of a turn; rules §1.3")
    assert (err.player, err.phase, err.rule) == (0, "turn", "§1.3")


def test_rules_1_7_5_knock_limit_is_a_knob():
    g = new(2, knock_max_deadwood=5)
    g.set_position(hands={0: KNOCK7})
    refused(g, Knock(), "player 0 has 7 deadwood, the limit is 5")


def test_rules_1_7_6_lays_of_at_most_4_cards():
    assert _knock_against("3h 4h 5h 6h 7h Kc Kd") == 23
    assert _knock_against("3h 4h 5h 6h 7h Kc Kd", max_lay_size=None) == 20


def test_rules_1_7_7_jokers_are_wild_and_count_10_unmelded():
    assert _knock_against("JK JK 5h 9c 9d 9s 2c") == 2
    assert _knock_against("JK 2c 5d 9h Ks 7c 3s") == 10 + 2 + 5 + 9 + 10 + 7 + 3


def test_rules_1_7_8_joker_in_a_run_and_duplicate_set():
    assert _knock_against("JK 4s 6s 8d 8d 8c Ah") == 1
    assert _knock_against("JK 4s 6s 8d 8d 8c Ah", set_suits="distinct") == 19


def test_rules_1_7_9_natural_seven_of_a_kind_needs_duplicate_suits():
    distinct = dataclasses.replace(RUMINO, set_suits="distinct")
    for per_suit in itertools.product(range(3), repeat=4):  # 0–2 copies of each suit of one rank
        if sum(per_suit) != 7:
            continue
        assert sum(k == 2 for k in per_suit) >= 3
        hand = [s * 13 + 4 for s in range(4) for _ in range(per_suit[s])]
        assert is_rumino(hand, RUMINO) and not is_rumino(hand, distinct)
    # in play: the call is refused under set_suits="distinct"
    for rules, legal in ((dict(), True), (dict(set_suits="distinct"), False)):
        g = new(2, **rules)
        g.set_position(hands={0: "5h 5h 5s 5s 5d 5d Kc"}, stock_top="5c")
        g.apply(Draw("stock"))
        assert (CallRumino() in g.legal_actions()) is legal
        if not legal:
            refused(g, CallRumino(), "cannot call a rumino", "rules §1.2")


def test_rules_1_7_10_elimination_above_100():
    g = new(3)
    g.set_position(hands={0: KNOCK7, 1: "2d 3d 4d 9c 9h 9s 8d", 2: "2h 3h 4h 6c 6d 6s 7c"}, scores={1: 95, 2: 93})
    assert g.deadwood(1) == 8 and g.deadwood(2) == 7
    g.apply(Knock())
    assert g.scores == [7, 103, 100]
    assert g.in_game == [True, False, True] and g.results[-1].busted == (1,)
    g.check_invariants()


def test_rules_1_7_10_elimination_at_100_knob():
    g = new(3, elimination_at=100)
    g.set_position(hands={0: KNOCK7, 2: "2h 3h 4h 6c 6d 6s 7c"}, scores={2: 93})
    g.apply(Knock())
    assert g.scores[2] == 100 and not g.in_game[2]


def _bust_and_rebuy(g: RuminoGame, seat: int) -> None:
    """Seat ``seat`` (score 99) busts at a knock; it then rebuys and the next hand is dealt."""
    others = {p: 0 for p in g.players_in if p != seat}
    g.set_position(hands={g.to_act: KNOCK7, **({seat: JUNK[0]} if seat != g.to_act else {})},
                   scores={seat: 99, **others})
    g.apply(Knock())
    assert g.phase == "rebuy" and g.to_act == seat
    g.apply(Rebuy())
    g.check_invariants()
    g.apply(Deal())


def test_rules_1_7_11_rebuys_cost_10_20_40():
    g = new(4)  # stake 10: a rebuy doubles per player
    paid = []
    for _ in range(3):
        before = g.paid[1]
        _bust_and_rebuy(g, 1)
        paid.append(g.paid[1] - before)
    assert paid == [1000, 2000, 4000] and g.rebuys[1] == 3
    assert [RUMINO.rebuy_cost(k) for k in (1, 2, 3)] == [10, 20, 40]
    flat = new(4, rebuy_price="flat")
    costs = []
    for _ in range(3):
        before = flat.paid[1]
        _bust_and_rebuy(flat, 1)
        costs.append(flat.paid[1] - before)
    assert costs == [1000, 1000, 1000]


def test_rules_1_7_12_no_rebuy_when_the_bust_hand_started_heads_up():
    for others_needed in (2, 1):  # even when one other player is enough
        g = new(2, rebuy_requires_others=others_needed)
        g.set_position(hands={0: KNOCK7, 1: JUNK[1]}, scores={1: 99})
        g.apply(Knock())
        assert g.game_over and g.result.winners == (0,) and g.result.how == "last_player"
        refused(g, Rebuy(), "the game is over")


def test_rules_1_7_12_no_rebuy_when_only_one_other_player_remains():
    g = new(3)
    g.set_position(hands={0: KNOCK7, 1: JUNK[1], 2: JUNK[2]}, scores={1: 99, 2: 99})
    g.apply(Knock())
    assert g.game_over and g.result.winners == (0,)
    # with the knob at one other player, the same hand offers both a rebuy
    g = new(3, rebuy_requires_others=1)
    g.set_position(hands={0: KNOCK7, 1: JUNK[1], 2: JUNK[2]}, scores={1: 99, 2: 99})
    g.apply(Knock())
    assert g.phase == "rebuy" and g.rebuy_queue == [1, 2]


def test_rules_1_7_13_knock_ends_the_hand_and_the_knocker_scores_own_deadwood():
    g = new(4)
    g.set_position(hands={0: KNOCK7, **junk_for(g, but=[0])})
    n_actions = len(g.history)
    g.apply(Knock())
    assert g.hand_over and g.phase == "between_hands"
    assert len(g.history) == n_actions + 1  # nobody else acted
    assert g.results[-1].deltas == (7, JUNK_DW, JUNK_DW, 52)
    assert g.legal_actions() == [Deal()]
    refused(g, Draw("stock"), "the hand is over")


# ====================================================================== §1.1 deal and turns


def _counting_cards(draws):
    """Each seat's card that counts in one round of the draw for dealer: its last one."""
    return dict(draws)


def test_rules_1_1_first_dealer_is_the_high_card_king_high_jokers_and_ties_redraw():
    seen_tie = seen_joker = False
    for seed in range(300):
        g = RuminoGame.new(RUMINO, 5, seed=seed)
        rounds = g.first_dealer_draws
        drawing = list(range(5))
        for i, draws in enumerate(rounds):
            # everyone in the round draws once, in seat order; then each joker is replaced
            assert [p for p, _ in draws[:len(drawing)]] == drawing
            jokers = [p for p, c in draws if c == JOKER]
            assert sorted(p for p, _ in draws[len(drawing):]) == sorted(jokers)
            seen_joker = seen_joker or bool(jokers)
            held = _counting_cards(draws)
            assert JOKER not in held.values() and sorted(held) == drawing
            top = max(c % 13 for c in held.values())
            leaders = [p for p, c in held.items() if c % 13 == top]
            if i < len(rounds) - 1:
                assert len(leaders) > 1  # a redraw only after a tie for high
                drawing = leaders
                seen_tie = True
            else:
                assert leaders == [g.dealer]
    assert seen_tie and seen_joker
    # king beats queen; ace is lowest
    g = RuminoGame.new(RUMINO, 2, seed=0)
    last = dict(g.first_dealer_draws[-1])
    assert last[g.dealer] % 13 > last[1 - g.dealer] % 13


def test_rules_1_1_a_joker_drawn_for_dealer_is_redrawn():
    """Seed 43, four players: seat 3 draws a joker, draws again, gets K♥ and deals (the ten of
    seat 0 would have dealt had the joker merely lost)."""
    g = RuminoGame.new(RUMINO, 4, seed=43)
    (draws,) = g.first_dealer_draws
    assert [(p, format_card(c)) for p, c in draws] == [(0, "10h"), (1, "4s"), (2, "As"), (3, "JK"), (3, "Kh")]
    assert g.dealer == 3 and g.turn == 0
    assert g.hand_number == 1


def test_rules_1_1_several_jokers_drawn_for_dealer_are_each_redrawn():
    # two players draw a joker: each draws again, in seat order, from the same spread
    g = RuminoGame.new(RUMINO, 4, seed=86)
    (draws,) = g.first_dealer_draws
    assert [(p, format_card(c)) for p, c in draws] == [
        (0, "JK"), (1, "3d"), (2, "JK"), (3, "6h"), (0, "Ac"), (2, "4h")]
    assert g.dealer == 3
    # a replacement that is a joker again is replaced again; the king it ends on ties, so the
    # two kings draw again from a fresh shuffle
    g = RuminoGame.new(RUMINO, 2, seed=126)
    assert [[(p, format_card(c)) for p, c in r] for r in g.first_dealer_draws] == [
        [(0, "Ks"), (1, "JK"), (1, "JK"), (1, "Kd")], [(0, "7d"), (1, "8c")]]
    assert g.dealer == 1
    # in a redraw after a tie, both tied players draw jokers: both draw again
    g = RuminoGame.new(RUMINO, 2, seed=74)
    assert [[(p, format_card(c)) for p, c in r] for r in g.first_dealer_draws] == [
        [(0, "5h"), (1, "5d")], [(0, "JK"), (1, "JK"), (0, "5h"), (1, "7h")]]
    assert g.dealer == 1


def test_rules_1_1_the_draws_for_dealer_record_every_card_drawn():
    """Each round is one fresh shuffle; its draws are that shuffle's top cards in order, jokers
    and their replacements included, and nothing else uses the generator before the deal."""
    import numpy as np

    from rumino.variants.rumino import PACK

    pack = np.array(PACK.cards(), dtype=np.int64)
    n_jokers = 0
    for n in (2, 4, 6):
        for seed in range(120):
            g = RuminoGame.new(RUMINO, n, seed=seed)
            rng = np.random.default_rng(seed)
            for draws in g.first_dealer_draws:
                order = rng.permutation(pack).tolist()
                assert [c for _, c in draws] == order[:len(draws)]
                n_jokers += sum(c == JOKER for _, c in draws)
            # the deal comes from the generator's next shuffle
            after = RuminoGame.new(RUMINO, n, rng=rng, dealer=g.dealer)
            assert after.hands == g.hands and after.discard == g.discard
    assert n_jokers > 20


def test_rules_1_1_a_draw_for_dealer_without_jokers_is_plain_high_card():
    """Seeds whose draw holds no joker keep their games: the dealer, the draws and the state of
    the generator after them are those of plain high card with ties redrawn."""
    import numpy as np

    from rumino.engine.table import draw_for_dealer
    from rumino.variants.rumino import PACK

    def plain_high_card(rng, pack, seats):
        drawing, rounds = list(seats), []
        while True:
            order = rng.permutation(pack)
            draws = tuple((p, int(order[i])) for i, p in enumerate(drawing))
            rounds.append(draws)
            top = max(c % 13 for _, c in draws)
            drawing = [p for p, c in draws if c % 13 == top]
            if len(drawing) == 1:
                return drawing[0], tuple(rounds)

    pack = np.array(PACK.cards(), dtype=np.int64)
    checked = 0
    for n in (2, 3, 4, 5, 6):
        for seed in range(150):
            mine, plain = np.random.default_rng(seed), np.random.default_rng(seed)
            dealer, rounds = draw_for_dealer(mine, pack, range(n))
            if any(c == JOKER for r in rounds for _, c in r):
                continue
            assert (dealer, rounds) == plain_high_card(plain, pack, range(n))
            assert mine.bit_generator.state == plain.bit_generator.state
            checked += 1
    assert checked > 600


def test_rules_1_1_seven_cards_each_dealt_one_at_a_time_from_the_dealers_left():
    import numpy as np

    from rumino.variants.rumino import PACK

    _PACK_ARRAY = np.array(PACK.cards(), dtype=np.int64)

    for n, dealer in ((2, 0), (4, 2), (6, 5)):
        g = RuminoGame.new(RUMINO, n, seed=9, dealer=dealer)
        order = np.random.default_rng(9).permutation(_PACK_ARRAY).tolist()
        seats = [(dealer + 1 + i) % n for i in range(n)]
        for i, p in enumerate(seats):
            assert g.hands[p] == order[i:7 * n:n]  # card i, i+n, i+2n …: one at a time round the table
        assert g.discard == [order[7 * n]]  # the upcard
        assert g.stock[-1] == order[7 * n + 1]  # the next card is the top of the stock
        assert g.to_act == seats[0]  # the dealer's left plays first


def test_rules_1_1_play_is_clockwise_and_the_deal_passes_left():
    from rumino.engine import play
    from rumino.players import GreedyPlayer

    g = RuminoGame.new(RUMINO, 4, seed=21)
    dealers = [g.dealer]
    order: list[list[int]] = [[]]

    def after(game, seat, action):
        if action.word == "draw" or action.word == "knock":
            order[-1].append(seat)
        if action.word == "deal":
            dealers.append(game.dealer)
            order.append([])

    play(g, [GreedyPlayer()] * 4, after=after)
    for k, (dealer, turns) in enumerate(zip(dealers, order)):
        players = g.results[k].players
        assert players[0] == next(p for p in [(dealer + i) % 4 for i in range(1, 5)] if p in players)
        assert turns == [players[i % len(players)] for i in range(len(turns))]
    for k in range(1, len(dealers)):  # the next dealer is the next player still in, to the left
        still_in = g.results[k].players
        assert dealers[k] == next(p for p in [(dealers[k - 1] + i) % 4 for i in range(1, 5)] if p in still_in)


def test_rules_1_1_the_winner_deals_the_next_game():
    from rumino.engine import play
    from rumino.players import GreedyPlayer

    g = play(RuminoGame.new(RUMINO, 3, seed=4), [GreedyPlayer()] * 3)
    nxt = g.next_game(seed=5)
    assert nxt.dealer == g.result.winners[0] and nxt.initial_dealer == g.result.winners[0]
    assert nxt.pool == 3 * 1000 and nxt.hand_number == 1


# ====================================================================== §1.3 turns, gin, rumino, claims


def test_rules_0_5_the_card_taken_from_the_discard_pile_may_not_go_back():
    g = new(2)
    g.set_position(hands={0: "7h 8h 9h 10h 5c 5d Kc"}, discard="Qd 5s")
    g.apply(Draw("discard"))
    assert Discard(C("5s")) not in g.legal_actions()
    refused(g, Discard(C("5s")), "5s was just taken from the discard pile", "rules §0.5")
    assert Gin(C("Kc")) in g.legal_actions()
    g2 = new(2, pickup_bars_twin=True)
    g2.set_position(hands={0: "7h 8h 9h 10h 5c 5d 5s"}, discard="Qd 5s")
    g2.apply(Draw("discard"))  # two identical 5s and the twin barred too: neither may go back (D3)
    refused(g2, Discard(C("5s")), "rules §0.5")
    refused(g2, Gin(C("5s")), "rules §0.5")
    g4 = new(2)  # the default bars only the card taken: its twin may go, with a gin too
    g4.set_position(hands={0: "7h 8h 9h 10h 5c 5d 5s"}, discard="Qd 5s")
    g4.apply(Draw("discard"))
    assert Discard(C("5s")) in g4.legal_actions() and Gin(C("5s")) in g4.legal_actions()
    g3 = new(2, may_rediscard_pickup=True)
    g3.set_position(hands={0: "7h 8h 9h 10h 5c 5d Kc"}, discard="Qd 5s")
    g3.apply(Draw("discard"))
    g3.apply(Discard(C("5s")))
    assert g3.discard[-1] == C("5s")


def test_rules_1_3_knock_is_only_in_lieu_of_drawing():
    g = new(2)
    g.set_position(hands={0: KNOCK7}, stock_top="Kc")
    g.apply(Draw("stock"))
    refused(g, Knock(), "cannot knock", "player 0 has drawn", "after the draw;")
    refused(g, Draw("stock"), "cannot draw", "after the draw;")


def test_rules_1_3_gin_needs_zero_deadwood_after_the_discard():
    g = new(2)
    g.set_position(hands={0: KNOCK7}, stock_top="Kc")
    g.apply(Draw("stock"))
    refused(g, Gin(C("Kc")), "cannot go gin", "7 deadwood", "rules §1.2")
    refused(g, Discard(C("Ah")), "player 0 does not hold Ah")


def test_rules_1_3_a_rumino_after_a_draw_wins_the_game_and_the_pool():
    g = new(3)
    g.set_position(hands={0: "3h 4h 5h 6h 7h 8h Kc"}, stock_top="9h")
    g.apply(Draw("stock"))
    assert CallRumino() in g.legal_actions()
    g.apply(CallRumino())
    assert g.game_over and g.result.how == "rumino" and g.result.winners == (0,)
    assert g.result.payouts_cents == (3000, 0, 0) and g.scores == [0, 0, 0]
    assert sorted(g.results[-1].rumino) == sorted(parse_hand("3h 4h 5h 6h 7h 8h 9h"))
    refused(g, Rebuy(), "the game is over")
    g.check_invariants()


def test_rules_1_3_seven_of_a_kind_with_jokers_is_a_rumino_unless_natural_only():
    for natural_only in (False, True):
        g = new(2, rumino_natural_only=natural_only)
        g.set_position(hands={0: "Qh Qh Qs Qd Qc JK Kc"}, stock_top="JK")
        g.apply(Draw("stock"))
        assert (CallRumino() in g.legal_actions()) is not natural_only


CLAIM_JUNK = "Ks Qc Jd 9c 7s 5c 2d"  # no hearts: seats 1 and 2 hold both copies of 3h–8h


def _claim_table(**rules) -> RuminoGame:
    """Seat 0 will discard 9h, which completes a rumino for seats 1 and 2 (seat 3 cannot use it)."""
    g = new(4, **rules)
    g.set_position(hands={0: "9h Ks Qc Jd 7s 5c 3d", 1: "3h 4h 5h 6h 7h 8h Kc", 2: "3h 4h 5h 6h 7h 8h Kd",
                          3: CLAIM_JUNK}, stock_top="2s")
    g.apply(Draw("stock"))
    g.apply(Discard(C("9h")))
    return g


def test_rules_1_3_out_of_turn_claim_nearest_the_discarders_left_wins():
    g = _claim_table()
    assert g.phase == "claim" and g.claim_queue == [1, 2] and g.to_act == 1
    assert g.view(1).claim_card == C("9h") and g.view(2).claim_card is None
    refused(g, Discard(C("Kc")), "cannot discard", "the discard may be claimed;")
    g.apply(ClaimRumino())
    assert g.game_over and g.result.winners == (1,) and C("9h") in g.hands[1]
    g.check_invariants()
    g = _claim_table()
    g.apply(PassClaim())
    assert g.to_act == 2
    g.apply(ClaimRumino())
    assert g.result.winners == (2,) and g.result.how == "rumino"
    g = _claim_table()
    g.apply(PassClaim())
    g.apply(PassClaim())
    assert g.phase == "turn" and g.to_act == 1  # play goes on


def test_rules_1_3_first_to_call_claims_race_is_a_chance_event():
    winners = set()
    for seed in range(12):
        g = RuminoGame.new(dataclasses.replace(RUMINO, out_of_turn_claim_priority="first_to_call"), 4,
                           seed=seed, dealer=3)
        g.set_position(hands={0: "9h Ks Qc Jd 7s 5c 3d", 1: "3h 4h 5h 6h 7h 8h Kc", 2: "3h 4h 5h 6h 7h 8h Kd",
                              3: CLAIM_JUNK}, stock_top="2s")
        g.apply(Draw("stock"))
        g.apply(Discard(C("9h")))
        g.apply(ClaimRumino())
        assert g.phase == "claim" and g.to_act == 2  # the second claimant is still asked
        g.apply(ClaimRumino())
        winners.add(g.result.winners)
    assert winners == {(1,), (2,)}


def test_rules_1_3_a_gin_may_not_be_claimed_out_of_turn():
    g = new(3)
    g.set_position(hands={0: "5s Ks Qc Jd 7s 5c 3d", 1: "7h 8h 9h 10h 5c 5d Kc", 2: JUNK[2]}, stock_top="2s")
    g.apply(Draw("stock"))
    g.apply(Discard(C("5s")))  # 5s would give seat 1 a gin, not a rumino
    assert g.phase == "turn" and g.to_act == 1


def test_rules_1_3_no_claim_on_the_discard_of_a_gin():
    g = new(3)
    g.set_position(hands={0: "7h 8h 9h 10h 5c 5d 9s", 1: "3s 4s 5s 6s 7s 8s Kc", 2: JUNK[2]}, stock_top="5s")
    g.apply(Draw("stock"))
    g.apply(Gin(C("9s")))  # 9s would complete seat 1's rumino, but the hand stops at once (D2)
    assert g.results[-1].ending == "gin" and g.phase == "between_hands"


def test_rules_1_3_knock_at_zero_is_gin_knob():
    g = new(2, knock_zero_is_gin=False)
    g.set_position(hands={0: GIN7})
    g.apply(Knock())
    r = g.results[-1]
    assert (r.ending, r.deltas[0]) == ("knock", 0)


def test_rules_1_4_gin_bonus_knob():
    g = new(2, gin_bonus=-25)
    g.set_position(hands={0: GIN7})
    g.apply(Knock())
    assert g.scores[0] == -25


def test_rules_1_4_no_undercut_penalty_by_default_and_the_knob():
    for penalty, expected in ((0, 7), (10, 17)):
        g = new(2, knock_undercut_penalty=penalty)
        g.set_position(hands={0: KNOCK7, 1: "2d 3d 4d 8c 8h 8s 5h"})
        g.apply(Knock())
        r = g.results[-1]
        assert r.deltas == (expected, 5) and r.undercut


def _exhaust(g: RuminoGame) -> None:
    """Everyone draws from the stock and throws the card back until the stock runs out."""
    while g.phase in ("turn", "claim") and g.stock:
        if g.phase == "turn":
            g.apply(Draw("stock"))
            g.apply(Discard(g.drawn))
        elif g.phase == "claim":
            g.apply(PassClaim())


def test_rules_0_4_stock_exhausted_reshuffles_the_discards_by_default():
    g = new(2)
    g.set_position(hands={0: JUNK[0], 1: JUNK[1]})
    _exhaust(g)
    assert g.phase == "turn" and not g.stock
    pile = list(g.discard)
    g.apply(Draw("stock"))
    assert g.discard == [pile[-1]] and len(g.stock) == len(pile) - 2  # all but the top, minus the card drawn
    assert sorted(g.stock + [g.drawn]) == sorted(pile[:-1])
    g.check_invariants()


def test_rules_0_4_stock_exhausted_void_hand_and_end_and_score():
    for mode in ("void_hand", "end_and_score"):
        g = new(2, stock_exhausted=mode)
        g.set_position(hands={0: JUNK[0], 1: JUNK[1]})
        _exhaust(g)
        r = g.results[-1]
        assert r.ending == "stock_exhausted" and r.by is None
        if mode == "void_hand":
            assert r.deltas == (0, 0) and g.scores == [0, 0] and r.hands == {}
        else:
            assert r.deltas == r.deadwood and g.scores == list(r.deadwood)
        assert g.phase == "between_hands"
        g.check_invariants()


# ====================================================================== §1.4 triple gin, §1.5 the game


def _gin_hand(g: RuminoGame, seat: int) -> None:
    g.set_position(hands={seat: GIN7, **{p: JUNK[p] for p in g.hand_players if p != seat}},
                   scores={p: 0 for p in g.players_in if p != seat})
    pass_turns_until(g, seat)
    g.apply(Knock())  # 0 deadwood: scored as gin


def test_rules_1_4_three_gins_in_the_first_three_hands_win():
    g = new(3)
    for hand in range(3):
        _gin_hand(g, 1)
        if hand < 2:
            assert g.phase == "between_hands"
            g.apply(Deal())
    assert g.game_over and g.result.how == "triple_gin" and g.result.winners == (1,)
    assert g.result.payouts_cents[1] == 3000
    off = new(3, triple_gin_wins=False)
    for _ in range(3):
        _gin_hand(off, 1)
        off.apply(Deal())
    assert not off.game_over and off.hand_number == 4


def test_rules_1_4_triple_gin_needs_the_same_player_in_hands_1_to_3():
    g = new(3)
    for seat in (1, 1, 2):
        _gin_hand(g, seat)
        g.apply(Deal())
    assert not g.game_over


def test_rules_1_5_rebuy_re_enters_at_the_highest_score_still_in():
    g = new(4)
    g.set_position(hands={0: KNOCK7, 1: JUNK[1], 2: "2d 3d 4d 8c 8h 8s 5h", 3: JUNK[3]},
                   scores={1: 99, 2: 60, 3: 20})
    g.apply(Knock())
    assert g.scores == [7, 153, 65, 72] and g.phase == "rebuy" and g.rebuy_score == 72
    v = g.view(1)
    assert v.rebuy_price_cents == 1000 and v.rebuy_score == 72 and v.legal_actions == [Rebuy(), DeclineRebuy()]
    g.apply(Rebuy())
    assert g.scores[1] == 72 and g.in_game[1] and g.pool == 5000 and g.phase == "between_hands"
    g.check_invariants()


def test_rules_1_5_declining_a_rebuy_leaves_the_player_out():
    g = new(4)
    g.set_position(hands={0: KNOCK7}, scores={1: 99})
    g.apply(Knock())
    g.apply(DeclineRebuy())
    assert not g.in_game[1] and g.phase == "between_hands"
    g.apply(Deal())
    assert g.hands[1] == [] and 1 not in g.hand_players
    g.check_invariants()


def test_rules_1_5_the_last_player_in_takes_the_whole_pool():
    g = new(3)
    g.set_position(hands={0: KNOCK7}, scores={1: 99, 2: 99})
    g.apply(Knock())
    assert g.result.winners == (0,) and g.result.payouts_cents == (3000, 0, 0) and g.pool == 0
    assert g.received == [3000, 0, 0] and sum(g.paid) == 3000


def test_rules_1_5_everyone_busts_the_lowest_score_wins_and_ties_split_to_the_cent():
    g = new(4, stake=1)  # a pool of 400 cents split three ways: 134 + 133 + 133
    g.set_position(hands={0: KNOCK7, 1: "2c 3c 4c 9d 9h 9s 5d", 2: "2d 3d 4d 8c 8h 8s 4h", 3: JUNK[3]},
                   scores={0: 95, 1: 97, 2: 98, 3: 99})
    g.apply(Knock())
    assert g.scores == [102, 102, 102, 151]
    assert g.result.how == "lowest_score" and g.result.winners == (0, 1, 2)
    assert g.result.payouts_cents == (134, 133, 133, 0) and g.result.next_dealer == 0
    g.check_invariants()
    # the odd cent goes to the tied winner nearest the dealer's left (D10)
    g = new(4, stake=1, dealer=0)
    g.set_position(hands={1: KNOCK7, 2: "2c 3c 4c 9d 9h 9s 5d", 3: "2d 3d 4d 8c 8h 8s 4h", 0: JUNK[3]},
                   scores={1: 95, 2: 97, 3: 98, 0: 99})
    g.apply(Knock())
    assert g.result.winners == (1, 2, 3) and g.result.payouts_cents == (0, 134, 133, 133)


def test_rules_1_5_a_new_player_joins_between_hands_at_the_highest_score_for_the_stake():
    g = new(3)
    g.set_position(hands={0: KNOCK7, 1: "2d 3d 4d 8c 8h 8s 5h", 2: JUNK[2]})
    refused(g, Join(), "cannot join", "only between hands", "rules §1.5")
    g.apply(Knock())
    assert g.table_actions() == [Join()]
    g.apply(Join())
    assert g.n_seats == 4 and g.scores == [7, 5, 54, 54] and g.paid[3] == 1000 and g.pool == 4000
    assert g.to_act == g.next_dealer  # a join does not take anyone's turn
    g.apply(Deal())
    assert 3 in g.hand_players and len(g.hands[3]) == 7
    g.check_invariants()
    off = new(3, allow_new_entrants=False)
    off.set_position(hands={0: KNOCK7})
    off.apply(Knock())
    assert off.table_actions() == []
    refused(off, Join(), "allow_new_entrants=False")


def test_rules_1_5_at_most_six_seats():
    g = new(5)
    g.set_position(hands={0: KNOCK7}, scores={p: 0 for p in range(1, 5)})
    g.apply(Knock())
    g.apply(Join())
    refused(g, Join(), "all 6 chairs are taken")


def test_rules_1_5_no_rebuy_after_a_rumino():
    g = new(4)
    g.set_position(hands={0: "3h 4h 5h 6h 7h 8h Kc"}, stock_top="9h", scores={1: 99})
    g.apply(Draw("stock"))
    g.apply(CallRumino())
    assert g.game_over and g.results[-1].busted == ()
    refused(g, Rebuy(), "the game is over")


def test_rules_1_6_every_knob_is_a_field_with_its_default():
    from rumino.engine.knobs import knob_table
    from rumino.variants.rumino import RuminoRules

    defaults = {row["name"]: row["default"] for row in knob_table(RuminoRules)}
    table_1_6 = {"max_lay_size": 4, "set_suits": "any", "ace": "low", "min_naturals_per_lay": 1,
                 "rumino_natural_only": False, "knock_max_deadwood": 7, "knock_zero_is_gin": True,
                 "gin_bonus": -10, "knock_undercut_penalty": 0, "elimination_at": 101, "rebuy_price": "doubling",
                 "rebuy_requires_others": 2, "out_of_turn_claim_priority": "nearest_left",
                 "stock_exhausted": "reshuffle", "triple_gin_wins": True}
    for name, default in table_1_6.items():
        assert defaults[name] == default and getattr(RUMINO, name) == default, name
    assert defaults["may_rediscard_pickup"] is False and defaults["stake"] == 10  # §0.5 and §1.5


def test_rules_1_3_claim_only_when_the_discard_completes_a_rumino_not_already_held():
    # seat 1 already holds a rumino (he calls it on his own turn); seat 2 needs 8s for one
    g = RuminoGame.new(RUMINO, 3, seed=4, dealer=2)
    g.set_position(hands={0: "8s Kd Qc 2d 5c 9d Jh", 1: "3h 4h 5h 6h 7h 8h 9h", 2: "2s 3s 4s 5s 6s 7s Kc"},
                   stock_top="Qh")
    g.apply(Draw("stock"))
    g.apply(Discard(C("8s")))
    assert g.phase == "claim" and g.claim_queue == [2]  # not seat 1: no claim of a card he does not need
    g.apply(PassClaim())
    assert g.phase == "turn" and g.to_act == 1
    # a discard nobody needs opens no claim window, even with a rumino held at the table
    g2 = RuminoGame.new(RUMINO, 3, seed=4, dealer=2)
    g2.set_position(hands={0: "8c Kd Qc 2d 5c 9d Jh", 1: "3h 4h 5h 6h 7h 8h 9h", 2: "2s 3s 4s 5s 6s 7s Kc"},
                    stock_top="Qh")
    g2.apply(Draw("stock"))
    g2.apply(Discard(C("8c")))
    assert g2.phase == "turn" and g2.to_act == 1
    g2.apply(Draw("stock"))
    assert CallRumino() in g2.legal_actions()  # he calls it on his own turn (D11)


def test_rules_1_5_a_chair_frees_when_a_player_goes_out_and_does_not_rebuy():
    g = RuminoGame.new(RUMINO, 6, seed=8, dealer=5)
    g.set_position(hands={0: "2c 3c 4c 9d 9h 9s 7d", 5: "Kc Qd Js 9c 7s 5h 3d"}, scores={5: 100})
    assert g.table_actions() == []  # six players in: no free chair
    g.apply(Knock())
    assert g.phase == "rebuy" and g.rebuy_queue == [5]
    g.apply(DeclineRebuy())
    assert g.phase == "between_hands" and g.n_seats == 6 and len(g.players_in) == 5
    assert g.table_actions() == [Join()]  # seat 5's chair is free
    g.apply(Join())
    assert g.n_seats == 7 and len(g.players_in) == 6 and g.scores[6] == max(g.scores[p] for p in range(6)
                                                                           if g.in_game[p])
    assert g.table_actions() == []
    refused(g, Join(), "all 6 chairs are taken", "rules §1.5")
    g.check_invariants()
