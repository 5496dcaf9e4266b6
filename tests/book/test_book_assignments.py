"""``rumino book assignments``: the exercises as an nbgrader course, graded by nbgrader itself.

Two chapters (1 and 5) are turned into a course with a roster, released with nbgrader (no solution and no
hidden test may reach the students' copy), then submissions are autograded by nbgrader's real autograde:

* alice hands in the source's own solutions (computed from her own numbers) and gets full marks;
* dec hands in the same answers as decimals (fractions rounded to 4 significant figures, whole numbers
  as floats) and gets full marks too;
* carol gets every first part of an answer right and the other parts wrong: exactly the first parts' points;
* bob answers the first exercise right and the others with a value of the wrong kind: more than 0, less than all;
* eve copies alice's numbers (her answers as values) into chapter 5: the varied exercises give her nothing.
"""

from __future__ import annotations

import json
import re
import shutil
import subprocess
import sys
from fractions import Fraction
from pathlib import Path

import pytest

from rumino.classroom import grading
from rumino.classroom.variants import VARIATIONS, numbers_for
from rumino.cli.assignments import (
    ANSWERS,
    course_chapters,
    literal,
    parse_exercises,
    read_roster,
    write_course,
)
from rumino.cli.bookbuild import read_notebook

ROOT = Path(__file__).resolve().parents[2]
CHAPTERS = ["1", "5"]  # small ones, every exercise autograded
ROSTER = ["alice", "dec", "carol", "bob", "eve"]


def _src(cell) -> str:
    s = cell["source"]
    return "".join(s) if isinstance(s, list) else s


def _grade_id(cell) -> str:
    return cell["metadata"].get("nbgrader", {}).get("grade_id", "")


@pytest.fixture(scope="module")
def course(tmp_path_factory):
    out = tmp_path_factory.mktemp("course")
    roster = out.parent / "roster.csv"
    roster.write_text("id,first_name,last_name,email\n" + "".join(f"{s},{s.title()},Doe,\n" for s in ROSTER))
    done = write_course(out, CHAPTERS, progress=lambda s: None, students=read_roster(roster))
    return out, done, roster


def test_every_exercise_of_the_book_says_what_its_answer_is():
    labels = [ex.label for p in course_chapters() for ex in parse_exercises(read_notebook(p), p.stem[:2])]
    assert len(labels) == len(set(labels)) >= 12 * 3
    assert set(labels) == set(ANSWERS), "ANSWERS and the book's exercises differ"
    assert set(VARIATIONS) <= set(ANSWERS)
    assert course_chapters()[0].stem == "00a_family_map"  # the Start here page's exercises are an assignment


def test_the_course_has_one_assignment_per_chapter_with_answers_and_a_test_a_part(course):
    out, done, _ = course
    assert (out / "nbgrader_config.py").is_file() and (out / "requirements.txt").is_file()
    readme = (out / "README.md").read_text(encoding="utf-8")
    assert "JupyterHub, step by step" in readme and "nbgrader autograde" in readme
    assert "rumino==" in (out / "requirements.txt").read_text() and "nbgrader" in (out / "requirements.txt").read_text()
    assert [a.name for a in done] == ["ch01_cards_packs_counting", "ch05_drawing_to_a_hand"]
    for a in done:
        nb = json.loads(a.path.read_text(encoding="utf-8"))
        answers = [c for c in nb["cells"] if c["metadata"].get("nbgrader", {}).get("solution")]
        tests = [c for c in nb["cells"] if c["metadata"].get("nbgrader", {}).get("grade")]
        assert len(answers) == a.exercises and len(tests) == a.parts > a.exercises
        assert sum(c["metadata"]["nbgrader"]["points"] for c in tests) == a.points
        assert all("### BEGIN HIDDEN TESTS" in _src(c) and c["metadata"]["nbgrader"]["locked"] for c in tests)
        assert all(re.search(r"(?m)^ans_\w+ = ", _src(c)) for c in answers)
        text = "\n".join(_src(c) for c in nb["cells"] if c["cell_type"] == "markdown")
        assert ":::" not in text and "{term}" not in text and "{glue" not in text  # plain Markdown
        assert "import rumino_widgets" not in text and (a.path.parent / "bookutils.py").is_file()
        assert [c["id"] for c in nb["cells"]] == [re.sub(r"[^\w-]", "-", _grade_id(c) or c["id"])[:64]
                                                  for c in nb["cells"]]  # ids from the grade ids
    ch1 = json.loads(done[0].path.read_text(encoding="utf-8"))
    # a pair answer has one test a part, each with its points
    assert {_grade_id(c) for c in ch1["cells"]} >= {"ex-cards-romme-test-1", "ex-cards-romme-test-2"}
    # exercise 5.4's expected value, computed by the engine when the course was written
    ch5 = json.loads(done[1].path.read_text(encoding="utf-8"))
    assert any("Fraction(288341, 685790)" in _src(c) for c in ch5["cells"] if "-test" in _grade_id(c))
    # the hint names only what the student has (it named one_short, which only the solution defines)
    assert not re.search(r"`one_short\b", "\n".join(_src(c) for c in ch5["cells"] if _grade_id(c).endswith("-text")))


