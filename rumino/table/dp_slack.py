"""The table solver's compiled programme with jokers as *slack*: no joker is ever placed in a state.

The programme of :mod:`rumino.table.dp_jit` places every joker where it lies, so a
joker may start a run at any position, end one, or fill a gap, and a dense table
with four jokers reached 590,000 states in one layer while only checking that the
table alone can be arranged. Under the Rommé family's joker limits (rules §3.2: at
least two naturals in a meld, at most two jokers side by side, two side by side
only in runs of four or more) a meld is its *naturals* plus jokers, and what the
naturals allow of jokers is an interval:

* a **set** of k naturals (2–4 distinct suits) takes from ``max(0, 3 − k)`` to
  ``4 − k`` jokers;
* a **run** whose naturals lie at positions ``i0 … e`` with gaps of one or two
  positions (three missing would need three jokers side by side) takes exactly one
  joker per missing position, one more if its naturals span only two positions (a
  run has three cards), and up to two more at each end, as far as the ranks go and
  never more than 13 cards (which also keeps the low and the high ace apart).
  Two jokers side by side always sit between or beside at least two naturals, so
  the run has four cards or more and the limit on adjacent jokers holds.

The jokers of a whole table are then any number between the sum of the lower ends
and the sum of the upper ends, one meld's share being independent of another's. So
the state keeps two counters instead of jokers' places: ``lo``, the jokers the melds
so far need, and ``hi``, the most they could hold (capped at the jokers there are).
At the end a table is valid when some number of jokers ``J`` with ``lo ≤ J ≤ hi``
covers all the table's jokers and no more than the table's and the hand's; the
best uses ``J = min(hi, jokers)`` (each hand joker placed is worth its value). A run
state is its naturals so far (1, 2+), the positions they span (1, 2, 3+), the
positions skipped since its last natural (0–2: the gaps its jokers will fill) and
where it began (positions 0, 1, 2 or later: what fits below it, and whether it holds
the low ace). A run begins with a natural and ends on one; a run with a gap must take
a natural again, so each arrangement is reached once.

With aces both low and high (A-2-3 and Q-K-A) the state carries, per suit, the aces
used low to the high ace at the far end, which multiplies the states all the way
through. So :func:`solve_slack` first solves a *relaxation* that counts the low and
the high ace apart: its best is at least the optimum, and it is the optimum when it
uses each suit's aces no more than there are (and all the table's). When it uses one
twice, the suits it overused are carried exactly and the relaxation is solved again.
On the bench's real positions (tables of 20–60 cards) the first relaxed pass was the
answer for two thirds of those it finished.

The rules this covers are checked by :func:`supports`; everything else (and the
Python programme, ``method="dp"``, and HiGHS) stays as it was, as independent routes
the tests compare with this one.

>>> from rumino.cards import to_counts, parse_hand
>>> from rumino.melds import ROBBER_MELDS
>>> t, h = to_counts(parse_hand("5c 6c 7c 8c 9c")), to_counts(parse_hand("7c"))
>>> solve_slack(t[:52], h[:52], 0, 0, ROBBER_MELDS.values[:52], 20, ROBBER_MELDS)[0]
7
"""

from __future__ import annotations

from functools import lru_cache

import numpy as np

from rumino.table.dp import _Rules, set_split
from rumino.table.dp import supports as _dp_supports
from rumino.table.dp_jit import GaveUp, _positions, value_bounds
from rumino.table.dp_store import CW as _CW, SLOTS as _SLOTS
from rumino.table.dp_store import keep_best, new_store
from rumino.table.dp_store import next_layer as _next_layer, pack_ids as _pack, put_candidate as _put
from rumino.table.dp_store import unpack_ids as _unpack, walk_back as _walk_back
from rumino.jit import jit as _jit
from rumino.melds import MeldRules

# the state's fifth word: lo, hi, naturals of one / two suits given to this rank's sets, aces used low per suit
_LO, _HI, _C1, _C2, _ACES = 0, 4, 8, 12, 16


