"""Every student their own numbers: exercises of the graded course drawn afresh, answered by the engine.

``rumino book assignments`` gives some exercises (:data:`VARIATIONS`) numbers of their own: another
hand, another deal, another house rule. With a roster each student gets theirs, drawn from the
course's seed and the student's id; without one the whole class shares one draw. Never the book's own
numbers: the book prints its solutions (and chapter 13's checker marks its answers), so a graded
exercise redraws until neither its numbers nor any part of its answer is the book's.

The expected answer is computed here, by the engine, when it is needed: when the course is written
(the teacher's key), and again by the hidden test when nbgrader grades a student, from the same
seed and the id of the student being graded (the folder nbgrader grades in). So nothing about a
student's answer is stored in what the students receive.

>>> v = VARIATIONS["ex-class-rebuys"]
>>> mine = numbers_for("ex-class-rebuys", "alice", seed=1)
>>> mine == numbers_for("ex-class-rebuys", "alice", seed=1) != v.book
True
>>> v.solve(v.book)
(80, 40)
"""

from __future__ import annotations

import hashlib
import math
import os
import random
from dataclasses import dataclass, field, replace
from fractions import Fraction
from math import comb
from pathlib import Path
from typing import Callable

from rumino.errors import RuminoError

__all__ = ["VARIATIONS", "Variation", "VariantError", "numbers_for", "whose", "graded_part", "CourseNumbers"]

SIM_SPREAD = 4  # a simulated answer may lie this many standard errors from the exact value (a right
#                 simulation misses by more about once in 16,000 runs)
TRIES = 2000


class VariantError(RuminoError, ValueError):
    """A student's numbers cannot be found: the message says what to do."""


@dataclass(frozen=True)
class Variation:
    """One exercise with numbers of its own: how to draw them, what to tell the student, the answer.

    ``solve`` computes the answer from the numbers with the engine; ``checks`` gives the hidden test of
    each part (a spec of :mod:`rumino.classroom.grading`); ``solution`` is the code the teacher's copy of
    the assignment holds (in terms of ``my``, the numbers), which the course generator runs against
    ``solve`` for every student. ``hints`` replace the book's hints (which speak of the book's numbers).
    """

    label: str
    statement: str
    what: str
    describe: Callable[[dict], str]
    draw: Callable[[random.Random], dict]
    book: dict
    solve: Callable[[dict], object]
    solution: str
    hints: tuple[str, ...] = ()
    parts: tuple[str, ...] = ()
    checks: Callable[[dict, object], list] | None = field(default=None, repr=False)
    valid: Callable[[dict], bool] | None = field(default=None, repr=False)  # a draw that makes the exercise
    answer_free: bool = False  # the answer does not depend on the numbers (a simulation graded against
    #                            the exact value: only the seed is the student's own)

    def specs(self, nums: dict) -> list:
        """The hidden test of each part, for these numbers."""
        answer = self.solve(nums)
        if self.checks is not None:
            return self.checks(nums, answer)
        parts = answer if isinstance(answer, tuple) else (answer,)
        return [("exact", a) for a in parts]


def _count(n: int, word: str) -> str:
    """``"1 joker"``, ``"2 jokers"``.

    >>> _count(1, "joker"), _count(0, "joker")
    ('1 joker', '0 jokers')
    """
    return f"{n} {word}{'' if n == 1 else 's'}"


def _seed(*parts) -> int:
    return int(hashlib.sha256("|".join(map(str, parts)).encode()).hexdigest()[:16], 16)


def _parts(answer) -> tuple:
    return answer if isinstance(answer, tuple) else (answer,)


def numbers_for(label: str, student: str | None, seed: int = 1) -> dict:
    """The numbers of exercise ``label`` for ``student`` (``None``: the class's shared draw).

    The same student, label and seed give the same numbers on every machine (SHA-256 of the three);
    a draw equal to the book's numbers, or with an answer that shares a part with the book's, is
    drawn again.
    """
    v = VARIATIONS[label]
    rng = random.Random(_seed(seed, label, "class" if student is None else f"student:{student}"))
    book = _parts(v.solve(v.book))
    for _ in range(TRIES):
        nums = v.draw(rng)
        if nums == v.book or (v.valid is not None and not v.valid(nums)):
            continue
        answer = _parts(v.solve(nums))
        if not v.answer_free and len(answer) == len(book) and any(_same_value(a, b) for a, b in zip(answer, book)):
            continue
        return nums
    raise VariantError(f"{label}: no numbers unlike the book's in {TRIES} draws (the draw is too narrow).")


