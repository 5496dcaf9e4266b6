"""``rumino deadwood HAND [--variant NAME] [--json]``: the exact best arrangement of a hand.

For German Rommé it also prints what the hand costs if its holder is caught with
it (the penalty of RULES §3.5, with the rules' ``joker_penalty`` and ``ace_penalty``)
and its best opening from the hand alone (RULES §3.3, §3.4); Robber Rummy prints
the opening too (RULES §4, RR4).

>>> from rumino.cli import main
>>> main(["deadwood", "7h 8h 9h 10h 5c 5d 5s", "--variant", "rumino"])
7h 8h 9h 10h | 5s 5c 5d
deadwood 0 · gin: yes · rumino: no · may knock: yes (limit 7)
0
"""

from __future__ import annotations

import json

from rumino.hand.arrange import Arrangement, all_best_arrangements, max_opening
from rumino.cards import format_card, format_hand, parse_hand
from rumino.engine.evaluator import evaluator_for
from rumino.variants import Variant, find_variant
from rumino.variants.rumino import rumino_in
from rumino.cli import CommandError


def evaluate_hand(hand_text: str, variant_name: str = "rumino") -> dict:
    """Everything ``rumino deadwood`` reports, as the dict printed by ``--json``.

    >>> evaluate_hand("2c 3c 4c 9d 9h 9s 8d")["can_knock"]
    False
    """
    return evaluate_cards(parse_hand(hand_text), variant_name)[0]


def evaluate_cards(hand, variant_name="rumino") -> tuple[dict, Arrangement]:
    """``(report, best arrangement of the cards kept)`` for the card ids ``hand``.

    The numbers (deadwood, best discards) come from the one evaluator the games and
    bots use (:func:`rumino.engine.evaluator.evaluator_for`); the reference search
    only lays out the melds to show, and must agree with it.
    """
    variant: Variant = find_variant(variant_name)
    rules = variant.meld_rules()
    if rules is None:
        raise CommandError(f"{variant.title} has no melds and no deadwood: its rummy phase is a stops game "
                           f"(RULES {variant.section}).")
    hand = list(hand)
    rules.pack.check_hand(hand)  # first, so a third 7h is named even in a hand of the wrong size
    if len(hand) not in variant.hand_sizes:
        sizes = variant.hand_sizes
        allowed = (f"{sizes[0]} to {sizes[-1]}" if len(sizes) > 2 else " or ".join(map(str, sizes)))
        raise CommandError(f"a {variant.title} hand has {allowed} cards; {format_hand(hand) or 'the hand'} "
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
        out["rumino"] = rumino_in(hand, variant.rules) is not None
    if variant.knock_field is not None:
        limit = variant.knock_limit()  # None: knock at any count (American Knock Rummy, RULES §5.8)
        out["can_knock"] = limit is None or best.deadwood <= limit
        out["knock_limit"] = limit
    out.update(_romme_extras(hand, variant))
    return out, best


def _romme_extras(hand, variant: Variant) -> dict:
    """Rommé's penalty of the hand and its best opening; Robber's opening; nothing for other games.

    >>> _romme_extras(parse_hand("10s Js Qs 3d 3h 3c Kd"), find_variant("romme"))["penalty"]
    49
    """
    if variant.key not in ("romme", "robber"):
        return {}
    rules = variant.rules
    mr = rules.meld_rules
    out: dict = {}
    if variant.key == "romme":
        # RULES §3.5: every card left in hand pays its §3.3 penalty, melds or not (nothing was laid)
        out["penalty"] = int(sum(mr.value(c) for c in hand))
    best = max_opening(hand, mr)
    out["opening"] = {"value": best.value, "melds": [[format_card(c) for c in m.cards] for m in best.melds],
                      "opens": best.value >= rules.opening_min, "opening_min": rules.opening_min}
    return out


def _text(report: dict) -> str:
    melds = " | ".join(" ".join(m) for m in report["melds"])
    first = melds + (("  ·  " if melds else "") + "unmatched " + " ".join(report["unmatched"])
                     if report["unmatched"] else "")
    facts = [f"deadwood {report['deadwood']}"]
    if "discards" in report:
        facts.append("best discard " + " or ".join(report["discards"]))
    yes = {True: "yes", False: "no"}
    if "gin" in report:
        facts.append(f"gin: {yes[report['gin']]}")
    if "rumino" in report:
        facts.append(f"rumino: {yes[report['rumino']]}")
    if "can_knock" in report:
        limit = "none" if report["knock_limit"] is None else report["knock_limit"]
        facts.append(f"may knock: {yes[report['can_knock']]} (limit {limit})")
    text = (first or "(no cards)") + "\n" + " · ".join(facts)
    if "penalty" in report:
        text += f"\npenalty {report['penalty']} if caught with this hand (RULES §3.5)"
    if "opening" in report:
        o = report["opening"]
        melds = " | ".join(" ".join(m) for m in o["melds"]) or "no meld"
        verdict = "opens" if o["opens"] else "does not open"
        text += f"\nbest opening {o['value']}: {melds} — {verdict} ({o['opening_min']} needed)"
    return text


def run(args) -> int:
    report = evaluate_hand(" ".join(args.hand), args.variant)
    print(json.dumps(report) if args.json else _text(report))
    return 0


def register(sub) -> None:
    p = sub.add_parser("deadwood", help="exact best arrangement and deadwood of a hand",
                       description="Print the best arrangement of HAND, its minimum deadwood and, for knock "
                                   "games, whether it is gin, a rumino and may knock. A hand one card over "
                                   "the normal size is valued after its best discard.")
    p.add_argument("hand", nargs="+", help='cards such as "7h 8h 9h 10h 5c 5d 5s" (JK or * for a joker)')
    p.add_argument("--variant", default="rumino", help="rumino (default), romme, robber, wiener or gin")
    p.add_argument("--json", action="store_true", help="print JSON instead of text")
    p.set_defaults(run=run)
