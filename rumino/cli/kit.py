"""``rumino book kit``: the whole teacher's kit in one command, and how long each part took.

The kit is what :mod:`rumino.cli.book` builds piece by piece, built so that nothing is done twice:

1. both editions of the book (:func:`rumino.cli.bookbuild.build_editions`): every chapter is executed
   once; the student edition takes the executed notebooks without their solutions; the two Jupyter Book
   builds run side by side; each chapter's handouts are printed once, from the teacher's pages (with
   the solutions, then without), and the student's PDFs are copied into the student's site;
2. the graded assignments, an nbgrader course built from the exercises, in a process of its own that
   starts once the chapters have run (its kernels use the core the Jupyter Book builds and the printing
   leave free);
3. a reveal.js slide deck per chapter and for *Start here*, from the teacher's executed chapters;
4. a worksheet per lesson and its quiz key, printed to PDF.

Everything goes under one folder (default ``book/_build/kit``), with ``index.html`` saying what each
part is and which may go to students; the staging folders the builds use are removed at the end::

    kit/index.html
    kit/student/html/index.html      kit/teacher/html/index.html
    kit/worksheets/                  kit/worksheets/keys/
    kit/slides/index.html            kit/assignments/README.md

>>> [name for name, _ in KIT_PARTS]
['teacher edition', 'student edition', 'assignments', 'slides', 'worksheets']
"""

from __future__ import annotations

import argparse
import html
import resource
import shutil
import sys
import time
from pathlib import Path

from rumino.cli import CommandError
from rumino.cli.bookbuild import STAGED, BookError, build_editions, check_build_out, find_book
from rumino.cli.inputs import out_folder

KIT_PARTS = [("teacher edition", "teacher/html/index.html"), ("student edition", "student/html/index.html"),
             ("assignments", "assignments/README.md"), ("slides", "slides/index.html"),
             ("worksheets", "worksheets/index.html")]


def cpu_seconds() -> float:
    """CPU seconds (user and system) of this process and of every process it started and waited for."""
    own, children = resource.getrusage(resource.RUSAGE_SELF), resource.getrusage(resource.RUSAGE_CHILDREN)
    return own.ru_utime + own.ru_stime + children.ru_utime + children.ru_stime


def _write_course(out: str, book: str) -> tuple[list[str], float, float]:
    """The assignments, in a process of their own (see the module's docstring): their lines, seconds and
    CPU seconds (the process's and its kernels')."""
    from rumino.cli.assignments import write_course

    t0, c0 = time.perf_counter(), cpu_seconds()
    lines: list[str] = []
    write_course(Path(out), book=book, progress=lines.append)
    return lines, time.perf_counter() - t0, cpu_seconds() - c0


