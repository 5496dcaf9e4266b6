"""The "For teachers" part: a lesson plan for every chapter, laid out alike, with the answers to the
chapter's review questions, and none of it in the student edition.

A lesson plan (``teach_NN_<chapter>.ipynb``, notebook metadata ``"rumino": {"edition": "teacher"}``)
has the sections of :data:`PLAN_SECTIONS` in that order, a timings table of 45 to 50 minutes, and as
many answers as its chapter has review questions (``teach_00_start_here`` answers the eight pages of
"Start here", one ``###`` subsection a page, in the book's order).
"""

from __future__ import annotations

import json
import re
from pathlib import Path

import pytest
import yaml

from rumino.cli import bookbuild

ROOT = Path(__file__).resolve().parents[2]
BOOK = ROOT / "book"
CHAPTERS = bookbuild.chapters(BOOK)
PLAN_SECTIONS = ["Objectives", "Prerequisites", "Materials", "Timings", "Activity with real cards",
                 "Misconceptions", "Answers to the review questions"]
NUMBERED = [p for p in CHAPTERS if re.match(r"\d\d_", p.name) and not p.stem.startswith("00")]
START_HERE = [p for p in CHAPTERS if re.match(r"00[a-z]?_", p.name) and p.stem != "00_preface"]  # the first part, in its order
PLANS = {p.stem: p for p in CHAPTERS if p.stem.startswith("teach_") and bookbuild.is_teacher_page(p)}


def _markdown(path: Path) -> str:
    cells = json.loads(path.read_text(encoding="utf-8"))["cells"]
    return "\n\n".join("".join(c["source"]) for c in cells if c["cell_type"] == "markdown")


def _sections(md: str, level: str = "##") -> dict[str, str]:
    """``{heading: body}`` of the sections of one level, in order."""
    parts = re.split(rf"^{level} (.+)$", md, flags=re.M)
    return {parts[i].strip(): parts[i + 1] for i in range(1, len(parts) - 1, 2)}


def _title(path: Path) -> str:
    return next(m.group(1).strip() for m in re.finditer(r"^# (.+)$", _markdown(path), flags=re.M))


def review_questions(path: Path) -> int:
    """How many numbered review questions the page asks."""
    md = _markdown(path)
    block = md[md.index("Review questions"):]
    block = re.split(r"^#{1,3} |^:::|^```", block[len("Review questions"):], flags=re.M)[0]
    return len(re.findall(r"^\d+\. ", block, flags=re.M))


def numbered_answers(text: str) -> int:
    return len(re.findall(r"^\d+\. ", text, flags=re.M))


def timings(text: str) -> list[int]:
    """The minutes of the first ``| Minutes | Activity |`` table of ``text``."""
    lines = []
    for ln in text.splitlines():
        if ln.strip().startswith("|"):
            lines.append(ln.strip())
        elif lines:
            break  # the end of the first table
    assert lines and re.match(r"\|\s*Minutes\s*\|\s*Activity\s*\|", lines[0]), \
        f"the timings table's header is | Minutes | Activity |, not {lines[:1]}"
    minutes = []
    for row in lines[2:]:
        m = re.match(r"\|\s*(\d+)\s*\|", row)
        assert m, f"a timings row starts with its minutes: {row!r}"
        minutes.append(int(m.group(1)))
    return minutes


# ------------------------------------------------------------------------------ the checks can fail


def test_the_counters_read_what_they_should():
    md = "1. a\n2. b\n\n## Next\n3. c"
    assert numbered_answers(_sections("# T\n## A\n" + md)["A"]) == 2
    assert timings("| Minutes | Activity |\n|---|---|\n| 10 | warm-up |\n| 35 | game |") == [10, 35]
    assert timings("| Minutes | Activity |\n|---|---|\n| 10 | a |\n\n### Cut\n\n| Minutes | Activity |\n|---|---|\n| 5 | a |") == [10]
    with pytest.raises(AssertionError):
        timings("| Time | Activity |\n|---|---|\n| 10 | warm-up |")
    with pytest.raises(AssertionError):
        timings("| Minutes | Activity |\n|---|---|\n| ten | warm-up |")
    assert review_questions(BOOK / "01_cards_packs_counting.ipynb") == 4


