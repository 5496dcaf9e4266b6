"""Robber Rummy's words at the terminal (rules §4): its commands, a placement typed as moves (lay off, move a
table card, a new meld), and a placement told as what moved where."""

from __future__ import annotations

from collections import Counter
from typing import Any, ClassVar, Sequence

from rumino.cards import JOKER, format_card as card_text
from rumino.engine.protocol import Action, PlayerView
from rumino.engine.words import DrawNarrator, card_words, cards_words, meld_words
from rumino.errors import IllegalActionError, InvalidCardError, InvalidMeldError
from rumino.melds import ROBBER_MELDS, Meld, MeldRules
from rumino.table.diff import MOVED, STAYED, table_diff
from rumino.table.melds import NAMED, meld_tokens, parse_token, read_meld, token_text
from rumino.hand.arrange import max_opening
from rumino.variants.robber.bots import best_place
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

    _menu: tuple = (None, ())  # (the position, its menu): the menu is computed once a position

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
        """The view with what the hand would cost, the best opening until the player has opened, who has opened
        (rules §4.3), and the choices written as moves (:meth:`move_words`)."""
        lines = super().describe(view).split("\n")
        g = self.game
        for i, line in enumerate(lines):  # what the hand would cost, as the engine scores it (rules §3.3, §4.4)
            if line.startswith("your hand: ") and "   (deadwood " in line:
                cost = self.hand_cost(view)
                if not view.opened[view.seat]:
                    best = max_opening(list(view.hand), g.rules.meld_rules).value
                    cost += f"; best opening {best}, {g.rules.opening_min} needed to open"
                lines[i] = line[:line.index("   (deadwood ")] + f"   ({cost})"
        at = next((i for i, line in enumerate(lines) if line.startswith("  [") or line == "  (empty)"), None)
        if at is not None:
            while at < len(lines) and lines[at].startswith("  "):
                at += 1
            lines.insert(at, "opened: " + (", ".join(f"P{p}" for p, o in enumerate(view.opened) if o) or "nobody"))
        return "\n".join(lines)

    # --------------------------------------------------------------- the menu: new melds, lay-offs, rearrangements

    def choices(self, view: PlayerView) -> list:
        """The engine's list (its new melds, the draw, the pass) and, once the player has opened, every single
        card he can lay off on a table meld and the exact solver's placement (the greedy bot's: the most penalty
        value placed, rearranging the table as it needs), each judged legal by the engine (rules §4.3)."""
        key = (len(self.game.history), view.seat, view.phase, view.hand, view.table)  # asked again at each 'v', '?'
        if self._menu[0] == key:
            return list(self._menu[1])
        legal = list(view.legal_actions)
        places = [a for a in legal if a.word == "place"]
        rest = [a for a in legal if a.word != "place"]
        extra = []
        g = self.game
        if view.opened[view.seat] and view.may_place:
            table = [meld_tokens(m) for m in view.table]
            for card in sorted(set(view.hand)):
                for k in range(len(table)):
                    try:
                        a = self.build_place([["lay", "JK" if card == JOKER else card_text(card), str(k)]], view)
                    except IllegalActionError:
                        continue
                    if g.judge(view.seat, a).ok:
                        extra.append(a)
            best = best_place(view)
            if best is not None:
                extra.append(best)
        seen, menu = set(), []
        for a in places + extra:  # one entry per table after the move (the order of its melds aside)
            k = tuple(sorted(a.table))
            if k not in seen:
                seen.add(k)
                menu.append(a)
        menu += rest
        self._menu = (key, tuple(menu))
        return menu

    def move_words(self, action: Action, view: PlayerView) -> str:
        """A placement written as the moves that make it (``move 8d from 1 to new; lay 8s 8c on new``), read
        back through :meth:`read` to the same table before it is offered; else the whole table (``place …``)."""
        if action.word != "place":
            return str(action)
        for named in (False, True):  # a joker as JK, else named by the card it stands for
            text = place_steps(view.table, action, view.hand, self.game.rules.meld_rules, named=named)
            if text:
                try:
                    again = self.build_place([t.split() for t in text.split(";")], view)
                except IllegalActionError:
                    continue
                if Counter(again.table) == Counter(action.table):
                    return text
        return str(action)

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
        made, each table card that changed meld with the meld it left, and the melds taken apart. A move of one
        or two melds is one line; a larger rearrangement is a summary (how many melds it changed, made and took
        apart), one line per meld it changed, and one line each for the new melds and the melds taken apart.

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
        parts, plain = [], []  # with and without where each moved card came from
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
                plain.append(f"{text(before[source[i]])} → {text(m)}")
            else:
                parts.append(f"new meld {text(m)}{note}")
                plain.append(f"new meld {text(m)}")
        continued = {s for s in source if s is not None}
        apart = [text(m) for b, m in enumerate(before)
                 if b not in continued and not any(d.unchanged(i) and d.source[i] == b for i in range(len(after)))]
        parts += [f"{t} taken apart" for t in apart]
        placed = Counter(hand_before) - Counter(hand_after)
        head = f"{who} places {cards_words(placed.elements())}" if placed else f"{who} rearranges the table"
        left_n = len(hand_after)
        head += f" ({left_n} card{'s' if left_n != 1 else ''} left)"
        if len(parts) <= 2:
            return head + ": " + "; ".join(parts)
        changed = sum(1 for p in plain if not p.startswith("new meld"))
        made = len(plain) - changed
        summary = ", ".join(x for x in (f"{changed} meld{'s' if changed != 1 else ''} changed" if changed else "",
                                        f"{made} new" if made else "", f"{len(apart)} taken apart" if apart else "")
                            if x)
        news = [p.removeprefix("new meld ") for p in plain if p.startswith("new meld")]
        lines = [p for p in plain if not p.startswith("new meld")] + (
            [f"new: {' · '.join(news)}"] if news else []) + ([f"taken apart: {' · '.join(apart)}"] if apart else [])
        return f"{head}, rearranging the table ({summary}):\n" + "\n".join(f"    {line}" for line in lines)


