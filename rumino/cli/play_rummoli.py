"""``rumino play --variant rummoli``: a game of Rummoli in the terminal against bots (RULES §2).

You type ``swap`` / ``keep`` (the dealer and the widow), ``bid N`` / ``pass`` (the
auction), ``check``, ``bet``, ``call``, ``raise``, ``fold`` (with
``poker_method=betting``), a card such as ``7h`` to play it in the stops,
``claim`` / ``forgo`` (with ``manual_claims``), ``deal``, or a number from the
list. A card you are forced to play (the only legal one in the stops) is played for you. Input may be piped; the end of input ends the program cleanly.

>>> import io
>>> out = io.StringIO()
>>> play_rummoli_terminal(["default", "random"], seed=2, stdin=io.StringIO(""), stdout=out)
0
>>> "final sweep" in out.getvalue()
True
"""

from __future__ import annotations

from typing import Sequence, TextIO

from rumino.cards import format_card
from rumino.playing.seeding import new_table
from rumino.hand.poker import describe as describe_poker
from rumino.cli._terminal import TerminalSession, fresh_seed

HELP = ("type a number from the list, or: swap, keep, bid N, pass, check, bet, call, raise, fold, "
        "a card such as 7h (play it), claim, forgo, deal, q (quit)")


def say_action(game, seat: int, action, names) -> str:
    """What the table sees a player do (the widow and the dead hand stay hidden)."""
    who = names[seat]
    w = action.word
    if w == "swap":
        return f"{who} swaps his hand for the widow, unseen"
    if w == "keep":
        return f"{who} keeps his hand"
    if w == "bid":
        return f"{who} bids {action.amount}" if game.rules.widow_auction == "open" else f"{who} makes a sealed bid"
    if w == "pass":
        return f"{who} passes"
    if w == "play":
        return f"{who} plays {format_card(action.card, unicode=True)}"
    if w in ("check", "call", "fold"):
        return f"{who} {w}s"
    if w in ("bet", "raise"):
        return f"{who} {w}s {game.rules.bet_size}"
    if w == "claim":
        section, _, chips = game.won[-1]
        return f"{who} claims the {section} section: {chips} chips"
    if w == "forgo":
        return f"{who} does not claim: the chips stay on the sheet"
    if w == "deal":
        return f"{who} deals deal {game.hand_number}"
    return f"{who}: {action}"


def say_deal(game, names) -> list[str]:
    """The end of a deal: the widow, the poker pot, the sections won, how it ended, the chips."""
    r = game.results[-1]
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
    if r.ending == "rummoli":
        lines.append(f"  {names[r.out]} receives {r.payments[r.out]} chips for the cards left in hand")
    else:
        lines.append(f"  deadlock: {sum(r.deadlock)} chips go onto the Rummoli section")
    lines.append("  chips: " + "  ".join(f"{names[p]} {c}" for p, c in enumerate(r.chips)))
    return lines


def play_rummoli_terminal(specs: Sequence[str], *, seed: int | None = None, rules=None,
                          stdin: TextIO | None = None, stdout: TextIO | None = None) -> int:
    """Play one game of Rummoli with the players ``specs`` (``human`` reads ``stdin``); returns the exit code.

    Seeded by the one scheme (:func:`rumino.playing.seeding.new_table`, game 0 of the run ``seed``) and
    stepped by the one game loop (:func:`rumino.engine.protocol.play`).
    """
    seed = fresh_seed(seed)
    game, players = new_table("rummoli", list(specs), seed, 0, rules=rules)

    def forced(view):
        legal = view.legal_actions
        return legal[0] if view.phase == "stops" and len(legal) == 1 else None  # a forced card (§2.5.2)

    session = TerminalSession(game, players, stdin=stdin, stdout=stdout,
                              describe=lambda view: view.describe(unicode=True), help_text=HELP, autoplay=forced)
    emit, names = session.emit, session.names
    cut = ", ".join(f"{names[p]} {format_card(c, unicode=True)}" for p, c in game.first_dealer_draws[-1]) \
        if game.first_dealer_draws else ""
    emit(f"Rummoli, {len(players)} players, {game.rules.initial_chips} chips each, {game.deals_total} deals, "
         f"seed {seed}." + (f" The cut: {cut}." if cut else ""))
    emit(f"{names[game.dealer]} deals deal 1; everyone antes one chip on each of the nine sections.")
    state = {}

    def before(g, seat, action):
        state["deals"] = len(g.results)

    def after(g, seat, action):
        emit(say_action(g, seat, action, names))
        if len(g.results) > state["deals"]:
            for line in say_deal(g, names):
                emit(line)

    def finish():
        res = game.result
        emit(f"The final sweep ({game.rules.final_sweep}): {names[res.swept_by]} takes the {res.swept} chips "
             f"left on the sheet.")
        who = " and ".join(names[w] for w in res.winners)
        emit(f"{who} wins with {res.chips[res.winners[0]]} chips after {len(game.results)} deal(s).")

    return session.run(before=before, after=after, finish=finish)


__all__ = ["play_rummoli_terminal", "say_action", "say_deal"]