def build_kit(book=None, out=None, *, echo=print, progress: bool = True, handouts: bool = True,
              workers: int | None = None) -> list[tuple]:
    """Build the kit into ``out``; return ``(part, seconds, where)`` for each part, then
    ``("the whole kit", wall seconds, CPU seconds)``."""
    from concurrent.futures import ProcessPoolExecutor

    from rumino.cli.assignments import check_out
    from rumino.cli.slides import write_decks
    from rumino.cli.worksheets import write_worksheets

    root = find_book(book)
    default = out is None
    out = Path(out) if out is not None else root / "_build" / "kit"
    check_out(out)  # a file, or a place nobody may write: refused before minutes of building
    for edition in ("teacher", "student"):  # and a folder of someone else's there, before the first edition
        check_build_out(out / edition, default=default)
    out.mkdir(parents=True, exist_ok=True)
    t0, cpu0 = time.perf_counter(), cpu_seconds()
    done = []
    pool = ProcessPoolExecutor(1)
    job = {}
    steps = []  # (step, seconds, CPU seconds) of the main line, for the report
    last = [t0, cpu0]

    def mark(step):
        now, cpu = time.perf_counter(), cpu_seconds()
        steps.append((step, now - last[0], cpu - last[1]))
        last[:] = [now, cpu]

    def start_assignments():
        echo("== assignments (in the background, while the HTML is built)")
        job["t"] = time.perf_counter()
        job["future"] = pool.submit(_write_course, str(out / "assignments"), str(root))

    try:
        echo("== both editions of the book")
        teacher, student = build_editions(root, out / "teacher", out / "student", progress=progress, echo=echo,
                                          handouts=handouts, workers=workers, while_building=start_assignments,
                                          mark=mark, default=default)
        done.append(("teacher edition", teacher.total_seconds, out / KIT_PARTS[0][1]))
        done.append(("student edition", student.total_seconds, out / KIT_PARTS[1][1]))
        for name, where, run in (("slides", KIT_PARTS[3][1], lambda: write_decks(out / "teacher", out / "slides",
                                                                                  echo=echo)),
                                 ("worksheets", KIT_PARTS[4][1],
                                  lambda: write_worksheets(out / "teacher", out / "worksheets", echo=echo,
                                                           pdf=handouts))):
            echo(f"== {name}")
            t = time.perf_counter()
            run()
            done.append((name, time.perf_counter() - t, out / where))
            mark(name)
        lines, seconds, cpu = job["future"].result()
        mark("waiting for the assignments")
        steps.append(("assignments (their own process, alongside)", seconds, cpu))
        echo("== assignments (done)")
        for line in lines:
            echo(line)
        done.insert(2, ("assignments", seconds, out / KIT_PARTS[2][1]))
    finally:
        pool.shutdown(cancel_futures=True)
    for edition in ("teacher", "student"):  # the builds' working copies: not part of the kit
        shutil.rmtree(out / edition / STAGED, ignore_errors=True)
    (out / "index.html").write_text(kit_index(out), encoding="utf-8")
    for step, sec, cpu in steps:
        echo(f"  {step:<46} {sec:7.1f} s  {cpu:7.1f} CPU s")
    done.append(("the whole kit", time.perf_counter() - t0, cpu_seconds() - cpu0))
    return done


def _minutes(s: float) -> str:
    return f"{int(s // 60):2d} min {int(round(s % 60)):02d} s"


def format_kit(done: list[tuple]) -> str:
    """The kit's parts, their times and where they are; the whole kit's clock time and CPU seconds (the
    parts overlap: the assignments run while the HTML is built).

    >>> print(format_kit([("slides", 61.0, Path("k/slides/index.html")), ("the whole kit", 300.0, 512.0)]))
    slides                1 min 01 s  k/slides/index.html
    the whole kit         5 min 00 s  (512 CPU seconds, 1.7 cores busy on average)
    """
    lines = []
    for name, sec, where in done:
        if name == "the whole kit":
            lines.append(f"{name:<20} {_minutes(sec)}  ({where:,.0f} CPU seconds, {where / max(sec, 1e-9):.1f} "
                         f"cores busy on average)")
        else:
            lines.append(f"{name:<20} {_minutes(sec)}  {where}")
    return "\n".join(lines)


# ---------------------------------------------------------------------------- the kit's front page

ROWS = [
    ("student/html/index.html", "The student edition of the book", "Yes",
     "The chapters without solutions and without the lesson plans; each chapter page links its student handout."),
    ("student/html/handouts/", "Student handouts (PDF, one a chapter)", "Yes",
     "Each chapter printed without its solutions, every hint open."),
    ("worksheets/", "Worksheets (PDF, one a lesson)", "Yes",
     "Two to four pages without code: the activity with real cards, a tally sheet, the review questions and "
     "the quiz, with room to write."),
    ("slides/index.html", "Slide decks (one a chapter, and Start here)", "Show them; do not hand out the files",
     "For the projector; the speaker notes (S in a deck) hold the lesson plan's notes and answers."),
    ("teacher/html/index.html", "The teacher edition of the book", "No",
     "Every solution open, the lesson plans with the answers to the review questions, the class experiment."),
    ("teacher/html/handouts/", "Teacher handouts (PDF, one a chapter)", "No",
     "The files without -student in their names hold the solutions."),
    ("worksheets/keys/", "Quiz keys (PDF, one a lesson)", "No", "The answers to each worksheet's questions."),
    ("assignments/README.md", "Graded assignments (an nbgrader course)", "No",
     "The source holds the solutions. Students get the copies nbgrader releases (README.md: step by step)."),
]


