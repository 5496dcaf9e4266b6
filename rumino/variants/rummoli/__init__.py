"""Rummoli (rules §2): its rules, engine and results (:mod:`.game`) and its default bot (:mod:`.bots`)."""

from rumino.variants.rummoli.game import (ACTIONS, AD, AK_SECTION, BET, CALL, CHECK, CLAIM, DEAL, FOLD, FORGO, KD,
                                          KEEP, KEEP_UNSOLD, PACK, PASS, PAY_CARDS, PHASES, POKER_SECTION, RAISE,
                                          RED, RUMMOLI, RUMMOLI_SECTION, SECTIONS, SEQ_SECTION, SINGLE_PAY,
                                          STRENGTH, SWAP, Bet, Bid, BoardLedger, Call, Check, Claim, DealResult, Fold,
                                          Forgo, GameResult, Keep, Pass, Play, Raise, RummoliGame, RummoliRules,
                                          RummoliView, StopsKnowledge, Swap, best_five, hand_sizes, next_up)

from rumino.engine.variant import GameBots, Variant, WholeGame
from rumino.variants.rummoli import bots
from rumino.variants.rummoli.words import RummoliNarrator

BOTS = GameBots(players={"default": bots.RummoliDefault},
                # the search keeps the default bot's move unless another beats it, and rolls out with it
                rollout=lambda rng: bots.RummoliDefault(rng=rng),
                best_budget=200)  # the best player's budget: about 0.1 s a decision
"""Rummoli's bots: its default bot, the search's rollout policy."""

VARIANT = Variant(
    key="rummoli", aliases=("rummoli", "rumoli", "rummolli"), rules=RUMMOLI, game=RummoliGame, section="§2",
    hand_size=0, hand_sizes=(), bot="default", bots=BOTS, narrator=RummoliNarrator, tally="chips", narration="stops",
    # 200 rollouts of a fast deal are about 0.1 s a decision: the search tries the widow, the bids and the leads
    ladder=("random", "default", "search:40", "search:200"),
    whole_game=WholeGame(bots="default,default", seed=1,
                         why="no rule shortened: one round of the deal, one deal by each of the three players"),
)
"""Rummoli's row of the registry (:mod:`rumino.variants`)."""

__all__ = ["VARIANT", "ACTIONS", "AD", "AK_SECTION", "BET", "CALL", "CHECK", "CLAIM", "DEAL", "FOLD", "FORGO", "KD", "KEEP",
           "KEEP_UNSOLD", "PACK", "PASS", "PAY_CARDS", "PHASES", "POKER_SECTION", "RAISE", "RED", "RUMMOLI",
           "RUMMOLI_SECTION", "SECTIONS", "SEQ_SECTION", "SINGLE_PAY", "STRENGTH", "SWAP", "Bet", "Bid",
           "BoardLedger", "Call", "Check", "Claim", "DealResult", "Fold", "Forgo", "GameResult", "Keep", "Pass", "Play",
           "Raise", "RummoliGame", "RummoliRules", "RummoliView", "StopsKnowledge", "Swap", "best_five", "hand_sizes",
           "next_up"]
