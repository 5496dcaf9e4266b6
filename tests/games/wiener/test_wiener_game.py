"""Conformance of Wiener Rummy and American Knock Rummy: seeded games under random house rules with
invariants after every action, the action universe tried at sampled steps, chips conserved, records
that replay, golden playthroughs (tests/golden/wiener_*.json), and the CLI.

After **every** action ``check_invariants`` verifies that every card of the pack is in exactly one
place, that the ledger balances and every chip a seat paid or received is its entry, its buy-back
and the knock money of the hand results (RULES §5.5), that every hand result follows §5.4/§5.8,
and that who is in matches the elimination rule; chips are also checked here by their sum.
"""

from __future__ import annotations

import dataclasses
import hashlib
import json

import numpy as np
import pytest
from golden_replay import check_golden_replay, play_traced, write_golden_files

from rumino.cli import main
from rumino.engine.actions import Deal, Discard, Draw, KnockWith
from rumino.engine.protocol import play
from rumino.errors import IllegalActionError
from rumino.players import GreedyPlayer, RandomPlayer, ThresholdKnocker, make_players
from rumino.playing.records import dumps_record, loads_record, record_of, replay
from rumino.variants._fields import knob_table
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
            assert "phase '" in text and "RULES §" in text and ("player " in text or "nobody" in text), text
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

CASES = [
    {"name": "wiener_3p_greedy_mix", "variant": "wiener", "seed": 1, "players": ["greedy", "threshold:0", "random"],
     "rules": {}},
    {"name": "wiener_4p_upcard_penalty", "variant": "wiener", "seed": 2,
     "players": ["greedy", "greedy", "threshold:2", "random"],
     "rules": {"deal_mode": "upcard", "knock_undercut_penalty": 10, "rummy_call_money": 2,
               "buyback_target": "best_other"}},
    {"name": "wiener_6p_13cards_void", "variant": "wiener", "seed": 3, "players": ["greedy"] * 3 + ["random"] * 3,
     "rules": {"hand_size": 13, "knock_max_deadwood": 9, "extra_turn_after_knock": False,
               "stock_exhausted": "void_hand", "knock_money_to_pot": True}},
    {"name": "wiener_knock_rummy_3p", "variant": "knock-rummy", "seed": 4, "players": ["greedy", "random", "threshold:3"],
     "rules": {}},
    {"name": "wiener_knock_rummy_2p_limit", "variant": "knock-rummy", "seed": 5, "players": ["greedy", "threshold:1"],
     "rules": {"knock_max_deadwood": 9, "game_to": 60}},
]


def digest(game) -> str:
    """A short hash of every seat's view, the legal actions, phase, actor, scores and chips."""
    views = []
    for s in range(game.n_seats):
        v = game.view(s)
        views.append((v.phase, v.to_act, tuple(sorted(v.hand)), v.discard_pile, v.stock_size, v.scores, v.in_game,
                      v.in_hand, v.hand_sizes, v.dealer, v.turn, v.hand_number, v.pot, v.chips_paid, v.chips_received,
                      v.knocker, v.last_round, v.opening, v.buyback_used, v.buyback_target, v.pickup, v.forbidden))
    last = game.results[-1] if game.results else None
    res = None if last is None else (last.number, last.ending, last.by, last.deadwood, last.deltas, last.money,
                                     last.winners, last.busted)
    final = None if game.result is None else (game.result.winners, game.result.how, game.result.payouts)
    text = repr((game.phase, game.to_act, tuple(map(str, game.legal_actions())), tuple(views), res, final))
    return hashlib.sha256(text.encode()).hexdigest()[:12]


def play_case(case):
    return play_traced(case, digest)


def write_golden() -> None:  # pragma: no cover - run by hand: python tests/games/wiener/test_wiener_game.py
    write_golden_files(CASES, digest)


@pytest.mark.parametrize("case", CASES, ids=lambda c: c["name"])
def test_golden_playthrough_replays_identically(case):
    check_golden_replay(case, digest)


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


if __name__ == "__main__":  # pragma: no cover
    write_golden()


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
