"""The terminal's last frictions (issue 38, item 5): refusals that list the moves legal now and speak to the
player, Robber's menu of lay-offs and rearrangements written as moves with who has opened and a bot's
rearrangement in a few lines, Wiener's list without the never-better knock, and Rummoli's colour changes and
final sweep explained."""

from __future__ import annotations

import io
import re
from collections import Counter

import pytest

from rumino.cli.play import make_session, play_terminal
from rumino.engine.actions import Discard, Draw
from rumino.engine.protocol import step
from rumino.errors import IllegalActionError
from rumino.players import parse_human_action
from rumino.variants import find_variant
from rumino.variants.robber import ROBBER, RobberGame
from rumino.variants.robber.words import RobberNarrator
from rumino.variants.rummoli.game import STRENGTH


def refusal_of(session, line):
    """What the prompt answers ``line`` with, read as the terminal reads it."""
    g = session.game
    view = g.view(g.to_act)
    with pytest.raises(IllegalActionError) as err:
        g.check(session.translate(line, view) or parse_human_action(line, view))
    return session.refusal(err.value, view)


def to_your_turn(session):
    """Let the bots play until the human (seat 0) is to act."""
    g = session.game
    while g.to_act != 0:
        step(g, session.players.__getitem__)


def test_a_refusal_lists_only_the_moves_legal_now_and_speaks_to_the_player():
    session, narrator, _ = make_session(["human", "greedy"], seed=67, stdin=io.StringIO(""), stdout=io.StringIO())
    to_your_turn(session)
    g = session.game
    view = g.view(g.to_act)
    assert view.deadwood > g.rules.knock_max_deadwood  # 29 deadwood: no knock now
    with pytest.raises(IllegalActionError) as err:
        g.check(Discard(view.hand[0]))
    assert "knock" not in str(err.value) and "the choices are draw from the stock or take the discard" in str(err.value)
    assert refusal_of(session, "4h") == "It is the start of your turn: draw from the stock or take the discard (rules §1.3)."
    assert refusal_of(session, "k") == "cannot knock: you have 29 deadwood, the limit is 7 (rules §1.3)."
    g.apply(Draw("stock"))
    said = refusal_of(session, "s")
    assert said.startswith("You have already drawn this turn: discard a card") and "player 0" not in said


def test_wiener_dealer_asked_to_draw_on_his_opening_discard_is_told_why_in_his_words():
    session, _, _ = make_session(["human", "greedy"], seed=67, stdin=io.StringIO(""), stdout=io.StringIO(),
                                 variant="wiener")
    to_your_turn(session)
    g = session.game
    assert g.to_act == g.dealer and g.phase == "discard"
    said = refusal_of(session, "s")
    assert said.startswith("You hold the dealer's extra card, so this turn has no draw: ")
    assert "player 0" not in said and "has drawn" not in said and said.endswith("(rules §5.4).")


def test_wiener_list_and_hint_leave_out_a_knock_beside_the_rummy_with_the_same_card():
    v = find_variant("wiener")
    g = v.game.new(None, 2, seed=3)
    g.apply(g.legal_actions()[0])  # the dealer's opening discard
    seat = g.to_act
    g.set_position(hands={seat: "2c 3c 4c 5c 5h 6h 7h 9s 9d 9h"}, stock_top="Kd 2h")
    g.apply(Draw("stock"))
    view = g.view(seat)
    legal = [str(a) for a in view.legal_actions]
    assert "rummy Kd" in legal and "knock Kd" in legal  # the engine allows both
    narrator = v.narrator(g, ["P0 (greedy)", "P1 (you)"] if seat else ["P0 (you)", "P1 (greedy)"], [seat])
    menu = [str(a) for a in narrator.choices(view)]
    assert "rummy Kd" in menu and "knock Kd" not in menu
    assert "knock Kd" not in narrator.describe(view) and "[1] rummy Kd" in narrator.describe(view)
    typed = narrator.translate("k kd", view)
    g.check(typed)  # still accepted when typed: advice, not a rule
    assert str(typed) == "knock Kd"
    assert str(narrator.translate(str(len(menu)), view)) == menu[-1]  # a number picks from the list shown


