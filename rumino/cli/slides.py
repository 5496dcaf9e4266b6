"""``rumino book slides``: one reveal.js slide deck per chapter (and per page of *Start here*), for a
projector and a class that reads it from the back of the room.

A deck is built from the **executed** chapter that ``rumino book build`` keeps in
``<build>/_staged/`` (its figures and glued numbers are there), not from the output-free
source, and from the chapter's lesson plan (``teach_…``, its speaker notes).
:func:`chapter_slides` reads the chapter and decides the slides:

* a title slide (the chapter's title and the objectives of its "In this chapter" box);
* a ``##`` section opens a slide, a ``###`` subsection too; a paragraph shows its first sentence
  (a list each item's), and the whole paragraph goes to the slide's speaker notes; a slide holds
  at most :data:`WORDS` words, the rest is carried on to the next slide (between blocks, list items
  or sentences, never inside a formula);
* a figure (a cell with ``metadata.mystnb.figure``, or any plotly output) gets a slide of its
  own with its numbered caption's first sentence, its text at least :data:`FIGURE_FONT` px;
  tables and card pictures stay in the prose's flow;
* the activity with real cards of the lesson plan, the Key ideas box and the review questions are
  slides of their own;
* exercises, hints and solutions are left out, and so is every code cell's source unless the
  cell is tagged ``slide-code`` (``remove-cell`` cells are dropped whole).

The speaker notes (reveal.js's notes: press S) hold what a slide leaves out and the lesson plan's
notes: the timings on the title slide, the misconceptions and activity paragraphs that cite a
figure on its slide, the comparison on the activity's, the misconceptions on the key ideas', and the
answers on the review questions'. ``index.html?print-pdf`` lays every slide out for printing.

MyST markup is turned into plain Markdown (``{term}`` → the word, ``{glue:text}`` → the glued
value, ``{numref}`` → "Fig. 4.2", ``{doc}`` → the page's name, ``:::{admonition}`` → a heading
and its body) and :func:`write_deck` renders the slides with nbconvert's ``SlidesExporter``
(reveal.js), with a template that loads nothing from the network: reveal.js (from the
``sphinx-revealjs`` package), ``plotly.min.js`` (from ``plotly``) and MathJax (from
``django-static-mathjax``, as the book does) are copied into each deck's folder.

>>> md = _inline("A {term}`joker <joker>` and {term}`melds <meld>` cost {glue:text}`x`.", {"x": "10"}, {})
>>> md
'A joker and melds cost 10.'
"""

from __future__ import annotations

import argparse
import ast
import html
import itertools
import math
import os
import re
import shutil
import sys
import time
from dataclasses import dataclass, field
from pathlib import Path

from rumino.cli import CommandError
from rumino.cli.inputs import in_folder, out_folder
from rumino.cli.bookbuild import STAGED, BookError, chapter_pages, find_book

SLIDE_CODE_TAG = "slide-code"  # a code cell whose source is shown on its slide
SKIP_TAGS = {"remove-cell", "solution"}
# sections a projected lecture leaves out (the exercises live in the chapter and the handouts)
SKIP_SECTIONS = {"exercises", "a note for teachers", "check your answers"}
WIDTH, HEIGHT = 1280, 720  # the deck's size; reveal.js scales it to the screen
# how much prose a slide holds, in lines of about CHARS characters of 34 px type (measured on
# the chapters' decks in Chromium: the budget leaves a margin for bold words and formulas)
CHARS, LINES = 81, 13.5
HEADING_LINES = 1.9  # a slide's title with its margin
FIGURE_CAPTION_CHARS = 90  # characters per caption line (the caption is set a little smaller)
WORDS = 55  # words of prose a slide shows, its title and captions included (readable from the back: ≤ ~60)
LEAD_WORDS = 24  # a paragraph longer than this shows its first sentence; the whole goes to the notes
FIGURE_FONT = 22  # px: the smallest text in a figure on a slide


@dataclass
class Block:
    """One piece of a slide: Markdown (``md``), or a code cell's outputs (``cell``)."""

    lines: float
    md: str = ""
    cell: dict | None = None


@dataclass
class Slide:
    """A slide: its title, its blocks and its kind (``title``, ``text``, ``figure``, ``key``, ``review``)."""

    title: str
    kind: str = "text"
    blocks: list[Block] = field(default_factory=list)
    figure: dict | None = None  # kind figure: {"cell": ..., "caption": ..., "height": px}
    closed: bool = False  # holds a picture or a large table: the prose after it goes on the next slide
    notes: list[str] = field(default_factory=list)  # the speaker notes (Markdown)

    def used(self) -> float:
        return HEADING_LINES + sum(b.lines for b in self.blocks)

    def words(self) -> int:
        """Words of prose the slide shows: its title, its Markdown and its figure's caption."""
        text = [self.title] + [b.md for b in self.blocks if b.cell is None]
        if self.figure:
            text.append(self.figure["caption"])
        return sum(word_count(t) for t in text)


# ---------------------------------------------------------------------------- MyST → Markdown


def glue_values(nb) -> dict[str, str]:
    """The values a chapter glued (``{glue:text}`name```), read from its executed outputs."""
    values = {}
    for cell in nb["cells"]:
        for out in cell.get("outputs", ()):
            name = out.get("metadata", {}).get("scrapbook", {}).get("name")
            data = out.get("data", {})
            if name is None:
                continue
            text = next((v for k, v in data.items() if k.endswith("text/plain")), None)
            text = "".join(text) if isinstance(text, list) else text
            try:  # glue stores the repr of the value: '27,883,218,168' with its quotes
                value = ast.literal_eval(text)
            except (ValueError, SyntaxError, TypeError):
                value = text
            values[name] = str(value)
    return values


# The titles of the built book's pages, by file stem, read by :func:`write_decks` from the staged notebooks:
# a bare ``{doc}`` link shows its page's title on a slide, as the book shows it, not the file's name.
PAGE_TITLES: dict[str, str] = {}


def _role_text(content: str, role: str) -> str:
    """The words a role shows: ``text <target>`` shows ``text``; a bare ``{doc}`` its page's title (or name).

    >>> _role_text("the rules <rules/index>", "doc"), _role_text("99_a_page_never_built", "doc")
    ('the rules', '99 a page never built')
    """
    m = re.match(r"^(.*?)\s*<([^>]*)>$", content, re.DOTALL)
    if m and m.group(1):
        return m.group(1)
    target = m.group(2) if m else content
    if role == "doc":
        return PAGE_TITLES.get(Path(target).name) or Path(target).name.replace("_", " ")
    return target


def _page_title(nb) -> str | None:
    """The first heading of a notebook (its page title), without the Markdown.

    >>> _page_title({"cells": [{"cell_type": "markdown", "source": "# Gin Rummy at a glance\\n\\ntext"}]})
    'Gin Rummy at a glance'
    """
    for cell in nb["cells"]:
        if cell.get("cell_type") == "markdown":
            m = re.search(r"(?m)^# (.+)$", _source(cell))
            if m:
                return m.group(1).strip()
    return None


