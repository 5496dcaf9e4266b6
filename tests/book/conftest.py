"""The book's built pages, each opened once in Chromium for every test that reads them (book_pages.py)."""

from __future__ import annotations

import os
import threading
from pathlib import Path

import pytest


@pytest.fixture(scope="session")
def book_html(request) -> Path:
    """The built book's ``html`` folder: the session's build (tests/conftest.py), or RUMINO_BOOK_HTML, an
    already built one, to reuse it while working on a page."""
    given = os.environ.get("RUMINO_BOOK_HTML")
    if given:
        return Path(given)
    return request.getfixturevalue("built_book").html_dir


@pytest.fixture(scope="session")
def visited_pages(book_html, chromium_path) -> dict:
    """``{page: book_pages.PageVisit}``: every built page opened once, served on 127.0.0.1. Every test that
    asks for this carries ``pytest.mark.xdist_group(book_pages.GROUP)``, so one worker makes the visits."""
    pytest.importorskip("axe_playwright_python", reason="pip install -e '.[test]'")
    from book_pages import visit_every_page

    from rumino.cli.book import make_server

    server = make_server(book_html, 0)
    threading.Thread(target=server.serve_forever, daemon=True).start()
    try:
        return visit_every_page(chromium_path, book_html, f"http://127.0.0.1:{server.server_address[1]}")
    finally:
        server.shutdown()
        server.server_close()
