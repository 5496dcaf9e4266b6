"""rumino.melds: rules as data, readings, reasons, candidate melds and joker-only melds."""

from __future__ import annotations

from dataclasses import replace
from itertools import combinations

import numpy as np
import pytest

from brute_force import brute_is_meld, brute_opening_value
from rumino.cards import JOKER, ROMME_PACK, RUMINO_PACK, STANDARD_PACK, WIENER_PACK, format_card, parse_hand, to_counts
from rumino.errors import InvalidMeldError, RuleConfigError
from rumino.melds import (GIN_MELDS, PRESETS, ROBBER_MELDS, ROMME_MELDS, RUMINO_MELDS, WIENER_MELDS, MeldRules,
                          candidate_melds, check_meld, is_meld, joker_only_split, leftover_jokers, meld_readings,
                          why_not_meld)


def h(text):
    return parse_hand(text)


# ------------------------------------------------------------------ rules as data


def test_presets_follow_rules_md():
    """rules §1.2/§1.4 (Rumino), §6 (Gin), §3.2/§3.3 (Rommé), §4.2 (Robber), §5.2/§5.3 (Wiener)."""
    r = RUMINO_MELDS
    assert (r.pack, r.max_set, r.max_run, r.set_suits, r.ace, r.min_naturals) == (RUMINO_PACK, 4, 4, "any", "low", 1)
    assert (r.value(0), r.value(9), r.value(10), r.value(12), r.value(JOKER)) == (1, 10, 10, 10, 10)
    g = GIN_MELDS
    assert (g.pack, g.max_set, g.max_run, g.set_suits, g.ace, g.value(0)) == (STANDARD_PACK, 4, 13, "any", "low", 1)
    m = ROMME_MELDS
    assert (m.pack, m.max_set, m.max_run, m.set_suits, m.ace) == (ROMME_PACK, 4, 13, "distinct", "both")
    assert (m.min_naturals, m.max_adjacent_jokers, m.adjacent_jokers_min_run) == (2, 2, 4)
    assert (m.value(0), m.value(4), m.value(11), m.value(JOKER)) == (11, 5, 10, 20)
    assert replace(ROBBER_MELDS, name="romme") == ROMME_MELDS
    assert replace(WIENER_MELDS, name="romme", pack=ROMME_PACK) == ROMME_MELDS and WIENER_MELDS.pack == WIENER_PACK
    assert set(PRESETS) == {"rumino", "gin", "romme", "robber", "wiener"}


@pytest.mark.parametrize("kwargs, field", [
    ({"min_meld": 1}, "min_meld"), ({"max_run": 2}, "max_run"), ({"max_run": 14}, "max_run"),
    ({"set_suits": "some"}, "set_suits"), ({"ace": "middle"}, "ace"), ({"max_set": 5, "set_suits": "distinct"}, "max_set"),
    ({"max_set": 9}, "max_set"), ({"min_naturals": 4}, "min_naturals"), ({"max_jokers_per_meld": -1}, "max_jokers_per_meld"),
    ({"max_adjacent_jokers": 0}, "max_adjacent_jokers"), ({"adjacent_jokers_min_run": 14}, "adjacent_jokers_min_run"),
    ({"ace_value": 101}, "ace_value"), ({"joker_value": True}, "joker_value"), ({"face_value": "10"}, "face_value"),
    ({"pack": "two decks"}, "pack"),
])
def test_meld_rules_validation_names_the_field(kwargs, field):
    with pytest.raises(RuleConfigError) as err:
        MeldRules(**kwargs)
    assert str(err.value).startswith(f"MeldRules.{field} is {kwargs[field]!r}: it must be")


def test_run_windows_for_each_ace_position():
    """rules §0.2: low A-2-3 only, high Q-K-A only, both either but never K-A-2, around also K-A-2.
    Position 13 is the high ace; no window repeats a rank (no A…A)."""
    rules = {a: MeldRules(pack=RUMINO_PACK, ace=a) for a in ("low", "high", "both", "around")}
    three = {a: {tuple(p % 13 for p in w) for w in r.run_windows(3)} for a, r in rules.items()}
    assert (0, 1, 2) in three["low"] and (11, 12, 0) not in three["low"]
    assert (0, 1, 2) not in three["high"] and (11, 12, 0) in three["high"]
    assert {(0, 1, 2), (11, 12, 0)} <= three["both"] and (12, 0, 1) not in three["both"]
    assert (12, 0, 1) in three["around"]
    assert [len(three[a]) for a in ("low", "high", "both", "around")] == [11, 11, 12, 13]
    for a, r in rules.items():
        assert r.run_windows(14) == []  # each rank once: no A…A
        for w in r.run_windows(13):
            assert sorted(p % 13 for p in w) == list(range(13))
    assert len(rules["around"].run_windows(13)) == 13 and len(rules["both"].run_windows(13)) == 2


