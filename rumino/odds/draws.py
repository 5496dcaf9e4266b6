"""Exact drawing odds: outs, waiting times, and completing a target with jokers.

Everything here is exact (``fractions.Fraction``) and rests on one fact: the
cards a player draws from ``U`` unseen cards are a uniformly random subset of
them, so counts of drawn cards are hypergeometric.

* :func:`p_at_least_one` — P(at least one of ``k`` outs in ``N`` draws)
  ``= 1 − C(U−k, N) / C(U, N)``.
* :func:`first_out_distribution` and :func:`expected_draws_to_first_out` — the
  number ``T`` of draws up to and including the first out:
  ``P(T = t) = C(U−k, t−1)/C(U, t−1) · k/(U−t+1)`` and ``E[T] = (U+1)/(k+1)``.
* :func:`p_complete` — several specific cards are needed, kind ``i`` needs
  ``n_i`` of its ``a_i`` unseen copies, and each unseen joker drawn substitutes
  for any one missing copy. A dynamic programme over the kinds counts, for each
  number of special cards drawn and each remaining shortfall, the ways to draw
  them; jokers and blanks are added in closed form at the end.

>>> p_at_least_one(outs=8, unseen=47, draws=1)
Fraction(8, 47)
>>> expected_draws_to_first_out(outs=8, unseen=47)
Fraction(16, 3)
>>> # holding 4 cards of a 7-card straight flush (3 kinds missing, 2 copies each), 4 jokers unseen, 94 unseen
>>> p = p_complete([(2, 1)] * 3, unseen=94, draws=10, jokers=4); round(float(p), 4)
0.0583

Opponents' draws as random removals
-----------------------------------
``p_complete(..., removed=R)`` lets ``R`` unseen cards vanish at random (into
opponents' hands) before or among the player's draws, and sums over what they
could have been. The answer does not change: the player's own cards are still a
uniformly random ``N``-subset of the ``U`` unseen cards (exchangeability). The
tests check this identity exactly; what removals do change is how many draws
the stock allows (``N + R ≤ U``).
"""

from __future__ import annotations

from fractions import Fraction
from math import comb
from typing import Iterable, Sequence

from rumino.errors import RuminoError


class OddsArgumentError(RuminoError, ValueError):
    """Arguments that describe no possible drawing situation (exit code 2 on the command line)."""


def _check_int(name: str, value, low: int = 0) -> int:
    if isinstance(value, bool) or not isinstance(value, int) or value < low:
        raise OddsArgumentError(f"{name} is {value!r}: it must be an integer of at least {low}.")
    return value


MAX_UNSEEN = 10_000  # the family's largest pack has 110 cards; exact binomials of astronomic packs never finish


def _check_basic(outs: int, unseen: int, draws: int | None = None) -> None:
    _check_int("unseen", unseen)
    if unseen > MAX_UNSEEN:
        raise OddsArgumentError(f"unseen is {unseen}: at most {MAX_UNSEEN:,} cards (the largest pack of the family "
                                f"has 110).")
    _check_int("outs", outs)
    if outs > unseen:
        raise OddsArgumentError(f"outs is {outs} but only {unseen} cards are unseen: the outs are among the unseen cards.")
    if draws is not None:
        _check_int("draws", draws)
        if draws > unseen:
            raise OddsArgumentError(f"draws is {draws} but only {unseen} cards are unseen: a player cannot draw more.")


def p_at_least_one(outs: int, unseen: int, draws: int) -> Fraction:
    """P(at least one of ``outs`` cards among ``draws`` cards drawn from ``unseen``), exactly.

    >>> p_at_least_one(outs=2, unseen=4, draws=2)   # 1 − C(2,2)/C(4,2) = 5/6
    Fraction(5, 6)
    >>> p_at_least_one(outs=3, unseen=2, draws=1)
    Traceback (most recent call last):
    ...
    rumino.odds.draws.OddsArgumentError: outs is 3 but only 2 cards are unseen: the outs are among the unseen cards.
    """
    _check_basic(outs, unseen, draws)
    return 1 - Fraction(comb(unseen - outs, draws), comb(unseen, draws))


