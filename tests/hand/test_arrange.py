"""The exact arrangement search (rumino.hand.arrange) against the brute force of tests/brute_force.py.

Every variant preset and the knobs that change melds are covered with random,
meld-dense and joker-heavy hands: minimum deadwood, every optimal arrangement,
the value after a draw and the largest opening. All randomness is seeded and
Hypothesis runs derandomized without a database, so a run is reproducible.
"""

from __future__ import annotations

import zlib
from collections import Counter
from dataclasses import replace

import numpy as np
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from brute_force import (brute_after_draw, brute_best_splits, brute_is_meld, brute_max_opening,
                         brute_min_deadwood, brute_opening_value, penalty, split_key)
from rumino.hand.arrange import after_draw, all_best_arrangements, best_arrangement, max_opening, min_deadwood
from rumino.cards import JOKER, ROMME_PACK, RUMINO_PACK, format_hand, parse_hand
from rumino.errors import InvalidCardError
from rumino.melds import GIN_MELDS, MeldRules, is_meld, meld_readings
from rumino.variants.gin import GIN
from rumino.variants.robber import ROBBER
from rumino.variants.romme import ROMME
from rumino.variants.rumino import RUMINO
from rumino.variants.wiener import WIENER

# A deterministic Hypothesis profile: same examples every run, nothing stored between runs.
FIXED = settings(derandomize=True, database=None, deadline=None, max_examples=60,
                 suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large])

# name -> (meld rules, hand sizes to test, most jokers in a hand)
CONFIGS = {
    "rumino": (RUMINO.meld_rules, (7, 8), 4),
    "rumino_unlimited": (replace(RUMINO, max_lay_size=None).meld_rules, (7, 8), 4),
    "rumino_distinct": (replace(RUMINO, set_suits="distinct").meld_rules, (7, 8), 4),
    "rumino_unlimited_distinct": (replace(RUMINO, max_lay_size=None, set_suits="distinct").meld_rules, (7, 8), 4),
    "rumino_no_naturals": (replace(RUMINO, min_naturals_per_lay=0).meld_rules, (7, 8), 4),
    "gin": (GIN.meld_rules, (10,), 0),
    "romme": (ROMME.meld_rules, (8, 10), 6),
    "romme_one_per_meld": (replace(ROMME, joker_rules="one_per_meld").meld_rules, (9,), 6),
    "romme_lenient": (replace(ROMME, joker_rules="lenient").meld_rules, (9,), 6),
    "romme_around": (replace(ROMME, ace="around").meld_rules, (9,), 6),
    "romme_4_jokers_penalty_25": (replace(ROMME, n_jokers=4, joker_penalty=25, ace_penalty=10).meld_rules, (9,), 4),
    "robber_around_lenient": (replace(ROBBER, ace="around", joker_rules="lenient").meld_rules, (9,), 6),
    "wiener": (WIENER.meld_rules, (10,), 2),
    "wiener_ace_10": (replace(WIENER, ace_value=10, joker_value=25).meld_rules, (10,), 2),
    # ace positions no preset uses (rules §0.2): only Q-K-A; A-2-3 or Q-K-A with rank-only sets
    "ace_high": (MeldRules(name="high", pack=RUMINO_PACK, ace="high"), (8,), 4),
    "ace_both_any_suits": (MeldRules(name="both", pack=RUMINO_PACK, ace="both", max_run=6), (8,), 4),
}
OPENING_CONFIGS = ["romme", "romme_one_per_meld", "romme_lenient", "romme_around", "robber_around_lenient",
                   "wiener", "ace_high"]


def _rng(*names) -> np.random.Generator:
    return np.random.default_rng(zlib.crc32("/".join(map(str, names)).encode()))


def random_hand(rng, rules, size):
    """A uniformly random hand from the pack."""
    pack = list(rules.pack.cards())
    return [int(pack[i]) for i in rng.choice(len(pack), size, replace=False)]


