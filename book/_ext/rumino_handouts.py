"""Sphinx extension: a "Handouts" box under the title of every chapter that has printed PDFs.

``rumino book build`` prints each numbered chapter to PDF after the HTML is built
(``<html>/handouts/<chapter>-student.pdf``, and in the teacher's edition ``<chapter>.pdf`` with the
solutions) and tells this extension which chapters those are through the config value
``rumino_handouts`` (a list of page names). Only those pages get the box, so a build that prints
nothing (no Chromium, ``--no-handouts``, or a plain ``jupyter-book build``) links no PDF that
is not there. With ``hide_solutions`` (the student edition) the box offers the student's PDF only.

The box is a labelled group of links (the PDF, what it holds), styled like the download line of
``rumino_book.py``, and is not printed itself.

>>> print(handouts_box("handouts/01_cards-student.pdf", "handouts/01_cards.pdf"))  # doctest: +ELLIPSIS
<!-- rumino-handouts --><div class="rumino-handouts" role="group" aria-labelledby="rumino-handouts-title">...
>>> "Teacher" in handouts_box("handouts/01_cards-student.pdf", None)
False
"""

from __future__ import annotations

from html import escape
from pathlib import Path

HANDOUT_DIR = "handouts"
CSS = "rumino/handouts.css"
# the markers let `rumino book build` take a link out again if its PDF could not be printed
START, END = "<!-- rumino-handouts -->", "<!-- /rumino-handouts -->"

_CSS_TEXT = """
.rumino-handouts { font-size: 0.9em; margin: 0 0 1em 0; padding: 0.4em 0.8em;
  border-left: 3px solid var(--pst-color-primary, #1565c0); background: var(--pst-color-surface, #f5f7fa); }
.rumino-handouts p { margin: 0; display: inline; font-weight: 600; }
.rumino-handouts ul { display: inline; margin: 0; padding: 0; list-style: none; }
.rumino-handouts li { display: inline; }
.rumino-handouts li + li::before { content: " \\00b7  "; }
.rumino-handouts a { white-space: nowrap; }  /* a line breaks between the links, not inside one */
/* with the notebook's download line just below (rumino_book.py), the two read as one panel */
.rumino-handouts:has(+ .rumino-download) { margin-bottom: 0; padding-bottom: 0.15em; }
.rumino-handouts + .rumino-download { padding-top: 0.15em; }
/* the theme's link blue is 4.3:1 on the tinted box; this one is over 7:1 (as rumino_book.py does) */
.rumino-handouts a, .rumino-handouts a:visited { color: #0b4a9e; }
@media print { .rumino-handouts { display: none !important; } }
"""


def student_pdf(stem: str) -> str:
    """The student's PDF of a chapter, relative to the site: ``handouts/<stem>-student.pdf``."""
    return f"{HANDOUT_DIR}/{stem}-student.pdf"


def teacher_pdf(stem: str) -> str:
    """The teacher's PDF of a chapter (with the solutions): ``handouts/<stem>.pdf``."""
    return f"{HANDOUT_DIR}/{stem}.pdf"


def handouts_box(student_href: str, teacher_href: str | None) -> str:
    """The box's HTML: the student's PDF, and the teacher's unless ``teacher_href`` is ``None``."""
    links = [(student_href, "Student handout", "PDF, without solutions")]
    if teacher_href is not None:
        links.append((teacher_href, "Teacher\u2019s copy", "PDF, with solutions"))
    items = "".join(f'<li><a class="rumino-handout" href="{escape(href)}" type="application/pdf">'
                    f'{label} ({what})</a></li>' for href, label, what in links)
    return (f'{START}<div class="rumino-handouts" role="group" aria-labelledby="rumino-handouts-title">'
            f'<p id="rumino-handouts-title">Handouts to print: </p><ul>{items}</ul></div>{END}')


def _add_box(app, pagename, templatename, context, doctree) -> None:
    if doctree is None or app.builder.format != "html" or pagename not in app.config.rumino_handouts:
        return
    teacher = None if getattr(app.config, "hide_solutions", False) else context["pathto"](teacher_pdf(pagename), 1)
    box = handouts_box(context["pathto"](student_pdf(pagename), 1), teacher)
    body = context.get("body", "")
    end = body.find("</h1>")  # just under the chapter's title
    context["body"] = body[:end + 5] + box + body[end + 5:] if end >= 0 else box + body


def _write_css(app, exception) -> None:
    if exception is None and app.builder.format == "html":
        static = Path(app.outdir) / "_static" / "rumino"
        static.mkdir(parents=True, exist_ok=True)
        (static / "handouts.css").write_text(_CSS_TEXT, encoding="utf-8")


def setup(app):
    # the pages that get the box; `rumino book build` sets it to the chapters it is about to print
    app.add_config_value("rumino_handouts", [], "html", types=[list])
    app.add_css_file(CSS)
    app.connect("html-page-context", _add_box)
    app.connect("build-finished", _write_css)
    return {"version": "1.0", "parallel_read_safe": True, "parallel_write_safe": True}
