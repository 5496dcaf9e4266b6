"""Exact deal odds: the whole Rumino deal, dealt gin, 4+3 hands — each checked by an independent route."""

from __future__ import annotations

from fractions import Fraction
from math import comb

import pytest

from rumino.melds import GIN_MELDS, RUMINO_MELDS, MeldRules
from rumino.odds.enumerate import PackShape, class_count, deal_distribution
from rumino.odds.exact import (
    ACE_RULES,
    count_zero_deadwood_dp,
    feasibility_table,
    four_three_counts,
    four_three_rules,
    lay_union_counts,
    meld_masks,
    one_in,
    p_dealt_gin,
    rumino_count_closed_form,
    rumino_deal_distribution,
    show,
    split_pairs,
    zero_deadwood_hands,
)
from rumino.odds.montecarlo import simulate_deals
from rumino.variants import find_variant


@pytest.fixture(scope="module")
def rumino_exact():
    return rumino_deal_distribution()  # cached in-process: the CLI tests reuse it


@pytest.mark.slow
def test_rumino_deal_weights_add_up_to_every_deal(rumino_exact):
    d = rumino_exact
    assert d.classes == class_count(PackShape(copies=2, jokers=4), 7) == 14_945_658
    assert d.deals() == d.total == comb(108, 7)
    for j in range(5):
        assert d.deals(j) == comb(4, j) * comb(104, 7 - j)


@pytest.mark.slow
def test_rumino_hands_by_jokers_match_the_closed_form(rumino_exact):
    assert rumino_exact.rumino == rumino_count_closed_form()


@pytest.mark.slow
def test_rumino_gin_hands_by_jokers_match_the_unions_of_two_lays(rumino_exact):
    unions = lay_union_counts(RUMINO_MELDS, 7)
    assert {j: rumino_exact.counts(j).get(0, 0) for j in range(5)} == unions


@pytest.mark.slow
def test_rumino_exact_figures(rumino_exact):
    """The figures the book quotes (each also checked by simulation and the routes above)."""
    d = rumino_exact
    assert d.p_gin() == Fraction(91129, 129088973)
    assert d.p_rumino() == Fraction(865, 129088973)
    assert d.p_deadwood_at_most(7) == Fraction(34253780, 3485402271)
    assert d.mean() == Fraction(14674501199, 387266919)
    assert one_in(d.p_gin()) == "1 in 1,417"
    # more jokers, better hands: each figure improves with every joker
    gins = [d.p_gin(j) for j in range(5)]
    means = [d.mean(j) for j in range(5)]
    assert gins == sorted(gins) and means == sorted(means, reverse=True)


@pytest.mark.slow
def test_simulated_rumino_deals_agree_with_the_exact_figures(rumino_exact):
    d = rumino_exact
    s = simulate_deals(find_variant("rumino"), n=1_000_000, seed=2024)
    checks = [(s.p_gin(), d.p_gin()), (s.p_rumino(), d.p_rumino()), (s.p_can_knock(), d.p_deadwood_at_most(7)),
              (s.mean_deadwood(), d.mean())]
    for j in range(4):
        checks += [(s.p_gin(j), d.p_gin(j)), (s.p_can_knock(j), d.p_deadwood_at_most(7, j)),
                   (s.mean_deadwood(j), d.mean(j)), (s.p_jokers(j), Fraction(d.deals(j), d.total))]
    for est, exact in checks:
        assert abs(est.z_score(exact)) <= 4, (est, float(exact))


def test_dealt_gin_in_gin_rummy_by_two_independent_counts():
    gin, total = p_dealt_gin(GIN_MELDS, 10)
    assert total == comb(52, 10)
    assert gin == count_zero_deadwood_dp(GIN_MELDS, 10) == 136_694
    assert one_in(Fraction(gin, total)) == "1 in 115,733"


def test_zero_deadwood_counts_agree_for_every_hand_size():
    by_size = count_zero_deadwood_dp(GIN_MELDS, 11, by_size=True)
    for k in range(3, 10):
        assert by_size.get(k, 0) == len(zero_deadwood_hands(GIN_MELDS, k)), k


def test_zero_deadwood_dp_respects_a_run_length_limit():
    rules = MeldRules(pack=GIN_MELDS.pack, max_set=4, max_run=4)
    for k in (6, 7, 8, 9):
        assert count_zero_deadwood_dp(rules, k) == len(zero_deadwood_hands(rules, k))


def test_anchor_meld_counts_of_a_full_deck():
    assert len(meld_masks(GIN_MELDS)) == 329
    assert len(meld_masks(GIN_MELDS, sizes=(3, 4, 5))) == 185


def test_four_three_counts_and_the_published_double_count():
    counts = {c.ace: c for c in four_three_counts()}
    assert counts["both"].pairs == 4_728  # perplexus's "Rummy Luck" figure counts pairs of melds
    assert counts["both"].hands == 4_604 < counts["both"].pairs
    assert counts["low"].hands == counts["high"].hands == count_zero_deadwood_dp(four_three_rules("low"), 7)
    assert counts["low"].hands < counts["both"].hands < counts["around"].hands
    assert all(c.pairs == split_pairs(four_three_rules(c.ace)) for c in counts.values())


@pytest.mark.slow
def test_four_three_counts_by_enumerating_all_seven_card_classes():
    counts = {c.ace: c.hands for c in four_three_counts()}
    for ace in ACE_RULES:
        d = deal_distribution(four_three_rules(ace), 7)
        assert d.classes == 6_009_159
        assert d.counts().get(0, 0) == counts[ace], ace


def test_feasibility_table_states_class_counts():
    rows = {f.name: f for f in feasibility_table()}
    assert rows["Gin 10 of 52"].classes == class_count(PackShape(copies=1), 10) == 671_225_412
    assert rows["Wiener 10 of 106"].classes > 10 ** 9
    assert all(f.classes < f.deals for f in rows.values())


def test_show_prints_fraction_decimal_and_one_in():
    assert show(Fraction(1, 1417)) == "1/1417 = 0.000705716 (1 in 1,417)"


def test_simulation_counterparts_of_dealt_gin_and_four_three_hands():
    import numpy as np

    from rumino.cards import STANDARD_PACK
    from rumino.hand.kernels import min_deadwood_batch
    from rumino.odds.montecarlo import proportion, sample_deals

    gin, total = p_dealt_gin(GIN_MELDS, 10)
    s = simulate_deals(find_variant("gin"), n=1_500_000, seed=99)
    assert abs(s.p_gin().z_score(Fraction(gin, total))) <= 4
    n = 1_000_000
    hands = sample_deals(STANDARD_PACK, 7, n, np.random.default_rng(100))
    for c in four_three_counts(["both", "around"]):
        hits = int((min_deadwood_batch(hands, four_three_rules(c.ace)) == 0).sum())
        assert abs(proportion(hits, n, seed=100).z_score(c.probability)) <= 4, c
