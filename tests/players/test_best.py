"""The best player (``best``: the search that weighs its worlds by the opponent's open play) and its coach.

* it plays every game legally, every card in one place after every action (the conformance checks of
  the engine: ``checked=True`` and ``check_invariants``), and a seeded game replays exactly;
* its worlds depend only on what the seat sees and on the open play: moving a hidden card between the
  opponent's hand and the stock changes nothing of its decision;
* the opponent model weighs a hand by how well it explains the play (unit checks of the weights);
* the coach's words name cards and chances in a player's words, never an internal name;
* a small seeded match: the model's search beats greedy at Gin on the same deals.
"""

from __future__ import annotations

import re

import numpy as np
import pytest

from rumino.cards import parse_hand
from rumino.engine.protocol import play
from rumino.melds import GIN_MELDS, RUMINO_MELDS
from rumino.players import GreedyPlayer, make_player, make_players
from rumino.players.coach import explain
from rumino.players.opponent_model import Habits, OpenPlay, hand_weights, meld_shares, read_open_play, resample
from rumino.players.search import SearchPlayer
from rumino.playing.seeding import new_table
from rumino.variants import bots_of, find_variant

BEST_SIMULATIONS = {"Gin Rummy": 5000, "Rumino": 3000, "American Knock Rummy": 300, "Wiener Rummy": 2000,
                    "German Rommé": 15, "Robber Rummy": 8, "Rummoli": 200}
"""The best player's budgets, each game's row's (``Variant.bots.best_budget``)."""


def test_best_is_a_player_of_every_game():
    best = make_player("best", seed=1)
    assert best.name == "best" and best.model
    for key in ("rumino", "gin", "knock-rummy", "wiener", "romme", "robber", "rummoli"):
        game = find_variant(key).game
        assert best.fits(game) and best.budget_for(game) == BEST_SIMULATIONS[game.NAME] == bots_of(game).best_budget
    assert make_players("human,best", game=find_variant("gin").game)[1].name == "best"
    with pytest.raises(ValueError, match="best takes no parameter"):
        make_player("best:5")


@pytest.mark.parametrize("key,seats", [("gin", 2), ("rumino", 2), ("rumino", 3), ("wiener", 2),
                                       ("knock-rummy", 2), ("romme", 2)])
def test_the_model_search_plays_legally_and_replays_exactly(key, seats):
    def run():
        specs = ["greedy"] * seats
        game, players = new_table(find_variant(key), specs, 5, 0, dealer=seats - 1)
        players[0] = SearchPlayer(40, seed=3, model=True)
        play(game, players, checked=True, until=lambda g: g.hand_over,
             after=lambda g, seat, action: g.check_invariants(deep=False))
        game.check_invariants(deep=True)
        return game.history, players[0]

    first, searcher = run()
    second, _ = run()
    assert first == second and searcher.decisions > 0


def _midhand(seed: int, steps: int):
    game, _ = new_table("gin", ["greedy", "greedy"], seed, 0, dealer=1)
    g = GreedyPlayer()
    for _ in range(steps):
        game.apply(g.choose(game.view(game.to_act)))
    return game


def test_the_weighted_worlds_read_no_hidden_card():
    """Two games alike but for which hidden card is in the opponent's hand and which in the stock: the same decision."""
    game = _midhand(2, 9)
    seat = game.to_act
    twin = game.fork(np.random.default_rng(0))
    twin.rigged = game.rigged
    opp = 1 - seat
    taken = set(game.known_held(seat).get(opp, []))
    i = next(i for i, c in enumerate(twin.hands[opp]) if c not in taken)
    twin.hands[opp][i], twin.stock[0] = twin.stock[0], twin.hands[opp][i]
    twin.after_hidden_dealt()
    decisions = []
    for g in (game, twin):
        p = SearchPlayer(300, seed=4, model=True)
        p.choose(g.view(seat))
        decisions.append([(a, round(s, 9), n) for a, s, n in p.last.values])
    assert decisions[0] == decisions[1]


