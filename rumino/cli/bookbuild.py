"""Build the book: execute every chapter, then turn the executed notebooks into a static HTML site.

This module drives tools (nbclient, Jupyter Book); it holds no rules and no odds.
The book's sources are ``book/`` in the repository: ``_toc.yml`` orders the chapters,
``_config.yml`` configures Jupyter Book (the Sphinx route, which builds offline).

Steps of :func:`build`:

1. copy the sources to a staging folder (``<out>/_staged``), so executed notebooks
   never touch the committed, output-free ones;
2. execute each chapter of the table of contents with nbclient — once: the tests read
   this same execution (``tests/conftest.py``'s ``built_book``) — on ``workers`` kernels at
   a time (two on a 2-core machine), with a progress bar and the time each chapter took;
3. run Jupyter Book on the staged folder with execution switched off;
4. put the committed (output-free) notebooks where the pages' download links point;
5. print each numbered chapter (01, 02, …) to PDF with Chromium into ``<html>/handouts/``
   (:func:`print_handouts`: the student's copy, and in the teacher's edition the copy with the
   solutions too), which the "Handouts" box of each chapter page links (``_ext/rumino_handouts.py``).

The student copy (:func:`student_notebook`) drops the cells of the solutions, which are
tagged ``solution`` (code) or open/close a ``solution-start``/``solution-end`` block; the student
edition also leaves out the teacher's pages (the lesson plans, with the answers to the review
questions), which say so in their notebook metadata: ``"rumino": {"edition": "teacher"}``
(:func:`is_teacher_page`), and its self-check quizzes are sealed (:func:`rumino.classroom.quiz.seal_outputs`):
the page marks an answer without holding it in a form a reader could read.

>>> nb = {"cells": [{"cell_type": "code", "metadata": {"tags": ["solution"]}, "source": "x = 1"},
...                  {"cell_type": "markdown", "metadata": {}, "source": "Exercise 1"}]}
>>> [c["source"] for c in student_notebook(nb)["cells"]]
['Exercise 1']
"""

from __future__ import annotations

import copy
import json
import os
import re
import shutil
import subprocess
import sys
import time
from dataclasses import dataclass, field
from pathlib import Path

from rumino.classroom.quiz import seal_outputs
from rumino.console import make_bar, worker_pool
from rumino.errors import RuminoError
from rumino.render.plotly_start import SPHINX_START, defer_iri_grammar

defer_iri_grammar()  # nbformat is imported below: 2.5 s of CPU less for every book build

SOLUTION_TAG = "solution"
# a cell that belongs to one edition only: "A note for teachers", a sentence about folded solutions
TEACHER_ONLY_TAG, STUDENT_ONLY_TAG = "teacher-only", "student-only"
_ANSI = re.compile(r"\x1b\[[0-9;]*m")
STAGED = "_staged"
REPOSITORY = Path(__file__).resolve().parents[2]
IGNORE = shutil.ignore_patterns("_build", ".ipynb_checkpoints", "__pycache__", ".jupyter_cache")


class BookError(RuminoError, ValueError):
    """The book cannot be found or built (names the file and the reason)."""


@dataclass
class ChapterRun:
    """How executing one chapter went."""

    name: str
    seconds: float
    cells: int
    error: str | None = None


@dataclass
class BuildReport:
    """What :func:`build` did: where the site is and how long each step took."""

    index: Path
    html_dir: Path
    chapters: list[ChapterRun] = field(default_factory=list)
    execute_seconds: float = 0.0  # the chapters' own times, added up
    execute_wall_seconds: float = 0.0  # the clock while they ran (less than the sum with several workers)
    sphinx_seconds: float = 0.0
    handouts: list = field(default_factory=list)  # a PdfReport per printed PDF
    handouts_seconds: float = 0.0
    handouts_note: str | None = None  # why some or all handouts were not printed
    total_seconds: float = 0.0


# ---------------------------------------------------------------------------- finding the book


def find_book(book: str | Path | None = None) -> Path:
    """The book's source folder: ``book`` if given, else ``./book``, else the repository's ``book/``.

    >>> (find_book() / "_toc.yml").is_file()
    True
    """
    if book is not None and not str(book).strip():  # Path("") is the current folder
        raise BookError(f"--book is {str(book)!r}: give the book's folder (the repository's book/).")
    # the repository's book/ is beside the package: rumino/cli/bookbuild.py -> parents[2] is the repository
    candidates = [Path(book)] if book is not None else [Path.cwd() / "book", REPOSITORY / "book"]
    for c in candidates:
        if (c / "_toc.yml").is_file() and (c / "_config.yml").is_file():
            return c.resolve()
    where = ", ".join(str(c) for c in candidates)
    raise BookError(f"no book found at {where}: a book folder holds _toc.yml and _config.yml "
                    f"(the repository's book/; pass --book DIR).")


def _load_yaml(path: Path) -> dict:
    import yaml

    try:
        return yaml.safe_load(path.read_text(encoding="utf-8")) or {}
    except yaml.YAMLError as err:
        raise BookError(f"{path} is not valid YAML: {err}") from None


def chapters(book: str | Path | None = None, *, student: bool = False) -> list[Path]:
    """The notebooks of the table of contents (``_toc.yml``), in reading order; with
    ``student=True`` without the teacher's pages (:func:`is_teacher_page`).

    >>> chapters()[0].name
    '00_preface.ipynb'
    """
    root = find_book(book)
    toc = _load_yaml(root / "_toc.yml")
    names = [toc.get("root")]

    def walk(entries):
        for e in entries or ():
            if "file" in e:
                names.append(e["file"])
            walk(e.get("sections"))
            for part in e.get("parts", ()) if isinstance(e, dict) else ():
                walk(part.get("chapters"))

    walk(toc.get("chapters"))
    for part in toc.get("parts", ()):
        walk(part.get("chapters"))
    out = []
    for name in names:
        if not name:
            continue
        path = root / (name if name.endswith(".ipynb") else f"{name}.ipynb")
        if path.is_file():
            if not (student and is_teacher_page(path)):
                out.append(path)
        elif not (root / f"{name}.md").is_file():
            raise BookError(f"_toc.yml lists {name!r} but {path} does not exist.")
    return out


TEACHER_EDITION = "teacher"


def is_teacher_page(path: Path) -> bool:
    """A page of the teacher's edition only: its notebook metadata says ``"rumino": {"edition":
    "teacher"}`` (the lesson plans, which hold the answers to the review questions).

    >>> is_teacher_page(find_book() / "01_cards_packs_counting.ipynb")
    False
    """
    try:
        meta = json.loads(Path(path).read_text(encoding="utf-8")).get("metadata", {})
    except (OSError, ValueError) as err:
        raise BookError(f"{path} cannot be read as a notebook: {err}") from None
    return (meta.get("rumino") or {}).get("edition") == TEACHER_EDITION


