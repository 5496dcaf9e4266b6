"""The house-rule atlas (issue 36, item 5): its file's shape, differences replayed from the seed, a resumed
run equal to an uninterrupted one, and the values it chooses for every knob of every game."""

from __future__ import annotations

import json

import pytest

from rumino.engine.knobs import knob_refusal, knob_table
from rumino.errors import RuleConfigError
from rumino.tournament.atlas import (FIGURES, ROW, AtlasFileError, differences, figures, play_deal, plan,
                                     read_atlas, run_atlas, value_key, values_for)
from rumino.variants import find_variant, playable_variants

KNOBS = {"gin": {"wall_knock": None, "knock_max_deadwood": [0, 20]}}


def _figures_only(data: dict) -> dict:
    """The atlas without what a run's timing writes (CPU seconds, the command)."""
    text = json.dumps(data["games"], sort_keys=True)
    out = json.loads(text)
    for game in out.values():
        (game.get("default") or {}).pop("cpu_seconds", None)
        for knob in game["knobs"].values():
            for value in (knob.get("values") or {}).values():
                value.pop("cpu_seconds", None)
    return out


def test_the_file_has_the_issue_shape(tmp_path):
    out = tmp_path / "atlas.json"
    data = run_atlas(games=["gin"], knobs=KNOBS, deals=3, seed=5, out=out)
    assert json.loads(out.read_text()) == json.loads(json.dumps(data))
    assert data["settings"]["deals"] == 3 and data["settings"]["seed"] == 5
    assert data["settings"]["baseline"]["gin"] == "greedy" and data["settings"]["against"] == "random"
    knobs = data["games"]["gin"]["knobs"]
    assert set(knobs) == {"wall_knock", "knock_max_deadwood"}
    assert set(knobs["knock_max_deadwood"]["values"]) == {"0", "20"}
    assert set(knobs["wall_knock"]["values"]) == {"True"}
    for knob in knobs.values():
        assert knob["label"] and knob["section"].startswith("§")
        for value in knob["values"].values():
            assert value["deals"] == 3 and len(value["rows"]) == 3 and all(len(r) == len(ROW) for r in value["rows"])
            assert set(value["differences"]) == set(FIGURES) == set(value["figures"])
            assert value["same_play"] == (value["rows"] == data["games"]["gin"]["default"]["rows"])
            for d in value["differences"].values():
                lo, hi = d["ci95"]
                assert lo <= d["estimate"] <= hi and isinstance(d["shown"], bool) and d["paired"]
    default = data["games"]["gin"]["default"]
    assert default["deals"] == 3 and set(default["figures"]) == set(FIGURES)


def test_a_difference_replays_from_the_seed():
    """The first deals of a value and of the default, played again alone, give the stored rows and the
    same differences."""
    data = run_atlas(games=["gin"], knobs={"gin": {"knock_max_deadwood": [0]}}, deals=3, seed=2)
    gin = find_variant("gin")
    stored = data["games"]["gin"]["knobs"]["knock_max_deadwood"]["values"]["0"]
    rows = [play_deal("gin", gin.with_rules(knock_max_deadwood=0), "greedy", 2, i) for i in range(3)]
    base = [play_deal("gin", gin.rules, "greedy", 2, i) for i in range(3)]
    assert rows == stored["rows"] and base == data["games"]["gin"]["default"]["rows"]
    assert differences(rows, base, 2) == stored["differences"]
    assert figures(rows, 2) == stored["figures"]


def test_an_interrupted_run_resumes_to_the_same_figures(tmp_path):
    whole = run_atlas(games=["gin"], knobs=KNOBS, deals=2, seed=3)
    out = tmp_path / "atlas.json"
    calls = []

    def stop_after_two(done, total):
        calls.append(done)
        if len(calls) == 2:  # the default and one value are in the file
            raise KeyboardInterrupt

    with pytest.raises(KeyboardInterrupt):
        run_atlas(games=["gin"], knobs=KNOBS, deals=2, seed=3, out=out, progress=stop_after_two)
    part = json.loads(out.read_text())
    measured = [v for k in part["games"]["gin"]["knobs"].values() for v in k["values"].values() if "rows" in v]
    assert part["games"]["gin"]["default"] is not None and len(measured) == 1
    played = []
    resumed = run_atlas(games=["gin"], knobs=KNOBS, deals=2, seed=3, out=out,
                        progress=lambda done, total: played.append(total))
    assert played and set(played) == {2}  # only the two values missing were played
    assert _figures_only(resumed) == _figures_only(whole) == _figures_only(json.loads(out.read_text()))


def test_a_file_of_other_settings_or_another_command_is_refused(tmp_path):
    out = tmp_path / "atlas.json"
    run_atlas(games=["gin"], knobs={"gin": {"wall_knock": None}}, deals=2, seed=1, out=out)
    before = out.read_text()
    with pytest.raises(AtlasFileError, match="2 deals"):
        run_atlas(games=["gin"], knobs={"gin": {"wall_knock": None}}, deals=3, seed=1, out=out)
    with pytest.raises(AtlasFileError, match="seed 1"):
        read_atlas(out, 2, 9)
    assert out.read_text() == before
    foreign = tmp_path / "ladder.json"
    foreign.write_text('{"deals": 2, "seed": 1, "games": {}}')
    with pytest.raises(AtlasFileError, match="not a results file of rumino atlas"):
        read_atlas(foreign, 2, 1)
    foreign.write_text("not json")
    with pytest.raises(AtlasFileError, match="cannot be read"):
        read_atlas(foreign, 2, 1)
    with pytest.raises(RuleConfigError, match="at least 2 deals"):
        run_atlas(games=["gin"], deals=1)


