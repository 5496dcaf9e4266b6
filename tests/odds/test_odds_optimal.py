"""Optimal discards against the stock (rumino.odds.optimal), checked on reduced packs.

The independent route is a brute-force expectimax over *explicit* hands (sorted
tuples of card ids, no suit classes, no perfect hash, no turned-round sums), in
exact fractions, with goals from the slow reference ``tests/brute_force.py`` and
:func:`rumino.variants.rumino.is_rumino`.
"""

from __future__ import annotations

from dataclasses import replace
from fractions import Fraction
from functools import lru_cache
from itertools import combinations_with_replacement

import numpy as np
import pytest

from brute_force import brute_min_deadwood
from rumino.cards import JOKER, format_card, parse_hand, to_counts
from rumino.errors import InvalidCardError, RuleConfigError
from rumino.odds.enumerate import PackShape, class_count, iter_classes
from rumino.odds.optimal import (GOALS, ClassIndex, OptimalTable, SolitaireModel, TableMissingError, best_answer,
                                 direct_values, keep_target_values)
from rumino.variants.rumino import RUMINO, is_rumino

# the main reduced pack: 2 suits of A–6, one copy, 2 jokers (14 cards). A straight
# flush A–7 is a rumino with a joker for the 7, so all three goals are live.
SMALL = PackShape(suits=2, ranks=6, copies=1, jokers=2)
# copies and three suits: the weights of duplicate cards and of 3! relabellings
DOUBLE = PackShape(suits=2, ranks=4, copies=2, jokers=1)
TRIPLE = PackShape(suits=3, ranks=4, copies=1, jokers=2)
TIGHT = replace(RUMINO, knock_max_deadwood=3)  # fewer hands may knock at once: a sharper knock test


def kinds_of(shape):
    caps = {c: shape.copies for c in shape.card_ids()}
    if shape.jokers:
        caps[JOKER] = shape.jokers
    return caps


def explicit_hands(shape, k=7):
    caps = kinds_of(shape)
    out = []
    for combo in combinations_with_replacement(sorted(caps), k):
        if all(combo.count(c) <= caps[c] for c in set(combo)):
            out.append(combo)
    return out


@lru_cache(maxsize=None)
def brute_deadwood(hand: tuple, meld_rules) -> int:
    """The slow reference's deadwood of a sorted hand, computed once for the whole module: the knock and
    gin goals ask for the same hands, and so do every Brute of a pack whose rules differ only in the
    knock limit (the meld rules are equal, hence the same key)."""
    return brute_min_deadwood(list(hand), meld_rules)


class Brute:
    """Expectimax over explicit hands, in fractions."""

    def __init__(self, shape, rules=RUMINO):
        self.shape, self.rules = shape, rules
        self.caps = kinds_of(shape)
        self.U = shape.size - 7
        self.hands = explicit_hands(shape)

    @lru_cache(maxsize=None)
    def goal(self, hand, goal):
        if goal == "rumino":
            return is_rumino(list(hand), self.rules)
        dw = brute_deadwood(hand, self.rules.meld_rules)
        return dw <= (self.rules.knock_max_deadwood if goal == "knock" else 0)

    def draws(self, hand):
        for c, cap in self.caps.items():
            w = cap - hand.count(c)
            if w > 0:
                yield c, Fraction(w, self.U)

    @staticmethod
    def discards(hand8):
        seen = set()
        for i, d in enumerate(hand8):
            if d not in seen:
                seen.add(d)
                yield d, hand8[:i] + hand8[i + 1:]

    def values(self, goal, horizon):
        """``P[n][hand]`` for n = 0 … horizon, exact."""
        P = [{h: Fraction(int(self.goal(h, goal))) for h in self.hands}]
        for _ in range(horizon):
            prev, cur = P[-1], {}
            for h in self.hands:
                if prev[h] == 1 and self.goal(h, goal):
                    cur[h] = Fraction(1)
                    continue
                s = Fraction(0)
                for c, p in self.draws(h):
                    h8 = tuple(sorted(h + (c,)))
                    s += p * max(prev[h7] for _, h7 in self.discards(h8))
                cur[h] = s
            P.append(cur)
        return P

    def expected(self, goal, sweeps=3000):
        """Expected draws by plain value iteration in floats, over explicit hands (converged far below 1e-9)."""
        E = {h: 0.0 for h in self.hands}
        trans = {}
        for h in self.hands:
            trans[h] = [(float(p), [h7 for _, h7 in self.discards(tuple(sorted(h + (c,))))]) for c, p in self.draws(h)]
        for _ in range(sweeps):
            new = {}
            for h in self.hands:
                if self.goal(h, goal):
                    new[h] = 0.0
                else:
                    new[h] = 1.0 + sum(p * min(E[x] for x in opts) for p, opts in trans[h])
            change = max(abs(new[h] - E[h]) for h in self.hands)
            E = new
            if change < 1e-13:
                break
        return E


