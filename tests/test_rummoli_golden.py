"""Golden Rummoli playthroughs: seeded games whose record and per-action digest are committed in
tests/golden/rummoli_*.json. Replaying a record through the checked ``apply`` must give the same
digest of every seat's view after every action, and the same bots from the same seeds must choose
the same actions. The files were written once by ``PYTHONPATH=$PWD python tests/test_rummoli_golden.py``;
rewrite them only for a deliberate change of the rules or the bots, and say so in the commit.
"""

from __future__ import annotations

import dataclasses
import hashlib
import json
import pathlib

import pytest

from rumino.players import make_players
from rumino.records import dumps_record, loads_record, replay
from rumino.variants import find_variant

GOLDEN = pathlib.Path(__file__).parent / "golden"

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
    v = find_variant("rummoli")
    rules = dataclasses.replace(v.rules, **case["rules"])
    game = v.game.new(rules, len(case["players"]), seed=case["seed"])
    bots = make_players(case["players"], seed=[case["seed"], 1], game=v.game)
    trace = [digest(game)]
    while not game.game_over:
        game.apply(bots[game.to_act].choose(game.view(game.to_act)))
        trace.append(digest(game))
    return game, trace


def write_golden() -> None:  # pragma: no cover - run by hand
    for case in CASES:
        game, trace = play_case(case)
        data = {"case": case, "record": json.loads(dumps_record(game, case["players"])), "trace": trace}
        (GOLDEN / f"{case['name']}.json").write_text(json.dumps(data, separators=(",", ":")) + "\n",
                                                     encoding="utf-8")
        print(case["name"], len(trace), "actions", len(game.results), "deals", game.result.how)


def test_every_case_has_a_golden_file():
    assert sorted(p.stem for p in GOLDEN.glob("rummoli_*.json")) == sorted(c["name"] for c in CASES)


@pytest.mark.parametrize("case", CASES, ids=lambda c: c["name"])
def test_golden_playthrough_replays_identically(case):
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
    again, trace2 = play_case(case)  # the same bots from the same seed choose the same actions
    assert trace2 == trace and [str(a) for _, a in again.history] == [str(a) for _, a in rec.actions]


def test_a_tampered_golden_record_is_caught():
    from rumino.errors import RecordError

    data = json.loads((GOLDEN / "rummoli_4p_defaults.json").read_text(encoding="utf-8"))
    rec = data["record"]
    k = next(i for i, (_, a) in enumerate(rec["actions"]) if a.startswith("play"))
    rec["actions"][k][1] = "play " + ("2s" if rec["actions"][k][1] != "play 2s" else "3s")
    with pytest.raises(RecordError, match="does not replay|attributed"):
        replay(loads_record(rec))


if __name__ == "__main__":  # pragma: no cover
    write_golden()
