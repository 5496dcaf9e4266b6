"""``rumino play``: a game of any playable variant (Rumino by default) in the terminal against bots.

One terminal loop (:class:`~rumino.cli._terminal.TerminalSession`) plays every game;
what the table is told is the game's narration, ``Variant.narration`` (:data:`NARRATORS`),
and ``?`` at the prompt prints the game's own commands (:data:`GAME_HELP`):

* ``draw`` — the draw-and-discard games: you type ``s`` (draw from the stock),
  ``t`` (take the discard), a card such as ``7h`` to discard it, ``k`` (Rumino's
  knock) or ``k 7h`` (a knock with a card face down), ``g 7h`` to go gin, ``r`` rumino
  or ``r 7h`` Wiener's rummy, ``c``/``p`` claim or pass, ``y``/``n`` rebuy or buy back,
  or a number from the list; you are told the card you drew, and the others' hand sizes;
* Robber Rummy (:class:`RobberNarrator`) also takes moves, joined by ``;``:
  ``new 5c 6c 7c``, ``lay 7c on 2``, ``move 9c from 1 to 3`` (or ``to new``), and a
  bot's placement is told as what moved where;
* ``stops`` — Rummoli (rules §2): ``swap`` / ``keep`` / ``keep unsold`` (the dealer and
  the widow: keep his hand and auction the widow, or keep it and sell nothing),
  ``b N`` / ``p`` (the auction, told in one line), ``check``, ``bet``, ``call``, ``raise``,
  ``fold`` (with ``poker_method=betting``), a card such as ``7h`` to play it in the
  stops, ``claim`` / ``forgo`` (with ``manual_claims``), ``deal``, or a number from
  the list. The poker result and your hand are shown when the stops begin; a card you
  are forced to play (the only legal one) is asked for with Enter, or played for you
  after ``auto``.

Input may be piped, which is how the tests play; the end of input ends the
program cleanly.

>>> import io
>>> out = io.StringIO()
>>> play_terminal(["greedy", "greedy"], seed=2, stdin=io.StringIO(""), stdout=out)
0
>>> "wins" in out.getvalue()
True
>>> out = io.StringIO()
>>> play_terminal(["default", "random"], seed=2, stdin=io.StringIO(""), stdout=out, variant="rummoli")
0
>>> "final sweep" in out.getvalue()
True
"""

from __future__ import annotations

import sys
from collections import Counter
from typing import Sequence, TextIO

from rumino.cards import JOKER, format_card, format_hand, parse_card
from rumino.engine.actions import Draw
from rumino.errors import IllegalActionError, InvalidCardError, InvalidMeldError
from rumino.hand.poker import describe as describe_poker
from rumino.playing.seeding import new_table
from rumino.players import ALLOWED, HumanPlayer, describe_view, parse_human_action
from rumino.players.human import money
from rumino.cli import CommandError
from rumino.cli.inputs import check_seed
from rumino.cli._terminal import TerminalSession, fresh_seed, player_names
from rumino.cli.simulate import default_players, parse_player_list, parse_rules, playable


def _card(c) -> str:
    return format_card(c, unicode=True)


def n_chips(n: int) -> str:
    return f"{n} chip" + ("" if n == 1 else "s")


def _cards(cards) -> str:
    return format_hand(sorted(cards), unicode=True)


# ---------------------------------------------------------------------------- each game's help (? at the prompt)

_COMMON = ["1, 2, …        a choice from the list; Enter: the only choice, when there is one",
           "v / look       show your hand and the table again",
           "hint           the search coach: its move and each move's chance of winning the hand",
           "? / help       this help;  q / quit  leave the game"]
_DRAW = ["s / stock      draw the top card of the stock",
         "t / take       take the top card of the discard pile",
         "7h / d 7h      discard 7h (cards: 2-10 J Q K A with c d h s; JK a joker)"]
