"""``rumino book build|serve|student`` and ``rumino lab``: the book, static and live.

* ``rumino book build`` executes every chapter (a progress bar per chapter), builds the
  HTML into ``book/_build/html`` and prints the path of its ``index.html``;
  ``--student`` builds the student copy (solutions and lesson plans removed) into
  ``book/_build/student/html``.
  Each numbered chapter is then printed to PDF handouts in ``html/handouts/``, linked from its
  page (``--no-handouts`` skips them).
* ``rumino book serve`` serves the built HTML on 127.0.0.1 (the book also opens from disk).
* ``rumino book pdf [CHAPTER...] [--student]`` prints chapters of the built book to one
  PDF each (``book/_build/pdf/``) through Chromium, Chrome or Edge: a handout per chapter, and with
  ``--student`` the edition without solutions; ``--worksheets`` prints each lesson's worksheet and
  quiz key (:mod:`rumino.cli.worksheets`).
* ``rumino book student DIR`` writes the chapters without their solution cells into DIR.
* the teacher's kit: ``rumino book slides`` (reveal.js decks, :mod:`rumino.cli.slides`),
  ``rumino book assignments`` (an nbgrader course, :mod:`rumino.cli.assignments`) and
  ``rumino book kit`` (all of it, both editions included, :mod:`rumino.cli.kit`).
* ``rumino lab`` opens JupyterLab on the book's folder, where the widgets are live.

>>> from rumino.cli import build_parser
>>> args = build_parser().parse_args(["book", "serve", "--port", "0"])
>>> args.port, args.book_command
(0, 'serve')
"""

from __future__ import annotations

import functools
import http.server
import os
import shutil
import sys
from pathlib import Path

from rumino.cli import CommandError, check_range
from rumino.cli.inputs import in_folder, out_folder
from rumino.cli.assignments import add_to as register_assignments
from rumino.cli.kit import add_to as register_kit
from rumino.cli.bookbuild import (NO_BROWSER, BookError, _chromium_path, build, chapter_pages, check_build_out,
                                  find_book, format_report, print_pdfs, write_student_copy)

HOST = "127.0.0.1"  # only ever serve on the loopback address


def _html_dir(args) -> Path:
    if args.dir is not None:  # an empty --dir served the default build instead
        if not args.dir.strip():
            raise CommandError(f"--dir is {args.dir!r}: give the folder that holds the built HTML.")
        return in_folder("--dir", args.dir)
    return find_book(args.book) / "_build" / ("student/html" if getattr(args, "student", False) else "html")


MAX_CELL_SECONDS = 86_400  # a day for one cell: a larger timeout is none


def run_build(args) -> int:
    # 0 and -1 started a whole build (nbclient reads them as "no timeout")
    check_range("--timeout", args.timeout, 1, MAX_CELL_SECONDS, "seconds one cell may take")
    if args.out is not None:
        out_folder("--out", args.out)
    root = find_book(args.book)  # no book there: bad input (exit 2); a chapter that fails: a failed build (exit 1)
    check_build_out(Path(args.out) if args.out is not None else root / "_build", default=args.out is None)
    try:
        report = build(args.book, args.out, student=args.student, timeout=args.timeout,
                       progress=not args.quiet, handouts=not args.no_handouts)
    except BookError as err:
        print(f"rumino book build: {err}", file=sys.stderr)
        return 1
    print(format_report(report))
    print(report.index)
    return 0


def make_server(directory: Path, port: int = 8000) -> http.server.ThreadingHTTPServer:
    """An HTTP server for ``directory`` bound to 127.0.0.1 (``port=0`` picks a free port)."""
    handler = functools.partial(_QuietHandler, directory=str(directory))
    return http.server.ThreadingHTTPServer((HOST, port), handler)


class _QuietHandler(http.server.SimpleHTTPRequestHandler):
    def log_message(self, fmt, *args):  # one line per request is noise for a reader
        pass


def run_serve(args) -> int:
    check_range("--port", args.port, 0, 65535, "a TCP port; 0 picks a free one")
    directory = _html_dir(args)
    if not (directory / "index.html").is_file():
        raise CommandError(f"{directory} holds no built book (no index.html): run `rumino book build` first.")
    server = make_server(directory, args.port)
    host, port = server.server_address[:2]
    print(f"Serving {directory} at http://{host}:{port}/ (Ctrl-C stops)", flush=True)
    try:
        server.serve_forever()  # until Ctrl-C: the command then says "interrupted" (exit code 130), as every command
    finally:
        server.server_close()
    return 0


