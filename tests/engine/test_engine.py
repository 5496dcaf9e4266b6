"""The shared engine (rumino.engine): the §0.5 re-discard knob, the ledger, refusals, action sets,
the evaluator that raises on a broken kernel, and the turn template driven by a tiny game."""

from __future__ import annotations

import dataclasses

import numpy as np
import pytest

from rumino.cards import parse_card, parse_hand
from rumino.engine import evaluator as evaluator_mod
from rumino.engine.actions import Discard, Draw, Gin
from rumino.engine.ledger import POT, Ledger
from rumino.engine.protocol import ActionSet
from rumino.engine.table import deal_round_robin, forbidden_discard, reshuffle
from rumino.errors import IllegalActionError, KernelError
from rumino.variants.rumino import RUMINO, RuminoGame


def _after_taking_a_twin(rules):
    """Player 0 holds 7h and takes the other 7h from the discard pile."""
    g = RuminoGame.new(rules, 2, seed=4, dealer=1)
    g.set_position(hands={0: parse_hand("7h 2c 5d 9s Jc Kd Qs")}, discard="3c 7h")
    g.apply(Draw("discard"))
    return g


def test_rules_0_5_only_the_card_taken_is_barred_by_default():
    g = _after_taking_a_twin(RUMINO)
    seven = parse_card("7h")
    assert g.hands[0].count(seven) == 2 and g.pickup == seven
    assert g.forbidden() is None and Discard(seven) in g.legal_actions()
    assert g.view(0).forbidden is None
    g.apply(Discard(seven))  # the twin goes back; the card taken stays in the hand
    assert g.hands[0].count(seven) == 1
    g.check_invariants()


def test_rules_0_5_knob_bars_the_twin_too():
    rules = dataclasses.replace(RUMINO, pickup_bars_twin=True)
    g = _after_taking_a_twin(rules)
    seven = parse_card("7h")
    assert g.forbidden() == seven and Discard(seven) not in g.legal_actions()
    before = g.snapshot()
    with pytest.raises(IllegalActionError, match=r"nor its twin.*rules §0.5") as err:
        g.apply(Discard(seven))
    assert err.value.rule == "§0.5" and err.value.player == 0 and g.snapshot() == before


def test_rules_0_5_a_single_card_taken_may_not_go_back_and_may_rediscard_lifts_it():
    g = RuminoGame.new(RUMINO, 2, seed=4, dealer=1)
    g.set_position(hands={0: parse_hand("6h 2c 5d 9s Jc Kd Qs")}, discard="3c 7h")
    g.apply(Draw("discard"))
    with pytest.raises(IllegalActionError, match="§0.5"):
        g.apply(Discard(parse_card("7h")))
    assert forbidden_discard(None, [1, 2], bar_twin=True) is None
    free = dataclasses.replace(RUMINO, may_rediscard_pickup=True)
    g = RuminoGame.new(free, 2, seed=4, dealer=1)
    g.set_position(hands={0: parse_hand("6h 2c 5d 9s Jc Kd Qs")}, discard="3c 7h")
    g.apply(Draw("discard"))
    assert Discard(parse_card("7h")) in g.legal_actions()


def test_rules_0_4_reshuffle_keeps_the_top_card_and_every_card():
    rng = np.random.default_rng(1)
    pile = list(range(10))
    stock, discard = reshuffle(pile, rng)
    assert discard == [9] and sorted(stock) == list(range(9))
    hands, up, stock = deal_round_robin(list(range(30)), [1, 0], 2, 5)
    assert sorted(sum(hands, []) + up + stock) == list(range(30))


def test_ledger_conserves_integer_units_and_refuses_floats():
    led = Ledger(3)
    for s in range(3):
        led.pay_in(s, 500, "stake")
    led.transfer(1, 0, 7, "knock money")
    led.pay_in(2, 250, "buy-back")
    pay = led.pay_out([1, 2, 0])
    assert sum(pay) == 1750 and pay == [583, 584, 583] and led.pot == 0
    led.check()
    assert led.paid_for(2, "buy-back") == 250 and led.net(0) == 583 + 7 - 500
    with pytest.raises(ValueError, match="non-negative integer"):
        led.pay_in(0, 1.5, "stake")
    led.paid[0] += 1  # a unit created from nothing is caught
    with pytest.raises(AssertionError, match="not conserved"):
        led.check()
    led.paid[0] -= 1
    led.log.append((0, POT, 0, "x"))
    led.check()


