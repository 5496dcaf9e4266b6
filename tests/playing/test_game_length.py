"""Game length (rumino.playing.game_length): the counts checked by a second route through the one game
loop, the figures by hand, and the book's results file replayed on its first games."""

from __future__ import annotations

import json
import math
from pathlib import Path

import pytest

from rumino.engine.protocol import play
from rumino.errors import RuleConfigError
from rumino.playing.game_length import (PACE, GameCount, GameLength, TablePace, length_difference, measure_length,
                                        play_counted, ratio_estimate, riffles_for)
from rumino.playing.seeding import new_table
from rumino.stats import paired_mean_difference
from rumino.variants import find_variant

BOOK_DATA = Path(__file__).resolve().parents[2] / "book" / "data" / "game_length.json"


def _runs_by_the_game_loop(key: str, n: int, seed: int, index: int) -> tuple[int, int]:
    """(hands, turns) of one game, counted from the one game loop's ``after`` hook: a turn is a run of one
    seat's actions while a hand is on."""
    bot = "default" if key == "rummoli" else "greedy"
    game, players = new_table(key, [bot] * n, seed, index)
    seen: list[tuple[int, int, bool]] = []  # (hand number, seat, the hand was on before the action)
    hand = [1]

    def before(g, seat, action):
        seen.append((hand[0], seat, not g.hand_over))

    def after(g, seat, action):
        if g.hand_over and seen[-1][2]:
            hand[0] += 1

    play(game, players, checked=False, before=before, after=after)
    turns, last = 0, None
    for number, seat, on in seen:
        if on and (number, seat) != last:
            turns += 1
        last = (number, seat) if on else None
    return len(game.results), turns


@pytest.mark.parametrize("key, n", [("gin", 2), ("rumino", 3), ("wiener", 2), ("romme", 3), ("rummoli", 3),
                                    ("knock-rummy", 4)])
def test_turns_and_hands_agree_with_the_game_loop(key, n):
    bot = "default" if key == "rummoli" else "greedy"
    for index in range(2):
        game, players = new_table(key, [bot] * n, 5, index)
        count = play_counted(game, players)
        assert (count.hands, count.turns) == _runs_by_the_game_loop(key, n, 5, index)
        assert count.full_turns <= count.turns and 2 * count.decisions <= count.options


def test_a_draw_and_discard_game_lays_nothing_and_every_turn_is_full():
    m = measure_length("knock-rummy", 3, games=3, seed=2)
    for r in m.rows:
        assert r.cards_laid == r.cards_moved == 0 and r.full_turns == r.turns
        assert r.riffles == 7 * r.hands and r.player_hands == 3 * r.hands


def test_rummoli_turns_neither_draw_nor_discard_and_robber_moves_table_cards():
    rummoli = measure_length("rummoli", 2, games=2, seed=1)
    assert all(r.full_turns == 0 and r.cards_laid > 0 for r in rummoli.rows)
    assert all(r.cards_dealt == 52 * r.hands for r in rummoli.rows)          # the whole pack, the widow too
    robber = measure_length("robber", 2, games=2, seed=1)
    assert all(r.hands == 1 and r.cards_laid > 0 for r in robber.rows)
    assert any(r.cards_moved > 0 for r in robber.rows)


def test_minutes_are_the_pace_applied_to_the_counts():
    m = measure_length("gin", 2, games=4, seed=3)
    r = m.rows[0]
    # nothing is laid at Gin; a pass of the first upcard is a short turn
    by_hand = (r.full_turns * 8 + (r.turns - r.full_turns) * 2 + r.riffles * 4 + r.cards_dealt * 1
               + r.player_hands * 15) / 60
    assert m.minutes()[0] == pytest.approx(by_hand)
    slow = TablePace(**{k: 2 * v for k, v in PACE.as_json().items()})
    assert m.minutes_per_game(slow).value == pytest.approx(2 * m.minutes_per_game().value)


def test_ratio_estimate_by_hand():
    e = ratio_estimate([12, 20, 7], [1, 2, 1])
    assert e.value == pytest.approx(39 / 4)
    resid = [12 - 9.75, 20 - 19.5, 7 - 9.75]
    se = math.sqrt(sum(x * x for x in resid) / (3 * 2) / (4 / 3) ** 2)
    assert e.se == pytest.approx(se) and e.hi - e.value == pytest.approx(1.959963984540054 * se)


def test_the_same_seeds_compare_game_by_game():
    a = measure_length("rumino", 2, games=6, seed=4)
    b = measure_length("rumino", 2, games=6, seed=4, rules=find_variant("rumino").with_rules(knock_max_deadwood=3))
    d = length_difference(b, a, "hands_per_game")
    assert d.paired and d.estimate == pytest.approx(paired_mean_difference(
        [x.hands - y.hands for x, y in zip(b.rows, a.rows)]).estimate)
    other = length_difference(b, measure_length("rumino", 2, games=6, seed=5))
    assert not other.paired


def test_round_trip_and_riffles():
    m = measure_length("wiener", 2, games=2, seed=1)
    again = GameLength.from_json(json.loads(json.dumps(m.as_json())))
    assert again.rows == m.rows and again.figures()["minutes_per_game"] == m.figures()["minutes_per_game"]
    assert (riffles_for(52), riffles_for(106), riffles_for(110)) == (7, 9, 9)


def test_bad_input_is_refused():
    with pytest.raises(RuleConfigError, match="2 to 2 players"):
        measure_length("gin", 3)
    with pytest.raises(RuleConfigError, match="at least 1"):
        measure_length("gin", 2, games=0)
    with pytest.raises(RuleConfigError, match="the pace's turn"):
        TablePace(turn=-1)
    with pytest.raises(RuleConfigError, match="figure is"):
        length_difference(measure_length("gin", games=2), measure_length("gin", games=2), "luck")


def test_the_books_results_file_replays_its_first_games():
    data = json.loads(BOOK_DATA.read_text(encoding="utf-8"))
    assert data["run"]["pace"] == PACE.as_json()
    for key, by_n in data["lengths"].items():
        for n, stored in by_n.items():
            first = 1 if key == "robber" else 2
            m = measure_length(key, int(n), games=first, seed=stored["seed"])
            assert [r.as_row() for r in m.rows] == stored["rows"][:first], (key, n)
            assert len(stored["rows"]) == stored["games"]
            figures = GameLength.from_json(stored).figures()
            assert figures["minutes_per_game"].as_json() == stored["figures"]["minutes_per_game"]
