"""Exact drawing odds against brute-force enumeration of small decks and against scipy.stats.hypergeom."""

from __future__ import annotations

from fractions import Fraction
from itertools import combinations, permutations
from math import comb

import pytest
from scipy.stats import hypergeom

from rumino.odds.draws import (
    OddsArgumentError,
    complete_counts,
    completion_curve,
    expected_draws_to_complete,
    expected_draws_to_first_out,
    first_out_distribution,
    p_at_least_one,
    p_complete,
)

SMALL = [(k, u, n) for u in range(0, 8) for k in range(0, u + 1) for n in range(0, u + 1)]


@pytest.mark.parametrize("k,u,n", SMALL)
def test_p_at_least_one_matches_every_subset_of_a_small_deck(k, u, n):
    deck = range(u)  # cards 0 … k−1 are the outs
    hits = sum(1 for hand in combinations(deck, n) if any(c < k for c in hand))
    assert p_at_least_one(k, u, n) == Fraction(hits, comb(u, n))


@pytest.mark.parametrize("k,u,n", [(8, 47, 1), (8, 47, 2), (9, 46, 5), (4, 101, 20), (1, 52, 51), (15, 94, 30)])
def test_p_at_least_one_matches_scipy_hypergeom(k, u, n):
    assert float(p_at_least_one(k, u, n)) == pytest.approx(1 - hypergeom.pmf(0, u, k, n), rel=1e-12, abs=1e-15)


@pytest.mark.parametrize("k,u", [(1, 1), (1, 5), (2, 6), (3, 7), (6, 6)])
def test_first_out_distribution_matches_every_order_of_a_small_deck(k, u):
    counts = [0] * (u - k + 1)
    total = 0
    for order in permutations(range(u)):
        t = next(i for i, c in enumerate(order) if c < k)
        counts[t] += 1
        total += 1
    assert first_out_distribution(k, u) == [Fraction(c, total) for c in counts]


@pytest.mark.parametrize("k,u", [(1, 1), (1, 10), (4, 47), (8, 101), (30, 30)])
def test_expected_draws_is_u_plus_1_over_k_plus_1_and_agrees_with_the_distribution(k, u):
    dist = first_out_distribution(k, u)
    assert sum(dist) == 1
    mean = sum((t + 1) * p for t, p in enumerate(dist))
    assert mean == expected_draws_to_first_out(k, u) == Fraction(u + 1, k + 1)
    # scipy's negative-hypergeometric-free check: E[T] = Σ_{n ≥ 0} P(no out in n draws)
    assert float(mean) == pytest.approx(sum(hypergeom.pmf(0, u, k, n) for n in range(u - k + 1)), rel=1e-12)


def _brute_complete(needs, jokers, blanks, draws, held=0):
    """Enumerate every ordered sequence of draws from labelled cards and test the condition."""
    cards = []
    for i, (a, _) in enumerate(needs):
        cards += [("kind", i)] * a
    cards += [("joker", None)] * jokers + [("blank", None)] * blanks
    labelled = list(enumerate(cards))
    good = total = 0
    for seq in permutations(labelled, draws):
        total += 1
        got = [0] * len(needs)
        j = held
        for _, (what, i) in seq:
            if what == "kind":
                got[i] += 1
            elif what == "joker":
                j += 1
        short = sum(max(0, n - g) for (_, n), g in zip(needs, got))
        good += short <= j
    return Fraction(good, total)


CASES = [
    ([(2, 1), (2, 1)], 0, 3, 2),
    ([(2, 1), (2, 1)], 1, 2, 3),
    ([(2, 1), (1, 1), (2, 1)], 2, 1, 3),
    ([(3, 2)], 1, 3, 3),
    ([(2, 2), (1, 1)], 2, 2, 4),
    ([(1, 1)] * 3, 1, 3, 4),
    ([(0, 1), (2, 1)], 1, 3, 3),  # a kind with no copy left only a joker can fill
]


