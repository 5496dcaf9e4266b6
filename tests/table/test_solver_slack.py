"""The compiled programme with jokers as slack (rumino.table.dp_slack) against the other exact routes.

It drops the jokers' places from the state and keeps only how many the melds so far
need and could hold; that rests on an argument about the Rommé family's joker limits
(in its module docstring), so it is checked three ways: against the exhaustive
search of tests/table/test_solver.py written from the rules text, against HiGHS on seeded
mid-sized positions, and against HiGHS on positions from real bot games (big tables,
four to six jokers). Its melds must pass the naive meld check and hold exactly
table + placed, jokers identified.
"""

from __future__ import annotations

import numpy as np
import pytest
from test_solver import RULE_SETS, assert_valid_solution, brute_best, small_instance

from rumino.table import dp_jit as _table_dp_jit, dp_slack as _table_dp_slack, solver
from rumino.cards import JOKER, parse_hand
from rumino.melds import GIN_MELDS, ROBBER_MELDS, ROMME_MELDS, WIENER_MELDS
from rumino.table.solver import arrange_table, random_position, solve_table

SLACK_RULES = ("robber", "few_jokers")  # the rule sets of test_solver.py the slack programme covers


def test_supports_the_romme_family_only():
    """Only rules whose melds take an interval of jokers: at least two naturals, two side by side at most."""
    for name, rules in RULE_SETS.items():
        assert _table_dp_slack.supports(rules) == (name in SLACK_RULES), name
    assert _table_dp_slack.supports(ROMME_MELDS) and _table_dp_slack.supports(WIENER_MELDS)
    assert not _table_dp_slack.supports(GIN_MELDS)
    with pytest.raises(ValueError, match="slack programme does not cover"):
        solve_table(parse_hand("5c 6c 7c"), parse_hand("8c"), RULE_SETS["lenient"], method="slack")


def test_slack_agrees_with_the_exhaustive_search():
    """2,000 seeded small positions, some with two jokers more in the hand: the same optimum as the exhaustive
    search (most value, and most cards for a third of them), zero mismatches."""
    rng = np.random.default_rng(20261130)
    mismatches, placed_some, jokers = [], 0, 0
    for i in range(2000):
        rules = RULE_SETS[SLACK_RULES[i % 2]]
        table, hand = small_instance(rng, rules)
        if i % 4 == 0:
            spare = int(rules.pack.jokers) - table.count(JOKER) - hand.count(JOKER)
            hand = tuple(sorted(hand + (JOKER,) * min(2, spare)))
        want_v, want_n = brute_best(table, hand, rules)
        sol = solve_table(table, hand, rules, check=False, method="slack")
        assert_valid_solution(sol, table, hand, rules)
        got, want = [sol.value], [want_v]
        if i % 3 == 0:
            sol_n = solve_table(table, hand, rules, most_cards=True, check=False, method="slack")
            assert_valid_solution(sol_n, table, hand, rules)
            got.append(sol_n.value)
            want.append(want_n)
        placed_some += want_v > 0
        jokers += JOKER in table + hand
        if got != want:
            mismatches.append((table, hand, got, want))
    assert mismatches == []
    assert placed_some > 400 and jokers > 1000


def test_slack_agrees_with_the_integer_programme_on_mid_sized_tables():
    """200 seeded positions (tables of 12–30 cards, hands of 2–10, jokers in 40% of the melds)."""
    rng = np.random.default_rng(20261202)
    mismatches, with_jokers = [], 0
    for i in range(200):
        rules = RULE_SETS[SLACK_RULES[i % 2]]
        table, hand = random_position(rng, rules, int(rng.integers(12, 31)), int(rng.integers(2, 11)),
                                      joker_rate=0.4, max_run=6)
        most_cards = i % 5 == 0
        a = solve_table(table, hand, rules, check=False, method="slack", most_cards=most_cards)
        b = solve_table(table, hand, rules, check=False, method="milp", most_cards=most_cards)
        assert_valid_solution(a, table, hand, rules)
        with_jokers += JOKER in table
        if a.value != b.value:
            mismatches.append((table, hand, a.value, b.value))
    assert mismatches == []
    assert with_jokers > 150


