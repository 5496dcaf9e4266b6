"""``rumino book assignments``: the book's exercises as an nbgrader course, one assignment a chapter.

Every chapter with exercises (the family map of *Start here* and chapters 1 to 13) becomes
``source/chNN_name/chNN_name.ipynb`` in a course folder, with ``nbgrader_config.py``, a README that
says what a teacher does on a JupyterHub, step by step, and ``requirements.txt``. Per exercise:

* the exercise as plain Markdown (title, statement, hints; the book's MyST roles and directives
  turned into text JupyterLab shows as it is), and what the answer is made of, part by part;
* a read-only cell with what the chapter computed before and the exercise uses (found by reading the
  chapter's code: the cells that define the names the solution needs, and what those need);
* an **answer cell** (``### BEGIN SOLUTION`` … ``### END SOLUTION``): the book's solution code, or for
  a pencil exercise the value itself, assigning a named answer ``ans_…``;
* **one test a part** of the answer, each worth its own points: the visible lines check that the
  answer is there and is the right kind of thing (a pair, a number, a chance between 0 and 1) and say
  what is wrong; the hidden lines check the value with :mod:`rumino.classroom.grading`. A value the
  engine computes exactly earns its marks typed exactly or as a decimal to 4 significant figures;
  a "roughly" answer within a stated share; a simulated answer against the exact value within the
  spread its sample size allows, so a student's own simulation (any seed) earns the marks.
* a hand-graded answer (a Markdown cell) where words are asked for, with its rubric shown.

Expected values are computed by the engine when the course is written: the generator runs the
chapter's code and the book's solution in a kernel (and the book's own checks of that solution). Some
exercises give every student their own numbers (:mod:`rumino.classroom.variants`): with
``--students roster.csv`` each student's are drawn from their id, and the hidden test computes the
expected answer for the student being graded; without a roster the class shares one draw. Never the
book's own numbers, which the book's solutions (and chapter 13's checker) show.

:data:`ANSWERS` says, exercise by exercise, what the answer is and how each part is graded.

>>> md = myst_to_markdown(":::{exercise} Twins, pencil\\n:label: ex-x\\nHold {term}`twins <twin>`.\\n:::", "1.1")
>>> md.splitlines()[0], md.splitlines()[-1]
('### Exercise 1.1: Twins (pencil)', 'Hold twins.')
"""

from __future__ import annotations

import argparse
import ast
import builtins
import csv
import json
import math
import re
import shutil
import tempfile
from dataclasses import dataclass, field
from fractions import Fraction
from pathlib import Path

from rumino.classroom.grading import kind_problem
from rumino.cli import CommandError
from rumino.cli.inputs import out_folder
from rumino.cli.bookbuild import (
    BookError,
    chapters,
    execute_chapter,
    find_book,
    read_notebook,
)

POINTS = {"pencil": 1, "code": 2, "challenge": 3}  # the points of one part of an exercise of each level
DISPLAY_CALLS = {"show", "live", "hand", "arrangement", "side_by_side", "table", "display", "print", "glue",
                 "HTML"}
DEFAULT_SEED = 1  # the course's seed: which numbers the varied exercises draw (--seed)
SIM_SPREAD = 4  # a simulated answer may lie this many standard errors from the value it is graded against
CHANCE_WORDS = re.compile(r"\b(chance|probability|share|fraction of)\b", re.I)


# ---------------------------------------------------------------------------- what each answer is


@dataclass(frozen=True)
class Part:
    """One graded part of an answer: which piece of it, what it is called, and how it is marked.

    ``how``: ``exact`` (a decimal to 4 significant figures is fine), ``near`` (within ``tol``), ``rel``
    (within ``tol`` times the value: a "roughly" answer or a float), ``sim`` (a simulated value of ``n``
    trials, within :data:`SIM_SPREAD` standard errors of ``exact``, or of the engine's own run when
    ``exact`` is empty; ``sd`` the spread of one trial, else that of a proportion), ``interval`` (a pair
    ``(lo, hi)`` around the student's estimate with the width ``n`` trials give), ``prop`` (an engine check).
    ``n``, ``exact`` and ``sd`` are expressions in the chapter's names, evaluated when the course is made.
    ``index``: an int (an element of a tuple), a pair (a slice), a text (a key of a dict), ``None`` (all).
    """

    name: str = ""
    how: str = "exact"
    tol: float = 0.0
    n: str = ""
    exact: str = ""
    sd: str = ""
    index: object = None


def E(name: str = "", index=None) -> Part:
    return Part(name, "exact", index=index)


def Rel(name: str, tol: float, index=None) -> Part:
    return Part(name, "rel", tol, index=index)


def Near(name: str, tol: float, index=None) -> Part:
    return Part(name, "near", tol, index=index)


def Sim(name: str, n: str, exact: str = "", sd: str = "", index=None) -> Part:
    return Part(name, "sim", n=n, exact=exact, sd=sd, index=index)


def Iv(name: str, n: str, index=(1, 3)) -> Part:
    return Part(name, "interval", n=n, index=index)


@dataclass(frozen=True)
class Manual:
    """A part graded by hand: what the student writes, its points and the rubric the grader follows."""

    what: str
    points: int
    rubric: str


@dataclass(frozen=True)
class Answer:
    """The answer of one exercise: ``expr`` (code whose last line is the value, in the names of the
    book's solution), what the student is told to assign, and how each part is graded.

    ``parts`` empty: a tuple answer is graded element by element (named by ``names``), anything else as
    one part; ``rel_tol``/``abs_tol`` then apply to every part. ``prop`` instead of a value: an engine check
    of the answer (``ANS`` stands for it), for questions with many right answers. ``manual``: graded by hand
    (with ``code_cell`` a code cell comes first, for the runs the exercise asks for); ``also``: a part in
    words besides the autograded ones. ``keys_given``: the exercise names the dict's keys.
    """

    expr: str = ""
    what: str = ""
    rel_tol: float = 1e-9
    abs_tol: float = 0.0
    prop: str = ""
    imports: str = ""  # what a ``prop`` needs that the chapter's setup does not import
    manual: Manual | None = None
    code_cell: bool = False
    also: Manual | None = None
    parts: tuple[Part, ...] = ()
    names: tuple[str, ...] = ()
    keys_given: bool = False


