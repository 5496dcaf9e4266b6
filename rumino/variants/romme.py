"""German Rommé, *Rommé mit Auslegen* (RULES.md §3).

>>> ROMME.opening_min, ROMME.meld_rules.min_naturals, ROMME.meld_rules.pack.size
(40, 2, 110)
"""

from __future__ import annotations

from dataclasses import dataclass, replace
from functools import cached_property

from rumino.cards import Pack
from rumino.melds import ROMME_MELDS, MeldRules
from rumino.variants._fields import knob, validate

HAND_SIZE = 13  # the dealer holds 14 under deal_mode="dealer14"


def romme_meld_rules(base: MeldRules, *, n_jokers: int, ace: str, joker_rules: str, joker_penalty: int,
                     ace_penalty: int) -> MeldRules:
    """Meld rules of the Rommé family from its knobs (RULES §3.2, §3.3)."""
    jr = {
        "seed": dict(min_naturals=2, max_jokers_per_meld=None, max_adjacent_jokers=2, adjacent_jokers_min_run=4),
        "one_per_meld": dict(min_naturals=2, max_jokers_per_meld=1, max_adjacent_jokers=1, adjacent_jokers_min_run=0),
        "lenient": dict(min_naturals=1, max_jokers_per_meld=None, max_adjacent_jokers=2, adjacent_jokers_min_run=0),
    }[joker_rules]
    return replace(base, pack=Pack(decks=2, jokers=n_jokers), ace=ace, joker_value=joker_penalty,
                   ace_value=ace_penalty, **jr)


@dataclass(frozen=True, kw_only=True)
class RommeRules:
    """The rules of German Rommé; every field is a knob of RULES §3.6."""

    n_jokers: int = knob(6, section="§3.1", choices=(6, 4, 2, 0), doc="jokers in the 110-card pack")
    deal_mode: str = knob("dealer14", section="§3.1", choices=("dealer14", "upcard_left_starts"),
                          doc="dealer14: 13 each, 14 to the dealer who starts; or 13 each plus an upcard")
    hand_size_5_6p: int = knob(13, section="§3.1", choices=(13, 11), doc="cards each with 5 or 6 players")
    cut_joker_robbing: bool = knob(False, section="§3.1", choices=(False, True), doc="the cutter keeps a bottom joker")
    ace: str = knob("both", section="§3.2", choices=("both", "around"), doc="A-2-3 and Q-K-A; around also K-A-2")
    joker_rules: str = knob("seed", section="§3.2", choices=("seed", "one_per_meld", "lenient"),
                            doc="seed: ≥2 naturals, two jokers side by side only in runs of 4+, never three")
    opening_min: int = knob(40, section="§3.4", choices=(40, 30, 35, 42, 50), doc="points the first melds must total")
    discard_pickup_rule: str = knob("free", section="§3.4", choices=("free", "must_meld_immediately"),
                                    doc="may the top discard be taken freely")
    pickup_counts_for_opening: bool = knob(True, section="§3.4", choices=(True, False),
                                           doc="a picked-up discard may count toward the opening")
    joker_exchange: str = knob("general", section="§3.4", choices=("general", "dskv"),
                               doc="dskv: a set's joker only when the set is completed to four")
    freed_joker_use: str = knob("new_meld", section="§3.4", choices=("new_meld", "new_meld_or_layoff"),
                                doc="where a freed joker must go at once")
    joker_penalty: int = knob(20, section="§3.3", choices=(20, 25, 30), doc="penalty of a joker left in hand")
    ace_penalty: int = knob(11, section="§3.3", choices=(11, 10, 15), doc="penalty of an ace left in hand")
    must_discard_to_go_out: bool = knob(False, section="§3.4", choices=(False, True),
                                        doc="must the last card be a discard")
    hand_romme_condition: str = knob("no_melds_by_anyone", section="§3.5",
                                     choices=("no_melds_by_anyone", "no_own_prior_melds"),
                                     doc="when laying out in one turn is a hand-Rommé")
    hand_romme_multiplier: int = knob(2, section="§3.5", low=1, high=10, doc="others' penalties are multiplied by this")
    winner_collects_sum: bool = knob(False, section="§3.5", choices=(False, True),
                                     doc="the winner is credited the others' penalties")
    game_end: str = knob("rotations:1", section="§3.5", choices=("rotations:1", "rotations:2", "rotations:3",
                                                                 "rotations:4", "threshold:500"),
                         doc="one rotation of deals, k rotations, or until someone passes 500")
    stock_exhausted: str = knob("reshuffle", section="§0.4", choices=("reshuffle", "void_hand", "end_and_score"),
                                doc="what happens when the stock runs out")
    may_rediscard_pickup: bool = knob(False, section="§0.5", choices=(False, True),
                                      doc="may the card just taken from the discard pile be discarded again")
    # RULES leaves open a hand nobody can finish: with only full sets on the table and one dead card
    # each, the players draw and discard through reshuffle after reshuffle for ever. Careful players
    # call such a hand dead; we end it when the stock must be turned over once more after this many
    # turn-overs with no card laid on the table, and everyone pays his penalty (as end_and_score).
    reshuffle_limit: int = knob(3, section="§0.4", low=1, high=20,
                                doc="turn-overs of the stock with no card laid before the hand is dead")

    def __post_init__(self):
        validate(self)

    @cached_property
    def meld_rules(self) -> MeldRules:
        """Built once per rules object, so the evaluator's kernel tables are built once too."""
        return romme_meld_rules(ROMME_MELDS, n_jokers=self.n_jokers, ace=self.ace, joker_rules=self.joker_rules,
                                joker_penalty=self.joker_penalty, ace_penalty=self.ace_penalty)


ROMME = RommeRules()
PACK = ROMME_MELDS.pack
