"""Bots and the human player: what each strategy does in set positions, that every bot only
ever takes legal actions, and that a bot beats a random player (seeded, with an interval)."""

from __future__ import annotations

import dataclasses

import numpy as np
import pytest

from rumino.hand.arrange import min_deadwood
from rumino.cards import JOKER, RUMINO_PACK, parse_card, shuffled
from rumino.errors import IllegalActionError
from rumino.engine import Deal, Discard, Draw, Gin, Knock, Rebuy, play
from rumino.players import (AwaitingInput, GreedyPlayer, HumanPlayer, RandomPlayer, RuminoChaser, ThresholdKnocker,
                            UnknownPlayerError, describe_view, make_player, make_players, parse_human_action,
                            rumino_target)
from rumino.stats import wilson_interval
from rumino.variants.rumino import RUMINO, CallRumino, ClaimRumino, PassClaim, RuminoGame, is_rumino

C = parse_card
KNOCK7 = "2c 3c 4c 9d 9h 9s 7d"


def game_at(hand: str, *, n=2, discard="Qs", stock_top=None, **rules) -> RuminoGame:
    """Seat 0 to act holding ``hand``; a useless Qs on the discard pile unless told otherwise."""
    g = RuminoGame.new(dataclasses.replace(RUMINO, **rules), n, seed=1, dealer=n - 1)
    g.set_position(hands={0: hand}, discard=discard, stock_top=stock_top)
    return g


# ---------------------------------------------------------------------------- greedy


def test_greedy_knocks_as_soon_as_allowed():
    g = game_at(KNOCK7)
    assert GreedyPlayer().choose(g.view(0)) == Knock()
    g = game_at("2c 3c 4c 9d 9h 9s 8d")
    assert GreedyPlayer().choose(g.view(0)) == Draw("stock")


def test_greedy_takes_the_discard_only_when_it_lowers_deadwood():
    g = game_at("2c 3c 4c 9d 9h Ks Kd", discard="Qc 9s")  # 9s makes a set: 20 -> after the best discard 10
    assert GreedyPlayer().choose(g.view(0)) == Draw("discard")
    g = game_at("2c 3c 4c 9d 9h Ks Kd", discard="9s Qc")  # Qc helps nothing
    assert GreedyPlayer().choose(g.view(0)) == Draw("stock")


def test_greedy_discards_to_the_least_deadwood_and_goes_gin():
    rng = np.random.default_rng(4)
    for _ in range(40):
        cards = shuffled(RUMINO_PACK, rng)
        g = RuminoGame.new(RUMINO, 2, seed=2, dealer=1)
        g.set_position(hands={0: cards[:7]}, stock_top=cards[7:8])
        g.apply(Draw("stock"))
        a = GreedyPlayer().choose(g.view(0))
        kept = list(g.hands[0])
        kept.remove(a.card)
        best = min(min_deadwood([c for j, c in enumerate(g.hands[0]) if j != i], RUMINO.meld_rules)
                   for i in range(8))
        assert min_deadwood(kept, RUMINO.meld_rules) == best
        assert isinstance(a, Gin) == (best == 0) and a in g.legal_actions()
    g = game_at("7h 8h 9h 10h 5c 5d Kc", stock_top="5s")
    g.apply(Draw("stock"))
    assert GreedyPlayer().choose(g.view(0)) == Gin(C("Kc"))


def test_greedy_never_throws_back_the_card_it_took():
    g = game_at("2c 3c 4c 9d 9h Ks Kd", discard="Qc 9s")
    g.apply(Draw("discard"))
    a = GreedyPlayer().choose(g.view(0))
    assert a != Discard(C("9s")) and a in g.legal_actions()


def test_every_bot_calls_and_claims_a_rumino():
    for bot in (GreedyPlayer(), ThresholdKnocker(2), RuminoChaser()):
        g = game_at("3h 4h 5h 6h 7h 8h Kc", stock_top="9h")
        assert bot.choose(g.view(0)) == Draw("stock")
        g.apply(Draw("stock"))
        assert bot.choose(g.view(0)) == CallRumino()
        g = game_at("9h Ks Qc Jd 7s 5c 3d", n=3, stock_top="2s")
        g.set_position(hands={0: "9h Ks Qc Jd 7s 5c 3d", 1: "3h 4h 5h 6h 7h 8h Kc"}, stock_top="2s")
        g.apply(Draw("stock"))
        g.apply(Discard(C("9h")))
        assert g.to_act == 1 and bot.choose(g.view(1)) == ClaimRumino()


