"""The coach's simulations agree with exact values and with a direct replay of their policy."""

from __future__ import annotations

import numpy as np
import pytest

from rumino.hand.arrange import after_draw, min_deadwood
from rumino.cards import RUMINO_PACK, parse_hand, to_counts
from rumino.odds import p_at_least_one
from rumino.odds.coach import first_out_estimates, p_knockable_within, urn_first_out
from rumino.odds.draws import OddsArgumentError
from rumino.variants.rumino import RUMINO


@pytest.mark.parametrize("outs,unseen", [(1, 10), (4, 30), (8, 47), (15, 60)])
def test_urn_estimates_agree_with_the_exact_hypergeometric_within_4_se(outs, unseen):
    est = first_out_estimates(outs, unseen, range(1, 8), trials=4000, seed=11)
    for n, e in est.items():
        exact = float(p_at_least_one(outs=outs, unseen=unseen, draws=n))
        assert abs(e.z_score(exact)) < 4, (n, e, exact)


def test_urn_refuses_more_outs_than_cards():
    with pytest.raises(OddsArgumentError, match="outs=5"):
        urn_first_out(5, 3, 10, np.random.default_rng(0))


def test_knockable_matches_a_direct_replay_of_the_policy_with_the_reference_search():
    hand = parse_hand("2c 3c 4c 9d 9h Ks Qd")
    unseen = RUMINO_PACK.counts() - to_counts(hand)
    est = p_knockable_within(hand, unseen, RUMINO, draws=4, trials=60, seed=5)
    # replay the same seeded draws with the slow reference search
    pool = np.repeat(np.arange(53), unseen)
    rng = np.random.default_rng(5)
    hits = 0
    for _ in range(60):
        kept = list(hand)
        for c in rng.choice(pool, size=4, replace=False):
            dv = after_draw(kept + [int(c)], RUMINO.meld_rules)
            kept.append(int(c))
            kept.remove(dv.discards[0])
            if dv.deadwood <= RUMINO.knock_max_deadwood:
                hits += 1
                break
    assert est.n == 60 and round(est.value * 60) == hits
    assert min_deadwood(hand, RUMINO.meld_rules) > 7 and 0 < hits < 60


def test_knockable_is_certain_when_the_hand_may_knock_already():
    hand = parse_hand("2c 3c 4c 9d 9h 9s 7d")
    est = p_knockable_within(hand, RUMINO_PACK.counts() - to_counts(hand), RUMINO, 1, 25, 0)
    assert est.value == 1.0 and est.n == 25
