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
from typing import Callable, Iterable, Sequence

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


def same_precision(value: float, lo: float, hi: float, significant: int = 2) -> tuple[str, str, str]:
    """An estimate and its interval written to the same decimals: the interval's half-width to
    ``significant`` figures (one precision for all three, never 0.374 beside 0.417221).

    >>> same_precision(0.374, 0.3327, 0.417221)
    ('0.374', '0.333', '0.417')
    >>> same_precision(37.894, 37.6, 38.2), same_precision(0.5, 0.5, 0.5)
    (('37.89', '37.60', '38.20'), ('0.5', '0.5', '0.5'))
    """
    half = (hi - lo) / 2
    if not (math.isfinite(half) and half > 0):
        return f"{value:.6g}", f"{lo:.6g}", f"{hi:.6g}"
    decimals = max(0, significant - 1 - math.floor(math.log10(half)))
    return f"{value:.{decimals}f}", f"{lo:.{decimals}f}", f"{hi:.{decimals}f}"


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
        v, lo, hi = same_precision(self.value, self.lo, self.hi)
        return f"{v} (95% CI {lo} … {hi}; n = {self.n:,}, seed {self.seed}, {self.method})"


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


# --------------------------------------------------------------------------- comparisons by difference
#
# Two figures are compared by an interval (or a test) for their *difference*, never by whether their own
# intervals overlap: two 95% intervals may overlap while the difference is shown (140 against 108 of the
# same 400 games), and the overlap rule throws away the pairing of figures measured on the same deals.
# Each function below returns a :class:`Comparison`; :func:`verdict` chooses the words from it.

ALPHA = 0.05  # a difference is "shown" at the 95% level


@dataclass(frozen=True)
class Comparison:
    """A difference ``A − B`` with its 95% interval, and the p-value of a test where one was made.

    ``n`` is the sample size: ``(n_a, n_b)`` for two independent samples, the number of pairs for a
    paired design; ``method`` names the interval (and the test); ``kind`` says what is compared
    (``"proportion"``: the difference is in percentage points; ``"mean"``: in the figures' own units).

    >>> c = proportion_difference(56, 70, 48, 80)
    >>> round(c.estimate, 4), [round(x, 4) for x in c.ci95], c.shown
    (0.2, [0.0524, 0.3339], True)
    >>> sorted(c.as_json())
    ['ci95', 'estimate', 'kind', 'method', 'n', 'p_value', 'paired', 'test']
    """

    estimate: float
    lo: float
    hi: float
    n: int | tuple[int, int]
    method: str
    p_value: float | None = None
    test: str | None = None
    kind: str = "proportion"
    paired: bool = False

    @property
    def ci95(self) -> tuple[float, float]:
        return (self.lo, self.hi)

    @property
    def interval_excludes_zero(self) -> bool:
        return self.lo > 0 or self.hi < 0

    @property
    def test_rejects(self) -> bool | None:
        """True when the test's p-value is below 5% (None: no test was made)."""
        return None if self.p_value is None else self.p_value < ALPHA

    @property
    def shown(self) -> bool:
        """Is the difference shown at the 95% level? The interval must leave out 0 and, where a test was
        made, its p-value be below 5% (the two nearly always agree; where they do not, nothing is shown)."""
        return self.interval_excludes_zero and self.test_rejects is not False

    @property
    def sign(self) -> int:
        """+1 if A is shown higher, −1 if B is, 0 if nothing is shown."""
        return 0 if not self.shown else (1 if self.estimate > 0 else -1)

    @classmethod
    def from_json(cls, d: dict) -> "Comparison":
        """The comparison :meth:`as_json` wrote.

        >>> c = proportion_difference(3, 10, 5, 10)
        >>> Comparison.from_json(c.as_json()) == c
        True
        """
        n = tuple(d["n"]) if isinstance(d["n"], list) else d["n"]
        return cls(d["estimate"], d["ci95"][0], d["ci95"][1], n, d["method"], d.get("p_value"), d.get("test"),
                   d.get("kind", "proportion"), d.get("paired", False))

    def as_json(self) -> dict:
        return {"estimate": self.estimate, "ci95": [self.lo, self.hi], "p_value": self.p_value,
                "n": list(self.n) if isinstance(self.n, tuple) else self.n, "method": self.method,
                "test": self.test, "kind": self.kind, "paired": self.paired}


