"""Wiener Rummy, *Rommé ohne Auslegen* / 101: 10 cards, knock at 5, out at 101 (RULES.md §5).

>>> WIENER.knock_max_deadwood, WIENER.meld_rules.pack.size, WIENER_13.hand_size
(5, 106, 13)
"""

from __future__ import annotations

from dataclasses import dataclass, replace
from functools import cached_property

from ..melds import WIENER_MELDS, MeldRules
from ._fields import knob, validate


@dataclass(frozen=True, kw_only=True)
class WienerRules:
    """The rules of Wiener Rummy; every field is a knob of RULES §5.7."""

    deal_mode: str = knob("dealer11", section="§5.1", choices=("dealer11", "upcard"),
                          doc="dealer11: the dealer holds 11 and discards first; upcard: 10 each and an upcard")
    hand_size: int = knob(10, section="§5.6", choices=(10, 13), doc="cards each (13: the 13-card ohne-Auslegen form)")
    knock_max_deadwood: int = knob(5, section="§5.4", low=0, high=100, doc="knock at this deadwood or less")
    extra_turn_after_knock: bool = knob(True, section="§5.4", choices=(True, False),
                                        doc="the others draw and discard once more after a knock")
    knock_undercut_penalty: int = knob(0, section="§5.4", choices=(0, 10), doc="added to an undercut knocker")
    ace_value: int = knob(11, section="§5.3", choices=(11, 10), doc="deadwood of an ace")
    joker_value: int = knob(20, section="§5.3", choices=(20, 25), doc="deadwood of a joker")
    entry_chips: int = knob(5, section="§5.5", low=0, high=10_000, doc="chips each player puts in the pot")
    buyback_chips: int = knob(5, section="§5.5", low=0, high=10_000, doc="price of the buy-back")
    buyback_low: int = knob(81, section="§5.5", low=0, high=100, doc="lowest score that may buy back")
    buyback_target: str = knob("highest_other", section="§5.5", choices=("highest_other", "literal_second_worst"),
                               doc="the score a buy-back goes down to")
    elimination_at: int = knob(101, section="§5.5", choices=(101,), doc="a score at or above this is out")
    rummy_call_money: int = knob(1, section="§5.5", choices=(1, 2), doc="chips from each other player to a rummy caller")
    knock_money_to_pot: bool = knob(False, section="§5.5", choices=(False, True), doc="knock money goes to the pot")
    stock_exhausted: str = knob("reshuffle", section="§0.4", choices=("reshuffle", "void_hand", "end_and_score"),
                                doc="what happens when the stock runs out")
    may_rediscard_pickup: bool = knob(False, section="§0.5", choices=(False, True),
                                      doc="may the card just taken from the discard pile be discarded again")

    def __post_init__(self):
        validate(self)

    @cached_property
    def meld_rules(self) -> MeldRules:
        """Built once per rules object, so the evaluator's kernel tables are built once too."""
        return replace(WIENER_MELDS, ace_value=self.ace_value, joker_value=self.joker_value)


WIENER = WienerRules()
# RULES §5.6: the 13-card form, knock under 10, no extra turn after a knock.
WIENER_13 = WienerRules(hand_size=13, knock_max_deadwood=9, extra_turn_after_knock=False)
PACK = WIENER_MELDS.pack
