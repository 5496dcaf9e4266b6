"""Ratings from hands played: Bradley–Terry heads-up, Plackett–Luce at the table, as Elo points.

Both models give each player a strength ``θ`` (a natural logarithm). Heads-up,
Bradley–Terry says player ``i`` wins a hand against ``j`` with probability
``1 / (1 + exp(θj − θi))``: a logistic model of the difference. At the table,
Plackett–Luce says the hand's winner is ``i`` with probability proportional to
``exp(θi)``, the second is then chosen the same way from the others, and so on.
An Elo point is ``ln(10) / 400`` of ``θ``: 400 Elo points mean odds of 10 to 1.

The fits maximise each model's likelihood written on counts (who beat whom how
often), with the weak prior ``ALPHA`` that `choix <https://github.com/lucasmaystre/choix>`_
(the maintained library of these models) uses, so that a player who won every hand
still gets a finite rating; ``tests/tournament`` checks them against choix's fits.

>>> theta = bradley_terry(2, [(0, 1, 1.0)] * 30 + [(0, 1, 0.0)] * 10)
>>> round(elo(theta[0] - theta[1]))    # won 3 of 4: odds 3 to 1
191
"""

from __future__ import annotations

import math
from typing import Sequence

import numpy as np

ALPHA = 1e-3  # choix's L2 prior on θ: negligible beside hundreds of hands, finite for a perfect score
ELO_PER_THETA = 400 / math.log(10)


def elo(theta: float | np.ndarray) -> float | np.ndarray:
    """Elo points of a strength (or a difference of strengths) ``θ``.

    >>> round(elo(math.log(10)))
    400
    """
    return theta * ELO_PER_THETA


def win_chance(theta_i: float, theta_j: float) -> float:
    """Bradley–Terry's chance that ``i`` beats ``j`` in one hand.

    >>> win_chance(math.log(3), 0.0)
    0.75
    """
    return 1.0 / (1.0 + math.exp(theta_j - theta_i))


def _fit(n_players: int, neg_loglik, alpha: float) -> np.ndarray:
    """Minimise a convex negative log-likelihood of θ plus choix's prior ``alpha/2 · |θ|²`` by
    Newton's method (a handful of players: the Hessian is tiny); returns θ with mean 0.

    ``neg_loglik(θ)`` returns the value, the gradient and the Hessian.
    """
    theta = np.zeros(n_players)
    eye = np.eye(n_players)
    for _ in range(200):
        value, grad, hess = neg_loglik(theta)
        grad, hess = grad + alpha * theta, hess + alpha * eye
        step = np.linalg.solve(hess, grad)
        # halve the step until the objective falls (Newton can overshoot far from the optimum)
        f0, t = value + 0.5 * alpha * theta @ theta, 1.0
        while t > 1e-8:
            cand = theta - t * step
            if neg_loglik(cand)[0] + 0.5 * alpha * cand @ cand <= f0:
                break
            t /= 2
        theta = cand
        if np.max(np.abs(t * step)) < 1e-10:
            break
    return theta - theta.mean()


def wins_matrix(n_players: int, results: Sequence[tuple[int, int, float]]) -> np.ndarray:
    """``W[i, j]``: the hands ``i`` won against ``j`` (a tie counts half to each) from hands
    ``(i, j, score of i)``.

    >>> wins_matrix(2, [(0, 1, 1.0), (0, 1, 0.5)]).tolist()
    [[0.0, 1.5], [0.5, 0.0]]
    """
    w = np.zeros((n_players, n_players))
    for i, j, score in results:
        if score not in (0, 0.5, 1):
            raise ValueError(f"a hand's score is {score!r}: it must be 1 (won), 0.5 (tied) or 0 (lost).")
        w[i, j] += score
        w[j, i] += 1 - score
    return w


