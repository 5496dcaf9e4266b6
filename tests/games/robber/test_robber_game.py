"""Robber Rummy in play (rules §4): the §4.5 facts in a game, every knob in play, the draw3 penalty,
passing, scoring, the discard-pile form, records, golden playthroughs and the CLI.

The meld-validity side of §4.5.1–4 is in tests/table/test_table_melds.py and the solver's in
tests/table/test_solver.py; here each fact is played through :class:`RobberGame`'s checked ``apply``,
and after every action of every bot game ``check_invariants`` verifies that every card and joker
is in exactly one place (hands, stock, discard pile, table) and that every table meld is valid.
"""

from __future__ import annotations

import dataclasses
import json

import pytest
from golden_replay import cases_of, check_bots_choose_the_same_actions, check_playthrough

from rumino.cards import format_hand, parse_hand
from rumino.cli import main
from rumino.engine.actions import DRAW_STOCK, Discard, Draw
from rumino.engine.protocol import play
from rumino.errors import IllegalActionError
from rumino.players import GreedyPlayer, RandomPlayer, make_players
from rumino.playing.records import dumps_record, loads_record, replay
from rumino.engine.knobs import knob_table
from rumino.variants.robber import PASS, ROBBER, Place, RobberGame



def P(text: str) -> Place:
    return Place.parse_args(text.split())


def game_at(hand: str, table=(), *, opened=True, rules=ROBBER, n=2, stock_top=None, **kw):
    """A game whose player to act holds ``hand`` with ``table`` on the table."""
    g = RobberGame.new(rules, n, seed=7)
    g.set_position(hands={g.turn: hand}, table=list(table), opened={g.turn: opened}, stock_top=stock_top, **kw)
    g.check_invariants()
    return g


def table_texts(g) -> list[str]:
    return [str(m) for m in g.table]


def run(game, bots, check=True):
    def after(g, seat, action):
        g.check_invariants()
    return play(game, bots, after=after if check else None)


# ---------------------------------------------------------------------- §4.5 facts, played


def test_4_5_1_the_second_seven_splits_the_run_in_play():
    g = game_at("7c Kd", ["5c 6c 7c 8c 9c"])
    me = g.turn
    g.apply(P("5c 6c 7c | 7c 8c 9c"))
    assert table_texts(g) == ["5c 6c 7c", "7c 8c 9c"] and format_hand(g.hands[me]) == "Kd"
    assert g.turn != me and g.phase == "turn"


def test_4_5_2_the_joker_moves_without_an_exchange_in_play():
    g = game_at("5c 6h 9d Ks", ["5d 6d 7d", "5s 6s JK(7s)"])
    g.apply(P("5d 5s 5c | 6d 6h 6s | 7d JK(8d) 9d"))
    assert sorted(table_texts(g)) == ["5s 5c 5d", "6s 6d 6h", "7d JK(8d) 9d"]
    assert format_hand(g.hands[1 - g.turn]) == "Ks"


def test_4_5_3_two_loose_cards_are_refused_and_nothing_changes():
    g = game_at("9h Ks", ["5c 6c 7c 8c"])
    before = g.snapshot()
    with pytest.raises(IllegalActionError, match=r"§4\.3 \(iii\)"):
        g.apply(P("5c 6c | 7c 8c 9h"))
    assert g.snapshot() == before


def test_4_5_4_a_table_joker_into_the_hand_is_refused():
    g = game_at("8d Ks", ["5d 6d 7d JK(8d)"])
    before = g.snapshot()
    with pytest.raises(IllegalActionError, match=r"jokers too.*§4\.3 \(ii\)"):
        g.apply(P("5d 6d 7d 8d"))  # 8d in for the joker, the joker to the hand
    assert g.snapshot() == before


def test_4_5_5_no_discard_pile_a_player_who_places_nothing_draws_exactly_one_card():
    g = RobberGame.new(ROBBER, 3, seed=2)
    me, stock = g.turn, len(g.stock)
    assert PASS not in g.legal_actions() and DRAW_STOCK in g.legal_actions()
    with pytest.raises(IllegalActionError, match=r"must draw one card.*§4\.5\.5"):
        g.apply(PASS)
    with pytest.raises(IllegalActionError, match="discard pile is empty"):
        g.apply(Draw("discard"))
    g.apply(DRAW_STOCK)
    assert len(g.hands[me]) == 14 and len(g.stock) == stock - 1 and g.turn != me and g.phase == "turn"
    assert not any(isinstance(a, Discard) for a in g.legal_actions())


