"""Accessibility in a real browser: axe-core on every built page, and the keyboard on a widget.

* Every page of the built book (chapters, glossary, index, search) is opened in Debian's
  Chromium, its figures are left to draw and its dropdowns (hints, solutions) are opened, and
  axe-core (shipped inside the ``axe-playwright-python`` wheel: nothing is downloaded) must
  report no violation of impact "serious" or "critical". A page with a known violation shows
  the check can fail.
* The answer checker of the exercises works on a static page (no kernel) and passes axe.
* In Voilà, a reader with only a keyboard reaches the odds explorer's draws slider with Tab
  and moves it with the arrow keys; the readout follows.

The whole book is built once per test session (the ``built_book`` fixture of conftest.py, shared
with test_notebooks.py; minutes of CPU; marked slow). Set RUMINO_BOOK_HTML to an already built
``html`` folder to reuse it while working on a page.
"""

from __future__ import annotations

import os
import re
import socket
import subprocess
import sys
import threading
import time
import urllib.request
from pathlib import Path

import pytest

from rumino.cli import bookbuild

# 1800 s: the first test of the book group also pays for the session's build of the book (434 s in CI in
# session 32, handouts included) before axe reads every page (228 s); 900 s was too close under load
pytestmark = [pytest.mark.browser, pytest.mark.timeout(1800)]

ROOT = Path(__file__).resolve().parents[2]
BOOK = ROOT / "book"
DEMOS = ROOT / "widgets" / "demos"
ARTIFACTS = ROOT / "test-artifacts"
BAD = ("serious", "critical")


# axe.run inside the page, handing back only the violations: axe's whole result (every passing
# node of every rule, 4 MB on a long chapter) took seconds per page to build and carry to Python.
# ``resultTypes`` only trims the node lists of passes/incomplete/inapplicable; every rule still runs.
_AXE_RUN = """bad => axe.run(document, {resultTypes: ['violations']}).then(r => r.violations
  .filter(v => bad.includes(v.impact))
  .map(v => ({id: v.id, impact: v.impact, help: v.help, nodes: v.nodes.slice(0, 5).map(n => n.target)})))"""


def _violations(page) -> list[dict]:
    """axe-core's violations of impact "serious" or "critical" on the page as it is now."""
    from axe_playwright_python.sync_playwright import Axe

    if not page.evaluate("() => typeof window.axe === 'object'"):
        page.evaluate(Axe().axe_script)
    return page.evaluate(_AXE_RUN, list(BAD))


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


@pytest.fixture(scope="module")
def built_html(request) -> Path:
    given = os.environ.get("RUMINO_BOOK_HTML")
    if given:
        return Path(given)
    return request.getfixturevalue("built_book").html_dir  # conftest.py: one build per session


@pytest.fixture(scope="module")
def served(built_html):
    from rumino.cli.book import make_server

    server = make_server(built_html, 0)
    threading.Thread(target=server.serve_forever, daemon=True).start()
    yield f"http://127.0.0.1:{server.server_address[1]}"
    server.shutdown()
    server.server_close()


_OPEN = """() => {
  document.querySelectorAll('details').forEach(d => { d.open = true; });
  document.querySelectorAll('.toggle-hidden').forEach(e => e.classList.remove('toggle-hidden'));
}"""


_ANIMATIONS_DONE = """() => document.getAnimations().every(
  a => a.playState === 'finished' || a.effect.getComputedTiming().endTime === Infinity)"""


def _page_violations(browser, url: str) -> list[dict]:
    """Open one built page, let its figures draw, open its dropdowns, and let axe read it."""
    page = browser.new_page(viewport={"width": 1280, "height": 900})
    try:
        page.goto(url, wait_until="load")
        page.wait_for_function(bookbuild._FIGURES_DRAWN, timeout=60_000)
        page.evaluate(_OPEN)  # hints and solutions are read too
        # once their fade-in is over (mid-fade, colours are pale): every finite animation finished
        page.wait_for_function(_ANIMATIONS_DONE, timeout=10_000)
        return _violations(page)
    finally:
        page.close()


@pytest.mark.slow
def test_every_built_page_has_no_serious_accessibility_violation(built_html, served, chromium_path):
    from two_browsers import check_in_browsers

    pages = sorted(p.name for p in built_html.glob("*.html"))
    chapters = [p.stem for p in bookbuild.chapters(BOOK)]
    assert {f"{c}.html" for c in chapters} <= set(pages) and "search.html" in pages
    # index.html only sends the reader on to the first chapter (which is checked under its own name):
    # auditing it again would audit the first chapter twice
    index = (built_html / "index.html").read_text(encoding="utf-8")
    assert re.fullmatch(rf'\s*<meta http-equiv="Refresh" content="0; url={chapters[0]}.html" />\s*', index), index
    pages.remove("index.html")
    found = check_in_browsers(chromium_path, pages, lambda b, name: _page_violations(b, f"{served}/{name}"),
                              args=bookbuild.CHROMIUM_ARGS)
    problems = {name: bad for name, bad in found.items() if bad}
    assert len(found) == len(pages)
    assert not problems, f"axe-core found serious or critical violations: {problems}"


# ------------------------------------------------------------------------------------ the keyboard


def _free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


@pytest.fixture(scope="module")
def voila_url(chromium_path):
    ARTIFACTS.mkdir(exist_ok=True)
    port = _free_port()
    log = open(ARTIFACTS / "voila-a11y.log", "w")
    proc = subprocess.Popen([sys.executable, "-m", "voila", str(DEMOS), "--Voila.ip=127.0.0.1", "--no-browser",
                             f"--port={port}"], stdout=log, stderr=subprocess.STDOUT, cwd=DEMOS)
    base = f"http://127.0.0.1:{port}"
    try:
        deadline = time.monotonic() + 60
        while True:
            assert proc.poll() is None, f"voila exited; see {ARTIFACTS / 'voila-a11y.log'}"
            try:
                urllib.request.urlopen(base + "/", timeout=2)
                break
            except OSError:
                assert time.monotonic() < deadline, "voila did not answer within 60 s"
                time.sleep(0.3)
        yield base
    finally:
        proc.terminate()
        try:
            proc.wait(timeout=15)
        except subprocess.TimeoutExpired:
            proc.kill()
        log.close()


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
