"""What one hand is worth in a game: the report behind ``rumino deadwood`` and the HandExplorer.

The numbers (deadwood, best discards) come from the one evaluator the games and bots use
(:func:`rumino.engine.evaluator.evaluator_for`); the reference search lays out the melds to show.

>>> r = evaluate_hand("7h 8h 9h 10h 5c 5d 5s", "rumino")
>>> r["deadwood"], r["gin"], r["can_knock"]
(0, True, True)
>>> evaluate_hand("7h 8h", "rummoli")
Traceback (most recent call last):
...
rumino.compare.hand_report.HandReportError: Rummoli has no melds and no deadwood: its rummy phase is a stops game (rules §2).
"""

from __future__ import annotations

from typing import Any, Iterable

from rumino.cards import format_card, format_hand, parse_hand
from rumino.engine.evaluator import evaluator_for
from rumino.errors import RuminoError
from rumino.hand.arrange import Arrangement, all_best_arrangements, max_opening
from rumino.variants import Variant, find_variant

__all__ = ["HandReportError", "evaluate_hand", "evaluate_cards", "table_game_extras", "HAND_EXTRAS", "penalty", "opening"]


class HandReportError(RuminoError, ValueError):
    """A hand that cannot be valued in the game asked for (wrong size, a game without melds)."""


def evaluate_hand(hand_text: str, variant_name: str = "rumino") -> dict:
    """Everything ``rumino deadwood`` reports, as the dict printed by ``--json``.

    >>> evaluate_hand("2c 3c 4c 9d 9h 9s 8d")["can_knock"]
    False
    """
    return evaluate_cards(parse_hand(hand_text), variant_name)[0]


def evaluate_cards(hand: Iterable[int], variant_name: str = "rumino") -> tuple[dict, Arrangement]:
    """``(report, best arrangement of the cards kept)`` for the card ids ``hand``.

    The numbers (deadwood, best discards) come from the one evaluator the games and
    bots use (:func:`rumino.engine.evaluator.evaluator_for`); the reference search
    only lays out the melds to show, and must agree with it.
    """
    variant: Variant = find_variant(variant_name)
    rules = variant.meld_rules()
    if rules is None:
        raise HandReportError(f"{variant.title} has no melds and no deadwood: its rummy phase is a stops game "
                           f"(rules {variant.section}).")
    hand = list(hand)
    rules.pack.check_hand(hand)  # first, so a third 7h is named even in a hand of the wrong size
    if len(hand) not in variant.hand_sizes:
        sizes = variant.hand_sizes
        # "6 to 11" only where every size between is allowed (Knock Rummy's are 6, 7, 8, 10, 11)
        contiguous = list(sizes) == list(range(sizes[0], sizes[-1] + 1))
        allowed = (f"{sizes[0]} to {sizes[-1]}" if contiguous and len(sizes) > 2
                   else ", ".join(map(str, sizes[:-1])) + f" or {sizes[-1]}" if len(sizes) > 1 else str(sizes[0]))
        article = "an" if variant.title[0] in "AEIOU" else "a"
        raise HandReportError(f"{article} {variant.title} hand has {allowed} cards; {format_hand(hand) or 'the hand'} "
                           f"has {len(hand)}.")
    out: dict = {"hand": [format_card(c) for c in hand], "variant": variant.key}
    drawn = variant.knock_field is not None and len(hand) == variant.hand_sizes[-1]
    ev = evaluator_for(rules)
    kept = list(hand)
    if drawn:  # one card over: the value after the best discard
        value, discards = ev.after_draw(hand)
        kept.remove(discards[0])
        out["discards"] = [format_card(c) for c in discards]
    else:
        value = ev.deadwood(hand)
    best = all_best_arrangements(kept, rules, limit=1)[0]
    if best.deadwood != value:  # pragma: no cover - the two searches are tested to agree
        raise AssertionError(f"the evaluator says {value}, the arrangement search {best.deadwood}")
    out["deadwood"] = value
    out["melds"] = [[format_card(c) for c in m.cards] for m in best.melds]
    out["unmatched"] = [format_card(c) for c in best.unmatched]
    if variant.has_gin:
        out["gin"] = best.deadwood == 0
    if variant.has_rumino:
        out["rumino"] = variant.rules.rumino_in(hand) is not None
    if variant.knock_field is not None:
        limit = variant.knock_limit()  # None: knock at any count (American Knock Rummy, rules §5.8)
        out["can_knock"] = limit is None or best.deadwood <= limit
        out["knock_limit"] = limit
    out.update(table_game_extras(hand, variant))
    return out, best


def penalty(hand: Iterable[int], rules: Any) -> int:
    """rules §3.5: every card left in hand pays its §3.3 penalty, melds or not (nothing was laid): the
    rules of a game with penalties (Rommé's, Robber's)."""
    return int(sum(rules.meld_rules.value(c) for c in hand))


def opening(hand: Iterable[int], rules: Any) -> dict:
    """The hand's best opening (rules §3.3, §3.4; Robber RR4) and whether it reaches ``opening_min`` (the rules
    of a game that opens from its hand: Rommé's, Robber's)."""
    best = max_opening(hand, rules.meld_rules)
    return {"value": best.value, "melds": [[format_card(c) for c in m.cards] for m in best.melds],
            "opens": best.value >= rules.opening_min, "opening_min": rules.opening_min}


HAND_EXTRAS = {"penalty": penalty, "opening": opening}
"""What ``rumino deadwood`` may add to a hand's arrangement, by the names a Variant lists (``hand_extras``)."""


def table_game_extras(hand: Iterable[int], variant: Variant) -> dict:
    """The extras the game's row asks for (``Variant.hand_extras``): Rommé's penalty of the hand and its best
    opening; Robber's opening; nothing for other games.

    >>> table_game_extras(parse_hand("10s Js Qs 3d 3h 3c Kd"), find_variant("romme"))["penalty"]
    49
    """
    return {name: HAND_EXTRAS[name](hand, variant.rules) for name in variant.hand_extras}
