"""German Rommé (rules §3): its rules (:mod:`.rules`), engine and results (:mod:`.game`) and its bots' decisions
(:mod:`.bots`)."""

from rumino.variants.romme.rules import HAND_SIZE, PACK, ROMME, RommeRules, romme_meld_rules
from rumino.variants.romme.game import (ACTIONS, ENDINGS, GameResult, HandResult, Play, PlayOutcome, PlayRefused,
                                        RommeGame, RommeView, best_opening_melds, could_lay_off, evaluate_play,
                                        joker_exchanges, joker_slides, lay_of, layout_melds, menu_plays, parse_step,
                                        plays_laying, step_text, without_cards)

from rumino.engine.variant import GameBots, Variant, WholeGame
from rumino.variants.romme import bots
from rumino.variants.romme.words import RommeNarrator

BOTS = GameBots(decide=bots.romme_choice,  # open at 40, lay, lay off, hand-Rommé (rules §3)
                coach=("suggested play (Rommé bot)", bots.coach_move),
                # a Rommé rollout is a long Python hand (about 6 ms): 100 rollouts take about 0.7 s
                # (bench/bench_search.py), where the search's default 200 would take more than a second
                search_budget=100,
                # the best player's budget: a long Python rollout (about 17 ms) keeps it near 0.1 s a decision;
                # 15 playouts leave too few worlds a move (players.search.MIN_WORLDS_TO_LEAVE), so the best
                # player plays the careful bot's moves
                best_budget=15,
                # the best player's own moves: the careful bot, which beat greedy in 63-66% of hands (four
                # seeded runs of 1,000 deals played twice) where the search on greedy's rollouts did not tell
                # itself from greedy (49.4% [47.2, 51.6])
                best_policy=bots.CarefulRommePlayer)
"""Rommé's bots: its greedy-type decisions, its coach's suggested play, the search's budget and the best
player's careful moves."""

VARIANT = Variant(
    key="romme", aliases=("romme", "rommé", "german romme", "german rommé", "german rummy", "romme mit auslegen",
                          "rommé mit auslegen"),
    rules=ROMME, game=RommeGame, section="§3", hand_sizes=tuple(range(1, 15)), bots=BOTS, narrator=RommeNarrator,
    hand_extras=("penalty", "opening"),
    # the opening odds: 13 cards, the dealer 14 (deal_mode dealer14), 11 with 5–6 players (hand_size_5_6p)
    opening_sizes=(13, 14, 11),
    move_example="play lay 10s Js Qs; layoff 8h on 0; exchange 7h on 1",
    # a Rommé rollout is a long Python hand (about 17 ms): small budgets keep a decision near 0.1 s
    ladder=("random", "greedy", "search:5", "search:15"),
    # the opening minimum (rules §3.4), a knob issue 23 names
    house_rule_columns={"romme-opening": ("opening_min", (30, 40, 50), ("greedy", "search:5"))},
    whole_game=WholeGame(bots="greedy", seed=0,
                         why="no rule shortened: the game is one round of deals, one hand dealt by each player"),
)
"""German Rommé's row of the registry (:mod:`rumino.variants`)."""

__all__ = ["VARIANT", "HAND_SIZE", "PACK", "ROMME", "RommeRules", "romme_meld_rules", "ACTIONS", "ENDINGS", "GameResult",
           "HandResult", "Play", "PlayOutcome", "PlayRefused", "RommeGame", "RommeView", "best_opening_melds",
           "could_lay_off", "evaluate_play", "joker_exchanges", "joker_slides", "lay_of", "layout_melds", "menu_plays",
           "parse_step", "plays_laying", "step_text", "without_cards"]
