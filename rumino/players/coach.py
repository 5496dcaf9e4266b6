"""The coach's words: why the search player makes its move, as a card player would say it.

:func:`explain` reads a :class:`~rumino.players.search.Decision` (the move, the other moves it
tried with their chances of winning the hand, and — with the opponent model — the hands it imagined
the other players holding) and the position, and says:

* the move and its reason: which card goes and why (it fits none of the melds, it is the dearest
  loose card, the opponent would rather not see it), which card is taken and what it does for the hand,
  why a knock is made now;
* what the opponent most likely holds: the cards he took and still holds, and the ones most often in
  his hand among the hands that explain his play (he passed or threw some cards, he has not knocked);
* the odds: the move's chance of winning the hand over the rollouts, beside the best other move's.

>>> from rumino.playing.seeding import new_table
>>> from rumino.players.search import SearchPlayer
>>> game, _ = new_table("gin", ["greedy", "greedy"], 3, 0)
>>> player = SearchPlayer(200, seed=1, model=True)
>>> _ = player.choose(game.view(game.to_act))
>>> lines = explain(player.last, game.view(game.to_act))
>>> len(lines) >= 2 and all(isinstance(x, str) and x for x in lines)
True
"""

from __future__ import annotations

from collections import Counter
from typing import Iterable

import numpy as np

from rumino.cards import format_card
from rumino.engine.actions import Discard, Draw, Gin, Knock, KnockWith
from rumino.engine.player import neighbours
from rumino.engine.protocol import PlayerView
from rumino.players.opponent_model import meld_shares
from rumino.players.search import Decision

__all__ = ["explain", "card", "cards"]


def card(c: int) -> str:
    """A card as the table shows it: ``7♥``, ``★``."""
    return format_card(c, unicode=True)


def cards(cs: Iterable[int]) -> str:
    return " ".join(card(c) for c in cs)


def _pct(x: float) -> str:
    return f"{100 * x:.0f}%"


def _move(action) -> str:
    kind = type(action)
    c = getattr(action, "card", None)
    if kind is Discard:
        return f"throwing {card(c)}"
    if kind is KnockWith:
        return f"knocking with {card(c)} face down"
    if kind is Gin:
        return f"going gin with {card(c)}"
    if kind is Knock:
        return "knocking"
    if kind is Draw:
        return "taking the top discard" if action.source == "discard" else "drawing from the stock"
    verb = getattr(kind, "verb", None)
    if verb and c is not None:
        return f"{verb} {card(c)}"
    if verb:
        return str(verb)
    return str(action)


def _others(decision) -> list[tuple]:
    return [(a, share, n) for a, share, n in decision.values[1:] if n]


def _odds(decision, heads_up: bool) -> str:
    what = "you win the hand" if heads_up else "you beat the other players"
    if not decision.values:
        return ""
    a, share, n = decision.values[0]
    half = 1.96 * (share * (1 - share) / n) ** 0.5 if n else 0.0
    line = f"Played this way {what} about {_pct(share)} of the time (± {_pct(half)}, over {n} imagined deals)"
    others = _others(decision)
    if others:
        best = max(others, key=lambda t: t[1])
        line += f"; the best other move, {_move(best[0])}, {_pct(best[1])}"
        if best[1] > share:
            line += " — a difference within the luck of the imagined deals, so the plain move stays"
    return line + "."


def _hands_array(hands) -> np.ndarray:
    return np.asarray(hands, dtype=np.int64)


def _guess_lines(decision, view) -> list[str]:
    """What the other players most likely hold, from the hands the search imagined for them."""
    out = []
    known = {}
    reader = getattr(view, "known_held", None)
    for seat, hands in decision.guess.items():
        hands = _hands_array(hands)
        if hands.size == 0:
            continue
        counts: Counter = Counter()
        for row in hands:
            for c in set(int(x) for x in row if x >= 0):
                counts[c] += 1
        n = hands.shape[0]
        sure = sorted(c for c, k in counts.items() if k == n)
        size = int((hands[0] >= 0).sum())
        unseen = max(1, int(np.asarray(view.unseen).sum()))
        chance = (size - len(sure)) / max(1, unseen - len(sure))  # a card picked at random: the baseline
        likely = [c for c, k in counts.most_common() if k < n and k / n >= max(0.4, 1.3 * chance)][:4]
        name = "He" if len(decision.guess) == 1 else f"Player {seat}"
        parts = []
        if sure:
            parts.append(f"{name} surely holds {cards(sure)} (taken face up and kept)")
        if likely:
            shown = ", ".join(f"{card(c)} {_pct(counts[c] / n)}" for c in likely)
            parts.append(f"{'he' if parts else name} most likely holds {shown} "
                         f"(any other unseen card: about {_pct(chance)})")
        if parts:
            out.append("; ".join(parts) + ".")
        known[seat] = hands
    return out


