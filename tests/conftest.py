"""Shared fixtures: optional peers (oracles) and the real browser.

Outside CI a missing oracle or browser skips its tests with a message naming
what to install. CI sets RUMINO_REQUIRE_ORACLES=1 and RUMINO_REQUIRE_BROWSER=1
(see .ci/run), and then a missing one is an error, so nothing is skipped there.
"""

from __future__ import annotations

import importlib
import os
import shutil
import threading
from pathlib import Path

import pytest
import shared_book_build  # tests/ is on sys.path: pytest puts a conftest's folder there (rootdir, no package)
# the real-browser tests' Voilà server, one per test process (tests/voila_pages.py)
from voila_pages import voila_url  # noqa: F401 (fixture)


def _need(what: str, how: str, env: str):
    if os.environ.get(env):
        raise RuntimeError(f"{what} is required here ({env}=1) but is missing: {how}")
    pytest.skip(f"{what} is missing: {how}")


def import_oracle(name: str):
    """Import a peer library, or skip (fail under RUMINO_REQUIRE_ORACLES)."""
    try:
        return importlib.import_module(name)
    except ImportError:
        _need(f"the oracle {name!r}", "pip install -e '.[oracles]'", "RUMINO_REQUIRE_ORACLES")


@pytest.fixture(scope="session")
def pyspiel():
    return import_oracle("pyspiel")


@pytest.fixture(scope="session")
def chromium_path():
    """Path of Debian's Chromium, or skip (fail under RUMINO_REQUIRE_BROWSER)."""
    path = shutil.which("chromium") or shutil.which("chromium-browser")
    if not path:
        _need("Debian's Chromium", "apt-get install chromium", "RUMINO_REQUIRE_BROWSER")
    try:
        import playwright  # noqa: F401
    except ImportError:
        _need("playwright", "pip install -e '.[test]'", "RUMINO_REQUIRE_BROWSER")
    return path


BOOK_FIXTURES = {"built_book", "built_html", "book_html"}  # the last two ask for the build by name
LAB_GROUP = "jupyterlab"  # the xdist group of the tests that open a notebook in JupyterLab (voila_pages.LabApp)
FIRST_OF_THE_BOOK = "test_every_built_page_has_no_serious_accessibility_violation"  # the longest: started first


def _needs_the_build(item) -> bool:
    return bool(BOOK_FIXTURES & set(getattr(item, "fixturenames", ())))


def _reads_the_book(item) -> bool:  # or runs after its build
    return _needs_the_build(item) or item.get_closest_marker("after_book") is not None


@pytest.hookimpl(tryfirst=True)  # before xdist's own hook, which reads the collection to schedule the tests
def pytest_collection_modifyitems(config, items):
    """The tests that read the built book (or must run after its build) are collected last, the longest
    first; the first worker to collect one starts the book's build in the background (below, and
    tests/shared_book_build.py): the other tests run while it builds, and each worker reaches the book's
    tests when it is (almost) built."""
    for item in items:  # the JupyterLab tests share one JupyterLab server and page: one worker's, not two
        if "lab_app" in getattr(item, "fixturenames", ()):
            item.add_marker(pytest.mark.xdist_group(LAB_GROUP))
    book = [item for item in items if _reads_the_book(item)]
    if not book:
        return
    rest = [item for item in items if not _reads_the_book(item)]
    book.sort(key=lambda item: FIRST_OF_THE_BOOK not in item.nodeid)  # stable: the others keep their order
    items[:] = rest + book


@pytest.hookimpl(tryfirst=True)  # before xdist's worker reports its collection: no test starts before this
def pytest_collection_finish(session):
    """After -k and -m have deselected: a run that still holds a test that reads the book starts its build
    (a test that only runs after the build does not start one: it then has none to wait for)."""
    folder = shared_book_build.folder_for(session.config)
    if folder is not None and any(_needs_the_build(item) for item in session.items):
        shared_book_build.start(folder)


