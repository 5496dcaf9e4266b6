"""Worksheets: per lesson a short handout without code, and its quiz key for the teacher.

A worksheet is what a student holds in a lesson (2 to 4 pages of A4): the activity with real cards as
the lesson plan gives it to the groups, a sheet to tally what each group deals, the chapter's self-check
quiz and its review questions, with room to write. The **quiz key** gives the teacher the quiz's right
answers, as the engine computed them, and the answers to the review questions from the lesson plan.

Both are made from the executed notebooks a built book keeps (``<build>/_staged/``: the chapter, for
its quiz and review questions, and its lesson plan ``teach_…``, for the activity and the answers), as
HTML pages in ``<build>/html/worksheets/`` (the book's MathJax typesets their formulas), then printed
to PDF through Chromium, Chrome or Edge (:func:`rumino.cli.bookbuild.print_pages`)::

    rumino book pdf --worksheets            # every lesson: book/_build/pdf/worksheets/
    rumino book pdf --worksheets 5 00a      # chapter 5's lesson, and Start here's

>>> [s.number for s in LESSONS[:3]]
['00', '01', '02']
>>> RECORDS["05"].columns
('trial', 'T: the draw that brought the out')
"""

from __future__ import annotations

import html
import json
import re
from dataclasses import dataclass, field
from pathlib import Path

from rumino.cli import CommandError
from rumino.cli.bookbuild import STAGED, BookError, print_pages, read_notebook
from rumino.odds.poker import CATEGORIES

WORKSHEET_DIR = "worksheets"  # under the built site; and the PDFs' folder under --out
COMPARE = re.compile(r"^\*\*(Compare|What the class compares)\b")


@dataclass(frozen=True)
class Record:
    """The tally sheet of a lesson's activity: its columns (the first numbers the rows, or names them with
    ``labels``) and its rows."""

    columns: tuple[str, ...]
    rows: int
    labels: tuple[str, ...] = ()


@dataclass(frozen=True)
class Lesson:
    """One lesson: its number (``00`` for Start here), its lesson plan and the chapter pages it covers."""

    number: str
    plan: str
    pages: tuple[str, ...]

    @property
    def stem(self) -> str:
        return self.plan.removeprefix("teach_")


LESSONS = [Lesson("00", "teach_00_start_here", ("00a_family_map", "00b_rumino_at_a_glance", "00c_gin_at_a_glance",
                                                 "00i_oklahoma_at_a_glance", "00d_knock_rummy_at_a_glance",
                                                 "00e_wiener_at_a_glance", "00f_romme_at_a_glance",
                                                 "00g_robber_at_a_glance", "00h_rummoli_at_a_glance"))]
LESSONS += [Lesson(f"{n:02d}", f"teach_{n:02d}_{stem}", (f"{n:02d}_{stem}",)) for n, stem in enumerate(
    ["cards_packs_counting", "rumino_illustrated", "melds_deadwood", "odds_of_the_deal", "drawing_to_a_hand",
     "playing_rumino", "knock_games", "rummoli", "romme_robber", "family_side_by_side", "house_rules_family",
     "luck_and_skill", "exercises"], start=1)]

# what each group writes down, hand by hand (the activity of each lesson plan)
RECORDS = {
    "00": Record(("game", "pack (cards, jokers)", "cards dealt", "where the melds go", "how a hand ends",
                  "what you play for"), 7),
    "01": Record(("deal", "jokers", "twins? (yes / no)"), 10),
    "02": Record(("hand", "how it ended (knock, undercut, gin, rumino)", "scores"), 10),
    "03": Record(("hand", "jokers", "longest-first deadwood", "best deadwood"), 6),
    "04": Record(("hand", "jokers", "deadwood", "7 or less? (tick)"), 12),
    "05": Record(("trial", "T: the draw that brought the out"), 10),
    "06": Record(("hand", "knock limit", "how it ended", "turns"), 12),
    "07": Record(("hand", "game (Gin or Wiener)", "deadwood"), 12),
    "08": Record(("best five", "a stroke for each pile", "piles"), len(CATEGORIES),
                 tuple(c.replace("_", " ") for c in CATEGORIES)),
    "09": Record(("hand", "jokers dealt", "best opening (points)", "opens with 40?"), 10),
    "10": Record(("hand", "game (Rumino or Gin)", "deadwood"), 12),
    "11": Record(("hand", "jokers", "deadwood"), 12),
    "12": Record(("deal", "y₁: A's margin, first seating", "y₂: A's margin, seats swapped", "s = (y₁ + y₂)/2",
                  "d = (y₁ − y₂)/2"), 5),
    "13": Record(("hand", "twins?", "a joker?", "neither?"), 20),
}


