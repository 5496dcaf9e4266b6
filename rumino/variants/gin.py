"""Gin Rummy, the baseline for comparisons (RULES.md §6).

>>> GIN.knock_max_deadwood, GIN.meld_rules.pack.size
(10, 52)
"""

from __future__ import annotations

from dataclasses import dataclass
from functools import cached_property

from ..cards import STANDARD_PACK
from ..melds import GIN_MELDS, MeldRules
from ._fields import knob, validate

HAND_SIZE = 10


@dataclass(frozen=True, kw_only=True)
class GinRules:
    """Two-player Gin Rummy; bonus sizes vary between sources, so they are knobs."""

    knock_max_deadwood: int = knob(10, section="§6", low=0, high=100, doc="knock at this deadwood or less")
    gin_bonus: int = knob(25, section="§6", low=0, high=100, doc="bonus for going gin")
    undercut_bonus: int = knob(25, section="§6", choices=(25, 10, 20), doc="bonus to the opponent on an undercut")
    void_at_stock: int = knob(2, section="§6", low=0, high=10, doc="the hand is void when this many stock cards remain")
    game_to: int = knob(100, section="§6", low=1, high=10_000, doc="points that win the game")

    def __post_init__(self):
        validate(self)

    @cached_property
    def meld_rules(self) -> MeldRules:
        """Built once per rules object, so the evaluator's kernel tables are built once too."""
        return GIN_MELDS


GIN = GinRules()
PACK = STANDARD_PACK
