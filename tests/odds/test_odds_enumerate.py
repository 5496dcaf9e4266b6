"""Deal enumeration up to suit symmetry: class counts, weights, and brute force over reduced packs."""

from __future__ import annotations

from collections import Counter
from concurrent.futures import ProcessPoolExecutor
from itertools import combinations
from math import comb

import numpy as np
import pytest

from rumino.cards import JOKER, RUMINO_PACK, STANDARD_PACK, Pack, from_counts
from rumino.melds import MeldRules
from rumino.odds.enumerate import (
    PackShape,
    _multichoose,
    brute_force_distribution,
    class_count,
    deal_distribution,
    enumerated_class_count,
    is_rumino_batch,
    iter_classes,
    reference_evaluator,
    tasks,
)
from rumino.odds.montecarlo import sample_deals
from rumino.variants.rumino import RuminoRules, is_rumino


def test_published_class_counts_five_and_seven_cards():
    one_deck = PackShape(copies=1)
    assert class_count(one_deck, 5) == enumerated_class_count(one_deck, 5) == 134_459
    assert class_count(one_deck, 7) == enumerated_class_count(one_deck, 7) == 6_009_159


@pytest.mark.parametrize("shape,k", [
    (PackShape(copies=2, jokers=4), 7),
    (PackShape(copies=1), 10),
    (PackShape(suits=3, ranks=6, copies=2, jokers=2), 6),
    (PackShape(suits=2, ranks=13, copies=3, jokers=1), 5),
])
def test_generator_and_burnside_agree(shape, k):
    assert class_count(shape, k) == enumerated_class_count(shape, k)


def test_five_card_classes_are_distinct_orbits_with_the_right_weights():
    """Map all 2,598,960 five-card hands to a canonical key; each class's weight is its orbit's size."""
    shape = PackShape(copies=1)
    hands = np.array(list(combinations(range(52), 5)), dtype=np.int64)
    suits, ranks = hands // 13, hands % 13
    rows = np.zeros((len(hands), 4), dtype=np.int64)
    for k in range(5):
        np.bitwise_or.at(rows, (np.arange(len(hands)), suits[:, k]), 1 << ranks[:, k])
    keys = np.sort(rows, axis=1) @ (8192 ** np.arange(4))
    uniq, sizes = np.unique(keys, return_counts=True)
    orbit = dict(zip(uniq.tolist(), sizes.tolist()))
    seen = Counter()
    for counts, weights, _ in iter_classes(shape, 5):
        grid = counts[:, :52].reshape(-1, 4, 13).astype(np.int64)
        r = (grid * (1 << np.arange(13))).sum(axis=2)
        for key, w in zip((np.sort(r, axis=1) @ (8192 ** np.arange(4))).tolist(), weights.tolist()):
            seen[key] += 1
            assert orbit[key] == w
    assert len(seen) == len(orbit) == 134_459 and max(seen.values()) == 1


@pytest.mark.parametrize("shape,k", [
    (PackShape(copies=2, jokers=4), 4),
    (PackShape(copies=1), 6),
    (PackShape(suits=2, ranks=5, copies=2, jokers=2), 6),
    (PackShape(suits=3, ranks=4, copies=3, jokers=3), 5),
])
def test_class_weights_add_up_to_every_deal(shape, k):
    total = sum(int(w.sum()) for _, w, _ in iter_classes(shape, k))
    assert total == comb(shape.size, k)


def test_one_deck_seven_card_weights_add_up_exactly():
    shape = PackShape(copies=1)
    total, n = 0, 0
    for _, w, _ in iter_classes(shape, 7):
        total += int(w.sum())
        n += len(w)
    assert (n, total) == (6_009_159, comb(52, 7))


def test_tasks_cover_every_class_once_whatever_the_chunk():
    shape = PackShape(suits=3, ranks=5, copies=2, jokers=1)
    a = np.vstack([c for c, _, _ in iter_classes(shape, 5, chunk=7)])
    b = np.vstack([c for c, _, _ in iter_classes(shape, 5, chunk=10_000)])
    assert np.array_equal(a, b) and len({r.tobytes() for r in a}) == len(a)
    assert sum(t.n for t in tasks(shape, 5, chunk=7)) == class_count(shape, 5)


def test_multichoose_lists_non_decreasing_tuples():
    got = _multichoose(5, 3)
    assert len(got) == comb(7, 3)
    assert (np.diff(got, axis=1) >= 0).all() and len({tuple(r) for r in got}) == len(got)