def student_toc(toc: dict, teacher_pages: set[str]) -> dict:
    """``toc`` (a parsed ``_toc.yml``) without the entries of ``teacher_pages`` (file names without
    ``.ipynb``); a part left with no chapter is dropped.

    >>> toc = {"root": "p", "parts": [{"caption": "T", "chapters": [{"file": "teach_index"}]},
    ...                               {"caption": "A", "chapters": [{"file": "a"}]}]}
    >>> student_toc(toc, {"teach_index"})["parts"]
    [{'caption': 'A', 'chapters': [{'file': 'a'}]}]
    """
    out = copy.deepcopy(toc)

    def keep(entries):
        kept = []
        for e in entries or ():
            if str(e.get("file", "")).removesuffix(".ipynb") in teacher_pages:
                continue
            if "sections" in e:
                e["sections"] = keep(e["sections"])
            kept.append(e)
        return kept

    if "chapters" in out:
        out["chapters"] = keep(out["chapters"])
    if "parts" in out:
        parts = []
        for part in out["parts"]:
            part["chapters"] = keep(part.get("chapters"))
            if part["chapters"]:
                parts.append(part)
        out["parts"] = parts
    return out


# ---------------------------------------------------------------------------- notebooks


def read_notebook(path: Path):
    import nbformat

    return nbformat.read(str(path), as_version=4)


def is_solution_cell(cell) -> bool:
    """A cell that belongs only to the teacher's copy: a solution, or a cell tagged ``teacher-only``."""
    tags = cell.get("metadata", {}).get("tags", [])
    if SOLUTION_TAG in tags or TEACHER_ONLY_TAG in tags:
        return True
    src = cell.get("source", "")
    src = "".join(src) if isinstance(src, list) else src
    return cell.get("cell_type") == "markdown" and ("{solution-start}" in src or "{solution-end}" in src
                                                    or "{solution}" in src)


def student_notebook(nb, *, clear_outputs: bool = True):
    """A copy of ``nb`` without its solution cells (and, unless ``clear_outputs=False``, without outputs):
    the cells :func:`is_solution_cell` names, and every cell between a ``solution-start`` and its
    ``solution-end``, tagged or not (a paragraph of a solution is a solution).

    >>> nb = {"cells": [{"cell_type": "markdown", "metadata": {}, "source": ":::{solution-start} ex"},
    ...                  {"cell_type": "markdown", "metadata": {}, "source": "more of the answer"},
    ...                  {"cell_type": "markdown", "metadata": {}, "source": ":::{solution-end}"},
    ...                  {"cell_type": "markdown", "metadata": {}, "source": "after"}]}
    >>> [c["source"] for c in student_notebook(nb)["cells"]]
    ['after']
    """
    out = copy.deepcopy(nb)
    kept, inside = [], False
    for c in out["cells"]:
        src = c.get("source", "")
        src = "".join(src) if isinstance(src, list) else src
        if c.get("cell_type") == "markdown" and "{solution-start}" in src:
            inside = True
        if not inside and not is_solution_cell(c):
            kept.append(c)
        if c.get("cell_type") == "markdown" and "{solution-end}" in src:
            inside = False
    out["cells"] = kept
    for c in out["cells"] if clear_outputs else ():
        if c.get("cell_type") == "code":
            c["outputs"] = []
            c["execution_count"] = None
    return out


def teacher_notebook(nb):
    """``nb`` without the cells of the student edition only (tagged ``student-only``), outputs kept.

    >>> nb = {"cells": [{"cell_type": "markdown", "metadata": {"tags": ["student-only"]}, "source": "s"},
    ...                  {"cell_type": "markdown", "metadata": {}, "source": "both"}]}
    >>> [c["source"] for c in teacher_notebook(nb)["cells"]]
    ['both']
    """
    out = copy.deepcopy(nb)
    out["cells"] = [c for c in out["cells"] if STUDENT_ONLY_TAG not in c.get("metadata", {}).get("tags", [])]
    return out


def write_student_copy(dest: str | Path, book: str | Path | None = None) -> list[Path]:
    """Write every chapter without its solutions into ``dest`` (with the files the chapters import).
    ``dest`` may not be the book's own folder nor lie in it (outside its ``_build``): the copy would
    replace the chapters with their solution-free versions."""
    import nbformat

    root = find_book(book)
    dest = Path(dest)
    check_not_in_sources(dest, root, "the student copy")
    dest.mkdir(parents=True, exist_ok=True)
    written = []
    for path in chapters(root, student=True):
        nb = student_notebook(read_notebook(path))
        target = dest / path.name
        nbformat.write(nb, str(target))
        written.append(target)
    shutil.copy2(root / "bookutils.py", dest / "bookutils.py")
    return written


def check_not_in_sources(dest: Path, root: Path, what: str) -> None:
    """Refuse to write ``what`` into the book's sources ``root`` (its ``_build`` folder is the place for
    what is made from them).

    >>> check_not_in_sources(find_book(), find_book(), "the student copy")  # doctest: +ELLIPSIS
    Traceback (most recent call last):
    ...
    rumino.cli.bookbuild.BookError: ... is the book's own folder: the student copy would replace its chapters; ...
    """
    real, book = Path(os.path.realpath(dest)), Path(os.path.realpath(root))
    if real == book or (book in real.parents and book / "_build" not in (real, *real.parents)):
        where = "is the book's own folder" if real == book else f"is inside the book's folder {root}"
        raise BookError(f"{dest} {where}: {what} would replace its chapters; give a folder outside the book "
                        f"(or under its _build/).")


BUILD_MARK = ".rumino-book-build"  # left in every folder `rumino book build` writes: what it may replace later
KERNEL_LOGS = "kernel-logs"  # what each chapter's kernel process wrote on its own (not the cells' outputs)
MADE_BY_BUILD = ("html", STAGED, "_build", "sphinx.log", KERNEL_LOGS)  # what a build replaces in its folder


def check_build_out(out: Path, *, default: bool = False) -> None:
    """Refuse a build folder that holds an ``html/``, ``_staged/`` or ``_build/`` that ``rumino book build``
    did not make there (it replaces them): checked before any work. The book's own ``_build`` is always
    the build's."""
    out = Path(out)
    if not out.exists():
        return
    if not out.is_dir():
        raise BookError(f"--out {out} is a file, not a folder.")
    if default or (out / BUILD_MARK).exists():
        return
    theirs = [name for name in MADE_BY_BUILD if (out / name).exists()]
    if theirs:
        raise BookError(f"--out {out} already holds {theirs[0]} that rumino book build did not make, and a build "
                        f"would replace it: give a new or empty folder.")


KERNEL_START_ATTEMPTS = 3  # a kernel that dies before running a cell is started again (a port race)

# What a kept kernel runs before the next chapter: the namespace of the chapter before is cleared (names,
# their outputs, the input history) and the working folder is the next chapter's, as in a fresh kernel.
_FORGET = "get_ipython().run_line_magic('reset', '-f'); import os as _os; _os.chdir({cwd!r}); del _os"