def dense_hand(rng, rules, size, jokers):
    """Many melds: 1–2 suits, a narrow rank window (may wrap past the king), both copies."""
    n_suits = int(rng.integers(1, 3))
    suits = rng.choice(4, n_suits, replace=False)
    width = max(int(rng.integers(3, 7)), -(-(size - jokers) // (n_suits * rules.pack.decks)))
    low = int(rng.integers(0, 13))
    ranks = [(low + k) % 13 for k in range(min(width, 13))]
    pool = [int(s) * 13 + r for s in suits for r in ranks for _ in range(rules.pack.decks)]
    naturals = [pool[i] for i in rng.choice(len(pool), min(size - jokers, len(pool)), replace=False)]
    return naturals + [JOKER] * jokers


def hands_for(name, n_random, n_dense, n_jokers, sizes=None):
    """Seeded hands of the three kinds for config ``name``."""
    rules, default_sizes, max_j = CONFIGS[name]
    rng = _rng(name, n_random, n_dense, n_jokers)
    out = []
    for size in sizes or default_sizes:
        out += [random_hand(rng, rules, size) for _ in range(n_random)]
        out += [dense_hand(rng, rules, size, int(rng.integers(0, min(2, max_j) + 1))) for _ in range(n_dense)]
        if max_j:
            out += [dense_hand(rng, rules, size, int(rng.integers(max(1, max_j // 2), max_j + 1)))
                    for _ in range(n_jokers)]
    return rules, out


def show(hands):
    return "; ".join(format_hand(h) for h in hands[:5])


# ------------------------------------------------------------------ minimum deadwood


@pytest.mark.parametrize("name", list(CONFIGS))
def test_min_deadwood_equals_brute_force(name):
    rules, hands = hands_for(name, 30, 45, 40)
    bad = [h for h in hands if min_deadwood(h, rules) != brute_min_deadwood(h, rules)]
    assert not bad, f"{len(bad)} of {len(hands)} hands differ under {name}: {show(bad)}"


@st.composite
def dense_hands(draw, name):
    """A Hypothesis hand for ``name``: a rank window of 1–2 suits plus jokers (shrinks to small hands)."""
    rules, sizes, max_j = CONFIGS[name]
    size = draw(st.integers(3, max(sizes)))
    jokers = draw(st.integers(0, min(max_j, size)))
    suits = draw(st.lists(st.integers(0, 3), min_size=1, max_size=2, unique=True))
    low = draw(st.integers(0, 12))
    width = draw(st.integers(3, 7))
    pool = [s * 13 + (low + k) % 13 for s in suits for k in range(width) for _ in range(rules.pack.decks)]
    picks = draw(st.lists(st.integers(0, len(pool) - 1), min_size=0, max_size=size - jokers, unique=True))
    return [pool[i] for i in picks] + [JOKER] * jokers


@pytest.mark.parametrize("name", ["rumino", "rumino_unlimited", "romme", "romme_lenient", "wiener", "ace_high"])
def test_min_deadwood_equals_brute_force_hypothesis(name):
    rules = CONFIGS[name][0]

    @FIXED
    @given(dense_hands(name))
    def check(hand):
        assert min_deadwood(hand, rules) == brute_min_deadwood(hand, rules), format_hand(hand)

    check()


@FIXED
@given(st.data())
def test_min_deadwood_ignores_card_order_and_obeys_a_card_bound(data):
    """Order does not matter, and one more card adds at most its own value (it may stay unmatched)."""
    rules = CONFIGS["romme"][0]
    hand = data.draw(dense_hands("romme"))
    order = data.draw(st.permutations(hand))
    assert min_deadwood(order, rules) == min_deadwood(hand, rules)
    extra = data.draw(st.sampled_from([c for c in range(53) if Counter(hand)[c] < rules.pack.copies(c)]))
    assert min_deadwood(hand + [extra], rules) <= min_deadwood(hand, rules) + rules.value(extra)


# ------------------------------------------------------------------ every optimal arrangement


def check_arrangements(hand, rules):
    """all_best_arrangements is exactly the set of optimal splits, each valid (a list of problems)."""
    problems = []
    best, keys = brute_best_splits(hand, rules)
    arrs = all_best_arrangements(hand, rules, limit=100_000)
    got = [split_key([m.cards for m in a.melds], a.unmatched) for a in arrs]
    if len(got) != len(set(got)):
        problems.append("duplicate arrangements")
    if set(got) != keys:
        problems.append(f"{len(set(got))} arrangements, brute force finds {len(keys)}")
    for a in arrs:
        if sorted(a.cards) != sorted(hand):
            problems.append(f"{a} does not use exactly the hand")
        if not all(is_meld(m.cards, rules) and brute_is_meld(m.cards, rules) for m in a.melds):
            problems.append(f"{a} holds a non-meld")
        if a.deadwood != sum(penalty(c, rules) for c in a.unmatched) or a.deadwood != best:
            problems.append(f"{a} has the wrong deadwood (minimum {best})")
    first = best_arrangement(hand, rules)
    if split_key([m.cards for m in first.melds], first.unmatched) not in keys:
        problems.append("best_arrangement is not optimal")
    return problems


@pytest.mark.parametrize("name", list(CONFIGS))
def test_all_best_arrangements_are_exactly_the_optimal_splits(name):
    rules, hands = hands_for(name, 5, 15, 10, sizes=[min(CONFIGS[name][1])])
    bad = {format_hand(h): p for h in hands if (p := check_arrangements(h, rules))}
    assert not bad, bad


def test_all_best_arrangements_limit_counts_distinct_arrangements():
    """Regression: 4 optimal arrangements reachable by 2**5 search paths each; limit=k must give k.

    The spare seven may be any of 7s, 7c, 7d, 7h; each of the five 'XX Y Z' groups
    leaves one X as deadwood, which the search reaches by two paths.
    """
    hand = parse_hand("7s 7c 7c 7d 7h  Ad Ad 2d 3d  5d 5d 6d 7d  Ac Ac 2c 3c  9c 9c 10c Jc  9h 9h 10h Jh")
    rules = CONFIGS["rumino"][0]
    assert [len(all_best_arrangements(hand, rules, limit=k)) for k in (1, 2, 3, 4, 5)] == [1, 2, 3, 4, 4]
    spare_sevens = sorted(format_hand([c for c in a.unmatched if c % 13 == 6])
                          for a in all_best_arrangements(hand, rules))
    assert spare_sevens == ["7c", "7d", "7h", "7s"]


def test_arrangement_of_jokers_alone():
    """With min_naturals=0 spare jokers may lay as an all-joker meld; by default every lay
    needs a natural card, so the jokers must spread over lays with naturals (rules §1.2)."""
    hand = parse_hand("JK JK JK JK 2c 3c 4c")
    n0 = all_best_arrangements(hand, CONFIGS["rumino_no_naturals"][0])
    assert all(a.deadwood == 0 for a in n0)
    shapes = [sorted([len(m.naturals), m.jokers] for m in a.melds) for a in n0]
    assert [[0, 4], [3, 0]] in shapes and [[0, 3], [3, 1]] in shapes  # 2c3c4c + JK JK JK JK, ...
    default = all_best_arrangements(hand, CONFIGS["rumino"][0])
    assert default and all(a.deadwood == 0 for a in default)  # e.g. 2c 3c JK JK + 4c JK JK
    assert all(len(m.naturals) >= 1 for a in default for m in a.melds)
    five = parse_hand("JK JK JK JK 5h")  # at most 4 cards a lay: one card stays out
    assert min_deadwood(five, CONFIGS["rumino"][0]) == 10  # 5h JK JK JK, and a joker (10) left
    assert min_deadwood(five, CONFIGS["rumino_no_naturals"][0]) == 5  # JK JK JK JK, and 5h left


# ------------------------------------------------------------------ value after a draw


@pytest.mark.parametrize("name", ["rumino", "rumino_unlimited", "rumino_no_naturals", "gin", "wiener", "romme"])
def test_after_draw_is_min_over_discards_of_brute_force(name):
    rules, sizes, _ = CONFIGS[name]
    _, hands = hands_for(name, 6, 10, 6, sizes=[max(sizes) + 1 if name != "romme" else 9])
    bad = []
    for h in hands:
        dv = after_draw(h, rules)
        value, discards = brute_after_draw(h, rules)
        if (dv.deadwood, set(dv.discards)) != (value, discards) or dv.by_discard[dv.discards[0]] != value:
            bad.append(h)
    assert not bad, f"{name}: {show(bad)}"


def test_after_draw_forbidden_discard_and_anchor_case():
    """ANCHORS.md: 6s 2c 4c 5c 6c 3d 4d 5d 6d 3h 5h is worth 10 after discarding 6s (one deck, ace low)."""
    hand = parse_hand("6s 2c 4c 5c 6c 3d 4d 5d 6d 3h 5h")
    dv = after_draw(hand, GIN_MELDS)
    assert (dv.deadwood, format_hand(dv.discards)) == (10, "6s")
    banned = after_draw(hand, GIN_MELDS, forbidden=[parse_hand("6s")[0]])
    assert banned.deadwood == min(brute_min_deadwood([c for c in hand if c != d], GIN_MELDS)
                                  for d in hand if format_hand([d]) != "6s")
    with pytest.raises(ValueError):
        after_draw(parse_hand("2c 3c"), GIN_MELDS, forbidden=parse_hand("2c 3c"))


# ------------------------------------------------------------------ opening value


@pytest.mark.parametrize("name", OPENING_CONFIGS)
def test_max_opening_equals_brute_force(name):
    rules, hands = hands_for(name, 10, 30, 25, sizes=[9])
    bad = []
    for h in hands:
        op = max_opening(h, rules)
        laid = Counter(c for m in op.melds for c in m.cards)
        ok = (op.value == brute_max_opening(h, rules)
              and op.value == sum(brute_opening_value(m.cards, rules) for m in op.melds)
              and not laid - Counter(h))
        if not ok:
            bad.append(h)
    assert not bad, f"{name}: {show(bad)}"


def test_opening_value_of_each_meld_is_its_best_reading():
    """Every meld of up to 5 cards in one suit window (with jokers): check_meld's value = brute force."""
    from rumino.melds import check_meld

    for name in ("romme", "romme_around", "romme_lenient", "ace_high"):
        rules = CONFIGS[name][0]
        rng = _rng("opening", name)
        for _ in range(400):
            hand = dense_hand(rng, rules, int(rng.integers(3, 8)), int(rng.integers(0, 3)))
            if brute_is_meld(hand, rules):
                assert check_meld(hand, rules).opening_value() == brute_opening_value(hand, rules), format_hand(hand)


# ------------------------------------------------------------------ the meld test itself


def _multisets(kinds, k):
    """Every multiset of ``k`` cards from ``kinds`` = [(card, copies), ...]."""
    if k == 0:
        yield ()
        return
    if not kinds:
        return
    (card, cap), rest = kinds[0], kinds[1:]
    for m in range(min(cap, k), -1, -1):
        for tail in _multisets(rest, k - m):
            yield (card,) * m + tail


@pytest.mark.parametrize("name", list(CONFIGS))
def test_is_meld_equals_brute_is_meld_on_all_small_groups(name):
    """All groups of 3–6 cards from one suit (+ jokers) and of 3–9 cards of one rank (+ jokers)."""
    rules = CONFIGS[name][0]
    jokers = min(rules.pack.jokers, 4)
    suit = [(39 + r, rules.pack.decks) for r in range(13)] + [(JOKER, jokers)]
    groups = [g for k in range(3, 7) for g in _multisets(suit, k)]
    for r in (0, 6, 12):
        one_rank = [(s * 13 + r, rules.pack.decks) for s in range(4)] + [(JOKER, jokers)]
        groups += [g for k in range(3, 10) for g in _multisets(one_rank, k)]
    mixed = [(0, 1), (1, 1), (13, 1), (14, 1), (JOKER, 2)]  # A♠ 2♠ A♣ 2♣: neither a set nor a run
    groups += [g for k in range(3, 5) for g in _multisets(mixed, k)]
    bad = [g for g in groups if is_meld(g, rules) != brute_is_meld(g, rules)]
    assert not bad, f"{len(bad)} of {len(groups)} groups differ under {name}: {show(bad)}"


@pytest.mark.parametrize("name", list(CONFIGS))
def test_is_meld_equals_brute_is_meld_on_long_runs(name):
    rules = CONFIGS[name][0]
    rng = _rng("long", name)
    bad = []
    for _ in range(300):
        length = int(rng.integers(3, 14))
        j = min(length, int(rng.integers(0, min(rules.pack.jokers, 6) + 1)))
        suit = int(rng.integers(4))
        naturals = rng.choice(13, length - j, replace=False)
        group = [suit * 13 + int(r) for r in naturals] + [JOKER] * j
        if is_meld(group, rules) != brute_is_meld(group, rules):
            bad.append(group)
    assert not bad, show(bad)


@pytest.mark.parametrize("rules", [
    MeldRules(pack=ROMME_PACK, min_naturals=0, max_jokers_per_meld=2),
    MeldRules(pack=ROMME_PACK, min_naturals=0, max_set=3, max_run=6),
    MeldRules(pack=ROMME_PACK, min_naturals=0, max_adjacent_jokers=2),
    MeldRules(pack=ROMME_PACK, min_naturals=0, adjacent_jokers_min_run=4, set_suits="distinct"),
], ids=["max2jokers", "set3run6", "adjacent2", "adjacentmin4"])
def test_jokers_alone_agree_between_is_meld_and_search(rules):
    """Regression: spare jokers form all-joker melds only of sizes is_meld accepts."""
    for j in range(0, 7):
        assert is_meld([JOKER] * j, rules) == brute_is_meld([JOKER] * j, rules)
        for extra in ([], [0], [0, 1], [5, 18]):
            hand = extra + [JOKER] * j
            assert min_deadwood(hand, rules) == brute_min_deadwood(hand, rules), format_hand(hand)
            for a in all_best_arrangements(hand, rules):
                assert all(is_meld(m.cards, rules) for m in a.melds)


def test_thirteen_card_run_around_the_corner():
    """Regression: with the ace around, a 13-card run may start at any rank (rules §0.2, §3.2).

    Jokers for 5-6-7 are three side by side in A…K but not in 7…6; the ace is worth
    11 in the reading 2…K-A (rules §3.3, best reading).
    """
    around = CONFIGS["romme_around"][0]
    hand = parse_hand("Ah 2h 3h 4h 8h 9h 10h Jh Qh Kh JK JK JK")
    assert is_meld(hand, around) and not is_meld(hand, CONFIGS["romme"][0])
    natural = parse_hand("Ah 2h 3h 4h 5h 6h 7h 8h 9h 10h Jh Qh Kh")
    assert max(m.opening_value() for m in meld_readings(natural, around)) == 95
    assert max_opening(natural, around).value == 95 == brute_max_opening(natural, around)


# ------------------------------------------------------------------ reference cases and errors


@pytest.mark.parametrize("text, value", [
    ("Tc Qc 4d 9d 4h 9h Jh 4s 5s 6s", 56), ("Jc Kc 5d Jd Kd 3h 4h 5h 2s 5s", 49),
    ("Ac 2c 3c 4c 5d 6d 7d 9h Th Jh", 0), ("Ac 2c 3c 2d Td Jd 5h Qh 9s Ks", 56),
    ("Ac 2c 3c 4d 5d 6d 7h 8h 9h Ts", 10), ("Jc 9d 8s 6d Js 8h Td 8d 7d Jd", 16),
    ("6h Qh Qc 5h Kd Kh 7h Kc 4h Qd", 0), ("Kc 3s 3c 9c Kh 3h 9h 3d 9d Kd", 0),
    ("Tc 2h 3h 2s Td 5h 3s 4h 4s Ts", 0), ("5s 4h 6s Th 3h Jh 5h 9h 2h 4s", 0),
    ("Ad As Ah Ac 2c 3c 4c 4h 4d 4s", 0), ("As 2s 3s 4s 5s 6s 7s 8s 9s Ts", 0),
])
def test_anchor_gin_hands(text, value):
    """ANCHORS.md reference cases: minimum deadwood of 10-card one-deck hands."""
    hand = parse_hand(text)
    assert min_deadwood(hand, GIN_MELDS) == value == brute_min_deadwood(hand, GIN_MELDS)


def test_a_hand_the_pack_cannot_hold_is_refused():
    with pytest.raises(InvalidCardError, match="3 copies of 7h"):
        min_deadwood(parse_hand("7h 7h 7h"), CONFIGS["rumino"][0])
    with pytest.raises(InvalidCardError, match="jokers"):
        max_opening(parse_hand("JK 2c 3c"), GIN_MELDS)
