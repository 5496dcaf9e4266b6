"""Wiener Rummy's compiled heads-up playouts: greedy against greedy to the end of the hand (rules §5), many worlds
in one call, card for card the engine's (the shared kernel: :mod:`rumino.engine.knock_playout`).

The engine's side plays :class:`Greedy`, the greedy bot of a Wiener table (:func:`~rumino.variants.wiener.bots.wiener_choice`
at the rules' knock limit), unless the caller gives its own ``player``.

>>> from rumino.playing.seeding import new_table
>>> game, _ = new_table("wiener", ["greedy", "greedy"], seed=1, index=0, dealer=1)
>>> playout_ended(game) == python_playout_ended(game)
True
"""

from __future__ import annotations

from rumino.engine.knock_playout import WIENER, KnockPlayouts, copy_game
from rumino.engine.player import Player
from rumino.engine.protocol import Action
from rumino.variants.wiener.bots import wiener_choice
from rumino.variants.wiener.game import WienerGame, WienerRules, WienerView


class Greedy(Player):
    """The greedy bot of a Wiener table (:class:`~rumino.players.greedy.GreedyPlayer` hands a Wiener view to
    :func:`~rumino.variants.wiener.bots.wiener_choice`, knocking at the rules' limit): the engine's side of the
    comparison, played without the players' layer."""

    kind = "greedy"

    def knock_at(self, view: WienerView) -> int:
        return view.knock_limit

    def choose(self, view: WienerView) -> Action:
        return wiener_choice(self, view)


PLAYOUTS = KnockPlayouts(WIENER, WienerGame, WienerRules, player=Greedy)
"""The kernel as Wiener Rummy plays it (American Knock Rummy, another game class, is played on the engine)."""

supported = PLAYOUTS.supported
playout = PLAYOUTS.playout
playout_ended = PLAYOUTS.playout_ended
python_playout_ended = PLAYOUTS.python_playout_ended
sample_worlds = PLAYOUTS.sample_worlds
playouts = PLAYOUTS.playouts
search_playouts = PLAYOUTS.search_playouts

__all__ = ["PLAYOUTS", "Greedy", "supported", "playout", "playout_ended", "python_playout_ended", "sample_worlds",
           "playouts", "search_playouts", "copy_game"]