@pytest.fixture(scope="module")
def small_table():
    return SolitaireModel(SMALL).solve(horizon=4, tol=1e-9)


def _check_against_brute(shape, rules, table, horizon, goals=GOALS):
    brute = Brute(shape, rules)
    idx = table.index
    bad = 0
    for goal in goals:
        P = brute.values(goal, horizon)
        for h in brute.hands:
            i = int(idx.index(to_counts(list(h))))
            for n in range(1, horizon + 1):
                got = float(table.prob[GOALS.index(goal), n - 1, i])
                if abs(got - float(P[n][h])) > 1e-6 * max(1.0, float(P[n][h])):  # float32 storage
                    bad += 1
    return bad, len(brute.hands)


def test_perfect_hash_is_the_enumeration_order():
    for shape in (SMALL, DOUBLE, TRIPLE, PackShape(4, 13, 2, 4)):
        for k in (2, 7, 8) if shape.size < 100 else (3,):
            ci = ClassIndex(shape, k)
            assert ci.n == class_count(shape, k)
            pos = 0
            for counts, weights, _ in iter_classes(shape, k):
                assert np.array_equal(ci.index(counts), np.arange(pos, pos + len(counts)))
                pos += len(counts)
            assert pos == ci.n


def test_perfect_hash_ignores_suit_names():
    ci = ClassIndex(PackShape(4, 13, 2, 4), 7)
    a = ci.index(to_counts(parse_hand("7h 8h 9h 5c 5d 5s Ks")))
    b = ci.index(to_counts(parse_hand("7c 8c 9c 5h 5d 5s Ks")))
    c = ci.index(to_counts(parse_hand("7c 8c 9c 5h 5d 5s Kc")))
    assert a == b != c


def test_small_pack_matches_brute_force_exactly(small_table):
    bad, n = _check_against_brute(SMALL, RUMINO, small_table, 4)
    assert n > 2000
    assert bad == 0
    # all three goals are live on this pack
    for g in range(3):
        assert 0 < float(small_table.prob[g, 3].mean()) < 1


@pytest.mark.parametrize("shape,rules,horizon", [(DOUBLE, TIGHT, 3), (TRIPLE, RUMINO, 2), (SMALL, TIGHT, 2)])
def test_other_reduced_packs_match_brute_force(shape, rules, horizon):
    table = SolitaireModel(shape, rules).solve(horizon=horizon, tol=1e-9)
    bad, n = _check_against_brute(shape, rules, table, horizon, goals=("knock", "gin"))
    assert bad == 0 and n > 300


def test_expected_draws_within_certified_bound(small_table):
    info = small_table.meta["infinite"]
    assert info["relative_error_bound"] <= 1e-9
    brute = Brute(SMALL)
    for g, goal in enumerate(("knock", "gin")):
        E = brute.expected(goal)
        worst = 0.0
        for h in brute.hands:
            got = float(small_table.expected[g, small_table.index.index(to_counts(list(h)))])
            worst = max(worst, abs(got - E[h]) / max(E[h], 1.0))
        assert worst < 1e-6  # float32 storage (6e-8) plus the certified 1e-9


def test_direct_answer_matches_table(small_table):
    rng = np.random.default_rng(7)
    hands = explicit_hands(SMALL)
    for k in rng.choice(len(hands), 40, replace=False):
        h = to_counts(list(hands[k])).astype(np.int64)
        for goal in GOALS:
            for n in (1, 2):
                assert direct_values(h, goal, n, SMALL) == pytest.approx(small_table.value7(h, goal, n), abs=1e-6)


def test_keep_target_is_a_lower_bound_on_every_class(small_table):
    counts = np.concatenate([c for c, _, _ in iter_classes(SMALL, 7)])
    for n in range(1, 5):
        bound = keep_target_values(counts, n, SMALL)
        opt = small_table.prob[GOALS.index("rumino"), n - 1].astype(np.float64)
        assert np.all(opt >= bound - 1e-6)
        assert np.any(bound > 0)


def test_chapter5_chain_is_not_a_bound_in_the_reshuffle_model():
    # 6 fives: the no-reshuffle chain (drawn blanks leave the stock) beats what any play achieves
    # when discards go back in; the model of this module is the reshuffle one.
    full = PackShape(4, 13, 2, 4)
    c = to_counts(parse_hand("5h 5h 5s 5s 5d 5c 9c"))[None, :]
    with_back = keep_target_values(c, 10, full)[0]
    chapter5 = keep_target_values(c, 10, full, replace=False)[0]
    assert with_back == pytest.approx(1 - (95 / 101) ** 10)
    assert chapter5 > with_back


