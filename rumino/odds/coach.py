"""Seeded simulations behind the coach panels: drawing to outs from an urn, and
P(knockable within N draws) under a stated policy.

These used to live in the widgets; the engine owns every number (the widgets
only display them).

>>> est = first_out_estimates(outs=8, unseen=47, draws=[1, 2], trials=2000, seed=1)
>>> sorted(est), est[2].lo <= 340 / 1081 <= est[2].hi   # the exact value, p_at_least_one(8, 47, 2)
([1, 2], True)
"""

from __future__ import annotations

from typing import Any, Iterable, Sequence

import numpy as np

from rumino.cards import JOKER, N_KINDS
from rumino.odds.draws import OddsArgumentError
from rumino.odds.montecarlo import OddsEstimate, proportion
from rumino.engine.evaluator import evaluator_for


def urn_first_out(outs: int, unseen: int, trials: int, rng: np.random.Generator) -> np.ndarray:
    """Draw number (1-based) of the first out when all ``unseen`` cards come in a random order.

    ``unseen + 1`` when there is no out. One random permutation per trial: the
    outs are urn positions 0…k−1, so the first out comes at the smallest place
    any of them takes.

    >>> urn_first_out(0, 5, 3, np.random.default_rng(0)).tolist()
    [6, 6, 6]
    """
    if not 0 <= outs <= unseen:
        raise OddsArgumentError(f"outs={outs} must be between 0 and unseen={unseen}.")
    if outs == 0:
        return np.full(trials, unseen + 1)
    order = np.argsort(rng.random((trials, unseen)), axis=1)  # order[i, j] = the urn card drawn j-th
    return (order < outs).argmax(axis=1) + 1


def first_out_estimates(outs: int, unseen: int, draws: Iterable[int], trials: int, seed: int
                        ) -> dict[int, OddsEstimate]:
    """Simulated P(at least one of ``outs`` within N draws) for each N in ``draws`` (one seeded run).

    The exact counterpart is :func:`rumino.odds.p_at_least_one`.
    """
    first = urn_first_out(outs, unseen, trials, np.random.default_rng(seed))
    return {int(n): proportion(int((first <= n).sum()), trials, seed) for n in draws}


def p_knockable_within(hand: Sequence[int], unseen: Sequence[int], rules: Any, draws: int, trials: int, seed: int
                       ) -> OddsEstimate:
    """Seeded Monte Carlo: P(the deadwood reaches the knock limit within ``draws`` stock draws).

    Policy: draw from the stock (cards taken uniformly from the ``unseen`` count
    vector, without replacement), then discard a card that minimises the
    deadwood kept (the engine's ``after_draw``); stop at the first hand with
    deadwood ≤ ``rules.knock_max_deadwood``. Opponents are not modelled: their
    draws remove cards at random, which does not change the law of your draws.

    >>> from rumino.cards import parse_hand, RUMINO_PACK, to_counts
    >>> from rumino.variants.rumino import RUMINO
    >>> hand = parse_hand("2c 3c 4c 9d 9h 9s 7d")
    >>> p_knockable_within(hand, RUMINO_PACK.counts() - to_counts(hand), RUMINO, 3, 10, 0).value
    1.0
    """

    unseen = np.asarray(unseen, dtype=np.int64)
    if unseen.shape != (N_KINDS,) or (unseen < 0).any():
        raise OddsArgumentError("unseen must be a count vector of 53 non-negative entries.")
    ev = evaluator_for(rules)  # the engine's shared evaluator of these rules (any knock game's)
    limit = rules.knock_max_deadwood
    if ev.deadwood(list(hand)) <= limit:
        return proportion(trials, trials, seed)
    pool = np.repeat(np.arange(N_KINDS), unseen)
    rng = np.random.default_rng(seed)
    hits = 0
    for _ in range(trials):
        kept = list(hand)
        for c in rng.choice(pool, size=min(draws, len(pool)), replace=False):
            value, best = ev.after_draw(kept + [int(c)])
            kept.append(int(c))
            kept.remove(best[0])
            if value <= limit:
                hits += 1
                break
    return proportion(hits, trials, seed)


__all__ = ["urn_first_out", "first_out_estimates", "p_knockable_within", "JOKER"]
