"""Oklahoma Gin (rules §6.1): Gin Rummy whose first upcard sets the hand's knock limit and, a spade, doubles
it. Its rules and engine (:mod:`.game`) stand on Gin's; its bots are Gin's, with a smaller budget for the best
player (below)."""

import dataclasses

from rumino.variants.oklahoma.game import (OKLAHOMA, OklahomaGame, OklahomaHandResult, OklahomaRules, OklahomaView,
                                           upcard_limit)

from rumino.engine.variant import Variant, WholeGame
from rumino.variants.gin import BOTS as GIN_BOTS
from rumino.variants.oklahoma.words import OklahomaNarrator

BOTS = dataclasses.replace(
    GIN_BOTS,
    # Gin's compiled playouts know Gin's fixed limit only, so the best player rolls out on the engine here:
    # Gin's 5,000 rollouts took minutes a decision; 100 take about 0.1 s (search:200 measured 0.22 s)
    best_budget=100)
"""Oklahoma's bots: Gin's, with the best player's budget cut to the engine's pace."""

VARIANT = Variant(
    key="oklahoma", aliases=("oklahoma gin", "oklahoma gin rummy"), rules=OKLAHOMA, game=OklahomaGame,
    section="§6.1", knock_field="knock_max_deadwood", has_gin=True, bots=BOTS, narrator=OklahomaNarrator,
    # Gin's compiled playouts know Gin's fixed limit only: a search here rolls out on the engine (about 15
    # times slower a rollout), so the ladder stops at Gin's everyday budget
    ladder=("random", "greedy", "threshold:3", "search:200"),
    whole_game=WholeGame(bots="greedy", seed=2, rules=(("game_to", 50),),
                         why="the game to 50 points instead of 150: a third of the points to win"),
)
"""Oklahoma Gin's row of the registry (:mod:`rumino.variants`)."""

__all__ = ["VARIANT", "BOTS", "OKLAHOMA", "OklahomaGame", "OklahomaHandResult", "OklahomaRules", "OklahomaView",
           "upcard_limit"]
