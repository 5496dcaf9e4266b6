"""Which cards a Robber Rummy rearrangement moved: the table before and after, card by card.

:func:`table_diff` compares two tables (tuples of :class:`~rumino.melds.Meld`
readings) and marks every card of the table after the move as

* ``"stayed"``: still in the meld it was in (that meld may have grown or shrunk),
* ``"moved"``: a table card now in another meld (rules §4.3: it stays on the table),
* ``"from hand"``: placed from the player's hand this turn,

and every card of the table before as ``"stays"`` or ``"moves"``. :func:`rearrangement`
reads a position written as text, asks the exact solver
(:func:`rumino.table.solver.solve_table`) for the best move and diffs it.

>>> from rumino.melds import ROBBER_MELDS
>>> r = rearrangement("5c 6c 7c 8c 9c", "7c", ROBBER_MELDS)      # rules §4.5.1
>>> [str(m) for m in r.diff.after], r.diff.marks
(['5c 6c 7c', '7c 8c 9c'], (('stayed', 'stayed', 'stayed'), ('from hand', 'moved', 'moved')))
>>> r.diff.before_marks
(('stays', 'stays', 'stays', 'moves', 'moves'),)

**Which meld continues which** is not written anywhere on a real table, so it is
decided here as a careful player would describe the move: each meld after the move
is matched to at most one meld before it so that as many table cards as possible
keep their meld (a maximum-weight matching of the melds by the cards they share,
:func:`scipy.optimize.linear_sum_assignment`); the cards a matched pair shares
*stayed*, every other table card *moved*. Ties go to the meld laid out first (the
solver lays runs from their lowest card), so splitting ``5c 6c 7c 8c 9c`` with a 7c
keeps ``5c 6c 7c`` and moves ``8c 9c`` beside the new 7c. Copies of one card are
interchangeable, so which copy of a twin is marked is a choice of presentation only.
A joker is marked like any card; what it stands for before and after is in its
meld's reading (rules §4.2).
"""

from __future__ import annotations

from collections import Counter
from dataclasses import dataclass
from typing import Sequence

import numpy as np

from rumino.cards import format_hand, parse_hand
from rumino.errors import IllegalActionError, InvalidCardError, InvalidMeldError, RuminoError
from rumino.melds import Meld, MeldRules
from rumino.table.solver import TableSolution, arrange_table, solve_table
from rumino.table.melds import check_table, parse_token, read_meld

STAYED, MOVED, FROM_HAND = "stayed", "moved", "from hand"
STAYS, MOVES = "stays", "moves"


@dataclass(frozen=True)
class TableDiff:
    """The table before and after a move, every card marked (see the module docstring).

    ``marks[i][j]`` is the mark of card ``j`` of ``after[i]``; ``before_marks`` the same
    for ``before``; ``source[i]`` the index of the meld before that ``after[i]``
    continues, or ``None`` for a meld made anew.
    """

    before: tuple[Meld, ...]
    after: tuple[Meld, ...]
    marks: tuple[tuple[str, ...], ...]
    before_marks: tuple[tuple[str, ...], ...]
    source: tuple[int | None, ...]
    placed: tuple[int, ...]

    @property
    def moved(self) -> tuple[int, ...]:
        """The table cards that changed meld (sorted)."""
        return tuple(sorted(c for m, ks in zip(self.after, self.marks) for c, k in zip(m.cards, ks) if k == MOVED))

    def unchanged(self, i: int) -> bool:
        """Is ``after[i]`` exactly a meld of the table before (same cards, same reading)?"""
        s = self.source[i]
        return s is not None and self.after[i] == self.before[s]

    def describe(self) -> list[str]:
        """One line per meld after the move, in words.

        >>> from rumino.melds import ROBBER_MELDS
        >>> rearrangement("5c 6c 7c 8c 9c", "7c", ROBBER_MELDS).diff.describe()
        ['5c 6c 7c: kept from meld 1 (5c 6c 7c 8c 9c)', '7c 8c 9c: new; from hand 7c; moved 8c 9c']
        """
        lines = []
        for i, (m, ks) in enumerate(zip(self.after, self.marks)):
            s = self.source[i]
            what = []
            if self.unchanged(i):
                what.append(f"unchanged (meld {s + 1})")
            elif s is not None:
                what.append(f"kept from meld {s + 1} ({self.before[s]})")
            else:
                what.append("new")
            for mark in (FROM_HAND, MOVED):
                cards = [c for c, k in zip(m.cards, ks) if k == mark]
                if cards:
                    what.append(f"{mark} {format_hand(cards)}")
            lines.append(f"{m}: " + "; ".join(what))
        return lines


