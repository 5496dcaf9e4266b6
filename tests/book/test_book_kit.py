"""``rumino book kit``: the four parts of the teacher's kit, in order, into one folder, each timed.

The parts themselves are tested where they are built (test_book_handouts, test_book_slides,
test_book_assignments, test_book_teachers); building the real kit executes the book twice, so here the
parts are replaced by recorders and the test checks what the kit asks of each.
"""

from __future__ import annotations

from pathlib import Path

import pytest

from rumino.cli import kit as kit_module
from rumino.cli import main


def test_the_kit_builds_both_editions_then_slides_from_the_teachers_then_assignments(tmp_path, monkeypatch):
    calls = []
    monkeypatch.setattr(kit_module, "build", lambda root, out, **kw: calls.append(
        ("build", Path(out).name, kw.get("student", False), kw["handouts"])))
    import rumino.cli.assignments as assignments
    import rumino.cli.slides as slides

    monkeypatch.setattr(slides, "write_decks", lambda built, out, **kw: calls.append(
        ("slides", Path(built).name, Path(out).name)))
    monkeypatch.setattr(assignments, "write_course", lambda out, **kw: calls.append(("assignments", Path(out).name)))
    lines = []
    done = kit_module.build_kit(out=tmp_path / "kit", echo=lines.append, progress=False, handouts=False)
    assert calls == [("build", "teacher", False, False), ("build", "student", True, False),
                     ("slides", "teacher", "slides"), ("assignments", "assignments")]
    assert [name for name, _, _ in done] == [name for name, _ in kit_module.KIT_PARTS]
    assert [str(where.relative_to(tmp_path / "kit")) for _, _, where in done] == [w for _, w in kit_module.KIT_PARTS]
    report = kit_module.format_kit(done)
    assert report.splitlines()[-1].startswith("the whole kit") and "teacher/html/index.html" in report
    assert lines[0] == "== teacher edition"


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
    assert not {"kit", "assignments", "slides"} & set(top)
    book = next(a for a in top["book"]._subparsers._group_actions).choices
    assert {"kit", "assignments", "slides", "pdf", "build", "student"} <= set(book)
