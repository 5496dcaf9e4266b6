"""The jokers as a knob: Rumino's n_jokers (0–8, default 4) — the pack, the deal, the engine and the
exact deal table — and Wiener's joker knobs in play (n_jokers 0–6, default 2; joker_value 20 | 25).

The exact table for a non-default joker count is checked by routes that share
nothing with the enumeration: the deals by jokers by formula, the gin hands as
unions of two lays, and a Monte Carlo mean scored by the brute-force reference
(tests/brute_force.py), within 4 standard errors. Six-card hands keep it quick
(1.9 M suit classes); the seven-card table goes through the same code with the
same pack (``rumino odds deal --variant rumino:n_jokers=J --exact``).
"""

from __future__ import annotations

import dataclasses
import json
import math
from math import comb

import numpy as np
import pytest

from brute_force import brute_min_deadwood
from rumino.cards import JOKER, RUMINO_PACK
from rumino.cli import main
from rumino.compare import rules_matrix
from rumino.engine.protocol import play
from rumino.playing.seeding import new_table
from rumino.errors import RuleConfigError
from rumino.odds.enumerate import deal_distribution
from rumino.odds.exact import lay_union_counts, rumino_count_closed_form
from rumino.odds.montecarlo import sample_deals
from rumino.variants.rumino import RUMINO, RuminoRules


def test_default_pack_is_the_108_card_pack():
    assert RUMINO.n_jokers == 4 and RUMINO.meld_rules.pack == RUMINO_PACK


@pytest.mark.parametrize("n", [0, 1, 8])
def test_pack_follows_the_knob(n):
    assert RuminoRules(n_jokers=n).meld_rules.pack.size == 104 + n


def test_out_of_range_is_refused_naming_the_knob():
    with pytest.raises(RuleConfigError, match="^Jokers in the pack: 9 is not allowed; it must be a whole number "
                                              "from 0 to 8"):
        RuminoRules(n_jokers=9)


def test_matrix_shows_the_pack():
    m = rules_matrix(["rumino", "rumino:n_jokers=2"])
    assert m.cell("Pack", 0) == "108 cards: 2 decks and 4 jokers"
    assert m.cell("Pack", 1) == "106 cards: 2 decks and 2 jokers"


@pytest.mark.parametrize("n", [0, 8])
def test_engine_deals_and_plays_from_the_knob_pack(n):
    rules = dataclasses.replace(RUMINO, n_jokers=n)
    game, bots = new_table("rumino", ["random", "greedy"], seed=n, index=0, rules=rules)
    seen_jokers = []

    def after(g, seat, action):
        g.check_invariants()  # every card of the 104 + n card pack in exactly one place
        seen_jokers.append(sum(h.count(JOKER) for h in g.hands) + g.stock.count(JOKER) + g.discard.count(JOKER))

    play(game, bots, checked=True, after=after)
    assert game.game_over and set(seen_jokers) == {n}
    assert len(game.stock) + len(game.discard) + sum(map(len, game.hands)) == 104 + n


@pytest.fixture(scope="module")
def six_cards_two_jokers():
    mr = RuminoRules(n_jokers=2).meld_rules
    return mr, deal_distribution(mr, 6)


@pytest.mark.parametrize("n", [0, 8])
def test_exact_table_deals_by_jokers_match_the_formula(n):
    d = deal_distribution(RuminoRules(n_jokers=n).meld_rules, 5)
    assert d.deals() == comb(104 + n, 5)
    for j in range(min(n, 5) + 1):
        assert d.deals(j) == comb(n, j) * comb(104, 5 - j)


def test_exact_six_card_gin_against_lay_unions(six_cards_two_jokers):
    """Gin (deadwood 0) for six cards is two disjoint lays of three: counted from the lays themselves."""
    mr, d = six_cards_two_jokers
    assert d.deals() == comb(106, 6)
    assert {j: d.counts(j).get(0, 0) for j in sorted(d.deadwood)} == lay_union_counts(mr, 6)


def test_exact_six_card_mean_against_brute_force_monte_carlo(six_cards_two_jokers):
    mr, d = six_cards_two_jokers
    exact = d.mean()
    hands = sample_deals(mr.pack, 6, 2500, np.random.default_rng(11))
    xs = [brute_min_deadwood(tuple(c for c in range(53) for _ in range(int(row[c]))), mr) for row in hands]
    m = sum(xs) / len(xs)
    se = math.sqrt(sum((x - m) ** 2 for x in xs) / (len(xs) - 1) / len(xs))
    assert abs(m - float(exact)) < 4 * se


