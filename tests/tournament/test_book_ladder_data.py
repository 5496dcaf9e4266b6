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
