"""Small interval helpers for Monte Carlo figures: Wilson for proportions, normal for means.

Every simulated figure in rumino carries its sample size and a 95% interval;
these two functions are the only places the intervals are computed.

>>> lo, hi = wilson_interval(50, 100)
>>> round(lo, 4), round(hi, 4)
(0.4038, 0.5962)
>>> lo, hi = mean_interval([1, 2, 3, 4])
>>> round(lo, 4), round(hi, 4)
(1.2348, 3.7652)
"""

from __future__ import annotations

import math
from dataclasses import dataclass
from fractions import Fraction
from typing import Iterable

Z95 = 1.959963984540054  # the 97.5% quantile of the standard normal


def wilson_interval(successes: float, n: int, z: float = Z95) -> tuple[float, float]:
    """Wilson score interval for a proportion ``successes / n`` (95% by default).

    ``successes`` may be fractional (a shared win counts 1/k), the formula only
    needs the observed proportion. With ``n == 0`` nothing is known: ``(0.0, 1.0)``.

    >>> wilson_interval(0, 10)[0], round(wilson_interval(0, 10)[1], 4)
    (0.0, 0.2775)
    """
    if n < 0 or successes < 0 or successes > n:
        raise ValueError(f"wilson_interval needs 0 <= successes <= n; got successes={successes!r}, n={n!r}.")
    if n == 0:
        return 0.0, 1.0
    p = successes / n
    z2 = z * z
    centre = (p + z2 / (2 * n)) / (1 + z2 / n)
    half = z / (1 + z2 / n) * math.sqrt(p * (1 - p) / n + z2 / (4 * n * n))
    # at p̂ = 0 (or 1) the lower (upper) root is exactly 0 (1); say so rather than round to 1e-17
    lo = 0.0 if successes == 0 else max(0.0, centre - half)
    hi = 1.0 if successes == n else min(1.0, centre + half)
    return lo, hi


def mean_interval(values: Iterable[float], z: float = Z95) -> tuple[float, float]:
    """Normal-approximation interval ``mean ± z·s/√n`` for the mean of ``values`` (95% by default).

    Returns ``(lo, hi)`` like :func:`wilson_interval`; :func:`mean_estimate` also
    returns the mean and ``n``. One value gives a zero-width interval at that value.

    >>> mean_interval([5.0])
    (5.0, 5.0)
    """
    est = mean_estimate(values, z)
    return est.lo, est.hi


@dataclass(frozen=True)
class Estimate:
    """The one type of a Monte Carlo figure everywhere in rumino: the value, its 95% interval,
    the sample size ``n``, the ``seed`` (None when unseeded), the interval's ``method``
    ("wilson" for proportions, "normal" for means), and for proportions the successes.

    >>> e = proportion_estimate(30, 100, seed=1)
    >>> e.as_json()["ci95"] == [e.lo, e.hi], e.as_json()["n"], e.estimate == e.value
    (True, 100, True)
    """

    value: float
    lo: float
    hi: float
    n: int
    seed: object = None
    method: str = "normal"
    successes: float | None = None
    se: float | None = None  # standard error (binomial for proportions, sample sd/√n for means)

    @property
    def estimate(self) -> float:
        """The value (the name the simulation summaries used)."""
        return self.value

    def contains(self, x: float | Fraction) -> bool:
        return self.lo <= float(x) <= self.hi

    def z_score(self, exact: float | Fraction) -> float:
        """How many standard errors the estimate is from ``exact`` (0 if the standard error is 0)."""
        if not self.se:
            return 0.0 if float(exact) == self.value else math.inf
        return (self.value - float(exact)) / self.se

    def as_json(self) -> dict:
        """The one JSON shape of an estimate: estimate, ci95, n, seed, interval (and successes).

        ``value`` repeats ``estimate`` so that a reader of an exact figure
        (``{"numerator", "denominator", "value"}``) and of a simulated one reads the
        number under the same key.
        """
        out = {"estimate": self.value, "value": self.value, "ci95": [self.lo, self.hi], "n": self.n,
               "seed": self.seed, "interval": self.method}
        if self.successes is not None:
            out["successes"] = self.successes
        return out

    def __str__(self) -> str:
        return (f"{self.value:.6g} (95% CI {self.lo:.6g} … {self.hi:.6g}; n = {self.n:,}, seed {self.seed}, "
                f"{self.method})")


def mean_estimate(values: Iterable[float], z: float = Z95, seed=None) -> Estimate:
    """Mean of ``values`` with its normal 95% interval (sample standard deviation, n − 1).

    >>> mean_estimate([2, 4]).estimate
    3.0
    """
    xs = [float(v) for v in values]
    n = len(xs)
    if n == 0:
        raise ValueError("mean_estimate needs at least one value.")
    m = math.fsum(xs) / n
    if n == 1:
        return Estimate(m, m, m, 1, seed, "normal", se=0.0)
    var = math.fsum((x - m) ** 2 for x in xs) / (n - 1)
    se = math.sqrt(var / n)
    return Estimate(m, m - z * se, m + z * se, n, seed, "normal", se=se)


def proportion_estimate(successes: float, n: int, z: float = Z95, seed=None) -> Estimate:
    """A proportion with its Wilson interval.

    >>> proportion_estimate(3, 4).estimate
    0.75
    """
    lo, hi = wilson_interval(successes, n, z)
    p = successes / n if n else 0.0
    return Estimate(p, lo, hi, n, seed, "wilson", successes=successes, se=math.sqrt(p * (1 - p) / n) if n else None)
