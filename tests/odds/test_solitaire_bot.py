"""The solitaire bot and the policy simulations of rumino.playing.optimal_play (issue 14).

CI never has the 1.9 GB tables: the bot is checked in real games with values
computed on the spot (DirectValues), its refusal without a table is checked
with an empty RUMINO_OPTIMAL_DIR, and the table-driven discards and the
simulations run on a reduced pack, against exact expectimax over explicit hands.
"""

from __future__ import annotations

import os
import subprocess
import sys
from fractions import Fraction
from functools import lru_cache

import numpy as np
import pytest

from test_odds_optimal import SMALL, Brute
from rumino.cards import to_counts
from rumino.engine.protocol import play
from rumino.engine import Discard
from rumino.odds.enumerate import PackShape
from rumino.odds.optimal import GOALS, SolitaireModel, TableMissingError, direct_values
from rumino.odds.optimal_policy import DirectValues, TableValues, choose_discard, greedy_policy, optimal_policy
from rumino.playing.optimal_play import simulate_policy
from rumino.players import GreedyPlayer, UnknownPlayerError, make_player
from rumino.players.solitaire import SolitairePlayer
from rumino.variants.rumino import RUMINO, RuminoGame


@pytest.fixture(scope="module")
def small():
    return SolitaireModel(SMALL).solve(horizon=4, tol=1e-9)


@pytest.fixture(scope="module")
def brute():
    return Brute(SMALL)


def test_missing_table_is_one_clear_line(tmp_path, monkeypatch):
    monkeypatch.setenv("RUMINO_OPTIMAL_DIR", str(tmp_path))
    with pytest.raises(TableMissingError) as err:
        make_player("solitaire")
    msg = str(err.value)
    assert "\n" not in msg and "RUMINO_OPTIMAL_DIR" in msg and "rumino optimal build" in msg
    assert str(tmp_path) in msg
    run = subprocess.run([sys.executable, "-m", "rumino.cli", "simulate", "--players", "solitaire,greedy",
                          "--games", "2"], capture_output=True, text=True,
                         env={**os.environ, "RUMINO_OPTIMAL_DIR": str(tmp_path)})
    assert run.returncode == 2
    assert run.stderr.strip().count("\n") == 0 and "RUMINO_OPTIMAL_DIR" in run.stderr


def test_house_rules_without_their_table_are_named(tmp_path):
    from dataclasses import replace

    from rumino.odds.optimal_policy import load_table

    with pytest.raises(TableMissingError, match=r"house rules \(s4r13c2j4-k5\).*default rules' table only"):
        load_table(tmp_path, replace(RUMINO, knock_max_deadwood=5))


def test_bad_goal_is_refused():
    with pytest.raises(UnknownPlayerError, match="knock, gin or rumino"):
        make_player("solitaire:win")


class Recorder(SolitairePlayer):
    """Records every discard it makes, with the hand it made it from."""

    def __init__(self, **kw):
        super().__init__(**kw)
        self.log = []

    def after_draw(self, view):
        action = super().after_draw(view)
        self.log.append((view.hand, view.forbidden, action))
        return action


def test_bot_plays_real_games_with_direct_values():
    bot = Recorder(values=DirectValues("knock", draws=1))
    for seed in (1, 2):
        g = RuminoGame.new(RUMINO, 2, seed=seed)
        play(g, [bot, GreedyPlayer()], checked=True, until=lambda g: g.hand_number > 2 or g.game_over)
        assert g.results and all(r.ending in ("knock", "gin", "rumino", "stock_exhausted") for r in g.results)
    discards = [(h, f, a) for h, f, a in bot.log if type(a) is Discard]
    assert len(discards) >= 5
    for hand, forbidden, action in discards:  # each discard is a best one, recomputed directly
        cnt = to_counts(hand).astype(np.int64)
        vals = {}
        for d in set(hand) - {forbidden}:
            c7 = cnt.copy()
            c7[d] -= 1
            vals[d] = direct_values(c7, "knock", 1, PackShape(4, 13, 2, 4))
        assert vals[action.card] == pytest.approx(max(vals.values()), abs=1e-12)


