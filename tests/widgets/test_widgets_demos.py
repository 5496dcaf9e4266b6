"""The demo notebooks (served by Voilà in the browser tests): committed without outputs, and each one
builds its widget, whose MIME bundle carries the live view and a static HTML fallback."""

from __future__ import annotations

import ast
from pathlib import Path

import nbformat
import pytest

DEMOS = Path(__file__).resolve().parents[2] / "widgets" / "demos"
NAMES = ["hand_explorer", "rule_knobs", "odds_explorer", "game_table", "house_rule_lab", "poker_odds_explorer",
         "rummoli_table", "variant_compare", "table_rearrangement", "romme_robber_tables", "whole_games",
         "class_experiment"]


def test_there_is_one_demo_per_widget():
    assert sorted(p.stem for p in DEMOS.glob("*.ipynb")) == sorted(NAMES)


@pytest.mark.parametrize("name", NAMES)
def test_demo_is_committed_without_outputs(name):
    nb = nbformat.read(DEMOS / f"{name}.ipynb", as_version=4)
    nbformat.validate(nb)
    for cell in nb.cells:
        if cell.cell_type == "code":
            assert cell.outputs == [] and cell.execution_count is None, f"{name}: clear the outputs"
    assert "widgets" not in nb.metadata  # no saved widget state either


@pytest.mark.parametrize("name", NAMES)
def test_demo_s_words_name_no_python_class(name):
    """A demo is a page a reader opens in Voilà: its title and words say what it is in a player's words,
    not the widget's class (they read "# HouseRuleLab", "# GameTable" …)."""
    import re

    nb = nbformat.read(DEMOS / f"{name}.ipynb", as_version=4)
    words = "\n".join(c.source for c in nb.cells if c.cell_type == "markdown")
    assert words.startswith("# "), name
    assert not re.findall(r"\b[A-Z][a-z]+[A-Z]\w*", words), (name, re.findall(r"\b[A-Z][a-z]+[A-Z]\w*", words))


@pytest.mark.parametrize("name", NAMES)
def test_demo_builds_its_widget_with_a_static_fallback(name):
    nb = nbformat.read(DEMOS / f"{name}.ipynb", as_version=4)
    code = "\n".join(c.source for c in nb.cells if c.cell_type == "code")
    tree = ast.parse(code)
    last = tree.body.pop()
    assert isinstance(last, ast.Expr), "the demo ends by displaying its widget"
    ns: dict = {}
    exec(compile(tree, f"{name}.ipynb", "exec"), ns)
    widget = eval(compile(ast.Expression(last.value), f"{name}.ipynb", "eval"), ns)
    bundle = widget._repr_mimebundle_()
    assert bundle["application/vnd.jupyter.widget-view+json"]["model_id"] == widget.model_id
    html = bundle["text/html"]
    assert html == widget.static_html() and len(html) > 100
    assert "Traceback" not in html and "rumino-error" not in html
