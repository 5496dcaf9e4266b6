"""Worksheets and quiz keys: ``rumino book pdf --worksheets`` prints one of each per lesson.

On the session's build (``built_book``, tests/conftest.py; or RUMINO_BOOK_HTML, an already built
``html`` folder with its ``_staged`` beside it): every lesson's worksheet is 2 to 4 pages of A4 with no
code, holding the activity, a tally sheet, the quiz's questions without their answers and the review
questions; its key holds the quiz's right answers, the engine's, as the chapter page's quiz marks them.
On a one-chapter book: a browser's own print of a student page (no script of ours) shows no solution.
Without a browser, ``rumino book pdf`` says so in one line, and how to print from a browser.
"""

from __future__ import annotations

import os
import unicodedata
import re
import sys
from pathlib import Path

import pytest

from rumino.cli import bookbuild, main
from rumino.cli.worksheets import LESSONS, lessons_wanted, quiz, write_worksheets

SAMPLE = ["00", "05", "08", "13"]
CODE = re.compile(r"\bimport \w|\bdef \w|ans_\w|\w+\(\)|print\(|bookutils|rumino\.\w")


def _text(pdf: Path) -> tuple[int, str]:
    from pypdf import PdfReader

    reader = PdfReader(str(pdf))
    text = " ".join(" ".join(p.extract_text().split()) for p in reader.pages)
    return len(reader.pages), unicodedata.normalize("NFKC", text)  # the PDF's ligatures (ﬁ) as letters


@pytest.fixture(scope="module")
def built_html(request) -> Path:
    given = os.environ.get("RUMINO_BOOK_HTML")
    if given:
        return Path(given)
    return request.getfixturevalue("built_book").html_dir  # conftest.py: one build per session


@pytest.fixture(scope="module")
def printed(built_html, tmp_path_factory, chromium_path):
    pytest.importorskip("pypdf", reason="pip install -e '.[test]'")
    out = tmp_path_factory.mktemp("worksheets")
    # Start here's grid, a tally with its totals, a tally by category, the exercises' lesson (every lesson
    # printed 2 pages in the kit of issue 39; four keep the test short)
    return out, write_worksheets(built_html.parent, out, SAMPLE, echo=lambda *a: None)


def test_lessons_are_named_by_chapter_or_start_here():
    assert [s.number for s in lessons_wanted(["5", "00a", "13_exercises"])] == ["05", "00", "13"]
    assert len(LESSONS) == 14
    with pytest.raises(Exception, match="no lesson '99'"):
        lessons_wanted(["99"])


@pytest.mark.slow
@pytest.mark.browser
@pytest.mark.timeout(1200)
def test_every_lesson_has_a_short_worksheet_without_code_and_a_key_with_the_engines_answers(built_html, printed):
    out, pdfs = printed
    sheets = sorted(p for p in pdfs if p.parent == out)
    keys = sorted(p for p in pdfs if p.parent.name == "keys")
    lessons = lessons_wanted(SAMPLE)
    assert [p.name.removesuffix("-worksheet.pdf") for p in sheets] == [s.stem for s in lessons]
    assert [p.name.removesuffix("-quiz-key.pdf") for p in keys] == [s.stem for s in lessons]
    staged = built_html.parent / bookbuild.STAGED
    for lesson, sheet, key in zip(lessons, sheets, keys):
        pages, text = _text(sheet)
        assert 2 <= pages <= 4, (sheet.name, pages)
        assert not CODE.search(text), (sheet.name, CODE.search(text).group(0))
        for part in ("The activity", "Check yourself", "Review questions", "Name"):
            assert part in text, (sheet.name, part)
        assert "Tally sheet" in text or "comparison grid" in text, sheet.name
        _, key_text = _text(key)
        questions = quiz(bookbuild.read_notebook(staged / f"{lesson.pages[0]}.ipynb"))
        assert questions, lesson.pages[0]
        for q in questions:  # the right answer in the key, and not on the students' sheet
            answer = " ".join(q.answer.split())
            assert answer in key_text, (key.name, answer)
            if q.kind == "numeric":
                assert f"Right: {answer}" not in text and "Right:" not in text, (sheet.name, answer)
        assert "Right:" not in text and "Not yet" not in text


@pytest.mark.slow
@pytest.mark.browser
@pytest.mark.timeout(600)
def test_a_browsers_own_print_of_a_student_page_shows_no_solution(tmp_path, chromium_path):
    pytest.importorskip("pypdf", reason="pip install -e '.[test]'")
    from playwright.sync_api import sync_playwright

    from tests.book.test_book_pdf import _tiny_book

    book = _tiny_book(tmp_path)
    report = bookbuild.build(book, tmp_path / "out", student=True, progress=False, echo=lambda *a: None,
                             handouts=False)
    with sync_playwright() as pw:
        browser = pw.chromium.launch(executable_path=chromium_path, args=bookbuild.CHROMIUM_ARGS)
        try:
            page = browser.new_page()
            page.goto((report.html_dir / "01_handout.html").as_uri(), wait_until="load")
            page.emulate_media(media="print")
            page.pdf(path=str(tmp_path / "plain.pdf"), format="A4")  # no dropdown opened, nothing removed
        finally:
            browser.close()
    _, text = _text(tmp_path / "plain.pdf")
    assert "A handout on sevens" in text and "After the exercise comes the end" in text
    assert "SOLUTION" not in text and "secret_ways" not in text and "Solution" not in text


def test_without_a_browser_the_pdf_command_says_so_in_one_line(tmp_path, monkeypatch, capsys):
    html = tmp_path / "html"
    html.mkdir()
    (html / "index.html").write_text("<p>book</p>")
    (html / "04_odds_of_the_deal.html").write_text("<title>x</title>")
    monkeypatch.setattr(bookbuild, "_chromium_path", lambda: None)
    import rumino.cli.book as book_cli

    monkeypatch.setattr(book_cli, "_chromium_path", lambda: None)
    assert main(["book", "pdf", "--dir", str(html), "--out", str(tmp_path / "pdf"), "4"]) == 1
    err = capsys.readouterr().err
    assert err.count("\n") == 1 and "Chromium, Chrome or Edge" in err and "Ctrl+P" in err
    assert "04_odds_of_the_deal.html" in err and not (tmp_path / "pdf").exists()


def test_a_browser_is_found_by_any_of_its_names(tmp_path, monkeypatch):
    fake = tmp_path / "google-chrome"
    fake.write_text("#!/bin/sh\n")
    fake.chmod(0o755)
    monkeypatch.setenv("PATH", str(tmp_path))
    monkeypatch.delenv("RUMINO_BROWSER", raising=False)
    assert bookbuild._chromium_path() == str(fake)
    monkeypatch.setenv("RUMINO_BROWSER", str(fake))
    assert bookbuild._chromium_path() == str(fake)
    monkeypatch.setenv("PATH", "/nonexistent")
    monkeypatch.delenv("RUMINO_BROWSER")
    if sys.platform.startswith("linux"):
        assert bookbuild._chromium_path() is None