GAME_HELP: dict[str, list[str]] = {
    "rumino": _DRAW + [
        "k / knock      knock instead of drawing (rules §1.3: deadwood at or below the limit)",
        "g 7h / gin 7h  discard 7h and go gin",
        "r / rumino     call a rumino",
        "c / p          claim the discard for a rumino, or let it go",
        "y / n          rebuy when you are out, or not (rules §1.5)",
        "deal           deal the next hand"],
    "gin": _DRAW[:1] + ["t / take       take the top card of the discard pile (the upcard, when it is offered)",
                        "p / pass       leave the upcard on offer (rules §6)"] + _DRAW[2:] + [
        "k 7h / knock 7h  knock, discarding 7h (rules §6: deadwood at or below the limit)",
        "g 7h / gin 7h  discard 7h and go gin",
        "deal           deal the next hand"],
    "knock-rummy": _DRAW + [
        "k 7h / knock 7h  knock, putting 7h on the pile face down (rules §5.8)",
        "deal           deal the next hand"],
    "wiener": _DRAW + [
        "k 7h / knock 7h  knock, putting 7h on the pile face down (rules §5.4)",
        "r 7h / rummy 7h  call rummy: every card melded after discarding 7h",
        "y / n          buy back (once a game, rules §5.5), or not",
        "deal           deal the next hand"],
    "romme": _DRAW + [
        "play …         after the draw, one play of steps split by ';' (rules §3.4):",
        "                 lay 10s Js Qs Ks      a new meld from your hand",
        "                 layoff 8h on 0        a card on table meld [0] (once you have opened)",
        "                 exchange 7h on 1      your 7h for the joker it stands for in meld [1]",
        "deal           deal the next hand"],
    "robber": ["s / stock      draw one card instead of placing (rules §4.3)",
               "pass           on an empty stock, when you cannot place",
               "moves          placing, written as moves (melds numbered as in 'table:'), steps split by ';':",
               "  new 5c 6c 7c            lay a new meld from your hand (n 5c 6c 7c)",
               "  lay 7c on 2             lay off a card (or several) on meld [2] (l 7c 2)",
               "  move 9c from 1 to 3     move a table card to meld [3] (m 9c 1 3)",
               "  move 9c from 1 to new   … or to a new meld, which takes the next number",
               "  e.g. move 9c from 1 to new; lay 9d 9h on new",
               "place …        or the whole table after the move, melds split by '|':",
               "                 place 5c 6c 7c | 7c 8c JK(9c)   (a joker named by the card it stands for)"],
    "rummoli": ["swap / keep    the dealer: take the widow unseen, or keep his hand and auction it",
                "keep unsold    the dealer keeps his hand and sells nothing",
                "b 3 / bid 3    bid 3 chips for the widow (p / pass: no bid)",
                "check, bet, call, raise, fold   the poker round (with poker_method=betting)",
                "7h             play 7h in the stops (a forced card: Enter plays it)",
                "auto           play forced cards for you from now on",
                "claim / forgo  take a section's chips, or leave them (with manual_claims)",
                "deal           deal the next deal"],
}


def game_help(key: str) -> str:
    """What ``?`` prints at the prompt of ``key``'s game: its actions and their short forms."""
    return "\n".join([f"{playable(key).title} — commands:"] + [f"  {line}" for line in GAME_HELP[key] + _COMMON])


def expand(line: str, view) -> str | None:
    """The line with a short first word spelt out for this game (``k 7h`` → ``knock 7h``, ``r 7h`` →
    ``rummy 7h``, ``b 3`` → ``bid 3``, ``y``/``n`` → ``buyback``/``decline``), or None to leave it to the
    widgets' parser (:func:`~rumino.players.parse_human_action`, which reads ``s``, ``t``, ``7h``, …)."""
    parts = line.split()
    if not parts:
        return None
    words = view.action_set.by_word
    head, rest = parts[0].lower(), parts[1:]
    if head == "r" and rest and "rummy" in words:
        return " ".join(["rummy", *rest])
    if head in ("y", "yes", "n", "no") and not rest and "buyback" in words:
        return "buyback" if head in ("y", "yes") else "decline"
    if head == "p" and not rest and "bid" in words:
        return "pass"
    if head == "k" and rest and "knock" in words:
        return " ".join(["knock", *rest])
    if head == "b" and rest and "bid" in words:
        return " ".join(["bid", *rest])
    if head == "pl" and "place" in words:
        return " ".join(["place", *rest])
    return None


# ---------------------------------------------------------------------------- draw-and-discard games


