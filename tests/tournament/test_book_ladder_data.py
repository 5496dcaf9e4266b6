"""The luck chapter's results files are what the engine plays: their first deals, replayed.

``book/data/family_ladder.json`` (``rumino ladder --games 50 --seed 1``) and
``book/data/house_rules_ladder.json`` (``rumino ladder --house-rules --games 100 --seed 1``) keep every
heads-up hand; replaying a few with :func:`rumino.tournament.hands.play_hand` must give the same margins
and scores, so a change to a game's rules or bots that would move the chapter's figures is caught here.
"""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from rumino.tournament.hands import play_hand
from rumino.tournament.run import _score
from rumino.variants import find_variant

DATA = Path(__file__).resolve().parents[2] / "book" / "data"
LADDER = json.loads((DATA / "family_ladder.json").read_text(encoding="utf-8"))
HOUSE = json.loads((DATA / "house_rules_ladder.json").read_text(encoding="utf-8"))


def replay(variant, a, b, seed, k, rules=None):
    """Deal ``k`` played both ways, as a tournament plays it: a's margin and score in each seating."""
    first = play_hand(variant, [a, b], seed, k, rules=rules)
    second = play_hand(variant, [b, a], seed, k, rules=rules)
    return ([first.gains[0] - first.gains[1], second.gains[1] - second.gains[0]],
            [_score(first, 0), _score(second, 1)])


# random against greedy in every game (fast), and one search pair at a small budget
CASES = [(key, "random|" + ("default" if key == "rummoli" else "greedy")) for key in LADDER["games"]]
CASES.append(("knock-rummy", "greedy|search:40"))


@pytest.mark.parametrize("key,pair", CASES, ids=[f"{k}-{p}" for k, p in CASES])
def test_the_ladder_file_replays(key, pair):
    hands = LADDER["games"][key]["hands"][pair]
    a, b = pair.split("|")
    for k in range(2):
        margins, scores = replay(key, a, b, LADDER["seed"], k)
        assert margins == hands["margins"][k] and scores == hands["scores"][k], (key, pair, k)


@pytest.mark.parametrize("value", ["3", "10"])
def test_the_house_rule_file_replays_with_its_rules(value):
    column = HOUSE["columns"]["rumino-knock-limit"]
    rules = find_variant(column["variant"]).with_rules(**{column["knob"]: int(value)})
    hands = column["values"][value]["hands"]["random|greedy"]
    margins, scores = replay(column["variant"], "random", "greedy", HOUSE["seed"], 0, rules=rules)
    assert margins == hands["margins"][0] and scores == hands["scores"][0]


def test_the_games_are_compared_by_tests_of_their_differences():
    """The book's ranking says only what the tests between games show: a random player's hands against the
    best (Fisher, Holm over the pairs, the counts read from the hands) and the measured spreads (bootstrap)."""
    from scipy import stats as sps

    from rumino.stats import holm
    from rumino.tournament.ladder import hands_against_best, luck_tests, spread_tests

    data = LADDER
    tests = luck_tests(data)
    n = len(data["games"])
    assert len(tests) == n * (n - 1) // 2
    raw = []
    for t in tests:
        (wa, _, la), (wb, _, lb) = (hands_against_best(data["games"][k]) for k in (t["a"], t["b"]))
        p = sps.fisher_exact([[wa, la], [wb, lb]]).pvalue
        assert t["comparison"]["p_value"] == pytest.approx(min(1.0, p))
        raw.append(t["comparison"]["p_value"])
    assert [t["p_holm"] for t in tests] == pytest.approx(holm(raw))
    # the won hands agree with the tournament's own share (ties half)
    for key, game in data["games"].items():
        got = hands_against_best(game)
        if got is not None:
            won, tied, lost = got
            share = game["tournament"]["luck"]["against_best"]["random"]["weaker_wins_a_hand"][0]
            assert share == pytest.approx((won + tied / 2) / (won + tied + lost))
    for t in spread_tests(data):
        a, b = (data["games"][k]["tournament"]["luck"]["spread_elo"][0] for k in (t["a"], t["b"]))
        assert t["comparison"]["estimate"] == pytest.approx(a - b)
        assert t["shown"] == (t["comparison"]["ci95"][0] > 0 or t["comparison"]["ci95"][1] < 0)
