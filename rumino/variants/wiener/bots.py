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

The careful bot (:class:`CarefulWienerPlayer`, the moves Wiener's best player keeps unless its search finds
better) plays the same but for one rule: it throws the loose card with the fewest neighbours (see
:func:`careful_card`).

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
from rumino.engine.player import Player, neighbours
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


CAREFUL_SLACK = 1
"""How much more deadwood than the least the careful bot's discard may leave: a card that keeps neighbours is
worth a point now. Measured heads-up against greedy (1,000 deals played twice, seeds 78-80): 52.8%, 52.7%,
53.1% of hands at 1 point; at 0 points (only among greedy's own choices) 51.7% on seed 78, at 2 points 53.0%
but fewer points a hand."""


def careful_card(view: WienerView) -> int | None:
    """The careful bot's discard: of the cards whose discard leaves at most :data:`CAREFUL_SLACK` more
    deadwood than the best discard, the one with the fewest :func:`~rumino.engine.player.neighbours` (another
    suit of its rank, its suit a rank or two away), the dearest of equals; jokers are kept. None if no
    card but a joker may go.

    >>> from rumino.cards import format_card, format_hand
    >>> from rumino.playing.seeding import new_table
    >>> from rumino.variants.wiener.playout import Greedy
    >>> game, _ = new_table("wiener", ["greedy", "greedy"], seed=6, index=0, dealer=1)
    >>> view = game.view(game.turn)  # the dealer's opening discard
    >>> format_hand(view.hand)
    '3h 10h 4h Jh 8d 4s Kc Kh 4d Qd 10d'
    >>> format_card(wiener_choice(Greedy(), view).card), format_card(careful_card(view))  # Kh keeps Kc and Jh
    ('Kh', 'Qd')
    """
    ev = view.evaluator
    least, _ = ev.after_draw(view.hand, view.forbidden)
    hand = list(view.hand)
    loose = []
    for card in sorted(set(hand)):
        if card == JOKER or card == view.forbidden:
            continue
        rest = list(hand)
        rest.remove(card)
        if ev.deadwood(tuple(rest)) <= least + CAREFUL_SLACK:
            loose.append(card)
    if not loose:
        return None
    values = ev.values
    return min(loose, key=lambda c: (neighbours(c, hand), -values[c], -c))


def careful_choice(player: Player, view: WienerView) -> Action:
    """The careful bot's action: greedy's (:func:`wiener_choice`: its draws, knocks, rummy calls, buy-backs),
    but a plain discard is :func:`careful_card`'s, except in the last round after a knock, where the hand is
    over and only the deadwood left counts."""
    action = wiener_choice(player, view)
    if type(action) is not Discard or view.last_round:
        return action
    card = careful_card(view)
    return action if card is None else Discard(card)


class CarefulWienerPlayer(Player):
    """The careful Wiener bot (:func:`careful_choice`) as a player, knocking at the rules' limit: the moves the
    best player keeps in Wiener Rummy (``Variant.bots.best_policy``).

    >>> from rumino.variants.wiener import WienerGame, WIENER
    >>> from rumino.players import GreedyPlayer
    >>> from rumino.engine.protocol import play
    >>> play(WienerGame.new(WIENER, 2, seed=2), [CarefulWienerPlayer(), GreedyPlayer()]).game_over
    True
    """

    kind = "careful"

    def __init__(self, name: str | None = None):
        super().__init__(name or "the careful bot")  # read in sentences: "the careful bot's move"

    def knock_at(self, view: WienerView) -> int | None:
        return view.knock_limit

    def choose(self, view: WienerView) -> Action:
        return careful_choice(self, view)


__all__ = ["wiener_choice", "careful_card", "careful_choice", "CarefulWienerPlayer", "CAREFUL_SLACK",
           "NO_LIMIT_KNOCK_AT", "PATIENCE"]
