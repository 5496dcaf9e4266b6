"""The book reads as a book about the rummy family: the family map, the bibliography, the preface, the glossary.

Fast checks on the committed sources (the map's own hidden asserts run when the chapter runs,
tests/book/test_notebooks.py):

* ``references.bib`` parses, every ``{cite}`` key used anywhere in ``book/`` is in it, and the
  References page (in the table of contents) lists every entry in one of its groups;
* the family map names the engine's games as the registry does, puts every registered game on the
  tree once, and types no number the engine knows (they are glued);
* the preface speaks of the family, not of "one card game", and sends the reader to chapter 3 for
  the Wilson interval;
* the glossary's per-game values (knock limits, meld sizes, card values, jokers …) are the engine's.
"""

from __future__ import annotations

import ast
import json
import re
from fractions import Fraction
from pathlib import Path

import pytest
import yaml
from pybtex.database import parse_file

from rumino.variants import VARIANTS

ROOT = Path(__file__).resolve().parents[2]
BOOK = ROOT / "book"
BIB = BOOK / "references.bib"
MAP = BOOK / "00a_family_map.ipynb"
PREFACE = BOOK / "00_preface.ipynb"
GLOSSARY = BOOK / "glossary.md"

# {cite}`a,b`, {cite:p}`a`, {cite:t}`a`, {cite:ps}`a` …
CITE = re.compile(r"\{cite(?::\w+)?\}`([^`]+)`")


def _cells(path: Path) -> list[dict]:
    return json.loads(path.read_text(encoding="utf-8"))["cells"]


def _src(cell: dict) -> str:
    s = cell.get("source", "")
    return "".join(s) if isinstance(s, list) else s


def _markdown(path: Path) -> list[str]:
    return [_src(c) for c in _cells(path) if c["cell_type"] == "markdown"]


def cite_keys(text: str) -> set[str]:
    """The citation keys a page's text uses.

    >>> sorted(cite_keys("as {cite:p}`parlett-penguin, pagat-gin` and {cite}`x`"))
    ['pagat-gin', 'parlett-penguin', 'x']
    """
    return {k.strip() for m in CITE.finditer(text) for k in m.group(1).split(",") if k.strip()}


def book_texts() -> dict[str, str]:
    """Every page of the book as text: the notebooks' Markdown cells and the Markdown pages."""
    texts = {p.relative_to(BOOK).as_posix(): "\n".join(_markdown(p))
             for p in BOOK.rglob("*.ipynb") if "_build" not in p.parts and ".ipynb_checkpoints" not in p.parts}
    texts |= {p.relative_to(BOOK).as_posix(): p.read_text(encoding="utf-8")
              for p in BOOK.rglob("*.md") if "_build" not in p.parts}
    return texts


# ------------------------------------------------------------------------------------------ the bibliography


def test_the_bibliography_parses_and_every_cited_key_is_in_it():
    entries = parse_file(str(BIB)).entries
    assert len(entries) >= 25
    used = {(page, key) for page, text in book_texts().items() for key in cite_keys(text)}
    missing = sorted((page, key) for page, key in used if key not in entries)
    assert not missing, f"{{cite}} keys that references.bib lacks: {missing}"
    # the map and the preface cite; the detector sees a key that is not there
    pages = {page for page, _ in used}
    assert {"00a_family_map.ipynb", "00_preface.ipynb", "glossary.md"} <= pages
    assert "no-such-source" not in entries and cite_keys("{cite:t}`no-such-source`") == {"no-such-source"}


