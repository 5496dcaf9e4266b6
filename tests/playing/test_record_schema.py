"""The record format's JSON Schema (rumino/playing/record.schema.json): it is a valid draft 2020-12 schema
that says what the loader says (its bounds, the registry's variants and rules), every record the engine
writes fits it, and loads_record refuses what breaks it with one line naming where."""

from __future__ import annotations

import copy
import json
import re

import numpy as np
import pytest
from golden_replay import GOLDEN
from record_format import BOOK_SCHEMA, EXAMPLE, SCHEMA, derived, example_text, with_derived

from rumino.errors import RecordError
from rumino.players import make_players
from rumino.playing import records
from rumino.playing.records import dumps_record, loads_record, record_schema, replay, schema_problem
from rumino.render.plotly_start import defer_iri_grammar
from rumino.variants import VARIANTS
from rumino.variants.rumino import RUMINO, RuminoGame

defer_iri_grammar()
from jsonschema import Draft202012Validator  # noqa: E402 - after the grammar is deferred (2.5 s of CPU)

GOLDEN_FILES = sorted(GOLDEN.glob("*.json"))


@pytest.fixture(scope="module")
def full():
    """The whole published schema (the loader leaves each action to its own checks)."""
    return Draft202012Validator(record_schema())


@pytest.fixture(scope="module")
def example() -> dict:
    return json.loads(EXAMPLE.read_text(encoding="utf-8"))


# ---------------------------------------------------------------------------- the schema itself


def test_the_schema_is_a_valid_draft_2020_12_schema():
    schema = record_schema()
    Draft202012Validator.check_schema(schema)
    assert schema["$schema"] == "https://json-schema.org/draft/2020-12/schema" and schema["$id"]
    assert SCHEMA.read_text(encoding="utf-8") == records._schema_text(), "the package reads another file"


def _properties(schema, path="") -> list[tuple[str, dict]]:
    found = []
    if isinstance(schema, dict):
        for name, sub in schema.get("properties", {}).items():
            found.append((f"{path}.{name}", sub))
        for key, sub in schema.items():
            if key not in ("allOf", "if"):  # conditions, and a variant's case narrowing fields described above
                found += _properties(sub, f"{path}/{key}")
    elif isinstance(schema, list):
        for i, sub in enumerate(schema):
            found += _properties(sub, f"{path}[{i}]")
    return found


def test_every_field_is_described_for_people():
    fields = _properties(record_schema())
    assert len(fields) > 100  # the record's fields and every variant's rules
    bare = [name for name, sub in fields if not sub.get("description")]
    assert not bare, f"fields without a description: {bare}"
    rules = [name for name, sub in fields if name.startswith("/$defs/")]
    assert len(rules) > 90 and all("default" in sub for name, sub in fields if name in rules)
    assert _properties({"properties": {"a": {"description": "A."}, "b": {}}}) == [(".a", {"description": "A."}),
                                                                                   (".b", {})]


def test_the_variant_enum_is_the_registrys_keys():
    assert record_schema()["properties"]["variant"]["enum"] == list(VARIANTS)


def test_the_parts_read_from_the_registry_are_up_to_date():
    schema = record_schema()
    assert schema == with_derived(schema), ("the schema's variants, rules or tables differ from the registry: "
                                            "PYTHONPATH=$PWD python tests/record_format.py --write")
    gin = schema["$defs"]["rules-gin"]["properties"]
    assert gin["game_to"] == {"description": "the points that win the game", "default": 100, "type": "integer",
                              "minimum": 1, "maximum": 10000}
    assert schema["$defs"]["rules-rumino"]["properties"]["max_lay_size"]["enum"] == [4, None]
    assert len(derived()["allOf"]) == len(VARIANTS)


def test_the_schemas_bounds_are_the_loaders():
    schema = record_schema()
    top = schema["properties"]
    assert schema["required"] == list(records.KEYS) and schema["additionalProperties"] is False
    assert top["format"]["const"] == records.FORMAT and top["version"]["const"] == records.VERSION
    assert top["actions"]["maxItems"] == records.MAX_ACTIONS
    assert top["actions"]["items"]["prefixItems"][1]["maxLength"] == records.MAX_ACTION_TEXT
    assert top["players"]["items"]["maxLength"] == records.MAX_NAME
    assert top["seed"]["maxItems"] == records.MAX_SEED_WORDS
    assert f"at most 64 MiB ({records.MAX_TEXT} characters)" in schema["description"]
    for case in schema["allOf"]:
        lo, hi = VARIANTS[case["if"]["properties"]["variant"]["const"]].players
        assert case["then"]["properties"]["players"] == {"minItems": lo, "maxItems": hi}


# ---------------------------------------------------------------------------- records that fit


@pytest.mark.parametrize("path", GOLDEN_FILES, ids=[p.stem for p in GOLDEN_FILES])
def test_every_golden_record_fits_the_schema(path, full):
    record = json.loads(path.read_text(encoding="utf-8"))["record"]
    assert not list(full.iter_errors(record))
    assert schema_problem(record) is None


