"""Meld rules as data: what is a set, what is a run, what jokers may do, what cards are worth.

One frozen :class:`MeldRules` object holds everything the arrangement search
needs for a variant: the pack, set and run sizes, the ace position, the joker
limits and the card values. Each variant's rules dataclass builds one from its
knobs (``RuminoRules(...).meld_rules``); the presets below are the defaults.

A meld is read as a :class:`Meld`: its kind, its cards in laid order and the
natural card each position stands for (a joker's "stands for").

>>> from rumino.cards import parse_hand
>>> is_meld(parse_hand("5h 5h 5s"), RUMINO_MELDS), is_meld(parse_hand("5h 5h 5s"), ROMME_MELDS)
(True, False)
>>> [str(m) for m in meld_readings(parse_hand("7h JK 9h"), ROMME_MELDS)]
['7h JK(8h) 9h']
>>> check_meld(parse_hand("Qc Kc Ac"), ROMME_MELDS).opening_value()
31
"""

from __future__ import annotations

from dataclasses import dataclass, field, replace
from functools import cached_property
from itertools import combinations, product
from typing import Iterable, Sequence

import numpy as np

from rumino.cards import (
    JOKER,
    ROMME_PACK,
    RUMINO_PACK,
    STANDARD_PACK,
    WIENER_PACK,
    Pack,
    format_card,
    to_counts,
)
from rumino.errors import InvalidMeldError, RuleConfigError

ACE_POSITIONS = ("low", "high", "both", "around")
SET_SUITS = ("any", "distinct")