# ---------------------------------------------------------------------------- reading the executed notebooks


def _src(cell) -> str:
    s = cell.get("source", "")
    return "".join(s) if isinstance(s, list) else s


def _inline(text: str, glue: dict, figures: dict, where: str) -> str:
    from rumino.cli.slides import _inline as inline

    return inline(text, glue, figures, where)


def _section(nb, heading: str) -> str:
    """The Markdown of a ``## heading`` section of a notebook (across its Markdown cells)."""
    md = "\n\n".join(_src(c) for c in nb["cells"] if c["cell_type"] == "markdown")
    m = re.search(rf"(?ms)^## {re.escape(heading)}\s*$(.*?)(?=^## |\Z)", md)
    return m.group(1).strip() if m else ""


def activity(plan_nb, glue: dict, figures: dict, where: str) -> list[str]:
    """The lesson plan's activity as the groups get it: its paragraphs before the teacher's comparison."""
    out = []
    for para in re.split(r"\n\s*\n", _section(plan_nb, "Activity with real cards")):
        if COMPARE.match(para.strip()):
            break
        if para.strip():
            out.append(_inline(para.strip(), glue, figures, where))
    return out


def review_questions(nb, glue: dict, figures: dict, where: str) -> list[str]:
    """The numbered review questions of a chapter (their Markdown, roles resolved)."""
    md = "\n\n".join(_src(c) for c in nb["cells"] if c["cell_type"] == "markdown")
    if "**Review questions**" not in md:
        return []
    block = md.split("**Review questions**", 1)[1]
    block = re.split(r"(?m)^#{1,3} |^:::|^```", block)[0]
    items = re.split(r"(?m)^\d+\.\s+", block)[1:]
    return [_inline(" ".join(i.split()), glue, figures, where) for i in items]


def review_answers(plan_nb, glue: dict, figures: dict, where: str, page_title: str | None = None) -> list[str]:
    """The lesson plan's answers to the review questions (of one page's ``###`` subsection for Start here)."""
    text = _section(plan_nb, "Answers to the review questions")
    if page_title is not None:
        m = re.search(rf"(?ms)^### {re.escape(page_title)}\s*$(.*?)(?=^### |\Z)", text)
        text = m.group(1) if m else ""
    items = re.split(r"(?m)^\d+\.\s+", text)[1:]
    return [_inline(" ".join(i.split()), glue, figures, where) for i in items]


@dataclass
class Question:
    """A quiz question as the page shows it, with its right answer and what the quiz says when it is given."""

    text: str
    kind: str  # numeric or multiple_choice
    options: list[str]
    answer: str
    feedback: str


def quiz(nb) -> list[Question]:
    """The chapter's self-check quiz, read from the executed quiz cell's output (the questions the engine made)."""
    for cell in nb["cells"]:
        if cell["cell_type"] != "code" or "show_quiz(" not in _src(cell):
            continue
        for out in cell.get("outputs", ()):
            page = out.get("data", {}).get("text/html", "")
            page = "".join(page) if isinstance(page, list) else page
            m = re.search(r"var questions\w+\s*=\s*", page)
            if not m:
                continue
            questions, _ = json.JSONDecoder().raw_decode(page[m.end():])
            return [_question(q) for q in questions]
    return []


def _plain(text: str) -> str:
    return html.unescape(re.sub(r"<[^>]+>", "", text)).strip()


def _question(q: dict) -> Question:
    text = re.sub(r'\s*<span class="rumino-quiz-hint">\((.*?)\)</span>', r" (\1)", q["question"])
    if q["type"] == "numeric":
        right = next(a for a in q["answers"] if a.get("correct"))
        fb = _plain(right.get("feedback", ""))
        answer = re.match(r"Right: (.*?)(?:\.\s|\.$|$)", fb)
        return Question(_plain(text), "numeric", [], answer.group(1) if answer else fb, fb)
    options = [_plain(a["answer"]) for a in q["answers"]]
    right = next(a for a in q["answers"] if a["correct"])
    return Question(_plain(text), "multiple_choice", sorted(options), _plain(right["answer"]),
                    _plain(right.get("feedback", "")))