@pytest.mark.parametrize("key", list(VARIANTS))
def test_a_fresh_record_of_every_game_fits_the_schema(key, full):
    """Seeded random bots play up to 300 actions (most games end sooner): finished and unfinished records."""
    v = VARIANTS[key]
    game = v.game.new(v.rules, 2, seed=5)
    bots = make_players(["random", "random"], seed=5, game=v.game)
    while not game.game_over and len(game.history) < 300:
        game.apply(bots[game.to_act].choose(game.view(game.to_act)))
    record = json.loads(dumps_record(game))
    assert not [e.message for e in full.iter_errors(record)]
    assert replay(loads_record(record)).snapshot() == game.snapshot()


def test_a_record_started_from_a_generator_fits_the_schema(full):
    game = RuminoGame.new(RUMINO, 3, rng=np.random.default_rng(77))
    bots = make_players(["greedy", "random", "chaser"], seed=1)
    for _ in range(30):
        game.apply(bots[game.to_act].choose(game.view(game.to_act)))
    record = json.loads(dumps_record(game))
    assert record["seed"] is None and record["rng_state"]["bit_generator"] == "PCG64"
    assert not list(full.iter_errors(record)) and "winners" not in record["result"]


def test_the_books_example_is_what_the_engine_writes(example, full):
    assert EXAMPLE.read_text(encoding="utf-8") == example_text(), (
        "book/data/record_example.json is not what the engine writes now: "
        "PYTHONPATH=$PWD python tests/record_format.py --write")
    assert not list(full.iter_errors(example)) and replay(loads_record(example)).game_over
    # what book/record_format.md says of it
    assert example["variant"] == "gin" and example["rules"]["game_to"] == 25 and example["seed"] == 8
    assert example["result"]["hands"] == 1 and example["actions"][-1][1].startswith("knock")
    assert example["actions"][-1][0] == 0 and example["players"] == ["greedy", "threshold:3"]


def test_the_book_shows_the_packages_schema():
    assert BOOK_SCHEMA.read_bytes() == SCHEMA.read_bytes(), (
        "book/data/record.schema.json differs from rumino/playing/record.schema.json: "
        "PYTHONPATH=$PWD python tests/record_format.py --write")


# ---------------------------------------------------------------------------- records that do not


def _set(path, value):
    def change(record):
        target = record
        for k in path[:-1]:
            target = target[k]
        if value is KeyError:
            del target[path[-1]]
        else:
            target[path[-1]] = value
    return change


# (what is wrong, the change, what the message says): the field checks phrase what they know in their words
TAMPERED = [
    ("wrong type", _set(("players",), "greedy, threshold:3"), r"^the record's players must be a list"),
    ("a rule of the wrong type", _set(("rules", "game_to"), "25"), r"rule 'game_to': Game to: '25' is not allowed"),
    ("missing key", _set(("seed",), KeyError), r"^the record lacks the key 'seed'"),
    ("extra key", _set(("comment",), "a nice game"), r"^the record has an unknown key 'comment'"),
    ("negative seat", _set(("actions", 3, 0), -2), r"^action 3 of the record has actor -2"),
    ("dealer past the table", _set(("dealer",), 2), r"^the record's dealer is 2"),
    ("too-long action text", _set(("actions", 3, 1), "discard " + "7h " * 400),
     r"^action 3 of the record is 1208 characters long: an action has at most 1200\.$"),
    ("an action that is not a pair", _set(("actions", 3), [1, "discard Jh", "twice"]), r"^action 3 .* a pair"),
    ("wrong format", _set(("format",), "rumino-save"), r"^the record's format is 'rumino-save'"),
    ("version 2", _set(("version",), 2), r"^the record's version is 2"),
    ("seed a float", _set(("seed",), 8.5), r"^the record's seed is 8\.5"),
    ("a seed and a state", _set(("rng_state",), {"bit_generator": "PCG64"}), r"both a seed and an rng_state"),
]
# what only the schema says: the loader's field checks let these through (the replay's comparison of
# results would refuse most of them later, without saying where)
SCHEMA_ONLY = [
    ("a score as text", _set(("result", "scores", 1), "0"),
     r"^the record's result\.scores\[1\]: '0' is not of type 'integer'\.$"),
    ("an extra key in the result", _set(("result", "bonus"), 100),
     r"^the record's result: Additional properties are not allowed \('bonus' was unexpected\)\.$"),
    ("half a result", _set(("result", "how"), KeyError),
     r"^the record's result: 'how' is a dependency of 'winners'\.$"),
    ("a negative count of hands", _set(("result", "hands"), -1),
     r"^the record's result\.hands: -1 is less than the minimum of 0\.$"),
    ("a game's other name", _set(("variant",), "gin rummy"), r"^the record's variant: 'gin rummy' is not one of \["),
    ("a huge value, elided", _set(("result", "phase"), ["x"] * 10_000),
     r"^the record's result\.phase: \['x', 'x', .* … .*'x'\] is not of type 'string'\.$"),
]


