"""Golden records: seeded Rumino games recorded before the engine moved must replay identically.

Each ``tests/golden/*.json`` holds a record and the digest of every seat's view
after each action (see tests/golden_trace.py). Replaying the record through the
checked ``apply`` must give the same digest at every step and the same result;
the same bots from the same seeds must choose the same actions.
"""

from __future__ import annotations

import json
import pathlib

import pytest
from golden_trace import CASES, digest, play_case

from rumino.errors import IllegalActionError
from rumino.engine import TABLE
from rumino.playing.records import loads_record, record_of, replay

GOLDEN = pathlib.Path(__file__).resolve().parents[1] / "golden"
FILES = sorted(GOLDEN.glob("rumino_*.json"))  # other games have their own golden tests


def _load(path):
    return json.loads(path.read_text(encoding="utf-8"))


def test_every_case_has_a_golden_file():
    assert sorted(p.stem for p in FILES) == sorted(c["name"] for c in CASES)
    assert len(FILES) >= 8


@pytest.mark.parametrize("path", FILES, ids=lambda p: p.stem)
def test_golden_record_replays_identically(path):
    data = _load(path)
    rec = loads_record(data["record"])
    trace = data["trace"]
    game = replay(rec, upto=0)
    assert digest(game) == trace[0]
    for i, (actor, action) in enumerate(rec.actions, start=1):
        assert actor == (TABLE if action.word == "join" else game.to_act)
        game.apply(action)
        assert digest(game) == trace[i], f"{path.stem}: state differs after action {i} ({action})"
    assert len(trace) == len(rec.actions) + 1
    again = replay(rec)  # the records module's own check of the final result
    assert again.game_over and list(again.scores) == data["record"]["result"]["scores"]


@pytest.mark.parametrize("case", CASES, ids=lambda c: c["name"])
def test_golden_bots_choose_the_same_actions(case):
    data = _load(GOLDEN / f"{case['name']}.json")
    game, _ = play_case(case, trace_it=False)
    mine = record_of(game, players=case["players"]).as_json()
    # knobs added after the recording take their defaults: compare the rules as objects
    assert loads_record(mine).rules == loads_record(data["record"]).rules
    assert {k: v for k, v in mine.items() if k != "rules"} == {k: v for k, v in data["record"].items() if k != "rules"}


def test_a_tampered_golden_record_is_caught():
    data = _load(GOLDEN / "rumino_2p_greedy.json")
    rec = data["record"]
    k = next(i for i, (_, a) in enumerate(rec["actions"]) if a.startswith("discard"))
    # discard a card the player does not hold: the checked apply refuses it
    held = replay(loads_record(rec), upto=k).hands[rec["actions"][k][0]]
    other = next(c for c in range(52) if c not in held)
    from rumino.cards import format_card
    rec["actions"][k][1] = f"discard {format_card(other)}"
    with pytest.raises(Exception) as err:
        replay(loads_record(rec))
    assert "does not replay" in str(err.value) or isinstance(err.value, IllegalActionError)
