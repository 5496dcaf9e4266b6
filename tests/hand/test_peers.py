"""Differential tests against the peers: OpenSpiel's and RLCard's gin rummy (ANCHORS.md).

Where their rules coincide with ours — one deck, no jokers, ace low, sets of 3–4,
runs of 3 or more, A = 1 and faces 10, which is ``GIN_MELDS`` — the minimum
deadwood of a 10-card hand must be the same number in all three. Card ids
coincide with OpenSpiel's (suits s c d h, id = suit * 13 + rank); RLCard has its
own card objects (suit letters S H D C, rank ``T`` for ten), mapped by name below.

Also the reference cases of ANCHORS.md as named tests, including the 11-card
hands where OpenSpiel's own 11-card ``min_deadwood`` is not the minimum over
discards: we assert our exact value *and* OpenSpiel's wrong one, so that this
file notices if the peer is ever fixed. The peers are optional outside CI
(skipped with a message) and required in CI (``RUMINO_REQUIRE_ORACLES=1``).
"""

from __future__ import annotations

import numpy as np
import pytest
from conftest import import_oracle

from rumino.hand import kernels
from rumino.hand.arrange import after_draw, min_deadwood
from rumino.cards import RANKS, STANDARD_PACK, SUITS, format_hand, from_counts, parse_hand, sample_hands, to_counts
from rumino.melds import GIN_MELDS, candidate_melds

N_RANDOM = 10000  # random 10-card deals compared with both peers
N_DENSE = 2000  # 10-card hands packed with melds (two suits, narrow ranks)
N_ELEVEN = 3000  # random 11-card hands: value after the best discard


@pytest.fixture(scope="module")
def gin_utils(pyspiel):
    return pyspiel.gin_rummy.GinRummyUtils(13, 4, 10)


