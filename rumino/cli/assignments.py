"""``rumino book assignments``: the book's exercises as an nbgrader course, one assignment a chapter.

Every numbered chapter with exercises becomes ``source/chNN_name/chNN_name.ipynb`` in a course folder
(with ``nbgrader_config.py``), ready for ``nbgrader generate_assignment``. Per exercise the notebook holds

* the exercise as plain Markdown (title, statement, hints; the book's MyST roles and directives
  turned into text JupyterLab shows as it is);
* a read-only cell with what the chapter computed before and the exercise uses (found by reading the
  chapter's code: the cells that define the names the solution needs, and what those need);
* an **answer cell** (``### BEGIN SOLUTION`` … ``### END SOLUTION``): the book's solution code, or for
  a pencil exercise the value itself, assigning a named answer ``ans_…``;
* a locked **autograder test** whose expected value is hidden (``### BEGIN HIDDEN TESTS``). The value is
  computed by the engine when the course is generated: the generator runs the chapter's code and the
  book's solution in a kernel (and the book's own checks of that solution). Exact values (integers,
  ``Fraction``s) are compared exactly, floats within the tolerance the test states; a few answers
  (any hand with a property) are checked by calling the engine in the hidden test.

An exercise without one checkable value is graded by hand (a Markdown answer cell).
:data:`ANSWERS` says, exercise by exercise, what the answer is.

>>> md = myst_to_markdown(":::{exercise} Twins, pencil\\n:label: ex-x\\nHold {term}`twins <twin>`.\\n:::", "1.1")
>>> md.splitlines()[0], md.splitlines()[-1]
('### Exercise 1.1: Twins (pencil)', 'Hold twins.')
"""

from __future__ import annotations

import argparse
import ast
import builtins
import json
import re
import shutil
import tempfile
from dataclasses import dataclass, field
from fractions import Fraction
from pathlib import Path

from rumino.cli import CommandError
from rumino.cli.inputs import out_folder
from rumino.cli.bookbuild import (
    BookError,
    chapters,
    execute_chapter,
    find_book,
    read_notebook,
)

POINTS = {"pencil": 1, "code": 2, "challenge": 3}
DISPLAY_CALLS = {"show", "live", "hand", "arrangement", "side_by_side", "table", "display", "print", "glue",
                 "HTML"}


# ---------------------------------------------------------------------------- what each answer is


@dataclass(frozen=True)
class Answer:
    """The answer of one exercise: ``expr`` (code whose last line is the value, in the names of the
    book's solution), what the student is told to assign, and how it is compared.

    ``prop`` instead of a value: an engine check of the answer (``ANS`` stands for it), for questions
    with many right answers. ``manual``: graded by hand.
    """

    expr: str = ""
    what: str = ""
    rel_tol: float = 1e-9
    abs_tol: float = 0.0
    prop: str = ""
    imports: str = ""  # what a ``prop`` needs that the chapter's setup does not import
    manual: bool = False


