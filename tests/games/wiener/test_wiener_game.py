"""Conformance of Wiener Rummy and American Knock Rummy: seeded games under random house rules with
invariants after every action, the action universe tried at sampled steps, chips conserved, records
that replay, golden playthroughs (tests/golden/wiener_*.json), and the CLI.

After **every** action ``check_invariants`` verifies that every card of the pack is in exactly one
place, that the ledger balances and every chip a seat paid or received is its entry, its buy-back
and the knock money of the hand results (rules §5.5), that every hand result follows §5.4/§5.8,
and that who is in matches the elimination rule; chips are also checked here by their sum.
"""

from __future__ import annotations

import re
import dataclasses
import json

import numpy as np
import pytest
from golden_replay import cases_of, check_bots_choose_the_same_actions, check_playthrough

from rumino.cli import main
from rumino.engine.actions import Deal, Discard, Draw, KnockWith
from rumino.engine.protocol import play
from rumino.errors import IllegalActionError
from rumino.players import GreedyPlayer, RandomPlayer, ThresholdKnocker, make_players
from rumino.playing.records import dumps_record, loads_record, record_of, replay
from rumino.engine.knobs import knob_table
from rumino.variants.wiener import (KNOCK_RUMMY, WIENER, BuyBack, CallRummy, DeclineBuyBack, KnockRummyGame,
                                    KnockRummyRules, LayOff, WienerGame, WienerRules)

UNIVERSE = ([Draw("stock"), Draw("discard"), BuyBack(), DeclineBuyBack(), Deal()]
            + [cls(c) for cls in (Discard, KnockWith, CallRummy, LayOff) for c in range(53)])
INT_KNOB_VALUES = {"knock_max_deadwood": (0, 5, 5, 9, 20, None), "entry_chips": (0, 5, 7), "buyback_chips": (0, 5, 3),
                   "buyback_low": (81, 81, 60, 100), "rummy_bonus": (25, 0), "knock_penalty": (10, 0, 20),
                   "game_to": (100, 30, 200), "n_jokers": (2, 2, 0, 1, 4, 6)}


def random_rules(cls, base, rng: np.random.Generator):
    """A random value for every knob of ``cls`` (choices from the metadata, integers from the table above)."""
    changes = {}
    for row in knob_table(cls):
        name = row["name"]
        if row["choices"] is not None:
            options = list(row["choices"]) + ([None] if row["allow_none"] else [])
        else:
            options = [v for v in INT_KNOB_VALUES[name] if v is not None or row["allow_none"]]
        changes[name] = options[int(rng.integers(len(options)))]
    return dataclasses.replace(base, **changes)


def random_bot(rng: np.random.Generator):
    kind = int(rng.integers(3))
    if kind == 0:
        return RandomPlayer(rng=np.random.default_rng(int(rng.integers(2 ** 32))))
    if kind == 1:
        return ThresholdKnocker(int(rng.integers(0, 6)), max_rebuys=int(rng.integers(0, 2)))
    return GreedyPlayer(max_rebuys=None if rng.random() < 0.7 else 0)


def check_universe(game) -> None:
    """Legal actions pass ``check``; every other action of the universe is refused with player, phase
    and rule, leaving the state unchanged."""
    legal = set(game.legal_actions())
    before = game.snapshot()
    for action in UNIVERSE:
        if action in legal:
            game.check(action)
            continue
        if action not in game.ACTIONS:
            with pytest.raises(IllegalActionError, match="is not a"):
                game.apply(action)
            continue
        try:
            game.apply(action)
        except IllegalActionError as err:
            text = str(err)
            assert re.search(r"\((player \d+|nobody|the table), [^;()]+; rules §", text), text  # who, when (in words), the rule
            assert err.phase == game.phase and err.action == action
        else:  # pragma: no cover - an engine failure
            raise AssertionError(f"{action} was applied although legal_actions() does not list it")
        assert game.snapshot() == before, f"refusing {action} changed the state"


def chips_conserved(game) -> None:
    led = game.ledger
    assert sum(led.paid) == led.pot + sum(led.received) and led.pot >= 0
    assert all(isinstance(x, int) for x in (*led.paid, *led.received, led.pot))


def run_conformance(cls, base, rules_cls, n_games: int, seed: int, max_players: int):
    rng = np.random.default_rng(seed)
    endings, actions_seen = set(), set()
    for i in range(n_games):
        rules = random_rules(rules_cls, base, rng) if i else base
        n = int(rng.integers(2, max_players + 1))
        game = cls.new(rules, n, seed=[seed, i])
        bots = [random_bot(rng) for _ in range(n)]
        steps = [0]

        def after(g, actor, action):
            steps[0] += 1
            g.check_invariants(deep=g.hand_over)
            chips_conserved(g)
            actions_seen.add(type(action).__name__)
            if steps[0] % 37 == 0:
                check_universe(g)

        check_universe(game)
        play(game, bots, after=after, max_actions=200_000)
        assert game.game_over and sum(game.result.payouts) == game.result.pot
        endings.update(r.ending for r in game.results)
        if i % 4 == 0:  # the record replays to the identical state through the checked apply
            again = replay(loads_record(dumps_record(game)))
            assert again.snapshot()[:-1] == game.snapshot()[:-1] and again.scores == game.scores
    return endings, actions_seen


