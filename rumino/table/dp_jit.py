"""The rank-by-rank programme of :mod:`rumino.table.dp`, compiled with numba: the solver's main route.

Same programme, same states, same answer value; only the representation differs,
so that numba can run it:

* a **run state** (the tuple of :mod:`rumino.table.dp`) becomes a small integer id
  (1–63); the transitions "add a natural", "add a joker", "may end here", "began at
  the low ace" are tables built once per rules in Python by the very functions the
  Python programme uses (``_add``, ``_can_end``), so the two routes cannot drift;
* a suit's open runs (a sorted multiset) are packed as 6-bit ids in one int64, the
  lowest id in the lowest bits; the whole state is a 5-tuple of int64 (four suits,
  then jokers used, the suits giving one or two naturals to sets, aces used low);
* each layer is a hash of states over int64 arrays (the store the compiled programmes share,
  :mod:`rumino.table.dp_store`), with values, back-pointers and the choice taken (numbers of naturals, naturals to sets, jokers,
  and which open run took which card, as base-3 digits over the suit's sorted runs).

The melds are rebuilt in Python from the chain of choices (:func:`solve_jit`), by
replaying them on the same tables; runs with equal state are interchangeable, so
which physical run sits in which of two equal slots does not matter.

A suit holds at most ``decks + jokers`` open runs (every open run takes a card at
each position), so 10 slots of 6 bits cover every pack up to two decks and eight
jokers; :func:`supports` sends anything larger to the integer programme.

>>> from rumino.melds import ROBBER_MELDS
>>> supports(ROBBER_MELDS)
True
"""

from __future__ import annotations

from functools import lru_cache

import numba
import numpy as np

from rumino.table.dp import _EMPTY, _add, _can_end, _Rules, set_split
from rumino.table.dp import supports as _dp_supports
from rumino.table.dp_store import CW as _CW, MASK as _MASK, SLOTS as _SLOTS
from rumino.table.dp_store import keep_best, new_store
from rumino.table.dp_store import next_layer as _next_layer, pack_ids as _pack, put_candidate as _put
from rumino.table.dp_store import unpack_ids as _unpack, walk_back as _walk_back
from rumino.jit import jit as _jit
from rumino.melds import MeldRules



def supports(rules: MeldRules) -> bool:
    """Rules the compiled programme covers: those of the Python programme, with at most 10 open runs a suit."""
    return _dp_supports(rules) and rules.pack.decks + rules.pack.jokers <= _SLOTS and _tables(rules) is not None


@lru_cache(maxsize=16)
def _tables(rules: MeldRules):
    """The run states of ``rules`` as ids, and the transition tables the compiled code reads (or None if
    there are more than 63 run states)."""
    R = _Rules(rules)
    starts = {}
    ids: dict[tuple, int] = {}
    todo = []

    def idof(run):
        if run is None:
            return 0
        if run[4] and run[0] >= R.adj_min:
            # "had two jokers side by side" only matters while the run is shorter than adjacent_jokers_min_run;
            # the length never shrinks, so from there on the flag is dropped and states that differ only in it
            # merge (fewer states, same answers)
            run = run[:4] + (False,) + run[5:]
        if run not in ids:
            ids[run] = len(ids) + 1
            todo.append(run)
        return ids[run]

    for low in (False, True):
        starts[low] = (idof(_add(_EMPTY[:5] + (low,), False, R)), idof(_add(_EMPTY[:5] + (low,), True, R)))
    add_nat, add_jok = {}, {}
    while todo:
        run = todo.pop()
        add_nat[run] = idof(_add(run, False, R))
        add_jok[run] = idof(_add(run, True, R))
    n = len(ids) + 1
    if n > _MASK:
        return None
    t_nat = np.zeros(n, dtype=np.int64)
    t_jok = np.zeros(n, dtype=np.int64)
    t_end = np.zeros(n, dtype=np.bool_)
    t_low = np.zeros(n, dtype=np.bool_)
    for run, i in ids.items():
        t_nat[i], t_jok[i] = add_nat[run], add_jok[run]
        t_end[i], t_low[i] = _can_end(run, R), run[5]
    new = np.array([[starts[False][0], starts[False][1]], [starts[True][0], starts[True][1]]], dtype=np.int64)
    J = rules.pack.jokers
    setok = np.zeros((5, 5, J + 1), dtype=np.bool_)  # [suits giving 1, suits giving 2, jokers] -> sets possible
    for c1 in range(5):
        for c2 in range(5 - c1):
            counts = tuple([2] * c2 + [1] * c1 + [0] * (4 - c1 - c2))
            for js in range(J + 1):
                setok[c1, c2, js] = set_split(counts, js, R) is not None
    return R, t_nat, t_jok, t_end, t_low, new, setok


