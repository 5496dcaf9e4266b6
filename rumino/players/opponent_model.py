"""What the opponent's open play says about his hand: weights for a search's worlds.

A search deals the cards it cannot see again at random (:meth:`~rumino.engine.TurnGame.sample_world`),
but the table has seen more than which cards are hidden: the opponent passed some cards, drew from
the stock rather than take the top discard, threw others away, and has not knocked. A plain
player — greedy, OpenSpiel's simple bot, most people — takes a card that lowers his deadwood,
throws what does not fit his hand, and knocks as soon as the rules let him. A hand he could hold is
then more or less likely by how well it explains that play:

* **a card he let go** (passed, left on the pile when he drew from the stock, or discarded) does not
  meld with his cards: a hand with which it would make or extend a meld is weighted by ``let_go``
  (0.3 by default: the hand may have changed since, and a player may let a card go for other reasons);
* **no knock**: after his discard (Gin, Wiener) his deadwood is above the knock limit, or he would
  have knocked; where the knock comes before the draw (Rumino) the hand he held at the start of his
  last turn was above it (his draw is unknown: each card of his hand counts as the one he drew, or none).
  A hand that could have knocked is weighted by ``no_knock`` (0.15).

Only the last :data:`RECENT` cards he let go count, and with ``decay`` below 1 a card let go ``k`` of his
turns ago weighs less (``1 − (1 − let_go)·decay^k``): his hand has changed since.
The weights multiply; :func:`resample` keeps worlds in proportion to them. Nothing here reads a hidden
card: the events are the hand's open play (:meth:`~rumino.engine.drawdiscard.DrawDiscardGame.open_play`)
and the hands weighed are the search's own guesses.

>>> from rumino.cards import parse_hand
>>> from rumino.melds import GIN_MELDS
>>> hands = np.array([parse_hand("7h 8h Ks Kd 2c 4d 6s 9c Jd Qs"), parse_hand("7c 8d Ks Kd 2c 4d 6s 9c Jd Qs")])
>>> w = hand_weights(hands, GIN_MELDS, OpenPlay(let_go=tuple(parse_hand("9h")), knock_limit=10))
>>> w.round(2).tolist()  # he passed the 9h: the first hand would have taken it (7h 8h 9h)
[0.3, 1.0]
>>> w = hand_weights(hands, GIN_MELDS, OpenPlay(last_discard=parse_hand("8s")[0]))
>>> w.round(2).tolist()  # he threw the 8s last, but both hands keep dearer unmatched cards (Jd, Qs)
[0.3, 0.3]
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Sequence

import numpy as np

from rumino.hand.kernels import T_VALUE, deadwood_dfs, load_rows, rule_tables
from rumino.jit import jit
from rumino.melds import MeldRules

RECENT = 6
"""How many of the opponent's most recent let-go cards weigh on his hand."""

AFTER_DISCARD, BEFORE_DRAW, NO_KNOCK_TEST = 0, 1, 2


@dataclass(frozen=True)
class OpenPlay:
    """One opponent's open play in this hand, as the model reads it: the cards he let go (the most recent
    last), the cards he took face up and still holds, the card he threw last (None: none yet), whether
    the knock limit tells anything (``knock_limit`` None: no), and the card he took at his last turn
    (None: he drew from the stock)."""

    let_go: tuple[int, ...] = ()
    held: tuple[int, ...] = ()
    ages: tuple[int, ...] = ()  # for each card let go, his turns since (0: at his last turn); () all 0
    last_discard: int | None = None
    knock_limit: int | None = None
    knock_before_draw: bool = False
    last_taken: int | None = None


@dataclass(frozen=True)
class Habits:
    """How much less likely a hand is for each thing a plain player would not have done with it
    (module docstring): a factor a broken habit, 1 for "the open play says nothing"."""

    let_go: float = 0.3
    held: float = 0.3
    highest: float = 0.3
    no_knock: float = 0.15
    decay: float = 1.0  # a card let go k turns ago weighs 1 - (1 - let_go) * decay**k: his hand has changed since