def tallies(plan_nb) -> list[dict]:
    """The pooled activities of the lesson plan's class tally (what its tally sheet totals)."""
    for cell in plan_nb["cells"]:
        for out in cell.get("outputs", ()):
            page = out.get("data", {}).get("text/html", "")
            page = "".join(page) if isinstance(page, list) else page
            m = re.search(r'class="rumino-tally" id="[^"]+" data-activities="([^"]+)"', page)
            if m:
                return json.loads(html.unescape(m.group(1)))
    return []


@dataclass
class Worksheet:
    """Everything a lesson's worksheet and key hold, with the book's roles already turned into words."""

    lesson: Lesson
    title: str
    activity: list[str]
    record: Record
    tallies: list[dict]
    questions: list[str]
    quiz: list[Question]
    answers: list[str]
    keys: list[tuple[str, list[Question]]] = field(default_factory=list)  # (page title, its quiz) for the key


def _title(nb) -> str:
    for c in nb["cells"]:
        m = re.match(r"#\s+(.*)", _src(c)) if c["cell_type"] == "markdown" else None
        if m:
            return m.group(1).strip()
    return ""


def read_worksheet(staged: Path, lesson: Lesson) -> Worksheet:
    """A lesson's worksheet from the executed notebooks of a built book."""
    from rumino.cli.slides import figure_numbers, glue_values

    def load(stem):
        path = staged / f"{stem}.ipynb"
        if not path.is_file():
            raise BookError(f"{path} is missing: the worksheets need the teacher's build (rumino book build, "
                            f"not --student).")
        return read_notebook(path)

    plan = load(lesson.plan)
    first = load(lesson.pages[0])
    figures = {}
    for stem in lesson.pages:
        number = int(stem[:2]) if stem[:2].isdigit() and int(stem[:2]) else 0
        figures.update(figure_numbers(load(stem), number) if number else {})
    plan_glue = glue_values(plan)
    page_glue = glue_values(first)
    title = _title(plan).removeprefix("Lesson plan: ")
    keys = []
    for stem in lesson.pages:
        nb = load(stem)
        keys.append((_title(nb), quiz(nb)))
    page_title = _title(first) if lesson.number == "00" else None
    return Worksheet(lesson, title, activity(plan, plan_glue, figures, lesson.plan), RECORDS[lesson.number],
                     tallies(plan), review_questions(first, page_glue, figures, lesson.pages[0]), quiz(first),
                     review_answers(plan, plan_glue, figures, lesson.plan, page_title), keys)


# ---------------------------------------------------------------------------- the pages

CSS = """
@page { size: A4; }
body { font: 10.5pt/1.4 "DejaVu Sans", Arial, sans-serif; color: #111; margin: 0; }
main { max-width: 180mm; margin: 0 auto; }
h1 { font-size: 17pt; margin: 0 0 2mm 0; }
h2 { font-size: 12.5pt; margin: 5mm 0 1.5mm 0; border-bottom: 1.5px solid #888; break-after: avoid; }
p { margin: 0 0 2mm 0; }
.kicker { color: #444; margin: 0; font-size: 9.5pt; }
.who { display: flex; gap: 6mm; margin: 2mm 0 3mm 0; }
.who span { flex: 1; border-bottom: 1px solid #333; padding-top: 5mm; font-size: 9pt; color: #444; }
table.sheet { border-collapse: collapse; width: 100%; break-inside: auto; }
table.sheet th, table.sheet td { border: 1px solid #555; padding: 1mm 2mm; text-align: left; font-size: 9.5pt; }
table.sheet td { height: 6.2mm; }
table.sheet th { background: #eee; }
table.sheet td.n { width: 9mm; text-align: right; color: #444; white-space: nowrap; }
.totals { margin: 2mm 0; }
.totals span { display: inline-block; margin-right: 8mm; }
.blank { display: inline-block; min-width: 24mm; border-bottom: 1px solid #333; }
ol.q > li { margin: 0 0 2.5mm 0; break-inside: avoid; }
.lines { margin: 1mm 0 0 0; }
.lines div { border-bottom: 1px solid #999; height: 7mm; }
.options { list-style: none; padding: 0; margin: 1mm 0 0 0; }
.options li { margin: 0.6mm 0; }
.options li::before { content: "\\2610\\00a0\\00a0"; }
.answer { margin: 0.5mm 0 0 0; }
.answer b { color: #1b5e20; }
.note { color: #444; font-size: 9pt; }
"""


