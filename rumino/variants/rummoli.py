"""Rummoli: the Irwin Toy poker-then-stops game with a 9-section play sheet (RULES.md §2).

Rummoli has no melds: its "rummy" phase is a stops game, so it has no meld
rules and no deadwood (``RUMMOLI.meld_rules`` is ``None``).

>>> RUMMOLI.initial_chips, len(SECTIONS)
(100, 9)
"""

from __future__ import annotations

from dataclasses import dataclass

from ..cards import STANDARD_PACK
from ._fields import knob, validate

# RULES §2.2, the play sheet.
SECTIONS = ("rummoli", "poker", "10s", "Jd", "Qc", "Kh", "As", "Ad+Kd", "7-8-9")


@dataclass(frozen=True, kw_only=True)
class RummoliRules:
    """The rules of Rummoli; every field is a knob of RULES §2.7."""

    initial_chips: int = knob(100, section="§2.1", low=9, high=1_000_000, doc="chips each player starts with")
    widow_deal_position: str = knob("last", section="§2.1", choices=("last", "first"),
                                    doc="where the widow takes its card in each round of the deal")
    widow_paycard_restriction: bool = knob(False, section="§2.3", choices=(False, True),
                                           doc="no swap or bid by a player holding a pay card")
    widow_auction: str = knob("open", section="§2.3", choices=("open", "sealed", "none"), doc="how the widow is sold")
    poker_method: str = knob("showdown", section="§2.4", choices=("showdown", "betting"), doc="how the poker pot is won")
    bet_size: int = knob(1, section="§2.4", low=1, high=100, doc="fixed-limit bet or raise")
    raise_cap: int = knob(3, section="§2.4", low=0, high=20, doc="raises per betting round")
    colour_change_rule: str = knob("irwin", section="§2.5", choices=("irwin", "fine_per_pass", "any_colour_fallback"),
                                   doc="what happens when the leader cannot change colour")
    manual_claims: bool = knob(False, section="§2.5", choices=(False, True), doc="pay cards must be claimed in time")
    final_sweep: str = knob("cut", section="§2.6", choices=("cut", "poker_deal"), doc="who takes the sheet at the end")

    def __post_init__(self):
        validate(self)

    @property
    def meld_rules(self):
        return None


RUMMOLI = RummoliRules()
PACK = STANDARD_PACK
