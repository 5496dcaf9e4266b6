"""Rumino's compiled heads-up playouts: greedy against greedy to the end of the hand (rules §1), many worlds in
one call, card for card the engine's (the shared kernel: :mod:`rumino.engine.knock_playout`).

Rumino has no decisions of its own for the greedy bot (:class:`~rumino.players.greedy.GreedyPlayer` plays it
as any knock game), so a position the kernel does not model is played on the engine by the ``player`` the
caller gives (the search gives its rollout bot, greedy).

>>> from rumino.players import GreedyPlayer
>>> from rumino.playing.seeding import new_table
>>> game, _ = new_table("rumino", ["greedy", "greedy"], seed=1, index=0, dealer=1)
>>> playout_ended(game) == python_playout_ended(game, player=GreedyPlayer())
True
>>> import numpy as np
>>> hands, stocks = sample_worlds(game, 3, np.random.default_rng(0))
>>> playouts(game, stocks, hands, ended_by=True).shape
(3, 3)
"""

from __future__ import annotations

from rumino.engine.knock_playout import RUMINO, KnockPlayouts, copy_game
from rumino.variants.rumino.game import RuminoGame, RuminoRules

PLAYOUTS = KnockPlayouts(RUMINO, RuminoGame, RuminoRules)
"""The kernel as Rumino plays it: its game and rules classes (a house game of another class: the engine)."""

supported = PLAYOUTS.supported
playout = PLAYOUTS.playout
playout_ended = PLAYOUTS.playout_ended
python_playout_ended = PLAYOUTS.python_playout_ended
sample_worlds = PLAYOUTS.sample_worlds
playouts = PLAYOUTS.playouts
search_playouts = PLAYOUTS.search_playouts

__all__ = ["PLAYOUTS", "supported", "playout", "playout_ended", "python_playout_ended", "sample_worlds", "playouts",
           "search_playouts", "copy_game"]
