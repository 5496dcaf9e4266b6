"""Write the golden records of Rumino games (run once, BEFORE a refactor; never to make a test pass).

Each file holds a game record (rumino.playing.records format) and a trace: after every
action, a digest of what every seat can see (its view) and of the legal actions.
tests/playing/test_golden.py replays the record through the checked ``apply`` and
compares the trace, and plays the same bots from the same seeds to check they
choose the same actions. Regenerating these files after a change of behaviour
defeats their purpose: do it only for a deliberate rules change, and say so.

    PYTHONPATH=$PWD python tests/golden/make_golden.py          # writes only cases with no file yet
    PYTHONPATH=$PWD python tests/golden/make_golden.py --all    # rewrites every file (a deliberate change)
"""

from __future__ import annotations

import json
import pathlib
import sys

HERE = pathlib.Path(__file__).parent
sys.path.insert(0, str(HERE.parent))

from golden_trace import CASES, play_case  # noqa: E402

from rumino.playing.records import record_of  # noqa: E402


def main() -> None:
    rewrite = "--all" in sys.argv[1:]
    for case in CASES:
        if (HERE / f"{case['name']}.json").exists() and not rewrite:
            continue
        game, trace = play_case(case)
        data = {"case": case, "record": record_of(game, players=case["players"]).as_json(), "trace": trace}
        path = HERE / f"{case['name']}.json"
        path.write_text(json.dumps(data, separators=(",", ":")) + "\n", encoding="utf-8")
        print(f"{path.name}: {len(trace)} actions, {len(game.results)} hands, result {game.result.how}")


if __name__ == "__main__":
    main()