# ---------------------------------------------------------------------- the compiled programme


@_jit
def _trim(keys, val, gid, n, beam, t_end, buf, TJ):
    """Keep the ``beam`` most promising of ``n`` states in place (all if ``beam`` is 0 or not exceeded):
    the most value so far, then the fewest open runs that could not end here, then the fewest jokers
    used (jokers kept for later: on the seeded bench tables this found a valid arrangement of the table
    alone 55 times in 80 with 64 states, against 16 when it preferred using jokers early)."""
    if beam <= 0 or n <= beam:
        return n
    score = np.empty(n, dtype=np.int64)
    for i in range(n):
        bad = 0
        for s in range(4):
            k = _unpack(keys[i, s], buf)
            for r in range(k):
                if not t_end[buf[r]]:
                    bad += 1
        score[i] = val[i] * 1024 - bad * 32 - min(keys[i, 4] & 15, TJ)
    return keep_best(keys, val, gid, n, beam, score)


@_jit
def _dp_suit_layer(cur_keys, cur_val, cur_gid, n_cur, s, p, layer, T, H, W, JT, ranks, kinds, t_nat, t_jok, t_end,
                   t_low, new, rem, lb, cand, old, nxt, pow3):
    """Suit ``s``'s layer at position ``p``: every state of the layer before, with what the suit's open runs
    and cards there may do, written to ``cand`` as candidates (see :func:`rumino.table.dp_store.next_layer`). Returns their number,
    or -1 when ``cand`` ran out of rows (the caller makes it larger and runs the layer again)."""
    rank = ranks[p]
    low_ace = kinds[p] == 1
    high_ace = kinds[p] == 2
    start_low = 1 if low_ace else 0
    t = T[s * 13 + rank]
    h = H[s * 13 + rank]
    w = W[s * 13 + rank]
    nc = 0
    for i in range(n_cur):
        val = cur_val[i]
        word = cur_keys[i, s]
        extra = cur_keys[i, 4]
        jused = extra & 15
        c1 = (extra >> 4) & 15
        c2 = (extra >> 8) & 15
        aces_s = (extra >> (12 + 4 * s)) & 15
        k = _unpack(word, old)
        if high_ace:
            lo, hi = max(0, t - aces_s), t + h - aces_s
        elif low_ace:
            lo, hi = 0, t + h
        else:
            lo, hi = t, t + h
        jleft = JT - jused
        for n in range(lo, hi + 1):
            if high_ace:
                gain = w * (aces_s + n - t)
            elif low_ace:
                gain = 0
            else:
                gain = w * (n - t)
            amax = 0 if high_ace else n
            for a in range(amax + 1):
                m = n - a
                nc1 = c1 + (1 if a == 1 else 0)
                nc2 = c2 + (1 if a == 2 else 0)
                for jr in range(jleft + 1):
                    if m + jr > _SLOTS:
                        break
                    if k == 0 and jr > 0 and new[start_low, 1] == 0:
                        break
                    for code in range(pow3[k]):
                        cn = 0
                        cj = 0
                        ok = True
                        kk = 0
                        c = code
                        for r in range(k):
                            dgt = c % 3
                            c //= 3
                            rid = old[r]
                            if dgt == 0:
                                if not t_end[rid]:
                                    ok = False
                                    break
                            else:
                                if high_ace and t_low[rid]:
                                    ok = False  # A…K already: no 14th card (rules §3.2)
                                    break
                                if dgt == 1:
                                    cn += 1
                                    nxt[kk] = t_nat[rid]
                                else:
                                    cj += 1
                                    nxt[kk] = t_jok[rid]
                                    if nxt[kk] == 0:
                                        ok = False
                                        break
                                kk += 1
                        if not ok or cn > m or cj > jr:
                            continue
                        if jr - cj > 0 and new[start_low, 1] == 0:
                            continue
                        for _ in range(m - cn):
                            nxt[kk] = new[start_low, 0]
                            kk += 1
                        for _ in range(jr - cj):
                            nxt[kk] = new[start_low, 1]
                            kk += 1
                        # an open run that cannot end must take a card of this suit at the next position (a
                        # natural if it may take no more jokers): count what is there
                        bad = 0
                        bad_nat = 0
                        for r in range(kk):
                            if not t_end[nxt[r]]:
                                bad += 1
                                if t_jok[nxt[r]] == 0:
                                    bad_nat += 1
                        if bad > 0:
                            if p + 1 == ranks.shape[0]:
                                continue
                            nat_next = T[s * 13 + ranks[p + 1]] + H[s * 13 + ranks[p + 1]]
                            if bad_nat > nat_next or bad > nat_next + jleft - jr:
                                continue
                        nw = _pack(nxt, kk)
                        ne = (extra & ~(15 | (15 << 4) | (15 << 8))) | (jused + jr) | (nc1 << 4) | (nc2 << 8)
                        if low_ace:
                            ne = (ne & ~(15 << (12 + 4 * s))) | (n << (12 + 4 * s))
                        k0 = nw if s == 0 else cur_keys[i, 0]
                        k1 = nw if s == 1 else cur_keys[i, 1]
                        k2 = nw if s == 2 else cur_keys[i, 2]
                        k3 = nw if s == 3 else cur_keys[i, 3]
                        v = val + gain
                        if lb >= 0 and v + rem[layer] <= lb:
                            continue  # cannot beat the answer in hand
                        if nc == cand.shape[0]:
                            return -1
                        _put(cand, nc, k0, k1, k2, k3, ne, 0, v, cur_gid[i], n | (a << 4) | (jr << 8) | (code << 12))
                        nc += 1
    return nc


