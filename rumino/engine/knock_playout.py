"""Compiled heads-up playouts of Rumino and Wiener Rummy: greedy against greedy to the end of the hand.

The search player (:mod:`rumino.players.search`) scores a candidate by playing the rest of the hand
with greedy in both seats, in many sampled worlds. Through the engine a Rumino hand costs about a
millisecond; this module plays it in a numba kernel on arrays in a few tens of microseconds, the
decisions card for card those of :class:`~rumino.players.greedy.GreedyPlayer` (Rumino, rules §1) and
of :func:`rumino.variants.wiener.bots.wiener_choice` (Wiener Rummy, rules §5):

* **Rumino**: a seven-card rumino is drawn to and called; a knock at the knock limit or less instead
  of drawing; the top discard taken when it completes a rumino or lowers the deadwood after the best
  discard (never that card, §0.5, unless its twin is held), else the stock; after the draw a rumino is
  called, gin gone with 0 deadwood, else the dearest of the best discards thrown (jokers kept); a
  discard that completes the other hand's rumino is claimed. Scoring (§1.4): every player adds his
  deadwood, gin scores the bonus, a knock at 0 is gin, a rumino ends the hand with nothing scored.
* **Wiener Rummy**: the dealer opens with a discard from eleven; the draw as above; after the draw a
  rummy call at 0 deadwood, a knock at the limit or less, else the discard; after a knock the other
  player draws and discards once more; every player adds his deadwood (§5.4).

The kernel is shared; each game's folder holds its own :class:`KnockPlayouts` (its game and rules classes,
its greedy bot on the engine) and gives it to the search as its row's ``batch_playouts``
(:mod:`rumino.variants.rumino.playout`, :mod:`rumino.variants.wiener.playout`).

Deadwood comes from the engine's own compiled search (:func:`rumino.hand.kernels.deadwood_dfs`, the
same tables). When the stock runs out the discards are shuffled into a new stock as the rules say
(§0.4), in the kernel's own random order (the engine's would differ: a playout that reshuffles is a
fair playout, not the engine's). A position the kernel does not model (more than two players, a
stock rule other than reshuffling, a game or rules class other than the folder's own, a claim or
buy-back pending) is played by the engine, the ``player`` given (the search's rollout bot, greedy) in
both seats. The tests compare both paths on thousands of positions (tests/players/test_playout_knock.py).
"""

from __future__ import annotations

import copy
from collections import Counter
from collections.abc import Sequence
from typing import Callable

import numpy as np

from rumino.cards import JOKER
from rumino.engine.actions import Discard, Draw, Gin, Knock, KnockWith
from rumino.engine.drawdiscard import DrawDiscardGame
from rumino.engine.player import Player
from rumino.engine.protocol import Action, play
from rumino.hand.kernels import T_VALUE, deadwood_dfs, load_rows, rule_tables
from rumino.jit import jit

__all__ = ["KnockPlayouts", "RUMINO", "WIENER", "MAX_HAND", "copy_game", "first_code", "pack"]

# phases, as the kernel numbers them
TURN, DISCARD = 1, 2
# the rules array
(R_GAME, R_LIMIT, R_GIN_GAIN, R_ZERO_GIN, R_NO_REDISCARD, R_BAR_TWIN, R_EXTRA, R_UNDERCUT, R_SET_DISTINCT,
 R_NATURAL_RUMINO, R_SIZE) = range(11)
RUMINO, WIENER = 0, 1
# a first action the caller imposes: none, stock, take the discard, discard, knock (before the draw),
# knock with a card, gin with a card, call (rumino or rummy with a card)
F_NONE, F_STOCK, F_TAKE, F_DISCARD, F_KNOCK, F_KNOCK_WITH, F_GIN, F_CALL = range(8)
# the position array: offsets
S_PHASE, S_TURN, S_FORBIDDEN, S_FIRST, S_FIRST_CARD, S_KNOCKER, S_NPILE, S_PILE = range(8)
MAX_HAND = 15
BIG = np.int64(1 << 30)


def copy_game(game: DrawDiscardGame) -> DrawDiscardGame:
    """A deep copy that shares the rules and the (cached, compiled) evaluator."""
    return copy.deepcopy(game, {id(game._ev): game._ev, id(game.rules): game.rules})