def test_4_5_6_before_opening_a_player_may_not_touch_the_table():
    # 10s Js Qs Ks is 40 from the hand; splitting the table's run at the same time is refused
    g = game_at("10s Js Qs Ks 7c", ["5c 6c 7c 8c 9c"], opened=False)
    before = g.snapshot()
    with pytest.raises(IllegalActionError, match="has not opened.*§4\\.3"):
        g.apply(P("5c 6c 7c | 7c 8c 9c | 10s Js Qs Ks"))
    assert g.snapshot() == before
    g.apply(P("5c 6c 7c 8c 9c | 10s Js Qs Ks"))  # the opening alone, table untouched
    assert g.opened[1 - g.turn] and len(g.table) == 2


def test_opening_minimum_is_summed_over_the_turns_melds_and_comes_from_the_hand():
    g = game_at("10s Js Qs 3d 3h 3c 8h", opened=False)
    with pytest.raises(IllegalActionError, match="total 39, below the minimum 40"):
        g.apply(P("10s Js Qs | 3d 3h 3c"))
    g30 = game_at("10s Js Qs 3d 3h 3c 8h", opened=False, rules=dataclasses.replace(ROBBER, opening_min=30))
    g30.apply(P("10s Js Qs | 3d 3h 3c"))
    assert format_hand(g30.hands[1 - g30.turn]) == "8h"


def test_a_placement_must_add_a_card_and_may_only_use_held_cards():
    g = game_at("9c Ks 4d 5d JK JK", ["5c 6c 7c 8c"])
    with pytest.raises(IllegalActionError, match=r"at least one card.*§4\.3 \(i\)"):
        g.apply(P("5c 6c 7c 8c"))
    with pytest.raises(IllegalActionError, match="does not hold 10c"):
        g.apply(P("5c 6c 7c 8c 9c 10c"))
    with pytest.raises(IllegalActionError, match="name every joker of a meld or none"):
        g.apply(P("5c 6c 7c 8c 9c | JK(3d) 4d 5d JK"))


def test_jokers_are_identified_on_the_table():
    g = game_at("5s 6s JK Kd", [])
    g.apply(P("5s 6s JK(4s)"))
    assert table_texts(g) == ["JK(4s) 5s 6s"]
    g2 = game_at("5s 6s JK Kd", [])
    g2.apply(P("5s 6s JK"))  # a joker not named is read as a careful player would (the high end)
    assert table_texts(g2) == ["5s 6s JK(7s)"]
    g3 = game_at("5s 6s JK Kd", [])
    with pytest.raises(IllegalActionError, match=r"§4\.3 \(iii\)"):
        g3.apply(P("5s 6s JK(9s)"))


# ---------------------------------------------------------------------- illegal_manipulation_penalty


def test_draw3_restores_the_table_and_draws_three():
    rules = dataclasses.replace(ROBBER, illegal_manipulation_penalty="draw3")
    g = game_at("9h Ks", ["5c 6c 7c 8c"], rules=rules, stock_top="2d 3d 4d 5h")
    me, table = g.turn, g.table
    g.check(P("5c 6c | 7c 8c 9h"))  # an attempt, not refused
    g.apply(P("5c 6c | 7c 8c 9h"))
    assert g.table == table and format_hand(sorted(g.hands[me])) == format_hand(sorted(parse_hand("9h Ks 2d 3d 4d")))
    assert g.turn != me and g.penalty_draws == 1
    g.check_invariants()
    # what cannot even be attempted is still refused
    g2 = game_at("9h Ks", ["5c 6c 7c 8c"], rules=rules)
    before = g2.snapshot()
    with pytest.raises(IllegalActionError, match="does not hold"):
        g2.apply(P("5c 6c 7c 8c 9c"))
    assert g2.snapshot() == before


def test_draw3_with_a_short_stock_draws_what_is_left():
    rules = dataclasses.replace(ROBBER, illegal_manipulation_penalty="draw3")
    g = game_at("9h Ks", ["5c 6c 7c 8c"], rules=rules)
    keep = g.stock[-1]
    for p in range(g.n_seats):  # move all but one stock card to the other hand
        if p != g.turn:
            other = p
    g.hands[other].extend(g.stock[:-1])
    g._moved[other] += len(g.stock) - 1
    del g.stock[:-1]
    g.check_invariants()
    me = g.turn
    g.apply(P("5c 6c | 7c 8c 9h"))
    assert keep in g.hands[me] and len(g.hands[me]) == 3 and not g.stock
    g.check_invariants()


