"""Printable handouts: ``rumino book pdf`` prints built chapters through Debian's Chromium.

The browser test builds a one-chapter book (the real config, extension and helpers; a plotly
figure, a formula, an exercise with a hint and a solution), prints it in both editions and
reads the PDFs back with pypdf: pages, the chapter's title, the figure's title (drawn, not a
blank box), the solution in the teacher's edition only, and no navigation. The other tests
need no browser.
"""

from __future__ import annotations

import json
import shutil
from pathlib import Path

import pytest

from rumino.cli import bookbuild
from rumino.cli import build_parser, main

ROOT = Path(__file__).resolve().parents[2]
BOOK = ROOT / "book"


def _chapter_dir(tmp_path: Path, names=("00_preface", "00b_at_a_glance", "01_cards", "04_odds_of_the_deal")) -> Path:
    html = tmp_path / "html"
    html.mkdir()
    (html / "index.html").write_text("<p>book</p>")
    for name in names:
        (html / f"{name}.html").write_text(f"<title>{name}</title>")
    (html / "search.html").write_text("search")
    (html / "glossary.html").write_text("glossary")
    return html


def test_chapters_are_picked_by_number_or_name_in_reading_order(tmp_path):
    html = _chapter_dir(tmp_path)
    # genindex, search and the glossary are not chapters; a chapter slipped in between (00b_) is
    assert [p.stem for p in bookbuild.chapter_pages(html)] == ["00_preface", "00b_at_a_glance", "01_cards",
                                                               "04_odds_of_the_deal"]
    picked = bookbuild.chapter_pages(html, ["4", "01_cards.html", "04"])
    assert [p.stem for p in picked] == ["04_odds_of_the_deal", "01_cards"]
    assert [p.stem for p in bookbuild.chapter_pages(html, ["00b"])] == ["00b_at_a_glance"]  # a Start-here page


def test_an_unknown_chapter_is_bad_input_naming_the_chapters(tmp_path, capsys):
    html = _chapter_dir(tmp_path)
    assert main(["book", "pdf", "--dir", str(html), "--out", str(tmp_path / "pdf"), "9"]) == 2
    err = capsys.readouterr().err
    assert "no chapter '9'" in err and "04_odds_of_the_deal" in err
    assert not (tmp_path / "pdf").exists()  # refused before anything was printed


def test_pdf_of_an_unbuilt_book_says_to_build_first(tmp_path, capsys):
    assert main(["book", "pdf", "--dir", str(tmp_path)]) == 2
    assert "rumino book build" in capsys.readouterr().err


def test_pdf_command_line():
    args = build_parser().parse_args(["book", "pdf", "4", "05_drawing_to_a_hand", "--student", "--out", "x"])
    assert (args.book_command, args.chapters, args.student, args.out) == ("pdf", ["4", "05_drawing_to_a_hand"],
                                                                         True, "x")


# ------------------------------------------------------------------------------------ printed in Chromium