A = Answer
ANSWERS: dict[str, Answer] = {
    # 1 Cards, packs and counting
    "ex-cards-twins": A("p_both_aces", "the probability, a `Fraction`"),
    "ex-cards-romme-jokers": A("(romme_mean, romme_any > p_any_joker)",
                               "a pair: the expected number of jokers (a `Fraction`), and `True` if a Rommé "
                               "player is more likely than a Rumino player to hold a joker"),
    "ex-cards-romme": A("(toy_formula, romme_hands)",
                        "a pair of whole numbers: the toy pack's hands, then the Rommé hands"),
    "ex-cards-first-out": A("mean_first", "$E[T]$ for $k = 4$, $U = 100$, a `Fraction`"),
    # 2 Rumino illustrated
    "ex-illustrated-claim": A("list(claims.claim_queue)",
                              "the seats that may claim, in the order they are asked (a list; the first gets it)"),
    "ex-illustrated-undercut": A("scores", "a dict `{'default': (knocker, gin hand), 'penalty': (...)}` "
                                           "of what each adds"),
    "ex-illustrated-record": A("closest", "the list of the closest hands' numbers, in increasing order"),
    # 3 Melds and deadwood
    "ex-melds-jokers": A("(splits[0].deadwood, len(splits))", "a pair: the deadwood, and how many best splits"),
    "ex-melds-ace": A('(min_deadwood(qka, RUMINO_MELDS), min_deadwood(parse_hand("2d 3d 4d 7c"), RUMINO_MELDS))',
                      "a pair: the deadwood with the ace low, then if Q-K-A were a run"),
    "ex-melds-discards": A("(min(left.values()), may_knock)",
                           "a pair: the smallest deadwood after a discard, and the sorted list of the "
                           "discards that may knock (written as `format_hand` writes a card)"),
    "ex-melds-trap": A("format_hand(trap)", "a trap hand, written as `parse_hand` reads it",
                       prop="JOKER not in parse_hand(ANS) and len(parse_hand(ANS)) == 7 and "
                            "greedy_deadwood(parse_hand(ANS), most_points_first) > "
                            "min_deadwood(parse_hand(ANS), RUMINO_MELDS)"),
    # 4 The odds of the deal
    "ex-deal-seven-kind": A("(seven_of_a_kind, straight_flushes)",
                            "a pair: the seven-of-a-kind deals, then the straight flushes (no jokers)"),
    "ex-deal-burnside": A("(len(small_hands), small_fixed, len(small_classes))",
                          "three whole numbers: hands, hands the swap leaves unchanged, classes"),
    "ex-deal-two-jokers": A("p_gin_two", "the chance, a `Fraction`"),
    "ex-deal-one-joker": A("(s(6), one_joker)", "a pair: $s_6$, then the ruminos with exactly one joker"),
    # 5 Drawing to a hand
    "ex-draw-rule-of-four": A("p_flush_draw", "the exact chance, a `Fraction`"),
    "ex-draw-mean-wait": A("(expected_draws_to_first_out(outs=4, unseen=60), "
                           "expected_draws_to_first_out(outs=8, unseen=60))",
                           "a pair of `Fraction`s: $E[T]$ with 4 outs, then with 8"),
    "ex-draw-one-short": A("formula", "the list of the chances for $N = 0, \\dots, 30$, as `Fraction`s"),
    "ex-draw-seven-fives": A("p_tail", "the chance of completing within 20 draws, a `Fraction`"),
    # 6 Playing Rumino
    "ex-play-how-many": A("n_needed", "the number of games, a whole number"),
    "ex-play-chaser": A('(chaser["value"], lo, hi)', "a triple of floats: the win share, then its interval"),
    "ex-play-experiment": A(manual=True, what="your conclusion and reasons, in words"),
    # 7 Knock games
    "ex-knock-ace": A("(len(ok), copies)", "a pair: different cards, then physical cards of the pack"),
    "ex-knock-gin-at-five": A("(g.value, g.lo, g.hi)", "a triple of floats: the estimate, then its interval"),
    "ex-knock-how-many": A("n_needed", "the number of deals (a float is fine)", rel_tol=1e-6),
    # 8 Rummoli
    "ex-rummoli-twelve": A("format_hand(eleven)", "an eleven-card hand, written as `parse_hand` reads it",
                           prop='len(set(parse_hand(ANS))) == 11 and JOKER not in parse_hand(ANS) and '
                                'category_name(hand_value(parse_hand(ANS))) == "high card"',
                           imports="from rumino.cards import JOKER"),
    "ex-rummoli-seventeen": A("no_flush_16", "the number of sixteen-card hands, a whole number"),
    "ex-rummoli-three": A("est.value", "the estimated share (a float; checked to 0.02, the spread of "
                                       "20,000 deals)", abs_tol=0.02),
    "ex-rummoli-swap": A('(proportion(*seen["one_pair"], 7).value, proportion(*seen["flush"], 7).value)',
                         "a pair of floats: how often the widow is better when the dealer holds one pair, "
                         "then a flush (checked to 0.04)", abs_tol=0.04),
    # 9 Rommé and Robber
    "ex-romme-one-short": A("{format_card(c): v for c, v in opens.items()}",
                            "a dict from each card that opens (as `format_card` writes it; `'JK'` the joker) "
                            "to the best opening then"),
    "ex-romme-dskv": A('def frees(meld, cards, mode):\n'
                       '    try:\n'
                       '        return exchange(meld, parse_hand(cards), mr, mode)[1] == 1\n'
                       '    except IllegalActionError:\n'
                       '        return False\n'
                       '{mode: {"set": frees(set6, "6d", mode), "run": frees(run3, "4s", mode)}\n'
                       ' for mode in ("general", "dskv")}',
                       "a dict `{'general': {'set': ..., 'run': ...}, 'dskv': {...}}`: `True` where that "
                       "meld's joker comes free"),
    "ex-romme-eleven": A("(e.value, e.lo, e.hi)", "a triple of floats: the estimate, then its interval"),
    "ex-romme-fewer-jokers": A("predicted", "the predicted share (a float)", rel_tol=1e-6),
    # 10 The family side by side
    "ex-family-matrix": A('{"jokers": [l for l, c in zip(matrix.labels, row["Pack"]) if "no jokers" not in c],\n'
                          ' "longer than four": [l for l, c in zip(matrix.labels, row["Runs"])\n'
                          '                      if not c.startswith("3 to 4")],\n'
                          ' "ace costs most": max(matrix.labels, key=lambda l: "ace 11" in\n'
                          '                       row["Card values"][matrix.labels.index(l)])}',
                          "a dict: `'jokers'` and `'longer than four'` the lists of games (as the matrix "
                          "names them, in its order), `'ace costs most'` one game"),
    "ex-family-gin-at-five": A("share_at_most(5)", "the share at 5 or less, a `Fraction`"),
    "ex-family-edge": A("n_needed", "the number of games, a whole number"),
    # 11 House rules across the family
    "ex-hrf-no-jokers": A("no_pack", "the chance, a `Fraction`"),
    "ex-hrf-gin-like-rumino": A("limit", "the knock limit, a whole number"),
    "ex-hrf-slope": A("{g: slopes[g][0] for g in GAMES}", "a dict from each game's key to its slope (floats)",
                      rel_tol=1e-6),
    # 12 Luck and skill
    "ex-luck-split": A("split_ex.deal_share", "the deal's share of a hand's variance, a `Fraction`"),
    "ex-luck-elo": A("predicted", "greedy's predicted chance of winning a hand against the best (a float)",
                     rel_tol=1e-6),
    "ex-luck-match": A("n_match", "the number of hands, a whole number"),
    "ex-luck-duplicate": A("fresh_hands", "the number of hands on fresh deals, a `Fraction`"),
    # 13 Exercises for the classroom
    "ex-class-plain-deal": A("p_plain", "the fraction of deals, a `Fraction`"),
    "ex-class-rummy-luck": A("len(hands_4_3)", "the number of hands, a whole number"),
    "ex-class-rebuys": A("(doubling, flat)", "a pair of whole numbers of dollars: doubling rebuys, then flat"),
    "ex-class-joker-lives": A("(min_deadwood(joker_hand, RUMINO_MELDS), min_deadwood(joker_hand, distinct))",
                              "a pair: the deadwood by default, then with distinct suits"),
    "ex-class-simulate-gin": A("(estimate.value, estimate.lo, estimate.hi)",
                               "a triple of floats: the estimate, then its interval"),
    "ex-class-wait": A("(exact_mean, float(first.mean()))",
                       "a pair: the exact mean (a `Fraction`), then the simulated mean (a float, checked "
                       "to 0.25)", abs_tol=0.25),
    "ex-class-win-share": A("(lo, hi)", "the Wilson interval `(lo, hi)`, floats (checked to 0.0006)",
                            abs_tol=6e-4),
    "ex-class-gin-knock": A('tuple(min_deadwood(parse_hand(t), GIN.rules.meld_rules) for t in\n'
                            '      ("As 2s 3s 4s 8d 8h 8c 5d 3c 2h", "As 2s 3s 4s 8d 8h 8c 5d 3c Kh"))',
                            "a pair: the deadwood with the 2♥, then with the K♥"),
    "ex-class-poker-pot": A("sorted(values, key=values.get, reverse=True)",
                            "the seats from best to worst, a list such as `['North', 'East', 'South']`"),
    "ex-class-open": A("set(format_hand(opens).split())",
                       "the set of cards that let it open, as `format_card` writes them"),
    "ex-class-family-jokers": A("{v.title: 1 - Fraction(comb(v.pack.size - v.pack.copies(JOKER), v.hand_size),\n"
                                "                        comb(v.pack.size, v.hand_size))\n"
                                " for v in map(find_variant, VARIANTS) if v.hand_size}",
                                "a dict from each game's title to the chance, a `Fraction` (leave out Rummoli)"),
    "ex-class-two-jokers": A("(exact[2], exact[4], no_joker.value)",
                             "a triple: the exact chances with 2 and with 4 jokers (`Fraction`s), then the "
                             "simulated share with 2 (a float, checked to 0.01)", abs_tol=0.01),
}
del A


