"""The Rommé opening: the compiled kernel against arrange.max_opening, rules §3.7 facts,
the simulated opening odds (seeded, against an exact value) and ``rumino odds opening``.

The kernel has two methods (suits apart with a memo, and a branch-and-bound search
for any rules); both are compared with the reference search on seeded hands of
every kind: uniform deals of 13 and 14 cards, joker-heavy hands and meld-dense
hands, under the default rules and the knobs that change melds. Zero mismatches.
"""

from __future__ import annotations

import json
from fractions import Fraction
from itertools import combinations_with_replacement
from math import comb, prod

import numpy as np
import pytest

from rumino.hand import opening as ko
from rumino.hand.arrange import max_opening
from rumino.cards import JOKER, ROMME_PACK, Pack, format_hand, from_counts, parse_hand, to_counts
from rumino.cli import main
from rumino.errors import InvalidCardError, RuleConfigError, RuminoError
from rumino.melds import GIN_MELDS, ROMME_MELDS, check_meld, is_meld, meld_readings
from rumino.odds.montecarlo import chunk_seeds, chunk_sizes, sample_deals
from rumino.odds.opening import THRESHOLDS, simulate_opening
from rumino.variants.robber import RobberRules
from rumino.variants.romme import ROMME, RommeRules

KNOBS = {
    "default": ROMME_MELDS,
    "ace around": RommeRules(ace="around").meld_rules,
    "lenient jokers": RommeRules(joker_rules="lenient").meld_rules,
    "one joker per meld": RommeRules(joker_rules="one_per_meld").meld_rules,
    "4 jokers": RommeRules(n_jokers=4).meld_rules,
    "robber, ace around": RobberRules(ace="around").meld_rules,
}


# --------------------------------------------------------------------------- hand generators


