"""``rumino table --table CARDS --hand CARDS [--variant robber|romme] [--most-cards] [--json]``.

The best rearrangement of a Robber Rummy table (rules §4.3): which hand cards to
place and how the table then reads, every joker with the card it stands for.

>>> from rumino.cli import main
>>> main(["table", "--table", "5c 6c 7c 8c 9c", "--hand", "7c Kd"])
places 7c (value 7)
table: 5c 6c 7c | 7c 8c 9c
hand left: Kd
0
"""

from __future__ import annotations

import json
import re

from rumino.cards import JOKER, format_hand, parse_hand
from rumino.errors import InvalidMeldError
from rumino.melds import why_not_meld
from rumino.table.melds import parse_token, read_meld
from rumino.table.solver import TableSolution, meld_strings, solve_table
from rumino.engine.melded import MeldedGame
from rumino.variants import VARIANTS, find_variant
from rumino.cli import CommandError


def parse_table(text: str, rules) -> tuple[int, ...]:
    """The table's cards; with ``|`` between melds each group must be a meld by itself. A joker may be
    written as the command prints it, ``JK(8c)`` (standing for 8c, which its meld must allow); the
    rearrangement may give it another use (rules §4.3).

    >>> from rumino.melds import ROBBER_MELDS
    >>> parse_table("5c 6c 7c | 8c 9c", ROBBER_MELDS)
    Traceback (most recent call last):
    ...
    rumino.errors.InvalidMeldError: the table meld 8c 9c is not a meld: a meld has at least 3 cards.
    >>> len(parse_table("5c JK(6c) 7c | 8c 9c 10c", ROBBER_MELDS))
    6
    """
    groups = [g for g in text.split("|")]
    cards: list[int] = []
    for g in groups:
        tokens = [parse_token(t) for t in re.split(r"[\s,;]+", g.strip()) if t]  # as parse_hand splits
        part = [JOKER if t >= JOKER else t for t in tokens]
        if len(groups) > 1:
            why = why_not_meld(part, rules)
            if why:
                raise InvalidMeldError(f"the table meld {why}")
            if any(t > JOKER for t in tokens):  # a named joker: its meld must allow what it is named
                try:
                    read_meld(tokens, rules)
                except InvalidMeldError as err:
                    raise InvalidMeldError(f"the table meld {g.strip()}: {err}") from None
        cards.extend(part)
    return tuple(cards)


def tabled_games() -> list[str]:
    """The games whose melds lie on the table, where a move may rearrange them.

    >>> tabled_games()
    ['romme', 'robber']
    """
    return [key for key, v in VARIANTS.items() if v.game is not None and issubclass(v.game, MeldedGame)]


def best_move(table_text: str, hand_text: str, variant_name: str = "robber", most_cards: bool = False
              ) -> TableSolution:
    """Parse, check and solve one position (what ``rumino table`` prints)."""
    variant = find_variant(variant_name)
    rules = variant.meld_rules()
    if rules is None:
        raise CommandError(f"{variant.title} has no melds, so it has no table to rearrange.")
    if variant.game is None or not issubclass(variant.game, MeldedGame):
        raise CommandError(f"{variant.title} keeps its melds in the hand, so it has no table to rearrange: "
                           f"the games with melds on the table are {', '.join(tabled_games())}.")
    table = parse_table(table_text, rules)
    hand = parse_hand(hand_text)
    rules.pack.check_hand(table, name="table")
    rules.pack.check_hand(hand, name="hand")
    rules.pack.check_hand(table + hand, name="table and hand together")
    return solve_table(table, hand, rules, most_cards=most_cards)


def _text(s: TableSolution) -> str:
    unit = "cards" if s.most_cards else "value"
    if s.placed:
        first = f"places {format_hand(s.placed)} ({unit} {s.value})"
    else:
        first = "nothing can be placed (the best move places 0): draw instead (rules §4.3)"
    table = " | ".join(" ".join(meld_strings(m)) for m in s.melds) or "(empty)"
    return f"{first}\ntable: {table}\nhand left: {format_hand(s.hand_left) or '(none)'}"


def run(args) -> int:
    s = best_move(args.table, args.hand, args.variant, args.most_cards)
    print(json.dumps(s.as_dict()) if args.json else _text(s))
    return 0


def register(sub) -> None:
    p = sub.add_parser("table", help="best rearrangement of a Robber Rummy table (exact)",
                       description="Print the move that places the most value (or, with --most-cards, the "
                                   "most cards) from HAND onto TABLE, regrouping the table as Robber Rummy "
                                   "allows (rules §4.3): every table card stays in a valid meld. Assumes the "
                                   "player has opened. Jokers are shown as JK(card they stand for).")
    p.add_argument("--table", required=True, help='the table cards, e.g. "5c 6c 7c 8c 9c" (or melds split by |)')
    p.add_argument("--hand", required=True, help='the hand, e.g. "7c Kd" (JK or * for a joker)')
    p.add_argument("--variant", default="robber", help="robber (default) or romme")
    p.add_argument("--most-cards", action="store_true", help="place the most cards instead of the most value")
    p.add_argument("--json", action="store_true",
                   help="print JSON: placed, value, objective, table (melds as card lists), hand_left")
    p.set_defaults(run=run)
