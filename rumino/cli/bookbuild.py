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
(:func:`is_teacher_page`).

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

from rumino.errors import RuminoError
from rumino.render.plotly_start import SPHINX_START, defer_iri_grammar

defer_iri_grammar()  # nbformat is imported below: 2.5 s of CPU less for every book build

SOLUTION_TAG = "solution"
_ANSI = re.compile(r"\x1b\[[0-9;]*m")
STAGED = "_staged"
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
    candidates = [Path(book)] if book is not None else [Path.cwd() / "book", Path(__file__).resolve().parents[1] / "book"]
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
    """A cell that belongs only to the teacher's copy."""
    tags = cell.get("metadata", {}).get("tags", [])
    if SOLUTION_TAG in tags:
        return True
    src = cell.get("source", "")
    src = "".join(src) if isinstance(src, list) else src
    return cell.get("cell_type") == "markdown" and ("{solution-start}" in src or "{solution-end}" in src
                                                    or "{solution}" in src)


def student_notebook(nb, *, clear_outputs: bool = True):
    """A copy of ``nb`` without its solution cells (and, unless ``clear_outputs=False``, without outputs)."""
    out = copy.deepcopy(nb)
    out["cells"] = [c for c in out["cells"] if not is_solution_cell(c)]
    for c in out["cells"] if clear_outputs else ():
        if c.get("cell_type") == "code":
            c["outputs"] = []
            c["execution_count"] = None
    return out


def write_student_copy(dest: str | Path, book: str | Path | None = None) -> list[Path]:
    """Write every chapter without its solutions into ``dest`` (with the files the chapters import)."""
    import nbformat

    root = find_book(book)
    dest = Path(dest)
    dest.mkdir(parents=True, exist_ok=True)
    written = []
    for path in chapters(root, student=True):
        nb = student_notebook(read_notebook(path))
        target = dest / path.name
        nbformat.write(nb, str(target))
        written.append(target)
    shutil.copy2(root / "bookutils.py", dest / "bookutils.py")
    return written


KERNEL_START_ATTEMPTS = 3  # a kernel that dies before running a cell is started again (a port race)


def execute_chapter(path: Path, *, cwd: Path, timeout: int = 300, progress: bool = True,
                    label: str = "") -> tuple[object, ChapterRun]:
    """Execute one notebook in ``cwd`` with nbclient; return the executed notebook and its timing."""
    from nbclient import NotebookClient
    from nbclient.exceptions import CellExecutionError

    nb = read_notebook(path)
    n_code = sum(1 for c in nb.cells if c.cell_type == "code")
    bar = None
    if progress:
        from tqdm.auto import tqdm

        bar = tqdm(total=n_code, desc=label or path.stem, unit="cell", leave=True, file=sys.stderr,
                   bar_format="{desc:<38} {bar:20} {n_fmt}/{total_fmt} cells [{elapsed}]")

    cells_done = 0

    def done(cell, cell_index, **_):
        nonlocal cells_done
        cells_done += 1
        if bar is not None and cell.cell_type == "code":
            bar.update(1)

    start = time.perf_counter()
    error = None
    try:
        for attempt in range(1, KERNEL_START_ATTEMPTS + 1):
            # store_widget_state=False: the static pages drop widget views anyway (each live cell carries
            # its own static HTML), and a FigureWidget's saved state would embed plotly.js again in every page
            client = NotebookClient(nb, timeout=timeout, kernel_name="python3", allow_errors=False,
                                    store_widget_state=False, resources={"metadata": {"path": str(cwd)}},
                                    on_cell_complete=done,
                                    # the kernel's own start-up warnings would break the progress bars
                                    extra_arguments=["--IPKernelApp.log_level=ERROR"])
            try:
                client.execute()
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
    finally:
        if bar is not None:
            bar.close()
    return nb, ChapterRun(path.stem, time.perf_counter() - start, n_code, error)


# ---------------------------------------------------------------------------- the build


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


