"""The book's prose and visible code follow the conventions of ``book/README.md`` (every chapter).

These are fast checks on the committed notebooks (and on the pages of the session's book build,
``built_book`` in tests/conftest.py, for what the cells print); each kind of slip a reader once saw has a test here, with a case showing the test can fail:

* a ``$`` before a digit outside maths (``$10, $20`` renders as maths: write ``\\$10``);
* a raw value on the page (``np.float64(12.27)``, ``Fraction(7, 1926)``, ``[Draw(source='stock')]``);
* a visible code line over 88 characters, or a visible ``assert`` (checks live in hidden cells);
* a percentage or a number with thousands separators typed in the prose instead of glued;
* a chapter without its frame (objectives and prerequisites; key ideas and review questions),
  without 3–5 graded exercises each with a hint, or with a glossary term unlinked at its first use.
"""

from __future__ import annotations

import ast
import json
import re
from html.parser import HTMLParser
from pathlib import Path

import pytest
from markdown_it import MarkdownIt
from mdit_py_plugins.dollarmath import dollarmath_plugin

from rumino.cli import bookbuild

ROOT = Path(__file__).resolve().parents[2]
BOOK = ROOT / "book"
CHAPTERS = bookbuild.chapters(BOOK)
IDS = [p.stem for p in CHAPTERS]
GLOSSARY = BOOK / "glossary.md"
MAX_LINE = 88
HIDDEN = {"remove-cell", "remove_cell", "remove-input", "remove_input"}
# a visible code cell may end by showing one of these (they format their values for people)
DISPLAY_CALLS = {"hand", "arrangement", "side_by_side", "table", "show", "live", "HTML", "display", "print",
                 "Markdown"}
# the terms whose first use in a chapter must link the glossary, and how a use is spelt
TERM_USES = {
    "meld": (r"\bmelds?\b", re.I),
    "deadwood": (r"\bdeadwood\b", re.I),
    "knock": (r"\bknock(?:s|ed|er|ers|ing)?\b", re.I),
    "gin": (r"\bgins?\b", 0),             # lower case: "Gin Rummy" is a game's name
    "rumino": (r"\bruminos?\b", 0),       # lower case: "Rumino" is the game, "a rumino" the hand
    "undercut": (r"\bundercut\w*", re.I),
    "upcard": (r"\bupcards?\b", re.I),
    "stock": (r"\bstock\b", re.I),
    "outs": (r"\bouts\b", re.I),
    "rebuy": (r"\brebuy\w*", re.I),
    "pool": (r"\bpool\b", re.I),
}
ACTION_REPR = re.compile(r"\b(?:Draw|Discard|Knock|Gin|ClaimRumino|Pass|Meld|LayOff)\((?:source=|card=|\)|Card)")
RAW_VALUE = re.compile(r"np\.(?:float|int)\d*\(|\bFraction\(|\barray\(\[")


# ------------------------------------------------------------------------------------------ reading the sources


def _cells(path: Path) -> list[dict]:
    return json.loads(path.read_text(encoding="utf-8"))["cells"]


def _src(cell: dict) -> str:
    s = cell.get("source", "")
    return "".join(s) if isinstance(s, list) else s


def _tags(cell: dict) -> set[str]:
    return set(cell.get("metadata", {}).get("tags", []))


def visible_code(path: Path) -> list[tuple[int, dict]]:
    """Code cells whose source a reader of the HTML book can see (``hide-input`` folds, it does not hide)."""
    return [(i, c) for i, c in enumerate(_cells(path)) if c["cell_type"] == "code" and not _tags(c) & HIDDEN]


def markdown(path: Path) -> list[str]:
    return [_src(c) for c in _cells(path) if c["cell_type"] == "markdown"]


_FENCE = re.compile(r"^(`{3,}|~{3,}).*?^\1\s*$", re.M | re.S)
_DIRECTIVE_LINE = re.compile(r"^\s*(?::{3,}|`{3,})\{?[\w:-]*\}?.*$|^\s*:[\w-]+:.*$", re.M)
_DISPLAY_MATH = re.compile(r"\$\$.*?\$\$", re.S)
_INLINE_MATH = re.compile(r"(?<![\\$])\$(?!\$)(?:\\.|[^$\\])+?(?<!\\)\$")
_CODE_SPAN = re.compile(r"(`+)(?!\{).+?\1")
_GLUE = re.compile(r"\{glue(?::\w+)?\}`[^`]*`")
_TERM = re.compile(r"\{term\}`([^`<]*?)(?:\s*<([^>`]+)>)?`")


