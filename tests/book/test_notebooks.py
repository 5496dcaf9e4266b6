"""The book: chapters committed without outputs, every chapter runs (nbval), the built HTML works in a browser.

* fast checks on the committed notebooks: no outputs, every chapter in the table of
  contents, every figure cell has a numbered caption, solutions are tagged and the
  student copy drops them;
* every chapter executed once, by the build the other book tests read (``built_book``):
  every cell runs and every assert in it holds; ``pytest --nbval-lax book/``, the reader's
  command, collects every cell of every chapter;
* the built book, served on 127.0.0.1 and driven in Debian's Chromium (each page opened once for all
  the book's browser checks: book_pages.py): every chapter page draws its figures, a static plotly slider changes its figure, the download link
  gives the output-free notebook, search finds "rumino", and nothing is fetched from
  the network.
"""

from __future__ import annotations

import json
import os
import re
import subprocess
import sys
import threading
from pathlib import Path
from urllib.request import urlopen

import book_pages
import pytest

from rumino.cli import bookbuild
from rumino.cli import main

ROOT = Path(__file__).resolve().parents[2]
BOOK = ROOT / "book"
NOTEBOOKS = sorted(BOOK.glob("*.ipynb"))
CHAPTERS = bookbuild.chapters(BOOK)
CHAPTER_IDS = [p.stem for p in CHAPTERS]


def _cells(path: Path) -> list[dict]:
    return json.loads(path.read_text(encoding="utf-8"))["cells"]


def _src(cell: dict) -> str:
    s = cell.get("source", "")
    return "".join(s) if isinstance(s, list) else s


def _figure_cells(path: Path) -> list[dict]:
    return [c for c in _cells(path) if c["cell_type"] == "code" and "figure" in c.get("metadata", {}).get("mystnb", {})]


# ------------------------------------------------------------------------------------------ committed notebooks


@pytest.mark.parametrize("path", NOTEBOOKS, ids=[p.stem for p in NOTEBOOKS])
def test_committed_notebook_carries_no_outputs(path):
    dirty = bookbuild.notebook_outputs(path)
    assert not dirty, (f"{path.name}: code cells {dirty} carry outputs or execution counts; "
                       f"run `jupyter nbconvert --clear-output --inplace {path}` before committing.")


def test_notebook_output_check_can_fail(tmp_path):
    nb = {"cells": [{"cell_type": "code", "source": "1", "metadata": {}, "execution_count": 1,
                     "outputs": [{"output_type": "execute_result", "data": {"text/plain": "1"}, "metadata": {},
                                  "execution_count": 1}]}],
          "metadata": {}, "nbformat": 4, "nbformat_minor": 5}
    path = tmp_path / "dirty.ipynb"
    path.write_text(json.dumps(nb))
    assert bookbuild.notebook_outputs(path) == [0]


def test_table_of_contents_lists_every_notebook_once():
    assert sorted(p.name for p in CHAPTERS) == sorted(p.name for p in NOTEBOOKS)
    assert len(set(CHAPTERS)) == len(CHAPTERS)


@pytest.mark.parametrize("path", NOTEBOOKS, ids=[p.stem for p in NOTEBOOKS])
def test_chapter_layout(path):
    cells = _cells(path)
    first = cells[0]
    assert first["cell_type"] == "code" and "remove-cell" in first["metadata"].get("tags", []), \
        f"{path.name}: the first cell is the hidden setup cell (tagged remove-cell)"
    assert "bookutils.setup()" in _src(first)
    titles = [c for c in cells if c["cell_type"] == "markdown" and re.match(r"#\s", _src(c))]
    assert len(titles) == 1, f"{path.name}: one '# Title' per chapter"
    for cell in _figure_cells(path):
        fig = cell["metadata"]["mystnb"]["figure"]
        assert fig.get("name", "").startswith("fig-") and len(fig.get("caption", "")) > 20, (path.name, fig)
        # bookutils.show refuses a figure without alt text; make sure figure cells go through it
        assert "show(" in _src(cell) or "live(" in _src(cell), (path.name, _src(cell)[:80])
    names = [c["metadata"]["mystnb"]["figure"]["name"] for c in _figure_cells(path)]
    assert len(names) == len(set(names)), f"{path.name}: figure names repeat: {names}"


