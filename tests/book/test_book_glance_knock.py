"""The "at a glance" pages: Rumino (00b), Gin Rummy (00c), American Knock Rummy (00d), Wiener Rummy (00e),
Oklahoma Gin (00i, Gin's variant: it links to Gin's page for what is the same and shows what differs).

* fast checks on the committed notebooks: the title, no code a reader can see (every code cell is
  hidden), the sections a reader needs to play (the pack, the deal, a turn, what ends a hand,
  scoring, a worked example, house rules), rules cited as ``rules §N``, every ``{glue:text}`` name
  glued by a cell, and every glued number tied to an ``assert`` of the page;
* each page as the session's book build executed it (no second run): no cell fails, every name the prose
  reads is glued, every figure is numbered in order and captioned, every card picture has its
  caption under it, and the worked example's pictures are the engine's own positions.
"""

from __future__ import annotations

import ast
import json
import re
from pathlib import Path

import pytest

from rumino.cli import bookbuild

ROOT = Path(__file__).resolve().parents[2]
BOOK = ROOT / "book"
TITLES = {
    "00b_rumino_at_a_glance": "Rumino at a glance",
    "00c_gin_at_a_glance": "Gin Rummy at a glance",
    "00d_knock_rummy_at_a_glance": "American Knock Rummy at a glance",
    "00e_wiener_at_a_glance": "Wiener Rummy at a glance",
    "00i_oklahoma_at_a_glance": "Oklahoma Gin at a glance",
}
NEW = [s for s in TITLES if s != "00b_rumino_at_a_glance"]
VARIANT_PAGES = ["00i_oklahoma_at_a_glance"]  # a variant's page: what differs from its parent game
# the sections every new page has, each as a pattern its heading matches
SECTIONS = {"pack": r"the pack", "deal": r"the deal", "turn": r"a turn", "end": r"what ends a hand",
            "scoring": r"scoring", "example": r"a worked example", "house rules": r"house rules"}
# a variant's page: what stays as in the parent game, then each difference, then the same closing sections
VARIANT_SECTIONS = {"same": r"what stays as in", "limit": r"the upcard sets the knock limit",
                    "spade": r"a spade upcard doubles", "scoring": r"scoring", "example": r"a worked example",
                    "house rules": r"house rules", "length": r"how long a game takes"}
HIDDEN = {"remove-cell", "remove-input"}
_GLUE_USE = re.compile(r"\{glue:text\}`([^`]+)`")


def _cells(stem: str) -> list[dict]:
    return json.loads((BOOK / f"{stem}.ipynb").read_text(encoding="utf-8"))["cells"]


def _src(cell: dict) -> str:
    s = cell.get("source", "")
    return "".join(s) if isinstance(s, list) else s


def _code(stem: str) -> list[str]:
    return [_src(c) for c in _cells(stem) if c["cell_type"] == "code"]


def _markdown(stem: str) -> list[str]:
    return [_src(c) for c in _cells(stem) if c["cell_type"] == "markdown"]


def glued_names(sources: list[str]) -> set[str]:
    """The names the code cells glue (``glue("name", …)``)."""
    return {m.group(1) for s in sources for m in re.finditer(r"\bglue\(\s*[\"']([\w-]+)[\"']", s)}


def unasserted_glues(sources: list[str]) -> list[str]:
    """Glued values that no ``assert`` of the page checks: a glue whose value shares no variable
    with any assert statement (helper functions such as ``card`` do not count)."""
    trees = [ast.parse(s) for s in sources]
    asserted: set[str] = set()
    helpers: set[str] = set()
    for tree in trees:
        for node in ast.walk(tree):
            if isinstance(node, ast.Assert):
                asserted |= {n.id for n in ast.walk(node) if isinstance(n, ast.Name)}
            elif isinstance(node, ast.FunctionDef):
                helpers.add(node.name)
    bad = []
    for tree in trees:
        for node in ast.walk(tree):
            if (isinstance(node, ast.Call) and isinstance(node.func, ast.Name) and node.func.id == "glue"
                    and len(node.args) >= 2):
                names = {n.id for n in ast.walk(node.args[1]) if isinstance(n, ast.Name)} - helpers
                if not names & asserted:
                    bad.append(ast.unparse(node))
    return bad


# ------------------------------------------------------------------------------------------ the checks can fail


