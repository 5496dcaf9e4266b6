"""Comparisons by difference (rumino.stats), each checked by an independent route: published worked
examples, scipy's own tests, and coverage computed by enumerating every outcome of small cases."""

from __future__ import annotations

import itertools
import math

import numpy as np
import pytest
from scipy import stats as sps

from rumino.stats import (Comparison, correlated_difference, fisher_exact_test, holm, mean_difference, mean_estimate, paired_counts,
                          paired_mean_difference, paired_proportion_difference, paired_sign_test,
                          proportion_difference, sign_test, verdict, wilson_interval)

# Newcombe (1998), Statistics in Medicine 17, 873-890, Table II, method 10 (hybrid score, no correction)
NEWCOMBE_INDEPENDENT = [
    ((56, 70, 48, 80), (0.0524, 0.3339)),
    ((9, 10, 3, 10), (0.1705, 0.8090)),
    ((5, 56, 0, 29), (-0.0381, 0.1926)),
    ((0, 10, 0, 20), (-0.1611, 0.2775)),
    ((0, 10, 0, 10), (-0.2775, 0.2775)),
    ((10, 10, 0, 20), (0.6791, 1.0)),
    ((10, 10, 0, 10), (0.6075, 1.0)),
]


@pytest.mark.parametrize("counts, limits", NEWCOMBE_INDEPENDENT)
def test_newcombe_independent_worked_examples(counts, limits):
    c = proportion_difference(*counts)
    assert c.estimate == pytest.approx(counts[0] / counts[1] - counts[2] / counts[3])
    assert [round(x, 4) for x in c.ci95] == pytest.approx(list(limits), abs=1e-4)


# Newcombe's paired method 10 (square and add with his corrected correlation): Fagerland, Lydersen and
# Laake's two examples (their R package contingencytables prints these limits)
@pytest.mark.parametrize("cells, estimate, limits", [
    ((59, 6, 16, 80), -0.0621, (-0.1186, -0.0046)),   # Cavo et al. 2012
    ((1, 1, 7, 12), -0.2857, (-0.5069, -0.0256)),     # Bentur et al. 2009
])
def test_newcombe_paired_worked_examples(cells, estimate, limits):
    c = paired_proportion_difference(*cells)
    assert round(c.estimate, 4) == estimate and c.paired
    assert [round(x, 4) for x in c.ci95] == pytest.approx(list(limits), abs=1e-4)


def test_fisher_agrees_with_scipy_on_every_small_table():
    for n_a, n_b in ((5, 7), (10, 10), (12, 4)):
        for x, y in itertools.product(range(n_a + 1), range(n_b + 1)):
            ours = fisher_exact_test(x, n_a, y, n_b).p_value
            theirs = sps.fisher_exact([[x, n_a - x], [y, n_b - y]]).pvalue
            assert ours == pytest.approx(min(1.0, theirs), rel=1e-9, abs=1e-12), (x, n_a, y, n_b)


def test_the_issues_cases():
    # chapter 12: a random player's 1 of 200 hands against 8 of 200 (independent counts: Fisher)
    assert fisher_exact_test(1, 200, 8, 200).p_value == pytest.approx(0.0370, abs=5e-4)
    assert fisher_exact_test(1, 200, 8, 200).p_value == pytest.approx(
        sps.fisher_exact([[1, 199], [8, 192]]).pvalue)
    # chapter 6: 140 against 108 wins of the same 400 four-player games (one winner a game): the sign test
    c = sign_test(140, 108, 0, 152)
    assert c.p_value == pytest.approx(sps.binomtest(140, 248).pvalue) and round(c.p_value, 3) == 0.049
    assert c.shown and c.estimate == pytest.approx(32 / 400)


def test_sign_test_agrees_with_scipy_binomtest():
    for b, c in itertools.product(range(0, 15), range(0, 15)):
        if b + c:
            assert sign_test(b, c, 3, 4).p_value == pytest.approx(sps.binomtest(b, b + c).pvalue, rel=1e-12)


def test_paired_sign_test_counts_ties_and_splits_the_cells():
    pairs = [(1, 0)] * 5 + [(0, 1)] * 2 + [(0.5, 0)] * 2 + [(1, 1)] * 3 + [(0, 0)] * 8
    c = paired_sign_test(pairs)
    assert c.p_value == pytest.approx(sps.binomtest(7, 9).pvalue)   # better 7 (two of them ties), worse 2
    assert paired_counts(pairs) == (3.0, 6.0, 2.0, 9.0)
    assert c.estimate == pytest.approx((6 - 2) / 20)


