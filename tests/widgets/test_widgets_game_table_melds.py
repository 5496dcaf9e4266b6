"""GameTable on German Rommé and Robber Rummy: melds on the table, opened status, the games' own moves,
the coach's move, refusals with the rule, and RuleKnobs driving the table."""

from __future__ import annotations

import re

import pytest

from rumino.cards import format_hand, parse_hand
from rumino.engine import Discard, Draw
from rumino.players import GreedyPlayer
from rumino.playing.records import record_of, replay
from rumino.table.solver import solve_table
from rumino.variants import find_variant
from rumino.table.melds import read_meld
from rumino.variants.robber import Place
from rumino.variants.romme import Play
from rumino_widgets import GameTable, RuleKnobs


def _fresh(table):
    table.controller._coach_cache.clear()
    table._refresh()


@pytest.fixture
def romme():
    t = GameTable("greedy,greedy", seed=3, variant="romme", coach_samples=20)
    c = t.controller
    assert c.my_turn() and c.game.phase == "turn"
    c.game.set_position(hands={0: "10s Js Qs Ks 3d 3h 3c 5c 7d 9h 2s 4s 8h"}, table=["5h 6h JK(7h)"],
                        opened={1: True}, stock_top="2c")
    _fresh(t)
    return t


def test_romme_shows_the_melds_with_joker_identities_and_who_has_opened(romme):
    c = romme.controller
    html = romme.table.value
    assert 'class="rumino-table-meld" data-index="0"' in html and "[0] · laid by seat 1" in html
    assert "run 5♥ 6♥ ★(7♥)" in html and "joker (= 7♥)" in html  # the face's accessible name
    seats = html.split('class="rumino-seat"')[1:]
    assert "not opened" in seats[0] and "not opened" not in seats[1] and "opened" in seats[1]
    assert romme.moves.layout.display is None  # the table-move controls are shown in a game with melds
    assert c.has_table and romme.static_html().count('class="rumino-table-meld"') == 1


def test_romme_coach_names_points_outside_melds_not_deadwood(romme):
    """Rommé counts a penalty for every card left in hand, melded or not: the coach does not say deadwood."""
    text = re.sub(r"<[^>]+>", " ", romme.controller.coach_html())
    assert "points outside melds:" in text and "deadwood" not in text
    gin = GameTable("greedy", seed=3, variant="gin", coach_samples=20)
    assert "deadwood:" in re.sub(r"<[^>]+>", " ", gin.controller.coach_html())


def test_romme_refused_plays_name_the_rule_and_change_nothing(romme):
    c = romme.controller
    romme.buttons["stock"].click()
    assert c.game.phase == "discard" and c.error is None
    snap = c.game.snapshot()
    romme.play_box.value = "play layoff 8h on 0"  # before opening (rules §3.4.2, §3.7.7)
    romme.play_text_button.click()
    assert "§3.4.2" in c.error and c.game.snapshot() == snap and "rumino-error" in romme.message.value
    romme.play_box.value = "play lay 5c 7d 9h"
    romme.play_text_button.click()
    assert "rules §3" in c.error and c.game.snapshot() == snap
    romme.play_box.value = "play lay 10s Js 11s"
    romme.play_text_button.click()
    assert "'11s' is not a card" in c.error and c.game.snapshot() == snap


def test_romme_the_engines_menu_opens_and_then_one_play_per_turn(romme):
    c = romme.controller
    romme.buttons["stock"].click()
    listed = [a for a in c.game.legal_actions() if isinstance(a, Play)]
    assert [a for _label, a in romme.moves_box.options] == listed and listed
    opening = next(a for a in listed if "lay 10s Js Qs Ks" in str(a) and "lay 3" in str(a))
    romme.moves_box.value = opening
    romme.move_button.click()
    assert c.error is None and c.game.opened[0] and len(c.game.table) == 3
    assert "you" in romme.table.value and "laid by you" in romme.table.value
    assert romme.table.value.split('class="rumino-seat"')[1].count("not opened") == 0
    snap = c.game.snapshot()
    romme.play_box.value = "play layoff 8h on 0"
    romme.play_text_button.click()
    assert "§3.4" in c.error and "already played" in c.error and c.game.snapshot() == snap
    assert not romme.moves_box.options and romme.move_button.disabled
    c.game.check_invariants()


@pytest.fixture
def robber():
    t = GameTable("greedy,greedy", seed=3, variant="robber", coach_samples=20)
    c = t.controller
    assert c.my_turn() and c.game.phase == "turn"
    c.game.set_position(hands={0: "7c Kd"}, table=["5c 6c 7c 8c 9c"], opened={0: True})  # rules §4.5.1
    _fresh(t)
    return t