class ChapterKernel:
    """One Jupyter kernel that runs chapter after chapter, forgetting each before the next.

    Starting a kernel and importing the engine into it costs about 2 s of CPU, as much as a short chapter's
    own cells; a build that starts one a chapter spends over a minute on it. A kept kernel clears the
    chapter before (``%reset -f``) and moves to the next one's folder, so a chapter sees none of another's
    names; what it keeps are imported modules and the engine's caches, which change no result (every
    chapter seeds its own draws). A kernel that died, or that a failed or interrupted chapter leaves, is
    replaced by a fresh one.

    >>> with ChapterKernel() as kernel:
    ...     kernel.km is None  # started by the first chapter
    True
    """

    def __init__(self):
        self.km = None

    def __enter__(self):
        return self

    def __exit__(self, *exc):
        self.close()
        return False

    def for_chapter(self, cwd: Path):
        """The kernel manager for the next chapter (not yet started, or a live kernel that has forgotten
        the chapter before); ``None`` when no kernel is kept."""
        from jupyter_client.manager import AsyncKernelManager

        if self.km is not None and self.km.has_kernel:
            try:
                self._forget(cwd)
                return self.km
            except Exception:  # noqa: BLE001 - a kernel that cannot forget is replaced, never reused
                self.close()
        self.km = AsyncKernelManager(kernel_name="python3")
        return self.km

    def _forget(self, cwd: Path) -> None:
        client = self.km.blocking_client()
        client.start_channels()
        try:
            client.wait_for_ready(timeout=60)
            reply = client.execute_interactive(_FORGET.format(cwd=str(cwd)), store_history=False, timeout=60,
                                               output_hook=lambda msg: None)
            if reply["content"]["status"] != "ok":
                raise RuntimeError(f"the kept kernel could not forget the chapter before: {reply['content']}")
        finally:
            client.stop_channels()

    def close(self) -> None:
        """Stop the kept kernel, if any."""
        km, self.km = self.km, None
        if km is None or not km.has_kernel:
            return
        from jupyter_core.utils import run_sync

        try:
            run_sync(km.shutdown_kernel)(now=True)
        except Exception:  # noqa: BLE001 - a kernel already gone
            pass


_WORKER_KERNEL: ChapterKernel | None = None  # the kernel a worker process keeps (see _execute_staged)


def execute_chapter(path: Path, *, cwd: Path, timeout: int = 300, progress: bool = True,
                    label: str = "", kernel_log: Path | None = None,
                    kernel: ChapterKernel | None = None) -> tuple[object, ChapterRun]:
    """Execute one notebook in ``cwd`` with nbclient; return the executed notebook and its timing.

    ``kernel_log``: a file for what the kernel process itself writes (its own errors, not the cells'
    outputs, which the notebook keeps); without one it is dropped. Never the terminal, where it would
    interleave with the bars (and a kernel stopped by Ctrl-C writes a traceback). ``kernel``: a
    :class:`ChapterKernel` to run in (and keep) instead of a kernel of the chapter's own; a kept kernel
    writes into the log of the chapter that started it."""
    from nbclient import NotebookClient
    from nbclient.exceptions import CellExecutionError

    nb = read_notebook(path)
    n_code = sum(1 for c in nb.cells if c.cell_type == "code")
    bar = None
    if progress:
        from tqdm.auto import tqdm

        bar = tqdm(total=n_code, desc=label or path.stem, unit="cell", leave=True, file=sys.stderr, disable=None,
                   bar_format="{desc:<38} {bar:20} {n_fmt}/{total_fmt} cells · {elapsed}")

    cells_done = 0

    def done(cell, cell_index, **_):
        nonlocal cells_done
        cells_done += 1
        if bar is not None and cell.cell_type == "code":
            bar.update(1)

    start = time.perf_counter()
    error = None
    log = open(kernel_log, "a", encoding="utf-8") if kernel_log is not None else None  # noqa: SIM115 (closed below)
    streams = {"stdout": subprocess.DEVNULL, "stderr": log if log is not None else subprocess.DEVNULL}
    try:
        for attempt in range(1, KERNEL_START_ATTEMPTS + 1):
            # store_widget_state=False: the static pages drop widget views anyway (each live cell carries
            # its own static HTML), and a FigureWidget's saved state would embed plotly.js again in every page
            km = kernel.for_chapter(cwd) if kernel is not None else None
            client = NotebookClient(nb, km=km, timeout=timeout, kernel_name="python3", allow_errors=False,
                                    store_widget_state=False, resources={"metadata": {"path": str(cwd)}},
                                    on_cell_complete=done,
                                    # the kernel's own start-up warnings would break the progress bars
                                    extra_arguments=["--IPKernelApp.log_level=ERROR"])
            try:
                try:
                    client.execute(**streams)
                except BaseException:
                    if kernel is not None:  # a chapter stopped half way leaves a kernel nobody may reuse
                        kernel.close()
                    # nbclient takes Ctrl-C itself while a chapter runs: it stops the kernel and the chapter
                    # fails; that failure is the interrupt it was, not a broken chapter nor a kernel to restart
                    if getattr(client, "_async_cleanup_kernel_future", None) is not None:
                        raise KeyboardInterrupt from None
                    raise
                finally:
                    if kernel is not None and client.kc is not None:  # the kept kernel's channels of this chapter
                        client.kc.stop_channels()
                break
            except CellExecutionError as err:
                error = _ANSI.sub("", str(err))  # tracebacks come coloured for a terminal
                break
            except Exception:  # noqa: BLE001 - only a kernel that died before its first cell is retried
                # jupyter_client picks the kernel's five ports before the kernel binds them, so another
                # process on the machine can take one in between ("ZMQError: Address already in use")
                # and the kernel dies at start-up; a fresh kernel picks fresh ports
                if cells_done or attempt == KERNEL_START_ATTEMPTS:
                    raise
                nb = read_notebook(path)
    finally:  # a Ctrl-C unwinds through here too: nbclient has stopped the kernel on its way out
        if bar is not None:
            bar.close()
        if log is not None:
            log.close()
    return nb, ChapterRun(path.stem, time.perf_counter() - start, n_code, error)


# ---------------------------------------------------------------------------- the build


def executed_chapter(report: BuildReport, stem: str) -> tuple["nbformat.NotebookNode", ChapterRun]:
    """A chapter as a build executed it, outputs kept: ``(notebook, ChapterRun)``.

    The build writes each executed notebook into its staged copy of the book, next to the site, so
    whoever reads a chapter's outputs after a build (the book's tests) need not run it again.
    """
    import nbformat

    run = next((r for r in report.chapters if r.name == stem), None)
    if run is None:
        raise BookError(f"the build at {report.html_dir.parent} did not execute a chapter named {stem}.")
    return nbformat.read(str(report.html_dir.parent / STAGED / f"{stem}.ipynb"), as_version=4), run