def _card_reason(action, decision, view) -> list[str]:
    """Why this card goes: melds, deadwood, and how much the opponent would want it."""
    ev = view.evaluator
    hand = list(view.hand)
    c = action.card
    forbidden = getattr(view, "forbidden", None)
    best_value, best_cards = ev.after_draw(tuple(hand), forbidden)
    rest = list(hand)
    rest.remove(c)
    left = ev.deadwood(rest)
    lines = []
    values = ev.values
    # a careful bot's discard (Rommé's, Wiener's) is a loose card with few neighbours, not always the dearest
    near = "in your hand (another suit of its rank, or its suit a rank or two away)"
    if c in best_cards:
        dearest = all(values[c] >= values[x] for x in best_cards)
        line = (f"{card(c)} fits none of your melds" + (" and is your dearest loose card" if dearest else "")
                + f": without it you keep {left} deadwood, the least you can.")
        dearer = sorted({x for x in best_cards if values[x] > values[c]})
        if dearer and all(neighbours(x, hand) > neighbours(c, hand) for x in dearer):
            line += (f" It has fewer neighbours {near} than {cards(dearer)}, which may still meld.")
        lines.append(line)
    elif neighbours(c, hand) < min(neighbours(x, hand) for x in best_cards):
        lines.append(f"{card(c)} leaves you {left} deadwood, not the least ({best_value}), but it has fewer "
                     f"neighbours {near} than any card that leaves the least, so it is the least likely to meld.")
    else:
        lines.append(f"{card(c)} leaves you {left} deadwood, not the least ({best_value}), "
                     f"but the imagined deals win more often this way.")
    hands = [(_hands_array(h)) for h in decision.guess.values()]
    if hands and hands[0].size and type(action) is Discard:
        thrown = [c] + [a.card for a, _s, _n in _others(decision) if type(a) is Discard and a.card != c][:2]
        shares = meld_shares(np.concatenate(hands), view.evaluator.meld_rules, thrown)
        line = f"He could use {card(c)} in {_pct(shares[0])} of the hands he may hold"
        if len(thrown) > 1:
            line += "; " + ", ".join(f"{card(x)} in {_pct(s)}" for x, s in zip(thrown[1:], shares[1:]))
        lines.append(line + ".")
    return lines


def _knock_reason(action, decision, view) -> list[str]:
    ev = view.evaluator
    hand = list(view.hand)
    if getattr(action, "card", None) is not None:
        hand.remove(action.card)
    mine = ev.deadwood(hand)
    lines = [f"You knock with {mine} deadwood."]
    hands = [(_hands_array(h)) for h in decision.guess.values()]
    if hands and hands[0].size:
        from rumino.hand.kernels import min_deadwood_batch

        rows = np.concatenate(hands)
        counts = np.zeros((rows.shape[0], 53), dtype=np.int8)
        for j in range(rows.shape[1]):
            ok = rows[:, j] >= 0
            np.add.at(counts, (np.flatnonzero(ok), rows[ok, j]), 1)
        theirs = min_deadwood_batch(counts, ev.meld_rules)
        lines.append(f"In the hands he may hold, his deadwood is above yours {_pct(float((theirs > mine).mean()))} "
                     f"of the time (before any lay-offs).")
    return lines


def _draw_reason(action, view) -> list[str]:
    top = getattr(view, "top_discard", None)
    if top is None:
        return []
    ev = view.evaluator
    hand = tuple(view.hand)
    now = ev.deadwood(hand)
    ban = None if getattr(view, "may_rediscard_pickup", False) else top
    with_it = ev.after_draw(hand + (top,), ban)[0]
    if action.source == "discard":
        if with_it < now:
            return [f"{card(top)} brings your deadwood from {now} to {with_it} after your best discard."]
        return [f"{card(top)} leaves your deadwood at {with_it} after your best discard, no lower than now ({now}), "
                f"but in the imagined deals the hand goes better with it."]
    if with_it < now:
        return [f"{card(top)} would bring your deadwood from {now} to {with_it}, but the imagined deals go better "
                f"without showing him what you collect."]
    return [f"{card(top)} does not help you: with it your deadwood after the best discard would be {with_it} "
            f"(now {now})."]


def explain(decision: Decision | None, view: PlayerView) -> list[str]:
    """The coach's sentences for ``decision`` (the search player's last) in the position of ``view``."""
    if decision is None:
        return []
    action = decision.action
    lines = [f"My move: {_move(action)}."]
    if decision.forced:
        lines.append(f"There is nothing to weigh: {decision.reason}.")
        return lines
    is_table = hasattr(view, "evaluator") and hasattr(view, "hand")
    kind = type(action)
    if is_table:
        if kind in (Discard, KnockWith, Gin):
            lines += _card_reason(action, decision, view)
        if kind in (KnockWith, Knock):
            lines += _knock_reason(action, decision, view)
        if kind is Draw:
            lines += _draw_reason(action, view)
        elif getattr(view, "phase", "") == "offer" and getattr(view, "top_discard", None) is not None:
            lines += _draw_reason(Draw("stock"), view)  # Gin's upcard passed
        lines += _guess_lines(decision, view)
    heads_up = sum(1 for x in getattr(view, "in_hand", (True, True)) if x) <= 2
    odds = _odds(decision, heads_up)
    if odds:
        lines.append(odds)
    return lines