def _run_chapters(jobs: list, workers: int, progress: bool):
    """``(executed notebook, ChapterRun)`` per job, in the order of ``jobs``."""
    if workers == 1:
        for path, cwd, timeout, label in jobs:
            yield execute_chapter(path, cwd=cwd, timeout=timeout, progress=progress, label=label)
        return
    from concurrent.futures import ProcessPoolExecutor

    bar = None
    if progress:
        from tqdm.auto import tqdm

        bar = tqdm(total=len(jobs), desc="chapters", unit="chapter", file=sys.stderr)
    with ProcessPoolExecutor(workers) as pool:
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
    path, cwd, timeout, label = job
    return execute_chapter(path, cwd=cwd, timeout=timeout, progress=False, label=label)


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
    import nbformat

    t0 = time.perf_counter()
    root = find_book(book)
    out = Path(out) if out is not None else root / "_build" / ("student" if student else "")
    out = out.resolve()
    staged = out / STAGED
    _stage(root, staged, student=student)
    report = BuildReport(index=out / "html" / "index.html", html_dir=out / "html")

    paths = chapters(root, student=student)
    workers = default_workers() if workers is None else workers
    if isinstance(workers, bool) or not isinstance(workers, int) or workers < 1:
        raise BookError(f"workers is {workers!r}: it must be a whole number of at least 1.")
    workers = min(workers, len(paths)) or 1
    echo(f"Executing {len(paths)} chapters of {root} ({workers} at a time) …")
    jobs = [(staged / path.name, staged, timeout, f"[{i}/{len(paths)}] {path.stem}")
            for i, path in enumerate(paths, 1)]
    t_exec = time.perf_counter()
    for path, (nb, run) in zip(paths, _run_chapters(jobs, workers, progress)):
        report.chapters.append(run)
        if run.error:
            raise BookError(f"chapter {path.name} failed while executing (nothing was built):\n{run.error}")
        if student:  # run the teacher's notebook (solutions too), then show the student only the rest
            nb = student_notebook(nb, clear_outputs=False)
        nbformat.write(nb, str(staged / path.name))
        echo(f"  {path.stem:<34} {run.seconds:6.1f} s  ({run.cells} code cells)")
    report.execute_seconds = sum(r.seconds for r in report.chapters)
    report.execute_wall_seconds = time.perf_counter() - t_exec

    # decided before Sphinx runs: the pages link only the handouts that are going to be printed
    handout_stems = handout_chapters(paths) if handouts else []
    if handout_stems and (why := handouts_unavailable()):
        report.handouts_note = f"handouts not printed: {why}"
        echo(f"Note: {report.handouts_note}; the chapter pages link none.")
        handout_stems = []
    _set_handout_pages(staged, handout_stems)

    echo("Building the HTML with Jupyter Book …")
    t1 = time.perf_counter()
    html_dir = out / "html"
    if html_dir.exists():
        shutil.rmtree(html_dir)
    cmd = [sys.executable, "-c", SPHINX_START, "build", str(staged), "--path-output", str(out),
           "--builder", "html", "--keep-going"]
    proc = subprocess.run(cmd, capture_output=True, text=True)
    (out / "sphinx.log").write_text(proc.stdout + proc.stderr, encoding="utf-8")
    built = out / "_build" / "html"
    if proc.returncode != 0 or not (built / "index.html").is_file():
        tail = "\n".join((proc.stdout + proc.stderr).splitlines()[-30:])
        raise BookError(f"Jupyter Book failed (exit {proc.returncode}); the full log is {out / 'sphinx.log'}:\n{tail}")
    shutil.move(str(built), str(html_dir))
    shutil.rmtree(out / "_build", ignore_errors=True)
    report.sphinx_seconds = time.perf_counter() - t1

    # the download links point at _sources/: put the output-free notebooks there
    sources = html_dir / "_sources"
    sources.mkdir(exist_ok=True)
    for path in paths:
        nb = read_notebook(path)
        if student:
            nb = student_notebook(nb)
        nbformat.write(nb, str(sources / path.name))

    if handout_stems:
        t2 = time.perf_counter()
        report.handouts, failed = print_handouts(html_dir, handout_stems, student=student, echo=echo)
        report.handouts_seconds = time.perf_counter() - t2
        if failed:
            report.handouts_note = f"{len(failed)} handout(s) not printed, their links taken out: " + "; ".join(failed)
            echo(f"Note: {report.handouts_note}")
    report.total_seconds = time.perf_counter() - t0
    return report


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
        number = f"{int(key):02d}" if key.isdigit() else key  # 4, 04, or a page's own prefix (00a)
        hits = [p for p in pages if p.stem == key or p.stem.split("_")[0] == number]
        if not hits:
            names = ", ".join(p.stem for p in pages)
            raise BookError(f"no chapter {w!r} in {html_dir}: the chapters are {names} (or their numbers).")
        out += [p for p in hits if p not in out]
    return out


