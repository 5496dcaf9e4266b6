"""``rumino play``: a game of any playable variant (Rumino by default) in the terminal against bots.

One terminal loop (:class:`~rumino.cli._terminal.TerminalSession`) plays every game;
what the table is told is the game's narration, ``Variant.narration`` (:data:`NARRATORS`):

* ``draw`` — the draw-and-discard games: you type ``s`` (draw from the stock),
  ``t`` (take the discard), ``k`` (knock), a card such as ``7h`` to discard it,
  ``g 7h`` to go gin, ``r`` rumino, ``c``/``p`` claim or pass, ``y``/``n`` rebuy,
  or a number from the list;
* ``stops`` — Rummoli (RULES §2): ``swap`` / ``keep`` / ``keep unsold`` (the dealer and
  the widow: keep his hand and auction the widow, or keep it and sell nothing),
  ``bid N`` / ``pass`` (the auction), ``check``, ``bet``, ``call``, ``raise``,
  ``fold`` (with ``poker_method=betting``), a card such as ``7h`` to play it in the
  stops, ``claim`` / ``forgo`` (with ``manual_claims``), ``deal``, or a number from
  the list. A card you are forced to play (the only legal one in the stops) is
  played for you.

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

from typing import Sequence, TextIO

from rumino.cards import format_card, format_hand
from rumino.hand.poker import describe as describe_poker
from rumino.playing.seeding import new_table
from rumino.players import ALLOWED, describe_view
from rumino.players.human import HELP
from rumino.cli import check_range
from rumino.cli._terminal import TerminalSession, fresh_seed, player_names
from rumino.cli.simulate import default_players, parse_player_list, parse_rules, playable


def _card(c) -> str:
    return format_card(c, unicode=True)


class DrawNarrator:
    """What the table sees in a draw-and-discard game (a card drawn from the stock stays hidden)."""

    help_text = HELP
    SAY = {
        "draw": lambda who, g, a, top: f"{who} draws from the stock" if a.source == "stock" else
        f"{who} takes {_card(top)} from the discard pile",
        "discard": lambda who, g, a, top: f"{who} discards {_card(a.card)}",
        "gin": lambda who, g, a, top: f"{who} goes GIN, discarding {_card(a.card)}",
        "knock": lambda who, g, a, top: f"{who} knocks" + (", discarding face down" if hasattr(a, "card") else ""),
        "rumino": lambda who, g, a, top: f"{who} calls RUMINO",
        "claim": lambda who, g, a, top: f"{who} claims the discard for a RUMINO",
        "pass": lambda who, g, a, top: f"{who} lets the discard go",
        "rebuy": lambda who, g, a, top: f"{who} rebuys",
        "decline": lambda who, g, a, top: f"{who} does not rebuy",
        "deal": lambda who, g, a, top: f"{who} deals hand {g.hand_number}",
    }
    HOW = {"last_player": "as the last player in", "rumino": "with a rumino", "triple_gin": "with three gins",
           "lowest_score": "with the lowest score"}

    def __init__(self, game, names):
        self.game, self.names = game, names
        self.hands, self.top = 0, None

    def describe(self, view) -> str:
        return describe_view(view)

    def autoplay(self, view):
        return None

    def opening(self, seed: int) -> list[str]:
        game, names, rules = self.game, self.names, self.game.rules
        draws = ", ".join(f"{names[p]} {_card(c)}" for p, c in
                          (game.first_dealer_draws[-1] if game.first_dealer_draws else ()))
        stake = f", stake {rules.stake} each" if hasattr(rules, "stake") else ""
        return [f"{game.NAME}, {len(names)} players{stake}, seed {seed}."
                + (f" Cards drawn for the deal: {draws}." if draws else ""),
                f"{names[game.dealer]} deals hand 1."]

    def before(self, g, seat, action) -> None:
        self.hands, self.top = len(g.results), (g.discard[-1] if g.discard else None)

    def say(self, g, seat: int, action) -> str:
        who = self.names[seat]
        say = self.SAY.get(action.word)
        return say(who, g, action, self.top) if say is not None else f"{who}: {action}"

    def after(self, g, seat, action) -> list[str]:
        lines = [self.say(g, seat, action)]
        n = len(g.history) - 1  # what the game noted of this action unasked (a Rommé joker that slid)
        lines += [f"  ({text})" for k, text in getattr(g, "notices", ()) if k == n]
        if len(g.results) > self.hands:
            lines += self.hand_end(g)
        return lines

    def hand_end(self, g) -> list[str]:
        r, names = g.results[-1], self.names
        lines = [f"— {r.describe().replace('player ', 'P')} —"]
        for p in r.players:
            cards = r.hands.get(p)
            shown = format_hand(sorted(cards), unicode=True) if cards else "(not shown)"
            dw = "" if r.deadwood[p] is None else f" deadwood {r.deadwood[p]:>2}"
            lines.append(f"  {names[p]:<14} {shown:<32}{dw}  {r.deltas[p]:+d} → {r.scores[p]}")
        if r.busted:
            lines.append("  out: " + ", ".join(names[p] for p in r.busted))
        return lines

    def finish(self) -> list[str]:
        game, res = self.game, self.game.result
        who = " and ".join(self.names[w] for w in res.winners)
        how = self.HOW.get(res.how, res.how.replace("_", " "))
        pot = game.pot_paid_out / game.POT_SCALE
        return [f"{who} wins {how} after {len(game.results)} hand(s)"
                + (f", taking {pot:.2f} from the pool." if pot else ".")]


class StopsNarrator(DrawNarrator):
    """What the table sees in Rummoli (RULES §2): the widow and the dead hand stay hidden."""

    help_text = ("type a number from the list, or: swap, keep, keep unsold, bid N, pass, check, bet, call, raise, fold, "
                 "a card such as 7h (play it), claim, forgo, deal, q (quit)")
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

    def describe(self, view) -> str:
        return view.describe(unicode=True)

    def before(self, g, seat, action) -> None:
        self.hands = len(g.results)

    def autoplay(self, view):
        legal = view.legal_actions
        return legal[0] if view.phase == "stops" and len(legal) == 1 else None  # a forced card (§2.5.2)

    def opening(self, seed: int) -> list[str]:
        game, names = self.game, self.names
        cut = ", ".join(f"{names[p]} {_card(c)}" for p, c in game.first_dealer_draws[-1]) \
            if game.first_dealer_draws else ""
        return [f"{game.NAME}, {len(names)} players, {game.rules.initial_chips} chips each, {game.deals_total} deals, "
                f"seed {seed}." + (f" The cut: {cut}." if cut else ""),
                f"{names[game.dealer]} deals deal 1; everyone antes one chip on each of the nine sections."]

    def hand_end(self, g) -> list[str]:
        """The end of a deal: the widow, the poker pot, the sections won, how it ended, the chips."""
        r, names = g.results[-1], self.names
        lines = [f"— {r.describe().replace('player ', 'P')} —"]
        if r.widow_how == "auction":
            lines.append(f"  the widow went to {names[r.widow_to]} for {r.bid} chips")
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
        return [f"The final sweep ({game.rules.final_sweep}): {names[res.swept_by]} takes the {res.swept} chips "
                f"left on the sheet.",
                f"{who} wins with {res.chips[res.winners[0]]} chips after {len(game.results)} deal(s)."]


NARRATORS: dict[str, type] = {"draw": DrawNarrator, "stops": StopsNarrator}
"""How the terminal narrates a game, by ``Variant.narration``."""


def play_terminal(specs: Sequence[str], *, seed: int | None = None, rules=None, stdin: TextIO | None = None,
                  stdout: TextIO | None = None, variant: str = "rumino") -> int:
    """Play one game of ``variant`` with the players ``specs`` (``human`` reads ``stdin``); returns the exit code.

    The game and its bots are seeded by the one scheme (:func:`rumino.playing.seeding.new_table`, game 0
    of the run ``seed``) and stepped by the one game loop (:func:`rumino.engine.protocol.play`); the
    game's narrator (``Variant.narration``) says what the table sees.
    """
    v = playable(variant)
    rules = rules if rules is not None else v.rules
    seed = fresh_seed(seed)
    game, players = new_table(v, list(specs), seed, 0, rules=rules)
    narrator = NARRATORS[v.narration](game, player_names(players))
    session = TerminalSession(game, players, stdin=stdin, stdout=stdout, describe=narrator.describe,
                              help_text=narrator.help_text, autoplay=narrator.autoplay)

    def emit(lines):
        for line in lines:
            session.emit(line)

    emit(narrator.opening(seed))
    return session.run(before=narrator.before, after=lambda g, seat, a: emit(narrator.after(g, seat, a)),
                       finish=lambda: emit(narrator.finish()))


def run(args) -> int:
    if args.seed is not None:
        check_range("--seed", args.seed, 0)
    variant = playable(args.variant)
    rules = parse_rules(variant, args.rules)
    if args.players is None:
        bots = default_players(variant).split(",")
        args.players = ",".join(["human"] + bots[1:])
    specs = parse_player_list(args.players, variant)
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


__all__ = ["play_terminal", "NARRATORS", "DrawNarrator", "StopsNarrator", "register"]
