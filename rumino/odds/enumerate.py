"""Every dealt hand up to suit symmetry, each class weighted by its number of deals.

Why it works
------------
Meld rules never name a suit: a set is one rank, a run is one suit in
sequence, and card values depend on the rank only. Relabelling the suits (one
of the ``S!`` permutations) therefore maps every hand to a hand with the same
deadwood, the same gin and the same rumino. So it is enough to evaluate one
hand per *class* of hands that differ only by a relabelling, and count how many
deals each class stands for.

A hand of naturals is a suit-by-rank grid of counts (``counts[:52].reshape(4,
13)``); one *row* is one suit's rank counts. A class is the multiset of its
rows; its canonical form lists the rows sorted by (number of cards, row index).
The class stands for

    weight = (distinct suit relabellings) × Π_cards C(copies, count) × C(J, jokers)

deals: ``S! / Π(m!)`` ways to hand the rows to the suits when ``m`` rows are
identical, times the ways to pick the physical copies of each card (``C(2, 1)
= 2`` for a single card of a two-deck pack), times the ways to pick the jokers.
The weights of all classes add up to ``C(pack size, hand size)``; the tests
check this with Python ints and compare every class count with Burnside's
lemma (:func:`class_count`) and with the published 134,459 and 6,009,159.

Generation is vectorised: for each sorted tuple of row sizes, the rows of each
size form a list, equal sizes take non-decreasing index tuples
(:func:`_multichoose`), and a flat index over the product of these choices is
split into fixed chunks, so work can be farmed out to any executor and the
result does not depend on how many workers ran it.

>>> shape = PackShape(suits=4, ranks=13, copies=1, jokers=0)
>>> class_count(shape, 5), enumerated_class_count(shape, 5)
(134459, 134459)
>>> sum(int(w.sum()) for _, w, _ in iter_classes(shape, 3)) == 22100   # C(52, 3)
True
"""

from __future__ import annotations

from concurrent.futures import Executor
from dataclasses import dataclass, field
from fractions import Fraction
from functools import lru_cache
from itertools import permutations
from math import comb, factorial, prod
from typing import Callable, Iterator

import numpy as np

from rumino.jit import jit as _jit
from rumino.cards import JOKER, N_KINDS, Pack, from_counts
from rumino.console import NoBar, make_bar
from rumino.errors import RuleConfigError
from rumino.melds import MeldRules
from rumino.hand.arrange import min_deadwood
from rumino.hand.kernels import min_deadwood_batch

DEFAULT_CHUNK = 1 << 19  # classes per task: ~28 MB of count vectors


@dataclass(frozen=True)
class PackShape:
    """The shape of a pack for enumeration: ``suits`` × ``ranks`` naturals in ``copies`` copies, plus jokers.

    A reduced pack (fewer suits or ranks) uses the first suits and the ranks
    ``0 … ranks−1`` of the 53-entry count vector, so the same meld rules and
    kernels evaluate it; this is what the brute-force tests use.

    >>> PackShape.of(Pack(decks=2, jokers=4)).size, PackShape(suits=2, ranks=5, copies=2, jokers=2).size
    (108, 22)
    """

    suits: int = 4
    ranks: int = 13
    copies: int = 1
    jokers: int = 0

    def __post_init__(self):
        for name, low, high in (("suits", 1, 4), ("ranks", 1, 13), ("copies", 1, 8), ("jokers", 0, 16)):
            v = getattr(self, name)
            if isinstance(v, bool) or not isinstance(v, int) or not low <= v <= high:
                raise RuleConfigError(f"PackShape.{name} is {v!r}: it must be an integer from {low} to {high}.")

    @classmethod
    def of(cls, pack: Pack) -> "PackShape":
        return cls(suits=4, ranks=13, copies=pack.decks, jokers=pack.jokers)

    @property
    def size(self) -> int:
        return self.suits * self.ranks * self.copies + self.jokers

    def card_ids(self) -> list[int]:
        """The natural card ids of this shape (suit-major)."""
        return [s * 13 + r for s in range(self.suits) for r in range(self.ranks)]

    def check_hand_size(self, k: int) -> None:
        if isinstance(k, bool) or not isinstance(k, int) or not 0 <= k <= self.size:
            raise RuleConfigError(f"hand size {k!r} is impossible: it must be an integer from 0 to the "
                                  f"{self.size} cards of the pack.")