@pytest.mark.parametrize("key", list(playable_variants()))
def test_every_knob_gets_values_in_its_range_and_few_are_skipped(key):
    v = find_variant(key)
    meta = {r["name"]: r for r in knob_table(v.rules_class)}
    todo = plan([key])[key]
    assert set(todo) == set(meta)
    skipped = [name for name, values in todo.items() if isinstance(values, dict)]
    assert len(skipped) * 10 <= len(todo), skipped  # at most one knob in ten
    for name in skipped:  # only a knob whose rules allow one value
        assert meta[name]["choices"] is not None and len(meta[name]["choices"]) == 1
    field_meta = {f: m for f, m in ((r["name"], r) for r in knob_table(v.rules_class))}
    import dataclasses

    fields = {f.name: f.metadata for f in dataclasses.fields(v.rules_class)}
    for name, values in todo.items():
        if isinstance(values, dict):
            continue
        assert values and field_meta[name]["default"] not in [x for x in values if type(x) is type(
            field_meta[name]["default"])]
        assert len({value_key(x) for x in values}) == len(values)
        for x in values:
            assert knob_refusal(fields[name], x) is None, (name, x)


def test_values_for_a_numeric_knob():
    gin = {r["name"]: r for r in knob_table(find_variant("gin").rules_class)}
    assert values_for(gin["game_to"]) == [1, 50, 200]
    assert values_for(gin["box_bonus"]) == [0, 12, 50]
    rumino = {r["name"]: r for r in knob_table(find_variant("rumino").rules_class)}
    assert values_for(rumino["knock_undercut_penalty"]) == [10, 25]  # a default of 0
    assert values_for(rumino["n_jokers"]) == [0, 2, 8]


def test_the_same_difference_on_every_deal_is_shown_only_on_enough_deals():
    """Starting Rummoli with 9 chips ends every game a hand sooner: four deals alike are not yet a test
    (the sign test's p = 1/8), six are (1/32)."""
    small = run_atlas(games=["rummoli"], knobs={"rummoli": {"initial_chips": [9]}}, deals=4, seed=1)
    d = small["games"]["rummoli"]["knobs"]["initial_chips"]["values"]["9"]["differences"]["hands_a_game"]
    assert d["ci95"][0] == d["ci95"][1] == d["estimate"] == -1 and d["p_value"] == 0.125 and not d["shown"]
    more = run_atlas(games=["rummoli"], knobs={"rummoli": {"initial_chips": [9]}}, deals=6, seed=1)
    d = more["games"]["rummoli"]["knobs"]["initial_chips"]["values"]["9"]["differences"]["hands_a_game"]
    assert d["estimate"] == -1 and d["p_value"] == 1 / 32 and d["shown"]


def test_a_resumed_file_reads_its_figures_again_from_the_rows(tmp_path):
    out = tmp_path / "atlas.json"
    first = run_atlas(games=["gin"], knobs={"gin": {"wall_knock": None}}, deals=2, seed=1, out=out)
    data = json.loads(out.read_text())
    data["games"]["gin"]["knobs"]["wall_knock"]["values"]["True"]["differences"]["hands_a_game"]["estimate"] = 99
    out.write_text(json.dumps(data))
    again = run_atlas(games=["gin"], knobs={"gin": {"wall_knock": None}}, deals=2, seed=1, out=out)
    assert _figures_only(again) == _figures_only(first)


def test_a_rule_under_which_a_game_never_ends_is_skipped_with_its_deal(tmp_path, monkeypatch):
    """Knock Rummy with a knock limit of 0 and the discards reshuffled: deal 32 of seed 1 goes on past the
    engine's 2,000,000 moves (a minute); here the engine's guard is made to trip on that rule at once."""
    from rumino.tournament import atlas

    real = atlas.play_counted

    def guarded(game, players):
        if game.rules.knock_max_deadwood == 0:
            raise RuntimeError("a game did not end within 2,000,000 actions.")
        return real(game, players)

    monkeypatch.setattr(atlas, "play_counted", guarded)
    out = tmp_path / "atlas.json"
    data = run_atlas(games=["knock-rummy"], knobs={"knock-rummy": {"knock_max_deadwood": [0, 10]}}, deals=2,
                     seed=1, out=out)
    values = data["games"]["knock-rummy"]["knobs"]["knock_max_deadwood"]["values"]
    assert values["0"]["skipped"] == ("a game of the greedy bot under it did not end: deal 0 of seed 1 went past "
                                      "2,000,000 actions, so nothing is measured")
    assert "differences" in values["10"]
    monkeypatch.setattr(atlas, "play_counted", real)
    again = run_atlas(games=["knock-rummy"], knobs={"knock-rummy": {"knock_max_deadwood": [0, 10]}}, deals=2,
                      seed=1, out=out, progress=lambda d, t: pytest.fail("nothing is left to play"))
    assert again["games"]["knock-rummy"]["knobs"]["knock_max_deadwood"]["values"]["0"] == values["0"]