@_jit
def _dp_set_layer(cur_keys, cur_val, cur_gid, n_cur, layer, JT, setok, rem, lb, cand):
    """Close a rank: its sets, with some jokers. Returns as :func:`_dp_suit_layer`."""
    nc = 0
    for i in range(n_cur):
        val = cur_val[i]
        extra = cur_keys[i, 4]
        jused = extra & 15
        c1 = (extra >> 4) & 15
        c2 = (extra >> 8) & 15
        if lb >= 0 and val + rem[layer] <= lb:
            continue
        for js in range(JT - jused + 1):
            if (c1 > 0 or c2 > 0 or js > 0) and not setok[c1, c2, js]:
                continue
            if nc == cand.shape[0]:
                return -1
            _put(cand, nc, cur_keys[i, 0], cur_keys[i, 1], cur_keys[i, 2], cur_keys[i, 3],
                 (extra & ~(15 | (15 << 4) | (15 << 8))) | (jused + js), 0, val, cur_gid[i], js)
            nc += 1
    return nc


@_jit
def _run_dp(T, H, TJ, HJ, W, wJ, ranks, kinds, t_nat, t_jok, t_end, t_low, new, setok, rem, lb, beam, cap):
    """The programme. ``T``/``H``/``W``: 52 counts / weights; ``ranks[p]``: the rank at position p;
    ``kinds[p]``: 0 plain, 1 low ace (split ace), 2 high ace (split ace).

    Bounds (see :func:`solve_jit`): ``rem[l]`` is the most value the layers after ``l`` can still add
    (hand jokers included); a state that cannot beat ``lb`` is dropped. ``beam > 0`` keeps only the
    ``beam`` best states of each layer (a heuristic: its answer is feasible, not proved best). A layer
    of more than ``cap`` states stops the exact search (returns -2).

    Returns (best value, or -1 if none beats ``lb``, or -2; choices per layer)."""
    JT = TJ + HJ
    n_layers = ranks.shape[0] * 5
    # every state ever made: back-pointer and choice, by global index (0 = the start); the start's layer
    prev_g, choice_g, n_g, cur_keys, cur_val, cur_gid, n_cur, cand = new_store()
    old = np.empty(_SLOTS, dtype=np.int64)
    nxt = np.empty(_SLOTS + 4, dtype=np.int64)
    pow3 = np.ones(_SLOTS + 1, dtype=np.int64)
    for i in range(1, _SLOTS + 1):
        pow3[i] = pow3[i - 1] * 3
    for layer in range(n_layers):
        p, s = layer // 5, layer % 5  # suits 0–3, then (s == 4) the rank's sets
        while True:
            if s < 4:
                n_cand = _dp_suit_layer(cur_keys, cur_val, cur_gid, n_cur, s, p, layer, T, H, W, JT, ranks, kinds,
                                        t_nat, t_jok, t_end, t_low, new, rem, lb, cand, old, nxt, pow3)
            else:
                n_cand = _dp_set_layer(cur_keys, cur_val, cur_gid, n_cur, layer, JT, setok, rem, lb, cand)
            if n_cand >= 0:
                break
            cand = np.empty((2 * cand.shape[0], _CW), dtype=np.int64)  # rare: more rows, and the layer again
        new_keys, new_val, new_gid, n_new, prev_g, choice_g, n_g = _next_layer(cand, n_cand, 0, prev_g, choice_g, n_g)
        n_new = _trim(new_keys, new_val, new_gid, n_new, beam, t_end, old, TJ)
        if cap > 0 and n_new > cap:
            return -2, np.zeros(0, dtype=np.int64)
        cur_keys, cur_val, cur_gid, n_cur = new_keys, new_val, new_gid, n_new
        if n_cur == 0:
            return -1, np.zeros(0, dtype=np.int64)
    # every open run must end; the jokers used are the table's plus some from the hand
    best = -1
    best_g = -1
    for i in range(n_cur):
        jused = cur_keys[i, 4] & 15
        if jused < TJ or jused > JT:
            continue
        ok = True
        for s in range(4):
            k = _unpack(cur_keys[i, s], old)
            for r in range(k):
                if not t_end[old[r]]:
                    ok = False
        if not ok:
            continue
        v = cur_val[i] + wJ * (jused - TJ)
        if v > best and v > lb:
            best = v
            best_g = cur_gid[i]
    if best_g < 0:
        return -1, np.zeros(n_layers, dtype=np.int64)
    return best, _walk_back(prev_g, choice_g, best_g, np.zeros(n_layers, dtype=np.bool_))  # (no layer skipped)