# ---------------------------------------------------------------------------- reading a chapter


def _src(cell) -> str:
    s = cell.get("source", "")
    return "".join(s) if isinstance(s, list) else s


def _tags(cell) -> list:
    return cell.get("metadata", {}).get("tags", [])


@dataclass
class Exercise:
    """One exercise of a chapter, as the book writes it."""

    label: str
    title: str
    level: str
    number: str
    statement: str  # the Markdown of the exercise block (and any text before it in that cell is dropped)
    hints: list[str] = field(default_factory=list)
    prose: str = ""  # the solution's text
    code: list[str] = field(default_factory=list)  # the solution's visible code cells
    checks: list[str] = field(default_factory=list)  # the solution's hidden assert cells

    @property
    def name(self) -> str:
        """The answer variable: ``ans_`` and the label without ``ex-`` and its chapter word."""
        return "ans_" + self.label.split("-", 2)[-1].replace("-", "_")


_EXERCISE = re.compile(r"(?ms)^(:{3,})\{exercise\}\s*(.*?)\s*$\n(.*?)^\1\s*$")


def parse_exercises(nb, chapter_number: int) -> list[Exercise]:
    """The exercises of a chapter notebook, in order, with their hints and solutions."""
    out: list[Exercise] = []
    current = None
    in_solution = False
    for cell in nb["cells"]:
        text = _src(cell)
        if cell["cell_type"] == "markdown" and "{exercise}" in text:
            m = _EXERCISE.search(text)
            title = m.group(2)
            level = re.search(r"(?:,\s*|\()(pencil|code|challenge)\)?\s*$", title).group(1)
            label = re.search(r":label:\s*(\S+)", m.group(3)).group(1)
            current = Exercise(label, title, level, f"{chapter_number}.{len(out) + 1}", text[m.start():m.end()])
            out.append(current)
            in_solution = False
        elif current is None:
            continue
        elif cell["cell_type"] == "markdown" and "{solution-start}" in text:
            in_solution = True
            current.prose = re.sub(r"(?s)^:{3,}\{solution-start\}.*?\n:{3,}\s*\n?", "", text)
        elif cell["cell_type"] == "markdown" and "{solution-end}" in text:
            in_solution = False
            current = None
        elif cell["cell_type"] == "markdown" and "{admonition} Hint" in text and not in_solution:
            current.hints.append(text)
        elif cell["cell_type"] == "code" and in_solution:
            (current.checks if "remove-cell" in _tags(cell) else current.code).append(text)
    return out


