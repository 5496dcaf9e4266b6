"""``rumino play``: a game of Rumino in the terminal against bots.

You type actions at the prompt (``s`` draw from the stock, ``t`` take the
discard, ``k`` knock, a card such as ``7h`` to discard it, ``g 7h`` to go gin,
``r`` rumino, ``c``/``p`` claim or pass, ``y``/``n`` rebuy, or a number from the
list). Input may be piped, which is how the tests play; the end of input ends
the program cleanly.

>>> import io
>>> from rumino.cli.play import play_terminal
>>> out = io.StringIO()
>>> play_terminal(["greedy", "greedy"], seed=2, stdin=io.StringIO(""), stdout=out)
0
>>> "wins" in out.getvalue()
True
"""

from __future__ import annotations

from typing import Sequence, TextIO

from rumino.cards import format_card, format_hand
from rumino.playing.seeding import new_table
from rumino.players import ALLOWED, describe_view
from rumino.cli._terminal import TerminalSession, fresh_seed
from rumino.cli.simulate import parse_player_list, parse_rules, playable


def _say_action(game, seat: int, action, before_top, names) -> str:
    """What the table sees a player do (a card drawn from the stock stays hidden)."""
    who = names[seat]
    w = action.word
    if w == "draw":
        return f"{who} draws from the stock" if action.source == "stock" else \
            f"{who} takes {format_card(before_top, unicode=True)} from the discard pile"
    if w == "discard":
        return f"{who} discards {format_card(action.card, unicode=True)}"
    if w == "gin":
        return f"{who} goes GIN, discarding {format_card(action.card, unicode=True)}"
    if w == "knock":
        return f"{who} knocks" + (f", discarding face down" if hasattr(action, "card") else "")
    if w == "rumino":
        return f"{who} calls RUMINO"
    if w == "claim":
        return f"{who} claims the discard for a RUMINO"
    if w == "pass":
        return f"{who} lets the discard go"
    if w == "rebuy":
        return f"{who} rebuys"
    if w == "decline":
        return f"{who} does not rebuy"
    if w == "deal":
        return f"{who} deals hand {game.hand_number}"
    return f"{who}: {action}"


def _say_hand(game, names) -> list[str]:
    r = game.results[-1]
    lines = [f"— {r.describe().replace('player ', 'P')} —"]
    for p in r.players:
        cards = r.hands.get(p)
        shown = format_hand(sorted(cards), unicode=True) if cards else "(not shown)"
        dw = "" if r.deadwood[p] is None else f" deadwood {r.deadwood[p]:>2}"
        lines.append(f"  {names[p]:<14} {shown:<32}{dw}  {r.deltas[p]:+d} → {r.scores[p]}")
    if r.busted:
        lines.append("  out: " + ", ".join(names[p] for p in r.busted))
    return lines


def play_terminal(specs: Sequence[str], *, seed: int | None = None, rules=None, stdin: TextIO | None = None,
                  stdout: TextIO | None = None, variant: str = "rumino") -> int:
    """Play one game of ``variant`` with the players ``specs`` (``human`` reads ``stdin``); returns the exit code.

    The game and its bots are seeded by the one scheme (:func:`rumino.playing.seeding.new_table`, game 0
    of the run ``seed``) and stepped by the one game loop (:func:`rumino.engine.protocol.play`).
    """
    v = playable(variant)
    rules = rules if rules is not None else v.rules
    if v.key == "rummoli":  # no stock or discard pile: the game's own narration
        from rumino.cli.play_rummoli import play_rummoli_terminal

        return play_rummoli_terminal(specs, seed=seed, rules=rules, stdin=stdin, stdout=stdout)
    from rumino.players.human import HELP

    seed = fresh_seed(seed)
    game, players = new_table(v, list(specs), seed, 0, rules=rules)
    session = TerminalSession(game, players, stdin=stdin, stdout=stdout, describe=describe_view, help_text=HELP)
    emit, names = session.emit, session.names
    draws = ", ".join(f"{names[p]} {format_card(c, unicode=True)}" for p, c in
                      (game.first_dealer_draws[-1] if game.first_dealer_draws else ()))
    stake = f", stake {rules.stake} each" if hasattr(rules, "stake") else ""
    emit(f"{game.NAME}, {len(players)} players{stake}, seed {seed}."
         + (f" Cards drawn for the deal: {draws}." if draws else ""))
    emit(f"{names[game.dealer]} deals hand 1.")
    state = {}

    def before(g, seat, action):
        state["hands"], state["top"] = len(g.results), (g.discard[-1] if g.discard else None)

    def after(g, seat, action):
        emit(_say_action(g, seat, action, state["top"], names))
        if len(g.results) > state["hands"]:
            for line in _say_hand(g, names):
                emit(line)

    def finish():
        res = game.result
        who = " and ".join(names[w] for w in res.winners)
        how = {"last_player": "as the last player in", "rumino": "with a rumino", "triple_gin": "with three gins",
               "lowest_score": "with the lowest score"}.get(res.how, res.how.replace("_", " "))
        pot = game.pot_paid_out / game.POT_SCALE
        emit(f"{who} wins {how} after {len(game.results)} hand(s)"
             + (f", taking {pot:.2f} from the pool." if pot else "."))

    return session.run(before=before, after=after, finish=finish)


def run(args) -> int:
    variant = playable(args.variant)
    rules = parse_rules(variant, args.rules)
    if args.players is None:
        from rumino.cli.simulate import default_players

        bots = default_players(variant).split(",")
        args.players = ",".join(["human"] + bots[1:])
    specs = parse_player_list(args.players, variant)
    return play_terminal(specs, seed=args.seed, rules=rules, variant=variant.key)


def register(sub) -> None:
    p = sub.add_parser("play", help="play Rumino in the terminal against bots",
                       description="Play a game of Rumino against bots, typing actions at the prompt "
                                   "(? for help). Input may be piped; end of input ends the game.")
    p.add_argument("--variant", default="rumino", help="the game (a playable variant; default rumino)")
    p.add_argument("--players", default=None,
                   help=f"comma-separated: {ALLOWED} (default: you and greedy bots, four players or as many "
                        f"as the game allows)")
    p.add_argument("--seed", type=int, default=None, help="seed of the deal (default: a fresh one)")
    p.add_argument("--rules", nargs="+", action="extend", default=[], metavar="KEY=VALUE",
                   help="house rules, e.g. knock_max_deadwood=5")
    p.set_defaults(run=run)