# ---------------------------------------------------------------------- passing, blocked hands, scoring


def _empty_stock(g, to):
    g.hands[to].extend(g.stock)
    g._moved[to] += len(g.stock)
    g.stock.clear()
    g.check_invariants()


def test_on_an_empty_stock_players_pass_and_the_hand_ends_when_all_pass():
    # the house rule (anyone may pass): the next seat takes the whole stock and could well place
    rules = dataclasses.replace(ROBBER, scoring="romme_penalties", pass_when_stock_empty="any")
    g = game_at("9h 2c", ["5c 6c 7c 8c"], rules=rules, n=3)
    me = g.turn
    _empty_stock(g, (me + 1) % 3)
    assert g.legal_actions()[-1] == PASS and DRAW_STOCK not in g.legal_actions()
    with pytest.raises(IllegalActionError, match=r"stock is empty.*§4\.3"):
        g.apply(DRAW_STOCK)
    for _ in range(3):
        g.apply(PASS)
        g.check_invariants()
    assert g.game_over and g.result.how == "blocked"
    pens = g.result.penalties
    assert pens[me] == 9 + 2 and g.result.winners == (me,)
    assert g.scores == [-p for p in pens]


def test_a_placement_resets_the_passes():
    g = game_at("9h 2c", ["5c 6c 7c 8c"], n=2, rules=dataclasses.replace(ROBBER, pass_when_stock_empty="any"))
    me = g.turn
    _empty_stock(g, 1 - me)
    g.apply(PASS)  # me
    g.apply(PASS) if not g.game_over else None
    assert g.game_over  # two players, two passes
    g = game_at("9c 2c", ["5c 6c 7c 8c"], n=2)
    me = g.turn
    _empty_stock(g, 1 - me)
    g.apply(P("5c 6c 7c 8c 9c"))
    assert g.passes == 0 and not g.game_over


def _strict_and_house():
    return ROBBER, dataclasses.replace(ROBBER, pass_when_stock_empty="any")


def test_rules_4_3_with_the_stock_empty_a_player_who_can_place_may_not_pass():
    # the 7c goes on only by splitting the run (5c 6c 7c | 7c 8c 9c): the listed new melds do not hold it
    g = game_at("7c Kd", ["5c 6c 7c 8c 9c"], n=2)
    me = g.turn
    _empty_stock(g, 1 - me)
    assert ROBBER.pass_when_stock_empty == "only_if_cannot_place"
    before = g.snapshot()
    with pytest.raises(IllegalActionError, match=r"only a player who cannot place may pass.*rules §4\.3") as err:
        g.apply(PASS)
    assert err.value.rule == "§4.3" and g.snapshot() == before and g.turn == me and g.passes == 0
    legal = g.legal_actions()
    assert PASS not in legal and DRAW_STOCK not in legal and legal
    g.apply(legal[0])  # the solver's rearrangement, listed so that the player to act always has a move
    assert table_texts(g) == ["5c 6c 7c", "7c 8c 9c"] and g.hands[me] == list(parse_hand("Kd"))
    g.check_invariants()


def test_rules_4_3_with_the_stock_empty_a_player_who_cannot_place_passes():
    # nothing fits: 9h and 2c go with no meld; before opening, cards that could be laid off do not count
    for hand, table, opened in (("9h 2c", ["5c 6c 7c 8c"], True), ("9c 2d", ["5c 6c 7c 8c"], False)):
        g = game_at(hand, table, n=2, opened=opened)
        me = g.turn
        _empty_stock(g, 1 - me)
        assert g.placement_found(me) is None and g.legal_actions() == [PASS]
        g.apply(PASS)
        assert g.passes == 1 and g.turn == 1 - me


def test_rules_4_3_before_opening_a_player_holding_an_opening_may_not_pass():
    g = game_at("10s Js Qs Ks 3d", [], n=2, opened=False)
    _empty_stock(g, 1 - g.turn)
    with pytest.raises(IllegalActionError, match=r"§4\.3"):
        g.apply(PASS)
    assert PASS not in g.legal_actions()


