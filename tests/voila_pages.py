"""What the real-browser tests share: one Voilà server per test process (each xdist worker), Debian's
Chromium per module, a page per test; one JupyterLab server and one JupyterLab page per module (``LabApp``).

``tests/conftest.py`` imports the session's ``voila_url`` from here, so every module of a worker shares
one Voilà server (about 2.5 CPU-s to start; each module started its own on each worker). The test modules
import the others (``browser``, ``lab_url``, ``lab_app``, ``open_demo``) and the helpers; a fixture
imported into a module is that module's own. The browser stays a module's: Playwright's synchronous API
refuses to start a second instance on a thread while one is alive (another module's browser, the
handouts a build prints in the test's process). Not a conftest.py: ``tests/conftest.py`` is imported by name elsewhere
(``from conftest import …``), and a second conftest module would take that name.
"""

from __future__ import annotations

import json
import os
import shutil
import socket
import subprocess
import sys
import time
import urllib.request
import warnings
from pathlib import Path

import pytest

from rumino.render.plotly_start import deferred_start

ROOT = Path(__file__).resolve().parents[1]
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
    # ``python -m module …`` with the IRI grammar deferred: 2.8 CPU-s less a server start (plotly_start.py)
    proc = subprocess.Popen([sys.executable, *deferred_start(args[0]), *args[1:], "--no-browser", f"--port={port}"],
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


@pytest.fixture(scope="session")
def voila_url(chromium_path):
    """Voilà serving the demo folder (read only: Voilà never writes the notebooks)."""
    yield from _serve(["voila", str(DEMOS), "--Voila.ip=127.0.0.1"], DEMOS, "voila", "/")


@pytest.fixture(scope="module")
def lab_url(chromium_path, tmp_path_factory):
    """JupyterLab on a *copy* of the demos (JupyterLab saves notebooks; the committed ones stay output-free).
    No token and no XSRF check (127.0.0.1 only): the tests stop its kernels through its REST API when a page
    breaks (``LabApp.close_notebooks``)."""
    root = tmp_path_factory.mktemp("lab")
    shutil.copytree(DEMOS, root / "demos")
    yield from _serve(["jupyterlab", "--ServerApp.ip=127.0.0.1", "--allow-root", "--IdentityProvider.token=",
                       "--ServerApp.password=", "--ServerApp.disable_check_xsrf=True",
                       f"--ServerApp.root_dir={root / 'demos'}",
                       "--LabApp.expose_app_in_browser=True", f"--LabServerApp.workspaces_dir={root / 'ws'}"],
                      root / "demos", "jupyterlab", "/lab")


# a module's, not the session's: a second Playwright on the thread (another module's browser, the
# handouts a build prints in the test's process) refuses to start beside a live one
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
        try:
            _keep_screenshot(page, request, f"-{i}" if i else "")
        finally:
            page.close()


def _keep_screenshot(page, request, suffix: str = "") -> None:
    """The page as the test left it, into test-artifacts/: when the test failed (tests/conftest.py notes
    it), or always with RUMINO_SCREENSHOTS=all, to look at every page (a full-page capture costs the
    browser a PNG of the whole page, about 0.3 CPU-s, that a passing run in CI never shows anyone)."""
    if not getattr(request.node, "rumino_failed", False) and os.environ.get("RUMINO_SCREENSHOTS") != "all":
        return
    page.screenshot(path=str(ARTIFACTS / f"{request.node.name}{suffix}.png"), full_page=True)


# ---------------------------------------------------------------------- one JupyterLab page per module

LAB_WORKSPACE = "rumino-tests"
_LAB_READY_JS = ("() => !!window.jupyterapp && window.jupyterapp.commands.hasCommand('docmanager:open')"
                 " && window.jupyterapp.commands.hasCommand('notebook:run-all-cells')")
# nothing left of an earlier test: no notebook, no output, no dialog (a ready selector matches only the new notebook)
_LAB_CLEAN_JS = "() => !document.querySelector('.jp-NotebookPanel, .jp-OutputArea, .jp-Dialog')"
_LAB_OPEN_JS = ("(path) => { window.jupyterapp.commands.execute('docmanager:open',"
                " {path, factory: 'Notebook', kernel: {name: 'python3'}}); }")
# every notebook's kernel shut down, every notebook disposed; the promise is not awaited by Playwright (a hang
# would then outlast every timeout): it leaves its outcome in window.__ruminoClosed, which is waited for
_LAB_CLOSE_JS = """() => { window.__ruminoClosed = undefined;
  const panels = [...window.jupyterapp.shell.widgets('main')].filter(w => w.sessionContext);
  Promise.all(panels.map(w => w.sessionContext.shutdown().then(() => w.dispose())))
    .then(() => { window.__ruminoClosed = 'ok'; }, e => { window.__ruminoClosed = 'failed: ' + e; }); }"""


class LabApp:
    """JupyterLab loaded once in one browser page; each test opens its demo notebook in it and closes it after.

    The application is loaded once per module, not once per test (the 8 JupyterLab tests alone: 185 CPU-s
    with a page each, 78-95 with this). Every notebook gets its own kernel, shut down when the test ends, and
    its widgets leave the page with it. A page found broken (crashed, a dialog up, a notebook or an output
    left) has its kernels stopped and is loaded afresh before the next test, with a warning: one test's
    failure cannot leak into the next.
    """

    def __init__(self, browser, base: str):
        self.browser, self.base, self.page = browser, base, None

    def load(self) -> None:
        """(Re)load the application in a new page, on a reset workspace: nothing earlier is restored."""
        if self.page is not None and not self.page.is_closed():
            self.page.close()
        self.page = self.browser.new_page(viewport={"width": 1200, "height": 1000})
        self.page.set_default_timeout(STEP_TIMEOUT_MS)
        self.page.goto(f"{self.base}/lab/workspaces/{LAB_WORKSPACE}?reset", timeout=PAGE_TIMEOUT_MS)
        self.page.wait_for_function(_LAB_READY_JS, timeout=PAGE_TIMEOUT_MS)
        self.page.evaluate("() => { window.jupyterapp.restored.then(() => { window.__ruminoRestored = true; }); }")
        self.page.wait_for_function("() => window.__ruminoRestored === true", timeout=PAGE_TIMEOUT_MS)

    def healthy(self) -> bool:
        try:
            return (self.page is not None and not self.page.is_closed()
                    and self.page.evaluate(f"() => ({_LAB_READY_JS})() && ({_LAB_CLEAN_JS})()"))
        except Exception:  # noqa: BLE001 (a crashed page, a closed browser: then the page is loaded afresh)
            return False

    def open(self, name: str):
        """Open ``widgets/demos/NAME.ipynb`` (its copy) with a kernel of its own; return the page once it is shown."""
        if self.page is None:
            self.load()
        elif not self.healthy():
            warnings.warn("JupyterLab's page was left broken by an earlier test: stopping its kernels, reloading it")
            self._reset()
        path = f"{name}.ipynb"
        self.page.evaluate(_LAB_OPEN_JS, path)  # TOOLING.md: fire JupyterLab's commands, never await them
        self.page.wait_for_function(
            "(path) => { const w = window.jupyterapp.shell.currentWidget;"
            " return !!w && !!w.context && w.context.path === path; }", arg=path, timeout=PAGE_TIMEOUT_MS)
        return self.page

    def close_notebooks(self) -> None:
        """Shut down every open notebook's kernel and dispose the notebook; if that fails, stop the server's
        kernels directly and load the page afresh (with a warning)."""
        try:
            self.page.evaluate(_LAB_CLOSE_JS)
            self.page.wait_for_function("() => window.__ruminoClosed !== undefined", timeout=60_000)
            outcome = self.page.evaluate("() => window.__ruminoClosed")
            if outcome != "ok":
                raise RuntimeError(outcome)
            self.page.wait_for_function(_LAB_CLEAN_JS, timeout=10_000)  # disposing is immediate
            self._wait_no_kernels()
        except Exception as err:  # noqa: BLE001 (whatever broke, the next test gets a clean app and no kernel)
            warnings.warn(f"JupyterLab: closing the notebook failed ({err}); stopping its kernels, reloading the page")
            self._reset()

    def _reset(self) -> None:
        """Stop every session and kernel through the server's REST API, then load the page afresh."""
        for session in _lab_api(self.base, "/api/sessions"):
            _lab_api(self.base, f"/api/sessions/{session['id']}", "DELETE")
        for kernel in _lab_api(self.base, "/api/kernels"):
            _lab_api(self.base, f"/api/kernels/{kernel['id']}", "DELETE")
        self._wait_no_kernels()
        self.load()

    def _wait_no_kernels(self, seconds: float = 60) -> None:
        deadline = time.monotonic() + seconds
        while _lab_api(self.base, "/api/kernels"):
            if time.monotonic() > deadline:
                raise RuntimeError(f"JupyterLab's kernels still running after {seconds:.0f} s")
            time.sleep(0.2)

    def close(self) -> None:
        if self.page is not None and not self.page.is_closed():
            self.page.close()


def _lab_api(base: str, path: str, method: str = "GET"):
    with urllib.request.urlopen(urllib.request.Request(base + path, method=method), timeout=30) as answer:
        body = answer.read()
    return json.loads(body) if body else None


@pytest.fixture(scope="module")
def lab_app(browser, lab_url):
    """One JupyterLab page for the module, loaded when its first test asks (``LabApp``)."""
    app = LabApp(browser, lab_url)
    yield app
    app.close()


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
    wait_until(page, "([sel, pat]) => { const e = document.querySelector(sel);"
                     " return !!e && new RegExp(pat).test(e.innerText); }", [selector, pattern])
    return page.inner_text(selector)


# The predicate is checked when the page's DOM changes (a MutationObserver) and every half second besides
# (a change that touches no element, a plot's data), never on every animation frame as Playwright's
# wait_for_function does: polling by frame keeps Chromium drawing 60 frames a second for as long as the wait
# lasts (0.07 CPU-s per second of waiting here, against 0.005 for this), and in CI, beside the book's build,
# one kernel round trip can take tens of seconds.
_WAIT_UNTIL_JS = """([arg, ms, source]) => new Promise((resolve, reject) => {
  const predicate = (%s);
  let done = false, observer = null, tick = null, timer = null;
  const finish = (settle, value) => {
    if (done) return;
    done = true; observer.disconnect(); clearInterval(tick); clearTimeout(timer); settle(value);
  };
  const check = () => {
    try { const value = predicate(arg); if (value) finish(resolve, true); } catch (err) { finish(reject, err); }
  };
  observer = new MutationObserver(check);
  observer.observe(document, {subtree: true, childList: true, attributes: true, characterData: true});
  tick = setInterval(check, 500);
  timer = setTimeout(() => finish(reject, new Error(`wait_until: timed out after ${ms} ms: ${source}`)), ms);
  check();
})"""


def wait_until(page, predicate: str, arg=None, timeout: float = STEP_TIMEOUT_MS) -> None:
    """Wait until the JavaScript function ``predicate`` (``"(arg) => …"``) returns a true value for ``arg``.

    ``page.wait_for_function(predicate, arg=arg, timeout=timeout)`` without its cost while waiting; raises
    Playwright's TimeoutError after ``timeout`` ms, and what the predicate throws at once.
    """
    from playwright.sync_api import Error as PlaywrightError
    from playwright.sync_api import TimeoutError as PlaywrightTimeoutError

    try:
        page.evaluate(_WAIT_UNTIL_JS % predicate, [arg, timeout, predicate])
    except PlaywrightError as err:
        if "wait_until: timed out" in err.message:
            raise PlaywrightTimeoutError(err.message) from None
        raise
