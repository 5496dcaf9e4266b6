"""Accessibility in a real browser: axe-core on every built page, and the keyboard on a widget.

* Every page of the built book (chapters, glossary, search) is opened in Debian's
  Chromium, its figures are left to draw, its quiz is answered and its dropdowns (hints, solutions)
  are opened, and axe-core (shipped inside the ``axe-playwright-python`` wheel: nothing is
  downloaded) must report no violation of impact "serious" or "critical". A page with a known
  violation shows the check can fail. The pages are opened once for all the book's browser checks
  (book_pages.py, the ``visited_pages`` fixture of tests/conftest.py). Colour contrast inside code blocks
  (the highlighter's colours, the same on every page) is checked apart, every distinct look of code
  text on every page once, by WCAG 2's formula: axe spent over half its time on a chapter there.
* The answer checker of the exercises works on a static page (no kernel) and passes axe.
* In Voilà, a reader with only a keyboard reaches the odds explorer's draws slider with Tab
  and moves it with the arrow keys; the readout follows.

The whole book is built once per test session (the ``built_book`` fixture of tests/conftest.py,
shared with test_notebooks.py; minutes of CPU; marked slow). Set RUMINO_BOOK_HTML to an already built
``html`` folder to reuse it while working on a page.
"""

from __future__ import annotations

import re
from pathlib import Path

import book_pages
import pytest

from rumino.cli import bookbuild

# 1800 s: the first test of the book group also pays for the session's build of the book (434 s in CI in
# session 32, handouts included) before axe reads every page (228 s); 900 s was too close under load
pytestmark = [pytest.mark.browser, pytest.mark.timeout(1800)]

ROOT = Path(__file__).resolve().parents[2]
BOOK = ROOT / "book"
ARTIFACTS = ROOT / "test-artifacts"


_violations = book_pages.violations


@pytest.fixture(scope="module")
def browser(chromium_path):
    pytest.importorskip("axe_playwright_python", reason="pip install -e '.[test]'")
    from playwright.sync_api import sync_playwright

    with sync_playwright() as pw:
        b = pw.chromium.launch(executable_path=chromium_path, args=bookbuild.CHROMIUM_ARGS)
        yield b
        b.close()


# ------------------------------------------------------------------------------------ the check can fail


def test_axe_finds_a_known_violation(browser):
    page = browser.new_page()
    try:
        page.set_content('<html lang="en"><head><title>t</title></head><body><main>'
                         '<img src="data:image/gif;base64,R0lGODlhAQABAAAAACw=">'
                         '<p style="color:#bbb;background:#fff">faint text</p></main></body></html>')
        ids = {v["id"] for v in _violations(page)}
        assert {"image-alt", "color-contrast"} <= ids, ids
    finally:
        page.close()


def test_faint_code_is_found_by_the_code_contrast_check(browser):
    page = browser.new_page()
    try:
        page.set_content('<html lang="en"><head><title>t</title></head><body><main><div class="highlight" '
                         'style="background:#f3f4f5"><pre><span style="color:#999">faint</span> plain</pre></div>'
                         '</main></body></html>')
        looks = dict(book_pages.code_colours(page))
        faint = next(key for key, sample in looks.items() if "faint" in sample)
        colour, background, size, weight = faint.split("|")
        assert book_pages.contrast_ratio(colour, background) < book_pages.contrast_needed(size, weight)
        assert background == "rgb(243, 244, 245)"  # the code block's own background, not the page's
    finally:
        page.close()


def test_the_audit_of_one_element_a_look_still_finds_faint_text(browser):
    """The visits check colour contrast on one element of each look (book_pages._AXE_RUN_BUT_CODE_CONTRAST):
    a faint word inside one of sixty plain paragraphs, and white text on a pale box, are each a look of
    their own and are found; the sixty plain paragraphs are one look, audited once."""
    plain = "".join(f"<p>plain paragraph {i}</p>" for i in range(60))
    page = browser.new_page()
    try:
        page.set_content('<html lang="en"><head><title>t</title></head><body><main>' + plain.replace(
            "plain paragraph 31<", 'plain paragraph 31 <span id="faint" style="color:#c8c8c8">faint</span><')
            + '<div style="background:#eeeeee"><p id="pale" style="color:#ffffff">white on pale grey</p></div>'
            + "</main></body></html>")
        found = [v for v in _violations(page, code_contrast=False) if v["id"] == "color-contrast"]
        assert found, "the faint text was not found"
        targets = {t for node in found[0]["nodes"] for t in node}
        assert {"#faint", "#pale"} <= targets, targets
        audited = page.locator("[data-rumino-contrast]").count()
        assert audited <= 6, audited  # the page's looks (its paragraphs, the two faint ones, the title …)
    finally:
        page.close()


# ------------------------------------------------------------------------------------ the answer checker


def test_answer_checker_marks_answers_on_a_static_page(browser):
    from rumino_widgets.answer_checker import AnswerChecker, fingerprint

    key = {"bad night (dollars)": fingerprint(80), "a probability": fingerprint(0.6141)}
    html = AnswerChecker(key).static_html()
    page = browser.new_page()
    try:
        page.set_content(f'<html lang="en"><head><title>checker</title></head><body><main>{html}'
                         f'</main></body></html>')
        answer, verdict = "form.rumino-checker input", "form.rumino-checker output"

        def mark(text: str) -> str:
            page.fill(answer, text)
            page.press(answer, "Enter")  # the keyboard alone is enough
            page.wait_for_function("s => document.querySelector(s).textContent !== ''", arg=verdict)
            out = page.text_content(verdict)
            page.evaluate("s => { document.querySelector(s).textContent = ''; }", verdict)
            return out

        assert mark("80") == "right" and mark("80.00") == "right" and mark("40") == "not yet"
        assert mark("eighty") == "type a number"
        page.select_option("form.rumino-checker select", label="a probability")
        assert mark("0.6141") == "right" and mark("0.614") == "not yet"
        page.click("form.rumino-checker button")
        assert _violations(page) == []
    finally:
        page.close()