A = Answer
_WHY = "1 point for a reason that is right and uses the exercise's numbers; none for a bare assertion."
ANSWERS: dict[str, Answer] = {
    # Start here: a map of the rummy family
    "ex-map-which-game": A("wiener.title", "the game's name as the map writes it, in quotes (such as "
                                           "`'German Rommé'`)",
                           also=Manual("the three rule changes that turn it into Rumino", 1,
                                       "1 point for three changes that are right (any three of: four jokers "
                                       "instead of two, seven cards instead of ten, a knock limit of 7 instead "
                                       "of 5, no extra turn after a knock, sets that may hold twins); half a "
                                       "point for two.")),
    "ex-map-loosest-knock": A("(frozenset(t for t, s in per_card.items() if s == max(per_card.values())),\n"
                              " max(per_card.values()))",
                              "a pair: the set of the games that allow the most (as the registry names them), "
                              "then that most, in points of deadwood per card (a `Fraction`)",
                              names=("the games that allow the most", "the most deadwood per card")),
    "ex-map-rummoli-even": A("(even, min(hand_sizes(hi)))",
                             "a pair: the list of the numbers of players at which every hand has the same "
                             "size, then the smallest hand at the largest table",
                             names=("the numbers of players with equal hands", "the smallest hand at the "
                                                                               "largest table"),
                             also=Manual("why the smallest hand matters for the poker phase", 1,
                                         "1 point for saying that every player must be able to make a five-card "
                                         "poker hand, and that the smallest hand still holds five cards.")),
    # 1 Cards, packs and counting
    "ex-cards-twins": A("p_both_aces", "the probability, a `Fraction`"),
    "ex-cards-romme-jokers": A("(romme_mean, romme_any > p_any_joker)",
                               "a pair: the expected number of jokers (a `Fraction`), and `True` if a Rommé "
                               "player is more likely than a Rumino player to hold a joker",
                               names=("the expected number of jokers", "whether a Rommé player is more likely")),
    "ex-cards-romme": A("(toy_formula, romme_hands)",
                        "a pair of whole numbers: the toy pack's hands, then the Rommé hands",
                        names=("the toy pack's hands", "the Rommé hands")),
    "ex-cards-first-out": A("mean_first", "$E[T]$ for $k = 4$, $U = 100$, a `Fraction`"),
    # 2 Rumino illustrated
    "ex-illustrated-claim": A("list(claims.claim_queue)",
                              "the seats that may claim, in the order they are asked (a list; the first gets it)"),
    "ex-illustrated-undercut": A("scores", "a dict `{'default': (knocker, gin hand), 'penalty': (...)}` "
                                           "of what each adds",
                                 parts=(E("the default rules", "default"), E("the house rule", "penalty")),
                                 keys_given=True),
    "ex-illustrated-record": A("closest", "the list of the closest hands' numbers, in increasing order"),
    # 3 Melds and deadwood
    "ex-melds-jokers": A("(splits[0].deadwood, len(splits))", "a pair: the deadwood, and how many best splits",
                         names=("the deadwood", "the number of best splits")),
    "ex-melds-ace": A('(min_deadwood(qka, RUMINO_MELDS), min_deadwood(parse_hand("2d 3d 4d 7c"), RUMINO_MELDS))',
                      "a pair: the deadwood with the ace low, then if Q-K-A were a run"),
    "ex-melds-discards": A("(min(left.values()), may_knock)",
                           "a pair: the smallest deadwood after a discard, and the sorted list of the "
                           "discards that may knock (written as `format_hand` writes a card)",
                           names=("the smallest deadwood after a discard", "the discards that may knock")),
    "ex-melds-trap": A("format_hand(trap)", "a trap hand, written as `parse_hand` reads it",
                       prop="JOKER not in parse_hand(ANS) and len(parse_hand(ANS)) == 7 and "
                            "greedy_deadwood(parse_hand(ANS), most_points_first) > "
                            "min_deadwood(parse_hand(ANS), RUMINO_MELDS)"),
    # 4 The odds of the deal
    "ex-deal-seven-kind": A("(seven_of_a_kind, straight_flushes)",
                            "a pair: the seven-of-a-kind deals, then the straight flushes (no jokers)",
                            names=("the seven-of-a-kind deals", "the straight flushes")),
    "ex-deal-burnside": A("(len(small_hands), small_fixed, len(small_classes))",
                          "three whole numbers: hands, hands the swap leaves unchanged, classes",
                          names=("the hands", "the hands the swap leaves unchanged", "the classes")),
    "ex-deal-two-jokers": A("p_gin_two", "the chance, a `Fraction`"),
    "ex-deal-one-joker": A("(s(6), one_joker)", "a pair: $s_6$, then the ruminos with exactly one joker",
                           names=("s_6", "the ruminos with exactly one joker")),
    # 5 Drawing to a hand
    "ex-draw-rule-of-four": A("p_flush_draw", "the exact chance, a `Fraction`"),
    "ex-draw-mean-wait": A("(expected_draws_to_first_out(outs=4, unseen=60), "
                           "expected_draws_to_first_out(outs=8, unseen=60))",
                           "a pair of `Fraction`s: $E[T]$ with 4 outs, then with 8"),
    "ex-draw-one-short": A("formula", "the list of the chances for $N = 0, \\dots, 30$, as `Fraction`s"),
    "ex-draw-seven-fives": A("p_tail", "the chance of completing within 20 draws, a `Fraction`"),
    # 6 Playing Rumino
    "ex-play-how-many": A("n_needed", "the number of games, a whole number"),
    "ex-play-chaser": A('(chaser["value"], lo, hi)',
                        "a triple of floats: the win share, then its interval (the share is graded against "
                        "the engine's own 300 games, within what 300 games allow)",
                        parts=(Sim("the win share", n="300", index=0), Iv("the interval", n="300"))),
    "ex-play-experiment": A(manual=Manual("your conclusion and your reasons, in words", 3,
                                          "1 point: the conclusion names the 95% interval of threshold:5's win "
                                          "share (from 200 games, seed 12) and says whether it lies above, "
                                          "below or around one half.\n"
                                          "1 point: the seats and the first dealer do not bias it, because "
                                          "each game draws its first dealer from its own seed and every game "
                                          "is a fresh seeded deal.\n"
                                          "1 point: a real answer needs many more games: the number the "
                                          "student's own answer to the exercise on how many games gave (their "
                                          "numbers, not the book's), thousands for a gap of a few points."),
                            code_cell=True),
    # 7 Knock games
    "ex-knock-ace": A("(len(ok), copies)", "a pair: different cards, then physical cards of the pack",
                      names=("the different cards", "the physical cards of the pack")),
    "ex-knock-gin-at-five": A("(g.value, g.lo, g.hi)", "a triple of floats: the estimate, then its interval",
                              parts=(Sim("the estimate", n="g.n", index=0), Iv("the interval", n="g.n"))),
    "ex-knock-how-many": A("n_needed", "the number of deals (a float is fine; within 1% earns the marks)",
                           parts=(Rel("the number of deals", 0.01),)),
    # 8 Rummoli
    "ex-rummoli-twelve": A("format_hand(eleven)", "an eleven-card hand, written as `parse_hand` reads it",
                           prop='len(set(parse_hand(ANS))) == 11 and JOKER not in parse_hand(ANS) and '
                                'category_name(hand_value(parse_hand(ANS))) == "high card"',
                           imports="from rumino.cards import JOKER"),
    "ex-rummoli-seventeen": A("no_flush_16", "the number of sixteen-card hands, a whole number"),
    "ex-rummoli-three": A("est.value", "the estimated share (a float; graded against the engine's own "
                                       "20,000 deals, within what 20,000 deals allow)",
                          parts=(Sim("the estimated share", n="20_000"),)),
    "ex-rummoli-swap": A('(proportion(*seen["one_pair"], 7).value, proportion(*seen["flush"], 7).value)',
                         "a pair of floats: how often the widow is better when the dealer holds one pair, "
                         "then a flush (checked to 0.04)", abs_tol=0.04,
                         names=("with one pair", "with a flush")),
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
                       "meld's joker comes free",
                       parts=(E("the general rule", "general"), E("the DSkV rule", "dskv")), keys_given=True),
    "ex-romme-eleven": A("(e.value, e.lo, e.hi)", "a triple of floats: the estimate, then its interval",
                         parts=(Sim("the estimate", n="e.n", index=0), Iv("the interval", n="e.n"))),
    "ex-romme-fewer-jokers": A("predicted", "the predicted share (a float)", rel_tol=1e-6),
    # 10 The family side by side
    "ex-family-matrix": A('{"jokers": [l for l, c in zip(matrix.labels, row["Pack"]) if "no jokers" not in c],\n'
                          ' "longer than four": [l for l, c in zip(matrix.labels, row["Runs"])\n'
                          '                      if not c.startswith("3 to 4")],\n'
                          ' "ace costs most": max(matrix.labels, key=lambda l: "ace 11" in\n'
                          '                       row["Card values"][matrix.labels.index(l)])}',
                          "a dict: `'jokers'` and `'longer than four'` the lists of games (as the matrix "
                          "names them, in its order), `'ace costs most'` one game",
                          parts=(E("the games with jokers", "jokers"), E("the games with longer melds",
                                                                         "longer than four"),
                                 E("the game whose ace costs most", "ace costs most")), keys_given=True),
    "ex-family-gin-at-five": A("share_at_most(5)", "the share at 5 or less, a `Fraction`"),
    "ex-family-edge": A("n_needed", "the number of games, a whole number (within 2% earns the marks)",
                        parts=(Rel("the number of games", 0.02),)),
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
                       "a pair: the exact mean (a `Fraction`), then the simulated mean (a float)"),
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
                             "simulated share with 2 (a float, graded against the exact chance within what "
                             "20,000 deals allow)",
                             parts=(E("the exact chance with 2 jokers", 0), E("the exact chance with 4 jokers", 1),
                                    Sim("the simulated share with 2 jokers", n="20_000", exact="exact[2]",
                                        index=2))),
}
del A


