"""The meld, value and deadwood facts of the rules, one test per fact, named after its section.

§1.7 items 1–9 (Rumino), §3.7 items 1–6 and the meld part of 8 (German Rommé),
§4.5 items 1–3 (Robber Rummy, meld validity only), §5.9 items 1–2 (Wiener).
The play and scoring facts (§1.7.10–13, §3.7.7 and 9, §4.5.4–6, §5.9.3–7) are
tested with the games. Each figure here is also checked against the brute
force of tests/brute_force.py, so a fact cannot pass by a shared mistake.
"""

from __future__ import annotations

from collections import Counter
from dataclasses import replace
from itertools import combinations

import numpy as np
import pytest

from brute_force import brute_is_meld, brute_max_opening, brute_min_deadwood
from rumino.hand.arrange import all_best_arrangements, best_arrangement, max_opening, min_deadwood
from rumino.cards import JOKER, ROMME_PACK, RUMINO_PACK, WIENER_PACK, deal, format_card, parse_hand
from rumino.errors import InvalidMeldError
from rumino.melds import check_meld, is_meld, why_not_meld
from rumino.variants import find_variant
from rumino.variants.robber import ROBBER
from rumino.variants.romme import ROMME
from rumino.variants.rumino import RUMINO, is_rumino
from rumino.variants.wiener import WIENER

RUMINO_M = RUMINO.meld_rules
DISTINCT_M = replace(RUMINO, set_suits="distinct").meld_rules
UNLIMITED_M = replace(RUMINO, max_lay_size=None).meld_rules
ROMME_M = ROMME.meld_rules
ROBBER_M = ROBBER.meld_rules
WIENER_M = WIENER.meld_rules


def h(text):
    return parse_hand(text)


def deadwood(text, rules):
    """Minimum deadwood, asserted equal to the brute force before it is returned."""
    value = min_deadwood(h(text), rules)
    assert value == brute_min_deadwood(h(text), rules), text
    return value


def meld(text, rules):
    """Is it a meld? Asserted equal to the brute force."""
    answer = is_meld(h(text), rules)
    assert answer == brute_is_meld(h(text), rules), text
    return answer


def melds_of(arrangement):
    return sorted(sorted(format_card(c) for c in m.cards) for m in arrangement.melds)


# ------------------------------------------------------------------ §1.7 Rumino


def test_rules_1_7_1_pack_and_stock():
    """108 cards: 104 naturals, 8 of each rank, and 4 jokers. The stock after the deal and
    the upcard is 65 cards with 6 players and 93 with 2."""
    cards = Counter(RUMINO_PACK.cards())
    assert RUMINO_PACK.size == 108 and cards[JOKER] == 4 and sum(cards.values()) - cards[JOKER] == 104
    assert all(sum(cards[s * 13 + r] for s in range(4)) == 8 for r in range(13))
    assert find_variant("rumino").hand_size == 7
    for players, stock in ((6, 65), (2, 93)):
        _, rest = deal(RUMINO_PACK, [7] * players, np.random.default_rng(players))
        assert len(rest[1:]) == stock  # rest[0] is turned up to start the discard pile


def test_rules_1_7_2_gin_is_a_4_run_and_a_3_set():
    hand = "7h 8h 9h 10h 5c 5d 5s"
    assert deadwood(hand, RUMINO_M) == 0
    (a,) = all_best_arrangements(h(hand), RUMINO_M)
    assert sorted((m.kind, len(m.cards)) for m in a.melds) == [("run", 4), ("set", 3)]
    assert RUMINO.gin_bonus == -10  # gin scores −10


def test_rules_1_7_3_duplicate_suit_set():
    assert meld("5h 5h 5s", RUMINO_M)
    assert deadwood("5h 5h 5s 2c 3c 4c Kd", RUMINO_M) == 10
    assert not meld("5h 5h 5s", DISTINCT_M)
    assert deadwood("5h 5h 5s 2c 3c 4c Kd", DISTINCT_M) == 25


def test_rules_1_7_4_aces_low_only():
    assert meld("As 2s 3s", RUMINO_M)
    assert not meld("Qs Ks As", RUMINO_M) and not meld("Ks As 2s", RUMINO_M)
    assert deadwood("Qs Ks As 2d 3d 4d 7c", RUMINO_M) == 28
    with pytest.raises(InvalidMeldError, match="Qs Ks As is not a meld"):
        check_meld(h("Qs Ks As"), RUMINO_M)


def test_rules_1_7_5_knock_at_7_not_8():
    limit = RUMINO.knock_max_deadwood
    assert limit == 7
    assert deadwood("2c 3c 4c 9d 9h 9s 7d", RUMINO_M) == 7 <= limit
    assert deadwood("2c 3c 4c 9d 9h 9s 8d", RUMINO_M) == 8 > limit