def test_each_student_has_numbers_of_their_own_and_never_the_books(course):
    out, done, _ = course
    for label in done[1].varied:
        mine = {s: numbers_for(label, s, 1) for s in ROSTER}
        assert len({json.dumps(n, sort_keys=True) for n in mine.values()}) >= 2, label
        assert all(n != VARIATIONS[label].book for n in mine.values())
    key = (out / "numbers" / "ch05_drawing_to_a_hand.csv").read_text(encoding="utf-8")
    assert all(f"\n{s}," in key for s in ROSTER)
    assert "source" not in str(out / "numbers") and (out / "students.csv").is_file()


def test_a_course_written_twice_is_the_same_file(course, tmp_path):
    out, done, roster = course
    again = write_course(tmp_path / "again", ["1"], progress=lambda s: None, students=read_roster(roster))
    assert again[0].path.read_text(encoding="utf-8") == done[0].path.read_text(encoding="utf-8")


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


DECIMAL = '''
def _decimal(v):
    """The answer as a student types it in decimals: fractions to 4 significant figures, counts as floats."""
    if isinstance(v, Fraction):
        return float(f"{float(v):.4g}")
    if isinstance(v, int) and not isinstance(v, bool):
        return float(v)
    if isinstance(v, (tuple, list)):
        return type(v)(_decimal(x) for x in v)
    if isinstance(v, dict):
        return {k: _decimal(x) for k, x in v.items()}
    return v
'''

WRONG = '''
def _wrong(v):
    """A value of the right kind that is not the answer."""
    if isinstance(v, bool):
        return not v
    if isinstance(v, (int, float, Fraction)):
        return v + 1000
    if isinstance(v, list):
        return v + v[:1] if v else [1]
    return v
'''


def _first_part_only(name: str) -> str:
    return WRONG + f"if isinstance({name}, tuple):\n    {name} = ({name}[0],) + tuple(_wrong(x) for x in {name}[1:])\n"


@pytest.mark.filterwarnings("ignore::sqlalchemy.exc.SAWarning")  # nbgrader's own session warnings
def test_nbgrader_releases_without_solutions_and_grades_every_student_as_they_should(course, monkeypatch):
    out, done, _ = course
    api = _api(out)
    alice_values = {}
    for a in done:
        result = api.generate_assignment(a.name, force=True)
        assert result["success"], result["log"]
        released = (out / "release" / a.name / f"{a.name}.ipynb").read_text(encoding="utf-8")
        source = json.loads(a.path.read_text(encoding="utf-8"))
        assert "BEGIN SOLUTION" not in released and "HIDDEN TESTS" not in released
        assert "raise NotImplementedError()" in released
        for cell in source["cells"]:  # no solution line and no expected value reaches the students
            if cell["metadata"].get("nbgrader", {}).get("solution") or "-test" in _grade_id(cell):
                secret = re.search(r"(?s)### BEGIN (?:SOLUTION|HIDDEN TESTS)\n(.*?)\n### END", _src(cell)).group(1)
                assert all(line.strip() not in released for line in secret.splitlines()
                           if len(line.strip()) > 12 and "print(" not in line), cell["metadata"]
        sols = {_grade_id(c): re.search(r"(?s)### BEGIN SOLUTION\n(.*?)\n### END SOLUTION", _src(c)).group(1)
                for c in source["cells"] if c["metadata"].get("nbgrader", {}).get("solution")}
        names = {k: re.search(r"(?m)^(ans_\w+) = ", v).group(1) for k, v in sols.items()}
        first = next(iter(sols))
        _submit(out, a.name, "alice", lambda cell, sols=sols: sols[_grade_id(cell)])
        _submit(out, a.name, "dec", lambda cell, sols=sols, names=names: sols[_grade_id(cell)] + "\n" + DECIMAL
                + f"{names[_grade_id(cell)]} = _decimal({names[_grade_id(cell)]})")
        _submit(out, a.name, "carol", lambda cell, sols=sols, names=names: sols[_grade_id(cell)] + "\n"
                + _first_part_only(names[_grade_id(cell)]))
        # bob answers the first exercise right and the others with a value of the wrong kind
        _submit(out, a.name, "bob", lambda cell, sols=sols, first=first, names=names: sols[first]
                if _grade_id(cell) == first else f"{names[_grade_id(cell)]} = {literal((7, 7))}")
        students = ["alice", "dec", "carol", "bob"]
        if a.varied:  # eve copies alice's values, worked out with alice's numbers
            alice_values = {label: VARIATIONS[label].solve(numbers_for(label, "alice", 1)) for label in a.varied}
            label_of = {f"{label}-answer": label for label in a.varied}
            _submit(out, a.name, "eve", lambda cell, sols=sols, names=names: (
                f"{names[_grade_id(cell)]} = {literal(alice_values[label_of[_grade_id(cell)]])}"
                if _grade_id(cell) in label_of else sols[_grade_id(cell)]))
            students.append("eve")
        for student in students:
            result = api.autograde(a.name, student, force=True, create=True)
            assert result["success"], result["log"]

    # `nbgrader validate` runs the visible tests: bob's answers of the wrong kind fail, saying what is wrong,
    # where nbgrader said "Success!" before to a student who would score nothing; alice's pass
    from nbgrader.validator import Validator

    first = done[0].name

    def validate(student):  # as on the hub, where the login says whose numbers these are
        monkeypatch.setenv("RUMINO_STUDENT", student)
        return Validator(config=api.config).validate(str(out / "submitted" / student / first / f"{first}.ipynb"))

    bob = validate("bob")
    said = " ".join(f["raw_error"] for f in bob.get("failed", ()))
    assert bob.get("failed") and "should be" in said, bob
    alice = validate("alice")
    assert not alice.get("failed") and not alice.get("changed"), alice
    monkeypatch.delenv("RUMINO_STUDENT")

    from nbgrader.api import Gradebook

    with Gradebook(f"sqlite:///{out / 'gradebook.db'}") as gb:
        for a in done:
            source = json.loads(a.path.read_text(encoding="utf-8"))
            tests = {_grade_id(c): c["metadata"]["nbgrader"]["points"] for c in source["cells"]
                     if "-test" in _grade_id(c)}
            firsts = sum(p for g, p in tests.items() if g.endswith(("-test", "-test-1")))
            score = {s.student.id: s.score for s in gb.assignment_submissions(a.name)}
            assert gb.find_submission(a.name, "alice").max_score == a.points
            assert score["alice"] == a.points, (a.name, score)
            assert score["dec"] == a.points, (a.name, score)  # the same answers as decimals
            assert score["carol"] == firsts < a.points, (a.name, score, firsts)  # first parts only
            assert 0 < score["bob"] < score["alice"], (a.name, score)
            if a.varied:
                varied_points = sum(p for g, p in tests.items() if g.rsplit("-test", 1)[0] in a.varied)
                assert score["eve"] == a.points - varied_points, (a.name, score)