class DrawNarrator:
    """What the table sees in a draw-and-discard game (a card drawn from the stock stays hidden, but
    the human who drew it is told it); the help and the short forms of the prompt."""

    SAY = {
        "draw": lambda who, g, a, top: f"{who} draws from the stock" if a.source == "stock" else
        f"{who} takes {_card(top)} from the discard pile",
        "discard": lambda who, g, a, top: f"{who} discards {_card(a.card)}",
        "gin": lambda who, g, a, top: f"{who} goes GIN, discarding {_card(a.card)}",
        "knock": lambda who, g, a, top: f"{who} knocks" + (", discarding face down" if hasattr(a, "card") else ""),
        "rumino": lambda who, g, a, top: f"{who} calls RUMINO",
        "rummy": lambda who, g, a, top: f"{who} calls RUMMY, discarding {_card(a.card)}",
        "claim": lambda who, g, a, top: f"{who} claims the discard for a RUMINO",
        "pass": lambda who, g, a, top: f"{who} lets the discard go" if top is not None else f"{who} passes",
        "rebuy": lambda who, g, a, top: f"{who} rebuys",
        "decline": lambda who, g, a, top: f"{who} declines",
        "buyback": lambda who, g, a, top: f"{who} buys back",
        "join": lambda who, g, a, top: f"{who} joins the game",
        "deal": lambda who, g, a, top: f"{who} deals hand {g.hand_number}",
    }

    def __init__(self, game, names, key: str | None = None, humans=()):
        if key is None:  # the variant whose engine this game is
            from rumino.variants import playable_variants

            key = next(k for k, v in playable_variants().items() if v.game is type(game))
        self.game, self.names, self.key = game, names, key
        self.humans = set(humans)  # the seats typed at this terminal: they are told their own cards
        self.hands, self.top, self.held = 0, None, None
        self.help_text = game_help(key)

    # --------------------------------------------------------------- the prompt

    def describe(self, view) -> str:
        lines = describe_view(view).split("\n")
        if len(lines) > 1:  # 'P0*=12' read as 'P0 (you)=12'
            lines[1] = lines[1].replace(f"P{view.seat}*=", f"P{view.seat} (you)=")
        extra = []
        sizes = getattr(view, "hand_sizes", None)
        if sizes and view.phase not in ("between_hands", "game_over"):
            others = [f"{self.names[p].split()[0]} {n}" for p, n in enumerate(sizes)
                      if p != view.seat and view.in_hand[p]]
            if others:
                extra.append("cards in hand: " + " · ".join(others))
        pot = getattr(view, "pot", None)
        if isinstance(pot, int) and pot:
            extra.append(f"pot: {pot} chips")
        if getattr(view, "offer", False) and view.top_discard is not None and view.my_turn:
            extra.append(f"the upcard {_card(view.top_discard)} is offered: t takes it, p passes (rules §6)")
        return "\n".join(lines[:2] + extra + lines[2:])

    def translate(self, line: str, view):
        parts = line.lower().split()
        knock = view.action_set.by_word.get("knock")
        if parts and parts[0] in ("k", "knock") and len(parts) > 1 and knock is not None \
                and "card" not in getattr(knock, "__dataclass_fields__", {}):
            rule = self.game.SECTIONS.get("knock", self.game.SECTIONS.get("turn", ""))
            raise IllegalActionError(f"in {self.game.NAME} a knock takes no card: type k alone, in lieu of "
                                     f"drawing (rules {rule}).")
        if parts and parts[0] in ("lay", "layoff", "exchange") and "play" in view.action_set.by_word:
            return parse_human_action("play " + line.strip(), view)  # Rommé: the steps, without 'play'
        text = expand(line, view)
        return parse_human_action(text, view) if text is not None else None

    def autoplay(self, view):
        return None

    forced = None

    def pending(self) -> list[str]:
        return []

    # --------------------------------------------------------------- narration

    def opening(self, seed: int) -> list[str]:
        game, names, rules = self.game, self.names, self.game.rules
        draws = ", ".join(f"{names[p]} {_card(c)}" for p, c in
                          (game.first_dealer_draws[-1] if game.first_dealer_draws else ()))
        stake = f", stake {rules.stake} each" if hasattr(rules, "stake") else ""
        return [f"{game.NAME}, {len(names)} players{stake}, seed {seed}."
                + (f" Cards drawn for the deal: {draws}." if draws else ""),
                f"{names[game.dealer]} deals hand 1. (Type ? at the prompt for the commands.)"]

    def before(self, g, seat, action) -> None:
        self.hands, self.top = len(g.results), (g.discard[-1] if g.discard else None)
        self.table_before = tuple(getattr(g, "table", ()))
        self.held = list(g.hands[seat]) if seat in self.humans and seat < len(g.hands) else None

    def say(self, g, seat: int, action) -> str:
        who = self.names[seat]
        if action.word == "pass" and self.key == "gin":
            return f"{who} passes on the upcard {_card(self.top)}"
        if action.word == "play" and hasattr(action, "steps"):
            return f"{who} plays to the table: " + romme_steps(str(action), self.table_before)
        say = self.SAY.get(action.word)
        return say(who, g, action, self.top) if say is not None else f"{who}: {action}"

    def own(self, g, seat, action) -> str:
        """What only the human who acted is told: the card he drew, the card he knocked with."""
        if self.held is None or seat >= len(g.hands):
            return ""
        if isinstance(action, Draw) and action.source == "stock":
            new = Counter(g.hands[seat]) - Counter(self.held)
            return f": {_cards(new.elements())}" if new else ""
        if action.word == "knock" and hasattr(action, "card"):
            return f" ({_card(action.card)})"
        return ""

    def after(self, g, seat, action) -> list[str]:
        lines = [self.say(g, seat, action) + self.own(g, seat, action)]
        n = len(g.history) - 1  # what the game noted of this action unasked (a Rommé joker that slid)
        lines += [f"  ({text})" for k, text in getattr(g, "notices", ()) if k == n]
        if len(g.results) > self.hands:
            lines += self.hand_end(g)
        return lines

    def hand_end(self, g) -> list[str]:
        r, names = g.results[-1], self.names
        lines = [f"— {r.describe().replace('player ', 'P')} —"]
        width = max(len(_cards(cards)) for cards in r.hands.values() if cards) if any(r.hands.values()) else 12
        for p in r.players:
            cards = r.hands.get(p)
            shown = _cards(cards) if cards else "(not shown)"
            dw = "" if r.deadwood[p] is None else f"  deadwood {r.deadwood[p]:>3}"
            lines.append(f"  {names[p]:<14} {shown:<{width}}{dw}  {r.deltas[p]:+d} → {r.scores[p]}")
        if r.busted:
            lines.append("  out: " + ", ".join(names[p] for p in r.busted))
        money_moved = getattr(r, "money", None)
        if money_moved and any(money_moved):
            lines.append("  chips: " + ", ".join(f"{names[p]} {m:+d}" for p, m in enumerate(money_moved) if m))
        return lines

    # --------------------------------------------------------------- the end

    def scores_line(self, values, unit: str) -> str:
        order = sorted(range(len(values)), key=lambda p: -values[p])
        return f"  final {unit}: " + " · ".join(f"{self.names[p]} {values[p]}" for p in order)

    def finish(self) -> list[str]:
        game, res, names = self.game, self.game.result, self.names
        who = " and ".join(names[w] for w in res.winners)
        wins = "win" if len(res.winners) > 1 else "wins"
        hands = f"{len(game.results)} hand{'s' if len(game.results) != 1 else ''}"
        key, scores = self.key, list(game.scores)
        if key == "gin":
            return [f"{who} {wins} the game, first to {game.rules.game_to} points, after {hands}.",
                    self.scores_line(scores, "points"),
                    self.scores_line(list(res.totals), f"totals with the game bonus ({game.rules.game_bonus}) and "
                                                        f"{game.rules.box_bonus} a box (rules §6)")]
        if key == "knock-rummy":
            return [f"{who} {wins} the game with {max(scores)} points (the game is to {game.rules.game_to}) "
                    f"after {hands}.", self.scores_line(scores, "points")]
        if key == "romme":
            end = "the deals are played out" if res.how == "rotations" else "a player passed the threshold"
            return [f"{who} {wins} with the best total, {max(scores)}, after {hands} ({end}).",
                    self.scores_line(scores, "totals")]
        if key == "robber":
            pen = res.penalties
            if res.how == "out":
                head = f"{who} went out and {wins}."
            else:
                head = (f"Nobody can place and the stock is empty: {who} {wins} with the lowest penalty, "
                        f"{min(p for p in pen if p is not None)}.")
            lines = [head, "  penalties left in hand: " + " · ".join(
                f"{names[p]} {pen[p]}" for p in range(len(pen)) if pen[p] is not None)]
            if game.rules.scoring != "none":
                lines.append(self.scores_line(scores, "scores"))
            return lines
        # rumino, wiener: the pool goes to the winner(s)
        how = {"last_player": "as the last player in", "rumino": "with a rumino", "triple_gin": "with three gins",
               "lowest_score": "with the lowest score", "game_to": "with the lowest score"}.get(
            res.how, res.how.replace("_", " "))
        if key == "rumino":
            pool = money(game.pot_paid_out)
            share = "" if len(res.winners) == 1 else " (" + ", ".join(
                f"{names[w]} {money(res.payouts_cents[w])}" for w in res.winners) + ")"
            return [f"{who} {wins} {how} after {hands} and {'take' if len(res.winners) > 1 else 'takes'} "
                    f"the pool, {pool}{share}.", self.scores_line(scores, "scores (low is good)")]
        pot = game.pot_paid_out
        share = "" if len(res.winners) == 1 else " (" + ", ".join(
            f"{names[w]} {res.payouts_cents[w]}" for w in res.winners) + ")"
        return [f"{who} {wins} {how} after {hands} and {'take' if len(res.winners) > 1 else 'takes'} the pot, "
                f"{pot} chips{share}.", self.scores_line(scores, "scores (low is good)")]