# ------------------------------------------------------------------------------ the lesson plans


def test_every_chapter_has_a_lesson_plan():
    wanted = {f"teach_{p.stem}" for p in NUMBERED} | {"teach_00_start_here"}
    assert wanted <= set(PLANS), f"chapters without a lesson plan: {sorted(wanted - set(PLANS))}"
    assert "teach_index" in PLANS, "the part opens with teach_index (the sequences and the kit)"


@pytest.mark.parametrize("stem", sorted(s for s in PLANS if s != "teach_index"))
def test_a_lesson_plan_is_laid_out_as_every_other(stem):
    md = _markdown(PLANS[stem])
    assert _title(PLANS[stem]).startswith("Lesson plan: "), f"{stem}: titled 'Lesson plan: …'"
    sections = _sections(md)
    assert [s for s in sections if s in PLAN_SECTIONS] == PLAN_SECTIONS, \
        f"{stem}: the sections are {PLAN_SECTIONS} in that order, not {list(sections)}"
    total = sum(timings(sections["Timings"]))
    assert 45 <= total <= 50, f"{stem}: the lesson takes {total} minutes, not 45 to 50"
    for name in PLAN_SECTIONS:
        assert len(sections[name].split()) >= 12, f"{stem}: the section {name!r} is nearly empty"


@pytest.mark.parametrize("stem", sorted(s for s in PLANS if s != "teach_index"))
def test_a_fifty_minute_plan_has_a_45_minute_cut(stem):
    sections = _sections(_markdown(PLANS[stem]))
    total = sum(timings(sections["Timings"]))
    cuts = _sections(sections["Timings"], "###")
    if total <= 45:
        assert "A 45-minute lesson" not in cuts, f"{stem}: a {total}-minute plan needs no cut"
        return
    assert "A 45-minute lesson" in cuts, f"{stem}: a {total}-minute plan says what a 45-minute period leaves out"
    assert sum(timings(cuts["A 45-minute lesson"])) == 45


@pytest.mark.parametrize("stem", sorted(s for s in PLANS if s not in ("teach_index", "teach_class_experiment")))
def test_a_plan_names_its_own_chapters_commands(stem):
    """Chapter 13's plan named chapter 12's handout and deck; the start-here plan named an assignment
    `rumino book assignments` could not write."""
    materials = _sections(_markdown(PLANS[stem]))["Materials"]
    own = stem.split("_")[1]
    commands = re.findall(r"rumino book (?:pdf|slides|assignments)(?: --\w+)*((?: \d\d[a-h]?\b)+)", materials)
    named = {n for c in commands for n in c.split()}
    assert named, f"{stem}: its materials name no handout, deck or worksheet"
    assert all(n[:2] == own for n in named), f"{stem} names {sorted(named)}, not its own chapter {own}"
    assert f"rumino book pdf --worksheets {own}" in materials or f"pdf {own} --worksheets" in materials \
        or f"--worksheets` the" in materials


def test_the_unit_has_a_materials_list_naming_every_lesson():
    md = _markdown(PLANS["teach_index"])
    materials = _sections(md)["The unit's materials"]
    rows = [ln for ln in materials.splitlines() if re.match(r"\|\s*\d+\s*\|", ln)]
    assert [int(re.match(r"\|\s*(\d+)", r).group(1)) for r in rows] == list(range(1, 15))
    for row, lesson in zip(rows, ["00"] + [f"{n:02d}" for n in range(1, 14)]):
        assert f"--worksheets {lesson}" in row and "rumino book slides" in row and "rumino book assignments" in row
    from rumino.cli.assignments import course_chapters

    assignable = {p.stem.split("_")[0] for p in course_chapters(BOOK)}
    for n in re.findall(r"rumino book assignments (\w+)", materials):  # every assignment named exists
        assert (n if not n.isdigit() else f"{int(n):02d}") in assignable, n


