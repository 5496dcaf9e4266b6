"""An action-driven human player, for the terminal (``rumino play``) and the widgets.

The player holds a queue of actions submitted from outside (a widget's click,
a line typed in the terminal); :meth:`HumanPlayer.choose` takes the next one,
or asks its ``ask`` callback, or raises :class:`AwaitingInput` so that the
caller can wait for the person. Text is read by :func:`~rumino.engine.words.parse_human_action`
(the engine's reading of what a person types, which the terminal's narrators share), which accepts
short forms:

>>> from rumino.variants.rumino import RuminoGame, RUMINO
>>> g = RuminoGame.new(RUMINO, 2, seed=3)
>>> v = g.view(g.to_act)
>>> parse_human_action("s", v), parse_human_action("take", v)
(Draw(source='stock'), Draw(source='discard'))
>>> h = HumanPlayer(); h.submit("stock"); h.choose(v)
Draw(source='stock')
"""

from __future__ import annotations

from collections import deque
from typing import Callable

from rumino.engine.protocol import Action, PlayerView
from rumino.engine.words import HELP, describe_view, money, parse_human_action
from rumino.players.base import Player


class AwaitingInput(Exception):
    """Raised by :meth:`HumanPlayer.choose` when no action has been submitted yet."""

    def __init__(self, view: PlayerView):
        super().__init__(f"player {view.seat} ({view.phase}) is waiting for an action")
        self.view = view


class HumanPlayer(Player):
    """A person: actions come from :meth:`submit` (widgets) or from ``ask(view)`` (the terminal).

    ``ask`` returns an :class:`~rumino.engine.Action` or text for :func:`parse_human_action`.
    """

    kind = "human"

    def __init__(self, ask: Callable[[PlayerView], Action | str] | None = None, *, name: str | None = None):
        super().__init__(name)
        self.ask = ask
        self.pending: deque = deque()

    def submit(self, action: Action | str) -> None:
        """Queue an action (or text) for the next decision."""
        self.pending.append(action)

    def choose(self, view: PlayerView) -> Action:
        if self.pending:
            a = self.pending.popleft()
        elif self.ask is not None:
            a = self.ask(view)
        else:
            raise AwaitingInput(view)
        return parse_human_action(a, view) if isinstance(a, str) else a


__all__ = ["AwaitingInput", "HumanPlayer", "HELP", "parse_human_action", "describe_view", "money"]