@dataclass(frozen=True, kw_only=True)
class MeldRules:
    """The meld and card-value rules the arrangement search works from.

    Sizes count jokers. ``ace``: ``low`` allows A-2-3 only, ``high`` Q-K-A only,
    ``both`` either but never K-A-2, ``around`` also K-A-2 (rules §0.2).

    >>> MeldRules(pack=STANDARD_PACK, max_run=2)
    Traceback (most recent call last):
    ...
    rumino.errors.RuleConfigError: MeldRules.max_run is 2: it must be an integer from min_meld (3) to 13.
    """

    name: str = "custom"
    pack: Pack = STANDARD_PACK
    min_meld: int = 3  # smallest set or run
    max_set: int = 4  # largest set (8 = every copy of a rank in two decks)
    max_run: int = 13  # longest run (13 = every rank once)
    set_suits: str = "any"  # "any": rank only, same-suit duplicates allowed; "distinct": all suits differ
    ace: str = "low"
    min_naturals: int = 1  # natural cards every meld needs (0 allows all-joker melds)
    max_jokers_per_meld: int | None = None  # None: no limit beyond min_naturals
    max_adjacent_jokers: int | None = None  # most jokers side by side in a run (None: no limit)
    adjacent_jokers_min_run: int = 0  # two jokers side by side only in runs at least this long
    ace_value: int = 1  # deadwood / penalty value of an ace
    face_value: int = 10  # value of J, Q, K
    joker_value: int = 10  # deadwood / penalty value of a joker left in hand

    def __post_init__(self):
        def need(cond: bool, fieldname: str, allowed: str):
            if not cond:
                raise RuleConfigError(
                    f"MeldRules.{fieldname} is {getattr(self, fieldname)!r}: it must be {allowed}."
                )

        def is_int(v) -> bool:
            return isinstance(v, int) and not isinstance(v, bool)

        need(isinstance(self.pack, Pack), "pack", "a rumino.cards.Pack")
        need(is_int(self.min_meld) and 2 <= self.min_meld <= 8, "min_meld", "an integer from 2 to 8")
        need(is_int(self.max_run) and self.min_meld <= self.max_run <= 13, "max_run",
             f"an integer from min_meld ({self.min_meld}) to 13")
        need(self.set_suits in SET_SUITS, "set_suits", "'any' or 'distinct'")
        top_set = 4 if self.set_suits == "distinct" else 4 * self.pack.decks + self.pack.jokers
        need(is_int(self.max_set) and self.min_meld <= self.max_set <= max(top_set, self.min_meld), "max_set",
             f"an integer from min_meld ({self.min_meld}) to {top_set} (sets with set_suits={self.set_suits!r})")
        need(self.ace in ACE_POSITIONS, "ace", "one of 'low', 'high', 'both', 'around'")
        need(is_int(self.min_naturals) and 0 <= self.min_naturals <= self.min_meld, "min_naturals",
             f"an integer from 0 to min_meld ({self.min_meld})")
        need(self.max_jokers_per_meld is None or (is_int(self.max_jokers_per_meld) and self.max_jokers_per_meld >= 0),
             "max_jokers_per_meld", "None or a non-negative integer")
        need(self.max_adjacent_jokers is None or (is_int(self.max_adjacent_jokers) and self.max_adjacent_jokers >= 1),
             "max_adjacent_jokers", "None or an integer of at least 1")
        need(is_int(self.adjacent_jokers_min_run) and 0 <= self.adjacent_jokers_min_run <= 13,
             "adjacent_jokers_min_run", "an integer from 0 to 13")
        for f in ("ace_value", "face_value", "joker_value"):
            need(is_int(getattr(self, f)) and 0 <= getattr(self, f) <= 100, f, "an integer from 0 to 100")

    # ------------------------------------------------------------------ values

    @cached_property
    def values(self) -> np.ndarray:
        """Deadwood value of each card id (length 53), e.g. ``values[JOKER]``."""
        v = np.zeros(53, dtype=np.int32)
        for c in range(52):
            r = c % 13
            v[c] = self.ace_value if r == 0 else (self.face_value if r >= 10 else r + 1)
        v[JOKER] = self.joker_value
        return v

    def value(self, c: int) -> int:
        """Deadwood (penalty) value of one card."""
        return int(self.values[c])

    @property
    def jokers_allowed(self) -> bool:
        return self.pack.jokers > 0 and (self.max_jokers_per_meld is None or self.max_jokers_per_meld > 0)

    def max_jokers(self, size: int) -> int:
        """Most jokers a meld of ``size`` cards may hold."""
        j = size - self.min_naturals
        if self.max_jokers_per_meld is not None:
            j = min(j, self.max_jokers_per_meld)
        return max(j, 0)

    # ------------------------------------------------------------------ run geometry

    def run_windows(self, length: int) -> list[tuple[int, ...]]:
        """Every sequence of rank positions a run of ``length`` may occupy (13 = the high ace).

        >>> RUMINO_MELDS.run_windows(3)[:2], ROMME_MELDS.run_windows(3)[-1]
        ([(0, 1, 2), (1, 2, 3)], (11, 12, 13))
        """
        if length > 13:  # a run holds each rank once: never A…A (rules §3.2)
            return []
        if self.ace == "low":
            starts = range(0, 14 - length)
        elif self.ace == "high":
            starts = range(1, 15 - length)
        elif self.ace == "both":
            starts = range(0, 15 - length)
        else:  # around: any start, ranks taken modulo 13
            # Every start, even for 13 cards: the 13 rotations hold the same ranks but put
            # the ends (and so the jokers' neighbours and the ace's opening value) elsewhere.
            starts = range(13)
        if self.ace == "around":
            return [tuple((s + k) % 13 for k in range(length)) for s in starts]
        return [tuple(range(s, s + length)) for s in starts]

    def joker_pattern_ok(self, is_joker: Sequence[bool], kind: str) -> bool:
        """Do jokers in these positions obey the joker limits (naturals, count, adjacency)?"""
        n = len(is_joker)
        j = sum(is_joker)
        if n - j < self.min_naturals or j > self.max_jokers(n):
            return False
        if kind == "run" and j >= 2:
            longest = cur = 0
            for b in is_joker:
                cur = cur + 1 if b else 0
                longest = max(longest, cur)
            if longest >= 2 and n < self.adjacent_jokers_min_run:
                return False
            if self.max_adjacent_jokers is not None and longest > self.max_adjacent_jokers:
                return False
        return True


# ---------------------------------------------------------------------- melds


