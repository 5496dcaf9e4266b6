"""The exact table solver of Robber Rummy (rules §4.3): the best rearrangement of the table.

Given the cards on the table (a multiset that forms valid melds) and a hand,
:func:`solve_table` finds which hand cards to add, and how to regroup the whole
table, so that the added value is as large as possible (or, with
``most_cards=True``, the number of added cards), while every table card stays
on the table in a valid meld (§4.3 (ii), (iii)) and every joker is identified
(§4.2). An optimum of 0 is the proof that nothing can be placed.

>>> from rumino.cards import parse_hand
>>> from rumino.melds import ROBBER_MELDS
>>> s = solve_table(parse_hand("5c 6c 7c 8c 9c"), parse_hand("7c Kd"), ROBBER_MELDS)
>>> s.value, [str(m) for m in s.melds], s.hand_left
(7, ['5c 6c 7c', '7c 8c 9c'], (38,))

**Three exact routes.** (1) The value-by-value dynamic programme of van Rijn,
Takes & Vis (2015), extended to jokers under Rommé's limits
(:mod:`rumino.table.dp`), **compiled with numba** (:mod:`rumino.table.dp_jit`),
wherever it covers the rules (distinct-suit sets, the ace low, high or both; not
``ace="around"``). (2) Where the meld rules are the Rommé family's, the same
programme with **jokers as slack** (:mod:`rumino.table.dp_slack`): a meld's
naturals allow an interval of jokers, so the state keeps how many jokers the melds
need and could hold instead of where each lies, and a layer keeps, of the states
that differ only in jokers needed, those that are not beaten by one needing fewer.
Each runs a first pass that keeps only the most promising states of each layer (a
lower bound) and an exact pass that drops every state that cannot beat it.
(3) An **integer programme solved by HiGHS** (``scipy.optimize.milp``), in the
form of den Hertog & Hulshof (2006): one integer variable per *meld multiset*
(how many copies of that group of cards lie on the table after the move) and one
per hand card kind (how many are placed); one equality per card kind: cards in
melds = cards on the table + cards placed. It takes every knob of
:mod:`rumino.melds` unchanged, so it serves the rules the programmes do not, and
the positions where jokers make their layers grow past a cap (:data:`JOKER_CAP`
states). ``method="hybrid"`` is the compiled programmes with HiGHS past the cap:
without jokers the first programme, an order of magnitude faster than HiGHS (whose
call alone costs ~1 ms); with jokers the slack programme, which on a dense table
with five or six jokers and all eight aces can still reach hundreds of thousands
of states in a layer (the aces each suit used low must be remembered until the
ace after the king), while HiGHS branches instead. The programme in plain Python
(``method="dp"``), the first compiled programme alone (``"jit"``), the slack
programme alone (``"slack"``) and HiGHS (``"milp"``) stay as independent checks.

**Speed** (``method="hybrid"``, CPU time, a quiet 2-core machine). On the 140 positions greedy bots
met in 12 seeded games (``bench/bench_robber_play.py``, tables of 4–61 cards): a median of 0.81–0.88 ms,
90th percentile 17–18 ms, slowest 0.15–0.17 s (three runs); on its 97 tables of 20–60 cards a median of
1.23–1.30 ms (the issue asks for 2.6 ms), 29 of the 140 going on to HiGHS. HiGHS alone (the default
route before the compiled one, ``--method milp``) has medians of 9.6 ms and 13.7 ms there. On those 97
tables the compiled route's median was 2.85–3.35 ms before the programmes changed how they build a layer: the step that
reaches new states now writes them to a buffer, and :func:`rumino.table.dp_jit._insert` adds them to
the layer. Before, numba counted references at every state to each array handed to a
function it inlined, which took half the time. On the 300 seeded synthetic positions of
``bench/bench_solver.py``, denser in jokers (tables of 20–64 cards, a quarter of the melds holding one),
measured in one run with 137 positions of real play (a busy machine, CPU time): a median of 13.0 ms with
the table check and 10.4 ms without it, 99 of the 300 going on to HiGHS, against 36.1 and 32.1 ms and 227
without the second try below (the real positions: 1.6–2.2 ms either way, the difference within the
machine's noise). Where the rules coincide with Rummikub's (no jokers), a median of 0.60–0.64 ms against
rummikub-solver's ~8.9 ms, 14–15× faster. What still costs most is a dense table with four to six jokers:
the slack programme's states are its run configurations times the jokers needed and the room for them;
past 5,000 states in a layer the position gets a second try, whose exact pass drops every state that
cannot beat a beam pass's answer (:data:`RETRY_BEAM`), and past 5,000 again it goes to HiGHS.

The columns are kept small without losing exactness: a meld whose cards can be
split into two valid melds is never needed (its two parts do the same job),
so only *unsplittable* melds are columns (runs of 3–5 without jokers, sets,
and the few longer runs whose jokers forbid any cut). They are listed once per
:class:`~rumino.melds.MeldRules` and filtered per position to the ones the
table and the hand can supply. Every answer is checked before it is returned:
each meld of the integer programme is re-read by :func:`rumino.melds.meld_readings`,
each meld of a programme is built as the reading it laid out once the rules' size
and joker limits are checked for it (else re-read too), and the cards are counted,
so a slip of either route cannot pass silently.

Where several rearrangements place the same value, the routes may return
different ones (a seeded bot game then goes on differently); :data:`AUTO`
says which route the default takes (``"hybrid"``, the compiled route with HiGHS past its cap;
``method="milp"`` gives, tie for tie, the answers of the solver before it).
"""