@pytest.mark.parametrize("chapter", NUMBERED, ids=[p.stem for p in NUMBERED])
def test_a_plan_answers_every_review_question_of_its_chapter(chapter):
    plan = PLANS.get(f"teach_{chapter.stem}")
    assert plan is not None, f"no lesson plan for {chapter.stem}"
    answers = _sections(_markdown(plan))["Answers to the review questions"]
    assert numbered_answers(answers) == review_questions(chapter), \
        f"{plan.name} answers {numbered_answers(answers)} questions; {chapter.name} asks {review_questions(chapter)}"


def test_the_start_here_plan_answers_every_page_of_the_part():
    plan = PLANS.get("teach_00_start_here")
    assert plan is not None
    answers = _sections(_markdown(plan))["Answers to the review questions"]
    pages = _sections(answers, "###")
    assert list(pages) == [_title(p) for p in START_HERE], "one ### subsection a page, in the book's order"
    for page, (title, text) in zip(START_HERE, pages.items()):
        assert numbered_answers(text) == review_questions(page), f"{title}: one answer a review question"


# ------------------------------------------------------------------------------ the student edition


def test_the_student_edition_leaves_the_teachers_pages_out(tmp_path):
    """Staging the student edition drops every teacher page from the folder and the table of contents,
    and keeps the class experiment (students run it too)."""
    staged = tmp_path / "staged"
    bookbuild._stage(BOOK, staged, student=True)
    toc = yaml.safe_dump(yaml.safe_load((staged / "_toc.yml").read_text(encoding="utf-8")))
    for stem in PLANS:
        assert not (staged / f"{stem}.ipynb").exists() and stem not in toc, f"{stem} left in the student edition"
    assert PLANS, "the book has teacher pages"
    kept = {p.stem for p in bookbuild.chapters(staged)}
    assert kept == {p.stem for p in CHAPTERS} - set(PLANS)
    assert "teach_class_experiment" in kept
    assert set(PLANS) <= {p.stem for p in bookbuild.chapters(BOOK)}  # the teacher's edition keeps them


def test_the_student_copy_of_the_notebooks_has_no_lesson_plan(tmp_path):
    written = {p.stem for p in bookbuild.write_student_copy(tmp_path / "copy", BOOK)}
    assert written and not written & set(PLANS)


def test_a_page_that_is_not_a_notebook_is_a_book_error(tmp_path):
    bad = tmp_path / "teach_x.ipynb"
    bad.write_text("{not json")
    with pytest.raises(bookbuild.BookError, match="teach_x.ipynb cannot be read as a notebook"):
        bookbuild.is_teacher_page(bad)


def test_each_edition_keeps_only_its_own_words_about_solutions_and_teachers(tmp_path):
    """The student edition has no "A note for teachers" and no "click Solution" (it has no solution to
    click); the teacher's has no sentence meant for the student edition."""
    def text(nb):
        return "\n".join("".join(c["source"]) if isinstance(c["source"], list) else c["source"] for c in nb["cells"])

    for stem in ("00_preface", "13_exercises"):
        nb = bookbuild.read_notebook(BOOK / f"{stem}.ipynb")
        student, teacher = text(bookbuild.student_notebook(nb)), text(bookbuild.teacher_notebook(nb))
        assert "click *Solution*" not in student and "A note for teachers" not in student, stem
        assert "in the teacher's edition, which your teacher has" not in teacher, stem
    preface = text(bookbuild.teacher_notebook(bookbuild.read_notebook(BOOK / "00_preface.ipynb")))
    assert "click *Solution*" in preface
    assert "A note for teachers" in text(bookbuild.read_notebook(BOOK / "13_exercises.ipynb"))
    written = {p.stem: p for p in bookbuild.write_student_copy(tmp_path / "copy", BOOK)}
    assert "A note for teachers" not in written["13_exercises"].read_text(encoding="utf-8")
