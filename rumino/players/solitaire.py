"""A bot that plays the optimal table's discards in real Rumino games (issue 14).

The tables of :mod:`rumino.odds.optimal` solve *solitaire against the stock*: the
best discard for the quickest knock (or gin, or the likeliest rumino within the
table's 10 draws), as if the discards were shuffled back in. This bot plays that
policy at a real table:

* after a draw it throws the card the table values best (:func:`rumino.odds.optimal_policy.choose_discard`;
  ties: the least deadwood, then the greedy order); it goes gin or calls a rumino
  when it can, like every bot;
* it takes the top discard when the hand after the best discard is worth more
  than a stock draw is on average: for expected draws ``E``, when
  ``min_d E(h + top − d) < E(h) − 1`` (``E(h) = 1 + average over stock draws``);
  for a chance, when ``max_d P_{n−1}(h + top − d) > P_n(h)``;
* it knocks as soon as the rules allow (goal ``knock``), or only at 0 deadwood
  (goals ``gin`` and ``rumino``).

It does not look at the other players (the model has none): what that costs at a
real table is what its win rate against greedy measures (``python -m
rumino.odds.optimal_policy``). Without the table it refuses at once with one line
naming ``RUMINO_OPTIMAL_DIR`` and the build command; ``values=`` lets a caller
(tests, a reduced pack) give it any :class:`~rumino.odds.optimal_policy.TableValues`
or :class:`~rumino.odds.optimal_policy.DirectValues`.

>>> from rumino.odds.optimal_policy import DirectValues
>>> bot = SolitairePlayer(values=DirectValues("knock", draws=1))
>>> bot.name, bot.goal
('solitaire', 'knock')
"""

from __future__ import annotations

from pathlib import Path

import numpy as np

from rumino.cards import to_counts
from rumino.engine.actions import DRAW_DISCARD, DRAW_STOCK, KNOCK, Discard, Gin, Knock
from rumino.engine.base import TurnGame
from rumino.engine.drawdiscard import TableView
from rumino.engine.protocol import Action
from rumino.errors import RuleConfigError
from rumino.odds.optimal import GOALS, HAND_SIZE, RUMINO, shape_key
from rumino.odds.optimal_policy import (FULL, DirectValues, TableValues, choose_discard, discard_costs, load_table,
                                        shed_key)
from rumino.players.greedy import GreedyPlayer, forbidden_after_taking
from rumino.variants import variant_of


class SolitairePlayer(GreedyPlayer):
    """Plays the optimal table's discards for ``goal`` (knock, gin or rumino)."""

    kind = "solitaire"

    def __init__(self, goal: str = "knock", *, values: TableValues | DirectValues | None = None,
                 directory: Path | str | None = None, max_rebuys: int | None = None, name: str | None = None):
        if goal not in GOALS:
            raise ValueError(f"goal {goal!r} is not one of {', '.join(GOALS)}.")
        super().__init__(max_rebuys=max_rebuys, name=name or ("solitaire" if goal == "knock" else f"solitaire:{goal}"))
        self.goal = goal
        self.directory = directory
        if values is None:
            values = TableValues(load_table(directory, RUMINO), goal)  # a missing table is refused here, at once
        self.values = values
        self._checked_rules = None

    @classmethod
    def fits(cls, game: type[TurnGame]) -> bool:
        """The games the optimal tables cover (``Variant.optimal_tables``: Rumino, its 108-card pack and
        7-card hands)."""
        v = variant_of(game)
        return v is not None and v.optimal_tables

    def _values_for(self, view):
        """The values for the view's rules (a house rule that changes the melds needs its own table)."""
        rules = view.rules
        if rules is self._checked_rules:
            return self.values
        table = getattr(self.values, "table", None)
        if table is not None and shape_key(FULL, rules) != shape_key(FULL, table.rules):
            self.values = TableValues(load_table(self.directory, rules), self.goal)
        elif table is None and getattr(self.values, "rules", rules) != rules:
            if shape_key(FULL, self.values.rules) != shape_key(FULL, rules):
                raise RuleConfigError("the solitaire bot's values were computed for other meld or knock rules.")
        self._checked_rules = rules
        return self.values

    def knock_at(self, view: TableView) -> int:
        return view.knock_limit if self.goal == "knock" else 0

    def start_turn(self, view: TableView) -> Action:
        hand = view.hand
        if view.holds_win or len(hand) != HAND_SIZE:
            return super().start_turn(view)
        values = self._values_for(view)
        dw = view.evaluator.deadwood(hand)
        if Knock in view.action_set.classes and dw <= view.knock_limit and dw <= self.knock_at(view):
            return KNOCK
        top = view.top_discard
        can_stock = view.can_draw_stock
        if top is None:
            return DRAW_STOCK
        if not can_stock or view.completes(top):
            return DRAW_DISCARD
        cnt = to_counts(hand).astype(np.int64)
        stock_value = float(values.cost(cnt[None, :])[0])
        c8 = cnt.copy()
        c8[top] += 1
        _cards, cost, _dw = discard_costs(values, c8, None, forbidden_after_taking(view, top))
        take = float(cost.min())
        if getattr(values, "draws", None) is None:  # expected draws: a stock draw is worth E(h) − 1 on average
            better = take < stock_value - 1 - 1e-6 * max(1.0, stock_value)
        else:  # a chance: the top card now, against the average stock card (both use up one draw)
            better = take < stock_value - 1e-9
        return DRAW_DISCARD if better else DRAW_STOCK

    def after_draw(self, view: TableView) -> Action:
        win = view.win_now
        if win is not None:
            return win
        if len(view.hand) != HAND_SIZE + 1:
            return super().after_draw(view)
        if Gin in view.action_set.classes:  # a gin ends the hand at once: always take it, as every bot does
            value, best = view.evaluator.after_draw(view.hand, view.forbidden)
            if value == 0:
                return Gin(max(best, key=shed_key))
        values = self._values_for(view)
        return Discard(choose_discard(values, to_counts(view.hand).astype(np.int64), None, view.forbidden))


__all__ = ["SolitairePlayer"]