def _stage(root: Path, staged: Path, *, student: bool) -> None:
    if staged.exists():
        shutil.rmtree(staged)
    shutil.copytree(root, staged, ignore=IGNORE)
    cfg = _load_yaml(staged / "_config.yml")
    cfg.setdefault("execute", {})["execute_notebooks"] = "off"  # executed here, with progress
    sphinx_cfg = cfg.setdefault("sphinx", {}).setdefault("config", {})
    import yaml

    if student:
        sphinx_cfg["hide_solutions"] = True
        # the teacher's pages (lesson plans with the review questions' answers) leave the edition
        teacher = {p.stem for p in chapters(staged) if is_teacher_page(p)}
        toc = student_toc(_load_yaml(staged / "_toc.yml"), teacher)
        (staged / "_toc.yml").write_text(yaml.safe_dump(toc, sort_keys=False, allow_unicode=True),
                                         encoding="utf-8")
        for stem in teacher:
            (staged / f"{stem}.ipynb").unlink()

    (staged / "_config.yml").write_text(yaml.safe_dump(cfg, sort_keys=False, allow_unicode=True), encoding="utf-8")


def _run_chapters(jobs: list, workers: int, progress: bool, workers_log: Path | None = None):
    """``(executed notebook, ChapterRun)`` per job, in the order of ``jobs``."""
    if workers == 1:
        with ChapterKernel() as kernel:
            for path, cwd, timeout, label, log in jobs:
                yield execute_chapter(path, cwd=cwd, timeout=timeout, progress=progress, label=label, kernel_log=log,
                                      kernel=kernel)
        return
    bar = make_bar(len(jobs), "chapters", "chapters") if progress else None
    with worker_pool(workers, log=workers_log) as pool:  # what the workers print on their own: into the log
        futures = [pool.submit(_execute_staged, job) for job in jobs]
        try:
            for fut in futures:  # results in the book's order; the pool runs them as cores free up
                yield fut.result()
                if bar is not None:
                    bar.update(1)
        finally:
            for fut in futures:
                fut.cancel()
            if bar is not None:
                bar.close()


def default_workers() -> int:
    """Chapters executed at once by default: one kernel per core, at most two (each kernel compiles and
    simulates on one core; more would only share the same cores)."""
    return max(1, min(2, os.cpu_count() or 1))


def _execute_staged(job):
    """Execute one staged chapter in a worker process (see :func:`build`)."""
    global _WORKER_KERNEL
    path, cwd, timeout, label, log = job
    if _WORKER_KERNEL is None:  # kept for the worker's next chapters, stopped when the worker ends
        from multiprocessing.util import Finalize

        _WORKER_KERNEL = ChapterKernel()
        # a pool's worker leaves through os._exit, past atexit: multiprocessing runs its finalizers first
        # (and a kernel whose worker was killed ends itself: ipykernel watches its parent process)
        Finalize(_WORKER_KERNEL, _WORKER_KERNEL.close, exitpriority=10)
    return execute_chapter(path, cwd=cwd, timeout=timeout, progress=False, label=label, kernel_log=log,
                           kernel=_WORKER_KERNEL)


@dataclass
class _Edition:
    """One edition being built: where, which chapters, and its report."""

    root: Path
    out: Path
    student: bool
    paths: list
    report: BuildReport
    handout_stems: list = field(default_factory=list)

    @property
    def staged(self) -> Path:
        return self.out / STAGED


def _claim_out(out: Path, root: Path, *, default: bool) -> None:
    """Check ``out`` before any work (never replace what a build did not make, never write into the
    book's sources), then mark it as a build's folder."""
    check_build_out(out, default=default)  # never replace what it did not make
    if not default:
        check_not_in_sources(out, root, "the build")
    out.mkdir(parents=True, exist_ok=True)
    (out / BUILD_MARK).write_text("made by rumino book build: it replaces html/, _staged/ and _build/ here\n",
                                  encoding="utf-8")


def _prepare(root: Path, out: Path, student: bool) -> _Edition:
    out = out.resolve()
    _stage(root, out / STAGED, student=student)
    return _Edition(root, out, student, chapters(root, student=student),
                    BuildReport(index=out / "html" / "index.html", html_dir=out / "html"))


def _check_workers(workers) -> int:
    workers = default_workers() if workers is None else workers
    if isinstance(workers, bool) or not isinstance(workers, int) or workers < 1:
        raise BookError(f"workers is {workers!r}: it must be a whole number of at least 1.")
    return workers


def _execute(editions: list[_Edition], *, workers: int, timeout: int, progress: bool, echo) -> None:
    """Execute the chapters of ``editions`` once each (the first edition's staged copy runs) and write each
    executed notebook into every edition that has the chapter: the student's without its solutions."""
    import nbformat

    first = editions[0]
    paths = list(dict.fromkeys(p for e in editions for p in e.paths))
    workers = min(workers, len(paths)) or 1
    echo(f"Executing {len(paths)} chapters of {first.root} ({workers} at a time) …")
    source = {p: next(e for e in editions if p in e.paths) for p in paths}
    logs = first.out / KERNEL_LOGS
    shutil.rmtree(logs, ignore_errors=True)
    logs.mkdir()
    jobs = [(source[path].staged / path.name, source[path].staged, timeout, f"[{i}/{len(paths)}] {path.stem}",
             logs / f"{path.stem}.log")
            for i, path in enumerate(paths, 1)]
    t_exec = time.perf_counter()
    for path, (nb, run) in zip(paths, _run_chapters(jobs, workers, progress, workers_log=logs / "workers.log")):
        for e in editions:
            if path in e.paths:
                e.report.chapters.append(run)
        if run.error:
            raise BookError(f"chapter {path.name} failed while executing (nothing was built):\n{run.error}")
        for e in editions:
            if path not in e.paths:
                continue
            # the student's edition runs the teacher's notebook (solutions too) and shows only the rest
            shown = student_notebook(nb, clear_outputs=False) if e.student else teacher_notebook(nb)
            if e.student:  # its self-check quizzes mark answers without holding them in the page
                seal_outputs(shown)
            nbformat.write(shown, str(e.staged / path.name))
        echo(f"  {path.stem:<34} {run.seconds:6.1f} s  ({run.cells} code cells)")
    wall = time.perf_counter() - t_exec
    for e in editions:
        e.report.execute_seconds = sum(r.seconds for r in e.report.chapters)
        e.report.execute_wall_seconds = wall


def _decide_handouts(e: _Edition, handouts: bool, echo) -> None:
    """Decided before Sphinx runs: the pages link only the handouts that are going to be printed."""
    stems = handout_chapters(e.paths) if handouts else []
    if stems and (why := handouts_unavailable()):
        e.report.handouts_note = f"handouts not printed: {why}"
        echo(f"Note: {e.report.handouts_note}; the chapter pages link none.")
        stems = []
    e.handout_stems = stems
    _set_handout_pages(e.staged, stems)


