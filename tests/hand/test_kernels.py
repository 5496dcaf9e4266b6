"""The compiled kernels (rumino/hand/kernels.py) against the reference search (rumino/hand/arrange.py).

Every preset and the knob variations the variants offer, on thousands of seeded
hands each: uniformly random deals, joker-heavy hands, and meld-dense hands
built on purpose (cards of one or two suits in a narrow rank window, plus
same-rank cards of other suits, plus jokers), where the search has the most
choices. Zero mismatches allowed. Then the lookup tables against
``melds.is_meld`` directly, the edge cases, the error messages, and compiling
with no writable cache directory.
"""

from __future__ import annotations

import itertools
import os
import subprocess
import sys
from dataclasses import replace
from pathlib import Path

import numpy as np
import pytest

from rumino.hand import kernels
from rumino.hand.arrange import after_draw, min_deadwood
from rumino.cards import JOKER, Pack, format_hand, from_counts, parse_hand, sample_hands, to_counts
from rumino.errors import IllegalActionError, InvalidCardError, RuleConfigError
from rumino.melds import (GIN_MELDS, ROMME_MELDS, RUMINO_MELDS, WIENER_MELDS, MeldRules, leftover_jokers,
                          meld_readings)
from rumino.variants.romme import RommeRules
from rumino.variants.rumino import RuminoRules

# --------------------------------------------------------------------------- hand generators


def random_hands(rules: MeldRules, size: int, n: int, seed: int) -> np.ndarray:
    """Uniform random deals of ``size`` cards from the rules' pack."""
    return sample_hands(rules.pack, size, n, np.random.default_rng(seed)).astype(np.int16)


