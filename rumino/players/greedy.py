"""Greedy bots for any knock game: minimise deadwood now, knock as soon as allowed (or at a threshold).

They depend on the protocol only (:class:`~rumino.engine.drawdiscard.TableView`), never on one
game's module. The greedy player takes the top discard when it lowers its deadwood (after
the best discard) or wins at once (``view.completes``), otherwise draws from the stock;
it always takes a winning action the game offers (``view.win_now``: Rumino's call or
claim), goes gin when it can, knocks at the game's limit — in lieu of drawing where the
game knocks so (:class:`~rumino.engine.actions.Knock`), or with a face-down discard
(:class:`~rumino.engine.actions.KnockWith`) — and discards the card that leaves the
least deadwood. A game's own decisions (Gin's upcard offer, Wiener's buy-back, Rommé's and
Robber's melds) come from the game's own folder, through its row of the registry
(``Variant.bots.decide``, found by the game's class and its parents); rebuys follow ``max_rebuys``. The threshold knocker plays the same way but
knocks only at ``t`` deadwood or less.

>>> from rumino.variants.rumino import RuminoGame, RUMINO
>>> from rumino.engine import play
>>> g = play(RuminoGame.new(RUMINO, 3, seed=5), [GreedyPlayer(), GreedyPlayer(), ThresholdKnocker(3)])
>>> g.game_over, sum(g.result.payouts_cents) == g.result.pool_cents
(True, True)
"""

from __future__ import annotations

from typing import Callable

from rumino.cards import JOKER
from rumino.engine.actions import (DEAL, DECLINE, DRAW_DISCARD, DRAW_STOCK, KNOCK, REBUY, Deal, DeclineRebuy, Discard,
                              Gin, Knock, KnockWith, Rebuy)
from rumino.engine.base import TurnGame
from rumino.engine.drawdiscard import TableView
from rumino.engine.protocol import Action
from rumino.engine.player import Player, forbidden_after_taking, pick_discard
from rumino.variants import VARIANTS, bots_of

_DECISIONS: dict = {}  # game class -> its folder's decisions for these bots (None: the generic play), read once


def _decisions_by_view() -> dict:
    """``{view class: decisions}`` for the view classes whose registered games all decide alike: the fast
    path of :func:`game_decisions` (a bot asks at every decision); a view class that two registered games
    share with different decisions is left out, and read by the game's class."""
    seen: dict = {}
    for v in VARIANTS.values():
        if v.game is not None:
            seen.setdefault(v.game.VIEW, set()).add(bots_of(v.game).decide)
    return {view: next(iter(d)) for view, d in seen.items() if len(d) == 1}


_BY_VIEW = _decisions_by_view()
_UNKNOWN = object()


def game_decisions(view: TableView) -> Callable | None:
    """The decisions the game of ``view`` gives the greedy-type bots (``Variant.bots.decide``, found by the
    game's class and its parents), or None (the generic draw-and-discard play). A view made by hand, with no
    game behind it, is read by the class of the game whose view it is."""
    decide = _BY_VIEW.get(type(view), _UNKNOWN)
    if decide is not _UNKNOWN:
        return decide
    game = view.game_type
    try:
        return _DECISIONS[game]
    except KeyError:
        pass
    if game is None:  # by the view's class and then its parents, as a game is found by its class
        games = {v.game.VIEW: v.game for v in reversed(VARIANTS.values()) if v.game is not None}
        game = next((games[c] for c in type(view).__mro__ if c in games), None)
        return None if game is None else bots_of(game).decide
    decide = _DECISIONS[game] = bots_of(game).decide
    return decide


class GreedyPlayer(Player):
    """Discard to minimise deadwood; knock as soon as the rules allow.

    ``max_rebuys``: how many times to rebuy when busted (None: whenever allowed).
    """

    kind = "greedy"

    def __init__(self, *, max_rebuys: int | None = None, name: str | None = None):
        super().__init__(name)
        self.max_rebuys = max_rebuys

    @classmethod
    def fits(cls, game: type[TurnGame]) -> bool:
        """Any knock game (a game class with ``KNOCK_GAME``), or a game whose folder gives these bots its own
        decisions (``Variant.bots.decide``: German Rommé; Robber Rummy, the table solver's move)."""
        return game.KNOCK_GAME or bots_of(game).decide is not None

    # hooks the subclasses change
    def knock_at(self, view: TableView) -> int:
        return view.knock_limit

    def choose(self, view: TableView) -> Action:
        special = game_decisions(view)
        if special is not None:  # a game's own decisions (Gin's upcard offer …), from the game's folder
            return special(self, view)
        ph = view.phase
        if ph == "turn":
            return self.start_turn(view)
        if ph == "discard":
            return self.after_draw(view)
        win = view.win_now
        if win is not None:
            return win
        legal = view.legal_actions
        if REBUY in legal:
            rebuys = getattr(view, "rebuys", None)
            return REBUY if self.max_rebuys is None or rebuys[view.seat] < self.max_rebuys else DECLINE
        if DEAL in legal:
            return DEAL
        if legal:
            return legal[0]
        raise ValueError(f"player {view.seat} has nothing to decide in phase {view.phase!r}.")

    def start_turn(self, view: TableView) -> Action:
        can_stock = view.can_draw_stock
        if view.holds_win:  # already a winning hand: draw anything, then call it (Rumino D11)
            return DRAW_STOCK if can_stock else DRAW_DISCARD
        hand = view.hand
        ev = view.evaluator
        dw = ev.deadwood(hand)
        if Knock in view.action_set.classes:
            limit = view.knock_limit
            if dw <= limit and dw <= self.knock_at(view):
                return KNOCK
        # take the top discard if it wins at once or lowers the deadwood after the best discard
        pile = view.discard_pile
        if not pile:
            return DRAW_STOCK
        top = pile[-1]
        if not can_stock or view.completes(top):
            return DRAW_DISCARD
        value, _ = ev.after_draw(hand + (top,), forbidden_after_taking(view, top))
        return DRAW_DISCARD if value < dw else DRAW_STOCK

    def after_draw(self, view: TableView) -> Action:
        win = view.win_now
        if win is not None:
            return win
        ev = view.evaluator
        value, best = ev.after_draw(view.hand, view.forbidden)
        values = ev.values
        card = max(best, key=lambda c: (c != JOKER, values[c], c)) if len(best) > 1 else best[0]  # pick_discard
        classes = view.action_set.classes
        if value == 0 and Gin in classes:
            return Gin(card)
        if KnockWith in classes and value <= view.knock_limit and value <= self.knock_at(view):
            return KnockWith(card)
        return Discard(card)


class ThresholdKnocker(GreedyPlayer):
    """Greedy, but knocks only at ``t`` deadwood or less (never above the rules' limit)."""

    kind = "threshold"

    def __init__(self, t: int = 3, *, max_rebuys: int | None = None, name: str | None = None):
        if isinstance(t, bool) or not isinstance(t, int) or t < 0:
            raise ValueError(f"the knock threshold t is {t!r}: it must be a non-negative integer.")
        super().__init__(max_rebuys=max_rebuys, name=name or f"threshold:{t}")
        self.t = t

    def knock_at(self, view: TableView) -> int:
        return self.t

    @classmethod
    def fits(cls, game: type[TurnGame]) -> bool:
        """Knock games only: a knock threshold means nothing in a game without knocking."""
        return game.KNOCK_GAME


__all__ = ["GreedyPlayer", "ThresholdKnocker", "game_decisions", "pick_discard", "forbidden_after_taking", "Rebuy",
           "DeclineRebuy", "Deal"]
