"""Robber Rummy's words at the terminal (rules §4): its commands, a placement typed as moves (lay off, move a
table card, a new meld), and a placement told as what moved where."""

from __future__ import annotations

from collections import Counter
from typing import Any, ClassVar, Sequence

from rumino.cards import JOKER
from rumino.engine.protocol import Action, PlayerView
from rumino.engine.words import DrawNarrator, card_words, cards_words, meld_words
from rumino.errors import IllegalActionError, InvalidCardError, InvalidMeldError
from rumino.melds import Meld
from rumino.table.diff import MOVED, STAYED, table_diff
from rumino.table.melds import NAMED, meld_tokens, parse_token, read_meld, token_text
from rumino.variants.robber.game import Place


class RobberNarrator(DrawNarrator):
    """Robber Rummy: a placement can be typed as moves (lay off, move a table card, a new meld) and a
    bot's placement is told as what moved where."""

    HELP: ClassVar[tuple[str, ...]] = (
        "s / stock      draw one card instead of placing (rules §4.3)",
        "pass           on an empty stock, when you cannot place",
        "moves          placing, written as moves (melds numbered as in 'table:'), steps split by ';':",
        "  new 5c 6c 7c            lay a new meld from your hand (n 5c 6c 7c)",
        "  lay 7c on 2             lay off a card (or several) on meld [2] (l 7c 2)",
        "  move 9c from 1 to 3     move a table card to meld [3] (m 9c 1 3)",
        "  move 9c from 1 to new   … or to a new meld, which takes the next number",
        "  e.g. move 9c from 1 to new; lay 9d 9h on new",
        "place …        or the whole table after the move, melds split by '|':",
        "                 place 5c 6c 7c | 7c 8c JK(9c)   (a joker named by the card it stands for)")

    MOVE_WORDS = {"new": "new", "n": "new", "lay": "lay", "l": "lay", "layoff": "lay", "lo": "lay", "move": "move",
                  "m": "move", "mv": "move"}

    def hand_cost(self, view: PlayerView) -> str:
        """What the hand would cost if another player went out now: every card left counts (no melds are
        kept in hand in Robber), or nothing when the game scores no penalties (the default, rules §4.4)."""
        n = len(view.hand)
        if self.game.rules.scoring == "none":
            return f"{n} card{'s' if n != 1 else ''} left to place; the first to place every card wins"
        values = self.game.rules.meld_rules.values
        return f"penalty if the hand ended now: {sum(int(values[c]) for c in view.hand)}"

    def describe(self, view: PlayerView) -> str:
        """The view, its listed placements written as the melds they add (``new 9s 9d JK(9c)``), as typed."""
        lines = super().describe(view).split("\n")
        for i, line in enumerate(lines):  # what the hand would cost, as the engine scores it (rules §3.3, §4.4)
            if line.startswith("your hand: ") and "   (deadwood " in line:
                lines[i] = line[:line.index("   (deadwood ")] + f"   ({self.hand_cost(view)})"
        if lines and lines[-1].startswith("choices: ") and view.my_turn:
            table = [meld_tokens(m) for m in view.table]
            items = []
            for i, a in enumerate(view.legal_actions, 1):
                if a.word == "place":
                    left = list(table)
                    added = []
                    for m in a.table:
                        if m in left:
                            left.remove(m)
                        else:
                            added.append(m)
                    text = "; ".join("new " + " ".join(token_text(t) for t in m) for m in added) \
                        if added and not left else str(a)
                    items.append(f"[{i}] {text}")
                else:
                    items.append(f"[{i}] {a}")
            lines[-1] = "choices: " + "  ".join(items)
        return "\n".join(lines)

    def before(self, g: Any, seat: int, action: Action) -> None:
        super().before(g, seat, action)
        self.table_before = tuple(g.table)
        self.hand_before = list(g.hands[seat])
        self.penalties_before = g.penalty_draws

    # --------------------------------------------------------------- typing moves

    def read(self, line: str, view: PlayerView) -> Action | None:
        """A placement typed as moves (``new 5c 6c 7c; lay 7c on 2``), or None for any other line."""
        steps = [s.split() for s in line.replace(",", ";").split(";") if s.split()]
        if not steps or steps[0][0].lower() not in self.MOVE_WORDS:
            return None
        return self.build_place(steps, view)

    def build_place(self, steps: list[list[str]], view: PlayerView) -> Place:
        """The :class:`~rumino.variants.robber.game.Place` that the moves ``steps`` make of the table."""
        melds = [list(meld_tokens(m)) for m in view.table]
        changed = set()
        hand = Counter(view.hand)

        def card(text):
            try:
                return parse_token(text)
            except (InvalidCardError, IllegalActionError, ValueError):
                raise IllegalActionError(f"{text!r} is not a card: write a rank and a suit such as 7c, or JK "
                                         f"(JK(9c) for a joker standing for 9c).") from None

        def meld_no(text, *, new_ok=False):
            if new_ok and text.lower() in ("new", "n"):
                return None
            if text.lower() in ("new", "n") and len(melds) > len(view.table):
                return len(melds) - 1  # 'lay 9d on new': the last new meld
            if text.lower() in ("new", "n"):
                raise IllegalActionError("there is no new meld yet to lay on: start one with 'new 5c 6c 7c' or "
                                         "'move 9c from 1 to new' first.")
            if not (text.isascii() and text.isdigit()) or int(text) >= len(melds):
                raise IllegalActionError(f"{text!r} is not a meld on the table: the melds are numbered 0 to "
                                         f"{len(melds) - 1} (type v to see the table).")
            return int(text)

        def from_hand(tokens):
            for t in tokens:
                raw = JOKER if t >= JOKER else t
                if hand[raw] <= 0:
                    raise IllegalActionError(f"you do not hold {card_words(raw)}: only cards in your hand can be laid "
                                             f"(rules §4.3).")
                hand[raw] -= 1
            return tokens

        for step in steps:
            word, args = self.MOVE_WORDS.get(step[0].lower()), step[1:]
            if word == "new":
                cards = [card(a) for a in args]
                if not cards:
                    raise IllegalActionError("'new' takes the cards of the new meld: new 5c 6c 7c.")
                melds.append(from_hand(cards))
                changed.add(len(melds) - 1)
            elif word == "lay":
                if "on" in args:
                    i = args.index("on")
                    cards, where = args[:i], args[i + 1:]
                else:
                    cards, where = args[:-1], args[-1:]
                if not cards or len(where) != 1:
                    raise IllegalActionError("'lay' takes your card(s) and a meld number: lay 7c on 2.")
                k = meld_no(where[0])
                melds[k].extend(from_hand([card(a) for a in cards]))
                changed.add(k)
            elif word == "move":
                args = [a for a in args if a.lower() not in ("from", "to")]
                if len(args) < 3:
                    raise IllegalActionError("'move' takes the card(s), the meld they leave and the meld they "
                                             "join: move 9c from 1 to 3 (or to new).")
                *cards, src, dst = args
                i = meld_no(src)
                for text in cards:
                    t = card(text)
                    pool = melds[i]
                    if t >= JOKER:  # a joker: whichever joker of the meld, named anew if the player says
                        at = next((k for k, x in enumerate(pool) if x >= JOKER), None)
                    else:
                        at = next((k for k, x in enumerate(pool) if x == t), None)
                    if at is None:
                        raise IllegalActionError(f"meld {i} ({meld_words(pool)}) holds no {text}: a move takes "
                                                 f"a card from the meld it names.")
                    pool.pop(at)
                    t = t if t >= NAMED else (JOKER if t >= JOKER else t)
                    j = meld_no(dst, new_ok=True)
                    if j is None:
                        melds.append([])
                        j = len(melds) - 1
                        dst = str(j)
                    melds[j].append(t)
                    changed.update((i, j))
            else:  # pragma: no cover - the words are checked by translate
                raise IllegalActionError(f"{step[0]!r} is not a move: new, lay or move.")
        rules = self.game.rules.meld_rules
        out = []
        for k, tokens in enumerate(melds):
            if k not in changed:
                out.append(view.table[k])
                continue
            if not tokens:
                continue  # every card moved away: the meld is gone
            try:
                out.append(read_meld(tuple(tokens), rules))
            except InvalidMeldError:
                try:  # a joker kept its old name: let the meld say what it stands for now
                    out.append(read_meld(tuple(JOKER if t >= JOKER else t for t in tokens), rules))
                except InvalidMeldError as err:
                    raise IllegalActionError(
                        f"meld {k} would be {meld_words(sorted(tokens))}, not a meld: every table card must "
                        f"end the turn in a valid meld ({' '.join(str(err).split()).rstrip('.')}; "
                        f"rules §4.3 (iii)).") from None
        return Place.of(out)

    # --------------------------------------------------------------- telling a placement

    def say(self, g: Any, seat: int, action: Action) -> str:
        if action.word != "place":
            return super().say(g, seat, action)
        who = self.names[seat]
        if g.penalty_draws > self.penalties_before:
            return f"{who} tries a placement that breaks §4.3: the table stays as it was, and he draws 3 cards"
        return self.move_text(who, self.table_before, tuple(g.table), self.hand_before, list(g.hands[seat]))

    @staticmethod
    def move_text(who: str, before: Sequence[Meld], after: Sequence[Meld], hand_before: Sequence[int],
                  hand_after: Sequence[int]) -> str:
        """What a placement did, meld by meld: the melds it changed (``5♣ 6♣ → 5♣ 6♣ 7♣``), the melds it
        made, each table card that changed meld with the meld it left, and the melds taken apart.

        Which meld continues which is :func:`rumino.table.diff.table_diff`'s matching (the GameTable's
        marks); a meld that keeps a single card of an old one is told as new, that card as moved."""
        d = table_diff(before, after)
        text = lambda m: meld_words(meld_tokens(m))  # noqa: E731
        source = [s if s is not None and sum(k == STAYED for k in d.marks[i]) >= 2 else None
                  for i, s in enumerate(d.source)]
        leaving = [Counter() for _ in before]  # the cards that leave each old meld, to say where they came from
        for i, m in enumerate(after):
            s = d.source[i]
            for c, k in zip(m.cards, d.marks[i]):
                if k == STAYED and source[i] is None:
                    leaving[s][c] += 1  # kept by a meld told as new: told as moved from here
        for b, m in enumerate(before):
            for c, k in zip(m.cards, d.before_marks[b]):
                if k != "stays":
                    leaving[b][c] += 1
        parts = []
        for i, m in enumerate(after):
            if d.unchanged(i):
                continue
            moved = {}
            for c, k in zip(m.cards, d.marks[i]):
                if k == MOVED or (k == STAYED and source[i] is None):
                    b = next((b for b in range(len(before)) if leaving[b][c] > 0 and b != source[i]), None)
                    if b is not None:
                        leaving[b][c] -= 1
                        moved.setdefault(b, []).append(c)
            notes = [" ".join("JK" if c == JOKER else card_words(c) for c in sorted(cs)) + f" from {text(before[b])}"
                     for b, cs in moved.items()]
            note = f" ({'; '.join(notes)})" if notes else ""
            if source[i] is not None:
                parts.append(f"{text(before[source[i]])} → {text(m)}{note}")
            else:
                parts.append(f"new meld {text(m)}{note}")
        continued = {s for s in source if s is not None}
        for b, m in enumerate(before):
            if b not in continued and not any(d.unchanged(i) and d.source[i] == b for i in range(len(after))):
                parts.append(f"{text(m)} taken apart")
        placed = Counter(hand_before) - Counter(hand_after)
        head = f"{who} places {cards_words(placed.elements())}" if placed else f"{who} rearranges the table"
        left_n = len(hand_after)
        head += f" ({left_n} card{'s' if left_n != 1 else ''} left)"
        if len(parts) <= 2:
            return head + ": " + "; ".join(parts)
        return head + ":\n" + "\n".join(f"    {part}" for part in parts)


__all__ = ["RobberNarrator"]
