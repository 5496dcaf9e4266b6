"""German Rommé's bot (rules §3): the decisions the greedy-type bots take in a Rommé game.

:class:`~rumino.players.greedy.GreedyPlayer` hands Rommé views to :func:`romme_choice`
(``--players greedy`` is the Rommé bot, as it is Gin's and Wiener's own bot there;
``threshold:T`` plays the same, Rommé has no knock). The bot sees only its view:

* **draw**: the top discard when it helps — it opens the bot now (when it could not
  open before), or, once open, it lays off onto the table or lowers the hand's
  penalty after the best discard; otherwise the stock. Under
  ``must_meld_immediately`` only when the engine lists the draw (a play must lay it);
* **play**: open as soon as the best opening (:func:`rumino.hand.arrange.max_opening`)
  reaches the minimum — or lay the whole hand out as a hand-Rommé when it can; once
  open, lay every meld the hand holds, exchange table jokers for naturals it holds,
  laying the freed joker in a new meld (or laying it off where ``freed_joker_use``
  allows), then lay off every card that fits. Every step is kept only if the whole play
  is still legal (:meth:`~rumino.variants.romme.RommeView.evaluate`);
* **discard**: the card that leaves the least penalty in melds-or-not terms (the
  evaluator's deadwood with Rommé's penalty values), shedding the highest, keeping jokers.

>>> from rumino.variants.romme import RommeGame, ROMME
>>> from rumino.players import GreedyPlayer, RandomPlayer
>>> from rumino.engine import play
>>> g = play(RommeGame.new(ROMME, 3, seed=2), [GreedyPlayer(), RandomPlayer(seed=1), GreedyPlayer()])
>>> g.game_over, len(g.results) == 3
(True, True)
"""

from __future__ import annotations

from typing import Callable, Sequence

from rumino.cards import JOKER, to_counts
from rumino.engine.actions import DEAL, DRAW_DISCARD, DRAW_STOCK, Discard
from rumino.engine.protocol import Action
from rumino.errors import IllegalActionError
from rumino.melds import candidate_melds, meld_readings
from rumino.table.melds import LayOff, lay_off
from rumino.variants.romme.game import (Play, RommeView, could_lay_off, joker_exchanges, without_cards, best_opening_melds, lay_of,
                                   layout_melds)
from rumino.engine.player import Player, neighbours, pick_discard
from rumino.hand.opening import max_opening_fast


def romme_choice(player: Player, view: RommeView,
                 discard: Callable[[RommeView], Discard] | None = None) -> Action:
    """The Rommé bot's action in any position of its own (``discard(view)``: its discard, greedy's by default;
    the careful bot passes its own)."""
    ph = view.phase
    if ph == "turn":
        return _draw(view)
    if ph == "discard":
        if view.last_card_only:
            return Discard(view.hand[0])
        if not view.played:
            steps = plan(view)
            if steps:
                return Play(steps)
            if view.pickup_pending is not None:  # the engine found a play laying the card taken
                return next(a for a in view.legal_actions if isinstance(a, Play))
        return (discard or _discard)(view)
    if ph == "between_hands":
        return DEAL
    raise ValueError(f"player {view.seat} has nothing to decide in phase {ph!r}.")


def _draw(view: RommeView):
    top = view.top_discard
    can_stock = view.can_draw_stock
    if top is None:
        return DRAW_STOCK
    if view.rules.discard_pickup_rule != "free":
        want = DRAW_DISCARD in view.legal_actions
        return DRAW_DISCARD if (want or not can_stock) else DRAW_STOCK
    if not can_stock:
        return DRAW_DISCARD

    mr = view.rules.meld_rules
    hand = view.hand
    if not view.opened[view.seat]:
        if not view.rules.pickup_counts_for_opening:
            return DRAW_STOCK
        need = view.rules.opening_min
        if max_opening_fast(hand, mr) < need <= max_opening_fast(hand + (top,), mr):
            return DRAW_DISCARD
        return DRAW_STOCK
    if any(could_lay_off(m, top) and _fits(m, top, mr) for m in view.table):
        return DRAW_DISCARD
    if top == JOKER:
        # A joker is taken only when the hand can meld it now: two naturals that make a meld with it.
        # "A joker always fits somewhere later" is false once the table's sets are full: two bots each
        # holding one dead joker took each other's discarded joker for ever (soak seed 500, game 2878).
        return DRAW_DISCARD if _joker_melds(hand, mr) else DRAW_STOCK
    if len(hand) < 2:  # too few cards to meld with
        return DRAW_STOCK
    ev = view.evaluator
    ban = None if view.rules.may_rediscard_pickup else top
    return DRAW_DISCARD if ev.after_draw(hand + (top,), ban)[0] < ev.deadwood(hand) else DRAW_STOCK


