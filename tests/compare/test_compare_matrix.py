"""The rules matrix is read from the rules dataclasses: a knob moved changes its cell, every knob is classified."""

from __future__ import annotations

import dataclasses
import json

import pytest

from rumino.cli import main
from rumino.compare import Column, rules_matrix
from rumino.compare.matrix import FIXED_ROWS, knob_topic, knob_words, lower_first
from rumino.errors import RuleConfigError
from rumino.variants import VARIANTS
from rumino.engine.knobs import knob_table


def test_every_knob_of_every_variant_has_a_topic():
    missing = [f"{v.key}.{row['name']}" for v in VARIANTS.values() for row in knob_table(v.rules_class)
               if knob_topic(row["name"]) == "Other house rules"]
    assert not missing, f"classify these knobs in rumino.compare.matrix.KNOB_TOPICS: {missing}"


def test_every_variant_has_a_full_column():
    m = rules_matrix(list(VARIANTS))
    assert m.labels == [v.title for v in VARIANTS.values()]
    for row in FIXED_ROWS:
        assert all(m.cell(row, i) for i in range(len(VARIANTS))), row


@pytest.mark.parametrize("key", list(VARIANTS))
def test_moving_any_knob_changes_exactly_its_column(key):
    """For each knob: a second column with another allowed value differs from the default column."""
    v = VARIANTS[key]
    for row in knob_table(v.rules_class):
        default = getattr(v.rules, row["name"])
        if row["choices"] is not None:
            others = [c for c in row["choices"] if c != default]
        elif default is None:  # an integer knob whose default is "no limit"
            others = [row["low"] if row["low"] is not None else 0]
        else:
            lo = row["low"] if row["low"] is not None else default - 1
            others = [default + 1 if (row["high"] is None or default + 1 <= row["high"]) else lo]
        if row["allow_none"] and default is not None:
            others.append(None)
        for other in others:
            try:
                changed = dataclasses.replace(v.rules, **{row["name"]: other})
            except RuleConfigError:
                continue  # an allowed value that clashes with another default (checked by the dataclass)
            m = rules_matrix([(key, v.rules), (key, changed)])
            differs = [r for r in m.rows if m.cell(r, 0) != m.cell(r, 1)]
            assert differs, f"{key}.{row['name']}={other!r} changes nothing in the matrix"
            # words, not field names: the knob's label, or its whole phrase (Gin's last knock)
            assert "_" not in m.labels[1]
            assert lower_first(row["label"]) in m.labels[1] or knob_words(row, other) in m.labels[1]


def test_fixed_rows_follow_the_meld_rules():
    m = rules_matrix(["romme:n_jokers=2,ace=around", "gin"])
    assert m.cell("Pack", 0) == "106 cards: 2 decks and 2 jokers"
    assert "around the corner" in m.cell("Runs", 0)
    assert m.cell("Jokers in melds", 1) == "no jokers"
    assert m.cell("Card values", 1) == "ace 1, 2 to 10 face value, J Q K 10"
    assert m.cell("Players", 1) == "2"


def test_rummoli_has_no_melds():
    m = rules_matrix(["rummoli"])
    assert m.cell("Sets", 0) == "none (no melds)"
    assert m.cell("Cards dealt", 0).startswith("all 52")


def test_a_worded_hand_size_is_read_in_words():
    """Knock Rummy deals by the number of players: the matrix says how, not the choice's code name."""
    m = rules_matrix(["knock-rummy", "knock-rummy:hand_size=7"])
    assert m.cell("Cards dealt", 0) == "10 cards for 2 players, 7 for 3–4, 6 for 5"
    assert m.cell("Cards dealt", 1) == "7 each"


def test_column_parsing_refuses_bad_input():
    with pytest.raises(RuleConfigError, match="unknown variant 'canasta'"):
        Column.parse("canasta")
    with pytest.raises(RuleConfigError, match="no rule 'knock' in this game"):
        Column.parse("rumino:knock=5")
    with pytest.raises(RuleConfigError, match="has no value"):
        Column.parse("rumino:stake")
    with pytest.raises(RuleConfigError, match="at least one column"):
        rules_matrix([])
    with pytest.raises(RuleConfigError, match="do not belong to Gin Rummy"):
        rules_matrix([("gin", VARIANTS["rumino"].rules)])


def test_html_has_header_cells_and_escapes():
    html = rules_matrix(["rumino", "wiener"]).to_html()
    assert html.count('<th scope="col">') == 3 and '<th scope="row">Pack</th>' in html
    assert "<caption>" in html


