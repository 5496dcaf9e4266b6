"""Every page of the built book, opened once in Chromium, and what three kinds of test read from it.

A page of the book costs a browser about 1.5 to 4.5 s of CPU to load (plotly draws its figures, MathJax
typesets its formulas) before anything is checked. Three test modules read the built pages: axe-core on
every page (test_book_a11y.py), the quiz on every quizzed page (test_book_quiz.py) and the chapters as a
reader's browser shows them (test_notebooks.py). Each used to open the pages itself: 48 + 23 + 41 loads.
Here each page is opened once and everything the three check is read during that one visit, in this order:

1. the page as loaded: the requests that left the machine, the download link, the figures (drawn,
   labelled, captioned), the formulas (typeset), a static plotly slider (moved; on the first page that
   has one);
2. the quiz, if the page has one: a wrong and a right answer to its first multiple-choice and its first
   numeric question, with jupyterquiz's feedback and its colour;
3. axe-core, once every dropdown is open and every fade has ended (so the quiz's feedback is audited too).

A step that fails is written into the visit (``PageVisit.failed``) and the visit goes on, so each test
reports its own failure and the others still run. The visits are made by the session fixture
``visited_pages`` (tests/conftest.py), shared through the ``xdist_group("book_pages")`` marker.
"""

from __future__ import annotations

import html
import json
import re
import traceback
from dataclasses import dataclass, field
from urllib.parse import urlparse
from urllib.request import urlopen

from rumino.cli import bookbuild

BAD = ("serious", "critical")
GROUP = "book_pages"  # the xdist group of every test that reads the visits: one worker makes them once
SEARCH_PAGE = "search.html?q=rumino"  # the search page, with a search made

# axe.run inside the page, handing back only the violations: axe's whole result (every passing
# node of every rule, 4 MB on a long chapter) took seconds per page to build and carry to Python.
# ``resultTypes`` only trims the node lists of passes/incomplete/inapplicable; every rule still runs.
_AXE_RUN = """bad => axe.run(document, {resultTypes: ['violations']}).then(r => r.violations
  .filter(v => bad.includes(v.impact))
  .map(v => ({id: v.id, impact: v.impact, help: v.help, nodes: v.nodes.slice(0, 5).map(n => n.target)})))"""

OPEN_DROPDOWNS = """() => {
  document.querySelectorAll('details').forEach(d => { d.open = true; });
  document.querySelectorAll('.toggle-hidden').forEach(e => e.classList.remove('toggle-hidden'));
}"""

ANIMATIONS_DONE = """() => document.getAnimations().every(
  a => a.playState === 'finished' || a.effect.getComputedTiming().endTime === Infinity)"""

_PLOTS = """els => els.map(e => [!!e.querySelector('.main-svg'),
  (e.closest('.rumino-figure') || {getAttribute: () => ''}).getAttribute('aria-label')])"""


