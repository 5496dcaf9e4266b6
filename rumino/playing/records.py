"""Game records: the rules, the seed, the players and every action, as JSON that replays exactly.

A record is data only. Loading one parses JSON (no ``eval``, no pickle, no
imports named by the file), checks it against the record format's JSON Schema
(``record.schema.json`` beside this module, :func:`record_schema`; the book's
page "Game records" shows it), checks every field's type and range, rebuilds the
rules through their validating dataclass, reads each action from its book
notation through the game's own action set, and replays it through the
*checked* ``apply`` of a fresh game started from the recorded seed. Any
mismatch — a malformed field, an unknown rule, an illegal action, an action
attributed to the wrong player, a final result that differs from the replay —
raises :class:`~rumino.errors.RecordError` naming what is wrong.

>>> from rumino.variants.rumino import RuminoGame, RUMINO
>>> from rumino.players import GreedyPlayer
>>> from rumino.engine import play
>>> g = play(RuminoGame.new(RUMINO, 3, seed=11), [GreedyPlayer()] * 3)
>>> text = dumps_record(g, players=["greedy"] * 3)
>>> again = replay(loads_record(text))
>>> again.snapshot() == g.snapshot()
True
>>> loads_record('{"format": "rumino-record"}')
Traceback (most recent call last):
...
rumino.errors.RecordError: the record lacks the key 'version' (a record has: format, version, variant, rules, seed, rng_state, dealer, players, actions, result).
"""

from __future__ import annotations

import dataclasses
import functools
import importlib.resources
import itertools
import json
import os
from dataclasses import dataclass
from typing import Any

import numpy as np

from rumino.errors import IllegalActionError, RecordError, RuleConfigError
from rumino.engine.base import TurnGame
from rumino.engine.protocol import TABLE
from rumino.render.plotly_start import defer_iri_grammar
from rumino.variants import VARIANTS, find_variant, variant_of

FORMAT = "rumino-record"
VERSION = 1
KEYS = ("format", "version", "variant", "rules", "seed", "rng_state", "dealer", "players", "actions", "result")
MAX_ACTIONS = 2_000_000  # far more than any game needs; bounds the work a hostile file can ask for
MAX_TEXT = 64 * 1024 * 1024
# one action's text: a Robber Rummy placement spells out the whole table after it (110 cards at most),
# a Rommé play every lay, lay-off and exchange of a turn (~400 characters)
MAX_ACTION_TEXT = 1200
MAX_NAME = 100  # a player's name
MAX_SEED_WORDS = 64  # a seed given as a list of integers (numpy's SeedSequence entropy)
# the record format as JSON Schema (draft 2020-12), package data: tests/playing/test_record_schema.py checks
# that its bounds are the ones above and that its variants and rules are the registry's
SCHEMA_FILE = "record.schema.json"


@dataclass(frozen=True)
class GameRecord:
    """A checked, not yet replayed record."""

    variant: str
    rules: Any
    seed: Any  # int, list of ints, or None when rng_state is given
    rng_state: dict | None
    dealer: int | None
    players: tuple[str, ...]
    actions: tuple[tuple[int, Any], ...]  # (actor seat or TABLE, action)
    result: dict | None

    def as_json(self) -> dict:
        return {
            "format": FORMAT, "version": VERSION, "variant": self.variant, "rules": _rules_json(self.rules),
            "seed": self.seed, "rng_state": self.rng_state, "dealer": self.dealer, "players": list(self.players),
            "actions": [["table" if a == TABLE else a, str(act)] for a, act in self.actions],
            "result": self.result,
        }


# --------------------------------------------------------------------------- writing


def _rules_json(rules) -> dict:
    return {f.name: getattr(rules, f.name) for f in dataclasses.fields(rules) if "section" in f.metadata}


def _result_json(game) -> dict | None:
    res = game.result
    out = {"scores": list(game.scores), "hands": len(game.results), "phase": game.phase}
    if res is not None:
        out.update({"winners": list(res.winners), "how": res.how, "pool_cents": res.pool_cents,
                    "payouts_cents": list(res.payouts_cents)})
    return out


