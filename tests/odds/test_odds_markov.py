"""The keep-the-target Markov chain: equal to the hypergeometric DP, and to a direct simulation of the policy."""

from __future__ import annotations

import math
from fractions import Fraction

import pytest

from rumino.cards import parse_hand
from rumino.odds.draws import OddsArgumentError, p_complete
from rumino.odds.markov import DONE, KeepTargetChain, best_target, rumino_targets, simulate_keep_target
from rumino.variants.rumino import is_rumino

HANDS = [
    "4h 5h 6h 7h 8h Kc 2d",  # two short of a straight flush
    "5h 5h 5s 5s 5d 9c Kd",  # two short of seven fives
    "JK 4s 6s 7s Qd Qc 2h",  # a joker already held
    "JK JK 9c 10c Jc 3d 3h",
    "As 2s 3s 4s 5s 6s Kd",  # one short
]


@pytest.mark.parametrize("text", HANDS)
def test_chain_equals_the_hypergeometric_dp_exactly(text):
    chain = KeepTargetChain.for_hand(parse_hand(text))
    t = chain.target
    probs = chain.hit_probabilities(25)
    assert probs == [t.p_hit(n) for n in range(26)]
    assert probs == [p_complete(t.needs, t.unseen, n, t.jokers_unseen, jokers_held=t.jokers_held) for n in range(26)]
    assert all(a <= b for a, b in zip(probs, probs[1:]))


def test_transition_matrices_are_stochastic_upper_triangular_and_done_absorbs():
    chain = KeepTargetChain.for_hand(parse_hand("JK 4s 6s 7s Qd Qc 2h"))
    states = chain.states(6)
    assert states[-1] == DONE
    for t in range(6):
        _, P = chain.transition_matrix(t, states)
        for i, row in enumerate(P):
            assert sum(row) == 1
            assert all(x == 0 for x in row[:i]), "a draw never increases the shortfall"
        assert P[-1][-1] == 1


def test_chain_start_state_and_expected_draws_for_one_out():
    chain = KeepTargetChain(needs=[(2, 1)], unseen=10)
    assert chain.expected_draws() == Fraction(11, 3)  # (U+1)/(k+1)
    assert KeepTargetChain(needs=[(2, 1)], unseen=10, jokers_held=1).start == DONE


def test_targets_count_unseen_copies_and_seen_cards():
    hand = parse_hand("4h 5h 6h 7h 8h Kc 2d")
    t = best_target(hand)
    assert t.describe() in {"straight flush 2h–8h", "straight flush 3h–9h", "straight flush 4h–10h"}
    assert t.shortfall == 2 and t.unseen == 101 and t.jokers_unseen == 4
    seen = parse_hand("9h 9h 3h")  # both 9h gone and one 3h: only 2–8 keeps two live kinds... with fewer copies
    t2 = best_target(hand, seen=seen)
    assert t2.unseen == 98
    assert all(a <= 2 for a, _ in t2.needs)
    sevens = [x for x in rumino_targets(parse_hand("5h 5h 5s 5s 5d 9c Kd")) if x.kind == "seven of a kind"]
    fives = next(x for x in sevens if x.low_rank == 4)
    assert fives.needs == ((3, 2),) and fives.shortfall == 2


def test_a_made_rumino_is_hit_at_zero_draws():
    chain = KeepTargetChain.for_hand(parse_hand("3h 4h 5h 6h 7h 8h 9h"))
    assert chain.hit_probabilities(0) == [1]


@pytest.mark.parametrize("text,draws", [("4h 5h 6h 7h 8h Kc 2d", 25), ("JK 4s 6s 7s Qd Qc 2h", 30),
                                        ("5h 5h 5s 5s 5d 9c Kd", 30)])
def test_chain_agrees_with_a_direct_simulation_of_the_policy(text, draws):
    hand = parse_hand(text)
    exact = KeepTargetChain.for_hand(hand).hit_probability(draws)
    hits, n = simulate_keep_target(hand, draws, n=3000, seed=20240611)
    p = float(exact)
    se = math.sqrt(p * (1 - p) / n)
    assert abs(hits / n - p) <= 4 * se, (hits / n, p)


def test_simulated_hits_are_real_ruminos():
    # simulate_keep_target raises if the policy's bookkeeping ever disagrees with is_rumino
    hits, n = simulate_keep_target(parse_hand("JK JK 9c 10c Jc 3d 3h"), 40, n=300, seed=5)
    assert 0 < hits <= n
    assert is_rumino(parse_hand("JK JK 9c 10c Jc Qc Kc"))


def test_bad_chain_arguments():
    with pytest.raises(OddsArgumentError, match="non-negative"):
        KeepTargetChain(needs=[(-1, 1)], unseen=10)
    with pytest.raises(OddsArgumentError, match="draws is 11"):
        KeepTargetChain(needs=[(1, 1)], unseen=10).hit_probabilities(11)


def test_house_rule_targets_distinct_suits_and_natural_only():
    hand = parse_hand("5h 5h 5s 5c JK 9c Kd")
    fives = [t for t in rumino_targets(hand, set_suits="distinct") if t.kind == "seven of a kind" and t.low_rank == 4]
    # distinct suits: 5♦ is missing, and the 3 places beyond four suits only jokers can fill
    assert fives[0].needs == ((2, 1), (0, 3)) and fives[0].shortfall == 3
    natural = rumino_targets(hand, jokers_allowed=False)
    assert all(t.jokers_held == 0 and t.jokers_unseen == 0 for t in natural)
    chain = KeepTargetChain(fives[0].needs, fives[0].unseen, fives[0].jokers_unseen, fives[0].jokers_held)
    # 5h 5s 5c and the joker held: 3 more are needed, so 2 draws never suffice; 3 jokers in 3 draws do
    assert chain.hit_probability(2) == 0 < chain.hit_probability(3)
    assert chain.hit_probability(30) == fives[0].p_hit(30)
