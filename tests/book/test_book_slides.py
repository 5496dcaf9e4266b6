"""Slide decks: ``rumino book slides`` writes one reveal.js deck per chapter (and per page of Start here).

* Without a browser: MyST markup turns into plain words, a small chapter turns into the slides it
  should (title and objectives, a slide per section, a figure on its own slide with its number and
  caption, key ideas, review questions; no exercise, hint, solution or code unless tagged
  ``slide-code``), and the command refuses an unknown chapter or an unbuilt book in one line.
* In Debian's Chromium, on the whole built book (the session's ``built_book``, see conftest.py; set
  RUMINO_BOOK_HTML to an already built ``html`` folder to reuse it while working): every numbered
  chapter and every page of Start here has a deck of at least 4 slides; every slide fits 1280×720 and
  shows at most 60 words; every figure draws (its plotly SVG has a size) with no text under 22 px; no
  raw MyST and no code is visible; formulas are typeset; the type is large; the speaker notes hold the
  lesson plan's; ``?print-pdf`` prints one page a slide; and the browser asks for nothing but files of
  the deck's own folder.
"""

from __future__ import annotations

import json
import os
import re
from pathlib import Path

import pytest

from rumino.cli import bookbuild, main, slides
from rumino.cli.bookbuild import BookError

RAW_MYST = re.compile(r"\{term\}|\{glue|:::|\{numref\}|\{doc\}|\{cite")
RAW_TEX = re.compile(r"\\(?:binom|frac|sqrt|mathrm|hat|cdot|times|le|ge|sum|prod)\b|\$\$")


def md(text):
    return {"cell_type": "markdown", "metadata": {}, "source": text}


def code(text, tags=(), outputs=(), **meta):
    return {"cell_type": "code", "metadata": {"tags": list(tags), **meta}, "execution_count": 1,
            "outputs": list(outputs), "source": text}


def glued(name, value):
    return {"output_type": "display_data", "data": {"application/papermill.record/text/plain": repr(value)},
            "metadata": {"scrapbook": {"name": name, "mime_prefix": "application/papermill.record/"}}}


PLOT = {"output_type": "display_data", "metadata": {},
        "data": {"text/html": '<div class="rumino-figure"><div id="f1" class="plotly-graph-div"></div>'
                              '<script>Plotly.newPlot("f1", [{"y": [3, 1, 2], "type": "bar"}], {}, {})</script>'
                              "</div>",
                 "application/vnd.plotly.v1+json": {"data": [], "layout": {}}}}


def tiny_chapter():
    """An executed chapter in the book's shape (the cells the real chapters use)."""
    cells = [
        code("import bookutils; bookutils.setup()", tags=["remove-cell"]),
        md("# Sevens and stakes\n\n:::{admonition} In this chapter\n:class: rumino-frame\n"
           "**You will learn** to\n\n* count the {term}`melds <meld>` of a hand;\n* read a {term}`stake`.\n\n"
           "**Prerequisites:** chapter 1.\n:::\n\nThe stake is {glue:text}`stake`, see {numref}`fig-bars` "
           "and the {doc}`glossary` {cite:p}`pagat`."),
        code("glue('stake', '$10')", tags=["remove-cell"], outputs=[glued("stake", "$10")]),
        md("## Counting sevens\n\nThere are $\\binom{8}{7} = 8$ ways to pick SEVEN-PROSE.\n\n"
           ":::{admonition} Aside: twins\n:class: note\nTWIN-ASIDE body.\n:::"),
        code("secret_plot_source = 1", outputs=[PLOT], mystnb={"figure": {"name": "fig-bars",
                                                                           "caption": "Three {term}`bars <bar>`."}}),
        code("shown_code_line = 2", tags=["slide-code"],
             outputs=[{"output_type": "stream", "name": "stdout", "text": "SHOWN-OUTPUT\n"}]),
        code("hidden_code_line = 3", outputs=[{"output_type": "stream", "name": "stdout", "text": "PRINTED\n"}]),
        md("## Summary\n\n:::{admonition} Key ideas\n:class: rumino-key-ideas\n* KEY-IDEA one.\n:::\n\n"
           "**Review questions**\n\n1. REVIEW-Q one?\n\n## Exercises\n\n:::{exercise} Count, pencil\n"
           ":label: ex-a\nEXERCISE-TEXT\n:::"),
        md(":::{admonition} Hint\n:class: dropdown\nHINT-TEXT\n:::"),
        md(":::{solution-start} ex-a\n:class: dropdown\n:::\nSOLUTION-PROSE"),
        code("solution_code = 4", tags=["solution"]),
        md(":::{solution-end}\n:::"),
    ]
    for i, cell in enumerate(cells):
        cell["id"] = f"cell-{i}"
    return {"cells": cells, "metadata": {}, "nbformat": 4, "nbformat_minor": 5}