# ---------------------------------------------------------------------------- MyST to plain Markdown


_ROLE = re.compile(r"\{([\w:-]+)\}`([^`]*)`")


def _role(m: re.Match, glued: dict) -> str:
    role, text = m.group(1), m.group(2)
    if role.startswith("glue"):
        if text not in glued:
            raise BookError(f"the exercise text glues {text!r}, which the chapter's code did not glue")
        return glued[text]
    shown = re.match(r"\s*(.*?)\s*<[^>]*>\s*$", text)  # {term}`melds <meld>` shows "melds"
    return shown.group(1) if shown else text


def myst_to_markdown(text: str, number: str, glued: dict | None = None) -> str:
    """The book's MyST (an exercise or a hint block, roles) as Markdown that JupyterLab shows as it is."""
    glued = glued or {}

    def exercise(m):
        title = re.sub(r",\s*(pencil|code|challenge)\s*$", r" (\1)", m.group(2))
        body = "\n".join(line for line in m.group(3).splitlines() if not line.startswith(":label:"))
        return f"### Exercise {number}: {title}\n\n{body.strip()}"

    def admonition(m):
        body = [line for line in m.group(3).splitlines() if not re.match(r":\w+:", line)]
        return f"> **{m.group(2).strip()}.** " + "\n> ".join(body).strip()

    text = _EXERCISE.sub(exercise, text)
    text = re.sub(r"(?ms)^(:{3,})\{admonition\}\s*(.*?)\s*$\n(.*?)^\1\s*$", admonition, text)
    return _ROLE.sub(lambda m: _role(m, glued), text).strip()


# ---------------------------------------------------------------------------- which chapter code an exercise needs


def _names(code: str) -> tuple[set, set]:
    """(names read, names bound) anywhere in ``code``."""
    tree = ast.parse(code)
    read, bound = set(), set()
    for node in ast.walk(tree):
        if isinstance(node, ast.Name):
            (read if isinstance(node.ctx, ast.Load) else bound).add(node.id)
        elif isinstance(node, (ast.FunctionDef, ast.ClassDef, ast.AsyncFunctionDef)):
            bound.add(node.name)
            bound.update(a.arg for a in node.args.args + node.args.kwonlyargs) if not isinstance(
                node, ast.ClassDef) else None
        elif isinstance(node, (ast.Import, ast.ImportFrom)):
            bound.update((a.asname or a.name).split(".")[0] for a in node.names)
        elif isinstance(node, ast.arg):
            bound.add(node.arg)
    return read, bound


def _droppable(node) -> bool:
    """A display, a glue call or an assert, or a loop or branch made only of them."""
    if isinstance(node, ast.Assert):
        return True
    if isinstance(node, ast.Expr):
        call = node.value
        if isinstance(call, ast.Constant):  # a docstring or a bare string stays
            return False
        return not isinstance(call, ast.Call) or (isinstance(call.func, ast.Name) and call.func.id in DISPLAY_CALLS)
    if isinstance(node, (ast.For, ast.While, ast.If, ast.With)):
        return all(map(_droppable, node.body + getattr(node, "orelse", [])))
    return False


def strip_display(code: str, unavailable: frozenset = frozenset()) -> str:
    """``code`` without its displays, glue calls and asserts (an assignment shows and checks its own).

    >>> strip_display("x = 1\\nshow(x)\\nfor k in 'ab':\\n    glue(k, x)\\nassert x")
    'x = 1'
    """
    tree = ast.parse(code)
    lines = code.splitlines()
    drop: set[int] = set()

    def walk(body):
        for node in body:
            # a statement that needs a widget (the assignment imports only the engine) builds a view: dropped
            if _droppable(node) or _names(ast.unparse(node))[0] & unavailable:
                drop.update(range(node.lineno - 1, node.end_lineno))
            elif isinstance(node, (ast.For, ast.While, ast.If, ast.With, ast.Try)):
                for part in ("body", "orelse", "finalbody"):
                    walk(getattr(node, part, []))

    walk(tree.body)
    kept = [line for i, line in enumerate(lines) if i not in drop]
    return re.sub(r"\n{3,}", "\n\n", "\n".join(kept)).strip()


