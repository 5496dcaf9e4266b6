"""Robber Rummy, *Räuber-Rommé*: Rommé with table rearrangement, the ancestor of Rummikub (RULES.md §4).

>>> ROBBER.discard_pile, ROBBER.meld_rules.set_suits
(False, 'distinct')
"""

from __future__ import annotations

from dataclasses import dataclass
from functools import cached_property

from ..melds import ROBBER_MELDS, MeldRules
from ._fields import knob, validate
from .romme import romme_meld_rules

HAND_SIZE = 13


@dataclass(frozen=True, kw_only=True)
class RobberRules:
    """The rules of Robber Rummy; every field is a knob of RULES §4 and §7 (RR1–RR6)."""

    hand_size: int = knob(13, section="§4.1", choices=(13, 12, 11), doc="cards dealt to each player")
    n_jokers: int = knob(6, section="§4.1", choices=(6, 5, 4, 3, 2), doc="jokers in the pack")
    ace: str = knob("both", section="§4.2", choices=("both", "around"), doc="around also allows K-A-2")
    joker_rules: str = knob("seed", section="§3.2", choices=("seed", "one_per_meld", "lenient"),
                            doc="Rommé joker limits")
    opening_min: int = knob(40, section="§4.3", choices=(40, 30, 35, 42, 50), doc="first meld total, from own hand")
    discard_pile: bool = knob(False, section="§4.3", choices=(False, True),
                              doc="False: place or draw one card; True: a Rommé turn with a discard")
    illegal_manipulation_penalty: str = knob("reject", section="§4.3", choices=("reject", "draw3"),
                                             doc="reject the move, or restore the table and draw 3")
    scoring: str = knob("none", section="§4.4", choices=("none", "romme_penalties"),
                        doc="winner only, or Rommé penalties for the others")
    joker_penalty: int = knob(20, section="§3.3", choices=(20, 25, 30), doc="penalty of a joker left in hand")
    ace_penalty: int = knob(11, section="§3.3", choices=(11, 10, 15), doc="penalty of an ace left in hand")

    def __post_init__(self):
        validate(self)

    @cached_property
    def meld_rules(self) -> MeldRules:
        """Built once per rules object, so the evaluator's kernel tables are built once too."""
        return romme_meld_rules(ROBBER_MELDS, n_jokers=self.n_jokers, ace=self.ace, joker_rules=self.joker_rules,
                                joker_penalty=self.joker_penalty, ace_penalty=self.ace_penalty)


ROBBER = RobberRules()
PACK = ROBBER_MELDS.pack
