"""The self-check quizzes: one per numbered chapter, drawn on the static page and marking answers.

* Every numbered chapter (01 to 13) and every page of Start here (00a to 00i) holds one quiz cell (``rumino.classroom.quiz.show_quiz``, input
  hidden) just before its review questions, with a "Check yourself" lead-in, 2 to 4 questions, at
  least one multiple-choice and one numeric; the student copy keeps it (it is not a solution).
* On the session's build (``built_book``, tests/conftest.py: the whole book, built once) each chapter
  page is opened in Chromium with no kernel (once for all the book's browser checks: book_pages.py):
  the quiz is drawn; for its first multiple-choice and first
  numeric question the right answer is marked right (jupyterquiz's feedback "Right…", in the correct
  colour) and a wrong one is not ("Not yet…", the incorrect colour); no request leaves the machine.
* A reader with only a keyboard can answer both kinds of question.

The answers are read from the page itself (jupyterquiz's question list, which the engine computed when
the book was built), so the test types what the engine says is right. Set RUMINO_BOOK_HTML to an
already built ``html`` folder to reuse it while working on a page (then select its chapters with -k).
"""

from __future__ import annotations

import json
import os
import re
import threading
from pathlib import Path
from urllib.parse import urlparse

import book_pages
import pytest

from rumino.classroom.quiz import COLORS
from rumino.cli import bookbuild

ROOT = Path(__file__).resolve().parents[2]
BOOK = ROOT / "book"
NUMBERED = sorted(p for p in BOOK.glob("*.ipynb") if re.match(r"(0[1-9]|1[0-3])_", p.name))
START_HERE = sorted(p for p in BOOK.glob("*.ipynb") if re.match(r"00[a-i]_", p.name))  # the pages at a glance
QUIZZED = START_HERE + NUMBERED


def _src(cell) -> str:
    return cell["source"] if isinstance(cell["source"], str) else "".join(cell["source"])


def _rgb(hex_colour: str) -> str:
    h = hex_colour.lstrip("#")
    return "rgb({}, {}, {})".format(*(int(h[i:i + 2], 16) for i in (0, 2, 4)))


RIGHT, WRONG = _rgb(COLORS["--jq-correct-color"]), _rgb(COLORS["--jq-incorrect-color"])


# ------------------------------------------------------------------------------------ the notebooks


def test_every_numbered_chapter_is_here():
    assert [p.name[:2] for p in NUMBERED] == [f"{i:02d}" for i in range(1, 14)]
    assert [p.name[:3] for p in START_HERE] == [f"00{c}" for c in "abcdefghi"]  # each expert group's quiz


@pytest.mark.parametrize("path", QUIZZED, ids=[p.stem for p in QUIZZED])
def test_chapter_has_one_hidden_quiz_before_its_review_questions(path):
    nb = json.loads(path.read_text(encoding="utf-8"))
    cells = nb["cells"]
    quiz = [i for i, c in enumerate(cells) if c["cell_type"] == "code" and "show_quiz(" in _src(c)]
    assert len(quiz) == 1, f"{path.name}: one quiz cell, not {len(quiz)}"
    i = quiz[0]
    cell, lead, after = cells[i], cells[i - 1], cells[i + 1]
    assert "remove-input" in cell["metadata"].get("tags", []), f"{path.name}: the quiz's code is hidden"
    assert lead["cell_type"] == "markdown" and _src(lead).startswith("**Check yourself.**")
    assert after["cell_type"] == "markdown" and "Review questions" in _src(after)
    code = _src(cell)
    n = code.count("choice(") + code.count("numeric(")
    assert 2 <= n <= 4 and "choice(" in code and "numeric(" in code, (path.name, n)
    words = {2: "Two", 3: "Three", 4: "Four"}
    assert _src(lead).split()[2] == words[n], f"{path.name}: the lead-in announces {n} questions"
    # the student copy drops solutions only: the quiz stays
    student = bookbuild.student_notebook(nb)
    assert sum("show_quiz(" in _src(c) for c in student["cells"]) == 1


# ------------------------------------------------------------------------------------ the built pages


@pytest.fixture(scope="module")
def built_html(request) -> Path:
    given = os.environ.get("RUMINO_BOOK_HTML")
    if given:
        return Path(given)
    return request.getfixturevalue("built_book").html_dir  # conftest.py: one build per session


