"""A slow, obviously correct reference for melds, deadwood and opening values.

Written from the rules text (rules §0.2, §0.3, §1.2, §3.2, §3.3), not from
``rumino.melds`` or ``rumino.hand.arrange``: the only thing it takes from the engine
is the :class:`~rumino.melds.MeldRules` object, read as plain data (its knob
fields), and the card ids of ``rumino.cards``. The tests compare the engine
with it; it is meant to be trusted by reading, so it is short and naive.

* :func:`brute_is_meld`: a group of cards is a meld if it can be **laid out**
  as some set or run, each joker standing for the card at its place, within
  the joker limits. We list every layout of the right length and check.
* :func:`all_splits`: every way to split a hand into disjoint melds plus
  leftovers (the definition of deadwood in rules §0.3).
* :func:`brute_min_deadwood`, :func:`brute_max_opening`,
  :func:`brute_after_draw`: minimum / maximum over those splits.

>>> from rumino.cards import parse_hand
>>> from rumino.melds import RUMINO_MELDS, ROMME_MELDS
>>> brute_is_meld(parse_hand("5h 5h 5s"), RUMINO_MELDS), brute_is_meld(parse_hand("5h 5h 5s"), ROMME_MELDS)
(True, False)
>>> brute_min_deadwood(parse_hand("JK JK 5h 9c 9d 9s 2c"), RUMINO_MELDS)
2
>>> brute_max_opening(parse_hand("Qc Kc Ac 7h JK 9h"), ROMME_MELDS)
55
"""

from __future__ import annotations

from functools import lru_cache
from itertools import combinations

JOKER = 52
ACE, JACK = 0, 10


def rank(c: int) -> int:
    return c % 13


def suit(c: int) -> int:
    return c // 13


# ---------------------------------------------------------------------------- layouts


def rank_sequences(length: int, ace: str) -> list[list[int]]:
    """Every list of ``length`` consecutive ranks a run may use (rules §0.2), rank 0 = ace.

    ``low``: ace only below the 2; ``high``: ace only above the king; ``both``:
    either, never K-A-2; ``around``: the ranks are a circle, so K-A-2 is fine too.
    A run never holds one rank twice, so it has at most 13 cards.
    """
    if length > 13:
        return []
    low_order = list(range(13))  # A 2 3 … K
    high_order = list(range(1, 13)) + [ACE]  # 2 3 … K A
    if ace == "low":
        orders, circular = [low_order], False
    elif ace == "high":
        orders, circular = [high_order], False
    elif ace == "both":
        orders, circular = [low_order, high_order], False
    elif ace == "around":
        orders, circular = [low_order], True
    else:
        raise ValueError(ace)
    out = []
    for order in orders:
        starts = range(13) if circular else range(13 - length + 1)
        for s in starts:
            seq = [order[(s + k) % 13] for k in range(length)]
            if seq not in out:
                out.append(seq)
    return out


@lru_cache(maxsize=None)
def layouts(size: int, rules) -> list[tuple[str, list[int]]]:
    """Every meld of ``size`` cards that could be laid, as (kind, the natural cards laid, in order).

    Sets: one rank, ``min_meld``…``max_set`` cards; with ``set_suits='distinct'``
    every suit at most once (so at most 4 cards); otherwise any copies.
    Runs: one suit, consecutive ranks, ``min_meld``…``max_run`` cards.
    """
    out: list[tuple[str, list[int]]] = []
    if size < rules.min_meld:
        return out
    if size <= rules.max_set:
        for r in range(13):
            if rules.set_suits == "distinct":
                if size <= 4:
                    for suits in combinations(range(4), size):
                        out.append(("set", [s * 13 + r for s in suits]))
            else:
                # suits may repeat: a layout is a multiset of suits
                for suits in _multisets(range(4), size):
                    out.append(("set", [s * 13 + r for s in suits]))
    if size <= rules.max_run:
        for s in range(4):
            for seq in rank_sequences(size, rules.ace):
                out.append(("run", [s * 13 + r for r in seq]))
    return out