def _joker_melds(hand, mr) -> bool:
    """Whether two naturals of ``hand`` make a meld with one more joker (so a joker taken is laid now).

    >>> from rumino.cards import parse_hand
    >>> from rumino.variants.romme import ROMME
    >>> _joker_melds(parse_hand("7h 9h Kc"), ROMME.meld_rules), _joker_melds(parse_hand("7h Kc"), ROMME.meld_rules)
    (True, False)
    """
    naturals = sorted({c for c in hand if c != JOKER})
    return any(meld_readings((a, b, JOKER), mr) for i, a in enumerate(naturals) for b in naturals[i + 1:])


def _fits(m, card, mr) -> bool:
    try:
        lay_off(m, card, mr)
        return True
    except IllegalActionError:
        return False


def _ok(view, steps):
    try:
        return view.evaluate(steps)
    except IllegalActionError:
        return None


def plan(view: RommeView) -> tuple:
    """The bot's play this turn (empty: nothing to lay)."""
    rules = view.rules
    mr = rules.meld_rules
    hand = view.hand
    opened = view.opened[view.seat]
    steps: tuple = ()
    if not opened:
        if view.eligible:  # a hand-Rommé: every card laid now, bar a last discard
            whole = tuple(lay_of(m) for m in layout_melds(hand, rules, view.pickup))
            if whole and _ok(view, whole):
                return whole
        base = hand
        if view.pickup is not None and not rules.pickup_counts_for_opening and view.pickup in hand:
            base = tuple(without_cards(hand, [view.pickup]))
        melds = best_opening_melds(base, rules, rules.opening_min)
        if not melds:
            return ()
        steps = tuple(lay_of(m) for m in melds)
        out = _ok(view, steps)
        if out is None:
            return ()
    else:
        steps = tuple(lay_of(m) for m in best_opening_melds(hand, rules))
        out = _ok(view, steps) if steps else None
        if out is None:
            steps = ()
    table = out.table if out is not None else view.table
    left = list(out.hand) if out is not None else list(hand)
    # exchange table jokers for naturals held, laying the freed joker at once
    for i, m in enumerate(table):
        for s in sorted({s for c, s in zip(m.cards, m.stands_for) if c == JOKER}):
            for extra in joker_exchanges(table, tuple(left), i, m, s, rules):
                trial = steps + extra
                res = _ok(view, trial)
                if res is not None:
                    steps, table, left = trial, res.table, list(res.hand)
                    break
    # lay off every card that fits, repeatedly (a card laid off can make room for the next)
    changed = True
    while changed and len(left) > 0:
        changed = False
        for c in sorted(set(left), key=lambda c: (c == JOKER, c)):
            for i, m in enumerate(table):
                if not could_lay_off(m, c) or not _fits(m, c, mr):
                    continue
                trial = steps + (LayOff(i, c),)
                res = _ok(view, trial)
                if res is not None:
                    steps, table, left, changed = trial, res.table, list(res.hand), True
                    break
            if changed:
                break
    # then any meld the rest still makes (the exchanged jokers may complete one)
    if steps and left:
        for cand in candidate_melds(to_counts(left), mr):
            trial = steps + (lay_of(cand.reading),)
            res = _ok(view, trial)
            if res is not None:
                steps, left = trial, list(res.hand)
                break
    return steps if steps and _ok(view, steps) is not None else ()


def _discard(view: RommeView):
    forbidden = view.forbidden
    hand = view.hand
    if len(hand) == 1:
        return Discard(hand[0])
    value, best = view.evaluator.after_draw(hand, forbidden)
    return Discard(pick_discard(best, view))


def careful_discard(view: RommeView) -> Discard:
    """The careful bot's discard: of the cards in no meld of the hand's best arrangement (those whose
    discard lowers the penalty by their whole value), the one with the fewest :func:`neighbours`, the
    highest of equals; and while another is left, never a card an opponent who has opened could lay off on
    the table (he would take it). Jokers are kept; a hand with no such card discards as greedy does."""
    if len(view.hand) == 1:
        return Discard(view.hand[0])
    card = careful_card(view, view.hand, view.forbidden)
    return _discard(view) if card is None else Discard(card)


