"""The "at a glance" pages of German Rommé, Robber Rummy and Rummoli: code-free, complete, computed.

For each page (``book/00f_…``, ``00g_…``, ``00h_…``):

* no code is visible: every code cell is hidden (``remove-cell``) or shows only its output
  (``remove-input``);
* the one title is the page's, and its sections cover the pack, the deal, a turn, the end, the
  scoring, a worked example and the house rules;
* every number the prose shows is glued from a hidden cell, every hidden cell that glues also
  asserts, and the prose follows the book's rules (numbers glued, glossary terms linked, "meld");
* rules are cited as "rules §3.4";
* executed, every cell runs and every assert holds, every picture or table carries a caption as on
  the Rumino page (``rumino-caption`` or a table ``<caption>``), nothing shows a raw repr, and the
  house-rule table names every knob of the game.

The checks have cases showing they can fail (``test_the_checks_can_fail``).
"""

from __future__ import annotations

import json
import re
from pathlib import Path

import pytest

from rumino.cli import bookbuild
from rumino.engine.knobs import knob_table
from rumino.variants.robber import RobberRules
from rumino.variants.romme import RommeRules
from rumino.variants.rummoli import RummoliRules
from test_book_prose import ACTION_REPR, RAW_VALUE, dollar_slips, lay_for_meld, typed_numbers, unlinked_terms

BOOK = Path(__file__).resolve().parents[2] / "book"
SECTIONS = {"pack": r"\bpack\b", "deal": r"\bdeal\b", "turn": r"\bturn\b", "end": r"\bend\b",
            "scoring": r"\bscoring\b", "example": r"\bworked example\b", "house rules": r"\bhouse rules\b"}
PAGES = {
    "00f_romme_at_a_glance": ("German Rommé at a glance", RommeRules),
    "00g_robber_at_a_glance": ("Robber Rummy at a glance", RobberRules),
    "00h_rummoli_at_a_glance": ("Rummoli at a glance", RummoliRules),
}
IDS = list(PAGES)
HIDDEN = {"remove-cell", "remove-input"}
_GLUE_USE = re.compile(r"\{glue:text\}`([^`]+)`")
_GLUE_DEF = re.compile(r"\bglue\(\s*[\"']([^\"']+)[\"']")
_CITE = re.compile(r"rules §\d+(?:\.\d+)*(?: \([ivx]+\))?(?:(?:,| and) §\d+(?:\.\d+)*)*")


def cells(stem: str) -> list[dict]:
    return json.loads((BOOK / f"{stem}.ipynb").read_text(encoding="utf-8"))["cells"]


def src(cell: dict) -> str:
    s = cell.get("source", "")
    return "".join(s) if isinstance(s, list) else s


def tags(cell: dict) -> set[str]:
    return set(cell.get("metadata", {}).get("tags", []))


def markdown(stem: str) -> list[str]:
    return [src(c) for c in cells(stem) if c["cell_type"] == "markdown"]


def visible_code(cs: list[dict]) -> list[int]:
    return [i for i, c in enumerate(cs) if c["cell_type"] == "code" and not tags(c) & HIDDEN]


def missing_sections(md: list[str]) -> list[str]:
    heads = [line[3:] for text in md for line in text.splitlines() if line.startswith("## ")]
    return [k for k, pat in SECTIONS.items() if not any(re.search(pat, h, re.I) for h in heads)]


def unglued(cs: list[dict]) -> set[str]:
    """Glue names the Markdown shows that no hidden cell glues."""
    used = {m for c in cs if c["cell_type"] == "markdown" for m in _GLUE_USE.findall(src(c))}
    made = {m for c in cs if c["cell_type"] == "code" and "remove-cell" in tags(c) for m in _GLUE_DEF.findall(src(c))}
    return used - made


def glue_without_assert(cs: list[dict]) -> list[int]:
    """Hidden cells that glue a value for the prose but check nothing."""
    return [i for i, c in enumerate(cs) if c["cell_type"] == "code" and _GLUE_DEF.search(src(c))
            and "assert " not in src(c)]


def bare_citations(md: list[str]) -> list[str]:
    """Section signs not written as "rules §3.4" (or "rules §4.1, §4.3")."""
    return [m.group(0) for text in md for m in re.finditer(r".{0,12}§\S*", _CITE.sub("", text))]


# ------------------------------------------------------------------------------------------ the checks can fail