@pytest.hookimpl(hookwrapper=True)
def pytest_runtest_makereport(item, call):
    """Note on the test a failure of its set-up or call, for the fixtures that keep a screenshot of a
    failed page (tests/voila_pages.py) when they are torn down."""
    outcome = yield
    if call.when in ("setup", "call") and outcome.get_result().failed:
        item.rumino_failed = True


def pytest_sessionfinish(session):
    shared_book_build.stop_if_running()


@pytest.fixture(scope="session")
def built_book(request, tmp_path_factory):
    """The whole book built once per test run (every chapter executed once).

    Under xdist the build runs in the background from the start of the run and this waits for it;
    alone (``-n 0``) it builds here, into a temporary folder. Shared by every test of the book
    (test_notebooks.py, test_book_a11y.py, test_book_pdf.py, test_book_prose.py …).
    """
    folder = shared_book_build.folder_for(request.config)
    if shared_book_build.started(folder):
        return shared_book_build.wait_for(folder)
    return shared_book_build.build_book(tmp_path_factory.mktemp("book"))


@pytest.fixture(scope="session")
def book_html(request) -> Path:
    """The built book's ``html`` folder: this run's build, or RUMINO_BOOK_HTML, an already built one, to
    reuse it while working on a page."""
    given = os.environ.get("RUMINO_BOOK_HTML")
    if given:
        return Path(given)
    return request.getfixturevalue("built_book").html_dir


@pytest.fixture(scope="session")
def visited_pages(book_html, chromium_path) -> dict:
    """``{page: book_pages.PageVisit}``: every built page opened once (tests/book/book_pages.py), served on
    127.0.0.1. Every test that asks for this carries ``pytest.mark.xdist_group(book_pages.GROUP)``, so
    one worker makes the visits."""
    pytest.importorskip("axe_playwright_python", reason="pip install -e '.[test]'")
    from book_pages import visit_every_page  # tests/book/: on sys.path once a test module there is imported

    from rumino.cli.book import make_server

    server = make_server(book_html, 0)
    threading.Thread(target=server.serve_forever, daemon=True).start()
    try:
        return visit_every_page(chromium_path, book_html, f"http://127.0.0.1:{server.server_address[1]}")
    finally:
        server.shutdown()
        server.server_close()


@pytest.fixture
def book_build_done(request):
    """For a test that must not run beside the book's build (a long computation in a kernel that timed
    out beside it): waits until a background build of this run has finished, if one was started."""
    folder = shared_book_build.folder_for(request.config)
    if shared_book_build.started(folder):
        shared_book_build.wait_for(folder)


@pytest.fixture
def robber_without_engine(monkeypatch):
    """The registry with Robber Rummy's engine taken away: every game has an engine now, so the
    refusals for a game without one (CLI, records, widgets) are tested on this stand-in."""
    import dataclasses

    from rumino import variants

    stand_in = dataclasses.replace(variants.VARIANTS["robber"], game=None)
    monkeypatch.setitem(variants.VARIANTS, "robber", stand_in)
    for alias, v in list(variants._ALIASES.items()):
        if v.key == "robber":
            monkeypatch.setitem(variants._ALIASES, alias, stand_in)
    return stand_in


def pytest_configure(config):
    """Under xdist, the first two workers share the compiling of the heaviest numba kernels before they
    collect (tests/warm_kernels.py): each compiles half and loads the other half from the cache."""
    import sys
    import tempfile
    from pathlib import Path

    sys.path.insert(0, str(Path(__file__).resolve().parent))
    try:
        import warm_kernels
    finally:
        sys.path.pop(0)
    part = warm_kernels.worker_part(config)
    if part is not None:
        folder = Path(tempfile.gettempdir()) / f"rumino-warm-{config.workerinput['testrunuid']}"
        warm_kernels.warm_and_wait(part, folder)
