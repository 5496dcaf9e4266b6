"""Golden playthroughs of any game, shared by the games' test files.

A case (``name``, ``seed``, ``players``, ``rules`` and, where a file covers several variants,
``variant``) is played by seeded bots; the committed JSON holds the game's record and a digest of
the visible state after every action (each test file brings its own ``digest``). The test replays
the record through the checked ``apply`` with the invariants after every action, compares every
digest, then plays the case again from its seed and expects the same actions.

Write the files by hand after a deliberate change of behaviour, e.g.
``python -c "import test_romme_game as t; t.write_golden()"`` from ``tests/``.
"""

from __future__ import annotations

import dataclasses
import json
import pathlib

from rumino.players import make_players
from rumino.playing.records import dumps_record, loads_record, replay
from rumino.variants import find_variant

GOLDEN = pathlib.Path(__file__).parent / "golden"


def play_traced(case: dict, digest, variant: str | None = None):
    """Play ``case`` to the end with its seeded bots; returns the game and the digest after each action."""
    v = find_variant(case.get("variant", variant))
    rules = dataclasses.replace(v.rules, **case["rules"])
    game = v.game.new(rules, len(case["players"]), seed=case["seed"])
    bots = make_players(case["players"], seed=[case["seed"], 1], game=v.game)
    trace = [digest(game)]
    while not game.game_over:
        game.apply(bots[game.to_act].choose(game.view(game.to_act)))
        trace.append(digest(game))
    return game, trace


def write_golden_files(cases: list[dict], digest, variant: str | None = None) -> None:  # pragma: no cover
    for case in cases:
        game, trace = play_traced(case, digest, variant)
        data = {"case": case, "record": json.loads(dumps_record(game, case["players"])), "trace": trace}
        (GOLDEN / f"{case['name']}.json").write_text(json.dumps(data, indent=0) + "\n", encoding="utf-8")


def check_golden_replay(case: dict, digest, variant: str | None = None) -> None:
    """Assert that the committed playthrough of ``case`` replays identically and is played again alike."""
    data = json.loads((GOLDEN / f"{case['name']}.json").read_text(encoding="utf-8"))
    assert data["case"] == case
    rec = loads_record(data["record"])
    trace = data["trace"]
    game = replay(rec, upto=0)
    assert digest(game) == trace[0] and len(trace) == len(rec.actions) + 1
    for i, (actor, action) in enumerate(rec.actions, start=1):
        assert actor == game.to_act
        game.apply(action)
        game.check_invariants()
        assert digest(game) == trace[i], f"{case['name']}: state differs after action {i} ({action})"
    assert game.game_over and list(game.scores) == data["record"]["result"]["scores"]
    # the same bots from the same seed choose the same actions
    again, trace2 = play_traced(case, digest, variant)
    assert trace2 == trace and [str(a) for _, a in again.history] == [str(a) for _, a in rec.actions]