@dataclass
class _Cell:
    index: int
    code: str
    read: set
    bound: set


def _widget_names(nb) -> frozenset:
    """The names the chapter's setup imports from ``rumino_widgets`` (an assignment goes without them)."""
    names = set()
    for node in ast.parse(_src(nb["cells"][0])).body:
        if isinstance(node, ast.ImportFrom) and (node.module or "").startswith("rumino_widgets"):
            names.update(a.asname or a.name for a in node.names)
    return frozenset(names)


def _context_cells(nb) -> list[_Cell]:
    cells = []
    unavailable = _widget_names(nb)
    for i, cell in enumerate(nb["cells"][1:], start=1):
        if cell["cell_type"] != "code" or "solution" in _tags(cell):
            continue
        code = strip_display(_src(cell), unavailable)
        if not code:
            continue
        read, bound = _names(code)
        cells.append(_Cell(i, code, read, bound))
    return cells


def needed_cells(codes: list[str], pool: list[_Cell], known: set) -> list[_Cell]:
    """The cells of ``pool`` (in order) that define what ``codes`` read, and what those read in turn."""
    read, bound = set(), set()
    for code in codes:
        r, b = _names(code)
        read |= r
        bound |= b
    wanted = read - bound - known - set(dir(builtins))
    chosen: dict[int, _Cell] = {}
    while wanted:
        name = wanted.pop()
        for cell in pool:
            if name in cell.bound and cell.index not in chosen:
                chosen[cell.index] = cell
                wanted |= cell.read - cell.bound - known - set(dir(builtins)) - {
                    n for c in chosen.values() for n in c.bound}
    return [chosen[i] for i in sorted(chosen)]


# ---------------------------------------------------------------------------- writing values as code


def literal(value) -> str:
    """Python source for ``value`` (numbers, ``Fraction``s, strings and containers of them).

    >>> literal({"a": (Fraction(1, 3), 2, 0.5, True)})
    "{'a': (Fraction(1, 3), 2, 0.5, True)}"
    """
    if isinstance(value, bool) or value is None or isinstance(value, str):
        return repr(value)
    if isinstance(value, Fraction):
        return f"Fraction({value.numerator}, {value.denominator})"
    if isinstance(value, int) or type(value).__name__.startswith("int"):
        return repr(int(value))
    if isinstance(value, float) or type(value).__name__.startswith("float"):
        return repr(float(value))
    if isinstance(value, tuple):
        return "(" + ", ".join(map(literal, value)) + ("," if len(value) == 1 else "") + ")"
    if isinstance(value, list):
        return "[" + ", ".join(map(literal, value)) + "]"
    if isinstance(value, (set, frozenset)):
        return "{" + ", ".join(sorted(map(literal, value))) + "}" if value else "set()"
    if isinstance(value, dict):
        return "{" + ", ".join(f"{literal(k)}: {literal(v)}" for k, v in value.items()) + "}"
    raise BookError(f"an answer of type {type(value).__name__} cannot be written into a test: {value!r}")


SAME = '''\
def _same(got, want, rel_tol=1e-9, abs_tol=0.0):
    """True if an answer matches: exactly for whole numbers, Fractions and text,
    within the stated tolerance for floats; lists and tuples alike."""
    if isinstance(want, float):
        try:
            return math.isclose(float(got), want, rel_tol=rel_tol, abs_tol=abs_tol)
        except (TypeError, ValueError):
            return False
    if isinstance(want, (list, tuple)):
        return (isinstance(got, (list, tuple)) and len(got) == len(want)
                and all(_same(g, w, rel_tol, abs_tol) for g, w in zip(got, want)))
    if isinstance(want, dict):
        return (isinstance(got, dict) and set(got) == set(want)
                and all(_same(got[k], want[k], rel_tol, abs_tol) for k in want))
    if isinstance(want, bool):
        return got is want or got == want
    return type(got) is not float and got == want'''


def _answer_code(name: str, expr: str) -> str:
    """``expr`` (statements, then a value) as code that assigns the value to ``name``."""
    tree = ast.parse(expr)
    *body, last = tree.body
    lines = expr.splitlines()
    head = "\n".join(lines[:last.lineno - 1])
    value = "\n".join(lines[last.lineno - 1:])
    return (head + "\n" if body else "") + f"{name} = " + value.strip()


# ---------------------------------------------------------------------------- the notebooks


def _nbg(grade_id: str, *, solution=False, grade=False, locked=False, points=None, task=False) -> dict:
    meta = {"grade": grade, "grade_id": grade_id, "locked": locked, "schema_version": 3,
            "solution": solution, "task": task}
    if points is not None:
        meta["points"] = points
    return {"nbgrader": meta}


def _md(source: str, grade_id: str, metadata=None):
    import nbformat

    return nbformat.v4.new_markdown_cell(source, metadata=metadata or _nbg(grade_id, locked=True))