def test_robber_coach_plays_the_exact_solvers_move(robber):
    c = robber.controller
    sol = solve_table(parse_hand("5c 6c 7c 8c 9c"), parse_hand("7c Kd"), c.rules.meld_rules)
    assert c.suggestion() == Place.of(sol.melds)
    assert "best move (exact solver)" in robber.coach.value
    assert ("place 7♣ (1 card left): 5♣ 6♣ 7♣ 8♣ 9♣ → 5♣ 6♣ 7♣; new meld 7♣ 8♣ 9♣ (8♣ 9♣ from 5♣ 6♣ 7♣ 8♣ 9♣)"
            in robber.coach.value)  # the solver's move, told as the narrator tells a placement
    assert not robber.suggest_button.disabled
    robber.suggest_button.click()
    assert c.error is None
    assert str(Place.of(sol.melds)) == "place 5c 6c 7c | 7c 8c 9c"  # the solver's move, told as what moved where:
    assert ("You place 7♣ (1 card left): 5♣ 6♣ 7♣ 8♣ 9♣ → 5♣ 6♣ 7♣; new meld 7♣ 8♣ 9♣ (8♣ 9♣ from 5♣ 6♣ 7♣ 8♣ 9♣)"
            in c.log), c.log
    # the bots moved after the reader; the reader's placement is in the record as the solver gave it
    mine = [a for seat, a in c.game.history if seat == c.human]
    assert mine[-1] == Place.of(sol.melds)
    html = robber.static_html()
    if not c.game.game_over:  # the table is shown with the new melds (bots may have added to it)
        assert "run 5♣ 6♣ 7♣" in html or "5♣ 6♣ 7♣" in html
    c.game.check_invariants()


def test_robber_refused_placements_name_the_rule_and_change_nothing(robber):
    c = robber.controller
    snap = c.game.snapshot()
    for text, rule in [("place 5c 6c 7c 7c", "§4.3 (ii)"), ("place 5c 6c | 7c 7c 8c 9c", "§4.3 (iii)"),
                       ("place 5c 6c 7c 8c 9c | Kd", "§4.3")]:
        robber.play_box.value = text
        robber.play_text_button.click()
        assert rule in c.error, (text, c.error)
        assert c.game.snapshot() == snap
    assert "rumino-error" in robber.message.value


def test_robber_typed_placement_and_the_move_menu(robber):
    c = robber.controller
    robber.play_box.value = "place 5c 6c 7c | 7c 8c 9c"
    robber.play_text_button.click()
    assert c.error is None and sorted(c.game.hands[0]) == list(parse_hand("Kd"))
    melds = [str(m) for m in c.game.table]
    assert "5c 6c 7c" in melds and "7c 8c 9c" in melds
    # the menu holds exactly the engine's listed placements, labelled by the cards placed
    for label, a in robber.moves_box.options:
        assert a in c.game.legal_actions() and label.startswith("place ")


@pytest.mark.parametrize("variant, seed", [("romme", 3), ("robber", 3)])
def test_a_whole_game_through_the_widgets_controls(variant, seed):
    """The reader plays the greedy bot's choices with the buttons, card clicks, the move menu, the coach's
    button or a typed play, whichever shows that action; the game ends and replays from its record."""
    table = GameTable("greedy,greedy", seed=seed, variant=variant, coach_samples=20)
    c = table.controller
    me = GreedyPlayer()
    used = set()
    for _ in range(3000):
        if c.game.game_over:
            break
        assert c.my_turn()
        a = me.choose(c.view())
        buttons = {b[1]: b[0] for b in c.game.BUTTONS}
        if isinstance(a, Discard):
            i = table.hand_row.cards.index(a.card)
            assert table.hand_row.clickable[i]
            table.hand_row.click(i)
            used.add("click")
        elif a in buttons:
            assert not table.buttons[buttons[a]].disabled
            table.buttons[buttons[a]].click()
            used.add("button")
        elif a in [x for _label, x in table.moves_box.options]:
            table.moves_box.value = a
            table.move_button.click()
            used.add("menu")
        elif a == c.suggestion():
            table.suggest_button.click()
            used.add("coach")
        else:
            table.play_box.value = str(a)
            table.play_text_button.click()
            used.add("typed")
        assert c.error is None, c.error
        c.game.check_invariants()
    assert c.game.game_over and "Game over after" in table.message.value
    assert {"button", "menu"} <= used and ({"coach", "typed"} & used)
    assert replay(record_of(c.game, c.player_names)).snapshot() == c.game.snapshot()


# ---------------------------------------------------------------------- RuleKnobs -> GameTable


@pytest.mark.parametrize("variant, knob, value", [("romme", "opening_min", 30), ("romme", "n_jokers", 2),
                                                  ("robber", "n_jokers", 2), ("robber", "opening_min", 50)])