def _start_sphinx(e: _Edition):
    """Jupyter Book on the staged folder, in a process of its own (two editions build side by side)."""
    html_dir = e.out / "html"
    if html_dir.exists():
        shutil.rmtree(html_dir)
    cmd = [sys.executable, "-c", SPHINX_START, "build", str(e.staged), "--path-output", str(e.out),
           "--builder", "html", "--keep-going"]
    log = (e.out / "sphinx.log").open("w", encoding="utf-8")
    return subprocess.Popen(cmd, stdout=log, stderr=subprocess.STDOUT, text=True), log, time.perf_counter()


def _finish_sphinx(e: _Edition, started) -> None:
    import nbformat

    proc, log, t1 = started
    proc.wait()
    log.close()
    text = (e.out / "sphinx.log").read_text(encoding="utf-8", errors="replace")
    built = e.out / "_build" / "html"
    if proc.returncode != 0 or not (built / "index.html").is_file():
        tail = "\n".join(text.splitlines()[-30:])
        raise BookError(f"Jupyter Book failed (exit {proc.returncode}); the full log is {e.out / 'sphinx.log'}:\n{tail}")
    html_dir = e.out / "html"
    shutil.move(str(built), str(html_dir))
    shutil.rmtree(e.out / "_build", ignore_errors=True)
    e.report.sphinx_seconds = time.perf_counter() - t1
    # the download links point at _sources/: put the output-free notebooks there
    sources = html_dir / "_sources"
    sources.mkdir(exist_ok=True)
    for path in e.paths:
        nb = read_notebook(path)
        nb = student_notebook(nb) if e.student else teacher_notebook(nb)
        nbformat.write(nb, str(sources / path.name))


def build(book: str | Path | None = None, out: str | Path | None = None, *, student: bool = False,
          timeout: int = 300, progress: bool = True, echo=print, workers: int | None = None,
          handouts: bool = True) -> BuildReport:
    """Execute every chapter and build the HTML book; return where it is and how long it took.

    ``out`` defaults to ``book/_build`` (``book/_build/student`` with ``student=True``);
    the site is ``<out>/html`` and its front page ``<out>/html/index.html``. ``workers``
    chapters run at once (default :func:`default_workers`); with one, each chapter shows a
    progress bar per cell, with more one bar counts the chapters. Unless ``handouts=False``
    the numbered chapters are then printed to PDF into ``<out>/html/handouts/``
    (:func:`print_handouts`); without Chromium the book is built all the same, with a note
    and no handout links.
    """
    t0 = time.perf_counter()
    root = find_book(book)
    default = out is None
    out = Path(out) if out is not None else root / "_build" / ("student" if student else "")
    workers = _check_workers(workers)
    _claim_out(out.resolve(), root, default=default)
    e = _prepare(root, out, student)
    _execute([e], workers=workers, timeout=timeout, progress=progress, echo=echo)
    _decide_handouts(e, handouts, echo)
    echo("Building the HTML with Jupyter Book …")
    _finish_sphinx(e, _start_sphinx(e))
    report = e.report
    if e.handout_stems:
        t2 = time.perf_counter()
        report.handouts, failed = print_handouts(report.html_dir, e.handout_stems, student=student, echo=echo)
        report.handouts_seconds = time.perf_counter() - t2
        if failed:
            report.handouts_note = f"{len(failed)} handout(s) not printed, their links taken out: " + "; ".join(failed)
            echo(f"Note: {report.handouts_note}")
    report.total_seconds = time.perf_counter() - t0
    return report


def build_editions(book: str | Path | None, teacher_out: str | Path, student_out: str | Path, *,
                   timeout: int = 300, progress: bool = True, echo=print, workers: int | None = None,
                   handouts: bool = True, while_building=None, mark=None,
                   default: bool = False) -> tuple[BuildReport, BuildReport]:
    """Both editions for the price of one execution: every chapter runs once (the teacher's set), the
    student's edition takes the executed notebooks without their solutions, and the two Jupyter Book
    builds run side by side. ``while_building()``, if given, is called once the chapters have run (the
    kit starts its assignments then); ``mark(step)``, if given, after each step (the kit times them). The handouts are printed once, from the teacher's pages
    (:func:`print_handouts`, both editions), and the student's PDFs copied into the student's site.
    """
    t0 = time.perf_counter()
    root = find_book(book)
    workers = _check_workers(workers)
    for out in (teacher_out, student_out):  # default: the kit's own folder under the book's _build
        _claim_out(Path(out).resolve(), root, default=default)
    teacher, student = _prepare(root, Path(teacher_out), False), _prepare(root, Path(student_out), True)
    mark = mark or (lambda step: None)
    _execute([teacher, student], workers=workers, timeout=timeout, progress=progress, echo=echo)
    mark("chapters executed (once, for both editions)")
    if while_building is not None:
        while_building()
    for e in (teacher, student):
        _decide_handouts(e, handouts, echo)
    echo("Building the HTML of both editions with Jupyter Book, side by side …")
    started = [_start_sphinx(e) for e in (teacher, student)]
    for e, s in zip((teacher, student), started):
        _finish_sphinx(e, s)
    mark("HTML of both editions (Jupyter Book)")
    if teacher.handout_stems:
        t2 = time.perf_counter()
        reports, failed = print_handouts(teacher.report.html_dir, teacher.handout_stems, echo=echo)
        teacher.report.handouts = reports
        dest = student.report.html_dir / HANDOUT_DIR
        dest.mkdir(parents=True, exist_ok=True)
        for r in reports:
            if r.path.stem.endswith("-student"):  # printed from the teacher's page with the solutions taken out
                shutil.copy2(r.path, dest / r.path.name)
                student.report.handouts.append(PdfReport(r.chapter, dest / r.path.name, r.pages, r.bytes))
        drop_missing_handout_links(student.report.html_dir, student.handout_stems)
        teacher.report.handouts_seconds = time.perf_counter() - t2
        if failed:
            note = f"{len(failed)} handout(s) not printed, their links taken out: " + "; ".join(failed)
            teacher.report.handouts_note = student.report.handouts_note = note
            echo(f"Note: {note}")
        mark("handouts printed (once, both editions)")
    for e in (teacher, student):
        e.report.total_seconds = time.perf_counter() - t0
    return teacher.report, student.report


def format_report(report: BuildReport) -> str:
    lines = ["chapter                              seconds"]
    lines += [f"  {r.name:<34} {r.seconds:7.1f}" for r in report.chapters]
    lines.append(f"  {'(all chapters)':<34} {report.execute_seconds:7.1f}")
    if report.execute_wall_seconds and report.execute_wall_seconds < report.execute_seconds - 0.5:
        lines.append(f"  {'(all chapters, on the clock)':<34} {report.execute_wall_seconds:7.1f}")
    lines.append(f"  {'(Jupyter Book / Sphinx)':<34} {report.sphinx_seconds:7.1f}")
    if report.handouts:
        pages = sum(r.pages for r in report.handouts)
        n = len(report.handouts)
        label = f"(handouts: {n} PDF{'s' if n != 1 else ''}, {pages} pages)"
        lines.append(f"  {label:<34} {report.handouts_seconds:7.1f}")
    if report.handouts_note:
        lines.append(f"  ({report.handouts_note})")
    lines.append(f"  {'(total)':<34} {report.total_seconds:7.1f}")
    return "\n".join(lines)


