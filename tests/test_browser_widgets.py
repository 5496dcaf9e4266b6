"""Real-browser tests: Voilà serves each widget's demo notebook, Debian's Chromium drives it.

One Voilà server (on 127.0.0.1, a free port) serves widgets/demos/ for the whole
module; each test opens one demo page in a fresh browser page (so a fresh
kernel), interacts like a reader (types, clicks, moves a slider) and asserts on
what the page then shows, checked against the engine. A screenshot of every
test, passed or failed, is kept in test-artifacts/ (gitignored).

The `chromium_path` fixture skips these tests where Chromium or Playwright is
missing, and fails them in CI (RUMINO_REQUIRE_BROWSER=1), so they never
silently vanish there. Never run `playwright install`: Debian's Chromium is used.
"""

from __future__ import annotations

import re
import socket
import subprocess
import sys
import time
import urllib.request
from pathlib import Path

import pytest

from rumino.arrange import after_draw, min_deadwood
from rumino.cards import parse_hand
from rumino.cli.deadwood import evaluate_hand
from rumino.errors import RuminoError
from rumino.melds import RUMINO_MELDS
from rumino.variants import find_variant

pytestmark = [pytest.mark.browser, pytest.mark.timeout(120)]

ROOT = Path(__file__).resolve().parents[1]
DEMOS = ROOT / "widgets" / "demos"
ARTIFACTS = ROOT / "test-artifacts"
CHROMIUM_ARGS = ["--headless=new", "--no-sandbox", "--disable-gpu", "--disable-background-networking",
                 "--disable-component-update", "--no-first-run", "--disable-sync", "--disable-dev-shm-usage"]
PAGE_TIMEOUT_MS = 60_000  # first render: kernel start + notebook run (~5–13 s here)
STEP_TIMEOUT_MS = 20_000  # one interaction's round trip through the kernel


def _free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


@pytest.fixture(scope="module")
def voila_url(chromium_path):
    """Start Voilà on the demo folder and yield its base URL; stop it afterwards."""
    ARTIFACTS.mkdir(exist_ok=True)
    port = _free_port()
    log = open(ARTIFACTS / "voila.log", "w")
    proc = subprocess.Popen(
        [sys.executable, "-m", "voila", str(DEMOS), "--no-browser", f"--port={port}", "--Voila.ip=127.0.0.1"],
        stdout=log, stderr=subprocess.STDOUT, cwd=DEMOS)
    base = f"http://127.0.0.1:{port}"
    deadline = time.monotonic() + 60
    try:
        while True:
            if proc.poll() is not None:
                raise RuntimeError(f"Voilà exited with code {proc.returncode}; see {ARTIFACTS / 'voila.log'}")
            try:
                urllib.request.urlopen(base + "/", timeout=2)
                break
            except OSError:
                if time.monotonic() > deadline:
                    raise RuntimeError(f"Voilà did not answer on {base} within 60 s") from None
                time.sleep(0.3)
        yield base
    finally:
        proc.terminate()
        try:
            proc.wait(timeout=15)
        except subprocess.TimeoutExpired:
            proc.kill()
        log.close()


@pytest.fixture(scope="module")
def browser(chromium_path):
    from playwright.sync_api import sync_playwright

    with sync_playwright() as pw:
        b = pw.chromium.launch(executable_path=chromium_path, args=CHROMIUM_ARGS)
        yield b
        b.close()


@pytest.fixture
def open_demo(browser, voila_url, request):
    """``open_demo("hand_explorer", ready_selector)`` -> a page with the demo rendered; screenshot kept."""
    pages = []

    def _open(name: str, ready: str):
        page = browser.new_page(viewport={"width": 1100, "height": 900})
        page.set_default_timeout(STEP_TIMEOUT_MS)
        pages.append(page)
        page.goto(f"{voila_url}/voila/render/{name}.ipynb", timeout=PAGE_TIMEOUT_MS)
        page.wait_for_selector(ready, timeout=PAGE_TIMEOUT_MS)
        return page

    yield _open
    for i, page in enumerate(pages):
        suffix = f"-{i}" if i else ""
        try:
            page.screenshot(path=str(ARTIFACTS / f"{request.node.name}{suffix}.png"), full_page=True)
        finally:
            page.close()


def _wait_text(page, selector: str, pattern: str):
    """Wait until the text of ``selector`` matches the regex ``pattern``; return that text."""
    page.wait_for_function(
        "([sel, pat]) => { const e = document.querySelector(sel); return !!e && new RegExp(pat).test(e.innerText); }",
        arg=[selector, pattern], timeout=STEP_TIMEOUT_MS)
    return page.inner_text(selector)


def _cards_shown(page, scope: str) -> list[int]:
    return [int(x) for x in page.eval_on_selector_all(f"{scope} .rumino-card-button",
                                                      "els => els.map(e => e.dataset.card)")]


def _fact(text: str, name: str) -> str:
    m = re.search(rf"{name}: ([^\n]+?)(?:deadwood|best discard|gin|rumino|may knock|$)", text.replace("\n", " "))
    return m.group(1).strip() if m else ""


# ---------------------------------------------------------------------- HandExplorer

HE = ".rumino-hand-explorer"
HE_OUT = ".rumino-hand-explorer-output"
HE_START = "JK 4s 6s 8d 8d 8c Ah"  # the demo's hand (RULES §1.7.8: deadwood 1)