def test_a_dealt_rumino_is_drawn_to_and_called_not_knocked():
    g = game_at("3h 4h 5h 6h 7h 8h 9h")
    assert GreedyPlayer().choose(g.view(0)) == Draw("stock")
    g.apply(Draw("stock"))
    assert GreedyPlayer().choose(g.view(0)) == CallRumino()


def test_rebuy_policy():
    g = RuminoGame.new(RUMINO, 4, seed=3, dealer=3)
    g.set_position(hands={0: KNOCK7}, scores={1: 99})
    g.apply(Knock())
    v = g.view(1)
    assert GreedyPlayer().choose(v) == Rebuy()
    assert GreedyPlayer(max_rebuys=0).choose(v).word == "decline"
    g.apply(Rebuy())
    assert GreedyPlayer().choose(g.view(g.to_act)) == Deal()


# ---------------------------------------------------------------------------- threshold, chaser


def test_threshold_knocker_waits_for_its_threshold():
    g = game_at("2c 3c 4c 9d 9h 9s 5d")  # deadwood 5
    assert ThresholdKnocker(3).choose(g.view(0)) == Draw("stock")
    assert ThresholdKnocker(5).choose(g.view(0)) == Knock()
    assert ThresholdKnocker(9).choose(g.view(0)) == Knock()
    g = game_at("2c 3c 4c 9d 9h 9s 8d")  # 8: above the rules' limit, whatever t says
    assert ThresholdKnocker(9).choose(g.view(0)) == Draw("stock")
    with pytest.raises(ValueError):
        ThresholdKnocker(-1)