def first_out_distribution(outs: int, unseen: int) -> list[Fraction]:
    """``P(T = t)`` for ``t = 1 … U−k+1``, where ``T`` is the draw that brings the first out.

    The list starts at ``t = 1`` (index 0) and sums to 1 when ``outs ≥ 1``.

    >>> first_out_distribution(outs=1, unseen=3)   # the one out is equally likely 1st, 2nd or 3rd
    [Fraction(1, 3), Fraction(1, 3), Fraction(1, 3)]
    """
    _check_basic(outs, unseen)
    if outs == 0:
        raise OddsArgumentError("outs is 0: with no outs the first out never comes, so T has no distribution.")
    out = []
    for t in range(1, unseen - outs + 2):
        # the first t−1 draws miss, then draw t hits one of the k outs among the U−t+1 left
        miss = Fraction(comb(unseen - outs, t - 1), comb(unseen, t - 1))
        out.append(miss * Fraction(outs, unseen - t + 1))
    return out


def expected_draws_to_first_out(outs: int, unseen: int) -> Fraction:
    """``E[T] = (U+1)/(k+1)``: the k outs cut the U−k blanks into k+1 equal-on-average gaps.

    >>> expected_draws_to_first_out(outs=1, unseen=3)
    Fraction(2, 1)
    """
    _check_basic(outs, unseen)
    if outs == 0:
        raise OddsArgumentError("outs is 0: with no outs the first out never comes, so E[T] is infinite.")
    return Fraction(unseen + 1, outs + 1)


# --------------------------------------------------------------------------- several cards needed, with jokers


Need = tuple[int, int]  # (unseen copies of the kind, copies still needed)


def _check_needs(needs: Iterable[Sequence[int]], unseen: int, jokers: int) -> list[Need]:
    out = []
    for i, item in enumerate(needs):
        try:
            a, n = item
        except (TypeError, ValueError):
            raise OddsArgumentError(f"needs[{i}] is {item!r}: each need is a pair (unseen copies, copies needed).") from None
        _check_int(f"needs[{i}] unseen copies", a)
        _check_int(f"needs[{i}] copies needed", n)
        out.append((a, n))
    _check_int("jokers", jokers)
    special = sum(a for a, _ in out) + jokers
    if special > unseen:
        raise OddsArgumentError(f"the needed kinds and jokers hold {special} unseen cards but only {unseen} are unseen.")
    return out


def _shortfall_table(needs: Sequence[Need]) -> dict[tuple[int, int], int]:
    """Ways to draw ``x`` special cards leaving shortfall ``s``: {(x, s): ways} (the DP over kinds)."""
    table = {(0, 0): 1}
    for a, n in needs:
        nxt: dict[tuple[int, int], int] = {}
        for (x, s), ways in table.items():
            for k in range(a + 1):  # copies of this kind among the drawn cards
                key = (x + k, s + max(0, n - k))
                nxt[key] = nxt.get(key, 0) + ways * comb(a, k)
        table = nxt
    return table


def complete_counts(needs: Iterable[Sequence[int]], unseen: int, draws: int, jokers: int = 0,
                    jokers_held: int = 0) -> tuple[int, int]:
    """``(successful draw sets, all draw sets)``: the integer count behind :func:`p_complete`.

    >>> complete_counts([(1, 1), (1, 1)], unseen=4, draws=2)   # both specific cards in 2 draws of 4
    (1, 6)
    """
    needs = _check_needs(needs, unseen, jokers)
    _check_int("draws", draws)
    _check_int("jokers_held", jokers_held)
    if draws > unseen:
        raise OddsArgumentError(f"draws is {draws} but only {unseen} cards are unseen: a player cannot draw more.")
    blanks = unseen - sum(a for a, _ in needs) - jokers
    good = 0
    for (x, s), ways in _shortfall_table(needs).items():
        for y in range(max(0, s - jokers_held), jokers + 1):  # jokers held and drawn cover the shortfall
            rest = draws - x - y
            if rest >= 0:
                good += ways * comb(jokers, y) * comb(blanks, rest)
    return good, comb(unseen, draws)


