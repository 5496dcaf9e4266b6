"""The Rumino engine's API: starting games, phases, views, checked and unchecked apply, the
evaluator against the reference search, rumino outs against brute force, and the interval helpers."""

from __future__ import annotations

import dataclasses

import numpy as np
import pytest

from rumino.hand.arrange import after_draw, min_deadwood
from rumino.cards import JOKER, RUMINO_PACK, format_hand, parse_card, parse_hand, shuffled
from rumino.errors import IllegalActionError, InvalidCardError, RuleConfigError
from rumino.engine import (Action, Deal, DeclineRebuy, Discard, Draw, Gin, Join, Knock, PlayerView, Rebuy,
                         play, refuse)
from rumino.players import GreedyPlayer, RandomPlayer
from rumino.stats import mean_estimate, mean_interval, proportion_estimate, wilson_interval
from rumino.variants.rumino import (ACTIONS, RUMINO, CallRumino, ClaimRumino, Evaluator, PassClaim, RuminoGame, RuminoView,
                                    evaluator_for, is_rumino, rumino_in, rumino_outs)

UNIVERSE = ([Draw("stock"), Draw("discard"), Knock(), CallRumino(), ClaimRumino(), PassClaim(), Rebuy(),
             DeclineRebuy(), Deal(), Join()] + [Discard(c) for c in range(53)] + [Gin(c) for c in range(53)])


# ---------------------------------------------------------------------------- starting a game


@pytest.mark.parametrize("n", [1, 7, 0, "3", True, 2.0])
def test_new_refuses_a_bad_number_of_players(n):
    with pytest.raises(RuleConfigError, match="2 to 6 players"):
        RuminoGame.new(RUMINO, n, seed=1)


def test_new_refuses_bad_dealer_rules_seed_and_rng():
    with pytest.raises(RuleConfigError, match="dealer is 3"):
        RuminoGame.new(RUMINO, 3, seed=1, dealer=3)
    with pytest.raises(RuleConfigError, match="must be a RuminoRules"):
        RuminoGame.new(RUMINO.meld_rules, 3, seed=1)
    with pytest.raises(RuleConfigError, match="a seed or an rng, not both"):
        RuminoGame.new(RUMINO, 3, seed=1, rng=np.random.default_rng(1))
    with pytest.raises(RuleConfigError, match="seed is -1"):
        RuminoGame.new(RUMINO, 3, seed=-1)
    with pytest.raises(RuleConfigError, match="seed is 'x'"):
        RuminoGame.new(RUMINO, 3, seed="x")
    with pytest.raises(RuleConfigError, match="numpy.random.Generator"):
        RuminoGame.new(RUMINO, 3, rng=np.random.RandomState(1))


def test_every_stake_is_in_the_pool_at_the_start():
    g = RuminoGame.new(dataclasses.replace(RUMINO, stake=25), 5, seed=3)
    assert g.paid == [2500] * 5 and g.pool == 12500 and g.received == [0] * 5
    g.check_invariants()


def test_the_same_seed_deals_the_same_game_and_an_rng_works_too():
    a, b = RuminoGame.new(RUMINO, 4, seed=[3, 4]), RuminoGame.new(RUMINO, 4, seed=[3, 4])
    assert a.snapshot() == b.snapshot()
    c = RuminoGame.new(RUMINO, 4, rng=np.random.default_rng([3, 4]))
    assert c.hands == a.hands and c.stock == a.stock and c.seed is None
    assert RuminoGame.new(RUMINO, 4, seed=5).hands != a.hands


# ---------------------------------------------------------------------------- phases and actions


def test_phases_of_a_turn_and_legal_actions():
    g = RuminoGame.new(RUMINO, 3, seed=7, dealer=2)
    g.set_position(hands={0: "2c 3c 4c 9d 9h 9s 7d"}, stock_top="Kc")
    assert g.phase == "turn" and g.to_act == 0 and not g.hand_over
    assert g.legal_actions() == [Knock(), Draw("stock"), Draw("discard")]
    g.apply(Draw("stock"))
    assert g.phase == "discard" and len(g.hands[0]) == 8 and g.drawn == parse_card("Kc")
    legal = g.legal_actions()
    assert all(isinstance(a, Discard) for a in legal) and len(legal) == len(set(g.hands[0]))
    g.apply(Discard(parse_card("Kc")))
    assert g.phase == "turn" and g.to_act == 1 and g.discard[-1] == parse_card("Kc")
    g.check_invariants()


