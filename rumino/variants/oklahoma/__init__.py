"""Oklahoma Gin (rules §6.1): Gin Rummy whose first upcard sets the hand's knock limit and, a spade, doubles
it. Its rules and engine (:mod:`.game`) stand on Gin's; its bots are Gin's, their rollouts on Gin's compiled
kernel told the hand's limit and doubling (:mod:`.playout`)."""

import dataclasses

from rumino.variants.oklahoma.game import (OKLAHOMA, OklahomaGame, OklahomaHandResult, OklahomaRules, OklahomaView,
                                           upcard_limit)

from rumino.engine.variant import Variant, WholeGame
from rumino.variants.gin import BOTS as GIN_BOTS
from rumino.variants.oklahoma import playout
from rumino.variants.oklahoma.words import OklahomaNarrator

BOTS = dataclasses.replace(
    GIN_BOTS,
    # Gin's compiled kernel told the hand's limit and doubling (.playout): the best player's budget is Gin's.
    # Until it was, the rollouts ran on the engine at 100 a decision, and that player lost to greedy
    # (47.3% [45.1, 49.5] of 2,000 hands): with about a dozen worlds a candidate, the search followed noise
    batch_playouts=(playout.sample_worlds, playout.playouts))
"""Oklahoma's bots: Gin's, its rollouts on Gin's kernel at the hand's own limit (:mod:`.playout`)."""

VARIANT = Variant(
    key="oklahoma", aliases=("oklahoma gin", "oklahoma gin rummy"), rules=OKLAHOMA, game=OklahomaGame,
    section="§6.1", knock_field="knock_max_deadwood", has_gin=True, bots=BOTS, narrator=OklahomaNarrator,
    # the ladder was played when a search here rolled out on the engine (about 15 times slower a rollout),
    # so it stops at Gin's everyday budget; the strength matches (book/data/family_strength.json) play the best
    ladder=("random", "greedy", "threshold:3", "search:200"),
    whole_game=WholeGame(bots="greedy", seed=2, rules=(("game_to", 50),),
                         why="the game to 50 points instead of 150: a third of the points to win"),
)
"""Oklahoma Gin's row of the registry (:mod:`rumino.variants`)."""

__all__ = ["VARIANT", "BOTS", "OKLAHOMA", "OklahomaGame", "OklahomaHandResult", "OklahomaRules", "OklahomaView",
           "upcard_limit"]
