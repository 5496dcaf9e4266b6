"""Tournaments: hands ranked the way each game counts, ratings checked against choix, duplicate
deals, the luck figures, identical results on any number of workers, and the command's refusals."""

from __future__ import annotations

import json
from fractions import Fraction
from math import comb

import numpy as np
import pytest

from rumino.cli import main
from rumino.engine.protocol import play
from rumino.players import make_player
from rumino.playing.seeding import new_table
from rumino.tournament import bradley_terry, games_for_match, plackett_luce, play_hand, rank_seats, tournament
from rumino.tournament.ratings import ALPHA, ranking_choices, wins_matrix
from rumino.tournament.run import _heads_up_chunk
from rumino.variants import playable_variants

VARIANTS = sorted(playable_variants())


def _bots(game_cls) -> list[str]:
    for spec in ("greedy", "default", "random"):
        if make_player(spec, seed=0).fits(game_cls):
            return [spec, spec]
    raise AssertionError(game_cls)


@pytest.mark.parametrize("key", VARIANTS)
def test_the_score_sense_of_every_game_agrees_with_its_winners(key):
    """HIGHER_SCORE_WINS is what makes a gain 'more is better': a finished game's winners hold the
    best scores read that way."""
    v = playable_variants()[key]
    for index in range(3):
        game, bots = new_table(key, _bots(v.game), seed=5, index=index)
        play(game, bots, checked=False)
        sense = 1 if v.game.HIGHER_SCORE_WINS else -1
        best = max(sense * s for s in game.scores)
        assert all(sense * game.scores[w] == best for w in game.result.winners), (key, game.scores, game.result)


@pytest.mark.parametrize("key", VARIANTS)
def test_a_hand_is_ranked_by_gain_and_the_deal_does_not_follow_the_seats(key):
    v = playable_variants()[key]
    bots = _bots(v.game)
    out = play_hand(key, bots, seed=3, index=1)
    assert len(out.gains) == 2 and sorted(s for g in out.ranking for s in g) == [0, 1]
    assert out.gains[out.ranking[0][0]] == max(out.gains)
    # the same deal again gives the same hand: nothing but (seed, index) decides the cards
    assert play_hand(key, bots, seed=3, index=1) == out


def test_rank_seats_breaks_a_tie_for_the_player_who_ended_the_hand():
    assert rank_seats((0, 0, -5), ended_by=2) == ((0, 1), (2,))
    assert rank_seats((0, 0, -5), ended_by=1) == ((1,), (0,), (2,))
    assert rank_seats((0, 0), ended_by=None) == ((0, 1),)


def test_identical_deterministic_players_make_every_hand_the_cards_alone():
    """Two copies of the same deterministic bot: whoever holds a deal's cards does exactly as
    well, so y2 = −y1 on every deal and the deal explains all of the variance."""
    rows = _heads_up_chunk(("gin", None, "greedy", "greedy", 4, 0, 12))
    y = np.array([(r[0], r[1]) for r in rows], dtype=float)
    assert (y[:, 0] == -y[:, 1]).all()
    assert np.abs(y).sum() > 0  # the test would prove nothing on all-zero hands


def test_bradley_terry_agrees_with_choix_and_with_the_observed_rate():
    choix = pytest.importorskip("choix")  # installed by the [test] extra (pyproject), so never skipped in CI
    results = [(0, 1, 1.0)] * 30 + [(0, 1, 0.0)] * 10 + [(1, 2, 0.5)] * 6 + [(2, 0, 1.0)] * 5 + [(1, 2, 1.0)] * 7
    ours = bradley_terry(3, results)
    data = []
    for i, j, s in results:  # choix reads (winner, loser); each hand twice so a tie is half a win each
        data += [(i, j), (i, j)] if s == 1 else [(j, i), (j, i)] if s == 0 else [(i, j), (j, i)]
    theirs = choix.opt_pairwise(3, data, alpha=2 * ALPHA)  # the doubled data takes the doubled prior
    assert np.allclose(ours, theirs, atol=1e-4)
    # two players: the fitted chance is the observed rate (up to the weak prior)
    theta = bradley_terry(2, [(0, 1, 1.0)] * 30 + [(0, 1, 0.0)] * 10)
    assert abs(1 / (1 + np.exp(theta[1] - theta[0])) - 0.75) < 1e-3
    assert wins_matrix(2, [(0, 1, 0.5), (1, 0, 1.0)]).tolist() == [[0.0, 0.5], [1.5, 0.0]]


def test_plackett_luce_agrees_with_choix():
    choix = pytest.importorskip("choix")
    choices = ([(0, [1, 2, 3])] * 9 + [(1, [0, 2, 3])] * 5 + [(2, [0, 1, 3])] * 3 + [(3, [0, 1, 2])] * 2
               + [(1, [2, 3])] * 4 + [(2, [1, 3])] * 3 + [(3, [1])] * 2 + [(1, [3])])
    assert np.allclose(plackett_luce(4, choices), choix.opt_top1(4, choices, alpha=ALPHA), atol=1e-3)
    assert ranking_choices([[3], [1], [0], [2]]) == [(3, [1, 0, 2]), (1, [0, 2]), (0, [2])]