def record_of(game: TurnGame, players: list[str] | tuple[str, ...] | None = None) -> GameRecord:
    """The record of ``game`` so far (it need not be over).

    ``players`` names the seats the game started with (``["greedy", "human", ...]``; names of
    newcomers who joined later are dropped, their seats come from the "join" actions);
    by default ``P0``, ``P1`` …
    """
    row = variant_of(game)  # the game's own row first, then its parents' (a house game of a registered one)
    variant = row.key if row is not None and row.game is not None else None
    if variant is None:
        raise RecordError(f"{type(game).__name__} is not a game rumino can record.")
    if getattr(game, "rigged", False):
        raise RecordError("this game's cards were arranged with set_position, so its seed does not replay its "
                          "deals: it cannot be recorded.")
    seats = game.initial_players  # newcomers who joined later are in the actions ("join")
    names = tuple(players)[:seats] if players is not None else tuple(f"P{i}" for i in range(seats))
    if len(names) != seats:
        raise RecordError(f"the game started with {seats} players but {len(names)} names were given.")
    if not all(isinstance(n, str) for n in names):
        raise RecordError("player names must be text.")
    seed = game.seed
    if isinstance(seed, tuple):
        seed = list(seed)
    state = None if seed is not None else _state_json(game.initial_rng_state)
    return GameRecord(variant, game.rules, seed, state, game.initial_dealer, names,
                      tuple(game.history), _result_json(game))


def dumps_record(game: TurnGame, players: list[str] | tuple[str, ...] | None = None, *, indent: int | None = None) -> str:
    """The record of ``game`` as JSON text."""
    return json.dumps(record_of(game, players).as_json(), indent=indent, ensure_ascii=False)


def save_record(game: TurnGame, path: str | os.PathLike, players: list[str] | tuple[str, ...] | None = None) -> None:
    """Write the record of ``game`` to ``path`` (UTF-8 JSON)."""
    with open(path, "w", encoding="utf-8") as fh:
        fh.write(dumps_record(game, players, indent=1))


def _state_json(state: dict) -> dict:
    if state.get("bit_generator") != "PCG64":
        raise RecordError(f"only PCG64 generators can be recorded without a seed; this game used "
                          f"{state.get('bit_generator')!r}: start it with a seed instead.")
    return {"bit_generator": "PCG64", "state": {"state": int(state["state"]["state"]), "inc": int(state["state"]["inc"])},
            "has_uint32": int(state["has_uint32"]), "uinteger": int(state["uinteger"])}


# --------------------------------------------------------------------------- reading


def _games() -> dict:
    """The playable variants and their engines, from the one registry (``Variant.game``)."""

    return {v: v.game for v in VARIANTS.values() if v.game is not None}


def _no_duplicates(pairs):
    out = {}
    for k, v in pairs:
        if k in out:
            raise RecordError(f"the record has the key {k!r} twice.")
        out[k] = v
    return out


def _no_constants(name):
    raise RecordError(f"the record holds {name}, which is not a number JSON allows.")


def _is_int(v) -> bool:
    return isinstance(v, int) and not isinstance(v, bool)


def loads_record(text: str | bytes | dict) -> GameRecord:
    """Parse and check a record (JSON text or an already decoded dict). Nothing is replayed yet.

    The record must fit the schema (:func:`schema_problem`), then each field is checked; a problem is one
    :class:`RecordError` line, in the field checks' words where they have them.
    """
    if isinstance(text, (bytes, bytearray)):
        try:
            text = text.decode("utf-8")
        except UnicodeDecodeError as err:
            raise RecordError(f"the record is not UTF-8 text: {err}.") from None
    if isinstance(text, str):
        if len(text) > MAX_TEXT:
            raise RecordError(f"the record is {len(text)} characters long; at most {MAX_TEXT} are read.")
        try:
            data = json.loads(text, object_pairs_hook=_no_duplicates, parse_constant=_no_constants)
        except json.JSONDecodeError as err:
            raise RecordError(f"the record is not valid JSON: {err.msg} at line {err.lineno}, "
                              f"column {err.colno}.") from None
        except RecursionError:
            raise RecordError("the record is nested too deeply to be a game record.") from None
        except ValueError as err:  # Python reads at most 4,300 digits of an integer (a seed or a score)
            raise RecordError(f"the record holds a number too long to be a game's: {err}.") from None
    else:
        data = text
    problem = schema_problem(data)
    if problem is not None:
        _checked(data)  # the field checks name most problems in the record's own words ("the record's seed is -1")
        raise RecordError(problem)  # what only the schema says (the result's fields, a variant's other name)
    return _checked(data)