def _same_value(a, b) -> bool:
    if isinstance(a, float) or isinstance(b, float):
        return isinstance(a, (int, float, Fraction)) and isinstance(b, (int, float, Fraction)) and \
            math.isclose(float(a), float(b), rel_tol=1e-6)
    return a == b


def whose(typed: str | None = None) -> str:
    """The id of the student whose numbers these are.

    When nbgrader grades (``NBGRADER_EXECUTION=autograde``) it is the folder nbgrader grades in,
    ``autograded/<student>/<assignment>``, whatever the notebook says; otherwise ``RUMINO_STUDENT``,
    then JupyterHub's login (``JUPYTERHUB_USER``), then the id typed in the notebook.
    """
    if os.environ.get("NBGRADER_EXECUTION") == "autograde":
        return Path.cwd().parent.name
    for var in ("RUMINO_STUDENT", "JUPYTERHUB_USER"):
        if os.environ.get(var, "").strip():
            return os.environ[var].strip()
    if typed and str(typed).strip():
        return str(typed).strip()
    raise VariantError("these exercises give every student their own numbers, and your student id was not "
                       "found: write it between the quotes of STUDENT_ID = \"\" at the top, then run the cells "
                       "again (on the course's JupyterHub your login is used).")


def graded_part(label: str, part: int, *, seed: int, per_student: bool, typed: str | None = None) -> tuple:
    """The hidden test's spec for one part of a varied exercise, for the student being graded."""
    student = whose(typed) if per_student else None
    return VARIATIONS[label].specs(numbers_for(label, student, seed))[part]


class CourseNumbers:
    """What a notebook of the course calls: ``numbers.of("ex-…")`` prints and returns this student's numbers.

    >>> CourseNumbers(seed=1, per_student=False).of("ex-class-rebuys", echo=False) == numbers_for("ex-class-rebuys", None, 1)
    True
    """

    def __init__(self, *, seed: int, per_student: bool, typed: str | None = None):
        self.seed, self.per_student, self.typed = seed, per_student, typed

    def student(self) -> str | None:
        return whose(self.typed) if self.per_student else None

    def of(self, label: str, *, echo: bool = True) -> dict:
        nums = numbers_for(label, self.student(), self.seed)
        if echo:
            who = f" (student {self.student()})" if self.per_student else ""
            print(f"Your numbers{who}: {VARIATIONS[label].describe(nums)}")
        return solution_numbers(label, nums)


# ---------------------------------------------------------------------------- the engine's answers

def _rumino(**changes):
    from rumino.variants import find_variant  # a game's folder is read through its row (the layers contract)

    return replace(find_variant("rumino").rules, **changes)


def _cards(text: str):
    from rumino.cards import parse_hand

    return parse_hand(text)


def _shown(text: str) -> str:
    from rumino.cards import format_card

    return " ".join(format_card(c, unicode=True) for c in _cards(text))


def _deadwood(text: str, rules) -> int:
    from rumino.hand.arrange import min_deadwood

    return min_deadwood(_cards(text), rules)


SUIT_LETTERS = "scdh"
RANK_NAMES = ("A", "2", "3", "4", "5", "6", "7", "8", "9", "10", "J", "Q", "K")


def _card(rank: int, suit: str) -> str:
    return RANK_NAMES[rank] + suit


# 1.1 twins ------------------------------------------------------------------------------------------

def _twins_solve(n):
    size = _rumino(n_jokers=n["jokers"]).meld_rules.pack.size
    # both copies among the 7: the other 5 cards from the rest of the pack
    return Fraction(comb(size - 2, 5), comb(size, 7))


def _twins_draw(rng):
    return {"jokers": rng.choice([0, 1, 2, 3, 5, 6, 8]), "card": _card(rng.randrange(13), rng.choice(SUIT_LETTERS))}


