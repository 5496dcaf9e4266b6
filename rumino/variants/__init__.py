"""The registry of variants: every game, one folder each (``rumino/variants/<game>/``), one row each.

A game's folder holds everything that is the game's own (rules and knobs, engine, results, its bots'
decisions, its words) and builds its own :class:`Variant` row (``VARIANT``); this module lists the rows,
finds a game by name or alias, and finds the row of a game class. Nothing outside a game's folder imports
it but this registry (the import-linter contract in ``pyproject.toml``): the CLI, records, simulations,
widgets, tournaments and comparisons read a game from its row. See ``docs/adding_a_game.md``.

>>> find_variant("German Rummy").key, find_variant("101").key, find_variant("gin rummy").title
('romme', 'wiener', 'Gin Rummy')
>>> find_variant("knock rummy").title, find_variant("knock-rummy").key
('American Knock Rummy', 'knock-rummy')
>>> find_variant("canasta")
Traceback (most recent call last):
...
rumino.errors.RuleConfigError: unknown variant 'canasta': choose one of rumino, rummoli, romme, robber, wiener, gin, knock-rummy, oklahoma.
"""

from __future__ import annotations

from typing import Any

from rumino.engine.variant import GameBots, Variant, WholeGame
from rumino.errors import RuleConfigError
from rumino.variants import gin, oklahoma, robber, romme, rummoli, rumino, wiener

VARIANTS: dict[str, Variant] = {v.key: v for v in (
    rumino.VARIANT,
    rummoli.VARIANT,
    romme.VARIANT,
    robber.VARIANT,
    wiener.VARIANT,
    gin.VARIANT,
    wiener.KNOCK_RUMMY_VARIANT,
    oklahoma.VARIANT,
)}
"""Every game by its key, in the order the book and the commands list them."""


def _norm(name: str) -> str:
    return " ".join(name.strip().lower().replace("_", " ").replace("-", " ").split())


_ALIASES = {_norm(a): v for v in VARIANTS.values() for a in (v.key, v.title, *v.aliases)}
_BY_GAME = {v.game: v for v in VARIANTS.values() if v.game is not None}
_OF: dict[type, Variant | None] = {}
NO_BOTS = GameBots()
"""The bots' hooks of a game no row names: the generic play of every hook."""


def playable_variants() -> dict[str, Variant]:
    """The variants with an engine, by key (what ``rumino simulate|play --variant`` accepts)."""
    return {k: v for k, v in VARIANTS.items() if v.game is not None}


def find_variant(name: str | Variant) -> Variant:
    """Look a variant up by key, title or alias (case and punctuation do not matter)."""
    if isinstance(name, Variant):
        return name
    v = _ALIASES.get(_norm(str(name)))
    if v is None:
        raise RuleConfigError(f"unknown variant {name!r}: choose one of {', '.join(VARIANTS)}.")
    return v


def variant_of(game: Any) -> Variant | None:
    """The row of a game class (or of a game), found by the class and then its parents: a house game that
    stands on a registered one, without a row of its own, is read from that one's row; None for a game no
    row names (a test's toy game).

    >>> from rumino.engine.drawdiscard import DrawDiscardGame
    >>> variant_of(find_variant("gin").game).key, variant_of(DrawDiscardGame) is None
    ('gin', True)
    """
    cls = game if isinstance(game, type) else type(game)
    try:
        return _OF[cls]
    except KeyError:
        pass
    found = next((_BY_GAME[c] for c in cls.__mro__ if c in _BY_GAME), None)
    _OF[cls] = found
    return found


def bots_of(game: Any) -> GameBots:
    """What a game's folder tells the generic bots (:class:`~rumino.engine.variant.GameBots`), by the game's
    class and its parents (:func:`variant_of`); the generic play where no row names it."""
    v = variant_of(game)
    return NO_BOTS if v is None else v.bots


__all__ = ["Variant", "GameBots", "WholeGame", "VARIANTS", "NO_BOTS", "find_variant", "playable_variants",
           "variant_of", "bots_of"]