def _md(text: str) -> str:
    from markdown_it import MarkdownIt

    return MarkdownIt("commonmark").enable("table").render(text)


def _inline_md(text: str) -> str:
    from markdown_it import MarkdownIt

    return MarkdownIt("commonmark").renderInline(text)


def _page(title: str, kicker: str, body: str) -> str:
    mathjax = ("<script>window.MathJax = {tex: {inlineMath: [['$', '$'], ['\\\\(', '\\\\)']]}, "
               "svg: {fontCache: 'global'}, options: {ignoreHtmlClass: 'mathjax_ignore'}};</script>"
               '<script defer src="../_static/mathjax/tex-svg-full.js"></script>')
    return (f'<!DOCTYPE html>\n<html lang="en"><head><meta charset="utf-8"><title>{html.escape(title)}</title>'
            f"<style>{CSS}</style>{mathjax}</head><body><main>"
            f'<p class="kicker">{html.escape(kicker)}</p><h1>{html.escape(title)}</h1>{body}</main></body></html>\n')


def _lines(n: int) -> str:
    return '<div class="lines">' + "<div></div>" * n + "</div>"


def _lesson_name(ws: Worksheet) -> str:
    return "Start here" if ws.lesson.number == "00" else f"Chapter {int(ws.lesson.number)}"


def worksheet_html(ws: Worksheet) -> str:
    """The student's worksheet: no code, no answers; room to write."""
    body = ['<div class="who"><span>Name</span><span>Group</span><span>Date</span></div>']
    body.append("<h2>The activity</h2>" + "".join(_md(p) for p in ws.activity))
    rec = ws.record
    head = "".join(f"<th>{html.escape(c)}</th>" for c in rec.columns)
    if ws.lesson.number == "00":  # the comparison grid: one row a game, filled in the mixed groups
        from rumino.variants import VARIANTS

        games = [v.title for v in VARIANTS.values()]  # every game of the registry
        rows = "".join(f"<tr><th>{g}</th>" + "<td></td>" * (len(rec.columns) - 1) + "</tr>" for g in games)
        body.append(f"<h2>The comparison grid</h2><table class=\"sheet\"><thead><tr>{head}</tr></thead>"
                    f"<tbody>{rows}</tbody></table>")
    else:
        names = rec.labels or tuple(str(i) for i in range(1, rec.rows + 1))
        rows = "".join(f'<tr><td class="n">{html.escape(n)}</td>' + "<td></td>" * (len(rec.columns) - 1) + "</tr>"
                       for n in names)
        body.append(f"<h2>Tally sheet</h2><table class=\"sheet\"><thead><tr>{head}</tr></thead>"
                    f"<tbody>{rows}</tbody></table>")
        for t in ws.tallies:
            body.append(f'<p class="totals"><b>{html.escape(t["title"])}</b>: '
                        f'<span>{html.escape(t["success"])}: <span class="blank"></span></span>'
                        f'<span>{html.escape(t["unit"])} dealt: <span class="blank"></span></span></p>')
    if ws.quiz:
        items = []
        for q in ws.quiz:
            if q.kind == "multiple_choice":
                opts = "".join(f"<li>{html.escape(o)}</li>" for o in q.options)
                items.append(f"<li>{html.escape(q.text)}<ul class=\"options\">{opts}</ul></li>")
            else:
                items.append(f"<li>{html.escape(q.text)}{_lines(1)}</li>")
        body.append('<h2>Check yourself</h2><ol class="q">' + "".join(items) + "</ol>")
    if ws.questions:
        body.append('<h2>Review questions</h2><ol class="q">'
                    + "".join(f"<li>{_inline_md(q)}{_lines(3)}</li>" for q in ws.questions) + "</ol>")
    return _page(f"Worksheet: {ws.title}", f"{_lesson_name(ws)} · worksheet", "".join(body))


