"""Rumino (rules §1): its rules, engine and results (:mod:`.game`) and its public names."""

from rumino.variants.rumino.game import (ACTIONS, CALL, CLAIM, DEAL, DECLINE, DRAW_DISCARD, DRAW_STOCK, ENDINGS,
                                         HAND_SIZE, KNOCK, MAX_SEATS, MIN_PLAYERS, PACK, PASS, REBUY, RUMINO,
                                         CallRumino, ClaimRumino, Evaluator, GameResult, HandResult, PassClaim,
                                         RuminoGame, RuminoRules, RuminoView, evaluator_for, is_rumino, rumino_in,
                                         rumino_outs)

from rumino.engine.variant import GameBots, Variant, WholeGame
from rumino.variants.rumino import playout
from rumino.variants.rumino.words import RuminoNarrator

BOTS = GameBots(batch_playouts=(playout.sample_worlds, playout.search_playouts),  # heads-up, compiled
                best_budget=3000)  # the best player's budget: about 0.1 s a decision (bench/bench_search.py)
"""Rumino's bots: greedy's generic play, its compiled heads-up playouts and the best player's budget."""

VARIANT = Variant(
    key="rumino", aliases=("rumino",), rules=RUMINO, game=RuminoGame, section="§1",
    knock_field="knock_max_deadwood", has_gin=True, has_rumino=True, optimal_tables=True, bots=BOTS, narrator=RuminoNarrator,
    # the search player at two budgets: a small one and the tournament budget of at most 0.1 s a decision
    # (issue 23's strength matches; bench/bench_search.py times it)
    ladder=("random", "greedy", "threshold:3", "chaser:5", "solitaire:knock", "search:20", "search:90"),
    # the knock limit (rules §1.3), a knob issue 23 names: the players whose gap it could move, at the small
    # search budget, so a column costs minutes, not hours
    house_rule_columns={"rumino-knock-limit": ("knock_max_deadwood", (3, 7, 10), ("random", "greedy", "search:20"))},
    whole_game=WholeGame(bots="greedy", seed=0, rules=(("knock_max_deadwood", 15),),
                         why="knock limit 15 instead of 7: the hands end after a few turns, so a player passes 100 "
                             "and is out within a few hands"),
)
"""Rumino's row of the registry (:mod:`rumino.variants`)."""

__all__ = ["VARIANT", "ACTIONS", "CALL", "CLAIM", "ENDINGS", "HAND_SIZE", "MAX_SEATS", "MIN_PLAYERS", "PACK", "PASS", "RUMINO",
           "CallRumino", "ClaimRumino", "Evaluator", "GameResult", "HandResult", "PassClaim", "RuminoGame",
           "RuminoRules", "RuminoView", "evaluator_for", "is_rumino", "rumino_in", "rumino_outs",
           "DEAL", "DECLINE", "DRAW_DISCARD", "DRAW_STOCK", "KNOCK", "REBUY"]