def test_check_never_changes_the_state_and_apply_refuses_non_actions():
    g = RuminoGame.new(RUMINO, 3, seed=8)
    before = g.snapshot()
    for action in UNIVERSE:
        try:
            g.check(action)
        except IllegalActionError:
            pass
    assert g.snapshot() == before
    for junk in ("draw stock", None, 3, Draw):
        with pytest.raises(IllegalActionError, match="is not a Rumino action"):
            g.apply(junk)
    assert g.snapshot() == before


def test_legal_actions_agree_with_check_over_the_whole_universe():
    for seed in range(6):
        g = RuminoGame.new(RUMINO, 2 + seed % 5, seed=seed)
        bots = [RandomPlayer(seed=seed * 10 + i) for i in range(g.n_seats)]
        for _ in range(300):
            if g.game_over:
                break
            legal = set(g.legal_actions()) | set(g.table_actions())
            for a in UNIVERSE:
                ok = True
                try:
                    g.check(a)
                except IllegalActionError:
                    ok = False
                assert ok == (a in legal), (a, g.phase)
            g.apply(bots[g.to_act].choose(g.view(g.to_act)))


def test_refusals_name_player_phase_action_and_rule():
    g = RuminoGame.new(RUMINO, 3, seed=9, dealer=2)
    g.set_position(hands={0: "2c 3c 4c 9d 9h 9s 8d"})
    with pytest.raises(IllegalActionError) as info:
        g.apply(Knock())
    err = info.value
    assert str(err) == ("cannot knock: player 0 has 8 deadwood, the limit is 7 "
                        "(player 0, the start of a turn; rules §1.3).")
    assert (err.player, err.phase, err.action, err.rule) == (0, "turn", Knock(), "§1.3")
    assert "nobody" in str(refuse(Deal(), player=None, phase="game_over", reason="x", rule="§1.5"))


def test_checked_and_unchecked_apply_reach_the_same_state():
    for seed in range(5):
        a, b = RuminoGame.new(RUMINO, 4, seed=seed), RuminoGame.new(RUMINO, 4, seed=seed)
        play(a, [GreedyPlayer()] * 4, checked=True)
        play(b, [GreedyPlayer()] * 4, checked=False)
        assert a.snapshot() == b.snapshot()


def test_play_raises_when_a_game_does_not_end():
    g = RuminoGame.new(RUMINO, 2, seed=1)
    with pytest.raises(RuntimeError, match="did not end within 5 actions"):
        play(g, [GreedyPlayer()] * 2, max_actions=5)


def test_a_finished_game_refuses_everything_and_next_game_needs_a_winner():
    g = RuminoGame.new(RUMINO, 2, seed=2)
    with pytest.raises(IllegalActionError, match="not over"):
        g.next_game(seed=1)
    play(g, [GreedyPlayer()] * 2)
    assert g.game_over and g.to_act is None and g.legal_actions() == [] and g.table_actions() == []
    for a in UNIVERSE:
        with pytest.raises(IllegalActionError):
            g.apply(a)


# ---------------------------------------------------------------------------- actions as notation


def test_actions_print_in_book_notation_and_parse_back():
    for a in UNIVERSE:
        assert ACTIONS.parse(str(a)) == a
        assert isinstance(a, Action) and hash(a) == hash(ACTIONS.parse(str(a)))
    ns = {"Draw": Draw, "Discard": Discard, "Gin": Gin, "Knock": Knock, "CallRumino": CallRumino}
    for a in (Draw("stock"), Discard(45), Gin(52), Knock(), CallRumino()):
        assert eval(repr(a), ns) == a  # repr pastes back
    assert str(Discard(parse_card("10h"))) == "discard 10h" and str(Gin(JOKER)) == "gin JK"
    for bad in ("discard", "discard 11h", "draw deck", "knock now", "", "   ", "eval(1)"):
        with pytest.raises(IllegalActionError):
            ACTIONS.parse(bad)
    with pytest.raises(IllegalActionError, match="'stock' or 'discard'"):
        Draw("deck")