def _pos_card(suit: int, pos: int) -> int:
    return suit * 13 + (pos % 13)


@dataclass(frozen=True)
class Meld:
    """One reading of a meld: the cards in laid order and what each stands for.

    For a run, ``stands_for`` is fixed by position. For a set, a joker stands for
    the set's rank; the suit shown is the first suit the set lacks (♠ ♣ ♦ ♥), the
    suit a player would declare by default (rules §3.2, G10).

    >>> m = check_meld([0, 1, 52], RUMINO_MELDS); m.kind, str(m), m.jokers
    ('run', 'As 2s JK(3s)', 1)
    """

    kind: str
    cards: tuple[int, ...]
    stands_for: tuple[int, ...]
    ace_high: bool = False  # a run in which the ace follows the king (Q-K-A, or K-A-2 around the corner)
    positions: tuple[int, ...] = field(default=(), compare=False)

    @property
    def naturals(self) -> tuple[int, ...]:
        return tuple(sorted(c for c in self.cards if c != JOKER))

    @property
    def jokers(self) -> int:
        return sum(1 for c in self.cards if c == JOKER)

    @property
    def key(self) -> tuple[tuple[int, ...], int]:
        """The multiset of cards the meld uses: ``(naturals, number of jokers)``."""
        return self.naturals, self.jokers

    def opening_value(self) -> int:
        """Value toward the Rommé opening (rules §3.3): a joker counts as the card it replaces;
        an ace counts 1 at the low end of a run (A-2-3…) and 11 anywhere else.

        >>> check_meld([0, 13, 26], ROMME_MELDS).opening_value()  # three aces
        33
        """
        total = 0
        for i, c in enumerate(self.stands_for):
            r = c % 13
            if r == 0:
                low_ace = self.kind == "run" and self.positions and self.positions[i] == 0 and (
                    i == 0 or self.positions[i - 1] != 12)
                total += 1 if low_ace else 11
            else:
                total += 10 if r >= 10 else r + 1
        return total

    def joker_meaning(self) -> list[tuple[int, int]]:
        """``(index in cards, card it stands for)`` for each joker."""
        return [(i, s) for i, (c, s) in enumerate(zip(self.cards, self.stands_for)) if c == JOKER]

    def __str__(self) -> str:
        parts = []
        for c, s in zip(self.cards, self.stands_for):
            parts.append(f"JK({format_card(s)})" if c == JOKER and self.kind == "run" else format_card(c))
        return " ".join(parts)

    def format(self, *, unicode: bool = False) -> str:
        return " ".join(format_card(c, unicode=unicode) for c in self.cards)

    def _repr_html_(self) -> str:  # the card faces, drawn by rumino.render.cards (imported lazily)
        from rumino.render.cards import meld_html

        return meld_html(self)