def _checked(data) -> GameRecord:
    """The record in ``data`` (decoded JSON), each field checked; raises :class:`RecordError` on the first bad one."""
    if not isinstance(data, dict):
        raise RecordError(f"a record is a JSON object; this one is a {type(data).__name__}.")
    for k in data:
        if k not in KEYS:
            raise RecordError(f"the record has an unknown key {k!r} (a record has: {', '.join(KEYS)}).")
    for k in KEYS:
        if k not in data:
            raise RecordError(f"the record lacks the key {k!r} (a record has: {', '.join(KEYS)}).")
    if data["format"] != FORMAT:
        raise RecordError(f"the record's format is {data['format']!r}, not {FORMAT!r}.")
    if data["version"] != VERSION or not _is_int(data["version"]):
        raise RecordError(f"the record's version is {data['version']!r}; this rumino reads version {VERSION}.")

    if not isinstance(data["variant"], str):
        raise RecordError(f"the record's variant is {data['variant']!r}: it must be a name such as 'rumino'.")
    try:
        variant = find_variant(data["variant"])
    except RuleConfigError as err:
        raise RecordError(f"the record's variant: {err}") from None
    if variant not in _games():
        raise RecordError(f"the record's variant {variant.key!r} has no playable engine yet; records exist for: "
                          f"{', '.join(v.key for v in _games())}.")
    rules = _load_rules(variant, data["rules"])
    seed, state = data["seed"], data["rng_state"]
    if seed is not None:
        if not (_is_int(seed) and seed >= 0) and not (isinstance(seed, list) and 0 < len(seed) <= MAX_SEED_WORDS
                                                      and all(_is_int(s) and s >= 0 for s in seed)):
            raise RecordError(f"the record's seed is {seed!r}: it must be a non-negative integer or a list of them.")
        if state is not None:
            raise RecordError("the record has both a seed and an rng_state; it must have exactly one.")
    else:
        if state is None:
            raise RecordError("the record has neither a seed nor an rng_state, so its deals cannot be replayed.")
        state = _load_state(state)
    players = data["players"]
    if not isinstance(players, list) or not all(isinstance(p, str) and len(p) <= MAX_NAME for p in players):
        raise RecordError(f"the record's players must be a list of names (text of at most {MAX_NAME} characters).")
    lo, hi = variant.players
    if not lo <= len(players) <= hi:
        raise RecordError(f"the record has {len(players)} players; {variant.title} is for {lo} to {hi}.")
    dealer = data["dealer"]
    if dealer is not None and not (_is_int(dealer) and 0 <= dealer < len(players)):
        raise RecordError(f"the record's dealer is {dealer!r}: it must be null or a seat from 0 to {len(players) - 1}.")
    actions = _load_actions(data["actions"], variant.game.ACTIONS)
    result = data["result"]
    if result is not None and not isinstance(result, dict):
        raise RecordError("the record's result must be an object or null.")
    return GameRecord(variant.key, rules, seed, state, dealer, tuple(players), actions, result)


def _load_rules(variant, raw) -> Any:
    if not isinstance(raw, dict):
        raise RecordError("the record's rules must be an object of rule names and values.")
    cls = variant.rules_class
    fields = {f.name: f for f in dataclasses.fields(cls) if "section" in f.metadata}
    for k, v in raw.items():
        if k not in fields:
            raise RecordError(f"the record's rules have an unknown rule {k!r}; {variant.title}'s rules are: "
                              f"{', '.join(sorted(fields))}.")
        if not (v is None or isinstance(v, (bool, int, str))):
            raise RecordError(f"the record's rule {k!r} is {v!r}: a rule value is a number, text, true/false or null.")
        try:  # one rule at a time first, so the refusal names the record's own key
            cls(**{k: v})
        except RuleConfigError as err:
            raise RecordError(f"the record's rule {k!r}: {err}") from None
    try:
        return cls(**raw)
    except RuleConfigError as err:
        raise RecordError(f"the record's rules are not valid: {err}") from None
    except TypeError as err:  # pragma: no cover - unknown keys are caught above
        raise RecordError(f"the record's rules are not valid: {err}") from None


