"""Rumino: 7-card knock rummy with two decks and four jokers (RULES.md §1).

Every knob of RULES §1.6 is a field of :class:`RuminoRules`, with the default
given there. House rules are ``dataclasses.replace(RUMINO, knock_max_deadwood=5)``.

>>> RUMINO.knock_max_deadwood, RUMINO.meld_rules.max_run
(7, 4)
>>> from rumino.cards import parse_hand
>>> is_rumino(parse_hand("3h 4h 5h 6h 7h 8h 9h")), is_rumino(parse_hand("5h 5h 5s 5s 5d JK 5c"))
(True, True)
"""

from __future__ import annotations

from dataclasses import dataclass, replace
from typing import Iterable

from ..cards import JOKER, RUMINO_PACK, format_hand
from ..errors import InvalidCardError
from ..melds import RUMINO_MELDS, MeldRules
from ._fields import knob, validate

HAND_SIZE = 7  # RULES §1.1


@dataclass(frozen=True, kw_only=True)
class RuminoRules:
    """The rules of Rumino; every field is a house-rule knob (RULES §1.6)."""

    max_lay_size: int | None = knob(4, section="§1.2", choices=(4,), allow_none=True,
                                    doc="4: lays of 3 or 4 cards; None: runs of any length and sets up to 8")
    set_suits: str = knob("any", section="§1.2", choices=("any", "distinct"),
                          doc="any: 5♥ 5♥ 5♠ is a set; distinct: a set's suits all differ")
    ace: str = knob("low", section="§1.2", choices=("low",), doc="aces are low only (A-2-3; Q-K-A is not a lay)")
    min_naturals_per_lay: int = knob(1, section="§1.2", choices=(1, 0), doc="natural cards every lay needs")
    rumino_natural_only: bool = knob(False, section="§1.2", choices=(False, True),
                                     doc="True: a rumino may not use jokers")
    knock_max_deadwood: int = knob(7, section="§1.3", low=0, high=70, doc="knock in lieu of drawing at this deadwood or less")
    knock_zero_is_gin: bool = knob(True, section="§1.3", choices=(True, False),
                                   doc="a knock at 0 deadwood scores as gin")
    gin_bonus: int = knob(-10, section="§1.4", low=-100, high=0, doc="what going gin adds to the player's score")
    knock_undercut_penalty: int = knob(0, section="§1.4", low=0, high=100,
                                       doc="added to a knocker whom someone strictly undercuts")
    elimination_at: int = knob(101, section="§1.5", choices=(101, 100), doc="a score at or above this is out")
    rebuy_price: str = knob("doubling", section="§1.5", choices=("doubling", "flat"),
                            doc="doubling: the k-th rebuy costs B·2^(k−1); flat: always B")
    rebuy_requires_others: int = knob(2, section="§1.5", choices=(2, 1),
                                      doc="players still in, besides the rebuyer, needed for a rebuy")
    out_of_turn_claim_priority: str = knob("nearest_left", section="§1.3", choices=("nearest_left", "first_to_call"),
                                           doc="who wins when several players can claim a discard for rumino")
    stock_exhausted: str = knob("reshuffle", section="§0.4", choices=("reshuffle", "void_hand", "end_and_score"),
                                doc="what happens when a player must draw from an empty stock")
    triple_gin_wins: bool = knob(True, section="§1.4", choices=(True, False),
                                 doc="gin in each of the first three hands wins the game")
    may_rediscard_pickup: bool = knob(False, section="§0.5", choices=(False, True),
                                      doc="may the card just taken from the discard pile be discarded again")
    allow_new_entrants: bool = knob(True, section="§1.5", choices=(True, False),
                                    doc="a new player may join between hands at the highest score")
    stake: int = knob(10, section="§1.5", low=1, high=1_000_000, doc="the buy-in B, in whole currency units")

    def __post_init__(self):
        validate(self)

    @property
    def meld_rules(self) -> MeldRules:
        """The meld rules these knobs imply (for the arrangement search)."""
        unlimited = self.max_lay_size is None
        # Unlimited lays allow sets of all 8 copies of a rank, but a set of distinct suits
        # holds at most 4 cards (RULES §1.2), and MeldRules refuses max_set > 4 then.
        biggest_set = 4 if not unlimited or self.set_suits == "distinct" else 8
        return replace(RUMINO_MELDS, max_set=biggest_set, max_run=13 if unlimited else 4,
                       set_suits=self.set_suits, min_naturals=self.min_naturals_per_lay)

    def rebuy_cost(self, k: int) -> int:
        """Price of a player's ``k``-th rebuy (k ≥ 1): B·2^(k−1), or B when flat (RULES §1.5).

        >>> [RUMINO.rebuy_cost(k) for k in (1, 2, 3)]
        [10, 20, 40]
        """
        if k < 1:
            raise ValueError(f"rebuy number k is {k}: it counts from 1.")
        return self.stake * (2 ** (k - 1) if self.rebuy_price == "doubling" else 1)


RUMINO = RuminoRules()
PACK = RUMINO_PACK


def is_rumino(cards: Iterable[int], rules: RuminoRules = RUMINO) -> bool:
    """True if 7 cards are a rumino: a 7-card straight flush (ace low) or 7 of a kind (RULES §1.2).

    Jokers stand for any missing card unless ``rules.rumino_natural_only``; under
    ``set_suits="distinct"`` the naturals of a 7 of a kind must differ in suit.
    """
    cards = list(cards)
    if len(cards) != HAND_SIZE:
        raise InvalidCardError(f"a rumino is 7 cards; {format_hand(cards)} has {len(cards)}.")
    nat = [c for c in cards if c != JOKER]
    jokers = len(cards) - len(nat)
    if jokers and rules.rumino_natural_only:
        return False
    if not nat:
        return True
    ranks = {c % 13 for c in nat}
    suits = {c // 13 for c in nat}
    if len(ranks) == 1:  # seven of a kind
        return rules.set_suits == "any" or len(suits) == len(nat)
    if len(suits) == 1 and len(ranks) == len(nat):  # straight flush, A low, no wrap
        return max(ranks) - min(ranks) <= 6
    return False


def rumino_in(cards: Iterable[int], rules: RuminoRules = RUMINO) -> tuple[int, ...] | None:
    """Seven of the (usually 8) ``cards`` that form a rumino, or ``None``."""
    from itertools import combinations

    cards = list(cards)
    for combo in combinations(range(len(cards)), HAND_SIZE):
        pick = [cards[i] for i in combo]
        if is_rumino(pick, rules):
            return tuple(pick)
    return None