def test_a_hand_is_weighed_by_how_well_it_explains_the_play():
    hands = np.array([parse_hand("7h 8h Ks Kd 2c 4d 6s 9c Jd Qs"), parse_hand("7c 8d Ks Kd Kc 4d 6s 9c Jd Qs")])
    let_go = OpenPlay(let_go=tuple(parse_hand("9h")))
    assert hand_weights(hands, GIN_MELDS, let_go).tolist() == pytest.approx([0.3, 1.0])
    took = OpenPlay(held=tuple(parse_hand("Kd")))  # he took the Kd: it melds in the second hand only
    assert hand_weights(hands, GIN_MELDS, took).tolist() == pytest.approx([0.3, 1.0])
    low = OpenPlay(last_discard=parse_hand("3s")[0])  # he threw a 3: a hand keeping a loose queen is unlikely
    assert hand_weights(hands, GIN_MELDS, low).tolist() == pytest.approx([0.3, 0.3])
    knock = OpenPlay(knock_limit=10)
    assert hand_weights(np.array([parse_hand("As 2s 3s 4h 4d 4c 7c 7d 7h 2h")]), GIN_MELDS, knock)[0] < 1
    # Rumino knocks before the draw: the hand he held at the start of his last turn was above the limit
    seven = np.array([parse_hand("2c 3c 4c 9d 9h 9s 5d"), parse_hand("2c 3c 4c 9d 9h Qs 5d")])
    before = OpenPlay(knock_limit=7, knock_before_draw=True, last_discard=parse_hand("6d")[0])
    w = hand_weights(seven, RUMINO_MELDS, before, Habits(highest=1.0))  # (the knock alone)
    assert 0 < w[0] < 1 and w[1] == 1  # the first held 6 deadwood before he drew the 5d: he would have knocked


def test_the_open_play_is_read_per_seat_and_keeps_the_recent_cards():
    events = [(0, "pass", 5), (1, "pass", 5), (0, "stock", 5), (0, "discard", 9), (1, "take", 9), (1, "discard", 3),
              (0, "stock", 3), (0, "discard", 40)]
    assert read_open_play(events, 1, knock_limit=10) == OpenPlay(let_go=(5, 3), held=(9,), ages=(0, 0),
                                                                 last_discard=3, knock_limit=10, last_taken=9)
    mine = read_open_play(events, 0, knock_limit=10)
    assert mine.let_go == (5, 5, 9, 3, 40) and mine.ages == (1, 1, 1, 0, 0)
    assert read_open_play(events[:2], 1, knock_limit=10).knock_limit is None  # no turn yet: no knock to miss


def test_meld_shares_and_resampling():
    hands = np.array([parse_hand("7h 8h Ks"), parse_hand("7c 8d Ks")])
    assert meld_shares(hands, GIN_MELDS, parse_hand("9h 6h Ac")).tolist() == [0.5, 0.5, 0.0]
    kept = resample(np.array([0.0, 1.0, 0.0, 1.0]), 6, np.random.default_rng(2))
    assert sorted(set(kept.tolist())) == [1, 3] and len(kept) == 6


INTERNAL = re.compile(r"_|\b(Discard|KnockWith|Draw|Gin|Pass|Knock|Decision|None|True|False)\(|\bNone\b|"
                      r"seat \d|phase|view")


@pytest.mark.parametrize("key", ["gin", "rumino", "wiener"])
def test_the_coach_explains_in_a_players_words(key):
    game, _ = new_table(key, ["greedy", "greedy"], 7, 0, dealer=1)
    g = GreedyPlayer()
    p = SearchPlayer(400, seed=2, model=True)
    said = []
    for _ in range(30):
        if game.hand_over:
            break
        view = game.view(game.to_act)
        if game.to_act == 0:
            action = p.choose(view)
            lines = explain(p.last, view)
            said.append(lines)
            assert lines[0].startswith("My move: ") and all(line and not INTERNAL.search(line) for line in lines), lines
            if not p.last.forced:
                assert any("win the hand about" in line for line in lines), lines
        else:
            action = g.choose(view)
        game.apply(action)
    text = " ".join(" ".join(lines) for lines in said)
    assert "deadwood" in text and re.search(r"[♠♣♦♥]", text)
    assert "holds" in text  # what the opponent is thought to hold


def test_the_model_search_beats_greedy_at_rumino_on_seeded_deals():
    """A small seeded match, each deal twice with the seats swapped (the long ones are in
    book/data/family_strength.json): the model's search, on compiled Rumino rollouts, wins more hands than
    greedy. Seeded, so it replays exactly: a change that makes the player weaker here shows."""
    won = 0.0
    deals = 20
    for index in range(deals):
        for seat in (0, 1):
            game, players = new_table("rumino", ["greedy", "greedy"], 11, index, dealer=1)
            players[seat] = SearchPlayer(1000, seed=[11, index, seat], model=True)
            before = list(game.scores)
            play(game, players, until=lambda g: g.hand_over)
            gains = [b - a for a, b in zip(game.scores, before)]  # penalty points: less is better
            r = game.results[-1]
            won += 1.0 if gains[seat] > gains[1 - seat] or (gains[seat] == gains[1 - seat] and r.by == seat) else 0.0
    assert won / (2 * deals) > 0.5
