"""A bot that chases a rumino (a 7-card straight flush or 7 of a kind) when close.

When its best rumino target already holds ``min_progress`` of the 7 cards, it
keeps those cards: it takes a discard only if it adds to the target, discards
outside the target, and knocks only at 0 deadwood (which scores as gin). It
always goes gin when it can. Otherwise it plays greedy.

>>> from rumino.cards import parse_hand, format_hand
>>> progress, keep = rumino_target(parse_hand("3h 4h 5h 6h 9h Kc Ks"), RUMINO)
>>> progress, format_hand(keep)
(5, '3h 4h 5h 6h 9h')
"""

from __future__ import annotations

from collections import Counter
from typing import Iterable

from rumino.cards import JOKER
from rumino.engine import Action, Discard, TurnGame
from rumino.engine.actions import DRAW_DISCARD, DRAW_STOCK, KNOCK
from rumino.engine.drawdiscard import TableView
from rumino.players.greedy import GreedyPlayer, pick_discard
from rumino.variants import find_variant, variant_of

RUMINO = find_variant("rumino").rules  # the game whose hand it chases (rules §1.2), read from its row
RuminoRules = find_variant("rumino").rules_class


def rumino_target(hand: Iterable[int], rules: RuminoRules = RUMINO) -> tuple[int, tuple[int, ...]]:
    """The rumino the hand is closest to: ``(cards of it held, those cards)``, jokers included
    (unless ``rumino_natural_only``). Progress 7 means the hand holds a rumino."""
    hand = tuple(hand)
    jokers = (JOKER,) * (0 if rules.rumino_natural_only else min(hand.count(JOKER), 7))
    j = len(jokers)
    best_n, best_kind, best_key = j, None, None
    by_rank = Counter(c % 13 for c in hand if c != JOKER)
    distinct = rules.set_suits == "distinct"
    for r, k in by_rank.items():  # seven of a kind
        if distinct:
            k = len({c for c in hand if c != JOKER and c % 13 == r})
        k = min(k, 7 - j) + j
        if k > best_n:
            best_n, best_kind, best_key = k, "kind", r
    masks = [0, 0, 0, 0]
    for c in hand:
        if c != JOKER:
            masks[c // 13] |= 1 << (c % 13)
    for s, m in enumerate(masks):  # straight flush windows A-7 … 7-K
        if bin(m).count("1") + j <= best_n:
            continue
        for start in range(7):
            k = min(bin(m & (0x7F << start)).count("1") + j, 7)
            if k > best_n:
                best_n, best_kind, best_key = k, "run", (s, start)
    if best_kind is None:
        return best_n, jokers
    if best_kind == "kind":
        cards = sorted(c for c in hand if c != JOKER and c % 13 == best_key)
        keep = sorted(set(cards)) if distinct else cards
    else:
        s, start = best_key
        keep = [s * 13 + r for r in range(start, start + 7) if masks[s] >> r & 1]
    keep = tuple(keep[:7 - j]) + jokers
    return len(keep), keep


class RuminoChaser(GreedyPlayer):
    """Keeps cards toward a rumino once ``min_progress`` of its 7 cards are in place."""

    kind = "chaser"

    def __init__(self, min_progress: int = 5, *, max_rebuys: int | None = None, name: str | None = None):
        if isinstance(min_progress, bool) or not isinstance(min_progress, int) or not 1 <= min_progress <= 7:
            raise ValueError(f"min_progress is {min_progress!r}: it must be an integer from 1 to 7.")
        super().__init__(max_rebuys=max_rebuys, name=name or ("chaser" if min_progress == 5 else f"chaser:{min_progress}"))
        self.min_progress = min_progress

    @classmethod
    def fits(cls, game: type[TurnGame]) -> bool:
        """The games with a rumino to chase (``Variant.has_rumino``: Rumino's seven-card hands)."""
        v = variant_of(game)
        return v is not None and v.has_rumino

    def start_turn(self, view: TableView) -> Action:
        progress, keep = rumino_target(view.hand, view.rules)
        if progress < self.min_progress:
            return super().start_turn(view)
        ev = view.evaluator  # the game's own (Rumino's knows which cards complete a rumino)
        can_stock = view.can_draw_stock
        if progress < 7 and ev.deadwood(view.hand) == 0:
            return KNOCK  # a zero knock is a sure gin (knock_zero_is_gin) or at worst a 0-point knock
        top = view.top_discard
        if top is not None and (not can_stock or top in ev.outs(view.hand)
                                or rumino_target(view.hand + (top,), view.rules)[0] > progress):
            return DRAW_DISCARD
        return DRAW_STOCK if can_stock else DRAW_DISCARD

    def after_draw(self, view: TableView) -> Action:
        if view.rumino_ready:
            return super().after_draw(view)
        ev = view.evaluator  # the game's own (Rumino's knows which cards complete a rumino)
        forbidden = view.forbidden
        value, _ = ev.after_draw(view.hand, forbidden)
        progress, keep = rumino_target(view.hand, view.rules)
        if value == 0 or progress < self.min_progress:
            return super().after_draw(view)
        outside = Counter(view.hand) - Counter(keep)
        options = [c for c in outside if c != forbidden]
        if not options:
            return super().after_draw(view)
        scored = {}
        for c in options:
            kept = list(view.hand)
            kept.remove(c)
            scored[c] = ev.deadwood(kept)
        low = min(scored.values())
        return Discard(pick_discard([c for c, v in scored.items() if v == low], view))
