"""The published record format: the parts of the schema read from the registry, and the book's example.

``rumino/playing/record.schema.json`` is written by hand, except what the registry
(``rumino.variants.VARIANTS``) decides: the variant keys (``properties.variant.enum``), each
variant's rules with their values and defaults (``$defs``), and what each variant allows
(``allOf``: its rules, its number of players, its dealers). :func:`derived` builds those parts;
tests/playing/test_record_schema.py checks that the file holds them.

The book's page on records (book/record_format.md) shows two files of ``book/data/``, which the test
checks too: ``record.schema.json``, a copy of the schema (the book is built from a copy of its folder,
so it cannot include a file from outside it), and ``record_example.json``, the record of a short
seeded game of Gin Rummy (:func:`example_game`) as the engine writes it today.

After a deliberate change (a rule added, a variant added, the engine's play changed)::

    PYTHONPATH=$PWD python tests/record_format.py --write

rewrites the three files (the hand-written parts of the schema are kept) and says what it wrote.

>>> derived()["$defs"]["rules-gin"]["properties"]["undercut_bonus"]["enum"]
[25, 10, 20]
>>> compact_json({"a": [1, 2], "b": {"c": None}}, width=20)
'{\\n  "a": [1, 2],\\n  "b": {"c": null}\\n}'
"""

from __future__ import annotations

import dataclasses
import json
import pathlib
import sys

ROOT = pathlib.Path(__file__).resolve().parents[1]
SCHEMA = ROOT / "rumino" / "playing" / "record.schema.json"
EXAMPLE = ROOT / "book" / "data" / "record_example.json"
BOOK_SCHEMA = ROOT / "book" / "data" / "record.schema.json"
# the example: a game of Gin Rummy to 25 points, over after one hand of 10 actions
EXAMPLE_GAME = {"variant": "gin", "rules": {"game_to": 25}, "seed": 8, "players": ["greedy", "threshold:3"]}
WIDTH = 100  # the book shows the files: an object or a list that fits in 100 columns stays on one line

_TYPES = {"int": "integer", "str": "string", "bool": "boolean", "None": "null"}


def _rule_schema(field: dataclasses.Field) -> dict:
    """A rules field's values as JSON Schema, from the metadata its rules class validates with."""
    meta = field.metadata
    out: dict = {"description": meta["doc"], "default": field.default}
    if meta["choices"] is not None:
        out["enum"] = list(meta["choices"]) + ([None] if meta["allow_none"] else [])
        return out
    # a field without choices is a number between its bounds, or (no bounds) any value of its type
    types = [_TYPES[t.strip()] for t in str(field.type).split("|")]
    if meta["low"] is not None or meta["high"] is not None:
        types = ["integer"] + (["null"] if meta["allow_none"] else [])
    out["type"] = types[0] if len(types) == 1 else types
    if meta["low"] is not None:
        out["minimum"] = meta["low"]
    if meta["high"] is not None:
        out["maximum"] = meta["high"]
    return out


def derived() -> dict:
    """The schema's parts that the registry decides: ``variant_enum``, ``$defs`` and ``allOf``."""
    from rumino.variants import VARIANTS

    defs, each = {}, []
    for key, v in VARIANTS.items():
        cls = v.rules_class
        fields = [f for f in dataclasses.fields(cls) if "section" in f.metadata]
        defs[f"rules-{key}"] = {
            "description": f"The rules of {v.title or key} ({cls.__module__}.{cls.__name__}); a rule left out "
                           f"takes its default.",
            "type": "object", "additionalProperties": False,
            "properties": {f.name: _rule_schema(f) for f in fields}}
        then: dict = {"properties": {"rules": {"$ref": f"#/$defs/rules-{key}"}}}
        if v.players is not None:
            lo, hi = v.players
            then["properties"].update({
                "players": {"minItems": lo, "maxItems": hi},
                "dealer": {"maximum": hi - 1}})
        each.append({"if": {"properties": {"variant": {"const": key}}, "required": ["variant"]}, "then": then})
    return {"variant_enum": list(VARIANTS), "$defs": defs, "allOf": each}


def with_derived(schema: dict) -> dict:
    """``schema`` with its registry parts replaced by :func:`derived` (the hand-written rest kept)."""
    parts = derived()
    out = dict(schema)
    out["properties"] = dict(schema["properties"])
    out["properties"]["variant"] = dict(schema["properties"]["variant"], enum=parts["variant_enum"])
    out["allOf"], out["$defs"] = parts["allOf"], parts["$defs"]
    return out


def example_game():
    """The book's example game, played to its end by its seeded bots."""
    from rumino.engine import play
    from rumino.players import make_players
    from rumino.variants import VARIANTS

    v = VARIANTS[EXAMPLE_GAME["variant"]]
    game = v.game.new(dataclasses.replace(v.rules, **EXAMPLE_GAME["rules"]), len(EXAMPLE_GAME["players"]),
                      seed=EXAMPLE_GAME["seed"])
    return play(game, make_players(EXAMPLE_GAME["players"], seed=EXAMPLE_GAME["seed"], game=v.game))


def example_text() -> str:
    """The example record as the book shows it (the text ``loads_record`` reads)."""
    from rumino.playing.records import record_of

    return compact_json(record_of(example_game(), players=EXAMPLE_GAME["players"]).as_json()) + "\n"


def compact_json(value, width: int = WIDTH, _indent: int = 0, _lead: int = 0) -> str:
    """JSON text in which an object or a list stays on one line when it fits in ``width`` columns."""
    one = json.dumps(value, ensure_ascii=False)
    if not isinstance(value, (dict, list)) or not value or _indent + _lead + len(one) < width:
        return one
    pad = " " * (_indent + 2)
    if isinstance(value, dict):
        items = []
        for k, v in value.items():
            key = json.dumps(k, ensure_ascii=False) + ": "
            items.append(pad + key + compact_json(v, width, _indent + 2, len(key)))
        return "{\n" + ",\n".join(items) + "\n" + " " * _indent + "}"
    if not any(isinstance(v, (dict, list)) for v in value):  # a long list of names or numbers: filled lines
        lines, line = [], pad
        for v in value:
            word = json.dumps(v, ensure_ascii=False) + ","
            if line != pad and len(line) + 1 + len(word) > width:
                lines.append(line)
                line = pad
            line += ("" if line == pad else " ") + word
        return "[\n" + "\n".join(lines + [line])[:-1] + "\n" + " " * _indent + "]"
    items = [pad + compact_json(v, width, _indent + 2) for v in value]
    return "[\n" + ",\n".join(items) + "\n" + " " * _indent + "]"


def main(argv: list[str]) -> int:  # pragma: no cover - run by hand
    if argv != ["--write"]:
        print(__doc__, file=sys.stderr)
        return 2
    schema = with_derived(json.loads(SCHEMA.read_text(encoding="utf-8")))
    for path in (SCHEMA, BOOK_SCHEMA):
        path.write_text(compact_json(schema) + "\n", encoding="utf-8")
    EXAMPLE.write_text(example_text(), encoding="utf-8")
    print(f"wrote {SCHEMA.relative_to(ROOT)} ({len(schema['$defs'])} variants' rules), its copy "
          f"{BOOK_SCHEMA.relative_to(ROOT)} and {EXAMPLE.relative_to(ROOT)}")
    return 0


if __name__ == "__main__":  # pragma: no cover
    sys.exit(main(sys.argv[1:]))
