"""Poker hand values: the best five of any 5 … 18 cards of one 52-card deck (Rummoli, rules §2).

A value is one int: **a higher value is a better hand, equal values tie** (split
the pot). ``value >> 20`` is the category, 0 = high card … 8 = straight flush
(a royal flush is the ace-high straight flush); the low 20 bits order hands
within a category (ranks, then kickers). Aces are high, and also low in the
five-high straight A-2-3-4-5 (the "wheel"), the lowest straight (rules §2.4); a run does not
turn the corner (Q-K-A-2-3 is no straight).

Cards are rumino's ids, ``suit * 13 + rank`` with rank 0 = ace (see
:mod:`rumino.cards`).

>>> from rumino.cards import parse_hand
>>> v = hand_value(parse_hand("As Ks Qs Js 10s 2c 2d"))
>>> category_name(v), category_key(v)
('straight flush', 'straight_flush')
>>> hand_value(parse_hand("Ah 2c 3d 4s 5h 9c")) < hand_value(parse_hand("2h 3c 4d 5s 6h 9c"))
True
>>> hand_value(parse_hand("Kh Kc 9d 9s 7h 3c")) == hand_value(parse_hand("Ks Kd 9h 9c 7s 2c"))
True

How it works
------------
A hand becomes a 52-bit mask (bit ``id``), cut into four 13-bit suit masks
rotated so bit 0 is the deuce and bit 12 the ace. The ranks held by at least
2, 3 and 4 suits are a few ANDs/ORs of the suit masks, so quads, trips and
pairs are bit masks, and a straight is five shifted copies of a mask ANDed
(with the ace copied below the deuce for the wheel). Popcount, highest bit,
best straight and "keep the top five" are 8192-entry tables. There is no loop
over cards after the mask is built, so 18 cards cost barely more than 5.
Both forms — :func:`evaluate_batch` (a whole array in one compiled call) and
:func:`hand_value` (one hand) — run the same compiled kernel, ``value_of_mask``.
"""

from __future__ import annotations

from typing import Iterable

import numba
import numpy as np

from rumino.jit import jit as _jit
from rumino.errors import InvalidCardError
from rumino.cards import format_card, parse_hand

__all__ = [
    "CATEGORY_KEYS",
    "CATEGORY_NAMES",
    "MIN_CARDS",
    "MAX_CARDS",
    "category",
    "category_key",
    "category_name",
    "check_hand",
    "evaluate_batch",
    "hand_mask",
    "hand_value",
    "value_of_mask",
    "describe",
]

# rules §2.1: all 52 cards go to the players and the widow, so hands run from 5 cards (8 players: 6 × 7, then
# 5, 5) to 18 (2 players: 18, 17, 17). The kernel itself would take any number of cards; the checks stop here.
MIN_CARDS = 5
MAX_CARDS = 18

# Categories, index = value >> 20. Keys match `rumino odds poker --json`.
CATEGORY_KEYS = ("high_card", "one_pair", "two_pair", "three_of_a_kind", "straight", "flush",
                 "full_house", "four_of_a_kind", "straight_flush")
CATEGORY_NAMES = tuple(k.replace("_", " ") for k in CATEGORY_KEYS)
HIGH_CARD, ONE_PAIR, TWO_PAIR, THREE_OF_A_KIND, STRAIGHT, FLUSH, FULL_HOUSE, FOUR_OF_A_KIND, STRAIGHT_FLUSH = range(9)
_SHIFT = 20

# Ranks inside the kernel are "strengths": 0 = deuce … 11 = king, 12 = ace.
_STRENGTH_NAMES = ("2", "3", "4", "5", "6", "7", "8", "9", "10", "J", "Q", "K", "A")


