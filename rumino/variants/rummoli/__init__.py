"""Rummoli (rules §2): its rules, engine and results (:mod:`.game`) and its default bot (:mod:`.bots`)."""

from rumino.variants.rummoli.game import (ACTIONS, AD, AK_SECTION, BET, CALL, CHECK, CLAIM, DEAL, FOLD, FORGO, KD,
                                          KEEP, KEEP_UNSOLD, PACK, PASS, PAY_CARDS, PHASES, POKER_SECTION, RAISE,
                                          RED, RUMMOLI, RUMMOLI_SECTION, SECTIONS, SEQ_SECTION, SINGLE_PAY,
                                          STRENGTH, SWAP, Bet, Bid, BoardLedger, Call, Check, Claim, DealResult, Fold,
                                          Forgo, GameResult, Keep, Pass, Play, Raise, RummoliGame, RummoliRules,
                                          RummoliView, StopsKnowledge, Swap, best_five, hand_sizes, next_up)

__all__ = ["ACTIONS", "AD", "AK_SECTION", "BET", "CALL", "CHECK", "CLAIM", "DEAL", "FOLD", "FORGO", "KD", "KEEP",
           "KEEP_UNSOLD", "PACK", "PASS", "PAY_CARDS", "PHASES", "POKER_SECTION", "RAISE", "RED", "RUMMOLI",
           "RUMMOLI_SECTION", "SECTIONS", "SEQ_SECTION", "SINGLE_PAY", "STRENGTH", "SWAP", "Bet", "Bid",
           "BoardLedger", "Call", "Check", "Claim", "DealResult", "Fold", "Forgo", "GameResult", "Keep", "Pass", "Play",
           "Raise", "RummoliGame", "RummoliRules", "RummoliView", "StopsKnowledge", "Swap", "best_five", "hand_sizes",
           "next_up"]