def test_each_game_reads_only_its_own_action_words():
    # no global registry of words: a second game may have its own `pass`, and Rumino's words stay Rumino's
    from rumino.engine.protocol import ActionSet
    other = ActionSet("Other", (Draw, Discard))
    with pytest.raises(IllegalActionError, match="not an action of Other: the actions are discard, draw"):
        other.parse("pass")
    assert ACTIONS.parse("pass") == PassClaim()
    with pytest.raises(ValueError, match="two Clash actions use the word 'draw'"):
        ActionSet("Clash", (Draw, type("Draw2", (Knock,), {"word": "draw"})))


# ---------------------------------------------------------------------------- views


def test_a_view_shows_own_cards_and_counts_of_the_others():
    g = RuminoGame.new(RUMINO, 4, seed=12)
    seat = g.to_act
    other = (seat + 1) % 4
    v = g.view(other)
    assert isinstance(v, RuminoView) and isinstance(v, PlayerView)
    assert v.hand == tuple(g.hands[other]) and v.hand_sizes == (7, 7, 7, 7)
    assert v.legal_actions == [] and not v.my_turn
    assert "hands" not in RuminoView.__slots__ and "stock" not in RuminoView.__slots__
    visible = set(v.hand) | set(v.discard_pile)
    unseen = v.unseen
    assert int(unseen.sum()) == 108 - 7 - len(v.discard_pile)
    assert all(unseen[c] == RUMINO_PACK.copies(c) - v.hand.count(c) - v.discard_pile.count(c) for c in visible)
    mine = g.view(seat)
    assert mine.my_turn and mine.legal_actions == g.legal_actions() and mine.knock_limit == 7
    with pytest.raises(IllegalActionError, match="not at this table"):
        g.view(4)


def test_the_view_after_a_draw_from_the_pile_names_the_card_that_may_not_go_back():
    g = RuminoGame.new(RUMINO, 2, seed=13, dealer=1)
    top = g.discard[-1]
    g.apply(Draw("discard"))
    v = g.view(0)
    assert v.pickup == top and v.phase == "discard" and len(v.hand) == 8
    assert Discard(top) not in v.legal_actions
    assert g.view(1).pickup is None


def test_a_showdown_is_public_after_the_hand():
    g = RuminoGame.new(RUMINO, 3, seed=14, dealer=2)
    g.set_position(hands={0: "2c 3c 4c 9d 9h 9s 7d"})
    g.apply(Knock())
    v = g.view(1)
    assert v.last_result.hands[2] == tuple(g.hands[2]) and v.last_result.deadwood[0] == 7


# ---------------------------------------------------------------------------- evaluator and outs


def _random_hands(n, size, seed):
    rng = np.random.default_rng(seed)
    return [tuple(shuffled(RUMINO_PACK, rng)[:size]) for _ in range(n)]


@pytest.mark.parametrize("changes", [{}, {"set_suits": "distinct"}, {"max_lay_size": None},
                                     {"min_naturals_per_lay": 0}])
def test_the_evaluator_agrees_with_the_reference_search(changes):
    rules = dataclasses.replace(RUMINO, **changes)
    ev = evaluator_for(rules)
    mr = rules.meld_rules
    for hand in _random_hands(150, 7, 1):
        assert ev.deadwood(hand) == min_deadwood(hand, mr)
    for hand in _random_hands(60, 8, 2):
        for forbidden in (None, hand[0]):
            dv = after_draw(hand, mr, forbidden=() if forbidden is None else (forbidden,))
            assert ev.after_draw(hand, forbidden) == (dv.deadwood, tuple(sorted(dv.discards)))
    slow = Evaluator(rules)
    slow.kernels = None  # the pure-Python fallback gives the same numbers
    for hand in _random_hands(20, 8, 3):
        assert slow.after_draw(hand, hand[1]) == ev.after_draw(hand, hand[1])


def _near_ruminos(rules, seed, n=150):
    """Hands one or two cards away from a random rumino (straight flush or 7 of a kind)."""
    rng = np.random.default_rng(seed)
    pack = list(RUMINO_PACK.cards())
    out = []
    while len(out) < n:
        if rng.random() < 0.5:
            s, start = int(rng.integers(4)), int(rng.integers(7))
            core = [s * 13 + r for r in range(start, start + 7)]
        else:
            r = int(rng.integers(13))
            core = sorted(rng.permutation([s * 13 + r for s in range(4) for _ in range(2)]).tolist())[:7]
        k = int(rng.integers(0, 3))
        for i in rng.choice(7, size=k, replace=False):
            core[i] = JOKER if rng.random() < 0.3 else pack[int(rng.integers(len(pack)))]
        hand = tuple(core)
        try:
            RUMINO_PACK.check_hand(hand)
        except InvalidCardError:
            continue
        out.append(hand)
    return out