def _load_state(raw) -> dict:
    ok = (isinstance(raw, dict) and set(raw) == {"bit_generator", "state", "has_uint32", "uinteger"}
          and raw["bit_generator"] == "PCG64" and isinstance(raw["state"], dict)
          and set(raw["state"]) == {"state", "inc"} and all(_is_int(x) and 0 <= x < 2 ** 128 for x in raw["state"].values())
          and raw["has_uint32"] in (0, 1) and _is_int(raw["uinteger"]) and 0 <= raw["uinteger"] < 2 ** 32)
    if not ok:
        raise RecordError("the record's rng_state is not a PCG64 state "
                          "({bit_generator: 'PCG64', state: {state, inc}, has_uint32, uinteger}).")
    return raw


def _load_actions(raw, words) -> tuple:
    """The actions, each checked here (what the schema says of one action, without its cost: see _validator)."""
    if not isinstance(raw, list):
        raise RecordError("the record's actions must be a list of [actor, action] pairs.")
    if len(raw) > MAX_ACTIONS:
        raise RecordError(f"the record has {len(raw)} actions; at most {MAX_ACTIONS} are read.")
    out = []
    for i, item in enumerate(raw):
        if not (isinstance(item, list) and len(item) == 2):
            raise RecordError(f"action {i} of the record is {_clip(item)}: it must be a pair [actor, action].")
        actor, text = item
        if actor == "table":
            actor = TABLE
        elif not (_is_int(actor) and actor >= 0):
            raise RecordError(f"action {i} of the record has actor {_clip(actor)}: it must be a seat number "
                              f"or 'table'.")
        if not isinstance(text, str):
            raise RecordError(f"action {i} of the record is {_clip(text)}: it must be an action such as "
                              f"'draw stock'.")
        if len(text) > MAX_ACTION_TEXT:
            raise RecordError(f"action {i} of the record is {len(text)} characters long: an action has at most "
                              f"{MAX_ACTION_TEXT}.")
        try:
            act = words.parse(text)
        except IllegalActionError as err:
            raise RecordError(f"action {i} of the record: {err}") from None
        out.append((actor, act))
    return tuple(out)


# --------------------------------------------------------------------------- the schema


@functools.cache
def _schema_text() -> str:
    return importlib.resources.files(__package__).joinpath(SCHEMA_FILE).read_text(encoding="utf-8")


def record_schema() -> dict:
    """The record format as JSON Schema (draft 2020-12): what every field means and the values it takes.

    >>> schema = record_schema()
    >>> schema["properties"]["format"]["const"], schema["required"][:3]
    ('rumino-record', ['format', 'version', 'variant'])
    """
    return json.loads(_schema_text())  # a fresh copy: a caller may change it


@functools.cache
def _validator(variant: str | None = None):
    """The schema's validator for records of ``variant`` (a registry key; None: any), made once.

    It checks everything but each action, which ``_load_actions`` checks against the same bounds:
    jsonschema spends about 0.1 ms on an action, ten times what reading it costs (1.1 s for the 8,357
    actions of the golden records, whose replay takes 0.3 s), and a record may hold 2,000,000 of them.
    Of the variants' cases (``allOf``) it keeps only ``variant``'s: the others' ``if`` names another
    variant, so they cannot apply, and trying them took half the check's time.
    """
    defer_iri_grammar()  # jsonschema's import would otherwise build an IRI grammar: 2.5 s of CPU, unused here
    import jsonschema  # here, not at the top: `import rumino` does not pay for it

    schema = record_schema()
    del schema["properties"]["actions"]["items"]
    if variant is not None:
        schema["allOf"] = [c for c in schema["allOf"] if c["if"]["properties"]["variant"]["const"] == variant]
    return jsonschema.Draft202012Validator(schema)


