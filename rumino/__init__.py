"""rumino: an exact engine for the rummy family (Rumino, Rummoli, Rommé, Robber, Wiener, American Knock Rummy, Gin and Oklahoma Gin).

>>> import rumino
>>> rumino.min_deadwood(rumino.parse_hand("7h 8h 9h 10h 5c 5d 5s"), rumino.RUMINO_MELDS)
0
>>> rumino.find_variant("german rummy").title
'German Rommé'

The names below load on first use (PEP 562's module ``__getattr__``): ``import rumino`` and the
``rumino`` command's ``--help`` stay quick, and numba, numpy and plotly load only for the work
that needs them.
"""

from __future__ import annotations

import importlib

TYPE_CHECKING = False  # typing.TYPE_CHECKING's idiom without importing typing: the start stays short

__version__ = "0.1.0"

# every public name and the module it comes from, read on first use
_WHERE = {
    "rumino.hand.arrange": ("after_draw", "all_best_arrangements", "best_arrangement", "max_opening", "min_deadwood"),
    "rumino.cards": ("JOKER", "Pack", "format_card", "format_hand", "parse_card", "parse_hand"),
    "rumino.errors": ("IllegalActionError", "InvalidCardError", "InvalidMeldError", "RecordError", "RuleConfigError",
                      "RuminoError"),
    "rumino.melds": ("GIN_MELDS", "ROBBER_MELDS", "ROMME_MELDS", "RUMINO_MELDS", "WIENER_MELDS", "MeldRules",
                     "check_meld", "is_meld"),
    "rumino.table.solver": ("arrange_table", "solve_table"),
    "rumino.variants": ("VARIANTS", "find_variant"),
    "rumino.engine": ("play",),
    "rumino.players": ("make_players",),
}
if TYPE_CHECKING:  # the same names, imported where tools read imports (the layers check, type checkers)
    from rumino.hand.arrange import after_draw, all_best_arrangements, best_arrangement, max_opening, min_deadwood
    from rumino.cards import JOKER, Pack, format_card, format_hand, parse_card, parse_hand
    from rumino.errors import (IllegalActionError, InvalidCardError, InvalidMeldError, RecordError, RuleConfigError,
                               RuminoError)
    from rumino.melds import (GIN_MELDS, ROBBER_MELDS, ROMME_MELDS, RUMINO_MELDS, WIENER_MELDS, MeldRules, check_meld,
                              is_meld)
    from rumino.table.solver import arrange_table, solve_table
    from rumino.variants import VARIANTS, find_variant
    from rumino.engine import play
    from rumino.players import make_players

# the package's own game, read from its row of the registry (rules §1): nothing outside rumino/variants/
# imports a game's folder (the layers contract)
_OWN_GAME = {"RUMINO": "rules", "RuminoGame": "game", "RuminoRules": "rules_class"}

_MODULE_OF = {name: module for module, names in _WHERE.items() for name in names}

__all__ = [name for names in _WHERE.values() for name in names] + list(_OWN_GAME)


def __getattr__(name: str):
    if name in _OWN_GAME:
        value = getattr(importlib.import_module("rumino.variants").VARIANTS["rumino"], _OWN_GAME[name])
        globals()[name] = value
        return value
    module = _MODULE_OF.get(name)
    if module is None:
        raise AttributeError(f"module 'rumino' has no attribute {name!r}")
    value = getattr(importlib.import_module(module), name)
    globals()[name] = value  # the next look-up is an ordinary attribute
    return value


def __dir__() -> list[str]:
    return sorted(set(globals()) | set(__all__))
