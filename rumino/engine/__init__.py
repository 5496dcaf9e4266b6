"""The shared engine every game stands on (see DESIGN "Adding a game").

* :mod:`~rumino.engine.protocol` — actions, per-game action sets, views, the game protocol, refusals, the game loop;
* :mod:`~rumino.engine.actions` — the actions most games share (draw, discard, knock, gin, deal, …);
* :mod:`~rumino.engine.table` — seats, dealer draw, deal, stock reshuffle (§0.4), the re-discard rule (§0.5);
* :mod:`~rumino.engine.base` — the turn game every game stands on: seats, seeds, ``new``/``next_game``,
  dispatch by phase, views and their stale guard, snapshots, invariants, knobs (Rummoli stands on it);
* :mod:`~rumino.engine.drawdiscard` — the draw-and-discard turn as a template with named hooks (the hook
  contract is there; Gin, Rumino, Wiener, Knock Rummy, Rommé and Robber stand on it);
* :mod:`~rumino.engine.scoring` — knock scoring helpers;
* :mod:`~rumino.engine.ledger` — pools, chips, rebuys and buy-backs in integer units;
* :mod:`~rumino.engine.evaluator` — the one cached deadwood evaluator (a broken kernel raises).
"""

from rumino.engine.actions import (DEAL, DECLINE, DRAW_DISCARD, DRAW_STOCK, JOIN, KNOCK, REBUY, Deal, DeclineRebuy, Discard, Draw,
                      Gin, Join, Knock, KnockWith, Rebuy)
from rumino.engine.base import TurnGame
from rumino.engine.drawdiscard import DrawDiscardGame, TableView
from rumino.engine.evaluator import Evaluator, evaluator_for, kernels_module
from rumino.engine.ledger import POT, Ledger
from rumino.engine.protocol import TABLE, Action, ActionSet, Game, PlayerView, play, refuse, step

__all__ = ["Action", "ActionSet", "PlayerView", "Game", "TABLE", "play", "step", "refuse", "Draw", "Discard", "Knock", "KnockWith",
           "Gin", "Rebuy", "DeclineRebuy", "Deal", "Join", "DRAW_STOCK", "DRAW_DISCARD", "KNOCK", "DEAL", "REBUY",
           "DECLINE", "JOIN", "TurnGame", "DrawDiscardGame", "TableView", "Evaluator", "evaluator_for", "kernels_module", "Ledger",
           "POT"]