def answer_parts(spec: Answer, value=None) -> list[Part]:
    """The graded parts of an answer (see :class:`Answer`): declared, else one a tuple element, else one.

    >>> [p.index for p in answer_parts(ANSWERS["ex-cards-romme"], (3, 4))]
    [0, 1]
    """
    if spec.parts:
        return list(spec.parts)
    how = "near" if spec.abs_tol else ("rel" if spec.rel_tol != 1e-9 else "exact")
    tol = spec.abs_tol or (spec.rel_tol if how == "rel" else 0.0)
    if isinstance(value, tuple):
        names = spec.names or tuple(f"part {i + 1}" for i in range(len(value)))
        return [Part(names[i] if i < len(names) else f"part {i + 1}", how, tol, index=i) for i in range(len(value))]
    return [Part("", how, tol)]


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
    if isinstance(value, frozenset):
        return "frozenset(" + literal(set(value)) + ")" if value else "frozenset()"
    if isinstance(value, set):
        return "{" + ", ".join(sorted(map(literal, value))) + "}" if value else "set()"
    if isinstance(value, dict):
        return "{" + ", ".join(f"{literal(k)}: {literal(v)}" for k, v in value.items()) + "}"
    raise BookError(f"an answer of type {type(value).__name__} cannot be written into a test: {value!r}")


def read_literal(text: str):
    """The value a :func:`literal` wrote (the teacher's run sends its answers that way)."""
    return eval(text, {"__builtins__": {"set": set, "frozenset": frozenset}, "Fraction": Fraction})  # noqa: S307


def template(value):
    """A value of the same kind as ``value`` and none of its content: what a visible test may show.

    >>> template((Fraction(61, 5), 2.5, [1, 2], "x"))
    (Fraction(0, 1), 0.0, [], '')
    """
    if isinstance(value, bool):
        return False
    if isinstance(value, Fraction):
        return Fraction(0)
    if isinstance(value, int):
        return 0
    if isinstance(value, float):
        return 0.0
    if isinstance(value, str):
        return ""
    if isinstance(value, tuple):
        return tuple(template(v) for v in value)
    if isinstance(value, list):
        return []
    if isinstance(value, (set, frozenset)):
        return set()
    if isinstance(value, dict):
        return {}
    return None


def _answer_code(name: str, expr: str) -> str:
    """``expr`` (statements, then a value) as code that assigns the value to ``name``."""
    tree = ast.parse(expr)
    *body, last = tree.body
    lines = expr.splitlines()
    head = "\n".join(lines[:last.lineno - 1])
    value = "\n".join(lines[last.lineno - 1:])
    return (head + "\n" if body else "") + f"{name} = " + value.strip()


def _piece(value, index):
    """The part ``index`` of an answer (see :class:`Part`)."""
    if index is None:
        return value
    if isinstance(index, tuple):
        return tuple(value[index[0]:index[1]])
    return value[index]


def _accessor(name: str, index) -> str:
    if index is None:
        return name
    if isinstance(index, tuple):
        return f"{name}[{index[0]}:{index[1]}]"
    return f"{name}[{index!r}]"


# ---------------------------------------------------------------------------- the notebooks


def _nbg(grade_id: str, *, solution=False, grade=False, locked=False, points=None, task=False) -> dict:
    meta = {"grade": grade, "grade_id": grade_id, "locked": locked, "schema_version": 3,
            "solution": solution, "task": task}
    if points is not None:
        meta["points"] = points
    return {"nbgrader": meta}


def _cell_id(text: str) -> str:
    """A cell id nbformat accepts, from a grade id: the same on every run, so a course written twice is
    the same file."""
    return re.sub(r"[^A-Za-z0-9_-]", "-", text)[:64]


def _md(source: str, grade_id: str, metadata=None):
    import nbformat

    cell = nbformat.v4.new_markdown_cell(source, metadata=metadata or _nbg(grade_id, locked=True))
    cell.id = _cell_id(grade_id)
    return cell


def _code(source: str, metadata=None, cell_id: str | None = None):
    import nbformat

    cell = nbformat.v4.new_code_cell(source, metadata=metadata or {})
    grade_id = (metadata or {}).get("nbgrader", {}).get("grade_id")
    cell.id = _cell_id(cell_id or grade_id or "cell")
    return cell


GRADING_IMPORTS = ("import math\nfrom fractions import Fraction\nfrom math import ceil, comb, sqrt\n"
                   "from rumino.classroom.grading import check, kind_problem  # how each answer is marked")


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
    return "\n".join(kept + [GRADING_IMPORTS])


@dataclass
class Assignment:
    """One chapter's assignment, as generated."""

    name: str
    path: Path
    exercises: int
    autograded: int  # exercises with at least one autograded part
    manual: int  # exercises with a part graded by hand
    points: int
    parts: int = 0  # autograded tests
    varied: list = field(default_factory=list)  # labels of the exercises with every student's own numbers
    title: str = ""


def assignment_name(path: Path) -> str:
    """``ch05_drawing_to_a_hand`` for ``05_drawing_to_a_hand.ipynb``, ``ch00a_family_map`` for the map."""
    return "ch" + path.stem


def chapter_label(path: Path) -> str:
    """How an assignment names its chapter: ``5`` for ``05_…``, ``00a`` for a page of *Start here*."""
    head = path.stem.split("_")[0]
    return str(int(head)) if head.isdigit() else head


# ---------------------------------------------------------------------------- hints


def _hint_roots(text: str) -> set[str]:
    """The names a hint's code snippets (in backticks) use as objects: ``one_short`` in ``one_short.target``."""
    roots = set()
    for snippet in re.findall(r"`([^`]+)`", text):
        try:
            tree = ast.parse(snippet.strip(), mode="eval")
        except SyntaxError:
            continue
        for node in ast.walk(tree):
            for base in ((node.value,) if isinstance(node, (ast.Attribute, ast.Subscript)) else
                         (node.func,) if isinstance(node, ast.Call) else ()):
                if isinstance(base, ast.Name):
                    roots.add(base.id)
        if isinstance(tree.body, ast.Name):
            roots.add(tree.body.id)
    return roots


def _assigned(code: str) -> set[str]:
    """Names ``code`` makes (assignments, loops, functions, classes), not those it imports: a hint may name
    an import, which a student can write too."""
    out = set()
    for node in ast.walk(ast.parse(code)):
        if isinstance(node, ast.Name) and isinstance(node.ctx, ast.Store):
            out.add(node.id)
        elif isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef, ast.ClassDef)):
            out.add(node.name)
    return out


def solution_only_names(nb, exercises, known: set) -> set[str]:
    """Names the chapter's solutions make and nothing a student runs does (setup, chapter cells)."""
    solved = set()
    for ex in exercises:
        for code in ex.code + ex.checks:
            solved |= _assigned(code)
    student = set(known)
    for cell in nb["cells"][1:]:
        if cell["cell_type"] == "code" and "solution" not in _tags(cell):
            try:
                student |= _names(_src(cell))[1]
            except SyntaxError:
                pass
    return solved - student


