"""Discard policies from the optimal tables: the value of every discard of an 8-card Rumino hand.

The optimal tables (:mod:`rumino.odds.optimal`) value every 7-card class; this module reads them as
a player would use them:

* :class:`TableValues` — the cost of 7-card hands from a table (expected draws to knock or gin,
  lower is better; or minus the chance within ``n`` draws), and :class:`DirectValues`, the same
  question computed on the spot for ``n ≤ 2`` draws (no table);
* :func:`choose_discard` — the best discard of an 8-card hand from either (ties: the least
  deadwood, then the greedy bot's order, :func:`shed_key`);
* :func:`discard_advice` — what the HandExplorer and the GameTable's coach show;
* :func:`optimal_policy`, :func:`greedy_policy` — discard policies for
  :func:`rumino.playing.optimal_play.simulate_policy`.

Tie-break (the rules say nothing; a careful player's choice): among discards of equal
table value, keep the least deadwood, then shed as the greedy bot does (keep
jokers, throw the highest card).

>>> from rumino.cards import parse_hand, to_counts
>>> v = DirectValues("gin", draws=1)
>>> from rumino.cards import format_card
>>> format_card(choose_discard(v, to_counts(parse_hand("7h 8h 9h 5c 5d 5s Ks 2c")))) in ("Ks", "2c")
True
"""

from __future__ import annotations

from pathlib import Path
from typing import Callable, Sequence

import numpy as np

from rumino.cards import JOKER, format_card, from_counts
from rumino.errors import RuleConfigError
from rumino.hand.kernels import min_deadwood_batch
from rumino.odds.enumerate import PackShape
from rumino.odds.optimal import (BUILD_COMMAND, BUILD_COST, GOALS, TIMED_GOALS, OptimalTable, TableMissingError,
                                 best_answer, default_table_dir, direct_values, shape_key)
from rumino.variants import find_variant

RUMINO_VARIANT = find_variant("rumino")  # the game the tables are of (rules §1), read from its row
RUMINO, RuminoRules = RUMINO_VARIANT.rules, RUMINO_VARIANT.rules_class

__all__ = ["FULL", "load_table", "TableValues", "DirectValues", "shed_key", "discard_costs", "choose_discard",
           "discard_advice", "optimal_policy", "greedy_policy"]

FULL = PackShape(4, 13, 2, 4)
_TABLES: dict = {}


def load_table(directory: Path | str | None = None, rules: RuminoRules = RUMINO, shape: PackShape = FULL) -> OptimalTable:
    """The saved table (memory-mapped once per folder and rules), or a one-line :class:`TableMissingError`
    naming ``RUMINO_OPTIMAL_DIR`` and the build command."""
    base = Path(directory or default_table_dir())
    key = (str(base.resolve()), shape_key(shape, rules))
    if key not in _TABLES:
        try:
            _TABLES[key] = OptimalTable.load(shape, rules, base)
        except TableMissingError:
            if shape_key(shape, rules) != shape_key(shape, RUMINO):
                raise TableMissingError(
                    f"there is no optimal table for these house rules ({shape_key(shape, rules)}) in {base}: "
                    f"`{BUILD_COMMAND}` builds the default rules' table only (set "
                    f"RUMINO_OPTIMAL_DIR to a folder that holds one for these rules).") from None
            raise TableMissingError(
                f"the optimal table ({shape_key(shape, rules)}) is not built in {base}: set RUMINO_OPTIMAL_DIR to "
                f"the folder that holds it, or build it with `{BUILD_COMMAND}` ({BUILD_COST}).") from None
    return _TABLES[key]


class TableValues:
    """The cost of 7-card hands from an optimal table, for one goal (lower is better).

    Without ``draws`` the knock and gin goals use the expected draws (a stationary
    policy) and the rumino goal the chance within the table's horizon; with
    ``draws`` (or ``left`` at each call) the cost is minus the chance within that
    many draws (the finite-horizon policy, which changes as the draws run out).
    """

    def __init__(self, table: OptimalTable, goal: str = "knock", draws: int | None = None):
        if goal not in GOALS:
            raise RuleConfigError(f"goal {goal!r} is not one of {', '.join(GOALS)}.")
        if draws is not None and not 1 <= draws <= table.horizon:
            raise RuleConfigError(f"draws is {draws!r}: the table goes from 1 to {table.horizon} draws.")
        self.table, self.goal, self.shape = table, goal, table.shape
        if draws is None and goal in TIMED_GOALS and table.expected is not None:
            self.draws = None
        else:
            self.draws = draws or table.horizon
        self.g = GOALS.index(goal)

    @property
    def metric(self) -> str:
        return f"expected draws to {self.goal}" if self.draws is None else f"P({self.goal} within {self.draws} draws)"

    def lower_is_better(self) -> bool:
        return self.draws is None

    def index(self, c7s: np.ndarray) -> np.ndarray:
        return self.table.index.index(np.asarray(c7s, dtype=np.int64))

    def cost(self, c7s: np.ndarray, left: int | None = None) -> np.ndarray:
        """Cost of each row of ``c7s`` (count vectors of 7 cards); ``left`` draws still to come
        (finite-horizon policies only; ``0`` means: is it at the goal)."""
        idx = self.index(c7s)
        if self.draws is None:
            return np.asarray(self.table.expected[TIMED_GOALS.index(self.goal)])[idx].astype(np.float64)
        n = self.draws if left is None else min(left, self.draws)
        if n <= 0:
            return -((np.asarray(self.table.goal)[idx] >> self.g) & 1).astype(np.float64)
        return -np.asarray(self.table.prob[self.g, n - 1])[idx].astype(np.float64)

    def deadwood(self, c7s: np.ndarray) -> np.ndarray:
        return np.asarray(self.table.deadwood)[self.index(c7s)].astype(np.int64)


