"""The table solver (rumino.table.solver) against an exhaustive search, the §4.5 seed examples and the CLI.

The exhaustive search below is written from the rules text, not from the
solver: for every sub-multiset of the hand it asks whether table + those cards
can be split into melds, trying every group that holds the lowest remaining
natural card and checking each group with the naive ``brute_is_meld`` of
tests/brute_force.py. The solver must find the same optimum (value, and number
of cards with ``most_cards``) on every seeded instance, and its melds must pass
the same naive check and hold exactly table + placed cards.
"""

from __future__ import annotations

import json
from dataclasses import replace
from functools import lru_cache
from itertools import combinations

import numpy as np
import pytest
from brute_force import brute_is_meld

from rumino.cards import JOKER, parse_hand, to_counts
from rumino.cli import main
from rumino.errors import IllegalActionError
from rumino.melds import ROBBER_MELDS, ROMME_MELDS
from rumino.table.solver import arrange_table, meld_columns, random_position, solve_table
from rumino.variants.robber import RobberRules

N_EXHAUSTIVE = 2100  # seeded small instances compared with the exhaustive search (all rule sets together)

RULE_SETS = {
    "robber": ROBBER_MELDS,  # seed joker rules, ace low or high
    "one_per_meld": RobberRules(joker_rules="one_per_meld").meld_rules,
    "lenient": RobberRules(joker_rules="lenient").meld_rules,
    "around": RobberRules(ace="around").meld_rules,
    "few_jokers": RobberRules(n_jokers=2).meld_rules,
}


# ---------------------------------------------------------------------- the exhaustive search


