"""Handouts linked from the HTML: ``rumino book build`` prints each numbered chapter to PDF.

On the whole book (``built_book`` of conftest.py, the teacher's edition): every numbered chapter's
page has a "Handouts" box linking its student PDF and its teacher PDF, both real PDFs (pypdf),
and a solution's words are in the teacher's PDF only. On a one-chapter book (test_book_pdf.py's):
the student build links the student PDF only; ``--no-handouts`` prints and links none; a machine
without Chromium builds the book with a note and no links; a PDF that failed to print loses its link.
Set RUMINO_BOOK_HTML to an already built ``html`` folder to reuse it while working.
"""

from __future__ import annotations

import os
import re
import sys
import unicodedata
from html import unescape
from pathlib import Path

import pytest

from rumino.cli import bookbuild, build_parser, main
from tests.book.test_book_pdf import _tiny_book

ROOT = Path(__file__).resolve().parents[2]
BOOK = ROOT / "book"
BOX = re.compile(r'<div class="rumino-handouts" role="group" aria-labelledby="rumino-handouts-title">(.*?)</div>', re.S)
LINK = re.compile(r'<a class="rumino-handout" href="([^"]+)" type="application/pdf">([^<]+)</a>')
STUDENT_LABEL = "Student handout (PDF, without solutions)"
TEACHER_LABEL = "Teacher\u2019s copy (PDF, with solutions)"


def _links(page: Path) -> list[tuple[str, str]]:
    """``(href, label)`` of each handout link of a built page (no box: no links)."""
    boxes = BOX.findall(page.read_text(encoding="utf-8"))
    assert len(boxes) <= 1, f"{page.name} has {len(boxes)} handout boxes"
    return [(unescape(h), unescape(t)) for h, t in LINK.findall(boxes[0])] if boxes else []


def _plain(text: str) -> str:
    """Letters and digits only, lower case: words compare alike in the HTML and in a PDF's text."""
    return "".join(ch for ch in unicodedata.normalize("NFKC", text).lower() if ch.isalnum())


def _pdf_pages(pdf: Path) -> int:
    from pypdf import PdfReader

    return len(PdfReader(str(pdf)).pages)


def _pdf_text(pdf: Path) -> tuple[int, str]:
    from pypdf import PdfReader

    reader = PdfReader(str(pdf))
    return len(reader.pages), "\n".join(page.extract_text() for page in reader.pages)


def _solution_words(page_html: str) -> str | None:
    """A run of a solution's prose (no formula: MathJax draws those), as :func:`_plain` letters."""
    for section in re.findall(r'<section id="solution-content">(.*?)</section>', page_html, re.S):
        for para in re.findall(r"<p>(.*?)</p>", section, re.S):
            # the formulas and links split the prose; the longest run between them is plain text
            para = re.sub(r'<span class="math[^"]*">.*?</span>|<a\b.*?</a>|<code\b.*?</code>', "\0", para, flags=re.S)
            runs = sorted((_plain(unescape(re.sub(r"<[^>]+>", "", r))) for r in para.split("\0")), key=len)
            if runs and len(runs[-1]) >= 30:
                return runs[-1][:60]
    return None


@pytest.fixture(scope="module")
def built_html(request) -> Path:
    given = os.environ.get("RUMINO_BOOK_HTML")
    if given:
        return Path(given)
    return request.getfixturevalue("built_book").html_dir  # conftest.py: one build per session


def _numbered(html: Path) -> list[str]:
    stems = bookbuild.handout_chapters(bookbuild.chapter_pages(html))
    assert stems, f"{html} holds no numbered chapter"
    return stems


# ------------------------------------------------------------------------------------ the whole book


@pytest.mark.slow
@pytest.mark.browser
def test_every_chapter_page_links_its_two_handouts_and_each_is_a_pdf(built_html):
    pytest.importorskip("pypdf", reason="pip install -e '.[test]'")
    stems = _numbered(built_html)
    if not os.environ.get("RUMINO_BOOK_HTML"):  # the real book: chapters 01 to 13, every one
        assert {s[:2] for s in stems} >= {f"{i:02d}" for i in range(1, 14)}, stems
    for stem in stems:
        page = built_html / f"{stem}.html"
        assert _links(page) == [(f"handouts/{stem}-student.pdf", STUDENT_LABEL),
                                (f"handouts/{stem}.pdf", TEACHER_LABEL)], stem
        for href, _ in _links(page):
            pdf = page.parent / href
            assert pdf.is_file() and pdf.read_bytes().startswith(b"%PDF"), href
            assert _pdf_pages(pdf) >= 1, href
    # the preface and the overviews (00_, 00b_ …) are not numbered chapters: no box there
    for page in bookbuild.chapter_pages(built_html):
        if page.stem not in stems:
            assert _links(page) == [] and "rumino-handouts" not in page.read_text(encoding="utf-8"), page.name