@pytest.mark.parametrize("n", [0, 2, 8])
def test_rumino_closed_form_counts_every_joker_count(n):
    """The closed form with the knob's pack: the counts add the joker choices of that pack."""
    counts = rumino_count_closed_form(7, RuminoRules(n_jokers=n).meld_rules.pack)
    assert set(counts) == set(range(min(n, 7) + 1))
    base = rumino_count_closed_form(7, RuminoRules(n_jokers=0).meld_rules.pack)[0]
    assert counts[0] == base  # no joker dealt: the same hands whatever the pack's jokers


def test_odds_deal_takes_the_knob(capsys):
    assert main(["odds", "deal", "--variant", "rumino:n_jokers=2", "--samples", "3000", "--seed", "1", "--json",
                 "--no-progress"]) == 0
    out = json.loads(capsys.readouterr().out)
    assert out["pack_size"] == 106 and out["house_rules"] == {"n_jokers": 2}
    assert set(out["by_jokers"]) <= {"0", "1", "2"}


def test_odds_deal_refuses_a_bad_knob(capsys):
    assert main(["odds", "deal", "--variant", "rumino:n_jokers=12", "--samples", "10", "--seed", "1"]) == 2
    assert "n_jokers" in capsys.readouterr().err


# --------------------------------------------------------------------------- Wiener


@pytest.mark.parametrize("n", [0, 6])
def test_wiener_deals_and_plays_from_the_knob_pack(n):
    from rumino.variants.wiener import WIENER

    rules = dataclasses.replace(WIENER, n_jokers=n)
    assert rules.meld_rules.pack.size == 104 + n
    game, bots = new_table("wiener", ["greedy", "random"], seed=n, index=1, rules=rules)
    play(game, bots, checked=True, after=lambda g, seat, action: g.check_invariants())
    assert game.game_over and len(game._pack_array) == 104 + n


def test_wiener_default_pack_unchanged():
    from rumino.cards import WIENER_PACK
    from rumino.variants.wiener import WIENER

    assert WIENER.n_jokers == 2 and WIENER.meld_rules.pack == WIENER_PACK


@pytest.mark.parametrize("value", [20, 25])
def test_wiener_joker_value_is_what_an_unmelded_joker_costs_in_play(value):
    from rumino.cards import parse_hand
    from rumino.variants.wiener import WIENER, WienerGame

    rules = dataclasses.replace(WIENER, joker_value=value, deal_mode="upcard")
    game = WienerGame.new(rules, 2, seed=1)
    seat = game.to_act
    # no pair and no two cards of a suit within reach of a run: every card, the joker too, is deadwood
    game.set_position(hands={seat: parse_hand("JK 2s 6s 10s 3c 7c Jc 4d 8d Qd")})
    assert game.deadwood(seat) == value + 2 + 6 + 10 + 3 + 7 + 10 + 4 + 8 + 10


def test_a_rumino_with_two_naturals_or_more_is_gin():
    """What the profile's P(may end at once) relies on: a rumino of 2+ naturals splits into a 4-lay and
    a 3-lay (deadwood 0), so only the all-but-one-joker ruminos lie outside the knock count."""
    from itertools import combinations, combinations_with_replacement

    from rumino.hand.arrange import min_deadwood
    from rumino.variants.rumino import is_rumino

    mr = RuminoRules(n_jokers=8).meld_rules
    checked = 0
    for naturals in range(2, 8):
        jokers = [JOKER] * (7 - naturals)
        # 7 of a kind around the fives: any suits, at most two copies of a card
        for suits in combinations_with_replacement(range(4), naturals):
            if max(suits.count(s) for s in range(4)) <= 2:
                hand = [s * 13 + 4 for s in suits] + jokers
                assert is_rumino(hand) and min_deadwood(hand, mr) == 0, hand
                checked += 1
        # straight flushes in hearts: ranks within a 7-wide window
        for ranks in combinations(range(13), naturals):
            if ranks[-1] - ranks[0] <= 6:
                hand = [39 + r for r in ranks] + jokers
                assert is_rumino(hand) and min_deadwood(hand, mr) == 0, hand
                checked += 1
    assert checked == 573  # 7 of a kind and straight flushes, 2 to 7 naturals
    one_natural = [4] + [JOKER] * 6
    assert is_rumino(one_natural) and min_deadwood(one_natural, mr) == 30  # a rumino, but 30 deadwood