def test_table_discards_are_optimal_on_a_reduced_pack(small, brute):
    """Every 8-card hand of the reduced pack: the table's discard is an expectimax-best one."""
    for goal in GOALS:
        P = brute.values(goal, 3)
        values = TableValues(small, goal, draws=3)
        hands8 = {tuple(sorted(h + (c,))) for h in brute.hands[::7] for c, _ in brute.draws(h)}
        for h8 in hands8:
            d = choose_discard(values, to_counts(list(h8)).astype(np.int64))
            options = {c: P[3][h7] for c, h7 in brute.discards(h8)}
            assert options[d] == max(options.values()), (goal, h8, d)


@lru_cache(maxsize=None)
def _greedy_exact(goal, n, hand):
    """P(goal within n draws) of the greedy discard policy, exact, over explicit hands."""
    b = _BRUTE
    if b.goal(hand, goal):
        return Fraction(1)
    if n == 0:
        return Fraction(0)
    policy = greedy_policy()
    s = Fraction(0)
    for c, p in b.draws(hand):
        h8 = tuple(sorted(hand + (c,)))
        d = policy(to_counts(list(h8)).astype(np.int64), None)
        h7 = list(h8)
        h7.remove(d)
        s += p * _greedy_exact(goal, n - 1, tuple(h7))
    return s


_BRUTE = Brute(SMALL)


def test_greedy_never_beats_optimal_and_simulations_match_exact_values(small):
    """In the model: the greedy policy's exact chance ≤ the optimum on every hand; the simulated
    optimal and greedy policies agree with the exact values within 4 standard errors."""
    hands = _BRUTE.hands
    for goal in ("knock", "gin"):
        for h in hands[::5]:
            opt = small.value7(to_counts(list(h)).astype(np.int64), goal, 3)
            assert float(_greedy_exact(goal, 3, h)) <= opt + 1e-6
    n = 1500
    for goal in ("knock", "gin"):
        v = TableValues(small, goal, draws=3)
        r = simulate_policy(optimal_policy(v), SMALL, n, 5, goals=(goal,), horizon=3, values=v)
        gap = (r["draws"][goal] <= 3) + r["table"]  # hit − P(table)
        assert abs(gap.mean()) <= 4 * gap.std(ddof=1) / np.sqrt(n)
        g = simulate_policy(greedy_policy(), SMALL, n, 5, goals=(goal,), horizon=3, max_draws=3)
        exact = np.array([float(_greedy_exact(goal, 3, _dealt(SMALL, 5, i))) for i in range(n)])
        gap = (g["draws"][goal] <= 3) - exact
        assert abs(gap.mean()) <= 4 * gap.std(ddof=1) / np.sqrt(n)
    # expected draws (stationary policy) against the certified table
    v = TableValues(small, "knock")
    r = simulate_policy(optimal_policy(v), SMALL, n, 6, goals=("knock",), values=v)
    gap = r["draws"]["knock"] - r["table"]
    assert abs(gap.mean()) <= 4 * gap.std(ddof=1) / np.sqrt(n)


def _dealt(shape, seed, i):
    caps = np.zeros(53, np.int64)
    for c in shape.card_ids():
        caps[c] = shape.copies
    caps[52] = shape.jokers
    order = np.random.default_rng([seed, i]).permutation(np.repeat(np.arange(53), caps))
    return tuple(sorted(int(c) for c in order[:7]))


def test_real_stock_runs_down_and_is_reshuffled():
    """The reduced pack's real stock holds 7 cards: 20 draws must reshuffle the discards twice (an
    empty stock would raise), and the hand never holds more copies than the pack."""
    caps = np.zeros(53, np.int64)
    caps[SMALL.card_ids()] = 1
    caps[52] = 2
    start = to_counts(list(_dealt(SMALL, 3, 0))).astype(np.int64)
    seen = []

    def throw_the_draw(cnt8, left):  # keeps the dealt hand: the chase runs to max_draws
        assert (cnt8 <= caps).all() and cnt8.sum() == 8
        seen.append(cnt8.copy())
        return int(np.flatnonzero(cnt8 - start)[0])

    r = simulate_policy(throw_the_draw, SMALL, 1, 3, stock="real", goals=("rumino",), horizon=20, max_draws=20)
    assert len(seen) == 20 and r["draws"]["rumino"][0] == 21
    with pytest.raises(Exception, match="stock is 'pile'"):
        simulate_policy(throw_the_draw, SMALL, 1, 3, stock="pile")