def supports(rules: MeldRules) -> bool:
    """The rules where a meld's jokers form an interval as above: the Rommé family's joker limits.

    >>> from rumino.melds import ROBBER_MELDS, RUMINO_MELDS
    >>> supports(ROBBER_MELDS), supports(RUMINO_MELDS)
    (True, False)
    """
    return (_dp_supports(rules) and rules.min_naturals == 2 and rules.max_jokers_per_meld is None
            and rules.max_adjacent_jokers == 2 and rules.adjacent_jokers_min_run <= 4
            and rules.min_meld == 3 and rules.max_set == 4 and rules.max_run == 13
            and rules.pack.decks + rules.pack.jokers <= _SLOTS and rules.pack.jokers <= 15)


@lru_cache(maxsize=4)
def _tables(rules: MeldRules):
    """Run states as ids 1…n and what happens to each: take a natural, skip a position, end."""
    states = []
    for p0 in range(4):
        for nat, span in ((1, 1), (2, 2), (2, 3)):
            for gap in range(3):
                states.append((nat, span, gap, p0))
    ids = {st: i + 1 for i, st in enumerate(states)}
    n = len(states) + 1
    t_nat = np.zeros(n, dtype=np.int64)  # id after taking a natural
    t_skip = np.zeros(n, dtype=np.int64)  # id after skipping this position (0: may not)
    t_end = np.zeros(n, dtype=np.bool_)  # may end here
    t_gap = np.zeros(n, dtype=np.int64)  # positions skipped since its last natural (a joker each, counted on skipping)
    t_short = np.zeros(n, dtype=np.int64)  # jokers it needs when it ends (1 if its naturals span 2 positions)
    t_p0 = np.zeros(n, dtype=np.int64)  # where it began: 0, 1, 2, or 3 for later
    for (nat, span, gap, p0), i in ids.items():
        t_nat[i] = ids[(min(nat + 1, 2), min(span + gap + 1, 3), 0, p0)]
        t_skip[i] = ids[(nat, span, gap + 1, p0)] if gap < 2 else 0
        t_end[i] = gap == 0 and nat >= 2
        t_gap[i] = gap
        t_short[i] = 1 if span == 2 else 0
        t_p0[i] = p0
    start = np.array([ids[(1, 1, 0, p0)] for p0 in range(4)], dtype=np.int64)
    J = rules.pack.jokers
    setok = np.zeros((5, 5, J + 1), dtype=np.bool_)  # [suits giving 1, suits giving 2, jokers] -> sets possible
    R = _Rules(rules)
    for c1 in range(5):
        for c2 in range(5 - c1):
            counts = tuple([2] * c2 + [1] * c1 + [0] * (4 - c1 - c2))
            for js in range(J + 1):
                setok[c1, c2, js] = set_split(counts, js, R) is not None
    return R, t_nat, t_skip, t_end, t_gap, t_short, t_p0, start, setok


@_jit(inline=True)
def _room(p0, e, L):
    """Most jokers a run that began at position index ``p0`` (3: 3 or later) and ends at ``e`` may add at
    its ends: two below and two above, as far as the ``L`` positions go, 13 cards at most."""
    low = p0 if p0 < 2 else 2
    high = L - 1 - e
    if high > 2:
        high = 2
    room = low + high
    if p0 < 3:  # a run that began this low may reach 13 cards (and both aces): cap it
        span = e - p0 + 1
        if room > 13 - span:
            room = 13 - span
    return room


@_jit
def _trim(keys, val, gid, n, beam, t_end, buf, JT):
    """Keep the ``beam`` most promising of ``n`` states in place: the most value so far, then the fewest
    open runs that could not end here, then the fewest jokers needed and the most room for them."""
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
        lo = (keys[i, 4] >> _LO) & 15
        hi = (keys[i, 4] >> _HI) & 15
        score[i] = val[i] * 1024 - bad * 64 - lo * 8 + min(hi, JT)
    return keep_best(keys, val, gid, n, beam, score)