def test_rules_1_7_6_four_card_lays_or_unlimited_runs():
    hand = "3h 4h 5h 6h 7h Kc Kd"
    assert deadwood(hand, RUMINO_M) == 23
    a = best_arrangement(h(hand), RUMINO_M)
    assert melds_of(a) == [["4h", "5h", "6h", "7h"]] and sorted(map(format_card, a.unmatched)) == ["3h", "Kc", "Kd"]
    assert deadwood(hand, UNLIMITED_M) == 20
    assert not meld("3h 4h 5h 6h 7h", RUMINO_M) and meld("3h 4h 5h 6h 7h", UNLIMITED_M)


def test_rules_1_7_7_two_jokers_and_an_unmelded_joker():
    assert deadwood("JK JK 5h 9c 9d 9s 2c", RUMINO_M) == 2
    assert RUMINO_M.value(JOKER) == 10
    assert deadwood("JK 2c 9d", RUMINO_M) == 10 + 2 + 9  # no lay: the joker counts 10


def test_rules_1_7_8_joker_in_a_run_and_a_duplicate_set():
    hand = "JK 4s 6s 8d 8d 8c Ah"
    assert deadwood(hand, RUMINO_M) == 1
    (a,) = all_best_arrangements(h(hand), RUMINO_M)
    assert melds_of(a) == [["4s", "6s", "JK"], ["8c", "8d", "8d"]]
    assert str(next(m for m in a.melds if m.kind == "run")) == "4s JK(5s) 6s"
    assert deadwood(hand, DISTINCT_M) == 19