# The audit of a page in one run of axe, with colour contrast checked on one element of each look. axe's
# colour-contrast rule checks every element with text, one by one (over half of the audit's time on a
# chapter, three quarters on the Python interface page), yet a page has a few dozen looks: the text's
# colour, size, weight and shadow over the same stack of backgrounds (and opacities) give the same
# contrast wherever they are. So one element of each look, the first in the page's order, is marked and
# the rule is pointed at the marked elements alone; every other rule runs on the whole page as before.
# Code blocks are left to :func:`code_colours` (every distinct pair of every page, below). Measured on the
# built book: the audit of 49 pages, 92 CPU-s in two runs (all rules but contrast, then contrast outside
# the code) and about 40 in this one run.
_AXE_RUN_BUT_CODE_CONTRAST = """bad => {
  const clear = c => !c || c === 'transparent' || /^rgba\\(.*,\\s*0\\)$/.test(c);
  const ground = e => { const parts = []; let opaque = false;
    for (; e; e = e.parentElement) { const s = getComputedStyle(e), c = s.backgroundColor;
      if (s.opacity !== '1') parts.push('o' + s.opacity);
      if (opaque) continue;  /* above the first opaque background, only an opacity still counts */
      if (s.backgroundImage !== 'none') parts.push(s.backgroundImage.slice(0, 120));
      if (!clear(c)) { parts.push(c); opaque = !c.startsWith('rgba'); } }
    return parts.join('>'); };
  const looks = new Map();
  for (const el of document.body.querySelectorAll('*')) {
    if (el.closest('div.highlight, svg')) continue;
    if (![...el.childNodes].some(n => n.nodeType === 3 && n.textContent.trim())) continue;
    const s = getComputedStyle(el);
    if (s.visibility !== 'visible' || !el.getClientRects().length) continue;
    const look = [s.color, s.fontSize, s.fontWeight, s.textShadow, ground(el)].join('|');
    if (!looks.has(look)) looks.set(look, el);
  }
  looks.forEach(el => el.setAttribute('data-rumino-contrast', ''));
  axe.configure({rules: [{id: 'color-contrast', selector: '[data-rumino-contrast]'}]});
  return axe.run(document, {resultTypes: ['violations']})
    .then(r => r.violations.filter(v => bad.includes(v.impact))
      .map(v => ({id: v.id, impact: v.impact, help: v.help, nodes: v.nodes.slice(0, 5).map(n => n.target)})))
    .finally(() => axe.reset());
}"""

# Every distinct (text colour, background, size, weight) of the visible text in the page's code blocks,
# with a sample of its text: the background is the nearest ancestor's that is not transparent
_CODE_COLOURS = """() => {
  const clear = c => !c || c === 'transparent' || /^rgba\\(.*,\\s*0\\)$/.test(c);
  const background = e => { for (; e; e = e.parentElement) { const c = getComputedStyle(e).backgroundColor;
    if (!clear(c)) return c; } return 'rgb(255, 255, 255)'; };
  const seen = new Map();
  for (const el of document.querySelectorAll('div.highlight pre, div.highlight pre *')) {
    const text = [...el.childNodes].filter(n => n.nodeType === 3).map(n => n.textContent).join('').trim();
    const s = getComputedStyle(el);
    if (!text || s.visibility !== 'visible' || !el.getClientRects().length) continue;
    const key = [s.color, background(el), s.fontSize, s.fontWeight].join('|');
    if (!seen.has(key)) seen.set(key, (el.className ? '.' + el.className : el.tagName) + ' ' + text.slice(0, 24));
  }
  return [...seen.entries()];
}"""


def violations(page, *, code_contrast: bool = True) -> list[dict]:
    """axe-core's violations of impact "serious" or "critical" on the page as it is now; with
    ``code_contrast=False``, colour contrast is audited on one element of each look and not inside code
    blocks (see :data:`_AXE_RUN_BUT_CODE_CONTRAST` and :func:`code_colours`)."""
    from axe_playwright_python.sync_playwright import Axe

    if not page.evaluate("() => typeof window.axe === 'object'"):
        page.evaluate(Axe().axe_script)
    return page.evaluate(_AXE_RUN if code_contrast else _AXE_RUN_BUT_CODE_CONTRAST, list(BAD))


def code_colours(page) -> list[tuple[str, str]]:
    """``[("color|background|font-size|font-weight", "sample"), …]``: each distinct look of the text in the
    page's code blocks once, for :func:`contrast_ratio`."""
    return [tuple(pair) for pair in page.evaluate(_CODE_COLOURS)]


def _rgb(css: str) -> tuple[float, ...]:
    """``rgb(…)``/``rgba(…)`` as numbers.

    >>> _rgb("rgba(0, 0, 0, 0.5)")
    (0.0, 0.0, 0.0, 0.5)
    """
    values = [float(v) for v in re.findall(r"[\d.]+", css)]
    return tuple(values) if len(values) == 4 else (*values, 1.0)


def _luminance(rgb) -> float:
    def linear(c: float) -> float:
        c /= 255
        return c / 12.92 if c <= 0.04045 else ((c + 0.055) / 1.055) ** 2.4

    r, g, b = (linear(c) for c in rgb[:3])
    return 0.2126 * r + 0.7152 * g + 0.0722 * b


