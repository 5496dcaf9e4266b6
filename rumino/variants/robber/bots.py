"""Robber Rummy's own decisions for the greedy bot (rules §4): play the table solver's move.

:class:`~rumino.players.greedy.GreedyPlayer` hands Robber views to :func:`choose_robber`
(the random player needs nothing: it picks among ``view.legal_actions``, which list
the draws, passes and every meld the hand can lay). The greedy bot:

* before opening, lays the largest opening its hand holds (:func:`rumino.hand.arrange.max_opening`)
  once it reaches ``opening_min``, leaving the table untouched (rules §4.3);
* after opening, plays the exact solver's move (:func:`rumino.table.solver.solve_table`): the
  rearrangement of the whole table that places the most penalty value from its hand;
* otherwise draws one card, or passes on an empty stock;
* with a discard pile: draws from the stock (the discard when the stock is empty), places
  as above, then discards the card that leaves the least deadwood, keeping jokers and
  shedding the highest card among equals.

Solver answers are kept per position (table and hand) in a small cache: a player who
drew a card nobody can use meets the same table again next turn only with a new hand,
but a blocked table at the end is asked about again and again.

>>> from rumino.variants.robber import RobberGame, ROBBER
>>> from rumino.players import GreedyPlayer
>>> from rumino.engine.protocol import play
>>> g = play(RobberGame.new(ROBBER, 2, seed=4), [GreedyPlayer(), GreedyPlayer()])
>>> g.game_over, g.result.how in ("out", "blocked")
(True, True)
"""

from __future__ import annotations

import time
from collections import OrderedDict
from contextlib import contextmanager
from typing import Iterator

from rumino.hand.arrange import max_opening
from rumino.engine.actions import DRAW_DISCARD, DRAW_STOCK, Discard
from rumino.engine.protocol import Action
from rumino.table.solver import solve_table
from rumino.table.melds import canonical
from rumino.engine.player import Player, pick_discard
from rumino.variants.robber.game import PASS, ROBBER, Place, RobberGame, RobberView

_CACHE: OrderedDict = OrderedDict()
_CACHE_SIZE = 4096
SOLVER_TIMES: list[float] = []
"""Seconds of each solver call the bot made (a benchmark reads them; cleared by whoever reads)."""


def _solve(table_cards: tuple, hand: tuple, rules):
    key = (rules, table_cards, hand)
    hit = _CACHE.get(key)
    if hit is not None:
        _CACHE.move_to_end(key)
        return hit
    t0 = time.perf_counter()
    sol = solve_table(table_cards, hand, rules, check=False)
    SOLVER_TIMES.append(time.perf_counter() - t0)
    _CACHE[key] = sol
    if len(_CACHE) > _CACHE_SIZE:
        _CACHE.popitem(last=False)
    return sol


def best_place(view: RobberView) -> Place | None:
    """The greedy bot's placement, or None when it places nothing this turn."""
    rules = view.rules
    mr = rules.meld_rules
    hand = tuple(sorted(view.hand))
    if not view.opened[view.seat]:
        best = max_opening(hand, mr)
        if best.value >= rules.opening_min:
            return Place.of(tuple(view.table) + tuple(canonical(m) for m in best.melds))
        return None
    sol = _solve(tuple(sorted(view.table_cards)), hand, mr)
    if not sol.placed:
        return None
    return Place.of(tuple(canonical(m) for m in sol.melds))


@contextmanager
def recording_positions(seen: list[tuple[tuple, tuple]]) -> Iterator[list[tuple[tuple, tuple]]]:
    """While open, every (table cards, hand) the greedy bot asks the solver about is appended to
    ``seen``: the positions of real play (:func:`solver_positions`).
    The answer cache is set aside meanwhile (a cached answer would hide its position) and restored after.

    >>> seen = []
    >>> with recording_positions(seen):
    ...     pass
    >>> seen
    []
    """
    global solve_table
    real = solve_table

    def spy(table, hand, rules, **kw):
        seen.append((tuple(table), tuple(hand)))
        return real(table, hand, rules, **kw)

    solve_table = spy
    kept = _CACHE.copy()
    _CACHE.clear()
    try:
        yield seen
    finally:
        solve_table = real
        _CACHE.clear()
        _CACHE.update(kept)


def choose_robber(player: Player, view: RobberView) -> Action:
    """The greedy bot's action in a Robber position."""
    ph = view.phase
    rules = view.rules
    if ph == "turn":
        if rules.discard_pile:
            return DRAW_STOCK if view.stock_size else DRAW_DISCARD
        place = best_place(view)
        if place is not None:
            return place
        return DRAW_STOCK if view.stock_size else PASS
    if ph == "discard":
        if not view.placed_this_turn:
            place = best_place(view)
            if place is not None:
                return place
        ev = view.evaluator
        _, best = ev.after_draw(view.hand, view.forbidden) if len(view.hand) > 1 else (0, view.hand)
        return Discard(pick_discard(best, view) if len(best) > 1 else best[0])
    raise ValueError(f"player {view.seat} has nothing to decide in phase {ph!r}.")


def coach_move(view: RobberView) -> Place | None:
    """The coach's table move for the player of ``view``: the exact solver's best placement (or the largest
    opening), None when no placement may be made now (the engine's ``may_place``, rules §4.3)."""
    return best_place(view) if view.may_place else None


def solver_positions(games: int, seed: int, players: int = 4) -> list[tuple[tuple, tuple]]:
    """Every (table cards, hand) a greedy bot asked the table solver about in ``games`` seeded games of
    ``players`` greedy bots (game ``i`` dealt from ``[seed, i]``, as :func:`rumino.playing.seeding.new_table`
    deals it): the positions of real play, for benchmarks and tests.

    >>> pos = solver_positions(1, 2026, 2)
    >>> len(pos) > 0 and all(len(t) >= 3 and len(h) >= 1 for t, h in pos)
    True
    >>> solver_positions(1, 2026, 2) == pos  # the same again (not hidden by the bots' answer cache)
    True
    """
    seen: list[tuple[tuple, tuple]] = []
    with recording_positions(seen):
        for i in range(games):
            game = RobberGame.new(ROBBER, players, seed=[int(seed), int(i)])
            while not game.game_over:  # the greedy bot's moves (it hands Robber views to choose_robber)
                game.apply(choose_robber(None, game.view(game.to_act)))
    return seen


__all__ = ["choose_robber", "best_place", "coach_move", "recording_positions", "solver_positions", "SOLVER_TIMES"]