@pytest.mark.slow
@pytest.mark.browser
def test_the_teacher_pdf_holds_a_solution_and_the_student_pdf_does_not(built_html):
    pytest.importorskip("pypdf", reason="pip install -e '.[test]'")
    stems = _numbered(built_html)
    for stem in stems:  # every chapter: the student's copy is the teacher's with the solutions taken out
        teacher, student = built_html / "handouts" / f"{stem}.pdf", built_html / "handouts" / f"{stem}-student.pdf"
        assert student.stat().st_size < teacher.stat().st_size and _pdf_pages(student) <= _pdf_pages(teacher), stem
    # the words themselves, in the first and the last chapter (pypdf reads about a page a second, so the
    # whole book's 370 pages would take minutes; the tiny book of test_book_pdf.py checks the same)
    for stem in sorted({stems[0], stems[-1]}):
        words = _solution_words((built_html / f"{stem}.html").read_text(encoding="utf-8"))
        assert words, f"{stem}: no solution with a sentence of prose to look for"
        teacher = _plain(_pdf_text(built_html / "handouts" / f"{stem}.pdf")[1])
        student = _plain(_pdf_text(built_html / "handouts" / f"{stem}-student.pdf")[1])
        assert words in teacher, f"{stem}: the teacher's PDF lacks the solution's words {words!r}"
        assert words not in student, f"{stem}: the student's PDF shows the solution's words {words!r}"
        # not merely an empty PDF: the chapter's title is in both
        title = re.search(r"<title>(.*?)( —| &#8212;)", (built_html / f"{stem}.html").read_text(encoding="utf-8"))
        head = _plain(unescape(title.group(1)))[:20]
        assert head in teacher and head in student, (stem, head)


# ------------------------------------------------------------------------------------ a one-chapter book


@pytest.mark.slow
@pytest.mark.browser
@pytest.mark.timeout(600)
def test_the_student_build_links_only_the_student_handout(tmp_path, chromium_path):
    pytest.importorskip("pypdf", reason="pip install -e '.[test]'")
    book = _tiny_book(tmp_path)
    lines = []
    report = bookbuild.build(book, tmp_path / "out", student=True, progress=False, echo=lines.append)
    page = report.html_dir / "01_handout.html"
    assert _links(page) == [("handouts/01_handout-student.pdf", STUDENT_LABEL)]
    assert sorted(p.name for p in (report.html_dir / "handouts").iterdir()) == ["01_handout-student.pdf"]
    pages, text = _pdf_text(report.html_dir / "handouts" / "01_handout-student.pdf")
    assert pages >= 1 and "A handout on sevens" in text and "SOLUTION-PROSE" not in text
    assert "Handouts to print" not in text  # the box itself is not printed
    assert [r.path.name for r in report.handouts] == ["01_handout-student.pdf"] and report.handouts_note is None
    assert any("Printing 1 handout PDF (1 chapter \u00d7 1 edition)" in line for line in lines), lines
    assert "(handouts: 1 PDF, " in bookbuild.format_report(report)


@pytest.mark.slow
@pytest.mark.timeout(600)
def test_no_handouts_builds_none_and_links_none(tmp_path, capsys):
    book = _tiny_book(tmp_path)
    out = tmp_path / "out"
    assert main(["book", "--book", str(book), "build", "--out", str(out), "--quiet", "--no-handouts"]) == 0
    page = out / "html" / "01_handout.html"
    assert "rumino-download" in page.read_text(encoding="utf-8")  # the page is built, with its notebook link
    assert "rumino-handouts" not in page.read_text(encoding="utf-8") and not (out / "html" / "handouts").exists()
    printed = capsys.readouterr().out
    assert "Printing" not in printed and "handout PDF" not in printed and "(handouts:" not in printed


@pytest.mark.slow
@pytest.mark.timeout(600)
def test_without_chromium_the_book_builds_with_a_note_and_no_links(tmp_path, monkeypatch):
    monkeypatch.setattr(bookbuild, "_chromium_path", lambda: None)
    book = _tiny_book(tmp_path)
    lines = []
    report = bookbuild.build(book, tmp_path / "out", progress=False, echo=lines.append)
    notes = [line for line in lines if line.startswith("Note:")]
    assert notes == [f"Note: handouts not printed: {bookbuild.NO_BROWSER}; the chapter pages link none."]
    assert "Chromium, Chrome or Edge" in notes[0] and "Ctrl+P" in notes[0]
    assert report.index.is_file() and report.handouts == []
    assert "rumino-handouts" not in (report.html_dir / "01_handout.html").read_text(encoding="utf-8")
    assert not (report.html_dir / "handouts").exists()
    assert "handouts not printed" in bookbuild.format_report(report)


def test_a_handout_that_did_not_print_loses_its_link(tmp_path):
    sys.path.insert(0, str(BOOK / "_ext"))
    try:
        import rumino_handouts
    finally:
        sys.path.pop(0)
    box = rumino_handouts.handouts_box("handouts/01_x-student.pdf", "handouts/01_x.pdf")
    page = tmp_path / "01_x.html"
    page.write_text(f"<h1>X</h1>{box}<p>text</p>", encoding="utf-8")
    (tmp_path / "handouts").mkdir()
    (tmp_path / "handouts" / "01_x-student.pdf").write_bytes(b"%PDF-1.4")
    assert bookbuild.drop_missing_handout_links(tmp_path, ["01_x"]) == 1  # the teacher's PDF is missing
    assert _links(page) == [("handouts/01_x-student.pdf", STUDENT_LABEL)]
    (tmp_path / "handouts" / "01_x-student.pdf").unlink()
    assert bookbuild.drop_missing_handout_links(tmp_path, ["01_x"]) == 1
    assert page.read_text(encoding="utf-8") == "<h1>X</h1><p>text</p>"  # no empty box is left
    # the student edition's box has no teacher's link at all
    assert "with solutions" not in rumino_handouts.handouts_box("handouts/01_x-student.pdf", None)


def test_build_command_line_has_no_handouts():
    assert build_parser().parse_args(["book", "build", "--no-handouts"]).no_handouts is True
    assert build_parser().parse_args(["book", "build"]).no_handouts is False