@pytest.mark.parametrize("changes", [{}, {"set_suits": "distinct"}, {"rumino_natural_only": True}])
def test_rumino_outs_match_brute_force(changes):
    rules = dataclasses.replace(RUMINO, **changes)
    for hand in _near_ruminos(rules, 5) + _random_hands(100, 7, 6):
        brute = set()
        for c in range(53):
            eight = hand + (c,)
            if eight.count(c) > RUMINO_PACK.copies(c):
                continue
            if rumino_in(eight, rules) is not None:
                brute.add(c)
        outs = rumino_outs(hand, rules)
        if is_rumino(hand, rules):
            assert len(outs) == 53
        else:
            assert {c for c in outs if hand.count(c) < RUMINO_PACK.copies(c)} == brute, format_hand(hand)


# ---------------------------------------------------------------------------- set_position


def test_set_position_keeps_every_card_in_one_place_and_refuses_the_impossible():
    g = RuminoGame.new(RUMINO, 3, seed=15, dealer=2)
    g.set_position(hands={0: "7h 7h Kc Kc JK JK JK", 1: "2c 3c 4c 5c 6c 7c 8c"}, discard="JK 9s",
                   stock_top="As 2s", scores={2: 50})
    g.check_invariants()
    assert g.discard == list(parse_hand("JK 9s")) and g.stock[-2:] == list(parse_hand("2s As"))
    assert g.scores == [0, 0, 50] and g.rigged
    with pytest.raises(InvalidCardError, match="3 copies of 7h"):
        g.set_position(hands={0: "7h 7h 7h Kc Kc 2s 3s"})
    with pytest.raises(IllegalActionError, match="7 cards"):
        g.set_position(hands={0: "7h"})
    with pytest.raises(IllegalActionError, match="score must be below 101"):
        g.set_position(scores={1: 101})
    g.apply(Draw("stock"))
    with pytest.raises(IllegalActionError, match="start of a turn"):
        g.set_position(hands={0: "7h 7h Kc Kc JK JK JK"})


# ---------------------------------------------------------------------------- intervals


def _wilson_by_roots(x, n, z=1.959963984540054):
    """The Wilson interval as the roots in p of (p̂ − p)² = z² p (1 − p) / n (a second method)."""
    ph = x / n
    a = 1 + z * z / n
    b = -(2 * ph + z * z / n)
    c = ph * ph
    roots = sorted(np.roots([a, b, c]).real)
    return max(0.0, roots[0]), min(1.0, roots[1])


def test_wilson_interval_matches_the_quadratic_roots():
    for n in (1, 7, 50, 1000):
        for x in sorted({0, 1, n // 3, n // 2, n - 1, n}):
            lo, hi = wilson_interval(x, n)
            rlo, rhi = _wilson_by_roots(x, n)
            assert lo == pytest.approx(rlo, abs=1e-9) and hi == pytest.approx(rhi, abs=1e-9)
            assert lo <= x / n <= hi
    assert wilson_interval(0, 0) == (0.0, 1.0)
    with pytest.raises(ValueError):
        wilson_interval(5, 3)


def test_mean_interval_is_the_normal_interval():
    xs = [3, 5, 8, 13, 21]
    m = sum(xs) / 5
    sd = (sum((x - m) ** 2 for x in xs) / 4) ** 0.5
    lo, hi = mean_interval(xs)
    assert lo == pytest.approx(m - 1.959963984540054 * sd / 5 ** 0.5)
    assert hi == pytest.approx(m + 1.959963984540054 * sd / 5 ** 0.5)
    e = mean_estimate(xs)
    assert (e.estimate, e.n) == (m, 5) and e.as_json()["ci95"] == [lo, hi]
    assert proportion_estimate(1, 4).estimate == 0.25
    with pytest.raises(ValueError):
        mean_estimate([])



def test_a_stale_view_refuses_to_list_legal_actions():
    g = RuminoGame.new(RUMINO, 2, seed=16)
    before = g.legal_actions()
    v = g.view(g.to_act)
    fresh = g.view(g.to_act)
    assert fresh.legal_actions == before  # computed now, kept by this view
    g.apply(Draw("stock"))
    with pytest.raises(IllegalActionError, match="out of date"):
        v.legal_actions
    assert fresh.legal_actions == before