# ---------------------------------------------------------------------------- one assignment


@dataclass
class _Plan:
    """What the generator decided for one exercise before running anything."""

    ex: Exercise
    spec: Answer
    given: list
    glue_cells: list
    variation: object = None  # a rumino.classroom.variants.Variation, or None


def _variation_parts(v) -> list[Part]:
    specs = v.specs(v.book)
    if len(specs) == 1:
        return [Part(v.parts[0] if v.parts else "", specs[0][0])]
    interval = [i for i, s in enumerate(specs) if s[0] == "interval"]
    out = []
    for i, s in enumerate(specs):
        name = v.parts[i] if i < len(v.parts) else f"part {i + 1}"
        index = (i, i + 2) if i in interval else i
        out.append(Part(name, s[0], index=index))
    return out


def _teacher_cells(setup: str, plans: list[_Plan], *, seed: int, students: list[str]) -> list:
    """The generation run: the assignment with the book's solutions and checks, recording each answer and
    what each part's grading needs; each varied exercise's solution run for every student's numbers."""
    cells = [_code(setup), _code(
        "import json as _json\n_RECORD, _GLUED, _EXTRA = {}, {}, {}\n"
        "def glue(name, value, how='int'):\n"
        "    import bookutils\n"
        "    _GLUED[name] = bookutils.fmt(value, how) if not isinstance(value, str) else value\n"
        "    return _GLUED[name]")]
    who = [None] + list(students)
    for plan in plans:
        ex, spec = plan.ex, plan.spec
        if plan.variation is not None:
            v = plan.variation
            parts = _variation_parts(v)
            cells.append(_code(
                "from rumino.classroom.variants import VARIATIONS as _V, numbers_for as _nf, solution_numbers as _sn\n"
                f"for _who in {who!r}:\n"
                f"    _nums = _nf({ex.label!r}, _who, {seed})\n"
                "    _ns = dict(globals(), my=_sn(" + repr(ex.label) + ", _nums))\n"
                f"    exec(compile({v.solution!r}, {ex.label!r}, 'exec'), _ns)\n"
                f"    _ans = _ns[{ex.name!r}]\n"
                f"    for _i, _index in enumerate({[p.index for p in parts]!r}):\n"
                f"        _spec = _V[{ex.label!r}].specs(_nums)[_i]\n"
                "        _got = _ans if _index is None else (tuple(_ans[_index[0]:_index[1]]) "
                "if isinstance(_index, tuple) else _ans[_index])\n"
                "        _centre = _ans[0] if _spec[0] == 'interval' else None\n"
                "        _spec = _spec if _centre is None else (_spec[0], _centre) + tuple(_spec[2:])\n"
                f"        assert check(_got, _spec), ({ex.label!r}, _who, _i, _got, _spec)\n"
                f"_RECORD[{ex.name!r}] = _ans  # the shape of the answer, for the visible tests"))
            continue
        cells += [_code(c.code) for c in plan.given]
        cells += [_code(c) for c in plan.glue_cells]
        if spec.manual:
            cells += [_code(c) for c in ex.code + ex.checks]
            continue
        cells += [_code(c) for c in ex.code]
        cells.append(_code(_answer_code(ex.name, spec.expr)))
        cells += [_code(c) for c in ex.checks]
        if spec.prop:
            cells.append(_code(spec.imports + f"\nassert {spec.prop.replace('ANS', ex.name)}, {ex.label!r}"))
        extra = {f"{i}.{key}": getattr(p, key) for i, p in enumerate(spec.parts) for key in ("n", "exact", "sd")
                 if getattr(p, key)}
        cells.append(_code(f"_RECORD[{ex.name!r}] = {ex.name}\n"
                           f"_EXTRA[{ex.label!r}] = {{" + ", ".join(f"{k!r}: {v}" for k, v in extra.items()) + "}"))
    cells.append(_code("from rumino.cli.assignments import literal as _literal\n"
                       "print(_json.dumps({'answers': {k: _literal(v) for k, v in _RECORD.items()},"
                       " 'extra': {k: {p: _literal(v) for p, v in e.items()} for k, e in _EXTRA.items()},"
                       " 'glued': _GLUED}))"))
    for i, cell in enumerate(cells):
        cell.id = f"run-{i}"
    return cells


def _check_spec(part: Part, want, extra: dict, i: int):
    """The hidden test's spec of a part (see :mod:`rumino.classroom.grading`), and the words that say how it
    is marked."""
    if part.how == "exact":
        return ("exact", want), exact_words(want)
    if part.how == "near":
        return ("near", want, part.tol), f"graded to within {part.tol:g}"
    if part.how == "rel":
        scale = max((abs(float(x)) for x in _numbers_in(want)), default=1.0)
        return ("near", want, part.tol * scale), f"within {part.tol:.2g} of the right value, relatively"
    n = read_literal(extra[f"{i}.n"]) if f"{i}.n" in extra else None
    if n is None:
        raise BookError(f"part {part.name!r} is graded against a sample but says no sample size (n)")
    if part.how == "sim":
        reference = read_literal(extra[f"{i}.exact"]) if f"{i}.exact" in extra else want
        sd = (read_literal(extra[f"{i}.sd"]) if f"{i}.sd" in extra
              else math.sqrt(float(reference) * (1 - float(reference))))
        factor = 1.0 if f"{i}.exact" in extra else math.sqrt(2)  # two samples differ by √2 standard errors
        spread = SIM_SPREAD * factor * sd / math.sqrt(n)
        against = "the exact value" if f"{i}.exact" in extra else "the engine's own run"
        return ("near", float(reference), spread), (f"graded against {against}, within {SIM_SPREAD} standard "
                                                    f"errors of {n:,} trials ({spread:.3g})")
    if part.how == "interval":
        p = float(want[0]) if isinstance(want, tuple) else float(want)
        width = 2 * 1.96 * math.sqrt(p * (1 - p) / n)
        return ("interval", None, width, 0.25), (f"an interval around your estimate, about as wide as a 95% "
                                                  f"interval of {n:,} trials (within a quarter)")
    raise BookError(f"unknown way of grading a part: {part.how!r}")


def exact_words(want) -> str:
    """How an exact part is marked, in a student's words, for an answer like ``want``.

    >>> exact_words(Fraction(1, 3)), exact_words("Gin Rummy")
    ('graded exactly; a decimal to 4 significant figures earns the points too', 'graded as text; capitals and accents do not matter')
    """
    kinds = {type(x) for x in _leaves(want)}
    if kinds and kinds <= {str}:
        return "graded as text; capitals and accents do not matter"
    if Fraction in kinds:
        return "graded exactly; a decimal to 4 significant figures earns the points too"
    return "graded exactly"


def _leaves(value):
    if isinstance(value, (list, tuple, set, frozenset)):
        for v in value:
            yield from _leaves(v)
    elif isinstance(value, dict):
        for v in value.values():
            yield from _leaves(v)
    else:
        yield value


def _numbers_in(value):
    if isinstance(value, (list, tuple, set, frozenset)):
        for v in value:
            yield from _numbers_in(v)
    elif isinstance(value, dict):
        for v in value.values():
            yield from _numbers_in(v)
    elif isinstance(value, (int, float, Fraction)) and not isinstance(value, bool):
        yield value


def _is_chance(words: str, value) -> bool:
    return (bool(CHANCE_WORDS.search(words)) and isinstance(value, (Fraction, float)) and not isinstance(value, bool)
            and 0 <= value <= 1)


