"""A class experiment: deal real (or virtual) hands, pool the groups' tallies, compare with the exact value.

A class splits into groups; each group deals a number of hands (or turns up cards), counts the
successes and the trials, and the teacher types both in. The groups are pooled into one estimate
with its Wilson 95% interval (:mod:`rumino.stats`), set against the exact value the engine computes,
and the running estimate after each group shows the interval narrowing.

Three experiments (:data:`EXPERIMENTS`), each with its instructions and its exact value:

* ``rumino_meld`` — a dealt 7-card Rumino hand (two decks and four jokers) holds at least one meld;
* ``knock_meld`` — a 7-card Knock Rummy deal from one ordinary 52-card deck holds at least one meld;
* ``first_out`` — turning up at most 5 cards of one shuffled deck brings a 7 or an 8 (8 outs).

The meld chances are counted exactly by :func:`count_meldless_hands` (rank by rank, every hand
weighted by its copies and jokers); the draw chance is :func:`rumino.odds.draws.p_at_least_one`.
A virtual hand is judged by the engine's arrangement search (:func:`rumino.hand.arrange.best_arrangement`).

>>> e = EXPERIMENTS["first_out"]
>>> e.exact
Fraction(27017, 46410)
>>> tally = ClassTally(e)
>>> _ = tally.add("14", "30", name="A"); _ = tally.add("17", "30", name="B")
>>> tally.pooled().successes, tally.pooled().n, tally.exact_inside()
(31, 60, True)
>>> tally.add("31", "30")
Traceback (most recent call last):
...
rumino.classroom.experiment.TallyError: successes is 31 but trials is 30: a group cannot count more successes than trials.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field
from fractions import Fraction
from functools import cached_property
from math import comb
from typing import Callable, Sequence

import numpy as np

from rumino.cards import JOKER, Pack, RANKS, STANDARD_PACK, format_card, rank_of, sort_cards
from rumino.errors import RuminoError
from rumino.melds import MeldRules
from rumino.odds.draws import expected_draws_to_first_out, p_at_least_one
from rumino.stats import Estimate, proportion_estimate, wilson_interval

MAX_TRIALS = 100_000  # per group: a class deals tens of hands, so more is a typo (an extra zero or two)


class TallyError(RuminoError, ValueError):
    """A tally a teacher typed that cannot be counted: the message names the field and the reason."""


# --------------------------------------------------------------------------- the exact count of meldless hands


def _check_countable(rules: MeldRules) -> None:
    """The counting below knows melds of 3+ cards, ace low, sets by rank alone, one natural per meld."""
    ok = (rules.min_meld == 3 and rules.ace == "low" and rules.min_naturals == 1 and rules.max_set >= 3
          and (rules.set_suits == "any" or rules.pack.decks == 1) and rules.max_jokers_per_meld is None)
    if not ok:
        raise ValueError(f"count_meldless_hands covers melds of 3 or more, ace low, sets by rank, jokers free "
                         f"(one natural per meld); {rules.name!r} is not such a set of rules: use "
                         f"rumino.odds.enumerate.deal_distribution with an evaluator.")


def _naturals_without_meld(decks: int, naturals: int, spread: bool) -> int:
    """Hands of ``naturals`` natural cards (``decks`` copies of each of 52) that hold no meld, and,
    when ``spread``, cannot make one with one joker either.

    Walks the ranks A…K; per suit the state remembers whether the suit held a card one and two ranks
    ago. Without a joker a meld is three of a rank or three ranks in a row in a suit; with one joker
    (``spread``) it is any two of a rank or two cards of a suit at most two ranks apart.
    """
    most_per_rank = 1 if spread else 2
    # the ways one rank may be held: per suit 0…decks copies, at most `most_per_rank` cards in all
    choices = []
    for ks in np.ndindex(*(decks + 1,) * 4):
        if sum(ks) <= most_per_rank:
            ways = 1
            for k in ks:
                ways *= comb(decks, k)
            present = sum(1 << s for s, k in enumerate(ks) if k)
            choices.append((present, sum(ks), ways))
    # state: (suits held at the rank before, suits held two ranks before) -> {cards: hands}
    states: dict[tuple[int, int], dict[int, int]] = {(0, 0): {0: 1}}
    for _rank in RANKS:
        nxt: dict[tuple[int, int], dict[int, int]] = {}
        for (prev, prev2), by_size in states.items():
            banned = (prev | prev2) if spread else (prev & prev2)
            for present, k, ways in choices:
                if present & banned:
                    continue
                row = nxt.setdefault((present, prev), {})
                for size, hands in by_size.items():
                    if size + k <= naturals:
                        row[size + k] = row.get(size + k, 0) + hands * ways
        states = nxt
    return sum(by_size.get(naturals, 0) for by_size in states.values())


def count_meldless_hands(rules: MeldRules, hand_size: int) -> dict[int, int]:
    """Deals of ``hand_size`` cards from ``rules.pack`` that hold no meld, by jokers: ``{jokers: deals}``.

    A joker with any two cards of a rank, or of a suit at most two ranks apart, makes a meld; two
    jokers make one with any natural card. So a meldless hand has at most one joker, and the count is
    a walk over the ranks (see :func:`_naturals_without_meld`).

    >>> from rumino.melds import GIN_MELDS
    >>> count_meldless_hands(GIN_MELDS, 3)   # C(52, 3) minus 52 sets and 44 runs
    {0: 22004}
    """
    _check_countable(rules)
    pack = rules.pack
    out = {}
    for j in range(min(pack.jokers, hand_size) + 1):
        naturals = hand_size - j
        if j >= 2 and naturals >= 1:
            out[j] = 0  # any natural card and two jokers are a meld
        elif naturals == 0:
            out[j] = comb(pack.jokers, j)  # jokers alone meld nothing (one natural per meld)
        else:
            out[j] = comb(pack.jokers, j) * _naturals_without_meld(pack.decks, naturals, spread=j == 1)
    return out


def p_holds_meld(rules: MeldRules, hand_size: int) -> Fraction:
    """P(a dealt hand of ``hand_size`` cards holds at least one meld), exactly.

    >>> from rumino.melds import GIN_MELDS
    >>> p_holds_meld(GIN_MELDS, 3)   # (52 + 44) / C(52, 3)
    Fraction(24, 5525)
    """
    none = sum(count_meldless_hands(rules, hand_size).values())
    total = comb(rules.pack.size, hand_size)
    return 1 - Fraction(none, total)


# --------------------------------------------------------------------------- experiments


@dataclass(frozen=True)
class Trial:
    """One virtual hand (or row of turned cards): its cards, the engine's verdict and whether it counts."""

    cards: tuple[int, ...]
    success: bool
    verdict: str