# 3.2 the ace is low ---------------------------------------------------------------------------------

def _ace_hand(n) -> str:
    high = " ".join(_card(r, n["high_suit"]) for r in (11, 12, 0))
    low = " ".join(_card(r, n["low_suit"]) for r in range(n["low"], n["low"] + 3))
    return f"{high} {low} {n['odd']}"


def _ace_solve(n):
    from rumino.melds import RUMINO_MELDS

    hand = _ace_hand(n)
    return _deadwood(hand, RUMINO_MELDS), _deadwood(hand, replace(RUMINO_MELDS, ace="both"))


def _ace_draw(rng):
    high, low, odd = rng.sample(SUIT_LETTERS, 3)
    start = rng.randrange(1, 7)  # 2-3-4 … 7-8-9: never touching Q-K-A
    ranks = [r for r in range(1, 10) if abs(r - start) > 3 and abs(r - (start + 2)) > 3]
    return {"high_suit": high, "low_suit": low, "low": start, "odd": _card(rng.choice(ranks), odd)}


# 5.1 rule of four, 5.2 the mean wait, 13.6 the mean wait by simulation ------------------------------

def _four_solve(n):
    from rumino.odds.draws import p_at_least_one

    return p_at_least_one(outs=n["k"], unseen=n["U"], draws=2)


def _wait_solve(n):
    from rumino.odds.draws import expected_draws_to_first_out

    return (expected_draws_to_first_out(outs=n["k"], unseen=n["U"]),
            expected_draws_to_first_out(outs=2 * n["k"], unseen=n["U"]))


def _wait_sd(k: int, U: int) -> float:
    """The standard deviation of the draw that brings the first of ``k`` outs among ``U`` cards, exactly."""
    from rumino.odds.draws import first_out_distribution

    dist = first_out_distribution(outs=k, unseen=U)
    mean = sum(t * p for t, p in enumerate(dist, start=1))
    return math.sqrt(sum(t * t * p for t, p in enumerate(dist, start=1)) - mean * mean)


def _sim_wait_solve(n):
    from rumino.odds.draws import expected_draws_to_first_out

    return expected_draws_to_first_out(outs=n["k"], unseen=n["U"]), float(
        expected_draws_to_first_out(outs=n["k"], unseen=n["U"]))


def _sim_wait_checks(n, answer):
    exact_mean, _ = answer
    spread = SIM_SPREAD * _wait_sd(n["k"], n["U"]) / math.sqrt(n["trials"])
    return [("exact", exact_mean), ("near", float(exact_mean), spread)]


# 6.1 how many games ---------------------------------------------------------------------------------

ROUGH = 0.02  # a "roughly" answer: within 2% of the engine's


def _how_many_solve(n):
    p, gap, z = n["p"] / 100, abs(n["p"] / 100 - 0.5), 1.96
    return math.ceil(z ** 2 * p * (1 - p) / gap ** 2)


def _rough_checks(n, answer):
    return [("near", answer, max(1, round(ROUGH * answer)))]


# 13.1 neither twins nor jokers ----------------------------------------------------------------------

def _plain_solve(n):
    size = _rumino(n_jokers=n["jokers"]).meld_rules.pack.size
    h = n["cards"]
    return Fraction(comb(52, h) * 2 ** h, comb(size, h))


# 13.2 rummy luck ------------------------------------------------------------------------------------

ACE_WORDS = {
    "low": "the ace is **low only**: A-2-3 is a run, Q-K-A is not",
    "high": "the ace is **high only**: Q-K-A is a run, A-2-3 is not",
    "both": "the ace is high or low but never both: A-2-3 and Q-K-A are runs, K-A-2 is not",
    "around": "runs **go round the corner**: A-2-3, Q-K-A and K-A-2 are all runs",
}


def _luck_solve(n):
    from rumino.odds.exact import four_three_counts

    return four_three_counts([n["ace"]])[0].hands


# 13.3 rebuys ----------------------------------------------------------------------------------------