def test_myst_becomes_plain_words():
    glue = {"n": "27,883,218,168", "stake": "$10"}
    figs = {"fig-deal": "Fig. 4.1"}
    text = slides._inline("{term}`melds <meld>`, {term}`gin`, {glue:text}`n` deals, {numref}`fig-deal`, "
                          "the {doc}`glossary` {cite:p}`a,b`.", glue, figs)
    assert text == "melds, gin, 27,883,218,168 deals, Fig. 4.1, the glossary."
    money = slides._inline("costs {glue:text}`stake` and $x$", glue, figs)
    assert "$10" not in money and "mathjax_ignore" in money and "$x$" in money  # no formula starts at "$10"
    with pytest.raises(BookError, match="missing_name"):
        slides._inline("{glue:text}`missing_name`", glue, figs, "04_x")


def test_a_chapter_becomes_its_slides():
    deck = slides.chapter_slides(tiny_chapter(), "04_sevens")
    kinds = [s.kind for s in deck]
    assert kinds[0] == "title" and deck[0].title == "Sevens and stakes"
    assert "count the melds of a hand" in " ".join(b.md for b in deck[0].blocks)  # the objectives
    titles = [s.title for s in deck]
    assert "Counting sevens" in titles and "Key ideas" in titles and "Review questions" in titles
    figure = next(s for s in deck if s.kind == "figure")
    assert figure.figure["caption"] == "**Fig. 4.1** Three bars."
    assert kinds.index("figure") > titles.index("Counting sevens")
    everything = json.dumps([[b.md for b in s.blocks] for s in deck])
    assert "see Fig. 4.1" in everything and "Prerequisites" not in everything
    assert "### Aside: twins" in everything and "TWIN-ASIDE" in everything  # a box: heading + body
    for gone in ("EXERCISE-TEXT", "HINT-TEXT", "SOLUTION-PROSE", "Exercises"):
        assert gone not in everything
    assert not RAW_MYST.search(everything)


def test_the_deck_shows_code_only_when_tagged(tmp_path):
    report = slides.write_deck(tiny_chapter(), "04_sevens", tmp_path)
    page = report.path.read_text(encoding="utf-8")
    assert report.slides >= 4 and report.figures == 1
    assert "shown_code_line" in page and "SHOWN-OUTPUT" in page  # tagged slide-code
    assert "hidden_code_line" not in page and "secret_plot_source" not in page and "bookutils" not in page
    assert "solution_code" not in page and "SOLUTION-PROSE" not in page
    assert "PRINTED" in page  # a short print-out stays, without its code
    assert not re.search(r"""(?:src|href)=["']?(?:https?:)?//""", page)  # nothing from the network
    for lib in ("plotly.min.js", "reveal.js/dist/reveal.js", "mathjax/tex-svg-full.js", "deck.css"):
        assert (report.path.parent / slides.ASSETS / lib).is_file()


def _fake_build(tmp_path: Path) -> Path:
    build = tmp_path / "build"
    (build / "html").mkdir(parents=True)
    (build / bookbuild.STAGED).mkdir()
    (build / "html" / "index.html").write_text("<p>book</p>")
    for stem in ("00_preface", "04_sevens"):
        (build / "html" / f"{stem}.html").write_text(stem)
    (build / bookbuild.STAGED / "04_sevens.ipynb").write_text(json.dumps(tiny_chapter()))
    return build