def test_rules_4_3_house_rule_any_player_may_pass():
    rules = dataclasses.replace(ROBBER, pass_when_stock_empty="any")
    g = game_at("7c Kd", ["5c 6c 7c 8c 9c"], n=2, rules=rules)
    me = g.turn
    _empty_stock(g, 1 - me)
    assert g.legal_actions()[-1] == PASS
    g.apply(PASS)
    assert g.passes == 1 and g.turn == 1 - me and table_texts(g) == ["5c 6c 7c 8c 9c"]
    g.check_invariants()


@pytest.mark.parametrize("seed", [0, 1])
def test_rules_4_3_on_an_empty_stock_a_pass_is_listed_exactly_when_nothing_can_be_placed(seed):
    """Random bots choose among the listed actions: whenever the stock is empty the player to act has
    a move, a pass exactly when the exact solver finds no placement, and the game ends."""
    g = RobberGame.new(ROBBER, 2, seed=seed)
    bots = [RandomPlayer(seed=seed), RandomPlayer(seed=seed + 10)]
    empty_turns = 0
    while not g.game_over:
        seat = g.to_act
        if g.phase == "turn" and not g.stock:
            legal = g.legal_actions()
            assert legal and (PASS in legal) == (g.placement_found(seat) is None)
            empty_turns += 1
        g.apply(bots[seat].choose(g.view(seat)))
        g.check_invariants()
    assert empty_turns >= 1 and g.result.how in ("out", "blocked")


def test_going_out_wins_and_scoring_knob():
    for scoring in ("none", "romme_penalties"):
        rules = dataclasses.replace(ROBBER, scoring=scoring, joker_penalty=25, ace_penalty=15)
        g = game_at("9c", ["5c 6c 7c 8c"], rules=rules)
        me, other = g.turn, 1 - g.turn
        g.set_position(hands={me: "9c", other: "As JK Kd 5h"}, table=["5c 6c 7c 8c"], opened={me: True})
        g.apply(P("5c 6c 7c 8c 9c"))
        assert g.game_over and g.result.winners == (me,) and g.result.how == "out"
        assert g.result.penalties[other] == 15 + 25 + 10 + 5
        assert g.scores[other] == (0 if scoring == "none" else -55) and g.scores[me] == 0
        g.check_invariants()


# ---------------------------------------------------------------------- the discard-pile form


def test_discard_pile_turn_draw_place_once_then_discard():
    rules = dataclasses.replace(ROBBER, discard_pile=True)
    g = RobberGame.new(rules, 2, seed=5)
    assert len(g.discard) == 1 and len(g.stock) == 110 - 27
    me = g.turn
    g.set_position(hands={me: "7c Kd 2h"}, table=["5c 6c 7c 8c 9c"], opened={me: True}, stock_top="4s")
    with pytest.raises(IllegalActionError, match="begins with a draw"):
        g.apply(P("5c 6c 7c | 7c 8c 9c"))
    with pytest.raises(IllegalActionError, match="no passing"):
        g.apply(PASS)
    g.apply(DRAW_STOCK)
    g.apply(P("5c 6c 7c | 7c 8c 9c"))
    assert g.phase == "discard" and g.placed_this_turn
    with pytest.raises(IllegalActionError, match="already placed"):
        g.apply(P("5c 6c 7c | 7c 8c 9c"))
    assert not any(isinstance(a, Place) for a in g.legal_actions())
    g.apply(Discard(parse_hand("Kd")[0]))
    assert g.turn != me and g.phase == "turn" and format_hand(sorted(g.hands[me])) == "4s 2h"
    g.check_invariants()


def test_discard_pile_going_out_by_placing_the_last_card_and_the_stock_running_out():
    rules = dataclasses.replace(ROBBER, discard_pile=True)
    g = RobberGame.new(rules, 2, seed=5)
    me = g.turn
    g.set_position(hands={me: "9c"}, table=["5c 6c 7c 8c"], opened={me: True}, stock_top="10c")
    g.apply(DRAW_STOCK)
    g.apply(P("5c 6c 7c 8c 9c 10c"))
    assert g.game_over and g.result.how == "out" and g.result.winners == (me,)
    g = RobberGame.new(rules, 2, seed=5)
    me = g.turn
    g.hands[1 - me].extend(g.stock[:-1])
    g._moved[1 - me] += len(g.stock) - 1
    del g.stock[:-1]
    g.apply(DRAW_STOCK)
    g.apply(Discard(g.hands[me][0]))
    assert g.game_over and g.result.how == "blocked"
    g.check_invariants()


