"""The state store the table solver's compiled programmes share (:mod:`rumino.table.dp_jit`,
:mod:`rumino.table.dp_slack`): public to the folder.

A programme walks the table position by position, suit by suit; after each step its states are one
*layer*. Every state is five int64 words (the four suits' open runs, packed as 6-bit ids, lowest first:
:func:`pack_ids`, :func:`unpack_ids`; then a word of the programme's own counters). A step writes each
state it reaches as a *candidate* row (:func:`put_candidate`: the key, the jokers it needs, its value,
the state it came from and the choice taken), and :func:`next_layer` turns the candidates into the next
layer: an open-addressing hash over the keys, keeping for each key the best value for each count of
jokers needed (a *front*), and the back-pointer of every state ever made, so :func:`walk_back` reads the
choices of the best end state. :func:`keep_best` keeps the ``beam`` most promising states of a layer by
a score the programme gives. The Python programme (:mod:`rumino.table.dp`) keeps its layers in dicts on
purpose: it is the independent route the tests compare these with.
"""

from __future__ import annotations

import numpy as np

from rumino.jit import jit as _jit

BITS = 6
MASK = (1 << BITS) - 1
SLOTS = 10  # 10 × 6 bits in one int64 word per suit


@_jit(inline=True)
def unpack_ids(word, out):
    k = 0
    while word:
        out[k] = word & MASK
        word >>= BITS
        k += 1
    return k


@_jit(inline=True)
def pack_ids(ids, k):
    # insertion sort of a few ids, then the lowest id in the lowest bits
    for i in range(1, k):
        x = ids[i]
        j = i - 1
        while j >= 0 and ids[j] > x:
            ids[j + 1] = ids[j]
            j -= 1
        ids[j + 1] = x
    word = 0
    for i in range(k - 1, -1, -1):
        word = (word << BITS) | ids[i]
    return word


@_jit(inline=True)
def grow(a, n):
    if n < a.shape[0]:
        return a
    b = np.empty(a.shape[0] * 2, dtype=a.dtype)
    b[: a.shape[0]] = a
    return b


@_jit(inline=True)
def walk_back(prev_g, choice_g, g, skipped):
    """The choice taken at each layer on the way to global state ``g``, read from the back-pointers; a
    layer marked in ``skipped`` kept no back-pointer (it changed no state: choice 0 there)."""
    choices = np.zeros(skipped.shape[0], dtype=np.int64)
    for q in range(skipped.shape[0] - 1, -1, -1):
        if not skipped[q]:
            choices[q] = choice_g[g]
            g = prev_g[g]
    return choices


# ---------------------------------------------------------------------- a layer: a hash of keys, a front per key

# A layer is built in two steps. The programme's step writes every state it reaches as a row of a buffer
# of *candidates* (key words, jokers needed, value, where from, which choice); :func:`insert_layer` then adds them
# to the layer, keeping the best of equal states. Kept apart, neither loop hands its arrays to a function
# numba inlines, which makes numba count references to each of them at every state: with a typed dict and
# growing arrays in the loop, that took half the time of the whole programme (perf).
#
# The slack programme (:mod:`rumino.table.dp_slack`) keeps apart states that differ only in ``lo``, the
# jokers its melds need (the lowest four bits of the fifth word): they share a key (a *bucket*), and in a
# bucket a state is dropped when another has lo' <= lo and at least its value (every later step allows it
# no less, so it can never end better). This programme passes lo = 0 and ``JT = 0``: one state per key.
# Hashing by hand (open addressing over int64 arrays).


@_jit(inline=True)
def _h5(k0, k1, k2, k3, k4, mask):
    h = k0 * 1099511628211 ^ k1
    h = h * 1099511628211 ^ k2
    h = h * 1099511628211 ^ k3
    h = h * 1099511628211 ^ k4
    h ^= h >> 29
    return h & mask


@_jit
def _pow2(n):
    """The least power of two of at least ``n`` (the hash's probe wraps with a mask)."""
    p = 1
    while p < n:
        p *= 2
    return p


CW = 9  # a candidate's words: k0…k4 (k4 without lo), lo, value, global state it came from, choice