def schema_problem(data: Any) -> str | None:
    """What in ``data`` (a decoded record) breaks the record schema, in one line naming its JSON path, or None.

    >>> from rumino.variants.gin import GIN, GinGame
    >>> from rumino.players import GreedyPlayer
    >>> from rumino.engine import play
    >>> record = json.loads(dumps_record(play(GinGame.new(GIN, 2, seed=8), [GreedyPlayer()] * 2)))
    >>> schema_problem(record) is None
    True
    >>> schema_problem(record | {"result": {"scores": [0, "35"], "hands": 1, "phase": "game_over"}})
    "the record's result.scores[1]: '35' is not of type 'integer'."
    >>> schema_problem({"format": "rumino-record"})
    "the record: 'version' is a required property."
    """
    variant = data.get("variant") if isinstance(data, dict) else None
    # first: it defers the IRI grammar before jsonschema is imported; one validator a known variant
    validator = _validator(variant if isinstance(variant, str) and variant in VARIANTS else None)
    from jsonschema.exceptions import best_match

    try:
        if validator.is_valid(data):
            return None
        # the most relevant of the first errors: a hostile record may hold millions, each message holds a repr
        error = best_match(itertools.islice(validator.iter_errors(data), 100))
        message, shown = error.message, repr(error.instance)
    except RecursionError:  # a decoded dict may be nested deeper than json.loads allows
        return "the record is nested too deeply to be a game record."
    if len(shown) > 80 and shown in message:  # "['x', 'x', …] is too long": the value is elided
        message = message.replace(shown, _clip(error.instance))
    where = "".join(f"[{p}]" if isinstance(p, int) else f".{p}" for p in error.absolute_path).lstrip(".")
    return f"the record's {where}: {message}." if where else f"the record: {message}."


def _clip(value, size: int = 60) -> str:
    """``repr(value)``, elided in the middle when longer than ``size`` characters (a message is one line)."""
    text = repr(value)
    return text if len(text) <= size else f"{text[:size - 20]} … {text[-12:]}"


# --------------------------------------------------------------------------- replaying


def replay(record: GameRecord | str | dict, *, upto: int | None = None, check_result: bool = True) -> TurnGame:
    """Rebuild the game of ``record`` by applying every action through the checked ``apply``.

    ``upto`` stops after that many actions (then the result is not compared).
    Raises :class:`RecordError` if an action is illegal, belongs to another
    player, or the final state differs from the recorded result.
    """
    if not isinstance(record, GameRecord):
        record = loads_record(record)

    game_cls = VARIANTS[record.variant].game
    if record.seed is not None:
        seed = tuple(record.seed) if isinstance(record.seed, list) else record.seed
        rng = np.random.default_rng(list(seed) if isinstance(seed, tuple) else seed)
    else:
        rng = np.random.default_rng()
        rng.bit_generator.state = record.rng_state
    try:
        game = game_cls(record.rules, len(record.players), rng, seed=record.seed, dealer=record.dealer)
    except RuleConfigError as err:  # pragma: no cover - the fields were checked on loading
        raise RecordError(f"the record cannot start a game: {err}") from None
    if upto is not None and (isinstance(upto, bool) or not isinstance(upto, int)
                             or not 0 <= upto <= len(record.actions)):
        # a negative upto would silently replay all but the last actions, a text one raised TypeError
        raise RecordError(f"replay(upto={upto!r}): give a whole number of actions from 0 to "
                          f"{len(record.actions)} (the record's length), or None for all of them.")
    actions = record.actions if upto is None else record.actions[:upto]
    for i, (actor, action) in enumerate(actions):
        expected = TABLE if type(action) in game.TABLE_ACTIONS else game.to_act
        if actor != expected:
            who = "the table" if expected == TABLE else f"player {expected}"
            raise RecordError(f"action {i} of the record ({action}) is attributed to "
                              f"{'the table' if actor == TABLE else f'player {actor}'}, but {who} is to act there.")
        try:
            game.apply(action)
        except IllegalActionError as err:
            raise RecordError(f"action {i} of the record ({action}) does not replay: {err}") from None
    if check_result and upto is None and record.result is None and game.game_over:
        raise RecordError("the record has no result (null), but its game ends: a finished game's record "
                          "carries its result; the record was altered.")
    if check_result and upto is None and record.result is not None:
        mine = _result_json(game)
        if mine != record.result:
            diff = sorted(k for k in set(mine) | set(record.result) if mine.get(k) != record.result.get(k))
            raise RecordError(f"the record's result does not match its replay (differs in: {', '.join(diff)}); "
                              f"the record was altered or made by a different engine.")
    return game


def load_record(path: str | os.PathLike) -> GameRecord:
    """Read and check a record file (see :func:`loads_record`)."""
    try:
        with open(path, "rb") as fh:
            data = fh.read(MAX_TEXT + 1)
    except OSError as err:
        raise RecordError(f"cannot read the record {str(path)!r}: {err.strerror}.") from None
    return loads_record(data)


__all__ = ["GameRecord", "record_of", "dumps_record", "save_record", "loads_record", "load_record", "replay",
           "record_schema", "schema_problem"]