def _check_count(name: str, value: float, n: float | None = None) -> None:
    if isinstance(value, bool) or not isinstance(value, (int, float, Fraction)) or value != value or value < 0:
        raise ValueError(f"{name} is {value!r}: a count is a number of at least 0.")
    if n is not None and value > n:
        raise ValueError(f"{name} is {value!r}, more than the {n!r} trials it is counted in.")


def proportion_difference(successes_a: float, n_a: int, successes_b: float, n_b: int, z: float = Z95) -> Comparison:
    """``p_a − p_b`` of two independent proportions, with Newcombe's hybrid score interval (his method 10):
    the Wilson limits of each proportion combined by "square and add",

    ``L = D − √((p_a − l_a)² + (u_b − p_b)²)``, ``U = D + √((u_a − p_a)² + (p_b − l_b)²)``.

    Newcombe, R. G. (1998), "Interval estimation for the difference between independent proportions:
    comparison of eleven methods", *Statistics in Medicine* 17, 873–890, Table II: 56/70 − 48/80 gives
    0.0524 to 0.3339; 9/10 − 3/10 gives 0.1705 to 0.8090 (both checked in tests/core/test_stats.py). It
    stays inside [−1, 1] and keeps its coverage near 95% for small counts, where the Wald interval fails.

    >>> c = proportion_difference(9, 10, 3, 10)
    >>> [round(x, 4) for x in c.ci95]
    [0.1705, 0.809]
    """
    for name, x, n in (("successes_a", successes_a, n_a), ("successes_b", successes_b, n_b)):
        _check_count(name, x, n)
        if isinstance(n, bool) or not isinstance(n, int) or n < 1:
            raise ValueError(f"the trials of {name[-1].upper()} are {n!r}: a difference needs at least one trial.")
    pa, pb = successes_a / n_a, successes_b / n_b
    la, ua = wilson_interval(successes_a, n_a, z)
    lb, ub = wilson_interval(successes_b, n_b, z)
    d = pa - pb
    lo = d - math.sqrt((pa - la) ** 2 + (ub - pb) ** 2)
    hi = d + math.sqrt((ua - pa) ** 2 + (pb - lb) ** 2)
    return Comparison(d, max(-1.0, lo), min(1.0, hi), (n_a, n_b),
                      "Newcombe's hybrid score interval (method 10)", kind="proportion")


def paired_proportion_difference(both: float, only_a: float, only_b: float, neither: float,
                                 z: float = Z95) -> Comparison:
    """``p_a − p_b`` of two proportions measured on the same trials (the same deals), with Newcombe's
    hybrid score interval for paired data (his method 10): the Wilson limits of ``p_a = (both + only_a)/n``
    and ``p_b = (both + only_b)/n`` squared and added as for independent samples, less the part the two
    share through their correlation ``φ̂`` (``both·neither − only_a·only_b`` over the root of the four
    margins' product, its positive numerator less ``n/2``).

    Why this interval (and not Tango's score interval, the other good one): it is closed form and built
    on the same Wilson interval as every proportion of the book, so chapter 3 teaches one construction for
    all three; Fagerland, Lydersen and Laake (2014, *Statistics in Medicine* 33, 2850–2875) found its
    coverage close to 95% down to small samples. Newcombe, R. G. (1998), "Improved confidence intervals
    for the difference between binomial proportions based on paired data", *Statistics in Medicine* 17,
    2635–2650. Worked example (Fagerland et al.'s Cavo data, both 59, only A 6, only B 16, neither 80):
    −0.0621, from −0.1186 to −0.0046. Counts may be fractional (a tied hand splits between cells).

    >>> c = paired_proportion_difference(59, 6, 16, 80)
    >>> round(c.estimate, 4), [round(x, 4) for x in c.ci95]
    (-0.0621, [-0.1186, -0.0046])
    """
    for name, x in (("both", both), ("only_a", only_a), ("only_b", only_b), ("neither", neither)):
        _check_count(name, x)
    a, b, c, d = (float(x) for x in (both, only_a, only_b, neither))
    n = a + b + c + d
    if n <= 0:
        raise ValueError("the paired counts hold no trial: a paired difference needs at least one pair.")
    pa, pb = (a + b) / n, (a + c) / n
    la, ua = _wilson_float(a + b, n, z)
    lb, ub = _wilson_float(a + c, n, z)
    denominator = (a + b) * (c + d) * (a + c) * (b + d)
    # Newcombe's φ̂: the product-moment correlation of the two outcomes, its positive numerator shrunk by
    # n/2 (a continuity correction of the correlation only, as his method 10 defines it)
    cross = a * d - b * c
    if denominator <= 0:
        phi = 0.0
    elif cross > n / 2:
        phi = (cross - n / 2) / math.sqrt(denominator)
    elif cross >= 0:
        phi = 0.0
    else:
        phi = cross / math.sqrt(denominator)
    diff = pa - pb
    lower = (pa - la) ** 2 - 2 * phi * (pa - la) * (ub - pb) + (ub - pb) ** 2
    upper = (ua - pa) ** 2 - 2 * phi * (ua - pa) * (pb - lb) + (pb - lb) ** 2
    lo = diff - math.sqrt(max(0.0, lower))
    hi = diff + math.sqrt(max(0.0, upper))
    total = int(n) if float(n).is_integer() else n
    return Comparison(diff, max(-1.0, lo), min(1.0, hi), total,
                      "Newcombe's hybrid score interval for paired data (method 10)", kind="proportion",
                      paired=True)


