"""``rumino deadwood HAND [--variant NAME] [--json]``: the exact best arrangement of a hand.

For German Rommé it also prints what the hand costs if its holder is caught with
it (the penalty of rules §3.5, with the rules' ``joker_penalty`` and ``ace_penalty``)
and its best opening from the hand alone (rules §3.3, §3.4); Robber Rummy prints
the opening too (rules §4, RR4).

>>> from rumino.cli import main
>>> main(["deadwood", "7h 8h 9h 10h 5c 5d 5s", "--variant", "rumino"])
7h 8h 9h 10h | 5s 5c 5d
deadwood 0 · gin: yes · rumino: no · may knock: yes (limit 7)
0
"""

from __future__ import annotations

import json

from rumino.cli import CommandError
from rumino.compare.hand_report import evaluate_hand
from rumino.errors import RuleConfigError
from rumino.variants import find_variant


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
        text += f"\npenalty {report['penalty']} if caught with this hand (rules §3.5)"
    if "opening" in report:
        o = report["opening"]
        melds = " | ".join(" ".join(m) for m in o["melds"]) or "no meld"
        verdict = "opens" if o["opens"] else "does not open"
        text += f"\nbest opening {o['value']}: {melds} — {verdict} ({o['opening_min']} needed)"
    return text


def _game_alone(text: str) -> str:
    """``--variant``: a game, without house rules (said so, rather than "unknown variant", when the game
    before a colon is known)."""
    name, colon, rules = str(text).partition(":")
    if colon:
        try:
            key = find_variant(name).key
        except RuleConfigError:
            return text  # the registry's own message names the games
        raise CommandError(f"--variant {text!r}: deadwood values a hand under the game's own rules and takes "
                           f"no house rules; give the game alone ({key}).")
    return text


def run(args) -> int:
    report = evaluate_hand(" ".join(args.hand), _game_alone(args.variant))
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