def _test_cell(ex: Exercise, k: int, total: int, part: Part, pts: int, whole_template, part_template,
               hidden: str, how_words: str, *, chance: bool, keys_given: bool):
    name = ex.name
    title = f" ({part.name})" if part.name else ""
    head = (f"# Test of exercise {ex.number}, part {k} of {total}{title}: {pts} point{'s' if pts != 1 else ''}; "
            f"{how_words}.\n")
    lines = [f"assert {name!r} in globals(), \"assign your answer to {name}, then run this cell again\""]
    if part.index is not None:
        lines.append(f"_problem = kind_problem({name}, {literal(whole_template)}"
                     + (", keys_given=True" if keys_given else "") + ")")
        lines.append(f"assert _problem is None, f\"{name} {{_problem}}\"")
    where = f"{_accessor(name, part.index)}" if part.index is not None else name
    if part_template is not None:
        what = f"{where}{title}" if part.index is not None else name
        lines.append(f"_problem = kind_problem({where}, {literal(part_template)}"
                     + (", chance=True" if chance else "") + ")")
        lines.append(f"assert _problem is None, f\"{what} {{_problem}}\"")
    source = (head + "from rumino.classroom.grading import check, kind_problem\n" + "\n".join(lines)
              + f"\n### BEGIN HIDDEN TESTS\n{hidden}\n### END HIDDEN TESTS")
    gid = f"{ex.label}-test" + (f"-{k}" if total > 1 else "")
    return _code(source, _nbg(gid, grade=True, locked=True, points=pts))


def _rubric_cell(ex: Exercise, manual: Manual, gid: str):
    rows = "\n".join(f"* {line.strip()}" for line in manual.rubric.splitlines() if line.strip())
    return _md(f"**How this answer is marked** ({manual.points} point{'s' if manual.points != 1 else ''}, "
               f"by hand):\n\n{rows}", gid)