# --------------------------------------------------------------------------- rows


@lru_cache(maxsize=None)
def _rows_of_size(size: int, ranks: int, copies: int) -> np.ndarray:
    """All rows (length ``ranks``, entries 0…copies) holding ``size`` cards, in lexicographic order."""
    if ranks == 0:
        return np.zeros((1 if size == 0 else 0, 0), dtype=np.int8)
    parts = []
    for c in range(min(copies, size) + 1):
        rest = _rows_of_size(size - c, ranks - 1, copies)
        if len(rest):
            parts.append(np.hstack([np.full((len(rest), 1), c, dtype=np.int8), rest]))
    if not parts:
        return np.zeros((0, ranks), dtype=np.int8)
    out = np.vstack(parts)
    out.flags.writeable = False
    return out


@lru_cache(maxsize=None)
def _row_weights(size: int, ranks: int, copies: int) -> np.ndarray:
    """Ways to pick the physical copies for each row: Π C(copies, count)."""
    rows = _rows_of_size(size, ranks, copies)
    table = np.array([comb(copies, c) for c in range(copies + 1)], dtype=np.int64)
    w = table[rows.astype(np.int64)].prod(axis=1) if rows.shape[1] else np.ones(len(rows), dtype=np.int64)
    w.flags.writeable = False
    return w


def row_count(size: int, ranks: int = 13, copies: int = 1) -> int:
    """How many rows of ``size`` cards a suit has: the coefficient of x^size in (1 + x + … + x^copies)^ranks.

    >>> row_count(3, 13, 1), row_count(3, 13, 2)
    (286, 442)
    """
    return len(_rows_of_size(size, ranks, copies))


@lru_cache(maxsize=16)  # every chunk of a size tuple indexes the same table: build it once per process
def _multichoose(n_items: int, g: int) -> np.ndarray:
    """Every non-decreasing ``g``-tuple of indices below ``n_items`` (shape ``(C(n+g−1, g), g)``).

    >>> _multichoose(3, 2).tolist()
    [[0, 0], [0, 1], [0, 2], [1, 1], [1, 2], [2, 2]]
    """
    arr = np.arange(n_items, dtype=np.int64)[:, None]
    for _ in range(g - 1):
        last = arr[:, -1]
        reps = n_items - last
        starts = np.cumsum(reps) - reps
        total = int(reps.sum())
        within = np.arange(total, dtype=np.int64) - np.repeat(starts, reps)
        arr = np.hstack([np.repeat(arr, reps, axis=0), (np.repeat(last, reps) + within)[:, None]])
    arr.flags.writeable = False  # cached and shared: nobody may change it
    return arr


def _size_tuples(m: int, suits: int, top: int) -> list[tuple[int, ...]]:
    """Non-decreasing tuples of ``suits`` row sizes (each ≤ ``top``) adding up to ``m``."""
    out = []

    def go(prefix, left, lo):
        if len(prefix) == suits:
            if left == 0:
                out.append(tuple(prefix))
            return
        slots = suits - len(prefix)
        for s in range(lo, min(top, left) + 1):
            if s * slots > left:
                break
            go(prefix + [s], left - s, s)

    go([], m, 0)
    return out


def _relabel_table(suits: int) -> np.ndarray:
    """``S!/Π m!`` indexed by the bit pattern "row i equals row i+1" of a sorted class."""
    table = np.zeros(1 << max(suits - 1, 0), dtype=np.int64)
    for bits in range(len(table)):
        runs, run = [], 1
        for i in range(suits - 1):
            if bits >> i & 1:
                run += 1
            else:
                runs.append(run)
                run = 1
        runs.append(run)
        table[bits] = factorial(suits) // prod(factorial(r) for r in runs)
    return table


# --------------------------------------------------------------------------- tasks and classes


@dataclass(frozen=True)
class Task:
    """One fixed chunk of classes: ``jokers`` jokers, the row sizes, and a flat index range."""

    jokers: int
    sizes: tuple[int, ...]
    start: int
    stop: int

    @property
    def n(self) -> int:
        return self.stop - self.start


def _groups(sizes: tuple[int, ...], shape: PackShape) -> list[tuple[int, int, int]]:
    """``(size, multiplicity, number of index tuples)`` for each distinct size in a sorted tuple."""
    out = []
    for s in sorted(set(sizes)):
        g = sizes.count(s)
        L = row_count(s, shape.ranks, shape.copies)
        out.append((s, g, comb(L + g - 1, g)))
    return out


