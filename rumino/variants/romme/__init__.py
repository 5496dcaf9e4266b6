"""German Rommé (rules §3): its rules (:mod:`.rules`), engine and results (:mod:`.game`) and its bots' decisions
(:mod:`.bots`)."""

from rumino.variants.romme.rules import HAND_SIZE, PACK, ROMME, RommeRules, romme_meld_rules
from rumino.variants.romme.game import (ACTIONS, ENDINGS, GameResult, HandResult, Play, PlayOutcome, PlayRefused,
                                        RommeGame, RommeView, best_opening_melds, could_lay_off, evaluate_play,
                                        joker_exchanges, joker_slides, lay_of, layout_melds, menu_plays, parse_step,
                                        plays_laying, step_text, without_cards)

__all__ = ["HAND_SIZE", "PACK", "ROMME", "RommeRules", "romme_meld_rules", "ACTIONS", "ENDINGS", "GameResult",
           "HandResult", "Play", "PlayOutcome", "PlayRefused", "RommeGame", "RommeView", "best_opening_melds",
           "could_lay_off", "evaluate_play", "joker_exchanges", "joker_slides", "lay_of", "layout_melds", "menu_plays",
           "parse_step", "plays_laying", "step_text", "without_cards"]