def build_assignment(path: Path, course: Path, *, timeout: int = 600, seed: int = DEFAULT_SEED,
                     students: list[str] | None = None) -> Assignment:
    """Write ``course/source/<name>/<name>.ipynb`` for the chapter at ``path`` (and the files it needs).

    ``students``: the roster's ids; each then has their own numbers for the varied exercises
    (:mod:`rumino.classroom.variants`); without a roster the class shares one draw of ``seed``.
    """
    import nbformat

    from rumino.classroom.variants import VARIATIONS

    nb = read_notebook(path)
    number = chapter_label(path)
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
    plans: list[_Plan] = []
    hidden_names = solution_only_names(nb, exercises, known | {c for cell in pool for c in cell.bound})
    for ex in exercises:
        spec = ANSWERS.get(ex.label)
        if spec is None:
            raise BookError(f"{path.name}: exercise {ex.label} has no entry in rumino.cli.assignments.ANSWERS "
                            f"(say what its answer is)")
        variation = VARIATIONS.get(ex.label)
        if variation is None:
            for hint in ex.hints:
                leaked = sorted(_hint_roots(hint) & hidden_names)
                if leaked:
                    raise BookError(f"{path.name}: the hint of exercise {ex.label} names `{leaked[0]}`, which only "
                                    f"the book's solution defines: a student does not have it.")
        if variation is not None:
            plans.append(_Plan(ex, spec, [], [], variation))
            continue
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
        plans.append(_Plan(ex, spec, need, glue_cells))
    # the data files the cells read, the setup's among them (a chapter may load its results files there)
    read = {m for p in plans for c in p.given for m in re.findall(r"data/[\w.-]+", c.code)}
    for data in sorted(read | set(re.findall(r"data/[\w.-]+", setup))):
        if (root / data).is_file():
            (folder / data).parent.mkdir(parents=True, exist_ok=True)
            shutil.copy2(root / data, folder / data)

    # run the chapter's code and the book's solutions once, in a kernel, in the assignment's own folder
    run = nbformat.v4.new_notebook(cells=_teacher_cells(setup, plans, seed=seed, students=students or []),
                                   metadata=nb.metadata)
    with tempfile.TemporaryDirectory() as tmp:
        run_path = Path(tmp) / f"{name}-teacher.ipynb"
        nbformat.write(run, str(run_path))
        executed, report = execute_chapter(run_path, cwd=folder, timeout=timeout, progress=False)
    if report.error:
        raise BookError(f"{path.name}: running the solutions for the assignment failed:\n{report.error}")
    result = json.loads("".join(o.get("text", "") for o in executed.cells[-1].outputs if o.get("name") == "stdout"))
    values = {k: read_literal(v) for k, v in result["answers"].items()}
    extras, glued = result["extra"], result["glued"]

    title = next(re.match(r"#\s+(.*)", _src(c)).group(1) for c in nb["cells"]
                 if c["cell_type"] == "markdown" and re.match(r"#\s+", _src(c)))
    heading = f"Chapter {number}" if number.isdigit() else "Start here"
    cells = []
    total = n_parts = 0
    varied = [p.ex.label for p in plans if p.variation is not None]
    for plan in plans:
        ex, spec, v = plan.ex, plan.spec, plan.variation
        pts = POINTS[ex.level]
        if v is not None:
            parts = _variation_parts(v)
            book_answer = values[ex.name]  # what the solution gave for the class's numbers: the answer's shape
            whole_tpl = template(book_answer)
            statement = f"### Exercise {ex.number}: " + re.sub(r",\s*(pencil|code|challenge)\s*$", r" (\1)",
                                                                ex.title) + "\n\n" + v.statement
            text = [myst_to_markdown(statement, ex.number, glued)]
            text += [f"> **Hint.** {h}" for h in v.hints]
            what = v.what
        else:
            value = values.get(ex.name)
            parts = [] if spec.manual else answer_parts(spec, value)
            text = [myst_to_markdown(ex.statement, ex.number, glued)]
            text += [myst_to_markdown(h, ex.number, glued) for h in ex.hints]
            what = spec.what
        auto_pts = pts * len(parts)
        manual = spec.manual or spec.also
        ex_total = auto_pts + (manual.points if manual else 0)
        total += ex_total
        n_parts += len(parts)
        if parts:
            listing = "; ".join(f"{p.name}" for p in parts if p.name) if len(parts) > 1 else ""
            tell = (f"**Your answer** ({auto_pts} point{'s' if auto_pts != 1 else ''}"
                    + (f", {pts} for each part: {listing}" if len(parts) > 1 else "")
                    + f"): assign `{ex.name}`, {what}.")
            if spec.also:
                tell += (f" Then, in words in the cell after the tests, {spec.also.what} "
                         f"({spec.also.points} point{'s' if spec.also.points != 1 else ''}, graded by hand).")
        else:
            tell = (f"**Your answer** ({manual.points} point{'s' if manual.points != 1 else ''}, graded by hand): "
                    + (f"run the games in the code cell below, then write {manual.what} in the cell after it."
                       if spec.code_cell else f"{manual.what}, in the cell below."))
        if v is not None:
            tell += " **Your numbers** are printed by the cell below."
        cells.append(_md("\n\n".join(text + [tell]), f"{ex.label}-text"))
        if plan.given:
            given = "# From the chapter: what this exercise builds on (run it, do not change it).\n"
            cells.append(_code(given + "\n\n".join(c.code for c in plan.given), _nbg(f"{ex.label}-given", locked=True)))
        if v is not None:
            cells.append(_code(f"my = numbers.of({ex.label!r})  # your numbers for this exercise",
                               _nbg(f"{ex.label}-numbers", locked=True)))
        if spec.manual and v is None:  # the book's answer, and its code, for the grader's eyes only
            if spec.code_cell:
                cells.append(_code("# Run the games here (your code is not graded by itself: the answer below is).\n"
                                   "### BEGIN SOLUTION\n" + "\n\n".join(ex.code) + "\n### END SOLUTION",
                                   _nbg(f"{ex.label}-code", solution=True)))
            cells.append(_rubric_cell(ex, manual, f"{ex.label}-rubric"))
            prose = _ROLE.sub(lambda m: _role(m, glued), ex.prose).strip()
            if not spec.code_cell:
                prose += "".join(f"\n\n```python\n{c}\n```" for c in ex.code)
            cells.append(_md("### BEGIN SOLUTION\n" + prose + "\n### END SOLUTION", f"{ex.label}-answer",
                             _nbg(f"{ex.label}-answer", solution=True, grade=True, points=manual.points)))
            continue
        if v is not None:
            body = v.solution
        elif ex.level == "pencil":
            body = f"{ex.name} = {literal(values[ex.name])}"
        else:
            body = "\n\n".join(ex.code + [_answer_code(ex.name, spec.expr)])
        cells.append(_code(f"# Assign {ex.name}: {re.sub(r'[`$]', '', what)}.\n### BEGIN SOLUTION\n"
                           f"{body}\n### END SOLUTION", _nbg(f"{ex.label}-answer", solution=True)))
        for k, part in enumerate(parts, 1):
            if v is not None:
                want_shape = _piece(book_answer, part.index) if isinstance(book_answer, tuple) else book_answer
                hidden = ("from rumino.classroom.variants import graded_part\n"
                          f"_spec = graded_part({ex.label!r}, {k - 1}, seed={seed}, per_student={bool(students)}, "
                          "typed=globals().get('STUDENT_ID'))\n")
                centre = f", centre={ex.name}[0]" if part.how == "interval" else ""
                hidden += f"assert check({_accessor(ex.name, part.index)}, _spec{centre}), 'not the expected value'"
                how_words = {"exact": exact_words(want_shape) + " (for your numbers)",
                             "near": "graded for your numbers, within the tolerance the exercise states",
                             "interval": "an interval around your estimate, about as wide as a 95% interval of "
                                         "your sample (within a quarter)"}[part.how]
                whole_template = whole_tpl
            elif part.how == "prop":
                want_shape = values[ex.name]
                hidden = (spec.imports + "\n" if spec.imports else "") + (
                    f"assert {spec.prop.replace('ANS', ex.name)}, 'not the kind of answer the exercise asks for'")
                how_words, whole_template = "checked with the engine", None
            else:
                want = _piece(values[ex.name], part.index)
                want_shape = want
                check_spec, how_words = _check_spec(part, want, extras.get(ex.label, {}), k - 1)
                centre = f", centre={ex.name}[0]" if part.how == "interval" else ""
                hidden = f"assert check({_accessor(ex.name, part.index)}, {literal(check_spec)}{centre}), " \
                         f"'not the expected value'"
                whole_template = template(values[ex.name])
            if spec.prop and v is None:
                part_tpl = template(want_shape)
            else:
                part_tpl = template(want_shape)
            chance = _is_chance(f"{part.name} {what}", want_shape) if v is None else _is_chance(
                f"{part.name} {what}", want_shape)
            own = values[ex.name]
            problem = ((kind_problem(own, whole_template, keys_given=spec.keys_given) if part.index is not None
                        and whole_template is not None else None)
                       or (kind_problem(_piece(own, part.index), part_tpl, chance=chance) if part_tpl is not None
                           else None))
            if problem:
                raise BookError(f"{path.name}: the solution of exercise {ex.label} fails its own visible test: "
                                f"{ex.name} {problem}")
            cells.append(_test_cell(ex, k, len(parts), part, pts, whole_template, part_tpl, hidden, how_words,
                                    chance=chance, keys_given=spec.keys_given))
        if spec.also:
            cells.append(_rubric_cell(ex, spec.also, f"{ex.label}-rubric"))
            answer = _ROLE.sub(lambda m: _role(m, glued), ex.prose).strip()
            cells.append(_md("### BEGIN SOLUTION\n" + answer + "\n### END SOLUTION", f"{ex.label}-words",
                             _nbg(f"{ex.label}-words", solution=True, grade=True, points=spec.also.points)))
    intro = (f"# {heading}: {title}\n\n{len(exercises)} exercises, {total} points. Run the setup cell first, then "
             f"each exercise's cells in order. Assign each answer to the variable its cell names. Each test cell "
             f"after an answer checks one part of it and is worth that part's points: run it, and it says at once "
             f"if the answer is missing or is not the kind of thing asked for (a pair, a number, a chance between "
             f"0 and 1). Whether the value is right is checked when the assignment is graded. A `Fraction` the "
             f"engine computes earns its points typed exactly or as a decimal to 4 significant figures, a whole "
             f"number typed exactly (`2398` or `2398.0`); each test says how its part is marked. Answers in words are graded by hand, "
             f"against the rubric shown above them.")
    head = [_md(intro, "intro"), _code(setup, _nbg("setup", locked=True))]
    if varied:
        intro_numbers = ("Some exercises give every student their own numbers" if students
                         else "Some exercises have numbers of this course's own, not the book's")
        head.append(_md(f"**Your numbers.** {intro_numbers} (another hand, another deal, another house rule): "
                        "the cell before each such exercise prints yours. "
                        + ("On the course's JupyterHub your login picks them; elsewhere write the student id your "
                           "teacher gave you between the quotes below. " if students else "")
                        + "Answer with your numbers, not the book's.", "numbers-intro"))
        head.append(_code('STUDENT_ID = ""  # only off the course\'s JupyterHub: your student id, between the quotes',
                          cell_id="student-id"))
        head.append(_code("from rumino.classroom.variants import CourseNumbers\n"
                          f"numbers = CourseNumbers(seed={seed}, per_student={bool(students)}, "
                          "typed=globals().get('STUDENT_ID'))",
                          _nbg("numbers", locked=True)))
    out = nbformat.v4.new_notebook(cells=head + cells, metadata={
        "kernelspec": {"display_name": "Python 3", "language": "python", "name": "python3"},
        "language_info": {"name": "python"}})
    nbformat.write(out, str(folder / f"{name}.ipynb"))
    manual_n = sum(1 for p in plans if p.spec.manual or p.spec.also)
    auto_n = sum(1 for p in plans if not p.spec.manual)
    return Assignment(name, folder / f"{name}.ipynb", len(exercises), auto_n, manual_n, total, n_parts, varied,
                      f"{heading}: {title}")


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
    """The chapters with exercises (the family map ``00a`` and the numbered ones), or those ``wanted``
    (by number, ``00a``, or name)."""
    root = find_book(book)
    pages = [p for p in chapters(root) if re.match(r"\d\d[a-z]?_", p.name)
             and any("{exercise}" in _src(c) for c in read_notebook(p)["cells"])]
    if not wanted:
        return pages
    out = []
    for w in wanted:
        key = Path(str(w)).stem.removeprefix("ch")
        hits = [p for p in pages if p.stem == key or p.stem.split("_")[0] == key
                or (key.isdigit() and p.stem.split("_")[0] == f"{int(key):02d}")]
        if not hits:
            raise CommandError(f"no chapter {w!r} with exercises: they are {', '.join(chapter_label(p) for p in pages)} "
                               f"({pages[0].stem} … {pages[-1].stem}).")
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


# ---------------------------------------------------------------------------- the roster

STUDENT_ID = re.compile(r"[A-Za-z0-9][A-Za-z0-9._@-]{0,63}")
ROSTER_COLUMNS = ("id", "first_name", "last_name", "email")  # nbgrader's own (nbgrader db student import)


@dataclass(frozen=True)
class Student:
    """A student of the roster: the id nbgrader knows them by, and their name if the roster gives it."""

    id: str
    first_name: str = ""
    last_name: str = ""
    email: str = ""


