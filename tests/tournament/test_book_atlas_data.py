"""The book's house-rule atlas (``book/data/house_rule_atlas.json``, written by ``rumino atlas``): its
first deals played again give the counts it holds, and its figures are those its counts give."""

from __future__ import annotations

import copy
import json
from pathlib import Path

import pytest

from rumino.engine.knobs import knob_table
from rumino.tournament.atlas import play_deal, refigure, settings
from rumino.variants import find_variant

PATH = Path(__file__).resolve().parents[2] / "book" / "data" / "house_rule_atlas.json"
DATA = json.loads(PATH.read_text(encoding="utf-8"))


def test_it_was_written_with_the_commands_defaults():
    assert DATA["settings"] == settings(200, 1)


@pytest.mark.parametrize("key", list(DATA["games"]))
def test_every_knob_is_measured_or_skipped_with_its_reason(key):
    game = DATA["games"][key]
    assert set(game["knobs"]) == {r["name"] for r in knob_table(find_variant(key).rules_class)}
    skipped = [k for k in game["knobs"].values() if "skipped" in k]
    assert len(skipped) * 10 <= len(game["knobs"])
    for knob in game["knobs"].values():
        if "skipped" in knob:
            assert knob["skipped"]
            continue
        for value in knob["values"].values():
            assert value.get("skipped") or (value["deals"] == 200 and "differences" in value)


@pytest.mark.parametrize("key", [k for k in DATA["games"] if k != "robber"])  # Robber's solver: a second a deal
def test_its_first_deals_replay(key):
    game = DATA["games"][key]
    v = find_variant(key)
    assert [play_deal(key, v.rules, game["baseline"], 1, i) for i in range(2)] == game["default"]["rows"][:2]
    measured = [(name, value) for name, knob in game["knobs"].items() for value in knob.get("values", {}).values()
                if "rows" in value]
    for name, value in measured[:: max(1, len(measured) // 3)][:3]:  # three knobs across the game's rules
        rules = v.with_rules(**{name: value["value"]})
        assert play_deal(key, rules, game["baseline"], 1, 0) == value["rows"][0], (name, value["value"])


def test_its_figures_are_those_its_counts_give():
    part = {"settings": DATA["settings"], "games": {k: DATA["games"][k] for k in ("gin", "romme")}}
    again = copy.deepcopy(part)  # two games: every figure of every value read again (a few CPU-seconds)
    refigure(again)
    assert again["games"] == part["games"]
