"""rumino: an exact engine for the rummy family (Rumino, Rummoli, Rommé, Robber, Wiener, Gin).

>>> import rumino
>>> rumino.min_deadwood(rumino.parse_hand("7h 8h 9h 10h 5c 5d 5s"), rumino.RUMINO_MELDS)
0
>>> rumino.find_variant("german rummy").title
'German Rommé'
"""

from rumino.hand.arrange import after_draw, all_best_arrangements, best_arrangement, max_opening, min_deadwood
from rumino.cards import JOKER, Pack, format_card, format_hand, parse_card, parse_hand
from rumino.errors import IllegalActionError, InvalidCardError, InvalidMeldError, RecordError, RuleConfigError, RuminoError
from rumino.melds import GIN_MELDS, ROBBER_MELDS, ROMME_MELDS, RUMINO_MELDS, WIENER_MELDS, MeldRules, check_meld, is_meld
from rumino.table.solver import arrange_table, solve_table
from rumino.variants import VARIANTS, find_variant
from rumino.engine import play
from rumino.players import make_players

RUMINO = VARIANTS["rumino"].rules  # the package's own game, read from its row of the registry (rules §1)
RuminoGame = VARIANTS["rumino"].game
RuminoRules = VARIANTS["rumino"].rules_class

__version__ = "0.1.0"

__all__ = [
    "after_draw", "all_best_arrangements", "best_arrangement", "max_opening", "min_deadwood",
    "JOKER", "Pack", "format_card", "format_hand", "parse_card", "parse_hand",
    "IllegalActionError", "InvalidCardError", "InvalidMeldError", "RecordError", "RuleConfigError", "RuminoError",
    "GIN_MELDS", "ROBBER_MELDS", "ROMME_MELDS", "RUMINO_MELDS", "WIENER_MELDS", "MeldRules", "check_meld", "is_meld",
    "arrange_table", "solve_table",
    "VARIANTS", "find_variant", "RUMINO", "RuminoGame", "RuminoRules", "play", "make_players",
]