@_jit(inline=True)
def _no_runs(keys, n, s):
    """Has no state a run open in suit ``s``?"""
    for i in range(n):
        if keys[i, s] != 0:
            return False
    return True


@_jit(inline=True)
def _no_sets(keys, n):
    """Has no state given a natural to this rank's sets?"""
    for i in range(n):
        if (keys[i, 4] >> _C1) & 255 != 0:  # (the counts of suits giving one and two, side by side)
            return False
    return True


@_jit
def _suit_layer(cur_keys, cur_val, cur_gid, n_cur, s, p, layer, T, H, W, JT, ranks, kinds, t_nat, t_skip, t_end,
                t_gap, t_short, t_p0, start, rem, lb, relax, cand, old, nxt, opts, nopt, pow3):
    """Suit ``s``'s layer at position ``p``: every state of the layer before, with what the suit's open runs
    and cards there may do, written to ``cand`` as candidates (see :func:`rumino.table.dp_store.next_layer`). Returns their number,
    or -1 when ``cand`` ran out of rows (the caller makes it larger and runs the layer again)."""
    L = ranks.shape[0]
    rank = ranks[p]
    low_ace = kinds[p] == 1
    high_ace = kinds[p] == 2
    new_id = start[p if p < 3 else 3]
    last = p + 1 == L
    t = T[s * 13 + rank]
    h = H[s * 13 + rank]
    w = W[s * 13 + rank]
    nat_next = 0 if last else T[s * 13 + ranks[p + 1]] + H[s * 13 + ranks[p + 1]]
    rel = (relax >> s) & 1 == 1
    nc = 0
    for i in range(n_cur):
        val = cur_val[i]
        word = cur_keys[i, s]
        extra = cur_keys[i, 4]
        lo0 = (extra >> _LO) & 15
        hi0 = (extra >> _HI) & 15
        c1 = (extra >> _C1) & 15
        c2 = (extra >> _C2) & 15
        aces_s = (extra >> (_ACES + 4 * s)) & 15
        k = _unpack(word, old)
        # what each open run may do here: end (if it is a valid run), take a natural (not the high ace after a
        # run from the low ace: no 14th card, rules §3.2), or skip (a gap, not at the last position); the
        # choices for all runs are then enumerated as one mixed-radix number
        n_combos = 1
        for r in range(k):
            rid = old[r]
            q = 0
            if t_end[rid]:
                opts[r, q] = 0
                q += 1
            if not (high_ace and t_p0[rid] == 0):
                opts[r, q] = 1
                q += 1
            if t_skip[rid] != 0 and not last:
                opts[r, q] = 2
                q += 1
            nopt[r] = q
            n_combos *= q
        if n_combos == 0:
            continue  # a run that can do nothing: the state ends here
        if high_ace and not rel:
            nlo, nhi = max(0, t - aces_s), t + h - aces_s
        elif low_ace or high_ace:
            nlo, nhi = 0, t + h
        else:
            nlo, nhi = t, t + h
        for n in range(nlo, nhi + 1):
            if rel and high_ace:
                gain = w * n  # (the table's aces were charged at the low ace)
            elif high_ace:
                gain = w * (aces_s + n - t)
            elif low_ace:
                gain = w * (n - t) if rel else 0
            else:
                gain = w * (n - t)
            amax = 0 if high_ace else min(n, 2)
            for a in range(amax + 1):
                m = n - a
                nc1 = c1 + (1 if a == 1 else 0)
                nc2 = c2 + (1 if a == 2 else 0)
                for combo in range(n_combos):
                    # the combo-th choice for each open run, among the ones it allows (see above)
                    cn = 0
                    lo = lo0
                    hi = hi0
                    ok = True
                    kk = 0
                    force = 0  # open runs that must take a natural at the next position
                    code = 0  # the same choices as base-3 digits (0 end, 1 natural, 2 skip) for the replay
                    cc = combo
                    for r in range(k):
                        dgt = opts[r, cc % nopt[r]]
                        cc //= nopt[r]
                        code += dgt * pow3[r]
                        rid = old[r]
                        if dgt == 0:  # the run ends at the position before this one
                            lo += t_short[rid]
                            hi += _room(t_p0[rid], p - 1, L)
                        elif dgt == 1:  # it takes a natural here
                            cn += 1
                            if cn > m:
                                ok = False
                                break
                            nxt[kk] = t_nat[rid]
                            kk += 1
                        else:  # it skips this position: a joker will stand here
                            sk = t_skip[rid]
                            lo += 1  # counted now, so that open gaps never outnumber the jokers
                            hi += 1
                            if t_gap[sk] == 2:
                                force += 1
                            nxt[kk] = sk
                            kk += 1
                    if not ok or cn > m or lo > JT:
                        continue
                    for _ in range(m - cn):
                        nxt[kk] = new_id
                        kk += 1
                    if kk > _SLOTS:
                        continue
                    if last:
                        for r in range(kk):
                            if not t_end[nxt[r]]:
                                ok = False
                                break
                        if not ok:
                            continue
                    elif force > nat_next:
                        continue
                    if hi > JT:
                        hi = JT
                    nw = _pack(nxt, kk)
                    ne = extra & ~((15 << _LO) | (15 << _HI) | (15 << _C1) | (15 << _C2))
                    ne |= (lo << _LO) | (hi << _HI) | (nc1 << _C1) | (nc2 << _C2)
                    if low_ace and not rel:
                        ne = (ne & ~(15 << (_ACES + 4 * s))) | (n << (_ACES + 4 * s))
                    k0 = nw if s == 0 else cur_keys[i, 0]
                    k1 = nw if s == 1 else cur_keys[i, 1]
                    k2 = nw if s == 2 else cur_keys[i, 2]
                    k3 = nw if s == 3 else cur_keys[i, 3]
                    v = val + gain
                    if lb >= 0 and v + rem[layer] <= lb:
                        continue  # cannot beat the answer in hand
                    if nc == cand.shape[0]:
                        return -1
                    _put(cand, nc, k0, k1, k2, k3, ne & ~(15 << _LO), lo, v, cur_gid[i], n | (a << 4) | (code << 8))
                    nc += 1
    return nc