@dataclass(frozen=True)
class Experiment:
    """An experiment a class can do with real cards, with its exact value and a virtual dealer.

    ``judge`` reads one trial's cards (as dealt, in order) and returns ``(success, verdict)``;
    ``exact_fn`` computes the exact chance of a success (kept, computed once).
    """

    key: str
    title: str
    question: str  # the yes/no question a trial answers
    pack: Pack
    cards: int  # cards dealt (or turned up) per trial
    materials: str
    steps: tuple[str, ...]
    exact_fn: Callable[[], Fraction] = field(repr=False)
    judge: Callable[[tuple[int, ...]], tuple[bool, str]] = field(repr=False)
    note: str = ""
    unit: str = "hands"  # what one trial is called on a button and in the tally ("hands", "tries")
    ordered: bool = False  # the order of the cards matters (turned up one by one); else shown sorted

    @cached_property
    def exact(self) -> Fraction:
        """The exact chance that one trial is a success."""
        return self.exact_fn()

    def deal(self, n: int, seed) -> list[Trial]:
        """``n`` virtual trials from a shuffled pack each, seeded (the same seed deals the same hands).

        >>> [t.success for t in EXPERIMENTS["first_out"].deal(4, seed=1)] == \\
        ...     [t.success for t in EXPERIMENTS["first_out"].deal(4, seed=1)]
        True
        """
        n = _whole("hands", n, 1)
        rng = np.random.default_rng(seed)
        ids = np.array([c for c in range(52) for _ in range(self.pack.decks)] + [JOKER] * self.pack.jokers)
        out = []
        for _ in range(n):
            cards = tuple(int(c) for c in rng.permutation(ids)[: self.cards])
            cards = cards if self.ordered else sort_cards(cards)  # a hand reads best sorted
            ok, verdict = self.judge(cards)
            out.append(Trial(cards, ok, verdict))
        return out


def _meld_judge(rules: MeldRules) -> Callable[[tuple[int, ...]], tuple[bool, str]]:
    from rumino.hand.arrange import best_arrangement

    def judge(cards):
        # the best arrangement lays a meld whenever there is one: melding only lowers the deadwood
        arr = best_arrangement(cards, rules)
        if not arr.melds:
            return False, "no meld"
        shown = " ".join(format_card(c, unicode=True) for c in arr.melds[0].cards)
        more = f" (+{len(arr.melds) - 1})" if len(arr.melds) > 1 else ""
        return True, f"meld {shown}{more}"

    return judge


OUT_RANKS = (6, 7)  # rank indices of the 7 and the 8: the outs of the draw experiment
DRAWS = 5


