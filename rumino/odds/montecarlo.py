"""Monte Carlo odds: seeded, vectorised, chunked, with 95% intervals, on any executor.

Determinism whatever the number of workers
------------------------------------------
A run of ``n`` samples is cut into fixed chunks of ``chunk`` samples (the last
one shorter). Chunk ``i`` draws from its own generator,
``numpy.random.default_rng(SeedSequence(seed).spawn(n_chunks)[i])``, so what a
chunk computes depends on ``(seed, i)`` only. Chunks are merged in index
order. Running them in one process, on a process pool or on a Dask cluster
(``client.get_executor()``) therefore gives identical results.

Dealing
-------
:func:`sample_deals` picks each hand by Floyd's algorithm (``k`` uniform draws
give a uniform ``k``-subset of the pack's ``N`` physical cards), compiled with
numba and fed by ``rng.random((n, k))``, then counts the cards into ``(n, 53)``
count vectors for the batch kernel.

Every estimate carries ``n``, ``seed`` and a 95% interval: Wilson for
proportions, normal for means (:mod:`rumino.stats`).

>>> from rumino.variants import find_variant
>>> s = simulate_deals(find_variant("rumino"), n=20_000, seed=7)
>>> e = s.p_gin(); e.n, e.seed, e.lo < e.value < e.hi
(20000, 7, True)
"""

from __future__ import annotations

import math
from concurrent.futures import Executor
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any, Callable

import numpy as np

from rumino.jit import jit as _jit
from rumino.cards import JOKER, N_KINDS, Pack
from rumino.console import NoBar, make_bar
from rumino.stats import Z95, Estimate, wilson_interval
from rumino.odds.draws import OddsArgumentError
from rumino.odds.enumerate import DealDistribution, PackShape, is_rumino_batch
from rumino.hand.kernels import min_deadwood_batch

if TYPE_CHECKING:
    from rumino.variants import Variant

DEFAULT_CHUNK = 1 << 16


# --------------------------------------------------------------------------- estimates


OddsEstimate = Estimate  # the one estimate type (rumino.stats.Estimate), under the name the odds code used


def proportion(successes: int, n: int, seed: int | None) -> OddsEstimate:
    """A proportion with its Wilson 95% interval.

    >>> str(proportion(30, 100, seed=1))
    '0.300 (95% CI 0.219 … 0.396; n = 100, seed 1, wilson)'
    """
    if n <= 0:
        raise OddsArgumentError(f"a proportion needs n ≥ 1 samples; got n={n}.")
    lo, hi = wilson_interval(successes, n)
    p = successes / n
    lo, hi = min(lo, p), max(hi, p)  # rounding can leave a 0-success bound at 1e-20 instead of 0
    return OddsEstimate(p, lo, hi, n, seed, "wilson", successes=int(successes), se=math.sqrt(p * (1 - p) / n))


def mean_from_moments(n: int, total: float, total_sq: float, seed: int | None) -> OddsEstimate:
    """Mean with the normal interval ``m ± z·s/√n`` from ``n``, ``Σx`` and ``Σx²`` (sample sd, n − 1).

    The same interval :func:`rumino.stats.mean_interval` gives from the values themselves.

    >>> from rumino.stats import mean_interval
    >>> e = mean_from_moments(4, 10, 30, seed=None); (e.lo, e.hi) == mean_interval([1, 2, 3, 4])
    True
    """
    if n <= 0:
        raise OddsArgumentError(f"a mean needs n ≥ 1 samples; got n={n}.")
    m = total / n
    if n == 1:
        return OddsEstimate(m, m, m, 1, seed, "normal", se=0.0)
    var = max(0.0, (total_sq - n * m * m) / (n - 1))
    se = math.sqrt(var / n)
    return OddsEstimate(m, m - Z95 * se, m + Z95 * se, n, seed, "normal", se=se)


# --------------------------------------------------------------------------- seeded chunks and executors


def chunk_sizes(n: int, chunk: int = DEFAULT_CHUNK) -> list[int]:
    """The fixed chunk sizes of a run of ``n`` samples (independent of any worker count).

    >>> chunk_sizes(10, 4)
    [4, 4, 2]
    """
    if isinstance(n, bool) or not isinstance(n, (int, np.integer)) or n < 1:
        raise OddsArgumentError(f"the number of samples is {n!r}: it must be a positive integer.")
    if not isinstance(chunk, (int, np.integer)) or chunk < 1:
        raise OddsArgumentError(f"chunk is {chunk!r}: it must be a positive integer.")
    full, rest = divmod(int(n), int(chunk))
    return [int(chunk)] * full + ([rest] if rest else [])


