"""Melds on the table: what every joker stands for, lay-off, joker exchange, and whole turns.

A table is a tuple of :class:`~rumino.melds.Meld` readings: the cards in laid
order and the card each stands for, so every joker on the table is identified
(rules §3.2 "joker identity", §4.2). The functions here never change their
arguments: each returns a new meld or table, or raises
:class:`~rumino.errors.IllegalActionError` naming the rules section broken.

>>> from rumino.cards import parse_hand
>>> from rumino.melds import ROMME_MELDS
>>> run = declare(parse_hand("5h 6h JK"), ROMME_MELDS, jokers=parse_hand("7h"))
>>> str(run), str(lay_off(run, parse_hand("8h")[0], ROMME_MELDS))
('5h 6h JK(7h)', '5h 6h JK(7h) 8h')
>>> new, freed = exchange(run, parse_hand("7h"), ROMME_MELDS)
>>> str(new), freed
('5h 6h 7h', 1)

A turn of Rommé after the draw — lays, lay-offs and joker exchanges — is checked
as a whole by :func:`apply_turn` and applied only if every step and the end
state are legal (§3.4); :func:`check_rearrangement` checks a Robber Rummy
rearrangement (§4.3 (i)–(iii)).

Decisions where the rules are open (a careful player's reading):

* A joker at the end of a run keeps the card it was declared as (§3.2). Laying off
  exactly that card slides the joker to the run's other end instead of freeing it
  (``5h 6h JK(7h)`` + 7h → ``JK(4h) 5h 6h 7h``): the joker stays on the table, so
  nothing is exchanged; the slide is refused where the other end does not exist
  (past the ace).
* A joker in a set stands for "either missing suit" (§3.2): laying off the suit it
  was declared as re-reads it as another missing suit, and an exchange may use any
  missing suit.
* In a turn, a joker laid while a freed joker is waiting is the freed one; with
  ``freed_joker_use="new_meld"`` a joker laid off comes from the hand, so the freed
  joker must still go into a new meld of the same turn (§3.4.5, §3.7.9).
"""

from __future__ import annotations

from collections import Counter
from dataclasses import dataclass, field
from functools import lru_cache
from typing import Iterable, Sequence, Union

from rumino.cards import JOKER, format_card, format_hand, parse_card, to_counts
from rumino.errors import IllegalActionError, InvalidCardError, InvalidMeldError
from rumino.melds import Meld, MeldRules, meld_readings, why_not_meld

JOKER_EXCHANGES = ("general", "dskv")
FREED_JOKER_USES = ("new_meld", "new_meld_or_layoff")


# ------------------------------------------------------------------ the table notation (tokens, named jokers)

NAMED = 53  # in a placement, a joker standing for card c is the token NAMED + c; JOKER (52) is a joker not named


def token_text(t: int) -> str:
    """A table token as written: a card, or ``JK(8d)`` for a joker standing for 8d."""
    return f"JK({format_card(t - NAMED)})" if t >= NAMED else format_card(t)


def parse_token(text: str) -> int:
    """The token of ``8d``, ``JK`` (a joker not named) or ``JK(8d)`` (a joker standing for 8d)."""
    t = text.strip()
    if t.upper().startswith("JK(") and t.endswith(")"):
        c = parse_card(t[3:-1])
        if c == JOKER:
            raise InvalidCardError(f"{t!r}: a joker stands for a natural card, such as JK(8d).")
        return NAMED + c
    return parse_card(t)


def meld_tokens(m: Meld) -> tuple[int, ...]:
    """A table meld as the tokens of a :class:`Place` (every joker named)."""
    return tuple(NAMED + s if c == JOKER else c for c, s in zip(m.cards, m.stands_for))


def canonical(m: Meld) -> Meld:
    """One reading per meaning: a set's jokers listed by the cards they stand for (sorted)."""
    if m.kind != "set" or not m.jokers:
        return m
    nat = m.naturals
    named = sorted(s for c, s in zip(m.cards, m.stands_for) if c == JOKER)
    return Meld("set", nat + (JOKER,) * len(named), nat + tuple(named))