def test_the_detectors_catch_a_slip():
    assert glued_names(["glue('a', 1)\nglue(\"b_c\", x, 'pct')"]) == {"a", "b_c"}
    assert unasserted_glues(["y = 2\nglue('y', y)"]) == ["glue('y', y)"]
    assert unasserted_glues(["y = 2\nassert y == 2\nglue('y', y)", "glue('z', card(y))"]) == []
    assert unasserted_glues(["def card(c):\n    return c\nglue('z', card(3))"]) == ["glue('z', card(3))"]


# ------------------------------------------------------------------------------------------ committed notebooks


@pytest.mark.parametrize("stem", list(TITLES))
def test_title_and_no_visible_code(stem):
    cells = _cells(stem)
    titles = [m.group(1).strip() for s in _markdown(stem) for m in [re.match(r"#\s+(.*)", s)] if m]
    assert titles == [TITLES[stem]], f"{stem}: the page's one title is {TITLES[stem]!r}, got {titles}"
    shown = [i for i, c in enumerate(cells) if c["cell_type"] == "code"
             and not HIDDEN & set(c.get("metadata", {}).get("tags", []))]
    assert not shown, f"{stem}: code cells {shown} would show their code; an at-a-glance page shows none"


@pytest.mark.parametrize("stem", NEW)
def test_page_has_every_section_a_player_needs(stem):
    sections = VARIANT_SECTIONS if stem in VARIANT_PAGES else SECTIONS
    headings = [h.lower() for s in _markdown(stem) for h in re.findall(r"(?m)^##\s+(.*)$", s)]
    missing = [k for k, pat in sections.items() if not any(re.search(pat, h) for h in headings)]
    assert not missing, f"{stem}: sections {missing} are missing; the headings are {headings}"
    order = [next(i for i, h in enumerate(headings) if re.search(pat, h)) for pat in sections.values()]
    assert order == sorted(order), f"{stem}: the sections go {', '.join(sections)}"


@pytest.mark.parametrize("stem", VARIANT_PAGES)
def test_a_variants_page_links_its_parent_games_page(stem):
    first = "\n".join(_markdown(stem)[:2])
    assert "<00c_gin_at_a_glance>`" in first, f"{stem}: the prerequisites name Gin Rummy's page"


@pytest.mark.parametrize("stem", NEW)
def test_rules_are_cited_as_rules_sections(stem):
    text = "\n".join(_markdown(stem)) + "\n".join(_code(stem))
    assert re.search(r"rules §\d", text), f"{stem}: cite the rules as 'rules §6', 'rules §5.8'"
    assert not re.search(r"RULES(?:\.md)? §", text), f"{stem}: write 'rules §N', not 'RULES §N'"


@pytest.mark.parametrize("stem", NEW)
def test_every_glued_number_is_glued_and_asserted(stem):
    used = {m.group(1) for s in _markdown(stem) for m in _GLUE_USE.finditer(s)}
    missing = used - glued_names(_code(stem))
    assert not missing, f"{stem}: the prose reads {sorted(missing)}, which no cell glues"
    bad = unasserted_glues(_code(stem))
    assert not bad, f"{stem}: these glued values are not checked by any assert of the page: {bad}"


# ------------------------------------------------------------------------------------------ the pages executed


@pytest.fixture(scope="module")
def executed(built_book):
    """Each page as the session's book build executed it (tests/conftest.py: run once, not again here):
    ``{stem: (notebook, seconds)}``."""
    out = {}
    for stem in TITLES:
        nb, run = bookbuild.executed_chapter(built_book, stem)
        assert run.error is None, f"{stem} failed:\n{run.error}"
        out[stem] = (nb, run.seconds)
    return out


def _html(nb) -> str:
    return "".join("".join(o.get("data", {}).get("text/html", "")) for c in nb.cells if c.cell_type == "code"
                   for o in c.get("outputs", []))


def _glued(nb) -> set[str]:
    return {o["metadata"]["scrapbook"]["name"] for c in nb.cells if c.cell_type == "code"
            for o in c.get("outputs", []) if "scrapbook" in o.get("metadata", {})}