@_jit
def _set_layer(cur_keys, cur_val, cur_gid, n_cur, layer, JT, setok, rem, lb, cand):
    """Close a rank: its sets, with some jokers (counted in both lo and hi: they are placed). Returns as
    :func:`_suit_layer`."""
    nc = 0
    for i in range(n_cur):
        val = cur_val[i]
        extra = cur_keys[i, 4]
        lo0 = (extra >> _LO) & 15
        hi0 = (extra >> _HI) & 15
        c1 = (extra >> _C1) & 15
        c2 = (extra >> _C2) & 15
        if lb >= 0 and val + rem[layer] <= lb:
            continue
        for js in range(JT - lo0 + 1):
            if (c1 > 0 or c2 > 0 or js > 0) and not setok[c1, c2, js]:
                continue
            lo = lo0 + js
            hi = min(hi0 + js, JT)
            ne = extra & ~((15 << _LO) | (15 << _HI) | (15 << _C1) | (15 << _C2))
            ne |= (lo << _LO) | (hi << _HI)
            if nc == cand.shape[0]:
                return -1
            _put(cand, nc, cur_keys[i, 0], cur_keys[i, 1], cur_keys[i, 2], cur_keys[i, 3], ne & ~(15 << _LO), lo, val,
                 cur_gid[i], js)
            nc += 1
    return nc