def _wilson_float(successes: float, n: float, z: float) -> tuple[float, float]:
    """The Wilson interval for a total ``n`` that may be fractional (paired cells split by ties)."""
    p = successes / n
    z2 = z * z
    centre = (p + z2 / (2 * n)) / (1 + z2 / n)
    half = z / (1 + z2 / n) * math.sqrt(max(0.0, p * (1 - p) / n + z2 / (4 * n * n)))
    lo = 0.0 if successes <= 0 else max(0.0, centre - half)
    hi = 1.0 if successes >= n else min(1.0, centre + half)
    return lo, hi


def paired_counts(pairs: Iterable[tuple[float, float]]) -> tuple[float, float, float, float]:
    """The paired 2×2 counts ``(both, only_a, only_b, neither)`` of outcome pairs ``(x_a, x_b)`` in [0, 1]
    (1 won, 0 lost, ½ tied: a tie is half a win, so a pair's weight splits between the cells).

    >>> paired_counts([(1, 1), (1, 0), (0, 1), (0.5, 0)])
    (1.0, 1.5, 1.0, 0.5)
    """
    both = only_a = only_b = neither = 0.0
    for x, y in pairs:
        x, y = float(x), float(y)
        if not (0 <= x <= 1 and 0 <= y <= 1):
            raise ValueError(f"the outcome pair {(x, y)!r} is outside [0, 1]: an outcome is 1, ½ or 0.")
        both += x * y
        only_a += x * (1 - y)
        only_b += (1 - x) * y
        neither += (1 - x) * (1 - y)
    return both, only_a, only_b, neither


def _binomial_two_sided(k: int, n: int) -> Fraction:
    """The exact two-sided p-value of ``k`` successes in ``n`` trials at chance one half (the sign test):
    twice the smaller tail, at most 1, in exact fractions."""
    if n == 0:
        return Fraction(1)
    tail = sum(math.comb(n, i) for i in range(min(k, n - k) + 1))
    return min(Fraction(1), Fraction(2 * tail, 2 ** n))


def sign_test(only_a: int, only_b: int, both: float = 0, neither: float = 0) -> Comparison:
    """The exact McNemar test (the sign test) of paired outcomes: of the ``only_a + only_b`` discordant
    pairs (A won where B did not, and the reverse), is the split more lopsided than a fair coin gives?
    The p-value is exact (integer binomial sums, twice the smaller tail); the difference ``(only_a −
    only_b) / n`` carries Newcombe's paired interval (:func:`paired_proportion_difference`), which needs
    the concordant counts ``both`` and ``neither`` too.

    Chapter 6's four-player table: threshold:3 won 108 and greedy 140 of the same 400 games (one winner a
    game), so 248 games went to one of the two: p = 0.049.

    >>> round(sign_test(140, 108, 0, 152).p_value, 3)
    0.049
    """
    for name, x in (("only_a", only_a), ("only_b", only_b)):
        if isinstance(x, bool) or not isinstance(x, int) or x < 0:
            raise ValueError(f"{name} is {x!r}: the sign test counts whole discordant pairs (at least 0).")
    p = float(_binomial_two_sided(only_a, only_a + only_b))
    if only_a + only_b + both + neither == 0:
        raise ValueError("the paired counts hold no trial: a paired test needs at least one pair.")
    interval = paired_proportion_difference(both, only_a, only_b, neither)
    return Comparison(interval.estimate, interval.lo, interval.hi, interval.n,
                      interval.method + "; exact McNemar (sign) test", p_value=p,
                      test="exact McNemar test", kind="proportion", paired=True)


