"""``rumino book kit``: the whole teacher's kit in one command, and how long each part took.

The kit is what :mod:`rumino.cli.book` builds piece by piece:

1. the teacher's edition of the book (lesson plans, solutions open, a quiz on every chapter page),
   with each chapter's handouts printed to PDF (student and teacher copies);
2. the student edition (no lesson plans, no solutions) with its student handouts;
3. a reveal.js slide deck per chapter, from the teacher's edition's executed chapters;
4. the graded assignments, an nbgrader course built from the exercises.

Everything goes under one folder (default ``book/_build/kit``)::

    kit/teacher/html/index.html      kit/student/html/index.html
    kit/slides/index.html            kit/assignments/source/ch01_…/

>>> [name for name, _ in KIT_PARTS]
['teacher edition', 'student edition', 'slides', 'assignments']
"""

from __future__ import annotations

import argparse
import sys
import time
from pathlib import Path

from rumino.cli import CommandError
from rumino.cli.inputs import out_folder
from rumino.cli.bookbuild import BookError, build, check_build_out, find_book

KIT_PARTS = [("teacher edition", "teacher/html/index.html"), ("student edition", "student/html/index.html"),
             ("slides", "slides/index.html"), ("assignments", "assignments/source")]


def build_kit(book=None, out=None, *, echo=print, progress: bool = True, handouts: bool = True) -> list[tuple]:
    """Build the four parts of the kit into ``out``; return ``(part, seconds, where)`` for each."""
    from rumino.cli.assignments import check_out, write_course
    from rumino.cli.slides import write_decks

    root = find_book(book)
    default = out is None
    out = Path(out) if out is not None else root / "_build" / "kit"
    check_out(out)  # a file, or a place nobody may write: refused before hours of building
    for edition in ("teacher", "student"):  # and a folder of someone else's there, before the first edition
        check_build_out(out / edition, default=default)
    done = []

    def part(name, where, run):
        echo(f"== {name}")
        t0 = time.perf_counter()
        run()
        done.append((name, time.perf_counter() - t0, out / where))

    part("teacher edition", KIT_PARTS[0][1], lambda: build(root, out / "teacher", progress=progress, echo=echo,
                                                           handouts=handouts))
    part("student edition", KIT_PARTS[1][1], lambda: build(root, out / "student", student=True,
                                                           progress=progress, echo=echo, handouts=handouts))
    part("slides", KIT_PARTS[2][1], lambda: write_decks(out / "teacher", out / "slides", echo=echo))
    part("assignments", KIT_PARTS[3][1], lambda: write_course(out / "assignments", book=root, progress=echo))
    return done


def format_kit(done: list[tuple]) -> str:
    """The kit's parts, their times and where they are.

    >>> print(format_kit([("slides", 61.0, Path("k/slides/index.html"))]))
    slides                1 min 01 s  k/slides/index.html
    the whole kit         1 min 01 s
    """
    def minutes(s):
        return f"{int(s // 60):2d} min {int(round(s % 60)):02d} s"

    lines = [f"{name:<20} {minutes(sec)}  {where}" for name, sec, where in done]
    lines.append(f"{'the whole kit':<20} {minutes(sum(sec for _, sec, _ in done))}")
    return "\n".join(lines)


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
    kit = bsub.add_parser("kit", help="build the whole teacher's kit: both editions, handouts, slides, assignments",
                          description="Build everything a teacher takes into class, into one folder: the "
                                      "teacher's edition (lesson plans, solutions) and the student edition of "
                                      "the book, each chapter's PDF handouts, a slide deck per chapter and the "
                                      "nbgrader course of the exercises; then print how long each part took. "
                                      "It executes the book twice (once an edition).")
    kit.add_argument("--out", default=None, help="folder for the kit (default: book/_build/kit)")
    kit.add_argument("--no-handouts", action="store_true", help="leave the PDF handouts out")
    kit.add_argument("--quiet", action="store_true", help="no progress bars")
    kit.add_argument("--book", default=argparse.SUPPRESS, help="the book's folder (as `rumino book --book`)")
    kit.set_defaults(run=run_kit)


if __name__ == "__main__":  # pragma: no cover
    sys.exit(run_kit(argparse.Namespace(out=None, quiet=False, no_handouts=False)))