def test_hybrid_route_agrees_on_positions_from_real_bot_games():
    """Every position a greedy bot met in two seeded 4-player Robber games, solved by the hybrid route (the
    slack programme, HiGHS past its cap) and by HiGHS alone: the same optimum each time."""
    from rumino.variants.robber.bots import solver_positions

    seen = solver_positions(2, 2026, 4)
    assert len(seen) > 20 and max(len(t) for t, _ in seen) >= 40
    assert max(t.count(JOKER) for t, _ in seen) >= 4
    for table, hand in seen:
        a = solve_table(table, hand, ROBBER_MELDS, check=False, method="hybrid")
        b = solve_table(table, hand, ROBBER_MELDS, check=False, method="milp")
        assert_valid_solution(a, table, hand, ROBBER_MELDS)
        assert a.value == b.value, (table, hand)


@pytest.mark.parametrize("cards, reading", [
    # two jokers beyond what the naturals need go to the run's upper end ...
    ("5d 6d 7d JK JK", ["5d 6d 7d JK(8d) JK(9d)"]),
    # ... or below it when the run already reaches the ace after the king
    ("Qh Kh Ah JK", ["JK(Jh) Qh Kh Ah"]),
    # a gap of two needs two jokers side by side (a run of four: allowed)
    ("9c JK JK Qc", ["9c JK(10c) JK(Jc) Qc"]),
    # twelve naturals and a joker: the joker is an ace, low or high
    ("2s 3s 4s 5s 6s 7s 8s 9s 10s Js Qs Ks JK", None),
])
def test_jokers_are_laid_where_the_rules_allow(cards, reading):
    melds = arrange_table(parse_hand(cards), ROBBER_MELDS, method="slack")
    assert melds is not None
    assert_valid_solution(solver.TableSolution((), 0, melds, ()), parse_hand(cards), (), ROBBER_MELDS)
    if reading is not None:
        assert [str(m) for m in melds] == reading


@pytest.mark.parametrize("cards", [
    "9c JK JK JK Kc",  # a gap of three: three jokers side by side
    "5d JK JK",  # one natural
    "Ks Ah 2s JK",  # no run around the corner
])
def test_what_the_rules_forbid_has_no_arrangement(cards):
    assert arrange_table(parse_hand(cards), ROBBER_MELDS, method="slack") is None
    assert arrange_table(parse_hand(cards), ROBBER_MELDS, method="milp") is None


def test_a_capped_slack_search_gives_way_to_the_integer_programme(monkeypatch):
    """With a cap of one state (and no beam pass, nor a second try with one) the hybrid route must hand
    every position with jokers to HiGHS: same answers."""
    rng = np.random.default_rng(11)
    calls = []
    real = solver._milp
    monkeypatch.setattr(solver, "_milp", lambda *a, **k: calls.append(1) or real(*a, **k))
    monkeypatch.setattr(solver, "JOKER_CAP", 1)
    monkeypatch.setattr(_table_dp_slack, "BEAM", 0)  # no beam pass that could reach the optimum alone
    monkeypatch.setattr(solver, "RETRY_BEAM", 0)
    for _ in range(5):
        table, hand = random_position(rng, ROBBER_MELDS, 30, 8, joker_rate=0.5)
        before = len(calls)
        a = solve_table(table, hand, ROBBER_MELDS, check=False, method="hybrid")
        assert len(calls) == before + 1  # handed over
        assert a.value == solve_table(table, hand, ROBBER_MELDS, check=False, method="milp").value


def test_past_the_cap_a_second_try_with_a_beam_answers_exactly_without_highs(monkeypatch):
    """A joker-dense position (seed 7) whose exact pass alone outgrows the cap: the second try, with the beam
    pass's answer as its lower bound, stays under it and gives the integer programme's optimum."""
    table, hand = random_position(np.random.default_rng(7), ROBBER_MELDS, 30, 10)
    t, h = solver._counts(table), solver._placeable(solver._counts(table), solver._counts(hand), ROBBER_MELDS)
    w = solver.card_weights(ROBBER_MELDS)
    with pytest.raises(_table_dp_jit.GaveUp):  # the first try gives up
        solver._dp(t, h, ROBBER_MELDS, w, compiled="slack", cap=solver.JOKER_CAP, beam=0)
    best = solve_table(table, hand, ROBBER_MELDS, check=False, method="milp")
    monkeypatch.setattr(solver, "_milp", lambda *a, **k: pytest.fail("handed to HiGHS"))
    a = solve_table(table, hand, ROBBER_MELDS, check=False, method="hybrid")
    assert a.value == best.value == 113