def careful_card(view: RommeView, hand: Sequence[int], forbidden: int | None) -> int | None:
    """:func:`careful_discard`'s card from ``hand`` (``forbidden`` may not go), the table and the opponents as
    ``view`` shows them; None when every card but the jokers and ``forbidden`` is in a meld."""
    ev = view.evaluator
    values = ev.values
    whole = ev.deadwood(hand)
    loose = []
    for c in sorted(set(hand)):
        if c == JOKER or c == forbidden:
            continue
        rest = list(hand)
        rest.remove(c)
        if ev.deadwood(rest) == whole - values[c]:
            loose.append(c)
    if not loose:
        return None
    if any(o for p, o in enumerate(view.opened) if p != view.seat):
        mr = view.rules.meld_rules
        safe = [c for c in loose if not any(could_lay_off(m, c) and _fits(m, c, mr) for m in view.table)]
        loose = safe or loose
    return min(loose, key=lambda c: (neighbours(c, hand), -values[c], -c))


def _careful_take(view: RommeView) -> bool:
    """Before opening: take the top discard when the hand, after it and the discard that would follow,
    holds more meld points than now. The points must rise across the whole turn: two careful players taking
    each other's discards for ever (a card that completes a meld, then the discard of one that breaks
    another) is impossible, since each take raises the taker's points and they are bounded."""
    top, hand = view.top_discard, tuple(view.hand)
    mr = view.rules.meld_rules
    now = max_opening_fast(hand, mr)
    more = hand + (top,)
    if max_opening_fast(more, mr) <= now:
        return False
    ban = None if view.rules.may_rediscard_pickup else top
    card = careful_card(view, more, ban)
    if card is None:
        return False
    kept = list(more)
    kept.remove(card)
    return max_opening_fast(tuple(kept), mr) > now


def careful_choice(player: Player, view: RommeView) -> Action:
    """The careful bot (the best player's own moves in Rommé, found by tournament against greedy): greedy's
    plays, with these changes a card player can read. Take the top discard whenever it completes a meld in
    the hand that the turn's discard will not break (:func:`_careful_take`), not only when it lets you open
    at once; once open, take it for that, a lay-off or a joker, never only to lower the penalty; and discard as
    :func:`careful_discard` does, keeping the loose cards that have neighbours and never feeding an
    opponent's lay-offs."""
    ph = view.phase
    top = view.top_discard
    if ph == "turn" and view.can_draw_stock and top is not None and view.rules.discard_pickup_rule == "free" \
            and DRAW_DISCARD in view.legal_actions:
        if view.opened[view.seat]:
            # greedy's lay-offs and jokers; else only a card that adds a meld (greedy also takes a card that
            # only lowers the penalty, and two careful players would pass such cards back and forth)
            if top == JOKER or any(could_lay_off(m, top) and _fits(m, top, view.rules.meld_rules) for m in view.table):
                return _draw(view)
            return DRAW_DISCARD if _careful_take(view) else DRAW_STOCK
        if top != JOKER and view.rules.pickup_counts_for_opening and _careful_take(view):
            return DRAW_DISCARD
    return romme_choice(player, view, discard=careful_discard)


class CarefulRommePlayer(Player):
    """The careful Rommé bot (:func:`careful_choice`) as a player: the moves the best player keeps and
    plays its rollouts with in German Rommé (``Variant.bots.best_policy``).

    >>> from rumino.variants.romme import RommeGame, ROMME
    >>> from rumino.players import GreedyPlayer
    >>> from rumino.engine import play
    >>> play(RommeGame.new(ROMME, 2, seed=2), [CarefulRommePlayer(), GreedyPlayer()]).game_over
    True
    """

    kind = "careful"

    def __init__(self, name: str | None = None):
        super().__init__(name or "the careful bot")  # read in sentences: "the careful bot's move"

    def choose(self, view: RommeView) -> Action:
        return careful_choice(self, view)


def coach_move(view: RommeView) -> Play | None:
    """The coach's table move for the player of ``view``: the bot's plan as one play, None when there is
    no play to make now (not the discard phase, played already, or only the last card may go)."""
    if view.phase != "discard" or view.played or view.last_card_only:
        return None
    steps = plan(view)
    return Play(steps) if steps else None

__all__ = ["romme_choice", "plan", "coach_move", "neighbours", "careful_discard", "careful_choice",
           "CarefulRommePlayer"]