def read_roster(path) -> list[Student]:
    """The students of a roster CSV (a header with an ``id`` column; ``first_name``, ``last_name`` and
    ``email`` if given); anything else is a one-line :class:`CommandError` naming the line and the reason.

    >>> import tempfile, os
    >>> f = os.path.join(tempfile.mkdtemp(), "roster.csv")
    >>> _ = open(f, "w").write("id,first_name\\nalice,Alice\\nbob smith,Bob\\n")
    >>> read_roster(f)
    Traceback (most recent call last):
    ...
    rumino.cli.CommandError: --students roster.csv, line 3: the id 'bob smith' has a space; an id is letters, digits and . _ - @ (nbgrader's student ids, as on the JupyterHub).
    """
    path = Path(path)
    label = f"--students {path.name}"
    if not path.is_file():
        raise CommandError(f"{label}: no such file ({path}).")
    try:
        text = path.read_text(encoding="utf-8-sig")
    except UnicodeDecodeError:
        raise CommandError(f"{label}: not UTF-8 text; save the roster as a UTF-8 CSV file.") from None
    rows = list(csv.reader(text.splitlines()))
    if not rows or not any(cell.strip() for cell in rows[0]):
        raise CommandError(f"{label}: the file is empty; its first line names the columns, one of them id "
                           f"(nbgrader's roster: {','.join(ROSTER_COLUMNS)}).")
    header = [h.strip().lower() for h in rows[0]]
    if "id" not in header:
        alias = next((h for h in ("student_id", "student", "username", "login") if h in header), None)
        if alias is None:
            raise CommandError(f"{label}, line 1: no column 'id' (the columns are {', '.join(map(repr, header))}); "
                               f"nbgrader's roster has {','.join(ROSTER_COLUMNS)}.")
        header[header.index(alias)] = "id"
    for col in header:
        if header.count(col) > 1:
            raise CommandError(f"{label}, line 1: the column {col!r} appears twice.")
    seen: dict[str, int] = {}
    out = []
    for line, row in enumerate(rows[1:], start=2):
        if not any(cell.strip() for cell in row):
            continue  # a blank line
        if len(row) != len(header):
            raise CommandError(f"{label}, line {line}: {len(row)} field{'s' if len(row) != 1 else ''} where the "
                               f"header has {len(header)} (a comma inside a name needs quotes).")
        fields = dict(zip(header, (cell.strip() for cell in row)))
        sid = fields["id"]
        if not sid:
            raise CommandError(f"{label}, line {line}: the id is empty.")
        if not STUDENT_ID.fullmatch(sid):
            why = ("has a space" if " " in sid else "is longer than 64 characters" if len(sid) > 64
                   else "starts with a sign" if not sid[0].isalnum() else "has a character other than those")
            raise CommandError(f"{label}, line {line}: the id {sid!r} {why}; an id is letters, digits and . _ - @ "
                               f"(nbgrader's student ids, as on the JupyterHub).")
        if sid in seen:
            raise CommandError(f"{label}, line {line}: the id {sid!r} is already on line {seen[sid]}.")
        seen[sid] = line
        out.append(Student(sid, fields.get("first_name", ""), fields.get("last_name", ""), fields.get("email", "")))
    if not out:
        raise CommandError(f"{label}: no students: the file has a header and no rows.")
    return out


def write_key(out: Path, name: str, labels: list[str], students: list[Student] | None, seed: int) -> Path | None:
    """``numbers/<assignment>.csv``: each student's numbers and expected answers, for the teacher only
    (outside ``source/`` and ``release/``: it never reaches a student)."""
    from rumino.classroom.variants import VARIATIONS, numbers_for

    if not labels:
        return None
    folder = out / "numbers"
    folder.mkdir(exist_ok=True)
    path = folder / f"{name}.csv"
    whose = [s.id for s in students] if students else [None]
    with path.open("w", encoding="utf-8", newline="") as f:
        w = csv.writer(f)
        w.writerow(["student", "exercise", "numbers", "answer"])
        for sid in whose:
            for label in labels:
                v = VARIATIONS[label]
                nums = numbers_for(label, sid, seed)
                w.writerow([sid or "(the whole class)", label, v.describe(nums), _plain(v.solve(nums))])
    return path


def _plain(value) -> str:
    if isinstance(value, tuple):
        return "(" + ", ".join(map(_plain, value)) + ")"
    if isinstance(value, Fraction):
        if value.denominator == 1:
            return str(value.numerator)
        return f"{value.numerator}/{value.denominator} ≈ {float(value):.6g}"
    if isinstance(value, float):
        return f"{value:.6g}"
    return str(value)


# ---------------------------------------------------------------------------- the course folder


def readme(done: list[Assignment], *, students: list[Student] | None, seed: int) -> str:
    """The course folder's README: what the course holds, and what a teacher does on a JupyterHub."""
    import rumino

    __version__ = rumino.__version__  # the package's version (an attribute, not an import of a private name)

    rows = "\n".join(f"| `{a.name}` | {a.title} | {a.exercises} | {a.parts} | {a.manual} | {a.points} | "
                     f"{len(a.varied)} |" for a in done)
    varied = sum(len(a.varied) for a in done)
    per_student = (f"Made with a roster of {len(students)} students: each of them has their own numbers for the "
                   f"{varied} varied exercises, drawn from their id and the course's seed ({seed}). "
                   "`students.csv` is the roster in nbgrader's format, and `numbers/` lists every student's "
                   "numbers and expected answers, for you only: never copy `numbers/` to the students."
                   if students else
                   f"Made without a roster: the {varied} varied exercises have one draw for the whole class "
                   f"(seed {seed}), different from the book's numbers; `numbers/` lists them with their answers, "
                   "for you only. `rumino book assignments --students roster.csv` gives every student their own.")
    return f"""# The rumino course (nbgrader)

Written by `rumino book assignments` (rumino {__version__}): the exercises of the book *rumino* as graded
assignments, one a chapter, for [nbgrader](https://nbgrader.readthedocs.io), the Jupyter project's
grader. Every expected value was computed by rumino's engine when this folder was written.

| assignment | chapter | exercises | autograded tests | answers in words | points | own numbers |
| --- | --- | --- | --- | --- | --- | --- |
{rows}

**How it grades.** Each autograded test checks one part of an answer and is worth that part's points.
Its visible lines tell a student at once when an answer is missing or is the wrong kind of thing (a
pair, a number, a chance between 0 and 1), so `nbgrader validate` fails for them; the hidden lines,
which only the autograder runs, check the value. An exact fraction earns its points typed exactly or as
a decimal to 4 significant figures (a whole number exactly); a "roughly" answer within the share its
test states; a simulated answer against the exact value (or the engine's own run) within the spread its
sample size allows, so a student's own simulation earns the points. Answers in words are graded by hand in the Formgrader,
against the rubric shown above each.

**Own numbers.** {per_student}

## On a JupyterHub, step by step

1. **Install** (once, by whoever runs the hub): into the Python environment of the students' servers,
   `pip install -r requirements.txt` (rumino is installed from its repository: see that file). nbgrader
   0.9 brings its JupyterLab extensions with it; check with `jupyter labextension list` (the lines
   `@jupyter/nbgrader` are enabled). Make the exchange folder every user shares:
   `mkdir -p /srv/nbgrader/exchange && chmod 777 /srv/nbgrader/exchange`, and in
   `/etc/jupyter/nbgrader_config.py` write `c.Exchange.root = "/srv/nbgrader/exchange"` and
   `c.CourseDirectory.course_id = "rumino"`.
2. **The course folder**: copy this folder into your (the instructor's) home on the hub, for example
   `~/rumino-course`, and work from there: `cd ~/rumino-course`. `nbgrader_config.py` here makes it the
   course's root.
3. **The students**: `nbgrader db student import students.csv` (a CSV with the columns
   `id,first_name,last_name,email`; the ids are the students' hub logins).
4. **Release an assignment**: `nbgrader generate_assignment ch05_drawing_to_a_hand` writes the students'
   copy into `release/` (solutions and hidden tests taken out); open it and run it once if you like
   (`nbgrader validate release/ch05_drawing_to_a_hand/ch05_drawing_to_a_hand.ipynb` runs the visible
   tests, which fail on the empty answers; with a roster, `RUMINO_STUDENT=<an id>` in front of the
   command tries it with that student's numbers). Then `nbgrader release_assignment
   ch05_drawing_to_a_hand` puts it in the exchange.
5. **The students** open the *Assignments* tab of JupyterLab, fetch the assignment, answer, run the test
   cells (or *Validate*), and *Submit* before the deadline.
6. **Collect and grade**: `nbgrader collect ch05_drawing_to_a_hand`, then
   `nbgrader autograde ch05_drawing_to_a_hand` (each notebook runs again, in `autograded/<student>/…`;
   a student's own numbers are those of the folder it runs in). Open the *Formgrader* (the *Nbgrader*
   menu, *Formgrader*) for the answers in words: each shows its rubric above it.
7. **Feedback**: `nbgrader generate_feedback ch05_drawing_to_a_hand` and
   `nbgrader release_feedback ch05_drawing_to_a_hand`; the grades are in `gradebook.db`
   (`nbgrader export` writes them to `grades.csv`).

Without a hub, steps 4 and 6 work on one machine: put a student's notebook in
`submitted/<student id>/<assignment>/` and run `nbgrader autograde <assignment>`.

A change to the book (or a new year, with `--seed`) is a new course: run `rumino book assignments`
again into a fresh folder rather than over one whose assignments are already released.
"""