def test_rules_1_7_9_natural_seven_of_a_kind_needs_duplicates():
    """Every natural 7 of a kind (7 of the 8 copies of a rank) repeats ≥3 suits: it is a
    rumino by default and impossible under set_suits=distinct."""
    distinct = replace(RUMINO, set_suits="distinct")
    for r in range(13):
        copies = [s * 13 + r for s in range(4) for _ in range(2)]
        for seven in set(tuple(sorted(x)) for x in combinations(copies, 7)):
            duplicated_suits = sum(1 for n in Counter(c // 13 for c in seven).values() if n == 2)
            assert duplicated_suits >= 3
            assert is_rumino(seven, RUMINO) and not is_rumino(seven, distinct)
    assert is_rumino(h("5s 5c 5d 5h JK JK JK"), distinct)  # with jokers it can be done


# ------------------------------------------------------------------ §3.7 German Rommé


def test_rules_3_7_1_pack_and_stock():
    """110 cards with 6 jokers; after the default deal (13 each, 14 to the dealer) the stock
    is 31 cards with 6 players and 83 with 2."""
    assert ROMME_PACK.size == 110 and ROMME_PACK.jokers == 6 and ROMME_M.pack == ROMME_PACK
    assert ROMME.deal_mode == "dealer14"
    for players, stock in ((6, 31), (2, 83)):
        _, rest = deal(ROMME_PACK, [14] + [13] * (players - 1), np.random.default_rng(players))
        assert len(rest) == stock


def test_rules_3_7_2_joker_limits():
    assert not meld("JK JK 6s", ROMME_M)
    assert "at least 2 natural cards" in why_not_meld(h("JK JK 6s"), ROMME_M)
    assert meld("3s JK JK 6s", ROMME_M)
    assert meld("3s JK JK 6s 7s", ROMME_M)
    assert not meld("3s JK JK JK 7s", ROMME_M)  # never three jokers side by side
    assert not meld("3s JK JK", ROMME_M) and not meld("3s 4s JK JK", replace(ROMME, joker_rules="one_per_meld")
                                                       .meld_rules)


def test_rules_3_7_3_sets_of_distinct_suits_up_to_four():
    assert not meld("6s 6s 6h", ROMME_M)
    assert "two cards of the same suit" in why_not_meld(h("6s 6s 6h"), ROMME_M)
    assert meld("6s 6h 6d 6c", ROMME_M)
    assert not meld("6s 6h 6d 6c 6s", ROMME_M) and not meld("6s 6h 6d 6c JK", ROMME_M)


def test_rules_3_7_4_ace_low_or_high_never_around():
    assert not meld("Ks As 2s", ROMME_M)
    assert meld("Qc Kc Ac", ROMME_M) and meld("Ah 2h 3h", ROMME_M)
    assert meld("Ks As 2s", replace(ROMME, ace="around").meld_rules)
    full = "Ah 2h 3h 4h 5h 6h 7h 8h 9h 10h Jh Qh Kh"
    assert meld(full, ROMME_M) and not meld(full + " Ah", ROMME_M)  # 13 cards at most; no A…A


@pytest.mark.parametrize("text, value", [
    ("Qc Kc Ac", 31), ("Ah 2h 3h", 6), ("As Ah Ad", 33), ("7h JK 9h", 24),
    ("10s Js Qs 3d 3h 3c", 39), ("10s Js Qs Ks", 40),
])
def test_rules_3_7_5_opening_values(text, value):
    assert max_opening(h(text), ROMME_M).value == value == brute_max_opening(h(text), ROMME_M)
    opens = max_opening(h(text), ROMME_M).value >= ROMME.opening_min
    assert opens == (text == "10s Js Qs Ks")  # 39 does not open at 40; 40 does


def test_rules_3_7_5_opening_value_of_single_melds():
    assert check_meld(h("Qc Kc Ac"), ROMME_M).opening_value() == 31
    assert check_meld(h("Ah 2h 3h"), ROMME_M).opening_value() == 6
    assert check_meld(h("As Ah Ad"), ROMME_M).opening_value() == 33
    m = check_meld(h("7h JK 9h"), ROMME_M)
    assert m.opening_value() == 24 and [format_card(c) for _, c in m.joker_meaning()] == ["8h"]


def test_rules_3_7_6_penalties_and_hand_romme():
    hand = h("As JK Kd 5c")
    values = [ROMME_M.value(c) for c in hand]
    assert values == [11, 20, 10, 5] and sum(values) == 46
    assert deadwood("As JK Kd 5c", ROMME_M) == 46  # no meld possible: every card counts
    assert 46 * ROMME.hand_romme_multiplier == 92


def test_rules_3_7_8_joker_in_a_set_stands_for_a_missing_suit():
    """The meld side of the DSKV exchange rule: in 6♠ 6♥ ★ the joker stands for 6♣ or 6♦;
    in 6♠ 6♥ 6♣ ★ only for 6♦; the completed 6♠ 6♥ 6♦ 6♣ is a meld, and a fifth card is not."""
    three = check_meld(h("6s 6h JK"), ROMME_M)
    assert [format_card(c) for _, c in three.joker_meaning()][0] in ("6c", "6d")
    four = check_meld(h("6s 6h 6c JK"), ROMME_M)
    assert [format_card(c) for _, c in four.joker_meaning()] == ["6d"]
    assert meld("6s 6h 6d 6c", ROMME_M) and not meld("6s 6h 6d 6c JK", ROMME_M)
    assert meld("6s 6h 6d JK", ROMME_M)  # 6♦ alone into 6♠ 6♥ ★ leaves the joker standing for 6♣


# ------------------------------------------------------------------ §4.5 Robber Rummy (meld validity)


def test_rules_4_5_1_split_a_run_with_the_second_seven():
    table, hand = h("5c 6c 7c 8c 9c"), h("7c")
    after = [h("5c 6c 7c"), h("7c 8c 9c")]
    assert all(is_meld(m, ROBBER_M) and brute_is_meld(m, ROBBER_M) for m in after)
    assert Counter(c for m in after for c in m) == Counter(table) + Counter(hand)


def test_rules_4_5_2_joker_moves_without_an_exchange():
    table = h("5d 6d 7d") + h("5s 6s JK")
    hand_used = h("5c 6h 9d")
    after = [h("5d 5s 5c"), h("6d 6h 6s"), h("7d JK 9d")]
    assert all(is_meld(m, ROBBER_M) and brute_is_meld(m, ROBBER_M) for m in after)
    assert Counter(c for m in after for c in m) == Counter(table) + Counter(hand_used)
    assert [format_card(c) for _, c in check_meld(after[2], ROBBER_M).joker_meaning()] == ["8d"]


def test_rules_4_5_3_two_loose_cards_are_no_meld():
    for loose in ("8c 9c", "8c 8d", "JK 8c"):
        assert not is_meld(h(loose), ROBBER_M) and not brute_is_meld(h(loose), ROBBER_M)
        assert "at least 3 cards" in why_not_meld(h(loose), ROBBER_M)


# ------------------------------------------------------------------ §5.9 Wiener Rummy


def test_rules_5_9_1_pack_and_dealer_eleven():
    assert WIENER_PACK.size == 106 and WIENER_PACK.jokers == 2 and WIENER_M.pack == WIENER_PACK
    assert WIENER.deal_mode == "dealer11" and WIENER.hand_size == 10
    assert find_variant("wiener").hand_sizes == (10, 11)
    hands, rest = deal(WIENER_PACK, [11] + [10] * 5, np.random.default_rng(5))
    assert [len(x) for x in hands] == [11, 10, 10, 10, 10, 10] and len(rest) == 45  # rules §5.1


def test_rules_5_9_2_knock_at_5_and_the_ace_is_11():
    assert WIENER.knock_max_deadwood == 5 and WIENER_M.value(h("Ah")[0]) == 11 and WIENER_M.value(JOKER) == 20
    assert deadwood("2c 3c 4c 7d 7h 7s Js Qs Ks 5h", WIENER_M) == 5 <= WIENER.knock_max_deadwood
    assert deadwood("2c 3c 4c 7d 7h 7s Js Qs Ks Ah", WIENER_M) == 11 > WIENER.knock_max_deadwood
