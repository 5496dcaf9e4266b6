"""``rumino book assignments``: the exercises as an nbgrader course, graded by nbgrader itself.

Two chapters are turned into assignments, released with nbgrader (no solution and no hidden test may
reach the students' copy), then two submissions are autograded: alice hands in the source's own
solutions and gets full marks; bob hands in wrong values and gets fewer.
"""

from __future__ import annotations

import json
import re
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

from rumino.cli.assignments import (
    ANSWERS,
    course_chapters,
    literal,
    parse_exercises,
    write_course,
)
from rumino.cli.bookbuild import read_notebook

ROOT = Path(__file__).resolve().parents[2]
CHAPTERS = ["1", "5"]  # small ones, every exercise autograded: the whole file takes about 55 s of CPU


def _src(cell) -> str:
    s = cell["source"]
    return "".join(s) if isinstance(s, list) else s


def _grade_id(cell) -> str:
    return cell["metadata"].get("nbgrader", {}).get("grade_id", "")


@pytest.fixture(scope="module")
def course(tmp_path_factory):
    out = tmp_path_factory.mktemp("course")
    done = write_course(out, CHAPTERS, progress=lambda s: None)
    return out, done


def test_every_exercise_of_the_book_says_what_its_answer_is():
    labels = [ex.label for p in course_chapters() for ex in parse_exercises(read_notebook(p), int(p.stem[:2]))]
    assert len(labels) == len(set(labels)) >= 12 * 3
    assert set(labels) == set(ANSWERS), "ANSWERS and the book's exercises differ"


def test_the_course_has_one_assignment_per_chapter_with_answers_and_tests(course):
    out, done = course
    assert (out / "nbgrader_config.py").is_file()
    assert [a.name for a in done] == ["ch01_cards_packs_counting", "ch05_drawing_to_a_hand"]
    for a in done:
        nb = json.loads(a.path.read_text(encoding="utf-8"))
        answers = [c for c in nb["cells"] if c["metadata"].get("nbgrader", {}).get("solution")]
        tests = [c for c in nb["cells"] if c["metadata"].get("nbgrader", {}).get("grade")]
        assert len(answers) == len(tests) == a.exercises == a.autograded >= 3
        assert sum(c["metadata"]["nbgrader"]["points"] for c in tests) == a.points
        assert all("### BEGIN HIDDEN TESTS" in _src(c) and c["metadata"]["nbgrader"]["locked"] for c in tests)
        assert all(re.search(r"(?m)^ans_\w+ = ", _src(c)) for c in answers)
        text = "\n".join(_src(c) for c in nb["cells"] if c["cell_type"] == "markdown")
        assert ":::" not in text and "{term}" not in text and "{glue" not in text  # plain Markdown
        assert "import rumino_widgets" not in text and (a.path.parent / "bookutils.py").is_file()
    ch5 = json.loads(done[1].path.read_text(encoding="utf-8"))
    # the expected value of exercise 5.1, computed by the engine when the course was written
    assert any("Fraction(378, 1081)" in _src(c) for c in ch5["cells"] if _grade_id(c).endswith("-test"))


def _api(out: Path):
    from nbgrader.apps import NbGraderAPI
    from traitlets.config import Config

    config = Config()
    config.CourseDirectory.root = str(out)
    config.ExecutePreprocessor.timeout = 600
    return NbGraderAPI(config=config)


def _submit(out: Path, name: str, student: str, answer_for) -> None:
    """The released notebook with each answer cell's code replaced by ``answer_for(cell)``."""
    released = json.loads((out / "release" / name / f"{name}.ipynb").read_text(encoding="utf-8"))
    for cell in released["cells"]:
        if cell["metadata"].get("nbgrader", {}).get("solution") and cell["cell_type"] == "code":
            cell["source"] = answer_for(cell)
    dest = out / "submitted" / student / name
    dest.mkdir(parents=True, exist_ok=True)
    shutil.copy2(out / "release" / name / "bookutils.py", dest / "bookutils.py")
    (dest / f"{name}.ipynb").write_text(json.dumps(released), encoding="utf-8")


@pytest.mark.filterwarnings("ignore::sqlalchemy.exc.SAWarning")  # nbgrader's own session warnings
def test_nbgrader_releases_without_solutions_and_grades_alice_and_bob(course):
    out, done = course
    api = _api(out)
    for a in done:
        result = api.generate_assignment(a.name, force=True)
        assert result["success"], result["log"]
        released = (out / "release" / a.name / f"{a.name}.ipynb").read_text(encoding="utf-8")
        source = json.loads(a.path.read_text(encoding="utf-8"))
        assert "BEGIN SOLUTION" not in released and "HIDDEN TESTS" not in released
        assert "raise NotImplementedError()" in released
        for cell in source["cells"]:  # no solution line and no expected value reaches the students
            if cell["metadata"].get("nbgrader", {}).get("solution") or _grade_id(cell).endswith("-test"):
                secret = re.search(r"(?s)### BEGIN (?:SOLUTION|HIDDEN TESTS)\n(.*?)\n### END", _src(cell)).group(1)
                assert all(line.strip() not in released for line in secret.splitlines()
                           if len(line.strip()) > 12 and "print(" not in line), cell["metadata"]
        sols = {_grade_id(c): re.search(r"(?s)### BEGIN SOLUTION\n(.*?)\n### END SOLUTION", _src(c)).group(1)
                for c in source["cells"] if c["metadata"].get("nbgrader", {}).get("solution")}
        names = {k: re.search(r"(?m)^(ans_\w+) = ", v).group(1) for k, v in sols.items()}
        first = next(iter(sols))
        _submit(out, a.name, "alice", lambda cell, sols=sols: sols[_grade_id(cell)])
        # bob answers the first exercise right and the others with a value of the wrong size
        _submit(out, a.name, "bob", lambda cell, sols=sols, first=first, names=names: sols[first]
                if _grade_id(cell) == first else f"{names[_grade_id(cell)]} = {literal((7, 7))}")
        for student in ("alice", "bob"):
            result = api.autograde(a.name, student, force=True, create=True)
            assert result["success"], result["log"]

    from nbgrader.api import Gradebook

    with Gradebook(f"sqlite:///{out / 'gradebook.db'}") as gb:
        for a in done:
            alice, bob = (gb.find_submission(a.name, s) for s in ("alice", "bob"))
            assert alice.max_score == a.points and alice.score == a.points, (a.name, alice.score)
            assert 0 < bob.score < alice.score, (a.name, bob.score)


def _cli(*args):
    return subprocess.run([sys.executable, "-m", "rumino", "book", "assignments", *args], cwd=ROOT, check=False,
                          capture_output=True, text=True, timeout=120)


@pytest.mark.parametrize("case", ["file", "under a file", "unwritable", "chapter"])
def test_bad_out_or_chapter_exits_2_with_one_line(case, tmp_path):
    (tmp_path / "f").write_text("x")
    if case == "file":
        run = _cli("1", "--out", str(tmp_path / "f"))
    elif case == "under a file":
        run = _cli("1", "--out", str(tmp_path / "f" / "course"))
    elif case == "unwritable":
        run = _cli("1", "--out", "/proc/rumino-course")  # not writable, even for root
    else:
        run = _cli("99", "--out", str(tmp_path / "c"))
    assert run.returncode == 2, run.stderr
    assert len(run.stderr.strip().splitlines()) == 1 and run.stdout == "", run.stderr
    assert not (tmp_path / "c").exists()