def test_paired_mean_difference_agrees_with_ttest_rel():
    rng = np.random.default_rng(4)
    a = rng.normal(1.0, 2.0, 40)
    b = a + rng.normal(0.5, 1.0, 40)
    c = paired_mean_difference(a - b)
    ref = sps.ttest_rel(a, b)
    lo, hi = ref.confidence_interval(0.95)
    assert c.p_value == pytest.approx(ref.pvalue) and c.ci95 == pytest.approx((lo, hi))
    assert c.kind == "mean" and c.n == 40 and c.paired


def test_mean_difference_is_the_normal_interval_of_two_means():
    a, b = mean_estimate([3, 5, 4, 6, 2]), mean_estimate([1, 2, 2, 1, 3])
    c = mean_difference(a, b)
    se = math.hypot(a.se, b.se)
    assert c.estimate == pytest.approx(a.value - b.value)
    assert c.ci95 == pytest.approx((c.estimate - 1.959963984540054 * se, c.estimate + 1.959963984540054 * se))
    assert c.p_value == pytest.approx(2 * sps.norm.sf(c.estimate / se))


def _independent_coverage(n_a, n_b, p_a, p_b, method):
    """The exact coverage of an interval for p_a − p_b: every outcome weighted by its binomial chance."""
    total = 0.0
    for x, y in itertools.product(range(n_a + 1), range(n_b + 1)):
        w = sps.binom.pmf(x, n_a, p_a) * sps.binom.pmf(y, n_b, p_b)
        lo, hi = method(x, n_a, y, n_b)
        total += w * (lo - 1e-12 <= p_a - p_b <= hi + 1e-12)
    return total


def _wald(x, n_a, y, n_b):
    pa, pb = x / n_a, y / n_b
    half = 1.96 * math.sqrt(pa * (1 - pa) / n_a + pb * (1 - pb) / n_b)
    return pa - pb - half, pa - pb + half


def test_newcombe_covers_near_95_percent_where_wald_does_not():
    grid = [(0.05, 0.1), (0.1, 0.3), (0.3, 0.3), (0.5, 0.4), (0.8, 0.95), (0.02, 0.02)]
    ours = [_independent_coverage(15, 20, pa, pb, lambda *t: proportion_difference(*t).ci95) for pa, pb in grid]
    wald = [_independent_coverage(15, 20, pa, pb, _wald) for pa, pb in grid]
    assert 0.94 < np.mean(ours) < 0.98 and min(ours) > 0.93
    assert np.mean(wald) < 0.94 and min(wald) < 0.91          # the check can fail: Wald's interval does


def test_newcombe_paired_covers_near_95_percent():
    n = 12
    for cells in ((0.3, 0.2, 0.1, 0.4), (0.1, 0.1, 0.1, 0.7), (0.45, 0.05, 0.05, 0.45)):
        truth = cells[1] - cells[2]
        cover = 0.0
        for a in range(n + 1):
            for b in range(n + 1 - a):
                for c in range(n + 1 - a - b):
                    d = n - a - b - c
                    w = sps.multinomial.pmf([a, b, c, d], n, cells)
                    lo, hi = paired_proportion_difference(a, b, c, d).ci95
                    cover += w * (lo - 1e-12 <= truth <= hi + 1e-12)
        assert 0.93 < cover < 1, (cells, cover)


def test_exact_tests_keep_their_level():
    # Fisher's test and the sign test never reject a true equality more than 5% of the time
    for p in (0.1, 0.3, 0.5):
        size = sum(sps.binom.pmf(x, 10, p) * sps.binom.pmf(y, 12, p)
                   for x in range(11) for y in range(13) if fisher_exact_test(x, 10, y, 12).p_value < 0.05)
        assert size <= 0.05
    for m in (5, 12, 30):
        size = sum(sps.binom.pmf(k, m, 0.5) for k in range(m + 1) if sign_test(k, m - k).p_value < 0.05)
        assert size <= 0.05