def table_diff(before: Sequence[Meld], after: Sequence[Meld]) -> TableDiff:
    """Mark every card of ``after`` (stayed, moved, from hand) and of ``before`` (stays, moves).

    ``after`` must hold every card of ``before`` (rules §4.3 (ii)); the rest is what
    was placed.

    >>> from rumino.melds import ROBBER_MELDS
    >>> from rumino.table.melds import read_meld
    >>> from rumino.cards import parse_hand
    >>> b = [read_meld(parse_hand(t), ROBBER_MELDS) for t in ("5s 6s 7s", "9h 9c 9d")]
    >>> a = [read_meld(parse_hand(t), ROBBER_MELDS) for t in ("5s 6s 7s 8s", "9h 9c 9d")]
    >>> d = table_diff(b, a); d.marks, d.source, d.unchanged(1)
    ((('stayed', 'stayed', 'stayed', 'from hand'), ('stayed', 'stayed', 'stayed')), (0, 1), True)
    """
    from scipy.optimize import linear_sum_assignment

    before, after = tuple(before), tuple(after)
    b_counts = [Counter(m.cards) for m in before]
    a_counts = [Counter(m.cards) for m in after]
    placed = Counter(c for m in after for c in m.cards)
    placed.subtract(Counter(c for m in before for c in m.cards))
    if any(v < 0 for v in placed.values()):
        gone = Counter({c: -v for c, v in placed.items() if v < 0})
        raise IllegalActionError(f"{format_hand(sorted(gone.elements()))} left the table: every card on the table "
                                 f"stays on the table, jokers too (rules §4.3 (ii)).")
    placed = +placed
    source: list[int | None] = [None] * len(after)
    if before and after:
        n = len(after)
        shared = np.array([[sum((a & b).values()) for b in b_counts] for a in a_counts], dtype=np.int64)
        # ties go to the meld laid out first: a tie-break smaller than one shared card
        weight = shared * (n * (n + 1) // 2 + 1) + (np.arange(n, 0, -1)[:, None] * (shared > 0))
        rows, cols = linear_sum_assignment(weight, maximize=True)
        for i, j in zip(rows, cols):
            if shared[i, j] > 0:
                source[i] = int(j)
    marks: list[list[str]] = []
    kept_of_before: list[Counter] = [Counter() for _ in before]
    to_place = placed.copy()
    for i, m in enumerate(after):
        s = source[i]
        keep = (a_counts[i] & b_counts[s]) if s is not None else Counter()
        if s is not None:
            kept_of_before[s] = keep.copy()
        marks.append(_mark(m.cards, keep, STAYED, None))
    # the cards that did not stay are placed ones (as many as were placed) or table cards that moved
    for i, m in enumerate(after):
        for j, c in enumerate(m.cards):
            if marks[i][j] is None:
                if to_place[c] > 0:
                    to_place[c] -= 1
                    marks[i][j] = FROM_HAND
                else:
                    marks[i][j] = MOVED
    before_marks = []
    for b, m in enumerate(before):
        before_marks.append(tuple(_mark(m.cards, kept_of_before[b], STAYS, MOVES)))
    return TableDiff(before=before, after=after, marks=tuple(tuple(r) for r in marks),
                     before_marks=tuple(before_marks), source=tuple(source),
                     placed=tuple(sorted(placed.elements())))


def _mark(cards, keep: Counter, kept, other) -> list:
    """``kept`` for each card still in ``keep`` (using it up), ``other`` for the rest, in the meld's order."""
    row = []
    for c in cards:
        if keep[c] > 0:
            keep[c] -= 1
            row.append(kept)
        else:
            row.append(other)
    return row


def _named(what: str, err: RuminoError) -> RuminoError:
    """The same error, its message starting with the input it is about."""
    out = type(err)(f"{what}: {err}")
    return out


def read_table(text: str, rules: MeldRules) -> tuple[Meld, ...]:
    """Read a table written as melds split by ``|`` (a joker ``JK``, or ``JK(8d)`` with what it stands for).

    Without ``|`` the cards are one meld if they form one, else they are grouped into
    melds as :func:`rumino.table.solver.arrange_table` finds (as ``rumino table`` reads them).
    Errors name the input (``table: …``) and the reason.

    >>> from rumino.melds import ROBBER_MELDS
    >>> [str(m) for m in read_table("5d 6d 7d 5s 6s JK", ROBBER_MELDS)]
    ['5s 6s JK(7s)', '5d 6d 7d']
    >>> read_table("5c 6c 7c | 8c 9c", ROBBER_MELDS)
    Traceback (most recent call last):
    ...
    rumino.errors.InvalidMeldError: table: meld 2: 8c 9c is not a meld: a meld has at least 3 cards (rules §3.2).
    """
    text = str(text).strip()
    if not text:
        return ()
    groups = [g.strip() for g in text.split("|")]
    if any(not g for g in groups):
        raise InvalidMeldError("table: an empty meld between '|' signs: write melds such as '5c 6c 7c | 9h 9s 9d'.")
    try:
        tokens = [tuple(parse_token(t) for t in g.split()) for g in groups]
    except RuminoError as err:
        raise _named("table", err) from None
    melds = []
    for k, (g, t) in enumerate(zip(groups, tokens), 1):
        try:
            melds.append(read_meld(t, rules))
        except InvalidMeldError as err:
            if len(groups) == 1 and "(" not in g:  # a bare list of cards: group it into melds
                cards = parse_hand(g)
                rules.pack.check_hand(cards, name="table")
                found = arrange_table(cards, rules)
                if found is None:
                    raise InvalidMeldError(f"table: {g} cannot be grouped into valid melds (rules §4.3 (iii)); "
                                           f"split it into melds with '|' to see which one is wrong.") from None
                return found
            raise InvalidMeldError(f"table: meld {k}: {err}") from None  # the engine's message quotes the cards
    try:
        check_table(melds, rules)
    except IllegalActionError as err:
        raise _named("table", err) from None
    return tuple(melds)


@dataclass(frozen=True)
class Rearrangement:
    """A position, the solver's best move and the marks: what the table view shows."""

    hand: tuple[int, ...]
    solution: TableSolution
    diff: TableDiff


def rearrangement(table: str | Sequence[Meld], hand: str | Sequence[int], rules: MeldRules, *,
                  most_cards: bool = False) -> Rearrangement:
    """Read a position (text or melds), solve it exactly and mark what the best move changes.

    The player is taken to have opened (rules §4.3: rearranging starts after the opening).
    When nothing can be placed the table after is the table before and no card is marked.

    >>> from rumino.melds import ROBBER_MELDS
    >>> r = rearrangement("5c 6c 7c 8c 9c", "Kd", ROBBER_MELDS)
    >>> r.solution.placed, r.diff.after == r.diff.before
    ((), True)
    """
    before = read_table(table, rules) if isinstance(table, str) else tuple(table)
    try:
        cards = parse_hand(hand) if isinstance(hand, str) else tuple(hand)
    except InvalidCardError as err:
        raise _named("hand", err) from None
    t_cards = [c for m in before for c in m.cards]
    rules.pack.check_hand(cards, name="hand")
    rules.pack.check_hand(t_cards + list(cards), name="table and hand together")
    sol = solve_table(t_cards, cards, rules, most_cards=most_cards)
    after = sol.melds if sol.placed else before  # nothing placed: the table is left as it lay
    return Rearrangement(hand=tuple(cards), solution=sol, diff=table_diff(before, after))


__all__ = ["TableDiff", "table_diff", "read_table", "Rearrangement", "rearrangement", "STAYED", "MOVED",
           "FROM_HAND", "STAYS", "MOVES"]