@lru_cache(maxsize=None)
def layouts_with(size: int, rules, card: int) -> list[tuple[str, list[int]]]:
    """The layouts of :func:`layouts` that hold ``card``."""
    return [(kind, laid) for kind, laid in layouts(size, rules) if card in laid]


def _multisets(items, k):
    items = list(items)
    if k == 0:
        yield ()
        return
    for i, x in enumerate(items):
        for rest in _multisets(items[i:], k - 1):
            yield (x,) + rest


def jokers_ok(kind: str, joker_places: list[bool], rules) -> bool:
    """The joker limits of rules §1.2 / §3.2, checked on one layout.

    ``min_naturals`` natural cards at least; at most ``max_jokers_per_meld``
    jokers; in a run, no block of side-by-side jokers longer than
    ``max_adjacent_jokers``, and two side by side only in a run of
    ``adjacent_jokers_min_run`` cards or more.
    """
    n_jokers = sum(joker_places)
    if len(joker_places) - n_jokers < rules.min_naturals:
        return False
    if rules.max_jokers_per_meld is not None and n_jokers > rules.max_jokers_per_meld:
        return False
    if kind == "run":
        longest = 0
        for i in range(len(joker_places)):
            block = 0
            while i + block < len(joker_places) and joker_places[i + block]:
                block += 1
            longest = max(longest, block)
        if rules.max_adjacent_jokers is not None and longest > rules.max_adjacent_jokers:
            return False
        if longest >= 2 and len(joker_places) < rules.adjacent_jokers_min_run:
            return False
    return True


def place_naturals(naturals: list[int], laid: list[int]) -> list[bool] | None:
    """Put each natural on a free place of ``laid`` holding that very card; the places
    left over are the jokers'. None if some natural has no place.

    In a run every laid card differs, so the places are forced. In a set several
    places may hold the same card, but a set's joker limits only count jokers, so
    any choice gives the same answer.
    """
    free = list(laid)
    for c in naturals:
        if c not in free:
            return None
        free[free.index(c)] = None
    return [c is not None for c in free]


def readings(cards, rules) -> list[tuple[str, list[int], list[bool]]]:
    """Every way to lay ``cards`` as one meld: (kind, cards stood for, which places are jokers)."""
    naturals = [c for c in cards if c != JOKER]
    n_jokers = len(cards) - len(naturals)
    if n_jokers > rules.pack.jokers:
        return []
    found = []
    # only layouts holding the first natural can hold them all (a shortcut for speed)
    for kind, laid in (layouts_with(len(cards), rules, naturals[0]) if naturals else layouts(len(cards), rules)):
        joker_places = place_naturals(naturals, laid)
        if joker_places is not None and jokers_ok(kind, joker_places, rules):
            found.append((kind, laid, joker_places))
    return found


@lru_cache(maxsize=None)
def _is_meld(cards: tuple[int, ...], rules) -> bool:
    return bool(readings(cards, rules))


def brute_is_meld(cards, rules) -> bool:
    """Can ``cards`` be laid as one meld under ``rules``?"""
    return _is_meld(tuple(sorted(cards)), rules)


# ---------------------------------------------------------------------------- values


def penalty(c: int, rules) -> int:
    """Deadwood value of a card left over (rules §1.4, §3.3, §5.3): the knobs say ace, faces, joker."""
    if c == JOKER:
        return rules.joker_value
    r = rank(c)
    if r == ACE:
        return rules.ace_value
    if r >= JACK:
        return rules.face_value
    return r + 1


def opening_value_of_reading(kind: str, laid: list[int]) -> int:
    """rules §3.3: a joker counts as the card it stands for; 2–10 face value, J Q K 10;
    an ace 1 when a run starts with it (A-2-3…), 11 in a set or after a king."""
    total = 0
    for i, c in enumerate(laid):
        r = rank(c)
        if r == ACE:
            total += 1 if (kind == "run" and i == 0) else 11
        elif r >= JACK:
            total += 10
        else:
            total += r + 1
    return total