def test_an_unknown_chapter_or_an_unbuilt_book_is_refused_in_one_line(tmp_path, capsys):
    build = _fake_build(tmp_path)
    out = tmp_path / "slides"
    assert main(["book", "slides", "--dir", str(build), "--out", str(out), "9"]) == 2
    err = capsys.readouterr().err
    assert err.count("\n") == 1 and "no chapter '9'" in err and "04_sevens" in err
    assert main(["book", "slides", "--dir", str(build), "--out", str(out), "0"]) == 2
    assert "not a chapter with a deck" in capsys.readouterr().err
    assert not out.exists()  # refused before anything was written
    assert main(["book", "slides", "--dir", str(tmp_path / "nothing"), "--out", str(out)]) == 2
    err = capsys.readouterr().err
    assert err.count("\n") == 1 and "rumino book build" in err
    assert main(["book", "slides", "--dir", str(build), "--out", str(out), "4"]) == 0
    assert (out / "04_sevens" / "index.html").is_file() and "04_sevens/index.html" in (out / "index.html").read_text()


# ------------------------------------------------------------------------------------ in Chromium

_SLIDE = """() => {
  const s = Reveal.getCurrentSlide();
  // the words a reader sees: headings, paragraphs, list items and captions (a formula counts one)
  const count = t => t.split(/\\s+/).filter(w => /\\w/.test(w)).length;
  const prose = [...s.querySelectorAll('h1, h2, h3, p, li, .rumino-caption')]
    .filter(e => !e.closest('aside.notes, table, .jp-OutputArea-output, .rumino-kicker') && !e.querySelector('p, li'));
  const words = prose.reduce((n, e) => n + count(e.innerText)
    - [...e.querySelectorAll('mjx-container')].reduce((k, m) => k + count(m.innerText) - 1, 0), 0);
  const fonts = [...s.querySelectorAll('.js-plotly-plot svg text')].filter(t => t.textContent.trim())
    .map(t => parseFloat(getComputedStyle(t).fontSize));
  let top = s.getBoundingClientRect().top, bottom = top;
  for (const c of s.children) bottom = Math.max(bottom, c.getBoundingClientRect().bottom);
  // a plot in a menu's hidden pane (bookutils.choices) is drawn when chosen
  const plots = [...s.querySelectorAll('.js-plotly-plot')].filter(p => !p.closest('[hidden]')).map(p => {
    const svg = p.querySelector('.main-svg'); const r = svg ? svg.getBoundingClientRect() : {width: 0, height: 0};
    return [r.width, r.height]; });
  const visible = el => { const r = el.getBoundingClientRect(); return r.width > 0 && r.height > 0; };
  return {kind: s.dataset.kind, height: (bottom - top) / Reveal.getScale(), plots, words,
          font: fonts.length ? Math.min(...fonts) : null, notes: s.querySelectorAll('aside.notes').length,
          code: [...s.querySelectorAll('.jp-CodeCell .jp-InputArea, .jp-CodeCell .highlight')].filter(visible).length,
          text: s.innerText};  // what the slide shows (reveal.js hides the slides far from the present one)
}"""

# every slide in turn, as a reader's arrow key shows it, measured in the page: one call for the deck
_WALK = """async () => {
  const probe = %s;
  const seen = [];
  for (let i = 0; i < Reveal.getTotalSlides(); i++) {
    Reveal.slide(i);  // the deck's own 'slidechanged' handler fits the slide, as for a reader
    await document.fonts.ready;  // a typeface the slide is the first to use has loaded
    // plotly redraws a shown plot to the slide's width 100 ms later (Plotly.Plots.resize): measure it then
    if (Reveal.getCurrentSlide().querySelector('.js-plotly-plot')) await new Promise(r => setTimeout(r, 150));
    seen.push(probe());
  }
  return seen;
}""" % _SLIDE


@pytest.fixture(scope="module")
def built_html(request) -> Path:
    given = os.environ.get("RUMINO_BOOK_HTML")
    if given:
        return Path(given)
    return request.getfixturevalue("built_book").html_dir  # conftest.py: one build per session


@pytest.fixture(scope="module")
def decks(built_html, tmp_path_factory):
    out = tmp_path_factory.mktemp("slides")
    assert main(["book", "slides", "--dir", str(built_html.parent), "--out", str(out)]) == 0
    return out


def _numbered(built_html: Path) -> list[str]:
    """The pages with a deck: Start here's (00a …) and the numbered chapters."""
    return [p.stem for p in bookbuild.chapter_pages(built_html)
            if re.match(r"\d\d[a-z]?_", p.stem) and p.stem.split("_")[0] != "00"]


