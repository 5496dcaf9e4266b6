"""Robber Rummy (rules §4): its rules, engine and results (:mod:`.game`) and its bots' decisions (:mod:`.bots`)."""

from rumino.variants.robber.game import (ACTIONS, ENDINGS, HAND_SIZE, PACK, PASS, ROBBER, GameResult, Pass, Place,
                                         RobberGame, RobberHandResult, RobberRules, RobberView, Verdict)

from rumino.engine.variant import GameBots, Variant, WholeGame
from rumino.variants.robber import bots
from rumino.variants.robber.words import RobberNarrator

BOTS = GameBots(decide=bots.choose_robber,  # the exact table solver's move (rules §4)
                coach=("best move (exact solver)", bots.coach_move),
                # a Robber rollout calls the exact table solver on every turn, up to about 0.2 s a rollout early
                # in a hand, so 8 rollouts take about a second there and much less later; at 8 the best player
                # has too few worlds a move to search (players.search.MIN_WORLDS_TO_LEAVE) and plays the solver's
                search_budget=8, best_budget=8)
"""Robber Rummy's bots: the solver's move for the greedy-type bots and the coach, and the search's budget."""

VARIANT = Variant(
    key="robber", aliases=("robber", "robber rummy", "robbers rummy", "robbers' rummy", "rauber-romme",
                           "räuber-rommé", "rauber romme"),
    rules=ROBBER, game=RobberGame, section="§4", hand_sizes=tuple(range(1, 31)), bots=BOTS, narrator=RobberNarrator,
    hand_extras=("opening",),
    opening_sizes=(13, 12, 11),  # the opening odds: the hand_size knob's 11–13
    move_example="place 5c 6c 7c | 7c 8c 9c   (the whole table after the move, JK(8d) for a joker)",
    # one search budget, the default 8: already about a second a decision early in a hand
    ladder=("random", "greedy", "search:8"),
    whole_game=WholeGame(bots="greedy", seed=5,
                         why="no rule shortened: a game of Robber Rummy is one hand, won by the first player out"),
)
"""Robber Rummy's row of the registry (:mod:`rumino.variants`)."""

__all__ = ["VARIANT", "ACTIONS", "ENDINGS", "HAND_SIZE", "PACK", "PASS", "ROBBER", "GameResult", "Pass", "Place", "RobberGame",
           "RobberHandResult", "RobberRules", "RobberView", "Verdict"]
