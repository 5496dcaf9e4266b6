"""Gin Rummy (rules §6): its rules, engine and results (:mod:`.game`), its bots' decisions (:mod:`.bots`) and
their compiled playouts (:mod:`.playout`)."""

from rumino.variants.gin.game import (ACTIONS, ENDINGS, GIN, HAND_SIZE, PACK, PASS, GameResult, GinGame, GinRules,
                                      GinView, HandResult, Pass, best_arrangements, best_layoffs, gin_melds,
                                      layoff_options, run_span)

__all__ = ["ACTIONS", "ENDINGS", "GIN", "HAND_SIZE", "PACK", "PASS", "GameResult", "GinGame", "GinRules", "GinView",
           "HandResult", "Pass", "best_arrangements", "best_layoffs", "gin_melds", "layoff_options", "run_span"]
