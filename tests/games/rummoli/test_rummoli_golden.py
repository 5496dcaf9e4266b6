"""Golden Rummoli playthroughs: seeded games whose record and readable playthrough are committed in
tests/golden/rummoli_*.json and rummoli_*.playthrough.txt (cases in tests/golden_trace.py). Replaying
a record through the checked ``apply`` must write the same text line by line (phase, chips, sheet,
widow, bids, bets, the card needed, every hand), and the same bots from the same seeds must choose
the same actions. Rewrite the texts with ``PYTHONPATH=$PWD python tests/golden_replay.py --write``
only for a deliberate change of the rules or the bots, and say so in the commit.
"""

from __future__ import annotations

import pytest
from golden_replay import (
    cases_of,
    check_bots_choose_the_same_actions,
    check_playthrough,
    load,
)

CASES = cases_of("rummoli")


def test_every_case_is_there():
    assert sorted(c["name"] for c in CASES) == ["rummoli_2p_fallback_partial", "rummoli_3p_betting_sealed_claims",
                                                "rummoli_4p_defaults", "rummoli_5p_fines_poker_sweep"]


@pytest.mark.parametrize("case", CASES, ids=lambda c: c["name"])
def test_golden_playthrough_replays_identically(case):
    check_playthrough(case)


@pytest.mark.parametrize("case", CASES, ids=lambda c: c["name"])
def test_golden_bots_choose_the_same_actions(case):
    check_bots_choose_the_same_actions(case)


def test_a_tampered_golden_record_is_caught():
    from rumino.errors import RecordError
    from rumino.playing.records import loads_record, replay

    rec = load("rummoli_4p_defaults")["record"]
    k = next(i for i, (_, a) in enumerate(rec["actions"]) if a.startswith("play"))
    rec["actions"][k][1] = "play " + ("2s" if rec["actions"][k][1] != "play 2s" else "3s")
    with pytest.raises(RecordError, match="does not replay|attributed"):
        replay(loads_record(rec))