class DirectValues:
    """The same cost computed on the spot, without a table: minus the best chance of the goal within
    ``draws`` ≤ 2 draws (:func:`rumino.odds.optimal.direct_values`)."""

    def __init__(self, goal: str = "knock", draws: int = 1, shape: PackShape = FULL, rules: RuminoRules = RUMINO):
        if goal not in GOALS:
            raise RuleConfigError(f"goal {goal!r} is not one of {', '.join(GOALS)}.")
        if draws not in (1, 2):
            raise RuleConfigError(f"draws is {draws!r}: without the table at most 2 draws are computed directly.")
        self.goal, self.draws, self.shape, self.rules = goal, draws, shape, rules

    @property
    def metric(self) -> str:
        return f"P({self.goal} within {self.draws} draws)"

    def lower_is_better(self) -> bool:
        return False

    def cost(self, c7s: np.ndarray, left: int | None = None) -> np.ndarray:
        n = self.draws if left is None else min(left, self.draws)
        return -np.array([direct_values(c, self.goal, n, self.shape, self.rules) for c in np.asarray(c7s)])

    def deadwood(self, c7s: np.ndarray) -> np.ndarray:
        return min_deadwood_batch(np.asarray(c7s, dtype=np.int64), self.rules.meld_rules).astype(np.int64)


# the deadwood value of each card id, as the evaluator lists them (read from the rules, not from
# an evaluator: building one here loaded and self-checked the compiled kernels at import)
_CARD_VALUES = [int(v) for v in RUMINO.meld_rules.values]


def shed_key(card: int) -> tuple:
    """The greedy bot's order among equal discards (:func:`rumino.players.greedy.pick_discard`):
    keep jokers, shed the highest card."""
    return (card != JOKER, int(_CARD_VALUES[card]), card)


def discard_costs(values: TableValues | DirectValues, cnt8: np.ndarray, left: int | None = None, forbidden: int | None = None
                  ) -> tuple[list[int], np.ndarray, np.ndarray]:
    """``(cards, costs, deadwoods)`` of every distinct discard of an 8-card count vector."""
    cnt8 = np.asarray(cnt8, dtype=np.int64)
    cards = [int(c) for c in np.flatnonzero(cnt8) if c != forbidden]
    c7s = np.repeat(cnt8[None, :], len(cards), axis=0)
    c7s[np.arange(len(cards)), cards] -= 1
    return cards, values.cost(c7s, left), values.deadwood(c7s)


def choose_discard(values: TableValues | DirectValues, cnt8: np.ndarray, left: int | None = None, forbidden: int | None = None) -> int:
    """The best discard of an 8-card hand (count vector) by ``values``; ties: least deadwood, then the
    greedy order. ``forbidden`` is a card that may not be thrown (rules §0.5)."""
    cards, cost, dw = discard_costs(values, cnt8, left, forbidden)
    best = float(cost.min())
    tol = 1e-6 * max(1.0, abs(best))  # float32 storage: values closer than this are the same value
    ties = [i for i in range(len(cards)) if cost[i] <= best + tol]
    return max((cards[i] for i in ties), key=lambda c: (-dw[cards.index(c)], shed_key(c)))


def discard_advice(hand: str | Sequence[int] | np.ndarray, goal: str = "knock", draws: int = 5, *,
                   forbidden: int | None = None, directory: Path | str | None = None,
                   table: OptimalTable | None = None, rules: RuminoRules = RUMINO) -> dict:
    """The "best discard" the HandExplorer and the GameTable's coach show for an 8-card Rumino hand.

    From the optimal table when it is built (``P(goal within draws)``, ``draws`` capped at the table's
    horizon, and the expected draws for knock and gin), else computed directly for at most 2 draws,
    with ``note`` saying why. ``forbidden`` (the card just taken, rules §0.5) is left out. The table's
    model counts every card not in the hand as unseen (it ignores the discard pile).

    >>> a = discard_advice("7h 8h 9h 5c 5d 5s Ks 2c", "gin", 1, directory="/nonexistent")
    >>> a["source"], a["best_discard"] in ("Ks", "2c"), "RUMINO_OPTIMAL_DIR" in a["note"]
    ('direct', True, True)
    """
    note = None
    if table is None:
        try:
            table = load_table(directory, rules)
        except TableMissingError as err:
            note = f"{err} Meanwhile the chance within {min(draws, 2)} draws is computed directly."
    if table is not None:
        ans = best_answer(hand, goal, min(draws, table.horizon), table=table)
    else:
        ans = best_answer(hand, goal, min(draws, 2), directory=directory or default_table_dir(), rules=rules)
    rows = ans["discards"]
    if forbidden is not None:
        rows = [r for r in rows if r["card"] != format_card(forbidden)]
    return {"source": ans["source"], "goal": goal, "draws": ans["draws"], "discards": rows,
            "best_discard": rows[0]["card"] if rows else None, "note": note}


# =========================================================================== policies for the simulations


def optimal_policy(values: TableValues | DirectValues) -> Callable:
    """The table's discard (a finite-horizon ``values`` is told the draws left)."""
    def policy(cnt8, left):
        return choose_discard(values, cnt8, left)
    policy.finite = getattr(values, "draws", None) is not None
    return policy


def greedy_policy(rules: RuminoRules = RUMINO) -> Callable:
    """The greedy bot's discard: the least deadwood (:class:`rumino.players.GreedyPlayer`)."""
    ev = RUMINO_VARIANT.evaluator(rules)

    def policy(cnt8, left):
        _, best = ev.after_draw(from_counts(cnt8))
        return max(best, key=shed_key)
    policy.finite = False
    return policy
