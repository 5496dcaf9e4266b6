"""The rank-by-rank dynamic programme behind :func:`rumino.table.solver.solve_table` (van Rijn, Takes & Vis 2015,
"The Complexity of Rummikub Problems", extended to two-deck Rommé melds with jokers).

Positions are the ranks in run order (A, 2, …, K, and the high ace when the ace
may follow the king). Going position by position and suit by suit, the state
holds, for every suit, the runs still open (each as a small tuple: length,
naturals, jokers, jokers at its end, whether it ever had two jokers side by side,
whether it began with a low ace), the jokers used so far, how many suits gave one
or two naturals to sets of the current rank, and how many aces each suit used low.
Runs are interchangeable, so a suit's open runs are a sorted tuple: states that
differ only in the order of runs merge. For each state the best value so far is
kept, with a back-pointer to rebuild the melds.

The rules are read from :class:`~rumino.melds.MeldRules`; :func:`supports` says
which rules this programme covers (the Rommé and Robber families). Run in
Python it is slower than the integer programme (a dense 58-card table reaches
~300,000 states in one layer); compiled with numba (:mod:`rumino.table.dp_jit`,
which builds its tables from the functions here) it is the solver's default
route. This Python form stays as an independent route (``method="dp"``) that the
tests compare with the others on small positions.
"""

from __future__ import annotations

from functools import lru_cache
from itertools import combinations

from rumino.melds import MeldRules


def supports(rules: MeldRules) -> bool:
    """Rules the programme handles: distinct-suit sets of at most 4, runs up to 13 with the ace low,
    high or both, and at least one natural card per meld."""
    return (rules.set_suits == "distinct" and rules.max_set <= 4 and rules.ace in ("low", "high", "both")
            and rules.max_run == 13 and rules.min_naturals >= 1 and rules.pack.decks <= 2)


class _Rules:
    """The numbers the transitions need, taken once from a MeldRules (hashable for the caches)."""

    def __init__(self, rules: MeldRules):
        self.min_meld = rules.min_meld
        self.min_nat = rules.min_naturals
        self.max_j = rules.max_jokers_per_meld  # None: no limit
        self.max_adj = rules.max_adjacent_jokers  # None: no limit
        self.adj_min = rules.adjacent_jokers_min_run
        self.lcap = max(rules.min_meld, rules.adjacent_jokers_min_run)
        self.max_set = rules.max_set
        self.key = (self.min_meld, self.min_nat, self.max_j, self.max_adj, self.adj_min, self.max_set)

    def __hash__(self):
        return hash(self.key)

    def __eq__(self, other):
        return isinstance(other, _Rules) and self.key == other.key


# A run state: (length, naturals, jokers, jokers at the end, had two jokers side by side, began at the low ace)
_EMPTY = (0, 0, 0, 0, False, False)


def _add(run: tuple, joker: bool, R: _Rules):
    length, nat, jok, trail, pair, low = run
    length = min(length + 1, R.lcap)
    if not joker:
        return (length, min(nat + 1, R.min_nat), jok, 0, pair, low)
    jok += 1
    if R.max_j is not None and jok > R.max_j:
        return None
    trail += 1
    if R.max_adj is not None and trail > R.max_adj:
        return None
    pair = pair or trail >= 2
    return (length, nat, jok if R.max_j is not None else 0, min(trail, 2), pair, low)


def _can_end(run: tuple, R: _Rules) -> bool:
    length, nat, _jok, _trail, pair, _low = run
    return length >= R.min_meld and nat >= R.min_nat and (not pair or length >= R.adj_min)


@lru_cache(maxsize=200_000)
def suit_step(runs: tuple, nat: int, jok: int, start_low: bool, last_high: bool, R: _Rules) -> tuple:
    """Every way to place ``nat`` naturals and ``jok`` jokers of one suit at one position in runs.

    ``runs`` are the open runs (sorted). Each open run either takes one of the new cards
    or ends (if it is a valid meld); cards left over start new runs. Returns
    ``((new sorted runs, plan), …)`` where ``plan`` lists, for each new run, the index
    of the old run it continues (or -1 for a new one) and whether its card here is a
    joker, plus the indices of the runs that ended.
    """
    out = {}
    n_old = len(runs)

    def rec(i, nat_left, jok_left, acc):
        if i == n_old:
            # new runs from what is left: naturals first, then jokers
            new = list(acc)
            for _ in range(nat_left):
                r = _add(_EMPTY[:5] + (start_low,), False, R)
                new.append((r, -1, False))
            for _ in range(jok_left):
                r = _add(_EMPTY[:5] + (start_low,), True, R)
                if r is None:
                    return
                new.append((r, -1, True))
            ended = tuple(e[1] for e in new if e[0] is None)
            kept = sorted((e for e in new if e[0] is not None), key=lambda e: (e[0], e[1], e[2]))
            key = tuple(e[0] for e in kept)
            if key not in out:
                out[key] = (tuple((e[1], e[2]) for e in kept), ended)
            return
        run = runs[i]
        # the run ends here
        if _can_end(run, R):
            rec(i + 1, nat_left, jok_left, acc + [(None, i, False)])
        if last_high and run[5]:
            return  # A…K already: the high ace would make 14 cards (rules §3.2)
        if nat_left:
            r = _add(run, False, R)
            rec(i + 1, nat_left - 1, jok_left, acc + [(r, i, False)])
        if jok_left:
            r = _add(run, True, R)
            if r is not None:
                rec(i + 1, nat_left, jok_left - 1, acc + [(r, i, True)])

    rec(0, nat, jok, [])
    return tuple((k, v[0], v[1]) for k, v in out.items())