def prose(text: str, *, keep_terms: bool = False) -> str:
    """The words of a Markdown cell as a reader reads them: no code, maths, glue, headings or directive lines.

    With ``keep_terms`` a ``{term}`` role becomes ``⟦term:N⟧`` (N = the target's index in TERM_USES, or
    ``?``) so that its text is not taken for an unlinked use."""
    text = _FENCE.sub(" ", text)
    text = _DISPLAY_MATH.sub(" ", text)
    text = _GLUE.sub(" GLUED ", text)
    if keep_terms:
        names = list(TERM_USES)

        def mark(m):
            target = (m.group(2) or m.group(1)).strip().lower()
            return f" ⟦term:{names.index(target) if target in names else '?'}⟧ "

        text = _TERM.sub(mark, text)
    else:
        text = _TERM.sub(lambda m: m.group(1), text)
    text = re.sub(r"\{\w+(?::\w+)?\}`[^`]*`", " ", text)      # other roles: {ref}, {numref}, {doc}
    text = re.sub(r"\]\([^)\s]*\)", "]", text)                # a link's address is not a reader's word
    text = _CODE_SPAN.sub(" ", text)
    text = _INLINE_MATH.sub(" MATH ", text.replace("\\$", "DOLLAR"))
    text = _DIRECTIVE_LINE.sub(" ", text)
    text = re.sub(r"^#+\s.*$", " ", text, flags=re.M)          # headings name a topic; they are not a use
    return text


# ------------------------------------------------------------------------------------------ the kinds of slip


_MD = MarkdownIt("commonmark").use(dollarmath_plugin, allow_space=True, allow_digits=True)
_WORD_IN_MATH = re.compile(r"(?<![\\a-zA-Z])[a-zA-Z]{2,}")


def dollar_slips(text: str) -> list[str]:
    """Places where a ``$`` before a digit is money, not maths: ``$10 game`` parsed as a formula, or a lone
    unescaped ``$10`` that a second ``$`` later in the paragraph would turn into maths."""
    text = _FENCE.sub(" ", text).replace("\\$", "DOLLAR")
    text = _CODE_SPAN.sub(" ", text)
    slips = []
    for token in _MD.parse(text):
        for child in token.children or ():
            if child.type == "text" and re.search(r"\$\d", child.content):
                slips.append(child.content)
            elif child.type == "math_inline" and re.match(r"\d", child.content):
                words = _WORD_IN_MATH.findall(re.sub(r"\\(?:text|mathrm|textrm)\{[^}]*\}", "", child.content))
                if words or re.search(r"[\s,]$", child.content):
                    slips.append(f"${child.content}$")
    return slips


def long_code_lines(source: str) -> list[str]:
    return [line for line in source.splitlines() if len(line) > MAX_LINE]


def display_functions(sources: list[str]) -> set[str]:
    """Functions a chapter defines whose every ``return`` hands back a display helper's result."""
    names = set()
    for source in sources:
        try:
            tree = ast.parse(source)
        except SyntaxError:
            continue
        for node in ast.walk(tree):
            if isinstance(node, ast.FunctionDef):
                returns = [r.value for r in ast.walk(node) if isinstance(r, ast.Return)]
                if returns and all(isinstance(v, ast.Call) and isinstance(v.func, ast.Name)
                                   and v.func.id in DISPLAY_CALLS for v in returns):
                    names.add(node.name)
    return names


def shown_raw_value(source: str, helpers: set[str] = frozenset()) -> str | None:
    """The last expression of a visible cell when Jupyter would show its bare repr, else None.

    Allowed endings: a display helper (``hand``, ``table``, ``print``, …, or a function of the chapter
    that returns one, listed in ``helpers``), a (formatted) string, or a statement. Anything else
    (a name, a tuple, ``float(p)``, ``game.legal_actions()``) prints a repr.
    """
    try:
        tree = ast.parse(source)
    except SyntaxError:
        return None  # IPython magics; nbval runs the cell anyway
    if not tree.body or not isinstance(tree.body[-1], ast.Expr):
        return None
    value = tree.body[-1].value
    if isinstance(value, ast.JoinedStr) or (isinstance(value, ast.Constant) and isinstance(value.value, str)):
        return None
    if isinstance(value, ast.Call):
        func = value.func
        name = func.id if isinstance(func, ast.Name) else func.attr if isinstance(func, ast.Attribute) else ""
        if name in DISPLAY_CALLS or name in helpers or (isinstance(func, ast.Attribute)
                                                         and name in ("format", "join")):
            return None
    return ast.unparse(value)


