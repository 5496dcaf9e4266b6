"""Simulated odds from play: bots on the real Rumino state machine, checked against exact values where they exist."""

from __future__ import annotations

from concurrent.futures import ThreadPoolExecutor
from dataclasses import replace

import numpy as np
import pytest

from rumino.odds.draws import OddsArgumentError
from rumino.odds.exact import rumino_deal_distribution
from rumino.playing.bot_odds import simulate_play
from rumino.variants.rumino import RUMINO


@pytest.mark.slow
@pytest.mark.parametrize("players,limit", [("greedy,greedy,greedy", 20), ("threshold:12,greedy", 20),
                                           ("greedy,greedy,greedy,greedy,greedy,greedy", 7)])
def test_first_turn_endings_match_the_exact_deal_odds(players, limit):
    """Seat 0 acts first: greedy bots knock at once when the dealt deadwood allows it (a dealt rumino
    is called after the first draw), so P(hand over by table turn 1) is exactly P(deadwood ≤ limit)."""
    rules = replace(RUMINO, knock_max_deadwood=limit)
    knock_at = int(players.split(",")[0].partition(":")[2] or limit)
    exact = rumino_deal_distribution().p_deadwood_at_most(min(knock_at, limit))
    s = simulate_play(players, hands=1500, seed=77, rules=rules)
    for est in (s.p_hand_over_by(1), s.p_goes_out_by(1), s.p_goes_out_by(1, clock="own")):
        assert abs(est.z_score(exact)) <= 4, (est, float(exact))
    # nobody else can have knocked before the first player's first turn
    assert s.p_knocked_on_within(1).successes == 0


def test_curves_are_monotone_and_consistent():
    s = simulate_play("chaser:4,greedy,greedy", hands=150, seed=5)
    for what in ("rumino_within", "knocked_on_within", "goes_out_by", "hand_over_by"):
        values = [e.value for _, e in s.curve(what, 40)]
        assert values == sorted(values)
    # every hand ends, and by exactly one cause
    endings = sum(s.p_ending(e).successes for e in ("knock", "gin", "rumino", "stock_exhausted"))
    assert endings == s.n
    late = s.p_hand_over_by(10_000)
    assert late.successes + s.p_ending("stock_exhausted").successes == s.n
    # knocked on by someone else, or out by oneself, or neither: never both
    both = s.p_knocked_on_within(10_000).successes + s.p_goes_out_by(10_000).successes
    assert both <= s.n


def test_same_seed_same_hands_on_any_executor():
    kw = dict(hands=60, seed=11, chunk=16, rules=replace(RUMINO, stock_exhausted="void_hand"))
    a = simulate_play("greedy,random,threshold:3", **kw)
    with ThreadPoolExecutor(2) as pool:
        b = simulate_play("greedy,random,threshold:3", executor=pool, **kw)
    assert np.array_equal(a.rows, b.rows)
    c = simulate_play("greedy,random,threshold:3", **{**kw, "seed": 12})
    assert not np.array_equal(a.rows, c.rows)


def test_any_player_count_and_seat():
    for n in (2, 6):
        s = simulate_play(",".join(["greedy"] * n), hands=20, seed=n, seat=n - 1)
        assert s.n == 20 and s.seat == n - 1 and (s.rows[:, 2] >= 1).all()


@pytest.mark.parametrize("kwargs,message", [
    (dict(players="greedy,human"), "cannot wait for a human"),
    (dict(players="greedy"), "1 player given"),
    (dict(players="greedy,clever"), "unknown player 'clever'"),
    (dict(players="greedy,greedy", seat=2), "seat is 2"),
    (dict(players="greedy,greedy", rules=object()), "rules must be a RuminoRules"),
])
def test_bad_play_arguments(kwargs, message):
    with pytest.raises(ValueError, match=message):
        simulate_play(hands=5, seed=1, **kwargs)


def test_bad_clock_and_ending():
    s = simulate_play("greedy,greedy", hands=5, seed=1)
    with pytest.raises(OddsArgumentError, match="clock is 'wall'"):
        s.p_goes_out_by(3, clock="wall")
    with pytest.raises(OddsArgumentError, match="ending is 'draw'"):
        s.p_ending("draw")