def set_reading(naturals: Sequence[int], jokers: int) -> Meld:
    rank = naturals[0] % 13
    present = {c // 13 for c in naturals}
    missing = [s for s in range(4) if s not in present] or [0]
    stands = tuple(naturals) + tuple(missing[i % len(missing)] * 13 + rank for i in range(jokers))
    return Meld("set", tuple(naturals) + (JOKER,) * jokers, stands)


def run_reading(suit: int, window: Sequence[int], joker_at: Sequence[bool]) -> Meld:
    cards = tuple(JOKER if j else _pos_card(suit, p) for p, j in zip(window, joker_at))
    stands = tuple(_pos_card(suit, p) for p in window)
    ace_after_king = any(p % 13 == 0 and i > 0 for i, p in enumerate(window))
    return Meld("run", cards, stands, ace_high=ace_after_king, positions=tuple(window))


def meld_readings(cards: Iterable[int], rules: MeldRules) -> list[Meld]:
    """Every way the multiset ``cards`` forms one meld under ``rules`` (empty if none).

    >>> [str(m) for m in meld_readings([39 + 4, 39 + 5, 52], ROMME_MELDS)]
    ['JK(4h) 5h 6h', '5h 6h JK(7h)']
    """
    cards = list(cards)
    counts = to_counts(cards)
    n = len(cards)
    j = int(counts[JOKER])
    nat = sorted(c for c in cards if c != JOKER)
    if not rules.min_meld <= n or j > rules.pack.jokers:
        return []
    out: list[Meld] = []
    # sets
    if n <= rules.max_set and rules.joker_pattern_ok([False] * (n - j) + [True] * j, "set"):
        ranks = {c % 13 for c in nat}
        if len(ranks) == 1 and (rules.set_suits == "any" or len({c // 13 for c in nat}) == len(nat)):
            out.append(set_reading(nat, j))
        elif not nat:
            out.append(Meld("set", (JOKER,) * j, (JOKER,) * j))
    # runs
    if n <= rules.max_run and nat and len({c // 13 for c in nat}) == 1 and len(set(nat)) == len(nat):
        suit = nat[0] // 13
        need = {c % 13 for c in nat}
        for window in rules.run_windows(n):
            ranks = [p % 13 for p in window]
            if not need <= set(ranks):
                continue
            joker_at = [r not in need for r in ranks]
            if rules.joker_pattern_ok(joker_at, "run"):
                out.append(run_reading(suit, window, joker_at))
    elif not nat and not out and n <= rules.max_run and rules.joker_pattern_ok([True] * n, "run"):
        # Jokers alone (allowed only when min_naturals == 0) that cannot stand for a set
        # (too many, or too many jokers for a set) may still stand for a run.
        out.append(Meld("run", (JOKER,) * n, (JOKER,) * n))
    # one reading per distinct meaning
    seen, unique = set(), []
    for m in out:
        if (m.kind, m.stands_for) not in seen:
            seen.add((m.kind, m.stands_for))
            unique.append(m)
    return unique


def is_meld(cards: Iterable[int], rules: MeldRules) -> bool:
    """True if ``cards`` form a set or a run under ``rules``."""
    return bool(meld_readings(cards, rules))


def why_not_meld(cards: Iterable[int], rules: MeldRules) -> str | None:
    """A sentence saying why ``cards`` are not a meld, or ``None`` if they are one.

    >>> why_not_meld([52, 52, 5], ROMME_MELDS)
    'JK JK 6s is not a meld: every meld needs at least 2 natural cards.'
    """
    cards = list(cards)
    if is_meld(cards, rules):
        return None
    text = " ".join(format_card(c) for c in cards)
    nat = [c for c in cards if c != JOKER]
    j = len(cards) - len(nat)
    n = len(cards)
    if n < rules.min_meld:
        return f"{text} is not a meld: a meld has at least {rules.min_meld} cards."
    if len(nat) < rules.min_naturals:
        return (f"{text} is not a meld: every meld needs at least {rules.min_naturals} natural "
                f"card{'s' * (rules.min_naturals != 1)}.")
    if rules.max_jokers_per_meld is not None and j > rules.max_jokers_per_meld:
        return f"{text} is not a meld: a meld may hold at most {rules.max_jokers_per_meld} joker(s)."
    ranks = {c % 13 for c in nat}
    suits = {c // 13 for c in nat}
    if len(ranks) == 1:
        if n > rules.max_set:
            return f"{text} is not a meld: a set has at most {rules.max_set} cards."
        if rules.set_suits == "distinct" and len(suits) < len(nat):
            return f"{text} is not a meld: a set may not hold two cards of the same suit."
    if len(suits) == 1 and len(ranks) > 1:
        if len(set(nat)) < len(nat):
            return f"{text} is not a meld: a run holds each rank once."
        if n > rules.max_run:
            return f"{text} is not a meld: a run has at most {rules.max_run} cards."
        if j >= 2 and n < rules.adjacent_jokers_min_run:
            return (f"{text} is not a meld: two jokers may stand side by side only in a run of "
                    f"{rules.adjacent_jokers_min_run} or more cards.")
        # Say which of the three things fails: the jokers' places, the ace, or gaps.
        def fits(r: MeldRules) -> bool:
            return any(ranks <= {p % 13 for p in w} for w in r.run_windows(n))

        if fits(rules):  # some run of n cards holds these ranks: the jokers' places break a limit
            limits = []
            if rules.max_adjacent_jokers is not None:
                limits.append(f"at most {rules.max_adjacent_jokers} side by side")
            if rules.adjacent_jokers_min_run > 2:
                limits.append(f"two side by side only in a run of {rules.adjacent_jokers_min_run} or more cards")
            return f"{text} is not a meld: its jokers cannot stand within their limits ({'; '.join(limits)})."
        if fits(replace(rules, ace="around")):  # it would be a run if the ace could go elsewhere
            return f"{text} is not a meld: {_ACE_RULE[rules.ace]}."
        if j == 0:
            return f"{text} is not a meld: the ranks are not consecutive."
        return (f"{text} is not a meld: the ranks are not consecutive, and {j} joker{'s' * (j != 1)} "
                f"cannot fill the gaps.")
    return f"{text} is not a meld: a set is one rank and a run is one suit in sequence."


_ACE_RULE = {
    "low": "aces are low only (A-2-3), so Q-K-A and K-A-2 are not runs",
    "high": "aces are high only (Q-K-A), so A-2-3 and K-A-2 are not runs",
    "both": "an ace is low (A-2-3) or high (Q-K-A) but never in the middle (K-A-2)",
    "around": "",  # unreachable: with the ace around, every window is allowed
}


def check_meld(cards: Iterable[int], rules: MeldRules) -> Meld:
    """The reading of ``cards`` worth most toward an opening; :class:`InvalidMeldError` if none.

    >>> str(check_meld([47, 52, 45], ROMME_MELDS))   # 9h JK 7h, given in any order
    '7h JK(8h) 9h'
    """
    cards = list(cards)
    readings = meld_readings(cards, rules)
    if not readings:
        raise InvalidMeldError(why_not_meld(cards, rules))
    return max(readings, key=lambda m: m.opening_value())


# ---------------------------------------------------------------------- candidate melds in a hand


@dataclass(frozen=True)
class Candidate:
    """A meld a hand can make: the naturals it uses, its jokers, and its best reading."""

    naturals: tuple[int, ...]
    jokers: int
    reading: Meld
    opening: int


def candidate_melds(counts: Sequence[int], rules: MeldRules) -> list[Candidate]:
    """Every distinct meld (by the cards it uses) that fits inside the hand ``counts``.

    Two readings that use the same cards (``5h 6h JK`` as 4-5-6 or 5-6-7) are one
    candidate, kept with the reading worth most toward an opening. All-joker melds
    are not listed (the search handles leftover jokers itself).

    >>> len(candidate_melds(to_counts([0, 1, 2, 3]), RUMINO_MELDS))  # A23, 234, A234
    3
    """
    counts = np.asarray(counts)
    J = int(counts[JOKER]) if rules.jokers_allowed else 0
    best: dict[tuple, Candidate] = {}

    def add(m: Meld):
        key = m.key
        val = m.opening_value()
        old = best.get(key)
        if old is None or val > old.opening:
            best[key] = Candidate(key[0], key[1], m, val)

    copies_cap = 1 if rules.set_suits == "distinct" else None
    for rank in range(13):
        per_suit = [int(counts[s * 13 + rank]) for s in range(4)]
        if not any(per_suit):
            continue
        ranges = [range(0, (min(k, copies_cap) if copies_cap else k) + 1) for k in per_suit]
        for ks in product(*ranges):
            n_nat = sum(ks)
            if n_nat == 0 or n_nat < rules.min_naturals:
                continue
            nat = [s * 13 + rank for s in range(4) for _ in range(ks[s])]
            for j in range(0, J + 1):
                size = n_nat + j
                if size < rules.min_meld:
                    continue
                if size > rules.max_set:
                    break
                if rules.joker_pattern_ok([False] * n_nat + [True] * j, "set"):
                    add(set_reading(nat, j))
    for suit in range(4):
        row = [int(counts[suit * 13 + r]) > 0 for r in range(13)]
        n_avail = sum(row)
        if n_avail == 0 or n_avail < rules.min_naturals:
            continue
        for length in range(rules.min_meld, min(rules.max_run, n_avail + J) + 1):
            for window in rules.run_windows(length):
                avail = [i for i, p in enumerate(window) if row[p % 13]]
                forced = length - len(avail)
                if forced > J or not avail:
                    continue
                # Positions without a natural in hand must be jokers; a joker may also stand
                # where a natural is held (that natural may serve in another meld), so choose
                # which held positions become jokers too, within the jokers in hand.
                for extra in range(0, min(J - forced, len(avail) - 1) + 1):
                    for swapped in combinations(avail, extra):
                        joker_at = [True] * length
                        for i in avail:
                            joker_at[i] = False
                        for i in swapped:
                            joker_at[i] = True
                        if rules.joker_pattern_ok(joker_at, "run"):
                            add(run_reading(suit, window, joker_at))
    return sorted(best.values(), key=lambda c: (c.naturals, c.jokers))


def joker_only_split(j: int, rules: MeldRules) -> list[int]:
    """Sizes of all-joker melds that absorb the most of ``j`` spare jokers (empty unless
    ``min_naturals == 0``). A size counts only if :func:`is_meld` accepts that many
    jokers alone, so the search and the meld test agree on every joker limit.

    >>> joker_only_split(4, replace(RUMINO_MELDS, min_naturals=0)), joker_only_split(4, RUMINO_MELDS)
    ([4], [])
    """
    if rules.min_naturals > 0 or j < rules.min_meld:
        return []
    sizes = [s for s in range(rules.min_meld, j + 1) if is_meld([JOKER] * s, rules)]
    # best[t]: a list of sizes summing to exactly t, or None if no split reaches t
    best: list[list[int] | None] = [[]] + [None] * j
    for t in range(1, j + 1):
        for s in sizes:
            if s <= t and best[t - s] is not None:
                best[t] = best[t - s] + [s]
                break
    return next(best[t] for t in range(j, -1, -1) if best[t] is not None)


def leftover_jokers(j: int, rules: MeldRules) -> int:
    """Fewest of ``j`` spare jokers that all-joker melds cannot absorb (all ``j`` unless ``min_naturals == 0``)."""
    return j - sum(joker_only_split(j, rules))


# ---------------------------------------------------------------------- presets (the rules)

# rules §1.2, §1.4: lays of 3–4, sets by rank only, ace low, ≥1 natural, A=1, faces and jokers 10.
RUMINO_MELDS = MeldRules(name="rumino", pack=RUMINO_PACK, max_set=4, max_run=4, set_suits="any", ace="low",
                         min_naturals=1, ace_value=1, joker_value=10)
# rules §6: one deck, no jokers, ace low, sets 3–4, runs 3+, A=1.
GIN_MELDS = MeldRules(name="gin", pack=STANDARD_PACK, max_set=4, max_run=13, set_suits="any", ace="low",
                      ace_value=1, joker_value=10)
# rules §3.2, §3.3: distinct-suit sets of 3–4, runs 3–13 with the ace low or high, ≥2 naturals,
# two jokers side by side only in runs of 4+, never three; penalties ace 11, joker 20.
ROMME_MELDS = MeldRules(name="romme", pack=ROMME_PACK, max_set=4, max_run=13, set_suits="distinct", ace="both",
                        min_naturals=2, max_adjacent_jokers=2, adjacent_jokers_min_run=4,
                        ace_value=11, joker_value=20)
# rules §4.2: Robber Rummy melds are Rommé melds.
ROBBER_MELDS = replace(ROMME_MELDS, name="robber")
# rules §5.2, §5.3: Rommé melds with the 106-card pack; ace 11, joker 20.
WIENER_MELDS = replace(ROMME_MELDS, name="wiener", pack=WIENER_PACK)

PRESETS = {m.name: m for m in (RUMINO_MELDS, GIN_MELDS, ROMME_MELDS, ROBBER_MELDS, WIENER_MELDS)}