def test_discard_pile_the_card_taken_may_not_go_back():
    rules = dataclasses.replace(ROBBER, discard_pile=True)
    g = RobberGame.new(rules, 2, seed=5)
    top = g.discard[-1]
    g.apply(Draw("discard"))
    if g.hands[g.turn].count(top) == 1:
        with pytest.raises(IllegalActionError, match=r"§0\.5"):
            g.apply(Discard(top))


# ---------------------------------------------------------------------- notation


def test_placements_print_and_parse_back():
    a = P("3s 3c 3h | 4s 4d JK(4h) | 5c 6c 7c 8c JK(9c)")
    assert str(a) == "place 3s 3c 3h | 4s 4d JK(4h) | 5c 6c 7c 8c JK(9c)"
    assert RobberGame.ACTIONS.parse(str(a)) == a
    for bad in ("place", "place 5c 6c |", "place 5c 6c 1x", "place JK(JK)"):
        with pytest.raises(IllegalActionError):
            RobberGame.ACTIONS.parse(bad)


# ---------------------------------------------------------------------- every knob in play, invariants


def _knob_values():
    for row in knob_table(type(ROBBER)):
        for v in row["choices"]:
            if v != row["default"]:
                yield row["name"], v


@pytest.mark.parametrize("name, value", list(_knob_values()), ids=lambda x: str(x))
def test_every_knob_plays_with_invariants_after_every_action(name, value):
    rules = dataclasses.replace(ROBBER, **{name: value})
    seed = sum(map(ord, f"{name}{value}"))
    n = 2 + seed % 2
    # the solver's bot where the knob changes what it does; random bots elsewhere (they are quick)
    greedy = name in ("illegal_manipulation_penalty", "discard_pile", "ace", "joker_rules", "n_jokers")
    bots = [GreedyPlayer() if greedy else RandomPlayer(seed=seed)] + [RandomPlayer(seed=seed + i + 1)
                                                                       for i in range(n - 1)]
    g = run(RobberGame.new(rules, n, seed=seed), bots)
    assert g.game_over and g.result.how in ("out", "blocked")
    assert getattr(g.rules, name) == value
    if name == "n_jokers":
        assert g.PACK.size == 104 + value and len(g.hands[0]) + len(g.stock) + len(g.discard) + \
            sum(len(m.cards) for m in g.table) + sum(len(h) for h in g.hands[1:]) == 104 + value
    again = replay(loads_record(dumps_record(g)))
    assert again.snapshot() == g.snapshot()


def test_greedy_bots_play_the_solvers_move_and_go_out():
    g = RobberGame.new(ROBBER, 2, seed=11)
    bots = [GreedyPlayer(), GreedyPlayer()]
    manipulated = 0
    while not g.game_over:
        seat = g.to_act
        a = bots[seat].choose(g.view(seat))
        if isinstance(a, Place) and g.opened[seat]:
            old = g.table
            g.apply(a)
            manipulated += any(m not in g.table for m in old)
        else:
            g.apply(a)
        g.check_invariants()
    assert g.result.how == "out" and manipulated >= 1


def test_random_bot_only_chooses_legal_actions():
    for seed in range(2):
        g = RobberGame.new(ROBBER, 3, seed=seed)
        bots = make_players("random,random,random", seed=seed, game=RobberGame)
        run(g, bots)
        assert g.game_over


# ---------------------------------------------------------------------- golden playthroughs

# The cases are in tests/golden_trace.py, the committed record and readable playthrough of each in
# tests/golden/robber_*.json and robber_*.playthrough.txt; the shared checker and the one writer
# (``python tests/golden_replay.py --write``) in tests/golden_replay.py.
CASES = cases_of("robber")


def test_every_golden_case_is_there():
    assert len(CASES) == 3 and all(c["name"].startswith("robber_") for c in CASES)


@pytest.mark.parametrize("case", CASES, ids=lambda c: c["name"])
def test_golden_playthrough_replays_identically(case):
    """Replaying the record writes the committed playthrough line by line (invariants after every action)."""
    check_playthrough(case)


@pytest.mark.parametrize("case", CASES, ids=lambda c: c["name"])
def test_golden_bots_choose_the_same_actions(case):
    check_bots_choose_the_same_actions(case)


# ---------------------------------------------------------------------- the CLI