def notebook_outputs(path: Path) -> list[int]:
    """Indexes of the code cells of ``path`` that carry outputs or an execution count."""
    nb = json.loads(Path(path).read_text(encoding="utf-8"))
    return [i for i, c in enumerate(nb["cells"])
            if c.get("cell_type") == "code" and (c.get("outputs") or c.get("execution_count") is not None)]


# ---------------------------------------------------------------------------- printable handouts

# Chromium prints at A4 from a page laid out this wide (px): the book's one-column (narrow) layout,
# so the figures are sized for the paper rather than for a wide screen.
PRINT_VIEWPORT = {"width": 800, "height": 1100}
CHROMIUM_ARGS = ["--headless=new", "--no-sandbox", "--disable-gpu", "--disable-background-networking",
                 "--disable-component-update", "--no-first-run", "--disable-sync", "--disable-dev-shm-usage"]
# what a handout needs open: every dropdown box (hints, and solutions in the teacher's edition);
# the folded source of figure cells (hide-input, a <details class="hide">) stays folded on paper
_OPEN_DROPDOWNS = """() => {
  document.querySelectorAll('details:not(.hide)').forEach(d => { d.open = true; });
  document.querySelectorAll('.toggle-hidden').forEach(e => e.classList.remove('toggle-hidden'));
  document.querySelectorAll('.toggle-details__container, .toggle-content')
    .forEach(e => { e.style.display = ''; e.hidden = false; });
}"""
# the student edition: every solution block and every cell that belongs to one goes
_DROP_SOLUTIONS = """() => {
  document.querySelectorAll('.solution, .tag_solution').forEach(e => e.remove());
}"""
_FIGURES_DRAWN = """() => {
  const plots = [...document.querySelectorAll('.js-plotly-plot, .plotly-graph-div')];
  const drawn = plots.every(p => p.querySelector('.main-svg'));
  const maths = document.querySelectorAll('.math').length;
  const typeset = !maths || document.querySelectorAll('mjx-container').length > 0;
  return drawn && typeset;
}"""


@dataclass
class PdfReport:
    """One printed chapter: where the PDF is, its size and page count."""

    chapter: str
    path: Path
    pages: int
    bytes: int


def chapter_pages(html_dir: Path, wanted=None) -> list[Path]:
    """The chapter pages of a built book, in reading order; ``wanted`` picks some by name or number.

    A chapter is named by its file stem (``04_odds_of_the_deal``), its file name, or its
    number (``4`` or ``04``; ``00a`` for a page of *Start here*).
    """
    html_dir = Path(html_dir)
    pages = sorted(p for p in html_dir.glob("*.html") if re.match(r"\d\d[a-z]?_", p.name))
    if not pages:
        raise BookError(f"{html_dir} holds no built chapter pages (NN_name.html): run `rumino book build` first.")
    if not wanted:
        return pages
    out = []
    for w in wanted:
        key = Path(str(w)).stem
        number = f"{int(key):02d}" if key.isascii() and key.isdigit() else key  # 4, 04, or a page's own prefix (00a)
        hits = [p for p in pages if p.stem == key or p.stem.split("_")[0] == number]
        if not hits:
            names = ", ".join(p.stem for p in pages)
            raise BookError(f"no chapter {w!r} in {html_dir}: the chapters are {names} (or their numbers).")
        out += [p for p in hits if p not in out]
    return out


# the browsers that print: Chromium, Chrome or Edge (all Chromium inside), found on the PATH or where their
# installers put them; RUMINO_BROWSER names one explicitly
BROWSER_NAMES = ("chromium", "chromium-browser", "google-chrome", "google-chrome-stable", "chrome",
                 "microsoft-edge", "microsoft-edge-stable", "msedge")
BROWSER_PATHS = ("/Applications/Google Chrome.app/Contents/MacOS/Google Chrome",
                 "/Applications/Chromium.app/Contents/MacOS/Chromium",
                 "/Applications/Microsoft Edge.app/Contents/MacOS/Microsoft Edge",
                 r"C:\Program Files\Google\Chrome\Application\chrome.exe",
                 r"C:\Program Files (x86)\Google\Chrome\Application\chrome.exe",
                 r"C:\Program Files\Microsoft\Edge\Application\msedge.exe",
                 r"C:\Program Files (x86)\Microsoft\Edge\Application\msedge.exe")
NO_BROWSER = ("no Chromium, Chrome or Edge was found to print with (apt-get install chromium, or set "
              "RUMINO_BROWSER to one); without one, open the page in your browser and print it (Ctrl+P, "
              "then Save as PDF): a student page prints without solutions")


def _chromium_path() -> str | None:
    """The browser that prints: ``RUMINO_BROWSER``, else Chromium, Chrome or Edge, whichever is found first."""
    given = os.environ.get("RUMINO_BROWSER", "").strip()
    if given:
        return given if Path(given).is_file() else shutil.which(given)
    for name in BROWSER_NAMES:
        if found := shutil.which(name):
            return found
    return next((p for p in BROWSER_PATHS if Path(p).is_file()), None)


def _chromium() -> str:
    path = _chromium_path()
    if not path:
        raise BookError(NO_BROWSER + ".")
    return path


def _pdf_pages(path: Path) -> int:
    """Pages of a PDF Chromium wrote (its page tree's /Count; no PDF library needed)."""
    counts = re.findall(rb"/Type\s*/Pages\b[^>]*?/Count\s+(\d+)", path.read_bytes())
    counts += re.findall(rb"/Count\s+(\d+)[^>]*?/Type\s*/Pages\b", path.read_bytes())
    return max((int(c) for c in counts), default=0)


def print_pdfs(html_dir: str | Path, dest: str | Path, chapters_wanted=None, **options) -> list[PdfReport]:
    """:func:`print_pdfs_here`, in a thread of its own when this one runs an event loop.

    Playwright's synchronous API refuses to start inside a running asyncio loop, and a caller may
    hold one: a test whose browser is already open (Playwright runs its loop in the caller's thread),
    or a notebook. A fresh thread has no loop, so the handouts print from anywhere.
    """
    import asyncio

    try:
        asyncio.get_running_loop()
    except RuntimeError:
        return print_pdfs_here(html_dir, dest, chapters_wanted, **options)
    from concurrent.futures import ThreadPoolExecutor

    with ThreadPoolExecutor(1, thread_name_prefix="rumino-pdf") as pool:
        return pool.submit(print_pdfs_here, html_dir, dest, chapters_wanted, **options).result()