def tasks(shape: PackShape, hand_size: int, chunk: int = DEFAULT_CHUNK) -> list[Task]:
    """The fixed list of chunks that covers every class of ``hand_size``-card hands, exactly once.

    >>> [t.n for t in tasks(PackShape(suits=2, ranks=3, copies=1), 2)]
    [3, 6]
    """
    shape.check_hand_size(hand_size)
    out = []
    top = shape.ranks * shape.copies
    for j in range(min(shape.jokers, hand_size) + 1):
        m = hand_size - j
        if m > shape.suits * top:
            continue
        for sizes in _size_tuples(m, shape.suits, top):
            total = prod(n for _, _, n in _groups(sizes, shape))
            for a in range(0, total, chunk):
                out.append(Task(j, sizes, a, min(total, a + chunk)))
    return out


def task_classes(task: Task, shape: PackShape) -> tuple[np.ndarray, np.ndarray]:
    """The classes of one task: ``(counts (n, 53) int8, weights (n,) int64)``.

    Weights include the suit relabellings, the copies and the ``C(J, j)`` joker choices.
    The loop is compiled (:func:`_fill_classes`): for Gin's 671 M classes, numpy's
    fancy indexing cost as much as evaluating the hands.
    """
    groups = _groups(task.sizes, shape)
    n = task.n
    counts = np.zeros((n, N_KINDS), dtype=np.int8)
    weights = np.empty(n, dtype=np.int64)
    if not groups:  # jokers only
        weights[:] = comb(shape.jokers, task.jokers)
        counts[:, JOKER] = task.jokers
        return counts, weights
    tables = [(_rows_of_size(size, shape.ranks, shape.copies), _row_weights(size, shape.ranks, shape.copies),
               _multichoose(row_count(size, shape.ranks, shape.copies), g)) for size, g, _ in groups]
    rows_all = np.ascontiguousarray(np.vstack([t[0] for t in tables]), dtype=np.int8)
    row_off = np.cumsum([0] + [len(t[0]) for t in tables[:-1]]).astype(np.int64)
    rw_all = np.concatenate([t[1] for t in tables]).astype(np.int64)
    # the multichoose tables are large and cached: passed as they are, never copied (at most 4 groups)
    combos = [t[2] for t in tables] + [_NO_COMBOS] * (4 - len(tables))
    dims = np.array([m for _, _, m in groups], dtype=np.int64)
    gsize = np.array([size for size, _, _ in groups], dtype=np.int64)
    gmult = np.array([g for _, g, _ in groups], dtype=np.int64)
    _fill_classes(task.start, dims, gsize, gmult, row_off, rows_all, rw_all, *combos,
                  shape.ranks, _relabel_table(shape.suits), comb(shape.jokers, task.jokers), task.jokers,
                  counts, weights)
    return counts, weights


_NO_COMBOS = np.zeros((1, 1), dtype=np.int64)


@_jit
def _fill_classes(start, dims, gsize, gmult, row_off, rows_all, rw_all, c0, c1, c2, c3, ranks,
                  relabel, joker_ways, jokers, counts, weights):  # pragma: no cover - compiled
    """Write the classes ``start … start+n−1`` of a task (flat index over the groups' multichoose
    tables, last group fastest, as ``np.unravel_index``): rows into suits, weights multiplied."""
    G = dims.shape[0]
    digit = np.empty(G, dtype=np.int64)
    for i in range(counts.shape[0]):
        f = start + i
        for k in range(G - 1, -1, -1):
            digit[k] = f % dims[k]
            f //= dims[k]
        w = joker_ways
        suit = 0
        bits = 0
        prev = -1
        for k in range(G):
            g = gmult[k]
            combos = c0 if k == 0 else (c1 if k == 1 else (c2 if k == 2 else c3))
            for m in range(g):
                r = combos[digit[k], m]
                row = row_off[k] + r
                for q in range(ranks):
                    counts[i, suit * 13 + q] = rows_all[row, q]
                w *= rw_all[row]
                key = gsize[k] * (1 << 40) + r  # equal rows sit side by side in a sorted class
                if suit > 0 and key == prev:
                    bits |= 1 << (suit - 1)
                prev = key
                suit += 1
        weights[i] = w * relabel[bits]
        counts[i, 52] = jokers