@_jit
def insert_layer(cand, n_cand, JT, prev_g, choice_g, n_g):
    """The layer of the ``n_cand`` candidates: ``(keys, values, global ids, states, n_g)`` with each state's
    back-pointer written at its global id in ``prev_g``/``choice_g`` (which must have room for ``n_cand``
    more). A candidate is dropped when a state of its bucket needs no more jokers for at least its value;
    it drops those that need more for no more. Ties keep the state met first, and the layer keeps the order
    in which states were first met."""
    size = max(n_cand, 1)
    keys = np.empty((size, 5), dtype=np.int64)
    val = np.empty(size, dtype=np.int64)
    gid = np.empty(size, dtype=np.int64)
    alive = np.empty(size, dtype=np.bool_)
    bkeys = np.empty((size, 5), dtype=np.int64)  # a bucket's key (without lo)
    bslot = np.empty((size, JT + 1), dtype=np.int64)  # a bucket's state for each count of jokers needed
    htab = np.full(_pow2(2 * size + 2), -1, dtype=np.int64)  # (at most half full: there are no more buckets)
    mask = htab.shape[0] - 1
    n = 0
    nb = 0
    for c in range(n_cand):
        k0, k1, k2, k3, k4 = cand[c, 0], cand[c, 1], cand[c, 2], cand[c, 3], cand[c, 4]
        lo, v = cand[c, 5], cand[c, 6]
        i = _h5(k0, k1, k2, k3, k4, mask)
        while True:
            b = htab[i]
            if b < 0:
                b = nb
                htab[i] = b
                bkeys[b, 0] = k0
                bkeys[b, 1] = k1
                bkeys[b, 2] = k2
                bkeys[b, 3] = k3
                bkeys[b, 4] = k4
                for l2 in range(JT + 1):
                    bslot[b, l2] = -1
                nb += 1
                break
            if bkeys[b, 0] == k0 and bkeys[b, 1] == k1 and bkeys[b, 2] == k2 and bkeys[b, 3] == k3 \
                    and bkeys[b, 4] == k4:
                break
            i = (i + 1) & mask
        beaten = False
        for l2 in range(lo + 1):
            j = bslot[b, l2]
            if j >= 0 and val[j] >= v:
                beaten = True  # as good a state needs no more jokers
                break
        if beaten:
            continue
        j = bslot[b, lo]
        if j < 0:
            keys[n, 0] = k0
            keys[n, 1] = k1
            keys[n, 2] = k2
            keys[n, 3] = k3
            keys[n, 4] = k4 | lo
            val[n] = v
            gid[n] = n_g
            alive[n] = True
            prev_g[n_g] = cand[c, 7]
            choice_g[n_g] = cand[c, 8]
            bslot[b, lo] = n
            n += 1
            n_g += 1
        else:
            val[j] = v
            prev_g[gid[j]] = cand[c, 7]
            choice_g[gid[j]] = cand[c, 8]
        for l2 in range(lo + 1, JT + 1):
            j = bslot[b, l2]
            if j >= 0 and val[j] <= v:
                alive[j] = False  # needs more jokers for no more value
                bslot[b, l2] = -1
    n = compact(keys, val, gid, alive, n)
    return keys, val, gid, n, n_g


@_jit
def next_layer(cand, n_cand, JT, prev_g, choice_g, n_g):
    """:func:`insert_layer`, with room made first for every candidate's back-pointer: ``(keys, values, global ids,
    states, prev_g, choice_g, n_g)``."""
    while n_g + n_cand >= prev_g.shape[0]:
        prev_g = grow(prev_g, n_g + n_cand)
        choice_g = grow(choice_g, n_g + n_cand)
    keys, val, gid, n, n_g = insert_layer(cand, n_cand, JT, prev_g, choice_g, n_g)
    return keys, val, gid, n, prev_g, choice_g, n_g


@_jit(inline=True)
def put_candidate(cand, c, k0, k1, k2, k3, k4, lo, v, pg, ch):
    cand[c, 0] = k0
    cand[c, 1] = k1
    cand[c, 2] = k2
    cand[c, 3] = k3
    cand[c, 4] = k4
    cand[c, 5] = lo
    cand[c, 6] = v
    cand[c, 7] = pg
    cand[c, 8] = ch


@_jit
def compact(keys, val, gid, alive, n):
    """Drop the states marked dead, keeping the order of the rest."""
    m = 0
    for i in range(n):
        if alive[i]:
            if m != i:
                for q in range(5):
                    keys[m, q] = keys[i, q]
                val[m] = val[i]
                gid[m] = gid[i]
            m += 1
    return m


@_jit
def keep_best(keys, val, gid, n, beam, score):
    """Keep the ``beam`` states of highest ``score`` among the ``n`` of a layer, in place and in their
    order (all of them if ``beam`` is 0 or not exceeded); returns how many are kept."""
    if beam <= 0 or n <= beam:
        return n
    order = np.argsort(-score[:n], kind="mergesort")[:beam]
    order.sort()
    for j in range(beam):
        i = order[j]
        for q in range(5):
            keys[j, q] = keys[i, q]
        val[j] = val[i]
        gid[j] = gid[i]
    return beam


@_jit
def new_store():
    """The store before the first layer: the back-pointers (the start is state 0, from nowhere), the layer
    of the one start state (key 0, value 0) and a buffer of candidate rows: ``(prev_g, choice_g, n_g,
    keys, values, global ids, states, candidates)``."""
    prev_g = np.empty(1024, dtype=np.int64)
    choice_g = np.empty(1024, dtype=np.int64)
    prev_g[0] = -1
    choice_g[0] = 0
    cur_keys = np.zeros((1, 5), dtype=np.int64)
    cur_val = np.zeros(1, dtype=np.int64)
    cur_gid = np.zeros(1, dtype=np.int64)
    cand = np.empty((4096, CW), dtype=np.int64)
    return prev_g, choice_g, 1, cur_keys, cur_val, cur_gid, 1, cand


__all__ = ["BITS", "MASK", "SLOTS", "CW", "pack_ids", "unpack_ids", "grow", "walk_back", "insert_layer", "next_layer",
           "put_candidate", "compact", "keep_best", "new_store"]