def place_steps(table: Sequence[Meld], action: Place, hand: Sequence[int], rules: MeldRules = ROBBER_MELDS, *,
                named: bool = False) -> str:
    """A placement as the moves a player types (``move 8d from 1 to new; lay 8s 8c on new``): each table card
    that changes meld is moved from the meld it leaves to the meld it joins, then the hand's cards are laid on
    the melds they join or laid as new melds; melds numbered as the table lists them, a new meld taking the next
    number. Which meld continues which is :func:`rumino.table.diff.table_diff`'s matching. A joker is ``JK``, or
    with ``named`` the card it stands for after the move (``JK(9c)``). Returns "" when the placement takes a
    card from nowhere (it is then written whole, ``place …``).

    >>> from rumino.melds import ROBBER_MELDS, Meld
    >>> from rumino.cards import parse_hand
    >>> from rumino.table.melds import read_meld
    >>> before = (read_meld(parse_hand("8d 9d 10d Jd"), ROBBER_MELDS),)
    >>> place_steps(before, Place.parse_args("9d 10d Jd | 8s 8c 8d".split()), parse_hand("8s 8c 2h"))
    'move 8d from 0 to new; lay 8s 8c on new'
    """
    mr = rules
    before = tuple(table)
    after = []
    for m in action.table:
        try:
            after.append(read_meld(m, mr) if not isinstance(m, Meld) else m)
        except InvalidMeldError:
            return ""
    try:
        d = table_diff(before, after)
    except IllegalActionError:
        return ""
    def raw(c, s):
        return card_text(c) if c != JOKER else f"JK({card_text(s)})" if named else "JK"
    leaving = [Counter() for _ in before]  # the cards that leave each old meld
    for b, m in enumerate(before):
        for c, k in zip(m.cards, d.before_marks[b]):
            if k != "stays":
                leaving[b][c] += 1
    have = Counter(hand)
    steps, number, last_new = [], len(before), None
    for i, m in enumerate(after):
        if d.unchanged(i):
            continue
        where = d.source[i]
        moved: dict[int, list[int]] = {}
        laid = []
        for c, s, k in zip(m.cards, m.stands_for, d.marks[i]):
            if k == MOVED:
                b = next((b for b in range(len(before)) if leaving[b][c] > 0), None)
                if b is None:
                    return ""
                leaving[b][c] -= 1
                moved.setdefault(b, []).append((c, s))
            elif k != STAYED:
                if have[c] <= 0:
                    return ""
                have[c] -= 1
                laid.append((c, s))
        for b, cards in moved.items():
            if where is None:
                steps.append(f"move {' '.join(raw(*c) for c in cards)} from {b} to new")
                where, last_new, number = number, number, number + 1
            else:
                steps.append(f"move {' '.join(raw(*c) for c in cards)} from {b} to {where}")
        if laid:
            if where is None:
                steps.append("new " + " ".join(raw(*c) for c in laid))
                where, last_new, number = number, number, number + 1
            else:
                on = "new" if where == last_new else str(where)
                steps.append(f"lay {' '.join(raw(*c) for c in laid)} on {on}")
    return "; ".join(steps)


__all__ = ["RobberNarrator", "place_steps"]