def iter_classes(shape: PackShape, hand_size: int, chunk: int = DEFAULT_CHUNK
                 ) -> Iterator[tuple[np.ndarray, np.ndarray, int]]:
    """Yield ``(counts, weights, jokers)`` chunk by chunk for every class of ``hand_size`` cards."""
    for t in tasks(shape, hand_size, chunk):
        counts, weights = task_classes(t, shape)
        yield counts, weights, t.jokers


def enumerated_class_count(shape: PackShape, hand_size: int) -> int:
    """The number of classes the generator produces (by counting its index products)."""
    return sum(t.n for t in tasks(shape, hand_size, chunk=1 << 62))


def class_count(shape: PackShape, hand_size: int) -> int:
    """Classes of hands up to suit relabelling, by Burnside's lemma (an independent count).

    The number of orbits is the average, over the ``S!`` suit permutations, of
    the hands a permutation fixes; a hand is fixed when the rows within each
    cycle are equal, so a cycle of length ℓ contributes ``f(x^ℓ)`` where ``f`` is
    the generating function of one row. Jokers are not permuted.

    >>> class_count(PackShape(suits=4, ranks=13, copies=1), 7)
    6009159
    """
    shape.check_hand_size(hand_size)
    top = shape.ranks * shape.copies
    f = [row_count(s, shape.ranks, shape.copies) for s in range(top + 1)]

    def poly_mul(a, b):
        out = [0] * min(len(a) + len(b) - 1, hand_size + 1)
        for i, x in enumerate(a):
            if x and i <= hand_size:
                for k, y in enumerate(b):
                    if i + k > hand_size:
                        break
                    out[i + k] += x * y
        return out

    def stretched(ell):
        out = [0] * (top * ell + 1)
        for s, c in enumerate(f):
            out[s * ell] = c
        return out

    fixed_total = [0] * (hand_size + 1)
    for perm in permutations(range(shape.suits)):
        seen, cycles = set(), []
        for i in range(shape.suits):
            if i in seen:
                continue
            ell, k = 0, i
            while k not in seen:
                seen.add(k)
                k = perm[k]
                ell += 1
            cycles.append(ell)
        poly = [1]
        for ell in cycles:
            poly = poly_mul(poly, stretched(ell))
        for i, c in enumerate(poly):
            fixed_total[i] += c
    n_perm = factorial(shape.suits)
    total = 0
    for j in range(min(shape.jokers, hand_size) + 1):
        m = hand_size - j
        if m < len(fixed_total):
            if fixed_total[m] % n_perm:
                raise ArithmeticError("Burnside's average is not an integer: a bug in class_count")
            total += fixed_total[m] // n_perm
    return total


# --------------------------------------------------------------------------- evaluating every class


def is_rumino_batch(counts: np.ndarray, hand_size: int = 7, *, distinct: bool = False,
                    natural_only: bool = False) -> np.ndarray:
    """Which rows are a rumino: ``hand_size`` cards in one straight flush (ace low) or of one rank.

    Compiled form of :func:`rumino.variants.rumino.is_rumino` (the tests compare them):
    jokers fill gaps unless ``natural_only``; under ``distinct`` a 7 of a kind's
    naturals must differ in suit.

    >>> from rumino.cards import to_counts, parse_hand
    >>> rows = np.stack([to_counts(parse_hand(h)) for h in ("3h 4h 5h 6h 7h 8h 9h", "5h 5h 5s 5s 5d JK 5c",
    ...                                                       "3h 4h 5h 6h 7h 8h 10h")])
    >>> is_rumino_batch(rows).tolist()
    [True, True, False]
    """
    c = np.ascontiguousarray(counts, dtype=np.int8)
    out = np.zeros(len(c), dtype=np.bool_)
    _rumino_rows(c, int(hand_size), bool(distinct), bool(natural_only), out)
    return out


