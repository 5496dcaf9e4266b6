"""Robber Rummy (rules §4): its rules, engine and results (:mod:`.game`) and its bots' decisions (:mod:`.bots`)."""

from rumino.variants.robber.game import (ACTIONS, ENDINGS, HAND_SIZE, PACK, PASS, ROBBER, GameResult, Pass, Place,
                                         RobberGame, RobberHandResult, RobberRules, RobberView, Verdict)

__all__ = ["ACTIONS", "ENDINGS", "HAND_SIZE", "PACK", "PASS", "ROBBER", "GameResult", "Pass", "Place", "RobberGame",
           "RobberHandResult", "RobberRules", "RobberView", "Verdict"]
