"""rumino.odds.poker: exact best-five-of-n tables (n = 5 … 18) and ``rumino odds poker``."""

from __future__ import annotations

import json
from itertools import combinations
from math import comb

import numpy as np
import pytest

from rumino.cli import main
from rumino.odds import poker
from rumino.odds.poker import CATEGORIES, PokerOddsError, best_five_table

# Published counts (Wikipedia, "Poker probability"; the 5- and 7-card rows are the
# standard ones, the 6-card row the "6-card poker hands" table).
PUBLISHED = {
    5: (40, 624, 3744, 5108, 10200, 54912, 123552, 1098240, 1302540),
    6: (1844, 14664, 165984, 205792, 361620, 732160, 2532816, 9730740, 6612900),
    7: (41584, 224848, 3473184, 4047644, 6180020, 6461620, 31433400, 58627800, 23294460),
}
SIZES = range(5, 19)


@pytest.mark.parametrize("n", sorted(PUBLISHED))
@pytest.mark.parametrize("method", ["complements", "patterns"])
def test_published_counts(n, method):
    assert tuple(best_five_table(n, method=method)[k] for k in CATEGORIES) == PUBLISHED[n]


def test_both_methods_agree_and_sum_to_all_hands_for_every_n():
    # both methods compute every n in one pass (about a second each once compiled), so all n are tested
    for n in SIZES:
        a, b = poker.table_by_rank_patterns(n), poker.table_by_complements(n)
        assert a == b, n
        assert list(a) == list(CATEGORIES)
        assert all(isinstance(x, int) and x >= 0 for x in a.values())
        assert sum(a.values()) == comb(52, n)


def test_brute_force_over_every_five_and_six_card_hand():
    # 2,598,960 and 20,358,520 hands through the compiled evaluator; 7 cards (134 M) is in bench/bench_poker.py
    for n in (5, 6):
        assert poker.brute_force_table(n) == best_five_table(n)


def test_facts_that_follow_from_the_deck():
    # 17 cards put five in some suit (pigeonhole): nothing below a flush is left
    for n in (17, 18):
        t = best_five_table(n)
        assert all(t[k] == 0 for k in CATEGORIES[4:]) and t["flush"] > 0
    # 12 different ranks of 13 always hold five in a row, so high card ends at 11 cards
    assert best_five_table(11)["high_card"] > 0 and best_five_table(12)["high_card"] == 0
    # 14 cards always hold a pair; one pair alone ends at 12 cards (13 cards with one pair leave one rank out)
    assert best_five_table(12)["one_pair"] > 0
    # more cards, more straight flushes and quads (as a share of all hands)
    shares = [best_five_table(n)["straight_flush"] / comb(52, n) for n in SIZES]
    assert shares == sorted(shares)


def test_simulation_within_four_standard_errors():
    # seeded: 100,000 hands of each size (bench/bench_poker.py runs 10^7)
    for n in SIZES:
        for k, fig in poker.compare_with_simulation(n, 100_000, seed=n).items():
            assert abs(fig["z"]) < 4, (n, k, fig)


def test_suit_assignments_by_rows_and_by_columns_agree_with_brute_force():
    # the "no suit holds five" factor, counted rank by rank (method A) and suit by suit (method B)
    profiles = list(poker._profiles())
    rows = np.zeros(len(profiles), dtype=np.int64)
    poker._suit_ways_rows(np.array(profiles, dtype=np.int64), rows)
    for prof, r in zip(profiles, rows):
        assert poker._suit_ways_by_columns(prof) == int(r), prof
    # brute force on small profiles: every choice of suits for each rank
    for prof in [(5, 0, 0, 0), (3, 1, 0, 0), (2, 2, 1, 0), (6, 0, 0, 1), (1, 0, 2, 1)]:
        sizes = [c + 1 for c, m in enumerate(prof) for _ in range(m)]
        count = 0

        def walk(i, per_suit):
            nonlocal count
            if i == len(sizes):
                count += 1
                return
            for s in combinations(range(4), sizes[i]):
                new = list(per_suit)
                for x in s:
                    new[x] += 1
                if max(new) <= 4:
                    walk(i + 1, new)

        walk(0, [0, 0, 0, 0])
        assert poker._suit_ways_by_columns(prof) == count, prof


@pytest.mark.parametrize("bad", [4, 19, 0, -5, "7", 7.0, True])
def test_bad_sizes_raise(bad):
    with pytest.raises(PokerOddsError, match="number of cards"):
        best_five_table(bad)


def test_bad_method_and_samples_raise():
    with pytest.raises(PokerOddsError, match="unknown method 'fast'"):
        best_five_table(7, method="fast")
    with pytest.raises(PokerOddsError, match="at least 1"):
        poker.simulate_table(7, 0, seed=1)
    with pytest.raises(PokerOddsError, match="too long"):
        poker.brute_force_table(9)


# ---------------------------------------------------------------- CLI

def run(capsys, *argv):
    code = main(list(argv))
    out, err = capsys.readouterr()
    return code, out, err


def test_cli_json_reproduces_the_published_seven_card_counts(capsys):
    code, out, _ = run(capsys, "odds", "poker", "--cards", "7", "--json")
    data = json.loads(out)
    assert code == 0 and data["cards"] == 7 and data["total"] == comb(52, 7) == 133_784_560
    assert list(data["counts"]) == list(CATEGORIES)
    assert tuple(data["counts"].values()) == PUBLISHED[7]


def test_cli_both_methods_print_the_same_table(capsys):
    _, a, _ = run(capsys, "odds", "poker", "--cards", "13", "--json")
    _, b, _ = run(capsys, "odds", "poker", "--cards", "13", "--json", "--method", "patterns")
    a, b = json.loads(a), json.loads(b)
    assert a["counts"] == b["counts"] and a["total"] == comb(52, 13)


def test_cli_text(capsys):
    code, out, _ = run(capsys, "odds", "poker", "--cards", "5")
    assert code == 0
    lines = out.splitlines()
    assert lines[0] == "best five of 5 cards from 52: C(52, 5) = 2,598,960 hands (exact)"
    sf = next(line for line in lines if line.startswith("straight flush"))
    assert "40" in sf and "0.00154%" in sf and "1 in 64,974" in sf
    assert "1,302,540" in next(line for line in lines if line.startswith("high card"))
    _, out, _ = run(capsys, "odds", "poker", "--cards", "18")
    assert "high card" in out and "never" in out


@pytest.mark.parametrize("argv,message", [
    (["--cards", "4"], "from 5 to 18"),
    (["--cards", "19"], "from 5 to 18"),
])
def test_cli_bad_sizes_exit_2(capsys, argv, message):
    code, out, err = run(capsys, "odds", "poker", *argv)
    assert code == 2 and out == "" and message in err and err.startswith("rumino odds poker: ")
    assert len(err.strip().splitlines()) == 1


def test_cli_refuses_non_numbers(capsys):
    with pytest.raises(SystemExit) as exc:
        main(["odds", "poker", "--cards", "seven"])
    assert exc.value.code == 2