@pytest.mark.parametrize("path", NOTEBOOKS, ids=[p.stem for p in NOTEBOOKS])
def test_solutions_are_gated_and_tagged(path):
    """Between ``{solution-start}`` and ``{solution-end}`` every cell is tagged ``solution``."""
    inside = False
    for cell in _cells(path):
        src = _src(cell)
        # the student copy drops these cells whole, so they may hold nothing but the solution
        if "{solution-end}" in src:
            assert re.fullmatch(r"\s*(```+|:::+)\{solution-end\}\s*\1\s*", src), \
                f"{path.name}: a solution-end cell holds only the directive: {src[:80]!r}"
        if "{solution-start}" in src:
            assert "{exercise" not in src and "{solution-end}" not in src, f"{path.name}: {src[:80]!r}"
            assert not inside, f"{path.name}: nested solution-start"
            inside = True
        elif "{solution-end}" in src:
            assert inside, f"{path.name}: solution-end without a start"
            inside = False
        elif inside:  # a paragraph of a solution is tagged too (the student edition once showed two)
            assert "solution" in cell["metadata"].get("tags", []), f"{path.name}: untagged cell in a solution: {src[:60]}"
    assert not inside, f"{path.name}: a solution is never closed"


def test_student_copy_drops_every_solution(tmp_path):
    assert main(["book", "student", str(tmp_path)]) == 0
    total_solutions = 0
    for path in NOTEBOOKS:
        if bookbuild.is_teacher_page(path):  # a lesson plan is not in the student copy at all
            assert not (tmp_path / path.name).exists(), f"{path.name} is for teachers only"
            continue
        teacher = _cells(path)
        student = _cells(tmp_path / path.name)
        n_sol = sum(bookbuild.is_solution_cell(c) for c in teacher)
        total_solutions += n_sol
        assert len(student) == len(teacher) - n_sol
        assert not any(bookbuild.is_solution_cell(c) for c in student)
        assert not any("{solution" in _src(c) for c in student)
    assert (tmp_path / "bookutils.py").is_file()
    assert total_solutions > 0, "the book has exercises with solutions"


# ------------------------------------------------------------------------------------------ the commands


def test_book_serve_refuses_an_unbuilt_book(tmp_path, capsys):
    assert main(["book", "serve", "--dir", str(tmp_path)]) == 2
    assert "rumino book build" in capsys.readouterr().err


def test_book_server_listens_on_loopback_only(tmp_path):
    from rumino.cli.book import make_server

    (tmp_path / "index.html").write_text("<p>rumino</p>")
    server = make_server(tmp_path, 0)
    host, port = server.server_address[:2]
    assert host == "127.0.0.1"
    thread = threading.Thread(target=server.serve_forever, daemon=True)
    thread.start()
    try:
        assert b"rumino" in urlopen(f"http://127.0.0.1:{port}/index.html", timeout=10).read()
    finally:
        server.shutdown()
        server.server_close()


def test_lab_opens_jupyterlab_on_the_book(monkeypatch):
    seen = {}
    monkeypatch.setattr(os, "execv", lambda path, cmd: seen.update(path=path, cmd=cmd))
    assert main(["lab", "--no-browser", "--port", "8899", "--option=--ServerApp.token=t"]) == 0
    cmd = seen["cmd"]
    assert seen["path"] == sys.executable and "--ServerApp.token=t" in cmd
    assert cmd[:3] == [sys.executable, "-m", "jupyterlab"]
    assert f"--ServerApp.root_dir={BOOK}" in cmd and "--ServerApp.ip=127.0.0.1" in cmd and "--no-browser" in cmd


def test_missing_book_is_a_clear_error(tmp_path, capsys):
    assert main(["book", "--book", str(tmp_path), "student", str(tmp_path / "out")]) == 2
    assert "_toc.yml" in capsys.readouterr().err


# ------------------------------------------------------------------------------------------ every chapter runs