def _hidden_code(notebook: Path) -> list[str]:
    """A distinctive line of each code cell of the chapter (none may show on a slide)."""
    lines = []
    for cell in json.loads(notebook.read_text(encoding="utf-8"))["cells"]:
        if cell["cell_type"] == "code" and slides.SLIDE_CODE_TAG not in cell["metadata"].get("tags", []):
            src = "".join(cell["source"]) if isinstance(cell["source"], list) else cell["source"]
            rows = [r.strip() for r in src.splitlines() if len(r.strip()) >= 25 and not r.strip().startswith("#")]
            lines += rows[:1]
    return lines


def _deck_reader(decks: Path, built_html: Path):
    """``check(browser, stem)`` for check_in_browsers: each browser reads its decks one after another in one
    tab (a new tab costs a new renderer process and another second of CPU), noting what each deck asks for."""
    tabs = {}

    def read(browser, stem: str) -> int:
        if browser not in tabs:
            page = browser.new_page(viewport={"width": slides.WIDTH, "height": slides.HEIGHT})
            asked: list[str] = []
            page.on("request", lambda r, asked=asked: asked.append(r.url))
            # routing also turns the browser's cache off: each deck asks for its files again
            page.route(re.compile(r"^(?!file:|data:|blob:|about:)"), lambda route: route.abort())
            tabs[browser] = page, asked
        page, asked = tabs[browser]
        asked.clear()  # from here on, only this deck's requests
        return _read_deck(page, asked, stem, decks, built_html)

    return read


def _read_deck(page, asked: list[str], stem: str, decks: Path, built_html: Path) -> int:
    """Open one chapter's deck offline in ``page``, check every slide, and return how many formulas MathJax
    typeset; ``asked`` fills with the addresses the page asks for."""
    page.goto((decks / stem / "index.html").as_uri(), wait_until="load", timeout=120_000)
    page.wait_for_function("() => window.Reveal && Reveal.isReady() && window.MathJax "
                           "&& MathJax.startup && MathJax.startup.promise", timeout=120_000)
    page.evaluate("() => MathJax.startup.promise")
    seen = page.evaluate(_WALK)
    assert len(seen) >= 4, (stem, len(seen))
    figures = notes = 0
    shown = []  # every slide's words, each read while its slide was the one shown
    for i, slide in enumerate(seen):
        text = slide.pop("text")
        shown.append(text)
        assert slide["height"] <= slides.HEIGHT, (stem, i, slide)  # nothing runs off the slide
        assert slide["code"] == 0, (stem, i)
        assert slide["words"] <= 60, (stem, i, slide["words"])  # readable from the back
        assert slide["font"] is None or slide["font"] >= slides.FIGURE_FONT, (stem, i, slide)
        assert not RAW_MYST.search(text), (stem, i, RAW_MYST.search(text))
        assert not RAW_TEX.search(text), (stem, i, RAW_TEX.search(text))  # formulas are typeset
        notes += slide["notes"]
        if slide["kind"] == "figure":
            figures += 1
            assert slide["plots"] and all(w > 100 and h > 100 for w, h in slide["plots"]), (stem, i)
    notebook = built_html.parent / bookbuild.STAGED / f"{stem}.ipynb"
    cells = json.loads(notebook.read_text(encoding="utf-8"))["cells"]
    numbered = sum(1 for c in cells if c["metadata"].get("mystnb", {}).get("figure")
                   and "solution" not in c["metadata"].get("tags", []))
    assert figures >= numbered, (stem, figures, numbered)  # every figure of the chapter
    said = page.evaluate("() => [...document.querySelectorAll('aside.notes')]"
                         ".map(a => a.textContent).join(' ')")
    assert notes >= 3 and "lesson plan" in said, (stem, notes)  # the speaker notes
    for line in _hidden_code(notebook):
        assert all(line not in text for text in shown), (stem, line)
    typeset = page.evaluate("() => document.querySelectorAll('mjx-container').length")
    size = page.evaluate("() => parseFloat(getComputedStyle("
                         "document.querySelector('.reveal .slides section:not([data-kind=title]) p'))"
                         ".fontSize)")
    assert size >= 32, (stem, size)  # large type at 1280×720
    away = [u for u in asked if not u.startswith(("file:", "data:", "blob:", "about:"))]
    assert away == [], (stem, away[:3])
    own = (decks / stem).as_uri() + "/"
    assert all(u.startswith(own) for u in asked if u.startswith("file:")), stem
    return typeset