def paired_sign_test(pairs: Iterable[tuple[float, float]]) -> Comparison:
    """The sign test of outcome pairs ``(x_a, x_b)`` (1 won, ½ tied, 0 lost; the same deal under A and
    under B): the pairs where A did better against those where B did, exactly, with Newcombe's paired
    interval on the difference of the two shares (ties split half and half).

    >>> paired_sign_test([(1, 0)] * 7 + [(0, 1)] * 0 + [(0, 0)] * 193).p_value
    0.015625
    """
    pairs = [(float(x), float(y)) for x, y in pairs]
    better = sum(1 for x, y in pairs if x > y)
    worse = sum(1 for x, y in pairs if x < y)
    p = float(_binomial_two_sided(better, better + worse))
    interval = paired_proportion_difference(*paired_counts(pairs))
    return Comparison(interval.estimate, interval.lo, interval.hi, interval.n,
                      interval.method + "; exact sign test", p_value=p, test="exact sign test",
                      kind="proportion", paired=True)


def fisher_exact_test(successes_a: int, n_a: int, successes_b: int, n_b: int) -> Comparison:
    """Fisher's exact test of two independent proportions, for small counts: given both margins of the
    2×2 table, the chance of a table as unlikely as the one seen or less (two-sided: every table whose
    hypergeometric probability is at most the observed one's, summed in exact fractions). The difference
    ``p_a − p_b`` carries Newcombe's hybrid score interval (:func:`proportion_difference`).

    Chapter 12's house-rule table: a random player won 1 of 200 hands at a knock limit of 3 and 8 of 200
    at 10: p = 0.037 (the hands are in fact paired on the same deals: :func:`paired_sign_test`).

    >>> round(fisher_exact_test(1, 200, 8, 200).p_value, 3)
    0.037
    """
    for name, x, n in (("successes_a", successes_a, n_a), ("successes_b", successes_b, n_b)):
        if isinstance(x, bool) or not isinstance(x, int) or isinstance(n, bool) or not isinstance(n, int):
            raise ValueError(f"{name} is {x!r} of {n!r}: Fisher's exact test counts whole trials.")
        if n < 1 or not 0 <= x <= n:
            raise ValueError(f"{name} is {x!r} of {n!r}: it needs 0 <= successes <= trials and a trial.")
    total, hits = n_a + n_b, successes_a + successes_b
    low, high = max(0, hits - n_b), min(hits, n_a)

    def weight(k: int) -> int:  # the hypergeometric probability of k successes in A, times C(total, hits)
        return math.comb(n_a, k) * math.comb(n_b, hits - k)

    seen = weight(successes_a)
    p = Fraction(sum(w for w in (weight(k) for k in range(low, high + 1)) if w <= seen), math.comb(total, hits))
    interval = proportion_difference(successes_a, n_a, successes_b, n_b)
    return Comparison(interval.estimate, interval.lo, interval.hi, interval.n,
                      interval.method + "; Fisher's exact test", p_value=float(min(p, Fraction(1))),
                      test="Fisher's exact test", kind="proportion")


def paired_mean_difference(differences: Iterable[float], *, normal: bool = False) -> Comparison:
    """The mean of per-pair differences (one a deal: A's figure minus B's on the same cards), with the
    t interval ``d̄ ± t(n−1)·s/√n`` and the paired t-test's two-sided p-value (``normal=True``: the normal
    quantile instead of Student's t, for very many deals). The differences of duplicate deals are
    independent from deal to deal, so this is the interval of a difference measured on the same deals.

    >>> c = paired_mean_difference([2, 4, 3, 5, 1])
    >>> c.estimate, [round(x, 3) for x in c.ci95], round(c.p_value, 4)
    (3.0, [1.037, 4.963], 0.0132)

    Every pair the same: no spread to make a t interval of, so the exact sign test decides (five pairs
    of one sign: p = 1/16, not shown; six: 1/32, shown):

    >>> paired_mean_difference([2] * 5).p_value, paired_mean_difference([2] * 6).shown
    (0.0625, True)
    """
    from scipy.stats import norm, t as student

    xs = [float(v) for v in differences]
    n = len(xs)
    if n < 2:
        raise ValueError(f"a paired mean difference needs at least two pairs; got {n}.")
    if any(x != x or x in (math.inf, -math.inf) for x in xs):
        raise ValueError("a difference is not a finite number.")
    m = math.fsum(xs) / n
    sd = math.sqrt(math.fsum((x - m) ** 2 for x in xs) / (n - 1))
    se = sd / math.sqrt(n)
    name = "normal interval on the mean paired difference" if normal else "t interval on the mean paired difference"
    if se == 0:  # every pair gave the same difference: the t statistic is undefined, not infinite
        # a difference of 0 everywhere shows nothing (p = 1); n equal non-zero differences are n pairs all
        # of one sign, which the exact sign test gives p = 2^(1 − n) (p = 0 would claim more than n pairs can)
        return Comparison(m, m, m, n, name + " (every pair the same: the exact sign test)",
                          p_value=1.0 if m == 0 else min(1.0, 2.0 ** (1 - n)), test="exact sign test", kind="mean",
                          paired=True)
    q = norm.ppf(1 - ALPHA / 2) if normal else student.ppf(1 - ALPHA / 2, n - 1)
    stat = m / se
    p = 2 * (norm.sf(abs(stat)) if normal else student.sf(abs(stat), n - 1))
    return Comparison(m, float(m - q * se), float(m + q * se), n, name, p_value=float(p),
                      test="paired z-test" if normal else "paired t-test", kind="mean", paired=True)


