"""The compiled programme (rumino.table.dp_jit, the solver's default route) against the integer programme.

Two exact routes written differently (a rank-by-rank search compiled with numba, and
HiGHS on unsplittable meld columns) must find the same optimum on every seeded
position, with jokers on the table and in the hand; the compiled route's melds must
pass the naive meld check of tests/brute_force.py and hold exactly table + placed.
The exhaustive comparison of tests/table/test_solver.py covers small positions; these
are mid-sized, where the beam pass, the bound and the pruning of the compiled route
are exercised.
"""

from __future__ import annotations

import numpy as np
from test_solver import RULE_SETS, assert_valid_solution

from rumino.table import dp_jit as _table_dp_jit
from rumino.table.dp_store import insert_layer
from rumino.cards import JOKER, parse_hand, to_counts
from rumino.melds import ROBBER_MELDS
from rumino.table.solver import arrange_table, random_position, solve_table

N_POSITIONS = 300


def test_compiled_route_agrees_with_the_integer_programme():
    """N_POSITIONS seeded positions (tables of 9–24 cards, hands of 2–9, jokers in a third of the melds):
    the same optimum value from both routes, zero mismatches, and most positions hold jokers."""
    rng = np.random.default_rng(20261201)
    names = ("robber", "one_per_meld", "lenient", "few_jokers")
    mismatches, with_jokers, placed_some = [], 0, 0
    for i in range(N_POSITIONS):
        rules = RULE_SETS[names[i % len(names)]]
        table, hand = random_position(rng, rules, int(rng.integers(9, 25)), int(rng.integers(2, 10)),
                                      joker_rate=0.35, max_run=5)
        most_cards = i % 5 == 0
        a = solve_table(table, hand, rules, check=False, method="jit", most_cards=most_cards)
        b = solve_table(table, hand, rules, check=False, method="milp", most_cards=most_cards)
        assert_valid_solution(a, table, hand, rules)
        with_jokers += JOKER in table + hand
        placed_some += a.value > 0
        if a.value != b.value:
            mismatches.append((i, table, hand, a.value, b.value))
    assert mismatches == []
    assert with_jokers > N_POSITIONS // 2 and placed_some > N_POSITIONS // 2


def test_table_check_agrees_on_tables_that_are_not_valid():
    """A table check (nothing to gain) answers yes with an arrangement and no only after the exact pass:
    both routes agree on seeded multisets, valid tables with one card taken away among them."""
    rng = np.random.default_rng(5)
    answers = set()
    for _ in range(60):
        table, _hand = random_position(rng, ROBBER_MELDS, int(rng.integers(6, 16)), 0, joker_rate=0.4)
        cut = list(table)
        if rng.random() < 0.6:
            cut.pop(int(rng.integers(len(cut))))
        a = arrange_table(cut, ROBBER_MELDS, method="jit")
        b = arrange_table(cut, ROBBER_MELDS, method="milp")
        assert (a is None) == (b is None), cut
        if a is not None:
            total = sum(to_counts(m.cards) for m in a)
            assert (total == to_counts(cut)).all()
        answers.add(a is None)
    assert answers == {True, False}


def test_a_beam_of_one_state_still_gives_the_optimum():
    """With a beam of one state the first pass may stop short of the optimum (§4.5.2 needs the joker moved);
    the exact pass after it must still reach 20."""
    table, hand = parse_hand("5d 6d 7d 5s 6s JK"), parse_hand("5c 6h 9d")
    t, h = to_counts(table), to_counts(hand)
    w = ROBBER_MELDS.values
    best = _table_dp_jit.solve_jit(t[:52], h[:52], int(t[JOKER]), int(h[JOKER]), w[:52], int(w[JOKER]),
                                   ROBBER_MELDS, beam=1)
    assert best is not None and best[0] == 20 == solve_table(table, hand, ROBBER_MELDS, method="milp").value


def test_a_capped_search_gives_way_to_the_integer_programme():
    """The default route hands a position to HiGHS when a layer outgrows the cap: same answer either way."""
    rng = np.random.default_rng(2026)
    table, hand = random_position(rng, ROBBER_MELDS, 40, 10, joker_rate=0.5)
    t, h = to_counts(table), to_counts(hand)
    w = ROBBER_MELDS.values
    try:
        _table_dp_jit.solve_jit(t[:52], h[:52], int(t[JOKER]), int(h[JOKER]), w[:52], int(w[JOKER]),
                                ROBBER_MELDS, beam=1, cap=1)
        gave_up = False
    except _table_dp_jit.GaveUp:
        gave_up = True
    assert gave_up
    assert solve_table(table, hand, ROBBER_MELDS).value == solve_table(table, hand, ROBBER_MELDS,
                                                                        method="milp").value


def test_a_layer_keeps_the_best_state_per_key_and_drops_states_needing_more_jokers():
    """The state store's insert_layer (rumino.table.dp_store), which both compiled programmes build their
    layers with: of equal keys the higher value
    wins (a tie keeps the state met first, and its back-pointer); a state is dropped when one of its key
    needs no more jokers (lo, the last count) for at least its value, and drops those needing more for no
    more; the layer keeps the order in which keys were first met."""
    rows = [  # k0..k4, lo, value, came from, choice
        (1, 0, 0, 0, 0, 1, 5, 10, 100),  # key A with one joker needed...
        (2, 0, 0, 0, 0, 0, 3, 11, 101),  # key B
        (1, 0, 0, 0, 0, 0, 5, 12, 102),  # ...beaten by key A needing none for the same value
        (2, 0, 0, 0, 0, 0, 3, 13, 103),  # a tie on key B: the first stays
        (1, 0, 0, 0, 0, 2, 7, 14, 104),  # key A needing two for more value: kept beside it
        (2, 0, 0, 0, 0, 0, 4, 15, 105),  # key B, better: replaces the first in its place
        (1, 0, 0, 0, 0, 1, 4, 16, 106),  # key A needing one for less than the zero-joker state: dropped
    ]
    cand = np.array(rows, dtype=np.int64)
    prev_g = np.full(16, -9, dtype=np.int64)
    choice_g = np.full(16, -9, dtype=np.int64)
    keys, val, gid, n, n_g = insert_layer(cand, len(rows), 2, prev_g, choice_g, 1)
    got = [(int(keys[i, 0]), int(keys[i, 4]), int(val[i]), int(prev_g[gid[i]]), int(choice_g[gid[i]]))
           for i in range(n)]
    assert got == [(2, 0, 4, 15, 105), (1, 0, 5, 12, 102), (1, 2, 7, 14, 104)]
    assert n_g == 5  # global ids given: the first A (dropped later), B, A without jokers, A with two
    # the first programme passes JT = 0: one state per key, the best value, ties to the first met
    plain = np.array([(7, 0, 0, 0, 3, 0, 2, 1, 1), (7, 0, 0, 0, 3, 0, 2, 2, 2), (8, 0, 0, 0, 0, 0, 1, 3, 3),
                      (7, 0, 0, 0, 3, 0, 6, 4, 4)], dtype=np.int64)
    keys, val, gid, n, n_g = insert_layer(plain, 4, 0, prev_g, choice_g, 1)
    assert [(int(keys[i, 0]), int(val[i]), int(prev_g[gid[i]])) for i in range(n)] == [(7, 6, 4), (8, 1, 3)]