def read_open_play(events: Sequence[tuple], seat: int, *, knock_limit: int | None,
                   knock_before_draw: bool = False) -> OpenPlay:
    """The model's reading of ``seat``'s part in a hand's open play (``(seat, what, card)`` events).

    >>> read_open_play([(1, "pass", 5), (0, "stock", 5), (0, "discard", 9), (1, "take", 9), (1, "discard", 3)],
    ...                1, knock_limit=10)
    OpenPlay(let_go=(5, 3), held=(9,), ages=(0, 0), last_discard=3, knock_limit=10, knock_before_draw=False, last_taken=9)
    """
    let_go: list[int] = []
    when: list[int] = []
    held: list[int] = []
    last_discard = last_taken = None
    turns = 0
    for who, what, card in events:
        if who != seat:
            continue
        if what in ("pass", "stock") and card is not None:
            let_go.append(card)
            when.append(turns)
        if what == "stock":
            last_taken = None
        elif what == "take":
            last_taken = card
            held.append(card)
        elif what == "discard":
            let_go.append(card)
            when.append(turns)
            last_discard = card
            if card in held:
                held.remove(card)
            turns += 1
    last = max(0, turns - 1)  # his last turn's number (a pass before any turn counts as now)
    ages = tuple(max(0, last - t) for t in when[-RECENT:])
    return OpenPlay(tuple(let_go[-RECENT:]), tuple(held), ages, last_discard, knock_limit if turns else None,
                    knock_before_draw, last_taken)