def _code(source: str, metadata=None):
    import nbformat

    return nbformat.v4.new_code_cell(source, metadata=metadata or {})


def setup_code(nb) -> str:
    """The chapter's setup cell without the widgets (an assignment needs only the engine and bookutils)."""
    code = _src(nb["cells"][0])
    tree = ast.parse(code)
    lines = code.splitlines()
    drop = set()
    for node in tree.body:
        if isinstance(node, ast.ImportFrom) and (node.module or "").startswith("rumino_widgets"):
            drop.update(range(node.lineno - 1, node.end_lineno))
        if isinstance(node, ast.Import) and any(a.name.startswith("rumino_widgets") for a in node.names):
            drop.update(range(node.lineno - 1, node.end_lineno))
    kept = [line for i, line in enumerate(lines) if i not in drop]
    kept[0] = "# Setup: the engine, and the book's display helpers (bookutils.py, beside this notebook)."
    extra = ["import math"] + (["from fractions import Fraction"] if "Fraction" not in _names(code)[1] else [])
    return "\n".join(kept + extra + ["", "", SAME])


@dataclass
class Assignment:
    """One chapter's assignment, as generated."""

    name: str
    path: Path
    exercises: int
    autograded: int
    manual: int
    points: int


def assignment_name(path: Path) -> str:
    """``ch05_drawing_to_a_hand`` for ``05_drawing_to_a_hand.ipynb``."""
    return "ch" + path.stem


def _teacher_cells(setup: str, parts: list) -> list:
    """The generation run: the assignment with the book's solutions and checks, recording each answer."""
    cells = [_code(setup), _code(
        "import json as _json\n_RECORD, _GLUED = {}, {}\n_book_glue = glue if 'glue' in globals() else None\n"
        "def glue(name, value, how='int'):\n"
        "    import bookutils\n"
        "    _GLUED[name] = bookutils.fmt(value, how) if not isinstance(value, str) else value\n"
        "    return _GLUED[name]")]
    for ex, spec, context, glue_cells in parts:
        cells += [_code(c.code) for c in context]
        cells += [_code(c) for c in glue_cells]
        if spec.manual:
            cells += [_code(c) for c in ex.code + ex.checks]
            continue
        cells += [_code(c) for c in ex.code]
        cells.append(_code(_answer_code(ex.name, spec.expr)))
        cells += [_code(c) for c in ex.checks]
        if spec.prop:
            cells.append(_code(spec.imports + f"\nassert {spec.prop.replace('ANS', ex.name)}, {ex.label!r}"))
        cells.append(_code(f"_RECORD[{ex.name!r}] = {ex.name}"))
    cells.append(_code("from rumino.cli.assignments import literal as _literal\n"
                       "print(_json.dumps({'answers': {k: _literal(v) for k, v in _RECORD.items()},"
                       " 'glued': _GLUED}))"))
    return cells


