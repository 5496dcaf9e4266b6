"""Game records: JSON that replays to the identical state; malformed or tampered records raise
RecordError with a clear message, and loading never executes anything from the file."""

from __future__ import annotations

import builtins
import copy
import dataclasses
import json
import pickle
import re

import numpy as np
import pytest

from rumino.errors import RecordError
from rumino.engine import play
from rumino.players import GreedyPlayer, RandomPlayer, make_players
from rumino.playing.records import dumps_record, load_record, loads_record, record_of, replay, save_record
from rumino.variants.rumino import RUMINO, RuminoGame


def finished(seed=3, n=4, rules=RUMINO, bots=None):
    g = RuminoGame.new(rules, n, seed=seed)
    return play(g, bots or make_players(["greedy", "random", "chaser", "threshold:2", "greedy", "random"][:n],
                                        seed=seed))


@pytest.fixture(scope="module")
def game():
    return finished()


@pytest.fixture
def data(game):
    return json.loads(dumps_record(game, players=["a", "b", "c", "d"]))


def test_a_record_replays_to_the_identical_state(game, tmp_path):
    text = dumps_record(game, players=["a", "b", "c", "d"])
    again = replay(loads_record(text))
    assert again.snapshot() == game.snapshot() and again.result == game.result
    path = tmp_path / "game.json"
    save_record(game, path, players=["a", "b", "c", "d"])
    assert replay(load_record(path)).snapshot() == game.snapshot()
    rec = load_record(path)
    assert rec.players == ("a", "b", "c", "d") and rec.rules == RUMINO and rec.seed == 3


def test_records_of_house_rules_joins_and_rngs_replay():
    rules = dataclasses.replace(RUMINO, max_lay_size=None, stock_exhausted="end_and_score", stake=3,
                                out_of_turn_claim_priority="first_to_call")
    g = RuminoGame.new(rules, 3, rng=np.random.default_rng(77))
    bots = [GreedyPlayer(), RandomPlayer(seed=1), GreedyPlayer()]
    while not g.game_over:
        if g.table_actions():
            g.apply(g.table_actions()[0])  # a newcomer joins at every chance
            bots.append(RandomPlayer(seed=len(bots)))
        g.apply(bots[g.to_act].choose(g.view(g.to_act)))
    assert g.joins >= 1
    rec = loads_record(dumps_record(g))
    assert rec.seed is None and rec.rng_state is not None and len(rec.players) == 3
    assert replay(rec).snapshot() == g.snapshot()


def test_a_record_of_an_unfinished_game_and_replay_upto():
    g = RuminoGame.new(RUMINO, 3, seed=4)
    for _ in range(25):
        g.apply(GreedyPlayer().choose(g.view(g.to_act)))
    text = dumps_record(g)
    assert replay(text).snapshot() == g.snapshot()
    full = finished(seed=4, n=3)
    part = replay(dumps_record(full), upto=10)
    assert len(part.history) == 10
    assert len(replay(dumps_record(full), upto=0).history) == 0


@pytest.mark.parametrize("upto", ["5", -1, 10**6, 2.0, True])
def test_replay_refuses_an_upto_that_is_not_a_count_of_the_records_actions(game, upto):
    """'5' raised TypeError and -1 silently replayed all but the last action."""
    with pytest.raises(RecordError, match=r"replay\(upto=.*\): give a whole number of actions from 0 to \d+"):
        replay(dumps_record(game), upto=upto)


def test_a_finished_games_record_without_its_result_is_refused(data):
    """A record whose result was set to null replayed without its result being checked."""
    data["result"] = None
    with pytest.raises(RecordError, match=r"no result \(null\), but its game ends"):
        replay(json.dumps(data))


def test_same_seed_and_actions_give_the_same_record():
    assert dumps_record(finished(seed=9)) == dumps_record(finished(seed=9))
    assert dumps_record(finished(seed=9)) != dumps_record(finished(seed=10))


def test_a_rigged_game_cannot_be_recorded():
    g = RuminoGame.new(RUMINO, 2, seed=1)
    g.set_position(scores={0: 5})
    with pytest.raises(RecordError, match="set_position"):
        record_of(g)


# ---------------------------------------------------------------------------- malformed


def _mutate(data, path, value):
    d = copy.deepcopy(data)
    target = d
    for k in path[:-1]:
        target = target[k]
    if value is KeyError:
        del target[path[-1]]
    else:
        target[path[-1]] = value
    return d