def _first_out_judge(cards):
    for i, c in enumerate(cards, 1):
        if c != JOKER and rank_of(c) in OUT_RANKS:
            return True, f"{format_card(c, unicode=True)} on card {i}"
    return False, f"no 7 or 8 in {len(cards)} cards"


def _experiments() -> dict[str, Experiment]:
    from rumino.variants import find_variant

    rumino_rules = find_variant("rumino").rules.meld_rules
    knock_rules = find_variant("knock").rules.meld_rules
    count_steps = ("Each group deals one hand at a time from the shuffled pack, face up.",
                   "Look for a meld: three or more of a rank, or three or more in a row in one suit "
                   "(ace low: A-2-3 is a run, Q-K-A is not).",
                   "Mark a tick for a hand with at least one meld, then gather and shuffle the whole pack "
                   "again before the next hand.",
                   "After the agreed number of hands, the group reports its ticks (successes) and its "
                   "hands (trials).")
    return {
        "rumino_meld": Experiment(
            key="rumino_meld", title="A Rumino hand holds a meld",
            question="Does a dealt 7-card Rumino hand hold at least one meld?",
            pack=rumino_rules.pack, cards=7,
            materials="two ordinary decks shuffled together with four jokers (108 cards) per group",
            steps=count_steps[:1] + ("Look for a meld: three or more of a rank, or three or more in a row "
                                     "in one suit (ace low); a joker stands for any card, so a joker with "
                                     "a pair or two near cards of a suit is a meld, and two jokers with "
                                     "any card.",) + count_steps[2:],
            exact_fn=lambda: p_holds_meld(rumino_rules, 7), judge=_meld_judge(rumino_rules),
            note="Two copies of a card count as two of its rank (5♥ 5♥ 5♠ is a set)."),
        "knock_meld": Experiment(
            key="knock_meld", title="A Knock Rummy deal holds a meld",
            question="Does a 7-card deal from one ordinary deck hold at least one meld?",
            pack=knock_rules.pack, cards=7,
            materials="one ordinary 52-card deck, no jokers, per group",
            steps=count_steps,
            exact_fn=lambda: p_holds_meld(knock_rules, 7), judge=_meld_judge(knock_rules)),
        "first_out": Experiment(
            key="first_out", title="A 7 or an 8 within five cards",
            question=f"Turning up at most {DRAWS} cards of a shuffled deck, does a 7 or an 8 appear?",
            pack=STANDARD_PACK, cards=DRAWS,
            materials="one ordinary 52-card deck per group",
            steps=("Shuffle the deck well.",
                   f"Turn up cards one at a time, at most {DRAWS}; stop at the first 7 or 8.",
                   "Mark a tick if a 7 or an 8 came, then put the cards back and shuffle again.",
                   "After the agreed number of tries, the group reports its ticks (successes) and its "
                   "tries (trials)."),
            exact_fn=lambda: p_at_least_one(outs=8, unseen=52, draws=DRAWS), judge=_first_out_judge,
            note=(f"The four 7s and four 8s are the outs of a hand waiting for either; on average the "
                  f"first of them is card {float(expected_draws_to_first_out(8, 52)):.2f} "
                  f"(exactly {expected_draws_to_first_out(8, 52)})."), unit="tries", ordered=True)}


EXPERIMENTS: dict[str, Experiment] = _experiments()


# --------------------------------------------------------------------------- tallies


_WHOLE = re.compile(r"\d{1,3}(,\d{3})+|\d+")


def _whole(name: str, value, low: int = 0) -> int:
    """A whole number from what a teacher typed (``"12"``, ``" 1,200 "``, ``12``), or a TallyError."""
    if isinstance(value, bool):
        raise TallyError(f"{name} is {value!r}: type a whole number such as 12.")
    if isinstance(value, (int, np.integer)):
        n = int(value)
    else:
        text = "" if value is None else str(value).strip()
        if not text:
            raise TallyError(f"{name} is empty: type a whole number such as 12.")
        if text.startswith("-") and _WHOLE.fullmatch(text[1:].strip()):
            raise TallyError(f"{name} is {text}: a count cannot be negative.")
        if not _WHOLE.fullmatch(text):
            raise TallyError(f"{name} is {text!r}: not a whole number (type digits only, such as 12).")
        n = int(text.replace(",", ""))
    if n < 0:
        raise TallyError(f"{name} is {n}: a count cannot be negative.")
    if n < low:
        raise TallyError(f"{name} is {n}: a group needs at least {low}.")
    if n > MAX_TRIALS:
        raise TallyError(f"{name} is {n:,}: more than {MAX_TRIALS:,} in one group, surely a typo.")
    return n


@dataclass(frozen=True)
class Group:
    """One group's tally: ``successes`` out of ``trials`` (``virtual`` if the engine dealt them)."""

    name: str
    successes: int
    trials: int
    virtual: bool = False

    @property
    def estimate(self) -> Estimate:
        return proportion_estimate(self.successes, self.trials)