from __future__ import annotations

from dataclasses import dataclass
from functools import lru_cache
from itertools import combinations, product
from typing import Iterable, Sequence

import numpy as np

from rumino.table import dp as _table_dp, dp_jit as _table_dp_jit, dp_slack as _table_dp_slack
from rumino.cards import JOKER, N_KINDS, format_card, from_counts, to_counts
from rumino.errors import IllegalActionError, RuminoError
from rumino.jit import jit as _compiled
from rumino.melds import Meld, MeldRules, run_reading, set_reading, meld_readings


class SolverError(RuminoError, RuntimeError):
    """The integer solver failed on a position it should solve (a bug, not bad input)."""


@dataclass(frozen=True)
class TableSolution:
    """The best move on a table: the cards placed, their worth and the melds afterwards.

    ``melds`` cover the old table plus ``placed`` exactly; each is a
    :class:`~rumino.melds.Meld` reading, so a joker shows the card it stands for.
    """

    placed: tuple[int, ...]
    value: int  # the objective: summed card values placed, or the number of cards with most_cards
    melds: tuple[Meld, ...]
    hand_left: tuple[int, ...]
    most_cards: bool = False

    @property
    def can_place(self) -> bool:
        return bool(self.placed)

    def as_dict(self) -> dict:
        """The JSON form printed by ``rumino table --json``."""
        return {
            "placed": [format_card(c) for c in self.placed],
            "value": self.value,
            "objective": "cards" if self.most_cards else "value",
            "table": [meld_strings(m) for m in self.melds],
            "hand_left": [format_card(c) for c in self.hand_left],
        }


def meld_strings(m: Meld) -> list[str]:
    """A meld as card strings, a joker as ``JK(8d)`` with the card it stands for."""
    return [f"JK({format_card(s)})" if c == JOKER else format_card(c) for c, s in zip(m.cards, m.stands_for)]


# ---------------------------------------------------------------------- the columns


def _run_cut_ok(pattern: Sequence[bool], rules: MeldRules) -> bool:
    """Can this run reading be cut into a prefix and a suffix that are both valid runs?"""
    n = len(pattern)
    for i in range(rules.min_meld, n - rules.min_meld + 1):
        if rules.joker_pattern_ok(pattern[:i], "run") and rules.joker_pattern_ok(pattern[i:], "run"):
            return True
    return False


def _sub_multisets(items: tuple[int, ...]):
    """Every sub-multiset of a sorted tuple, once each."""
    kinds = sorted(set(items))
    counts = [items.count(k) for k in kinds]
    for ks in product(*(range(c + 1) for c in counts)):
        yield tuple(k for k, m in zip(kinds, ks) for _ in range(m))


def _splittable(cards: tuple[int, ...], rules: MeldRules) -> bool:
    """Can these cards (one meld) be split into two valid melds? (Brute force: used for sets only.)"""
    if len(cards) < 2 * rules.min_meld:
        return False
    for part in _sub_multisets(cards):
        if rules.min_meld <= len(part) <= len(cards) - rules.min_meld:
            rest = list(cards)
            for c in part:
                rest.remove(c)
            if meld_readings(part, rules) and meld_readings(rest, rules):
                return True
    return False


