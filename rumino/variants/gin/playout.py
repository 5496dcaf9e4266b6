"""A compiled Gin Rummy playout: greedy against greedy to the end of the hand (rules §6).

The search player (:mod:`rumino.players.search`) scores a candidate action by
playing the rest of the hand out with :class:`~rumino.players.greedy.GreedyPlayer`
in both seats (in Gin: its Gin decisions, :func:`~rumino.variants.gin.bots.choose_gin`, which
:class:`Greedy` plays here), in many sampled worlds. Through the engine one such playout
costs about 300 µs (bench/bench_search.py); this module plays the same hand in a
numba kernel on arrays in about 20 µs, card for card the decisions of
:func:`rumino.variants.gin.bots.choose_gin`:

* the upcard offer and the draw: take the top discard when, after the best
  discard (never that card, rules §0.5), it leaves less deadwood than the hand
  has now; else pass, or draw from the stock (only the stock after both passed);
* after the draw: gin at 0 deadwood, knock at ``knock_max_deadwood`` or less,
  else discard the dearest of the best discards (ties: the highest card id);
* the wall (``wall_knock``): take the discard only to knock; the hand is void
  when ``void_at_stock`` cards remain after a discard;
* the score: the knocker shows, among his arrangements of least deadwood, the
  one that leaves the defender most after the best lay-offs (G3, G4); gin and
  undercut bonuses as :func:`rumino.engine.scoring.difference_score` gives them.

Deadwood comes from the engine's own compiled search
(:func:`rumino.hand.kernels.deadwood_dfs`, the same tables), so both paths ask
the same questions of the same code. :func:`playout` returns each seat's score
change for the hand, as :func:`rumino.tournament.hands.play_hand` reads gains;
the game passed in is never changed. A position the kernel does not model (a
game class or meld rules other than Gin's, no numba) is played by the Python engine instead, so the answer is always the
engine's. The tests compare both paths on thousands of positions
(tests/players/test_playout_gin.py; ``python tests/players/test_playout_gin.py
20000`` runs the long comparison).

>>> from rumino.playing.seeding import new_table
>>> game, _ = new_table("gin", ["greedy", "greedy"], seed=1, index=0, dealer=1)
>>> playout(game), python_playout(game)
((0, 26), (0, 26))
>>> from rumino.variants.gin import PASS
>>> playout(game, first=PASS) == python_playout(game, first=PASS)
True
>>> import numpy as np
>>> worlds = np.array([game.stock, game.stock[::-1]])
>>> playouts(game, stocks=worlds).tolist()[0]
[0, 26]
"""

from __future__ import annotations

import copy
from collections.abc import Sequence

import numpy as np

from rumino.engine.actions import Discard, Draw, Gin, KnockWith
from rumino.engine.player import Player
from rumino.engine.protocol import Action, play
from rumino.melds import GIN_MELDS
from rumino.variants.gin.bots import choose_gin
from rumino.variants.gin.game import GinGame, GinRules, GinView, Pass

try:  # numba: the engine's evaluator needs it too; without it every playout goes through the engine
    from rumino.hand.kernels import T_VALUE, deadwood_dfs, load_rows, rule_tables
    from rumino.jit import jit
    _COMPILED = True
except ImportError:  # pragma: no cover - numba is a requirement of the package
    _COMPILED = False

__all__ = ["playout", "playout_ended", "playouts", "sample_worlds", "python_playout", "python_playout_ended",
           "supported", "kernel_position", "run_playouts", "checked_worlds", "engine_playouts", "no_gains", "pack",
           "first_code", "copy_game", "Greedy"]

# phases, as the kernel numbers them
OFFER, TURN, DISCARD, WALL = 0, 1, 2, 3
PHASES = {"offer": OFFER, "turn": TURN, "discard": DISCARD, "wall": WALL}
# the rules array: knock limit, gin bonus, undercut bonus, void at, wall knock, may rediscard the pickup
R_KNOCK, R_GIN, R_UNDERCUT, R_VOID, R_WALL, R_REDISCARD, R_PLAIN = range(7)
N_RULES = 7
# a first action the caller imposes (the search's candidate): none, draw stock, take the discard, pass,
# discard, knock or gin with a card
F_NONE, F_STOCK, F_TAKE, F_PASS, F_DISCARD, F_KNOCK, F_GIN = range(7)
# the position array (pack): offsets
S_PHASE, S_TURN, S_DEALER, S_PASSED, S_OFFER_LEFT, S_FORBIDDEN, S_FIRST, S_FIRST_CARD = range(8)
S_RULES, S_NPILE, S_PILE = 8, 8 + N_RULES, 9 + N_RULES
MAX_HAND = 11
BIG = np.int64(1 << 30)


