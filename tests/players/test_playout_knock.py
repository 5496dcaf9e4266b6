"""The compiled Rumino and Wiener playouts (rumino.engine.knock_playout, rumino.variants.rumino.playout and
rumino.variants.wiener.playout) against the engine, position by position.

Positions: a seeded heads-up deal advanced a random number of actions by greedy or random choices, so they
fall at ``turn`` and at ``discard`` (after a stock draw or a pickup, the Wiener dealer's opening discard,
the last round after a Wiener knock), some under other rules knobs (the knock limit, re-discarding the
pickup, its twin barred, the undercut penalty, gin at a knock of 0, no extra turn after a knock). On every
one the kernel's gains and the seat that ended the hand must equal the engine's playout with two greedy
players, with each legal first action too, and the game passed in must be unchanged. A playout whose stock
runs out reshuffles in the kernel's own order, so those positions are compared only when no reshuffle
happens in the engine's playout.

``python tests/players/test_playout_knock.py 5000`` runs the long version.
"""

from __future__ import annotations

import dataclasses
import sys

import numpy as np
import pytest

from rumino.engine.knock_playout import copy_game as _copy
from rumino.players import GreedyPlayer
from rumino.playing.seeding import new_table
from rumino.variants.rumino import RUMINO, RuminoGame
from rumino.variants.rumino import playout as rumino_playout
from rumino.variants.wiener import WIENER
from rumino.variants.wiener import playout as wiener_playout

N_POSITIONS = 300
SEED = 20261207
_GREEDY = GreedyPlayer()


def _kernel(game):
    """The game's own folder's playouts (Rumino's or Wiener's)."""
    return rumino_playout if isinstance(game, RuminoGame) else wiener_playout


def supported(game) -> bool:
    return _kernel(game).supported(game)


def playout_ended(game, first=None):
    return _kernel(game).playout_ended(game, first)


def python_playout_ended(game, first=None):
    """The engine's playout with two greedy players (:class:`~rumino.players.greedy.GreedyPlayer`)."""
    return _kernel(game).python_playout_ended(game, first, GreedyPlayer())


def sample_worlds(game, n, rng, known=()):
    return _kernel(game).sample_worlds(game, n, rng, known=known)


def playouts(game, stocks, hands=None, first=None, **options):
    return _kernel(game).playouts(game, stocks, hands, first, **options)


def _rules(key: str, rng: np.random.Generator):
    if rng.random() < 0.6:
        return None
    if key == "rumino":
        return dataclasses.replace(RUMINO, knock_max_deadwood=int(rng.choice([3, 7, 10])),
                                   may_rediscard_pickup=bool(rng.random() < 0.3), pickup_bars_twin=bool(rng.random() < 0.3),
                                   knock_undercut_penalty=int(rng.choice([0, 10])),
                                   knock_zero_is_gin=bool(rng.random() < 0.7))
    return dataclasses.replace(WIENER, knock_max_deadwood=int(rng.choice([3, 5, 9])),
                               may_rediscard_pickup=bool(rng.random() < 0.3), pickup_bars_twin=bool(rng.random() < 0.3),
                               extra_turn_after_knock=bool(rng.random() < 0.7),
                               knock_undercut_penalty=int(rng.choice([0, 10])))


def position(seed: int, i: int):
    """Position ``i`` of a run seeded ``seed``: a heads-up deal advanced by a seeded mix of greedy and random actions."""
    rng = np.random.default_rng([seed, i])
    key = "rumino" if i % 2 == 0 else "wiener"
    game, _ = new_table(key, ["greedy", "greedy"], seed, i, dealer=1, rules=_rules(key, rng))
    q = float(rng.choice([0.0, 0.2, 0.6]))
    trial, steps = _copy(game), []
    while not trial.hand_over and len(steps) < 400:
        legal = trial.legal_actions()
        a = legal[int(rng.integers(len(legal)))] if rng.random() < q else _GREEDY.choose(trial.view(trial.to_act))
        steps.append(a)
        trial.apply(a)
    k = int(rng.integers(len(steps))) if steps else 0
    for a in steps[:k]:
        game.apply(a)
    return game


def _no_reshuffle(game, first) -> bool:
    g = _copy(game)
    before = g.reshuffles
    if first is not None:
        g.apply(first)
    from rumino.engine.protocol import play

    play(g, [GreedyPlayer(), GreedyPlayer()], checked=False, until=lambda x: x.hand_over)
    return g.reshuffles == before


def check(n: int, seed: int = SEED) -> tuple[int, int]:
    """Compare the kernel with the engine on ``n`` positions (and their first actions); ``(compared, skipped)``."""
    compared = skipped = 0
    for i in range(n):
        game = position(seed, i)
        if game.hand_over or not supported(game):
            skipped += 1
            continue
        snapshot = game.snapshot()
        legal = game.legal_actions()
        rng = np.random.default_rng([seed, i, 1])
        firsts = [None] + [legal[j] for j in rng.choice(len(legal), size=min(3, len(legal)), replace=False)]
        for first in firsts:
            if not _no_reshuffle(game, first):
                skipped += 1
                continue
            assert playout_ended(game, first) == python_playout_ended(game, first), (i, game.phase, first)
            compared += 1
        assert game.snapshot() == snapshot, f"position {i}: the playout changed the game"
    return compared, skipped


def test_the_kernel_plays_every_position_as_the_engine():
    compared, skipped = check(N_POSITIONS)
    assert compared > 3 * N_POSITIONS // 2, (compared, skipped)


def test_many_worlds_in_one_call_agree_with_one_at_a_time():
    game, _ = new_table("rumino", ["greedy", "greedy"], 5, 0, dealer=1)
    hands, stocks = sample_worlds(game, 20, np.random.default_rng(3))
    out = playouts(game, stocks, hands, ended_by=True)
    for w in range(20):
        g = _copy(game)
        g.hands = [[int(c) for c in hands[w, p] if c >= 0] for p in range(2)]
        g.stock = [int(c) for c in stocks[w]]
        g.after_hidden_dealt()
        gains, by = python_playout_ended(g)
        assert (tuple(out[w, :2]), out[w, 2]) == (gains, -1 if by is None else by)


def test_a_world_that_lacks_a_card_is_refused():
    game, _ = new_table("wiener", ["greedy", "greedy"], 5, 0, dealer=1)
    hands, stocks = sample_worlds(game, 2, np.random.default_rng(3))
    stocks[1, 0] = stocks[1, 1]
    with pytest.raises(ValueError, match="world 1"):
        playouts(game, stocks, hands)


def test_the_known_cards_stay_with_the_opponent():
    game, _ = new_table("rumino", ["greedy", "greedy"], 5, 0, dealer=1)
    me = game.to_act
    known = game.hands[1 - me][:2]
    hands, _ = sample_worlds(game, 30, np.random.default_rng(1), known=known)
    assert all(sorted(known) == sorted(int(c) for c in row[:2]) for row in hands[:, 1 - me])
    with pytest.raises(ValueError, match="known"):
        sample_worlds(game, 1, np.random.default_rng(1), known=[c for c in range(52) if c not in game.hands[1 - me]][:1])


if __name__ == "__main__":  # the long comparison
    n = int(sys.argv[1]) if len(sys.argv) > 1 else 5000
    print("compared, skipped:", check(n))