def test_the_bibliography_covers_the_seeds_and_the_family_sources():
    entries = parse_file(str(BIB)).entries
    urls = {e.fields.get("url", "") for e in entries.values()}
    for needed in ("wikipedia-on-ipfs.org/wiki/Rumino", "rummolitray", "de.wikipedia.org/wiki/Romm",
                   "pagat.com/rummy/rummy.html", "pagat.com/rummy/ginrummy.html", "pagat.com/rummy/knock.html",
                   "pagat.com/rummy/conquian.html", "pagat.com/stops/michigan.html", "pagat.com/stops/poch.html",
                   "bicyclecards.com/card-games/rule/knock-rummy", "bicyclecards.com/how-to-play/gin-rummy",
                   "arxiv.org/abs/1908.09453", "dskv.de"):
        assert any(needed in u for u in urls), f"references.bib has no entry at {needed}"
    authors = {str(p) for e in entries.values() for p in e.persons.get("author", [])}
    assert "Parlett, David" in authors and "McLeod, John" in authors and "Lanctot, Marc" in authors
    titles = {e.fields["title"].strip("{}") for e in entries.values()}
    assert {"The Penguin Book of Card Games", "A History of Card Games", "The New Complete Hoyle, Revised"} <= titles
    # a web page carries its address; a book its publisher and year
    for key, e in entries.items():
        if e.type == "misc":
            assert e.fields.get("url"), f"{key}: a web source needs its url"
        if e.type == "book":
            assert e.fields.get("publisher") and e.fields.get("year"), f"{key}: a book needs publisher and year"


def test_the_references_page_lists_every_entry_and_is_in_the_toc():
    toc = yaml.safe_load((BOOK / "_toc.yml").read_text(encoding="utf-8"))
    reference = next(p for p in toc["parts"] if p["caption"] == "Reference")
    assert "references" in [c["file"] for c in reference["chapters"]]
    config = yaml.safe_load((BOOK / "_config.yml").read_text(encoding="utf-8"))
    assert config["bibtex_bibfiles"] == ["references.bib"]
    assert "sphinxcontrib.bibtex" in config["sphinx"]["extra_extensions"]
    page = (BOOK / "references.md").read_text(encoding="utf-8")
    groups = re.findall(r':filter: keywords % "(\w+)"', page)
    assert groups and page.count("{bibliography}") == len(groups)
    for key, e in parse_file(str(BIB)).entries.items():
        assert e.fields.get("keywords") in groups, f"{key}: its keywords put it in none of the page's groups {groups}"


def test_the_book_extra_and_the_conda_environment_install_sphinxcontrib_bibtex():
    import tomllib

    book = tomllib.loads((ROOT / "pyproject.toml").read_text())["project"]["optional-dependencies"]["book"]
    assert any(r.startswith("sphinxcontrib-bibtex") for r in book)
    assert re.search(r"^\s*-\s+sphinxcontrib-bibtex", (ROOT / "environment.yml").read_text(), re.M)


# ------------------------------------------------------------------------------------------ the family map


def _map_nodes() -> dict:
    source = next(_src(c) for c in _cells(MAP) if c["cell_type"] == "code" and "NODES = {" in _src(c))
    tree = ast.parse(source)
    node = next(n for n in ast.walk(tree) if isinstance(n, ast.Assign) and n.targets[0].id == "NODES")
    return ast.literal_eval(node.value)


def test_the_family_map_puts_every_engine_game_on_the_tree_under_its_registry_name():
    nodes = _map_nodes()
    registered = [n[4] for n in nodes.values() if n[4] is not None]
    assert sorted(registered) == sorted(VARIANTS), "every game the engine plays is on the tree, once"
    # a game of the registry takes its name from the registry (None on the tree), the others are named
    assert all((name is None) == (reg is not None) for name, *_, reg in nodes.values())
    assert {"Conquian", "Poch", "Michigan", "Rummy", "Rummikub"} <= {n[0] for n in nodes.values()}


TYPED = re.compile(r"(?<![\w.§-])\d+(?![\w-])")


def test_the_family_map_types_no_number_the_engine_knows():
    """Prose numbers on the map before its exercises are glued; only history (a year, Conquian's
    40-card Spanish pack) and chapter numbers are typed."""
    from tests.book.test_book_prose import prose

    md = _markdown(MAP)
    body = "\n".join(md[: next(i for i, t in enumerate(md) if t.startswith("## Summary"))])
    words = re.sub(r"(?i)chapters? \d+", " ", prose(body))
    typed = [n for n in TYPED.findall(words) if not re.fullmatch(r"1[4-9]\d\d", n)]
    assert typed == [], f"numbers typed in the map's prose (glue them from the registry): {typed}"
    assert "40-card Spanish pack" in body
    # and every number pasted in is glued by the chapter's own cells
    glued = {m.group(1) for c in _cells(MAP) if c["cell_type"] == "code"
             for m in re.finditer(r'glue\("(\w+)"', _src(c))}
    used = set(re.findall(r"\{glue:text\}`(\w+)`", "\n".join(md)))
    assert used and used <= glued, f"glue names the map uses but never glues: {used - glued}"
    assert TYPED.findall("a pack of 52 cards, §1.3, 3-4") == ["52"]


