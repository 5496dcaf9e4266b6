"""Greedy Rumino bots: minimise deadwood now, knock as soon as allowed (or at a threshold).

The greedy player takes the top discard when it lowers its deadwood (after the
best discard) or completes a rumino, otherwise draws from the stock; it always
calls or claims a rumino, goes gin when it can, and discards the card that
leaves the least deadwood. The threshold knocker plays the same way but knocks
only at ``t`` deadwood or less.

>>> from rumino.variants.rumino import RuminoGame, RUMINO
>>> from rumino.game import play
>>> g = play(RuminoGame.new(RUMINO, 3, seed=5), [GreedyPlayer(), GreedyPlayer(), ThresholdKnocker(3)])
>>> g.game_over, sum(g.result.payouts_cents) == g.result.pool_cents
(True, True)
"""

from __future__ import annotations

from ..cards import JOKER
from ..engine.table import forbidden_discard
from ..game import Action, Discard, Gin
from ..variants.rumino import (CALL, CLAIM, DEAL, DECLINE, DRAW_DISCARD, DRAW_STOCK, KNOCK, REBUY, RuminoView,
                               evaluator_for)
from ..variants.wiener import WienerView
from .base import Player
from .wiener_defaults import wiener_choice


class GreedyPlayer(Player):
    """Discard to minimise deadwood; knock as soon as the rules allow.

    ``max_rebuys``: how many times to rebuy when busted (None: whenever allowed).
    """

    kind = "greedy"

    def __init__(self, *, max_rebuys: int | None = None, name: str | None = None):
        super().__init__(name)
        self.max_rebuys = max_rebuys

    @classmethod
    def fits(cls, game) -> bool:
        """Any knock game (a game class with ``KNOCK_GAME``)."""
        return bool(getattr(game, "KNOCK_GAME", False))

    # hooks the subclasses change
    def knock_at(self, view: RuminoView) -> int:
        return view.rules.knock_max_deadwood

    def choose(self, view: RuminoView) -> Action:
        if isinstance(view, WienerView):  # Wiener Rummy, American Knock Rummy: their own defaults
            return wiener_choice(self, view)
        ph = view.phase
        if ph == "turn":
            return self.start_turn(view)
        if ph == "discard":
            return self.after_draw(view)
        if ph == "claim":
            return CLAIM
        if ph == "rebuy":
            return REBUY if self.max_rebuys is None or view.rebuys[view.seat] < self.max_rebuys else DECLINE
        if ph == "between_hands":
            return DEAL
        raise ValueError(f"player {view.seat} has nothing to decide in phase {view.phase!r}.")

    def start_turn(self, view: RuminoView) -> Action:
        ev = evaluator_for(view.rules)
        hand = view.hand
        outs = ev.outs(hand)
        can_stock = _can_draw_stock(view)
        if len(outs) == 53:  # already a rumino: draw anything, then call it (D11)
            return DRAW_STOCK if can_stock else DRAW_DISCARD
        dw = ev.deadwood(hand)
        if dw <= min(self.knock_at(view), view.rules.knock_max_deadwood):
            return KNOCK
        return self.choose_draw(view, dw, outs, can_stock)

    def choose_draw(self, view: RuminoView, dw: int, outs, can_stock: bool) -> Action:
        top = view.top_discard
        if top is None:
            return DRAW_STOCK
        if top in outs or not can_stock:
            return DRAW_DISCARD
        ev = evaluator_for(view.rules)
        value, _ = ev.after_draw(view.hand + (top,), forbidden_after_taking(view, top))
        return DRAW_DISCARD if value < dw else DRAW_STOCK

    def after_draw(self, view: RuminoView) -> Action:
        if view.rumino_ready:
            return CALL
        ev = evaluator_for(view.rules)
        value, best = ev.after_draw(view.hand, view.forbidden)
        card = pick_discard(best, view)
        return Gin(card) if value == 0 else Discard(card)


class ThresholdKnocker(GreedyPlayer):
    """Greedy, but knocks only at ``t`` deadwood or less (never above the rules' limit)."""

    kind = "threshold"

    def __init__(self, t: int = 3, *, max_rebuys: int | None = None, name: str | None = None):
        if isinstance(t, bool) or not isinstance(t, int) or t < 0:
            raise ValueError(f"the knock threshold t is {t!r}: it must be a non-negative integer.")
        super().__init__(max_rebuys=max_rebuys, name=name or f"threshold:{t}")
        self.t = t

    def knock_at(self, view: RuminoView) -> int:
        return self.t


def pick_discard(best, view: RuminoView) -> int:
    """Among equally good discards keep jokers, then shed the highest card (a fixed tie-break)."""
    values = evaluator_for(view.rules).values
    return max(best, key=lambda c: (c != JOKER, values[c], c))


def forbidden_after_taking(view, top: int) -> int | None:
    """The card that could not be discarded after taking ``top`` from the pile (RULES §0.5)."""
    if getattr(view.rules, "may_rediscard_pickup", False):
        return None
    return forbidden_discard(top, view.hand + (top,), getattr(view.rules, "pickup_bars_twin", False))


def _can_draw_stock(view: RuminoView) -> bool:
    return view.stock_size > 0 or (view.rules.stock_exhausted == "reshuffle" and len(view.discard_pile) > 1)
