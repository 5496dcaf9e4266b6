"""The game protocol (kept under its old name): see :mod:`rumino.engine.protocol`.

Every name here comes from :mod:`rumino.engine`; there is no global registry of
action words any more — each game reads its actions through its own
:class:`~rumino.engine.protocol.ActionSet` (``Game.ACTIONS``), so two games may
both have a ``pass``:

>>> from rumino.variants.rumino import ACTIONS
>>> parse_action("discard 10h", ACTIONS) == Discard(48), str(parse_action("DRAW  discard", ACTIONS))
(True, 'draw discard')
"""

from __future__ import annotations

from .engine.actions import Deal, DeclineRebuy, Discard, Draw, Gin, Join, Knock, Rebuy
from .engine.protocol import TABLE, Action, ActionSet, Chooser, Game, PlayerView, play, refuse, step


def parse_action(text: str, actions: ActionSet) -> Action:
    """Read an action of the game whose action set is ``actions`` from its notation."""
    return actions.parse(text)


__all__ = ["TABLE", "Action", "ActionSet", "parse_action", "Draw", "Discard", "Knock", "Gin", "Rebuy",
           "DeclineRebuy", "Deal", "Join", "refuse", "PlayerView", "Game", "Chooser", "play", "step"]