def _chromium_path() -> str | None:
    return shutil.which("chromium") or shutil.which("chromium-browser")


def _chromium() -> str:
    path = _chromium_path()
    if not path:
        raise BookError("Debian's Chromium prints the handouts and was not found: apt-get install chromium.")
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
    """Print chapters of a built book to one PDF each, through Debian's Chromium (no LaTeX).

    Each page is opened from a loopback server, its figures are left to draw (plotly makes its SVG,
    MathJax its formulas), every dropdown is opened, and the page is printed with the print
    stylesheet (navigation hidden, see ``_ext/rumino_book.py``) to ``dest/<chapter>.pdf``. With
    ``student=True`` solutions are taken out first and the files are ``<chapter>-student.pdf``.
    With ``both_editions=True`` each page is loaded once and printed twice, with the solutions and
    then without (a page's loading and drawing is most of the time it takes).
    A chapter that cannot be printed stops the printing with a :class:`BookError`, or, when an
    ``errors`` list is given, is added to it (``"<chapter>: why"``) and the next chapter is printed.
    """
    import functools
    import http.server
    import threading

    html_dir = Path(html_dir).resolve()
    pages = chapter_pages(html_dir, chapters_wanted)
    chromium = _chromium()
    try:
        from playwright.sync_api import sync_playwright
    except ImportError:
        raise BookError("printing needs Playwright (it drives Chromium): pip install -e '.[test]'") from None
    dest = Path(dest)
    dest.mkdir(parents=True, exist_ok=True)

    class Quiet(http.server.SimpleHTTPRequestHandler):
        def log_message(self, *args):
            pass

    server = http.server.ThreadingHTTPServer(("127.0.0.1", 0), functools.partial(Quiet, directory=str(html_dir)))
    threading.Thread(target=server.serve_forever, daemon=True).start()
    base = f"http://127.0.0.1:{server.server_address[1]}"
    reports = []
    try:
        with sync_playwright() as pw:
            browser = pw.chromium.launch(executable_path=chromium, args=CHROMIUM_ARGS)
            try:
                for page_path in pages:
                    editions = (False, True) if both_editions else (student,)
                    try:
                        printed = _print_editions(browser, base, page_path, dest, editions, timeout_ms)
                    except Exception as err:  # noqa: BLE001 - a page that would not print, with a list to note it in
                        if errors is None:
                            raise
                        why = str(err).splitlines()[0] if str(err) else err.__class__.__name__
                        errors.append(f"{page_path.stem}: {why}")
                        continue
                    reports += printed
                    for r in printed:
                        echo(f"  {r.path.stem:<34} {r.pages:3d} pages {r.bytes / 1024:8.0f} kB  {r.path}")
            finally:
                browser.close()
    finally:
        server.shutdown()
        server.server_close()
    return reports


def _print_editions(browser, base: str, page_path: Path, dest: Path, editions, timeout_ms: int) -> list[PdfReport]:
    """Load one chapter's page and print it once per edition (``False``: with solutions, ``True``:
    the student's); the teacher's comes first, since taking the solutions out cannot be undone."""
    page = browser.new_page(viewport=PRINT_VIEWPORT)
    out = []
    try:
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
    finally:
        page.close()
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
        return "Debian's Chromium was not found (apt-get install chromium)"
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