def _inline(text: str, glue: dict, figures: dict, where: str = "") -> str:
    """``text`` with MyST's roles replaced by plain words (see the module's docstring)."""

    def glued(m):
        name = m.group(1).split(":")[0]
        if name not in glue:
            raise BookError(f"{where}: {{glue:text}}`{name}` has no glued value in the executed chapter "
                            f"(was the book built from this version?).")
        value = html.escape(glue[name], quote=False)
        if "$" in value:  # "$10": a money sign, not the start of a formula for MathJax
            value = '<span class="mathjax_ignore">' + value.replace("$", "&#36;") + "</span>"
        return value

    def numref(m):
        label = re.sub(r"^.*<(.*)>$", r"\1", m.group(1))
        return figures.get(label, "the figure")

    text = re.sub(r"\s*\{cite:[a-z]+\}`[^`]*`", "", text)  # the references page lists the sources
    text = re.sub(r"\{glue(?::text)?\}`([^`]+)`", glued, text)
    text = re.sub(r"\{numref\}`([^`]+)`", numref, text)
    text = re.sub(r"\{([a-z][\w:-]*)\}`([^`]*)`", lambda m: _role_text(m.group(2), m.group(1)), text)
    text = re.sub(r"(?<!!)\[([^\]]+)\]\([^)\s]+\)", r"\1", text)  # links: the deck has no other pages
    text = re.sub(r"<!--.*?-->", "", text, flags=re.DOTALL)
    return text


_FENCE = re.compile(r"^(:{3,}|`{3,})\{([\w:-]+)\}\s*(.*)$")
_CODE_FENCE = re.compile(r"^(`{3,}|~{3,})")
_HEADING = re.compile(r"^(#{1,6})\s+(.*?)\s*#*\s*$")
_LIST_ITEM = re.compile(r"^\s{0,3}(?:[*+-]|\d+[.)])\s+")


def parse_blocks(src: str) -> list[tuple]:
    """A Markdown cell as blocks: ``("directive", name, argument, options, body)``, ``("heading",
    level, text)``, ``("math", text)``, ``("code", text)`` and ``("para", text)``.

    >>> [b[0] for b in parse_blocks("# T\\n\\ntext\\n:::{admonition} Hint\\n:class: dropdown\\nx\\n:::\\n$$\\nx\\n$$")]
    ['heading', 'para', 'directive', 'math']
    """
    lines = src.split("\n")
    out, i = [], 0
    while i < len(lines):
        line = lines[i]
        if not line.strip() or re.match(r"^\([\w:-]+\)=\s*$", line):  # blank, or a MyST label
            i += 1
            continue
        m = _FENCE.match(line)
        if m:
            fence, name, arg = m.groups()
            j = i + 1
            while j < len(lines) and lines[j].strip() != fence:
                j += 1
            body = lines[i + 1:j]
            options = {}
            while body and re.match(r"^:[\w-]+:", body[0]):
                key, _, value = body.pop(0)[1:].partition(":")
                options[key] = value.strip()
            out.append(("directive", name, arg.strip(), options, "\n".join(body)))
            i = j + 1
            continue
        m = _CODE_FENCE.match(line)
        if m:
            j = i + 1
            while j < len(lines) and not lines[j].startswith(m.group(1)):
                j += 1
            out.append(("code", "\n".join(lines[i + 1:j])))
            i = j + 1
            continue
        m = _HEADING.match(line)
        if m:
            out.append(("heading", len(m.group(1)), m.group(2)))
            i += 1
            continue
        if line.strip().startswith("$$"):
            j = i
            if not (line.strip() != "$$" and line.strip().endswith("$$") and len(line.strip()) > 4):
                j = i + 1
                while j < len(lines) and "$$" not in lines[j]:
                    j += 1
            out.append(("math", "\n".join(lines[i:j + 1])))
            i = j + 1
            continue
        j = i
        while j < len(lines) and lines[j].strip() and not (
                j > i and (_FENCE.match(lines[j]) or _CODE_FENCE.match(lines[j]) or _HEADING.match(lines[j])
                           or lines[j].strip().startswith("$$"))):
            j += 1
        out.append(("para", "\n".join(lines[i:j])))
        i = j
    return out


# ---------------------------------------------------------------------------- measuring prose