MALFORMED = [
    (("format",), "chess", "format is 'chess'"),
    (("version",), 2, "version is 2"),
    (("version",), True, "version is True"),
    (("variant",), "canasta", "unknown variant 'canasta'"),
    (("variant",), "robber", "no playable engine"),
    (("variant",), 5, "variant is 5"),
    (("rules",), [], "rules must be an object"),
    (("rules", "knock_max"), 5, "unknown rule 'knock_max'"),
    (("rules", "knock_max_deadwood"), 500, "rule 'knock_max_deadwood': Knock limit: 500 is not allowed"),
    (("rules", "knock_max_deadwood"), "7", "rule 'knock_max_deadwood': Knock limit: '7' is not allowed"),
    (("rules", "stock_exhausted"), "never", "rule 'stock_exhausted': When the stock runs out: never is not"),
    (("rules", "stake"), [1], "a rule value is a number"),
    (("seed",), -1, "seed is -1"),
    (("seed",), "3", "seed is '3'"),
    (("seed",), 1.5, "seed is 1.5"),
    (("seed",), None, "neither a seed nor an rng_state"),
    (("rng_state",), {"bit_generator": "PCG64"}, "both a seed and an rng_state"),
    (("players",), "abcd", "players must be a list"),
    (("players",), ["a"], "1 players"),
    (("dealer",), 9, "dealer is 9"),
    (("actions",), {}, "actions must be a list"),
    (("actions", 0), "draw stock", "must be a pair"),
    (("actions", 0), [0, "draw stock", 1], "must be a pair"),
    (("actions", 0), ["me", "draw stock"], "actor 'me'"),
    (("actions", 0), [0, 42], "must be an action"),
    (("actions", 0), [0, "teleport"], "'teleport' is not an action"),
    (("actions", 0), [0, "discard 11h"], "not a card"),
    (("actions", 0), [0, "__import__('os').system('echo hi')"], "is not an action"),
    (("result",), [1], "result must be an object"),
    (("extra",), 1, "unknown key 'extra'"),
    (("seed",), KeyError, "lacks the key 'seed'"),
]


@pytest.mark.parametrize("path,value,message", MALFORMED, ids=[m[2] for m in MALFORMED])
def test_a_malformed_record_is_refused_with_a_clear_message(data, path, value, message, robber_without_engine):
    bad = _mutate(data, path, value)
    with pytest.raises(RecordError, match=re.escape(message)):
        replay(loads_record(json.dumps(bad)))


@pytest.mark.parametrize("text,message", [
    ("", "not valid JSON"), ("{", "not valid JSON"), ("[1, 2]", "is a list"), ("null", "is a NoneType"),
    ('{"format": 1, "format": 2}', "key 'format' twice"), ('{"a": NaN}', "NaN"),
    ("[" * 100_000 + "]" * 100_000, "nested too deeply|not valid JSON|is a list"),
    (b"\xff\xfe", "not UTF-8"),
])
def test_text_that_is_not_a_record(text, message):
    with pytest.raises(RecordError, match=message):
        loads_record(text)


def test_a_missing_file_is_a_record_error(tmp_path):
    with pytest.raises(RecordError, match="cannot read the record"):
        load_record(tmp_path / "nope.json")


# ---------------------------------------------------------------------------- tampered


def test_a_tampered_action_is_detected(data):
    actions = data["actions"]
    i = next(k for k, (_, a) in enumerate(actions) if a.startswith("discard"))
    for replacement in ("knock", "discard JK", "draw discard"):
        bad = _mutate(data, ("actions", i), [actions[i][0], replacement])
        with pytest.raises(RecordError, match=f"action {i} of the record|does not match its replay"):
            replay(loads_record(json.dumps(bad)))


def test_a_tampered_actor_result_or_seed_is_detected(data):
    actor = data["actions"][0][0]
    with pytest.raises(RecordError, match=f"attributed to player {(actor + 3) % 4}, but player {actor} is to act"):
        replay(loads_record(json.dumps(_mutate(data, ("actions", 0), [(actor + 3) % 4, data["actions"][0][1]]))))
    with pytest.raises(RecordError, match="attributed to the table"):
        replay(loads_record(json.dumps(_mutate(data, ("actions", 0), ["table", data["actions"][0][1]]))))
    scores = list(data["result"]["scores"])
    scores[0] -= 1
    with pytest.raises(RecordError, match="does not match its replay .differs in: scores"):
        replay(loads_record(json.dumps(_mutate(data, ("result", "scores"), scores))))
    with pytest.raises(RecordError, match="does not replay|does not match|attributed"):
        replay(loads_record(json.dumps(_mutate(data, ("seed",), 4))))
    swapped = copy.deepcopy(data)
    swapped["actions"][1], swapped["actions"][2] = swapped["actions"][2], swapped["actions"][1]
    with pytest.raises(RecordError):
        replay(loads_record(json.dumps(swapped)))
    shortened = _mutate(data, ("actions",), data["actions"][:-1])
    with pytest.raises(RecordError, match="does not match its replay"):
        replay(loads_record(json.dumps(shortened)))


def test_loading_and_replaying_never_execute_anything(data, monkeypatch):
    def forbidden(*args, **kwargs):
        raise AssertionError("a record made rumino execute code")

    monkeypatch.setattr(builtins, "eval", forbidden)
    monkeypatch.setattr(builtins, "exec", forbidden)
    monkeypatch.setattr(builtins, "compile", forbidden)
    monkeypatch.setattr(pickle, "loads", forbidden)
    monkeypatch.setattr(pickle, "load", forbidden)
    hostile = _mutate(data, ("players", 0), "__import__('os').system('touch /tmp/pwned')")
    game = replay(loads_record(json.dumps(hostile)))
    assert game.game_over
    evil = _mutate(data, ("rules", "set_suits"), "__import__('os').system('touch /tmp/pwned')")
    with pytest.raises(RecordError, match="rule .set_suits.: Suits in a set: "):
        loads_record(json.dumps(evil))


@pytest.mark.parametrize("key", ["seed", "result"])
def test_a_number_of_5000_digits_is_a_record_error(data, key):
    """Python refuses to read integers of more than 4,300 digits; that was a ValueError, not a record error."""
    text = json.dumps(data).replace(f'"{key}": ', f'"{key}": {"9" * 5000}, "x{key}": ', 1)
    with pytest.raises(RecordError, match="a number too long"):
        loads_record(text)