def test_cli_simulate_robber_json(capsys):
    assert main(["simulate", "--variant", "robber", "--players", "greedy,random", "--games", "3", "--seed", "1",
                 "--json", "--no-progress"]) == 0
    data = json.loads(capsys.readouterr().out)
    assert data["variant"] == "robber" and data["games"] == 3 and data["hands"] == 3
    assert abs(sum(w["estimate"] for w in data["win_rate"]) - 1) < 1e-9
    assert set(data["hand_endings"]) == {"out", "blocked"}


def test_cli_simulate_robber_refuses_a_knock_bot(capsys):
    assert main(["simulate", "--variant", "robber", "--players", "greedy,threshold:2", "--games", "1"]) == 2
    assert "does not fit Robber Rummy" in capsys.readouterr().err


def test_cli_play_robber_with_piped_input(capsys):
    import io
    from rumino.cli.play import play_terminal
    out = io.StringIO()
    assert play_terminal(["human", "greedy"], seed=3, stdin=io.StringIO("s\np\nplace 2c 2c 2c\ns\nq\n"), stdout=out,
                         variant="robber") == 0
    text = out.getvalue()
    assert "table:" in text and "must draw one card" in text and "you do not hold" in text
    assert "left unfinished" in text



def test_a_draw3_penalty_is_recorded_and_replays():
    from rumino.cards import to_counts
    from rumino.melds import candidate_melds
    rules = dataclasses.replace(ROBBER, illegal_manipulation_penalty="draw3")
    for seed in range(40):  # a deal where the first player holds a meld worth less than the opening
        g = RobberGame.new(rules, 2, seed=seed)
        me = g.turn
        small = [c for c in candidate_melds(to_counts(g.hands[me]), rules.meld_rules) if c.opening < 40]
        if small:
            break
    g.apply(Place.of((small[0].reading,)))
    assert g.penalty_draws == 1 and len(g.hands[me]) == 16 and g.table == () and not g.opened[me]
    play(g, [GreedyPlayer(), GreedyPlayer()])
    again = replay(loads_record(dumps_record(g)))
    assert again.snapshot() == g.snapshot() and again.penalty_draws == 1


def test_a_hand_made_placement_of_the_wrong_shape_is_refused_cleanly():
    g = game_at("9c Ks", ["5c 6c 7c 8c"])
    before = g.snapshot()
    for bad in (Place([[1, 2, 3]]), Place((("5c",),)), Place(((True, 1, 2),)), Place(((999,),))):
        with pytest.raises(IllegalActionError, match="not a"):
            g.apply(bad)
        assert g.snapshot() == before


def test_the_invariants_catch_a_bad_table_and_a_lost_card():
    from rumino.melds import Meld
    g = game_at("9c Ks", ["5c 6c 7c 8c"])
    good = g.table
    c5, c6, c7, c8, c9 = parse_hand("5c 6c 7c 8c 9c")
    g.table = (Meld("run", (c5, c6), (c5, c6)), Meld("run", (c7, c8), (c7, c8)))  # every card there, no meld valid
    with pytest.raises(AssertionError, match="not a valid reading"):
        g.check_invariants()
    g.table = good
    g.check_invariants()
    g.hands[g.turn].remove(c9)  # a card vanishes
    with pytest.raises(AssertionError, match="cards not conserved"):
        g.check_invariants()


@pytest.mark.parametrize("discard_pile", [False, True])
def test_the_view_says_when_a_placement_may_be_made_as_the_engine_judges_it(discard_pile):
    """``view.may_place`` (what the GameTable's coach reads) agrees with the engine's refusals (§4.3)."""
    rules = dataclasses.replace(ROBBER, discard_pile=discard_pile)
    g = RobberGame.new(rules, 2, seed=5)
    bots = [RandomPlayer(seed=1), RandomPlayer(seed=2)]
    checked, seen = 0, set()
    while not g.game_over and checked < 120:
        seat = g.to_act
        v = g.view(seat)
        phase_refusal = None
        if g.phase in ("turn", "discard"):
            try:
                g.check_action(Place(tuple(g.table)), seat, g.phase)  # the table unchanged: only timing can fail
            except IllegalActionError as err:
                phase_refusal = str(err)
            timing = phase_refusal is not None and ("place after drawing" in phase_refusal
                                                    or "already placed this turn" in phase_refusal)
            assert v.may_place == (not timing), phase_refusal
            seen.add(v.may_place)
            assert not g.view(1 - seat).may_place  # only the player to act
            checked += 1
        g.apply(bots[seat].choose(v))
    assert checked >= 40 and seen == ({True, False} if discard_pile else {True})