def chunk_seeds(seed: int, n_chunks: int) -> list[np.random.SeedSequence]:
    """One independent :class:`numpy.random.SeedSequence` per chunk, spawned from ``seed``."""
    if isinstance(seed, bool) or not isinstance(seed, (int, np.integer)) or seed < 0:
        raise OddsArgumentError(f"seed is {seed!r}: it must be a non-negative integer.")
    return np.random.SeedSequence(int(seed)).spawn(n_chunks)


def run_chunks(fn: Callable, n: int, seed: int, *, chunk: int = DEFAULT_CHUNK, args: tuple = (), executor: Executor | None = None,
               progress: bool = False, desc: str = "samples", indexed: bool = False) -> list:
    """Run ``fn(size, seed_sequence, *args)`` on every chunk and return the results in chunk order.

    ``indexed=True`` passes the index of the chunk's first sample instead of a seed
    sequence (``fn(size, start, *args)``): for samples that are whole games, seeded
    one by one by the one scheme of :mod:`rumino.playing.seeding` from ``(seed, index)``.

    ``executor`` is any :class:`concurrent.futures.Executor` (a process pool, a
    thread pool, or a Dask client's ``get_executor()``); ``fn`` must then be
    picklable (a module-level function).

    >>> run_chunks(lambda size, ss: size, n=10, seed=0, chunk=4)
    [4, 4, 2]
    """
    sizes = chunk_sizes(n, chunk)
    seeds = chunk_seeds(seed, len(sizes))
    if indexed:
        seeds = [sum(sizes[:i]) for i in range(len(sizes))]
    jobs = [(fn, size, ss, args) for size, ss in zip(sizes, seeds)]
    results = map(_call, jobs) if executor is None else executor.map(_call, jobs)
    bar = make_bar(n, desc, desc, scale=True) if progress else NoBar()
    out = []
    try:
        for size, res in zip(sizes, results):
            out.append(res)
            bar.update(size)
    finally:
        bar.close()
    return out


def _call(job):
    fn, size, ss, args = job
    return fn(size, ss, *args)


# --------------------------------------------------------------------------- dealing


@_jit
def _floyd_counts(u, ids, out):  # pragma: no cover - compiled
    n, k = u.shape
    N = ids.shape[0]
    pick = np.empty(k, dtype=np.int64)
    for i in range(n):
        # Floyd: for j = N−k … N−1 take t uniform in 0…j; if t was taken already, take j instead
        for step in range(k):
            j = N - k + step
            t = int(u[i, step] * (j + 1))
            if t > j:  # guard against u == 1.0 rounding
                t = j
            for q in range(step):
                if pick[q] == t:
                    t = j
                    break
            pick[step] = t
        for step in range(k):
            out[i, ids[pick[step]]] += 1


def pack_ids(pack: Pack | PackShape) -> np.ndarray:
    """The id of every physical card of a pack (or reduced pack shape), in a fixed order."""
    shape = pack if isinstance(pack, PackShape) else PackShape.of(pack)
    ids = [c for c in shape.card_ids() for _ in range(shape.copies)] + [JOKER] * shape.jokers
    return np.array(ids, dtype=np.int64)


def sample_deals(pack: Pack | PackShape, hand_size: int, n: int, rng: np.random.Generator) -> np.ndarray:
    """``n`` uniformly random ``hand_size``-card hands as an ``(n, 53)`` int8 array of count vectors.

    >>> from rumino.cards import RUMINO_PACK
    >>> h = sample_deals(RUMINO_PACK, 7, 1000, np.random.default_rng(0))
    >>> h.shape, bool((h.sum(axis=1) == 7).all()), int(h[:, :52].max()) <= 2, int(h[:, 52].max()) <= 4
    ((1000, 53), True, True, True)
    """
    ids = pack_ids(pack)
    if isinstance(hand_size, bool) or not isinstance(hand_size, (int, np.integer)) or not 0 <= hand_size <= len(ids):
        raise OddsArgumentError(f"hand size {hand_size!r} is impossible for a pack of {len(ids)} cards.")
    out = np.zeros((n, N_KINDS), dtype=np.int8)
    if n and hand_size:
        _floyd_counts(rng.random((n, int(hand_size))), ids, out)
    return out


# --------------------------------------------------------------------------- simulated deals


