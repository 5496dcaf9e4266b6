"""Cards as small ints, packs, parsing, formatting, count vectors and dealing.

A natural card is ``suit * 13 + rank`` with rank 0 = ace … 12 = king and the
suit order **♠ ♣ ♦ ♥** (s c d h, ids 0–12, 13–25, 26–38, 39–51): the order
OpenSpiel's gin rummy uses, so its card ids are ours. Every joker is the one
id ``JOKER = 52``: jokers are interchangeable, so a hand is a multiset.

A hand of a two-deck game is best held as a count vector of length 53
(``counts[:52].reshape(4, 13)`` is a suit-by-rank grid; ``counts[52]`` is the
number of jokers).

>>> parse_hand("7h 8h 9h 10h 5c 5d 5s")
(45, 46, 47, 48, 17, 30, 4)
>>> format_hand(parse_hand("Th ★ as"))
'10h JK As'
>>> format_card(parse_card("q♣"), unicode=True)
'Q♣'
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from typing import Iterable, Sequence

import numpy as np

from rumino.errors import InvalidCardError, RuleConfigError

SUITS = "scdh"  # canonical suit letters, in id order
SUIT_SYMBOLS = "♠♣♦♥"
SUIT_NAMES = ("spades", "clubs", "diamonds", "hearts")
RANKS = ("A", "2", "3", "4", "5", "6", "7", "8", "9", "10", "J", "Q", "K")
JOKER = 52
N_KINDS = 53  # length of a count vector

_SUIT_ALIASES = {
    "s": 0, "♠": 0, "♤": 0,
    "c": 1, "♣": 1, "♧": 1,
    "d": 2, "♦": 2, "♢": 2,
    "h": 3, "♥": 3, "♡": 3,
}
_RANK_ALIASES = {r.lower(): i for i, r in enumerate(RANKS)}
_RANK_ALIASES.update({"t": 9, "1": None})  # "1" is refused with a hint below
_JOKER_TOKENS = {"jk", "*", "★", "☆", "joker", "jo", "🃏"}


def card(rank: int, suit: int) -> int:
    """The id of the natural card of ``rank`` (0 = ace … 12 = king) and ``suit``.

    >>> card(0, 0), card(12, 3)
    (0, 51)
    """
    if not (0 <= rank < 13 and 0 <= suit < 4):
        raise InvalidCardError(f"rank {rank!r} and suit {suit!r} do not name a card: rank is 0–12, suit 0–3.")
    return suit * 13 + rank


def rank_of(c: int) -> int:
    """Rank of a natural card, 0 = ace … 12 = king."""
    return c % 13


def suit_of(c: int) -> int:
    """Suit of a natural card, 0–3 in the order ♠ ♣ ♦ ♥."""
    return c // 13


def is_joker(c: int) -> bool:
    return c == JOKER


def parse_card(token: str) -> int:
    """Parse one card as people type it: ``7h``, ``7H``, ``10h``, ``Th``, ``7♥``, ``JK``, ``*``, ``★``.

    >>> parse_card("10h") == parse_card("Th") == parse_card("t♥") == 48
    True
    >>> parse_card("*")
    52
    """
    if not isinstance(token, str):
        raise InvalidCardError(f"{token!r} is not a card: expected text such as '7h' or 'JK'.")
    # Phones and emoji pickers send "7♥️": the suit followed by an invisible variation
    # selector (U+FE0F, or U+FE0E). It only picks a glyph style, so drop it.
    typed = token.strip()  # named in error messages as the user wrote it
    raw = typed.replace("\ufe0f", "").replace("\ufe0e", "")
    t = raw.lower()
    if t in _JOKER_TOKENS:
        return JOKER
    if len(t) < 2:
        raise InvalidCardError(f"{typed!r} is not a card: write a rank and a suit, such as '7h', or 'JK' for a joker.")
    suit_char, rank_text = t[-1], t[:-1]
    if suit_char not in _SUIT_ALIASES:
        raise InvalidCardError(
            f"{typed!r} is not a card: the suit {raw[-1]!r} is not one of s c d h (or ♠ ♣ ♦ ♥)."
        )
    if rank_text == "1":
        raise InvalidCardError(f"{typed!r} is not a card: write the ace as 'A' (for example 'A{raw[-1]}').")
    if rank_text not in _RANK_ALIASES:
        raise InvalidCardError(
            f"{typed!r} is not a card: the rank {raw[:-1]!r} is not one of {' '.join(RANKS)}."
        )
    return _SUIT_ALIASES[suit_char] * 13 + _RANK_ALIASES[rank_text]


def format_card(c: int, *, unicode: bool = False) -> str:
    """Canonical text of a card: ``'10h'``, ``'As'``, ``'JK'`` (or ``'10♥'``, ``'★'`` with ``unicode=True``).

    >>> format_card(48), format_card(48, unicode=True), format_card(52)
    ('10h', '10♥', 'JK')
    """
    c = _check_id(c)
    if c == JOKER:
        return "★" if unicode else "JK"
    suit = (SUIT_SYMBOLS if unicode else SUITS)[c // 13]
    return RANKS[c % 13] + suit


_SPLIT = re.compile(r"[\s,;]+")


def parse_hand(text: str | Iterable) -> tuple[int, ...]:
    """Parse a hand: a string of tokens split by spaces or commas, or an iterable of tokens or ids.

    >>> parse_hand("As, 2s 3s")
    (0, 1, 2)
    >>> parse_hand([0, "2s"])
    (0, 1)
    """
    if isinstance(text, str):
        tokens: Iterable = [t for t in _SPLIT.split(text.strip()) if t]
    else:
        tokens = text
    out = []
    for tok in tokens:
        if isinstance(tok, (int, np.integer)) and not isinstance(tok, bool):
            out.append(_check_id(int(tok)))
        else:
            out.append(parse_card(tok))
    return tuple(out)


def format_hand(cards: Iterable[int], *, unicode: bool = False) -> str:
    """Cards as canonical text separated by spaces (pastes back through :func:`parse_hand`)."""
    return " ".join(format_card(c, unicode=unicode) for c in cards)


def _check_id(c) -> int:
    if isinstance(c, bool) or not isinstance(c, (int, np.integer)) or not 0 <= int(c) <= JOKER:
        raise InvalidCardError(f"{c!r} is not a card id: ids are 0–51 for naturals and 52 for a joker.")
    return int(c)


# --------------------------------------------------------------------------- packs


@dataclass(frozen=True, kw_only=True)
class Pack:
    """A pack of ``decks`` standard 52-card decks plus ``jokers`` jokers.

    >>> RUMINO_PACK.size, ROMME_PACK.size, WIENER_PACK.size, STANDARD_PACK.size
    (108, 110, 106, 52)
    """

    decks: int = 1
    jokers: int = 0

    def __post_init__(self):
        if not isinstance(self.decks, int) or not 1 <= self.decks <= 8:
            raise RuleConfigError(f"Pack.decks is {self.decks!r}: it must be an integer from 1 to 8.")
        if not isinstance(self.jokers, int) or not 0 <= self.jokers <= 16:
            raise RuleConfigError(f"Pack.jokers is {self.jokers!r}: it must be an integer from 0 to 16.")

    @property
    def size(self) -> int:
        return 52 * self.decks + self.jokers

    def copies(self, c: int) -> int:
        """How many copies of card ``c`` the pack holds."""
        return self.jokers if c == JOKER else self.decks

    def counts(self) -> np.ndarray:
        """The whole pack as a count vector."""
        v = np.full(N_KINDS, self.decks, dtype=np.int16)
        v[JOKER] = self.jokers
        return v

    def cards(self) -> tuple[int, ...]:
        """Every card of the pack, in id order, duplicates included."""
        return tuple(c for c in range(N_KINDS) for _ in range(self.copies(c)))

    def check_hand(self, cards: Sequence[int], *, name: str = "hand") -> None:
        """Raise :class:`InvalidCardError` if ``cards`` holds more copies of a card than the pack has.

        >>> RUMINO_PACK.check_hand(parse_hand("7h 7h 7h"))
        Traceback (most recent call last):
        ...
        rumino.errors.InvalidCardError: the hand holds 3 copies of 7h, but a pack of 2 decks and 4 jokers has only 2.
        """
        counts = to_counts(cards)
        for c in np.flatnonzero(counts > self.counts()):
            have, allowed = int(counts[c]), self.copies(int(c))
            what = "jokers" if c == JOKER else f"copies of {format_card(int(c))}"
            raise InvalidCardError(
                f"the {name} holds {have} {what}, but a pack of {self.describe()} has only {allowed}."
            )

    def describe(self) -> str:
        d = "1 deck" if self.decks == 1 else f"{self.decks} decks"
        j = "no jokers" if self.jokers == 0 else ("1 joker" if self.jokers == 1 else f"{self.jokers} jokers")
        return f"{d} and {j}"


STANDARD_PACK = Pack(decks=1, jokers=0)  # Gin Rummy, Rummoli
RUMINO_PACK = Pack(decks=2, jokers=4)  # rules §1.1: 108 cards
ROMME_PACK = Pack(decks=2, jokers=6)  # rules §3.1 and §4.1: 110 cards
WIENER_PACK = Pack(decks=2, jokers=2)  # rules §5.1: 106 cards


# --------------------------------------------------------------------------- count vectors


def to_counts(cards: Iterable[int]) -> np.ndarray:
    """A hand as a count vector of length 53 (index 52 counts jokers).

    >>> to_counts([0, 0, 52])[[0, 1, 52]].tolist()
    [2, 0, 1]
    """
    ids = np.fromiter((_check_id(c) for c in cards), dtype=np.int64)
    return np.bincount(ids, minlength=N_KINDS).astype(np.int16)


def from_counts(counts: Sequence[int]) -> tuple[int, ...]:
    """The cards of a count vector, in id order (jokers last)."""
    counts = np.asarray(counts)
    if counts.shape != (N_KINDS,) or (counts < 0).any():
        raise InvalidCardError(f"a count vector has 53 non-negative entries; got shape {counts.shape}.")
    return tuple(int(c) for c in np.repeat(np.arange(N_KINDS), counts))


def sort_cards(cards: Iterable[int]) -> tuple[int, ...]:
    """Cards sorted for display: by suit, then rank, jokers last."""
    return tuple(sorted(cards))


# --------------------------------------------------------------------------- shuffling and dealing


def shuffled(pack: Pack, rng: np.random.Generator) -> list[int]:
    """The pack in a random order drawn from ``rng`` (the only source of chance).

    >>> a = shuffled(RUMINO_PACK, np.random.default_rng(1)); b = shuffled(RUMINO_PACK, np.random.default_rng(1))
    >>> a == b, len(a)
    (True, 108)
    """
    order = np.array(pack.cards(), dtype=np.int64)
    rng.shuffle(order)
    return order.tolist()


def deal(pack: Pack, hand_sizes: Sequence[int], rng: np.random.Generator) -> tuple[list[list[int]], list[int]]:
    """Shuffle ``pack`` and deal one card at a time round the table.

    Returns ``(hands, stock)`` where ``stock[0]`` is the next card to be drawn.

    >>> hands, stock = deal(RUMINO_PACK, [7, 7], np.random.default_rng(0))
    >>> [len(h) for h in hands], len(stock)
    ([7, 7], 94)
    """
    sizes = list(hand_sizes)
    if sum(sizes) > pack.size or any(s < 0 for s in sizes):
        raise InvalidCardError(f"cannot deal hands of {sizes} from a pack of {pack.size} cards.")
    order = shuffled(pack, rng)
    hands: list[list[int]] = [[] for _ in sizes]
    pos = 0
    for round_ in range(max(sizes, default=0)):
        for i, s in enumerate(sizes):
            if round_ < s:
                hands[i].append(order[pos])
                pos += 1
    return hands, order[pos:]


def sample_hands(pack: Pack, hand_size: int, n: int, rng: np.random.Generator) -> np.ndarray:
    """``n`` random hands of ``hand_size`` cards as an ``(n, 53)`` array of count vectors (vectorised).

    Each row is an independent uniformly random ``hand_size``-subset of the pack's cards.

    >>> h = sample_hands(RUMINO_PACK, 7, 1000, np.random.default_rng(0))
    >>> h.shape, bool((h.sum(axis=1) == 7).all()), bool((h[:, :52] <= 2).all())
    ((1000, 53), True, True)
    """
    if not 0 <= hand_size <= pack.size:
        raise InvalidCardError(f"a hand of {hand_size} cards cannot come from a pack of {pack.size}.")
    ids = np.array(pack.cards(), dtype=np.int64)
    # argpartition of uniform keys picks a uniform random subset per row.
    keys = rng.random((n, pack.size))
    picks = np.argpartition(keys, hand_size, axis=1)[:, :hand_size] if hand_size < pack.size else np.tile(np.arange(pack.size), (n, 1))
    chosen = ids[picks]
    out = np.zeros((n, N_KINDS), dtype=np.int8)
    rows = np.repeat(np.arange(n), hand_size)
    np.add.at(out, (rows, chosen.ravel()), 1)
    return out