def read_meld(tokens: Sequence[int], rules: MeldRules) -> Meld:
    """A meld from a placement's tokens: the jokers as named, or (none named) as a careful player
    would read them; raises :class:`~rumino.errors.InvalidMeldError`."""
    cards = [JOKER if t >= JOKER else t for t in tokens]
    named = [t - NAMED for t in tokens if t >= NAMED]
    bare = sum(1 for t in tokens if t == JOKER)
    if named and bare:
        raise InvalidMeldError(f"{format_hand(cards)}: name every joker of a meld or none (rules §4.2).")
    return canonical(declare(cards, rules, named if named else None))


def _joker_meanings(m: Meld) -> Counter:
    return Counter(s for c, s in zip(m.cards, m.stands_for) if c == JOKER)


def _why(cards: Sequence[int], rules: MeldRules, default: str) -> str:
    """Why the cards are not a meld, without the final full stop (it is followed by a section)."""
    return (why_not_meld(list(cards), rules) or default).rstrip(".")


def _text(cards: Iterable[int]) -> str:
    return format_hand(cards) or "(nothing)"


def declare(cards: Sequence[int], rules: MeldRules, jokers: Sequence[int] | None = None) -> Meld:
    """Lay ``cards`` as a meld with its jokers identified (rules §3.2).

    ``jokers`` is the melder's declaration: the cards the jokers stand for (needed
    only where the reading is open, e.g. a joker at the end of a run). Without it
    the reading worth most toward an opening is taken.

    >>> from rumino.cards import parse_hand
    >>> from rumino.melds import ROMME_MELDS
    >>> str(declare(parse_hand("5h 6h JK"), ROMME_MELDS))
    '5h 6h JK(7h)'
    >>> str(declare(parse_hand("5h 6h JK"), ROMME_MELDS, jokers=parse_hand("4h")))
    'JK(4h) 5h 6h'
    """
    cards = list(cards)
    readings = meld_readings(cards, rules)
    if not readings:
        raise InvalidMeldError(f"{_why(cards, rules, 'not a meld')} (rules §3.2).")
    if jokers is None:
        return max(readings, key=lambda m: m.opening_value())
    want = Counter(jokers)
    for m in readings:
        if m.kind == "run" and _joker_meanings(m) == want:
            return m
        if m.kind == "set" and sum(want.values()) == m.jokers and _set_jokers_ok(m.naturals, list(want)):
            return _set_with(m.naturals, list(jokers))
    raise InvalidMeldError(f"{_text(cards)} cannot be laid with the jokers standing for {_text(jokers)} (rules §3.2).")