# ---------------------------------------------------------------------- the Python side


def _positions(rules: MeldRules):
    """The positions of a run (0 = the low ace … 13 = the ace after the king), their ranks, and their kinds
    (1 the low ace, 2 the high ace, where both are allowed; else 0). Kept per ``rules.ace``: callers only
    read them."""
    return _positions_for(rules.ace)


@lru_cache(maxsize=8)
def _positions_for(ace: str):
    if ace == "low":
        pos = list(range(13))
    elif ace == "high":
        pos = list(range(1, 14))
    else:
        pos = list(range(14))
    split = ace == "both"
    ranks = np.array([p % 13 for p in pos], dtype=np.int64)
    kinds = np.array([(1 if p == 0 else 2 if p == 13 else 0) if split else 0 for p in pos], dtype=np.int64)
    return pos, ranks, kinds


def value_bounds(H, HJ: int, W, wJ: int, ranks, kinds):
    """``rem[l]``, the most the layers after layer ``l`` can still add (hand cards and jokers), and ``top``,
    the most a placement can be worth. A card's value counts where the programme gains it: an ace split
    low/high at its high position."""
    idx = ranks[:, None] + 13 * np.arange(4)  # (position, suit) -> card kind
    gain = np.zeros((len(ranks), 5), dtype=np.int64)
    gain[:, :4] = np.where((kinds != 1)[:, None], np.asarray(W)[idx] * np.asarray(H)[idx], 0)
    gain = gain.ravel()
    rem = np.concatenate([np.cumsum(gain[::-1])[::-1][1:], [0]]) + wJ * HJ
    return rem, int(gain.sum()) + wJ * HJ


class GaveUp(Exception):
    """The exact search met a layer of more than ``cap`` states: the caller should use another route."""


BEAM = 256
"""States kept per layer by the first, heuristic pass when there is value to gain. Its answer is the lower
bound of the exact pass, so a wider beam costs time but prunes more: on the 80 Robber positions of
``bench/bench_solver.py`` (solve only, CPU, busy machine) the median call took 40 ms with 64 states, 14 ms
with 256, 25 ms with 512, 35 ms with 1,024 and 45 ms with 2,048 (53, 37, 35, 29 and 24 of them went on to
HiGHS)."""
CHECK_BEAMS = (64, 512)
"""The beams tried in turn on a table check (nothing to gain: the first arrangement found is the answer);
64 states found one for 55 of the 80 bench tables in ~1.5 ms, 512 for 76."""
CAP = 200_000  # states in one layer beyond which the exact pass stops