@pytest.mark.slow
@pytest.mark.parametrize("path", CHAPTERS, ids=CHAPTER_IDS)
def test_chapter_runs_and_its_asserts_hold(built_book, path):
    """Every cell of the chapter ran and every assert in it held, in the one execution the session
    makes (the build of ``built_book``: CI executes each chapter once, and the pages, the browser and
    the accessibility tests read the outputs of that same run)."""
    runs = {r.name: r for r in built_book.chapters}
    run = runs[path.stem]
    assert run.error is None, f"{path.name} failed while executing:\n{run.error}"
    assert run.cells == sum(1 for c in _cells(path) if c["cell_type"] == "code")


def test_nbval_collects_every_cell_of_every_chapter():
    """``pytest --nbval-lax book/`` (the reader's command, README) reaches each chapter and each of its code
    cells. Collecting runs no kernel; the cells themselves run once, in the build above."""
    cmd = [sys.executable, "-m", "pytest", "--nbval-lax", "--nbval-current-env", "--collect-only", "-q",
           "-p", "no:cacheprovider", "-p", "no:xdist", "-o", "addopts=", "book/"]
    proc = subprocess.run(cmd, cwd=ROOT, capture_output=True, text=True, timeout=300)
    assert proc.returncode == 0, proc.stdout[-2000:] + proc.stderr[-2000:]
    items = [line for line in proc.stdout.splitlines() if "::Cell " in line]
    for path in CHAPTERS:
        code = sum(1 for c in _cells(path) if c["cell_type"] == "code")
        got = sum(1 for line in items if line.startswith(f"book/{path.name}::"))
        assert got == code, f"nbval collects {got} cells of {path.name}, which has {code} code cells"


# ------------------------------------------------------------------------------------------ the built book


# `built_book` (the whole book, built once per test session) lives in conftest.py: the
# accessibility tests (test_book_a11y.py) read the same build.


@pytest.mark.slow
def test_built_book_has_a_page_per_chapter_and_loads_nothing_from_the_network(built_book):
    html = built_book.html_dir
    for path in CHAPTERS:
        page = html / f"{path.stem}.html"
        assert page.is_file(), path.stem
        # plotly.js is served once from _static; no page may carry its own copy (4 MB) again
        assert page.stat().st_size < 1_500_000, f"{page.name} is {page.stat().st_size:,} bytes"
    assert (html / "search.html").is_file() and (html / "searchindex.js").is_file()
    assert (html / "_static" / "rumino" / "plotly.min.js").stat().st_size > 1_000_000
    assert (html / "_static" / "mathjax" / "tex-svg-full.js").is_file()
    external = re.compile(r"<(?:script|link|img|iframe)\b[^>]*?(?:src|href)=[\"'](?:https?:)?//", re.I)
    for page in html.glob("*.html"):
        text = page.read_text(encoding="utf-8")
        hits = external.findall(text)
        assert not hits, f"{page.name} loads from the network: {hits[:3]}"


@pytest.mark.slow
def test_built_book_reports_each_chapter_time(built_book):
    assert [r.name for r in built_book.chapters] == CHAPTER_IDS
    assert all(r.error is None and r.seconds > 0 for r in built_book.chapters)


@pytest.mark.slow
@pytest.mark.browser
@pytest.mark.xdist_group(book_pages.GROUP)
def test_built_book_in_a_real_browser(visited_pages):
    """Every chapter as book_pages.py found it on its one visit of the page."""
    for path in CHAPTERS:
        visit = visited_pages.get(f"{path.stem}.html")
        assert visit is not None, f"the build wrote no {path.stem}.html"
        assert not visit.problem("page", "slider"), visit.problem("page", "slider")
        # the download link gives the chapter's notebook, without outputs
        assert visit.download and visit.download.endswith(path.name), (path.stem, visit.download)
        assert visit.download_has_outputs is False, path.stem
        n_fig = len(_figure_cells(path))
        if n_fig:
            # every figure is drawn (plotly made its SVG), captioned with a number, and labelled
            assert len(visit.plots) >= n_fig, (path.stem, visit.plots)
            assert all(drawn and label for drawn, label in visit.plots), (path.stem, visit.plots)
            numbered = [c for c in visit.captions if re.match(r"Fig\. \d+(\.\d+)*", c.strip())]
            assert len(numbered) >= n_fig, (path.stem, visit.captions)
        # formulas were typeset by the vendored MathJax
        assert visit.typeset or not visit.maths, path.stem
    # a static plotly slider (no kernel) changes its figure
    assert any(visit.slider_moved for visit in visited_pages.values()), "no chapter has a static plotly slider"
    search = visited_pages[book_pages.SEARCH_PAGE]
    assert not search.problem("page"), search.problem("page")
    assert search.search_results >= 3, search.search_results
    offsite = [url for visit in visited_pages.values() for url in visit.offsite]
    assert not offsite, f"the book fetched from the network: {offsite[:5]}"


