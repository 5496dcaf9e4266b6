"""Check a long list of pages in two Chromiums at once, one a thread.

The book's browser checks (accessibility on every page, every chapter's slide deck) run at the end of
the test session on one worker, after the book is built; by then the other worker has little left,
so splitting the pages over two browsers uses the idle core. Playwright's synchronous API wants one
instance a thread, so each thread starts its own.
"""

from __future__ import annotations

import os
from concurrent.futures import ThreadPoolExecutor


def shares(items: list, n: int) -> list[list]:
    """``items`` dealt round to ``n`` hands, so long and short pages mix.

    >>> shares(["a", "b", "c", "d", "e"], 2)
    [['a', 'c', 'e'], ['b', 'd']]
    """
    return [items[i::n] for i in range(n)]


def check_in_browsers(chromium_path: str, items: list, check, *, args: list[str], browsers: int | None = None) -> dict:
    """``{item: check(browser, item)}`` in the order of ``items``, over ``browsers`` Chromiums (two on a
    machine with two cores or more). A failed check is raised here, after the other browser stops."""
    n = browsers or max(1, min(2, os.cpu_count() or 1, len(items)))

    def run(part: list) -> dict:
        from playwright.sync_api import sync_playwright

        done = {}
        with sync_playwright() as pw:
            browser = pw.chromium.launch(executable_path=chromium_path, args=args)
            try:
                for item in part:
                    done[item] = check(browser, item)
            finally:
                browser.close()
        return done

    with ThreadPoolExecutor(n, thread_name_prefix="rumino-check") as pool:
        futures = [pool.submit(run, part) for part in shares(list(items), n)]
        results: dict = {}
        for future in futures:
            results.update(future.result())
    return {item: results[item] for item in items}