# --------------------------------------------------------------------------- the kernel


@jit(inline=True)
def _put(cnt, rows, c):
    cnt[c] += 1
    if c < 52:
        rows[c // 13] |= 1 << (c % 13)


@jit(inline=True)
def _take(cnt, rows, c):
    cnt[c] -= 1
    if c < 52 and cnt[c] == 0:
        rows[c // 13] &= ~(1 << (c % 13))


@jit
def _dw(cnt, rows, T, banned):
    return deadwood_dfs(cnt, rows, cnt[52], np.int64(0), BIG, np.int64(0), np.int64(0), T, banned)


@jit
def _after_draw(cnt, rows, T, banned, forbidden):
    """Least deadwood kept after one discard, never ``forbidden`` (-1: none barred)."""
    if forbidden >= 0:
        banned[forbidden] = 1
    v = deadwood_dfs(cnt, rows, cnt[52], np.int64(0), BIG, np.int64(0), np.int64(1), T, banned)
    if forbidden >= 0:
        banned[forbidden] = 0
    return v


@jit
def _pick(cnt, rows, T, banned, forbidden, value, order):
    """greedy's discard: the first card of ``order`` (naturals dearest first, then the highest id; the joker
    last) whose discard keeps ``value`` deadwood."""
    for i in range(53):
        c = order[i]
        if cnt[c] == 0 or c == forbidden:
            continue
        _take(cnt, rows, c)
        v = deadwood_dfs(cnt, rows, cnt[52], np.int64(0), np.int64(value + 1), np.int64(value), np.int64(0), T,
                         banned)
        _put(cnt, rows, c)
        if v == value:
            return c
    return -1


@jit
def _rumino_in(cnt, n_cards, distinct, natural_only):
    """Do ``n_cards`` (7 or 8) cards hold a rumino: seven of them a 7-card straight flush (ace low) or seven of a
    kind, jokers standing for any card unless ``natural_only``."""
    J = 0 if natural_only else cnt[52]
    if cnt[52] > 0 and natural_only and n_cards == 7:
        return False
    if J >= 7:
        return True
    for r in range(13):  # seven of a kind
        k = 0
        for s in range(4):
            c = cnt[13 * s + r]
            k += (1 if c > 0 else 0) if distinct else c
        if k + J >= 7:
            return True
    for s in range(4):  # a straight flush in a window of seven ranks
        for lo in range(7):
            k = 0
            for r in range(lo, lo + 7):
                if cnt[13 * s + r] > 0:
                    k += 1
            if k + J >= 7:
                return True
    return False


@jit
def _forbidden_after_take(cnt_before, top, no_rediscard, bar_twin):
    """The card barred after taking ``top`` (§0.5): none if re-discarding is allowed or the twin is held."""
    if no_rediscard == 0:
        return -1
    if bar_twin == 0 and cnt_before[top] > 0:
        return -1
    return top


@jit
def _finish(cnt, rows, T, banned, R, ender, how, out):
    """Score the hand (``how``: 0 knock, 1 gin, 2 rumino, 3 rummy): gains (minus score changes) and who ended it."""
    out[2] = ender
    if how == 2:
        out[0] = 0
        out[1] = 0
        return
    d0 = _dw(cnt[0], rows[0], T, banned)
    d1 = _dw(cnt[1], rows[1], T, banned)
    out[0] = -d0
    out[1] = -d1
    if how == 0 and R[R_ZERO_GIN] == 1 and (d0 if ender == 0 else d1) == 0:
        how = 1
    if how == 1:
        out[ender] = R[R_GIN_GAIN]
    elif how == 0 and R[R_UNDERCUT] > 0:
        mine = d0 if ender == 0 else d1
        other = d1 if ender == 0 else d0
        if other < mine:
            out[ender] -= R[R_UNDERCUT]


@jit
def _run(cnt, rows, stock, ns, pile, npile, phase, turn, forbidden, knocker, first, first_card, R, T, order, banned,
         out):
    """Play the hand from the position in the arrays to its end (see the module docstring); ``out``: the gains
    of both seats and who ended the hand."""
    game = R[R_GAME]
    limit = R[R_LIMIT]
    no_re = R[R_NO_REDISCARD]
    twin = R[R_BAR_TWIN]
    distinct = R[R_SET_DISTINCT] == 1
    natural = R[R_NATURAL_RUMINO] == 1
    size = R[R_SIZE]
    for step in range(100_000):
        p = turn
        q = 1 - p
        forced = first if step == 0 else F_NONE
        if phase == TURN:
            take = False
            if forced == F_KNOCK:
                _finish(cnt, rows, T, banned, R, p, 0, out)
                return
            if forced == F_STOCK or forced == F_TAKE:
                take = forced == F_TAKE
            else:
                can_stock = ns > 0 or npile > 1
                if game == RUMINO and _rumino_in(cnt[p], size, distinct, natural):
                    take = not can_stock  # a rumino in hand: draw anything, then call it
                else:
                    dw = _dw(cnt[p], rows[p], T, banned)
                    if game == RUMINO and dw <= limit:
                        _finish(cnt, rows, T, banned, R, p, 0, out)
                        return
                    if npile == 0:
                        take = False
                    elif not can_stock:
                        take = True
                    else:
                        top = pile[npile - 1]
                        bar = _forbidden_after_take(cnt[p], top, no_re, twin)
                        _put(cnt[p], rows[p], top)
                        if game == RUMINO and _rumino_in(cnt[p], size + 1, distinct, natural):
                            take = True
                        else:
                            take = _after_draw(cnt[p], rows[p], T, banned, bar) < dw
                        _take(cnt[p], rows[p], top)
            if take:
                top = pile[npile - 1]
                forbidden = _forbidden_after_take(cnt[p], top, no_re, twin)
                npile -= 1
                _put(cnt[p], rows[p], top)
            else:
                if ns == 0:  # §0.4: the discards but the top one become a new shuffled stock
                    top = pile[npile - 1]
                    for i in range(npile - 1):
                        stock[i] = pile[i]
                    ns = npile - 1
                    for i in range(ns - 1, 0, -1):
                        j = np.random.randint(0, i + 1)
                        stock[i], stock[j] = stock[j], stock[i]
                    pile[0] = top
                    npile = 1
                ns -= 1
                _put(cnt[p], rows[p], stock[ns])
                forbidden = -1
            phase = DISCARD
            continue
        # the discard phase
        last_round = knocker >= 0
        if forced != F_NONE:
            card = first_card
            if forced == F_CALL and game == RUMINO:
                _finish(cnt, rows, T, banned, R, p, 2, out)
                return
            _take(cnt[p], rows[p], card)
            if forced == F_GIN:
                _finish(cnt, rows, T, banned, R, p, 1, out)
                return
            if forced == F_CALL:
                _finish(cnt, rows, T, banned, R, p, 3, out)
                return
            kind = forced
        else:
            if game == RUMINO and not last_round and _rumino_in(cnt[p], size + 1, distinct, natural):
                _finish(cnt, rows, T, banned, R, p, 2, out)
                return
            value = _after_draw(cnt[p], rows[p], T, banned, forbidden)
            card = _pick(cnt[p], rows[p], T, banned, forbidden, value, order)
            _take(cnt[p], rows[p], card)
            kind = F_DISCARD
            if not last_round:
                if value == 0:
                    _finish(cnt, rows, T, banned, R, p, 1 if game == RUMINO else 3, out)
                    return
                if game == WIENER and value <= limit:
                    kind = F_KNOCK_WITH
        pile[npile] = card
        npile += 1
        forbidden = -1
        if kind == F_KNOCK_WITH:
            knocker = p
            if R[R_EXTRA] == 0:
                _finish(cnt, rows, T, banned, R, p, 0, out)
                return
            turn = q
            phase = TURN
            continue
        if last_round:  # the other player's one more draw and discard is done
            _finish(cnt, rows, T, banned, R, knocker, 0, out)
            return
        if game == RUMINO:  # a discard that completes the other's rumino is claimed (§1.3)
            if not _rumino_in(cnt[q], size, distinct, natural):
                _put(cnt[q], rows[q], card)
                claim = _rumino_in(cnt[q], size + 1, distinct, natural)
                _take(cnt[q], rows[q], card)
                if claim:
                    npile -= 1
                    _put(cnt[q], rows[q], card)
                    _finish(cnt, rows, T, banned, R, q, 2, out)
                    return
        turn = q
        phase = TURN
    out[0] = -BIG  # never reached


@jit
def _run_worlds(hands, stocks, S, R, T, order, seed, out):
    """One playout per world: ``hands[w]`` (2 × k, -1 padded), ``stocks[w]`` (the draw end last)."""
    np.random.seed(seed)
    cnt = np.zeros((2, 53), dtype=np.int64)
    rows = np.zeros((2, 4), dtype=np.int64)
    banned = np.zeros(53, dtype=np.int8)
    total = stocks.shape[1] + S[S_NPILE] + 2 * hands.shape[2] + 1
    stock = np.zeros(total, dtype=np.int64)
    pile = np.zeros(total, dtype=np.int64)
    gains = np.zeros(3, dtype=np.int64)
    for w in range(hands.shape[0]):
        cnt[:, :] = 0
        for p in range(2):
            for i in range(hands.shape[2]):
                c = hands[w, p, i]
                if c >= 0:
                    cnt[p, c] += 1
            load_rows(cnt[p], rows[p])
        for i in range(stocks.shape[1]):
            stock[i] = stocks[w, i]
        for i in range(S[S_NPILE]):
            pile[i] = S[S_PILE + i]
        _run(cnt, rows, stock, stocks.shape[1], pile, S[S_NPILE], S[S_PHASE], S[S_TURN], S[S_FORBIDDEN],
             S[S_KNOCKER], S[S_FIRST], S[S_FIRST_CARD], R, T, order, banned, gains)
        out[w, 0] = gains[0]
        out[w, 1] = gains[1]
        out[w, 2] = gains[2]


# --------------------------------------------------------------------------- the Python side

_ORDERS: dict = {}


def _order(rules) -> np.ndarray:
    """greedy's discard order under ``rules``: naturals dearest first, then the highest id; the joker last."""
    mr = rules.meld_rules
    hit = _ORDERS.get(mr)
    if hit is None:
        values = mr.values
        naturals = sorted(range(52), key=lambda c: (int(values[c]), c), reverse=True)
        hit = _ORDERS[mr] = np.array(naturals + [JOKER], dtype=np.int64)
    return hit


def _rules_array(game, kind: int) -> np.ndarray:
    r = game.rules
    if kind == RUMINO:
        return np.array([RUMINO, r.knock_max_deadwood, -r.gin_bonus, int(r.knock_zero_is_gin),
                         int(not r.may_rediscard_pickup), int(r.pickup_bars_twin), 0, r.knock_undercut_penalty,
                         int(r.set_suits == "distinct"), int(r.rumino_natural_only), game.hand_size], dtype=np.int64)
    return np.array([WIENER, r.knock_max_deadwood, 0, 0, int(not r.may_rediscard_pickup), int(r.pickup_bars_twin),
                     int(r.extra_turn_after_knock), r.knock_undercut_penalty, 0, 0, game.hand_size], dtype=np.int64)


def first_code(game: DrawDiscardGame, first: Action | None) -> tuple[int, int]:
    """``(F_* code, card)`` of an action legal in ``game`` now (the engine's refusal if it is not)."""
    if first is None:
        return F_NONE, -1
    game.check(first)
    kind = type(first)
    if kind is Draw:
        return (F_STOCK if first.source == "stock" else F_TAKE), -1
    if kind is Knock:
        return F_KNOCK, -1
    if kind is Discard:
        return F_DISCARD, int(first.card)
    if kind is KnockWith:
        return F_KNOCK_WITH, int(first.card)
    if kind is Gin:
        return F_GIN, int(first.card)
    return F_CALL, int(getattr(first, "card", -1))  # CallRumino, CallRummy


def pack(game: DrawDiscardGame, first: Action | None = None) -> np.ndarray:
    """The position as the kernel reads it (``S_*`` offsets): everything but the hands and the stock."""
    code, card = first_code(game, first)
    forbidden = game.forbidden() if game.phase == "discard" else None
    knocker = getattr(game, "knocker", None)
    return np.array([TURN if game.phase == "turn" else DISCARD, game.turn, -1 if forbidden is None else forbidden,
                     code, card, -1 if knocker is None else knocker, len(game.discard), *game.discard],
                    dtype=np.int64)


def _hands_array(hands: Sequence[Sequence[int]], width: int = MAX_HAND) -> np.ndarray:
    return np.array([list(h) + [-1] * (width - len(h)) for h in hands], dtype=np.int64)


class KnockPlayouts:
    """One game's compiled heads-up playouts (``kind``: :data:`RUMINO` or :data:`WIENER`) on the shared kernel.

    ``game`` and ``rules``: the game and rules classes the kernel models exactly (a subclass may change the
    rules: the engine plays it); ``player``: makes the bot that plays a position on the engine, in both seats,
    when the caller gives none (None: the caller must give one, where the greedy bot is not the game's own).
    The methods are the folder's ``playouts``, ``sample_worlds`` … (its module binds them).
    """

    def __init__(self, kind: int, game: type, rules: type, player: Callable[[], Player] | None = None):
        self.kind = kind
        self.game = game
        self.rules = rules
        self.player = player

    def _engine_player(self, player: Player | None) -> list:
        if player is not None:
            return [player, player]
        if self.player is None:
            raise ValueError(f"{self.game.NAME}'s playout on the engine needs the player who plays both seats "
                             f"(the greedy player): give player=.")
        return [self.player(), self.player()]

    def python_playout_ended(self, game: DrawDiscardGame, first: Action | None = None,
                             player: Player | None = None) -> tuple[tuple[int, int], int | None]:
        """The hand played out by the engine with greedy in both seats (``player``, else the folder's own; after
        ``first``, a legal action, if given): each seat's gain (minus its score change: penalty points) and the
        seat that ended the hand."""
        g = copy_game(game)
        before = list(g.scores)
        done = len(g.results)
        if first is not None and not g.hand_over:
            g.apply(first)
        play(g, self._engine_player(player), checked=False, until=lambda x: x.hand_over)
        by = g.results[-1].by if len(g.results) > done else None
        return (int(before[0] - g.scores[0]), int(before[1] - g.scores[1])), by

    def supported(self, game: DrawDiscardGame) -> bool:
        """True if the kernel plays this position as the engine would (else the engine plays it)."""
        if type(game) is not self.game or type(game.rules) is not self.rules:
            return False
        if game.n_seats != 2 or len(game.hand_players) != 2 or game.phase not in ("turn", "discard"):
            return False
        return game.rules.stock_exhausted == "reshuffle" and all(len(h) <= MAX_HAND for h in game.hands)

    def _kernel(self, game: DrawDiscardGame, hands: np.ndarray, stocks: np.ndarray, first: Action | None, seed: int) -> np.ndarray:
        out = np.zeros((hands.shape[0], 3), dtype=np.int64)
        _run_worlds(hands, stocks, pack(game, first), _rules_array(game, self.kind),
                    rule_tables(game.rules.meld_rules), _order(game.rules), np.int64(seed), out)
        return out

    def playout_ended(self, game: DrawDiscardGame, first: Action | None = None, *, seed: int = 0,
                      player: Player | None = None) -> tuple[tuple[int, int], int | None]:
        """Each seat's gain when greedy plays the rest of the hand in both seats (``game`` unchanged), and the seat
        that ended it: the engine's answer, compiled when :meth:`supported` (``seed``: a reshuffle's order)."""
        if game.hand_over:
            return (0, 0), None
        if not self.supported(game):
            return self.python_playout_ended(game, first, player)
        out = self._kernel(game, _hands_array(game.hands)[None], np.array(game.stock, dtype=np.int64)[None], first,
                           seed)
        return (int(out[0, 0]), int(out[0, 1])), (None if out[0, 2] < 0 else int(out[0, 2]))

    def playout(self, game: DrawDiscardGame, first: Action | None = None) -> tuple[int, int]:
        """:meth:`playout_ended`'s gains."""
        return self.playout_ended(game, first)[0]

    @staticmethod
    def sample_worlds(game: DrawDiscardGame, n: int, rng: np.random.Generator,
                      known: Sequence[int] = ()) -> tuple[np.ndarray, np.ndarray]:
        """``n`` worlds as the player to act may imagine them, for :meth:`playouts`: ``(hands, stocks)``; the cards
        ``known`` to be in the other hand (taken face up and kept) stay there, the rest of it and the stock are
        dealt again from the cards the player to act has not seen (two decks: a card may be there twice)."""
        me = game.to_act
        opp = game.hands[1 - me]
        spare = Counter(opp)
        spare.subtract(Counter(int(c) for c in known))
        if min(spare.values(), default=0) < 0:
            raise ValueError("the known cards must be in the opponent's hand.")
        free = np.array(sorted(list(spare.elements()) + list(game.stock)), dtype=np.int64)
        k = len(opp) - len(known)
        hands = np.full((n, 2, MAX_HAND), -1, dtype=np.int64)
        hands[:, me, :len(game.hands[me])] = game.hands[me]
        hands[:, 1 - me, :len(known)] = list(known)
        stocks = np.empty((n, len(game.stock)), dtype=np.int64)
        for w in range(n):
            perm = rng.permutation(free)
            hands[w, 1 - me, len(known):len(opp)] = perm[:k]
            stocks[w] = perm[k:]
        return hands, stocks

    def playouts(self, game: DrawDiscardGame, stocks: np.ndarray, hands: np.ndarray | None = None, first: Action | None = None, *, ended_by: bool = False,
                 seed: int = 0, check: bool = True, player: Player | None = None) -> np.ndarray:
        """Many worlds of one position in one kernel call: gains ``(n, 2)`` (``ended_by``: ``(n, 3)``, the third
        column the seat that ended the hand). ``stocks`` ``(n, len(game.stock))``, ``hands`` ``(n, 2, k)`` or None
        (the game's own); each world must hold the game's cards (``check``: see that they do); ``first``: a legal
        action played first; ``player``: the bot in both seats where the engine plays (:meth:`supported`)."""
        stocks = np.ascontiguousarray(stocks, dtype=np.int64)
        n = stocks.shape[0]
        if stocks.ndim != 2 or stocks.shape[1] != len(game.stock):
            raise ValueError(f"stocks must have shape (n, {len(game.stock)}); got {stocks.shape}.")
        if hands is None:
            hands = np.broadcast_to(_hands_array(game.hands), (n, 2, MAX_HAND))
        hands = np.ascontiguousarray(hands, dtype=np.int64)
        if hands.ndim != 3 or hands.shape[:2] != (n, 2) or hands.shape[2] > MAX_HAND:
            raise ValueError(f"hands must have shape ({n}, 2, k ≤ {MAX_HAND}); got {hands.shape}.")
        expected = Counter(c for h in game.hands for c in h) + Counter(game.stock)
        for w in range(n if check else 0):  # (the search's own worlds are dealt right: it skips the check)
            got = Counter(int(c) for c in hands[w].ravel() if c >= 0) + Counter(int(c) for c in stocks[w])
            if got != expected:
                raise ValueError(f"world {w} does not hold the hidden cards of the game (the hands and the stock).")
        width = 3 if ended_by else 2
        if game.hand_over:
            out = np.zeros((n, 3), dtype=np.int64)
            out[:, 2] = -1
            return out[:, :width]
        if not self.supported(game):
            out = np.zeros((n, 3), dtype=np.int64)
            for w in range(n):
                g = copy_game(game)
                g.hands = [[int(c) for c in hands[w, p] if c >= 0] for p in range(2)]
                g.stock = [int(c) for c in stocks[w]]
                g.after_hidden_dealt()
                gains, by = self.python_playout_ended(g, first, player)
                out[w] = (*gains, -1 if by is None else by)
            return out[:, :width]
        return self._kernel(game, hands, stocks, first, seed)[:, :width]

    def search_playouts(self, game: DrawDiscardGame, stocks: np.ndarray, hands: np.ndarray, first: Action | None = None, *, ended_by: bool = False,
                        player: Player | None = None) -> np.ndarray:
        """:meth:`playouts` as the search calls it, on worlds it dealt itself (no check of the cards)."""
        return self.playouts(game, stocks, hands, first, ended_by=ended_by, check=False, player=player)
