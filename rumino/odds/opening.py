"""How often a dealt Rommé hand can open: the 40-point opening from the dealt cards alone.

The question (rules §3.4.2): can the cards a player is dealt, before any draw, be
laid as melds worth at least ``opening_min`` (40 by default; 30, 35, 42, 50 as
house rules) under the opening values of rules §3.3? Published figures disagree,
so rumino simulates it: deal ``n`` hands of 13 cards (or the dealer's 14) from the
110-card pack, compute each hand's exact opening value with the compiled kernel
(:func:`rumino.hand.opening.max_opening_batch`, checked against
:func:`rumino.hand.arrange.max_opening`), and keep the whole distribution of values by
the number of jokers dealt. One pass answers every threshold at once.

Decisions where the rules leave room: the dealer's 14 cards are one uniformly random
14-card hand (the deal is one card at a time, so every hand is equally likely);
the value counted is the opening value of rules §3.3 whatever the penalty knobs
say (``ace_penalty``, ``joker_penalty`` only change what a hand costs); a hand
that could be laid out entirely (a hand-Rommé, which needs no 40) is counted by
its value like any other: the question is the 40-point opening itself.

The dealing and the seeding are the project's Monte Carlo machinery
(:mod:`rumino.odds.montecarlo`): fixed chunks, each with its own generator
spawned from the seed, merged in order, on any executor, so a figure depends on
``(n, seed, cards, rules)`` only. Every probability carries ``n``, the seed and
a Wilson 95% interval.

>>> s = simulate_opening(20_000, seed=1)
>>> e = s.p_open(40); e.n, e.seed, e.lo < e.value < e.hi
(20000, 1, True)
>>> sorted(s.table())
[30, 35, 40, 42, 50]
"""

from __future__ import annotations

from concurrent.futures import Executor
from dataclasses import dataclass, field
from typing import Any, Iterable

import numpy as np

from rumino.cards import JOKER
from rumino.variants import find_variant
from rumino.odds.draws import OddsArgumentError
from rumino.odds.montecarlo import DEFAULT_CHUNK, OddsEstimate, mean_from_moments, proportion, run_chunks, sample_deals
from rumino.hand.opening import max_opening_batch

THRESHOLDS = (30, 35, 40, 42, 50)  # the opening_min knob's values (rules §3.4.2, §3.6)
CARD_MAX = 11  # the most one card counts toward an opening (an ace at 11, or a joker standing for one)



def value_chunk(size: int, ss: np.random.SeedSequence, meld_rules, cards: int) -> np.ndarray:
    """Deal ``size`` hands and count them by (jokers dealt, opening value): a ``(J + 1, V + 1)`` grid."""

    rng = np.random.default_rng(ss)
    counts = sample_deals(meld_rules.pack, cards, size, rng)
    values = max_opening_batch(counts, meld_rules).astype(np.int64)
    jokers = counts[:, JOKER].astype(np.int64)
    width = CARD_MAX * cards + 1
    grid = np.bincount(jokers * width + values, minlength=(meld_rules.pack.jokers + 1) * width)
    return grid.reshape(meld_rules.pack.jokers + 1, width)


