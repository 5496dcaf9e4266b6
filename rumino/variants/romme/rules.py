"""German Rommé, *Rommé mit Auslegen* (rules §3).

>>> ROMME.opening_min, ROMME.meld_rules.min_naturals, ROMME.meld_rules.pack.size
(40, 2, 110)
"""

from __future__ import annotations

from dataclasses import dataclass, replace
from functools import cached_property

from rumino.cards import Pack
from rumino.melds import ROMME_MELDS, MeldRules
from rumino.engine.knobs import check_knobs, knob, may_rediscard_pickup, stock_exhausted

HAND_SIZE = 13  # the dealer holds 14 under deal_mode="dealer14"


def romme_meld_rules(base: MeldRules, *, n_jokers: int, ace: str, joker_rules: str, joker_penalty: int,
                     ace_penalty: int) -> MeldRules:
    """Meld rules of the Rommé family from its knobs (rules §3.2, §3.3)."""
    jr = {
        "seed": dict(min_naturals=2, max_jokers_per_meld=None, max_adjacent_jokers=2, adjacent_jokers_min_run=4),
        "one_per_meld": dict(min_naturals=2, max_jokers_per_meld=1, max_adjacent_jokers=1, adjacent_jokers_min_run=0),
        "lenient": dict(min_naturals=1, max_jokers_per_meld=None, max_adjacent_jokers=2, adjacent_jokers_min_run=0),
    }[joker_rules]
    return replace(base, pack=Pack(decks=2, jokers=n_jokers), ace=ace, joker_value=joker_penalty,
                   ace_value=ace_penalty, **jr)


@dataclass(frozen=True, kw_only=True)
class RommeRules:
    """The rules of German Rommé; every field is a knob of rules §3.6."""

    n_jokers: int = knob(6, section="§3.1", choices=(6, 4, 2, 0), label="Jokers in the pack",
                         doc="jokers shuffled in with the two decks (6 jokers: 110 cards)")
    deal_mode: str = knob("dealer14", section="§3.1", choices=("dealer14", "upcard_left_starts"), label="The deal",
                          words={"dealer14": "13 each, 14 to the dealer, who starts",
                                 "upcard_left_starts": "13 each and an upcard"},
                          doc="how many cards and who starts")
    hand_size_5_6p: int = knob(13, section="§3.1", choices=(13, 11), label="Cards each with 5 or 6 players",
                               doc="cards dealt to each player when 5 or 6 play")
    cut_joker_robbing: bool = knob(False, section="§3.1", choices=(False, True), label="Cutter keeps a bottom joker",
                                   doc="a joker at the bottom of the cut goes to the player who cut")
    ace: str = knob("both", section="§3.2", choices=("both", "around"), label="Ace",
                    words={"both": "low or high", "around": "also round the corner"},
                    doc="A-2-3 and Q-K-A are runs; round the corner also allows K-A-2")
    joker_rules: str = knob("seed", section="§3.2", choices=("seed", "one_per_meld", "lenient"),
                            label="Jokers in a meld",
                            words={"seed": "2 naturals, no 3 jokers in a row", "one_per_meld": "one a meld",
                                   "lenient": "1 natural, no 3 in a row"},
                            doc="how many jokers one meld may hold: at least two natural cards and two jokers side "
                                "by side only in runs of four or more; or one joker a meld; or one natural card and "
                                "never three jokers side by side")
    opening_min: int = knob(40, section="§3.4", choices=(40, 30, 35, 42, 50), label="Opening minimum",
                            doc="the points a player's first melds must total")
    discard_pickup_rule: str = knob("free", section="§3.4", choices=("free", "must_meld_immediately"),
                                    label="Taking the top discard",
                                    words={"free": "freely", "must_meld_immediately": "only to meld it at once"},
                                    doc="when a player may take the top card of the discard pile")
    pickup_counts_for_opening: bool = knob(True, section="§3.4", choices=(True, False),
                                           label="A picked-up discard counts",
                                           doc="a card taken from the discard pile may count towards the opening "
                                               "minimum")
    joker_exchange: str = knob("general", section="§3.4", choices=("general", "dskv"),
                               label="Taking a joker from the table",
                               words={"general": "for the card it stands for",
                                      "dskv": "from a set only when completing it"},
                               doc="a joker on the table is freed by the card it stands for; by the DSkV rules a "
                                   "set's joker only by the card that makes the set four")
    freed_joker_use: str = knob("new_meld", section="§3.4", choices=("new_meld", "new_meld_or_layoff"),
                                label="A freed joker goes",
                                words={"new_meld": "into a new meld",
                                       "new_meld_or_layoff": "into a meld or a lay-off"},
                                doc="where a joker taken from the table must be played at once")
    joker_penalty: int = knob(20, section="§3.3", choices=(20, 25, 30), label="Joker left in hand",
                              doc="penalty points for a joker left in hand")
    ace_penalty: int = knob(11, section="§3.3", choices=(11, 10, 15), label="Ace left in hand",
                            doc="penalty points for an ace left in hand")
    must_discard_to_go_out: bool = knob(False, section="§3.4", choices=(False, True), label="Go out with a discard",
                                        doc="the last card must be discarded, not laid")
    hand_romme_condition: str = knob("no_melds_by_anyone", section="§3.5",
                                     choices=("no_melds_by_anyone", "no_own_prior_melds"), label="Hand-Rommé when",
                                     words={"no_melds_by_anyone": "nobody has laid out yet",
                                            "no_own_prior_melds": "you have not laid out yet"},
                                     doc="when laying out the whole hand in one turn counts as hand-Rommé")
    hand_romme_multiplier: int = knob(2, section="§3.5", low=1, high=10, label="Hand-Rommé multiplies by",
                                      doc="the others' penalties are multiplied by this after a hand-Rommé")
    winner_collects_sum: bool = knob(False, section="§3.5", choices=(False, True),
                                     label="Winner scores the others' penalties",
                                     doc="the player who goes out is credited the others' penalties")
    game_end: str = knob("rotations:1", section="§3.5",
                         choices=("rotations:1", "rotations:2", "rotations:3",
                                                                 "rotations:4", "threshold:500"),
                         label="The game ends",
                         words={"rotations:1": "after one round of deals", "rotations:2": "after two rounds of deals",
                                "rotations:3": "after three rounds of deals",
                                "rotations:4": "after four rounds of deals",
                                "threshold:500": "when someone reaches 500"},
                         doc="after every player has dealt once (or k times), or after the deal in which a "
                             "player's penalties reach 500")
    stock_exhausted: str = stock_exhausted()
    may_rediscard_pickup: bool = may_rediscard_pickup()
    # the rules leave open a hand nobody can finish: with only full sets on the table and one dead card
    # each, the players draw and discard through reshuffle after reshuffle for ever. Careful players
    # call such a hand dead; we end it when the stock must be turned over once more after this many
    # turn-overs with no card laid on the table, and everyone pays his penalty (as end_and_score).
    reshuffle_limit: int = knob(3, section="§0.4", low=1, high=20, label="Stock turn-overs before a dead hand",
                                doc="times the stock may be turned over with no card laid before the hand is dead")

    def __post_init__(self):
        check_knobs(self)

    @cached_property
    def meld_rules(self) -> MeldRules:
        """Built once per rules object, so the evaluator's kernel tables are built once too."""
        return romme_meld_rules(ROMME_MELDS, n_jokers=self.n_jokers, ace=self.ace, joker_rules=self.joker_rules,
                                joker_penalty=self.joker_penalty, ace_penalty=self.ace_penalty)


ROMME = RommeRules()
PACK = ROMME_MELDS.pack