def _tiny_book(tmp_path: Path) -> Path:
    book = tmp_path / "tiny"
    book.mkdir()
    for name in ("_config.yml", "bookutils.py"):
        shutil.copy2(BOOK / name, book / name)
    shutil.copytree(BOOK / "_ext", book / "_ext")
    (book / "_toc.yml").write_text("format: jb-book\nroot: 01_handout\n")

    def md(text):
        return {"cell_type": "markdown", "metadata": {}, "source": text}

    def code(text, tags=()):
        return {"cell_type": "code", "metadata": {"tags": list(tags)}, "execution_count": None, "outputs": [],
                "source": text}

    cells = [
        md("# A handout on sevens"),
        code("import bookutils; bookutils.setup()\nimport plotly.graph_objects as go", tags=["remove-cell"]),
        md("Seven cards make a hand, and $\\binom{8}{7} = 8$ ways pick seven of a rank."),
        {**code('fig = go.Figure(go.Bar(x=[1, 2, 3], y=[3, 1, 2]))\n'
                'fig.update_layout(title="Zebra bars for printing")\n'
                'bookutils.show(fig, alt="Three bars of heights 3, 1 and 2.")'),
         "metadata": {"mystnb": {"figure": {"name": "fig-zebra", "caption": "Three bars, drawn before printing."}}}},
        md("```{exercise} Count the sevens (pencil)\n:label: ex-sevens\nHow many ways pick 7 of 8 cards?\n```"),
        md(":::{admonition} Hint\n:class: dropdown\nLeave one card out: HINT-TEXT.\n:::"),
        md("```{solution-start} ex-sevens\n:class: dropdown\n```\nSOLUTION-PROSE: eight ways."),
        code("secret_ways = 8\nprint('SOLUTION-CODE', secret_ways)", tags=["solution"]),
        md("```{solution-end}\n```"),
        md("After the exercise comes the end."),
    ]
    for i, cell in enumerate(cells):
        cell["id"] = f"cell-{i}"
    nb = {"cells": cells, "metadata": {"kernelspec": {"name": "python3", "display_name": "Python 3",
                                                      "language": "python"}},
          "nbformat": 4, "nbformat_minor": 5}
    (book / "01_handout.ipynb").write_text(json.dumps(nb))
    return book


def _text(pdf: Path) -> tuple[int, str]:
    from pypdf import PdfReader

    reader = PdfReader(str(pdf))
    return len(reader.pages), "\n".join(page.extract_text() for page in reader.pages)


@pytest.mark.slow
@pytest.mark.browser
@pytest.mark.timeout(600)
def test_a_chapter_prints_to_pdf_in_both_editions(tmp_path, chromium_path, capsys):
    pytest.importorskip("pypdf", reason="pip install -e '.[test]'")
    book = _tiny_book(tmp_path)
    report = bookbuild.build(book, tmp_path / "out", progress=False, echo=lambda *a: None)
    out = tmp_path / "pdf"
    assert main(["book", "--book", str(book), "pdf", "--dir", str(report.html_dir), "--out", str(out), "1"]) == 0
    assert main(["book", "--book", str(book), "pdf", "--dir", str(report.html_dir), "--out", str(out),
                 "--student", "01_handout"]) == 0
    printed = capsys.readouterr().out
    assert "1 PDF, " in printed and "01_handout" in printed

    teacher, student = out / "01_handout.pdf", out / "01_handout-student.pdf"
    for pdf in (teacher, student):
        assert pdf.read_bytes().startswith(b"%PDF")
        pages, text = _text(pdf)
        assert pages > 0 and pages == bookbuild._pdf_pages(pdf)
        assert "A handout on sevens" in text
        assert "Zebra bars for printing" in text  # the figure was drawn before printing
        assert "HINT-TEXT" in text  # hints are opened on paper
        assert "After the exercise comes the end" in text
        # navigation and the download link are not printed
        assert "Download this chapter" not in text and "Search the book" not in text
    t_text, s_text = _text(teacher)[1], _text(student)[1]
    assert "SOLUTION-PROSE" in t_text and "SOLUTION-CODE" in t_text  # the folded solution, opened
    assert "SOLUTION-PROSE" not in s_text and "SOLUTION-CODE" not in s_text and "secret_ways" not in s_text
    assert "student edition" in s_text and "student edition" not in t_text  # the footer says which


def test_printing_moves_to_a_thread_of_its_own_inside_a_running_event_loop(monkeypatch, tmp_path):
    """Playwright's sync API refuses a running asyncio loop (a caller's open browser holds one): the
    handouts then print from a fresh thread, and from the caller's thread otherwise."""
    import asyncio
    import threading

    threads = []
    monkeypatch.setattr(bookbuild, "print_pdfs_here",
                        lambda *a, **kw: threads.append(threading.current_thread().name) or [])
    assert bookbuild.print_pdfs(tmp_path, tmp_path / "pdf") == []

    async def inside_a_loop():
        return bookbuild.print_pdfs(tmp_path, tmp_path / "pdf", student=True)

    assert asyncio.run(inside_a_loop()) == []
    assert threads[0] == threading.current_thread().name and threads[1].startswith("rumino-pdf")