@_jit
def _run(T, H, TJ, HJ, W, wJ, ranks, kinds, t_nat, t_skip, t_end, t_gap, t_short, t_p0, start, setok, rem, lb,
         beam, cap, relax):
    """The programme; arguments and answer as :func:`rumino.table.dp_jit._run_dp`'s (``start[p0]``: the id
    of a run begun at position index ``p0``). In the suits of the bit mask ``relax`` the low and the high
    ace are two positions whose aces are counted apart (no state carries the aces used low; see
    :func:`solve_slack`); ``lb`` must then be -1."""
    JT = TJ + HJ
    L = ranks.shape[0]
    n_layers = L * 5
    prev_g, choice_g, n_g, cur_keys, cur_val, cur_gid, n_cur, cand = new_store()
    old = np.empty(_SLOTS, dtype=np.int64)
    nxt = np.empty(_SLOTS + 4, dtype=np.int64)
    opts = np.empty((_SLOTS, 3), dtype=np.int64)
    nopt = np.empty(_SLOTS, dtype=np.int64)
    pow3 = np.ones(_SLOTS + 1, dtype=np.int64)
    for i in range(1, _SLOTS + 1):
        pow3[i] = pow3[i - 1] * 3
    skipped = np.zeros(n_layers, dtype=np.bool_)  # layers that changed no state (no back-pointer kept)
    for layer in range(n_layers):
        p, s = layer // 5, layer % 5  # suits 0–3, then (s == 4) the rank's sets
        if s < 4:
            t = T[s * 13 + ranks[p]] + H[s * 13 + ranks[p]]
            if t == 0 and kinds[p] == 0 and p + 1 < L and _no_runs(cur_keys, n_cur, s):
                # no card here and no run open in this suit: every state goes on as it is (choice 0), so the
                # layer is skipped (with the set layers below, one in eight on the bench's real positions)
                skipped[layer] = True
                continue
        elif _no_sets(cur_keys, n_cur):
            # no natural given to a set here: the layer changes nothing (a set of jokers alone is no set)
            skipped[layer] = True
            continue
        while True:
            if s < 4:
                n_cand = _suit_layer(cur_keys, cur_val, cur_gid, n_cur, s, p, layer, T, H, W, JT, ranks, kinds, t_nat,
                                     t_skip, t_end, t_gap, t_short, t_p0, start, rem, lb, relax, cand, old, nxt, opts,
                                     nopt, pow3)
            else:
                n_cand = _set_layer(cur_keys, cur_val, cur_gid, n_cur, layer, JT, setok, rem, lb, cand)
            if n_cand >= 0:
                break
            cand = np.empty((2 * cand.shape[0], _CW), dtype=np.int64)  # rare: more rows, and the layer again
        new_keys, new_val, new_gid, n_new, prev_g, choice_g, n_g = _next_layer(
            cand, n_cand, JT, prev_g, choice_g, n_g)
        n_new = _trim(new_keys, new_val, new_gid, n_new, beam, t_end, old, JT)
        if cap > 0 and n_new > cap:
            return -2, np.zeros(0, dtype=np.int64)
        cur_keys, cur_val, cur_gid, n_cur = new_keys, new_val, new_gid, n_new
        if n_cur == 0:
            return -1, np.zeros(0, dtype=np.int64)
    # the runs still open end at the last position; then some J with lo <= J <= hi covers the table's jokers
    best = -1
    best_g = -1
    for i in range(n_cur):
        lo = (cur_keys[i, 4] >> _LO) & 15
        hi = (cur_keys[i, 4] >> _HI) & 15
        for s in range(4):
            k = _unpack(cur_keys[i, s], old)
            for r in range(k):
                lo += t_short[old[r]]  # (every open run may end: the last layer kept no other)
                hi += _room(t_p0[old[r]], L - 1, L)
        J = min(hi, JT)
        if lo > J or J < TJ:
            continue
        v = cur_val[i] + wJ * (J - TJ)
        if v > best and v > lb:
            best = v
            best_g = cur_gid[i]
    return (best, _walk_back(prev_g, choice_g, best_g, skipped)) if best_g >= 0 else \
        (-1, np.zeros(n_layers, dtype=np.int64))


# ---------------------------------------------------------------------- the Python side