def test_conformance_wiener_random_knobs_invariants_after_every_action():
    endings, seen = run_conformance(WienerGame, WIENER, WienerRules, 40, seed=51, max_players=6)
    assert {"knock", "rummy"} <= endings
    assert {"Draw", "Discard", "KnockWith", "CallRummy", "BuyBack", "Deal"} <= seen


def test_conformance_knock_rummy_random_knobs_invariants_after_every_action():
    endings, seen = run_conformance(KnockRummyGame, KNOCK_RUMMY, KnockRummyRules, 40, seed=52, max_players=5)
    assert "knock" in endings and {"Draw", "Discard", "KnockWith", "Deal"} <= seen


def test_same_seed_same_game_and_bots_fit():
    def record(seed):
        game = WienerGame.new(WIENER, 3, seed=seed)
        play(game, make_players("greedy,random,threshold:2", seed=[seed, 1], game=WienerGame))
        return dumps_record(game, ["greedy", "random", "threshold:2"])

    assert record(5) == record(5) and record(5) != record(6)
    with pytest.raises(Exception, match="does not fit Wiener Rummy"):
        make_players("chaser,greedy", game=WienerGame)
    with pytest.raises(Exception, match="2 to 5 players"):
        make_players("greedy," * 5 + "greedy", game=KnockRummyGame)


def test_records_name_the_variant():
    g = play(KnockRummyGame.new(KNOCK_RUMMY, 2, seed=1), [GreedyPlayer(), GreedyPlayer()])
    assert record_of(g).variant == "knock-rummy"
    g = play(WienerGame.new(WIENER, 2, seed=1), [GreedyPlayer(), GreedyPlayer()])
    assert record_of(g).variant == "wiener"


def test_greedy_beats_random_and_buys_back():
    """The bots' Wiener defaults (players/wiener_defaults.py): knock when allowed, buy back when offered."""
    wins, buybacks = 0, 0
    for i in range(12):
        g = WienerGame.new(WIENER, 2, seed=[9, i])
        play(g, [GreedyPlayer(), RandomPlayer(seed=[9, i])])
        wins += g.result.winners == (0,)
        buybacks += g.buyback_used[0]
    assert wins >= 10
    offered = taken = 0
    for i in range(12):
        g = WienerGame.new(WIENER, 3, seed=[10, i])
        bots = [GreedyPlayer(), GreedyPlayer(max_rebuys=0), GreedyPlayer()]

        def after(g, actor, action):
            nonlocal offered, taken
            if isinstance(action, (BuyBack, DeclineBuyBack)):
                offered += 1
                taken += isinstance(action, BuyBack)
                assert isinstance(action, BuyBack) == (actor != 1)

        play(g, bots, after=after)
    assert offered >= 3 and 0 < taken < offered


# ----------------------------------------------------------------------------- golden playthroughs

# The cases are in tests/golden_trace.py, the committed record and readable playthrough of each in
# tests/golden/wiener_*.json and wiener_*.playthrough.txt; the shared checker and the one writer
# (``python tests/golden_replay.py --write``) in tests/golden_replay.py.
CASES = cases_of("wiener")


def test_every_golden_case_is_there():
    assert len(CASES) == 5 and all(c["name"].startswith("wiener_") for c in CASES)


@pytest.mark.parametrize("case", CASES, ids=lambda c: c["name"])
def test_golden_playthrough_replays_identically(case):
    """Replaying the record writes the committed playthrough line by line (invariants after every action)."""
    check_playthrough(case)


@pytest.mark.parametrize("case", CASES, ids=lambda c: c["name"])
def test_golden_bots_choose_the_same_actions(case):
    check_bots_choose_the_same_actions(case)


# ----------------------------------------------------------------------------- the CLI


@pytest.mark.parametrize("variant, players", [("wiener", "greedy,random,random"), ("knock-rummy", "greedy,greedy")])
def test_cli_simulate_variant(capsys, variant, players):
    assert main(["simulate", "--variant", variant, "--players", players, "--games", "12", "--seed", "1", "--json",
                 "--no-progress"]) == 0
    data = json.loads(capsys.readouterr().out)
    assert data["variant"] == variant and len(data["win_rate"]) == len(players.split(","))
    assert abs(sum(w["estimate"] for w in data["win_rate"]) - 1) < 1e-9


def test_cli_refuses_too_many_knock_rummy_players(capsys):
    assert main(["simulate", "--variant", "knock-rummy", "--players", ",".join(["greedy"] * 6), "--games", "1",
                 "--no-progress"]) == 2
    err = capsys.readouterr().err
    assert "2 to 5" in err and len(err.strip().splitlines()) == 1



def test_cli_deadwood_knock_rummy_has_no_limit(capsys):
    assert main(["deadwood", "Qh", "Kh", "Ah", "4d", "4h", "4s", "9h", "--variant", "knock rummy", "--json"]) == 0
    data = json.loads(capsys.readouterr().out)
    # §5.8: ace low (Q-K-A is no run), A = 1, and a knock at any count
    assert (data["variant"], data["deadwood"], data["can_knock"], data["knock_limit"]) == ("knock-rummy", 30, True, None)


def test_greedy_bots_cannot_stall_a_knock_rummy_hand():
    """Seed (7, 158): four greedy bots once held each other's cards for ever (one pack, no knock limit);
    their knock point now rises after PATIENCE turns in a hand (players/wiener_defaults.py)."""
    from rumino.playing.seeding import new_table

    game, bots = new_table("knock-rummy", ["greedy"] * 4, 7, 158)
    play(game, bots, max_actions=50_000)
    assert game.game_over and len(game.results) >= 2