def test_a_highs_solve_error_is_retried_with_the_other_presolve_setting(monkeypatch):
    """The Robber soak (seed 714) met a position where HiGHS 1.x with presolve stops with "Solve error"
    (status 4): the integer programme retries with presolve off, and agrees with the slack programme."""
    table = parse_hand("As 4s 4s 5s 6s Js Ac Ac Jc Ad 4d Jd Ah 4h Jh JK")
    hand = parse_hand("Qs 9c 3d 6d 7d Qd 5h 9h")
    assert solve_table(table, hand, ROBBER_MELDS, check=False, method="milp").value == 0
    assert solve_table(table, hand, ROBBER_MELDS, check=False, method="slack").value == 0
    # the retry itself, whatever the HiGHS version does with that position
    import scipy.optimize

    real, seen = scipy.optimize.milp, []

    def flaky(*a, **k):
        seen.append(k["options"]["presolve"])
        res = real(*a, **k)
        if len(seen) == 1:
            res.status, res.x = 4, None  # as HiGHS reports a solve error
        return res

    monkeypatch.setattr(scipy.optimize, "milp", flaky)
    t5, h5 = parse_hand("5c 6c 7c 8c 9c"), parse_hand("7c Kd")
    assert solve_table(t5, h5, ROBBER_MELDS, check=False, method="milp").value == 7
    assert seen == [True, False]


def test_an_ace_wanted_low_and_high_is_refused_by_the_relaxation(monkeypatch):
    """The first pass counts the low and the high ace apart, so it may use one ace twice: ``Qh Kh Ah`` with
    ``2h 3h`` in hand would lay both A-2-3 and Q-K-A. That answer is refused (hearts overused) and hearts
    are carried exactly: nothing can be placed, as HiGHS and the exact carry say."""
    table, hand = parse_hand("Qh Kh Ah"), parse_hand("2h 3h")
    wrong = []
    real = _table_dp_slack._aces_wrong
    monkeypatch.setattr(_table_dp_slack, "_aces_wrong", lambda *a: wrong.append(real(*a)) or wrong[-1])
    assert solve_table(table, hand, ROBBER_MELDS, method="slack").value == 0
    assert wrong == [1 << 3, 0]  # hearts (suit 3) overused, then carried exactly: an answer that holds
    assert solve_table(table, hand, ROBBER_MELDS, method="milp").value == 0
    # with a second ace of hearts both runs are laid
    both = solve_table(table, hand + parse_hand("Ah"), ROBBER_MELDS, method="slack")
    assert both.value == 2 + 3 + 11 and sorted(str(m) for m in both.melds) == ["Ah 2h 3h", "Qh Kh Ah"]


def test_the_ace_relaxation_agrees_with_the_exact_carry(monkeypatch):
    """On every position a greedy bot met in two seeded Robber games and on 150 seeded mid-sized positions:
    the relaxed passes (aces low and high counted apart, suits carried exactly where overused) and the exact
    carry from the start find the same optimum; both outcomes of a relaxed pass are met."""
    from rumino.variants.robber.bots import solver_positions

    rng = np.random.default_rng(20261130)
    positions = solver_positions(2, 2026, 4) + [
        random_position(rng, ROBBER_MELDS, int(rng.integers(12, 31)), int(rng.integers(2, 11)), joker_rate=0.4)
        for _ in range(150)]
    outcomes = []
    real = _table_dp_slack._aces_wrong
    monkeypatch.setattr(_table_dp_slack, "_aces_wrong", lambda *a: outcomes.append(real(*a)) or outcomes[-1])
    w = solver.card_weights(ROBBER_MELDS)
    compared = 0
    for table, hand in positions:
        t, h = solver._counts(table), solver._counts(hand)
        args = (t[:52], h[:52], int(t[JOKER]), int(h[JOKER]), w[:52], int(w[JOKER]), ROBBER_MELDS)
        try:  # (a few dense tables with many jokers are HiGHS's: past 50,000 states either pass gives up)
            relaxed = _table_dp_slack.solve_slack(*args, relax=True, cap=50_000)
            exact = _table_dp_slack.solve_slack(*args, relax=False, cap=50_000)
        except _table_dp_slack.GaveUp:
            continue
        assert (relaxed and relaxed[0]) == (exact and exact[0]), (table, hand)
        compared += 1
    assert compared > 160
    assert outcomes.count(0) > 50 and sum(1 for o in outcomes if o) > 5