def deal_chunk(size: int, ss: np.random.SeedSequence, pack, hand_size: int, rules, rumino_flags) -> DealDistribution:
    rng = np.random.default_rng(ss)
    counts = sample_deals(pack, hand_size, size, rng)
    dw = min_deadwood_batch(counts, rules).astype(np.int64)
    jokers = counts[:, JOKER].astype(np.int64)
    shape = pack if isinstance(pack, PackShape) else PackShape.of(pack)
    out = DealDistribution(hand_size, shape.size, total=size)
    top = int(dw.max()) + 1
    grid = np.bincount(jokers * top + dw, minlength=(int(jokers.max()) + 1) * top).reshape(-1, top)
    for j, row in enumerate(grid):
        if row.any():
            out.deadwood[j] = {int(d): int(c) for d, c in enumerate(row) if c}
    if rumino_flags is not None:
        mask = is_rumino_batch(counts, hand_size, distinct=rumino_flags[0], natural_only=rumino_flags[1])
        hits = np.bincount(jokers[mask], minlength=int(jokers.max()) + 1)
        out.rumino = {j: int(c) for j, c in enumerate(hits) if j in out.deadwood}
    out.classes = size
    return out


@dataclass
class DealSample:
    """Simulated deals: the merged histogram, the per-chunk parts, and estimates with intervals."""

    n: int
    seed: int
    hist: DealDistribution
    parts: list[DealDistribution] = field(repr=False, default_factory=list)
    knock_limit: int | None = None

    def _prop(self, count: int, n: int) -> OddsEstimate:
        return proportion(count, n, self.seed)

    def p_gin(self, jokers: int | None = None) -> OddsEstimate:
        return self._prop(self.hist.count_at_most(0, jokers), self.hist.deals(jokers))

    def p_can_knock(self, jokers: int | None = None) -> OddsEstimate:
        if self.knock_limit is None:
            raise OddsArgumentError("this variant has no knock limit.")
        return self._prop(self.hist.count_at_most(self.knock_limit, jokers), self.hist.deals(jokers))

    def p_deadwood_at_most(self, limit: int, jokers: int | None = None) -> OddsEstimate:
        return self._prop(self.hist.count_at_most(limit, jokers), self.hist.deals(jokers))

    def p_rumino(self, jokers: int | None = None) -> OddsEstimate:
        return self._prop(self.hist.rumino_count(jokers), self.hist.deals(jokers))

    def mean_deadwood(self, jokers: int | None = None) -> OddsEstimate:
        h = self.hist.counts(jokers)
        n = sum(h.values())
        return mean_from_moments(n, float(sum(d * c for d, c in h.items())),
                                 float(sum(d * d * c for d, c in h.items())), self.seed)

    def p_jokers(self, jokers: int) -> OddsEstimate:
        return self._prop(self.hist.deals(jokers), self.n)

    def convergence(self, stat: str = "gin", points: int = 20) -> list[tuple[int, float, float, float]]:
        """``(n so far, estimate, lo, hi)`` after successive chunks: the estimate and its band against n.

        ``stat`` is ``"gin"``, ``"rumino"``, ``"can_knock"`` or ``"mean_deadwood"``.
        """
        rows = []
        acc = DealDistribution(self.hist.hand_size, self.hist.pack_size, total=0)
        k = len(self.parts)
        marks = sorted({max(1, round(k * (i + 1) / points)) for i in range(min(points, k))})
        for i, part in enumerate(self.parts, start=1):
            acc.merge(part)
            acc.total += part.total
            if i in marks:
                s = DealSample(acc.total, self.seed, acc, knock_limit=self.knock_limit)
                e = {"gin": s.p_gin, "rumino": s.p_rumino, "can_knock": s.p_can_knock,
                     "mean_deadwood": s.mean_deadwood}[stat]()
                rows.append((acc.total, e.value, e.lo, e.hi))
        return rows


def simulate_deals(variant: Variant, n: int, seed: int, *, rules: Any = None, chunk: int = DEFAULT_CHUNK,
                   executor: Executor | None = None, progress: bool = False) -> DealSample:
    """Deal ``n`` random hands of ``variant`` (a registry :class:`~rumino.variants.Variant`) and evaluate them.

    ``rules`` are house rules for the variant (default: its preset). The result
    does not depend on ``executor`` or ``chunk`` placement: see the module docstring.
    """
    rules = rules or variant.rules
    meld_rules = rules.meld_rules
    if meld_rules is None:
        raise OddsArgumentError(f"{variant.title} has no melds, so its deals have no deadwood.")
    flags = None
    if variant.has_rumino:
        flags = (rules.set_suits == "distinct", bool(rules.rumino_natural_only))
    parts = run_chunks(deal_chunk, n, seed, chunk=chunk, args=(meld_rules.pack, variant.hand_size, meld_rules, flags),
                       executor=executor, progress=progress, desc="deals")
    hist = DealDistribution(variant.hand_size, meld_rules.pack.size, total=0)
    for p in parts:
        hist.merge(p)
        hist.total += p.total
    knock = variant.knock_limit(rules) if variant.knock_field else None
    return DealSample(n, seed, hist, parts, knock_limit=knock)