def test_the_checks_can_fail():
    assert missing_sections(["## The pack\n## The deal\n## A turn"]) == ["end", "scoring", "example", "house rules"]
    assert not missing_sections(["## The pack\n## The deal\n## A turn\n## The end\n## Scoring\n"
                                 "## A worked example\n## House rules"])
    code = {"cell_type": "code", "metadata": {}, "source": "x = 1"}
    assert visible_code([code]) == [0]
    hidden = {"cell_type": "code", "metadata": {"tags": ["remove-cell"]}, "source": 'glue("a", 1)'}
    prose = {"cell_type": "markdown", "metadata": {}, "source": "{glue:text}`a` and {glue:text}`b`"}
    assert unglued([hidden, prose]) == {"b"} and glue_without_assert([hidden]) == [0]
    assert bare_citations(["as §3.4 says; rules §3.4, §3.5 and rules §4.3 (iii)"]) == ["as §3.4"]


# ------------------------------------------------------------------------------------------ the committed pages


@pytest.mark.parametrize("stem", IDS)
def test_page_shows_no_code(stem):
    cs = cells(stem)
    assert cs[0]["cell_type"] == "code" and "remove-cell" in tags(cs[0]) and "bookutils.setup()" in src(cs[0])
    assert not visible_code(cs), f"{stem}: code cells {visible_code(cs)} would show their code"


@pytest.mark.parametrize("stem", IDS)
def test_page_has_its_title_and_every_section(stem):
    md = markdown(stem)
    titles = [line[2:] for text in md for line in text.splitlines() if line.startswith("# ")]
    assert titles == [PAGES[stem][0]]
    assert not missing_sections(md), f"{stem}: no section on {missing_sections(md)}"
    top = "\n".join(md[:1])
    assert "{admonition} In this chapter" in top and "Prerequisites" in top
    body = "\n".join(md)
    assert "{admonition} Key ideas" in body and "Review questions" in body


@pytest.mark.parametrize("stem", IDS)
def test_every_number_is_glued_and_asserted(stem):
    cs = cells(stem)
    assert not unglued(cs), f"{stem}: the prose shows glue names nobody glues: {unglued(cs)}"
    assert not glue_without_assert(cs), f"{stem}: cells {glue_without_assert(cs)} glue without an assert"
    md = markdown(stem)
    assert not [n for text in md for n in typed_numbers(text)]
    assert not [s for text in md for s in dollar_slips(text)]
    assert not [w for text in md for w in lay_for_meld(text)]
    assert not unlinked_terms(md), unlinked_terms(md)


@pytest.mark.parametrize("stem", IDS)
def test_rules_are_cited_as_rules_sections(stem):
    bare = bare_citations(markdown(stem))
    assert not bare, f"{stem}: cite the rules as 'rules §3.4': {bare}"


# ------------------------------------------------------------------------------------------ the pages executed


@pytest.fixture(scope="module")
def executed(built_book):
    """Each page as the session's book build executed it (tests/conftest.py: run once, not again here):
    ``{stem: (notebook, ChapterRun)}``."""
    return {stem: bookbuild.executed_chapter(built_book, stem) for stem in IDS}


def _html_outputs(cell) -> str:
    return "".join(o.get("data", {}).get("text/html", "") if isinstance(o.get("data", {}).get("text/html", ""), str)
                   else "".join(o["data"]["text/html"]) for o in cell.get("outputs", []))


@pytest.mark.parametrize("stem", IDS)
def test_page_runs_and_every_picture_is_captioned(executed, stem):
    nb, run = executed[stem]
    assert run.error is None, f"{stem} failed:\n{run.error}"
    shown = [c for c in nb.cells if c.cell_type == "code" and "remove-input" in c.metadata.get("tags", [])]
    assert shown
    for cell in shown:
        if "show_quiz(" in cell.source:  # the self-check quiz is a form, not a picture (test_book_quiz checks it)
            continue
        html = _html_outputs(cell)
        assert html, f"{stem}: a shown cell displays no picture: {cell.source[:60]!r}"
        assert "rumino-caption" in html or "<caption>" in html, \
            f"{stem}: a picture without a caption: {cell.source[:60]!r}"
    text = "".join(_html_outputs(c) for c in nb.cells if c.cell_type == "code")
    assert not RAW_VALUE.search(text) and not ACTION_REPR.search(text)


@pytest.mark.parametrize("stem", IDS)
def test_house_rules_name_every_knob(executed, stem):
    nb, _ = executed[stem]
    rules_cls = PAGES[stem][1]
    table = next(_html_outputs(c) for c in nb.cells if c.cell_type == "code" and "house_rows" in c.source
                 and "remove-input" in c.metadata.get("tags", []))
    from html import escape

    labels = [row["label"] for row in knob_table(rules_cls)]
    missing = [label for label in labels if f"<td>{escape(label, quote=False)}</td>" not in table]
    assert not missing, f"{stem}: the house rules table lacks {missing}"