def _visible(md: str) -> str:
    text = re.sub(r"<[^>]+>", "", md)
    text = re.sub(r"\$([^$]*)\$", lambda m: "x" * max(1, len(m.group(1)) // 2), text)  # a formula draws shorter
    return text.replace("**", "").replace("`", "")


def text_lines(md: str, chars: int = CHARS) -> float:
    """Lines the Markdown ``md`` takes on a slide (with the space after it).

    >>> text_lines("word " * 30)
    2.4
    """
    if md.lstrip().startswith("$$"):
        tall = re.search(r"\\(frac|binom|sum|prod|int)", md) is not None  # a stacked formula is two lines high
        return (2.6 if tall else 1.6) + 1.4 * md.count("\\\\")
    lines = 0.0
    for item in _split_items(md):
        first = item.split("\n", 1)[0]
        indent = 4 if _LIST_ITEM.match(first) else 0
        lines += max(1, math.ceil(len(_visible(" ".join(item.split()))) / (chars - indent)))
    return round(lines + 0.4, 2)


def word_count(md: str) -> int:
    """Words a reader sees in ``md`` (a formula counts one; tags and markup none).

    >>> word_count("The **chance** is $p = 1/3$ <b>here</b>.")
    5
    """
    text = re.sub(r"\$\$.*?\$\$", " x ", md, flags=re.DOTALL)
    text = re.sub(r"\$[^$]*\$", " x ", text)
    text = re.sub(r"<[^>]+>", " ", text)
    text = re.sub(r"^\s*(?:[*+-]|\d+[.)])\s+", " ", text, flags=re.M)
    return len([w for w in re.split(r"\s+", text.replace("**", "").replace("`", "")) if re.search(r"\w", w)])


def lead(md: str) -> str:
    """What a slide shows of a paragraph: its first sentence when it is long, each list item's first
    sentence; a formula whole.

    >>> lead("One short sentence. " + "Then a long one with many words " * 4 + "at last.")
    'One short sentence.'
    """
    if md.lstrip().startswith("$$"):
        return md
    items = _split_items(md)
    if len(items) > 1 or _LIST_ITEM.match(items[0]):
        out = []
        for item in items:
            first, *rest = item.split("\n", 1)
            marker = _LIST_ITEM.match(first)
            body = " ".join(item[marker.end():].split()) if marker else " ".join(item.split())
            short = _short(_sentences(body)[0]) if word_count(body) > LEAD_WORDS // 2 else body
            out.append((marker.group(0) if marker else "") + short)
        return "\n".join(out)
    if word_count(md) <= LEAD_WORDS:
        return md
    parts = _sentences(md)
    if not parts:
        return md
    if len(parts) > 1 and parts[0].startswith("**") and word_count(parts[0]) <= 6:  # a label: "**Deal.**" …
        return parts[0] + " " + _short(parts[1])
    return _short(parts[0])


def _split_items(md: str) -> list[str]:
    """A paragraph's list items (a paragraph that is not a list is one item)."""
    rows = md.split("\n")
    items: list[list[str]] = []
    for row in rows:
        if _LIST_ITEM.match(row) or not items:
            items.append([row])
        else:
            items[-1].append(row)
    return ["\n".join(i) for i in items]


def _sentences(md: str) -> list[str]:
    """``md`` cut between sentences (never inside a formula); a sentence keeps the bold or italic markup
    that closes after its full stop.

    >>> _sentences("**Deal.** Each group deals. Then $x. Y$ counts.")
    ['**Deal.**', 'Each group deals.', 'Then $x. Y$ counts.']
    """
    parts, start, in_math = [], 0, False
    for k, ch in enumerate(md):
        if ch == "$":
            in_math = not in_math
        elif not in_math and ch in ".?!":
            end = k + 1
            while md[end:end + 1] in ("*", "_", ")", '"', "”"):
                end += 1
            if md[end:end + 1] in (" ", "\n") and re.match(r"\s+[*_]*[A-Z(“\"]", md[end:end + 6]):
                parts.append(md[start:end].strip())
                start = end
    parts.append(md[start:].strip())
    return [p for p in parts if p]


LEAD_MAX = 40  # a first sentence longer than this is cut at a clause (its whole is in the notes)


def _short(sentence: str) -> str:
    """A sentence cut to at most :data:`LEAD_MAX` words at its last clause boundary before, with an ellipsis."""
    if word_count(sentence) <= LEAD_MAX:
        return sentence
    words = sentence.split(" ")
    for n in range(len(words) - 1, 8, -1):
        head = " ".join(words[:n])
        if word_count(head) <= LEAD_MAX and head.count("$") % 2 == 0 and re.search(r"[,;:]$", head):
            return head[:-1] + " …"
    return sentence


# ---------------------------------------------------------------------------- the slides of a chapter


def _source(cell) -> str:
    src = cell.get("source", "")
    return "".join(src) if isinstance(src, list) else src


def _is_plotly(out) -> bool:
    data = out.get("data", {})
    htm = data.get("text/html", "")
    htm = "".join(htm) if isinstance(htm, list) else htm
    return "application/vnd.plotly.v1+json" in data or "Plotly.newPlot" in htm


def _plain_figure(out) -> bool:
    """An HTML output that is one plotly figure (or a menu over figures) and no table."""
    htm = out.get("data", {}).get("text/html", "")
    n = htm.count("Plotly.newPlot")
    return "<table" not in htm and (n == 1 or (n > 1 and "rumino-choices" in htm))


def _slide_outputs(cell, *, figure: bool) -> list[dict]:
    """The outputs a slide shows: HTML (figures, tables, cards) and short printed lines."""
    keep = []
    for out in cell.get("outputs", ()):
        kind = out.get("output_type")
        if kind == "stream" and out.get("name") == "stdout" and not figure:
            text = "".join(out["text"]) if isinstance(out["text"], list) else out["text"]
            rows = text.rstrip("\n").split("\n")
            if len(rows) <= 3 and max(len(r) for r in rows) <= 72:  # a long print-out reads badly on a screen
                keep.append({"output_type": "stream", "name": "stdout", "text": text})
        elif kind in ("display_data", "execute_result") and "text/html" in out.get("data", {}):
            htm = out["data"]["text/html"]
            htm = "".join(htm) if isinstance(htm, list) else htm
            keep.append({"output_type": "display_data", "metadata": {}, "data": {"text/html": htm}})
    return keep


def _output_lines(outputs: list[dict]) -> float:
    """A rough height of outputs in lines of prose (the deck scales pictures and tables to fit)."""
    lines = 0.0
    for out in outputs:
        if out["output_type"] == "stream":
            lines += 0.6 + out["text"].count("\n")
        else:
            htm = out["data"]["text/html"]
            rows = htm.count("<tr")
            lines += 1.0 + 1.05 * rows if rows else 4.5
    return lines


class _Deck:
    """Turns a chapter's blocks into slides, one after the other."""

    def __init__(self, chapter: str, glue: dict, figures: dict):
        self.chapter, self.glue, self.figures = chapter, glue, figures
        self.slides: list[Slide] = []
        self.title = ""
        self.section = ""
        self.figure_slides: dict[str, Slide] = {}  # figure label -> its slide (for the plan's notes)

    def new(self, title: str, kind: str = "text") -> Slide:
        self.slides.append(Slide(title, kind))
        return self.slides[-1]

    @property
    def current(self) -> Slide:
        return self.slides[-1] if self.slides else self.new(self.title)

    def md(self, text: str) -> str:
        return _inline(text, self.glue, self.figures, self.chapter)

    def add_md(self, md: str, *, splittable: bool = True, whole: bool = False) -> None:
        """Markdown in the flow: on this slide if it fits (in lines and in words), else on the next one; a
        piece longer than a whole slide is cut between list items or sentences and spread over as many as
        it needs. Unless ``whole``, a long paragraph shows its first sentence (:func:`lead`) and the whole of
        it goes to the speaker notes."""
        shown = md if whole else lead(md)
        if shown != md:
            self.current.notes.append(md)
        md = shown
        slide = self.current
        need = text_lines(md)
        words = word_count(md)

        def fits(sl, lines, w):
            return lines <= LINES - sl.used() and sl.words() + w <= WORDS

        # a figure's slide holds the figure and its caption only; a picture's, a last short sentence
        if slide.kind == "figure" or (slide.closed and (need > 3 or md.rstrip().endswith(":")
                                                         or slide.used() + need > LINES)):
            slide = self.carry_on()
        if fits(slide, need, words):
            slide.blocks.append(Block(need, md))
            return
        # a paragraph that fits on a slide of its own moves there whole, unless this one is half empty
        alone = need <= LINES - HEADING_LINES and words + word_count(slide.title) <= WORDS
        if not splittable or (alone and (LINES - slide.used() < 6 or WORDS - slide.words() < 20)):
            slide = self.carry_on(lead_in=True)
            if slide.blocks and not fits(slide, need, words):
                slide = self.carry_on()
            slide.blocks.append(Block(need, md))
            return
        units = _split_items(md)
        if len(units) == 1:
            units = _sentences(md)
        chunk = ""
        for unit in units:
            joined = f"{chunk}\n{unit}" if chunk and _LIST_ITEM.match(unit) else f"{chunk} {unit}".strip()
            if chunk and not fits(slide, text_lines(joined), word_count(joined)):
                if slide.blocks and not fits(slide, text_lines(chunk), word_count(chunk)):
                    slide = self.carry_on()
                slide.blocks.append(Block(text_lines(chunk), chunk))
                slide, joined = self.carry_on(), unit
            chunk = joined
        if chunk:
            if slide.blocks and not fits(slide, text_lines(chunk), word_count(chunk)):
                slide = self.carry_on()
            slide.blocks.append(Block(text_lines(chunk), chunk))

    def carry_on(self, *, lead_in: bool = False) -> Slide:
        """A new slide that continues the current one (same title); with ``lead_in``, a last short
        paragraph ending with a colon moves along with what it announces."""
        prev = self.current
        kind = prev.kind if prev.kind in ("key", "review") else "text"
        title = prev.title if prev.kind != "title" else "In this chapter"
        slide = self.new(title, kind)
        last = prev.blocks[-1] if prev.blocks else None
        if lead_in and _leads_in(last) and len(prev.blocks) > 1:
            prev.blocks.remove(last)
            slide.blocks.append(last)
        return slide

    def add_outputs(self, cell: dict, outputs: list[dict]) -> None:
        """A cell's outputs in the flow. A card picture or a table of more than 4 rows shares its slide
        only with the few lines that lead in to it (the deck then scales it to fill the slide); short
        print-outs and small tables stay in the prose."""
        lines = _output_lines(outputs)
        small = all(o["output_type"] == "stream" or 0 < o["data"]["text/html"].count("<tr") <= 5
                    for o in outputs)
        slide = self.current
        lead_in = slide.blocks[-1] if slide.blocks and slide.blocks[-1].cell is None else None
        prose = slide.used() - HEADING_LINES - (lead_in.lines if _leads_in(lead_in) else 0)
        if slide.kind == "title" or slide.kind == "figure" or (slide.closed and slide.used() + lines > LINES) \
                or (not small and prose > 3) or (small and slide.blocks and slide.used() + lines > LINES):
            slide = self.carry_on()
            if _leads_in(lead_in) and lead_in in self.slides[-2].blocks:
                self.slides[-2].blocks.remove(lead_in)  # "…the three hands:" goes with the hands
                slide.blocks.append(lead_in)
        code = {"cell_type": "code", "execution_count": None, "source": _source(cell),
                "metadata": {"tags": ["slide-visual"] + ([SLIDE_CODE_TAG] if _shows_code(cell) else [])},
                "outputs": outputs}
        slide.blocks.append(Block(min(lines, LINES - HEADING_LINES), cell=code))
        slide.closed = slide.closed or not small

    def add_figure(self, cell: dict, outputs: list[dict], caption: str, number: str | None) -> None:
        full = self.md(caption)
        cap = _sentences(full)[0] if full and word_count(full) > LEAD_WORDS else full
        if number:
            cap = f"**{number}** {cap}" if cap else f"**{number}**"
        cap_lines = math.ceil(len(_visible(cap)) / FIGURE_CAPTION_CHARS) if cap else 0
        prev = self.current  # the figure sits under the heading of the prose before it
        slide = self.new(prev.title if prev.kind in ("text", "figure") else self.section or self.title, "figure")
        code = {"cell_type": "code", "execution_count": None, "source": _source(cell),
                "metadata": {"tags": ["slide-figure"] + ([SLIDE_CODE_TAG] if _shows_code(cell) else [])},
                "outputs": outputs}
        # the plot takes what the slide's title and the caption leave (26 px type, 34 px a line)
        height = HEIGHT - 40 - 80 - 34 * cap_lines - 24
        slide.figure = {"cell": code, "caption": cap, "height": max(260, height)}
        if full and cap.removeprefix(f"**{number}** ") != full:
            slide.notes.append(f"{number}: {full}" if number else full)
        self.figure_slides[(cell.get("metadata", {}).get("mystnb", {}).get("figure") or {}).get("name")] = slide


def _leads_in(block: Block | None) -> bool:
    """A short paragraph that announces what follows ("…the three hands and the upcard:")."""
    return block is not None and block.cell is None and block.md.rstrip().endswith(":") and block.lines <= 5


def _shows_code(cell) -> bool:
    return SLIDE_CODE_TAG in cell.get("metadata", {}).get("tags", [])


def figure_numbers(nb, chapter_number: int) -> dict[str, str]:
    """``{figure label: "Fig. 4.2"}``, numbered as the book numbers them (chapter.figure)."""
    out, k = {}, 0
    for cell in nb["cells"]:
        fig = cell.get("metadata", {}).get("mystnb", {}).get("figure")
        if cell.get("cell_type") == "code" and fig:
            k += 1
            if fig.get("name"):
                out[fig["name"]] = f"Fig. {chapter_number}.{k}"
    return out


def deck_number(stem: str) -> int | None:
    """A chapter's number (``4`` for ``04_…``), ``None`` for a page of *Start here* (``00a_…``)."""
    head = stem.split("_")[0]
    return int(head) if head.isdigit() else None


def chapter_slides(nb, stem: str, plan=None) -> list[Slide]:
    """The slides of an executed chapter notebook, with the speaker notes of its executed lesson plan
    ``plan`` if given (see the module's docstring)."""
    number = deck_number(stem)
    figures = figure_numbers(nb, number) if number else {}  # Start here's figures go unnumbered
    deck = _Deck(stem, glue_values(nb), figures)
    in_solution = skip_section = False

    def directive(name, arg, options, body):
        nonlocal in_solution
        classes = options.get("class", "").split()
        if name == "solution-start":
            in_solution = True
        elif name == "solution-end":
            in_solution = False
        elif name in ("exercise", "solution") or "dropdown" in classes:
            pass  # exercises and hints are for the handouts, not the projector
        elif "rumino-frame" in classes:  # "In this chapter": the objectives go on the title slide
            for b in parse_blocks(body):
                if b[0] == "para" and not b[1].startswith("**Prerequisites"):
                    text = deck.md(b[1]).replace("**You will learn** to", "You will learn to")
                    text = re.sub(r"^\*\*(You will [a-z]+)\*\*", r"\1", text)
                    deck.add_md(text)
            deck.new(deck.title)  # the prose before the first section
        elif "rumino-key-ideas" in classes or arg.lower() == "key ideas":
            deck.new(arg or "Key ideas", "key")
            blocks(parse_blocks(body))
            deck.new(deck.section or deck.title)
        else:  # any other box: its title as a heading, then its body
            if arg:
                deck.add_md(f"### {deck.md(arg)}", splittable=False)
            blocks(parse_blocks(body))

    def blocks(items):
        nonlocal skip_section
        for b in items:
            if b[0] == "directive":
                # a solution's end is read even inside the solution
                if b[1] in ("solution-start", "solution-end") or not (in_solution or skip_section):
                    directive(*b[1:])
                continue
            if in_solution:
                continue
            if b[0] == "heading":
                level, text = b[1], deck.md(b[2])
                if level == 1:
                    deck.title = text
                    deck.new(text, "title")
                elif level == 2:
                    skip_section = text.strip().lower() in SKIP_SECTIONS
                    deck.section = text
                    if not skip_section:
                        deck.new(text)
                elif not skip_section:
                    deck.new(text)
                continue
            if skip_section or b[0] == "code":  # code in prose is not shown either
                continue
            if b[0] == "math":
                deck.add_md(b[1], splittable=False)
            elif b[1].strip() == "**Review questions**":
                deck.new("Review questions", "review")
            elif b[1].startswith("**Check yourself.**"):
                continue  # the lead-in of the page's quiz, which a projector does not show
            else:  # the review questions are shown whole, over as many slides as they need
                deck.add_md(deck.md(b[1]), whole=deck.current.kind == "review")

    for cell in nb["cells"]:
        tags = set(cell.get("metadata", {}).get("tags", []))
        if cell.get("cell_type") == "markdown":
            blocks(parse_blocks(_source(cell)))
            continue
        if cell.get("cell_type") != "code" or in_solution or skip_section or tags & SKIP_TAGS:
            continue
        fig = cell.get("metadata", {}).get("mystnb", {}).get("figure")
        is_fig = bool(fig) or any(_is_plotly(o) for o in cell.get("outputs", ()))
        outputs = _slide_outputs(cell, figure=is_fig)
        if is_fig and not fig and "remove-input" in tags and not all(_plain_figure(o) for o in outputs):
            continue  # a live widget's page (a figure with its readout and tables) is too busy for a slide
        if is_fig:
            figs = [o for o in outputs if "Plotly.newPlot" in o.get("data", {}).get("text/html", "")]
            name = (fig or {}).get("name")
            deck.add_figure(cell, figs or outputs, (fig or {}).get("caption", ""), figures.get(name))
        elif (outputs and "remove-input" not in tags) or _shows_code(cell):
            deck.add_outputs(cell, outputs)  # (a live widget's static view, remove-input, needs its page)
    slides = [s for s in deck.slides if s.blocks or s.figure or s.kind == "title"]
    if plan is not None:
        slides = _with_plan(slides, deck, plan, stem)
    for a, b in itertools.pairwise(slides):
        if b.kind == "text" and b.title == a.title and a.kind != "title":
            b.kind = "text-more"  # a continuation: its title says so
    return slides


_PLAN_COMPARE = re.compile(r"^\*\*(Compare|What the class compares)\b")


def _plan_section(plan, heading: str) -> str:
    md = "\n\n".join(_source(c) for c in plan["cells"] if c.get("cell_type") == "markdown")
    m = re.search(rf"(?ms)^## {re.escape(heading)}\s*$(.*?)(?=^## |\Z)", md)
    return m.group(1).strip() if m else ""


def _with_plan(slides: list[Slide], deck: _Deck, plan, stem: str) -> list[Slide]:
    """The lesson plan's notes on their slides, and a slide for the activity with real cards."""
    glue = glue_values(plan)

    def words(text):
        return _inline(text, glue, deck.figures, f"the lesson plan of {stem}")

    start_here = deck_number(stem) is None
    first_page = not start_here or stem.startswith("00a_")
    timings = _plan_section(plan, "Timings")
    if timings and first_page:
        slides[0].notes.append("**The lesson** (the lesson plan's timings):\n\n" + words(timings))
    paras = [words(p) for sec in ("Timings", "Activity with real cards", "Misconceptions")
             for p in re.split(r"\n\s*\n", _plan_section(plan, sec))]
    raw = [p for sec in ("Timings", "Activity with real cards", "Misconceptions")
           for p in re.split(r"\n\s*\n", _plan_section(plan, sec))]
    for label, slide in deck.figure_slides.items():
        if not label:
            continue
        cited = [w for w, r in zip(paras, raw) if f"<{label}>" in r or f"`{label}`" in r]
        if cited:
            slide.notes.append("**From the lesson plan:**\n\n" + "\n\n".join(cited))
    misconceptions = _plan_section(plan, "Misconceptions")
    answers = _plan_section(plan, "Answers to the review questions")
    if start_here:  # one ### subsection a page
        title = slides[0].title
        m = re.search(rf"(?ms)^### {re.escape(title)}\s*$(.*?)(?=^### |\Z)", answers)
        answers = m.group(1).strip() if m else ""
    for sl in slides:
        if sl.kind == "key" and misconceptions and first_page:
            sl.notes.append("**Misconceptions** (the lesson plan):\n\n" + words(misconceptions))
            misconceptions = ""
        if sl.kind == "review" and answers:
            sl.notes.append("**Answers** (the lesson plan):\n\n" + words(answers))
            answers = ""
    activity = _plan_section(plan, "Activity with real cards")
    if not activity or not first_page:
        return slides
    shown, told = [], []
    for para in re.split(r"\n\s*\n", activity):
        if _PLAN_COMPARE.match(para.strip()):
            break
        shown.append(words(para.strip()))
    act = _Deck(stem, glue, deck.figures)
    act.new("Activity with real cards")
    for para in shown:
        act.add_md(para)
    for sl in act.slides:
        sl.notes = ["**The whole activity** (the lesson plan):\n\n" + words(activity)]
    at = next((i for i, sl in enumerate(slides) if sl.kind == "key"), len(slides))
    return slides[:at] + [sl for sl in act.slides if sl.blocks] + slides[at:]


# ---------------------------------------------------------------------------- the deck as a notebook


def slides_notebook(slides: list[Slide], title: str):
    """A notebook whose cells carry reveal.js slide metadata, for nbconvert's SlidesExporter."""
    import nbformat

    cells = []

    def cell(kind, source="", *, slide=False, data=None, proto=None):
        meta = {"slideshow": {"slide_type": "slide" if slide else "-"}}
        if data:
            meta["slideshow"]["data"] = data
        if kind == "markdown":
            c = nbformat.v4.new_markdown_cell(source, metadata=meta)
        else:
            c = nbformat.v4.new_code_cell(proto["source"], metadata={**proto["metadata"], **meta})
            c.outputs = [nbformat.from_dict(o) for o in proto["outputs"]]
            if SLIDE_CODE_TAG not in proto["metadata"]["tags"]:
                c.metadata["transient"] = {"remove_source": True}
        cells.append(c)

    for n, s in enumerate(slides, 1):
        data = {"kind": s.kind, "n": str(n)}
        if s.kind == "title":
            head = f"# {s.title}\n\n"
        elif s.kind == "figure":
            data["fig_height"] = str(s.figure["height"])
            head = f"## {s.title}\n\n"
        else:
            head = f"## {s.title}\n\n"
        text = head
        first = True
        for b in s.blocks:
            if b.cell is None:
                text += b.md + "\n\n"
                continue
            cell("markdown", text, slide=first, data=data if first else None)
            first, text = False, ""
            cell("code", proto=b.cell)
        if s.figure:
            cell("markdown", text, slide=first, data=data if first else None)
            first, text = False, ""
            cell("code", proto=s.figure["cell"])
            if s.figure["caption"]:
                text = f'<div class="rumino-caption">\n\n{s.figure["caption"]}\n\n</div>'
        if text or first:
            cell("markdown", text, slide=first, data=data if first else None)
        if s.notes:
            notes = nbformat.v4.new_markdown_cell("\n\n".join(s.notes), metadata={"slideshow": {"slide_type": "notes"}})
            cells.append(notes)
    nb = nbformat.v4.new_notebook(cells=cells)
    nb.metadata["title"] = title
    nb.metadata["language_info"] = {"name": "python"}
    return nb


# ---------------------------------------------------------------------------- writing the decks

ASSETS = "_deck"  # each deck's folder holds its own copy of the libraries (a deck works alone)

_TEMPLATE = """{%- extends 'reveal/index.html.j2' -%}
{%- block html_head_js -%}
<script src="_deck/plotly.min.js"></script>
<script src="_deck/reveal.js/dist/reveal.js"></script>
<script src="_deck/reveal.js/plugin/notes/notes.js"></script>
<script src="_deck/deck.js"></script>
{%- endblock html_head_js -%}
{%- block jupyter_widgets -%}{%- endblock jupyter_widgets -%}
{%- block notebook_css -%}
<link rel="stylesheet" href="_deck/reveal.js/dist/reset.css">
<link rel="stylesheet" href="_deck/deck.css">
{%- endblock notebook_css -%}
{%- block html_head_js_mathjax -%}
<script>
window.MathJax = {tex: {inlineMath: [['$', '$'], ['\\\\(', '\\\\)']], displayMath: [['$$', '$$'], ['\\\\[', '\\\\]']],
  processEscapes: true}, svg: {fontCache: 'global'}, options: {ignoreHtmlClass: 'mathjax_ignore'}};
</script>
<script defer src="_deck/mathjax/tex-svg-full.js"></script>
{%- endblock html_head_js_mathjax -%}
{%- block footer_js -%}{%- endblock footer_js -%}
"""

DECK_CSS = """/* rumino slides: large type for a projector, 1280×720 */
html, body, main { width: 100%; height: 100%; margin: 0; padding: 0; overflow: hidden; }
/* ?print-pdf: reveal.js lays every slide out, one a page; the page must grow and scroll */
html.print-pdf, html.print-pdf body, html.print-pdf main { height: auto; overflow: visible; }
.reveal aside.notes { display: none; }
.reveal { --r-main-font-size: 34px; --r-heading-text-transform: none; --r-heading-font-weight: 700;
  --r-heading1-size: 60px; --r-heading2-size: 44px; --r-heading3-size: 34px; --r-block-margin: 14px;
  --r-main-color: #1d1d1d; --r-heading-color: #1b3a5c; --r-link-color: #0b4a9e; }
.reveal .slides { text-align: left; }
.reveal .slides section { height: 100%; padding: 0; box-sizing: border-box; line-height: 1.3; }
.reveal .slides section h1 { margin: 120px 0 30px 0; line-height: 1.1; }
.reveal .slides section h2 { margin: 0 0 18px 0; padding-bottom: 6px; border-bottom: 3px solid #c9d6e3; }
.reveal .slides section[data-kind="text-more"] h2::after { content: " (continued)"; font-weight: 400;
  color: #555; font-size: 0.7em; }
.reveal .slides section[data-kind="key"] h2 { border-bottom-color: #2e7d32; }
.reveal .slides section[data-kind="review"] h2 { border-bottom-color: #e0a000; }
.reveal .slides section h3 { margin: 10px 0 6px 0; color: #333; }
.reveal p { margin: 0 0 14px 0; line-height: 1.3; }
.reveal ul, .reveal ol { display: block; margin: 0 0 14px 1.1em; }
.reveal li { margin: 0 0 8px 0; line-height: 1.3; }
.reveal a.anchor-link { display: none; }
.reveal .jp-InputPrompt, .reveal .jp-OutputPrompt { display: none; }
.reveal .jp-Cell, .reveal .jp-OutputArea-output, .reveal .jp-RenderedHTMLCommon { width: 100%; }
.reveal .jp-RenderedHTMLCommon > :last-child { margin-bottom: 0; }
.reveal .slides section[data-kind="title"] p, .reveal .slides section[data-kind="title"] li { font-size: 30px; }
.reveal .slides section[data-kind="title"] .rumino-kicker { color: #555; margin: 0; }
.reveal .slides section[data-kind="figure"] h2 { font-size: 34px; margin-bottom: 8px; }
.reveal .rumino-caption p { font-size: 28px; line-height: 1.2; margin: 8px 0 0 0; color: #222; }
.reveal .celltag_slide-visual { margin: 4px 0 14px 0; }
.reveal .celltag_slide-visual .jp-OutputArea-child { width: fit-content; max-width: 100%; }
.reveal .celltag_slide-visual pre, .reveal .jp-OutputArea-output pre { font-size: 26px; line-height: 1.25;
  background: #f3f5f8; padding: 6px 14px; margin: 0; white-space: pre-wrap; box-shadow: none; width: auto; }
.reveal .celltag_slide-code .jp-InputArea pre { font-size: 24px; line-height: 1.25; background: #f3f5f8;
  padding: 8px 14px; box-shadow: none; width: auto; }
.reveal .slides table { border-collapse: collapse; margin: 0; font-size: 26px; }
.reveal table th, .reveal table td { border: 1px solid #bbb; padding: 2px 12px; text-align: right; }
.reveal table th { background: #eef2f6; }
.reveal table caption { caption-side: top; font-style: italic; text-align: left; }
.reveal .rumino-live-note, .reveal .rumino-alt { display: none; }
.reveal .rumino-figure { width: 100%; }
.reveal mjx-container { font-size: 100%; }
.reveal .controls { color: #1b3a5c; }
.reveal .slide-number { font-size: 18px; background: transparent; color: #555; }
"""

DECK_JS = """/* rumino slides: plotly sized for the slide, pictures and tables fitted, reveal.js started */
(function () {
  var H = %(height)d, FONT = %(font)d;
  var FONT_KEYS = /^(font|tickfont|titlefont|textfont|insidetextfont|outsidetextfont|legendgrouptitlefont)$/;
  function bigger(obj) {  /* every font object in a figure's layout or trace, at least FONT px */
    if (!obj || typeof obj !== 'object') return;
    Object.keys(obj).forEach(function (k) {
      var v = obj[k];
      if (FONT_KEYS.test(k) && v && typeof v === 'object' && !Array.isArray(v)) {
        obj[k] = Object.assign({}, v, {size: Math.max(FONT, typeof v.size === 'number' ? v.size : 0)});
      } else if (v && typeof v === 'object') bigger(v);
    });
  }
  var newPlot = Plotly.newPlot;
  Plotly.newPlot = function (div, data, layout, config) {  // the figures' own call, in each output
    var el = typeof div === 'string' ? document.getElementById(div) : div;
    var sec = el && el.closest('section');
    var h = sec && sec.dataset.figHeight ? Number(sec.dataset.figHeight) : 440;
    layout = Object.assign({}, layout || {});
    delete layout.width;
    layout.height = h;
    layout.autosize = true;
    bigger(layout);  // every text of the figure at least %(font)d px: readable from the back of the room
    layout.font = Object.assign({}, layout.font || {});
    layout.font.size = Math.max(FONT, layout.font.size || 0);
    layout.uniformtext = {minsize: FONT, mode: 'show'};  // bar labels are never shrunk below it
    Object.keys(layout).forEach(function (k) {  // a log axis labels its decades only: plotly draws the
      var ax = layout[k];                         // labels between them (2, 5) smaller than the font
      if (/^[xy]axis\\d*$/.test(k) && ax && ax.type === 'log' && ax.dtick === undefined) {
        layout[k] = Object.assign({}, ax, {dtick: 1});
      }
    });
    (data || []).forEach(function (trace) { bigger(trace); });
    el.style.height = h + 'px';
    if (el.parentElement && el.parentElement.style.height) el.parentElement.style.height = h + 'px';
    config = Object.assign({}, config || {}, {displayModeBar: false, responsive: true});
    return newPlot.call(Plotly, el, data, layout, config);
  };
  function contentHeight(sec) {
    var top = sec.getBoundingClientRect().top, bottom = top;
    sec.querySelectorAll(':scope > *').forEach(function (c) {
      bottom = Math.max(bottom, c.getBoundingClientRect().bottom);
    });
    return (bottom - top) / Reveal.getScale();
  }
  // tables and card pictures grow (up to 1.6x) or shrink to fill what the prose leaves, without
  // running off the slide at the bottom or the side
  function fits(sec, vis) {
    if (contentHeight(sec) > H - 24) return false;
    for (var i = 0; i < vis.length; i++) if (vis[i].scrollWidth > vis[i].clientWidth + 2) return false;
    return true;
  }
  function fit(sec) {  // printed lines keep their size; pictures and tables are scaled
    var vis = [].filter.call(sec.querySelectorAll('.celltag_slide-visual .jp-OutputArea-child'),
                             function (c) { return !c.querySelector('.jp-RenderedText'); });
    if (!vis.length) return;
    vis.forEach(function (v) { v.style.zoom = 1; });
    var total = contentHeight(sec), own = 0;
    vis.forEach(function (v) { own += v.getBoundingClientRect().height / Reveal.getScale(); });
    var z = Math.max(0.4, Math.min(1.6, (H - 24 - (total - own)) / Math.max(own, 1)));
    for (;;) {
      vis.forEach(function (v) { v.style.zoom = z; });
      if (z <= 0.4 || fits(sec, vis)) break;
      z = Math.max(0.4, z - 0.05);
    }
  }
  // a figure whose output holds more than the plot (a widget's readout) gives up plot height to fit
  function fitFigure(sec) {
    var plots = sec.querySelectorAll('.js-plotly-plot');
    var over = contentHeight(sec) - (H - 16);
    if (over > 0 && plots.length) {
      var p = plots[0], h = Math.max(220, p.getBoundingClientRect().height / Reveal.getScale() - over);
      p.style.height = h + 'px';
      if (p.parentElement && p.parentElement.style.height) p.parentElement.style.height = h + 'px';
      Plotly.relayout(p, {height: h});
    }
    var out = sec.querySelector('.celltag_slide-figure .jp-OutputArea');
    over = contentHeight(sec) - (H - 16);
    if (out && over > 0) {
      var own = out.getBoundingClientRect().height / Reveal.getScale();
      out.style.zoom = Math.max(0.4, (own - over) / own);
    }
  }
  function show(sec) {
    if (!sec) return;
    fit(sec);
    sec.querySelectorAll('.js-plotly-plot').forEach(function (p) { Plotly.Plots.resize(p); });
    if (sec.dataset.kind === 'figure') fitFigure(sec);
  }
  document.addEventListener('DOMContentLoaded', function () {
    var printing = /print-pdf/i.test(window.location.search);
    Reveal.initialize({width: %(width)d, height: H, margin: 0.04, center: false, hash: !printing,
                       controls: true, progress: true, slideNumber: 'c/t', transition: 'none',
                       viewDistance: 2, plugins: window.RevealNotes ? [RevealNotes] : [],
                       pdfMaxPagesPerSlide: 1, pdfSeparateFragments: false});
    Reveal.on('ready', function (e) { if (!printing) show(e.currentSlide); });
    Reveal.on('pdf-ready', function () {  // every slide laid out, one a page: fit each, then draw its figures
      document.querySelectorAll('.reveal .slides section').forEach(function (sec) {
        fit(sec);
        sec.querySelectorAll('.js-plotly-plot').forEach(function (p) {
          Plotly.relayout(p, {width: p.parentElement.getBoundingClientRect().width});
        });
        if (sec.dataset.kind === 'figure') fitFigure(sec);
      });
      document.documentElement.dataset.printReady = 'true';
    });
    Reveal.on('slidechanged', function (e) { show(e.currentSlide); });
  });
  window.ruminoFit = show;  // the tests call it after moving to a slide
})();
""".replace("%(height)d", str(HEIGHT)).replace("%(width)d", str(WIDTH)).replace("%(font)d", str(FIGURE_FONT))


def _library_files() -> dict[str, Path]:
    """The offline libraries a deck needs, from installed packages: ``{path in the deck: source}``."""
    try:
        import sphinx_revealjs
    except ImportError:
        raise BookError("the slides need reveal.js, which the sphinx-revealjs package ships: "
                        "pip install sphinx-revealjs") from None
    import mathjax  # django-static-mathjax, as the book's pages use it
    import plotly

    reveal = Path(sphinx_revealjs.__file__).parent / "_static" / "revealjs"
    mj = Path(mathjax.__file__).parent / "static" / "mathjax"
    files = {"plotly.min.js": Path(plotly.__file__).parent / "package_data" / "plotly.min.js",
             "mathjax/tex-svg-full.js": mj / "es5" / "tex-svg-full.js", "mathjax/LICENSE": mj / "LICENSE",
             "reveal.js/LICENSE": reveal / "LICENSE"}
    for rel in ("dist/reveal.js", "dist/reveal.css", "dist/reset.css", "dist/theme/white.css",
                "plugin/notes/notes.js"):
        files[f"reveal.js/{rel}"] = reveal / rel
    for font in (reveal / "dist" / "theme" / "fonts" / "source-sans-pro").iterdir():
        files[f"reveal.js/dist/theme/fonts/source-sans-pro/{font.name}"] = font
    missing = [str(p) for p in files.values() if not p.is_file()]
    if missing:
        raise BookError(f"a library file the slides need is missing: {missing[0]}")
    return files


def _place(src: Path, dest: Path) -> None:
    """``src`` at ``dest``: a hard link when the disk allows it (the 7 MB of libraries once on disk
    for every deck), else a copy."""
    dest.parent.mkdir(parents=True, exist_ok=True)
    if dest.exists():
        dest.unlink()
    try:
        os.link(src, dest)
    except OSError:
        shutil.copyfile(src, dest)


@dataclass
class DeckReport:
    """One written deck: its chapter, its title, its slides and figures, and where it is."""

    chapter: str
    title: str
    slides: int
    figures: int
    path: Path


def _exporter():
    """nbconvert's reveal.js exporter with the deck's template (one serves every deck: its templates are
    compiled once)."""
    import jinja2
    from nbconvert import SlidesExporter

    return SlidesExporter(extra_loaders=[jinja2.DictLoader({"rumino_slides.html.j2": _TEMPLATE})],
                          template_file="rumino_slides.html.j2", reveal_url_prefix=f"{ASSETS}/reveal.js",
                          reveal_theme="white")


def write_deck(nb, stem: str, out: Path, libraries: dict[str, Path] | None = None, plan=None,
               exporter=None) -> DeckReport:
    """Write the deck of the executed chapter ``nb`` to ``out/<stem>/index.html`` with its libraries; ``plan``
    (the executed lesson plan) gives the speaker notes; ``exporter`` (from :func:`_exporter`) may be shared by
    the decks of one run."""
    slides = chapter_slides(nb, stem, plan)
    title = slides[0].title if slides and slides[0].kind == "title" else stem
    number = deck_number(stem)
    kicker = f"Chapter {number}" if number else "Start here"
    slides[0].blocks.insert(0, Block(1, f'<p class="rumino-kicker">{kicker}</p>'))
    deck_nb = slides_notebook(slides, f"{number}. {title}" if number else f"Start here: {title}")
    body, _ = (exporter or _exporter()).from_notebook_node(deck_nb, resources={"metadata": {"name": stem}})
    folder = out / stem
    folder.mkdir(parents=True, exist_ok=True)
    (folder / "index.html").write_text(body, encoding="utf-8")
    for rel, src in (libraries or _library_files()).items():
        _place(src, folder / ASSETS / rel)
    (folder / ASSETS / "deck.css").write_text(DECK_CSS, encoding="utf-8")
    (folder / ASSETS / "deck.js").write_text(DECK_JS, encoding="utf-8")
    return DeckReport(stem, title, len(slides), sum(1 for s in slides if s.kind == "figure"), folder / "index.html")


def _index_page(reports: list[DeckReport]) -> str:
    def label(r):
        n = deck_number(r.chapter)
        return f"{n}. {html.escape(r.title)}" if n else f"Start here: {html.escape(r.title)}"

    rows = "".join(f'<li><a href="{r.chapter}/index.html">{label(r)}</a> '
                   f'<span>({r.slides} slides, {r.figures} figures)</span></li>' for r in reports)
    return ('<!DOCTYPE html>\n<html lang="en"><head><meta charset="utf-8"><title>rumino: slides</title>'
            '<meta name="viewport" content="width=device-width, initial-scale=1">'
            '<style>body{font:20px/1.5 sans-serif;max-width:48em;margin:2em auto;padding:0 1em;color:#1d1d1d}'
            'a{color:#0b4a9e}span{color:#555}</style></head><body><main><h1>Slides of the book</h1>'
            '<p>One deck per chapter and per page of Start here, for a projector (1280×720). Open a deck, then: '
            'arrow keys or space to move, <kbd>F</kbd> for full screen, <kbd>O</kbd> for an overview, <kbd>S</kbd> '
            'for the speaker notes (the lesson plan\'s notes and answers: keep the files for yourself). To print a '
            'deck, open it with <code>?print-pdf</code> after <code>index.html</code> and print to PDF, landscape, '
            'no margins. Everything is in these folders: no network '
            f'is needed.</p><ol>{rows}</ol></main></body></html>\n')


def numbered_chapters(build: Path, wanted=None) -> list[Path]:
    """The executed notebooks of the pages that get a deck: the numbered chapters (01, 02 …) and the pages
    of *Start here* (00a, 00b …), in order (the preface gets none)."""
    staged = build / STAGED
    html_dir = build / "html"
    if not (html_dir / "index.html").is_file() or not staged.is_dir():
        raise CommandError(f"{build} holds no built book (no html/index.html and {STAGED}/): "
                           f"run `rumino book build` first.")
    pages = chapter_pages(html_dir, wanted)  # by number or name, as `rumino book pdf` takes them
    numbered = [p for p in pages if re.match(r"^\d\d[a-z]?_", p.stem) and p.stem.split("_")[0] != "00"]
    if wanted and len(numbered) < len(pages):
        other = next(p.stem for p in pages if p not in numbered)
        raise BookError(f"{other} is not a chapter with a deck: decks are made for the pages of Start here "
                        f"(00a …) and chapters 1 to "
                        f"{max((int(p.stem[:2]) for p in chapter_pages(html_dir)), default=0)}.")
    notebooks = [staged / f"{p.stem}.ipynb" for p in numbered]
    for path in notebooks:
        if not path.is_file():
            raise BookError(f"{path} is missing: the built book is incomplete; run `rumino book build` again.")
    return notebooks


def write_decks(build: str | Path, out: str | Path, wanted=None, echo=print) -> list[DeckReport]:
    """A deck for each numbered chapter of the built book ``build`` (or those ``wanted``), and an index."""
    from rumino.cli.bookbuild import read_notebook

    build, out = Path(build), Path(out)
    notebooks = numbered_chapters(build, wanted)
    for page in sorted((build / STAGED).glob("*.ipynb")):
        title = _page_title(read_notebook(page))
        if title:
            PAGE_TITLES[page.stem] = title
    libraries, exporter = _library_files(), _exporter()
    out.mkdir(parents=True, exist_ok=True)
    reports = []
    for path in notebooks:
        plan = path.parent / (f"teach_{path.stem}.ipynb" if deck_number(path.stem) else "teach_00_start_here.ipynb")
        reports.append(write_deck(read_notebook(path), path.stem, out, libraries,
                                  read_notebook(plan) if plan.is_file() else None, exporter))
        r = reports[-1]
        echo(f"  {r.chapter:<34} {r.slides:3d} slides {r.figures:3d} figures  {r.path}")
    listed = {r.chapter: r for r in reports}
    for old in sorted(out.glob("*/index.html")):  # decks written before stay listed
        if old.parent.name not in listed and (old.parent / ASSETS).is_dir():
            listed[old.parent.name] = DeckReport(old.parent.name, _deck_title(old), _count_slides(old), 0, old)
    (out / "index.html").write_text(_index_page([listed[k] for k in sorted(listed)]), encoding="utf-8")
    return reports


def _deck_title(index: Path) -> str:
    m = re.search(r"<title>(?:\d+\.|Start here:) (.*?) slides</title>", index.read_text(encoding="utf-8"))
    return html.unescape(m.group(1)) if m else index.parent.name


def _count_slides(index: Path) -> int:
    return index.read_text(encoding="utf-8").count('data-kind="')


# ---------------------------------------------------------------------------- the command


def run_slides(args) -> int:
    if args.out is not None:
        out_folder("--out", args.out)
    build = in_folder("--dir", args.dir) if args.dir is not None else find_book(args.book) / "_build"
    if (build / "index.html").is_file() and not (build / STAGED).is_dir():
        build = build.parent  # the html/ folder itself was given
    notebooks = numbered_chapters(build, args.chapters)  # bad input (exit 2) before anything is written
    out = Path(args.out) if args.out else build / "slides"
    print(f"Writing {len(notebooks)} deck{'s' if len(notebooks) != 1 else ''} from {build} to {out} …", flush=True)
    t0 = time.perf_counter()
    reports = write_decks(build, out, args.chapters)
    print(f"{len(reports)} deck{'s' if len(reports) != 1 else ''}, {sum(r.slides for r in reports)} slides, "
          f"{sum(r.figures for r in reports)} figures in {time.perf_counter() - t0:.1f} s: {out / 'index.html'}")
    return 0


def add_to(bsub) -> None:
    """Add ``slides`` to the actions of ``rumino book`` (called from :mod:`rumino.cli.book`)."""
    sl = bsub.add_parser("slides", help="write a reveal.js slide deck per chapter of the built book",
                         description="Write one slide deck per numbered chapter (or the CHAPTERs named) from the "
                                     "executed chapters of the built book: a title slide with the objectives, a "
                                     "slide per section, figures with their captions, the key ideas and the "
                                     "review questions; no code, no exercises. Each deck is a folder with "
                                     "index.html that opens from disk, with no network. Run `rumino book build` "
                                     "first.")
    sl.add_argument("chapters", nargs="*", metavar="CHAPTER",
                    help="chapters, by number (4) or name (04_odds_of_the_deal); default: all numbered chapters")
    sl.add_argument("--dir", default=None, help="the built book (default: book/_build)")
    sl.add_argument("--out", default=None, help="folder for the decks (default: book/_build/slides)")
    sl.add_argument("--book", default=argparse.SUPPRESS, help="the book's folder (as `rumino book --book`)")
    sl.set_defaults(run=run_slides)


if __name__ == "__main__":  # pragma: no cover
    sys.exit(run_slides(argparse.Namespace(dir=sys.argv[1], out=sys.argv[2], chapters=sys.argv[3:], book=None)))