# ------------------------------------------------------------------ readings


def test_readings_of_a_run_with_a_joker():
    assert [str(m) for m in meld_readings(h("5h 6h JK"), ROMME_MELDS)] == ["JK(4h) 5h 6h", "5h 6h JK(7h)"]
    best = check_meld(h("6h JK 5h"), ROMME_MELDS)
    assert str(best) == "5h 6h JK(7h)" and best.opening_value() == 18
    assert best.kind == "run" and best.jokers == 1 and best.naturals == tuple(sorted(h("5h 6h")))
    assert best.key == (tuple(sorted(h("5h 6h"))), 1) and best.format(unicode=True) == "5♥ 6♥ ★"


def test_readings_of_a_set_with_a_joker_name_a_missing_suit():
    (m,) = meld_readings(h("6s 6h JK"), ROMME_MELDS)
    assert m.kind == "set" and [format_card(c) for _, c in m.joker_meaning()] == ["6c"]
    (m,) = meld_readings(h("6s 6h 6c JK"), ROMME_MELDS)
    assert [format_card(c) for _, c in m.joker_meaning()] == ["6d"]


def test_ace_opening_values():
    """rules §3.3: ace 1 at the low end of a run, 11 in a set or after a king; a joker is the card it replaces."""
    assert check_meld(h("Ah 2h 3h"), ROMME_MELDS).opening_value() == 6
    assert check_meld(h("JK 2h 3h"), ROMME_MELDS).opening_value() == 9  # best reading 2-3-4, not A-2-3 (6)
    assert check_meld(h("Qh Kh JK"), ROMME_MELDS).opening_value() == 31  # Q-K-A: the joker is an ace after a K
    assert check_meld(h("Ah Kh Qh Jh"), ROMME_MELDS).opening_value() == 41
    around = replace(ROMME_MELDS, ace="around")
    assert check_meld(h("Kh Ah 2h"), around).opening_value() == 23  # 10 + 11 + 2
    assert check_meld(h("Ah As JK"), ROMME_MELDS).opening_value() == 33


def test_every_meld_is_read_and_valued_like_the_brute_force():
    rng = np.random.default_rng(20)
    for rules in (RUMINO_MELDS, ROMME_MELDS, replace(ROMME_MELDS, ace="around"), replace(RUMINO_MELDS, ace="high")):
        for _ in range(500):
            suit = int(rng.integers(4))
            n = int(rng.integers(3, 7))
            j = int(rng.integers(0, 3))
            group = [suit * 13 + int(r) for r in rng.choice(13, n - j, replace=False)] + [JOKER] * j
            assert is_meld(group, rules) == brute_is_meld(group, rules)
            if is_meld(group, rules):
                assert check_meld(group, rules).opening_value() == brute_opening_value(group, rules)
                for m in meld_readings(group, rules):
                    assert sorted(m.cards) == sorted(group)  # a reading uses exactly the cards given
                    assert all(c == s for c, s in zip(m.cards, m.stands_for) if c != JOKER)


# ------------------------------------------------------------------ reasons