def joker_heavy(rules, size: int, n: int, seed: int) -> np.ndarray:
    """Hands with half of the pack's jokers or more (all six included)."""
    rng = np.random.default_rng(seed)
    naturals = Pack(decks=2, jokers=0)
    out = np.zeros((n, 53), dtype=np.int8)
    for i in range(n):
        j = int(rng.integers((rules.pack.jokers + 1) // 2, rules.pack.jokers + 1))
        out[i] = sample_deals(naturals, size - j, 1, rng)[0]
        out[i, JOKER] = j
    return out


def meld_dense(rules, size: int, n: int, seed: int) -> np.ndarray:
    """Cards of 1–2 suits in a window of 3–7 ranks (past the king too), the window's first
    ranks in the other suits, and 0 … all the jokers: many runs and sets overlap."""
    rng = np.random.default_rng(seed)
    out = np.zeros((n, 53), dtype=np.int8)
    for i in range(n):
        suits = rng.choice(4, size=int(rng.integers(1, 3)), replace=False)
        width = int(rng.integers(3, 8))
        start = int(rng.integers(0, 13))
        window = [(start + k) % 13 for k in range(width)]
        pool = [s * 13 + r for s in suits for r in window for _ in range(2)]
        pool += [s * 13 + r for s in range(4) if s not in suits for r in window[:2] for _ in range(2)]
        j = int(rng.integers(0, rules.pack.jokers + 1))
        cards = [pool[p] for p in rng.choice(len(pool), size=min(size - j, len(pool)), replace=False)]
        while len(cards) < size - min(j, rules.pack.jokers):
            c = int(rng.integers(0, 52))
            if cards.count(c) < 2:
                cards.append(c)
        out[i] = to_counts(cards + [JOKER] * (size - len(cards)))
    assert (out.sum(axis=1) == size).all() and (out <= rules.pack.counts()).all()
    return out


def _agree(hands: np.ndarray, rules) -> None:
    split = ko.max_opening_batch(hands, rules)
    search = ko.max_opening_batch(hands, rules, method="search")
    for h, a, b in zip(hands, split, search):
        ref = max_opening(from_counts(h), rules).value
        assert a == b == ref, f"{format_hand(from_counts(h))}: split {a}, search {b}, arrange.max_opening {ref}"


# --------------------------------------------------------------------------- kernel against the reference


@pytest.mark.parametrize("size", [13, 14])
def test_kernel_matches_arrange_on_random_deals(size):
    _agree(sample_deals(ROMME_PACK, size, 400, np.random.default_rng(1000 + size)), ROMME_MELDS)


@pytest.mark.parametrize("size", [13, 14])
def test_kernel_matches_arrange_on_joker_heavy_and_meld_dense_hands(size):
    _agree(joker_heavy(ROMME_MELDS, size, 200, 2000 + size), ROMME_MELDS)
    _agree(meld_dense(ROMME_MELDS, size, 200, 3000 + size), ROMME_MELDS)


@pytest.mark.parametrize("name", [k for k in KNOBS if k != "default"])
def test_kernel_matches_arrange_under_every_meld_knob(name):
    rules = KNOBS[name]
    _agree(sample_deals(rules.pack, 13, 80, np.random.default_rng(4000)), rules)
    _agree(joker_heavy(rules, 14, 80, 4001), rules)
    _agree(meld_dense(rules, 13, 80, 4002), rules)


@pytest.mark.parametrize("name", ["default", "ace around", "lenient jokers"])
def test_kernel_matches_brute_force_on_small_hands(name):
    """A third route: tests/brute_force.py tries every meld of every card (9-card hands)."""
    from brute_force import brute_max_opening

    rules = KNOBS[name]
    hands = np.concatenate([meld_dense(rules, 9, 30, 7000), joker_heavy(rules, 9, 15, 7001)])
    split = ko.max_opening_batch(hands, rules)
    search = ko.max_opening_batch(hands, rules, method="search")
    for h, a, b in zip(hands, split, search):
        want = brute_max_opening(from_counts(h), rules)
        assert a == b == want, f"{format_hand(from_counts(h))}: split {a}, search {b}, brute force {want}"


def test_single_hand_call_and_cap():
    hands = meld_dense(ROMME_MELDS, 13, 300, 5000)
    exact = ko.max_opening_batch(hands, ROMME_MELDS)
    for h, v in zip(hands[:100], exact[:100]):
        assert ko.max_opening_fast(from_counts(h), ROMME_MELDS) == v
    for cap in (30, 40, 50):
        capped = ko.max_opening_batch(hands, ROMME_MELDS, cap=cap)
        assert ((capped >= cap) == (exact >= cap)).all()  # every threshold up to the cap is answered
        assert (capped[exact < cap] == exact[exact < cap]).all()


def test_run_value_table_matches_meld_readings():
    """Every run table entry (naturals M of one suit, j jokers) is the best opening value over
    the readings melds.meld_readings gives, and -1 exactly when there is none."""
    for rules in (ROMME_MELDS, KNOBS["ace around"], KNOBS["lenient jokers"]):
        _, O, _ = ko.opening_tables(rules)
        rng = np.random.default_rng(6000)
        masks = [m for m in range(1, 8192) if bin(m).count("1") <= 3] + list(rng.integers(1, 8192, 300))
        for M in masks:
            naturals = [39 + q for q in range(13) if (int(M) >> q) & 1]  # hearts
            for j in range(0, 3):
                runs = [r for r in meld_readings(naturals + [JOKER] * j, rules) if r.kind == "run"]
                want = max((r.opening_value() for r in runs), default=-1)
                assert O[ko.O_RV + j * 8192 + int(M)] == want, (format_hand(naturals), j)


# --------------------------------------------------------------------------- rules §3.7 facts the opening touches


def opening(text: str, rules=ROMME_MELDS) -> int:
    """The opening value by all three routes, which must agree."""
    hand = parse_hand(text)
    counts = to_counts(hand)[None, :]
    values = {max_opening(hand, rules).value, ko.max_opening_fast(hand, rules),
              int(ko.max_opening_batch(counts, rules)[0]), int(ko.max_opening_batch(counts, rules, method="search")[0])}
    assert len(values) == 1, (text, values)
    return values.pop()


def test_rules_3_7_5_opening_values():
    assert opening("Qc Kc Ac") == 31
    assert opening("Ah 2h 3h") == 6
    assert opening("As Ah Ad") == 33
    assert opening("7h JK 9h") == 24
    assert opening("10s Js Qs 3d 3h 3c") == 39 < ROMME.opening_min  # does not open at 40
    assert opening("10s Js Qs Ks") == 40 >= ROMME.opening_min  # opens


def test_rules_3_7_2_to_4_invalid_melds_lay_nothing():
    assert opening("JK JK 6s") == 0  # §3.7.2: one natural and two jokers
    assert opening("3s JK JK 6s") == 18  # §3.7.2: valid, 3+4+5+6
    assert opening("3s JK JK 6s 7s") == 30  # 6-7-JK-JK (6+7+8+9) beats 3-JK-JK-6-7 (25)
    assert opening("6s 6s 6h") == 0  # §3.7.3: same suit twice
    assert opening("6s 6h 6d 6c") == 24
    assert opening("Ks As 2s") == 0  # §3.7.4: no run around the corner
    assert opening("Ks As 2s", KNOBS["ace around"]) == 23  # ... unless ace=around: K 10 + A 11 + 2


def test_opening_reads_jokers_and_aces_for_the_most_points():
    assert opening("5h 6h JK") == 18  # 5-6-7, not 4-5-6
    assert opening("Qs Ks JK") == 31  # Q-K-A: the joker is an ace worth 11
    assert opening("As 2s 3s 4s") == 10  # the ace low counts 1
    assert opening("As 2s 3s 4s 5s 6s 7s 8s 9s 10s Js Qs Ks") == 95  # 2…J and Q-K-A: the ace counts 11
    assert opening("JK 2s 3s 4s 5s 6s 7s 8s 9s 10s Js Qs Ks") == 95  # 2…A: the joker is a high ace
    assert opening("As Ah Ad 2s 3s") == 33  # the aces as a set beat A-2-3 (6)


def test_rules_3_7_6_penalty_and_the_issue_example(capsys):
    """`rumino deadwood --variant romme` prints the §3.5 penalty (the whole hand) and the best opening."""
    code = main(["deadwood", "As", "JK", "Kd", "5c", "--variant", "romme", "--json"])
    data = json.loads(capsys.readouterr().out)
    assert code == 0 and data["penalty"] == 11 + 20 + 10 + 5 == 46
    code = main(["deadwood", "10s Js Qs 3d 3h 3c Kd", "--variant", "romme", "--json"])
    data = json.loads(capsys.readouterr().out)
    assert (data["deadwood"], data["penalty"]) == (10, 49)
    assert data["opening"] == {"value": 39, "melds": [["10s", "Js", "Qs"], ["3c", "3d", "3h"]], "opens": False,
                               "opening_min": 40}
    code = main(["deadwood", "10s Js Qs Ks 3d", "--variant", "romme"])
    out = capsys.readouterr().out
    assert code == 0 and "penalty 43" in out and "best opening 40: 10s Js Qs Ks — opens (40 needed)" in out


def test_kernel_refuses_bad_input():
    with pytest.raises(InvalidCardError, match="3 copies of 7h"):
        ko.max_opening_fast(parse_hand("7h 7h 7h"), ROMME_MELDS)
    bad = np.zeros((2, 53), dtype=np.int8)
    bad[1, JOKER] = 7
    with pytest.raises(InvalidCardError, match="row 1 of counts holds 7 jokers"):
        ko.max_opening_batch(bad, ROMME_MELDS)
    with pytest.raises(RuleConfigError, match="distinct suits"):
        ko.max_opening_batch(bad[:1], GIN_MELDS, method="split")
    with pytest.raises(RuminoError, match="cap is 0"):
        ko.max_opening_batch(bad[:1], ROMME_MELDS, cap=0)
    with pytest.raises(RuminoError, match="method is 'fast'"):
        ko.max_opening_batch(bad[:1], ROMME_MELDS, method="fast")


# --------------------------------------------------------------------------- the simulation


def test_simulation_counts_are_the_reference_values_of_the_same_deals():
    """The grid of a small seeded run equals arrange.max_opening over the very hands the chunks deal."""
    n, seed, chunk = 500, 11, 200
    s = simulate_opening(n, seed, cards=14, chunk=chunk)
    want = np.zeros_like(s.grid)
    for size, ss in zip(chunk_sizes(n, chunk), chunk_seeds(seed, 3)):
        for h in sample_deals(ROMME_PACK, 14, size, np.random.default_rng(ss)):
            want[h[JOKER], max_opening(from_counts(h), ROMME_MELDS).value] += 1
    assert (s.grid == want).all() and s.deals() == n
    # the report: P(open >= 40) and each threshold from the same grid
    r = s.report()
    assert r["probability"]["n"] == n and r["probability"]["successes"] == int(want[:, 40:].sum())
    assert sum(v["n"] for v in r["by_jokers"].values()) == n
    assert [int(t) for t in r["thresholds"]] == list(THRESHOLDS)


def test_simulation_is_seeded_and_independent_of_the_executor():
    from concurrent.futures import ThreadPoolExecutor

    a = simulate_opening(30_000, seed=5, chunk=10_000)
    with ThreadPoolExecutor(2) as pool:
        b = simulate_opening(30_000, seed=5, chunk=10_000, executor=pool)
    c = simulate_opening(30_000, seed=6, chunk=10_000)
    assert (a.grid == b.grid).all() and not (a.grid == c.grid).all()


def _exact_three_card(threshold: int) -> Fraction:
    """P(3 dealt cards can open with >= threshold), by listing every 3-card multiset with its number
    of deals and reading it with melds.check_meld (a route independent of both searches)."""
    hits = 0
    for kinds in combinations_with_replacement(range(53), 3):
        counts = {k: kinds.count(k) for k in set(kinds)}
        ways = prod(comb(ROMME_PACK.copies(k), c) for k, c in counts.items())
        if ways and is_meld(kinds, ROMME_MELDS) and check_meld(kinds, ROMME_MELDS).opening_value() >= threshold:
            hits += ways
    return Fraction(hits, comb(ROMME_PACK.size, 3))


def test_simulated_three_card_deal_against_its_exact_value():
    exact = _exact_three_card(24)
    s = simulate_opening(400_000, seed=7, cards=3)
    e = s.p_open(24)
    assert abs(e.z_score(exact)) < 4.5, (float(exact), str(e))
    assert e.contains(exact) or abs(e.z_score(exact)) < 4.5
    # the jokers dealt follow the hypergeometric law
    for j in range(3):
        p = Fraction(comb(6, j) * comb(104, 3 - j), comb(110, 3))
        assert abs(s.p_jokers(j).z_score(p)) < 4.5


# --------------------------------------------------------------------------- the command


def run(capsys, *argv):
    code = main(list(argv))
    out, err = capsys.readouterr()
    return code, out, err


def test_cli_json_schema(capsys):
    code, out, _ = run(capsys, "odds", "opening", "--variant", "romme", "--samples", "3000", "--seed", "1",
                       "--cards", "14", "--opening-min", "35", "--no-progress", "--json")
    r = json.loads(out)
    assert code == 0
    assert {"samples", "seed", "cards", "opening_min", "probability", "by_jokers", "thresholds"} <= set(r)
    assert (r["samples"], r["seed"], r["cards"], r["opening_min"]) == (3000, 1, 14, 35)
    p = r["probability"]
    assert {"estimate", "ci95"} <= set(p) and p["ci95"][0] <= p["estimate"] <= p["ci95"][1]
    assert sum(fig["n"] for fig in r["by_jokers"].values()) == 3000
    for fig in r["by_jokers"].values():
        assert {"n", "estimate", "ci95"} <= set(fig) and fig["ci95"][0] <= fig["estimate"] <= fig["ci95"][1]
    assert r["thresholds"]["35"]["estimate"] == p["estimate"]
    assert [r["thresholds"][str(t)]["estimate"] for t in THRESHOLDS] == sorted(
        (r["thresholds"][str(t)]["estimate"] for t in THRESHOLDS), reverse=True)  # a higher bar is met less often
    # the same seed gives the same figures as the Python API
    s = simulate_opening(3000, 1, cards=14)
    assert s.p_open(35).value == p["estimate"]


def test_cli_text_with_table(capsys):
    code, out, err = run(capsys, "odds", "opening", "--samples", "2000", "--seed", "2", "--table", "--no-progress")
    assert code == 0 and err == ""
    assert "13 dealt cards from 110 — can they open with 40 or more?" in out
    assert "n = 2,000, seed 2" in out and "P(open ≥ M), the same deals" in out
    assert all(f"\n   {t} · " in out or f"\n  {t} · " in out for t in THRESHOLDS)


@pytest.mark.parametrize("argv,message", [
    (["--samples", "10", "--seed", "1", "--cards", "12"], "--cards is 12: a German Rommé deal gives 11, 13, 14 cards"),
    (["--samples", "0", "--seed", "1"], "--samples is 0"),
    (["--samples", "10"], "--seed S (0 or more) is needed"),
    (["--samples", "10", "--seed", "-1"], "--seed is -1: it must be 0 or more"),
    (["--samples", "10", "--seed", "1", "--opening-min", "0"], "--opening-min is 0"),
    (["--samples", "10", "--seed", "1", "--variant", "gin"], "Gin Rummy has no opening from the dealt hand"),
    (["--samples", "10", "--seed", "1", "--variant", "canasta"], "unknown variant 'canasta'"),
    (["--samples", "10", "--seed", "1", "--workers", "0"], "--workers is 0"),
])
def test_cli_bad_input_exits_2_with_one_line(capsys, argv, message):
    code, out, err = run(capsys, "odds", "opening", "--no-progress", *argv)
    assert code == 2 and out == ""
    assert err.count("\n") == 1 and message in err, err


def test_deadwood_bad_card_for_romme_exits_2(capsys):
    code, out, err = run(capsys, "deadwood", "7h 7h 7h", "--variant", "romme")
    assert code == 2 and out == "" and "3 copies of 7h" in err
