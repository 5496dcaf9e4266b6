"""The table: seats in order, the high-card draw for dealer (a joker is drawn again), the deal, the stock and its reshuffle,
and the rule on re-discarding a card just taken (rules §0.4, §0.5).

Piles are Python lists with the top card last. Chance comes only from the
``numpy.random.Generator`` passed in, so a seed replays every deal.

>>> import numpy as np
>>> hands, upcard, stock = deal_round_robin(list(range(20)), order=[2, 0], n_seats=3, hand_size=3)
>>> hands, upcard, stock[-1], len(stock)
([[1, 3, 5], [], [0, 2, 4]], [6], 7, 13)
>>> next_in(2, [True, False, True]), from_left_of(0, [0, 1, 2], 3)
(0, [1, 2, 0])
>>> forbidden_discard(pickup=45, hand=[45, 45, 3], bar_twin=False), forbidden_discard(45, [45, 45, 3], bar_twin=True)
(None, 45)
"""

from __future__ import annotations

from typing import Iterable, Sequence

import numpy as np

from rumino.cards import JOKER
from rumino.errors import IllegalActionError


def next_in(seat: int, flags: Sequence[bool]) -> int:
    """The next seat to the left of ``seat`` whose flag is true (it may be ``seat`` itself, last)."""
    n = len(flags)
    for k in range(1, n + 1):
        p = (seat + k) % n
        if flags[p]:
            return p
    raise IllegalActionError("no player is left in the game.")


def from_left_of(seat: int, seats: Iterable[int], n_seats: int) -> list[int]:
    """``seats`` in playing order starting at ``seat``'s left (``seat`` itself last)."""
    return sorted(seats, key=lambda p: (p - seat - 1) % n_seats)


def draw_for_dealer(rng: np.random.Generator, pack: np.ndarray, seats: Sequence[int]) -> tuple[int, tuple]:
    """High card deals (king high, ace low); a joker is drawn again, and a tie for high redraws
    (rules §1.1).

    The procedure, as players at a table would follow it:

    1. The pack is shuffled and spread; each player in ``seats``, in that order, draws a card.
    2. A player who drew a joker puts it aside and draws another card from the same spread,
       until he holds a card that is not a joker. The replacements are drawn after everyone's
       first card, by the joker-drawers in turn (seat order as in step 1), and the pack is not
       shuffled again for them: the players' first cards are the same whether or not somebody
       drew a joker.
    3. The highest rank among the players' cards deals. If several players share it, only
       they draw again, from a fresh shuffle, by the same steps 1 to 3.

    Returns ``(dealer, rounds)``. ``rounds`` has one entry per shuffle: the ``(seat, card)``
    draws in the order they were made, jokers and their replacements included, so a seat
    that drew a joker appears more than once and the card that counts is its last one
    (``dict(round)`` gives each seat's counting card). Each round costs one shuffle and a
    joker's replacement costs none, so a draw without jokers uses the generator exactly as a
    plain high-card draw does (and so does one whose replacement card neither wins nor ties).

    >>> pack = np.array([0, 12, 52, 25, 51, 3], dtype=np.int64)  # A♠ K♠ joker K♣ K♥ 4♠
    >>> class Spread:  # a stand-in generator that "shuffles" to a given order
    ...     def __init__(self, *orders): self.orders = list(orders)
    ...     def permutation(self, pack): return np.array(self.orders.pop(0))
    >>> draw_for_dealer(Spread([52, 0, 3, 12]), pack, [0, 1, 2])   # seat 0 drew a joker, then K♠
    (0, (((0, 52), (1, 0), (2, 3), (0, 12)),))
    """
    drawing = list(seats)
    rounds = []
    while True:
        order = rng.permutation(pack)
        # Each drawer takes the next card of this shuffle. A joker does not count: the player
        # who drew it takes the next undrawn card instead (after everyone's first card), and
        # again if that is a joker too. No shuffle is spent on it, so a draw without jokers
        # uses the generator exactly as before this rule was implemented.
        draws = [(p, int(order[i])) for i, p in enumerate(drawing)]
        nxt = len(drawing)
        pending = [p for p, c in draws if c == JOKER]
        while pending:
            if nxt >= len(order):
                raise ValueError("the pack ran out of cards that are not jokers while drawing for the deal.")
            p, card = pending.pop(0), int(order[nxt])
            nxt += 1
            draws.append((p, card))
            if card == JOKER:
                pending.append(p)
        rounds.append(tuple(draws))
        held = dict(draws)  # each seat's last card: never a joker
        top = max(held[p] % 13 for p in drawing)
        leaders = [p for p in drawing if held[p] % 13 == top]
        if len(leaders) == 1:
            return leaders[0], tuple(rounds)
        drawing = leaders  # a tie for high: only the tied players draw again, from a fresh shuffle


def deal_round_robin(cards: list[int], order: Sequence[int], n_seats: int, hand_size: int,
                     upcards: int = 1) -> tuple[list[list[int]], list[int], list[int]]:
    """Deal ``hand_size`` cards one at a time to the seats in ``order`` from the top of ``cards``
    (``cards[0]`` is dealt first), then ``upcards`` face up; the rest is the stock.

    Returns ``(hands by seat, discard pile, stock)``; the stock's top card (its
    last element) is the next card of ``cards``.
    """
    k = len(order)
    hands: list[list[int]] = [[] for _ in range(n_seats)]
    for i, p in enumerate(order):
        hands[p] = cards[i:hand_size * k:k]
    dealt = hand_size * k
    pile = cards[dealt:dealt + upcards]
    stock = cards[:dealt + upcards - 1:-1] if dealt + upcards > 0 else cards[::-1]
    return hands, pile, stock


def reshuffle(discard: list[int], rng: np.random.Generator) -> tuple[list[int], list[int]]:
    """rules §0.4: the discard pile except its top card becomes a new shuffled stock.

    Returns ``(stock, discard)``; the new discard pile holds only the old top card.
    """
    top = discard[-1]
    rest = np.array(discard[:-1], dtype=np.int64)
    rng.shuffle(rest)
    return rest.tolist(), [top]


def can_draw_stock(stock: Sequence[int], discard: Sequence[int], stock_exhausted: str) -> bool:
    """A stock draw is possible if the stock has a card, or it can be rebuilt from the discards (§0.4)."""
    return bool(stock) or (stock_exhausted == "reshuffle" and len(discard) > 1)


def forbidden_discard(pickup: int | None, hand: Sequence[int], bar_twin: bool) -> int | None:
    """The card id that may not be discarded this turn under rules §0.5, or ``None``.

    ``pickup`` is the card just taken from the discard pile (None if the draw was
    from the stock). Cards are ids, so two copies of a card share one id: with
    ``bar_twin`` False (the default of the knob) only the card taken is barred,
    so a player holding its twin as well may discard that twin; with
    ``bar_twin`` True neither copy may go.
    """
    if pickup is None:
        return None
    if not bar_twin and hand.count(pickup) > 1:
        return None
    return pickup


__all__ = ["next_in", "from_left_of", "draw_for_dealer", "deal_round_robin", "reshuffle", "can_draw_stock",
           "forbidden_discard"]