def run_pdf(args) -> int:
    if args.out is not None:
        out_folder("--out", args.out)
    if getattr(args, "worksheets", False):
        return run_worksheets(args)
    directory = _html_dir(args)
    if args.student and not args.dir and not (directory / "index.html").is_file():
        directory = find_book(args.book) / "_build" / "html"  # the teacher's pages, solutions taken out
    if not (directory / "index.html").is_file():
        raise CommandError(f"{directory} holds no built book (no index.html): run `rumino book build` first.")
    pages = chapter_pages(directory, args.chapters)  # a chapter that does not exist is bad input (exit 2)
    if _chromium_path() is None:  # nothing to print with: say so, and how to print from a browser instead
        print(f"rumino book pdf: {NO_BROWSER} (the pages are {directory}/{pages[0].name} and the others).",
              file=sys.stderr)
        return 1
    out = Path(args.out) if args.out else find_book(args.book) / "_build" / "pdf"
    edition = "student edition, without solutions" if args.student else "with solutions"
    print(f"Printing {directory} to {out} ({edition}) …", flush=True)
    try:
        reports = print_pdfs(directory, out, args.chapters, student=args.student)
    except BookError as err:
        print(f"rumino book pdf: {err}", file=sys.stderr)
        return 1
    total = sum(r.bytes for r in reports)
    print(f"{len(reports)} PDF{'s' if len(reports) != 1 else ''}, {sum(r.pages for r in reports)} pages, "
          f"{total / 1024:,.0f} kB in {out}")
    return 0


def run_worksheets(args) -> int:
    """``rumino book pdf --worksheets``: every lesson's worksheet and quiz key (rumino/cli/worksheets.py)."""
    from rumino.cli.worksheets import lessons_wanted, write_worksheets

    build = Path(args.dir).parent if args.dir else find_book(args.book) / "_build"
    lessons_wanted(args.chapters)  # an unknown lesson is bad input (exit 2)
    if _chromium_path() is None:
        print(f"rumino book pdf: {NO_BROWSER}.", file=sys.stderr)
        return 1
    out = (Path(args.out) if args.out else find_book(args.book) / "_build" / "pdf") / "worksheets"
    print(f"Writing the worksheets of {build} to {out} …", flush=True)
    try:
        pdfs = write_worksheets(build, out, args.chapters)
    except BookError as err:
        print(f"rumino book pdf: {err}", file=sys.stderr)
        return 1
    sheets = sum(1 for p in pdfs if p.parent.name != "keys")
    keys = len(pdfs) - sheets
    print(f"{len(pdfs)} PDFs ({sheets} worksheet{'s' if sheets != 1 else ''}, {keys} quiz "
          f"key{'s' if keys != 1 else ''} for the teacher) in {out}")
    return 0


def run_student(args) -> int:
    out_folder("DEST", args.dest)
    written = write_student_copy(args.dest, args.book)
    for path in written:
        print(path)
    return 0


def run_lab(args) -> int:
    check_range("--port", args.port, 1, 65535, "a TCP port")
    root = find_book(args.book)
    if shutil.which("jupyter-lab") is None and shutil.which("jupyter") is None:
        raise CommandError("JupyterLab is not installed: pip install -e '.[book]'.")
    cmd = [sys.executable, "-m", "jupyterlab", f"--ServerApp.root_dir={root}", f"--ServerApp.ip={HOST}",
           f"--ServerApp.port={args.port}"]
    if args.no_browser:
        cmd.append("--no-browser")
    cmd += args.option  # passed to JupyterLab as given
    if hasattr(os, "geteuid") and os.geteuid() == 0:
        cmd.append("--allow-root")  # JupyterLab refuses root without it (e.g. in containers)
    print("Starting JupyterLab on", root, flush=True)
    # replace this process with JupyterLab, so Ctrl-C or a signal reaches the server itself
    os.execv(sys.executable, cmd)
    return 0  # pragma: no cover - execv does not return