def mean_difference(a: Estimate, b: Estimate) -> Comparison:
    """``a − b`` of two independent means (figures from different seeds or different games), with the
    normal interval ``(m_a − m_b) ± 1.96·√(se_a² + se_b²)`` and its two-sided z-test (Welch's test for
    large samples). Where the two were measured on the same deals, use :func:`paired_mean_difference`.

    >>> c = mean_difference(mean_estimate([10, 12, 11, 13]), mean_estimate([8, 9, 7, 8]))
    >>> c.estimate, c.shown
    (3.5, True)
    """
    from scipy.stats import norm

    if a.se is None or b.se is None:
        raise ValueError("both figures need a standard error (a simulated mean) to compare them.")
    d = a.value - b.value
    se = math.sqrt(a.se ** 2 + b.se ** 2)
    if se == 0:
        return Comparison(d, d, d, (a.n, b.n), "normal interval on the difference of two means",
                          p_value=1.0 if d == 0 else 0.0, test="z-test", kind="mean")
    return Comparison(d, d - Z95 * se, d + Z95 * se, (a.n, b.n), "normal interval on the difference of two means",
                      p_value=float(2 * norm.sf(abs(d) / se)), test="z-test", kind="mean")


def correlated_difference(a: Estimate, b: Estimate) -> Comparison:
    """``a − b`` of two estimates read from the same data whose correlation is not known (two sections'
    shares of the same chips, say): whatever the correlation, ``se(a − b) ≤ se_a + se_b``, so the
    interval ``(a − b) ± 1.96·(se_a + se_b)`` holds at least 95%. It leaves out 0 exactly when the two
    95% intervals do not overlap: for such figures, and only for them, no overlap is a (cautious) test.

    >>> c = correlated_difference(mean_estimate([10, 12, 11, 13]), mean_estimate([8, 9, 7, 8]))
    >>> round(c.hi - c.lo, 6) == round(2 * Z95 * (mean_estimate([10, 12, 11, 13]).se
    ...                                           + mean_estimate([8, 9, 7, 8]).se), 6)
    True
    """
    if a.se is None or b.se is None:
        raise ValueError("both figures need a standard error to compare them.")
    d = a.value - b.value
    half = Z95 * (a.se + b.se)
    return Comparison(d, d - half, d + half, (a.n, b.n),
                      "cautious interval for two estimates of the same data (their correlation unknown)",
                      kind="proportion" if a.method == b.method == "wilson" else "mean")


def holm(p_values: Sequence[float]) -> list[float]:
    """Holm's step-down adjustment of a family of p-values (each comparison of a ranking is one of many):
    a comparison is shown at 5% for the whole family when its adjusted p-value is below 5%.

    >>> holm([0.01, 0.04, 0.03])
    [0.03, 0.06, 0.06]
    """
    m = len(p_values)
    order = sorted(range(m), key=lambda i: p_values[i])
    out = [0.0] * m
    running = 0.0
    for rank, i in enumerate(order):
        running = max(running, min(1.0, (m - rank) * p_values[i]))
        out[i] = round(running, 15)
    return out


