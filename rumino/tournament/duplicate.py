"""Duplicate pairs, exactly: how much of a hand's result the deal decides, and what swapping seats saves.

Each deal of a heads-up tournament is played twice, the seats swapped. With ``y1`` and
``y2`` player ``a``'s margins over ``b`` in the two seatings of one deal, split them as

* ``s = (y1 + y2) / 2``: the part that stays with the players (it is the same whoever
  holds which cards), and
* ``d = (y1 − y2) / 2``: the part that changes sides with the cards.

Over the deals, ``(Var y1 + Var y2) / 2 = Var s + Var d`` exactly (the covariance of ``s``
and ``d`` enters the two seatings with opposite signs), so the *deal's share* of a hand's
variance is ``Var d / (Var s + Var d)``. A match's mean margin over ``n`` deals in duplicate
has variance ``Var s / n``; over ``2n`` hands on fresh deals it would be ``(Var s + Var d) / 2n``:
duplicate play multiplies the variance by ``2 (1 − share)``. Variances here are those of the
deals at hand (divided by the number of deals, as ``Tournament.deal_share`` reads them), in
exact ``Fraction`` arithmetic.

>>> split = variance_split([[3, -1], [0, 2]])
>>> split.stays_with_players, split.changes_with_cards, split.deal_share, split.duplicate_factor
(Fraction(0, 1), Fraction(9, 4), Fraction(1, 1), Fraction(0, 1))
"""

from __future__ import annotations

from dataclasses import dataclass
from fractions import Fraction
from numbers import Rational, Real
from typing import Iterable, Sequence

import numpy as np

from rumino.errors import RuminoError


@dataclass(frozen=True)
class DuplicateSplit:
    """The variances of a set of duplicate pairs (see the module docstring), all exact.

    ``seat_variances``: ``(Var y1, Var y2)``; ``stays_with_players``: ``Var s``;
    ``changes_with_cards``: ``Var d``; ``deals``: how many pairs.
    """

    deals: int
    seat_variances: tuple[Fraction, Fraction]
    stays_with_players: Fraction
    changes_with_cards: Fraction

    @property
    def hand_variance(self) -> Fraction:
        """The mean of the two seatings' variances, which is ``Var s + Var d``."""
        return self.stays_with_players + self.changes_with_cards

    @property
    def deal_share(self) -> Fraction | None:
        """``Var d / (Var s + Var d)``; ``None`` when no hand's result varies (nothing to share)."""
        total = self.hand_variance
        return self.changes_with_cards / total if total else None

    @property
    def duplicate_factor(self) -> Fraction | None:
        """The variance of a duplicate match's mean over that of as many hands on fresh deals:
        ``2 Var s / (Var s + Var d)``, that is ``2 (1 − share)``; ``None`` when nothing varies."""
        total = self.hand_variance
        return 2 * self.stays_with_players / total if total else None


def _exact(value: object, where: str) -> Fraction:
    if isinstance(value, bool) or not isinstance(value, Real):
        raise RuminoError(f"the margin {where} is {value!r}: a margin is a number (a score difference).")
    if isinstance(value, Rational):
        return Fraction(value)
    as_float = float(value)
    if as_float != as_float or as_float in (float("inf"), float("-inf")):
        raise RuminoError(f"the margin {where} is {value!r}: a margin is a finite number.")
    return Fraction(as_float)  # a float is a binary fraction: read exactly, never rounded


def _variance(values: Sequence[Fraction]) -> Fraction:
    mean = sum(values, Fraction(0)) / len(values)
    return sum(((v - mean) ** 2 for v in values), Fraction(0)) / len(values)


def variance_split(margins: Iterable[Sequence[object]]) -> DuplicateSplit:
    """Split the variance of duplicate pairs ``margins`` (one ``(y1, y2)`` a deal: ``a``'s margin over
    ``b`` with ``a`` in seat 0 and in seat 1, as ``Tournament.margins`` holds them) exactly.

    >>> variance_split([[2, 2], [0, 0]]).deal_share  # the result stays with the players: no luck
    Fraction(0, 1)
    """
    rows = [list(row) if not isinstance(row, (str, bytes)) else row for row in margins]
    if not rows:
        raise RuminoError("the margins hold no deal: a duplicate split needs at least one pair.")
    y1, y2 = [], []
    for k, row in enumerate(rows):
        if isinstance(row, (str, bytes)) or len(row) != 2:
            raise RuminoError(f"the margins of deal {k} are {row!r}: a duplicate pair is two margins, "
                              f"one in each seating.")
        y1.append(_exact(row[0], f"of deal {k} in seat 0"))
        y2.append(_exact(row[1], f"of deal {k} in seat 1"))
    s = [(a + b) / 2 for a, b in zip(y1, y2)]
    d = [(a - b) / 2 for a, b in zip(y1, y2)]
    return DuplicateSplit(deals=len(rows), seat_variances=(_variance(y1), _variance(y2)),
                          stays_with_players=_variance(s), changes_with_cards=_variance(d))


__all__ = ["DuplicateSplit", "variance_split"]


def deal_share_of(margins: np.ndarray) -> float:
    """The deal's share ``Var d / (Var s + Var d)`` of an ``(n, 2)`` array of duplicate margins, in floats
    (for bootstrap resamples, where :func:`variance_split`'s exact arithmetic would be slow); NaN when no
    margin varies.

    >>> deal_share_of(np.array([[3.0, -1.0], [0.0, 2.0]]))
    1.0
    """
    d = (margins[:, 0] - margins[:, 1]) / 2
    s = (margins[:, 0] + margins[:, 1]) / 2
    vd, vs = d.var(), s.var()
    return float(vd / (vd + vs)) if vd + vs > 0 else float("nan")


def deal_share_resamples(margins: np.ndarray, rng: np.random.Generator, resamples: int) -> np.ndarray:
    """The deal's share in each of ``resamples`` bootstrap resamples of the deals (rows drawn with
    replacement by ``rng``): its interval is read from them, and two shares are compared through them.

    >>> deal_share_resamples(np.array([[3.0, -1.0], [0.0, 2.0]]), np.random.default_rng(1), 3).shape
    (3,)
    """
    n = len(margins)
    return np.array([deal_share_of(margins[rng.integers(0, n, n)]) for _ in range(resamples)])
