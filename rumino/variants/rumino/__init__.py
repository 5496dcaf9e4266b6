"""Rumino (rules §1): its rules, engine and results (:mod:`.game`) and its public names."""

from rumino.variants.rumino.game import (ACTIONS, CALL, CLAIM, DEAL, DECLINE, DRAW_DISCARD, DRAW_STOCK, ENDINGS,
                                         HAND_SIZE, KNOCK, MAX_SEATS, MIN_PLAYERS, PACK, PASS, REBUY, RUMINO,
                                         CallRumino, ClaimRumino, Evaluator, GameResult, HandResult, PassClaim,
                                         RuminoGame, RuminoRules, RuminoView, evaluator_for, is_rumino, rumino_in,
                                         rumino_outs)

__all__ = ["ACTIONS", "CALL", "CLAIM", "ENDINGS", "HAND_SIZE", "MAX_SEATS", "MIN_PLAYERS", "PACK", "PASS", "RUMINO",
           "CallRumino", "ClaimRumino", "Evaluator", "GameResult", "HandResult", "PassClaim", "RuminoGame",
           "RuminoRules", "RuminoView", "evaluator_for", "is_rumino", "rumino_in", "rumino_outs",
           "DEAL", "DECLINE", "DRAW_DISCARD", "DRAW_STOCK", "KNOCK", "REBUY"]