BEAM = 0
"""States kept per layer by a first, heuristic pass whose answer is the exact pass's lower bound; none by
default. On the positions greedy bots meet, the exact pass alone with HiGHS past a cap of 5,000 states
was the fastest: 7.2 s for the 712 positions of 40 soak games, against 8.6 s with a beam of 256 and a
first exact pass capped at 2,000, and 11.4 s with a cap of 10,000 (CPU, the other core busy)."""
CHECK_BEAMS = (64, 512)
"""The beams tried in turn on a table check (nothing to gain: the first arrangement found is the answer)."""
CAP = 2_000_000  # states in one layer beyond which the exact pass stops (GaveUp)


def solve_slack(T: np.ndarray, H: np.ndarray, TJ: int, HJ: int, W: np.ndarray, wJ: int, rules: MeldRules, *,
                beam: int = BEAM, cap: int = CAP, relax: bool = True) -> tuple[int, list[tuple]] | None:
    """Best placement as :func:`rumino.table.dp_jit.solve_jit` returns it: ``(value, melds)`` or ``None``
    (melds as ``("run", suit, [(position, is_joker), …])`` or ``("set", rank, suits, jokers)``).

    Raises :class:`~rumino.table.dp_jit.GaveUp` if a pass meets a layer of more than ``cap`` states. A
    table check (every weight 0) first tries beams of :data:`CHECK_BEAMS` states, whose first arrangement
    is the answer; with ``beam > 0`` a beam pass gives the exact pass a lower bound, as in
    :func:`~rumino.table.dp_jit.solve_jit`. With aces low and high, ``relax`` (the default) tries the
    relaxed passes of the module docstring first; ``relax=False`` carries every suit's aces exactly from
    the start (the tests compare the two).
    """
    R, t_nat, t_skip, t_end, t_gap, t_short, t_p0, start, setok = _tables(rules)
    pos, ranks, kinds = _positions(rules)
    T = np.ascontiguousarray(T, dtype=np.int64)
    H = np.ascontiguousarray(H, dtype=np.int64)
    W = np.ascontiguousarray(W, dtype=np.int64)
    TJ, HJ, wJ = int(TJ), int(HJ), int(wJ)
    rem, top = value_bounds(H, HJ, W, wJ, ranks, kinds)
    args = (T, H, TJ, HJ, W, wJ, ranks, kinds, t_nat, t_skip, t_end, t_gap, t_short, t_p0, start, setok, rem)
    best, choices = -1, None
    # a table check (nothing to gain) is answered by the first arrangement a beam finds
    for b in CHECK_BEAMS if top == 0 else ((beam,) if beam > 0 else ()):
        best, choices = _run(*args, -1, b, 0, 0)
        if best >= top:
            break
    if relax and top > 0 and best < top and (kinds == 2).any():
        # First relaxations: in the suits of ``mask`` the aces used low are not carried to the high ace.
        # Every arrangement is one of a relaxation's answers, with the same value, so its best is at least
        # the optimum; when that best uses each suit's aces no more than there are, and all the table's,
        # it is the optimum. Otherwise the suits it overused are carried exactly, and again.
        mask = 15
        while mask:
            rbest, rchoices = _run(*args, -1, 0, cap, mask)
            if rbest == -2:
                raise GaveUp(f"a layer of more than {cap} states")
            if rbest < 0:
                return None  # not even the relaxation has an arrangement
            wrong = _aces_wrong(rchoices, T, H, len(ranks))
            if not wrong:
                return int(rbest), _replay(rchoices, pos, TJ + HJ, TJ, R, t_nat, t_skip, start)
            mask &= ~wrong
    if best < 0 or best < top:
        best2, choices2 = _run(*args, best, 0, cap, 0)
        if best2 == -2:
            raise GaveUp(f"a layer of more than {cap} states")
        if best2 >= 0:
            best, choices = best2, choices2
    if best < 0:
        return None
    return int(best), _replay(choices, pos, TJ + HJ, TJ, R, t_nat, t_skip, start)