def pairwise_fisher(counts: dict[str, tuple[int, int]]) -> list[dict]:
    """Every pair of groups compared on their share of successes (``counts``: a group's name to its
    ``(successes, trials)``): Fisher's exact test, Newcombe's interval on the difference, the p-values
    Holm-adjusted over all the pairs (a ranking makes every comparison at once). Each entry:
    ``{"a", "b", "comparison" (a − b), "p_holm", "shown", "more_luck"}``, where ``more_luck`` is the
    group with the larger share when the difference is shown (None when not).

    >>> [(t["a"], t["b"], t["shown"], t["more_luck"]) for t in pairwise_fisher({"x": (40, 50), "y": (5, 50)})]
    [('x', 'y', True, 'x')]
    """
    keys = list(counts)
    pairs = [(a, b) for i, a in enumerate(keys) for b in keys[i + 1:]]
    tests = [fisher_exact_test(counts[a][0], counts[a][1], counts[b][0], counts[b][1]) for a, b in pairs]
    adjusted = holm([t.p_value for t in tests])
    out = []
    for (a, b), t, p in zip(pairs, tests, adjusted):
        shown = p < 0.05 and t.interval_excludes_zero
        out.append({"a": a, "b": b, "comparison": t, "p_holm": p, "shown": shown,
                    "more_luck": (a if t.estimate > 0 else b) if shown else None})
    return out


def _signed(x: float, fmt: Callable[[float], str]) -> str:
    """``fmt(x)`` with a true minus sign, and none on a value that rounds to zero."""
    text = fmt(abs(x))
    return ("−" + text) if x < 0 and any(ch in "123456789" for ch in text) else text


def difference_words(c: Comparison, *, unit: str = "", digits: int = 1) -> Callable[[float], str]:
    """How a difference of ``c``'s kind is written: percentage points for proportions, the figure's own
    units for means (``unit``, e.g. "turns")."""
    if c.kind == "proportion":
        return lambda x: f"{100 * x:.{digits}f} points"
    return lambda x: f"{x:.{digits}f}" + (f" {unit}" if unit else "")


def verdict(c: Comparison, a: str = "A", b: str = "B", *, more: str = "is higher", unit: str = "",
            digits: int = 1, p: bool = True) -> str:
    """One phrase, its words chosen from the comparison: ``"shown: A wins more, by 8.0 points [0.3, 15.6]"``
    or ``"not shown: the difference, 5.0 points [−7.3, 17.1], includes 0"`` (``more`` is what the higher
    side does, in words that read for either side; ``p`` adds a test's p-value).

    >>> verdict(sign_test(140, 108, 0, 152), "greedy", "threshold:3", more="wins more")
    'shown: greedy wins more, by 8.0 points [0.3, 15.6] (exact McNemar test, p = 0.049)'
    >>> verdict(proportion_difference(30, 100, 25, 100), more="wins more", p=False)
    'not shown: the difference, 5.0 points [−7.3, 17.1], includes 0'
    """
    fmt = difference_words(c, unit=unit, digits=digits)
    test = f" ({c.test}, p {_p_text(c.p_value)})" if p and c.p_value is not None else ""
    if c.shown:
        if c.estimate > 0:
            return f"shown: {a} {more}, by {fmt(c.estimate)} [{_bare(c.lo, fmt)}, {_bare(c.hi, fmt)}]{test}"
        return f"shown: {b} {more}, by {fmt(-c.estimate)} [{_bare(-c.hi, fmt)}, {_bare(-c.lo, fmt)}]{test}"
    interval = f"{_signed(c.estimate, fmt)} [{_bare(c.lo, fmt)}, {_bare(c.hi, fmt)}]"
    if c.interval_excludes_zero:  # the test did not reject although the interval leaves 0 out
        return f"not shown: the interval of the difference, {interval}, leaves out 0, but the {c.test} gives " \
               f"p {_p_text(c.p_value)}"
    if c.test_rejects:
        return f"not shown: the {c.test} gives p {_p_text(c.p_value)}, but the interval of the difference, " \
               f"{interval}, includes 0"
    return f"not shown: the difference, {interval}, includes 0{test}"


def _bare(x: float, fmt: Callable[[float], str]) -> str:
    """A limit without its unit word (the unit is said once, after the estimate)."""
    text = _signed(x, fmt)
    for word in (" points", " "):
        if word in text:
            return text.split(word)[0]
    return text


def _p_text(p: float | None) -> str:
    """``= 0.049``, ``= 0.25`` or ``< 0.001``: the p-value as a reader writes it after "p"."""
    if p is None:
        return "= —"
    if p < 0.001:
        return "< 0.001"
    return f"= {p:.3f}" if p < 0.1 else f"= {p:.2f}"