def _tables() -> tuple[np.ndarray, np.ndarray, np.ndarray, np.ndarray]:
    """Per 13-bit strength mask: popcount, highest bit, best straight's top (0 = none) and the top five bits."""
    m = np.arange(8192, dtype=np.int64)
    pop = np.zeros(8192, dtype=np.int64)
    high = np.full(8192, -1, dtype=np.int64)
    for b in range(13):
        bit = (m >> b) & 1
        pop += bit
        high[bit == 1] = b
    # ext: bit 0 = the ace played low, bits 1..13 = deuce … ace.
    ext = (m << 1) | ((m >> 12) & 1)
    run = ext & (ext >> 1) & (ext >> 2) & (ext >> 3) & (ext >> 4)
    straight = np.zeros(8192, dtype=np.int64)  # top card of the best straight, as an ext index 4..13 (5-high … ace-high)
    for j in range(10):
        straight[((run >> j) & 1) == 1] = j + 4
    top5 = m.copy()
    for _ in range(8):  # clear the lowest bit while more than five remain
        over = sum((top5 >> b) & 1 for b in range(13)) > 5
        top5[over] &= top5[over] - 1
    return pop, high, straight, top5


POPCOUNT, HIGH_BIT, STRAIGHT_TOP, TOP_FIVE = _tables()


@_jit
def _topk(m, k):
    """Keep the k highest set bits of m (m has at most 13 bits)."""
    while POPCOUNT[m] > k:
        m &= m - 1
    return m


@_jit
def value_of_mask(mask):
    """The value of the best five cards of the hand whose card ids are the set bits of ``mask``.

    No checks: the caller guarantees a 52-bit mask with at least five bits.
    """
    s0 = (mask >> 0) & 0x1FFF
    s1 = (mask >> 13) & 0x1FFF
    s2 = (mask >> 26) & 0x1FFF
    s3 = (mask >> 39) & 0x1FFF
    # rotate rank order (bit 0 = ace) into strength order (bit 0 = deuce, bit 12 = ace)
    s0 = (s0 >> 1) | ((s0 & 1) << 12)
    s1 = (s1 >> 1) | ((s1 & 1) << 12)
    s2 = (s2 >> 1) | ((s2 & 1) << 12)
    s3 = (s3 >> 1) | ((s3 & 1) << 12)
    # straight flush / flush: every suit with five or more cards competes (18 cards can hold three flushes)
    sf = 0
    fl = 0
    if POPCOUNT[s0] >= 5:
        sf = max(sf, STRAIGHT_TOP[s0])
        fl = max(fl, TOP_FIVE[s0])
    if POPCOUNT[s1] >= 5:
        sf = max(sf, STRAIGHT_TOP[s1])
        fl = max(fl, TOP_FIVE[s1])
    if POPCOUNT[s2] >= 5:
        sf = max(sf, STRAIGHT_TOP[s2])
        fl = max(fl, TOP_FIVE[s2])
    if POPCOUNT[s3] >= 5:
        sf = max(sf, STRAIGHT_TOP[s3])
        fl = max(fl, TOP_FIVE[s3])
    if sf:
        return (8 << 20) | sf
    present = s0 | s1 | s2 | s3
    two = (s0 & s1) | (s0 & s2) | (s0 & s3) | (s1 & s2) | (s1 & s3) | (s2 & s3)
    three = (s0 & s1 & s2) | (s0 & s1 & s3) | (s0 & s2 & s3) | (s1 & s2 & s3)
    four = s0 & s1 & s2 & s3
    if four:
        q = HIGH_BIT[four]
        return (7 << 20) | (q << 4) | HIGH_BIT[present & ~(1 << q)]
    trips = three  # no quads from here on
    pairs = two & ~three
    if trips and (POPCOUNT[trips] >= 2 or pairs):
        t = HIGH_BIT[trips]
        # the pair part may come from a second set of trips
        return (6 << 20) | (t << 4) | HIGH_BIT[(trips | pairs) & ~(1 << t)]
    if fl:
        return (5 << 20) | fl
    st = STRAIGHT_TOP[present]
    if st:
        return (4 << 20) | st
    if trips:
        t = HIGH_BIT[trips]
        return (3 << 20) | (t << 13) | _topk(present & ~(1 << t), 2)
    if POPCOUNT[pairs] >= 2:
        hi = HIGH_BIT[pairs]
        lo = HIGH_BIT[pairs & ~(1 << hi)]
        # the kicker may be a card of a third pair
        return (2 << 20) | (hi << 8) | (lo << 4) | HIGH_BIT[present & ~((1 << hi) | (1 << lo))]
    if pairs:
        p = HIGH_BIT[pairs]
        return (1 << 20) | (p << 13) | _topk(present & ~(1 << p), 3)
    return TOP_FIVE[present]


