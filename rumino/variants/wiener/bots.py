"""Wiener Rummy's and American Knock Rummy's own decisions for the greedy-type bots (rules §5).

:class:`~rumino.players.greedy.GreedyPlayer` (and so ``threshold:T``) hands these
games' views to :func:`wiener_choice`; the random player needs nothing, it picks
among ``view.legal_actions``. The defaults:

* draw the top discard when it lowers the deadwood after the best discard, else the stock;
* call rummy whenever 10 cards can be melded (it ends the deal at once, §5.4);
* knock as soon as allowed: at the rules' limit (greedy) or at ``T`` (threshold), never in
  the last round after someone else's knock; American Knock Rummy has no limit (§5.8), so
  the greedy bot knocks at :data:`NO_LIMIT_KNOCK_AT` or less, and there (no limit) a bot's
  knock point rises by one for each of its turns in a hand beyond :data:`PATIENCE`: with one
  pack, bots that only discard their worst card can hold each other's cards for ever;
* buy back whenever offered (§5.5: it is offered only when it lowers the score), unless the
  bot's ``max_rebuys`` is 0;
* discard the card that leaves the least deadwood, keeping jokers, then shedding the highest.

>>> from rumino.variants.wiener import WienerGame, WIENER
>>> from rumino.players import GreedyPlayer, ThresholdKnocker
>>> from rumino.engine.protocol import play
>>> g = play(WienerGame.new(WIENER, 3, seed=2), [GreedyPlayer(), ThresholdKnocker(2), GreedyPlayer()])
>>> g.game_over, sum(g.result.payouts) == g.result.pot
(True, True)
"""

from __future__ import annotations

from rumino.cards import JOKER
from rumino.engine.actions import DEAL, DRAW_DISCARD, DRAW_STOCK, Discard, KnockWith
from rumino.engine.player import Player
from rumino.engine.protocol import Action
from rumino.engine.table import forbidden_discard
from rumino.variants.wiener.game import BUYBACK, DECLINE_BUYBACK, CallRummy, WienerView


NO_LIMIT_KNOCK_AT = 10  # greedy's knock point where the rules set no limit (American Knock Rummy): Gin's limit
PATIENCE = 20  # turns in a hand after which a bot in a game without a knock limit lowers its standards


def wiener_choice(player: Player, view: WienerView) -> Action:
    """The greedy-type bot's action in a Wiener Rummy or American Knock Rummy position."""
    ph = view.phase
    if ph == "turn":
        return _draw(view)
    if ph == "discard":
        return _after_draw(player, view)
    if ph == "buyback":
        return DECLINE_BUYBACK if getattr(player, "max_rebuys", None) == 0 else BUYBACK
    if ph == "between_hands":
        return DEAL
    raise ValueError(f"player {view.seat} has nothing to decide in phase {view.phase!r}.")


def _draw(view: WienerView) -> Action:
    top = view.top_discard
    if top is None:
        return DRAW_STOCK
    if not view.can_draw_stock:
        return DRAW_DISCARD
    ev = view.evaluator
    ban = None if view.may_rediscard_pickup else forbidden_discard(top, view.hand + (top,), view.pickup_bars_twin)
    value, _ = ev.after_draw(view.hand + (top,), ban)
    return DRAW_DISCARD if value < ev.deadwood(view.hand) else DRAW_STOCK


def _after_draw(player, view: WienerView) -> Action:
    ev = view.evaluator
    value, best = ev.after_draw(view.hand, view.forbidden)
    values = ev.values
    card = max(best, key=lambda c: (c != JOKER, values[c], c))
    if view.last_round or (view.opening and not view.rules.dealer_opening_ends):
        return Discard(card)  # W-D4, W-D2: the last round and the dealer's first turn are a plain discard
    if value == 0 and CallRummy in view.action_set.classes:
        return CallRummy(card)
    limit = view.knock_limit
    at = player.knock_at(view)
    if at is None:
        at = NO_LIMIT_KNOCK_AT
    if limit is None:
        at += max(0, _turns_this_hand(player, view) - PATIENCE)
    if value <= at and (limit is None or value <= limit):
        return KnockWith(card)
    return Discard(card)


def _turns_this_hand(player, view) -> int:
    """This bot's turns so far in the current hand (kept on the bot: a hand is known by its number)."""
    hand, turns = getattr(player, "_knock_turns", (None, 0))
    turns = turns + 1 if hand == view.hand_number else 1
    player._knock_turns = (view.hand_number, turns)
    return turns


__all__ = ["wiener_choice", "NO_LIMIT_KNOCK_AT", "PATIENCE"]