def joker_heavy_hands(rules: MeldRules, size: int, n: int, seed: int) -> np.ndarray:
    """Hands holding between half of the pack's jokers and all of them."""
    rng = np.random.default_rng(seed)
    naturals = Pack(decks=rules.pack.decks, jokers=0)
    out = np.zeros((n, 53), dtype=np.int16)
    top = min(rules.pack.jokers, size)
    for i in range(n):
        j = int(rng.integers((top + 1) // 2, top + 1))
        out[i] = sample_hands(naturals, size - j, 1, rng)[0]
        out[i, JOKER] = j
    return out


def meld_dense_hands(rules: MeldRules, size: int, n: int, seed: int) -> np.ndarray:
    """Hands drawn from 1–2 suits in a rank window of 3–7 (wrapping past the king), plus
    a few same-rank cards of the other suits, plus 0 … all the pack's jokers."""
    rng = np.random.default_rng(seed)
    out = np.zeros((n, 53), dtype=np.int16)
    for i in range(n):
        j = int(rng.integers(0, min(rules.pack.jokers, size) + 1))
        suits = rng.choice(4, size=int(rng.integers(1, 3)), replace=False)
        width = int(rng.integers(3, 8))
        start = int(rng.integers(0, 13))
        window = [(start + k) % 13 for k in range(width)]
        pool = [s * 13 + r for s in suits for r in window for _ in range(rules.pack.decks)]
        pool += [s * 13 + r for s in range(4) if s not in suits for r in window[:2] for _ in range(rules.pack.decks)]
        picks = rng.choice(len(pool), size=min(size - j, len(pool)), replace=False)
        cards = [pool[p] for p in picks]
        j = size - len(cards)  # a pool too small for the hand is topped up with jokers ...
        extra = max(0, j - rules.pack.jokers)  # ... or, past the pack's jokers, random naturals
        while extra:
            c = int(rng.integers(0, 52))
            if cards.count(c) < rules.pack.decks:
                cards.append(c)
                extra -= 1
        out[i] = to_counts(cards + [JOKER] * min(j, rules.pack.jokers))
    assert (out.sum(axis=1) == size).all() and (out <= rules.pack.counts()).all()
    return out


# --------------------------------------------------------------------------- the cases

ROMME_ONE_PER_MELD = RommeRules(joker_rules="one_per_meld").meld_rules
ROMME_LENIENT = RommeRules(joker_rules="lenient").meld_rules
ROMME_AROUND = RommeRules(ace="around").meld_rules
RUMINO_UNLIMITED = RuminoRules(max_lay_size=None).meld_rules
RUMINO_DISTINCT = RuminoRules(set_suits="distinct").meld_rules
RUMINO_ALL_JOKER = RuminoRules(min_naturals_per_lay=0).meld_rules

# (id, rules, hand size, random hands, dense hands, joker-heavy hands)
CASES = [
    ("rumino-7", RUMINO_MELDS, 7, 1500, 400, 300),
    ("rumino-8", RUMINO_MELDS, 8, 1500, 400, 300),
    ("gin-10", GIN_MELDS, 10, 2000, 600, 0),
    ("gin-11", GIN_MELDS, 11, 2000, 600, 0),
    ("romme-13", ROMME_MELDS, 13, 1500, 400, 300),
    ("romme-14", ROMME_MELDS, 14, 1500, 400, 300),
    ("wiener-10", WIENER_MELDS, 10, 1500, 400, 200),
    ("wiener-11", WIENER_MELDS, 11, 1500, 400, 200),
    ("rumino-unlimited-8", RUMINO_UNLIMITED, 8, 1000, 400, 300),
    ("rumino-distinct-7", RUMINO_DISTINCT, 7, 1000, 400, 300),
    ("rumino-all-joker-melds-8", RUMINO_ALL_JOKER, 8, 1000, 400, 300),
    ("romme-one-per-meld-13", ROMME_ONE_PER_MELD, 13, 1000, 400, 300),
    ("romme-lenient-14", ROMME_LENIENT, 14, 1000, 400, 300),
    ("romme-around-14", ROMME_AROUND, 14, 1000, 400, 300),
]

# Rules no preset uses, to show the kernel reads every field (ace high, three decks,
# tight joker limits, all-joker melds with a per-meld limit, a distinct-suit set of 3).
CUSTOM = [
    ("ace-high-3decks", MeldRules(pack=Pack(decks=3, jokers=3), ace="high", max_set=6, max_run=6,
                                  max_jokers_per_meld=1, ace_value=15, joker_value=25), 9),
    ("around-adjacent-1", MeldRules(pack=Pack(decks=2, jokers=5), ace="around", min_naturals=1,
                                    max_adjacent_jokers=1, max_run=7), 11),
    ("all-joker-limit-2", MeldRules(pack=Pack(decks=2, jokers=6), min_naturals=0, max_jokers_per_meld=2,
                                    max_set=5, max_run=5), 10),
    ("min-meld-4-distinct", MeldRules(pack=Pack(decks=2, jokers=4), min_meld=4, set_suits="distinct",
                                      ace="both", min_naturals=2, adjacent_jokers_min_run=6), 12),
    ("min-meld-2", MeldRules(pack=Pack(decks=1, jokers=2), min_meld=2, max_set=3, max_run=3, min_naturals=1), 8),
]


def _hands_for(rules, size, n_random, n_dense, n_jokers, seed):
    parts = [random_hands(rules, size, n_random, seed), meld_dense_hands(rules, size, n_dense, seed + 1)]
    if n_jokers and rules.pack.jokers:
        parts.append(joker_heavy_hands(rules, size, n_jokers, seed + 2))
    return np.concatenate(parts)


def _mismatches(hands, got, want):
    bad = [(format_hand(from_counts(h)), int(g), int(w)) for h, g, w in zip(hands, got, want) if g != w]
    return bad[:5], len(bad)


@pytest.mark.parametrize("name,rules,size,n_random,n_dense,n_jokers", CASES, ids=[c[0] for c in CASES])
def test_min_deadwood_batch_equals_arrange(name, rules, size, n_random, n_dense, n_jokers):
    hands = _hands_for(rules, size, n_random, n_dense, n_jokers, seed=size * 101 + len(name))
    got = kernels.min_deadwood_batch(hands, rules)
    want = [min_deadwood(from_counts(h), rules) for h in hands]
    examples, count = _mismatches(hands, got, want)
    assert count == 0, f"{count} of {len(hands)} hands differ (hand, kernel, arrange): {examples}"


@pytest.mark.parametrize("name,rules,size,n_random,n_dense,n_jokers", CASES, ids=[c[0] for c in CASES])
def test_after_draw_batch_equals_min_over_discards(name, rules, size, n_random, n_dense, n_jokers):
    """On every hand: the one-search after-draw value equals the minimum, over each distinct
    discard, of the kernel's own minimum deadwood (itself checked against arrange above)."""
    hands = _hands_for(rules, size, n_random // 2, n_dense // 2, n_jokers // 2, seed=size * 103 + len(name))
    got = kernels.after_draw_batch(hands, rules)
    kept, owner = [], []
    for i, h in enumerate(hands):
        for d in np.flatnonzero(h):
            k = h.copy()
            k[d] -= 1
            kept.append(k)
            owner.append(i)
    values = kernels.min_deadwood_batch(np.array(kept), rules)
    want = np.full(len(hands), 1 << 30)
    np.minimum.at(want, np.array(owner), values)
    examples, count = _mismatches(hands, got, want)
    assert count == 0, f"{count} of {len(hands)} hands differ (hand, kernel, min over discards): {examples}"


@pytest.mark.parametrize("name,rules,size,n_random,n_dense,n_jokers", CASES, ids=[c[0] for c in CASES])
def test_after_draw_fast_equals_arrange(name, rules, size, n_random, n_dense, n_jokers):
    """Value and the full list of best discards, against arrange.after_draw."""
    hands = _hands_for(rules, size, 50, 40, 30 if n_jokers else 0, seed=size * 107 + len(name))
    for h in hands:
        cards = from_counts(h)
        ref = after_draw(cards, rules)
        assert kernels.after_draw_fast(cards, rules) == (ref.deadwood, ref.discards), format_hand(cards)


@pytest.mark.parametrize("name,rules,size", CUSTOM, ids=[c[0] for c in CUSTOM])
def test_custom_rules_equal_arrange(name, rules, size):
    hands = _hands_for(rules, size, 600, 300, 200, seed=size * 109 + len(name))
    got = kernels.min_deadwood_batch(hands, rules)
    want = [min_deadwood(from_counts(h), rules) for h in hands]
    examples, count = _mismatches(hands, got, want)
    assert count == 0, f"{count} of {len(hands)} hands differ (hand, kernel, arrange): {examples}"
    for h in hands[:60]:
        cards = from_counts(h)
        ref = after_draw(cards, rules)
        assert kernels.after_draw_fast(cards, rules) == (ref.deadwood, ref.discards), format_hand(cards)


def _random_rules(rng: np.random.Generator) -> MeldRules:
    """A MeldRules with every field drawn at random within its allowed range."""
    while True:
        decks, min_meld = int(rng.integers(1, 4)), int(rng.integers(2, 5))
        jokers = int(rng.integers(0, 9))
        distinct = rng.random() < 0.5
        top_set = max(4, min_meld) if distinct else 4 * decks + jokers
        try:
            return MeldRules(
                pack=Pack(decks=decks, jokers=jokers), min_meld=min_meld,
                max_set=int(rng.integers(min_meld, top_set + 1)), max_run=int(rng.integers(min_meld, 14)),
                set_suits="distinct" if distinct else "any", ace=str(rng.choice(["low", "high", "both", "around"])),
                min_naturals=int(rng.integers(0, min_meld + 1)),
                max_jokers_per_meld=None if rng.random() < 0.5 else int(rng.integers(0, 4)),
                max_adjacent_jokers=None if rng.random() < 0.5 else int(rng.integers(1, 4)),
                adjacent_jokers_min_run=int(rng.integers(0, 8)), ace_value=int(rng.integers(0, 16)),
                face_value=int(rng.integers(0, 16)), joker_value=int(rng.integers(0, 30)))
        except RuleConfigError:  # e.g. max_set above what these suits allow: draw again
            continue


@pytest.mark.parametrize("seed", range(12))
def test_random_rules_equal_arrange(seed):
    """Any MeldRules, not only the presets: every field at random (a dozen seeded draws here;
    300 such draws were checked when the kernel was written)."""
    rng = np.random.default_rng(seed)
    rules = _random_rules(rng)
    size = int(rng.integers(5, 13))
    hands = _hands_for(rules, size, 150, 80, 60, seed=seed)
    got = kernels.min_deadwood_batch(hands, rules)
    want = [min_deadwood(from_counts(h), rules) for h in hands]
    examples, count = _mismatches(hands, got, want)
    assert count == 0, f"{rules}: {count} of {len(hands)} hands differ (hand, kernel, arrange): {examples}"
    for h in hands[:40]:
        cards = from_counts(h)
        ref = after_draw(cards, rules)
        assert kernels.after_draw_fast(cards, rules) == (ref.deadwood, ref.discards), (rules, format_hand(cards))


@pytest.mark.parametrize("name,rules,size", [(c[0], c[1], c[2]) for c in CASES[:8]], ids=[c[0] for c in CASES[:8]])
def test_single_calls_equal_batch(name, rules, size):
    hands = _hands_for(rules, size, 300, 100, 100, seed=size * 113 + len(name))
    batch = kernels.min_deadwood_batch(hands, rules)
    single = [kernels.min_deadwood_fast(from_counts(h), rules) for h in hands]
    assert batch.tolist() == single


# The slowest hands hill climbs on the kernel's node count found (long runs, a near miss,
# many jokers: the search tries every way to spread the jokers).
ADVERSARIAL = [
    (ROMME_MELDS, "4s 5s 6s 7s 8s 9s Qs Ks Qc JK JK JK JK"),
    (ROMME_MELDS, "2c 3c 4c 5c 6c 7c 8c Qc Kc Kd JK JK JK"),
    (ROMME_MELDS, "3s 4s 5s 6s 7s 8s 9s Js Ks Jd JK JK JK JK"),
    (ROMME_LENIENT, "2c 3c 4c 5c 6c 7c 9c 9c 7d JK JK JK JK"),
    (ROMME_LENIENT, "3c 4c 5c 6c 7c 7c Qc 6d JK JK JK JK JK"),
    (ROMME_LENIENT, "4d 5d 6d 7d 8d 9d 10d Qd Qd 10h JK JK JK JK"),
    (ROMME_AROUND, "As 2s 3s 4s 5s 6s Qs Ks Qh Qh JK JK JK JK"),
    (RUMINO_UNLIMITED, "3d 4d 5d 6d 8d 6h JK JK"),
]


@pytest.mark.parametrize("rules,text", ADVERSARIAL, ids=[t for _, t in ADVERSARIAL])
def test_adversarial_hands(rules, text):
    hand = parse_hand(text)
    assert kernels.min_deadwood_fast(hand, rules) == min_deadwood(hand, rules)
    ref = after_draw(hand, rules)
    assert kernels.after_draw_fast(hand, rules) == (ref.deadwood, ref.discards)


# --------------------------------------------------------------------------- the tables themselves


def _readable_as(hand, rules, kind) -> bool:
    return any(m.kind == kind for m in meld_readings(hand, rules))


@pytest.mark.parametrize("rules", [GIN_MELDS, ROMME_MELDS, ROMME_AROUND, ROMME_LENIENT, RUMINO_MELDS,
                                   CUSTOM[0][1], CUSTOM[2][1]],
                         ids=["gin", "romme", "romme-around", "romme-lenient", "rumino", "ace-high", "joker-limit"])
def test_run_and_set_tables_agree_with_meld_readings(rules):
    """run_ok[M] has bit j exactly when the hearts of ranks M plus j jokers read as a run,
    for every rank set M (of up to 5 ranks when there are jokers); set_ok[k] has bit j
    exactly when k naturals of one rank plus j jokers read as a set."""
    table = kernels.rule_tables(rules)
    max_ranks = 13 if rules.pack.jokers == 0 else 5
    for mask in range(1, 1 << 13):
        ranks = [r for r in range(13) if mask >> r & 1]
        if len(ranks) > max_ranks:
            continue
        for j in range(rules.pack.jokers + 1):
            hand = [39 + r for r in ranks] + [JOKER] * j
            got = bool(table[kernels.T_RUN + mask] >> j & 1)
            assert got == _readable_as(hand, rules, "run"), (format_hand(hand), got)
    top = 4 if rules.set_suits == "distinct" else 4 * rules.pack.decks
    for k in range(1, top + 1):
        for j in range(rules.pack.jokers + 1):
            hand = [(i % 4) * 13 + 6 for i in range(k)] + [JOKER] * j  # sevens, suits round-robin
            got = bool(table[kernels.T_SET + k] >> j & 1)
            assert got == _readable_as(hand, rules, "set"), (format_hand(hand), got)


@pytest.mark.parametrize("rules", [RUMINO_MELDS, RUMINO_ALL_JOKER, ROMME_MELDS, CUSTOM[2][1]],
                         ids=["rumino", "rumino-all-joker", "romme", "joker-limit"])
def test_jokers_alone(rules):
    """Hands of jokers only: leftover jokers cost their value unless all-joker melds absorb them."""
    for j in range(rules.pack.jokers + 1):
        hand = [JOKER] * j
        want = min_deadwood(hand, rules)
        assert want == leftover_jokers(j, rules) * rules.joker_value
        assert kernels.min_deadwood_fast(hand, rules) == want
        assert kernels.min_deadwood_batch(to_counts(hand)[None, :], rules).tolist() == [want]


# --------------------------------------------------------------------------- anchors and edges


def test_gin_reference_cases():
    """The 10-card reference cases of the gin literature (ANCHORS.md) through both entry points."""
    cases = {
        "Tc Qc 4d 9d 4h 9h Jh 4s 5s 6s": 56, "Jc Kc 5d Jd Kd 3h 4h 5h 2s 5s": 49,
        "Ac 2c 3c 4c 5d 6d 7d 9h Th Jh": 0, "Ac 2c 3c 2d Td Jd 5h Qh 9s Ks": 56,
        "Ac 2c 3c 4d 5d 6d 7h 8h 9h Ts": 10, "Jc 9d 8s 6d Js 8h Td 8d 7d Jd": 16,
        "Ad As Ah Ac 2c 3c 4c 4h 4d 4s": 0, "As 2s 3s 4s 5s 6s 7s 8s 9s Ts": 0,
    }
    hands = np.array([to_counts(parse_hand(h)) for h in cases])
    assert kernels.min_deadwood_batch(hands, GIN_MELDS).tolist() == list(cases.values())
    for text, value in cases.items():
        assert kernels.min_deadwood_fast(parse_hand(text), GIN_MELDS) == value


def test_edges():
    assert kernels.min_deadwood_fast([], GIN_MELDS) == 0
    assert kernels.min_deadwood_batch(np.zeros((0, 53), dtype=np.int8), GIN_MELDS).shape == (0,)
    assert kernels.after_draw_fast([51], GIN_MELDS) == (0, (51,))
    assert kernels.after_draw_fast([JOKER], RUMINO_MELDS) == (0, (JOKER,))
    # a full two-deck pack with its jokers melds completely under Rumino's rules
    assert kernels.min_deadwood_batch(RUMINO_MELDS.pack.counts()[None, :], RUMINO_MELDS).tolist() == [0]
    # numpy ids and every integer dtype are accepted
    hand = parse_hand("7h 8h 9h 10h 5c 5d 5s 2c")
    assert kernels.min_deadwood_fast(np.array(hand, dtype=np.uint8), RUMINO_MELDS) == 2
    for dtype in (np.int8, np.int16, np.int64, np.uint8):
        assert kernels.min_deadwood_batch(to_counts(hand)[None, :].astype(dtype), RUMINO_MELDS).tolist() == [2]


def test_forbidden_discards_match_arrange():
    hand = parse_hand("6s 2c 4c 5c 6c 3d 4d 5d 6d 3h 5h")
    for forbidden in ([5], [5, 43], [16, 29, 42], list(range(52))[:20]):
        ref = after_draw(hand, GIN_MELDS, forbidden=forbidden)
        assert kernels.best_discards_fast(hand, GIN_MELDS, forbidden=forbidden) == (ref.deadwood, ref.discards)
    with pytest.raises(IllegalActionError, match="every card of the hand is forbidden"):
        kernels.best_discards_fast([0, 1], GIN_MELDS, forbidden=[0, 1])
    jokers = parse_hand("JK JK 5h 9c 9d 9s 2c 3c")
    ref = after_draw(jokers, RUMINO_MELDS, forbidden=[JOKER])
    assert kernels.best_discards_fast(jokers, RUMINO_MELDS, forbidden=[JOKER]) == (ref.deadwood, ref.discards)


def test_equal_rules_share_tables():
    a, b = RuminoRules().meld_rules, RuminoRules().meld_rules
    assert a is not b and kernels.rule_tables(a) is kernels.rule_tables(b)
    assert kernels.encode_rules(ROMME_MELDS).tolist()[:9] == [3, 4, 13, 1, 2, 2, -1, 2, 4]


# --------------------------------------------------------------------------- bad input


def test_bad_batches_are_refused_with_the_row_and_card():
    with pytest.raises(InvalidCardError, match=r"shape \(n, 53\).*got shape \(53,\)"):
        kernels.min_deadwood_batch(np.zeros(53, dtype=np.int8), GIN_MELDS)
    with pytest.raises(InvalidCardError, match="must hold integers; got dtype float64"):
        kernels.min_deadwood_batch(np.zeros((2, 53)), GIN_MELDS)
    hands = np.zeros((3, 53), dtype=np.int16)
    hands[2, 48] = 2  # two 10h in a one-deck game
    with pytest.raises(InvalidCardError, match="row 2 of counts holds 2 copies of 10h, but a pack of 1 deck and no jokers has only 1"):
        kernels.min_deadwood_batch(hands, GIN_MELDS)
    hands[2, 48] = 0
    hands[:, 0] = 1  # every row holds the ace of spades
    hands[1, JOKER] = 1
    with pytest.raises(InvalidCardError, match="row 1 of counts holds 1 joker, but a pack of 1 deck and no jokers has only 0"):
        kernels.after_draw_batch(hands, GIN_MELDS)
    hands[1, JOKER] = 0
    hands[0, 3] = -1
    with pytest.raises(InvalidCardError, match=r"row 0 of counts has a negative count \(-1\) of copies of 4s"):
        kernels.min_deadwood_batch(hands, GIN_MELDS)
    hands[0, 3] = 0
    hands[2, 0] = 0
    with pytest.raises(InvalidCardError, match="row 2 of counts is an empty hand"):
        kernels.after_draw_batch(hands, GIN_MELDS)
    big = np.zeros((1, 53), dtype=np.int64)
    big[0, 7] = 1000
    with pytest.raises(InvalidCardError, match="row 0 of counts holds 1000 copies of 8s"):
        kernels.min_deadwood_batch(big, RUMINO_MELDS)


def test_bad_single_hands_are_refused():
    with pytest.raises(InvalidCardError, match="53 is not a card id"):
        kernels.min_deadwood_fast([1, 2, 53], GIN_MELDS)
    with pytest.raises(InvalidCardError, match="-1 is not a card id"):
        kernels.after_draw_fast([-1, 2], GIN_MELDS)
    with pytest.raises(InvalidCardError, match="'7h' is not a card id"):
        kernels.min_deadwood_fast([1, "7h"], GIN_MELDS)
    with pytest.raises(InvalidCardError, match="is a string: pass card ids"):
        kernels.min_deadwood_fast("7h 8h 9h", GIN_MELDS)
    with pytest.raises(InvalidCardError, match="holds 3 copies of 7h, but a pack of 2 decks and 4 jokers has only 2"):
        kernels.min_deadwood_fast(parse_hand("7h 7h 7h"), RUMINO_MELDS)
    with pytest.raises(InvalidCardError, match="the hand is empty"):
        kernels.after_draw_fast([], GIN_MELDS)
    with pytest.raises(RuleConfigError, match="need a rumino.melds.MeldRules"):
        kernels.min_deadwood_fast([1], RuminoRules())


# --------------------------------------------------------------------------- compiling


# A read-only cache: NUMBA_CACHE_DIR names a directory that cannot be created (its parent
# is a file, which stops root too) and the other places numba would try (the package's
# __pycache__, the user's cache) are taken off its list, as on a read-only install.
# The probe compiles two small functions through rumino.jit, one with a signature (compiled
# when decorated, as deadwood_dfs is) and one without (compiled at the first call, as the
# others are): compiling the real kernels again here cost 28 s of CPU and tested numba, not us.
_PROBE = """
import importlib.util, sys
import numba.core.caching as caching
caching.CacheImpl._locator_classes = [caching.UserProvidedCacheLocator]
# rumino/jit.py by its path: `import rumino.jit` would run rumino/__init__.py first, which compiles
# the kernels that have a signature (deadwood_dfs and three more) at import, 28 s without a cache
spec = importlib.util.spec_from_file_location("rumino_jit_probe", sys.argv[1])
module = importlib.util.module_from_spec(spec)
spec.loader.exec_module(module)
jit = module.jit
@jit(sig="int64(int64)")
def eager(x):
    return x + 1
@jit
def lazy(x):
    return 2 * x
print(eager(1), lazy(3), type(eager._cache).__name__, type(lazy._cache).__name__)
"""


@pytest.mark.slow
def test_compiles_when_no_cache_directory_is_writable(tmp_path):
    """``cache=True`` would raise when decorating; rumino.jit falls back to compiling in memory.
    (A fresh cache directory is the ordinary first run, as on every CI machine.)"""
    blocker = tmp_path / "a-file"
    blocker.write_text("")
    env = {**os.environ, "NUMBA_CACHE_DIR": str(blocker / "cache")}
    import rumino.jit

    done = subprocess.run([sys.executable, "-c", _PROBE, rumino.jit.__file__], env=env, capture_output=True,
                          text=True, timeout=300)
    assert done.returncode == 0, done.stderr
    assert done.stdout.split() == ["2", "6", "NullCache", "NullCache"]
    assert not (blocker / "cache").exists()


def test_every_compiled_kernel_goes_through_the_one_wrapper():
    """The fallback above covers the kernels only if they are all decorated by rumino.jit."""
    import ast

    import rumino

    root = Path(rumino.__file__).parent
    for path in root.rglob("*.py"):
        tree = ast.parse(path.read_text())
        for node in ast.walk(tree):
            if isinstance(node, (ast.Import, ast.ImportFrom)):
                names = [a.name for a in node.names]
                module = getattr(node, "module", None) or ""
                assert not (module == "numba" and {"njit", "jit"} & set(names)), f"{path}: use rumino.jit"
            if isinstance(node, ast.Attribute) and node.attr in ("njit", "jit") and \
                    isinstance(node.value, ast.Name) and node.value.id == "numba":
                assert path.name == "jit.py", f"{path}:{node.lineno} calls numba.{node.attr}: use rumino.jit"


@pytest.mark.parametrize("rules", [ROMME_MELDS, ROMME_AROUND, ROMME_LENIENT], ids=["romme", "romme-around", "romme-lenient"])
def test_thirteen_card_runs_with_jokers_agree_with_meld_readings(rules):
    """A run of all 13 ranks with jokers: with the ace around, every rotation is a different run
    (the jokers' neighbours change), so 5-6-7 as jokers is a legal 13-card run starting at the 7
    even where three jokers side by side are not (rules §3.2). The table must try every start,
    as :meth:`MeldRules.run_windows` does (the kernel once tried only the run from the ace)."""
    table = kernels.rule_tables(rules)
    for j in range(1, min(3, rules.pack.jokers) + 1):
        for jokers in itertools.combinations(range(13), j):
            mask = 8191 & ~sum(1 << r for r in jokers)
            hand = [39 + r for r in range(13) if mask >> r & 1] + [JOKER] * j
            got = bool(table[kernels.T_RUN + mask] >> j & 1)
            assert got == _readable_as(hand, rules, "run"), (format_hand(hand), got)