@_jit
def _batch(cards, out):
    for i in range(cards.shape[0]):
        m = 0
        for j in range(cards.shape[1]):
            m |= 1 << cards[i, j]
        out[i] = value_of_mask(m)


@_jit
def _batch_check(cards):
    """-1 if every row holds distinct ids 0..51, else the first bad row."""
    for i in range(cards.shape[0]):
        m = 0
        for j in range(cards.shape[1]):
            c = cards[i, j]
            if c < 0 or c > 51 or (m >> c) & 1:
                return i
            m |= 1 << c
    return -1


def check_hand(cards: Iterable) -> tuple[int, ...]:
    """The hand as a tuple of card ids, or :class:`InvalidCardError` naming what is wrong with it.

    >>> check_hand([0, 1, 2, 3])
    Traceback (most recent call last):
    ...
    rumino.errors.InvalidCardError: a poker hand needs 5 to 18 cards, got 4.
    """

    hand = parse_hand(cards)
    if not MIN_CARDS <= len(hand) <= MAX_CARDS:
        raise InvalidCardError(f"a poker hand needs {MIN_CARDS} to {MAX_CARDS} cards, got {len(hand)}.")
    seen = 0
    for c in hand:
        if not 0 <= c < 52:
            raise InvalidCardError(f"{c!r} is not a card of one 52-card deck (ids 0–51; no jokers in poker).")
        if (seen >> c) & 1:
            raise InvalidCardError(f"{format_card(c)} appears twice: one deck holds each card once.")
        seen |= 1 << c
    return hand


_BIT = {c: 1 << c for c in range(52)}


def hand_mask(cards: Iterable) -> int:
    """The 52-bit mask of a checked hand (bit ``id`` set for each card): the input of :func:`value_of_mask`.

    >>> hand_mask([0, 1, 2, 3, 51]) == 0b1111 | 1 << 51
    True
    """
    if type(cards) in (tuple, list):
        # fast path for ids (what the game engine passes): distinct powers of two add without carries, so
        # the sum has one bit per card exactly when no card repeats; a non-card is not a key of _BIT
        try:
            m = sum(map(_BIT.__getitem__, cards))
        except (KeyError, TypeError):
            m = -1
        if m >= 0 and m.bit_count() == len(cards) and MIN_CARDS <= len(cards) <= MAX_CARDS:
            return m
    m = 0
    for c in check_hand(cards):
        m |= 1 << c
    return m


@_jit
def _value_of_ids(cards):
    """The value of a tuple of ids, or -1 unless it holds 5 … 18 distinct ids 0 … 51 (one pass).

    numba compiles it once per tuple length (on first use; cached on disk): a
    tuple unboxes faster than an array is built, and padding every hand to 18
    ids would double the cost of a 7-card call.
    """
    if len(cards) < 5 or len(cards) > 18:
        return -1
    m = 0
    for c in cards:
        if c < 0 or c > 51 or (m >> c) & 1:
            return -1
        m |= 1 << c
    return value_of_mask(m)