class _Outputs(HTMLParser):
    """The text of every ``<div class="cell_output …">`` of a built page (what the cells printed)."""

    def __init__(self):
        super().__init__()
        self.depth = 0  # div depth inside the current output, 0 when outside
        self.texts: list[list[str]] = []

    def handle_starttag(self, tag, attrs):
        if tag != "div":
            return
        if self.depth:
            self.depth += 1
        elif "cell_output" in (dict(attrs).get("class") or ""):
            self.depth = 1
            self.texts.append([])

    def handle_endtag(self, tag):
        if tag == "div" and self.depth:
            self.depth -= 1

    def handle_data(self, data):
        if self.depth:
            self.texts[-1].append(data)


def cell_outputs(page_html: str) -> list[str]:
    parser = _Outputs()
    parser.feed(page_html)
    return ["".join(t) for t in parser.texts]


def visible_asserts(source: str) -> int:
    try:
        return sum(isinstance(n, ast.Assert) for n in ast.walk(ast.parse(source)))
    except SyntaxError:
        return source.count("assert ")


def typed_numbers(text: str) -> list[str]:
    """Percentages and numbers with thousands separators typed in the prose (they must be glued)."""
    words = prose(text).replace("95%", "ninety-five percent")   # a confidence level, not a result
    return re.findall(r"(?<![\w.])\d+(?:\.\d+)?\s?%|(?<![\w.,])\d{1,3}(?:,\d{3})+(?![\d,])", words)


LAY_AS_NOUN = re.compile(r"\b(?:a|an|the|one|two|each|every|no|this|that|its|their|biggest|longest|"
                         r"candidate|valid|joker-free|possible)\s+lays?\b|\b\d-lays?\b|\blays of\b", re.I)


def lay_for_meld(text: str) -> list[str]:
    """Uses of "lay" as the noun for a meld (the book says meld; "to lay off" is a verb and fine)."""
    return [m.group(0) for m in LAY_AS_NOUN.finditer(prose(text))]


def unlinked_terms(cells_md: list[str]) -> list[str]:
    """Glossary terms whose first use in the chapter is not a ``{term}`` link."""
    text = "\n\n".join(prose(s, keep_terms=True) for s in cells_md)
    problems = []
    for k, (term, (pattern, flags)) in enumerate(TERM_USES.items()):
        use = re.search(pattern, text, flags)
        link = text.find(f"⟦term:{k}⟧")
        if use and (link < 0 or use.start() < link):
            problems.append(f"{term}: first used unlinked in …{text[max(0, use.start() - 50):use.end() + 20]!r}")
    return problems


def glossary_terms() -> set[str]:
    text = GLOSSARY.read_text(encoding="utf-8")
    block = re.search(r"(?s)(:{3,}|`{3,})\{glossary\}\s*\n(.*?)^\1", text, re.M)
    assert block, "glossary.md holds a {glossary} directive"
    return {line.strip().lower() for line in block.group(2).splitlines()
            if line.strip() and not line.startswith((" ", "\t")) and not line.startswith(":")}


# ------------------------------------------------------------------------------------------ the tests can fail