def contrast_ratio(colour: str, background: str) -> float:
    """WCAG 2's contrast ratio of text in ``colour`` on ``background`` (a translucent colour blended over it).

    >>> round(contrast_ratio("rgb(0, 0, 0)", "rgb(255, 255, 255)"), 1), round(contrast_ratio("rgb(119, 119, 119)", "rgb(255, 255, 255)"), 2)
    (21.0, 4.48)
    """
    *fg, alpha = _rgb(colour)
    bg = _rgb(background)[:3]
    fg = [alpha * f + (1 - alpha) * b for f, b in zip(fg, bg)]
    hi, lo = sorted((_luminance(fg), _luminance(bg)), reverse=True)
    return (hi + 0.05) / (lo + 0.05)


def contrast_needed(font_size: str, font_weight: str) -> float:
    """WCAG AA's least contrast (axe's "color-contrast"): 3 for large text (24 px, or 18.66 px bold), else 4.5.

    >>> contrast_needed("13.6px", "400"), contrast_needed("20px", "700")
    (4.5, 3.0)
    """
    size, bold = float(font_size.removesuffix("px")), int(font_weight) >= 700
    return 3.0 if size >= 24 or (bold and size >= 18.66) else 4.5


# ------------------------------------------------------------------------------------------ the quiz


def typed(x: float) -> str:
    """A number as a reader would type it.

    >>> typed(0.25), typed(1 / 3)
    ('0.25', '0.333333333333')
    """
    return f"{x:.12g}"


def right_and_wrong_numbers(question: dict) -> tuple[str, str]:
    """A number inside the right range, and one outside every range jupyterquiz would call right.

    >>> right_and_wrong_numbers({"answers": [{"correct": True, "range": [0.4, 0.6]}]})
    ('0.5', '3')
    """
    right = [a["range"] for a in question["answers"] if a.get("correct") and "range" in a]
    lo, hi = right[0]
    wrong = hi + (hi - lo) * 7 + 1
    assert not any(a <= wrong < b for a, b in right)
    return typed((lo + hi) / 2), typed(wrong)


def label_text(answer_html: str) -> str:
    """An option as the page shows it (the question list holds it HTML-escaped).

    >>> label_text("2 &amp; 3")
    '2 & 3'
    """
    return html.unescape(answer_html)


def open_quiz(page) -> tuple[str, list[dict]]:
    """Wait for the page's quiz to be drawn; its container's id and its questions (from the page)."""
    root = page.wait_for_selector(".rumino-quiz[data-ready=true]", timeout=60_000)
    quiz_id = root.get_attribute("id")
    questions = page.evaluate("id => window['questions' + id]", quiz_id)
    assert page.locator(f"#{quiz_id} .Quiz").count() == len(questions)
    return quiz_id, questions


def feedback(page, wrap) -> tuple[str, str, str]:
    """jupyterquiz's verdict on a question: its text, its class and its colour."""
    fb = wrap.locator(".Feedback")
    page.wait_for_function("e => e.textContent.trim() !== ''", arg=fb.element_handle())
    return fb.inner_text().strip(), fb.get_attribute("class"), fb.evaluate("e => getComputedStyle(e).color")


def _mark_choice(page, wrap, text: str):
    wrap.locator("label.MCButton", has_text=text).first.click()
    return feedback(page, wrap)


def _mark_number(page, wrap, answer: str):
    box = wrap.locator("input.Input-text")
    box.fill(answer)
    box.press("Enter")
    return feedback(page, wrap)


@dataclass
class QuizMarks:
    """What a quiz said to a wrong and a right answer of its first multiple-choice and numeric question:
    each verdict is (text, class, colour)."""

    kinds: list[str]
    choice_wrong: tuple = ()
    choice_right: tuple = ()
    number_wrong: tuple = ()
    number_right: tuple = ()
    typed_wrong: str = ""
    typed_right: str = ""