def _brute_rumino_count(shape: PackShape, k: int) -> Counter:
    """Ruminos by jokers over every physical hand, with is_rumino's rules written out plainly."""
    physical = [c for c in shape.card_ids() for _ in range(shape.copies)] + [JOKER] * shape.jokers
    out = Counter()
    for hand in combinations(physical, k):
        nat = [c for c in hand if c != JOKER]
        ranks = {c % 13 for c in nat}
        suits = {c // 13 for c in nat}
        kind = len(ranks) <= 1
        flush = len(suits) <= 1 and len(set(nat)) == len(nat) and (not nat or max(ranks) - min(ranks) <= k - 1)
        if kind or flush:
            out[k - len(nat)] += 1
    return out


REDUCED = [
    # (shape, hand size, rules): two-deck packs with jokers and Rumino-style lays; a one-deck gin-style pack
    (PackShape(suits=2, ranks=5, copies=2, jokers=2), 5,
     MeldRules(pack=Pack(decks=2, jokers=2), max_set=4, max_run=4, ace="low")),
    (PackShape(suits=2, ranks=5, copies=2, jokers=2), 6,
     MeldRules(pack=Pack(decks=2, jokers=2), max_set=4, max_run=4, ace="low")),
    (PackShape(suits=3, ranks=4, copies=2, jokers=1), 6,
     MeldRules(pack=Pack(decks=2, jokers=1), max_set=6, max_run=13, ace="low", set_suits="any")),
    (PackShape(suits=3, ranks=6, copies=1, jokers=0), 7,
     MeldRules(pack=STANDARD_PACK, max_set=4, max_run=13, ace="low")),
    (PackShape(suits=2, ranks=6, copies=2, jokers=2), 6,
     MeldRules(pack=Pack(decks=2, jokers=2), max_set=4, max_run=4, set_suits="distinct", min_naturals=2)),
]


@pytest.mark.parametrize("shape,k,rules", REDUCED)
def test_enumerator_equals_brute_force_over_every_hand_of_a_reduced_pack(shape, k, rules):
    brute = brute_force_distribution(rules, k, shape)
    by_kernel = deal_distribution(rules, k, shape=shape, rumino=True)
    by_search = deal_distribution(rules, k, shape=shape, evaluator=reference_evaluator(rules))
    assert by_kernel.deadwood == brute.deadwood == by_search.deadwood
    assert by_kernel.deals() == comb(shape.size, k)
    assert by_kernel.classes < brute.classes  # the symmetry saved work
    assert {j: n for j, n in by_kernel.rumino.items() if n} == dict(_brute_rumino_count(shape, k))


def test_rumino_batch_agrees_with_is_rumino():
    rng = np.random.default_rng(11)
    hands = sample_deals(RUMINO_PACK, 7, 20_000, rng)
    made = [
        "3h 4h 5h 6h 7h 8h 9h", "5h 5h 5s 5s 5d JK 5c", "JK JK JK JK 2c 3c 7c", "JK 2c 3c 4c 5c 6c 8c",
        "Ac 2c 3c 4c 5c 6c 7c", "7s 8s 9s 10s Js Qs Ks", "JK JK JK 9d 9d 9c 9h", "JK 8s 9s 10s Js Qs Ks",
        "5h 5h 5s 5s 5d 5d 5c", "2c 3c 4c 5c 6c 7c 9c", "Jc Qc Kc Ac JK JK JK", "9h 9h 9s 9s 9d 9d JK",
    ]
    from rumino.cards import parse_hand, to_counts

    extra = np.stack([to_counts(parse_hand(h)) for h in made]).astype(np.int8)
    rows = np.vstack([hands, extra])
    for rules in (RuminoRules(), RuminoRules(set_suits="distinct"), RuminoRules(rumino_natural_only=True)):
        fast = is_rumino_batch(rows, distinct=rules.set_suits == "distinct", natural_only=rules.rumino_natural_only)
        slow = np.array([is_rumino(from_counts(r), rules) for r in rows])
        assert np.array_equal(fast, slow)
        assert fast[-len(made):].any()


def test_executor_gives_the_same_distribution():
    rules = MeldRules(pack=Pack(decks=2, jokers=2), max_set=4, max_run=4)
    shape = PackShape(suits=3, ranks=7, copies=2, jokers=2)
    plain = deal_distribution(rules, 6, shape=shape, rumino=True, chunk=5000)
    with ProcessPoolExecutor(2) as pool:
        pooled = deal_distribution(rules, 6, shape=shape, rumino=True, chunk=5000, executor=pool)
    assert plain.deadwood == pooled.deadwood and plain.rumino == pooled.rumino


def test_bad_shapes_and_sizes_are_refused():
    from rumino.errors import RuleConfigError

    with pytest.raises(RuleConfigError, match="PackShape.suits is 5"):
        PackShape(suits=5)
    with pytest.raises(RuleConfigError, match="hand size 200 is impossible"):
        tasks(PackShape(copies=1), 200)