def test_slip_detectors_catch_the_slips_readers_saw():
    assert dollar_slips("The price doubles, $10, $20, $40 in a $10 game.")
    assert dollar_slips("Seat 1 takes the three $10 stakes.")
    assert not dollar_slips("The price doubles, \\$10, \\$20, \\$40 in a \\$10 game.")
    assert not dollar_slips("so $2 \\times 52 + 4 = 108$ cards, $N$ draws, $2^7 = 128$ and `$10`")
    assert long_code_lines("x = 1\n" + "y" * 89) == ["y" * 89]
    assert shown_raw_value("p = comb(5, 2)\np, float(p)") == "(p, float(p))"
    assert shown_raw_value("game.legal_actions()") == "game.legal_actions()"
    assert shown_raw_value("print(f'{p:.2%}')") is None and shown_raw_value("hand(h)") is None
    assert shown_raw_value("x = 1") is None and shown_raw_value("f'{x:,}'") is None
    helpers = display_functions(["def pic(h):\n    return hand(h)\ndef p(x):\n    return x / 2"])
    assert helpers == {"pic"} and shown_raw_value("pic(h)", helpers) is None and shown_raw_value("p(1)")
    assert visible_asserts("assert x == 1\nx") == 1
    assert typed_numbers("about 2,397 games, 18.8% of deals") == ["2,397", "18.8%"]
    assert not typed_numbers("{glue:text}`n_games` games, $18\\%$, `2,397`, 7 cards and 100 points")
    linked = "A {term}`knock <knock>` ends it; you knock."
    assert not unlinked_terms([linked]) and unlinked_terms(["You knock. A {term}`knock` ends it."])
    assert unlinked_terms(["the deadwood of a hand"]) and not unlinked_terms(["# Deadwood\nnothing"])
    assert lay_for_meld("a lay of 4 and a 3-lay; 539 joker-free lays") == ["a lay", "3-lay", "joker-free lays"]
    assert not lay_for_meld("Rumino's rules call a meld a *lay*; greedy lays 4♠ 5♠ 6♠; lay off")
    assert RAW_VALUE.search("np.float64(12.27)") and RAW_VALUE.search("Fraction(7, 1926)")
    assert ACTION_REPR.search("[Draw(source='stock'), Knock()]")
    page = ('<div class="cell_output docutils container"><div class="output text_plain">'
            '<pre>np.float64(12.27)</pre></div></div><p>apply <code>Knock()</code></p>')
    assert cell_outputs(page) == ["np.float64(12.27)"]


# ------------------------------------------------------------------------------------------ every chapter


@pytest.mark.parametrize("path", CHAPTERS, ids=IDS)
def test_no_dollar_before_a_digit_outside_maths(path):
    slips = [s for text in markdown(path) for s in dollar_slips(text)]
    assert not slips, f"{path.name}: money written with a bare $ renders as maths; write \\$10: {slips}"


@pytest.mark.parametrize("path", CHAPTERS, ids=IDS)
def test_one_word_for_a_meld(path):
    lays = [w for text in markdown(path) for w in lay_for_meld(text)]
    assert not lays, f"{path.name}: the book says meld, as the card pictures do, not lay: {lays}"


@pytest.mark.parametrize("path", CHAPTERS, ids=IDS)
def test_visible_code_is_short_and_shows_no_checks(path):
    long = [(i, line) for i, c in visible_code(path) for line in long_code_lines(_src(c))]
    assert not long, f"{path.name}: visible code lines over {MAX_LINE} characters: {long[:5]}"
    checks = [i for i, c in visible_code(path) if visible_asserts(_src(c))]
    assert not checks, (f"{path.name}: cells {checks} show an assert; move the checks to a cell tagged "
                        f"remove-cell (inside a solution: solution + remove-cell)")


@pytest.mark.parametrize("path", CHAPTERS, ids=IDS)
def test_visible_cells_show_no_raw_reprs(path):
    helpers = display_functions([_src(c) for c in _cells(path) if c["cell_type"] == "code"])
    raw = [(i, r) for i, c in visible_code(path) if (r := shown_raw_value(_src(c), helpers))]
    assert not raw, (f"{path.name}: these cells end by showing a bare repr (np.float64(…), Fraction(…), "
                     f"actions); end with print(...) of a formatted string or a display helper: {raw}")


@pytest.mark.parametrize("path", CHAPTERS, ids=IDS)
def test_built_pages_show_no_raw_reprs(path, built_book):
    """What the executed cells print, on the pages of the session's build (tests/conftest.py: built once)."""
    page = built_book.html_dir / f"{path.stem}.html"
    assert page.is_file(), f"the build wrote no {page.name}"
    outputs = cell_outputs(page.read_text(encoding="utf-8"))
    bad = [m.group(0) for out in outputs for m in [RAW_VALUE.search(out) or ACTION_REPR.search(out)] if m]
    assert not bad, f"{page.name} shows raw reprs in its outputs: {bad[:5]}"