def kit_index(out: Path) -> str:
    """The kit's front page: every part, where it is, and whether it may go to students."""
    rows = []
    for where, what, students, note in ROWS:
        present = (out / where).exists()
        link = (f'<a href="{html.escape(where)}">{html.escape(where)}</a>' if present
                else f"{html.escape(where)} (not built)")
        ok = {"Yes": "yes", "No": "no"}.get(students, "careful")
        rows.append(f'<tr class="{ok}"><th scope="row">{html.escape(what)}</th><td>{link}</td>'
                    f"<td>{html.escape(students)}</td><td>{html.escape(note)}</td></tr>")
    return ("<!DOCTYPE html>\n<html lang=\"en\"><head><meta charset=\"utf-8\"><title>rumino: the teacher's kit</title>"
            "<meta name=\"viewport\" content=\"width=device-width, initial-scale=1\"><style>"
            "body{font:17px/1.5 sans-serif;max-width:62em;margin:2em auto;padding:0 1em;color:#1d1d1d}"
            "table{border-collapse:collapse}th,td{border:1px solid #bbb;padding:.4em .6em;text-align:left;"
            "vertical-align:top}thead th{background:#eef2f6}tr.no td:nth-child(3){color:#8a0016;font-weight:700}"
            "tr.yes td:nth-child(3){color:#1b5e20;font-weight:700}a{color:#0b4a9e}</style></head><body><main>"
            "<h1>The teacher's kit</h1><p>Everything a unit on the rummy family needs, built by "
            "<code>rumino book kit</code>. The third column says what may go to students: the student edition, "
            "its handouts and the worksheets may; everything that holds solutions or answers may not.</p>"
            "<table><thead><tr><th scope=\"col\">What</th><th scope=\"col\">Where</th>"
            "<th scope=\"col\">For students?</th><th scope=\"col\">What it is</th></tr></thead><tbody>"
            + "".join(rows) + "</tbody></table></main></body></html>\n")


def run_kit(args) -> int:
    if args.out is not None:
        out_folder("--out", args.out)
    try:
        done = build_kit(getattr(args, "book", None), args.out, progress=not args.quiet,
                         handouts=not args.no_handouts)
    except BookError as err:
        raise CommandError(str(err)) from None
    print(format_kit(done))
    return 0


def add_to(bsub) -> None:
    """Add ``kit`` to the actions of ``rumino book``."""
    kit = bsub.add_parser("kit", help="build the whole teacher's kit: both editions, handouts, slides, worksheets, "
                                      "assignments",
                          description="Build everything a teacher takes into class, into one folder: the "
                                      "teacher's edition (lesson plans, solutions) and the student edition of "
                                      "the book, each chapter's PDF handouts, a slide deck per chapter, a "
                                      "worksheet per lesson with its quiz key, and the nbgrader course of the "
                                      "exercises, with an index.html saying what may go to students; then print "
                                      "how long each part took. The book is executed once for both editions.")
    kit.add_argument("--out", default=None, help="folder for the kit (default: book/_build/kit)")
    kit.add_argument("--no-handouts", action="store_true", help="leave the PDF handouts and worksheets out")
    kit.add_argument("--quiet", action="store_true", help="no progress bars")
    kit.add_argument("--book", default=argparse.SUPPRESS, help="the book's folder (as `rumino book --book`)")
    kit.set_defaults(run=run_kit)


if __name__ == "__main__":  # pragma: no cover
    sys.exit(run_kit(argparse.Namespace(out=None, quiet=False, no_handouts=False)))
