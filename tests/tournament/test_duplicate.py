"""Duplicate pairs split exactly: the identity checked by brute force, the share against the
tournament's own float reading, the factor against a direct count, and the refusals."""

from __future__ import annotations

import random
from fractions import Fraction
from itertools import product

import numpy as np
import pytest

from rumino.errors import RuminoError
from rumino.tournament import tournament
from rumino.tournament.duplicate import variance_split


def _var(xs):
    """The variance by its definition, the mean of squares less the square of the mean (a second route)."""
    n = len(xs)
    return Fraction(sum(x * x for x in xs), 1) / n - Fraction(sum(xs), n) ** 2


def test_every_small_set_of_pairs_splits_exactly():
    """Every set of two deals with margins in −2..2 (625 sets): (Var y1 + Var y2)/2 = Var s + Var d,
    each variance as the definition computes it."""
    for a, b, c, d in product(range(-2, 3), repeat=4):
        split = variance_split([[a, b], [c, d]])
        assert split.seat_variances == (_var([a, c]), _var([b, d]))
        assert split.stays_with_players == _var([Fraction(a + b, 2), Fraction(c + d, 2)])
        assert split.changes_with_cards == _var([Fraction(a - b, 2), Fraction(c - d, 2)])
        assert sum(split.seat_variances) / 2 == split.hand_variance


def test_random_pairs_split_exactly_and_the_factor_is_two_times_one_minus_the_share():
    rng = random.Random(4)
    for _ in range(50):
        rows = [[rng.randint(-30, 30), rng.randint(-30, 30)] for _ in range(rng.randint(2, 40))]
        split = variance_split(rows)
        assert sum(split.seat_variances) / 2 == split.stays_with_players + split.changes_with_cards
        if split.deal_share is not None:
            assert split.duplicate_factor == 2 * (1 - split.deal_share)


def test_the_factor_is_the_ratio_of_the_two_match_variances():
    """The duplicate match's mean has variance Var s / n; 2n hands on fresh deals, (Var y1 + Var y2)/4n:
    the factor is their ratio, computed here from the seatings directly."""
    rows = [[5, -3], [0, 4], [-2, -2], [7, 1], [3, 3]]
    split = variance_split(rows)
    n = len(rows)
    duplicate = _var([Fraction(a + b, 2) for a, b in rows]) / n
    fresh = (_var([a for a, _ in rows]) + _var([b for _, b in rows])) / (4 * n)
    assert split.duplicate_factor == duplicate / fresh


def test_the_exact_share_is_the_tournaments_reading():
    """Tournament.deal_share reads the same share in floats (a second route, on real hands)."""
    t = tournament("knock-rummy", ["greedy", "random"], deals=4, seed=3)
    split = variance_split(t.margins[(0, 1)])
    assert float(split.deal_share) == pytest.approx(t.deal_share(0, 1, resamples=5)[0], rel=1e-12)


def test_pairs_that_only_swap_sides_leave_everything_to_the_cards():
    """y2 = −y1 on every deal (what two copies of one deterministic bot give): s = 0, the deal decides all."""
    rows = np.array([[4, -4], [-11, 11], [0, 0], [25, -25]])
    split = variance_split(rows)
    assert split.stays_with_players == 0 and split.deal_share == 1 and split.duplicate_factor == 0


def test_nothing_varies_gives_no_share():
    split = variance_split([[1, 1], [1, 1]])
    assert split.deal_share is None and split.duplicate_factor is None


def test_floats_are_read_exactly():
    """d = 3/8 and 1/2: mean 7/16, each 1/16 away, so Var d = 1/256 with no rounding."""
    split = variance_split([[0.5, -0.25], [1.0, 0.0]])
    assert split.changes_with_cards == Fraction(1, 256)


@pytest.mark.parametrize("rows, says", [
    ([], "no deal"),
    ([[1, 2, 3]], "deal 0"),
    ([[1, 2], "ab"], "deal 1"),
    ([[1, "x"]], "deal 0 in seat 1"),
    ([[float("nan"), 1]], "finite"),
    ([[True, 1]], "is True"),
])
def test_bad_margins_are_refused_naming_the_deal(rows, says):
    with pytest.raises(RuminoError, match=says):
        variance_split(rows)