@pytest.mark.parametrize("path", CHAPTERS, ids=IDS)
def test_prose_numbers_are_glued_not_typed(path):
    typed = [n for text in markdown(path) for n in typed_numbers(text)]
    assert not typed, (f"{path.name}: numbers typed in the prose: {typed}; glue them from the computation "
                       "(bookutils.glue in a hidden cell, {glue:text}`name` in the Markdown)")


# the teacher's pages (teach_…) are lesson plans, laid out as tests/book/test_book_teachers.py checks
FRAMED = [p for p in CHAPTERS if p.stem != "00_preface" and not p.stem.startswith("teach_")]


@pytest.mark.parametrize("path", FRAMED, ids=[p.stem for p in FRAMED])
def test_chapter_is_framed(path):
    md = markdown(path)
    top = "\n".join(md[:3])
    assert "{admonition} In this chapter" in top and "Prerequisites" in top, \
        f"{path.name}: an 'In this chapter' box (objectives and prerequisites) opens the chapter"
    body = "\n".join(md)
    assert "{admonition} Key ideas" in body, f"{path.name}: a 'Key ideas' box closes the chapter"
    assert "Review questions" in body, f"{path.name}: review questions close the chapter"


# every numbered chapter has exercises; the unnumbered pages before chapter 1 (00…: the preface,
# the family map, the games at a glance) and the classroom exercises do not follow the 3-to-5 rule
EXERCISED = [p for p in CHAPTERS if re.match(r"\d\d[a-z]?_", p.name)
             and not p.stem.startswith("00") and p.stem != "13_exercises"]


@pytest.mark.parametrize("path", EXERCISED, ids=[p.stem for p in EXERCISED])
def test_exercises_are_graded_and_hinted(path):
    md = [_src(c) for c in _cells(path) if c["cell_type"] == "markdown"]
    titles = re.findall(r"(?m)^:{3,}\{exercise\}\s*(.*)$", "\n".join(md))
    assert 3 <= len(titles) <= 5, f"{path.name}: {len(titles)} exercises; a chapter has 3 to 5"
    # "Title, pencil" renders as "Exercise 1.1 (Title, pencil)"; "Title (pencil)" is accepted too
    levels = [re.search(r"(?:,\s*|\()(pencil|code|challenge)\)?\s*$", t) for t in titles]
    assert all(levels), f"{path.name}: each exercise title ends in ', pencil', ', code' or ', challenge': {titles}"
    order = {"pencil": 0, "code": 1, "challenge": 2}
    ranks = [order[m.group(1)] for m in levels]
    assert ranks == sorted(ranks), f"{path.name}: exercises go from pencil to code to challenge: {titles}"
    pending = None
    for text in md:
        if "{exercise}" in text:
            pending = re.search(r":label:\s*(\S+)", text).group(1)
            hinted = False
        elif "{admonition} Hint" in text and pending:
            hinted = True
        elif "{solution-start}" in text and pending:
            assert hinted, f"{path.name}: exercise {pending} has no hint before its solution"
            pending = None


@pytest.mark.parametrize("path", CHAPTERS, ids=IDS)
def test_glossary_terms_are_linked_at_first_use(path):
    problems = unlinked_terms(markdown(path))
    assert not problems, f"{path.name}: link the first use of each term with {{term}}: " + "; ".join(problems)


def test_every_term_link_has_a_glossary_entry():
    terms = glossary_terms()
    assert set(TERM_USES) <= terms, f"glossary.md lacks {set(TERM_USES) - terms}"
    missing = {(p.name, (m.group(2) or m.group(1)).strip().lower())
               for p in CHAPTERS for text in markdown(p) for m in _TERM.finditer(text)} - {
                   (p.name, t) for p in CHAPTERS for t in terms}
    assert not missing, f"{{term}} links without a glossary entry: {sorted(missing)}"


def test_glossary_is_in_the_table_of_contents():
    toc = (BOOK / "_toc.yml").read_text(encoding="utf-8")
    assert re.search(r"file:\s*glossary\b", toc)
    assert re.search(r"file:\s*00b_rumino_at_a_glance\b", toc)