def test_ledger_check_is_incremental_yet_catches_what_the_full_recount_catches():
    """The check re-adds only the entries since the last one; a totals/log mismatch after earlier
    checks is still caught, a newcomer's seat is counted, and a log restored shorter is re-added whole."""
    led = Ledger(2)
    led.pay_in(0, 10, "ante")
    led.check()
    led.pay_in(1, 10, "ante")
    led.check()
    led.log.append((0, 1, 3, "forged"))  # logged but never moved: the totals no longer match the log
    with pytest.raises(AssertionError, match="do not match its log"):
        led.check()
    led.log.pop()
    seat = led.add_seat()
    led.pay_in(seat, 4, "newcomer")
    led.check()
    assert led.pot == 24
    kept = (list(led.paid), list(led.received), led.pot, list(led.log))
    led.pay_out([0])
    led.check()
    led.paid, led.received, led.pot, led.log = kept  # an older state restored: a shorter log
    led.check()
    led.paid[1] += 1
    led.pot += 1  # conserved, but not in the log
    with pytest.raises(AssertionError, match="do not match its log"):
        led.check()


def test_each_game_has_its_own_action_words():
    a = ActionSet("A", (Draw, Discard))
    b = ActionSet("B", (Draw, Gin))
    assert a.parse("discard 7h") == Discard(parse_card("7h"))
    with pytest.raises(IllegalActionError, match="not an action of B"):
        b.parse("discard 7h")
    assert Discard(1) in a and Discard(1) not in b


def test_a_broken_kernel_raises_instead_of_falling_back(monkeypatch):
    from rumino.hand import kernels

    monkeypatch.setattr(evaluator_mod, "_KERNELS", [])
    monkeypatch.delenv("RUMINO_NO_KERNELS", raising=False)
    monkeypatch.setattr(kernels, "min_deadwood_fast", lambda cards, rules: 99)
    with pytest.raises(KernelError, match="gives deadwood 99"):
        evaluator_mod.kernels_module()
    monkeypatch.setattr(evaluator_mod, "_KERNELS", [])
    monkeypatch.setattr(kernels, "min_deadwood_fast", lambda cards, rules: 1 / 0)
    with pytest.raises(KernelError, match="ZeroDivisionError"):
        evaluator_mod.kernels_module()
    monkeypatch.setattr(evaluator_mod, "_KERNELS", [])
    monkeypatch.setenv("RUMINO_NO_KERNELS", "1")  # the reference search, chosen on purpose
    assert evaluator_mod.kernels_module() is None


def test_refusals_carry_player_phase_action_and_rule():
    g = RuminoGame.new(RUMINO, 3, seed=2)
    with pytest.raises(IllegalActionError) as err:
        g.apply(Discard(0))
    e = err.value
    assert (e.player, e.phase, e.action, e.rule) == (g.to_act, "turn", Discard(0), "§1.3")


@pytest.mark.parametrize("tamper, message", [
    (lambda g: g.hands[0].append(g.stock.pop()), "holds 8 cards"),
    (lambda g: g.stock.append(g.stock[0]), "cards not conserved"),
    (lambda g: g.scores.__setitem__(1, g.scores[1] + 3), "not the sum of the hand results"),
    (lambda g: g.ledger.paid.__setitem__(0, g.ledger.paid[0] + 100), "money not conserved"),
    (lambda g: g.ledger.pay_in(1, 100, "gift"), "paid"),
])
def test_the_invariants_catch_a_card_a_point_or_a_cent_out_of_place(tamper, message):
    g = RuminoGame.new(RUMINO, 3, seed=12)
    g.check_invariants()
    tamper(g)
    with pytest.raises(AssertionError, match=message):
        g.check_invariants()


def test_a_bot_that_does_not_fit_the_game_is_refused_naming_the_allowed_ones():
    from rumino.players import UnknownPlayerError, make_players

    class Other:  # a game that is not Rumino and has no knock
        NAME, MIN_PLAYERS, MAX_SEATS, KNOCK_GAME, SECTIONS = "Other", 2, 2, False, {"deal": "§9"}

    with pytest.raises(UnknownPlayerError, match="player 'chaser' does not fit Other: the players for Other are "
                                                 "random, human"):
        make_players("random,chaser", game=Other)
    with pytest.raises(UnknownPlayerError, match="3 players given: Other is for 2 to 2 players"):
        make_players("random,random,random", game=Other)
    assert len(make_players("random,human", game=Other)) == 2


def test_one_seeding_scheme_serves_every_table():
    from rumino.playing.seeding import new_table
    from rumino.engine.protocol import play
    from rumino.playing.simulation import play_games

    game, bots = new_table("rumino", ["greedy", "random"], seed=5, index=2)
    play(game, bots)
    s = play_games(None, ["greedy", "random"], games=3, seed=5)
    assert s.hands_per_game[2] == len(game.results)


def test_variant_is_the_only_registry_of_engines():
    import rumino.cli.simulate as cli_simulate
    import rumino.playing.records as records
    import rumino.playing.simulation as simulation
    import rumino_widgets.house_rule_lab as lab
    from rumino.variants import VARIANTS, playable_variants

    assert VARIANTS["rumino"].game is RuminoGame and playable_variants()["rumino"].game is RuminoGame
    assert not hasattr(simulation, "GAME_ENGINES") and not hasattr(cli_simulate, "GAME_ENGINES")
    assert records._games() == {v: v.game for v in VARIANTS.values() if v.game is not None}
    assert lab.SIMULATED == playable_variants()