def _aces_wrong(choices, T, H, L: int) -> int:
    """The suits (a bit mask) whose aces the choices use wrongly: fewer than the table's, or more than table
    and hand hold (low and high together). A relaxed programme does not check it."""
    wrong = 0
    for s in range(4):
        used = (int(choices[s]) & 15) + (int(choices[(L - 1) * 5 + s]) & 15)
        if not T[s * 13] <= used <= T[s * 13] + H[s * 13]:
            wrong |= 1 << s
    return wrong


def _replay(choices, pos, JT: int, TJ: int, R, t_nat, t_skip, start):
    """Lay out the melds from the choices: naturals per run, jokers in its gaps, then at its ends."""
    L = len(pos)
    runs = []  # finished runs: (suit, first index, last index, [indices of naturals])
    sets = []
    open_runs: list[list[tuple[int, list[int]]]] = [[], [], [], []]  # per suit: (run id, natural indices)
    set_nat = [0, 0, 0, 0]
    set_jokers = 0
    choices = choices.tolist()  # (Python ints: reading a numpy array item by item is slower)
    q = 0
    for i in range(L):
        new_id = int(start[min(i, 3)])
        for s in range(4):
            ch = choices[q]
            q += 1
            if ch == 0 and not open_runs[s]:
                continue  # nothing open, nothing taken (most suits at most positions)
            n, a, code = ch & 15, (ch >> 4) & 15, ch >> 8
            m = n - a
            nxt = []
            cn = 0
            for rid, nats in open_runs[s]:
                dgt = code % 3
                code //= 3
                if dgt == 0:
                    runs.append((s, nats))
                elif dgt == 1:
                    cn += 1
                    nxt.append((int(t_nat[rid]), nats + [i]))
                else:
                    nxt.append((int(t_skip[rid]), nats))
            nxt += [(new_id, [i]) for _ in range(m - cn)]
            nxt.sort(key=lambda e: e[0])  # the compiled code's slot order (equal ids are interchangeable)
            open_runs[s] = nxt
            set_nat[s] = a
        js = choices[q]
        q += 1
        set_jokers += js
        if js or any(set_nat):
            for suits, j in set_split(tuple(set_nat), js, R) or ():
                sets.append(("set", pos[i] % 13, suits, j))
        set_nat = [0, 0, 0, 0]
    for s in range(4):
        for _rid, nats in open_runs[s]:
            runs.append((s, nats))
    # each run: the jokers it needs (its gaps, and one more if its naturals span two positions) and the
    # most it may hold (plus its ends); the jokers left over go to the ends of runs with room
    lo = set_jokers
    hi = set_jokers
    shape = []
    for s, nats in runs:
        i0, e = nats[0], nats[-1]
        gaps = (e - i0 + 1) - len(nats)
        short = 1 if e - i0 + 1 == 2 else 0
        room = _room(min(i0, 3), e, L)
        shape.append((s, nats, gaps, short, room))
        lo += gaps + short
        hi += gaps + room
    J = min(hi, JT)
    if J < lo or J < TJ:
        raise RuntimeError("the programme's joker counts do not replay")  # a bug, not bad input
    spare = J - lo
    melds = []
    for s, nats, gaps, short, room in shape:
        i0, e = nats[0], nats[-1]
        extra = short + min(spare, room - short)
        spare -= extra - short
        # ends: above first (a careful player extends upwards), at most two each side
        up = min(extra, 2, L - 1 - e)
        down = extra - up
        cells = [(pos[k], True) for k in range(i0 - down, i0)]
        natural = set(nats)
        cells += [(pos[k], k not in natural) for k in range(i0, e + 1)]
        cells += [(pos[k], True) for k in range(e + 1, e + 1 + up)]
        melds.append(("run", s, cells))
    if spare:
        raise RuntimeError("the programme's joker counts do not replay")
    return melds + sets


__all__ = ["supports", "solve_slack", "GaveUp"]