def _rebuys_solve(n):
    doubling = _rumino(stake=n["stake"])
    flat = _rumino(stake=n["stake"], rebuy_price="flat")
    return (doubling.stake + doubling.rebuys_total(n["rebuys"]), flat.stake + flat.rebuys_total(n["rebuys"]))


# 13.4 one joker, two lives --------------------------------------------------------------------------

def _lives_hand(n) -> str:
    s = n["run_suit"]
    return (f"JK {_card(n['run'], s)} {_card(n['run'] + 2, s)} {_card(n['set'], n['twin'])} "
            f"{_card(n['set'], n['twin'])} {_card(n['set'], n['third'])} {n['odd']}")


def _lives_solve(n):
    rules = _rumino().meld_rules
    hand = _lives_hand(n)
    return _deadwood(hand, rules), _deadwood(hand, _rumino(set_suits="distinct").meld_rules)


def _lives_draw(rng):
    run_suit = rng.choice(SUIT_LETTERS)
    run = rng.randrange(1, 9)  # 2 … 9, so run + 2 is at most the jack
    busy = {run - 1, run, run + 1, run + 2, run + 3}
    set_rank = rng.choice([r for r in range(1, 13) if r not in busy])
    twin, third = rng.sample(SUIT_LETTERS, 2)
    odd_suit = rng.choice([x for x in SUIT_LETTERS if x != run_suit])
    odd = rng.choice([r for r in range(0, 6) if r not in busy | {set_rank - 1, set_rank, set_rank + 1}] or [0])
    return {"run_suit": run_suit, "run": run, "set": set_rank, "twin": twin, "third": third,
            "odd": _card(odd, odd_suit)}


# 13.5 a dealt gin by simulation ---------------------------------------------------------------------

GIN_EXACT = Fraction(91_129, 129_088_973)  # chapter 4's exact chance of a dealt Rumino gin
GIN_DEALS = 50_000


def _gin_checks(n, answer):
    p = float(GIN_EXACT)
    se = math.sqrt(p * (1 - p) / GIN_DEALS)
    # the estimate against the exact value; the interval: the width a 95% interval of 50,000 deals has
    return [("near", p, SIM_SPREAD * se), ("interval", None, 2 * 1.96 * se, 0.25)]


# 13.7 the win share ---------------------------------------------------------------------------------

def _share_solve(n):
    from rumino.stats import wilson_interval

    return wilson_interval(n["wins"], n["games"], z=1.96)


def _share_draw(rng):
    games = rng.choice([300, 320, 360, 400, 440, 480, 500, 600])
    return {"wins": rng.randrange(round(0.28 * games), round(0.40 * games)), "games": games}


# 13.8 may it knock at Gin ---------------------------------------------------------------------------

def _gin_hands(n) -> tuple[str, str]:
    run = " ".join(_card(r, n["run_suit"]) for r in range(n["run"], n["run"] + 4))
    sets = " ".join(_card(n["set"], s) for s in SUIT_LETTERS if s != n["set_missing"])
    base = f"{run} {sets} {n['a']} {n['b']}"
    return f"{base} {n['c']}", f"{base} {n['face']}"


def _gin_knock_solve(n):
    from rumino.variants import find_variant

    rules = find_variant("gin").rules.meld_rules
    return tuple(_deadwood(h, rules) for h in _gin_hands(n))


def _gin_knock_draw(rng):
    run_suit = rng.choice(SUIT_LETTERS)
    run = rng.randrange(0, 6)  # A-2-3-4 … 6-7-8-9
    set_rank = rng.choice([r for r in range(0, 9) if not run - 1 <= r <= run + 4])
    set_missing = rng.choice(SUIT_LETTERS)
    # three loose cards up to the 10: off the run's suit, not of the set's rank, ranks at least two
    # apart (no meld among them)
    ranks = [r for r in range(0, 10) if r != set_rank]
    while True:
        picked = sorted(rng.sample(ranks, 3))
        if all(b - a >= 2 for a, b in zip(picked, picked[1:])):
            break
    others = [x for x in SUIT_LETTERS if x != run_suit]
    a, b, c = (_card(r, rng.choice(others)) for r in rng.sample(picked, 3))
    face = _card(rng.choice([10, 11, 12]), rng.choice(SUIT_LETTERS))
    return {"run_suit": run_suit, "run": run, "set": set_rank, "set_missing": set_missing,
            "a": a, "b": b, "c": c, "face": face}