def test_hand_explorer_shows_the_best_arrangement_of_the_demo_hand(open_demo):
    page = open_demo("hand_explorer", f"{HE_OUT} .rumino-arrangement")
    assert _cards_shown(page, HE) == list(parse_hand(HE_START))
    caption = page.inner_text(f"{HE_OUT} figcaption")
    assert caption == f"2 melds · 1 unmatched card · deadwood {min_deadwood(parse_hand(HE_START), RUMINO_MELDS)}"
    assert page.locator(f"{HE_OUT} .rumino-meld").count() == 2
    assert "★(5♠)" in page.inner_text(HE_OUT)  # the joker is named by the card it stands for
    # every face carries its name for a screen reader
    assert page.get_attribute(f"{HE} .rumino-card-button[data-index='0']", "aria-label") == "joker"


def test_hand_explorer_shows_the_engine_message_for_bad_text(open_demo):
    page = open_demo("hand_explorer", f"{HE_OUT} .rumino-arrangement")
    page.fill(f"{HE} input[type=text]", "2c 3c 11c")
    page.keyboard.press("Enter")
    with pytest.raises(RuminoError) as info:
        evaluate_hand("2c 3c 11c", "rumino")
    assert _wait_text(page, f"{HE_OUT} .rumino-error", "is not a card") == str(info.value)
    assert "Traceback" not in page.inner_text("body")


def test_hand_explorer_draw_then_click_the_best_discard(open_demo):
    page = open_demo("hand_explorer", f"{HE_OUT} .rumino-arrangement")
    page.click(f"{HE} button:has-text('Draw a card')")
    page.wait_for_function(f"document.querySelectorAll('{HE} .rumino-card-button').length == 8")
    text = _wait_text(page, HE_OUT, "best discard")
    hand = _cards_shown(page, HE)
    dv = after_draw(hand, RUMINO_MELDS)  # the engine's answer for the hand the page shows
    assert _fact(text, "deadwood") == str(dv.deadwood)
    best = dv.discards[0]
    # click the best discard among the faces (the first copy of that card)
    idx = hand.index(best)
    page.click(f"{HE} .rumino-card-button[data-index='{idx}']")
    page.wait_for_function(f"document.querySelectorAll('{HE} .rumino-card-button').length == 7")
    _wait_text(page, f"{HE_OUT} figcaption", f"deadwood {dv.deadwood}$")
    kept = _cards_shown(page, HE)
    assert sorted(kept) == sorted(hand[:idx] + hand[idx + 1:])


def test_hand_explorer_switches_variant(open_demo):
    page = open_demo("hand_explorer", f"{HE_OUT} .rumino-arrangement")
    page.select_option(f"{HE} select", label="Gin Rummy")
    with pytest.raises(RuminoError) as info:
        evaluate_hand(HE_START, "gin")
    assert _wait_text(page, f"{HE_OUT} .rumino-error", "pack") == str(info.value)
    page.fill(f"{HE} input[type=text]", "Tc Qc 4d 9d 4h 9h Jh 4s 5s 6s")
    page.keyboard.press("Enter")
    _wait_text(page, f"{HE_OUT} figcaption", "deadwood 56$")


# ---------------------------------------------------------------------- RuleKnobs

RK = ".rumino-rule-knobs"
RK_STATUS = ".rumino-rules-status"


def test_rule_knobs_slider_makes_a_house_rule(open_demo):
    page = open_demo("rule_knobs", f"{RK} .rumino-knob-knock_max_deadwood .noUi-handle")
    assert "the default rules" in page.inner_text(RK_STATUS)
    knob = f"{RK} .rumino-knob-knock_max_deadwood"
    page.focus(f"{knob} .noUi-handle")
    page.keyboard.press("ArrowRight")
    _wait_text(page, RK_STATUS, r"RuminoRules\(knock_max_deadwood=8\)")
    assert page.inner_text(f"{knob} .widget-readout").strip() == "8"
    # one control per knob of the rules dataclass
    from rumino.variants._fields import knob_table
    assert page.locator(f"{RK} .rumino-knob").count() == len(knob_table(find_variant("rumino").rules_class))


def test_rule_knobs_out_of_range_number_shows_the_engine_message(open_demo):
    page = open_demo("rule_knobs", f"{RK} .rumino-knob-stake input")
    page.fill(f"{RK} .rumino-knob-stake input", "0")
    page.keyboard.press("Enter")
    rules_cls = find_variant("rumino").rules_class
    with pytest.raises(RuminoError) as info:
        rules_cls(stake=0)
    assert _wait_text(page, f"{RK_STATUS} .rumino-error", "stake is 0") == str(info.value)
    page.fill(f"{RK} .rumino-knob-stake input", "20")
    page.keyboard.press("Enter")
    _wait_text(page, RK_STATUS, r"RuminoRules\(stake=20\)")


def test_rule_knobs_toggle_and_unlimited_checkbox(open_demo):
    page = open_demo("rule_knobs", f"{RK} .rumino-knob-set_suits button")
    page.click(f"{RK} .rumino-knob-set_suits button:has-text('distinct')")
    _wait_text(page, RK_STATUS, r"set_suits='distinct'")
    page.click(f"{RK} .rumino-knob-max_lay_size input[type=checkbox]")
    rules_cls = find_variant("rumino").rules_class
    try:  # the form must say what the engine says about this combination
        rules_cls(max_lay_size=None, set_suits="distinct").meld_rules
        _wait_text(page, RK_STATUS, r"max_lay_size=None")
    except RuminoError as err:
        assert _wait_text(page, f"{RK_STATUS} .rumino-error", "max") == str(err)
