"""Gin matches against OpenSpiel's bots (rumino.tournament.openspiel_gin): the same deals in both engines,
seats swapped, every action applied to both and checked, every hand scored by rules §6.

OpenSpiel comes from the ``pyspiel`` fixture (tests/conftest.py): outside CI a missing OpenSpiel skips
these tests; CI sets RUMINO_REQUIRE_ORACLES=1 and a missing one is an error there.
"""

from __future__ import annotations

import sys

import pytest

from rumino.tournament import openspiel_gin as og

TIMES = ("our_seconds_per_decision", "their_seconds_per_decision")


def without_times(result: dict) -> dict:
    return {k: v for k, v in result.items() if k not in TIMES}


def test_greedy_against_the_simple_bot_adds_up_and_replays(pyspiel):
    r = og.match_against_openspiel("greedy", "simple", deals=10, seed=5)
    assert r["deals"] == 10 and r["hands"] == 20
    assert r["wins"] + r["losses"] + r["ties"] == r["hands"]
    assert r["ties"] == r["endings"].get("void", 0)  # only a void hand is a tie under §6
    assert sum(r["endings"].values()) == r["hands"]
    assert r["share"] == pytest.approx((r["wins"] + r["ties"] / 2) / r["hands"])
    lo, hi = r["share_ci95"]
    assert 0 <= lo <= r["share"] <= hi <= 1
    lo, hi = r["points_ci95"]
    assert lo <= r["points_per_hand"] <= hi
    assert r["our_decisions"] > 0 and r["their_decisions"] > 0 and r["their_seconds_per_decision"] > 0
    # deterministic: the same figures again (the clock aside)
    assert without_times(og.match_against_openspiel("greedy", "simple", deals=10, seed=5)) == without_times(r)


def test_a_deal_is_the_same_cards_for_both_seats_and_its_points_are_zero_sum(pyspiel):
    a, b = og.play_deal("greedy", "simple", 5, 3)
    assert (a["seat"], b["seat"]) == (0, 1)
    for rec in (a, b):
        ours = rec["seat"]
        assert rec["points"] == rec["gains"][ours] - rec["gains"][1 - ours]
        assert rec["outcome"] == (1.0 if rec["points"] > 0 else 0.0 if rec["points"] < 0 else 0.5)


@pytest.mark.parametrize("seed, index, seat, ending, what", [
    (5, 28, 0, "void", "a void hand at the wall: a tie"),
    (5, 55, 1, "gin", "a gin: no lay-offs"),
    (5, 24, 0, "knock", "equal deadwood: a §6 undercut, 0 in OpenSpiel"),
    (3, 19, 1, "knock", "the bot's move our engine forbids (§0.5), replaced by greedy's"),
])
def test_every_kind_of_hand_is_bridged(pyspiel, seed, index, seat, ending, what):
    """Seeded deals found in 60-deal runs of seeds 3 and 5, one for each case the bridge treats apart."""
    rec = og.play_deal("greedy", "simple", seed, index)[seat]
    assert rec["ending"] == ending, what
    if ending == "void":
        assert rec["outcome"] == 0.5 and rec["gains"] == (0, 0)
    if "equal" in what:
        assert rec["equal_deadwood"] and max(rec["gains"]) == 25  # the undercut bonus alone
    if "replaced" in what:
        assert rec["replaced"] == {"not_legal_in_ours": 1}
    else:
        assert rec["replaced"] == {}


def test_chunks_in_any_order_give_the_same_figures(pyspiel):
    whole = og.match_against_openspiel("greedy", "simple", deals=4, seed=2)
    records = []
    for i in (3, 1, 2, 0):  # as workers might hand their chunks back
        records += og.play_deal("greedy", "simple", 2, i)
    assert without_times(og.summarize(records, our_spec="greedy", their="simple", seed=2)) == without_times(whole)


def test_ismcts_plays_through_the_bridge(pyspiel):
    """OpenSpiel's C++ ISMCTS does not replay from its seed (it breaks ties among children in the order
    of a hash map), so only the bookkeeping is checked here, not a replay."""
    r = og.match_against_openspiel("greedy", "ismcts:8", deals=1, seed=4)
    assert r["hands"] == 2 and r["wins"] + r["losses"] + r["ties"] == 2 and r["their_decisions"] > 0
    r = og.match_against_openspiel("greedy", "ismcts", deals=1, seed=4, simulations=8)
    assert r["theirs"] == "ismcts" and r["hands"] == 2