def _groups_with_first(cards: tuple[int, ...], rules):
    """Every group of cards (as a sorted tuple) holding ``cards[first natural]`` that is a meld."""
    nat = [c for c in cards if c != JOKER]
    c0 = nat[0]
    rest = list(cards)
    rest.remove(c0)
    fits = [c for c in rest if c == JOKER or c % 13 == c0 % 13 or c // 13 == c0 // 13]
    seen = set()
    for k in range(rules.min_meld - 1, len(fits) + 1):
        for extra in combinations(fits, k):
            group = tuple(sorted((c0,) + extra))
            if group not in seen:
                seen.add(group)
                if brute_is_meld(group, rules):
                    yield group


def brute_arrangeable(cards: tuple[int, ...], rules) -> bool:
    @lru_cache(maxsize=None)
    def ok(rest: tuple[int, ...]) -> bool:
        if not rest:
            return True
        if all(c == JOKER for c in rest):
            return False  # every preset needs a natural card in each meld
        for g in _groups_with_first(rest, rules):
            left = list(rest)
            for c in g:
                left.remove(c)
            if ok(tuple(left)):
                return True
        return False

    return ok(tuple(sorted(cards)))


def brute_best(table, hand, rules) -> tuple[int, int]:
    """(most value, most cards) that can be placed, by trying every sub-multiset of the hand."""
    values = rules.values
    best_v = best_n = -1
    subsets = {tuple(sorted(s)) for k in range(len(hand) + 1) for s in combinations(hand, k)}
    for s in subsets:
        v = int(sum(values[c] for c in s))
        if v <= best_v and len(s) <= best_n:
            continue
        if brute_arrangeable(tuple(table) + s, rules):
            best_v, best_n = max(best_v, v), max(best_n, len(s))
    return best_v, best_n


def small_instance(rng: np.random.Generator, rules):
    """A small valid table (1–3 melds from two or three suits in a window of ranks) and a hand of 1–4 cards."""
    suits = rng.choice(4, size=int(rng.integers(2, 4)), replace=False).tolist()
    width = int(rng.integers(4, 7))
    lo = int(rng.integers(0, 15 - width))  # positions 0..13, 13 = the ace after the king
    ranks = [p % 13 for p in range(lo, lo + width)]
    left = rules.pack.counts().astype(int)
    table: list[int] = []
    for _ in range(int(rng.integers(1, 4))):
        for _attempt in range(20):
            if rng.random() < 0.55:
                s = suits[int(rng.integers(len(suits)))]
                length = int(rng.integers(3, min(5, width) + 1))
                start = int(rng.integers(0, width - length + 1))
                meld = [s * 13 + r for r in ranks[start:start + length]]
            else:
                r = ranks[int(rng.integers(width))]
                k = int(rng.integers(3, min(4, len(suits) + 1) + 1))
                meld = [int(x) * 13 + r for x in rng.choice(4, size=k, replace=False)]
            if rng.random() < 0.35 and left[JOKER] > 0:
                i = int(rng.integers(len(meld)))
                meld = meld[:i] + [JOKER] + meld[i + 1:]
            need = to_counts(meld)
            if (need <= left).all() and brute_is_meld(meld, rules):
                left -= need
                table.extend(meld)
                break
    pool = [s * 13 + r for s in suits for r in set(ranks) for _ in range(int(left[s * 13 + r]))]
    pool += [JOKER] * min(int(left[JOKER]), 1)
    pool += [int(rng.integers(52))]  # now and then a card from elsewhere
    hand = []
    for i in rng.permutation(len(pool))[: int(rng.integers(1, 5))]:
        c = pool[int(i)]
        if left[c] > 0:
            left[c] -= 1
            hand.append(c)
    return tuple(sorted(table)), tuple(sorted(hand))


def assert_valid_solution(sol, table, hand, rules):
    total = np.zeros(53, dtype=int)
    for m in sol.melds:
        assert brute_is_meld(m.cards, rules), str(m)
        for c, s in zip(m.cards, m.stands_for):
            if c == JOKER:
                assert 0 <= s < 52, f"joker in {m} not identified"
        total += to_counts(m.cards)
    assert (total == to_counts(table) + to_counts(sol.placed)).all()
    assert sorted(sol.placed + sol.hand_left) == sorted(hand)


def test_exhaustive_comparison():
    """N_EXHAUSTIVE seeded small positions: the solver's optimum equals the exhaustive search's, zero mismatches."""
    rng = np.random.default_rng(20261130)
    names = list(RULE_SETS)
    mismatches, compared, placed_some = [], 0, 0
    for i in range(N_EXHAUSTIVE):
        name = names[0] if i % 2 == 0 else names[1 + (i // 2) % (len(names) - 1)]
        rules = RULE_SETS[name]
        table, hand = small_instance(rng, rules)
        want_v, want_n = brute_best(table, hand, rules)
        assert want_v >= 0  # the table is valid by construction
        sol = solve_table(table, hand, rules, check=False)
        assert_valid_solution(sol, table, hand, rules)
        got = [sol.value]
        want = [want_v]
        if i % 3 == 0:
            sol_n = solve_table(table, hand, rules, most_cards=True, check=False)
            assert_valid_solution(sol_n, table, hand, rules)
            got.append(sol_n.value)
            want.append(want_n)
        compared += 1
        placed_some += want_v > 0
        if got != want:
            mismatches.append((name, table, hand, got, want))
    assert compared == N_EXHAUSTIVE
    assert 0.2 * N_EXHAUSTIVE < placed_some < 0.95 * N_EXHAUSTIVE  # the instances are neither all easy nor all blocked
    assert mismatches == []


def test_dynamic_programme_agrees():
    """The second exact route (the rank-by-rank programme) finds the same optimum on small and mid-size tables."""
    rng = np.random.default_rng(7)
    for i in range(60):
        rules = RULE_SETS[("robber", "one_per_meld", "lenient", "few_jokers")[i % 4]]
        table, hand = small_instance(rng, rules) if i % 2 else random_position(rng, rules, 12, 6)
        a = solve_table(table, hand, rules, check=False)
        b = solve_table(table, hand, rules, method="dp", check=False)
        assert_valid_solution(b, table, hand, rules)
        assert a.value == b.value, (table, hand)


def test_columns_are_unsplittable_and_complete():
    """Every column is a meld no cut splits; a few long melds that need no column are split by the solver."""
    cols = meld_columns(ROBBER_MELDS)
    assert len({tuple(c) for c in cols}) == len(cols)
    # 3♠ ★ ★ 6♠ 7♠ (§3.7.2) has a column of its own? It can be cut as 3♠★★6♠? No: 7♠ alone is not a run.
    assert arrange_table(parse_hand("3s JK JK 6s 7s"), ROBBER_MELDS) is not None
    # a 13-card run is arranged (as shorter pieces) and an A-to-A run of 14 cards is two runs
    assert arrange_table(parse_hand("As 2s 3s 4s 5s 6s 7s 8s 9s 10s Js Qs Ks As"), ROBBER_MELDS) is not None


# ---------------------------------------------------------------------- §4.5 seed examples


def test_4_5_1_split_a_run_to_place_the_second_seven():
    """§4.5.1: table 5♣6♣7♣8♣9♣, hand 7♣ → 5♣6♣7♣ + 7♣8♣9♣."""
    s = solve_table(parse_hand("5c 6c 7c 8c 9c"), parse_hand("7c"), ROBBER_MELDS)
    assert s.placed == parse_hand("7c") and s.hand_left == ()
    assert sorted(m.format() for m in s.melds) == ["5c 6c 7c", "7c 8c 9c"]


def test_4_5_2_the_joker_moves_without_an_exchange():
    """§4.5.2: table 5♦6♦7♦ + 5♠6♠★, hand 5♣ 6♥ 9♦ → 5♦5♠5♣, 6♦6♥6♠, 7♦★9♦ (★ = 8♦)."""
    s = solve_table(parse_hand("5d 6d 7d 5s 6s JK"), parse_hand("5c 6h 9d"), ROBBER_MELDS)
    assert sorted(s.placed) == sorted(parse_hand("5c 6h 9d"))
    got = sorted(tuple(sorted(m.cards)) for m in s.melds)
    assert got == sorted(tuple(sorted(parse_hand(t))) for t in ("5s 5c 5d", "6s 6d 6h", "7d JK 9d"))
    run = next(m for m in s.melds if JOKER in m.cards)
    assert run.joker_meaning() == [(1, parse_hand("8d")[0])]


def test_4_5_nothing_to_place_is_a_proof_of_zero():
    """An optimum of 0: no card of the hand fits anywhere (the player must draw, §4.5.5)."""
    s = solve_table(parse_hand("5c 6c 7c 8c"), parse_hand("7c Kd"), ROBBER_MELDS)
    assert s.value == 0 and s.placed == () and not s.can_place
    assert brute_best(parse_hand("5c 6c 7c 8c"), parse_hand("7c Kd"), ROBBER_MELDS) == (0, 0)


def test_4_3_iii_a_table_that_is_not_valid_is_refused():
    with pytest.raises(IllegalActionError, match=r"§4.3 \(iii\)"):
        solve_table(parse_hand("5c 6c"), parse_hand("7c"), ROBBER_MELDS)
    assert arrange_table(parse_hand("5c 6c"), ROBBER_MELDS) is None


def test_most_value_and_most_cards_differ():
    """Value counts the hand penalty (§3.3: ace 11, joker 20); --most-cards counts cards."""
    table = parse_hand("Qh Kh Ah 2s 3s 4s")
    hand = parse_hand("Jh As 5s 6s")
    by_value = solve_table(table, hand, ROBBER_MELDS)
    by_cards = solve_table(table, hand, ROBBER_MELDS, most_cards=True)
    assert by_value.value == brute_best(table, hand, ROBBER_MELDS)[0]
    assert by_cards.value == brute_best(table, hand, ROBBER_MELDS)[1]


def test_random_robber_positions_are_valid_and_solved():
    rng = np.random.default_rng(3)
    for _ in range(5):
        table, hand = random_position(rng, ROBBER_MELDS, 30, 13)
        assert arrange_table(table, ROBBER_MELDS) is not None
        s = solve_table(table, hand, ROBBER_MELDS)
        assert_valid_solution(s, table, hand, ROBBER_MELDS)


def test_romme_rules_are_accepted():
    s = solve_table(parse_hand("Qc Kc Ac"), parse_hand("Jc"), ROMME_MELDS)
    assert s.value == 10


def test_weights_must_be_53_non_negative():
    with pytest.raises(ValueError, match="53"):
        solve_table(parse_hand("5c 6c 7c"), parse_hand("8c"), ROBBER_MELDS, weights=[1, 2])
    with pytest.raises(ValueError, match="method"):
        solve_table(parse_hand("5c 6c 7c"), parse_hand("8c"), ROBBER_MELDS, method="magic")
    with pytest.raises(ValueError, match="dynamic programme"):
        solve_table(parse_hand("5c 6c 7c"), parse_hand("8c"), replace(ROBBER_MELDS, ace="around"), method="dp")


# ---------------------------------------------------------------------- CLI


def test_cli_json_places_the_seven_as_4_5_1_says(capsys):
    assert main(["table", "--table", "5c 6c 7c 8c 9c", "--hand", "7c", "--json"]) == 0
    out = json.loads(capsys.readouterr().out)
    assert out["placed"] == ["7c"] and out["value"] == 7 and out["hand_left"] == []
    assert sorted(out["table"]) == [["5c", "6c", "7c"], ["7c", "8c", "9c"]]


def test_cli_json_jokers_show_what_they_stand_for(capsys):
    assert main(["table", "--table", "5d 6d 7d 5s 6s JK", "--hand", "5c 6h 9d Kd", "--json", "--most-cards"]) == 0
    out = json.loads(capsys.readouterr().out)
    assert out["objective"] == "cards" and out["value"] == 3 and out["hand_left"] == ["Kd"]
    assert ["7d", "JK(8d)", "9d"] in out["table"]


@pytest.mark.parametrize("args, why", [
    (["--table", "5c 6c", "--hand", "7c"], "does not form valid melds"),
    (["--table", "5c 6c 7c | 8c 9c", "--hand", "7c"], "8c 9c is not a meld"),
    (["--table", "5c 6c 7x", "--hand", "7c"], "'7x' is not a card"),
    (["--table", "5c 6c 7c", "--hand", "7c 7c"], "3 copies of 7c"),
    (["--table", "5c 6c 7c", "--hand", "8c", "--variant", "rummoli"], "no melds"),
])
def test_cli_bad_input_exits_2_with_one_line(capsys, args, why):
    assert main(["table", *args]) == 2
    err = capsys.readouterr().err
    assert why in err and err.count("\n") == 1


# ---------------------------------------------------------------------- the peer: rummikub-solver


def test_rummikub_solver_agrees_where_the_rules_coincide():
    """Two decks of 1–13 in four suits, no jokers, no ace-high runs: the same number of cards placed as
    rummikub-solver (``SolverMode.TILE_COUNT``) on a seeded sample, and never less face value than its
    ``TOTAL_VALUE`` answer: that objective in rummikub-solver 1.0 is the tile count times the sum of all
    tile values (``sum(tiles[:, None] @ tilevalue[None, :])``), so it maximises the count, not the value."""
    from conftest import import_oracle

    rk = import_oracle("rummikub_solver")
    from rumino.cards import Pack

    rules = replace(ROBBER_MELDS, pack=Pack(decks=2, jokers=0), ace="low")
    rs = rk.RuleSet(numbers=13, repeats=2, colours=4, jokers=0, min_len=3)
    tiles = rs.tiles  # colour-major, numbers 1–13: tile i is our card id i
    face = np.zeros(53, dtype=np.int64)
    face[:52] = np.arange(52) % 13 + 1
    rng = np.random.default_rng(11)
    for _ in range(25):
        table, hand = random_position(rng, rules, int(rng.integers(15, 40)), int(rng.integers(3, 10)))
        g = rs.new_game()
        g.add_table(*(tiles[c] for c in table))
        g.add_rack(*(tiles[c] for c in hand))
        g.initial = False
        by_count = rs.solve(g, rk.SolverMode.TILE_COUNT)
        by_value = rs.solve(g, rk.SolverMode.TOTAL_VALUE)
        n_peer = len(by_count.tiles) if by_count else 0
        v_peer = int(sum(face[int(t) - 1] for t in by_value.tiles)) if by_value else 0
        assert solve_table(table, hand, rules, most_cards=True).value == n_peer
        assert solve_table(table, hand, rules, weights=face).value >= v_peer


@pytest.mark.parametrize("name", ["robber", "lenient", "few_jokers"])
def test_placeable_cards_are_those_of_a_meld_the_cards_can_supply(name):
    """The compiled filter of hand cards (solver._placeable) against the plain numpy statement of it: a kind
    is kept when some unsplittable meld holding it needs no more of any card than table and hand have."""
    from rumino.table import solver

    rules = RULE_SETS[name]
    cols = meld_columns(rules)
    rng = np.random.default_rng(7)
    for _ in range(500):
        table = rng.integers(0, 3, 53) * (rng.random(53) < 0.4)
        hand = rng.integers(0, 2, 53) * (rng.random(53) < 0.25)
        table[JOKER], hand[JOKER] = rng.integers(0, 3), rng.integers(0, 2)
        usable = cols[np.all(cols <= table + hand, axis=1)].any(axis=0)
        assert (solver._placeable(table, hand, rules) == np.where(usable, hand, 0)).all()