@pytest.mark.slow
@pytest.mark.browser
@pytest.mark.timeout(1800)
def test_every_chapter_has_a_deck_that_reads_offline(built_html, decks, chromium_path):
    from two_browsers import check_in_browsers

    stems = _numbered(built_html)
    assert len(stems) >= 12 and stems[0].startswith("00a_") and any(s.startswith("01_") for s in stems)
    assert sorted(p.parent.name for p in decks.glob("*/index.html")) == stems
    index = (decks / "index.html").read_text(encoding="utf-8")
    assert all(f'href="{s}/index.html"' in index for s in stems)
    formulas = check_in_browsers(chromium_path, stems, _deck_reader(decks, built_html), args=bookbuild.CHROMIUM_ARGS)
    typeset = sum(formulas.values())
    assert typeset > 50  # the chapters' formulas, drawn by MathJax


@pytest.mark.slow
@pytest.mark.browser
@pytest.mark.timeout(600)
def test_print_pdf_prints_every_slide_of_a_deck(built_html, decks, chromium_path, tmp_path):
    pytest.importorskip("pypdf", reason="pip install -e '.[test]'")
    from playwright.sync_api import sync_playwright
    from pypdf import PdfReader

    stem = next(s for s in _numbered(built_html) if s.startswith("05_"))  # four figures, formulas, tables
    with sync_playwright() as pw:
        browser = pw.chromium.launch(executable_path=chromium_path, args=bookbuild.CHROMIUM_ARGS)
        try:
            page = browser.new_page(viewport={"width": slides.WIDTH, "height": slides.HEIGHT})
            page.goto((decks / stem / "index.html").as_uri() + "?print-pdf", wait_until="load", timeout=120_000)
            page.wait_for_function("() => document.documentElement.dataset.printReady === 'true'", timeout=120_000)
            n = page.evaluate("() => Reveal.getTotalSlides()")
            widths = page.evaluate("() => [...document.querySelectorAll('.js-plotly-plot .main-svg')]"
                                   ".map(s => s.getBoundingClientRect().width)")
            page.pdf(path=str(tmp_path / "deck.pdf"), width=f"{slides.WIDTH}px", height=f"{slides.HEIGHT}px",
                     print_background=True)
        finally:
            browser.close()
    assert len(PdfReader(str(tmp_path / "deck.pdf")).pages) == n
    assert widths and min(widths) > slides.WIDTH / 2  # the figures span the slide on paper too


def test_a_start_here_page_has_a_deck_with_the_plans_notes(tmp_path):
    nb = tiny_chapter()
    plan = {"cells": [md("# Lesson plan: Start here\n\n## Timings\n\n| Minutes | Activity |\n| --- | --- |\n| 5 | "
                         "TIMING-ROW |\n\n## Activity with real cards\n\n**Deal.** DEAL-STEP for the class. More "
                         "words.\n\n**Compare.** COMPARE-NOTE.\n\n## Misconceptions\n\n* MISCONCEPTION.\n\n"
                         "## Answers to the review questions\n\n### Sevens and stakes\n\n1. THE-ANSWER.")],
            "metadata": {}, "nbformat": 4, "nbformat_minor": 5}
    deck = slides.chapter_slides(nb, "00a_sevens", plan)
    notes = {s.kind: " ".join(s.notes) for s in deck}
    assert "TIMING-ROW" in notes["title"] and "MISCONCEPTION" in notes["key"] and "THE-ANSWER" in notes["review"]
    activity = next(s for s in deck if s.title == "Activity with real cards")
    shown = " ".join(b.md for b in activity.blocks)
    assert "DEAL-STEP" in shown and "COMPARE-NOTE" not in shown and "COMPARE-NOTE" in " ".join(activity.notes)
    report = slides.write_deck(nb, "00a_sevens", tmp_path, plan=plan)
    page = report.path.read_text(encoding="utf-8")
    assert "Start here" in page and '<aside class="notes">' in page and "notes.js" in page
