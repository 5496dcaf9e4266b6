"""Build the book: execute every chapter, then turn the executed notebooks into a static HTML site.

This module drives tools (nbclient, Jupyter Book); it holds no rules and no odds.
The book's sources are ``book/`` in the repository: ``_toc.yml`` orders the chapters,
``_config.yml`` configures Jupyter Book (the Sphinx route, which builds offline).

Steps of :func:`build`:

1. copy the sources to a staging folder (``<out>/_staged``), so executed notebooks
   never touch the committed, output-free ones;
2. execute each chapter of the table of contents with nbclient, in order, with a
   progress bar per chapter and the time each one took;
3. run Jupyter Book on the staged folder with execution switched off;
4. put the committed (output-free) notebooks where the pages' download links point.

The student copy (:func:`student_notebook`) drops the cells of the solutions, which are
tagged ``solution`` (code) or open/close a ``solution-start``/``solution-end`` block.

>>> nb = {"cells": [{"cell_type": "code", "metadata": {"tags": ["solution"]}, "source": "x = 1"},
...                  {"cell_type": "markdown", "metadata": {}, "source": "Exercise 1"}]}
>>> [c["source"] for c in student_notebook(nb)["cells"]]
['Exercise 1']
"""

from __future__ import annotations

import copy
import json
import re
import shutil
import subprocess
import sys
import time
from dataclasses import dataclass, field
from pathlib import Path

from .errors import RuminoError

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
    execute_seconds: float = 0.0
    sphinx_seconds: float = 0.0
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


def chapters(book: str | Path | None = None) -> list[Path]:
    """The notebooks of the table of contents (``_toc.yml``), in reading order.

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
            out.append(path)
        elif not (root / f"{name}.md").is_file():
            raise BookError(f"_toc.yml lists {name!r} but {path} does not exist.")
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
    for path in chapters(root):
        nb = student_notebook(read_notebook(path))
        target = dest / path.name
        nbformat.write(nb, str(target))
        written.append(target)
    shutil.copy2(root / "bookutils.py", dest / "bookutils.py")
    return written


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

    def done(cell, cell_index, **_):
        if bar is not None and cell.cell_type == "code":
            bar.update(1)

    # store_widget_state=False: the static pages drop widget views anyway (each live cell carries its
    # own static HTML), and a FigureWidget's saved state would embed plotly.js again in every page
    client = NotebookClient(nb, timeout=timeout, kernel_name="python3", allow_errors=False, store_widget_state=False,
                            resources={"metadata": {"path": str(cwd)}}, on_cell_complete=done,
                            # the kernel's own start-up warnings would break the progress bars
                            extra_arguments=["--IPKernelApp.log_level=ERROR"])
    start = time.perf_counter()
    error = None
    try:
        client.execute()
    except CellExecutionError as err:
        error = _ANSI.sub("", str(err))  # tracebacks come coloured for a terminal
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
    if student:
        sphinx_cfg["hide_solutions"] = True
    import yaml

    (staged / "_config.yml").write_text(yaml.safe_dump(cfg, sort_keys=False, allow_unicode=True), encoding="utf-8")


def build(book: str | Path | None = None, out: str | Path | None = None, *, student: bool = False,
          timeout: int = 300, progress: bool = True, echo=print) -> BuildReport:
    """Execute every chapter and build the HTML book; return where it is and how long it took.

    ``out`` defaults to ``book/_build`` (``book/_build/student`` with ``student=True``);
    the site is ``<out>/html`` and its front page ``<out>/html/index.html``.
    """
    import nbformat

    t0 = time.perf_counter()
    root = find_book(book)
    out = Path(out) if out is not None else root / "_build" / ("student" if student else "")
    out = out.resolve()
    staged = out / STAGED
    _stage(root, staged, student=student)
    report = BuildReport(index=out / "html" / "index.html", html_dir=out / "html")

    paths = chapters(root)
    echo(f"Executing {len(paths)} chapters of {root} …")
    for i, path in enumerate(paths, 1):
        nb, run = execute_chapter(staged / path.name, cwd=staged, timeout=timeout, progress=progress,
                                  label=f"[{i}/{len(paths)}] {path.stem}")
        report.chapters.append(run)
        if run.error:
            raise BookError(f"chapter {path.name} failed while executing (nothing was built):\n{run.error}")
        if student:  # run the teacher's notebook (solutions too), then show the student only the rest
            nb = student_notebook(nb, clear_outputs=False)
        nbformat.write(nb, str(staged / path.name))
        echo(f"  {path.stem:<34} {run.seconds:6.1f} s  ({run.cells} code cells)")
    report.execute_seconds = sum(r.seconds for r in report.chapters)

    echo("Building the HTML with Jupyter Book …")
    t1 = time.perf_counter()
    html_dir = out / "html"
    if html_dir.exists():
        shutil.rmtree(html_dir)
    cmd = [sys.executable, "-c", "from jupyter_book.cli.main import main; main()", "build", str(staged), "--path-output", str(out),
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
    report.total_seconds = time.perf_counter() - t0
    return report


def format_report(report: BuildReport) -> str:
    lines = ["chapter                              seconds"]
    lines += [f"  {r.name:<34} {r.seconds:7.1f}" for r in report.chapters]
    lines.append(f"  {'(all chapters)':<34} {report.execute_seconds:7.1f}")
    lines.append(f"  {'(Jupyter Book / Sphinx)':<34} {report.sphinx_seconds:7.1f}")
    lines.append(f"  {'(total)':<34} {report.total_seconds:7.1f}")
    return "\n".join(lines)


def notebook_outputs(path: Path) -> list[int]:
    """Indexes of the code cells of ``path`` that carry outputs or an execution count."""
    nb = json.loads(Path(path).read_text(encoding="utf-8"))
    return [i for i, c in enumerate(nb["cells"])
            if c.get("cell_type") == "code" and (c.get("outputs") or c.get("execution_count") is not None)]