def test_a_knob_moved_in_the_form_reaches_the_game_table(variant, knob, value):
    knobs = RuleKnobs(variant, choose_variant=False)
    assert knob in knobs.controls and knobs.rules == find_variant(variant).rules
    table = GameTable("greedy,greedy", seed=3, variant=variant, coach_samples=20)
    table.follow(knobs)
    knobs.controls[knob].main.value = value
    c = table.controller
    assert c.rules is knobs.rules and c.game.rules is knobs.rules and getattr(c.game.rules, knob) == value
    assert c.seed == 3 and c.error is None and (c.my_turn() or c.game.game_over)
    if knob == "n_jokers":  # the pack in play follows the knob: every joker in exactly one place
        g = c.game
        places = [*g.hands, g.stock, g.discard, [x for m in g.table for x in m.cards]]
        assert sum(p.count(52) for p in places) == value
    c.game.check_invariants()


def test_a_refused_rule_set_leaves_the_game_as_it_was():
    table = GameTable("greedy,greedy", seed=3, variant="robber", coach_samples=20)
    c = table.controller
    snap = c.game.snapshot()
    assert not c.set_rules(None) and "old rules" in c.error and c.game.snapshot() == snap
    assert not c.set_rules(find_variant("romme").rules) and "RommeRules" in c.error and c.game.snapshot() == snap
    knobs = RuleKnobs("robber", choose_variant=False)
    table.follow(knobs)
    knobs.controller.set("hand_size", 99)  # refused by the rules dataclass: the form shows it, the game goes on
    assert knobs.rules is None and knobs.controller.error and c.game.snapshot() == snap
    assert "old rules" in table.message.value


def test_robber_opening_menu_lists_the_engines_placements_by_the_cards_placed():
    table = GameTable("greedy,greedy", seed=3, variant="robber", coach_samples=20)
    c = table.controller
    c.game.set_position(hands={0: "Jd Qd Kd Ad 2c 3c 4c"}, opened={0: False})
    _fresh(table)
    listed = [a for a in c.game.legal_actions() if isinstance(a, Place)]
    assert [a for _label, a in table.moves_box.options] == listed and listed
    for label, a in table.moves_box.options:
        new = [read_meld(m, c.rules.meld_rules) for m in a.table]
        placed = sorted(x for m in new for x in m.cards)  # the table was empty: every card is placed
        left = 7 - len(placed)  # told as the terminal tells a placement, cards with suit symbols
        head = f"place {format_hand(placed, unicode=True)} ({left} card{'' if left == 1 else 's'} left)"
        assert label == head + ": " + "; ".join(f"new meld {format_hand(m.cards, unicode=True)}" for m in new)


def _coach_marks(html: str) -> list[tuple[int, str]]:
    part = html[html.index('class="rumino-coach-move"'):]
    return [(int(c), k) for c, k in re.findall(r'class="rumino-marked-card" data-card="(\d+)" data-mark="([^"]*)"',
                                               part)]


def test_robber_coach_shows_the_table_after_its_move_marked():
    table = GameTable("greedy,greedy", seed=3, variant="robber", coach_samples=20)
    c = table.controller
    c.game.set_position(hands={0: "5c 6h 9d Kc"}, table=["5d 6d 7d", "5s 6s JK(7s)"], opened={0: True})  # §4.5.2
    _fresh(table)
    marks = _coach_marks(table.coach.value)
    assert sorted(x for x, k in marks if k == "from hand") == sorted(parse_hand("5c 6h 9d"))
    assert (52, "moved") in marks  # the joker moved to 7d JK(8d) 9d without an exchange
    assert "★(8♦)" in table.coach.value and "joker standing for the 8 of diamonds, moved" in table.coach.value


def test_romme_coach_shows_a_joker_exchange_with_the_freed_joker_moved():
    table = GameTable("greedy,greedy", seed=3, variant="romme", coach_samples=20)
    c = table.controller
    c.game.set_position(hands={0: "7s 5c 6c 2h 9h Kd Qs 3c 8d 4h 10d Jc 2s"}, table=["5s 6s JK(7s)"],
                        opened={0: True, 1: True}, stock_top="2c")
    table.buttons["stock"].click()
    sug = c.suggestion()
    assert isinstance(sug, Play) and "exchange 7s on 0" in str(sug)
    marks = _coach_marks(table.coach.value)
    assert (parse_hand("7s")[0], "from hand") in marks and (52, "moved") in marks
    assert c.table_after(sug) == c.view().evaluate(sug.steps).table
    table.suggest_button.click()
    assert c.error is None and str(c.game.table[0]) == "5s 6s 7s"