def print_pdfs_here(html_dir: str | Path, dest: str | Path, chapters_wanted=None, *, student: bool = False,
                    timeout_ms: int = 60_000, echo=print, errors: list | None = None,
                    both_editions: bool = False) -> list[PdfReport]:
    """Print chapters of a built book to one PDF each, through Chromium, Chrome or Edge (no LaTeX).

    Each page is opened from a loopback server, its figures are left to draw (plotly makes its SVG,
    MathJax its formulas), every dropdown is opened, and the page is printed with the print
    stylesheet (navigation hidden, see ``_ext/rumino_book.py``) to ``dest/<chapter>.pdf``. With
    ``student=True`` solutions are taken out first and the files are ``<chapter>-student.pdf``.
    With ``both_editions=True`` each page is loaded once and printed twice, with the solutions and
    then without (a page's loading and drawing is most of the time it takes).
    A chapter that cannot be printed stops the printing with a :class:`BookError`, or, when an
    ``errors`` list is given, is added to it (``"<chapter>: why"``) and the next chapter is printed.
    """
    html_dir = Path(html_dir).resolve()
    pages = chapter_pages(html_dir, chapters_wanted)
    dest = Path(dest)
    dest.mkdir(parents=True, exist_ok=True)
    editions = (False, True) if both_editions else (student,)
    printed_by_page: dict = {}

    def print_share(share: list) -> None:
        with _print_session(html_dir) as (browser, base):
            tab = ReadingTab(browser)
            for page_path in share:
                try:
                    printed = _print_editions(tab.page(), base, page_path, dest, editions, timeout_ms)
                except Exception as err:  # noqa: BLE001 - a page that would not print, with a list to note it in
                    tab.discard()
                    if errors is None:
                        raise
                    why = str(err).splitlines()[0] if str(err) else err.__class__.__name__
                    errors.append(f"{page_path.stem}: {why}")
                    continue
                printed_by_page[page_path] = printed
                for r in printed:
                    echo(f"  {r.path.stem:<34} {r.pages:3d} pages {r.bytes / 1024:8.0f} kB  {r.path}")

    # Loading and drawing a page is mostly the browser's work, in a process of its own: on two cores or
    # more, two browsers (one a thread: Playwright's synchronous API wants its own in each) share the
    # pages, dealt round so long and short chapters mix, and the PDFs come out in about half the time.
    browsers = max(1, min(2, os.cpu_count() or 1, len(pages)))
    if browsers == 1:
        print_share(pages)
    else:
        from concurrent.futures import ThreadPoolExecutor

        with ThreadPoolExecutor(browsers, thread_name_prefix="rumino-pdf") as pool:
            for future in [pool.submit(print_share, pages[i::browsers]) for i in range(browsers)]:
                future.result()
    return [r for page_path in pages for r in printed_by_page.get(page_path, [])]


class _print_session:
    """A loopback server on ``html_dir`` and a headless browser: ``with _print_session(d) as (browser, base)``."""

    def __init__(self, html_dir: Path):
        self.html_dir = Path(html_dir).resolve()

    def __enter__(self):
        import functools
        import http.server
        import threading

        chromium = _chromium()
        try:
            from playwright.sync_api import sync_playwright
        except ImportError:
            raise BookError("printing needs Playwright (it drives the browser): pip install -e '.[test]'") from None

        class Quiet(http.server.SimpleHTTPRequestHandler):
            def log_message(self, *args):
                pass

        self.server = http.server.ThreadingHTTPServer(("127.0.0.1", 0),
                                                      functools.partial(Quiet, directory=str(self.html_dir)))
        threading.Thread(target=self.server.serve_forever, daemon=True).start()
        try:
            self.pw = sync_playwright().start()
            self.browser = self.pw.chromium.launch(executable_path=chromium, args=CHROMIUM_ARGS)
        except Exception:
            self._stop_server()
            raise
        return self.browser, f"http://127.0.0.1:{self.server.server_address[1]}"

    def _stop_server(self):
        self.server.shutdown()
        self.server.server_close()

    def __exit__(self, *exc):
        try:
            self.browser.close()
            self.pw.stop()
        finally:
            self._stop_server()
        return False


def print_pages(html_dir: str | Path, jobs: list[tuple[str, Path, str]], *, timeout_ms: int = 60_000,
                echo=print) -> list[PdfReport]:
    """Print pages of ``html_dir`` that are not chapters (worksheets, quiz keys): ``jobs`` holds
    ``(page path relative to html_dir, PDF to write, footer title)``; formulas are typeset first."""
    import asyncio

    try:
        asyncio.get_running_loop()
    except RuntimeError:
        pass
    else:  # Playwright's sync API needs a thread without an event loop (see print_pdfs)
        from concurrent.futures import ThreadPoolExecutor

        with ThreadPoolExecutor(1, thread_name_prefix="rumino-pdf") as pool:
            return pool.submit(print_pages, html_dir, jobs, timeout_ms=timeout_ms, echo=echo).result()
    reports = []
    with _print_session(Path(html_dir)) as (browser, base):
        tab = ReadingTab(browser)
        for rel, target, title in jobs:
            page = tab.page()
            try:
                page.goto(f"{base}/{rel}", wait_until="load", timeout=timeout_ms)
                page.wait_for_function(_FIGURES_DRAWN, timeout=timeout_ms)
                page.emulate_media(media="print")
                Path(target).parent.mkdir(parents=True, exist_ok=True)
                footer = ('<div style="font:8px sans-serif;width:100%;padding:0 12mm;display:flex;'
                          'justify-content:space-between"><span>' + _escape_html(title)
                          + '</span><span><span class="pageNumber"></span> / <span class="totalPages"></span></span></div>')
                page.pdf(path=str(target), format="A4", print_background=True, display_header_footer=True,
                         header_template="<span></span>", footer_template=footer,
                         margin={"top": "12mm", "bottom": "14mm", "left": "14mm", "right": "14mm"})
            except BaseException:
                tab.discard()
                raise
            target = Path(target)
            reports.append(PdfReport(target.stem, target, _pdf_pages(target), target.stat().st_size))
            echo(f"  {target.stem:<34} {reports[-1].pages:3d} pages {reports[-1].bytes / 1024:8.0f} kB  {target}")
    return reports


class ReadingTab:
    """One browser tab that loads pages one after another, as a reader follows the book's links.

    A tab each (each in a fresh context, with no cache) compiled plotly.js (4.8 MB), MathJax and the
    theme's scripts again for every page; one tab keeps its renderer and cache. A page that fails closes
    the tab (:meth:`discard`), so the next starts in a new one with nothing of the broken page.
    """

    def __init__(self, browser, viewport: dict = PRINT_VIEWPORT):
        self.browser, self.viewport, self._page = browser, viewport, None

    def page(self):
        """The tab, showing pages as on screen again (the last one may have been printed)."""
        if self._page is None:
            self._page = self.browser.new_page(viewport=self.viewport)
            self.opened(self._page)
        else:
            self._page.emulate_media(media="screen")
        return self._page

    def opened(self, page) -> None:
        """Called once for each new tab (a subclass listens to it here)."""

    def discard(self) -> None:
        if self._page is not None:
            try:
                self._page.close()
            finally:
                self._page = None


