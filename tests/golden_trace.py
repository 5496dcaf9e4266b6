"""The golden cases and the digest of a game's visible state (shared by the test and its generator).

The digest reads only the public protocol (``view(seat)`` of every seat,
``legal_actions()``, ``table_actions()``, ``to_act``, ``phase``, ``scores``),
so it survives moving code between modules but not a change of behaviour.
"""

from __future__ import annotations

import dataclasses
import hashlib

import numpy as np

from rumino.players import make_players
from rumino.variants import find_variant

# seeds, player counts, bot mixes and house rules (rebuys, pools, joins, claims, exhausted stocks).
# The first nine were recorded before the engine moved, when §0.5 barred the twin of a card taken
# from the pile as well; that behaviour is now the knob pickup_bars_twin=True, which they name.
OLD = {"pickup_bars_twin": True}
CASES = [
    {"name": "rumino_2p_greedy", "seed": 1, "players": ["greedy", "greedy"], "rules": {**OLD}, "joins": 0},
    {"name": "rumino_3p_mixed", "seed": 2, "players": ["greedy", "random", "chaser"], "rules": {**OLD}, "joins": 0},
    {"name": "rumino_4p_flat_rebuys", "seed": 3, "players": ["greedy", "threshold:2", "greedy", "chaser:4"],
     "rules": {**OLD, "rebuy_price": "flat", "stake": 7}, "joins": 0},
    {"name": "rumino_5p_void_undercut", "seed": 4, "players": ["random", "greedy", "threshold:1", "chaser", "greedy"],
     "rules": {**OLD, "stock_exhausted": "void_hand", "knock_undercut_penalty": 10, "knock_zero_is_gin": False},
     "joins": 0},
    {"name": "rumino_6p_first_to_call", "seed": 5, "players": ["chaser:3"] * 3 + ["greedy", "random", "chaser"],
     "rules": {**OLD, "out_of_turn_claim_priority": "first_to_call", "stock_exhausted": "end_and_score",
               "rebuy_requires_others": 1}, "joins": 0},
    {"name": "rumino_3p_unlimited_distinct", "seed": 6, "players": ["greedy", "chaser", "threshold:3"],
     "rules": {**OLD, "max_lay_size": None, "set_suits": "distinct", "may_rediscard_pickup": True, "elimination_at": 100,
               "triple_gin_wins": False}, "joins": 0},
    {"name": "rumino_3p_joins", "seed": 7, "players": ["greedy", "random", "greedy"],
     "rules": {**OLD, "stake": 3, "rumino_natural_only": True, "gin_bonus": -25, "knock_max_deadwood": 10}, "joins": 2},
    {"name": "rumino_4p_random", "seed": 8, "players": ["random"] * 4, "rules": {**OLD, "min_naturals_per_lay": 0},
     "joins": 0},
    {"name": "rumino_2p_chasers", "seed": 9, "players": ["chaser", "chaser:6"], "rules": {**OLD, "knock_max_deadwood": 3},
     "joins": 0},
    # recorded on the shared engine, under the §0.5 default "only the card taken is barred"
    {"name": "rumino_4p_engine_defaults", "seed": 10, "players": ["greedy", "random", "chaser", "threshold:4"],
     "rules": {}, "joins": 1},
    {"name": "rumino_3p_engine_random", "seed": 11, "players": ["random", "random", "greedy"],
     "rules": {"stock_exhausted": "void_hand"}, "joins": 0},
]


def _h(obj) -> str:
    return hashlib.sha256(repr(obj).encode()).hexdigest()[:12]


def digest(game) -> str:
    """A short hash of every seat's view, the legal and table actions, phase, actor and scores."""
    views = []
    for s in range(len(game.scores)):
        v = game.view(s)
        views.append((v.seat, v.phase, v.to_act, tuple(sorted(v.hand)), v.discard_pile, v.stock_size, v.scores,
                      v.in_game, v.in_hand, v.hand_sizes, v.dealer, v.turn, v.hand_number, v.pool_cents,
                      v.paid_cents, v.rebuys, v.pickup, v.claim_card, v.rumino_ready, v.rebuy_price_cents,
                      v.rebuy_score))
    last = game.results[-1] if game.results else None
    res = None if last is None else (last.number, last.ending, last.by, last.deadwood, last.deltas, last.scores,
                                     last.busted, last.undercut, last.rumino)
    final = None if game.result is None else (game.result.winners, game.result.how, game.result.payouts_cents)
    return _h((game.phase, game.to_act, tuple(map(str, game.legal_actions())),
               tuple(map(str, game.table_actions())), tuple(views), res, final))


def new_game(case):
    from rumino.variants.rumino import RuminoGame

    v = find_variant("rumino")
    rules = dataclasses.replace(v.rules, **case["rules"])
    return RuminoGame.new(rules, len(case["players"]), seed=case["seed"])


def play_case(case, trace_it: bool = True):
    """Play a golden case from its seed with its bots; returns ``(game, trace)`` (no trace if not asked)."""
    game = new_game(case)
    bots = make_players(case["players"], seed=[case["seed"], 1])
    joins_left = case["joins"]
    join_rng = np.random.default_rng([case["seed"], 2])
    trace = [digest(game)] if trace_it else []
    steps = 0
    while not game.game_over:
        if joins_left and game.table_actions() and join_rng.random() < 0.5:
            game.apply(game.table_actions()[0])
            bots += make_players(["greedy"], seed=[case["seed"], 3, joins_left])
            joins_left -= 1
        else:
            seat = game.to_act
            game.apply(bots[seat].choose(game.view(seat)))
        steps += 1
        if trace_it:
            trace.append(digest(game))
        if steps > 20000:
            raise RuntimeError(f"golden case {case['name']} does not end")
    return game, trace