def _brute_progress(hand, rules):
    j = 0 if rules.rumino_natural_only else hand.count(JOKER)
    nat = [c for c in hand if c != JOKER]
    best = min(j, 7)
    for r in range(13):
        cs = [c for c in nat if c % 13 == r]
        best = max(best, min(7, (len(set(cs)) if rules.set_suits == "distinct" else len(cs)) + j))
    for s in range(4):
        for start in range(7):
            best = max(best, min(7, len({c for c in nat if c // 13 == s and start <= c % 13 < start + 7}) + j))
    return best


@pytest.mark.parametrize("changes", [{}, {"set_suits": "distinct"}, {"rumino_natural_only": True}])
def test_rumino_target_matches_brute_force(changes):
    rules = dataclasses.replace(RUMINO, **changes)
    rng = np.random.default_rng(8)
    for _ in range(1500):
        hand = shuffled(RUMINO_PACK, rng)[:int(rng.integers(7, 9))]
        n, keep = rumino_target(hand, rules)
        assert n == len(keep) == _brute_progress(hand, rules)
        assert all(keep.count(c) <= hand.count(c) for c in keep)
        if n == 7:
            assert is_rumino(keep, rules)


def test_the_chaser_keeps_its_target_and_does_not_knock_when_close():
    hand = "3h 4h 5h 6h 9h Kc Kd"  # 5 cards toward 3h–9h (deadwood 29)
    g = game_at(hand, discard="Qs 7h")
    assert RuminoChaser().choose(g.view(0)) == Draw("discard")  # 7h adds to the target
    g.apply(Draw("discard"))
    a = RuminoChaser().choose(g.view(0))
    assert a in (Discard(C("Kc")), Discard(C("Kd")))  # never a target card
    close = "3h 4h 5h 6h 7h 2c 2d"  # knockable (deadwood 7) but 5 cards toward a rumino
    g = game_at(close, discard="Qs")
    assert GreedyPlayer().choose(g.view(0)) == Knock()
    assert RuminoChaser(5).choose(g.view(0)) == Draw("stock")
    assert RuminoChaser(6).choose(g.view(0)) == Knock()  # not close enough for a chaser at 6: greedy
    with pytest.raises(ValueError):
        RuminoChaser(0)


# ---------------------------------------------------------------------------- every bot is legal


@pytest.mark.parametrize("spec", ["random", "greedy", "threshold:0", "threshold:5", "chaser", "chaser:4"])
def test_bots_only_take_legal_actions(spec):
    for seed in range(12):
        n = 2 + seed % 5
        rules = dataclasses.replace(RUMINO, may_rediscard_pickup=bool(seed % 2),
                                    stock_exhausted=("reshuffle", "void_hand", "end_and_score")[seed % 3])
        g = RuminoGame.new(rules, n, seed=seed)
        bots = make_players([spec] + ["greedy"] * (n - 1), seed=seed)
        play(g, bots, checked=True)  # an illegal choice would raise here
        assert g.game_over


def test_greedy_beats_random_heads_up():
    wins, n = 0, 60
    for seed in range(n):
        g = play(RuminoGame.new(RUMINO, 2, seed=seed), [GreedyPlayer(), RandomPlayer(seed=seed)])
        wins += g.result.share(0)
    lo, hi = wilson_interval(wins, n)
    assert lo > 0.8, (wins, lo, hi)


def test_random_player_is_seeded():
    g = RuminoGame.new(RUMINO, 3, seed=5)
    v = g.view(g.to_act)
    picks = [RandomPlayer(seed=9).choose(v) for _ in range(3)]
    assert picks[0] == picks[1] == picks[2]
    r = RandomPlayer(seed=1)
    assert {r.choose(v) for _ in range(60)} == set(v.legal_actions)


# ---------------------------------------------------------------------------- specs


def test_player_specs():
    assert [type(p).__name__ for p in make_players("random,greedy,threshold:4,chaser:6,human")] == [
        "RandomPlayer", "GreedyPlayer", "ThresholdKnocker", "RuminoChaser", "HumanPlayer"]
    assert make_player("threshold").t == 3 and make_player("chaser").min_progress == 5
    for bad, why in (("clever", "unknown player 'clever'"), ("threshold:x", "threshold:3"),
                     ("chaser:9", "from 1 to 7"), ("greedy:2", "takes no parameter"), (3, "unknown player")):
        with pytest.raises(UnknownPlayerError, match=why):
            make_player(bad)
    with pytest.raises(UnknownPlayerError, match="empty name"):
        make_players("greedy,,random")
    a = make_players("random,random", seed=1)
    assert a[0].rng.integers(10 ** 9) != a[1].rng.integers(10 ** 9)


# ---------------------------------------------------------------------------- the human player


def test_human_player_reads_short_forms_and_waits_for_input():
    g = game_at(KNOCK7, discard="Qd 5s")
    v = g.view(0)
    for text, action in (("s", Draw("stock")), ("t", Draw("discard")), ("k", Knock()), ("1", Knock()),
                         ("draw stock", Draw("stock")), ("KNOCK", Knock())):
        assert parse_human_action(text, v) == action
    for bad in ("", "9", "fly", "g"):
        with pytest.raises(IllegalActionError):
            parse_human_action(bad, v)
    h = HumanPlayer()
    with pytest.raises(AwaitingInput):
        h.choose(v)
    h.submit(Knock())
    assert h.choose(v) == Knock()
    asked = HumanPlayer(ask=lambda view: "s")
    assert asked.choose(v) == Draw("stock")
    g.apply(Draw("discard"))
    v = g.view(0)
    assert parse_human_action("7d", v) == Discard(C("7d")) and parse_human_action("x 7d", v) == Discard(C("7d"))
    assert parse_human_action("g 7d", v) == Gin(C("7d"))
    text = describe_view(v)
    assert "you took 5♠" in text and "choices:" in text and "deadwood" in text


def test_describe_view_for_claims_and_rebuys():
    g = RuminoGame.new(RUMINO, 4, seed=3, dealer=3)
    g.set_position(hands={0: KNOCK7}, scores={1: 99})
    g.apply(Knock())
    assert "rebuy for 10 at" in describe_view(g.view(1))
    g = RuminoGame.new(RUMINO, 3, seed=1, dealer=2)
    g.set_position(hands={0: "9h Ks Qc Jd 7s 5c 3d", 1: "3h 4h 5h 6h 7h 8h Kc"}, stock_top="2s")
    g.apply(Draw("stock"))
    g.apply(Discard(C("9h")))
    v = g.view(1)
    assert "completes your rumino" in describe_view(v)
    assert parse_human_action("c", v) == ClaimRumino() and parse_human_action("p", v) == PassClaim()