@pytest.mark.parametrize("needs,jokers,blanks,draws", CASES)
def test_multivariate_joker_dp_matches_brute_force_over_draw_sequences(needs, jokers, blanks, draws):
    unseen = sum(a for a, _ in needs) + jokers + blanks
    assert p_complete(needs, unseen, draws, jokers) == _brute_complete(needs, jokers, blanks, draws)


@pytest.mark.parametrize("needs,jokers,blanks,draws", CASES[:4])
def test_jokers_already_held_cover_gaps(needs, jokers, blanks, draws):
    unseen = sum(a for a, _ in needs) + jokers + blanks
    assert p_complete(needs, unseen, draws, jokers, jokers_held=1) == _brute_complete(needs, jokers, blanks, draws, 1)


@pytest.mark.parametrize("needs,jokers,blanks,draws", CASES)
def test_random_removals_do_not_change_the_odds(needs, jokers, blanks, draws):
    unseen = sum(a for a, _ in needs) + jokers + blanks
    plain = p_complete(needs, unseen, draws, jokers)
    for removed in range(0, unseen - draws + 1):
        assert p_complete(needs, unseen, draws, jokers, removed=removed) == plain


def test_removals_brute_force_on_a_tiny_deck():
    # 2 needed kinds (2 copies each), 1 joker, 2 blanks; 2 cards vanish, then 3 draws
    needs, jokers, blanks, removed, draws = [(2, 1), (2, 1)], 1, 2, 2, 3
    labels = ["a", "a", "b", "b", "J", "x", "x"]
    good = total = 0
    for gone in combinations(range(7), removed):
        rest = [i for i in range(7) if i not in gone]
        for drawn in combinations(rest, draws):
            got = [labels[i] for i in drawn]
            short = ("a" not in got) + ("b" not in got)
            good += short <= got.count("J")
            total += 1
    assert p_complete(needs, 7, draws, jokers, removed=removed) == Fraction(good, total)


def test_single_need_reduces_to_at_least_one_out():
    for k, u, n in [(2, 10, 3), (8, 47, 5), (1, 3, 2)]:
        assert p_complete([(k, 1)], u, n) == p_at_least_one(k, u, n)
        assert expected_draws_to_complete([(k, 1)], u) == expected_draws_to_first_out(k, u)


def test_completion_curve_is_monotone_and_ends_at_one():
    curve = completion_curve([(2, 1)] * 3, unseen=20, max_draws=20, jokers=2)
    assert curve[0] == 0 and curve[-1] == 1
    assert all(a <= b for a, b in zip(curve, curve[1:]))


def test_straight_flush_completion_from_four_cards():
    # 4h 5h 6h 7h held: the Rumino windows 4–10 need 8h 9h 10h (2 copies each); 4 jokers among 101 unseen
    good, total = complete_counts([(2, 1)] * 3, unseen=101, draws=10, jokers=4)
    assert total == comb(101, 10) and 0 < good < total
    assert p_complete([(2, 1)] * 3, 101, 10, 4) == Fraction(good, total)


@pytest.mark.parametrize("call,message", [
    (lambda: p_at_least_one(3, 2, 1), "outs is 3 but only 2 cards are unseen"),
    (lambda: p_at_least_one(1, 10, -1), "draws is -1"),
    (lambda: p_at_least_one(1, 10, 11), "draws is 11 but only 10 cards are unseen"),
    (lambda: p_at_least_one(1.5, 10, 1), "outs is 1.5"),
    (lambda: first_out_distribution(0, 5), "outs is 0"),
    (lambda: expected_draws_to_first_out(0, 5), "outs is 0"),
    (lambda: p_complete([(5, 1)], 4, 1), "hold 5 unseen cards but only 4"),
    (lambda: p_complete([(2, 1)], 10, 6, removed=5), "exceed the 10 unseen cards"),
    (lambda: p_complete([(2,)], 10, 1), "each need is a pair"),
    (lambda: expected_draws_to_complete([(1, 2)], 5), "can never be completed"),
])
def test_impossible_arguments_are_refused_with_a_reason(call, message):
    with pytest.raises(OddsArgumentError, match=message):
        call()