def requirements() -> str:
    import rumino

    __version__ = rumino.__version__  # the package's version (an attribute, not an import of a private name)

    return f"""# What the Python of the students' servers needs for this course: pip install -r requirements.txt
# rumino is not on PyPI: install it from its repository first (pip install /path/to/rumino), or
# write that path in place of the line below.
rumino=={__version__}
nbgrader>=0.9.6
jupyterlab>=4
"""


def write_course(out, chapters_wanted=None, book=None, progress=print, *, students: list[Student] | None = None,
                 seed: int = DEFAULT_SEED) -> list[Assignment]:
    """Write the course folder ``out`` (``nbgrader_config.py``, README, ``requirements.txt``, ``source/…``);
    one assignment a chapter. ``students`` (a roster) gives every student their own numbers."""
    paths = course_chapters(book, chapters_wanted)
    out = check_out(Path(out))
    try:
        (out / "source").mkdir(parents=True, exist_ok=True)
    except OSError as err:
        raise CommandError(f"--out {out}: the folder cannot be made there ({err.strerror}).") from None
    (out / "nbgrader_config.py").write_text(NBGRADER_CONFIG, encoding="utf-8")
    (out / "requirements.txt").write_text(requirements(), encoding="utf-8")
    if students:
        with (out / "students.csv").open("w", encoding="utf-8", newline="") as f:
            w = csv.writer(f)
            w.writerow(ROSTER_COLUMNS)
            for s in students:
                w.writerow([s.id, s.first_name, s.last_name, s.email])
    done = []
    ids = [s.id for s in students] if students else []
    for path in paths:
        a = build_assignment(path, out, seed=seed, students=ids)
        write_key(out, a.name, a.varied, students, seed)
        progress(f"{a.path.relative_to(out)}: {a.exercises} exercises, {a.parts} autograded tests"
                 + (f", {a.manual} with an answer in words" if a.manual else "")
                 + (f", {len(a.varied)} with {'every student' if students else 'the class'}'s own numbers"
                    if a.varied else "") + f", {a.points} points")
        done.append(a)
    listed = {a.name: a for a in done}
    for old in sorted((out / "source").glob("ch*/ch*.ipynb")):  # assignments written before stay listed
        if old.stem not in listed:
            listed[old.stem] = _read_assignment(old)
    (out / "README.md").write_text(readme([listed[k] for k in sorted(listed)], students=students, seed=seed),
                                   encoding="utf-8")
    return done


def _read_assignment(path: Path) -> Assignment:
    """What an assignment written earlier holds, read back from its notebook (for the README's table)."""
    nb = json.loads(path.read_text(encoding="utf-8"))
    meta = [c["metadata"].get("nbgrader", {}) for c in nb["cells"]]
    tests = [m for m in meta if m.get("grade") and not m.get("solution")]
    words = [m for m in meta if m.get("grade") and m.get("solution")]
    title = re.match(r"#\s+(.*)", "".join(nb["cells"][0]["source"])).group(1)
    labels = {m["grade_id"].rsplit("-", 1)[0] for m in meta if m.get("grade_id", "").endswith("-numbers")}
    n = sum(1 for m in meta if m.get("grade_id", "").endswith("-text"))
    return Assignment(path.stem, path, n, 0, len(words), int(sum(m.get("points", 0) for m in tests + words)),
                      len(tests), sorted(labels), title)


def run_assignments(args) -> int:
    if args.out is not None:
        out_folder("--out", args.out)
    out = Path(args.out) if args.out else find_book(args.book) / "_build" / "assignments"
    import sys
    import time

    start = time.perf_counter()
    find_book(args.book)  # bad input (no book, an unknown chapter, a bad roster) exits 2 before anything is written
    course_chapters(args.book, args.chapters)
    students = read_roster(args.students) if args.students else None
    try:
        done = write_course(out, args.chapters, args.book, progress=lambda s: print(s, flush=True),
                            students=students, seed=args.seed)
    except CommandError:
        raise
    except BookError as err:
        print(f"rumino book assignments: {err}", file=sys.stderr)
        return 1
    n = sum(a.exercises for a in done)
    print(f"{len(done)} assignment{'s' if len(done) != 1 else ''}, {n} exercises, "
          f"{sum(a.parts for a in done)} autograded tests, {sum(a.points for a in done)} points"
          + (f", own numbers for {len(students)} students" if students else "")
          + f", in {time.perf_counter() - start:.0f} s: {out} (README.md says what to do next)")
    return 0


def _seed(text: str) -> int:
    try:
        value = int(text)
    except ValueError:
        raise argparse.ArgumentTypeError(f"{text!r} is not a whole number") from None
    if not 0 <= value < 2 ** 63:
        raise argparse.ArgumentTypeError(f"{value} is out of range (0 to 2**63 - 1)")
    return value


def add_to(bsub) -> None:
    """Add ``assignments`` to the ``rumino book`` actions."""
    p = bsub.add_parser("assignments", help="the exercises as an nbgrader course, one assignment a chapter",
                        description="Write the book's exercises as an nbgrader course source: one assignment per "
                                    "chapter, an answer cell per exercise and a test per part of the answer (its "
                                    "kind checked openly, its value hidden), the expected values computed by the "
                                    "engine, a README with the steps on a JupyterHub. With --students, every "
                                    "student gets their own numbers for the varied exercises. Then: cd OUT && "
                                    "nbgrader generate_assignment ch05_drawing_to_a_hand.")
    p.add_argument("chapters", nargs="*", metavar="CHAPTER",
                   help="chapters by number (5), 00a for the family map, or name (05_drawing_to_a_hand); default: "
                        "every chapter with exercises")
    p.add_argument("--out", default=None, help="the course folder (default: book/_build/assignments)")
    p.add_argument("--students", default=None, metavar="ROSTER.CSV",
                   help="a roster (CSV with an id column, as nbgrader's: id,first_name,last_name,email): each "
                        "student gets their own numbers, graded against their own answers")
    p.add_argument("--seed", type=_seed, default=DEFAULT_SEED,
                   help=f"the course's seed for the varied exercises' numbers (default {DEFAULT_SEED}; another "
                        "year, another seed)")
    p.add_argument("--book", default=argparse.SUPPRESS,  # also accepted before the action, as for every action
                   help="the book's folder (default: ./book or the repository's book/)")
    p.set_defaults(run=run_assignments)