def test_games_for_match_agrees_with_the_binomial_sum():
    for p in (Fraction(11, 20), Fraction(3, 5), Fraction(3, 4)):
        n = games_for_match(float(p))

        def win(k):  # P(more than half of k hands), exactly
            return sum(comb(k, w) * p ** w * (1 - p) ** (k - w) for w in range(k // 2 + 1, k + 1))

        assert win(n) >= Fraction(95, 100) and (n == 1 or win(n - 2) < Fraction(95, 100)), (p, n)
    assert games_for_match(0.5) is None and games_for_match(0.3) is None


def test_a_tournament_is_the_same_on_any_number_of_workers():
    one = tournament("wiener", ["greedy", "random", "threshold:2"], deals=30, seed=4, workers=1)
    two = tournament("wiener", ["greedy", "random", "threshold:2"], deals=30, seed=4, workers=2)
    assert json.dumps(one.as_json()) == json.dumps(two.as_json())
    j = one.as_json()
    assert j["luck"]["best"] in ("greedy", "threshold:2") and j["ratings_elo"]["random"][0] == 0.0
    # the ratings reproduce the pairs' observed rates where no pair is separated
    for (i, k), (seen, fitted) in one.model_check().items():
        if 0 < seen < 1:
            assert abs(seen - fitted) < 0.15, (i, k, seen, fitted)


def test_a_table_tournament_rotates_every_player_through_every_seat():
    t = tournament("rumino", ["greedy", "random", "threshold:2", "threshold:4"], deals=6, seed=2, table=4)
    assert len(t.rankings) == 4 and all(len(r) == 6 for r in t.rankings)
    for rotation in t.rankings:
        for ranking in rotation:
            assert sorted(p for g in ranking for p in g) == [0, 1, 2, 3]
    wins = sum(t.table_win_rate(i).value for i in range(4))
    assert abs(wins - 1) < 1e-9  # every hand's win is shared out once
    assert t.as_json()["model"] == "plackett-luce"


def test_separated_pairs_get_a_lower_bound():
    t = tournament("gin", ["greedy", "random"], deals=20, seed=1)
    assert t.win_rate(0, 1).value == 1.0
    (winner, loser, gap), = t.separated()
    assert (winner, loser) == ("greedy", "random")
    p_lo = 0.025 ** (1 / 40)  # 40 hands all won
    assert abs(gap - 400 / np.log(10) * np.log(p_lo / (1 - p_lo))) < 1e-9


def test_the_command_is_deterministic_and_prints_the_figures(capsys):
    argv = ["tournament", "--variant", "gin", "--players", "greedy,threshold:4", "--games", "20", "--seed", "1",
            "--no-progress", "--json"]
    assert main(argv) == 0
    first = capsys.readouterr().out
    assert main(argv) == 0
    assert capsys.readouterr().out == first
    data = json.loads(first)
    assert set(data["ratings_elo"]) == {"greedy", "threshold:4"}
    assert {"spread_elo", "against_best", "best"} <= set(data["luck"])
    assert main(argv[:-1]) == 0
    text = capsys.readouterr().out
    assert "ratings (Bradley–Terry" in text and "the deal explains" in text


@pytest.mark.parametrize("argv, words", [
    (["--players", "greedy,nobody"], "nobody"),
    (["--variant", "robber", "--players", "threshold:4,random"], "does not play"),
    (["--players", "greedy,random", "--table", "7"], "players"),
    (["--players", "greedy,random", "--table", "3"], "a table of 3"),
    (["--players", "greedy,greedy"], "given twice"),
    (["--players", "greedy,random", "--games", "0"], "--games"),
    (["--players", "greedy,random", "--games", "99999999999999"], "--games"),
    (["--players", "greedy,,random"], "empty"),
    (["--players", "human,greedy"], "human"),
    (["--players", "greedy,random", "--workers", "999"], "--workers"),
    (["--variant", "nothing", "--players", "greedy,random"], "unknown variant"),
])
def test_bad_input_exits_2_with_one_line(argv, words, capsys):
    assert main(["tournament", *argv, "--no-progress"]) == 2
    err = capsys.readouterr().err
    assert err.count("\n") == 1 and words in err, err


def test_share_difference_is_paired_on_the_deals_and_agrees_with_scipy():
    from scipy import stats as sps

    t = tournament("knock-rummy", ["greedy", "random", "threshold:3"], deals=20, seed=4)
    for i, j in ((0, 1), (0, 2), (2, 1)):
        c = t.share_difference(i, j)
        s, _ = t._pair(i, j)
        per_deal = s.sum(axis=1) - 1
        assert c.estimate == pytest.approx(t.win_rate(i, j).value - t.win_rate(j, i).value)
        if per_deal.std() > 0:
            lo, hi = sps.ttest_1samp(per_deal, 0).confidence_interval(0.95)
            assert c.ci95 == pytest.approx((max(-1, lo), min(1, hi)))
        better, worse = int((per_deal > 0).sum()), int((per_deal < 0).sum())
        if better + worse:
            assert c.p_value == pytest.approx(sps.binomtest(better, better + worse).pvalue)
        assert c.paired and c.n == 20
    out = t.as_json()["share_difference"]
    assert list(out) == ["greedy|random", "greedy|threshold:3", "random|threshold:3"]


def test_the_tournament_report_says_what_each_pair_shows():
    from rumino.cli.tournament import format_tournament

    t = tournament("gin", ["greedy", "random"], deals=8, seed=1)
    text = format_tournament(t.as_json())
    assert "greedy against random: shown: greedy wins more hands, by 100.0 points" in text
    assert "exact sign test, p = 0.008" in text      # 8 deals of 8 won twice: 2 / 2**8