def test_simulation_of_the_optimal_policy(small_table):
    """Play the table's discards with real draws; the hit rate is the table's value within 4 SE."""
    rng = np.random.default_rng(2026)
    caps = kinds_of(SMALL)
    hand = to_counts(list(explicit_hands(SMALL)[100])).astype(np.int64)
    goal, N, trials = "gin", 4, 3000
    target = small_table.value7(hand, goal, N)
    g = GOALS.index(goal)
    hits = 0
    kinds = sorted(caps)
    memo = {}

    def value(h, n):  # the table's value (0 draws: the goal itself)
        key = (h.tobytes(), n)
        if key not in memo:
            memo[key] = small_table.value7(h, goal, n)
        return memo[key]

    for _ in range(trials):
        h = hand.copy()
        for left in range(N, 0, -1):
            if value(h, 0) == 1:
                break
            w = np.array([caps[c] - h[c] for c in kinds], dtype=float)
            c = kinds[int(np.searchsorted(np.cumsum(w), rng.random() * w.sum(), side="right"))]
            h[c] += 1
            best, arg = -1.0, None
            for d in range(53):
                if h[d]:
                    h[d] -= 1
                    v = value(h, left - 1)
                    h[d] += 1
                    if v > best:
                        best, arg = v, d
            h[arg] -= 1
        hits += int(value(h, 0) == 1)
    p = hits / trials
    se = max((target * (1 - target) / trials) ** 0.5, 1e-9)
    assert 0.05 < target < 0.95
    assert abs(p - target) <= 4 * se


def test_save_load_and_best_answer(small_table, tmp_path):
    small_table.save(tmp_path)
    t = OptimalTable.load(SMALL, directory=tmp_path)
    h8 = "As 2s 3s 4s 5c 6c JK 3c"
    ans = best_answer(h8, "gin", 2, table=t)
    assert ans["best_discard"] in [d["card"] for d in ans["discards"]]
    assert ans["probability"] == max(d["probability"] for d in ans["discards"])
    assert ans["expected_draws"] == min(d["expected_draws"] for d in ans["discards"])
    direct = best_answer(h8, "gin", 2, shape=SMALL, directory=tmp_path / "none")
    assert direct["source"] == "direct"
    for a, b in zip(sorted(ans["discards"], key=lambda r: r["card"]), sorted(direct["discards"], key=lambda r: r["card"])):
        assert a["probability"] == pytest.approx(b["probability"], abs=1e-6)
    seven = best_answer("As 2s 3s 4s 5c 6c JK", "knock", 1, table=t)
    assert seven["best_discard"] is None
    assert seven["probability"] == pytest.approx(sum(r["chance"] * r["probability"] for r in seven["next_draws"]))


def test_bad_input_is_refused(tmp_path):
    with pytest.raises(TableMissingError, match="optimal table"):
        best_answer("7h 8h 9h 5c 5d 5s Ks 2c", "gin", 5, directory=tmp_path)
    with pytest.raises(RuleConfigError, match="goal"):
        best_answer("7h 8h 9h 5c 5d 5s Ks 2c", "win", 1, directory=tmp_path)
    with pytest.raises(InvalidCardError, match="6 cards"):
        best_answer("7h 8h 9h 5c 5d 5s", "gin", 1, directory=tmp_path)
    with pytest.raises(InvalidCardError, match="pack has"):
        best_answer("7h 7h 7h 5c 5d 5s Ks", "gin", 1, directory=tmp_path)


def test_cli_best(capsys, tmp_path):
    import json

    from rumino.cli import main

    code = main(["odds", "best", "7h 8h 9h 5c 5d 5s Ks 2c", "--goal", "gin", "--draws", "1", "--json",
                 "--table-dir", str(tmp_path)])
    out, _ = capsys.readouterr()
    data = json.loads(out)
    assert code == 0 and data["best_discard"] in ("Ks", "2c") and data["source"] == "direct"
    assert {d["card"] for d in data["discards"]} == {"7h", "8h", "9h", "5c", "5d", "5s", "Ks", "2c"}
    assert data["probability"] == pytest.approx(13 / 101)  # 6h ×2, 10h ×2, any five ×5, a joker ×4
    assert "expected_draws" in data
    code = main(["odds", "best", "7h 8h 9h 5c 5d 5s Ks 2c", "--goal", "gin", "--draws", "5",
                 "--table-dir", str(tmp_path)])
    _, err = capsys.readouterr()
    assert code == 2 and "rumino optimal build" in err and len(err.strip().splitlines()) == 1
    code = main(["odds", "best", "7h 8h 9h 5c 5d 5s Kx", "--goal", "gin", "--draws", "1"])
    _, err = capsys.readouterr()
    assert code == 2 and "Kx" in err