def romme_steps(notation: str, table) -> str:
    """A Rommé play told in words: ``lays A♠ A♣ A♥; lays off 2♦ on [0] A♦ JK(2♦) 3♦``."""
    from rumino.table.melds import parse_token

    def cards(tokens):
        out = []
        for t in tokens:
            try:
                out.append(_tok(parse_token(t)))
            except (InvalidCardError, IllegalActionError, ValueError):
                out.append(t)
        return " ".join(out)

    parts = []
    for step in notation.removeprefix("play ").split(";"):
        words = step.split()
        if not words:
            continue
        head, rest = words[0], words[1:]
        where = ""
        if "on" in rest:
            k = rest.index("on")
            rest, at = rest[:k], rest[k + 1:]
            if at and at[0].isascii() and at[0].isdigit() and int(at[0]) < len(table):
                where = f" on [{at[0]}] {_meld_text(meld_tokens_of(table[int(at[0])]))}"
            elif at:
                where = f" on [{at[0]}]"
        verb = {"lay": "lays", "layoff": "lays off", "exchange": "exchanges"}.get(head, head)
        tail = " for the joker" if head == "exchange" else ""
        parts.append(f"{verb} {cards(rest)}{tail}{where}")
    return "; ".join(parts)


def meld_tokens_of(meld):
    from rumino.table.melds import meld_tokens

    return meld_tokens(meld)