@_jit
def _rumino_rows(c, hand_size, distinct, natural_only, out):  # pragma: no cover - compiled
    for i in range(c.shape[0]):
        jokers = c[i, 52]
        if natural_only and jokers > 0:
            continue
        total = jokers
        most = 0  # largest count of one card
        ranks = 0  # bit mask of ranks present
        suits = 0  # bit mask of suits present
        for suit in range(4):
            for rank in range(13):
                k = c[i, suit * 13 + rank]
                if k > 0:
                    total += k
                    if k > most:
                        most = k
                    ranks |= 1 << rank
                    suits |= 1 << suit
        if total != hand_size:
            continue
        if ranks == 0:  # jokers only
            out[i] = True
            continue
        one_rank = (ranks & (ranks - 1)) == 0
        if one_rank and (not distinct or most <= 1):
            out[i] = True
            continue
        if (suits & (suits - 1)) == 0 and most <= 1:
            lo = 0
            while not (ranks >> lo) & 1:
                lo += 1
            hi = 12
            while not (ranks >> hi) & 1:
                hi -= 1
            if hi - lo <= hand_size - 1:
                out[i] = True


@dataclass
class DealDistribution:
    """The exact distribution of a dealt hand's minimum deadwood, by number of jokers.

    ``deadwood[j][d]`` counts deals with ``j`` jokers and minimum deadwood ``d``;
    ``rumino[j]`` counts those that are a rumino. All counts are Python ints and
    add up to ``total`` (``C(pack size, hand size)`` for an enumeration, the
    number of samples for a simulation).
    """

    hand_size: int
    pack_size: int
    deadwood: dict[int, dict[int, int]] = field(default_factory=dict)
    rumino: dict[int, int] = field(default_factory=dict)
    classes: int = 0
    total: int | None = None

    def __post_init__(self):
        if self.total is None:
            self.total = comb(self.pack_size, self.hand_size)

    def counts(self, jokers: int | None = None) -> dict[int, int]:
        """``{deadwood: deals}`` over all deals, or those with ``jokers`` jokers."""
        if jokers is not None:
            return dict(sorted(self.deadwood.get(jokers, {}).items()))
        out: dict[int, int] = {}
        for hist in self.deadwood.values():
            for d, n in hist.items():
                out[d] = out.get(d, 0) + n
        return dict(sorted(out.items()))

    def deals(self, jokers: int | None = None) -> int:
        return sum(self.counts(jokers).values())

    def count_at_most(self, limit: int, jokers: int | None = None) -> int:
        return sum(n for d, n in self.counts(jokers).items() if d <= limit)

    def p_deadwood_at_most(self, limit: int, jokers: int | None = None) -> Fraction:
        return Fraction(self.count_at_most(limit, jokers), self.deals(jokers))

    def p_gin(self, jokers: int | None = None) -> Fraction:
        return self.p_deadwood_at_most(0, jokers)

    def rumino_count(self, jokers: int | None = None) -> int:
        return sum(self.rumino.values()) if jokers is None else self.rumino.get(jokers, 0)

    def p_rumino(self, jokers: int | None = None) -> Fraction:
        return Fraction(self.rumino_count(jokers), self.deals(jokers))

    def mean(self, jokers: int | None = None) -> Fraction:
        hist = self.counts(jokers)
        return Fraction(sum(d * n for d, n in hist.items()), sum(hist.values()))

    def merge(self, other: "DealDistribution") -> None:
        for j, hist in other.deadwood.items():
            mine = self.deadwood.setdefault(j, {})
            for d, n in hist.items():
                mine[d] = mine.get(d, 0) + n
        for j, n in other.rumino.items():
            self.rumino[j] = self.rumino.get(j, 0) + n
        self.classes += other.classes


def _kernel_evaluator(rules: MeldRules) -> Callable[[np.ndarray], np.ndarray]:
    return lambda counts: min_deadwood_batch(counts, rules)


def evaluate_task(task: Task, shape: PackShape, hand_size: int, rules: MeldRules, rumino: bool = False,
                  rumino_distinct: bool = False, rumino_natural_only: bool = False,
                  evaluator: Callable | None = None) -> DealDistribution:
    """The partial distribution of one task (a pure function of its arguments: safe to run anywhere)."""
    counts, weights = task_classes(task, shape)
    dw = (evaluator or _kernel_evaluator(rules))(counts)
    dw = np.asarray(dw, dtype=np.int64)
    out = DealDistribution(hand_size, shape.size, classes=task.n)
    if task.n:
        top = int(dw.max()) + 1
        hist = np.zeros(top, dtype=np.int64)
        np.add.at(hist, dw, weights)  # int64: exact (each task's total is far below 2**63)
        out.deadwood[task.jokers] = {int(d): int(n) for d, n in enumerate(hist) if n}
        if rumino:
            mask = is_rumino_batch(counts, hand_size, distinct=rumino_distinct, natural_only=rumino_natural_only)
            out.rumino[task.jokers] = int(weights[mask].sum())
    return out