def bradley_terry(n_players: int, results: Sequence[tuple[int, int, float]] | np.ndarray, *,
                  alpha: float = ALPHA) -> np.ndarray:
    """Strengths ``θ`` (mean 0) of ``n_players`` from heads-up hands ``(i, j, score of i)``, or
    from a wins matrix (:func:`wins_matrix`).

    The likelihood is written on the counts, so a bootstrap resample costs a few milliseconds
    (choix takes one entry per hand: about a second a fit for a few hundred hands, too slow
    for hundreds of resamples; ``tests/tournament`` checks both fits agree).

    >>> np.round(bradley_terry(3, [(0, 1, 1.0), (1, 0, 1.0), (1, 2, 0.5)]), 6).tolist()
    [0.0, 0.0, 0.0]
    """
    w = results if isinstance(results, np.ndarray) else wins_matrix(n_players, results)
    games = w + w.T

    def neg_loglik(theta):
        # P(i beats j) = σ(θi − θj); d/dθi of Σ W_ij log σ(θi − θj) = Σ_j W_ij − n_ij σ(θi − θj)
        diff = theta[:, None] - theta[None, :]
        p = 1.0 / (1.0 + np.exp(-diff))
        ll = float((w * np.log(np.where(games > 0, p, 1.0))).sum())
        grad = (w - games * p).sum(axis=1)
        c = games * p * (1 - p)  # the information each pair carries
        hess = np.diag(c.sum(axis=1)) - c
        return -ll, -grad, hess

    return _fit(n_players, neg_loglik, alpha)


def ranking_choices(ranking: Sequence[Sequence[int]]) -> list[tuple[int, list[int]]]:
    """A hand's ranking (groups of tied seats, best first) as Plackett–Luce's successive choices:
    the winner chosen from all, the second from the rest, …, up to the first tie (which says
    nothing about who would have been chosen).

    >>> ranking_choices([[2], [0], [1, 3]])
    [(2, [0, 1, 3]), (0, [1, 3])]
    >>> ranking_choices([[0, 1], [2]])
    []
    """
    out = []
    rest = [s for group in ranking for s in group]
    for group in ranking:
        if len(group) != 1 or len(rest) < 2:
            break
        winner = group[0]
        rest = [s for s in rest if s != winner]
        out.append((winner, list(rest)))
    return out


def plackett_luce(n_players: int, choices: Sequence[tuple[int, Sequence[int]]] | dict, *,
                  alpha: float = ALPHA) -> np.ndarray:
    """Strengths ``θ`` (mean 0) from choices ``(chosen, [the others it was chosen from])``, or from
    a dict ``{(chosen, (others…)): count}``.

    >>> theta = plackett_luce(3, [(0, [1, 2])] * 2 + [(1, [0, 2])])
    >>> bool(theta[0] > theta[1] > theta[2])
    True
    """
    if isinstance(choices, dict):
        counts = choices
    else:
        counts = {}
        for w, others in choices:
            key = (int(w), tuple(sorted(int(x) for x in others)))
            counts[key] = counts.get(key, 0) + 1
    rows = [(w, (w,) + others, c) for (w, others), c in counts.items()]

    def neg_loglik(theta):
        ll, grad, hess = 0.0, np.zeros(n_players), np.zeros((n_players, n_players))
        for w, among, c in rows:
            idx = np.array(among)
            z = theta[idx]
            top = z.max()
            e = np.exp(z - top)
            q = e / e.sum()  # the chance each of ``among`` is chosen
            ll += c * (theta[w] - top - math.log(e.sum()))
            grad[w] += c
            grad[idx] -= c * q
            hess[np.ix_(idx, idx)] += c * (np.diag(q) - np.outer(q, q))
        return -ll, -grad, hess

    return _fit(n_players, neg_loglik, alpha)


def games_for_match(p: float, target: float = 0.95, limit: int = 100_001) -> int | None:
    """The fewest hands (an odd number) a match needs for a player who wins each decisive hand
    with chance ``p`` to win the match (most hands) with chance ``target``; None if ``p`` ≤ ½ or
    more than ``limit`` are needed.

    >>> games_for_match(0.75), games_for_match(0.5)
    (9, None)
    """
    if not p > 0.5:
        return None
    from scipy.stats import binom

    n = 1
    while n <= limit:
        if binom.sf(n // 2, n, p) >= target:  # P(wins > n/2)
            return n
        n += 2
    return None


__all__ = ["ALPHA", "ELO_PER_THETA", "bradley_terry", "elo", "games_for_match", "plackett_luce",
           "ranking_choices", "win_chance"]