# ---------------------------------------------------------------------------- Robber Rummy: moves


def _tok(t: int) -> str:
    """A table token in the narration: a card, or a joker with the card it stands for."""
    from rumino.table.melds import NAMED

    return f"JK({_card(t - NAMED)})" if t >= NAMED else _card(t)


def _meld_text(tokens) -> str:
    return " ".join(_tok(t) for t in tokens)


class RobberNarrator(DrawNarrator):
    """Robber Rummy: a placement can be typed as moves (lay off, move a table card, a new meld) and a
    bot's placement is told as what moved where."""

    MOVE_WORDS = {"new": "new", "n": "new", "lay": "lay", "l": "lay", "layoff": "lay", "lo": "lay", "move": "move",
                  "m": "move", "mv": "move"}

    def describe(self, view) -> str:
        """The view, its listed placements written as the melds they add (``new 9s 9d JK(9c)``), as typed."""
        from rumino.table.melds import meld_tokens, token_text

        lines = super().describe(view).replace("   (deadwood ", "   (penalty if the hand ended now: ").split("\n")
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

    def before(self, g, seat, action) -> None:
        super().before(g, seat, action)
        self.table_before = tuple(g.table)
        self.hand_before = list(g.hands[seat])
        self.penalties_before = g.penalty_draws

    # --------------------------------------------------------------- typing moves

    def translate(self, line: str, view):
        steps = [s.split() for s in line.replace(",", ";").split(";") if s.split()]
        if not steps or steps[0][0].lower() not in self.MOVE_WORDS:
            return super().translate(line, view)
        return self.build_place(steps, view)

    def build_place(self, steps, view):
        """The :class:`~rumino.variants.robber.Place` that the moves ``steps`` make of the table."""
        from rumino.table.melds import NAMED, meld_tokens, parse_token, read_meld
        from rumino.variants.robber import Place

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
                    raise IllegalActionError(f"you do not hold {_card(raw)}: only cards in your hand can be laid "
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
                        raise IllegalActionError(f"meld {i} ({_meld_text(pool)}) holds no {text}: a move takes "
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
                        f"meld {k} would be {_meld_text(sorted(tokens))}, not a meld: every table card must "
                        f"end the turn in a valid meld ({' '.join(str(err).split()).rstrip('.')}; "
                        f"rules §4.3 (iii)).") from None
        return Place.of(out)

    # --------------------------------------------------------------- telling a placement

    def say(self, g, seat: int, action) -> str:
        if action.word != "place":
            return super().say(g, seat, action)
        who = self.names[seat]
        if g.penalty_draws > self.penalties_before:
            return f"{who} tries a placement that breaks §4.3: the table stays as it was, and he draws 3 cards"
        return self.move_text(who, self.table_before, tuple(g.table), self.hand_before, list(g.hands[seat]))

    @staticmethod
    def move_text(who, before, after, hand_before, hand_after) -> str:
        """What a placement did, meld by meld: the melds it changed (``5♣ 6♣ → 5♣ 6♣ 7♣``), the melds it
        made, each table card that changed meld with the meld it left, and the melds taken apart.

        Which meld continues which is :func:`rumino.table.diff.table_diff`'s matching (the GameTable's
        marks); a meld that keeps a single card of an old one is told as new, that card as moved."""
        from rumino.table.diff import MOVED, STAYED, table_diff
        from rumino.table.melds import meld_tokens

        d = table_diff(before, after)
        text = lambda m: _meld_text(meld_tokens(m))  # noqa: E731
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
            notes = [" ".join("JK" if c == JOKER else _card(c) for c in sorted(cs)) + f" from {text(before[b])}"
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
        head = f"{who} places {_cards(placed.elements())}" if placed else f"{who} rearranges the table"
        left_n = len(hand_after)
        head += f" ({left_n} card{'s' if left_n != 1 else ''} left)"
        if len(parts) <= 2:
            return head + ": " + "; ".join(parts)
        return head + ":\n" + "\n".join(f"    {part}" for part in parts)


# ---------------------------------------------------------------------------- Rummoli


class StopsNarrator(DrawNarrator):
    """What the table sees in Rummoli (rules §2): the widow and the dead hand stay hidden; the
    auction is told in one line; the human sees his hand and the poker result when the stops begin,
    and is asked before a forced card is played for him (or not, after ``auto``)."""

    SAY = {
        "swap": lambda who, g, a, top: f"{who} swaps his hand for the widow, unseen",
        "keep": lambda who, g, a, top: f"{who} keeps his hand" + ("" if a.sell else ", the widow unsold"),
        "bid": lambda who, g, a, top: f"{who} bids {a.amount}" if g.rules.widow_auction == "open" else
        f"{who} makes a sealed bid",
        "pass": lambda who, g, a, top: f"{who} passes",
        "play": lambda who, g, a, top: f"{who} plays {_card(a.card)}",
        **{w: (lambda who, g, a, top: f"{who} {a.word}s") for w in ("check", "call", "fold")},
        **{w: (lambda who, g, a, top: f"{who} {a.word}s {g.rules.bet_size}") for w in ("bet", "raise")},
        "claim": lambda who, g, a, top: "{} claims the {} section: {} chips".format(who, g.won[-1][0], g.won[-1][2]),
        "forgo": lambda who, g, a, top: f"{who} does not claim: the chips stay on the sheet",
        "deal": lambda who, g, a, top: f"{who} deals deal {g.hand_number}",
    }

    def __init__(self, game, names, key: str | None = None, humans=()):
        super().__init__(game, names, key, humans)
        self.bids: list[str] = []  # the auction so far, told in one line
        self.last_forced = None  # (seat, action): the forced card last offered to a human

    def describe(self, view) -> str:
        lines = view.describe(unicode=True).split("\n")
        if len(lines) > 1:
            lines[1] = lines[1].replace(f"P{view.seat}*=", f"P{view.seat} (you)=")
        for k, line in enumerate(lines):
            if line.startswith("widow auction: high bid") and view.high_bidder is None:
                lines[k] = "widow auction: no bid yet"
            if line.startswith("widow auction:"):
                lines[k] += (f" (the widow: {view.widow_size} cards, unseen; the buyer pays the dealer and takes "
                             f"it in place of his hand, rules §2.3)")
        sizes = [f"{self.names[p].split()[0]} {n}" for p, n in enumerate(view.hand_sizes)
                 if p != view.seat and view.in_hand[p]]
        if sizes and view.phase not in ("between_deals", "game_over"):
            lines.insert(3, "cards in hand: " + " · ".join(sizes))
        return "\n".join(lines)

    def translate(self, line: str, view):
        parts = line.lower().split()
        words = view.action_set.by_word
        if len(parts) == 1 and parts[0] not in words and not parts[0].isdigit() and parts[0] not in ("b", "p"):
            try:
                parse_card(parts[0])
            except InvalidCardError:
                raise IllegalActionError(f"{line.strip()!r} is not understood: type ? for this game's "
                                         f"commands.") from None
        return super().translate(line, view)

    def before(self, g, seat, action) -> None:
        self.hands, self.phase = len(g.results), g.phase
        self.held = None

    def forced(self, view):
        legal = view.legal_actions
        forced = legal[0] if view.phase == "stops" and len(legal) == 1 else None  # a forced card (§2.5.2)
        self.last_forced = (view.seat, forced)
        return forced

    def pending(self) -> list[str]:
        if not self.bids:
            return []
        line, self.bids = "widow auction: " + " · ".join(self.bids), []
        return [line]

    def say(self, g, seat: int, action) -> str:
        line = super().say(g, seat, action)
        forced = action.word == "play" and self.last_forced == (seat, action)
        return line + (" (forced)" if forced else "")

    def after(self, g, seat, action) -> list[str]:
        lines = []
        if self.phase == "auction" and action.word in ("bid", "pass"):
            who = self.names[seat].split()[0]
            self.bids.append(f"{who} {'bids ' + str(action.amount) if action.word == 'bid' else 'passes'}"
                             if g.rules.widow_auction == "open" or action.word == "pass" else f"{who} bids (sealed)")
            if g.phase == "auction":
                return []
            lines += self.pending()
            if g.widow_how == "auction" and g.widow_to is not None:
                lines.append(f"  {self.names[g.widow_to]} buys the widow for {n_chips(g.high_bid)}, paid to the "
                             f"dealer, and takes it in place of his hand (set aside, dead)")
            else:
                lines.append("  nobody buys the widow: it stays out as the dead hand")
        else:
            lines.append(self.say(g, seat, action))
        if self.phase in ("widow", "auction", "betting") and g.phase == "stops" and g.poker_winners:
            lines += self.stops_begin(g)
        if len(g.results) > self.hands:
            lines += self.hand_end(g)
        return lines

    def stops_begin(self, g) -> list[str]:
        """The poker result and, for the human, his hand, before any card of the stops is played."""
        names, lines = self.names, []
        for p in g.hand_players:  # rules §2.4: the fives are shown face up, for every player to see
            if g.poker_shown[p] is not None:
                lines.append(f"showdown: {names[p]} shows {' '.join(map(_card, g.poker_shown[p]))} "
                             f"({describe_poker(g.poker_values[p])})")
        for p in g.poker_winners:
            value = g.poker_values[p]
            hand = "" if value is None else f" with {describe_poker(value)}"
            lines.append(f"poker: {names[p]} wins the pot{hand}, {g.poker_won} chips")
        for p in sorted(self.humans):
            if g.in_hand[p] and g.hands[p]:
                lines.append(f"your hand for the stops ({names[p]}): {_cards(g.hands[p])}")
        lines.append(f"the stops begin: {names[g.turn]} leads")
        return lines

    def opening(self, seed: int) -> list[str]:
        game, names = self.game, self.names
        cut = ", ".join(f"{names[p]} {_card(c)}" for p, c in game.first_dealer_draws[-1]) \
            if game.first_dealer_draws else ""
        return [f"{game.NAME}, {len(names)} players, {game.rules.initial_chips} chips each, {game.deals_total} deals, "
                f"seed {seed}." + (f" The cut: {cut}." if cut else ""),
                f"{names[game.dealer]} deals deal 1; everyone antes one chip on each of the nine sections. "
                f"(Type ? at the prompt for the commands.)"]

    def hand_end(self, g) -> list[str]:
        """The end of a deal: the widow, the poker pot, the sections won, how it ended, the chips."""
        r, names = g.results[-1], self.names
        lines = [f"— {r.describe().replace('player ', 'P')} —"]
        if r.widow_how == "auction":
            lines.append(f"  the widow went to {names[r.widow_to]} for {n_chips(r.bid)}")
        elif r.widow_how == "swap":
            lines.append(f"  the dealer {names[r.widow_to]} took the widow")
        for p in r.poker_winners:
            hand = "" if r.poker_values[p] is None else f" with {describe_poker(r.poker_values[p])}"
            lines.append(f"  poker pot: {names[p]}{hand}, {r.poker_won} chips")
        for section, p, chips in r.won:
            if section != "poker":
                lines.append(f"  {section}: {names[p]} takes {chips} chips")
        if r.out is not None:  # someone went out (the ending "rummoli"); else a deadlock
            lines.append(f"  {names[r.out]} receives {r.payments[r.out]} chips for the cards left in hand")
        else:
            lines.append(f"  deadlock: {sum(r.deadlock)} chips go onto the Rummoli section")
        lines.append("  chips: " + "  ".join(f"{names[p]} {c}" for p, c in enumerate(r.chips)))
        return lines

    def finish(self) -> list[str]:
        game, res, names = self.game, self.game.result, self.names
        who = " and ".join(names[w] for w in res.winners)
        wins = "win" if len(res.winners) > 1 else "wins"
        return [f"The final sweep ({game.rules.final_sweep}): {names[res.swept_by]} takes the {res.swept} chips "
                f"left on the sheet.",
                f"{who} {wins} with {res.chips[res.winners[0]]} chips after {len(game.results)} deal(s).",
                self.scores_line(list(res.chips), "chips")]


NARRATORS: dict[str, type] = {"draw": DrawNarrator, "stops": StopsNarrator}
"""How the terminal narrates a game, by ``Variant.narration`` (Robber Rummy: :class:`RobberNarrator`)."""


def narrator_for(v, game, names, humans):
    cls = RobberNarrator if v.key == "robber" else NARRATORS[v.narration]
    return cls(game, names, v.key, humans)


def make_session(specs: Sequence[str], *, seed: int | None = None, rules=None, stdin: TextIO | None = None,
                 stdout: TextIO | None = None, variant: str = "rumino"):
    """The game, its narrator and the terminal session of :func:`play_terminal`, not yet played
    (``tests/terminal_transcripts.py`` types into it); returns ``(session, narrator, seed)``."""
    v = playable(variant)
    rules = rules if rules is not None else v.rules
    seed = fresh_seed(seed)
    game, players = new_table(v, list(specs), seed, 0, rules=rules)
    humans = [i for i, p in enumerate(players) if isinstance(p, HumanPlayer)]
    narrator = narrator_for(v, game, player_names(players), humans)
    session = TerminalSession(game, players, stdin=stdin, stdout=stdout, describe=narrator.describe,
                              help_text=narrator.help_text, autoplay=narrator.autoplay, forced=narrator.forced,
                              translate=narrator.translate, pending=narrator.pending)
    return session, narrator, seed


def play_terminal(specs: Sequence[str], *, seed: int | None = None, rules=None, stdin: TextIO | None = None,
                  stdout: TextIO | None = None, variant: str = "rumino") -> int:
    """Play one game of ``variant`` with the players ``specs`` (``human`` reads ``stdin``); returns the exit code.

    The game and its bots are seeded by the one scheme (:func:`rumino.playing.seeding.new_table`, game 0
    of the run ``seed``) and stepped by the one game loop (:func:`rumino.engine.protocol.play`); the
    game's narrator (``Variant.narration``) says what the table sees.
    """
    session, narrator, seed = make_session(specs, seed=seed, rules=rules, stdin=stdin, stdout=stdout,
                                           variant=variant)
    return run_session(session, narrator, seed)


def run_session(session, narrator, seed: int) -> int:
    def emit(lines):
        for line in lines:
            session.emit(line)

    emit(narrator.opening(seed))
    return session.run(before=narrator.before, after=lambda g, seat, a: emit(narrator.after(g, seat, a)),
                       finish=lambda: emit(narrator.finish()))


def run(args) -> int:
    if args.seed is not None:
        check_seed(args.seed)
    variant = playable(args.variant)
    rules = parse_rules(variant, args.rules)
    if args.players is None:
        bots = default_players(variant).split(",")
        args.players = ",".join(["human"] + bots[1:])
    specs = parse_player_list(args.players, variant)
    if sys.stdin is None and any(s.strip().lower() == "human" for s in specs):
        raise CommandError("there is no input to read your moves from (stdin is closed): run rumino play at a "
                           "terminal, or pipe the moves in.")
    return play_terminal(specs, seed=args.seed, rules=rules, variant=variant.key)


def register(sub) -> None:
    p = sub.add_parser("play", help="play a game (Rumino by default) in the terminal against bots",
                       description="Play a game of any playable variant (Rumino by default) against bots, typing "
                                   "actions at the prompt (? for help). Input may be piped; end of input ends "
                                   "the game.")
    p.add_argument("--variant", default="rumino", help="the game (a playable variant; default rumino)")
    p.add_argument("--players", default=None,
                   help=f"comma-separated: {ALLOWED} (default: you and the game's own bots, four players or as "
                        f"many as the game allows)")
    p.add_argument("--seed", type=int, default=None, help="seed of the deal (default: a fresh one)")
    p.add_argument("--rules", nargs="+", action="extend", default=[], metavar="KEY=VALUE",
                   help="house rules, e.g. knock_max_deadwood=5")
    p.set_defaults(run=run)


__all__ = ["play_terminal", "make_session", "run_session", "game_help", "NARRATORS", "DrawNarrator",
           "RobberNarrator", "StopsNarrator", "register"]