# --------------------------------------------------------------------------- the Python engine (the reference)


def copy_game(game: GinGame) -> GinGame:
    """A deep copy that shares the rules and the (cached, compiled) evaluator."""
    return copy.deepcopy(game, {id(game._ev): game._ev, id(game.rules): game.rules})


class Greedy(Player):
    """The greedy bot of a Gin table (:class:`~rumino.players.greedy.GreedyPlayer` hands a Gin view to
    :func:`~rumino.variants.gin.bots.choose_gin`, knocking at the rules' limit): the engine's side of the
    comparison, played without the players' layer."""

    kind = "greedy"

    def knock_at(self, view: GinView) -> int:
        return view.knock_limit

    def choose(self, view: GinView) -> Action:
        return choose_gin(self, view)


def python_playout_ended(game: GinGame, first: Action | None = None,
                         player: Player | None = None) -> tuple[tuple[int, int], int | None]:
    """The hand played out by the engine with two greedy bots (:class:`Greedy`, or ``player`` in both seats;
    after ``first``, if given, a legal action): each seat's score change, and the seat that ended the hand
    (None: nobody)."""
    g = copy_game(game)
    before = list(g.scores)
    done = len(g.results)
    if first is not None and not g.hand_over:
        g.apply(first)
    play(g, [Greedy(), Greedy()] if player is None else [player, player], checked=False,
         until=lambda x: x.hand_over)
    by = g.results[-1].by if len(g.results) > done else None
    return (int(g.scores[0] - before[0]), int(g.scores[1] - before[1])), by


def python_playout(game: GinGame, first: Action | None = None) -> tuple[int, int]:
    """The hand played out by the engine with two greedy bots (after ``first``, if given, a legal
    action): each seat's score change."""
    return python_playout_ended(game, first)[0]


# --------------------------------------------------------------------------- the kernel

