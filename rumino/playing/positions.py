"""Positions of real play: what the bots met in seeded games, for benchmarks and tests.

>>> pos = solver_positions(1, 2026, 2)
>>> len(pos) > 0 and all(len(t) >= 3 and len(h) >= 1 for t, h in pos)
True
>>> solver_positions(1, 2026, 2) == pos  # the same again (not hidden by the bots' answer cache)
True
"""

from __future__ import annotations

from rumino.variants.robber.bots import recording_positions
from rumino.playing.seeding import new_table

__all__ = ["solver_positions"]


def solver_positions(games: int, seed: int, players: int = 4) -> list[tuple[tuple, tuple]]:
    """Every (table cards, hand) a greedy bot asked the Robber table solver about in ``games``
    seeded games of ``players`` greedy bots (game ``i`` seeded as :func:`rumino.playing.seeding.new_table` does)."""
    seen: list[tuple[tuple, tuple]] = []
    with recording_positions(seen):
        for i in range(games):
            game, bots = new_table("robber", ["greedy"] * players, seed, i)
            while not game.game_over:
                game.apply(bots[game.to_act].choose(game.view(game.to_act)))
    return seen