@lru_cache(maxsize=4096)
def set_split(counts: tuple, jok: int, R: _Rules):
    """A way to lay sets of one rank from ``counts`` naturals per suit (0–2 each, distinct suits per set)
    and exactly ``jok`` jokers: a tuple of (suits, jokers) per set, or None if impossible."""
    if not any(counts):
        return () if jok == 0 else None
    s0 = next(i for i, c in enumerate(counts) if c)
    others = [i for i in range(4) if i != s0 and counts[i]]
    for k in range(len(others), -1, -1):
        for more in combinations(others, k):
            suits = (s0,) + more
            n = len(suits)
            if n < R.min_nat:
                continue
            for j in range(0, jok + 1):
                size = n + j
                if size < R.min_meld or size > R.max_set or size > 4:
                    continue
                if R.max_j is not None and j > R.max_j:
                    continue
                rest = list(counts)
                for s in suits:
                    rest[s] -= 1
                tail = set_split(tuple(rest), jok - j, R)
                if tail is not None:
                    return ((suits, j),) + tail
    return None


def solve_dp(T, H, TJ: int, HJ: int, w, wJ: int, rules: MeldRules):
    """Best placement. ``T``/``H``: 4×13 nested lists of table / hand counts; ``w``: 4×13 weights.

    Returns ``(value, placed 4×13 counts, placed jokers, melds)`` where each meld is
    ``("run", suit, [(position, is_joker), …])`` or ``("set", rank, suits, jokers)``;
    or ``None`` when the table has no valid arrangement.
    """
    R = _Rules(rules)
    if rules.ace == "low":
        positions = list(range(13))
    elif rules.ace == "high":
        positions = list(range(1, 14))
    else:
        positions = list(range(14))
    split = rules.ace == "both"
    JT = TJ + HJ
    # state: (runs of suit 0..3, jokers used, c1, c2, aces used low per suit)
    start = ((), (), (), ()), 0, 0, 0, (0, 0, 0, 0)
    layer = {start: 0}
    back = []  # one dict per sub-step: new state -> (old state, choice)
    for p in positions:
        rank = p % 13
        high_ace = split and p == 13
        low_ace = split and p == 0
        for s in range(4):
            t, h = T[s][rank], H[s][rank]
            new_layer, bk = {}, {}
            for state, val in layer.items():
                runs, jused, c1, c2, aces = state
                if high_ace:
                    lo, hi = max(0, t - aces[s]), t + h - aces[s]
                elif low_ace:
                    lo, hi = 0, t + h
                else:
                    lo, hi = t, t + h
                jleft = JT - jused
                for n in range(lo, hi + 1):
                    if high_ace:
                        gain = w[s][rank] * (aces[s] + n - t)
                    elif low_ace:
                        gain = 0
                    else:
                        gain = w[s][rank] * (n - t)
                    for a in range(0, (0 if high_ace else n) + 1):
                        for jr in range(0, jleft + 1):
                            for new_runs, plan, ended in suit_step(runs[s], n - a, jr, low_ace, high_ace, R):
                                nr = runs[:s] + (new_runs,) + runs[s + 1:]
                                na = aces[:s] + (n,) + aces[s + 1:] if low_ace else aces
                                ns = (nr, jused + jr, c1 + (a == 1), c2 + (a == 2), na)
                                v = val + gain
                                if v > new_layer.get(ns, -1):
                                    new_layer[ns] = v
                                    bk[ns] = (state, (p, s, n, a, jr, plan, ended))
            layer = new_layer
            back.append(bk)
            if not layer:
                return None
        # close the rank: lay its sets with some jokers
        new_layer, bk = {}, {}
        for state, val in layer.items():
            runs, jused, c1, c2, aces = state
            counts = tuple(sorted([1] * c1 + [2] * c2 + [0] * (4 - c1 - c2), reverse=True))
            for js in range(0, JT - jused + 1):
                if (c1 or c2 or js) and set_split(counts, js, R) is None:
                    continue
                ns = (runs, jused + js, 0, 0, aces)
                if val > new_layer.get(ns, -1):
                    new_layer[ns] = val
                    bk[ns] = (state, ("sets", rank, js))
        layer = new_layer
        back.append(bk)
        if not layer:
            return None
    # every open run must end; the jokers used are the table's plus some from the hand
    best, best_state = -1, None
    for state, val in layer.items():
        runs, jused, _c1, _c2, _aces = state
        if jused < TJ or jused > JT:
            continue
        if all(_can_end(r, R) for suit_runs in runs for r in suit_runs):
            v = val + wJ * (jused - TJ)
            if v > best:
                best, best_state = v, state
    if best_state is None:
        return None
    return best, _rebuild(best_state, back, R)


def _rebuild(state, back, R: _Rules):
    """Walk the back-pointers to the start, then lay out the melds going forward."""
    choices = []
    for bk in reversed(back):
        prev, choice = bk[state]
        choices.append(choice)
        state = prev
    choices.reverse()
    melds = []
    open_runs: list[list[list]] = [[], [], [], []]  # per suit, in the order of the state's sorted runs
    set_nat = [0, 0, 0, 0]
    for choice in choices:
        if choice[0] == "sets":
            _tag, rank, js = choice
            for suits, j in set_split(tuple(set_nat), js, R) or ():
                melds.append(("set", rank, suits, j))
            set_nat = [0, 0, 0, 0]
            continue
        p, s, n, a, jr, plan, ended = choice
        set_nat[s] = a
        old = open_runs[s]
        for i in ended:
            melds.append(("run", s, old[i]))
        open_runs[s] = [(old[i] if i >= 0 else []) + [(p, joker)] for i, joker in plan]
    for s in range(4):
        for cells in open_runs[s]:
            melds.append(("run", s, cells))
    return melds