def _set_jokers_ok(naturals: Sequence[int], jokers: Sequence[int]) -> bool:
    rank = naturals[0] % 13
    suits = [c // 13 for c in naturals] + [c // 13 for c in jokers]
    return all(c % 13 == rank for c in jokers) and len(set(suits)) == len(suits)


def _set_with(naturals: Sequence[int], joker_cards: Sequence[int]) -> Meld:
    return Meld("set", tuple(naturals) + (JOKER,) * len(joker_cards), tuple(naturals) + tuple(joker_cards))


def _set_default(naturals: Sequence[int], jokers: int) -> Meld:
    rank = naturals[0] % 13
    present = {c // 13 for c in naturals}
    missing = [s * 13 + rank for s in range(4) if s not in present]
    return _set_with(sorted(naturals), missing[:jokers])


def is_valid_reading(m: Meld, rules: MeldRules) -> bool:
    """Is ``m`` (cards and what they stand for) a legal reading of its cards?"""
    return _is_valid_reading(m, rules)


@lru_cache(maxsize=1 << 16)  # a pure question asked of every table meld at every turn: answered once per meld
def _is_valid_reading(m: Meld, rules: MeldRules) -> bool:
    if m.kind == "set":
        nat = [c for c in m.cards if c != JOKER]
        jk = [s for c, s in zip(m.cards, m.stands_for) if c == JOKER]
        return bool(nat) and any(r.kind == "set" for r in meld_readings(m.cards, rules)) and \
            _set_jokers_ok(nat, jk) and all(c == s for c, s in zip(m.cards, m.stands_for) if c != JOKER)
    return any(r.kind == "run" and r.stands_for == m.stands_for and r.cards == m.cards
               for r in meld_readings(m.cards, rules))


def check_table(melds: Sequence[Meld], rules: MeldRules) -> None:
    """Raise :class:`IllegalActionError` unless every meld is a legal reading and the pack holds all the cards.

    >>> from rumino.cards import parse_hand
    >>> from rumino.melds import ROMME_MELDS
    >>> check_table([declare(parse_hand("7h JK 9h"), ROMME_MELDS)], ROMME_MELDS)
    """
    every: list[int] = []
    for m in melds:
        if not is_valid_reading(m, rules):
            why = why_not_meld(m.cards, rules)
            raise IllegalActionError(f"the table meld {str(m)} is not valid: "
                                     f"{why or 'its jokers do not stand where they are laid'} (rules §3.2).")
        every.extend(m.cards)
    counts, pack = to_counts(every), rules.pack.counts()
    for c in range(53):
        if counts[c] > pack[c]:
            raise IllegalActionError(f"the table holds {counts[c]} of {format_card(c)}, more than the pack's "
                                     f"{pack[c]}: every card is in exactly one place.")


# ---------------------------------------------------------------------- lay-off and exchange


def lay_off(meld: Meld, card: int, rules: MeldRules, *, stands_for: int | None = None) -> Meld:
    """Add one card to a table meld (rules §3.4.4), keeping every joker's identity where it can.

    A joker laid off to a run may say which end (``stands_for``); by default the high end.

    >>> from rumino.cards import parse_hand
    >>> from rumino.melds import ROMME_MELDS
    >>> run = declare(parse_hand("5h 6h JK"), ROMME_MELDS, jokers=parse_hand("7h"))
    >>> str(lay_off(run, parse_hand("7h")[0], ROMME_MELDS))   # the joker slides to the low end
    'JK(4h) 5h 6h 7h'
    >>> s = declare(parse_hand("6s 6h JK"), ROMME_MELDS, jokers=parse_hand("6c"))
    >>> lay_off(s, parse_hand("6c")[0], ROMME_MELDS).stands_for[-1] == parse_hand("6d")[0]
    True
    """
    cards = list(meld.cards) + [card]
    where = f"{format_card(card)} onto {str(meld)}"
    if meld.kind == "set":
        nat = sorted([c for c in meld.cards if c != JOKER] + ([card] if card != JOKER else []))
        readings = [r for r in meld_readings(cards, rules) if r.kind == "set"]
        if not readings:
            raise IllegalActionError(f"cannot lay off {where}: {_why(cards, rules, 'not a set')} (rules §3.2).")
        # keep the jokers' declared suits where still free; re-read the others to missing suits (§3.2)
        old = [s for c, s in zip(meld.cards, meld.stands_for) if c == JOKER] + ([stands_for] if card == JOKER and
                                                                                  stands_for is not None else [])
        taken = {c // 13 for c in nat}
        keep = [s for s in old if s is not None and s // 13 not in taken]
        keep = [s for i, s in enumerate(keep) if s // 13 not in {k // 13 for k in keep[:i]}]
        n_j = sum(1 for c in cards if c == JOKER)
        rank = nat[0] % 13
        free = [s * 13 + rank for s in range(4) if s not in taken and s * 13 + rank not in keep]
        return _set_with(nat, (keep + free)[:n_j])
    runs = [r for r in meld_readings(cards, rules) if r.kind == "run"]
    if not runs:
        raise IllegalActionError(f"cannot lay off {where}: {_why(cards, rules, 'not a run')} (rules §3.2).")
    before = _joker_meanings(meld)
    if card == JOKER:
        fits = [r for r in runs if before <= _joker_meanings(r)
                and _extends(meld, r) and (stands_for is None or stands_for in _joker_meanings(r) - before)]
        if not fits:
            raise IllegalActionError(f"cannot lay off {where} as {format_card(stands_for)}: a joker laid off "
                                     f"goes at an end of the run (rules §3.2).")
        return max(fits, key=lambda r: max(r.positions))  # the high end unless told otherwise
    same = [r for r in runs if _joker_meanings(r) == before and _extends(meld, r)]
    if same:
        return same[0]
    ends = {meld.stands_for[0], meld.stands_for[-1]}
    end_joker = card in ends and any(c == JOKER and s == card for c, s in zip(meld.cards, meld.stands_for))
    if end_joker:  # the card an end joker stands for: the joker slides to the other end (decision in the docstring)
        want = before.copy()
        want[card] -= 1
        slid = [r for r in runs if (_joker_meanings(r) - want).total() == 1 and want <= _joker_meanings(r)]
        if slid:
            return slid[0]
    raise IllegalActionError(f"cannot lay off {where}: the jokers keep the cards they stand for (rules §3.2), "
                             f"so the card does not fit at either end.")


def _extends(old: Meld, new: Meld) -> bool:
    """Does ``new`` hold ``old`` unchanged, with cards added only at its ends?"""
    n = len(old.stands_for)
    seq = new.stands_for
    return any(seq[i:i + n] == old.stands_for and new.cards[i:i + n] == old.cards for i in range(len(seq) - n + 1))


def exchange(meld: Meld, naturals: Sequence[int], rules: MeldRules, mode: str = "general") -> tuple[Meld, int]:
    """Swap natural cards in for table jokers (rules §3.4.5): the new meld and the number of jokers freed.

    ``general``: one natural card that a joker stands for (in a set, either missing
    suit). ``dskv``: as general in runs; a set's jokers only when the set is thereby
    completed to four natural cards (§3.7.8).

    >>> from rumino.cards import parse_hand
    >>> from rumino.melds import ROMME_MELDS
    >>> s = declare(parse_hand("6s 6h JK"), ROMME_MELDS)
    >>> exchange(s, parse_hand("6d"), ROMME_MELDS, "dskv")
    Traceback (most recent call last):
    ...
    rumino.errors.IllegalActionError: cannot exchange 6d for a joker of 6s 6h JK: under the DSkV rule a set's joker is freed only when the set is completed to four natural cards (rules §3.4.5).
    >>> str(exchange(s, parse_hand("6d 6c"), ROMME_MELDS, "dskv")[0])
    '6s 6c 6d 6h'
    """
    if mode not in JOKER_EXCHANGES:
        raise ValueError(f"joker_exchange is {mode!r}: it must be one of {', '.join(JOKER_EXCHANGES)}.")
    naturals = list(naturals)
    what = f"{_text(naturals)} for a joker of {str(meld)}"
    if not meld.jokers:
        raise IllegalActionError(f"cannot exchange {what}: the meld holds no joker (rules §3.4.5).")
    if any(c == JOKER for c in naturals) or not naturals:
        raise IllegalActionError(f"cannot exchange {what}: a joker is exchanged for natural cards (rules §3.4.5).")
    if meld.kind == "run" or (meld.kind == "set" and mode == "general"):
        if len(naturals) != 1:
            raise IllegalActionError(f"cannot exchange {what}: one natural card frees one joker (rules §3.4.5).")
        card = naturals[0]
        if meld.kind == "run":
            i = next((i for i, (c, s) in enumerate(zip(meld.cards, meld.stands_for)) if c == JOKER and s == card),
                     None)
            if i is None:
                raise IllegalActionError(f"cannot exchange {what}: no joker there stands for {format_card(card)} "
                                         f"(rules §3.4.5).")
            cards = meld.cards[:i] + (card,) + meld.cards[i + 1:]
            return Meld("run", cards, meld.stands_for, meld.ace_high, meld.positions), 1
        nat = [c for c in meld.cards if c != JOKER]
        if card % 13 != nat[0] % 13 or card // 13 in {c // 13 for c in nat}:
            raise IllegalActionError(f"cannot exchange {what}: the card must be a missing suit of the set's rank "
                                     f"(rules §3.2, §3.4.5).")
        new_nat = sorted(nat + [card])
        if len(new_nat) + meld.jokers - 1 < rules.min_meld:  # pragma: no cover - a set of 3+ stays 3+
            raise IllegalActionError(f"cannot exchange {what} (rules §3.2).")
        return _set_default(new_nat, meld.jokers - 1), 1
    # DSkV, a set: only by completing the set to four naturals
    nat = [c for c in meld.cards if c != JOKER]
    new_nat = sorted(nat + naturals)
    if len({c // 13 for c in new_nat}) != 4 or len(new_nat) != 4 or any(c % 13 != nat[0] % 13 for c in new_nat):
        raise IllegalActionError(f"cannot exchange {what}: under the DSkV rule a set's joker is freed only when "
                                 f"the set is completed to four natural cards (rules §3.4.5).")
    return Meld("set", tuple(new_nat), tuple(new_nat)), meld.jokers


# ---------------------------------------------------------------------- a whole turn


@dataclass(frozen=True)
class Lay:
    """Lay a new meld from the hand (with freed jokers first); ``jokers``: what they stand for."""

    cards: tuple[int, ...]
    jokers: tuple[int, ...] | None = None


@dataclass(frozen=True)
class LayOff:
    """Add one card to the table meld at index ``target`` (indices of the table before the turn,
    then new melds in the order laid)."""

    target: int
    card: int
    stands_for: int | None = None


@dataclass(frozen=True)
class Exchange:
    """Swap natural card(s) from the hand for the joker(s) of the table meld at ``target``."""

    target: int
    cards: tuple[int, ...]


TableAction = Union[Lay, LayOff, Exchange]


@dataclass(frozen=True)
class TableRules:
    """The table knobs of Rommé and Robber (rules §3.4, §3.6) with their meld rules."""

    melds: MeldRules
    opening_min: int = 40
    joker_exchange: str = "general"
    freed_joker_use: str = "new_meld"

    def __post_init__(self):
        if self.joker_exchange not in JOKER_EXCHANGES:
            raise ValueError(f"joker_exchange is {self.joker_exchange!r}: it must be one of "
                             f"{', '.join(JOKER_EXCHANGES)}.")
        if self.freed_joker_use not in FREED_JOKER_USES:
            raise ValueError(f"freed_joker_use is {self.freed_joker_use!r}: it must be one of "
                             f"{', '.join(FREED_JOKER_USES)}.")

    @classmethod
    def of(cls, rules) -> "TableRules":
        """From a :class:`~rumino.variants.romme.RommeRules` or :class:`~rumino.variants.robber.RobberRules`."""
        return cls(melds=rules.meld_rules, opening_min=rules.opening_min,
                   joker_exchange=getattr(rules, "joker_exchange", "general"),
                   freed_joker_use=getattr(rules, "freed_joker_use", "new_meld"))


@dataclass(frozen=True)
class TurnResult:
    table: tuple[Meld, ...]
    hand: tuple[int, ...]
    opening_value: int  # summed opening value (§3.3) of the melds laid this turn
    laid: tuple[int, ...] = field(default=())  # cards that left the hand


_STEP_WORDS = {Lay: "lay", LayOff: "layoff", Exchange: "exchange"}
"""A step of a turn as the player types it (a refusal names the step so)."""


def apply_turn(table: Sequence[Meld], hand: Sequence[int], actions: Sequence[TableAction], rules: TableRules, *,
               opened: bool) -> TurnResult:
    """Check a turn's lays, lay-offs and exchanges as a whole and return the table and hand after it.

    Nothing is changed: the result is new, and an illegal turn raises
    :class:`IllegalActionError` naming the rule broken. A player who has not opened
    must reach ``opening_min`` with the melds laid this turn before any lay-off or
    exchange (§3.4.2, G15; §3.7.7); a freed joker must be on the table by the end of
    the turn (§3.4.5, §3.7.9).

    >>> from rumino.cards import parse_hand
    >>> from rumino.melds import ROMME_MELDS
    >>> tr = TableRules(ROMME_MELDS)
    >>> t = (declare(parse_hand("5h 6h JK"), ROMME_MELDS, jokers=parse_hand("7h")),)
    >>> r = apply_turn(t, parse_hand("7h 9c 10c"), [Exchange(0, parse_hand("7h")), Lay(parse_hand("9c 10c JK"))],
    ...                tr, opened=True)
    >>> [str(m) for m in r.table], r.hand
    (['5h 6h 7h', '9c 10c JK(Jc)'], ())
    """
    melds = list(table)
    left = Counter(hand)
    freed = 0
    value = 0
    laid: list[int] = []
    m_rules = rules.melds

    def take(card: int, step: str, *, freed_first: bool):
        nonlocal freed
        if card == JOKER and freed_first and freed:
            freed -= 1
            return
        if left[card] <= 0:
            raise IllegalActionError(f"{step}: {format_card(card)} is not in the hand.")
        left[card] -= 1
        laid.append(card)

    def target(i: int, step: str) -> Meld:
        if not isinstance(i, int) or not 0 <= i < len(melds):
            raise IllegalActionError(f"{step}: there is no table meld {i!r} (the table has {len(melds)}).")
        return melds[i]

    for k, a in enumerate(actions, 1):
        step = f"step {k} ({_STEP_WORDS.get(type(a), 'a step')})"  # as the player typed it: lay, layoff, exchange
        if isinstance(a, Lay):
            for c in a.cards:
                take(c, step, freed_first=True)
            try:
                m = declare(a.cards, m_rules, a.jokers)
            except InvalidMeldError as err:
                raise IllegalActionError(f"{step}: {err}") from None
            melds.append(m)
            value += m.opening_value()
            continue
        if not opened and value < rules.opening_min:
            raise IllegalActionError(
                f"{step}: a player who has not opened may not lay off or exchange a joker before the melds laid "
                f"this turn reach {rules.opening_min} (they reach {value}) (rules §3.4.2, §3.7.7).")
        if isinstance(a, LayOff):
            m = target(a.target, step)
            take(a.card, step, freed_first=rules.freed_joker_use == "new_meld_or_layoff")
            try:
                melds[a.target] = lay_off(m, a.card, m_rules, stands_for=a.stands_for)
            except IllegalActionError as err:
                raise IllegalActionError(f"{step}: {err}") from None
        elif isinstance(a, Exchange):
            m = target(a.target, step)
            for c in a.cards:
                take(c, step, freed_first=False)
            try:
                melds[a.target], n = exchange(m, a.cards, m_rules, rules.joker_exchange)
            except IllegalActionError as err:
                raise IllegalActionError(f"{step}: {err}") from None
            freed += n
        else:
            raise IllegalActionError(f"{step}: {a!r} is not a table action (Lay, LayOff or Exchange).")
    if not opened and value and value < rules.opening_min:
        raise IllegalActionError(f"the opening melds total {value}, below the minimum {rules.opening_min} "
                                 f"(rules §3.4.2).")
    if freed:
        where = "a new meld" if rules.freed_joker_use == "new_meld" else "a new meld or a lay-off"
        raise IllegalActionError(f"{freed} freed joker(s) must be laid at once in {where} this turn; a freed joker "
                                 f"may not go into the hand (rules §3.4.5, §3.7.9).")
    check_table(melds, m_rules)
    return TurnResult(table=tuple(melds), hand=tuple(sorted(left.elements())), opening_value=value,
                      laid=tuple(laid))


# ---------------------------------------------------------------------- Robber Rummy rearrangement


def check_rearrangement(before: Sequence[Meld] | Sequence[int], after: Sequence[Sequence[int] | Meld],
                        hand: Sequence[int], rules: MeldRules) -> tuple[tuple[Meld, ...], tuple[int, ...]]:
    """Check a Robber Rummy manipulation (rules §4.3 (i)–(iii)); return the new melds (read) and the cards placed.

    ``before`` is the table (melds or its cards), ``after`` the new melds (card lists
    or readings), ``hand`` the player's hand.

    >>> from rumino.cards import parse_hand
    >>> from rumino.melds import ROBBER_MELDS
    >>> melds, placed = check_rearrangement(parse_hand("5c 6c 7c 8c 9c"),
    ...     [parse_hand("5c 6c 7c"), parse_hand("7c 8c 9c")], parse_hand("7c Kd"), ROBBER_MELDS)
    >>> format_hand(placed)
    '7c'
    """
    old = Counter(c for m in before for c in (m.cards if isinstance(m, Meld) else [m]))
    read: list[Meld] = []
    for m in after:
        if isinstance(m, Meld):
            if not is_valid_reading(m, rules):
                raise IllegalActionError(f"the meld {str(m)} is not valid (rules §4.3 (iii)).")
            read.append(m)
            continue
        why = why_not_meld(list(m), rules)
        if why:
            raise IllegalActionError(f"{why} Every table card must end the turn in a valid meld (rules §4.3 (iii)).")
        read.append(declare(list(m), rules))
    new = Counter(c for m in read for c in m.cards)
    missing = old - new
    if missing:
        raise IllegalActionError(f"{_text(missing.elements())} left the table: every card on the table stays on "
                                 f"the table, jokers too (rules §4.3 (ii)).")
    placed = new - old
    short = placed - Counter(hand)
    if short:
        raise IllegalActionError(f"{_text(short.elements())} is not in the hand (rules §4.3).")
    if not placed:
        raise IllegalActionError("a rearrangement must add at least one card from the hand (rules §4.3 (i)).")
    check_table(read, rules)
    return tuple(read), tuple(sorted(placed.elements()))
