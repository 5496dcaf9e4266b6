"""``rumino book kit``: the parts of the teacher's kit, each built once, into one folder with an index.

The parts themselves are tested where they are built (test_book_handouts, test_book_slides,
test_book_assignments, test_book_worksheets, test_book_teachers); building the real kit executes the
book, so here the parts are replaced by recorders and the test checks what the kit asks of each: the
book executed once for both editions, the assignments started while the HTML is built, slides and
worksheets from the teacher's executed chapters, no staging folder left, an index saying what may go to
students.
"""

from __future__ import annotations

from pathlib import Path

import pytest

from rumino.cli import kit as kit_module
from rumino.cli import main
from rumino.cli.bookbuild import STAGED, BuildReport


def test_the_kit_builds_each_part_once_and_leaves_an_index_and_no_staging(tmp_path, monkeypatch):
    calls = []
    out = tmp_path / "kit"

    def editions(root, teacher, student, **kw):
        calls.append(("editions", Path(teacher).name, Path(student).name, kw["handouts"]))
        for folder in (teacher, student):
            (Path(folder) / STAGED).mkdir(parents=True)
            (Path(folder) / "html").mkdir()
            (Path(folder) / "html" / "index.html").write_text("<p>book</p>")
        kw["while_building"]()  # the kit starts its assignments once the chapters have run
        calls.append(("html built",))
        return (BuildReport(Path(teacher) / "html/index.html", Path(teacher) / "html", total_seconds=60),
                BuildReport(Path(student) / "html/index.html", Path(student) / "html", total_seconds=60))

    import rumino.cli.assignments as assignments
    import rumino.cli.slides as slides
    import rumino.cli.worksheets as worksheets

    monkeypatch.setattr(kit_module, "build_editions", editions)
    monkeypatch.setattr(slides, "write_decks", lambda built, o, **kw: calls.append(
        ("slides", Path(built).name, Path(o).name, (Path(built) / STAGED).is_dir())))
    monkeypatch.setattr(worksheets, "write_worksheets", lambda built, o, **kw: calls.append(
        ("worksheets", Path(built).name, Path(o).name, kw["pdf"])))

    def course(o, **kw):  # runs in the kit's worker process: it writes, and reports by its return value
        Path(o).mkdir(parents=True)
        (Path(o) / "README.md").write_text("course")
        kw["progress"]("source/ch01_x/ch01_x.ipynb: 4 exercises")

    monkeypatch.setattr(assignments, "write_course", course)
    lines = []
    done = kit_module.build_kit(out=out, echo=lines.append, progress=False, handouts=False)
    assert calls == [("editions", "teacher", "student", False), ("html built",),
                     ("slides", "teacher", "slides", True), ("worksheets", "teacher", "worksheets", False)]
    assert lines.index("== assignments (in the background, while the HTML is built)") < lines.index("== slides")
    assert "source/ch01_x/ch01_x.ipynb: 4 exercises" in lines and (out / "assignments" / "README.md").is_file()
    assert [name for name, _, _ in done[:-1]] == [name for name, _ in kit_module.KIT_PARTS]
    assert [str(w.relative_to(out)) for _, _, w in done[:-1]] == [w for _, w in kit_module.KIT_PARTS]
    assert not (out / "teacher" / STAGED).exists() and not (out / "student" / STAGED).exists()
    index = (out / "index.html").read_text(encoding="utf-8")
    assert "What may go to students" in index or "may go to students" in index
    for where, _, students, _ in kit_module.ROWS:
        assert where in index and students in index
    report = kit_module.format_kit(done)
    assert report.splitlines()[-1].startswith("the whole kit") and "CPU seconds" in report


def test_a_kit_folder_that_is_a_file_is_refused_in_one_line(tmp_path, capsys):
    taken = tmp_path / "kit"
    taken.write_text("not a folder")
    assert main(["book", "kit", "--out", str(taken)]) == 2
    err = capsys.readouterr().err.strip()
    assert len(err.splitlines()) == 1 and "is a file" in err


@pytest.mark.parametrize("flag", ["--no-handouts", "--quiet"])
def test_the_kit_command_parses_its_options(flag):
    from rumino.cli import build_parser

    args = build_parser().parse_args(["book", "kit", flag, "--out", "k"])
    assert args.out == "k" and args.run is kit_module.run_kit


def test_the_kits_commands_are_actions_of_book_not_commands_of_their_own():
    """A module of rumino.cli with ``register()`` becomes a top-level command; the kit's are ``book`` actions."""
    from rumino.cli import build_parser

    parser = build_parser()
    top = next(a for a in parser._subparsers._group_actions).choices
    assert not {"kit", "assignments", "slides", "worksheets"} & set(top)
    book = next(a for a in top["book"]._subparsers._group_actions).choices
    assert {"kit", "assignments", "slides", "pdf", "build", "student"} <= set(book)