# ------------------------------------------------------------------------------------ every built page


@pytest.mark.slow
@pytest.mark.xdist_group(book_pages.GROUP)
def test_every_built_page_has_no_serious_accessibility_violation(book_html, visited_pages):
    """axe-core on every page of the built book, as a reader leaves it: figures drawn, the quiz answered,
    every dropdown (hints, solutions) open (book_pages.py visits each page once for the book's tests)."""
    pages = book_pages.book_pages(book_html)
    chapters = [p.stem for p in bookbuild.chapters(BOOK)]
    assert {f"{c}.html" for c in chapters} <= set(pages) and "search.html" in pages
    assert {"rules/gin.html", "house_rules/gin.html"} <= set(pages)  # the pages of the book's folders too
    # index.html only sends the reader on to the first chapter (which is checked under its own name):
    # auditing it again would audit the first chapter twice
    index = (book_html / "index.html").read_text(encoding="utf-8")
    assert re.fullmatch(rf'\s*<meta http-equiv="Refresh" content="0; url={chapters[0]}.html" />\s*', index), index
    pages.remove("index.html")
    assert sorted(book_pages.page_name(name) for name in visited_pages) == pages
    unread = [problem for visit in visited_pages.values() if (problem := visit.problem("axe"))]
    assert not unread, "axe-core could not read every page:\n" + "\n".join(unread)
    problems = {name: visit.violations for name, visit in visited_pages.items() if visit.violations}
    assert not problems, f"axe-core found serious or critical violations: {problems}"


@pytest.mark.slow
@pytest.mark.xdist_group(book_pages.GROUP)
def test_the_code_on_every_built_page_reads_at_aa_contrast(visited_pages):
    """Colour contrast inside the code blocks, which the page audit above leaves to this test: every distinct
    look of code text (colour, background, size, weight) on every page, by WCAG 2's formula (axe's rule)."""
    looks: dict[str, tuple[str, str]] = {}
    for name, visit in visited_pages.items():
        for key, sample in visit.code_colours:
            looks.setdefault(key, (name, sample))
    # the highlighter's colours were read: names, numbers, strings, comments, keywords …
    assert len({key.split("|")[0] for key in looks}) >= 5, looks
    low = []
    for key, (name, sample) in sorted(looks.items()):
        colour, background, size, weight = key.split("|")
        ratio, needed = book_pages.contrast_ratio(colour, background), book_pages.contrast_needed(size, weight)
        if ratio < needed:
            low.append(f"{name}: {sample!r} in {colour} on {background} ({size}, {weight}): {ratio:.2f}:1 < {needed}:1")
    assert not low, "code text below AA contrast:\n" + "\n".join(low)


# ------------------------------------------------------------------------------------ the keyboard


# voila_url: the Voilà server of the test process (tests/voila_pages.py, through tests/conftest.py)


def test_keyboard_reaches_and_moves_the_odds_explorer_slider(browser, voila_url):
    from rumino_widgets import OddsExplorerController

    page = browser.new_page(viewport={"width": 1100, "height": 900})
    try:
        page.goto(f"{voila_url}/voila/render/odds_explorer.ipynb", timeout=60_000)
        handle = ".rumino-odds-explorer .rumino-draws-slider .noUi-handle"
        page.wait_for_selector(".rumino-odds-explorer .js-plotly-plot .gtitle", timeout=60_000)
        page.click("body", position={"x": 2, "y": 2})  # start from the page, as a reader would
        focused_on = "s => !!document.activeElement && document.activeElement.matches(s)"
        stops = []
        for _ in range(60):  # Tab through the controls until the draws slider has the focus
            page.keyboard.press("Tab")
            stops.append(page.evaluate("() => document.activeElement.className || document.activeElement.tagName"))
            if page.evaluate(focused_on, handle):
                break
        else:
            pytest.fail(f"Tab never reached the draws slider; the focus went through {stops}")
        readout = ".rumino-odds-explorer .rumino-draws-slider .widget-readout"
        before = int(page.inner_text(readout).strip())
        page.keyboard.press("ArrowRight")
        page.wait_for_function("([s, v]) => document.querySelector(s).innerText.trim() === String(v)",
                               arg=[readout, before + 1], timeout=20_000)
        page.keyboard.press("ArrowRight")
        page.wait_for_function("([s, v]) => document.querySelector(s).innerText.trim() === String(v)",
                               arg=[readout, before + 2], timeout=20_000)
        ref = OddsExplorerController("straight_flush", hand="3h 4h 5h 6h Kc Kd 2s", draws=before + 2,
                                     samples=1000, seed=1)
        page.wait_for_function(
            "t => { const e = document.querySelector('.rumino-odds-explorer .rumino-odds-readout');"
            " return !!e && e.innerText.split('\\n')[0] === t; }", arg=ref.readout(), timeout=20_000)
        assert page.evaluate(focused_on, handle)  # the focus stayed on the slider
    finally:
        page.screenshot(path=str(ARTIFACTS / "keyboard-odds-explorer.png"), full_page=True)
        page.close()
