"""``rumino ladder``: every game's ladder in a round robin, the games ranked, the results file resumed."""

from __future__ import annotations

import json
import math

import pytest

from rumino.cli import main
from rumino.odds.optimal import TableMissingError
from rumino.tournament import ladder as ladder_module
from rumino.tournament.ladder import LADDERS, ladder_players, ranking, run_ladder
from rumino.players import make_player
from rumino.errors import RuleConfigError
from rumino.variants import VARIANTS, find_variant


def test_every_game_has_a_ladder_of_players_that_play_it_weakest_first():
    assert set(LADDERS) == set(VARIANTS)
    for key, specs in LADDERS.items():
        assert specs[0] == "random" and len(set(specs)) == len(specs)
        game = find_variant(key).game
        for spec in specs:
            if not spec.startswith("solitaire"):
                assert make_player(spec, seed=0).fits(game), (key, spec)


def test_the_solitaire_bot_is_left_out_with_its_reason_when_its_tables_are_missing(monkeypatch):
    import rumino.players as players

    real = players.make_player

    def missing(spec, **kw):
        if spec.startswith("solitaire"):
            raise TableMissingError("no table")
        return real(spec, **kw)

    monkeypatch.setattr(players, "make_player", missing)
    specs, left_out = ladder_players("rumino")
    assert "solitaire:knock" not in specs and "rumino optimal build" in left_out["solitaire:knock"]
    assert specs[:2] == ["random", "greedy"] and "search:90" in specs


def test_a_ladder_writes_its_file_ranks_the_games_and_resumes(tmp_path, monkeypatch):
    # Wiener and Rummoli: the two cheapest ladders (2 and 6 CPU-s at 2 deals; Robber's took 42)
    out = tmp_path / "ladder.json"
    data = run_ladder(deals=2, seed=3, variants=["wiener", "rummoli"], out=out)
    saved = json.loads(out.read_text())
    assert saved == json.loads(json.dumps(data))
    assert list(saved["games"]) == ["wiener", "rummoli"]
    for game in saved["games"].values():
        assert game["tournament"]["deals"] == 2 and game["cpu_seconds"] > 0
    measures = [ladder_module._skill_measure(row) for row in saved["ranking"]]
    assert measures == sorted(measures) and {row["game"] for row in saved["ranking"]} == {"wiener", "rummoli"}
    assert ranking(saved) == saved["ranking"]

    def no_more(*a, **k):
        raise AssertionError("a game already in the file was played again")

    monkeypatch.setattr(ladder_module, "tournament", no_more)
    again = run_ladder(deals=2, seed=3, variants=["wiener", "rummoli"], out=out)
    assert again["games"] == saved["games"]
    # other deals or another seed: the file is refused, not written over, unless told to replace it
    for deals, seed in ((3, 3), (2, 4)):
        with pytest.raises(ladder_module.ResultsFileError, match="--replace to start it afresh"):
            run_ladder(deals=deals, seed=seed, variants=["wiener"], out=out)
    assert json.loads(out.read_text()) == saved
    with pytest.raises(AssertionError, match="played again"):  # replaced: its games do not count
        run_ladder(deals=3, seed=3, variants=["wiener"], out=out, replace=True)


def test_bad_ladder_arguments_exit_2_with_one_line(capsys, tmp_path):
    for argv, words in ((["--variants", "robber,robber"], "twice"), (["--variants", "canasta"], "unknown variant"),
                        (["--games", "0"], "--games is 0"), (["--out", str(tmp_path)], "it is a folder; give a file"),
                        (["--workers", "0"], "--workers is 0")):
        assert main(["ladder", *argv, "--no-progress"]) == 2
        err = capsys.readouterr().err.strip()
        assert len(err.splitlines()) == 1 and words in err, err
    bad = tmp_path / "bad.json"
    bad.write_text("{not json")
    assert main(["ladder", "--variants", "robber", "--games", "1", "--out", str(bad), "--no-progress"]) == 2
    assert "cannot be read" in capsys.readouterr().err
    assert bad.read_text() == "{not json"  # nothing written over


def _game(best: str, spread: float, separated: list) -> dict:
    luck = {"best": best, "weakest": "random", "spread_elo": [spread, spread - 50, spread + 50],
            "against_best": {}, "separated": separated}
    return {"players": ["random", best], "tournament": {"luck": luck}}


