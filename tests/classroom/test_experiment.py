"""The class experiment: exact values checked by other routes, tallies read as a teacher types them,
groups pooled, the running estimate."""

from __future__ import annotations

from fractions import Fraction
from math import comb

import numpy as np
import pytest

from rumino.cards import parse_hand
from rumino.classroom.experiment import (EXPERIMENTS, MAX_TRIALS, ClassTally, Group, TallyError,
                                         count_meldless_hands, interval_width, p_holds_meld, parse_tally, pool,
                                         running)
from rumino.hand.kernels import min_deadwood_batch
from rumino.melds import GIN_MELDS, ROMME_MELDS
from rumino.odds.draws import first_out_distribution
from rumino.odds.enumerate import deal_distribution
from rumino.stats import proportion_estimate, wilson_interval
from rumino.variants import find_variant

RUMINO = find_variant("rumino").rules.meld_rules
KNOCK = find_variant("knock").rules.meld_rules


# ---------------------------------------------------------------------- exact values, other routes


def _melds_by_enumeration(rules, hand_size: int) -> Fraction:
    """The engine's class enumeration, judging each class by its minimum deadwood: a hand holds a meld
    exactly when its minimum deadwood is below the value of all its cards."""
    values = rules.values.astype(np.int64)

    def holds(counts):
        return (min_deadwood_batch(counts, rules) < counts.astype(np.int64) @ values).astype(np.int64)

    d = deal_distribution(rules, hand_size, evaluator=holds)
    return Fraction(d.counts().get(1, 0), d.deals())


@pytest.mark.parametrize("rules", [RUMINO, KNOCK], ids=["rumino", "knock"])
@pytest.mark.parametrize("hand_size", [3, 4, 5])
def test_the_meld_count_agrees_with_the_engine_enumeration(rules, hand_size):
    assert p_holds_meld(rules, hand_size) == _melds_by_enumeration(rules, hand_size)


def test_three_card_hands_by_hand():
    # 3 cards of one deck: a meld is a set (13 ranks × 4 choices of suits) or a run (4 suits × 11 starts)
    assert count_meldless_hands(KNOCK, 3) == {0: comb(52, 3) - 52 - 44}
    # Rumino, no joker: 3 of a rank from its 8 copies, or a run of 3 in a suit with 2 copies of each
    counts = count_meldless_hands(RUMINO, 3)
    assert counts[0] == comb(104, 3) - 13 * comb(8, 3) - 4 * 11 * 2 ** 3
    # one joker: the two naturals may be no pair (C(8, 2) per rank) and no two of a suit at most two
    # ranks apart (12 + 11 rank pairs per suit, 2 × 2 copies); times the 4 jokers
    assert counts[1] == 4 * (comb(104, 2) - 13 * comb(8, 2) - 4 * (12 + 11) * 4)
    # two jokers meld with any card; three jokers alone are no meld (one natural per meld)
    assert counts[2] == 0 and counts[3] == comb(4, 3)


def test_jokers_never_meld_alone_under_one_natural_per_meld():
    from dataclasses import replace

    from rumino.cards import Pack

    rules = replace(RUMINO, pack=Pack(decks=2, jokers=4))
    assert count_meldless_hands(rules, 4)[4] == 1  # the four jokers together: one hand, no natural


def test_rules_the_count_does_not_cover_are_refused():
    with pytest.raises(ValueError, match="deal_distribution"):
        count_meldless_hands(ROMME_MELDS, 7)  # Rommé's ace may be high and its sets need distinct suits


@pytest.mark.parametrize("key, seed", [("rumino_meld", 1), ("knock_meld", 2), ("first_out", 3)])
def test_seven_card_values_against_engine_judged_deals(key, seed):
    """Monte Carlo: n hands dealt from a shuffled pack and judged by the arrangement search; the
    Wilson 95% interval must hold the exact value (this seed and n: it does; a wrong count by a
    tenth of the value would not)."""
    e = EXPERIMENTS[key]
    n = 2000
    hits = sum(t.success for t in e.deal(n, seed))
    est = proportion_estimate(hits, n, seed=seed)
    assert est.contains(e.exact), (key, str(est), float(e.exact))
    assert est.hi - est.lo < 0.05


def test_the_draw_value_is_the_first_out_distribution_summed():
    e = EXPERIMENTS["first_out"]
    assert e.exact == sum(first_out_distribution(outs=8, unseen=52)[:5])
    # and by counting: 1 − (hands of 5 with no 7 or 8) / C(52, 5)
    assert e.exact == 1 - Fraction(comb(44, 5), comb(52, 5))


def test_every_experiment_says_what_to_do():
    for e in EXPERIMENTS.values():
        assert 0 < e.exact < 1 and e.steps and e.materials and e.question.endswith("?")


# ---------------------------------------------------------------------- the engine's verdicts


