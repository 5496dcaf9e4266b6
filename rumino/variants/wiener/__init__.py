"""Wiener Rummy (rules §5) and American Knock Rummy (§5.8): their rules, engines and results (:mod:`.game`) and
their bots' decisions (:mod:`.bots`)."""

from rumino.variants.wiener.game import (ACTIONS, BUYBACK, DECLINE_BUYBACK, KNOCK_MONEY, KNOCK_RUMMY,
                                         KNOCK_RUMMY_ACTIONS, KNOCK_RUMMY_PACK, PACK, WIENER, WIENER_13, BuyBack,
                                         CallRummy, DeclineBuyBack, GameResult, HandResult, KnockRummyGame,
                                         KnockRummyRules, LayOff, WienerGame, WienerRules, WienerView,
                                         knock_rummy_settlement)

from rumino.engine.variant import GameBots, Variant, WholeGame
from rumino.variants.wiener import bots, playout
from rumino.variants.wiener.words import KnockRummyNarrator, WienerNarrator

BOTS = GameBots(decide=bots.wiener_choice,  # buy-backs, calls (rules §5)
                # heads-up rollouts run compiled (exact against the engine's)
                batch_playouts=(playout.sample_worlds, playout.search_playouts),
                best_budget=2000,  # the best player's budget: about 0.08 s a decision (bench/bench_search.py)
                best_policy=bots.CarefulWienerPlayer)  # its moves unless the search finds better
"""Wiener's bots: buy-backs, calls (rules §5), its compiled heads-up playouts, the best player's budget and
the careful bot whose moves it keeps."""

KNOCK_RUMMY_BOTS = GameBots(decide=bots.wiener_choice,  # Wiener's decisions (§5.8), no compiled playouts
                            best_budget=300)
"""American Knock Rummy's bots: Wiener's decisions (rules §5.8) and the best player's budget."""

VARIANT = Variant(
    key="wiener", aliases=("wiener", "wiener rummy", "viennese rummy", "101", "romme ohne auslegen",
                           "rommé ohne auslegen"),
    rules=WIENER, game=WienerGame, section="§5", knock_field="knock_max_deadwood", bots=BOTS, narrator=WienerNarrator,
    ladder=("random", "greedy", "threshold:3", "search:15", "search:65"),
    whole_game=WholeGame(bots="greedy", seed=8, rules=(("knock_max_deadwood", 20),),
                         why="knock limit 20 instead of 5: the knocks come early, so the deadwood piles up fast "
                             "and a player soon passes 100"),
)
"""Wiener Rummy's row of the registry (:mod:`rumino.variants`)."""

KNOCK_RUMMY_VARIANT = Variant(
    key="knock-rummy", aliases=("knock rummy", "american knock rummy", "knock"),
    rules=KNOCK_RUMMY, game=KnockRummyGame, section="§5.8",
    # rules §5.8: 10 cards for 2 players, 7 for 3–4 (the default table of 4), 6 for 5
    hand_sizes=(6, 7, 8, 10, 11), knock_field="knock_max_deadwood", bots=KNOCK_RUMMY_BOTS, narrator=KnockRummyNarrator,
    ladder=("random", "greedy", "threshold:3", "search:40", "search:300"),
    whole_game=WholeGame(bots="greedy", seed=2, rules=(("game_to", 60),),
                         why="the game to 60 points instead of 100: fewer hands to win"),
)
"""American Knock Rummy's row of the registry (:mod:`rumino.variants`)."""

__all__ = ["VARIANT", "KNOCK_RUMMY_VARIANT", "ACTIONS", "BUYBACK", "DECLINE_BUYBACK", "KNOCK_MONEY", "KNOCK_RUMMY", "KNOCK_RUMMY_ACTIONS",
           "KNOCK_RUMMY_PACK", "PACK", "WIENER", "WIENER_13", "BuyBack", "CallRummy", "DeclineBuyBack", "GameResult",
           "HandResult", "KnockRummyGame", "KnockRummyRules", "LayOff", "WienerGame", "WienerRules", "WienerView",
           "knock_rummy_settlement"]