def build_assignment(path: Path, course: Path, *, timeout: int = 600) -> Assignment:
    """Write ``course/source/<name>/<name>.ipynb`` for the chapter at ``path`` (and the files it needs)."""
    import nbformat

    nb = read_notebook(path)
    number = int(path.stem[:2])
    exercises = parse_exercises(nb, number)
    name = assignment_name(path)
    folder = course / "source" / name
    if folder.exists():
        shutil.rmtree(folder)
    folder.mkdir(parents=True)
    root = path.parent
    shutil.copy2(root / "bookutils.py", folder / "bookutils.py")
    setup = setup_code(nb)
    known = _names(setup)[1]
    pool = _context_cells(nb)
    full = {i: _src(c) for i, c in enumerate(nb["cells"])}
    taken: set[int] = set()
    parts = []
    for ex in exercises:
        spec = ANSWERS.get(ex.label)
        if spec is None:
            raise BookError(f"{path.name}: exercise {ex.label} has no entry in rumino.cli.assignments.ANSWERS "
                            f"(say what its answer is)")
        extra = [spec.prop.replace("ANS", "None")] if spec.prop else []
        # the book's own checks of the solution run when the course is written: what they read is given too
        need = [c for c in needed_cells(ex.code + ex.checks + extra, pool, known) if c.index not in taken]
        taken |= {c.index for c in need}
        shown = ex.statement + "".join(ex.hints) + (ex.prose if spec.manual else "")
        glued_names = set(re.findall(r"\{glue:?\w*\}`([^`]*)`", shown))
        glue_cells = []
        for text in full.values():
            if glued_names and any(f'glue("{g}"' in text or f"glue('{g}'" in text for g in glued_names):
                deps = [c for c in needed_cells([text], pool, known) if c.index not in taken]
                taken |= {c.index for c in deps}
                need += deps
                glue_cells.append(text)
        parts.append((ex, spec, need, glue_cells))
    # the data files the cells read, the setup's among them (a chapter may load its results files there)
    read = {m for _, _, need, _ in parts for c in need for m in re.findall(r"data/[\w.-]+", c.code)}
    for data in sorted(read | set(re.findall(r"data/[\w.-]+", setup))):
        if (root / data).is_file():
            (folder / data).parent.mkdir(parents=True, exist_ok=True)
            shutil.copy2(root / data, folder / data)

    # run the chapter's code and the book's solutions once, in a kernel, in the assignment's own folder
    run = nbformat.v4.new_notebook(cells=_teacher_cells(setup, parts), metadata=nb.metadata)
    with tempfile.TemporaryDirectory() as tmp:
        run_path = Path(tmp) / f"{name}-teacher.ipynb"
        nbformat.write(run, str(run_path))
        executed, report = execute_chapter(run_path, cwd=folder, timeout=timeout, progress=False)
    if report.error:
        raise BookError(f"{path.name}: running the solutions for the assignment failed:\n{report.error}")
    result = json.loads("".join(o.get("text", "") for o in executed.cells[-1].outputs if o.get("name") == "stdout"))
    values, glued = result["answers"], result["glued"]

    title = next(re.match(r"#\s+(.*)", _src(c)).group(1) for c in nb["cells"]
                 if c["cell_type"] == "markdown" and re.match(r"#\s+", _src(c)))
    total = sum(POINTS[ex.level] for ex in exercises)
    cells = [_md(f"# Chapter {number}: {title}\n\n{len(exercises)} exercises, {total} points. Run the setup cell "
                 f"first, then each exercise's cells in order. Assign each answer to the variable its cell "
                 f"names: the test cell after it checks that the answer is there, and the grader checks its "
                 f"value.", "intro"),
             _code(setup, _nbg("setup", locked=True))]
    for ex, spec, need, _ in parts:
        pts = POINTS[ex.level]
        text = [myst_to_markdown(ex.statement, ex.number, glued)]
        text += [myst_to_markdown(h, ex.number, glued) for h in ex.hints]
        tell = (f"**Your answer** ({pts} point{'s' if pts > 1 else ''}): "
                + ("in words, in the cell below (graded by hand)." if spec.manual else f"assign `{ex.name}`, {spec.what}."))
        cells.append(_md("\n\n".join(text + [tell]), f"{ex.label}-text"))
        if need:
            given = "# From the chapter: what this exercise builds on (run it, do not change it).\n"
            cells.append(_code(given + "\n\n".join(c.code for c in need), _nbg(f"{ex.label}-given", locked=True)))
        if spec.manual:  # the book's answer, and its code as a block, for the grader's eyes only
            prose = _ROLE.sub(lambda m: _role(m, glued), ex.prose).strip()
            prose += "".join(f"\n\n```python\n{c}\n```" for c in ex.code)
            cells.append(_md("### BEGIN SOLUTION\n" + prose + "\n### END SOLUTION", f"{ex.label}-answer",
                             _nbg(f"{ex.label}-answer", solution=True, grade=True, points=pts)))
            continue
        if ex.level == "pencil":
            body = f"{ex.name} = {values[ex.name]}"
        else:
            body = "\n\n".join(ex.code + [_answer_code(ex.name, spec.expr)])
        cells.append(_code(f"# Assign {ex.name}: {re.sub(r'[`$]', '', spec.what)}.\n### BEGIN SOLUTION\n"
                           f"{body}\n### END SOLUTION", _nbg(f"{ex.label}-answer", solution=True)))
        if spec.prop:
            hidden = (spec.imports + "\n" if spec.imports else "") + (
                f"assert {spec.prop.replace('ANS', ex.name)}, 'not the kind of answer the exercise asks for'")
            how = "checked with the engine"
        else:
            tol = f", rel_tol={spec.rel_tol!r}" if spec.rel_tol != 1e-9 else ""
            tol += f", abs_tol={spec.abs_tol!r}" if spec.abs_tol else ""
            hidden = f"assert _same({ex.name}, {values[ex.name]}{tol}), 'not the expected value'"
            how = (f"floats within {spec.abs_tol!r}" if spec.abs_tol
                   else f"exact; floats to a relative {spec.rel_tol!r}")
        cells.append(_code(f"# Test of exercise {ex.number} ({pts} point{'s' if pts > 1 else ''}; {how}).\n"
                           f"assert '{ex.name}' in globals(), 'assign your answer to {ex.name}'\n"
                           f"### BEGIN HIDDEN TESTS\n{hidden}\n### END HIDDEN TESTS",
                           _nbg(f"{ex.label}-test", grade=True, locked=True, points=pts)))
    out = nbformat.v4.new_notebook(cells=cells, metadata={
        "kernelspec": {"display_name": "Python 3", "language": "python", "name": "python3"},
        "language_info": {"name": "python"}})
    nbformat.write(out, str(folder / f"{name}.ipynb"))
    manual = sum(ANSWERS[ex.label].manual for ex in exercises)
    return Assignment(name, folder / f"{name}.ipynb", len(exercises), len(exercises) - manual, manual, total)