def test_the_table_says_which_house_rules_it_plays():
    knobs = RuleKnobs("romme", choose_variant=False)
    table = GameTable("greedy,greedy", seed=3, variant="romme", coach_samples=20)
    assert "the default rules" in table.table.value
    table.follow(knobs)
    knobs.controls["opening_min"].main.value = 50
    assert table.controller.house_rules() == {"opening_min": 50}
    assert "house rules: opening minimum: 50" in table.table.value  # the rule in words, not its field name


def test_robber_with_a_discard_pile_offers_the_pile_as_a_button():
    rules = find_variant("robber").with_rules(discard_pile=True)
    table = GameTable("greedy,greedy", seed=1, variant="robber", rules=rules, coach_samples=20)
    c = table.controller
    assert c.my_turn() and c.game.phase == "turn"
    button = table.extra_buttons["draw-discard"]  # Robber's own buttons have no draw from the pile
    assert button in table.extra_box.children and button.description == "Draw discard"
    assert Draw("discard") not in [a for _label, a in table.moves_box.options]
    top = c.game.discard[-1]
    button.click()
    assert c.error is None and c.game.phase == "discard" and top in c.game.hands[0]
    assert any(table.hand_row.clickable)  # now a card click discards


def test_romme_the_log_tells_of_a_joker_slide():
    t = GameTable("greedy,greedy", seed=3, variant="romme", coach_samples=20)
    c = t.controller
    c.game.set_position(hands={0: "7h 10s Js Qs Ks 3d 3h 3c 5c 7d 9h 2s 4s"}, table=["5h 6h JK(7h)"],
                        opened={0: True, 1: True}, stock_top="2c")
    _fresh(t)
    t.buttons["stock"].click()
    t.play_box.value = "play layoff 7h on 0"
    t.play_text_button.click()
    assert c.error is None and str(c.game.table[0]) == "JK(4h) 5h 6h 7h"
    assert any("the joker now stands for 4♥" in line for line in c.log), c.log


def test_wiener_table_shows_the_pot_the_last_round_and_the_buy_back_terms():
    """What a Wiener player must not miss (issue 24): the pot in chips, the extra round after a knock,
    and a buy-back offer's price and the score it gives, all read from the engine's view."""
    from rumino.players import make_players
    from rumino_widgets.game_table import GameTableController

    c = GameTableController("greedy,greedy", seed=2, variant="wiener", coach_samples=20)
    me = make_players("greedy,greedy", seed=1, game=type(c.game))[0]
    seen = {}
    for seed in range(2, 8):
        c.new_game(seed)
        while not c.game.game_over and len(seen) < 3:
            v = c.view()
            assert c.money_text(v) == f" · pot {v.pot} chip{'s' if v.pot != 1 else ''}"
            seen.setdefault("pot", v.pot)
            notes = c.notices_html(v)
            if v.last_round and v.knocker is not None:
                assert "last round:" in notes and "draws and discards once more" in notes
                seen["last"] = True
            if v.buyback_target is not None:
                assert f"pay {v.buyback_price} chips into the pot and your score becomes {v.buyback_target}" in notes
                seen["buy"] = True
            if c.my_turn():
                assert c.act(me.choose(c.game.view(c.human)))
        if len(seen) == 3:
            break
    assert set(seen) == {"pot", "last", "buy"}


def test_oklahoma_table_says_which_upcard_set_the_knock_limit_all_hand_long():
    """The upcard that set an Oklahoma hand's limit is soon taken or buried: the table keeps saying which
    card it was, the limit, and whether a spade doubles the hand (rules §6.1), read from the engine's view."""
    from rumino.cards import format_card
    from rumino.players import make_players
    from rumino.variants.oklahoma import upcard_limit
    from rumino_widgets.game_table import GameTableController

    c = GameTableController("greedy", seed=10, variant="oklahoma", coach_samples=20)
    me = make_players("greedy,greedy", seed=1, game=type(c.game))[0]
    notes = c.notices_html(c.view())
    assert "The upcard 3♠ sets the knock limit at 3, and the spade doubles this hand (rules §6.1)." in notes
    buried = 0
    for _ in range(60):  # a few hands: the notice names the hand's upcard even once it has left the pile
        v = c.view()
        if c.game.game_over:
            break
        notes = c.notices_html(v)
        if v.phase in ("between_hands", "game_over"):
            assert "upcard" not in notes  # no hand to keep in mind
        else:
            assert f"The upcard {format_card(v.upcard, unicode=True)} " in notes
            assert (f"sets the knock limit at {upcard_limit(v.upcard)}" in notes) == (v.knock_limit > 0)
            assert ("the spade doubles this hand" in notes) == v.doubled
            buried += v.top_discard != v.upcard
        assert c.my_turn() and c.act(me.choose(c.game.view(c.human)))
    assert buried > 0
    c.new_game(2)
    assert "The upcard A♣ allows no knock in this hand: gin only (rules §6.1)." in c.notices_html(c.view())