@pytest.mark.parametrize("stem", list(TITLES))
def test_every_name_the_prose_reads_is_glued(stem, executed):
    nb, _ = executed[stem]
    used = {m.group(1) for s in _markdown(stem) for m in _GLUE_USE.finditer(s)}
    assert used <= _glued(nb), f"{stem}: not glued when the page ran: {sorted(used - _glued(nb))}"


@pytest.mark.parametrize("stem", NEW)
def test_figures_are_numbered_in_order_and_captioned(stem, executed):
    html = _html(executed[stem][0])
    numbers = [int(n) for n in re.findall(r'class="rumino-glance-figure" data-number="(\d+)"', html)]
    assert numbers == list(range(1, len(numbers) + 1)) and len(numbers) >= 6, (stem, numbers)
    captions = re.findall(r"<figcaption[^>]*><b>Picture (\d+)\.</b> ([^<]{8,})</figcaption>", html)
    assert [int(n) for n, _ in captions] == numbers, f"{stem}: every figure has a caption 'Picture N. …'"


@pytest.mark.parametrize("stem", list(TITLES))
def test_every_card_picture_has_its_own_caption(stem, executed):
    """Pictures side by side sit in their own boxes (a gap between them), each caption no wider
    than its cards, so that captions never run together (the slip the review saw on 00b)."""
    html = _html(executed[stem][0])
    pics = re.findall(r'<div class="rumino-glance-pic"[^>]*>(.*?)(?=<div class="rumino-glance-pic"|$)', html, re.S)
    assert pics, f"{stem}: no pictures"
    uncaptioned = [p[:80] for p in pics if 'class="rumino-glance-caption"' not in p
                   and "<figcaption" not in p]
    assert not uncaptioned, f"{stem}: pictures without a caption: {uncaptioned[:3]}"
    assert 'class="rumino-handblock"' not in html, f"{stem}: a bare hand picture (its caption may overflow)"


def test_rumino_page_shows_the_other_players_hand_after_the_gin(executed):
    """The review's slip: "the other player adds 45" was said but never seen; the gin figure now
    shows seat 1's hand and the deadwood it adds."""
    nb, _ = executed["00b_rumino_at_a_glance"]
    gin_cell = next(c for c in nb.cells if c.cell_type == "code" and "other_arr" in _src(c)
                    and "remove-input" in c.metadata.get("tags", []))
    html = "".join(o["data"]["text/html"] for o in gin_cell.outputs if "text/html" in o.get("data", {}))
    m = re.search(r"seat 1, the other player, adds its deadwood: \+(\d+)", html)
    assert m and f'data-deadwood="{m.group(1)}"' in html


def test_gin_example_shows_a_lay_off_an_undercut_and_a_gin(executed):
    html = _html(executed["00c_gin_at_a_glance"][0])
    assert html.count('data-mark="laid off"') >= 2
    assert re.search(r"an undercut\. Seat \d scores \d+ − \d+ \+ 25 = \d+", html)
    assert re.search(r"gin\. Seat \d scores \d+ \+ 25 = \d+", html)


def test_wiener_example_shows_the_dealers_eleven_cards_and_the_last_round(executed):
    html = _html(executed["00e_wiener_at_a_glance"][0])
    assert "the dealer, eleven cards" in html and "The last round after the knock" in html
    assert "buys back" in html and "calls rummy" in html


def test_knock_rummy_example_shows_a_penalty_and_a_rummy(executed):
    html = _html(executed["00d_knock_rummy_at_a_glance"][0])
    assert re.search(r"knocks with \d+ but seat \d holds \d+\. Seat \d wins .* \+ 10 = \d+", html)
    assert re.search(r"a rummy\. Seat \d wins .*2 × 25 = \d+", html)


def test_oklahoma_example_shows_an_upcard_limit_a_doubled_hand_and_an_ace(executed):
    html = _html(executed["00i_oklahoma_at_a_glance"][0])
    assert re.search(r"Hand 1, the \d+\S up: an undercut\. Seat \d scores \d+ − \d+ \+ 25 = \d+", html)
    assert re.search(r"Hand 2, a spade up: seat \d scores \(\d+ − \d+\) × 2 = \d+", html)
    assert re.search(r"Hand 3, an ace up: only a gin ends it\.", html)
    assert "A♣ up: gin only" in html and "Q♠ up: knock with 10 or less" in html
    assert "the 4♦ up: knock with 4 or less, so he may not" in html
