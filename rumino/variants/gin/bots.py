"""Gin Rummy's own decisions for the greedy-type bots (greedy, threshold:T), rules §6.

* the upcard offer: take the upcard if, after the best discard, it leaves less
  deadwood than the hand has now (it makes or extends a meld, or replaces a
  high loose card); otherwise pass;
* the draw: the same test for the top discard, else the stock (only the stock
  after both passed the upcard);
* after drawing: gin when every card but one melds; knock when the deadwood
  after the best discard is at most the bot's threshold (greedy: the rules'
  limit); otherwise discard the highest of the best discards;
* at the wall (``wall_knock``): take the discard when it lets the bot knock.

>>> from rumino.variants.gin import GinGame, GIN
>>> from rumino.players import GreedyPlayer, ThresholdKnocker
>>> from rumino.engine import play
>>> g = play(GinGame.new(GIN, 2, seed=4), [GreedyPlayer(), ThresholdKnocker(0)])
>>> g.game_over, g.result.winners[0] in (0, 1), max(g.scores) >= GIN.game_to
(True, True, True)
"""

from __future__ import annotations

from rumino.engine.actions import DEAL, DRAW_DISCARD, DRAW_STOCK, Discard, Gin, KnockWith
from rumino.engine.protocol import Action
from rumino.engine.player import Player, pick_discard
from rumino.variants.gin.game import PASS, GinView


def _value_with(view: GinView, card: int) -> int:
    """Deadwood after taking ``card`` and making the best allowed discard (rules §0.5)."""
    forbidden = None if view.rules.may_rediscard_pickup else card
    return view.evaluator.after_draw(view.hand + (card,), forbidden)[0]


def choose_gin(player: Player, view: GinView) -> Action:
    """The greedy-type bot's action in a Gin position (``player.knock_at(view)`` is its threshold)."""
    ph = view.phase
    ev = view.evaluator
    limit = min(player.knock_at(view), view.knock_limit)  # (the hand's limit: the rules', or the upcard's)
    if ph == "offer":
        return DRAW_DISCARD if _value_with(view, view.top_discard) < ev.deadwood(view.hand) else PASS
    if ph == "wall":
        return DRAW_DISCARD if _value_with(view, view.top_discard) <= view.knock_limit else PASS
    if ph == "turn":
        if view.must_draw_stock:
            return DRAW_STOCK
        return DRAW_DISCARD if _value_with(view, view.top_discard) < ev.deadwood(view.hand) else DRAW_STOCK
    if ph == "discard":
        value, best = ev.after_draw(view.hand, view.forbidden)
        card = pick_discard(best, view)
        if value == 0:
            return Gin(card)
        if value <= limit or (view.must_knock and value <= view.knock_limit):
            return KnockWith(card)
        return Discard(card)
    if ph == "between_hands":
        return DEAL
    raise ValueError(f"player {view.seat} has nothing to decide in phase {ph!r}.")

__all__ = ["choose_gin"]
