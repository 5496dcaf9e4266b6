"""A player that takes a uniformly random legal action (the baseline every bot must beat).

>>> from rumino.variants.rumino import RuminoGame, RUMINO
>>> g = RuminoGame.new(RUMINO, 2, seed=1)
>>> RandomPlayer(seed=0).choose(g.view(g.to_act)) in g.legal_actions()
True
"""

from __future__ import annotations

from typing import Sequence

import numpy as np

from rumino.engine import Action, PlayerView
from rumino.players.base import Player


class RandomPlayer(Player):
    """Uniformly random among ``view.legal_actions``; chance from its own seeded rng."""

    kind = "random"

    def __init__(self, *, seed: int | Sequence[int] | None = None, rng: np.random.Generator | None = None,
                 name: str | None = None):
        super().__init__(name)
        self.rng = rng if rng is not None else np.random.default_rng(seed)

    def choose(self, view: PlayerView) -> Action:
        legal = view.legal_actions
        if not legal:
            raise ValueError(f"player {view.seat} has no legal action in phase {view.phase!r}.")
        return legal[int(self.rng.integers(len(legal)))]