def _sample(k_lo: int, k_hi: int, u_lo: int, u_hi: int):
    def draw(rng):
        return {"k": rng.randrange(k_lo, k_hi + 1), "U": rng.randrange(u_lo, u_hi + 1)}

    return draw


V = Variation
VARIATIONS: dict[str, Variation] = {v.label: v for v in [
    V("ex-cards-twins",
      statement="Your table plays Rumino with its own number of jokers in the pack (the house rule "
                "`n_jokers`; the pack is two decks and the jokers), and you watch one card of the two "
                "decks. What is the probability that a 7-card deal holds **both** copies of your card? "
                "Your number of jokers and your card are printed by the cell below.",
      what="the probability, a `Fraction`",
      describe=lambda n: f"{_count(n['jokers'], 'joker')} in the pack; your card is the {_shown(n['card'])}.",
      draw=_twins_draw, book={"jokers": 4, "card": "As"}, solve=_twins_solve,
      solution='size = 104 + my["jokers"]\nans_twins = Fraction(comb(size - 2, 5), comb(size, 7))',
      hints=("Count the deals that hold both copies of your card: the other 5 cards are any of the rest of "
             "the pack. Does it matter which card you watch?",)),
    V("ex-melds-ace",
      statement="Find the deadwood of your hand (printed by the cell below) under the Rumino rules, where "
                "the ace is low. What would it be if runs could also go Q-K-A?",
      what="a pair: the deadwood with the ace low, then if Q-K-A were a run",
      describe=lambda n: f"your hand is {_shown(_ace_hand(n))}.",
      draw=_ace_draw, book={"high_suit": "s", "low_suit": "d", "low": 1, "odd": "7c"}, solve=_ace_solve,
      valid=lambda n: _ace_solve(n)[0] > _ace_solve(n)[1],
      solution=('from rumino.cards import parse_hand\nfrom rumino.hand.arrange import min_deadwood\n'
                'from rumino.melds import RUMINO_MELDS\n'
                'hand = parse_hand(my["hand"])\n'
                'rest = [c for c in hand if c not in parse_hand(my["q_k_a"])]\n'
                'ans_ace = (min_deadwood(hand, RUMINO_MELDS), min_deadwood(rest, RUMINO_MELDS))'),
      hints=("Only one meld is possible under the Rumino rules. Count the value of everything else: the ace "
             "is worth 1, each face card 10.",),
      parts=("the deadwood with the ace low", "the deadwood if Q-K-A were a run")),
    V("ex-draw-rule-of-four",
      statement="Poker players estimate the chance of hitting one of $k$ outs in two draws as \"$4k$ "
                "percent\". Check the rule against the exact formula for your draw: $k$ outs among $U$ "
                "unseen cards, 2 draws (your $k$ and $U$ are printed by the cell below).",
      what="the exact chance, a `Fraction`",
      describe=lambda n: f"k = {n['k']} outs among U = {n['U']} unseen cards.",
      draw=_sample(4, 15, 38, 52), book={"k": 9, "U": 47}, solve=_four_solve,
      solution='ans_rule_of_four = 1 - Fraction(comb(my["U"] - my["k"], 2), comb(my["U"], 2))',
      hints=("Compute the chance of missing twice, $\\binom{U-k}{2}/\\binom{U}{2}$, and subtract it from 1.",)),
    V("ex-draw-mean-wait",
      statement="With your $k$ outs among $U$ unseen cards (printed by the cell below), what is the "
                "expected number of draws to the first out? And with twice as many outs?",
      what="a pair of `Fraction`s: $E[T]$ with $k$ outs, then with $2k$",
      describe=lambda n: f"k = {n['k']} outs among U = {n['U']} unseen cards.",
      draw=_sample(2, 8, 40, 80), book={"k": 4, "U": 60}, solve=_wait_solve,
      solution='ans_mean_wait = (Fraction(my["U"] + 1, my["k"] + 1), Fraction(my["U"] + 1, 2 * my["k"] + 1))',
      hints=("Use $E[T] = (U+1)/(k+1)$: the outs cut the other cards into $k + 1$ gaps.",),
      parts=("E[T] with k outs", "E[T] with 2k outs")),
    V("ex-play-how-many",
      statement="A strategy truly wins a share $p$ of its heads-up games (your $p$ is printed by the cell "
                "below, in percent). Roughly how many games are needed before its 95% interval no longer "
                "reaches one half? Use the half-width $1.96\\sqrt{p(1-p)/n}$.",
      what="the number of games, a whole number (within 2% earns the marks)",
      describe=lambda n: f"p = {n['p']}% = {n['p'] / 100}.",
      draw=lambda rng: {"p": rng.choice([44, 45, 46, 47, 53, 54, 55, 56])}, book={"p": 48},
      solve=_how_many_solve, checks=_rough_checks,
      solution='p = my["p"] / 100\nans_how_many = ceil(1.96**2 * p * (1 - p) / (p - 0.5)**2)',
      hints=("Set the half-width equal to the gap between $p$ and one half, and solve for $n$.",)),
    V("ex-class-plain-deal",
      statement="Your table deals its own number of cards from a Rumino pack with its own number of jokers "
                "(both printed by the cell below). What fraction of deals hold no joker and no two "
                "identical cards? Give the exact fraction.",
      what="the fraction of deals, a `Fraction`",
      describe=lambda n: f"{n['cards']}-card deals from two decks and {_count(n['jokers'], 'joker')} "
                         f"({104 + n['jokers']} cards).",
      draw=lambda rng: {"jokers": rng.choice([1, 2, 3, 5, 6]), "cards": rng.choice([6, 7, 8])},
      book={"jokers": 4, "cards": 7}, solve=_plain_solve,
      solution=('h = my["cards"]\n'
                'ans_plain_deal = Fraction(comb(52, h) * 2**h, comb(104 + my["jokers"], h))'),
      hints=("Choose the different kinds first, then which of the two copies of each.",)),
    V("ex-class-rummy-luck",
      statement="From **one** 52-card deck, how many 7-card hands split into a meld of 4 and a meld of 3? "
                "Sets are cards of one rank, runs cards of one suit in a row, and the ace follows your "
                "table's rule (printed by the cell below). Some hands split in two ways: count each hand "
                "once. Write a short program that lists the melds.",
      what="the number of hands, a whole number",
      describe=lambda n: ACE_WORDS[n["ace"]] .replace("**", "") + ".",
      draw=lambda rng: {"ace": rng.choice(["low", "high", "around"])}, book={"ace": "both"},
      solve=_luck_solve,
      solution=('from itertools import combinations\n\n'
                'def card(rank, suit):  # rank 0 = ace … 12 = king\n'
                '    return 1 << (13 * suit + rank % 13)\n\n'
                'def sets(size):\n'
                '    return [sum(card(r, s) for s in suits) for r in range(13)\n'
                '            for suits in combinations(range(4), size)]\n\n'
                'def runs(size):  # a run starts at `low`; the ace is rank 0, and rank 13 when high\n'
                '    starts = {"low": range(0, 14 - size), "high": range(1, 15 - size),\n'
                '              "both": range(0, 15 - size), "around": range(13)}[my["ace"]]\n'
                '    return [sum(card(r, s) for r in range(low, low + size)) for s in range(4) for low in starts]\n\n'
                'fours, threes = sets(4) + runs(4), sets(3) + runs(3)\n'
                'ans_rummy_luck = len({a | b for a in fours for b in threes if not a & b})'),
      hints=("Write each card as one bit of a 52-bit number, and each meld as the sum of its cards' bits. Two "
             "melds are disjoint when `a & b == 0`, and a hand is `a | b`: collect the hands in a Python "
             "`set` so that each counts once.",)),
    V("ex-class-rebuys",
      statement="In your game (the stake and the rebuys are printed by the cell below) a player goes out and "
                "rebuys that many times before the game ends. How much has the player put into the pool, "
                "and how much under the house rule of flat rebuys?",
      what="a pair of whole numbers of dollars: doubling rebuys, then flat",
      describe=lambda n: f"a ${n['stake']} game; the player rebuys {_count(n['rebuys'], 'time')}.",
      draw=lambda rng: {"stake": rng.choice([5, 20, 25, 50]), "rebuys": rng.choice([2, 4, 5])},
      book={"stake": 10, "rebuys": 3}, solve=_rebuys_solve,
      solution=('stake, k = my["stake"], my["rebuys"]\n'
                'ans_rebuys = (stake + sum(stake * 2 ** (i - 1) for i in range(1, k + 1)), stake * (1 + k))'),
      hints=("The stake comes first; by default the $k$-th rebuy costs the stake times $2^{k-1}$.",),
      parts=("with doubling rebuys", "with flat rebuys")),
    V("ex-class-joker-lives",
      statement="Find the deadwood of your hand (printed by the cell below) by hand, under the Rumino rules. "
                "Then find it again when sets must have distinct suits, and explain the difference.",
      what="a pair: the deadwood by default, then with distinct suits",
      describe=lambda n: f"your hand is {_shown(_lives_hand(n))}.",
      draw=_lives_draw,
      book={"run_suit": "s", "run": 3, "set": 7, "twin": "d", "third": "c", "odd": "Ah"},
      solve=_lives_solve, valid=lambda n: _lives_solve(n)[0] < _lives_solve(n)[1],
      solution=('from dataclasses import replace\nfrom rumino.cards import parse_hand\n'
                'from rumino.hand.arrange import min_deadwood\nfrom rumino.variants.rumino import RUMINO\n'
                'hand = parse_hand(my["hand"])\n'
                'ans_joker_lives = (min_deadwood(hand, RUMINO.meld_rules),\n'
                '                   min_deadwood(hand, replace(RUMINO, set_suits="distinct").meld_rules))'),
      hints=("With distinct suits two identical cards cannot sit in one set. Try the joker in each place it "
             "could go and add up what is left.",),
      parts=("the deadwood by default", "the deadwood with distinct suits")),
    V("ex-class-simulate-gin",
      statement="Chapter 4 found the exact chance of a dealt {term}`gin`. Simulate $n = 50\\,000$ deals "
                "with your own seed (printed by the cell below) and give the estimated chance with its 95% "
                "interval. Does the interval contain the exact value? How many deals would you need for an "
                "interval about one tenth as wide?",
      what="a triple of floats: the estimate, then its interval (graded against the exact chance, within "
           "what 50,000 deals allow)",
      describe=lambda n: f"seed {n['seed']}.",
      draw=lambda rng: {"seed": rng.randrange(2, 10_000)}, book={"seed": 1},
      solve=lambda n: (float(GIN_EXACT),), checks=lambda n, a: _gin_checks(n, a), answer_free=True,
      solution=('from rumino.odds.montecarlo import simulate_deals\nfrom rumino.variants import find_variant\n'
                'estimate = simulate_deals(find_variant("rumino"), n=50_000, seed=my["seed"]).p_gin()\n'
                'ans_simulate_gin = (estimate.value, estimate.lo, estimate.hi)'),
      hints=("`simulate_deals(find_variant(\"rumino\"), n=..., seed=...)` returns an object whose `p_gin()` is "
             "an estimate with `value`, `lo` and `hi`. The width of an interval shrinks like $1/\\sqrt{n}$.",),
      parts=("the estimate", "the interval")),
    V("ex-class-wait",
      statement="With your $k$ outs among $U$ unseen cards (printed by the cell below) the mean number of "
                "draws to the first out is $(U+1)/(k+1)$. Check the formula two ways: sum the exact "
                "distribution of the first out, and shuffle $U$ cards $20\\,000$ times (with your seed), "
                "reading the mean with its 95% interval.",
      what="a pair: the exact mean (a `Fraction`), then the simulated mean (a float, graded against the "
           "exact mean within what 20,000 shuffles allow)",
      describe=lambda n: f"k = {n['k']} outs among U = {n['U']} unseen cards; seed {n['seed']}.",
      draw=lambda rng: {"k": rng.randrange(2, 9), "U": rng.randrange(40, 81), "seed": rng.randrange(1, 10_000),
                        "trials": 20_000},
      book={"k": 4, "U": 60, "seed": 3, "trials": 20_000}, solve=_sim_wait_solve, checks=_sim_wait_checks,
      solution=('import numpy as np\nfrom rumino.odds.draws import first_out_distribution\n'
                'dist = first_out_distribution(outs=my["k"], unseen=my["U"])\n'
                'exact_mean = sum(t * p for t, p in enumerate(dist, start=1))\n'
                'rng = np.random.default_rng(my["seed"])\n'
                'first = np.array([rng.permutation(my["U"])[:my["k"]].min() + 1 for _ in range(my["trials"])])\n'
                'ans_wait = (exact_mean, float(first.mean()))'),
      hints=("Put the $k$ outs at positions 0 to $k - 1$ of a row of $U$ cards and shuffle the row: the first "
             "out is drawn at 1 + the smallest position any out lands on. The interval of a mean is "
             "$\\bar x \\pm 1.96\\, s/\\sqrt{n}$.",),
      parts=("the exact mean", "the simulated mean")),
    V("ex-class-win-share",
      statement="A bot wins some four-player games (your wins and games are printed by the cell below). Give "
                "its win share with a 95% Wilson interval (chapter 3). Is it shown to win more than the one "
                "game in four of an equal player? More than one in three?",
      what="the Wilson interval `(lo, hi)`, floats (within 0.0006 earns the marks)",
      describe=lambda n: f"{n['wins']} wins in {n['games']} games.",
      draw=_share_draw, book={"wins": 140, "games": 400}, solve=_share_solve,
      checks=lambda n, a: [("near", a[0], 6e-4), ("near", a[1], 6e-4)],
      solution=('from math import sqrt\n'
                'p, n, z = my["wins"] / my["games"], my["games"], 1.96\n'
                'centre, half = (p + z**2 / (2 * n)) / (1 + z**2 / n), z / (1 + z**2 / n) * sqrt(p * (1 - p) / n + z**2 / (4 * n**2))\n'
                'ans_win_share = (centre - half, centre + half)'),
      hints=("The share is wins over games; use the Wilson formula of chapter 3 with $z = 1.96$, then see "
             "where one quarter and one third fall.",),
      parts=("the interval's lower end", "the interval's upper end")),
    V("ex-class-gin-knock",
      statement="In Gin Rummy (one deck, 10 cards, the ace low and worth 1, a knock at deadwood 10 or less), "
                "find the deadwood of your hand (printed by the cell below). May it knock? And with the "
                "face card printed below in place of your last card?",
      what="a pair: the deadwood of your hand, then with the face card in place of its last card",
      describe=lambda n: (f"your hand is {_shown(_gin_hands(n)[0])}; the face card is "
                          f"{_shown(n['face'])}."),
      draw=_gin_knock_draw,
      book={"run_suit": "s", "run": 0, "set": 7, "set_missing": "s", "a": "5d", "b": "3c", "c": "2h",
            "face": "Kh"},
      solve=_gin_knock_solve, valid=lambda n: len(set(_gin_knock_solve(n))) == 2,
      solution=('from rumino.cards import parse_hand\nfrom rumino.hand.arrange import min_deadwood\n'
                'from rumino.variants import find_variant\n'
                'gin_rules = find_variant("gin").rules.meld_rules\n'
                'ans_gin_knock = tuple(min_deadwood(parse_hand(h), gin_rules) for h in my["hands"])'),
      hints=("Find the two melds first; everything else is deadwood. Face cards are worth 10.",),
      parts=("the deadwood of your hand", "the deadwood with the face card")),
]}
del V


def solution_numbers(label: str, nums: dict) -> dict:
    """``nums`` with what a solution reads besides them (a hand written out), as the notebook's ``my``."""
    out = dict(nums)
    if label == "ex-melds-ace":
        out["hand"] = _ace_hand(nums)
        out["q_k_a"] = " ".join(_card(r, nums["high_suit"]) for r in (11, 12, 0))
    elif label == "ex-class-joker-lives":
        out["hand"] = _lives_hand(nums)
    elif label == "ex-class-gin-knock":
        out["hands"] = list(_gin_hands(nums))
    return out