if _COMPILED:
    @jit(inline=True)
    def _put(cnt, rows, card, k):
        """Add ``k`` copies of ``card`` to a count vector and its suit rows (the kernels' layout)."""
        cnt[card] += k
        rows[card // 13] |= 1 << (card % 13)

    @jit(inline=True)
    def _take(cnt, rows, card, k):
        """Take ``k`` copies of ``card`` away (the row bit goes with the last one)."""
        cnt[card] -= k
        if cnt[card] == 0:
            rows[card // 13] &= ~(1 << (card % 13))

    @jit
    def _dw(cnt, rows, T, banned, bound):
        """Least deadwood of the cards in ``cnt`` (exact if below ``bound``, else ``bound``)."""
        return deadwood_dfs(cnt, rows, np.int64(0), np.int64(0), np.int64(bound), np.int64(0), np.int64(0),
                            T, banned)

    @jit
    def _after_draw(cnt, rows, T, banned, forbidden, bound):
        """Least deadwood kept after one discard (never ``forbidden``; -1: none barred), exact below ``bound``."""
        if forbidden >= 0:
            banned[forbidden] = 1
        v = deadwood_dfs(cnt, rows, np.int64(0), np.int64(0), np.int64(bound), np.int64(0), np.int64(1), T, banned)
        if forbidden >= 0:
            banned[forbidden] = 0
        return v

    @jit
    def _pick(cnt, rows, T, banned, forbidden, value, order):
        """greedy's discard: the dearest card (then the highest id) whose discard keeps ``value`` deadwood."""
        for i in range(52):
            c = order[i]
            if cnt[c] == 0 or c == forbidden:
                continue
            _take(cnt, rows, c, np.int64(1))
            v = deadwood_dfs(cnt, rows, np.int64(0), np.int64(0), np.int64(value + 1), np.int64(value),
                             np.int64(0), T, banned)
            _put(cnt, rows, c, np.int64(1))
            if v == value:
                return c
        return -1

    @jit
    def _mask_dw(mask, T, banned, bound, cnt, rows):
        """Least deadwood of the cards of a 52-bit mask (``cnt``, ``rows``: scratch)."""
        for c in range(53):
            cnt[c] = 0
        for c in range(52):
            if (mask >> c) & 1:
                cnt[c] = 1
        load_rows(cnt, rows)
        return _dw(cnt, rows, T, banned, bound)

    @jit
    def _melds(mask, out, kind, lo, hi):
        """Every Gin meld within ``mask`` (the melds of :func:`rumino.variants.gin.gin_melds`): runs of 3+
        in a suit, ace low, every sub-run of a longer one; sets of 3, and of 4 with their four 3-subsets.
        ``kind`` 0 run (suit ``lo//13``, cards ``lo..hi``), 1 set (``lo`` the rank). Returns the count."""
        n = 0
        for s in range(4):
            row = (mask >> (13 * s)) & 0x1FFF
            r = 0
            while r < 13:
                if not (row >> r) & 1:
                    r += 1
                    continue
                end = r
                while end + 1 < 13 and (row >> (end + 1)) & 1:
                    end += 1
                for a in range(r, end - 1):
                    for b in range(a + 2, end + 1):
                        out[n] = ((np.int64(1) << (b - a + 1)) - 1) << (13 * s + a)
                        kind[n], lo[n], hi[n] = 0, 13 * s + a, 13 * s + b
                        n += 1
                r = end + 1
        for rank in range(13):
            k = 0
            m = np.int64(0)
            for s in range(4):
                if (mask >> (13 * s + rank)) & 1:
                    k += 1
                    m |= np.int64(1) << (13 * s + rank)
            if k == 4:
                out[n], kind[n], lo[n], hi[n] = m, 1, rank, 4
                n += 1
                for s in range(4):
                    out[n], kind[n], lo[n], hi[n] = m & ~(np.int64(1) << (13 * s + rank)), 1, rank, 3
                    n += 1
            elif k == 3:
                out[n], kind[n], lo[n], hi[n] = m, 1, rank, 3
                n += 1
        return n

    @jit
    def _options(j, mask, kind, lo, hi, D, opts):
        """The lay-offs of the defender's cards ``D`` onto meld ``j`` (G4, as
        :func:`rumino.variants.gin.layoff_options`), as masks into ``opts``; returns their number."""
        if kind[j] == 1:
            opts[0] = 0
            if hi[j] >= 4:
                return 1
            rank = lo[j]
            n = 1
            for s in range(4):
                c = 13 * s + rank
                if not (mask[j] >> c) & 1 and (D >> c) & 1:
                    opts[n] = np.int64(1) << c
                    n += 1
            return n
        base = (lo[j] // 13) * 13
        below = np.zeros(14, dtype=np.int64)
        above = np.zeros(14, dtype=np.int64)
        nb = 1
        c = lo[j] - 1
        while c >= base and (D >> c) & 1:
            below[nb] = below[nb - 1] | (np.int64(1) << c)
            nb += 1
            c -= 1
        na = 1
        c = hi[j] + 1
        while c <= base + 12 and (D >> c) & 1:
            above[na] = above[na - 1] | (np.int64(1) << c)
            na += 1
            c += 1
        n = 0
        for a in range(nb):
            for b in range(na):
                opts[n] = below[a] | above[b]
                n += 1
        return n

    @jit
    def _lay(na, opts, nopt, D, best, T, banned, cnt, rows):
        """Least deadwood of the defender over every choice of one lay-off option a meld (options of
        different melds disjoint): an odometer over the options, as ``itertools.product``."""
        idx = np.zeros(na + 1, dtype=np.int64)
        while True:
            laid = np.int64(0)
            ok = True
            for k in range(na):
                m = opts[k, idx[k]]
                if m & laid:
                    ok = False
                    break
                laid |= m
            if ok and laid != 0:
                v = _mask_dw(D & ~laid, T, banned, best, cnt, rows)
                if v < best:
                    best = v
            k = 0
            while k < na:
                idx[k] += 1
                if idx[k] < nopt[k]:
                    break
                idx[k] = 0
                k += 1
            if k >= na:
                return best

    @jit
    def _arrangements(n, melds, kind, lo, hi, worth, target, D, dd0, T, banned, cnt, rows):
        """The most deadwood the defender keeps after his best lay-offs, over every set of disjoint melds
        that covers ``target`` points (the knocker's arrangements of least deadwood, G3): a depth-first
        walk over the sets of disjoint melds, each set once, as :func:`rumino.variants.gin.best_arrangements`."""
        best = np.int64(-1)
        chosen = np.zeros(12, dtype=np.int64)
        nxt = np.zeros(13, dtype=np.int64)
        used = np.zeros(13, dtype=np.int64)
        cov = np.zeros(13, dtype=np.int64)
        opts = np.zeros((12, 200), dtype=np.int64)
        nopt = np.zeros(12, dtype=np.int64)
        depth = 0
        while depth >= 0:
            if cov[depth] == target:
                for k in range(depth):
                    nopt[k] = _options(chosen[k], melds, kind, lo, hi, D, opts[k])
                v = _lay(depth, opts, nopt, D, dd0, T, banned, cnt, rows)
                if v > best:
                    best = v
                if best >= dd0:  # no arrangement leaves more than the defender's own deadwood
                    return best
                depth -= 1
                continue
            j = nxt[depth]
            while j < n and melds[j] & used[depth]:
                j += 1
            if j >= n:
                depth -= 1
                continue
            nxt[depth] = j + 1
            chosen[depth] = j
            used[depth + 1] = used[depth] | melds[j]
            cov[depth + 1] = cov[depth] + worth[j]
            nxt[depth + 1] = j + 1
            depth += 1
        return best

    @jit
    def _defender_after_layoffs(K, kd, D, dd0, T, banned, cnt, rows):
        """The defender's deadwood after a knock (G3, G4): ``K`` the knocker's ten cards (``kd`` deadwood),
        ``D`` the defender's (``dd0`` deadwood)."""
        melds = np.zeros(128, dtype=np.int64)
        kind = np.zeros(128, dtype=np.int64)
        lo = np.zeros(128, dtype=np.int64)
        hi = np.zeros(128, dtype=np.int64)
        n = _melds(K, melds, kind, lo, hi)
        # a card that could be laid off at all: next to a run's end, or the fourth of a set
        reach = np.int64(0)
        for j in range(n):
            if kind[j] == 1:
                if hi[j] == 3:
                    for s in range(4):
                        c = 13 * s + lo[j]
                        if not (melds[j] >> c) & 1:
                            reach |= np.int64(1) << c
            else:
                if lo[j] % 13 > 0:
                    reach |= np.int64(1) << (lo[j] - 1)
                if hi[j] % 13 < 12:
                    reach |= np.int64(1) << (hi[j] + 1)
        if reach & D == 0:
            return dd0
        worth = np.zeros(n, dtype=np.int64)
        total = 0
        for c in range(52):
            if (K >> c) & 1:
                total += T[T_VALUE + c]
        for j in range(n):
            w = 0
            for c in range(52):
                if (melds[j] >> c) & 1:
                    w += T[T_VALUE + c]
            worth[j] = w
        return _arrangements(n, melds, kind, lo, hi, worth, np.int64(total - kd), D, dd0, T, banned, cnt, rows)

    @jit
    def _score(cnt, p, kd, gin, dw_def, R, T, banned, scratch_cnt, scratch_rows, out):
        """The gains of a hand that ``p`` ended by knocking (``kd`` deadwood) or going gin, and ``p``."""
        d = 1 - p
        K = np.int64(0)
        D = np.int64(0)
        for c in range(52):
            if cnt[p, c]:
                K |= np.int64(1) << c
            if cnt[d, c]:
                D |= np.int64(1) << c
        if gin:
            dd = dw_def  # no lay-offs after gin (G4)
        else:
            dd = _defender_after_layoffs(K, kd, D, dw_def, T, banned, scratch_cnt, scratch_rows)
        diff = dd - kd
        out[0] = 0
        out[1] = 0
        out[2] = p
        if gin:
            out[p] = diff + R[R_GIN]
        elif diff > 0:
            out[p] = diff
        else:
            out[d] = -diff + R[R_UNDERCUT]

    @jit
    def _run(cnt, rows, stock, ns, pile, npile, phase, turn, dealer, passed, offer_left, forbidden,
             first, first_card, R, T, order, banned, scratch_cnt, scratch_rows, out):
        """Play the hand to its end from the position in the arrays, the first decision ``first``
        (``F_*``, 0: greedy's own) with ``first_card``; the gains and the seat that ended the hand
        (-1: nobody, a void hand) go to ``out`` (3)."""
        dw = np.zeros(2, dtype=np.int64)
        for p in range(2):
            if not (phase == DISCARD and p == turn):
                dw[p] = _dw(cnt[p], rows[p], T, banned, BIG)
        known = np.int64(-1)  # the value after the draw, when the draw decision already found it
        limit = R[R_KNOCK]
        no_rediscard = R[R_REDISCARD] == 0
        out[0] = 0
        out[1] = 0
        out[2] = -1  # who ended the hand: nobody yet (a void hand stays so)
        for step in range(10_000):
            p = turn
            forced = first if step == 0 else 0
            if phase == OFFER or phase == TURN or phase == WALL:
                top = pile[npile - 1]
                v = np.int64(-1)
                if forced != 0:
                    take = forced == F_TAKE
                elif phase == TURN and passed == 2:
                    take = False
                elif phase != WALL and p == R[R_PLAIN]:
                    # a plain player: the card only if it melds with his hand, or lets him knock
                    bar = top if no_rediscard else np.int64(-1)
                    _put(cnt[p], rows[p], top, np.int64(1))
                    take = _dw(cnt[p], rows[p], T, banned, BIG) < dw[p] + T[T_VALUE + top]
                    if not take:
                        take = _after_draw(cnt[p], rows[p], T, banned, bar, limit + 1) <= limit
                    _take(cnt[p], rows[p], top, np.int64(1))
                    v = np.int64(-1)  # the discard phase works out the value again
                else:
                    bar = top if no_rediscard else np.int64(-1)
                    bound = limit + 1 if phase == WALL else dw[p]
                    _put(cnt[p], rows[p], top, np.int64(1))
                    v = _after_draw(cnt[p], rows[p], T, banned, bar, bound)
                    _take(cnt[p], rows[p], top, np.int64(1))
                    take = v < bound
                if take:
                    npile -= 1
                    _put(cnt[p], rows[p], top, np.int64(1))
                    forbidden = top if no_rediscard else np.int64(-1)
                    known = v  # exact when greedy took it (below its bound); -1 after a forced take
                    # (taken at the wall, it must knock: greedy took it only with the value within the limit,
                    # so it knocks anyway; the engine's must_knock needs no state here)
                    phase = DISCARD
                elif phase == OFFER:  # pass: the other player is offered the upcard, then the stock
                    passed += 1
                    offer_left -= 1
                    if offer_left > 0:
                        turn = 1 - turn
                    else:
                        turn = 1 - dealer
                        phase = TURN
                elif phase == WALL:  # nobody knocked at the wall: void
                    return
                else:
                    ns -= 1
                    _put(cnt[p], rows[p], stock[ns], np.int64(1))
                    forbidden = -1
                    known = -1
                    phase = DISCARD
                continue
            # the discard phase: gin, knock or discard
            if forced != 0:
                card = first_card
                _take(cnt[p], rows[p], card, np.int64(1))
                value = _dw(cnt[p], rows[p], T, banned, BIG)
                if forced == F_GIN or forced == F_KNOCK:
                    _score(cnt, p, value, forced == F_GIN, dw[1 - p], R, T, banned, scratch_cnt, scratch_rows,
                           out)
                    return
            else:
                value = known if known >= 0 else _after_draw(cnt[p], rows[p], T, banned, forbidden, BIG)
                card = _pick(cnt[p], rows[p], T, banned, forbidden, value, order)
                _take(cnt[p], rows[p], card, np.int64(1))
                if value == 0 or value <= limit:
                    _score(cnt, p, value, value == 0, dw[1 - p], R, T, banned, scratch_cnt, scratch_rows, out)
                    return
            known = -1
            pile[npile] = card
            npile += 1
            dw[p] = value
            passed = 0
            forbidden = -1
            if ns <= R[R_VOID]:
                if R[R_WALL] == 0:
                    return  # the hand is void (G6)
                phase = WALL
            else:
                phase = TURN
            turn = 1 - p
        out[0] = -BIG  # never reached: a hand of Gin has at most 52 draws

    @jit
    def _run_worlds(hands, stocks, S, T, order, out):
        """One playout per world: ``hands[w]`` (2 × k, -1 padded), ``stocks[w]`` (draw end last), the rest
        of the position in ``S`` (the layout of :func:`pack`); ``out[w]``: the gains and who ended it."""
        cnt = np.zeros((2, 53), dtype=np.int64)
        rows = np.zeros((2, 4), dtype=np.int64)
        banned = np.zeros(53, dtype=np.int8)
        scratch_cnt = np.zeros(53, dtype=np.int64)
        scratch_rows = np.zeros(4, dtype=np.int64)
        stock = np.zeros(stocks.shape[1], dtype=np.int64)
        pile = np.zeros(53, dtype=np.int64)
        gains = np.zeros(3, dtype=np.int64)
        R = S[S_RULES:S_RULES + N_RULES].copy()
        npile0 = S[S_NPILE]
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
            for i in range(npile0):
                pile[i] = S[S_PILE + i]
            _run(cnt, rows, stock, stocks.shape[1], pile, npile0, S[S_PHASE], S[S_TURN], S[S_DEALER], S[S_PASSED],
                 S[S_OFFER_LEFT], S[S_FORBIDDEN], S[S_FIRST], S[S_FIRST_CARD], R, T, order, banned,
                 scratch_cnt, scratch_rows, gains)
            out[w, 0] = gains[0]
            out[w, 1] = gains[1]
            out[w, 2] = gains[2]

    # greedy's discard order: the dearest card first, then the highest id (pick_discard)
    _ORDER = np.array(sorted(range(52), key=lambda c: (int(GIN_MELDS.values[c]), c), reverse=True), dtype=np.int64)


# --------------------------------------------------------------------------- the Python side


def kernel_position(game: GinGame) -> bool:
    """True if the kernel models this position of a Gin-like game: compiled, two seats, Gin's melds, a
    phase it knows and hands of at most 11 cards. Which classes it plays exactly is :func:`supported`'s
    (and a house game's own playout module's: :mod:`rumino.variants.oklahoma.playout`)."""
    return (_COMPILED and game.n_seats == 2 and game.rules.meld_rules is GIN_MELDS and game.phase in PHASES
            and all(len(h) <= MAX_HAND for h in game.hands))


def supported(game: object) -> bool:
    """True if the kernel plays this position exactly as the engine would (else the engine plays it):
    Gin's own class and rules, not a house game standing on them (its differences are its own folder's)."""
    return type(game) is GinGame and type(game.rules) is GinRules and kernel_position(game)


def pack(game: GinGame, first: Action | None = None, plain: int = -1, knock_limit: int | None = None) -> np.ndarray:
    """The position as the kernel reads it, one int64 array (``S_*`` offsets): phase, whose turn, the
    dealer, the upcard offer, the card that may not be discarded, the first action, the rules' knobs
    (``knock_limit``: the hand's own in place of the rules', as Oklahoma's upcard sets it)
    and the discard pile — everything but the hands and the stock, which vary by world."""
    r = game.rules
    forbidden = game.forbidden() if game.phase == "discard" else None
    code, card = first_code(game, first)
    return np.array([PHASES[game.phase], game.to_act, game.dealer, game.passed, len(game.offer_queue),
                     -1 if forbidden is None else forbidden, code, card,
                     r.knock_max_deadwood if knock_limit is None else knock_limit, r.gin_bonus, r.undercut_bonus, r.void_at_stock, int(r.wall_knock),
                     int(r.may_rediscard_pickup), plain, len(game.discard), *game.discard], dtype=np.int64)


def _hands_array(hands: Sequence[Sequence[int]]) -> np.ndarray:
    return np.array([list(h) + [-1] * (MAX_HAND - len(h)) for h in hands], dtype=np.int64)


def first_code(game: GinGame, first: Action | None) -> tuple[int, int]:
    """``(F_* code, card)`` of an action legal in ``game`` now (raises the engine's refusal if it is not)."""
    if first is None:
        return F_NONE, -1
    game.check(first)  # IllegalActionError, naming the rule, for an action not legal here
    kind = type(first)
    if kind is Draw:
        return (F_STOCK if first.source == "stock" else F_TAKE), -1
    if kind is Pass:
        return F_PASS, -1
    return {Discard: F_DISCARD, KnockWith: F_KNOCK, Gin: F_GIN}[kind], int(first.card)


def _kernel(game: GinGame, hands: np.ndarray, stocks: np.ndarray, first: Action | None, plain: int = -1,
            knock_limit: int | None = None) -> np.ndarray:
    out = np.zeros((hands.shape[0], 3), dtype=np.int64)
    _run_worlds(hands, stocks, pack(game, first, plain, knock_limit), rule_tables(GIN_MELDS), _ORDER, out)
    return out


def playout(game: GinGame, first: Action | None = None) -> tuple[int, int]:
    """Each seat's score change when greedy plays the rest of the hand in both seats (``game`` unchanged).

    ``first``: an action legal now, played before greedy takes over (the search's candidate).
    The same answer as :func:`python_playout`; compiled when :func:`supported`, else the engine's.
    A position whose hand is over gains nothing: ``(0, 0)``.
    """
    return playout_ended(game, first)[0]


def playout_ended(game: GinGame, first: Action | None = None) -> tuple[tuple[int, int], int | None]:
    """:func:`playout`'s gains and the seat that ended the hand (None: nobody, a void hand), which
    breaks a tie of gains (:func:`rumino.engine.scoring.rank_seats`): a gin worth 0 points."""
    if game.hand_over:
        return (0, 0), None
    if not supported(game):
        return python_playout_ended(game, first)
    out = _kernel(game, _hands_array(game.hands)[None], np.array(game.stock, dtype=np.int64)[None], first)
    return (int(out[0, 0]), int(out[0, 1])), (None if out[0, 2] < 0 else int(out[0, 2]))


def sample_worlds(game: GinGame, n: int, rng: np.random.Generator,
                  known: Sequence[int] = ()) -> tuple[np.ndarray, np.ndarray]:
    """``n`` worlds as the player to act may imagine them, for :func:`playouts`: ``(hands, stocks)``.

    The opponent's hand and the stock are dealt again from the cards the player to act has not
    seen, uniformly, except the cards ``known`` to be in the opponent's hand (taken from the
    discard pile and not let go since), which stay there.

    >>> from rumino.playing.seeding import new_table
    >>> game, _ = new_table("gin", ["greedy", "greedy"], seed=1, index=0, dealer=1)
    >>> hands, stocks = sample_worlds(game, 4, np.random.default_rng(0))
    >>> hands.shape, stocks.shape, playouts(game, stocks, hands).shape
    ((4, 2, 11), (4, 31), (4, 2))
    """
    me = game.to_act
    opp = game.hands[1 - me]
    known = [int(c) for c in known]
    if not set(known) <= set(opp):
        raise ValueError("the known cards must be in the opponent's hand.")
    # pooled and sorted before the shuffle: the worlds depend on which cards are hidden, never on where
    free = np.array(sorted([c for c in opp if c not in known] + list(game.stock)), dtype=np.int64)
    k = len(opp) - len(known)
    hands = np.full((n, 2, MAX_HAND), -1, dtype=np.int64)
    hands[:, me, :len(game.hands[me])] = game.hands[me]
    hands[:, 1 - me, :len(known)] = known
    stocks = np.empty((n, len(game.stock)), dtype=np.int64)
    for w in range(n):
        perm = rng.permutation(free)
        hands[w, 1 - me, len(known):len(opp)] = perm[:k]
        stocks[w] = perm[k:]
    return hands, stocks


def playouts(game: GinGame, stocks: np.ndarray | Sequence[Sequence[int]], hands: np.ndarray | None = None,
             first: Action | None = None, *, ended_by: bool = False, plain: int | None = None,
             player: Player | None = None) -> np.ndarray:
    """Many worlds of one position in one kernel call: an int array ``(n, 2)`` of gains (``ended_by``:
    ``(n, 3)``, the third column the seat that ended the hand, -1 for nobody).

    ``stocks`` is ``(n, len(game.stock))``, each row a stock order with the draw end last, as
    ``game.stock``; ``hands`` is ``None`` (the game's hands in every world) or ``(n, 2, k)`` card ids
    padded with -1, each row both seats' hands. Everything else (the discard pile, phase, whose turn,
    the card just taken, the rules) is the game's. Each world must hold every card once. ``first``:
    an action legal in ``game``, played first in every world (then the player to act must hold the
    game's own hand in every world, as a determinized search keeps it). ``plain``: a seat played as a
    plain player rather than greedy — it takes the top discard only when the card melds with its hand
    or lets it knock (OpenSpiel's simple bot, and most people); its other decisions are greedy's. The
    engine has no such player: the kernel alone plays it (a position the kernel does not model is the
    engine's, greedy in both seats: :class:`Greedy`, or ``player``, the search's rollout bot).
    """
    return run_playouts(game, stocks, hands, first, ended_by=ended_by, plain=plain, player=player,
                        compiled=supported(game))


def run_playouts(game: GinGame, stocks: np.ndarray | Sequence[Sequence[int]], hands: np.ndarray | None,
                 first: Action | None, *, ended_by: bool, plain: int | None,
                 player: Player | None, compiled: bool, knock_limit: int | None = None,
                 factor: int = 1) -> np.ndarray:
    """:func:`playouts` for Gin and the house games on its kernel: the worlds checked, a finished hand's
    nothing, the engine where ``compiled`` is false, else the kernel at ``knock_limit`` (None: the rules')
    with the gains multiplied by ``factor`` (Oklahoma's spade doubling)."""
    stocks, hands = checked_worlds(game, stocks, hands, first)
    width = 3 if ended_by else 2
    if game.hand_over:
        return no_gains(len(stocks))[:, :width]
    if not compiled:
        return engine_playouts(game, stocks, hands, first, player)[:, :width]
    out = _kernel(game, hands, stocks, first, -1 if plain is None else plain, knock_limit)
    out[:, :2] *= factor
    return out[:, :width]


def checked_worlds(game: GinGame, stocks: np.ndarray | Sequence[Sequence[int]],
                   hands: np.ndarray | None = None, first: Action | None = None) -> tuple[np.ndarray, np.ndarray]:
    """``(stocks, hands)`` as int64 arrays (``hands`` None: the game's in every world), after checking what
    :func:`playouts` asks of them; a ValueError names the world or the shape that is wrong."""
    stocks = np.ascontiguousarray(stocks, dtype=np.int64)
    n = stocks.shape[0]
    if stocks.ndim != 2 or stocks.shape[1] != len(game.stock):
        raise ValueError(f"stocks must have shape (n, {len(game.stock)}); got {stocks.shape}.")
    if hands is None:
        hands = np.broadcast_to(_hands_array(game.hands), (n, 2, MAX_HAND))
    hands = np.ascontiguousarray(hands, dtype=np.int64)
    if hands.ndim != 3 or hands.shape[:2] != (n, 2) or hands.shape[2] > MAX_HAND:
        raise ValueError(f"hands must have shape ({n}, 2, k ≤ {MAX_HAND}); got {hands.shape}.")
    sizes = [len(h) for h in game.hands]
    counts = np.zeros((n, 53), dtype=np.int64)
    for p in range(2):
        if not ((hands[:, p] >= 0).sum(axis=1) == sizes[p]).all():
            raise ValueError(f"every world must give seat {p} {sizes[p]} cards, as the game does.")
        np.add.at(counts, (np.arange(n)[:, None], np.where(hands[:, p] >= 0, hands[:, p], 52)), 1)
    np.add.at(counts, (np.arange(n)[:, None], stocks), 1)
    counts[:, game.discard] += 1
    if not (counts[:, :52] == 1).all():
        bad = int(np.argwhere((counts[:, :52] != 1).any(axis=1))[0, 0])
        raise ValueError(f"world {bad} does not hold every card of the pack once (hands, stock and pile).")
    if first is not None and not game.hand_over:
        me = game.to_act
        held = np.sort(hands[:, me], axis=1)[:, hands.shape[2] - sizes[me]:]  # the -1 padding sorts first
        if not (held == np.array(sorted(game.hands[me]), dtype=np.int64)).all():
            raise ValueError(f"with a first action, seat {me} (to act) must hold the game's hand in every world.")
    return stocks, hands


def engine_playouts(game: GinGame, stocks: np.ndarray, hands: np.ndarray, first: Action | None = None,
                    player: Player | None = None) -> np.ndarray:
    """The worlds (checked by :func:`checked_worlds`) played out one by one by the engine, greedy in both seats
    (or ``player``): ``(n, 3)``, the gains and the seat that ended the hand (-1: nobody)."""
    out = np.zeros((len(stocks), 3), dtype=np.int64)
    for w in range(len(stocks)):
        g = copy_game(game)
        g.hands = [[int(c) for c in hands[w, p] if c >= 0] for p in range(2)]
        g.stock = [int(c) for c in stocks[w]]
        g._dw.clear()
        gains, by = python_playout_ended(g, first, player)
        out[w] = (*gains, -1 if by is None else by)
    return out


def no_gains(n: int) -> np.ndarray:
    """``(n, 3)``: what a finished hand gains in every world (nothing, ended by nobody)."""
    out = np.zeros((n, 3), dtype=np.int64)
    out[:, 2] = -1
    return out
