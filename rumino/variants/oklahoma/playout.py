"""Oklahoma Gin's rollouts on Gin's compiled kernel (:mod:`rumino.variants.gin.playout`).

A hand of Oklahoma Gin is a hand of Gin but for two things the kernel can be told from outside:

* O1, the knock limit the upcard set: packed in place of the rules' ``knock_max_deadwood``
  (greedy knocks at the limit its view shows, the kernel at the one it is given: the same);
* O2, a spade upcard doubles the hand's points: the kernel's gains are doubled afterwards (a void hand
  gains nothing either way), and who ended the hand does not change.

The game bonus and the boxes are never part of a hand's gains, so nothing else differs. A position the
kernel does not model (no numba, a house game standing on Oklahoma's, other melds) is played by the engine,
so the answer is always the engine's; tests/players/test_playout_gin.py compares both on seeded positions.

>>> from rumino.playing.seeding import new_table
>>> game, _ = new_table("oklahoma", ["greedy", "greedy"], seed=3, index=0, dealer=1)
>>> hands, stocks = sample_worlds(game, 3, np.random.default_rng(0))
>>> bool((playouts(game, stocks, hands, ended_by=True) == engine_playouts(game, stocks, hands)).all())
True
"""

from __future__ import annotations

from collections.abc import Sequence

import numpy as np

from rumino.engine.player import Player
from rumino.engine.protocol import Action
from rumino.variants.gin.playout import engine_playouts, kernel_position, run_playouts, sample_worlds
from rumino.variants.oklahoma.game import OklahomaGame, OklahomaRules

__all__ = ["playouts", "supported", "sample_worlds", "engine_playouts"]


def supported(game: object) -> bool:
    """True if Gin's kernel plays this position of Oklahoma Gin exactly (its own class and rules)."""
    return type(game) is OklahomaGame and type(game.rules) is OklahomaRules and kernel_position(game)


def playouts(game: OklahomaGame, stocks: np.ndarray | Sequence[Sequence[int]], hands: np.ndarray | None = None,
             first: Action | None = None, *, ended_by: bool = False, plain: int | None = None,
             player: Player | None = None) -> np.ndarray:
    """Gin's :func:`~rumino.variants.gin.playout.playouts` for a hand of Oklahoma Gin: the same arguments
    and the same ``(n, 2)`` gains (``ended_by``: ``(n, 3)``), at the hand's own knock limit and doubled
    under a spade upcard."""
    return run_playouts(game, stocks, hands, first, ended_by=ended_by, plain=plain, player=player,
                        compiled=supported(game), knock_limit=game.hand_limit, factor=2 if game.doubled else 1)
