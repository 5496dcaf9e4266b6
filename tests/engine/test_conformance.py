"""Conformance of every engine in the registry: random games under random house rules.

The test walks :data:`rumino.variants.VARIANTS` and runs every variant that has an
engine (``Variant.game``), so a new game joins it by being registered. For each
engine, a few small seeded games: a random player count the game allows, a random
value for every knob of its rules class (from the knobs' own metadata), bots drawn
from those that fit the game (random and the knock bots), and now and then a table
action (a newcomer) when the game offers one. After **every** action the game's
``check_invariants`` runs (cards, money, scores re-added from the log, the game's own
rules). At sampled steps every action of the game's action universe (built from its
:class:`~rumino.engine.protocol.ActionSet`) is tried: a legal one must pass ``check``,
an illegal one must be refused through the checked ``apply`` with a message naming the
player, the phase and the rule, leaving the state unchanged. Every game must end, and
its record must replay to the same state.
"""

from __future__ import annotations

import re
import dataclasses

import numpy as np
import pytest

from rumino.engine.results import GameResult
from rumino.errors import IllegalActionError
from rumino.players import GreedyPlayer, RandomPlayer, ThresholdKnocker
from rumino.playing.records import dumps_record, loads_record, replay
from rumino.variants import VARIANTS
from rumino.engine.knobs import knob_table

ENGINES = [v for v in VARIANTS.values() if v.game is not None]
GAMES_PER_ENGINE = 6
UNIVERSE_EVERY = 11
MAX_ACTIONS = 60_000


def action_universe(game_cls) -> list:
    """Every action of the game's action set: card actions with each of the 53 card ids, draws from
    both sources, the rest without arguments (an action class may list its own with ``examples()``)."""
    out = []
    for cls in sorted(game_cls.ACTIONS.classes, key=lambda c: c.word):
        if hasattr(cls, "examples"):
            out.extend(cls.examples())
            continue
        names = [f.name for f in dataclasses.fields(cls)]
        if not names:
            out.append(cls())
        elif names == ["card"]:
            out.extend(cls(c) for c in range(53))
        elif names == ["source"]:
            out.extend(cls(s) for s in ("stock", "discard"))
    return out


def random_rules(variant, rng: np.random.Generator):
    """A random value for every knob of the variant's rules class, within the knob's allowed values."""
    changes = {}
    for row in knob_table(variant.rules_class):
        if row["choices"] is not None:
            options = list(row["choices"]) + ([None] if row["allow_none"] else [])
            changes[row["name"]] = options[int(rng.integers(len(options)))]
        elif rng.random() < 0.5:  # integers: the default half the time, else a value near it
            lo = row["low"] if row["low"] is not None else 0
            hi = row["high"] if row["high"] is not None else lo + 100
            d = row["default"] if row["default"] is not None else lo  # None: no limit (Knock Rummy's knock)
            span = max(3, abs(d) // 2)
            changes[row["name"]] = int(rng.integers(max(lo, d - span), min(hi, d + span) + 1))
    return dataclasses.replace(variant.rules, **changes)


def random_bots(game_cls, n: int, rng: np.random.Generator) -> list:
    kinds = [k for k in (RandomPlayer, GreedyPlayer, ThresholdKnocker) if k.fits(game_cls)]
    bots = []
    for i in range(n):
        k = kinds[int(rng.integers(len(kinds)))] if i else kinds[-1]  # seat 0 plays a cheap knock bot
        if k is RandomPlayer:
            bots.append(RandomPlayer(rng=np.random.default_rng(int(rng.integers(2 ** 32)))))
        elif k is ThresholdKnocker:
            bots.append(ThresholdKnocker(int(rng.integers(0, 6))))
        else:
            bots.append(GreedyPlayer())
    return bots


def check_universe(game, universe) -> None:
    # a game whose actions are not all enumerable (a Rommé play of a whole turn) adds probes for this
    # position: the actions it lists and some illegal by construction
    universe = list(universe) + list(getattr(game, "probe_actions", list)())
    legal = set(game.legal_actions()) | set(game.table_actions())
    before = game.snapshot()
    for action in universe:
        if action in legal:
            game.check(action)
            continue
        try:
            game.apply(action)
        except IllegalActionError as err:
            text = str(err)
            assert re.search(r"\((player \d+|nobody|the table), [^;()]+; rules §", text), text  # who, when (in words), the rule
            assert "player " in text or "the table" in text or "nobody" in text, text
            assert err.phase == game.phase and err.action == action
        else:  # pragma: no cover - a failure of the engine
            raise AssertionError(f"{action} was applied although legal_actions() does not list it "
                                 f"(phase {game.phase})")
        assert game.snapshot() == before, f"refusing {action} changed the state"
    for action in legal:  # (a placement of Robber Rummy depends on the position: no fixed list holds them all)
        assert action in universe or getattr(action, "open_universe", False), \
            f"{action} is legal but not in the universe of {type(game).__name__}"


def play_one(variant, seed: int):
    rng = np.random.default_rng([seed, 17])
    game_cls = variant.game
    n = int(rng.integers(game_cls.MIN_PLAYERS, min(game_cls.MAX_SEATS, 4) + 1))
    rules = random_rules(variant, rng)
    game = game_cls.new(rules, n, seed=seed)
    bots = random_bots(game_cls, n, rng)
    universe = action_universe(game_cls)
    game.check_invariants()
    for step in range(MAX_ACTIONS):
        if game.game_over:
            break
        if step % UNIVERSE_EVERY == 0:
            check_universe(game, universe)
        table = game.table_actions()
        if table and rng.random() < 0.2:
            game.apply(table[0])
            bots.extend(random_bots(game_cls, 1, rng))
        else:
            seat = game.to_act
            game.apply(bots[seat].choose(game.view(seat)))
        game.check_invariants()
    assert game.game_over, f"{variant.key} game {seed} did not end within {MAX_ACTIONS} actions"
    check_universe(game, universe)
    check_result(game)
    return game


def check_result(game) -> None:
    """The one result API: winners, how, a return per seat (adding up to nothing in a game played for
    stakes), the pot as paid out, and the end in words naming every winner and every final number."""
    r = game.result
    assert isinstance(r, GameResult) and r.how and r.winners
    assert all(0 <= w < game.n_seats for w in r.winners) and 0 <= r.next_dealer < game.n_seats
    assert len(r.returns) == game.n_seats and all(isinstance(x, int) for x in r.returns)
    if r.ZERO_SUM:
        assert sum(r.returns) == 0, r.returns
    assert sum(r.payouts_cents) == r.pool_cents
    assert sum(r.share(s) for s in range(game.n_seats)) == pytest.approx(1.0)
    lines = r.summary(game, lambda s: f"<{s}>")
    assert lines[0].startswith(f"Game over after {len(game.results)} ")
    assert all(f"<{w}>" in lines[0] for w in r.winners)
    numbers = r.numbers(game)
    assert numbers and len(lines) >= 1 + len(numbers)
    for (_key, label, values), line in zip(numbers, lines[1:]):
        assert len(values) == game.n_seats and line.startswith(f"{label}: ")


@pytest.mark.parametrize("variant", ENGINES, ids=lambda v: v.key)
def test_every_engine_conforms(variant):
    for seed in range(GAMES_PER_ENGINE):
        game = play_one(variant, seed)
        again = replay(loads_record(dumps_record(game)))
        assert again.snapshot() == game.snapshot()


def test_the_registry_has_engines():
    assert "rumino" in [v.key for v in ENGINES]
    for v in ENGINES:
        assert isinstance(v.rules, v.game.RULES_CLASS) and v.game.ACTIONS.words