def key_html(ws: Worksheet) -> str:
    """The teacher's key: the quiz's right answers (the engine's) and the review questions' answers."""
    body = ['<p class="note">For the teacher: the answers of the worksheet. Every number was computed by the '
            "engine when the book was built.</p>"]
    for page_title, questions in ws.keys:
        if not questions:
            continue
        items = []
        for q in questions:
            said = re.sub(r"^Right[.:]\s*", "", q.feedback)
            said = said.removeprefix(q.answer).lstrip(". ") if q.kind == "numeric" else said
            extra = f' <span class="note">{html.escape(said)}</span>' if said else ""
            items.append(f"<li>{html.escape(q.text)}<p class=\"answer\"><b>{html.escape(q.answer)}</b>{extra}</p></li>")
        heading = "Check yourself" + (f": {html.escape(page_title)}" if len(ws.keys) > 1 else "")
        body.append(f'<h2>{heading}</h2><ol class="q">' + "".join(items) + "</ol>")
    if ws.answers:
        body.append('<h2>Review questions</h2><ol class="q">'
                    + "".join(f"<li>{_inline_md(a)}</li>" for a in ws.answers) + "</ol>")
    return _page(f"Quiz key: {ws.title}", f"{_lesson_name(ws)} · for the teacher", "".join(body))


# ---------------------------------------------------------------------------- writing and printing


def lessons_wanted(wanted=None) -> list[Lesson]:
    """The lessons named by chapter number (``5``, ``05``), ``00``/``00a`` (Start here) or plan name."""
    if not wanted:
        return list(LESSONS)
    out = []
    for w in wanted:
        key = Path(str(w)).stem.removeprefix("teach_")
        head = key.split("_")[0]
        number = f"{int(head[:2]):02d}" if head[:2].isdigit() else None
        hits = [s for s in LESSONS if s.number == number or s.stem == key]
        if not hits:
            raise CommandError(f"no lesson {w!r}: the worksheets are for 00 (Start here) and chapters 1 to 13.")
        out += [s for s in hits if s not in out]
    return out


def write_worksheets(build: str | Path, out: str | Path, wanted=None, *, echo=print, pdf: bool = True) -> list[Path]:
    """Write every lesson's worksheet and key as HTML into ``<build>/html/worksheets/`` and, with ``pdf``,
    print them into ``out`` (``NN_name-worksheet.pdf``) and ``out/keys`` (``NN_name-quiz-key.pdf``); an
    ``index.html`` in ``out`` lists them. Returns the PDFs (or the HTML pages without ``pdf``)."""
    build, out = Path(build), Path(out)
    staged, html_dir = build / STAGED, build / "html"
    if not (html_dir / "index.html").is_file() or not staged.is_dir():
        raise CommandError(f"{build} holds no built book (no html/index.html and {STAGED}/): run `rumino book build` "
                           f"first.")
    lessons = lessons_wanted(wanted)
    pages = html_dir / WORKSHEET_DIR
    pages.mkdir(parents=True, exist_ok=True)
    jobs, written = [], []
    for lesson in lessons:
        ws = read_worksheet(staged, lesson)
        name = lesson.stem
        for kind, text, folder in (("worksheet", worksheet_html(ws), out), ("quiz-key", key_html(ws), out / "keys")):
            page = pages / f"{name}-{kind}.html"
            page.write_text(text, encoding="utf-8")
            written.append(page)
            label = f"{_lesson_name(ws)}: {ws.title}" + (" · worksheet" if kind == "worksheet" else " · quiz key")
            jobs.append((f"{WORKSHEET_DIR}/{page.name}", folder / f"{name}-{kind}.pdf", label))
    if not pdf:
        return written
    echo(f"Printing {len(jobs)} worksheet and key PDFs into {out} …")
    reports = print_pages(html_dir, jobs, echo=echo)
    out.mkdir(parents=True, exist_ok=True)
    (out / "index.html").write_text(_index(reports, out), encoding="utf-8")
    return [r.path for r in reports]


def _index(reports, out: Path) -> str:
    rows = "".join(f'<li><a href="{html.escape(str(r.path.relative_to(out)))}">{html.escape(r.path.name)}</a> '
                   f"({r.pages} page{'s' if r.pages != 1 else ''})</li>" for r in reports)
    return ('<!DOCTYPE html>\n<html lang="en"><head><meta charset="utf-8"><title>rumino: worksheets</title>'
            "<style>body{font:18px/1.5 sans-serif;max-width:48em;margin:2em auto;padding:0 1em}a{color:#0b4a9e}"
            "</style></head><body><main><h1>Worksheets and quiz keys</h1><p>A worksheet per lesson for the "
            "students (no code, room to write), and in <code>keys/</code> the quiz key for the teacher only.</p>"
            f"<ul>{rows}</ul></main></body></html>\n")