def _run_task(args):
    return evaluate_task(*args)


def deal_distribution(rules: MeldRules, hand_size: int, *, shape: PackShape | None = None, rumino: bool = False,
                      rumino_distinct: bool = False, rumino_natural_only: bool = False,
                      evaluator: Callable | None = None, executor: Executor | None = None, progress: bool = False,
                      chunk: int = DEFAULT_CHUNK) -> DealDistribution:
    """Exact distribution of the minimum deadwood of a dealt hand, by enumerating every class.

    ``shape`` defaults to ``rules.pack``; ``evaluator`` (counts → deadwood) to the
    compiled batch kernel; ``executor`` (any ``concurrent.futures`` executor, a
    Dask client's included) runs the fixed tasks in parallel with the same result.

    >>> from rumino.melds import RUMINO_MELDS
    >>> d = deal_distribution(RUMINO_MELDS, 3)   # 3-card hands: deadwood 0 means the hand is a lay
    >>> d.deals() == comb(108, 3), d.classes, d.p_gin()
    (True, 2276, Fraction(386, 17013))
    """
    shape = shape or PackShape.of(rules.pack)
    work = tasks(shape, hand_size, chunk)
    args = [(t, shape, hand_size, rules, rumino, rumino_distinct, rumino_natural_only, evaluator) for t in work]
    result = DealDistribution(hand_size, shape.size)
    if executor is None:
        parts = map(_run_task, args)
    else:
        parts = executor.map(_run_task, args)
    bar = make_bar(sum(t.n for t in work), "deal classes", "classes", scale=True) if progress else NoBar()
    try:
        for part in parts:  # merged in task order whatever ran them: identical results
            result.merge(part)
            bar.update(part.classes)
    finally:
        bar.close()
    if result.deals() != result.total:
        raise ArithmeticError(f"class weights add up to {result.deals()}, not C({shape.size}, {hand_size}) = "
                              f"{result.total}: a bug in the enumeration")
    return result


def brute_force_distribution(rules: MeldRules, hand_size: int, shape: PackShape,
                             evaluate: Callable[[tuple[int, ...]], int] | None = None) -> DealDistribution:
    """The same distribution by listing every ``hand_size``-subset of the physical cards (small packs only).

    Each physical copy is its own card, so nothing is assumed about symmetry or
    weights; ``evaluate`` defaults to the reference search :func:`rumino.hand.arrange.min_deadwood`.
    """
    from itertools import combinations


    evaluate = evaluate or (lambda hand: min_deadwood(hand, rules))
    physical = [c for c in shape.card_ids() for _ in range(shape.copies)] + [JOKER] * shape.jokers
    memo: dict[tuple[int, ...], int] = {}
    out = DealDistribution(hand_size, shape.size)
    for combo in combinations(physical, hand_size):
        key = tuple(sorted(combo))
        if key not in memo:
            memo[key] = evaluate(key)
        j = key.count(JOKER)
        hist = out.deadwood.setdefault(j, {})
        hist[memo[key]] = hist.get(memo[key], 0) + 1
    out.classes = len(memo)
    return out


def reference_evaluator(rules: MeldRules) -> Callable[[np.ndarray], np.ndarray]:
    """A batch evaluator built on the readable search :func:`rumino.hand.arrange.min_deadwood` (slow; for checks).

    >>> from rumino.cards import to_counts, parse_hand
    >>> from rumino.melds import RUMINO_MELDS
    >>> reference_evaluator(RUMINO_MELDS)(to_counts(parse_hand("7h 8h 9h 10h 5c 5d 5s"))[None, :]).tolist()
    [0]
    """

    memo: dict[bytes, int] = {}

    def run(counts: np.ndarray) -> np.ndarray:
        out = np.empty(len(counts), dtype=np.int32)
        for i, row in enumerate(np.asarray(counts, dtype=np.int8)):
            key = row.tobytes()
            if key not in memo:
                memo[key] = min_deadwood(from_counts(row), rules)
            out[i] = memo[key]
        return out

    return run