@pytest.mark.parametrize("text, rules, reason", [
    ("8c 9c", ROMME_MELDS, "a meld has at least 3 cards."),
    ("JK JK 6s", ROMME_MELDS, "every meld needs at least 2 natural cards."),
    ("JK JK JK", RUMINO_MELDS, "every meld needs at least 1 natural card."),
    ("3s 4s JK JK", replace(ROMME_MELDS, max_jokers_per_meld=1), "a meld may hold at most 1 joker(s)."),
    ("6s 6h 6d 6c 6s", ROMME_MELDS, "a set has at most 4 cards."),
    ("6s 6s 6h", ROMME_MELDS, "a set may not hold two cards of the same suit."),
    ("5h 5h 6h", RUMINO_MELDS, "a run holds each rank once."),
    ("3h 4h 5h 6h 7h", RUMINO_MELDS, "a run has at most 4 cards."),
    ("Qs Ks As", RUMINO_MELDS, "aces are low only (A-2-3), so Q-K-A and K-A-2 are not runs."),
    ("Ks As 2s", ROMME_MELDS, "an ace is low (A-2-3) or high (Q-K-A) but never in the middle (K-A-2)."),
    ("As 2s 3s", replace(RUMINO_MELDS, ace="high"), "aces are high only (Q-K-A)"),
    ("7h 8h 10h", RUMINO_MELDS, "the ranks are not consecutive."),
    ("3s 9s JK", RUMINO_MELDS, "the ranks are not consecutive, and 1 joker cannot fill the gaps."),
    ("3s JK JK JK 7s", ROMME_MELDS, "its jokers cannot stand within their limits (at most 2 side by side"),
    ("5h 6s 7h", RUMINO_MELDS, "a set is one rank and a run is one suit in sequence."),
])
def test_why_not_meld_names_the_rule(text, rules, reason):
    why = why_not_meld(h(text), rules)
    assert why.startswith(f"{text} is not a meld: ") and reason in why, why
    with pytest.raises(InvalidMeldError) as err:
        check_meld(h(text), rules)
    assert str(err.value) == why


def test_why_not_meld_is_none_for_a_meld():
    assert why_not_meld(h("3s JK JK 6s"), ROMME_MELDS) is None


# ------------------------------------------------------------------ candidates


def _sub_multisets(hand):
    out = set()
    for k in range(3, len(hand) + 1):
        for idx in combinations(range(len(hand)), k):
            out.add(tuple(sorted(hand[i] for i in idx)))
    return out


@pytest.mark.parametrize("rules", [RUMINO_MELDS, replace(RUMINO_MELDS, max_run=13, max_set=8), ROMME_MELDS,
                                   replace(ROMME_MELDS, ace="around", min_naturals=1), GIN_MELDS],
                         ids=["rumino", "rumino_unlimited", "romme", "romme_around_lenient", "gin"])
def test_candidate_melds_are_exactly_the_melds_inside_the_hand(rules):
    """Every sub-multiset with a natural card that brute_is_meld accepts is a candidate, and nothing else."""
    rng = np.random.default_rng(len(rules.name) + rules.max_run)
    for _ in range(25):
        suits = rng.choice(4, 2, replace=False)
        low = int(rng.integers(0, 13))
        pool = [int(s) * 13 + (low + k) % 13 for s in suits for k in range(4) for _ in range(rules.pack.decks)]
        j = int(rng.integers(0, min(rules.pack.jokers, 3) + 1))
        hand = [pool[i] for i in rng.choice(len(pool), 8 - j, replace=False)] + [JOKER] * j
        expected = {(tuple(c for c in sub if c != JOKER), sub.count(JOKER)) for sub in _sub_multisets(hand)
                    if any(c != JOKER for c in sub) and brute_is_meld(sub, rules)}
        cands = candidate_melds(to_counts(hand), rules)
        got = {(c.naturals, c.jokers) for c in cands}
        assert got == expected and len(got) == len(cands)
        for c in cands:
            assert c.opening == brute_opening_value(c.naturals + (JOKER,) * c.jokers, rules)


# ------------------------------------------------------------------ jokers alone


def test_joker_only_melds():
    n0 = replace(RUMINO_MELDS, min_naturals=0)
    assert is_meld([JOKER] * 3, n0) and is_meld([JOKER] * 4, n0) and not is_meld([JOKER] * 5, n0)
    assert [leftover_jokers(j, n0) for j in range(5)] == [0, 1, 2, 0, 0]
    assert [leftover_jokers(j, RUMINO_MELDS) for j in range(5)] == [0, 1, 2, 3, 4]
    big = MeldRules(pack=replace(ROMME_PACK, jokers=12), min_naturals=0, max_set=3, max_run=5)
    assert [is_meld([JOKER] * k, big) for k in range(3, 7)] == [True, True, True, False]  # 4, 5: runs only
    assert joker_only_split(7, big) in ([3, 4], [4, 3]) and leftover_jokers(7, big) == 0
    assert leftover_jokers(2, big) == 2 and joker_only_split(11, big) and leftover_jokers(11, big) == 0
    limited = MeldRules(pack=ROMME_PACK, min_naturals=0, max_jokers_per_meld=2)
    assert not is_meld([JOKER] * 3, limited) and leftover_jokers(6, limited) == 6