def solve_jit(T: np.ndarray, H: np.ndarray, TJ: int, HJ: int, W: np.ndarray, wJ: int, rules: MeldRules, *,
              beam: int = BEAM, cap: int = CAP) -> tuple[int, list[tuple]] | None:
    """Best placement, as :func:`rumino.table.dp.solve_dp` returns it: ``(value, melds)`` or ``None``.

    ``T``, ``H``, ``W``: 52 table counts, hand counts and weights (card id order).
    Raises :class:`GaveUp` if the exact pass meets a layer of more than ``cap`` states.

    Two passes, and the answer is exact: a **beam** pass keeps the ``beam`` best
    states of each layer; what it finds is a valid arrangement, so its value is a
    lower bound (and when it reaches the upper bound, every hand card's value plus
    the hand's jokers, or when all weights are 0 as in a table check, it is the
    answer). The **exact** pass then runs the full programme but drops every state
    whose value plus the most that later layers could add cannot beat that lower
    bound; if it finds nothing better, the beam's answer was the best.

    >>> from rumino.cards import to_counts, parse_hand
    >>> from rumino.melds import ROBBER_MELDS
    >>> t, h = to_counts(parse_hand("5c 6c 7c 8c 9c")), to_counts(parse_hand("7c"))
    >>> solve_jit(t[:52], h[:52], 0, 0, ROBBER_MELDS.values[:52], 20, ROBBER_MELDS)[0]
    7
    """
    R, t_nat, t_jok, t_end, t_low, new, setok = _tables(rules)
    pos, ranks, kinds = _positions(rules)
    T = np.ascontiguousarray(T, dtype=np.int64)
    H = np.ascontiguousarray(H, dtype=np.int64)
    W = np.ascontiguousarray(W, dtype=np.int64)
    TJ, HJ, wJ = int(TJ), int(HJ), int(wJ)
    rem, top = value_bounds(H, HJ, W, wJ, ranks, kinds)
    args = (T, H, TJ, HJ, W, wJ, ranks, kinds, t_nat, t_jok, t_end, t_low, new, setok, rem)
    best, choices = -1, None
    # a pure feasibility question (nothing to gain: a table check) gets a narrow beam, then a wider one,
    # before the exact pass, which is slow on tables with jokers
    for b in (CHECK_BEAMS if top == 0 else (beam,)) if beam > 0 else ():
        best, choices = _run_dp(*args, -1, b, 0)
        if best >= top:
            break
    if best < 0 or best < top:
        best2, choices2 = _run_dp(*args, best, 0, cap)
        if best2 == -2:
            raise GaveUp(f"a layer of more than {cap} states")
        if best2 >= 0:
            best, choices = best2, choices2
    if best < 0:
        return None
    return int(best), _replay(choices, pos, kinds, t_nat, t_jok, new, R)


def _replay(choices, pos, kinds, t_nat, t_jok, new, R):
    """Lay out the melds from the choices, going forward on the same tables as the compiled code."""
    melds = []
    open_runs: list[list[tuple[int, list]]] = [[], [], [], []]  # per suit: (run id, cells), ids ascending
    set_nat = [0, 0, 0, 0]
    q = 0
    for p, kind in zip(pos, kinds):
        start_low = 1 if kind == 1 else 0
        for s in range(4):
            ch = int(choices[q])
            q += 1
            n, a, jr, code = ch & 15, (ch >> 4) & 15, (ch >> 8) & 15, ch >> 12
            m = n - a
            nxt = []
            cn = cj = 0
            for rid, cells in open_runs[s]:
                dgt = code % 3
                code //= 3
                if dgt == 0:
                    melds.append(("run", s, cells))
                elif dgt == 1:
                    cn += 1
                    nxt.append((int(t_nat[rid]), cells + [(p, False)]))
                else:
                    cj += 1
                    nxt.append((int(t_jok[rid]), cells + [(p, True)]))
            nxt += [(int(new[start_low, 0]), [(p, False)]) for _ in range(m - cn)]
            nxt += [(int(new[start_low, 1]), [(p, True)]) for _ in range(jr - cj)]
            nxt.sort(key=lambda e: e[0])  # the compiled code's slot order (equal ids are interchangeable)
            open_runs[s] = nxt
            set_nat[s] = a
        js = int(choices[q])
        q += 1
        rank = p % 13
        for suits, j in set_split(tuple(set_nat), js, R) or ():
            melds.append(("set", rank, suits, j))
        set_nat = [0, 0, 0, 0]
    for s in range(4):
        for _rid, cells in open_runs[s]:
            melds.append(("run", s, cells))
    return melds


__all__ = ["supports", "solve_jit", "GaveUp"]
_ = numba  # numba is the point of this module; imported for the reader and for _jit's decorator