def robber_position():
    g = RobberGame.new(ROBBER, 2, seed=3)
    g.set_position(hands={g.turn: "7c Kd 9c 2h 3h 4h JK"}, table=["5c 6c 7c 8c", "9s 9d 9h"], opened={g.turn: True})
    names = [f"P{p} ({'you' if p == g.turn else 'greedy'})" for p in range(2)]
    return g, RobberNarrator(g, names, [g.turn])


def test_robber_menu_offers_lay_offs_and_rearrangements_written_as_moves_that_read_back():
    g, narrator = robber_position()
    view = g.view(g.turn)
    menu = narrator.choices(view)
    words = [narrator.move_words(a, view) for a in menu]
    assert "lay 9c on 1" in words and "lay 9c on 0" in words and "draw stock" in words
    assert any(w.startswith("move ") for w in words)  # a table card moved (the solver's: 5c 6c 7c | 7c 8c 9c …)
    assert not any(w.startswith("place ") for w in words)  # each written as moves
    for a, w in zip(menu, words):
        if a.word == "place":
            g.check(a)
            assert g.judge(view.seat, a).ok
            again = narrator.translate(w, view)  # what the list says, typed, makes the same table
            assert Counter(again.table) == Counter(a.table), w
    assert len(menu) == len({tuple(sorted(a.table)) if a.word == "place" else str(a) for a in menu})
    text = narrator.describe(view)
    assert "opened: P" in text and f"[{words.index('lay 9c on 1') + 1}] lay 9c on 1" in text
    assert str(narrator.translate(str(words.index("lay 9c on 1") + 1), view)) == str(menu[words.index("lay 9c on 1")])


def test_robber_prompt_says_who_has_opened_and_the_best_opening_until_you_have():
    session, narrator, _ = make_session(["human", "greedy"], seed=5, stdin=io.StringIO(""), stdout=io.StringIO(),
                                        variant="robber")
    to_your_turn(session)
    g = session.game
    text = narrator.describe(g.view(g.to_act))
    assert "opened: P1\n" in text and "best opening 58, 40 needed to open" in text


def test_a_robber_bot_rearrangement_is_a_summary_and_one_line_a_meld_at_most():
    out = io.StringIO()
    play_terminal(["greedy", "greedy", "greedy"], seed=2, stdin=io.StringIO(""), stdout=out, variant="robber")
    blocks = re.findall(r"^(P\d \(greedy\) places .*, rearranging the table \((.*)\):\n((?:    .*\n)+))",
                        out.getvalue(), flags=re.M)
    assert blocks
    for _, summary, body in blocks:
        lines = body.splitlines()
        counts = dict((w, int(n)) for n, w in re.findall(r"(\d+) (melds? changed|new|taken apart)", summary))
        changed = counts.get("meld changed", counts.get("melds changed", 0))
        assert len(lines) == changed + bool(counts.get("new")) + bool(counts.get("taken apart"))
        assert not any(" from " in line for line in lines)  # no card-by-card provenance in a long move


def test_rummoli_says_why_each_run_stops_and_how_the_final_sweep_was_cut():
    session, narrator, seed = make_session(["default", "default", "default"], seed=2, stdin=io.StringIO(""),
                                           stdout=io.StringIO(), variant="rummoli")
    lines = []
    stops = 0

    def after(g, seat, action):
        nonlocal stops
        said = narrator.after(g, seat, action)
        lines.extend(said)
        if action.word == "play" and g.phase == "stops" and g.need is None:
            stops += 1
            assert sum("(rules §2.5.4)" in line for line in said) == 1, said

    session.run(before=narrator.before, after=after, finish=lambda: lines.extend(narrator.finish()))
    assert stops > 5
    assert any("closes the suit; the colour changes" in line for line in lines)
    assert any("the lead passes left to" in line for line in lines)
    r = session.game.result
    sweep = next(line for line in lines if "the final sweep" in line)
    last = r.sweep_draws[-1]
    high = max(last, key=lambda pc: STRENGTH[pc[1]])
    assert high[0] == r.swept_by and sweep.endswith(f"— {narrator.names[r.swept_by]} takes them")
    assert f"{r.swept} chips were left on the sheet" in sweep and "cut" in sweep and "(rules §2.6)" in sweep