def p_complete(needs: Iterable[Sequence[int]], unseen: int, draws: int, jokers: int = 0, removed: int = 0,
               *, jokers_held: int = 0) -> Fraction:
    """P(the drawn cards hold every needed copy, jokers filling any gaps), exactly.

    ``needs`` lists ``(unseen copies, copies needed)`` per kind; ``jokers`` unseen
    jokers each stand for any one missing copy. ``removed`` cards leave the
    unseen pool at random (opponents' draws) before the player's ``draws``; the
    sum over what they were is exact and equals the ``removed=0`` answer (see the
    module docstring).

    >>> p_complete([(2, 1)], unseen=10, draws=3) == p_at_least_one(2, 10, 3)
    True
    >>> p_complete([(1, 1), (1, 1)], unseen=5, draws=2, jokers=1)   # 2 cards, or one of them and the joker
    Fraction(3, 10)
    """
    needs = _check_needs(needs, unseen, jokers)
    _check_int("removed", removed)
    _check_int("draws", draws)
    if draws + removed > unseen:
        raise OddsArgumentError(f"draws ({draws}) plus removed cards ({removed}) exceed the {unseen} unseen cards.")
    if removed == 0:
        good, total = complete_counts(needs, unseen, draws, jokers, jokers_held)
        return Fraction(good, total)
    return _p_complete_with_removals(needs, unseen, draws, jokers, removed, jokers_held)


def _p_complete_with_removals(needs: Sequence[Need], unseen: int, draws: int, jokers: int, removed: int,
                              jokers_held: int) -> Fraction:
    # Condition on how many copies of each kind (and jokers, and blanks) the removals took:
    # a second, independent route to the same number.
    blanks = unseen - sum(a for a, _ in needs) - jokers
    cats = list(needs) + [(jokers, None), (blanks, None)]
    # DP over categories: state (removed so far, drawn so far, shortfall, jokers drawn) -> ways
    table = {(0, 0, 0, 0): 1}
    for idx, (a, n) in enumerate(cats):
        is_joker = idx == len(needs)
        nxt: dict[tuple[int, int, int, int], int] = {}
        for (r, x, s, y), ways in table.items():
            for rk in range(min(a, removed - r) + 1):
                wr = comb(a, rk)
                for k in range(min(a - rk, draws - x) + 1):
                    w = ways * wr * comb(a - rk, k)
                    if n is not None:
                        key = (r + rk, x + k, s + max(0, n - k), y)
                    elif is_joker:
                        key = (r + rk, x + k, s, y + k)
                    else:
                        key = (r + rk, x + k, s, y)
                    nxt[key] = nxt.get(key, 0) + w
        table = nxt
    good = sum(w for (r, x, s, y), w in table.items() if r == removed and x == draws and y + jokers_held >= s)
    return Fraction(good, comb(unseen, removed) * comb(unseen - removed, draws))


def completion_curve(needs: Iterable[Sequence[int]], unseen: int, max_draws: int, jokers: int = 0) -> list[Fraction]:
    """``P(complete within N draws)`` for ``N = 0 … max_draws`` (non-decreasing in N).

    >>> completion_curve([(1, 1)], unseen=4, max_draws=4)
    [Fraction(0, 1), Fraction(1, 4), Fraction(1, 2), Fraction(3, 4), Fraction(1, 1)]
    """
    needs = _check_needs(needs, unseen, jokers)
    _check_int("max_draws", max_draws)
    if max_draws > unseen:
        raise OddsArgumentError(f"max_draws is {max_draws} but only {unseen} cards are unseen.")
    return [p_complete(needs, unseen, n, jokers) for n in range(max_draws + 1)]


def expected_draws_to_complete(needs: Iterable[Sequence[int]], unseen: int, jokers: int = 0) -> Fraction:
    """``E[draws until complete] = Σ_{N≥0} P(not complete after N draws)``, exactly.

    Needs must be satisfiable from the unseen cards (else the wait is infinite).

    >>> expected_draws_to_complete([(1, 1)], unseen=3) == expected_draws_to_first_out(1, 3)
    True
    """
    needs = _check_needs(needs, unseen, jokers)
    short = sum(max(0, n - a) for a, n in needs)
    if short > jokers:
        raise OddsArgumentError("the needed copies are not all among the unseen cards (even with the jokers): "
                                "the target can never be completed.")
    curve = completion_curve(needs, unseen, unseen, jokers)
    return sum((1 - p for p in curve), Fraction(0))