def test_the_checks_accept_decimals_ranges_and_simulations_and_say_what_is_wrong():
    assert grading.check(0.3497, ("exact", Fraction(378, 1081)))
    assert not grading.check(0.3500, ("exact", Fraction(378, 1081)))
    assert grading.check(2398.0, ("exact", 2398)) and not grading.check(2398.5, ("exact", 2398))
    assert grading.check(2400, ("near", 2398, 48)) and not grading.check(2500, ("near", 2398, 48))
    assert grading.check((0.00048, 0.00072), ("interval", None, 0.00023, 0.25), centre=0.0006)
    assert not grading.check((0.0001, 0.0011), ("interval", None, 0.00023, 0.25), centre=0.0006)
    assert grading.kind_problem((1, 2), (Fraction(0), Fraction(0))) is None
    assert "between 0 and 1" in grading.kind_problem(35, Fraction(0), chance=True)
    assert "a tuple of 2" in grading.kind_problem([1, 2, 3], (0, 0))


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


@pytest.mark.parametrize("roster, says", [
    ("name,email\nalice,a@x\n", "line 1: no column 'id'"),
    ("id,first_name\nalice,Alice\n,Bob\n", "line 3: the id is empty"),
    ("id\nalice\nbob smith\n", "line 3: the id 'bob smith' has a space"),
    ("id\nalice\nbob\nalice\n", "line 4: the id 'alice' is already on line 2"),
    ("id,first_name\nalice,Alice,extra\n", "line 2: 3 fields where the header has 2"),
    ("id\n", "no students"),
    ("", "the file is empty"),
])
def test_a_bad_roster_is_refused_in_one_line_naming_the_row(roster, says, tmp_path, capsys):
    from rumino.cli import main

    path = tmp_path / "roster.csv"
    path.write_text(roster, encoding="utf-8")
    assert main(["book", "assignments", "1", "--students", str(path), "--out", str(tmp_path / "c")]) == 2
    run = capsys.readouterr()
    assert len(run.err.strip().splitlines()) == 1 and says in run.err and "roster.csv" in run.err, run.err
    assert run.out == "" and not (tmp_path / "c").exists()


def test_the_start_here_page_has_an_assignment_and_answers_in_words_have_rubrics(tmp_path):
    done = write_course(tmp_path / "c", ["00a"], progress=lambda s: None)
    nb = json.loads(done[0].path.read_text(encoding="utf-8"))
    assert done[0].name == "ch00a_family_map" and _src(nb["cells"][0]).startswith("# Start here: ")
    words = [c for c in nb["cells"] if c["metadata"].get("nbgrader", {}).get("grade")
             and c["metadata"]["nbgrader"].get("solution")]
    rubrics = [c for c in nb["cells"] if _grade_id(c).endswith("-rubric")]
    assert len(words) == len(rubrics) == 2 and all("How this answer is marked" in _src(c) for c in rubrics)