def test_preface_gives_the_reading_order_of_every_chapter():
    """The preface names every chapter of the table of contents, in the order of the book (and the
    part for teachers, whose own first page lists its lesson plans)."""
    preface = "\n".join(markdown(BOOK / "00_preface.ipynb"))
    order = preface[preface.index("## The chapters"):]
    places = []
    assert "*For teachers*" in order, "the preface's list of chapters names the part *For teachers*"
    for path in [p for p in CHAPTERS[1:] if not p.stem.startswith("teach_")]:
        title = next(m.group(1).strip() for text in markdown(path) if (m := re.match(r"#\s+(.*)", text)))
        assert f"*{title}*" in order, f"the preface's list of chapters lacks *{title}* ({path.name})"
        places.append(order.index(f"*{title}*"))
    assert places == sorted(places), "the preface lists the chapters in another order than _toc.yml"
    assert "Reading order" in order


def test_the_python_interface_page_documents_every_public_name(built_book):
    """Reference → "The Python interface" is generated by autodoc: every function and class that
    ``import rumino`` offers has its entry there, under the module that defines it."""
    import inspect

    import rumino

    page = (built_book.html_dir / "api.html").read_text(encoding="utf-8")
    missing = [name for name in rumino.__all__
               if (inspect.isfunction(obj := getattr(rumino, name)) or inspect.isclass(obj))
               and f'id="{obj.__module__}.{obj.__qualname__}"' not in page]
    assert missing == [], f"api.md does not document {missing}"
    assert 'id="rumino_widgets.GameTable"' in page or 'id="rumino_widgets.game_table.GameTable"' in page


def test_chapter_files_start_with_their_chapter_number():
    """Chapter N of the table of contents lives in a file named ``NN_…`` (a reader can find it)."""
    import yaml

    toc = yaml.safe_load((BOOK / "_toc.yml").read_text(encoding="utf-8"))
    numbered = [c["file"] for part in toc["parts"] if part.get("numbered") for c in part["chapters"]]
    assert numbered, "no numbered part in _toc.yml"
    wrong = [(n, f) for n, f in enumerate(numbered, start=1) if not f.startswith(f"{n:02d}_")]
    assert not wrong, f"chapter files whose name does not start with their number: {wrong}"
    unnumbered = [c["file"] for part in toc["parts"] if not part.get("numbered") for c in part["chapters"]
                  if c["file"][:1].isdigit()]
    assert all(f.startswith("00") for f in unnumbered), f"an unnumbered page with a chapter-like number: {unnumbered}"


_SEED_GLUE = re.compile(r"""glue\(\s*["'](\w*seed\w*)["']\s*,(.*?)\)\s*(?:#.*)?$""", re.M)


def seeds_glued_as_numbers(source: str) -> list[str]:
    """Glued seeds formatted as quantities (``2,025``): a seed is a name, glue it with ``"str"``."""
    return [m.group(1) for m in _SEED_GLUE.finditer(source)
            if not re.search(r"""["']str["']\s*$|^\s*str\(""", m.group(2).strip())]


def test_seed_check_can_fail():
    assert seeds_glued_as_numbers('glue("deals_seed", seed)') == ["deals_seed"]
    assert not seeds_glued_as_numbers('glue("deals_seed", seed, "str")  # a name')
    assert not seeds_glued_as_numbers('glue("n_deals", n_deals)')


MY_CHAPTERS = [p for p in CHAPTERS if re.match(r"0[1-6]_|12_", p.name)]


@pytest.mark.parametrize("path", MY_CHAPTERS, ids=[p.stem for p in MY_CHAPTERS])
def test_seeds_are_glued_as_names(path):
    slips = [s for c in _cells(path) if c["cell_type"] == "code" for s in seeds_glued_as_numbers(_src(c))]
    assert not slips, f"{path.name}: seeds glued with thousands separators (use \"str\"): {slips}"


def test_the_preface_and_the_opening_part_show_no_code():
    """The preface says the opening part needs no code: neither it nor that part shows any, folded or not,
    outside the exercises' solutions (its Python stays in the notebook, for JupyterLab)."""
    opening = [BOOK / "00_preface.ipynb", *sorted(BOOK.glob("00[a-z]_*.ipynb")), BOOK / "00_which_game_for_me.ipynb"]
    for path in opening:
        shown = [i for i, c in enumerate(_cells(path)) if c["cell_type"] == "code"
                 and not _tags(c) & HIDDEN and "solution" not in _tags(c)]
        assert not shown, f"{path.name}: code cells {shown} show their source"
    assert "a part that needs no code" in "\n".join(markdown(BOOK / "00_preface.ipynb"))