def test_a_game_where_random_never_won_is_ranked_by_its_lower_bound_not_the_prior_set_spread():
    """Random lost all 100 hands to Gin's best: its fitted spread (1,914) only says the prior's pull;
    the 95% lower bound (Clopper–Pearson, 0.025 ** (1/100)) is what ranks and prints."""
    from rumino.cli.ladder import format_ranking
    from rumino.tournament.ratings import elo

    p_lo = 0.025 ** (1 / 100)
    bound = float(elo(math.log(p_lo / (1 - p_lo))))
    data = {"games": {"gin": _game("search:1000", 1914.0, [["search:1000", "random", bound],
                                                            ["greedy", "random", 400.0]]),
                      "knock-rummy": _game("search:300", 700.0, []),
                      "rummoli": _game("default", 60.0, [])}}
    rows = ranking(data)
    assert [r["game"] for r in rows] == ["rummoli", "gin", "knock-rummy"]
    assert rows[1]["spread_at_least"] == bound and rows[0]["spread_at_least"] is None
    assert 560 < bound < 580  # 400 log10(p/(1−p)) with p = 0.9638: about 570 Elo
    text = format_ranking({"ranking": rows})
    assert f"gin          at least {bound:.0f}" in text and "1914" not in text


def test_a_bound_from_a_few_hands_is_not_negative():
    """Four hands all won give a Clopper–Pearson bound below 0 Elo (0.025 ** (1/4) < 1/2): the ranking
    says at least 0."""
    data = {"games": {"robber": _game("greedy", 1222.0, [["greedy", "random", -72.1]])}}
    assert ranking(data)[0]["spread_at_least"] == 0.0


def test_every_house_rule_column_is_a_real_knob_with_its_default_among_its_values():
    from rumino.tournament.run import check_players

    for name, (key, knob_name, values, players) in ladder_module.HOUSE_RULE_COLUMNS.items():
        v = find_variant(key)
        assert getattr(v.rules, knob_name) in values, name
        for value in values:
            assert getattr(v.with_rules(**{knob_name: value}), knob_name) == value
        check_players(v, list(players), 2)  # raises if a player cannot play the game


def test_house_rule_columns_play_each_value_with_its_rules_write_the_file_and_resume(tmp_path, monkeypatch):
    monkeypatch.setattr(ladder_module, "HOUSE_RULE_COLUMNS",
                        {"knock-limit": ("knock-rummy", "knock_max_deadwood", (0, 10), ("random", "greedy"))})
    seen = []
    real = ladder_module.tournament

    def spy(variant, players, **kw):
        seen.append(kw["rules"].knock_max_deadwood)
        return real(variant, players, **kw)

    monkeypatch.setattr(ladder_module, "tournament", spy)
    out = tmp_path / "house.json"
    data = ladder_module.run_house_rules(deals=2, seed=4, out=out)
    assert seen == [0, 10]
    saved = json.loads(out.read_text())
    assert saved == json.loads(json.dumps(data))
    column = saved["columns"]["knock-limit"]
    assert column["knob"] == "knock_max_deadwood" and column["default"] == find_variant("knock-rummy").rules.knock_max_deadwood and list(column["values"]) == ["0", "10"]
    for played in column["values"].values():
        assert played["tournament"]["deals"] == 2 and len(played["hands"]["random|greedy"]["margins"]) == 2
    again = ladder_module.run_house_rules(deals=2, seed=4, out=out)
    assert seen == [0, 10] and again["columns"] == saved["columns"]  # resumed: nothing played again
    with pytest.raises(RuleConfigError, match="not a house-rule column"):
        ladder_module.run_house_rules(columns=["canasta"])


def test_bad_house_rule_arguments_exit_2_with_one_line(capsys):
    for argv, words in ((["--house-rules", "canasta"], "not a column"),
                        (["--house-rules", "romme-opening", "romme-opening"], "twice"),
                        (["--house-rules", "--variants", "gin"], "no --variants")):
        assert main(["ladder", *argv, "--no-progress"]) == 2
        err = capsys.readouterr().err.strip()
        assert len(err.splitlines()) == 1 and words in err, err


def test_the_ranking_carries_random_s_chance_and_the_deal_share_from_the_tournament():
    data = run_ladder(deals=3, seed=2, variants=["rummoli"])
    row, = data["ranking"]
    luck = data["games"]["rummoli"]["tournament"]["luck"]
    if luck["best"] == "random":  # then random has no chance *against* the best to report
        assert row["random_wins_a_hand"] is None
    else:
        assert row["random_wins_a_hand"] == luck["against_best"]["random"]["weaker_wins_a_hand"]
    assert row["deal_share"] == luck["against_best"][row["baseline"]]["deal_share"]
    assert len(row["deal_share"]) == 3