def parse_tally(successes, trials, name: str = "") -> Group:
    """A group's tally from the two fields a teacher types; a bad field raises a one-line TallyError.

    >>> parse_tally(" 12 ", "30")
    Group(name='', successes=12, trials=30, virtual=False)
    >>> parse_tally("12.5", "30")
    Traceback (most recent call last):
    ...
    rumino.classroom.experiment.TallyError: successes is '12.5': not a whole number (type digits only, such as 12).
    """
    t = _whole("trials", trials, 1)
    s = _whole("successes", successes)
    if s > t:
        raise TallyError(f"successes is {s} but trials is {t}: a group cannot count more successes than trials.")
    return Group(str(name).strip(), s, t)


def pool(groups: Sequence[Group]) -> Estimate:
    """All groups as one sample: total successes over total trials, with the Wilson 95% interval.

    >>> e = pool([Group("A", 10, 30), Group("B", 14, 30)])
    >>> e.successes, e.n, round(e.value, 3)
    (24, 60, 0.4)
    """
    return proportion_estimate(sum(g.successes for g in groups), sum(g.trials for g in groups))


def running(groups: Sequence[Group]) -> list[Estimate]:
    """The pooled estimate after the first group, the first two, … (one estimate per group).

    >>> [e.n for e in running([Group("A", 1, 10), Group("B", 2, 10), Group("C", 3, 5)])]
    [10, 20, 25]
    """
    return [pool(groups[: i + 1]) for i in range(len(groups))]


def interval_width(p: Fraction | float, n: int) -> float:
    """The width of the Wilson 95% interval a sample of ``n`` trials gives when it hits ``p`` exactly:
    what a class should expect, before the cards are dealt.

    >>> round(interval_width(0.5, 100), 4)
    0.1923
    """
    lo, hi = wilson_interval(float(p) * n, n)
    return hi - lo


class ClassTally:
    """The groups of one class for one experiment: add typed or virtual groups, pool, compare.

    A bad tally raises :class:`TallyError` and changes nothing.

    >>> t = ClassTally("knock_meld")
    >>> g = t.deal_group(10, seed=3)
    >>> g.trials, g.virtual, len(t.last_trials)
    (10, True, 10)
    """

    def __init__(self, experiment: Experiment | str, seed: int = 0):
        self.experiment = EXPERIMENTS[experiment] if isinstance(experiment, str) else experiment
        self.seed = seed
        self.groups: list[Group] = []
        self.last_trials: list[Trial] = []
        self._dealt = 0  # virtual groups dealt so far: each gets its own seed (seed, k)

    def _name(self, name: str) -> str:
        return name or f"group {len(self.groups) + 1}"

    def add(self, successes, trials, name: str = "") -> Group:
        """Parse and add a typed group (a TallyError leaves the groups as they were)."""
        g = parse_tally(successes, trials, name)
        g = Group(self._name(g.name), g.successes, g.trials)
        self.groups.append(g)
        return g

    def deal_group(self, n: int, seed=None, name: str = "") -> Group:
        """Deal ``n`` virtual trials, judge each with the engine and add them as a group."""
        n = _whole("hands", n, 1)
        seed = [self.seed, self._dealt] if seed is None else seed
        trials = self.experiment.deal(n, seed)
        self._dealt += 1
        self.last_trials = trials
        g = Group(self._name(name), sum(t.success for t in trials), n, virtual=True)
        self.groups.append(g)
        return g

    def reset(self) -> None:
        self.groups.clear()
        self.last_trials = []
        self._dealt = 0

    def pooled(self) -> Estimate:
        return pool(self.groups)

    def running(self) -> list[Estimate]:
        return running(self.groups)

    def exact_inside(self) -> bool | None:
        """Does the pooled 95% interval hold the exact value? (None before the first group.)"""
        return self.pooled().contains(self.experiment.exact) if self.groups else None

    def summary(self) -> str:
        """One line: the pooled estimate, its interval and where the exact value lies.

        >>> t = ClassTally("first_out"); _ = t.add(16, 30)
        >>> t.summary()
        'pooled: 16 of 30 = 53.3% (95% interval 36.1% – 69.8%); exact 58.2%: inside the interval'
        """
        if not self.groups:
            return "no groups yet: type a tally or deal virtual hands"
        e, p = self.pooled(), float(self.experiment.exact)
        where = "inside" if self.exact_inside() else ("below" if p < e.lo else "above")
        return (f"pooled: {int(e.successes):,} of {e.n:,} = {e.value:.1%} (95% interval {e.lo:.1%} – "
                f"{e.hi:.1%}); exact {p:.1%}: {where} the interval")
