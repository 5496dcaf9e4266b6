"""The class tally on the built book's pages, with no kernel: the class-experiment page and the lesson plans
whose activity pools the groups' counts.

On the session's build (``built_book``, tests/conftest.py; or RUMINO_BOOK_HTML): in Chromium, three groups
typed into the class-experiment page's tally pool as :class:`rumino.classroom.experiment.ClassTally`
pools them, the CSV downloads as :func:`rumino.classroom.tally.tally_csv` writes it and loads back; every
lesson plan with a pooled activity has its tally, each activity's exact chance the engine's; nothing
leaves the machine.
"""

from __future__ import annotations

import json
import os
import threading
from html import unescape
from pathlib import Path
from urllib.parse import urlparse

import pytest

from rumino.classroom.experiment import EXPERIMENTS
from rumino.cli import bookbuild
from tests.classroom.test_tally import pool_three

PLANS_WITH_TALLIES = {"teach_01_cards_packs_counting": 2, "teach_04_odds_of_the_deal": 2,
                      "teach_05_drawing_to_a_hand": 1, "teach_07_knock_games": 1, "teach_08_rummoli": 2}


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


@pytest.fixture(scope="module")
def browser(chromium_path):
    from playwright.sync_api import sync_playwright

    with sync_playwright() as pw:
        b = pw.chromium.launch(executable_path=chromium_path, args=bookbuild.CHROMIUM_ARGS)
        yield b
        b.close()


@pytest.mark.slow
@pytest.mark.browser
def test_three_groups_pool_on_the_class_experiment_page_and_download_as_csv(browser, served, tmp_path):
    page = browser.new_page(accept_downloads=True, viewport={"width": 1280, "height": 900})
    offsite = []
    page.on("request", lambda r: offsite.append(r.url) if r.url.startswith(("http:", "https:"))
            and urlparse(r.url).hostname != "127.0.0.1" else None)
    try:
        page.goto(f"{served}/teach_class_experiment.html", wait_until="domcontentloaded", timeout=120_000)
        page.wait_for_selector(".rumino-tally[data-ready=true]", timeout=60_000)
        keys = page.eval_on_selector(".rumino-tally select", "s => [...s.options].map(o => o.value)")
        assert keys == list(EXPERIMENTS)
        # one menu on the page chooses the experiment: its instructions and its tally together
        assert page.locator("select").count() == 1
        for key in ("first_out", "rumino_meld"):
            pool_three(page, key, tmp_path)
            shown = page.eval_on_selector_all(".rumino-tally-instructions",
                                              "ds => ds.filter(d => !d.hidden).map(d => d.dataset.key)")
            assert shown == [key]
        assert offsite == []
    finally:
        page.close()


@pytest.mark.slow
@pytest.mark.browser
@pytest.mark.parametrize("plan", sorted(PLANS_WITH_TALLIES))
def test_a_lesson_plan_whose_activity_pools_has_its_tally(built_html, plan, browser, served):
    text = (built_html / f"{plan}.html").read_text(encoding="utf-8")
    import re

    data = re.search(r'class="rumino-tally" id="[^"]+" data-activities="([^"]+)"', text)
    assert data, f"{plan} has no class tally"
    activities = json.loads(unescape(data.group(1)))
    assert len(activities) == PLANS_WITH_TALLIES[plan]
    assert all(0 < a["exact"] < 1 and a["exact_text"] for a in activities)
    page = browser.new_page()
    try:
        page.goto(f"{served}/{plan}.html", wait_until="domcontentloaded", timeout=120_000)
        page.wait_for_selector(".rumino-tally[data-ready=true]", timeout=60_000)
        shown = page.inner_text(".rumino-tally .rumino-tally-question")
        assert activities[0]["question"] in shown and "Exact chance" in shown
    finally:
        page.close()