if True:  # compiled (numba is a requirement of the package)
    @jit(inline=True)
    def _take1(cnt, rows, c):
        cnt[c] -= 1
        if c < 52 and cnt[c] == 0:
            rows[c // 13] &= ~(1 << (c % 13))

    @jit(inline=True)
    def _put1(cnt, rows, c):
        cnt[c] += 1
        if c < 52:
            rows[c // 13] |= 1 << (c % 13)

    @jit
    def _hand_log_weights(hands, T, let_go, log_let_go, held, log_held, last_discard, log_high,
                          limit, mode, last_taken, log_knock, out):
        """``out[w]``: the log weight of opponent hand ``hands[w]`` (card ids, -1 padded) given the cards he
        let go (``let_go``), and the knock test (``mode``: AFTER_DISCARD, BEFORE_DRAW, NO_KNOCK_TEST)."""
        cnt = np.zeros(53, dtype=np.int64)
        rows = np.zeros(4, dtype=np.int64)
        banned = np.zeros(53, dtype=np.int8)
        big = np.int64(1 << 30)
        zero, one = np.int64(0), np.int64(1)
        for w in range(hands.shape[0]):
            cnt[:] = 0
            for i in range(hands.shape[1]):
                c = hands[w, i]
                if c >= 0:
                    cnt[c] += 1
            load_rows(cnt, rows)
            dw = deadwood_dfs(cnt, rows, cnt[52], zero, big, zero, zero, T, banned)
            lw = 0.0
            for e in range(let_go.shape[0]):
                c = let_go[e]
                cnt[c] += 1
                if c < 52:
                    rows[c // 13] |= 1 << (c % 13)
                # does c meld with his cards: do they and c together leave less than his deadwood and c's value?
                # (stop at the first arrangement that does)
                bound = dw + T[T_VALUE + c]
                v = deadwood_dfs(cnt, rows, cnt[52], zero, bound, bound - 1, zero, T, banned)
                cnt[c] -= 1
                if c < 52 and cnt[c] == 0:
                    rows[c // 13] &= ~(1 << (c % 13))
                if v < bound:
                    lw += log_let_go[e]
            # the cards he took face up and still holds meld with his cards (he took them for that)
            for e in range(held.shape[0]):
                c = held[e]
                if cnt[c] == 0:
                    continue
                _take1(cnt, rows, c)
                v = deadwood_dfs(cnt, rows, cnt[52], zero, big, zero, zero, T, banned)
                _put1(cnt, rows, c)
                if v + T[T_VALUE + c] == dw:  # it is unmatched in a best arrangement: he did not need it
                    lw += log_held
            # his last discard was his dearest unmatched card: no card left unmatched in a best arrangement
            # of his hand is worth more
            if last_discard >= 0:
                top = T[T_VALUE + last_discard]
                for x in range(53):
                    if cnt[x] == 0 or T[T_VALUE + x] <= top:
                        continue
                    _take1(cnt, rows, x)
                    v = deadwood_dfs(cnt, rows, cnt[52], zero, big, zero, zero, T, banned)
                    _put1(cnt, rows, x)
                    if v + T[T_VALUE + x] == dw:
                        lw += log_high
                        break
            if mode == AFTER_DISCARD:
                if dw <= limit:
                    lw += log_knock
            elif mode == BEFORE_DRAW and last_discard >= 0:
                # the hand at the start of his last turn: this one, his discard back, the card he drew out
                cnt[last_discard] += 1
                if last_discard < 52:
                    rows[last_discard // 13] |= 1 << (last_discard % 13)
                could, ways = 0, 0
                for x in range(53):
                    if cnt[x] == 0 or (last_taken >= 0 and x != last_taken):
                        continue
                    k = cnt[x] if last_taken < 0 else 1
                    cnt[x] -= 1
                    if x < 52 and cnt[x] == 0:
                        rows[x // 13] &= ~(1 << (x % 13))
                    v = deadwood_dfs(cnt, rows, cnt[52], zero, np.int64(limit + 1), zero, zero, T, banned)
                    cnt[x] += 1
                    if x < 52:
                        rows[x // 13] |= 1 << (x % 13)
                    ways += k
                    if v <= limit:
                        could += k
                cnt[last_discard] -= 1
                if ways > 0 and could > 0:
                    lw += np.log(1.0 - (1.0 - np.exp(log_knock)) * could / ways)
            out[w] = lw


if True:
    @jit
    def _meld_counts(hands, T, cards, out):
        """``out[k]``: in how many of ``hands`` card ``cards[k]`` would make or extend a meld."""
        cnt = np.zeros(53, dtype=np.int64)
        rows = np.zeros(4, dtype=np.int64)
        banned = np.zeros(53, dtype=np.int8)
        big = np.int64(1 << 30)
        zero = np.int64(0)
        for w in range(hands.shape[0]):
            cnt[:] = 0
            for i in range(hands.shape[1]):
                c = hands[w, i]
                if c >= 0:
                    cnt[c] += 1
            load_rows(cnt, rows)
            dw = deadwood_dfs(cnt, rows, cnt[52], zero, big, zero, zero, T, banned)
            for k in range(cards.shape[0]):
                c = cards[k]
                _put1(cnt, rows, c)
                bound = dw + T[T_VALUE + c]
                v = deadwood_dfs(cnt, rows, cnt[52], zero, bound, bound - 1, zero, T, banned)
                _take1(cnt, rows, c)
                if v < bound:
                    out[k] += 1


def meld_shares(hands: np.ndarray, rules: MeldRules, cards: Sequence[int]) -> np.ndarray:
    """For each of ``cards``, the share of ``hands`` (rows of card ids, -1 padded) with which it would make
    or extend a meld: how likely the opponent is to want it, over the hands a search imagined for him.

    >>> from rumino.cards import parse_hand
    >>> from rumino.melds import GIN_MELDS
    >>> hands = np.array([parse_hand("7h 8h Ks Kd 2c"), parse_hand("7c 8d Ks Qd 2c")])
    >>> meld_shares(hands, GIN_MELDS, parse_hand("9h Kc 3d")).tolist()
    [0.5, 0.5, 0.0]
    """
    hands = np.ascontiguousarray(np.atleast_2d(np.asarray(hands, dtype=np.int64)))
    out = np.zeros(len(cards), dtype=np.int64)
    if hands.shape[0] == 0:
        return out.astype(float)
    _meld_counts(hands, rule_tables(rules), np.array(list(cards), dtype=np.int64), out)
    return out / hands.shape[0]


def hand_weights(hands: np.ndarray, rules: MeldRules, play: OpenPlay, habits: Habits = Habits()) -> np.ndarray:
    """The weight of each opponent hand (rows of card ids, -1 padded) given his open play (module docstring)."""
    hands = np.ascontiguousarray(np.atleast_2d(np.asarray(hands, dtype=np.int64)))
    out = np.zeros(hands.shape[0])
    limit = play.knock_limit
    mode = NO_KNOCK_TEST if limit is None else (BEFORE_DRAW if play.knock_before_draw else AFTER_DISCARD)
    ages = np.array(play.ages if play.ages else [0] * len(play.let_go), dtype=float)
    log_let_go = np.log(1.0 - (1.0 - habits.let_go) * habits.decay ** ages)
    _hand_log_weights(hands, rule_tables(rules), np.array(play.let_go, dtype=np.int64), log_let_go,
                      np.array(play.held, dtype=np.int64), np.log(habits.held),
                      np.int64(-1 if play.last_discard is None else play.last_discard), np.log(habits.highest),
                      np.int64(-1 if limit is None else limit), np.int64(mode),
                      np.int64(-1 if play.last_taken is None else play.last_taken), np.log(habits.no_knock), out)
    return np.exp(out)


def resample(weights: np.ndarray, n: int, rng: np.random.Generator) -> np.ndarray:
    """``n`` indices drawn in proportion to ``weights`` (systematic resampling: each world kept about
    ``n × its share`` times, with as little added noise as resampling allows).

    >>> resample(np.array([1.0, 0.0, 3.0]), 4, np.random.default_rng(0)).tolist()
    [0, 2, 2, 2]
    """
    w = np.asarray(weights, dtype=float)
    total = w.sum()
    if not np.isfinite(total) or total <= 0:
        return rng.integers(0, len(w), n)
    edges = np.cumsum(w / total)
    edges[-1] = 1.0
    points = (rng.random() + np.arange(n)) / n
    return np.searchsorted(edges, points, side="right")


__all__ = ["OpenPlay", "Habits", "read_open_play", "hand_weights", "meld_shares", "resample", "RECENT"]