def test_the_family_map_explains_rummoli_and_cites_the_stops_sources():
    md = "\n".join(_markdown(MAP))
    assert "Strictly speaking, Rummoli is not a rummy" in md
    assert {"pagat-stops", "pagat-poch", "pagat-michigan", "irwin-rummoli"} <= cite_keys(md)
    assert "## The family at a glance" in md


# ------------------------------------------------------------------------------------------ the preface and the parts


def test_the_preface_speaks_of_the_family():
    text = "\n".join(_markdown(PREFACE))
    assert "one card game" not in text.lower()
    assert "rummy family" in text and "*A map of the rummy family*" in text
    assert "*The rules in full*" in text and "*Gin Rummy at a glance*" in text
    # the Wilson interval is taught in chapter 3, and the preface says so
    chapter3 = re.search(r"^3\. \*Melds and deadwood\*.*?(?=^\d+\. )", text, re.M | re.S).group(0)
    assert "Wilson interval" in chapter3
    assert "intervals of chapter 5" not in text and "intervals of chapter 3" in text


def test_the_parts_speak_of_the_family_and_the_map_comes_first():
    toc = yaml.safe_load((BOOK / "_toc.yml").read_text(encoding="utf-8"))
    start = toc["parts"][0]
    assert "rummy family" in start["caption"] and start["chapters"][0]["file"] == "00a_family_map"
    assert sum("famil" in p["caption"] or "rumm" in p["caption"] for p in toc["parts"]) >= 3


# ------------------------------------------------------------------------------------------ the glossary


def glossary_entry(term: str) -> str:
    """The definition of ``term`` in glossary.md (the indented lines under it)."""
    text = GLOSSARY.read_text(encoding="utf-8")
    m = re.search(rf"(?m)^{re.escape(term)}\n(?:\S.*\n)*((?:  .*\n)+)", text)
    assert m, f"glossary.md has no entry {term!r}"
    return " ".join(line.strip() for line in m.group(1).splitlines())


def test_glossary_entry_reader():
    assert "wild card" in glossary_entry("joker")
    assert "Rumino's own rules call a meld a *lay*" in glossary_entry("meld")   # a term with a synonym line
    with pytest.raises(AssertionError):
        glossary_entry("canasta")


def _after(entry: str, game: str) -> str:
    """The words an entry gives one game: from ``**Game**`` to the next bold game name or the end."""
    m = re.search(rf"\*\*{re.escape(game)}\*\*(.*?)(?=\*\*[A-Z]|$)", entry)
    assert m, f"the entry names no **{game}**: {entry[:80]}…"
    return m.group(1)


def test_the_glossary_knock_limits_are_the_engines():
    entry = glossary_entry("knock")
    for key, game in (("rumino", "Rumino"), ("gin", "Gin Rummy"), ("wiener", "Wiener Rummy")):
        limit = int(re.search(r"(\d+) or less", _after(entry, game)).group(1))
        assert limit == VARIANTS[key].knock_limit(), game
    assert VARIANTS["knock-rummy"].knock_limit() is None and "any count" in _after(entry, "Knock Rummy")
    no_knock = [v.title for v in VARIANTS.values() if v.knock_field is None]
    assert sorted(no_knock) == ["German Rommé", "Robber Rummy", "Rummoli"]
    assert "German Rommé, Robber Rummy and Rummoli have no knock" in entry