NBGRADER_CONFIG = '''\
"""nbgrader's configuration for the rumino course (written by `rumino book assignments`)."""
c = get_config()  # noqa: F821 - nbgrader defines it
c.CourseDirectory.course_id = "rumino"
c.CourseDirectory.root = __file__.rsplit("/", 1)[0] if "/" in __file__ else "."
c.ExecutePreprocessor.timeout = 600  # seconds a cell may take when grading (some simulate)
c.ClearSolutions.code_stub = {"python": "# YOUR CODE HERE\\nraise NotImplementedError()"}
c.ClearSolutions.text_stub = "YOUR ANSWER HERE"
'''


def course_chapters(book=None, wanted=None) -> list[Path]:
    """The numbered chapters with exercises, or those ``wanted`` (by number or name)."""
    root = find_book(book)
    numbered = [p for p in chapters(root) if re.match(r"\d\d_", p.name)
                and any("{exercise}" in _src(c) for c in read_notebook(p)["cells"])]
    if not wanted:
        return numbered
    out = []
    for w in wanted:
        key = Path(str(w)).stem
        hits = [p for p in numbered if p.stem == key or p.stem == key.removeprefix("ch")
                or (key.isdigit() and p.stem[:2] == f"{int(key):02d}")]
        if not hits:
            raise CommandError(f"no chapter {w!r} with exercises: the chapters are 1 to {len(numbered)} "
                               f"({numbered[0].stem} … {numbered[-1].stem}).")
        out += [p for p in hits if p not in out]
    return out


def check_out(out: Path) -> Path:
    """``out`` if a course can be written there; a one-line :class:`CommandError` otherwise."""
    if out.exists() and not out.is_dir():
        raise CommandError(f"--out {out} is a file: give a folder for the course.")
    probe = out
    while not probe.exists():
        probe = probe.parent
    if not probe.is_dir():
        raise CommandError(f"--out {out}: {probe} is a file, not a folder.")
    import os

    if not os.access(probe, os.W_OK | os.X_OK):
        raise CommandError(f"--out {out}: {probe} is not writable.")
    return out


def write_course(out, chapters_wanted=None, book=None, progress=print) -> list[Assignment]:
    """Write the course folder ``out`` (``nbgrader_config.py``, ``source/…``); one assignment a chapter."""
    paths = course_chapters(book, chapters_wanted)
    out = check_out(Path(out))
    try:
        (out / "source").mkdir(parents=True, exist_ok=True)
    except OSError as err:
        raise CommandError(f"--out {out}: the folder cannot be made there ({err.strerror}).") from None
    (out / "nbgrader_config.py").write_text(NBGRADER_CONFIG, encoding="utf-8")
    done = []
    for path in paths:
        a = build_assignment(path, out)
        progress(f"{a.path.relative_to(out)}: {a.exercises} exercises ({a.autograded} autograded, "
                 f"{a.manual} by hand), {a.points} points")
        done.append(a)
    return done


def run_assignments(args) -> int:
    if args.out is not None:
        out_folder("--out", args.out)
    out = Path(args.out) if args.out else find_book(args.book) / "_build" / "assignments"
    import sys
    import time

    start = time.perf_counter()
    find_book(args.book)  # bad input (no book, an unknown chapter) exits 2 before anything is written
    course_chapters(args.book, args.chapters)
    try:
        done = write_course(out, args.chapters, args.book, progress=lambda s: print(s, flush=True))
    except CommandError:
        raise
    except BookError as err:
        print(f"rumino book assignments: {err}", file=sys.stderr)
        return 1
    n = sum(a.exercises for a in done)
    auto = sum(a.autograded for a in done)
    print(f"{len(done)} assignments, {n} exercises ({auto} autograded, {n - auto} by hand), "
          f"{sum(a.points for a in done)} points, in {time.perf_counter() - start:.0f} s: {out}")
    return 0


def add_to(bsub) -> None:
    """Add ``assignments`` to the ``rumino book`` actions."""
    p = bsub.add_parser("assignments", help="the exercises as an nbgrader course, one assignment a chapter",
                        description="Write the book's exercises as an nbgrader course source: one assignment per "
                                    "chapter, an answer cell and a hidden autograder test per exercise, the "
                                    "expected values computed by the engine. Then: cd OUT && nbgrader "
                                    "generate_assignment ch05_drawing_to_a_hand.")
    p.add_argument("chapters", nargs="*", metavar="CHAPTER",
                   help="chapters by number (5) or name (05_drawing_to_a_hand); default: every chapter with exercises")
    p.add_argument("--out", default=None, help="the course folder (default: book/_build/assignments)")
    p.add_argument("--book", default=argparse.SUPPRESS,  # also accepted before the action, as for every action
                   help="the book's folder (default: ./book or the repository's book/)")
    p.set_defaults(run=run_assignments)