@lru_cache(maxsize=16)
def meld_columns(rules: MeldRules) -> np.ndarray:
    """Every unsplittable meld under ``rules`` as a count vector: an int8 array of shape (kinds, 53).

    A run reading that can be cut into two valid runs, or a set that splits into two
    sets, is left out: any table using it can use the two parts instead.

    >>> from rumino.melds import ROBBER_MELDS
    >>> meld_columns(ROBBER_MELDS).shape[1]
    53
    """
    J = rules.pack.jokers if rules.jokers_allowed else 0
    runs: dict[tuple, bool] = {}  # (suit, natural ranks, jokers) -> some reading can be cut
    for length in range(rules.min_meld, rules.max_run + 1):
        windows = rules.run_windows(length)
        for jk in range(0, min(J, rules.max_jokers(length)) + 1):
            for where in combinations(range(length), jk):
                pattern = [False] * length
                for i in where:
                    pattern[i] = True
                if not rules.joker_pattern_ok(pattern, "run"):
                    continue
                cut = _run_cut_ok(pattern, rules)
                for window in windows:
                    ranks = tuple(sorted(window[i] % 13 for i in range(length) if not pattern[i]))
                    if len(set(ranks)) != len(ranks):
                        continue
                    key = (ranks, jk)
                    runs[key] = runs.get(key, False) or cut
    cols: list[np.ndarray] = []
    for (ranks, jk), cut in runs.items():
        if cut or not ranks:
            continue
        for suit in range(4):
            v = np.zeros(N_KINDS, dtype=np.int8)
            for r in ranks:
                v[suit * 13 + r] += 1
            v[JOKER] = jk
            cols.append(v)
    # sets: naturals of one rank (distinct suits or any copies) plus jokers
    copies = 1 if rules.set_suits == "distinct" else rules.pack.decks
    for rank in range(13):
        for ks in product(range(copies + 1), repeat=4):
            nat = tuple(s * 13 + rank for s in range(4) for _ in range(ks[s]))
            if not nat:
                continue
            for jk in range(0, J + 1):
                cards = nat + (JOKER,) * jk
                if not rules.min_meld <= len(cards) <= rules.max_set:
                    continue
                readings = meld_readings(cards, rules)
                if not any(m.kind == "set" for m in readings) or _splittable(cards, rules):
                    continue
                v = to_counts(cards).astype(np.int8)
                cols.append(v)
    # melds of jokers alone (only when min_naturals == 0)
    for jk in range(rules.min_meld, J + 1):
        if meld_readings([JOKER] * jk, rules) and not _splittable((JOKER,) * jk, rules):
            v = np.zeros(N_KINDS, dtype=np.int8)
            v[JOKER] = jk
            cols.append(v)
    out = np.unique(np.array(cols, dtype=np.int8), axis=0)
    out.setflags(write=False)
    return out


# ---------------------------------------------------------------------- the solver


def _counts(cards: Iterable[int] | np.ndarray) -> np.ndarray:
    if isinstance(cards, np.ndarray) and cards.shape == (N_KINDS,):
        return cards.astype(np.int64)
    return to_counts(list(cards)).astype(np.int64)


def card_weights(rules: MeldRules, most_cards: bool = False) -> np.ndarray:
    """What placing one card of each kind is worth: its value in hand (rules §3.3: ace 11, joker 20),
    or 1 each with ``most_cards``."""
    if most_cards:
        return np.ones(N_KINDS, dtype=np.int64)
    return rules.values.astype(np.int64)