@lru_cache(maxsize=None)
def _opening(cards: tuple[int, ...], rules) -> int | None:
    values = [opening_value_of_reading(kind, laid) for kind, laid, _ in readings(cards, rules)]
    return max(values) if values else None


def brute_opening_value(cards, rules) -> int | None:
    """The most a meld is worth toward an opening (its best reading); None if not a meld."""
    return _opening(tuple(sorted(cards)), rules)


# ---------------------------------------------------------------------------- splits of a hand


def _splits(hand: tuple[int, ...], is_group):
    """Every split of ``hand`` into groups passing ``is_group`` plus leftovers: the first
    card is either left over, or in a group with some of the cards after it; recurse on the rest."""
    if not hand:
        yield [], []
        return
    first, others = hand[0], hand[1:]
    for groups, left in _splits(others, is_group):
        yield groups, [first] + left
    for k in range(1, len(others) + 1):
        for picked in combinations(range(len(others)), k):
            group = (first,) + tuple(others[i] for i in picked)
            if not is_group(group):
                continue
            rest = tuple(c for i, c in enumerate(others) if i not in picked)
            for groups, left in _splits(rest, is_group):
                yield [tuple(sorted(group))] + groups, left


def all_splits(hand, rules):
    """Every split of ``hand`` into disjoint melds plus leftovers: ``(melds, leftovers)``."""
    return _splits(tuple(sorted(hand)), lambda g: brute_is_meld(g, rules))


def split_key(melds, leftovers):
    """A split as a hashable value, the same for the same cards in each meld."""
    return tuple(sorted(tuple(sorted(m)) for m in melds)), tuple(sorted(leftovers))


def brute_min_deadwood(hand, rules) -> int:
    """Minimum over all splits of the value of the leftovers (rules §0.3), memoised on what is left."""

    @lru_cache(maxsize=None)
    def best(rest: tuple[int, ...]) -> int:
        if not rest:
            return 0
        first, others = rest[0], rest[1:]
        value = penalty(first, rules) + best(others)  # the first card is left over ...
        for k in range(1, len(others) + 1):  # ... or is in a meld with k other cards
            for picked in combinations(range(len(others)), k):
                if brute_is_meld((first,) + tuple(others[i] for i in picked), rules):
                    value = min(value, best(tuple(c for i, c in enumerate(others) if i not in picked)))
        return value

    return best(tuple(sorted(hand)))


def brute_best_splits(hand, rules) -> tuple[int, set]:
    """The minimum deadwood and the set of every split reaching it (see :func:`split_key`)."""
    best, keys = None, set()
    for melds, left in all_splits(hand, rules):
        value = sum(penalty(c, rules) for c in left)
        if best is None or value < best:
            best, keys = value, set()
        if value == best:
            keys.add(split_key(melds, left))
    return best, keys


def brute_max_opening(hand, rules) -> int:
    """Largest total of disjoint melds from ``hand`` valued as an opening (rules §3.3)."""

    @lru_cache(maxsize=None)
    def best(rest: tuple[int, ...]) -> int:
        if not rest:
            return 0
        first, others = rest[0], rest[1:]
        value = best(others)  # the first card is not laid ...
        for k in range(1, len(others) + 1):  # ... or is laid in a meld with k other cards
            for picked in combinations(range(len(others)), k):
                v = brute_opening_value((first,) + tuple(others[i] for i in picked), rules)
                if v is not None:
                    value = max(value, v + best(tuple(c for i, c in enumerate(others) if i not in picked)))
        return value

    return best(tuple(sorted(hand)))


def brute_after_draw(hand, rules) -> tuple[int, set]:
    """Minimum over discards of the deadwood kept, and the set of discards reaching it."""
    hand = list(hand)
    by = {}
    for i, d in enumerate(hand):
        by[d] = brute_min_deadwood(hand[:i] + hand[i + 1:], rules)
    best = min(by.values())
    return best, {d for d, v in by.items() if v == best}
