"""What the real-browser tests share: one Voilà server per test module, Debian's Chromium, a page per test.

The test modules import the fixtures (``voila_url``, ``lab_url``, ``browser``, ``open_demo``) and the
helpers from here; a fixture imported into a module is that module's own (one server per module).
Not a conftest.py: ``tests/conftest.py`` is imported by name elsewhere (``from conftest import …``),
and a second conftest module would take that name.
"""

from __future__ import annotations

import shutil
import socket
import subprocess
import sys
import time
import urllib.request
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]
DEMOS = ROOT / "widgets" / "demos"
ARTIFACTS = ROOT / "test-artifacts"
CHROMIUM_ARGS = ["--headless=new", "--no-sandbox", "--disable-gpu", "--disable-background-networking",
                 "--disable-component-update", "--no-first-run", "--disable-sync", "--disable-dev-shm-usage"]
# first render: kernel start + notebook run (~5–13 s here when quiet; JupyterLab's first plot took
# more than 60 s in CI beside the book build, which now executes 36 notebooks and prints handouts)
PAGE_TIMEOUT_MS = 240_000
# one interaction's round trip through the kernel: about 1 s when quiet, but CI runs these
# beside the book build on two cores, where a round trip has taken more than 20 s, and on a
# machine busy with other work too a plot's redraw passed 120 s (a CI run of 38539cd)
STEP_TIMEOUT_MS = 240_000


def _free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def _serve(args: list[str], cwd: Path, name: str, probe: str):
    """Start a server process, wait until ``probe`` answers, yield the base URL, stop it afterwards."""
    ARTIFACTS.mkdir(exist_ok=True)
    port = _free_port()
    log = open(ARTIFACTS / f"{name}.log", "w")
    proc = subprocess.Popen([sys.executable, "-m", *args, "--no-browser", f"--port={port}"],
                            stdout=log, stderr=subprocess.STDOUT, cwd=cwd)
    base = f"http://127.0.0.1:{port}"
    deadline = time.monotonic() + 60
    try:
        while True:
            if proc.poll() is not None:
                raise RuntimeError(f"{name} exited with code {proc.returncode}; see {ARTIFACTS / (name + '.log')}")
            try:
                urllib.request.urlopen(base + probe, timeout=2)
                break
            except OSError:
                if time.monotonic() > deadline:
                    raise RuntimeError(f"{name} did not answer on {base} within 60 s") from None
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
def voila_url(chromium_path):
    """Voilà serving the demo folder (read only: Voilà never writes the notebooks)."""
    yield from _serve(["voila", str(DEMOS), "--Voila.ip=127.0.0.1"], DEMOS, "voila", "/")


@pytest.fixture(scope="module")
def lab_url(chromium_path, tmp_path_factory):
    """JupyterLab on a *copy* of the demos (JupyterLab saves notebooks; the committed ones stay output-free)."""
    root = tmp_path_factory.mktemp("lab")
    shutil.copytree(DEMOS, root / "demos")
    yield from _serve(["jupyter", "lab", "--ServerApp.ip=127.0.0.1", "--allow-root", "--IdentityProvider.token=",
                       "--ServerApp.password=", f"--ServerApp.root_dir={root / 'demos'}",
                       "--LabApp.expose_app_in_browser=True", f"--LabServerApp.workspaces_dir={root / 'ws'}"],
                      root / "demos", "jupyterlab", "/lab")


@pytest.fixture(scope="module")
def browser(chromium_path):
    from playwright.sync_api import sync_playwright

    with sync_playwright() as pw:
        b = pw.chromium.launch(executable_path=chromium_path, args=CHROMIUM_ARGS)
        yield b
        b.close()


@pytest.fixture
def open_demo(browser, voila_url, request):
    """``open_demo("hand_explorer", ready_selector)`` -> a page with the demo rendered; screenshot kept.
    A ``query`` (``"?game=gin"``) reaches the notebook as ``QUERY_STRING``."""
    pages = []

    def _open(name: str, ready: str, query: str = ""):
        page = browser.new_page(viewport={"width": 1100, "height": 900})
        page.set_default_timeout(STEP_TIMEOUT_MS)
        pages.append(page)
        page.goto(f"{voila_url}/voila/render/{name}.ipynb{query}", timeout=PAGE_TIMEOUT_MS)
        page.wait_for_selector(ready, timeout=PAGE_TIMEOUT_MS)
        return page

    yield _open
    _close_and_keep_screenshots(pages, request)


def _close_and_keep_screenshots(pages, request):
    for i, page in enumerate(pages):
        suffix = f"-{i}" if i else ""
        try:
            page.screenshot(path=str(ARTIFACTS / f"{request.node.name}{suffix}.png"), full_page=True)
        finally:
            page.close()


def _nudge_slider(page, slider: str, before: str, after: str, tries: int = 3) -> None:
    """Focus the noUi handle inside ``slider`` and press → until its readout moves from ``before`` to ``after``.

    The readout is the front end's own (no kernel round trip), so it shows at once; a key press
    that reaches the page before the handle is ready is lost, and then (only then) it is pressed again.
    """
    from playwright.sync_api import TimeoutError as PlaywrightTimeoutError

    handle, readout = f"{slider} .noUi-handle", f"{slider} .widget-readout"
    for _ in range(tries):
        if page.inner_text(readout).strip() == before:
            page.focus(handle)
            page.keyboard.press("ArrowRight")
        try:
            page.wait_for_function(
                "([sel, want]) => { const e = document.querySelector(sel); return !!e && e.innerText.trim() === want; }",
                arg=[readout, after], timeout=3_000)
            return
        except PlaywrightTimeoutError:
            continue
    raise AssertionError(f"the slider {slider} did not move from {before} to {after} after {tries} presses")


def _wait_text(page, selector: str, pattern: str):
    """Wait until the text of ``selector`` matches the regex ``pattern``; return that text."""
    page.wait_for_function(
        "([sel, pat]) => { const e = document.querySelector(sel); return !!e && new RegExp(pat).test(e.innerText); }",
        arg=[selector, pattern], timeout=STEP_TIMEOUT_MS)
    return page.inner_text(selector)