def _milp(table: np.ndarray, hand: np.ndarray, rules: MeldRules, weights: np.ndarray, presolve: bool = True):
    """Solve the integer programme; return (placed counts, list of meld count vectors) or None if the
    table cannot be arranged at all.

    ``presolve=False`` skips HiGHS's presolve, which on these programmes costs more than it saves (on the
    712 positions a greedy bot met in 40 soak games: a mean of 10 ms a call without it, 21 ms with it, the
    same optimum each time); it can change which of several equal answers comes back, so the default
    route keeps it and the hybrid route, which answers differently anyway, goes without."""
    from scipy.optimize import Bounds, LinearConstraint, milp
    from scipy.sparse import csr_array

    cols = meld_columns(rules)
    avail = table + hand
    usable = np.all(cols <= avail, axis=1)
    C = cols[usable]  # (k, 53)
    rows = np.flatnonzero(avail)  # card kinds present at all
    k = C.shape[0]
    hand_kinds = np.flatnonzero(hand)
    h = len(hand_kinds)
    if k == 0:
        return (np.zeros(N_KINDS, dtype=np.int64), []) if not table.any() else None
    # variables: x (k melds), then y (h hand kinds placed)
    A_melds = C[:, rows].T.astype(np.float64)  # (rows, k)
    A_hand = np.zeros((len(rows), h))
    row_of = {c: i for i, c in enumerate(rows)}
    for j, c in enumerate(hand_kinds):
        A_hand[row_of[c], j] = -1.0
    A = np.hstack([A_melds, A_hand])
    b = table[rows].astype(np.float64)
    # a meld cannot be laid more often than its scarcest card allows
    with np.errstate(divide="ignore"):
        ub_x = np.min(np.where(C > 0, avail[None, :] // np.maximum(C, 1), np.iinfo(np.int64).max), axis=1)
    ub = np.concatenate([ub_x.astype(np.float64), hand[hand_kinds].astype(np.float64)])
    c = np.concatenate([np.zeros(k), -weights[hand_kinds].astype(np.float64)])
    def run(presolve: bool):
        return milp(c, integrality=np.ones(k + h), bounds=Bounds(np.zeros(k + h), ub),
                    constraints=LinearConstraint(csr_array(A), b, b),
                    options={"mip_rel_gap": 0.0, "presolve": presolve})

    res = run(presolve)
    if res.status not in (0, 2):
        # HiGHS 1.x now and then stops with "Solve error" (status 4) on a position it solves with the other
        # presolve setting: the Robber soak met it three times in 3,000 greedy-bot games, so try again
        res = run(not presolve)
    if res.status == 2:  # infeasible: the table alone has no valid arrangement
        return None
    if res.status != 0 or res.x is None:
        raise SolverError(f"HiGHS stopped with status {res.status} ({res.message}).")
    x = np.rint(res.x).astype(np.int64)
    placed = np.zeros(N_KINDS, dtype=np.int64)
    placed[hand_kinds] = x[k:]
    melds = []
    for i in np.flatnonzero(x[:k]):
        melds.extend([C[i].astype(np.int64)] * int(x[i]))
    return placed, melds


def _dp(table: np.ndarray, hand: np.ndarray, rules: MeldRules, weights: np.ndarray, *, compiled: bool | str = False,
        cap: int = _table_dp_jit.CAP, beam: int = _table_dp_jit.BEAM):
    """The dynamic programme (:mod:`rumino.table.dp`, its compiled form :mod:`rumino.table.dp_jit`, or
    with ``compiled="slack"`` the compiled programme with jokers as slack, :mod:`rumino.table.dp_slack`),
    in the shape of :func:`_milp`'s answer."""
    if compiled == "slack":
        out = _table_dp_slack.solve_slack(table[:52], hand[:52], int(table[JOKER]), int(hand[JOKER]), weights[:52],
                                          int(weights[JOKER]), rules, cap=cap, beam=beam)
    elif compiled:
        out = _table_dp_jit.solve_jit(table[:52], hand[:52], int(table[JOKER]), int(hand[JOKER]), weights[:52],
                                      int(weights[JOKER]), rules, cap=cap, beam=beam)
    else:
        T = table[:52].reshape(4, 13).tolist()
        H = hand[:52].reshape(4, 13).tolist()
        W = weights[:52].reshape(4, 13).tolist()
        out = _table_dp.solve_dp(T, H, int(table[JOKER]), int(hand[JOKER]), W, int(weights[JOKER]), rules)
    if out is None:
        return None
    _value, raw = out
    melds = []
    for m in raw:
        if m[0] == "run":
            _kind, suit, cells = m
            cards = [JOKER if joker else suit * 13 + p % 13 for p, joker in cells]
            if not any(joker for _p, joker in cells) and rules.min_meld <= len(cells) <= rules.max_run:
                # consecutive naturals of one suit: a valid run with one reading, built rather than searched
                melds.append(run_reading(suit, [p for p, _joker in cells], [False] * len(cells)))
            else:
                # the reading the programme laid out (jokers where it put them), built directly when the
                # rules allow that pattern of jokers (meld_readings would search every window for it)
                flags = [joker for _p, joker in cells]
                if rules.min_meld <= len(cells) <= rules.max_run and rules.joker_pattern_ok(flags, "run"):
                    melds.append(run_reading(suit, [p for p, _joker in cells], flags))
                else:
                    melds.append(_reading(to_counts(cards), rules))
        else:
            _kind, rank, suits, j = m
            cards = [s * 13 + rank for s in suits] + [JOKER] * j
            if len(suits) >= 2 and rules.min_meld <= len(suits) + j <= rules.max_set \
                    and (rules.set_suits == "any" or len(set(suits)) == len(suits)) \
                    and rules.joker_pattern_ok([False] * len(suits) + [True] * j, "set"):
                # two naturals or more of one rank in distinct suits (and jokers): a set with one reading
                # (no run holds two cards of one rank), built rather than searched
                melds.append(set_reading(sorted(c for c in cards if c != JOKER), j))
            else:
                melds.append(_reading(to_counts(cards), rules))
    return _card_counts(melds) - table, melds


def _card_counts(melds) -> np.ndarray:
    """How many of each card kind the melds hold (one bincount: this runs on every answer)."""
    cards = [c for m in melds for c in m.cards]
    return np.bincount(np.array(cards, dtype=np.int64), minlength=N_KINDS).astype(np.int64)


JOKER_CAP = 5_000
"""States in one layer beyond which the compiled programme hands a position with jokers to the integer
programme. Without jokers the programme is the fast route (a median of ~1 ms on the bench's Rummikub-like
positions against ~6–12 ms for HiGHS); with five or six jokers on a table of 50–60 cards even the slack
programme can reach hundreds of thousands of states (a minute of work) while HiGHS, without its presolve,
takes 10–20 ms, so the programme gets a short try and then gives way. Measured (CPU, both cores busy with
soaks) on the 140 positions of ``bench/bench_robber_play.py``: caps of 2,000, 5,000, 20,000 and 50,000
took 1.35, 1.24, 1.71 and 2.41 s in all, with medians on the tables of 20–60 cards of 10.0, 4.5, 4.7 and
4.9 ms; on the 712 positions a greedy bot met in the first 40 games of ``bench/soak.py --seed 9``, 7.6 s
at 5,000 and 10.4 s at 20,000 (HiGHS alone, with presolve: 16.5 s). Measured again once the programmes
were 2.4 times faster (quiet machine): on the 140 positions, caps of 5,000, 8,000, 10,000, 15,000 and
20,000 took 0.91, 0.85, 0.87–0.91, 0.91 and 0.98 s (29, 21, 19, 15 and 14 calls to HiGHS), medians on the
tables of 20–60 cards 1.2–1.5 ms for all; on the 80 synthetic positions of ``bench/bench_solver.py
--quick``, medians of 24, 29 and 48 ms at 5,000, 20,000 and 50,000. So the cap stays."""


def _jit(table, hand, rules, weights):
    """The compiled programme (with jokers, the slack programme where it covers the rules); past its cap, the
    integer programme."""
    jokers = table[JOKER] + hand[JOKER] > 0
    # without jokers the first programme is the faster (0.85 against 1.22 ms median on the bench's
    # Rummikub-like positions): the slack programme's layer front costs more than it saves there
    slack = jokers and _table_dp_slack.supports(rules)
    mod = _table_dp_slack if slack else _table_dp_jit
    # without jokers the exact pass is fast alone: on the bench's Rummikub-like positions the beam pass
    # first made the median 0.64 ms -> 0.70 ms (64 states) or 0.85 ms (256)
    cap, beam = (JOKER_CAP, mod.BEAM) if jokers else (mod.CAP, 0)  # (the slack programme's BEAM is 0)
    compiled = "slack" if slack else True
    try:
        return _dp(table, hand, rules, weights, compiled=compiled, cap=cap, beam=beam)
    except _table_dp_jit.GaveUp:
        pass
    if jokers and beam == 0 and RETRY_BEAM > 0:  # (0: no second try, as before)
        # a second try, with a beam pass first: its answer is either the most the hand can place (then it
        # is the answer) or a lower bound that keeps the exact pass's layers under the cap far more often
        try:
            return _dp(table, hand, rules, weights, compiled=compiled, cap=cap, beam=RETRY_BEAM)
        except _table_dp_jit.GaveUp:
            pass
    return _milp(table, hand, rules, weights, presolve=False)


RETRY_BEAM = 256
"""States a layer keeps in the beam pass of the second try, after the exact pass alone outgrew
:data:`JOKER_CAP` (only positions with jokers get there; 0 turns the second try off). On the 80 synthetic
positions of ``bench/bench_solver.py --quick`` (63 of which went on to HiGHS) medians of 29, 14, 15 and
19 ms with beams of 64, 128, 256 and 512 (all 80 in 5.0, 4.0, 2.5 and 2.5 s), against 49 ms (8.1 s) with
HiGHS at once (CPU, a busy machine); on the 300 of the full run 13.0 ms against 36.1 ms. A beam pass on
every first try (the slack programme's ``BEAM`` at 256) was as fast there (9.5 ms), but it can change
which of several equal answers any position with jokers gets, and on the positions of real play it
gained nothing beyond the machine's noise."""


def _slack_only(table, hand, rules, weights):
    """The compiled programme with jokers as slack alone (``method="slack"``: tests compare it with the others)."""
    return _dp(table, hand, rules, weights, compiled="slack", cap=0, beam=_table_dp_slack.BEAM)


def _jit_only(table, hand, rules, weights):
    """The compiled programme alone (``method="jit"``: the tests compare it with the integer programme)."""
    return _dp(table, hand, rules, weights, compiled=True, cap=0)


def _reading(counts: np.ndarray, rules: MeldRules) -> Meld:
    readings = meld_readings(from_counts(counts), rules)
    if not readings:
        raise SolverError(f"the solver proposed {' '.join(map(format_card, from_counts(counts)))}, which is "
                          f"not a meld.")
    return max(readings, key=lambda m: m.opening_value())  # a careful player's reading of the ends


def _meld_order(m: Meld):
    """Sets first, then runs, each by their lowest natural card: a stable order for printing."""
    return (m.kind != "set", m.naturals, m.jokers)


AUTO = "hybrid"
"""What ``method="auto"`` (the default) means: ``"hybrid"``, the compiled programme where it covers the
rules and HiGHS beyond its cap, or ``"milp"``, HiGHS always. Both give the same optimum value; where
several rearrangements reach it they may pick different ones, and a seeded bot game then goes on
differently. ``"milp"`` gives back, tie for tie, the answers of the solver before the compiled route
(the default until the compiled route became it; the greedy bot, the engine's pass check on an empty
stock and the TableRearrangement widget all take the default).

The hybrid route answers the 712 positions of the first 40 greedy-bot games of ``bench/soak.py --seed 9``
in 7.2 s of CPU against HiGHS's 16.5 s (measured before its layers were rebuilt, 2.4 times faster on
real positions). ``bench/soak.py --solver milp`` soaks the old route."""

METHODS = ("auto", "hybrid", "slack", "jit", "milp", "dp")
"""The solver's routes: ``"hybrid"`` (compiled programme, HiGHS past :data:`JOKER_CAP`), ``"jit"`` (the
compiled programme alone, with no cap: exact, but a dense table with jokers can take it tens of seconds;
the tests use it to check the programme by itself), ``"milp"`` (HiGHS), ``"dp"`` (the programme in Python,
slow) and ``"auto"`` (:data:`AUTO`)."""


def _route(method: str, rules: MeldRules):
    """The solver function for ``method``; ``"auto"`` is :data:`AUTO` where the compiled programme covers
    the rules, else HiGHS."""
    if method not in METHODS:
        raise ValueError(f"method is {method!r}: it must be one of {', '.join(map(repr, METHODS))}.")
    if method == "auto":
        method = "hybrid" if AUTO in ("hybrid", "jit") and _table_dp_jit.supports(rules) else "milp"
    if method == "dp" and not _table_dp.supports(rules):
        raise ValueError(f"the dynamic programme does not cover the rules {rules.name!r}; use method='milp'.")
    if method in ("jit", "hybrid") and not _table_dp_jit.supports(rules):
        raise ValueError(f"the compiled programme does not cover the rules {rules.name!r}; use method='milp'.")
    if method == "slack" and not _table_dp_slack.supports(rules):
        raise ValueError(f"the slack programme does not cover the rules {rules.name!r}; use method='milp'.")
    return {"hybrid": _jit, "slack": _slack_only, "jit": _jit_only, "milp": _milp, "dp": _dp}[method]


def arrange_table(table: Iterable[int], rules: MeldRules, *, method: str = "auto") -> tuple[Meld, ...] | None:
    """A partition of the table cards into valid melds with the jokers identified, or ``None``.

    >>> from rumino.cards import parse_hand
    >>> from rumino.melds import ROBBER_MELDS
    >>> [str(m) for m in arrange_table(parse_hand("5d 6d 7d 5s 6s JK"), ROBBER_MELDS)]
    ['5s 6s JK(7s)', '5d 6d 7d']
    >>> arrange_table(parse_hand("5d 6d"), ROBBER_MELDS) is None
    True
    """
    t = _counts(table)
    out = _route(method, rules)(t, np.zeros(N_KINDS, dtype=np.int64), rules, np.zeros(N_KINDS, dtype=np.int64))
    if out is None:
        return None
    return tuple(sorted((m if isinstance(m, Meld) else _reading(m, rules) for m in out[1]), key=_meld_order))


def solve_table(table: Iterable[int], hand: Iterable[int], rules: MeldRules, *, most_cards: bool = False,
                weights: Sequence[int] | None = None, method: str = "auto", check: bool = True) -> TableSolution:
    """The rearrangement that places the most value (or cards) from ``hand`` onto ``table``.

    ``table`` is the multiset of table cards (it must form valid melds); ``weights``
    (53 integers) replaces the card values, e.g. for a comparison with Rummikub's
    face values. Raises :class:`~rumino.errors.IllegalActionError` (§4.3 (iii)) if the
    table cannot be arranged into valid melds to begin with (``check=False`` skips that
    test for callers who know the table is valid, and then only the final table is
    required to be valid). ``method``: one of :data:`METHODS` (``"auto"``,
    ``"hybrid"``, ``"jit"``, ``"milp"``, ``"dp"``); all give the same optimum value.

    >>> from rumino.cards import parse_hand
    >>> from rumino.melds import ROBBER_MELDS
    >>> s = solve_table(parse_hand("5d 6d 7d 5s 6s JK"), parse_hand("5c 6h 9d"), ROBBER_MELDS)
    >>> s.value, sorted(str(m) for m in s.melds)
    (20, ['5s 5c 5d', '6s 6d 6h', '7d JK(8d) 9d'])
    """
    t, h = _counts(table), _counts(hand)
    w = card_weights(rules, most_cards) if weights is None else np.asarray(weights, dtype=np.int64)
    if w.shape != (N_KINDS,) or (w < 0).any():
        raise ValueError("weights must be 53 non-negative integers, one per card kind.")
    route = _route(method, rules)
    # HiGHS's presolve drops such cards itself; leaving its input as it was keeps "milp" tie for tie
    h_all, h = h, (h if route is _milp else _placeable(t, h, rules))
    if check and t.any() and route(t, np.zeros_like(h), rules, np.zeros_like(w)) is None:
        raise IllegalActionError(f"the table {' '.join(map(format_card, from_counts(t)))} does not form valid "
                                 f"melds (rules §4.3 (iii)): a rearrangement starts from a valid table.")
    out = route(t, h, rules, w)
    if out is None:
        raise IllegalActionError(f"the table {' '.join(map(format_card, from_counts(t)))} does not form valid "
                                 f"melds (rules §4.3 (iii)), so there is nothing to rearrange.")
    placed, meld_list = out
    melds = tuple(sorted((m if isinstance(m, Meld) else _reading(m, rules) for m in meld_list), key=_meld_order))
    # check the answer independently of the solver: the melds hold exactly table + placed
    total = _card_counts(melds)
    if not np.array_equal(total, t + placed) or (placed > h).any():
        raise SolverError("the solver's melds do not hold exactly the table and the placed cards.")
    return TableSolution(placed=from_counts(placed), value=int(w @ placed), melds=melds,
                         hand_left=from_counts(h_all - placed), most_cards=most_cards)


def find_placement(table: Iterable[int], hand: Iterable[int], rules: MeldRules, *,
                   method: str = "auto") -> TableSolution | None:
    """A legal placement of cards from ``hand`` onto ``table`` (rearranging it if need be), or ``None``
    when none exists: whether a player who has opened can place (rules §4.3).

    A hand none of whose cards lies in any meld the table and the hand could supply is answered
    without the solver (a few microseconds); otherwise :func:`solve_table` decides, exactly.

    >>> from rumino.cards import parse_hand
    >>> from rumino.melds import ROBBER_MELDS
    >>> find_placement(parse_hand("5c 6c 7c"), parse_hand("9h 2d"), ROBBER_MELDS) is None
    True
    >>> [str(m) for m in find_placement(parse_hand("5c 6c 7c 8c 9c"), parse_hand("7c Kd"), ROBBER_MELDS).melds]
    ['5c 6c 7c', '7c 8c 9c']
    """
    t, h = _counts(table), _counts(hand)
    if not h.any() or not _placeable(t, h, rules).any():
        return None
    sol = solve_table(from_counts(t), from_counts(h), rules, method=method, check=False)
    return sol if sol.placed else None


def _placeable(table: np.ndarray, hand: np.ndarray, rules: MeldRules) -> np.ndarray:
    """The hand without the cards that lie in no meld the table and the hand could supply.

    Such a card can never be placed, so dropping it changes no answer; it makes the
    programme's layers smaller and its bound on what is left to gain tighter (a
    hand of 13 often holds a few). Removing it cannot make another card unplaceable:
    it was in none of the melds that remain possible.

    >>> from rumino.cards import parse_hand
    >>> from rumino.melds import ROBBER_MELDS
    >>> t, h = _counts(parse_hand("5c 6c 7c")), _counts(parse_hand("8c Kd"))
    >>> [format_card(c) for c in from_counts(_placeable(t, h, ROBBER_MELDS))]  # no meld for the Kd
    ['8c']
    """
    if not hand.any():
        return hand
    kinds, counts = _column_cards(rules)
    return np.where(_usable_kinds(kinds, counts, table + hand), hand, 0)


@lru_cache(maxsize=16)
def _column_cards(rules: MeldRules) -> tuple[np.ndarray, np.ndarray]:
    """The columns of :func:`meld_columns` as lists: each one's card kinds (padded with -1) and counts."""
    cols = meld_columns(rules)
    width = int((cols > 0).sum(axis=1).max())
    kinds = np.full((len(cols), width), -1, dtype=np.int64)
    counts = np.zeros((len(cols), width), dtype=np.int64)
    for i, row in enumerate(cols):
        nz = np.flatnonzero(row)
        kinds[i, :len(nz)] = nz
        counts[i, :len(nz)] = row[nz]
    return kinds, counts


@_compiled
def _usable_kinds(kinds, counts, available):
    """Which card kinds lie in some column whose cards ``available`` covers (a loop over the columns' few
    cards: ~10 µs, against ~170 µs for the same test on the whole int8 matrix in numpy)."""
    usable = np.zeros(available.shape[0], dtype=np.bool_)
    for i in range(kinds.shape[0]):
        ok = True
        for q in range(kinds.shape[1]):
            c = kinds[i, q]
            if c < 0:
                break
            if counts[i, q] > available[c]:
                ok = False
                break
        if ok:
            for q in range(kinds.shape[1]):
                c = kinds[i, q]
                if c < 0:
                    break
                usable[c] = True
    return usable


__all__ = ["TableSolution", "SolverError", "solve_table", "find_placement", "arrange_table", "meld_columns", "card_weights",
           "meld_strings", "random_position"]


# ---------------------------------------------------------------------- random positions (tests, benchmark, book)


def random_position(rng: np.random.Generator, rules: MeldRules, table_cards: int, hand_cards: int = 13,
                    *, joker_rate: float = 0.25, max_run: int = 6) -> tuple[tuple[int, ...], tuple[int, ...]]:
    """A seeded Robber-like position: a valid table of about ``table_cards`` cards and a hand.

    The table is built meld by meld from the pack, as players lay them: a random run
    (one suit, 3 to ``max_run`` cards) or a random set (3 or 4 suits of one rank),
    taken only if the pack still holds its cards; with probability ``joker_rate`` one
    of its naturals is then laid as a joker instead, when the meld stays valid.
    Melds are added until the table holds at least ``table_cards`` cards; the hand is
    then dealt from what is left of the pack.

    >>> from rumino.melds import ROBBER_MELDS
    >>> t, h = random_position(np.random.default_rng(1), ROBBER_MELDS, 20, 13)
    >>> len(t) >= 20, len(h), arrange_table(t, ROBBER_MELDS) is not None
    (True, 13, True)
    """
    left = rules.pack.counts().astype(np.int64)
    table: list[int] = []
    while len(table) < table_cards:
        if rng.random() < 0.5:
            suit = int(rng.integers(4))
            length = int(rng.integers(rules.min_meld, max(rules.min_meld, min(max_run, rules.max_run)) + 1))
            windows = rules.run_windows(length)
            window = windows[int(rng.integers(len(windows)))]
            meld = [suit * 13 + (p % 13) for p in window]
        else:
            rank = int(rng.integers(13))
            size = int(rng.integers(rules.min_meld, min(4, rules.max_set) + 1))
            suits = rng.choice(4, size=size, replace=False) if rules.set_suits == "distinct" else \
                rng.integers(4, size=size)
            meld = [int(s) * 13 + rank for s in suits]
        need = to_counts(meld)
        if (need > left).any():
            continue
        if left[JOKER] > 0 and rng.random() < joker_rate:
            i = int(rng.integers(len(meld)))
            trial = meld[:i] + [JOKER] + meld[i + 1:]
            if meld_readings(trial, rules):
                meld = trial
                need = to_counts(meld)
        left -= need
        table.extend(meld)
    pool = from_counts(left)
    hand = rng.choice(len(pool), size=hand_cards, replace=False)
    return tuple(sorted(table)), tuple(sorted(pool[i] for i in hand))
