"""Golden playthroughs: seeded Rumino games recorded before the engine moved must replay identically,
and the shared comparison (tests/golden_replay.py) must say what changed when one does not.

Each ``tests/golden/<name>.json`` holds a case and its record; ``<name>.playthrough.txt`` the
text a person reads (format in tests/golden_trace.py). Replaying the record through the checked
``apply`` must write the same text line by line; the same bots from the same seeds must choose
the same actions. The other games' golden tests use the same helpers from their own test files.
"""

from __future__ import annotations

import shutil

import pytest
from golden_replay import (
    GOLDEN,
    cases_of,
    check_bots_choose_the_same_actions,
    check_playthrough,
    dumps_golden,
    load,
)
from golden_trace import CASES, playthrough

from rumino.cards import format_card
from rumino.errors import IllegalActionError
from rumino.playing.records import loads_record, replay

RUMINO = cases_of("rumino")


def test_every_golden_case_has_a_record_and_a_playthrough():
    """Every game's cases, records and texts match one to one (a file left behind or missing is caught)."""
    names = sorted(c["name"] for c in CASES)
    assert len(names) == len(set(names)) == 31
    assert sorted(p.stem for p in GOLDEN.glob("*.json")) == names
    assert sorted(p.name.removesuffix(".playthrough.txt") for p in GOLDEN.glob("*.playthrough.txt")) == names
    assert len(RUMINO) == 11


@pytest.mark.parametrize("case", RUMINO, ids=lambda c: c["name"])
def test_golden_playthrough_replays_identically(case):
    check_playthrough(case)


@pytest.mark.parametrize("case", RUMINO, ids=lambda c: c["name"])
def test_golden_bots_choose_the_same_actions(case):
    check_bots_choose_the_same_actions(case)


def test_a_tampered_golden_record_is_caught():
    data = load("rumino_2p_greedy")
    rec = data["record"]
    k = next(i for i, (_, a) in enumerate(rec["actions"]) if a.startswith("discard"))
    # discard a card the player does not hold: the checked apply refuses it
    held = replay(loads_record(rec), upto=k).hands[rec["actions"][k][0]]
    other = next(c for c in range(52) if c not in held)
    rec["actions"][k][1] = f"discard {format_card(other)}"
    with pytest.raises(Exception) as err:
        replay(loads_record(rec))
    assert "does not replay" in str(err.value) or isinstance(err.value, IllegalActionError)


def _copy(tmp_path, name):
    for suffix in (".json", ".playthrough.txt"):
        shutil.copy(GOLDEN / f"{name}{suffix}", tmp_path / f"{name}{suffix}")
    return next(c for c in CASES if c["name"] == name)


def test_a_changed_action_is_reported_with_its_step_and_both_lines(tmp_path):
    """Another legal discard at one step: the message names that step and shows expected and got."""
    case = _copy(tmp_path, "rumino_2p_greedy")
    data = load(case["name"])
    acts = data["record"]["actions"]
    rec = loads_record(data["record"])
    game = replay(rec, upto=0)
    for k, (_, action) in enumerate(rec.actions):
        text = str(action)
        others = [str(a) for a in game.legal_actions() if str(a).startswith("discard") and str(a) != text]
        if text.startswith("discard") and others:
            break
        game.apply(action)
    else:  # pragma: no cover - the record has many discards
        raise AssertionError("no step with another legal discard")
    acts[k][1] = others[0]
    (tmp_path / f"{case['name']}.json").write_text(dumps_golden(case, data["record"]), encoding="utf-8")
    with pytest.raises(AssertionError) as err:
        check_playthrough(case, tmp_path)
    msg = str(err.value)
    assert f"first at step {k + 1} " in msg, msg
    assert f"expected: {k + 1:>4} P{acts[k][0]}    {text}" in msg and f"got:      {k + 1:>4} P{acts[k][0]}    {others[0]}" in msg, msg
    assert msg.count("\n-") >= 1 and msg.count("\n+") >= 1, msg  # the context hunk of the diff


def test_a_changed_expected_line_is_reported_with_its_step(tmp_path):
    """One card of a hand altered in the committed text: the message names the step the hand line is under."""
    case = _copy(tmp_path, "gin_greedy_vs_random")
    path = tmp_path / f"{case['name']}.playthrough.txt"
    lines = path.read_text(encoding="utf-8").splitlines()
    i = next(i for i, line in enumerate(lines) if line.startswith("  10 "))
    j = next(j for j in range(i + 1, len(lines)) if lines[j].startswith("     P"))
    assert j == i + 1  # the hand line of step 10 sits right under it
    lines[j] = lines[j].rsplit(" ", 1)[0] + " XX"
    path.write_text("\n".join(lines) + "\n", encoding="utf-8")
    with pytest.raises(AssertionError) as err:
        check_playthrough(case, tmp_path)
    msg = str(err.value)
    assert "first at step 10 " in msg and f"(line {j + 1}; 1 line differs)" in msg, msg
    assert f"expected: {lines[j]}" in msg and "got:      " + lines[j].rsplit(" ", 1)[0] in msg, msg


def test_an_action_the_game_refuses_is_reported_at_its_step():
    """A discard of a card not held stops the text there: the last line names the step and the refusal."""
    case = next(c for c in CASES if c["name"] == "rumino_2p_greedy")
    data = load(case["name"])
    k = next(i for i, (_, a) in enumerate(data["record"]["actions"]) if a.startswith("discard"))
    held = replay(loads_record(data["record"]), upto=k).hands[data["record"]["actions"][k][0]]
    data["record"]["actions"][k][1] = f"discard {format_card(next(c for c in range(52) if c not in held))}"
    lines = playthrough(case, data["record"])
    assert lines[-1].startswith(f"{k + 1:>4} ") and "REFUSED" in lines[-1], lines[-1]