def test_the_bridge_catches_engines_that_disagree(pyspiel):
    from rumino.playing.seeding import new_table

    game, _ = new_table("gin", ["greedy", "greedy"], 1, 0, rules=og.RULES, dealer=og.DEALER)
    bridge = og._Bridge(pyspiel, pyspiel.load_game("gin_rummy", og.OPENSPIEL_PARAMS), game)
    game.hands[0][0], game.stock[-1] = game.stock[-1], game.hands[0][0]  # a card that is not OpenSpiel's
    with pytest.raises(AssertionError, match="hands differ"):
        bridge.check_same()


def test_a_knock_openspiel_refuses_becomes_a_discard_of_the_same_card(pyspiel):
    """5h 6s 3c-6c 3d-6d 2h 2c: after the best discard 9 deadwood, so rules §6 let us knock; OpenSpiel's
    11-card deadwood says 11 and it has no knock. The bridge discards the same card instead, and counts it."""
    from collections import Counter

    from rumino.cards import format_hand
    from rumino.engine.actions import DRAW_DISCARD, Discard, KnockWith
    from rumino.playing.seeding import new_table

    eleven = [5, 14, 16, 17, 18, 28, 29, 30, 31, 40, 43]
    assert pyspiel.gin_rummy.GinRummyUtils(13, 4, 10).min_deadwood(eleven) == 11
    game, _ = new_table("gin", ["greedy", "greedy"], 1, 0, rules=og.RULES, dealer=og.DEALER)
    game.set_position(hands={0: format_hand([c for c in eleven if c != 14])}, discard=format_hand([14]))
    bridge = og._Bridge(pyspiel, pyspiel.load_game("gin_rummy", og.OPENSPIEL_PARAMS), game)
    bridge.play(DRAW_DISCARD)  # seat 0 takes the upcard 2c
    knock = next(a for a in game.legal_actions() if isinstance(a, KnockWith))
    replaced = Counter()
    move = bridge.common(knock, replaced)
    assert move == Discard(knock.card) and replaced == {"knock_refused_by_openspiel": 1}
    bridge.play(move)  # both engines take the discard and stay in step
    assert game.phase == "turn" and game.to_act == 1


def test_a_fiftieth_upcard_draw_becomes_a_stock_draw(pyspiel):
    """OpenSpiel ends a deal unscored at its 50th upcard draw; the bridge draws from the stock instead."""
    from collections import Counter

    from rumino.engine.actions import DRAW_DISCARD, DRAW_STOCK, Discard
    from rumino.playing.seeding import new_table
    from rumino.variants.gin import PASS

    game, _ = new_table("gin", ["greedy", "greedy"], 1, 0, rules=og.RULES, dealer=og.DEALER)
    bridge = og._Bridge(pyspiel, pyspiel.load_game("gin_rummy", og.OPENSPIEL_PARAMS), game)
    for move in (PASS, PASS, DRAW_STOCK):
        bridge.play(move)
    bridge.play(next(a for a in game.legal_actions() if isinstance(a, Discard)))
    replaced = Counter()
    assert bridge.common(DRAW_DISCARD, replaced) == DRAW_DISCARD and not replaced
    bridge.upcard_draws = og.UPCARD_DRAW_LIMIT - 1
    assert bridge.common(DRAW_DISCARD, replaced) == DRAW_STOCK and replaced == {"upcard_draw_limit": 1}
    bridge.play(DRAW_STOCK)
    assert game.phase == "discard" and not bridge.state.is_terminal()


def test_bad_specs_are_refused():
    for bad in ("mcts", "ismcts:0", "ismcts:x", "simple:3", "ismcts"):
        with pytest.raises(ValueError, match="simple|simulations"):
            og.parse_their(bad)
    with pytest.raises(ValueError, match="asks for 5 simulations"):
        og.parse_their("ismcts:5", simulations=6)
    assert og.parse_their("ismcts:40:1.5") == ("ismcts", 40, 1.5)
    with pytest.raises(ValueError, match="at least one deal"):
        og.match_against_openspiel("greedy", "simple", deals=0, seed=1)


def test_a_missing_openspiel_names_the_install(monkeypatch):
    monkeypatch.setitem(sys.modules, "pyspiel", None)  # import pyspiel now raises ImportError
    with pytest.raises(ImportError, match="pip install open-spiel"):
        og.play_deal("greedy", "simple", 1, 0)


def test_seeds_for_openspiel_are_31_bit_and_follow_the_scheme():
    a, b = og._seed32(1, 2, 3), og._seed32(1, 2, 4)
    assert 0 <= a < 2**31 and a != b and a == og._seed32(1, 2, 3)