def test_verdicts_on_known_hands():
    judge = EXPERIMENTS["rumino_meld"].judge
    ok, verdict = judge(parse_hand("5h 5h 5s 9c Jd 2s Kh"))
    assert ok and verdict.startswith("meld ") and verdict.count("5") == 3
    assert judge(parse_hand("Ah 4h 7h Tc 2d 5d 9s")) == (False, "no meld")
    assert judge(parse_hand("JK Ah 4h 7h Tc 2d 9s"))[0] is False  # a joker with no pair or near pair
    assert judge(parse_hand("JK Ah 3h 7h Tc 5d 9s"))[0] is True  # JK fills A-?-3
    first = EXPERIMENTS["first_out"].judge
    assert first(parse_hand("2c 8d 7s 9h Kc")) == (True, "8♦ on card 2")
    assert first(parse_hand("2c 3d 4s 9h Kc")) == (False, "no 7 or 8 in 5 cards")


def test_virtual_deals_are_seeded_and_sized():
    e = EXPERIMENTS["knock_meld"]
    a, b, c = e.deal(20, 4), e.deal(20, 4), e.deal(20, 5)
    assert a == b and a != c
    assert all(len(t.cards) == 7 and len(set(t.cards)) == 7 for t in a)  # one deck: no card twice


# ---------------------------------------------------------------------- tallies as typed


@pytest.mark.parametrize("successes, trials, message", [
    ("", "30", "successes is empty"),
    ("12", "  ", "trials is empty"),
    ("-3", "30", "successes is -3: a count cannot be negative"),
    ("3", "-30", "trials is -30: a count cannot be negative"),
    ("31", "30", "successes is 31 but trials is 30: a group cannot count more successes than trials"),
    ("12.5", "30", "successes is '12.5': not a whole number"),
    ("12", "thirty", "trials is 'thirty': not a whole number"),
    ("0", "0", "trials is 0: a group needs at least 1"),
    ("1", str(MAX_TRIALS + 1), f"trials is {MAX_TRIALS + 1:,}: more than {MAX_TRIALS:,} in one group"),
    (True, "30", "successes is True"),
])
def test_bad_tallies_say_which_field_and_why(successes, trials, message):
    with pytest.raises(TallyError) as info:
        parse_tally(successes, trials)
    text = str(info.value)
    assert text.startswith(message) and "\n" not in text


def test_good_tallies_as_typed():
    assert parse_tally(" 7 ", "30") == Group("", 7, 30)
    assert parse_tally("1,200", "2,000", " B ") == Group("B", 1200, 2000)
    assert parse_tally(0, 5) == Group("", 0, 5) and parse_tally("5", "5").successes == 5


def test_a_bad_tally_changes_nothing():
    t = ClassTally("knock_meld")
    t.add("4", "30")
    before = list(t.groups)
    for bad in [("40", "30"), ("x", "30"), ("", "")]:
        with pytest.raises(TallyError):
            t.add(*bad)
    assert t.groups == before and t.groups[0].name == "group 1"


# ---------------------------------------------------------------------- pooling, the running estimate


def test_pooling_adds_the_groups_then_takes_wilson():
    groups = [Group("A", 10, 30), Group("B", 5, 30), Group("C", 12, 40)]
    e = pool(groups)
    assert (e.successes, e.n) == (27, 100)
    assert (e.lo, e.hi) == wilson_interval(27, 100)
    assert e.value == pytest.approx(0.27)


def test_running_estimate_after_each_group():
    groups = [Group("A", 10, 30), Group("B", 5, 30), Group("C", 12, 40)]
    r = running(groups)
    assert [(x.successes, x.n) for x in r] == [(10, 30), (15, 60), (27, 100)]
    assert r[-1] == pool(groups)


def test_a_virtual_class_narrows_and_contains_the_exact_value():
    t = ClassTally("rumino_meld", seed=2026)
    for _ in range(6):
        t.deal_group(30)
    r = t.running()
    widths = [e.hi - e.lo for e in r]
    assert widths[-1] < widths[0] / 2  # six groups: about 1/√6 of one group's width
    assert [e.n for e in r] == [30 * k for k in range(1, 7)]
    assert t.exact_inside() is (r[-1].lo <= float(t.experiment.exact) <= r[-1].hi)
    # the same seed deals the same class again; reset starts it over
    u = ClassTally("rumino_meld", seed=2026)
    for _ in range(6):
        u.deal_group(30)
    assert u.groups == t.groups
    t.reset()
    assert t.groups == [] and t.exact_inside() is None and "no groups" in t.summary()


def test_expected_width_shrinks_like_one_over_root_n():
    p = EXPERIMENTS["rumino_meld"].exact
    one, six = interval_width(p, 30), interval_width(p, 180)
    assert 2.2 < one / six < 2.6  # √6 ≈ 2.45, Wilson's shrinkage is close to it


def test_summary_names_where_the_exact_value_lies():
    t = ClassTally("first_out")
    t.add("2", "30")  # far below 58%
    assert t.summary().endswith("above the interval") and t.exact_inside() is False
