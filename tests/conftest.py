"""Shared fixtures: optional peers (oracles) and the real browser.

Outside CI a missing oracle or browser skips its tests with a message naming
what to install. CI sets RUMINO_REQUIRE_ORACLES=1 and RUMINO_REQUIRE_BROWSER=1
(see .ci/run), and then a missing one is an error, so nothing is skipped there.
"""

from __future__ import annotations

import importlib
import os
import shutil

import pytest


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


BOOK_FIXTURES = {"built_book", "served_book", "built_html"}  # built_html: test_book_a11y.py asks for the build by name


@pytest.hookimpl(tryfirst=True)  # before xdist's own hook, which reads the groups to schedule the tests
def pytest_collection_modifyitems(config, items):
    """Every test that reads the built book runs in one xdist group, so the session builds it once
    (a session-scoped fixture is per worker process: without the group each worker would build it)."""
    for item in items:
        if BOOK_FIXTURES & set(getattr(item, "fixturenames", ())):
            item.add_marker(pytest.mark.xdist_group("book"))


@pytest.fixture(scope="session")
def built_book(tmp_path_factory):
    """Build the whole book once per session (executing every chapter, once) into a temporary folder.

    Shared by every test of the book (test_notebooks.py, test_book_a11y.py, test_book_pdf.py,
    test_book_prose.py), which the hook above keeps on one worker.
    """
    from pathlib import Path

    from rumino.cli import bookbuild

    out = tmp_path_factory.mktemp("book")
    book = Path(__file__).resolve().parents[1] / "book"
    report = bookbuild.build(book, out, progress=False, echo=lambda *a: None)
    assert report.index.is_file()
    return report


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