def mark_quiz(page) -> QuizMarks:
    quiz_id, questions = open_quiz(page)
    wraps = page.locator(f"#{quiz_id} .Quiz")
    marks = QuizMarks([q["type"] for q in questions])
    if "multiple_choice" in marks.kinds:
        i = marks.kinds.index("multiple_choice")
        q = questions[i]
        wrong = next(a["answer"] for a in q["answers"] if not a["correct"])
        right = next(a["answer"] for a in q["answers"] if a["correct"])
        marks.choice_wrong = _mark_choice(page, wraps.nth(i), label_text(wrong))
        marks.choice_right = _mark_choice(page, wraps.nth(i), label_text(right))
    if "numeric" in marks.kinds:
        i = marks.kinds.index("numeric")
        marks.typed_right, marks.typed_wrong = right_and_wrong_numbers(questions[i])
        marks.number_wrong = _mark_number(page, wraps.nth(i), marks.typed_wrong)
        marks.number_right = _mark_number(page, wraps.nth(i), marks.typed_right)
    return marks


# ------------------------------------------------------------------------------------------ one visit


@dataclass
class PageVisit:
    """What one visit of a built page found. ``failed`` maps a step ("load", "quiz", "axe" …) that raised
    to its error; a step that was not reached has no entry of its own."""

    name: str
    offsite: list[str] = field(default_factory=list)
    download: str | None = None
    download_has_outputs: bool | None = None
    plots: list = field(default_factory=list)  # [drawn, aria-label] a plot
    captions: list[str] = field(default_factory=list)
    maths: int = 0
    typeset: bool = False
    slider_moved: bool = False
    search_results: int = 0
    quiz: QuizMarks | None = None
    violations: list[dict] | None = None
    code_colours: list[tuple[str, str]] = field(default_factory=list)
    failed: dict[str, str] = field(default_factory=dict)

    def problem(self, *steps: str) -> str | None:
        """The first error of the given steps (or of the load, which every step needs), if any."""
        for step in ("load", *steps):
            if step in self.failed:
                return f"{self.name}, {step}: {self.failed[step]}"
        return None


def _step(visit: PageVisit, name: str, action) -> bool:
    try:
        action()
        return True
    except Exception:  # noqa: BLE001 - written down for the test that reads this step
        visit.failed[name] = traceback.format_exc(limit=3)
        return False


def _moved_static_slider(page) -> bool:
    plot = page.locator(".js-plotly-plot:has(.slider-container)").first
    plot.scroll_into_view_if_needed()
    read = "gd => JSON.stringify([gd.data.map(t => t.visible), (gd.layout.title || {}).text])"
    before = plot.evaluate(read)
    rail = plot.locator(".slider-rail-touch-rect").first
    box = rail.bounding_box()
    assert box, "the slider rail has no box"
    page.mouse.click(box["x"] + box["width"] - 3, box["y"] + box["height"] / 2)
    page.wait_for_function(
        "([gd, before]) => JSON.stringify([gd.data.map(t => t.visible), (gd.layout.title || {}).text]) !== before",
        arg=[plot.element_handle(), before], timeout=10_000)
    return plot.evaluate(read) != before


class VisitingTab(bookbuild.ReadingTab):
    """The build's reading tab (one tab a browser: the pages share its renderer and cache; the ten pages
    measured cost 28 CPU-s to load in a tab each and 12 in one tab), noting the requests that leave the
    machine into the visit in progress."""

    def __init__(self, browser):
        super().__init__(browser, viewport={"width": 1280, "height": 900})
        self.visit = None

    def open(self, visit: "PageVisit"):
        """The tab, with the requests that leave the machine from now on written into ``visit``."""
        self.visit = visit
        return self.page()

    def opened(self, page) -> None:
        page.on("request", self._note_request)

    def _note_request(self, request) -> None:
        url = request.url
        if url.startswith(("http:", "https:", "ws")) and urlparse(url).hostname != "127.0.0.1":
            self.visit.offsite.append(url)


