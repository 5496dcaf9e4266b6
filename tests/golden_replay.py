"""Golden playthroughs of every game: the one checker and the one writer the games' tests share.

Each case of golden_trace.CASES has two committed files in tests/golden/:

* ``<name>.json``: the case and the game's record (rules, seed, players, every action, result),
  which replays exactly through the checked ``apply``;
* ``<name>.playthrough.txt``: what a person reads (format in golden_trace.py): one line per action
  with the public state after it, every hand and the table when they change, the results.

The text sits beside the record rather than inside it so that a change shows up in ``git diff``
and in the failure message as readable lines, while the record stays the machine's exact input.
The test replays the record, writes the playthrough afresh and compares it line by line; the
first difference is reported with its step, expected and got lines and a few lines of context.
It also plays the case again with the same bots from the same seeds and expects the same record.

Regenerate every playthrough from the committed records (after a deliberate change of behaviour
or of the text format; never to make a test pass unread, and say so in the commit)::

    PYTHONPATH=$PWD python tests/golden_replay.py --write            # all playthroughs, records kept
    PYTHONPATH=$PWD python tests/golden_replay.py --record NAME ...  # play NAME's bots again: new record too
"""

from __future__ import annotations

import difflib
import json
import pathlib
import sys

if __name__ == "__main__":  # run as a script: golden_trace sits beside this file
    sys.path.insert(0, str(pathlib.Path(__file__).parent))

from golden_trace import CASES, play_case, playthrough

from rumino.playing.records import loads_record, record_of

GOLDEN = pathlib.Path(__file__).parent / "golden"
CONTEXT = 3  # lines shown before and after the first difference


def cases_of(prefix: str) -> list[dict]:
    """The cases whose names start with ``prefix_`` (``"gin"``, ``"wiener"`` ...)."""
    return [c for c in CASES if c["name"].split("_")[0] == prefix]


def record_path(name: str) -> pathlib.Path:
    return GOLDEN / f"{name}.json"


def playthrough_path(name: str) -> pathlib.Path:
    return GOLDEN / f"{name}.playthrough.txt"


def load(name: str, folder: pathlib.Path = GOLDEN) -> dict:
    return json.loads((folder / f"{name}.json").read_text(encoding="utf-8"))


def _step_of(lines: list[str], i: int) -> str:
    """The step a line belongs to: the nearest step line at or above it (indented lines belong to it)."""
    for line in reversed(lines[:i + 1]):
        head = line[:4].strip()
        if head.isdigit() and not line.startswith("#"):
            return f"step {head}"
    return "the header"


def first_difference(expected: list[str], got: list[str], name: str) -> str | None:
    """None if the lines agree; else a message with the step, expected and got lines and some context."""
    if expected == got:
        return None
    i = next((k for k, (a, b) in enumerate(zip(expected, got)) if a != b), min(len(expected), len(got)))
    gone = "(no line: the playthrough ends here)"
    exp = expected[i] if i < len(expected) else gone
    new = got[i] if i < len(got) else gone
    diff = list(difflib.unified_diff(expected, got, "expected (committed)", "got (replayed)", n=CONTEXT,
                                     lineterm=""))
    second = next((k for k in range(3, len(diff)) if diff[k].startswith("@@")), len(diff))
    hunk = diff[:min(second, 4 * CONTEXT + 6)]  # the first hunk, at most a screenful
    differing = sum(1 for a, b in zip(expected, got) if a != b) + abs(len(expected) - len(got))
    many = "1 line differs" if differing == 1 else f"{differing} lines differ"
    return (f"{name}: the playthrough differs from tests/golden/{name}.playthrough.txt first at "
            f"{_step_of(expected if i < len(expected) else got, i)} (line {i + 1}; {many}):\n"
            f"  expected: {exp}\n  got:      {new}\n" + "\n".join(hunk) +
            "\nIf the change is deliberate: python tests/golden_replay.py --write, and read the diff.")


def check_playthrough(case: dict, folder: pathlib.Path = GOLDEN) -> None:
    """Replay the committed record of ``case`` and compare its playthrough with the committed text."""
    data = load(case["name"], folder)
    assert data["case"] == case, f"{case['name']}: the file's case differs from golden_trace.CASES"
    assert set(data) == {"case", "record"}, f"{case['name']}: unexpected keys {sorted(data)}"
    expected = (folder / f"{case['name']}.playthrough.txt").read_text(encoding="utf-8").splitlines()
    got = playthrough(case, data["record"])
    message = first_difference(expected, got, case["name"])
    assert message is None, message


def check_bots_choose_the_same_actions(case: dict) -> None:
    """The same bots from the same seeds make the committed record again (actions, players, result)."""
    committed = load(case["name"])["record"]
    mine = record_of(play_case(case), players=case["players"]).as_json()
    # knobs added after a recording take their defaults: compare the rules as objects
    assert loads_record(mine).rules == loads_record(committed).rules, f"{case['name']}: the rules differ"
    for key in committed:
        if key != "rules":
            assert mine[key] == committed[key], f"{case['name']}: the bots' game differs in the record's {key!r}"


def dumps_golden(case: dict, record: dict) -> str:
    """The JSON file's text: one action a line, so that a changed action is a one-line diff."""
    lines = ['{"case": ' + json.dumps(case, ensure_ascii=False) + ",", ' "record": {']
    items = list(record.items())
    for k, (key, value) in enumerate(items):
        end = "," if k < len(items) - 1 else "}}"
        if key == "actions" and value:
            acts = [json.dumps(a, ensure_ascii=False) for a in value]
            lines += ['  "actions": ['] + [f"   {a}," for a in acts[:-1]] + [f"   {acts[-1]}]{end}"]
        else:
            lines.append(f"  {json.dumps(key)}: {json.dumps(value, ensure_ascii=False)}{end}")
    return "\n".join(lines) + "\n"


def write(case: dict, *, rerecord: bool = False, folder: pathlib.Path = GOLDEN) -> int:
    """Write the playthrough of ``case`` from its committed record (or a new record, ``rerecord``)."""
    if rerecord or not (folder / f"{case['name']}.json").exists():
        record = record_of(play_case(case), players=case["players"]).as_json()
    else:
        record = load(case["name"], folder)["record"]
    lines = playthrough(case, record)
    if not lines[-1].startswith("     = game over"):
        raise RuntimeError(f"{case['name']}: the record does not replay to the end of the game:\n{lines[-1]}")
    (folder / f"{case['name']}.json").write_text(dumps_golden(case, record), encoding="utf-8")
    (folder / f"{case['name']}.playthrough.txt").write_text("\n".join(lines) + "\n", encoding="utf-8")
    return len(lines)


def main(argv: list[str]) -> int:  # pragma: no cover - run by hand
    if argv[:1] == ["--write"]:
        chosen, rerecord = CASES, False
    elif argv[:1] == ["--record"] and argv[1:]:
        known = {c["name"]: c for c in CASES}
        unknown = [n for n in argv[1:] if n not in known]
        if unknown:
            print(f"no such golden case: {', '.join(unknown)}", file=sys.stderr)
            return 2
        chosen, rerecord = [known[n] for n in argv[1:]], True
    else:
        print(__doc__, file=sys.stderr)
        return 2
    for case in chosen:
        n = write(case, rerecord=rerecord)
        print(f"{case['name']}: {n} lines")
    return 0


if __name__ == "__main__":  # pragma: no cover
    sys.exit(main(sys.argv[1:]))