def test_paired_t_interval_coverage_by_simulation():
    rng = np.random.default_rng(12)
    hits = 0
    for _ in range(2000):
        d = rng.normal(0.3, 1.0, 15)
        lo, hi = paired_mean_difference(d).ci95
        hits += lo <= 0.3 <= hi
    assert abs(hits / 2000 - 0.95) < 0.015      # 2,000 runs: the standard error of the rate is 0.005


def test_verdict_words_follow_the_result():
    up = proportion_difference(60, 100, 40, 100)
    assert verdict(up, "A", "B", more="wins more", p=False) == "shown: A wins more, by 20.0 points [6.1, 32.8]"
    down = proportion_difference(40, 100, 60, 100)
    assert verdict(down, "A", "B", more="wins more", p=False) == "shown: B wins more, by 20.0 points [6.1, 32.8]"
    flat = proportion_difference(52, 100, 48, 100)
    assert verdict(flat, p=False).startswith("not shown: the difference, 4.0 points [−9.7, 17.5], includes 0")
    mean = paired_mean_difference([1.0, 1.2, 0.8, 1.1, 0.9])
    assert verdict(mean, "A", "B", more="lasts longer", unit="turns").startswith(
        "shown: A lasts longer, by 1.0 turns [")
    # a test that does not reject with an interval that leaves 0 out: nothing is shown, and it says why
    odd = Comparison(0.1, 0.01, 0.2, 50, "an interval", p_value=0.07, test="exact test")
    assert not odd.shown and verdict(odd).startswith("not shown: the interval of the difference")
    odd = Comparison(0.1, -0.01, 0.2, 50, "an interval", p_value=0.03, test="exact test")
    assert not odd.shown and "includes 0" in verdict(odd)


def test_holm_against_a_hand_computation():
    assert holm([0.01, 0.04, 0.03, 0.5]) == pytest.approx([0.04, 0.09, 0.09, 0.5])
    assert holm([]) == []


def test_bad_input_is_refused():
    with pytest.raises(ValueError, match="more than the 10 trials"):
        proportion_difference(11, 10, 1, 10)
    with pytest.raises(ValueError, match="at least one trial"):
        proportion_difference(0, 0, 1, 10)
    with pytest.raises(ValueError, match="whole trials"):
        fisher_exact_test(1.5, 10, 1, 10)
    with pytest.raises(ValueError, match="at least two pairs"):
        paired_mean_difference([1.0])
    with pytest.raises(ValueError, match="whole discordant pairs"):
        sign_test(-1, 3)
    with pytest.raises(ValueError, match="outside"):
        paired_counts([(2, 0)])


def test_wilson_is_the_building_block():
    # the independent interval at one empty side is the other side's Wilson interval, as Newcombe says
    lo, hi = proportion_difference(0, 10, 0, 20).ci95
    assert hi == pytest.approx(wilson_interval(0, 10)[1]) and lo == pytest.approx(-wilson_interval(0, 20)[1])


def test_the_cautious_difference_holds_for_any_correlation():
    # two estimates of one sample, perfectly anti-correlated: x and 1 − x. The cautious interval covers
    rng = np.random.default_rng(3)
    hits = 0
    for _ in range(500):
        x = rng.random(30)
        a, b = mean_estimate(x), mean_estimate(1 - x)
        hits += correlated_difference(a, b).lo <= 0 <= correlated_difference(a, b).hi
    assert hits / 500 > 0.93
    e1, e2 = mean_estimate([1.0, 2.0, 3.0]), mean_estimate([1.5, 2.5, 2.0])
    c = correlated_difference(e1, e2)
    assert c.shown == (e1.lo > e2.hi or e2.lo > e1.hi)         # no overlap, exactly


def test_a_constant_paired_difference_is_judged_by_the_sign_test_not_called_certain():
    """n equal non-zero differences are n pairs of one sign: p = 2^(1 − n), never 0 (it was 0 at any n)."""
    for n in (2, 5, 6, 40):
        c = paired_mean_difference([3.0] * n)
        assert c.p_value == pytest.approx(2.0 ** (1 - n)) and c.ci95 == (3.0, 3.0)
        assert c.shown == (n >= 6) and c.test == "exact sign test"
        # the same count by the sign test itself: n pairs won by A, none by B
        assert c.p_value == pytest.approx(sign_test(n, 0).p_value)
    assert paired_mean_difference([0.0] * 9).p_value == 1.0 and not paired_mean_difference([0.0] * 9).shown