# ------------------------------------------------------------------------------------------ the build, on a tiny book


def _tiny_book(tmp_path: Path, body_cells: list[dict]) -> Path:
    """A one-page book using the real config, extension and helpers, with the given cells after the setup."""
    import shutil

    book = tmp_path / "tiny"
    book.mkdir()
    for name in ("_config.yml", "bookutils.py"):
        shutil.copy2(BOOK / name, book / name)
    for name in ("_ext",):
        shutil.copytree(BOOK / name, book / name)
    (book / "_toc.yml").write_text("format: jb-book\nroot: page\n")
    setup = {"cell_type": "code", "metadata": {"tags": ["remove-cell"]}, "execution_count": None, "outputs": [],
             "source": "import bookutils; bookutils.setup()"}
    cells = [{"cell_type": "markdown", "metadata": {}, "source": "# Tiny"}, setup, *body_cells]
    for i, cell in enumerate(cells):
        cell["id"] = f"cell-{i}"
    nb = {"cells": cells,
          "metadata": {"kernelspec": {"name": "python3", "display_name": "Python 3", "language": "python"}},
          "nbformat": 4, "nbformat_minor": 5}
    (book / "page.ipynb").write_text(json.dumps(nb))
    return book


def _md(text: str) -> dict:
    return {"cell_type": "markdown", "metadata": {}, "source": text}


def _code(text: str, tags=()) -> dict:
    return {"cell_type": "code", "metadata": {"tags": list(tags)}, "execution_count": None, "outputs": [],
            "source": text}


@pytest.mark.slow
def test_student_build_leaves_solutions_out(tmp_path):
    cells = [_md("```{exercise} Add\n:label: ex-add\nWhat is 41 + 1?\n```"),
             _md("```{solution-start} ex-add\n:class: dropdown\n```\nSECRET-PROSE: add them."),
             _code("secret_answer = 41 + 1\nassert secret_answer == 42\nsecret_answer", tags=["solution"]),
             _md("```{solution-end}\n```"),
             _md("After the exercise.")]
    book = _tiny_book(tmp_path, cells)
    teacher = bookbuild.build(book, tmp_path / "teacher", progress=False, echo=lambda *a: None)
    student = bookbuild.build(book, tmp_path / "student", student=True, progress=False, echo=lambda *a: None)
    t_html = (teacher.html_dir / "page.html").read_text()
    s_html = (student.html_dir / "page.html").read_text()
    for html in (t_html, s_html):
        assert "What is 41 + 1?" in html and "After the exercise." in html
    assert "SECRET-PROSE" in t_html and "secret_answer" in t_html
    assert "SECRET-PROSE" not in s_html and "secret_answer" not in s_html
    downloaded = json.loads((student.html_dir / "_sources" / "page.ipynb").read_text())
    assert not any("secret_answer" in _src(c) or "SECRET-PROSE" in _src(c) for c in downloaded["cells"])


@pytest.mark.slow
def test_a_failing_chapter_stops_the_build_and_names_itself(tmp_path):
    book = _tiny_book(tmp_path, [_code("assert 1 + 1 == 3, 'the arithmetic in this chapter is wrong'")])
    with pytest.raises(bookbuild.BookError, match=r"(?s)page\.ipynb failed.*the arithmetic in this chapter is wrong"):
        bookbuild.build(book, tmp_path / "out", progress=False, echo=lambda *a: None)
    assert not (tmp_path / "out" / "html" / "index.html").exists()