def hand_value(cards: Iterable) -> int:
    """Value of the best five of 5 … 18 cards (ids, or text such as ``"As Kd 10h 9c 2s"``).

    >>> hand_value("2s 3s 4s 5s As") >> 20   # the wheel, in one suit
    8

    A tuple or list of ints (what the game engine holds) is checked and valued
    in one compiled call; anything else, or a hand that fails the check, takes
    the Python route, which names the problem.
    """
    if type(cards) is tuple:
        # the compiled call checks the size too: a wrong size costs one compilation, then takes the Python route
        try:
            if type(cards[0]) is int:
                v = _value_of_ids(cards)
                if v >= 0:
                    return v
        except (IndexError, numba.core.errors.NumbaError):  # (); or ints mixed with other things
            pass
    elif type(cards) is list:
        return hand_value(tuple(cards))
    if isinstance(cards, str):

        cards = parse_hand(cards)
    return value_of_mask(hand_mask(cards))


def evaluate_batch(cards: np.ndarray, *, check: bool = True) -> np.ndarray:
    """Values of many hands at once: ``cards`` is an int array of shape (hands, n), 5 ≤ n ≤ 18.

    >>> evaluate_batch(np.array([[0, 1, 2, 3, 4], [0, 13, 26, 1, 14]])) >> 20
    array([8, 6])
    """
    arr = np.ascontiguousarray(cards, dtype=np.int64)
    if arr.ndim != 2:
        raise InvalidCardError(f"evaluate_batch needs a 2-D array (hands × cards), got {arr.ndim} dimension(s).")
    if not MIN_CARDS <= arr.shape[1] <= MAX_CARDS:
        raise InvalidCardError(f"a poker hand needs {MIN_CARDS} to {MAX_CARDS} cards, got {arr.shape[1]}.")
    if check and arr.shape[0]:
        bad = _batch_check(arr)
        if bad >= 0:
            check_hand(tuple(int(c) for c in arr[bad]))  # raises with the reason
    out = np.empty(arr.shape[0], dtype=np.int64)
    _batch(arr, out)
    return out


def category(value: int) -> int:
    """The category index of a value: 0 = high card … 8 = straight flush."""
    return int(value) >> _SHIFT


def category_key(value: int) -> str:
    """``'full_house'`` etc. (the JSON key used by ``rumino odds poker``)."""
    return CATEGORY_KEYS[category(value)]


def category_name(value: int) -> str:
    """``'full house'`` etc.; a straight flush to the ace is still called a straight flush (a royal flush)."""
    return CATEGORY_NAMES[category(value)]


def describe(value: int) -> str:
    """A short description of a value, naming the ranks that decide it.

    >>> from rumino.cards import parse_hand
    >>> describe(hand_value(parse_hand("As Ks Qs Js 10s")))
    'royal flush'
    >>> describe(hand_value(parse_hand("5h 5c 5d 9s 9h 2c")))
    'full house, 5s full of 9s'
    >>> describe(hand_value(parse_hand("Ah 2c 3d 4s 5h")))
    'straight, 5 high'
    """
    v = int(value)
    cat, low = v >> _SHIFT, v & ((1 << _SHIFT) - 1)
    r = _STRENGTH_NAMES

    def bits(m):
        return [r[b] for b in range(12, -1, -1) if (m >> b) & 1]

    if cat in (STRAIGHT_FLUSH, STRAIGHT):
        top = "5" if low == 4 else r[low - 1]
        if cat == STRAIGHT_FLUSH and top == "A":
            return "royal flush"
        return f"{CATEGORY_NAMES[cat]}, {top} high"
    if cat == FOUR_OF_A_KIND:
        return f"four {r[low >> 4]}s, {r[low & 15]} kicker"
    if cat == FULL_HOUSE:
        return f"full house, {r[low >> 4]}s full of {r[low & 15]}s"
    if cat in (FLUSH, HIGH_CARD):
        return f"{CATEGORY_NAMES[cat]}, " + " ".join(bits(low))
    if cat == THREE_OF_A_KIND:
        return f"three {r[low >> 13]}s, " + " ".join(bits(low & 0x1FFF))
    if cat == TWO_PAIR:
        return f"two pair, {r[low >> 8]}s and {r[(low >> 4) & 15]}s, {r[low & 15]} kicker"
    return f"pair of {r[low >> 13]}s, " + " ".join(bits(low & 0x1FFF))
