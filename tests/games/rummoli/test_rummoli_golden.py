"""Golden Rummoli playthroughs: seeded games whose record and per-action digest are committed in
tests/golden/rummoli_*.json. Replaying a record through the checked ``apply`` must give the same
digest of every seat's view after every action, and the same bots from the same seeds must choose
the same actions. The files were written once by ``PYTHONPATH=$PWD python tests/games/rummoli/test_rummoli_golden.py``;
rewrite them only for a deliberate change of the rules or the bots, and say so in the commit.
"""

from __future__ import annotations

import hashlib
import json

import pytest
from golden_replay import GOLDEN, check_golden_replay, play_traced, write_golden_files

CASES = [
    {"name": "rummoli_4p_defaults", "seed": 1, "players": ["default", "default", "default", "random"], "rules": {}},
    {"name": "rummoli_3p_betting_sealed_claims", "seed": 2, "players": ["default", "random", "default"],
     "rules": {"poker_method": "betting", "widow_auction": "sealed", "manual_claims": True, "bet_size": 2}},
    {"name": "rummoli_5p_fines_poker_sweep", "seed": 3, "players": ["default", "random", "default", "random", "default"],
     "rules": {"colour_change_rule": "fine_per_pass", "final_sweep": "poker_deal", "widow_deal_position": "first",
               "widow_paycard_restriction": True}},
    {"name": "rummoli_2p_fallback_partial", "seed": 4, "players": ["random", "default"],
     "rules": {"colour_change_rule": "any_colour_fallback", "short_ante": "partial", "initial_chips": 30,
               "rounds": 3, "widow_auction": "none"}},
]


def digest(game) -> str:
    """A short hash of every seat's view, the legal actions, the phase, the deal results and the end."""
    views = []
    for s in range(game.n_seats):
        v = game.view(s)
        views.append((v.phase, v.to_act, tuple(sorted(v.hand)), v.dealer, v.hand_number, v.chips, v.board,
                      v.in_game, v.in_hand, v.hand_sizes, v.widow_size, v.dead_size, v.widow_to, v.high_bid,
                      v.high_bidder, v.bidders, v.bet_level, v.committed, v.raises, v.folded, v.poker_winners,
                      v.poker_values, v.played, v.runs, v.need, v.lead_colour, v.claimable))
    last = game.results[-1] if game.results else None
    res = None if last is None else (last.number, last.ending, last.out, last.won, last.payments, last.deadlock,
                                     last.fines, last.chips, last.bid, last.widow_to)
    final = None if game.result is None else (game.result.winners, game.result.how, game.result.payouts,
                                              game.result.swept_by, game.result.chips)
    text = repr((game.phase, game.to_act, tuple(map(str, game.legal_actions())), tuple(views), res, final))
    return hashlib.sha256(text.encode()).hexdigest()[:12]


def play_case(case):
    return play_traced(case, digest, "rummoli")


def write_golden() -> None:  # pragma: no cover - run by hand
    write_golden_files(CASES, digest, "rummoli")


def test_every_case_has_a_golden_file():
    assert sorted(p.stem for p in GOLDEN.glob("rummoli_*.json")) == sorted(c["name"] for c in CASES)


@pytest.mark.parametrize("case", CASES, ids=lambda c: c["name"])
def test_golden_playthrough_replays_identically(case):
    check_golden_replay(case, digest, "rummoli")


def test_a_tampered_golden_record_is_caught():
    from rumino.errors import RecordError
    from rumino.playing.records import loads_record, replay

    data = json.loads((GOLDEN / "rummoli_4p_defaults.json").read_text(encoding="utf-8"))
    rec = data["record"]
    k = next(i for i, (_, a) in enumerate(rec["actions"]) if a.startswith("play"))
    rec["actions"][k][1] = "play " + ("2s" if rec["actions"][k][1] != "play 2s" else "3s")
    with pytest.raises(RecordError, match="does not replay|attributed"):
        replay(loads_record(rec))


if __name__ == "__main__":  # pragma: no cover
    write_golden()