class RLCardGin:
    """RLCard's gin-rummy helpers, called on our card ids."""

    def __init__(self):
        self.melding = import_oracle("rlcard.games.gin_rummy.utils.melding")
        self.utils = import_oracle("rlcard.games.gin_rummy.utils.utils")
        self.judge = import_oracle("rlcard.games.gin_rummy.judge")
        self.Card = import_oracle("rlcard.games.base").Card

    def card(self, c: int):
        rank = "T" if c % 13 == 9 else RANKS[c % 13]  # RLCard writes the ten as T
        return self.Card(suit=SUITS[c // 13].upper(), rank=rank)

    def card_id(self, card) -> int:
        return parse_hand([str(card)])[0]  # "8C" -> 8c: our parser reads RLCard's text

    def min_deadwood(self, hand: list[int]) -> int:
        cards = [self.card(c) for c in hand]
        clusters = self.melding.get_best_meld_clusters(cards)
        return self.utils.get_deadwood_count(cards, clusters[0] if clusters else [])

    def knock_discards(self, hand11: list[int], limit: int) -> list[int]:
        knock, _gin = self.judge.get_going_out_cards([self.card(c) for c in hand11], limit)
        return sorted(self.card_id(c) for c in knock)


@pytest.fixture(scope="module")
def rlcard_gin():
    return RLCardGin()


def _dense_one_deck_hands(n: int, seed: int) -> np.ndarray:
    """10 cards from two suits in a window of 6–9 ranks plus the same ranks' other suits."""
    rng = np.random.default_rng(seed)
    out = np.zeros((n, 53), dtype=np.int8)
    for i in range(n):
        width = int(rng.integers(6, 10))
        lo = int(rng.integers(0, 14 - width))
        suits = rng.choice(4, size=2, replace=False)
        pool = [s * 13 + r for s in suits for r in range(lo, lo + width)]
        pool += [s * 13 + r for s in range(4) if s not in suits for r in range(lo, lo + 3)]
        out[i] = to_counts(rng.choice(pool, size=10, replace=False).tolist())
    return out


# --------------------------------------------------------------------------- random hands


def test_random_10_card_hands_agree_with_openspiel_and_rlcard(gin_utils, rlcard_gin):
    counts = np.concatenate([sample_hands(STANDARD_PACK, 10, N_RANDOM, np.random.default_rng(2024)),
                             _dense_one_deck_hands(N_DENSE, 2025)])
    hands = [list(from_counts(h)) for h in counts]
    ours = kernels.min_deadwood_batch(counts, GIN_MELDS).tolist()
    openspiel = [gin_utils.min_deadwood(h) for h in hands]
    rlcard = [rlcard_gin.min_deadwood(h) for h in hands]
    differ = [(format_hand(h), o, s, r) for h, o, s, r in zip(hands, ours, openspiel, rlcard) if not o == s == r]
    assert not differ, f"{len(differ)} of {len(hands)} hands differ (hand, ours, OpenSpiel, RLCard): {differ[:5]}"
    # the reference search agrees too (on a share of them: it is the slow route)
    assert [min_deadwood(h, GIN_MELDS) for h in hands[::10]] == ours[::10]
    # and the deals were not trivial: the mean is near the published 56.6 (Yimmaw, 250,000 deals)
    assert 50 < np.mean(ours[:N_RANDOM]) < 63


def test_random_11_card_hands_after_draw_equals_min_over_openspiel_10_card_values(gin_utils):
    counts = sample_hands(STANDARD_PACK, 11, N_ELEVEN, np.random.default_rng(11))
    ours = kernels.after_draw_batch(counts, GIN_MELDS)
    for i, h in enumerate(counts):
        hand = list(from_counts(h))
        by_discard = {d: gin_utils.min_deadwood([c for c in hand if c != d]) for d in hand}
        best = min(by_discard.values())
        assert ours[i] == best, format_hand(hand)
        value, discards = kernels.after_draw_fast(hand, GIN_MELDS)
        assert (value, discards) == (best, tuple(sorted(d for d, v in by_discard.items() if v == best)))
        if i % 20 == 0:
            assert after_draw(hand, GIN_MELDS).deadwood == best


# --------------------------------------------------------------------------- ANCHORS.md reference cases

TEN_CARD_CASES = {
    "run-4s5s6s-beats-the-set-of-fours": ("Tc Qc 4d 9d 4h 9h Jh 4s 5s 6s", 56),
    "set-of-fives-beats-3h4h5h": ("Jc Kc 5d Jd Kd 3h 4h 5h 2s 5s", 49),
    "three-runs-gin": ("Ac 2c 3c 4c 5d 6d 7d 9h Th Jh", 0),
    "one-run-only": ("Ac 2c 3c 2d Td Jd 5h Qh 9s Ks", 56),
    "three-runs-and-a-ten": ("Ac 2c 3c 4d 5d 6d 7h 8h 9h Ts", 10),
    "sets-and-runs-crossing": ("Jc 9d 8s 6d Js 8h Td 8d 7d Jd", 16),
    "gin-queens-kings-and-hearts": ("6h Qh Qc 5h Kd Kh 7h Kc 4h Qd", 0),
    "gin-three-sets-and-one-card-shared": ("Kc 3s 3c 9c Kh 3h 9h 3d 9d Kd", 0),
    "gin-twos-threes-fours-tens": ("Tc 2h 3h 2s Td 5h 3s 4h 4s Ts", 0),
    "gin-two-runs-of-spades-and-hearts": ("5s 4h 6s Th 3h Jh 5h 9h 2h 4s", 0),
    "gin-aces-and-fours-sharing-4c": ("Ad As Ah Ac 2c 3c 4c 4h 4d 4s", 0),
    "gin-ace-to-ten-of-spades": ("As 2s 3s 4s 5s 6s 7s 8s 9s Ts", 0),
}


@pytest.mark.parametrize("text,value", TEN_CARD_CASES.values(), ids=TEN_CARD_CASES.keys())
def test_anchor_10_card_minimum_deadwood(text, value, gin_utils, rlcard_gin):
    hand = list(parse_hand(text))
    assert min_deadwood(hand, GIN_MELDS) == value
    assert kernels.min_deadwood_fast(hand, GIN_MELDS) == value
    assert gin_utils.min_deadwood(hand) == value
    assert rlcard_gin.min_deadwood(hand) == value


# (hand, exact value after the best discard, OpenSpiel's own 11-card min_deadwood)
ELEVEN_CARD_CASES = {
    "discard-6s-for-10": ("6s 2c 4c 5c 6c 3d 4d 5d 6d 3h 5h", 10, 12),
    "two-runs-and-a-split-set": ("6s 7s 8s 8c 9c 6d 7d 8d 9d 6h 9h", 6, 7),
    "eights-or-runs": ("5s 6s 7s 8s 5c 7c 8d 5h 6h 7h 8h", 5, 6),
    "sevens-and-nines": ("7s 8s 9s 5c 7c 7d 8d 9d 4h 6h 9h", 22, 23),
    "spades-run-or-set": ("4s 6s 7s 8s 9s 7c 8c 4d 7d 8d 8h", 14, 15),
    "openspiel-right-here": ("4s 4c 4d 4h 5s 5c 5d 6s 2c 3s 3c", 3, 3),
}


@pytest.mark.parametrize("text,exact,openspiel_value", ELEVEN_CARD_CASES.values(), ids=ELEVEN_CARD_CASES.keys())
def test_anchor_11_card_value_after_the_best_discard(text, exact, openspiel_value, gin_utils):
    hand = list(parse_hand(text))
    ours = after_draw(hand, GIN_MELDS)
    assert ours.deadwood == exact
    assert kernels.after_draw_fast(hand, GIN_MELDS) == (exact, ours.discards)
    assert kernels.after_draw_batch(to_counts(hand)[None, :], GIN_MELDS).tolist() == [exact]
    # OpenSpiel's 10-card values give the same minimum over discards ...
    assert min(gin_utils.min_deadwood([c for c in hand if c != d]) for d in hand) == exact
    # ... but its 11-card min_deadwood is not that minimum (documented: this notices a fix)
    assert gin_utils.min_deadwood(hand) == openspiel_value


def test_anchor_discard_6s_is_the_only_best_discard():
    assert after_draw(parse_hand("6s 2c 4c 5c 6c 3d 4d 5d 6d 3h 5h"), GIN_MELDS).discards == parse_hand("6s")


def test_anchor_only_8c_allows_a_knock_at_10(gin_utils, rlcard_gin):
    hand = list(parse_hand("JS JH JD 8C 7S 7H 7D 4S 3D 2S AC"))
    ours = after_draw(hand, GIN_MELDS)
    knock_discards = [d for d, v in ours.by_discard.items() if v <= 10]
    assert knock_discards == list(parse_hand("8c"))
    assert kernels.after_draw_fast(hand, GIN_MELDS) == (10, parse_hand("8c"))
    assert sorted(gin_utils.legal_discards(hand, 10)) == knock_discards
    assert rlcard_gin.knock_discards(hand, 10) == knock_discards


def test_anchor_a_full_deck_holds_185_melds_of_3_to_5_cards_and_329_in_all(gin_utils):
    melds = candidate_melds(STANDARD_PACK.counts(), GIN_MELDS)
    kinds = [m.reading.kind for m in melds]
    assert (len(melds), kinds.count("set"), kinds.count("run")) == (329, 65, 264)
    small = {frozenset(m.naturals) for m in melds if 3 <= len(m.naturals) <= 5}
    assert len(small) == 185
    # OpenSpiel numbers exactly these 185 melds
    assert {frozenset(m) for m in gin_utils.all_melds(list(range(52)))} == small