def test_the_glossary_melds_sets_and_runs_are_the_engines():
    meld = glossary_entry("meld")
    r = VARIANTS["rumino"].meld_rules()
    assert f"{r.min_meld} or {r.max_run} cards" in _after(meld, "Rumino") and r.max_set == r.max_run
    for key in ("romme", "robber", "wiener"):
        m = VARIANTS[key].meld_rules()
        assert (m.min_meld, m.max_set, m.max_run, m.min_naturals, m.adjacent_jokers_min_run) == (3, 4, 13, 2, 4)
        assert m.set_suits == "distinct" and m.ace == "both"
    assert "runs of 3 to 13, at least two natural cards" in meld and "run of 4 or more" in meld
    for key in ("gin", "knock-rummy"):
        m = VARIANTS[key].meld_rules()
        assert (m.max_set, m.set_suits, m.ace, m.pack.jokers) == (4, "any", "low", 0)
    assert VARIANTS["rummoli"].meld_rules() is None and "**Rummoli** has no melds" in meld
    run = glossary_entry("run")
    assert "low only in **Rumino**, **Gin Rummy** and **Knock Rummy**" in run
    assert all(VARIANTS[k].meld_rules().ace == "low" for k in ("rumino", "gin", "knock-rummy"))


def test_the_glossary_card_values_and_jokers_are_the_engines():
    joker = glossary_entry("joker")
    for key, game in (("rumino", "Rumino"), ("robber", "Robber Rummy"), ("wiener", "Wiener Rummy")):
        n = int(re.match(r"\s*(\d+)", _after(joker, game)).group(1))
        assert n == VARIANTS[key].pack.jokers, game
    assert VARIANTS["robber"].pack.jokers == VARIANTS["romme"].pack.jokers
    assert all(VARIANTS[k].pack.jokers == 0 for k in ("gin", "knock-rummy", "rummoli"))
    left = re.search(r"costs (\d+) in \*\*Rumino\*\* and (\d+) in", joker)
    assert int(left.group(1)) == VARIANTS["rumino"].meld_rules().joker_value
    assert int(left.group(2)) == VARIANTS["wiener"].meld_rules().joker_value == VARIANTS["romme"].rules.joker_penalty
    deadwood = glossary_entry("deadwood")
    for key, game in (("rumino", "Rumino"), ("knock-rummy", "Knock Rummy"), ("wiener", "Wiener Rummy")):
        m = VARIANTS[key].meld_rules()
        words = _after(deadwood, game)
        assert f"ace {m.ace_value}" in words and f"{m.face_value}" in words, game
    assert f"joker {VARIANTS['wiener'].meld_rules().joker_value}" in _after(deadwood, "Wiener Rummy")


def test_the_glossary_scores_are_the_engines():
    gin = glossary_entry("gin")
    assert f"scores {str(VARIANTS['rumino'].rules.gin_bonus).replace('-', '−')} for its player" in gin
    assert f"a bonus of {VARIANTS['gin'].rules.gin_bonus}" in _after(gin, "Gin Rummy")
    undercut = glossary_entry("undercut")
    assert f"difference plus {VARIANTS['gin'].rules.undercut_bonus}" in _after(undercut, "Gin Rummy")
    assert f"pays {VARIANTS['knock-rummy'].rules.knock_penalty} plus" in _after(undercut, "Knock Rummy")
    assert VARIANTS["rumino"].rules.knock_undercut_penalty == VARIANTS["wiener"].rules.knock_undercut_penalty == 0
    out = glossary_entry("elimination")
    assert VARIANTS["rumino"].rules.elimination_at == VARIANTS["wiener"].rules.elimination_at == 101
    assert "reaches 101" in out and f"({VARIANTS['gin'].rules.game_to} points)" in out
    assert VARIANTS["knock-rummy"].rules.game_to == VARIANTS["gin"].rules.game_to
    assert f"least {VARIANTS['romme'].rules.opening_min} points" in glossary_entry("opening")
    assert VARIANTS["robber"].rules.opening_min == VARIANTS["romme"].rules.opening_min
    upcard = glossary_entry("upcard")
    sizes = re.search(r"one card more \((\d+) and (\d+)\)", upcard).groups()
    assert (int(sizes[0]), int(sizes[1])) == (VARIANTS["romme"].hand_size + 1, VARIANTS["wiener"].hand_size + 1)
    assert Fraction(VARIANTS["wiener"].rules.entry_chips) == 5 and "five chips" in glossary_entry("pool")
