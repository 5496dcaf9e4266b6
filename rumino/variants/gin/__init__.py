"""Gin Rummy (rules §6): its rules, engine and results (:mod:`.game`), its bots' decisions (:mod:`.bots`) and
their compiled playouts (:mod:`.playout`)."""

from rumino.variants.gin.game import (ACTIONS, ENDINGS, GIN, HAND_SIZE, PACK, PASS, GameResult, GinGame, GinRules,
                                      GinView, HandResult, Pass, best_arrangements, best_layoffs, gin_melds,
                                      layoff_options, run_span)

from rumino.engine.variant import GameBots, Variant, WholeGame
from rumino.variants.gin import bots, playout
from rumino.variants.gin.words import GinNarrator

BOTS = GameBots(decide=bots.choose_gin,  # the upcard offer, the wall (rules §6)
                # Gin's rollouts run compiled (exact against the engine's)
                batch_playouts=(playout.sample_worlds, playout.playouts),
                plain_rollouts=True,  # the kernel can play the opponent as a plain player (plain=seat)
                best_budget=5000)  # the best player's budget: about 0.1 s a decision (bench/bench_search.py)
"""Gin's bots: its greedy-type decisions, its compiled playouts and the best player's budget."""

VARIANT = Variant(
    key="gin", aliases=("gin", "gin rummy"), rules=GIN, game=GinGame, section="§6",
    knock_field="knock_max_deadwood", has_gin=True, bots=BOTS, narrator=GinNarrator,
    # search:5000 is the tournament budget: about 0.06 s a decision on the compiled playouts (issue 23)
    ladder=("random", "greedy", "threshold:3", "search:200", "search:5000"),
    whole_game=WholeGame(bots="greedy", seed=2, rules=(("game_to", 50),),
                         why="the game to 50 points instead of 100: half the points to win"),
)
"""Gin Rummy's row of the registry (:mod:`rumino.variants`)."""

__all__ = ["VARIANT", "ACTIONS", "ENDINGS", "GIN", "HAND_SIZE", "PACK", "PASS", "GameResult", "GinGame", "GinRules", "GinView",
           "HandResult", "Pass", "best_arrangements", "best_layoffs", "gin_melds", "layoff_options", "run_span"]