@pytest.mark.parametrize("what,change,message", TAMPERED + SCHEMA_ONLY, ids=[t[0] for t in TAMPERED + SCHEMA_ONLY])
def test_a_record_that_breaks_the_schema_is_refused_naming_where(example, full, what, change, message):
    bad = copy.deepcopy(example)
    change(bad)
    assert not full.is_valid(bad), f"the schema lets {what} through"
    with pytest.raises(RecordError, match=message) as err:
        loads_record(json.dumps(bad))
    assert "\n" not in str(err.value) and len(str(err.value)) < 400


@pytest.mark.parametrize("what,change,message", SCHEMA_ONLY, ids=[t[0] for t in SCHEMA_ONLY])
def test_only_the_schema_catches_these(example, what, change, message):
    """The field checks alone accept them: without the schema check, loads_record would too."""
    bad = copy.deepcopy(example)
    change(bad)
    assert records._checked(bad).variant in VARIANTS


# one action: what the published schema says of it, which the loader checks itself (see records._validator)
ACTIONS = [
    ([0, "draw stock"], True), (["table", "join"], True), ([7, "x"], True),
    ("draw stock", False), ([0], False), ([0, "draw stock", 1], False), (["me", "draw stock"], False),
    ([-1, "draw stock"], False), ([True, "draw stock"], False), ([1.5, "draw stock"], False),
    ([0, 42], False), ([0, None], False), ([0, "x" * 1201], False), ({"actor": 0}, False),
]


@pytest.mark.parametrize("action,fits", ACTIONS, ids=[repr(a)[:30] for a, _ in ACTIONS])
def test_the_loaders_action_checks_say_what_the_schema_says(example, full, action, fits):
    record = copy.deepcopy(example)
    record["actions"][0] = action
    assert full.is_valid(record) == fits
    if fits:
        return
    with pytest.raises(RecordError, match=r"^action 0 of the record"):
        loads_record(record)


def test_a_record_nested_too_deeply_is_a_record_error(example):
    """A decoded dict can be nested deeper than json.loads allows; jsonschema's recursion is caught."""
    deep = []
    for _ in range(100_000):
        deep = [deep]
    bad = copy.deepcopy(example)
    bad["result"]["scores"] = deep
    with pytest.raises(RecordError, match="nested too deeply"):
        loads_record(bad)


def test_loading_does_not_check_each_action_with_jsonschema():
    """The loader's validator leaves the actions' items out (0.1 ms an action); its own checks take them."""
    assert "items" not in records._validator().schema["properties"]["actions"]
    assert "items" not in records._validator("gin").schema["properties"]["actions"]
    assert "items" in record_schema()["properties"]["actions"]
    assert len(records._validator("gin").schema["allOf"]) == 1  # only Gin's case: the others cannot apply
    assert len(records._validator().schema["allOf"]) == len(VARIANTS)


def test_the_schema_message_names_the_json_path():
    assert re.fullmatch(r"the record's rules\.gin_bonus: -3 is less than the minimum of 0\.",
                        schema_problem(json.loads(example_text()) | {"rules": {"gin_bonus": -3}}))


# ---------------------------------------------------------------------------- the book's page

PAGE = SCHEMA.parents[2] / "book" / "record_format.md"


def test_the_books_page_includes_the_example_and_the_schema():
    text = PAGE.read_text(encoding="utf-8")
    included = re.findall(r"```\{literalinclude\} (\S+)\n:language: json\n```", text)
    assert included == ["data/record_example.json", "data/record.schema.json"]
    assert all((PAGE.parent / name).is_file() for name in included)
    assert "rules §" not in text and "](http" not in text  # no rules citations, nothing off the book


def test_the_books_page_code_runs_and_says_what_the_page_says(tmp_path, monkeypatch, capsys):
    text = PAGE.read_text(encoding="utf-8")
    blocks = re.findall(r"```python\n(.*?)```", text, re.S)
    assert len(blocks) == 2 and all(len(line) <= 88 for b in blocks for line in b.splitlines())
    monkeypatch.chdir(tmp_path)
    scope: dict = {}
    exec(compile(blocks[0], str(PAGE), "exec"), scope)
    assert capsys.readouterr().out == "True\n" and "The comparison prints `True`." in text
    assert len(scope["first"].history) == 10
    exec(compile(blocks[1], str(PAGE), "exec"), {})  # the saved record fits the schema
    # the message the page quotes is the loader's
    quoted = re.search(r"for\s+instance `(the record's result[^`]*)`", text).group(1)
    bad = json.loads((tmp_path / "game.json").read_text(encoding="utf-8"))
    bad["result"]["scores"][1] = "0"
    with pytest.raises(RecordError) as err:
        loads_record(bad)
    assert str(err.value) == quoted
    quoted = re.search(r"engine's words \(`(the record's seed[^`]*)`\)", text).group(1)
    with pytest.raises(RecordError) as err:
        loads_record(json.loads((tmp_path / "game.json").read_text(encoding="utf-8")) | {"seed": -1})
    assert str(err.value) == quoted