def _print_editions(page, base: str, page_path: Path, dest: Path, editions, timeout_ms: int) -> list[PdfReport]:
    """Load one chapter's page in ``page`` (a tab) and print it once per edition (``False``: with solutions,
    ``True``: the student's); the teacher's comes first, since taking the solutions out cannot be undone."""
    out = []
    page.goto(f"{base}/{page_path.name}", wait_until="load", timeout=timeout_ms)
    try:
        page.wait_for_function(_FIGURES_DRAWN, timeout=timeout_ms)
    except Exception as err:  # a figure that never draws would print as a blank box
        raise BookError(f"{page_path.name}: its figures or formulas did not draw within "
                        f"{timeout_ms // 1000} s, so it was not printed ({err.__class__.__name__}).") from None
    page.evaluate(_OPEN_DROPDOWNS)
    page.emulate_media(media="print")
    # plotly redraws to the printed width (its figures are responsive)
    page.evaluate("() => { window.dispatchEvent(new Event('resize')); }")
    page.wait_for_timeout(300)
    title = page.title().split(" \u2014 ")[0]
    for student in sorted(editions):  # False (with solutions) before True
        if student:
            page.evaluate(_DROP_SOLUTIONS)
            page.wait_for_timeout(100)
        name = page_path.stem + ("-student" if student else "")
        target = dest / f"{name}.pdf"
        footer = ('<div style="font:8px sans-serif;width:100%;padding:0 12mm;display:flex;'
                  'justify-content:space-between"><span>' + _escape_html(title)
                  + (" · student edition" if student else "")
                  + '</span><span><span class="pageNumber"></span> / <span class="totalPages"></span></span></div>')
        page.pdf(path=str(target), format="A4", print_background=True, display_header_footer=True,
                 header_template="<span></span>", footer_template=footer,
                 margin={"top": "14mm", "bottom": "16mm", "left": "14mm", "right": "14mm"})
        out.append(PdfReport(page_path.stem, target, _pdf_pages(target), target.stat().st_size))
    return out


def _escape_html(text: str) -> str:
    import html

    return html.escape(text)


# ---------------------------------------------------------------------------- handouts of the build

HANDOUT_DIR = "handouts"  # under the site's html folder; the links of _ext/rumino_handouts.py point here
HANDOUT_CHAPTER = re.compile(r"(?!00)\d\d[a-z]?_")  # 01_…, 12_…, 09b_…; not the preface or 00x overviews
# the markers _ext/rumino_handouts.py puts around its box, and the box's links
_HANDOUT_BOX = re.compile(r"<!-- rumino-handouts -->.*?<!-- /rumino-handouts -->", re.S)
_HANDOUT_LINK = re.compile(r'<li><a class="rumino-handout" href="([^"]+)".*?</li>', re.S)


def handout_chapters(paths) -> list[str]:
    """The chapters that get printed handouts: the numbered ones (``01_`` to ``99_``), in order.

    >>> handout_chapters([Path("00_preface.ipynb"), Path("00b_glance.ipynb"), Path("04_odds.ipynb")])
    ['04_odds']
    """
    return [Path(p).stem for p in paths if HANDOUT_CHAPTER.match(Path(p).stem)]


def handouts_unavailable() -> str | None:
    """Why handouts cannot be printed on this machine, or ``None`` when Chromium and Playwright are here."""
    import importlib.util

    if _chromium_path() is None:
        return NO_BROWSER
    if importlib.util.find_spec("playwright") is None:
        return "Playwright, which drives Chromium, is not installed (pip install -e '.[test]')"
    return None


def _set_handout_pages(staged: Path, stems: list[str]) -> None:
    """Tell _ext/rumino_handouts.py (config ``rumino_handouts``) which pages get a "Handouts" box."""
    import yaml

    cfg = _load_yaml(staged / "_config.yml")
    cfg.setdefault("sphinx", {}).setdefault("config", {})["rumino_handouts"] = list(stems)
    (staged / "_config.yml").write_text(yaml.safe_dump(cfg, sort_keys=False, allow_unicode=True), encoding="utf-8")


def print_handouts(html_dir: Path, stems: list[str], *, student: bool = False,
                   echo=print) -> tuple[list[PdfReport], list[str]]:
    """Print the handouts a built book links into ``<html_dir>/handouts/``; return the PDFs and the failures.

    The teacher's build gets both editions, printed from its own pages (``<stem>.pdf`` with the
    solutions, ``<stem>-student.pdf`` without); the student's build gets the student's PDFs. A
    chapter that does not print is reported, and the link to its missing PDF is taken out of its
    page (:func:`drop_missing_handout_links`), so no page links a PDF that is not there.
    """
    html_dir = Path(html_dir)
    dest = html_dir / HANDOUT_DIR
    editions = 1 if student else 2

    def some(n, word):
        return f"{n} {word}{'s' if n != 1 else ''}"

    echo(f"Printing {some(len(stems) * editions, 'handout PDF')} ({some(len(stems), 'chapter')} \u00d7 "
         f"{some(editions, 'edition')}) with Chromium into {dest} \u2026")
    reports: list[PdfReport] = []
    failed: list[str] = []
    try:  # the teacher's build loads each page once and prints it with, then without, the solutions
        reports = print_pdfs(html_dir, dest, stems, student=student, both_editions=not student, echo=echo,
                             errors=failed)
    except BookError as err:  # Chromium would not start, say
        failed.append(str(err).splitlines()[0])
    drop_missing_handout_links(html_dir, stems)
    return reports, failed


def drop_missing_handout_links(html_dir: Path, stems: list[str]) -> int:
    """Take out of the pages every handout link whose PDF is missing (and a box left empty); return how many.

    >>> import tempfile
    >>> d = Path(tempfile.mkdtemp())
    >>> _ = (d / "01_x.html").write_text('<h1>X</h1><!-- rumino-handouts --><div><ul>'
    ...     '<li><a class="rumino-handout" href="handouts/01_x.pdf">T</a></li></ul></div><!-- /rumino-handouts -->')
    >>> drop_missing_handout_links(d, ["01_x"]), (d / "01_x.html").read_text()
    (1, '<h1>X</h1>')
    """
    import html

    dropped = 0
    for stem in stems:
        page = Path(html_dir) / f"{stem}.html"
        if not page.is_file():
            continue
        text = page.read_text(encoding="utf-8")

        def keep(link, folder=page.parent):
            nonlocal dropped
            if (folder / html.unescape(link.group(1))).is_file():
                return link.group(0)
            dropped += 1
            return ""

        def box(m):
            inner = _HANDOUT_LINK.sub(keep, m.group(0))
            return inner if _HANDOUT_LINK.search(inner) else ""

        new = _HANDOUT_BOX.sub(box, text)
        if new != text:
            page.write_text(new, encoding="utf-8")
    return dropped
