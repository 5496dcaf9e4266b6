"""Monte Carlo machinery: uniform seeded dealing, intervals, convergence, and identical results on any executor."""

from __future__ import annotations

import math
from collections import Counter
from concurrent.futures import ProcessPoolExecutor, ThreadPoolExecutor
from fractions import Fraction
from itertools import combinations
from math import comb

import numpy as np
import pytest

from rumino.cards import JOKER, RUMINO_PACK, STANDARD_PACK, Pack
from rumino.hand.kernels import min_deadwood_batch
from rumino.melds import MeldRules
from rumino.odds.draws import OddsArgumentError
from rumino.odds.enumerate import PackShape, deal_distribution
from rumino.odds.montecarlo import (
    chunk_sizes,
    mean_from_moments,
    proportion,
    run_chunks,
    sample_deals,
    simulate_deals,
)
from rumino.stats import mean_interval, wilson_interval
from rumino.variants import find_variant


def test_every_hand_of_a_tiny_pack_is_equally_likely():
    shape = PackShape(suits=1, ranks=4, copies=1, jokers=2)  # 6 cards: A 2 3 4 of spades and two jokers
    n = 60_000
    hands = sample_deals(shape, 2, n, np.random.default_rng(3))
    keys = Counter(h.tobytes() for h in hands)
    # 15 pairs of physical cards; the two jokers are one id, so "JK JK" is 1 pair and "x JK" is 2 pairs each
    p_of = {}
    ids = [0, 1, 2, 3, JOKER, JOKER]
    for a, b in combinations(range(6), 2):
        v = np.zeros(53, dtype=np.int8)
        v[ids[a]] += 1
        v[ids[b]] += 1
        p_of[v.tobytes()] = p_of.get(v.tobytes(), 0) + Fraction(1, 15)
    assert set(keys) == set(p_of)
    for key, p in p_of.items():
        se = math.sqrt(float(p) * (1 - float(p)) / n)
        assert abs(keys[key] / n - float(p)) <= 4 * se


def test_jokers_dealt_follow_the_hypergeometric_law():
    n = 200_000
    hands = sample_deals(RUMINO_PACK, 7, n, np.random.default_rng(8))
    got = np.bincount(hands[:, JOKER], minlength=5)
    for j in range(5):
        p = comb(4, j) * comb(104, 7 - j) / comb(108, 7)
        assert abs(got[j] / n - p) <= 4 * math.sqrt(p * (1 - p) / n) + 1e-12


def test_sampling_is_seeded():
    a = sample_deals(STANDARD_PACK, 10, 1000, np.random.default_rng(5))
    b = sample_deals(STANDARD_PACK, 10, 1000, np.random.default_rng(5))
    c = sample_deals(STANDARD_PACK, 10, 1000, np.random.default_rng(6))
    assert np.array_equal(a, b) and not np.array_equal(a, c)
    assert (a.sum(axis=1) == 10).all() and a.max() == 1


def test_simulation_agrees_with_the_exact_distribution_of_a_reduced_pack():
    rules = MeldRules(pack=Pack(decks=2, jokers=2), max_set=4, max_run=4)
    shape = PackShape(suits=3, ranks=7, copies=2, jokers=2)
    exact = deal_distribution(rules, 6, shape=shape)
    n = 200_000
    dw = min_deadwood_batch(sample_deals(shape, 6, n, np.random.default_rng(17)), rules)
    mean = mean_from_moments(n, float(dw.sum()), float((dw.astype(np.int64) ** 2).sum()), seed=17)
    assert abs(mean.z_score(exact.mean())) <= 4
    for limit in (0, 5, 10):
        est = proportion(int((dw <= limit).sum()), n, seed=17)
        assert abs(est.z_score(exact.p_deadwood_at_most(limit))) <= 4


def test_intervals_are_the_shared_ones():
    e = proportion(37, 200, seed=1)
    assert (e.lo, e.hi) == wilson_interval(37, 200) and e.n == 200 and e.seed == 1 and e.method == "wilson"
    values = [3, 7, 7, 19, 0, 4]
    m = mean_from_moments(len(values), sum(values), sum(v * v for v in values), seed=None)
    lo, hi = mean_interval(values)
    assert m.lo == pytest.approx(lo, rel=1e-12) and m.hi == pytest.approx(hi, rel=1e-12)


def test_estimates_carry_n_seed_and_interval():
    s = simulate_deals(find_variant("gin"), n=30_000, seed=9, chunk=8192)
    for e in (s.p_gin(), s.p_can_knock(), s.mean_deadwood()):
        assert e.n == 30_000 and e.seed == 9 and e.lo <= e.value <= e.hi
    assert s.hist.deals() == 30_000
    # the published mean deadwood of a 10-card gin deal is 56.6 (250,000 deals); ours agrees within its interval
    assert abs(s.mean_deadwood().value - 56.6) < 0.5


def test_convergence_band_against_n():
    s = simulate_deals(find_variant("rumino"), n=100_000, seed=4, chunk=10_000)
    rows = s.convergence("can_knock", points=10)
    assert [r[0] for r in rows] == list(range(10_000, 100_001, 10_000))
    final = s.p_can_knock()
    assert rows[-1][1:] == (final.value, final.lo, final.hi)
    widths = [hi - lo for _, _, lo, hi in rows]
    assert widths[-1] < widths[0] / 2  # the band narrows like 1/√n
    assert s.convergence("mean_deadwood", points=3)[-1][1] == s.mean_deadwood().value


def test_chunks_are_fixed_by_n_and_chunk_only():
    assert chunk_sizes(10, 4) == [4, 4, 2]
    assert run_chunks(lambda size, ss: (size, int(ss.generate_state(1)[0])), n=10, seed=1, chunk=4) == \
        run_chunks(lambda size, ss: (size, int(ss.generate_state(1)[0])), n=10, seed=1, chunk=4,
                   executor=ThreadPoolExecutor(3))


def _fingerprint(sample):
    return sample.hist.deadwood, sample.hist.rumino, [p.deadwood for p in sample.parts]


@pytest.mark.slow
def test_identical_results_on_one_or_two_workers_process_pools_and_dask():
    variant = find_variant("rumino")
    args = dict(n=120_000, seed=31, chunk=20_000)
    plain = _fingerprint(simulate_deals(variant, **args))
    with ProcessPoolExecutor(1) as pool:
        assert _fingerprint(simulate_deals(variant, executor=pool, **args)) == plain
    with ProcessPoolExecutor(2) as pool:
        assert _fingerprint(simulate_deals(variant, executor=pool, **args)) == plain
    distributed = pytest.importorskip("distributed")
    with distributed.LocalCluster(processes=False, n_workers=2, threads_per_worker=1, dashboard_address=None) as cluster:
        with distributed.Client(cluster) as client:
            assert _fingerprint(simulate_deals(variant, executor=client.get_executor(), **args)) == plain


def test_bad_arguments():
    variant = find_variant("rumino")
    with pytest.raises(OddsArgumentError, match="positive integer"):
        simulate_deals(variant, n=0, seed=1)
    with pytest.raises(OddsArgumentError, match="seed is -1"):
        simulate_deals(variant, n=10, seed=-1)
    with pytest.raises(OddsArgumentError, match="hand size 60 is impossible"):
        sample_deals(STANDARD_PACK, 60, 1, np.random.default_rng(0))
    with pytest.raises(OddsArgumentError, match="no melds"):
        simulate_deals(find_variant("rummoli"), n=10, seed=1)