@pytest.fixture(scope="module")
def served(built_html):
    from rumino.cli.book import make_server

    server = make_server(built_html, 0)
    threading.Thread(target=server.serve_forever, daemon=True).start()
    yield f"http://127.0.0.1:{server.server_address[1]}"
    server.shutdown()
    server.server_close()


@pytest.fixture(scope="module")
def browser(chromium_path):
    from playwright.sync_api import sync_playwright

    with sync_playwright() as pw:
        b = pw.chromium.launch(executable_path=chromium_path, args=bookbuild.CHROMIUM_ARGS)
        yield b
        b.close()


@pytest.fixture
def page(browser):
    """A page that records every request for a host other than the local server."""
    p = browser.new_page(viewport={"width": 1280, "height": 900})
    p.offsite = []
    p.on("request", lambda r: p.offsite.append(r.url) if r.url.startswith(("http:", "https:", "ws"))
         and urlparse(r.url).hostname != "127.0.0.1" else None)
    yield p
    p.close()


def _open_quiz(page, url) -> tuple[str, list[dict]]:
    """Open a page, wait for its quiz to be drawn; its container's id and its questions (from the page)."""
    # the quiz's script runs as the page is parsed: no need to wait for the figures
    page.goto(url, wait_until="domcontentloaded", timeout=120_000)
    return book_pages.open_quiz(page)


@pytest.mark.slow
@pytest.mark.browser
@pytest.mark.xdist_group(book_pages.GROUP)
@pytest.mark.parametrize("stem", [p.stem for p in QUIZZED])
def test_quiz_is_drawn_and_marks_answers_offline(visited_pages, stem):
    """The quiz as book_pages.py answered it on its one visit of the page."""
    visit = visited_pages.get(f"{stem}.html")
    assert visit is not None, f"the build wrote no {stem}.html"
    assert not visit.problem("quiz"), visit.problem("quiz")
    assert visit.quiz is not None, f"{stem}: no quiz is drawn on the page"
    kinds = visit.quiz.kinds
    assert 2 <= len(kinds) <= 4 and "multiple_choice" in kinds and "numeric" in kinds, kinds
    q = visit.quiz
    for (text, cls, colour), right, what in [(q.choice_wrong, False, "a wrong option"),
                                             (q.choice_right, True, "the right option"),
                                             (q.number_wrong, False, q.typed_wrong),
                                             (q.number_right, True, q.typed_right)]:
        if right:
            assert text.startswith("Right") and "incorrect" not in cls and colour == RIGHT, (stem, what, text, cls)
        else:
            assert text.startswith("Not yet") and "incorrect" in cls and colour == WRONG, (stem, what, text, cls)
    assert visit.offsite == [], f"{stem}: requests left the machine: {visit.offsite[:5]}"


@pytest.mark.slow
@pytest.mark.browser
def test_quiz_answers_with_the_keyboard_alone(page, served, built_html):
    stem = NUMBERED[0].stem
    quiz_id, questions = _open_quiz(page, f"{served}/{stem}.html")
    kinds = [q["type"] for q in questions]
    first_mc, first_num = kinds.index("multiple_choice"), kinds.index("numeric")
    # an option of the first multiple-choice question has the focus (a radio button, as Tab gives it)
    page.focus(f"#{quiz_id} .Quiz >> nth={first_mc} >> input[type=radio] >> nth=0")
    page.keyboard.press("Space")  # picks the focused option, whichever it is
    wrap = page.locator(f"#{quiz_id} .Quiz").nth(first_mc)
    text, _, _ = book_pages.feedback(page, wrap)
    assert text.startswith(("Right", "Not yet"))
    # Tab moves on to the next question's control; a number typed key by key and Enter mark it
    box = page.locator(f"#{quiz_id} .Quiz").nth(first_num).locator("input.Input-text")
    for _ in range(12):
        page.keyboard.press("Tab")
        if box.evaluate("e => e === document.activeElement"):
            break
    else:
        pytest.fail("Tab never reached the numeric answer box")
    assert box.evaluate("e => e.labels.length === 1 && e.labels[0].textContent.includes('Enter')")
    good, _ = book_pages.right_and_wrong_numbers(questions[first_num])
    page.keyboard.type(good)
    page.keyboard.press("Enter")
    text, _, colour = book_pages.feedback(page, page.locator(f"#{quiz_id} .Quiz").nth(first_num))
    assert text.startswith("Right") and colour == RIGHT