@dataclass
class OpeningSample:
    """Simulated deals counted by jokers dealt (rows) and opening value (columns), with estimates.

    ``grid[j, v]`` is the number of deals with ``j`` jokers whose best opening is worth ``v``.
    """

    n: int
    seed: int
    cards: int
    variant: str
    opening_min: int  # the rules' own minimum (the default threshold)
    grid: np.ndarray = field(repr=False)
    pack_size: int = 110

    def deals(self, jokers: int | None = None) -> int:
        return int(self.grid.sum() if jokers is None else self.grid[jokers].sum())

    def _row(self, jokers: int | None) -> np.ndarray:
        if jokers is None:
            return self.grid.sum(axis=0)
        if not 0 <= jokers < self.grid.shape[0]:
            raise OddsArgumentError(f"jokers is {jokers!r}: the pack holds {self.grid.shape[0] - 1}.")
        return self.grid[jokers]

    def p_open(self, opening_min: int | None = None, jokers: int | None = None) -> OddsEstimate:
        """P(the dealt hand can open with at least ``opening_min``), overall or given ``jokers`` dealt.

        Raises if no deal had that many jokers (there is nothing to estimate).
        """
        m = self.opening_min if opening_min is None else _threshold(opening_min)
        row = self._row(jokers)
        return proportion(int(row[min(m, len(row)):].sum()), int(row.sum()), self.seed)

    def p_jokers(self, jokers: int) -> OddsEstimate:
        """P(exactly ``jokers`` jokers dealt): a check on the dealing (it has an exact hypergeometric value)."""
        return proportion(self.deals(jokers), self.n, self.seed)

    def mean_value(self, jokers: int | None = None) -> OddsEstimate:
        """Mean opening value (normal interval)."""
        row = self._row(jokers)
        v = np.arange(len(row), dtype=np.float64)
        return mean_from_moments(int(row.sum()), float((row * v).sum()), float((row * v * v).sum()), self.seed)

    def distribution(self, jokers: int | None = None) -> dict[int, int]:
        """``{opening value: deals}`` (values that occurred)."""
        row = self._row(jokers)
        return {int(v): int(c) for v, c in enumerate(row) if c}

    def jokers_seen(self) -> list[int]:
        return [j for j in range(self.grid.shape[0]) if self.grid[j].any()]

    def table(self, thresholds: Iterable[int] = THRESHOLDS) -> dict[int, dict]:
        """``{threshold: {"all": estimate, j: estimate for each number of jokers seen}}`` from this one pass."""
        return {int(m): {"all": self.p_open(m), **{j: self.p_open(m, j) for j in self.jokers_seen()}}
                for m in thresholds}

    def report(self, opening_min: int | None = None, thresholds: Iterable[int] = THRESHOLDS) -> dict:
        """The figures ``rumino odds opening --json`` prints."""
        m = self.opening_min if opening_min is None else _threshold(opening_min)

        def est(e: OddsEstimate, **more) -> dict:
            return {"estimate": e.value, "ci95": [e.lo, e.hi], **more}

        jokers = self.jokers_seen()
        mean = self.mean_value()
        return {
            "variant": self.variant, "samples": self.n, "seed": self.seed, "cards": self.cards, "opening_min": m,
            "pack_size": self.pack_size,
            "probability": est(self.p_open(m), n=self.n, successes=self.p_open(m).successes),
            "by_jokers": {str(j): {"n": self.deals(j), **est(self.p_open(m, j))} for j in jokers},
            "thresholds": {str(t): est(self.p_open(t), by_jokers={str(j): est(self.p_open(t, j)) for j in jokers})
                           for t in thresholds},
            "mean_value": {"estimate": mean.value, "ci95": [mean.lo, mean.hi]},
            "method": "monte carlo: exact opening value of each dealt hand (compiled kernel)",
            "interval": "wilson 95%",
        }


def _threshold(m) -> int:
    if isinstance(m, bool) or not isinstance(m, (int, np.integer)) or m < 1:
        raise OddsArgumentError(f"opening_min is {m!r}: it must be a positive whole number of points.")
    return int(m)


def simulate_opening(n: int, seed: int, *, cards: int = 13, variant: str = "romme", rules: Any = None,
                     chunk: int = DEFAULT_CHUNK, executor: Executor | None = None, progress: bool = False) -> OpeningSample:
    """Deal ``n`` hands of ``cards`` cards and find the best opening of each (see the module docstring).

    ``variant`` is ``"romme"`` or ``"robber"`` (both open from their own hand, rules §3.4, §4 RR4);
    ``rules`` are house rules for it (their meld knobs and ``opening_min`` are used).
    ``cards`` may be any hand size from 3 to 14 in the Python API (the tests compare a
    3-card deal with its exact value); the command offers the sizes a deal gives.

    >>> simulate_opening(1000, seed=3, cards=14).p_open(40).n
    1000
    """
    v = find_variant(variant)
    if not v.opening_sizes:  # a game that opens from the dealt hand says the sizes its deals give
        raise OddsArgumentError(f"{v.title} has no opening from the dealt hand: the opening odds are for "
                                f"German Rommé (rules §3.4) and Robber Rummy (rules §4).")
    rules = rules or v.rules
    if isinstance(cards, bool) or not isinstance(cards, (int, np.integer)) or not 3 <= cards <= 14:
        raise OddsArgumentError(f"cards is {cards!r}: a hand for the opening odds has 3 to 14 cards.")
    mr = rules.meld_rules
    parts = run_chunks(value_chunk, n, seed, chunk=chunk, args=(mr, int(cards)), executor=executor,
                       progress=progress, desc="deals")
    grid = np.sum(parts, axis=0)
    return OpeningSample(int(n), int(seed), int(cards), v.key, int(rules.opening_min), grid, mr.pack.size)