def visit_page(tab: VisitingTab, base: str, name: str, *, move_slider: bool) -> PageVisit:
    """Open ``name`` (a page of the site at ``base``) once in ``tab`` and read everything the book's tests check."""
    visit = PageVisit(name)
    page = tab.open(visit)
    try:
        def load():
            page.goto(f"{base}/{name}", wait_until="load")
            page.wait_for_function(bookbuild._FIGURES_DRAWN, timeout=60_000)

        if not _step(visit, "load", load):
            return visit

        def as_loaded():
            visit.download = page.get_attribute("a.rumino-download-link", "href") \
                if page.locator("a.rumino-download-link").count() else None
            if visit.download:
                nb = json.loads(urlopen(f"{base}/{visit.download}", timeout=10).read())
                visit.download_has_outputs = any(c.get("outputs") for c in nb["cells"] if c["cell_type"] == "code")
            visit.plots = page.eval_on_selector_all(".js-plotly-plot", _PLOTS)
            visit.captions = page.eval_on_selector_all("figure figcaption", "els => els.map(e => e.innerText)")
            visit.maths = page.locator(".math").count()
            if visit.maths:
                page.wait_for_selector("mjx-container svg", state="attached", timeout=30_000)
                visit.typeset = True
            if name.startswith("search.html"):
                page.wait_for_selector("#search-results ul.search li", timeout=30_000)
                visit.search_results = page.locator("#search-results ul.search li").count()

        _step(visit, "page", as_loaded)
        if move_slider and page.locator(".js-plotly-plot .slider-container").count():
            _step(visit, "slider", lambda: setattr(visit, "slider_moved", _moved_static_slider(page)))
        if page.locator(".rumino-quiz").count():
            _step(visit, "quiz", lambda: setattr(visit, "quiz", mark_quiz(page)))

        def audit():
            page.evaluate(OPEN_DROPDOWNS)  # hints and solutions are read too
            # once their fade-in is over (mid-fade, colours are pale): every finite animation finished
            page.wait_for_function(ANIMATIONS_DONE, timeout=10_000)
            visit.violations = violations(page, code_contrast=False)
            visit.code_colours = code_colours(page)

        _step(visit, "axe", audit)
    finally:
        if visit.failed:
            tab.discard()
    return visit


def book_pages(html_dir) -> list[str]:
    """Every page of the built book, as a path from its top (``rules/gin.html``): the pages at the top
    and those of its folders built from the table of contents (the rules in full, what each house rule
    changes), which Sphinx keeps the sources of; not the printed worksheets and keys (print tests)."""
    top = [p.name for p in html_dir.glob("*.html")]
    sources = html_dir / "_sources"
    nested = [p.relative_to(html_dir).as_posix() for p in html_dir.glob("*/*.html")
              if any((sources / p.relative_to(html_dir)).with_suffix(s).exists() for s in (".md", ".ipynb"))]
    return sorted(top + nested)


def pages_to_visit(html_dir) -> list[str]:
    """Every page of the book (:func:`book_pages`) but index.html (it only sends the reader on to the
    first chapter, which is visited under its own name); the search page with a search made."""
    names = [n for n in book_pages(html_dir) if n != "index.html"]
    return [SEARCH_PAGE if n == "search.html" else n for n in names]


def visit_every_page(chromium_path: str, html_dir, base: str) -> dict[str, PageVisit]:
    """``{page name: PageVisit}`` for :func:`pages_to_visit`, in two Chromiums at once (tests/two_browsers.py),
    each reading its share of the pages in one tab (:class:`VisitingTab`). The slider is moved on one page of
    each browser's share that has one."""
    from two_browsers import check_in_browsers

    moved = set()
    tabs: dict[int, VisitingTab] = {}  # one a browser (each browser is one thread's)

    def check(browser, name):
        share = id(browser)
        tab = tabs.setdefault(share, VisitingTab(browser))
        visit = visit_page(tab, base, name, move_slider=share not in moved)
        if visit.slider_moved:
            moved.add(share)
        return visit

    return check_in_browsers(chromium_path, pages_to_visit(html_dir), check, args=bookbuild.CHROMIUM_ARGS)


def page_name(name: str) -> str:
    """The file of a visited page.

    >>> page_name("search.html?q=rumino")
    'search.html'
    """
    return re.sub(r"\?.*", "", name)
