"""The book built once per test run, in the background, while the xdist workers run the other tests.

Building the book (every chapter executed, the site written, the handouts printed) takes minutes. When
one worker built it as the first test of the book's group, that worker did nothing else meanwhile and
the book's tests (accessibility, slides, the real browser) followed it on the same worker: the longest
chain of the run. Now the first worker to collect a test that reads the book starts the build as a
separate process (``python tests/shared_book_build.py OUT``) right after collection, the book's tests
are collected last (conftest.py), and by the time a worker reaches one the build has usually finished;
if not, the test waits for it. The process writes its :class:`~rumino.cli.bookbuild.BuildReport` as a
pickle (``report.pickle``) or its failure (``error.txt``) into ``OUT``.

Without xdist (``-n 0``) nothing runs in the background: the ``built_book`` fixture builds in process.
"""

from __future__ import annotations

import os
import pickle
import signal
import subprocess
import sys
import time
import traceback
from pathlib import Path

REPORT, ERROR, STARTED = "report.pickle", "error.txt", "started"
WAIT_SECONDS = 1800  # the build alone took 277 s in CI beside the other tests; a slow machine gets room

_started_here: subprocess.Popen | None = None


def folder_for(config) -> Path | None:
    """The run's shared build folder under xdist, else ``None``: beside the workers' own temporary
    folders, in the run's base temporary folder (which pytest removes after a few more runs)."""
    if not getattr(config, "workerinput", None) or not config.option.basetemp:
        return None
    return Path(config.option.basetemp).parent / "book-build"


def start(folder: Path) -> bool:
    """Start the background build into ``folder`` unless another worker already did; True if started here."""
    global _started_here
    folder.mkdir(parents=True, exist_ok=True)
    try:
        (folder / STARTED).mkdir()  # atomic: exactly one worker wins
    except FileExistsError:
        return False
    log = open(folder / "build.log", "w", encoding="utf-8")  # noqa: SIM115 - the child owns it
    env = {k: v for k, v in os.environ.items() if not k.startswith("PYTEST_")}
    _started_here = subprocess.Popen([sys.executable, __file__, str(folder)], stdout=log, stderr=subprocess.STDOUT,
                                     cwd=Path(__file__).resolve().parents[1], env=env, start_new_session=True)
    return True


def stop_if_running() -> None:
    """At the end of the session: a build this worker started and nobody waited for is stopped."""
    if _started_here is not None and _started_here.poll() is None:
        os.killpg(_started_here.pid, signal.SIGTERM)
        try:
            _started_here.wait(timeout=30)
        except subprocess.TimeoutExpired:
            os.killpg(_started_here.pid, signal.SIGKILL)


def started(folder: Path | None) -> bool:
    return folder is not None and (folder / STARTED).is_dir()


def wait_for(folder: Path, timeout: float = WAIT_SECONDS):
    """The background build's report, waiting for it; raises with the build's own error if it failed."""
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        if (folder / REPORT).is_file():
            with open(folder / REPORT, "rb") as f:
                return pickle.load(f)
        if (folder / ERROR).is_file():
            raise RuntimeError(f"the book's build failed:\n{(folder / ERROR).read_text(encoding='utf-8')}")
        time.sleep(0.5)
    raise TimeoutError(f"the book's build did not finish within {timeout:.0f} s (its log: {folder / 'build.log'})")


def build_book(out: Path):
    """Build the repository's whole book into ``out`` (every chapter executed once) and return the report;
    the background process and an in-process build (``-n 0``, conftest.py) both build it this way."""
    from rumino.cli import bookbuild

    report = bookbuild.build(Path(__file__).resolve().parents[1] / "book", out, progress=False, echo=lambda *a: None)
    assert report.index.is_file(), report.index
    return report


def _build(folder: Path) -> None:
    try:
        report = build_book(folder / "book")
    except BaseException:  # noqa: BLE001 - every failure is handed to the tests that wait
        (folder / (ERROR + ".part")).write_text(traceback.format_exc(), encoding="utf-8")
        os.replace(folder / (ERROR + ".part"), folder / ERROR)
        raise
    with open(folder / (REPORT + ".part"), "wb") as f:
        pickle.dump(report, f)
    os.replace(folder / (REPORT + ".part"), folder / REPORT)  # whole or absent: never read half written


if __name__ == "__main__":
    _build(Path(sys.argv[1]))