def register(sub) -> None:
    book = sub.add_parser("book", help="build or serve the illustrated book",
                          description="Build the book (execute every chapter, then make the HTML), serve the "
                                      "built HTML on 127.0.0.1, write the student copy of the chapters, or make "
                                      "the teacher's kit: handouts, slides, graded assignments.")
    book.add_argument("--book", default=None, help="the book's folder (default: ./book or the repository's book/)")
    bsub = book.add_subparsers(dest="book_command", metavar="ACTION")
    bsub.required = True

    b = bsub.add_parser("build", help="execute every chapter and build the HTML",
                        description="Execute every chapter (showing progress and each chapter's time), build the "
                                    "HTML into book/_build/html and print the path of its index.html.")
    b.add_argument("--out", default=None, help="output folder (default: book/_build, or book/_build/student)")
    b.add_argument("--student", action="store_true", help="build the student copy: solutions removed")
    b.add_argument("--timeout", type=int, default=300, help="seconds one cell may take (default 300)")
    b.add_argument("--quiet", action="store_true", help="no progress bars")
    b.add_argument("--no-handouts", action="store_true",
                   help="print no PDF handouts of the chapters (and link none from their pages)")
    b.set_defaults(run=run_build)

    s = bsub.add_parser("serve", help="serve the built HTML on 127.0.0.1",
                        description="Serve the built book on http://127.0.0.1:PORT/ until Ctrl-C.")
    s.add_argument("--port", type=int, default=8000, help="port (default 8000; 0 picks a free one)")
    s.add_argument("--dir", default=None, help="the HTML folder (default: book/_build/html)")
    s.add_argument("--student", action="store_true", help="serve the student build")
    s.set_defaults(run=run_serve)

    pdf = bsub.add_parser("pdf", help="print chapters of the built book to PDF handouts, or the worksheets",
                          description="Print each chapter of the built book (or the CHAPTERs named) to its own "
                                      "A4 PDF through Chromium, Chrome or Edge: figures drawn, navigation hidden, "
                                      "hints and solutions open. --student leaves the solutions out; --worksheets "
                                      "prints each lesson's worksheet and its quiz key instead. Nothing is "
                                      "downloaded; run `rumino book build` first. Without a browser, open a page "
                                      "and print it from the browser (a student page prints without solutions).")
    pdf.add_argument("chapters", nargs="*", metavar="CHAPTER",
                     help="chapters to print, by number (4) or name (04_odds_of_the_deal); default: all")
    pdf.add_argument("--student", action="store_true",
                     help="the student edition: solutions left out (files named CHAPTER-student.pdf)")
    pdf.add_argument("--dir", default=None,
                     help="the built HTML folder (default: book/_build/html, or the student build with --student)")
    pdf.add_argument("--worksheets", action="store_true",
                     help="print each lesson's worksheet (no code, room to write) and its quiz key, into "
                          "OUT/worksheets/ and OUT/worksheets/keys/; CHAPTER picks lessons (00 for Start here)")
    pdf.add_argument("--out", default=None, help="folder for the PDFs (default: book/_build/pdf)")
    pdf.set_defaults(run=run_pdf)
    from rumino.cli.slides import add_to as add_slides

    add_slides(bsub)  # `rumino book slides`: rumino/cli/slides.py

    st = bsub.add_parser("student", help="write the chapters without their solution cells",
                         description="Write every chapter without its solution cells (and without outputs) "
                                     "into DEST, with the helper module they import: the copy to hand out.")
    st.add_argument("dest", help="folder to write the student notebooks into")
    st.set_defaults(run=run_student)
    register_assignments(bsub)  # rumino book assignments
    register_kit(bsub)  # rumino book kit: all of the teacher's kit at once

    lab = sub.add_parser("lab", help="open JupyterLab on the book (live widgets)",
                         description="Start JupyterLab on 127.0.0.1 with the book's folder as its root.")
    lab.add_argument("--book", default=None, help="the book's folder (default: ./book or the repository's book/)")
    lab.add_argument("--port", type=int, default=8888, help="port (default 8888)")
    lab.add_argument("--no-browser", action="store_true", help="do not open a browser")
    lab.add_argument("--option", action="append", default=[], metavar="OPT",
                     help="an option for JupyterLab itself, repeatable (e.g. --option=--ServerApp.token=TOKEN)")
    lab.set_defaults(run=run_lab)