def test_cli_json_and_text(capsys):
    assert main(["compare", "rumino", "rumino:knock_max_deadwood=5", "--json"]) == 0
    data = json.loads(capsys.readouterr().out)["matrix"]
    assert data["columns"] == ["Rumino", "Rumino (knock limit: 5)"]
    ending = next(r for r in data["rows"] if r["row"] == "Ending a hand")["cells"]
    assert ": 7" in ending[0] and ": 5" in ending[1]
    assert main(["compare", "gin", "wiener"]) == 0
    out = capsys.readouterr().out
    assert "Gin Rummy" in out and "106 cards" in out


def test_cli_bad_column_exits_2(capsys):
    assert main(["compare", "rumino:knock_max_deadwood=99"]) == 2
    err = capsys.readouterr().err.strip().splitlines()
    assert len(err) == 1 and "knock_max_deadwood" in err[0] and "0 to 70" in err[0]


# Words that describe the engine or a source, never a rule at the table.
ENGINE_WORDS = ("OpenSpiel", "None", "True", "False", "Bicycle", "engine", "dataclass", "knob", "seed", "wall")
KNOB_NAMES = sorted({row["name"] for v in VARIANTS.values() for row in knob_table(v.rules_class)})


def _moved_columns(key):
    """The variant's default rules and, for every knob, the rules with that knob moved (as in the test above)."""
    v = VARIANTS[key]
    yield v.rules
    for row in knob_table(v.rules_class):
        default = getattr(v.rules, row["name"])
        if row["choices"] is not None:
            others = [c for c in row["choices"] if c != default]
        elif default is None:
            others = [row["low"] if row["low"] is not None else 0]
        else:
            others = [row["low"] if row["low"] is not None else 0, row["high"] if row["high"] is not None else 1]
        if row["allow_none"] and default is not None:
            others.append(None)
        for other in others:
            try:
                yield dataclasses.replace(v.rules, **{row["name"]: other})
            except RuleConfigError:
                continue


@pytest.mark.parametrize("key", list(VARIANTS))
def test_no_cell_names_a_field_or_the_engine(key):
    """Every rendered cell and label, under every value of every knob, is in players' words: no field name of any
    variant (``void_at_stock``), no choice's code name (``dealer11``), no engine or source description."""
    import re

    m = rules_matrix([(key, rules) for rules in _moved_columns(key)])
    texts = m.labels + [c for row in m.cells for c in row] + m.rows
    codes = {str(c) for v in VARIANTS.values() for row in knob_table(v.rules_class) for c in (row["choices"] or ())
             if isinstance(c, str) and re.search(r"[_:\d]", c)}
    for text in texts:
        assert not re.search(r"\b[a-z0-9]+_[a-z0-9_]+\b", text), text  # snake_case: a field or a code name
        for name in KNOB_NAMES:
            if "_" in name:
                assert name not in text, (name, text)
        for code in codes:
            assert not re.search(rf"(?<![\w-]){re.escape(code)}(?![\w-])", text), (code, text)
        for word in ENGINE_WORDS:
            assert not re.search(rf"\b{word}\b", text), (word, text)


def test_every_worded_choice_has_its_words():
    """A choice that is not a plain number or yes/no is shown in the knob's words, so it needs an entry."""
    missing = [f"{v.key}.{row['name']}={c!r}" for v in VARIANTS.values() for row in knob_table(v.rules_class)
               for c in (row["choices"] or ()) if isinstance(c, str)
               and not any(k == c for k in row["words"])]
    assert not missing, missing


def test_the_dealer_card_and_the_packs_read_right():
    m = rules_matrix(["wiener", "wiener:deal_mode=upcard", "romme", "gin", "rumino"])
    assert m.cell("Cards dealt", 0) == "10 each, the dealer 11"
    assert m.cell("Cards dealt", 1) == "10 each"
    assert m.cell("Cards dealt", 2) == "13 each, the dealer 14"
    assert m.cell("Sets", 3) == "3 to 4 cards of one rank, any suits"  # one deck: no twin cards to allow
    assert "twin cards allowed" in m.cell("Sets", 4)
    assert "hand void at: 2 cards left in the stock" in m.cell("Ending a hand", 3)
    assert "game to: 100 points" in m.cell("Game and elimination", 3)
    assert "gin bonus: 10 points off the score" in m.cell("Scoring", 4)
