"""Strength matches and their file (rumino.tournament.strength, book/data/family_strength.json).

The file's figures are read again from the hands it keeps, and the first deals of every match are
played again and must give the same hands: a change to a game or a player that would move the book's
strength figures is caught here. The search players of the file are costly at full budget, so the
replays of the slower games are marked ``slow`` (one deal each; the quick ones run on every CI).
"""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from rumino.cli import main
from rumino.tournament.run import tournament
from rumino.tournament.strength import (Match, StrengthFileError, figures_from_hands, find_match, journal_path,
                                        match_from_json, match_settings, open_journal, play_match, read_matches,
                                        replay_deal, write_match)

FILE = Path(__file__).resolve().parents[2] / "book" / "data" / "family_strength.json"


def test_a_match_is_the_tournament_of_its_pair():
    """play_match plays the deals exactly as `rumino tournament` does: the same margins and scores."""
    m = play_match("rumino", "threshold:3", "greedy", deals=6, seed=4)
    t = tournament("rumino", ["threshold:3", "greedy"], deals=6, seed=4)
    assert m.margins == t.margins[(0, 1)].tolist() and m.scores == t.scores[(0, 1)].tolist()
    w = t.win_rate(0, 1)
    assert m.share == pytest.approx([w.value, w.lo, w.hi])
    assert m.points == pytest.approx(list(t.mean_margin(0, 1)), abs=1e-3)  # the same normal interval (z 1.96)
    assert m.decisions > 0 and m.seconds_per_decision >= 0 and m.hands == 12


def test_figures_count_a_tie_half_and_read_points_by_deal():
    share, points, ties = figures_from_hands([[3, -1], [0, 0]], [[1, 0], [0.5, 0.5]])
    assert share[0] == 0.5 and ties == 2
    assert points[0] == pytest.approx(0.5)
    assert points[1] < 0.5 < points[2]


def test_the_file_round_trips_and_a_match_replaces_its_twin(tmp_path):
    path = tmp_path / "strength.json"
    assert read_matches(path) == []
    a = play_match("gin", "greedy", "random", deals=2, seed=1)
    b = play_match("knock-rummy", "greedy", "random", deals=2, seed=1)
    write_match(path, a)
    write_match(path, b)
    again = play_match("gin", "greedy", "random", deals=2, seed=1)
    matches = write_match(path, again)
    assert [m.game for m in matches] == ["gin", "knock-rummy"] and read_matches(path) == [again, b]
    data = json.loads(path.read_text())
    assert isinstance(data, list) and {"game", "a", "b", "deals", "hands", "share", "points",
                                       "seconds_per_decision", "seed", "command"} <= set(data[0])
    assert find_match(read_matches(path), "Gin Rummy", b="random") == again


def test_a_bad_file_is_refused_with_its_reason(tmp_path):
    path = tmp_path / "strength.json"
    path.write_text("{not json")
    with pytest.raises(StrengthFileError, match="is not JSON"):
        read_matches(path)
    path.write_text('{"game": "gin"}')
    with pytest.raises(StrengthFileError, match="not a list of matches"):
        read_matches(path)
    path.write_text('[{"game": "gin", "a": "best"}]')
    with pytest.raises(StrengthFileError, match="lacks b, deals"):
        read_matches(path)
    m = play_match("gin", "greedy", "random", deals=2, seed=1).as_json()
    m["deals"] = 3
    with pytest.raises(StrengthFileError, match="keeps 2 deals' hands but says 3 deals"):
        match_from_json(m)


def test_the_command_writes_the_match_and_refuses_bad_input(tmp_path, capsys):
    out = tmp_path / "s.json"
    assert main(["strength", "--variant", "knock-rummy", "--a", "greedy", "--b", "random", "--deals", "2",
                 "--seed", "3", "--out", str(out), "--no-progress"]) == 0
    assert "greedy against random, 2 deals" in capsys.readouterr().out
    assert read_matches(out)[0].command.startswith("rumino strength --variant knock-rummy --a greedy --b random")
    assert main(["strength", "--variant", "rumino", "--a", "best", "--b", "openspiel-simple", "--out", str(out)]) == 2
    assert "OpenSpiel's bots play Gin only" in capsys.readouterr().err
    assert main(["strength", "--variant", "gin", "--a", "clever", "--b", "greedy", "--out", str(out)]) == 2
    assert "unknown player 'clever'" in capsys.readouterr().err
    assert main(["strength", "--variant", "gin", "--a", "greedy", "--b", "random", "--out", str(tmp_path)]) == 2
    assert capsys.readouterr().err.strip().endswith("it is a folder; give a file (such as "
                                                    f"{tmp_path / 'results.json'}).")
    assert main(["strength", "--variant", "gin", "--a", "greedy", "--b", "random", "--out",
                 str(tmp_path / "no" / "s.json")]) == 2
    assert "the folder" in capsys.readouterr().err and not (tmp_path / "no").exists()
    assert main(["strength", "--list", "--out", str(tmp_path)]) == 2  # a folder is no strength file to list
    assert capsys.readouterr().err.strip().endswith("is a folder or a device, not a strength file (a JSON list of "
                                                    "matches).")
    assert main(["strength", "--list", "--out", ""]) == 2
    assert capsys.readouterr().err.strip() == "rumino strength: --out is '': give a file name."
    assert len(read_matches(out)) == 1  # nothing written by a refusal


# --------------------------------------------------------------------------- the book's file

MATCHES = read_matches(FILE) if FILE.exists() else []
QUICK_DEAL = 5.0
"""CPU seconds a deal took to play (the match's own measure) under which its first deal is replayed in every
run; a slower match's (Robber's search) only in the slow run. Every other match's first deal replays in under
3 s here."""


def _quick(m: Match) -> bool:
    return m.cpu_seconds / m.deals < QUICK_DEAL


def test_the_book_file_figures_are_its_hands():
    assert MATCHES, f"{FILE} holds no match"
    for m in MATCHES:
        share, points, ties = figures_from_hands(m.margins, m.scores)
        assert m.share == pytest.approx(share) and m.points == pytest.approx(points) and m.ties == ties, m.describe()
        assert m.hands == 2 * m.deals and m.seconds_per_decision > 0
        if "openspiel" in m.b:
            assert m.game == "gin"


@pytest.mark.parametrize("m", [pytest.param(m, id=f"{m.game}-{m.a}-{m.b}",
                                            marks=() if _quick(m) else pytest.mark.slow)
                               for m in MATCHES])
def test_the_first_deal_of_each_book_match_replays(m: Match):
    if "openspiel" in m.b:
        pytest.importorskip("pyspiel")
    margins, scores = replay_deal(m, 0)
    assert margins == m.margins[0] and scores == m.scores[0], m.describe()


# --------------------------------------------------------------------------- a match cut short resumes

STRENGTH = ["strength", "--variant", "gin", "--a", "greedy", "--b", "random", "--deals", "12", "--seed", "3",
            "--no-progress"]
"""A small match: 12 deals of Gin, greedy against random, in chunks of 5 (3 chunks)."""


def _same_figures(m: Match, n: Match) -> bool:
    """The figures of two matches (not their times, which are measured)."""
    return (m.margins, m.scores, m.share, m.points, m.ties, m.decisions, m.hands) == \
        (n.margins, n.scores, n.share, n.points, n.ties, n.decisions, n.hands)


@pytest.fixture(scope="module")
def whole() -> Match:
    """The small match played without a stop."""
    return play_match("gin", "greedy", "random", deals=12, seed=3)


def _journal_of(out: Path) -> Path:
    return journal_path(out, "gin", "greedy", "random", 3, 12)


def _interrupted_run(out: Path, monkeypatch, chunks: int, argv: list[str] = STRENGTH) -> None:
    """``rumino strength`` stopped by a Ctrl-C after ``chunks`` chunks of deals (exit 130)."""
    from rumino.tournament import strength

    real, calls = strength._play_chunk, []

    def stopping(job):
        if len(calls) == chunks:
            raise KeyboardInterrupt
        calls.append(job)
        return real(job)

    monkeypatch.setattr(strength, "_play_chunk", stopping)
    assert main(argv + ["--out", str(out)]) == 130
    monkeypatch.setattr(strength, "_play_chunk", real)


def test_an_interrupted_match_keeps_its_deals_and_resumes_to_the_same_figures(tmp_path, monkeypatch, capsys, whole):
    out = tmp_path / "s.json"
    _interrupted_run(out, monkeypatch, chunks=2)
    assert capsys.readouterr().err == "rumino strength: interrupted\n"
    assert not out.exists()  # the match is not in the file until it is complete
    journal = open_journal(_journal_of(out), match_settings("gin", "greedy", "random", deals=12, seed=3))
    assert sorted(journal.kept) == list(range(10)) and not journal.torn
    assert main(STRENGTH + ["--out", str(out)]) == 0
    err = capsys.readouterr().err
    assert f"resuming: 10 of 12 deals already played (kept in {_journal_of(out)})" in err
    assert "_" not in err.replace(str(tmp_path), "")  # no Python names on the screen
    (m,) = read_matches(out)
    assert _same_figures(m, whole) and m.deals == 12
    assert not _journal_of(out).exists() and not _journal_of(out).parent.exists()  # removed once the match is in


def test_a_resumed_match_plays_only_the_deals_missing_on_any_number_of_workers(tmp_path, monkeypatch, whole):
    from rumino.tournament import strength

    out = tmp_path / "s.json"
    _interrupted_run(out, monkeypatch, chunks=1)
    settings = match_settings("gin", "greedy", "random", deals=12, seed=3)
    journal = open_journal(_journal_of(out), settings)
    assert sorted(journal.kept) == list(range(5))
    played = []
    real = strength._play_chunk
    monkeypatch.setattr(strength, "_play_chunk", lambda job: played.extend(job[3]) or real(job))
    m = play_match("gin", "greedy", "random", deals=12, seed=3, journal=journal.begin())
    journal.close()
    assert played == list(range(5, 12)) and _same_figures(m, whole)
    assert sorted(open_journal(_journal_of(out), settings).kept) == list(range(12))
    monkeypatch.setattr(strength, "_play_chunk", real)
    (tmp_path / "two").mkdir()
    out = tmp_path / "two" / "s.json"
    _interrupted_run(out, monkeypatch, chunks=1)
    journal = open_journal(_journal_of(out), settings).begin()  # 7 deals left: two chunks for two workers
    m = play_match("gin", "greedy", "random", deals=12, seed=3, workers=2, journal=journal)
    journal.close()
    assert _same_figures(m, whole)


def test_a_journal_of_other_settings_is_refused_and_left_as_it_is(tmp_path, monkeypatch, capsys):
    out = tmp_path / "s.json"
    _interrupted_run(out, monkeypatch, chunks=1)
    capsys.readouterr()
    path = _journal_of(out)
    lines = path.read_text().splitlines(keepends=True)
    head = json.loads(lines[0])

    def refused_with(text: str) -> str:
        path.write_text(text)
        assert main(STRENGTH + ["--out", str(out)]) == 2
        out_, err = capsys.readouterr()
        assert out_ == "" and len(err.strip().splitlines()) == 1 and "Traceback" not in err
        assert path.read_text() == text and not out.exists()  # nothing written, nothing played
        assert err.startswith(f"rumino strength: {path}") and "--restart discards it" in err
        return err

    other = json.loads(json.dumps(head))
    other["settings"]["house_rules"]["knock_max_deadwood"] = 8
    err = refused_with(json.dumps(other) + "\n" + "".join(lines[1:]))
    assert "it was played with other house rules (knock limit: 8 then, knock limit: 10 now)" in err
    other = json.loads(json.dumps(head))
    other["settings"]["players"]["a"]["max_rebuys"] = 3
    assert "played by another version of greedy" in refused_with(json.dumps(other) + "\n" + "".join(lines[1:]))
    other = json.loads(json.dumps(head))
    other["settings"]["seed"] = 4
    assert "the deals of another match (Gin Rummy, greedy against random, 12 deals, seed 4)" in \
        refused_with(json.dumps(other) + "\n" + "".join(lines[1:]))
    assert "is not the deals of a match in progress" in refused_with("my notes\n")
    damaged = lines[:2] + ["{not a deal}\n"] + lines[2:]
    assert "line 3 is damaged (it is not JSON)" in refused_with("".join(damaged))
    forged = json.loads(lines[1])
    forged["margins"] = [m + 1 for m in forged["margins"]]
    assert "its deal 1, played again, gives other hands than it keeps" in \
        refused_with("".join([lines[0], json.dumps(forged) + "\n"] + lines[2:]))
    # --restart discards it and plays the match from its first deal
    assert main(STRENGTH + ["--out", str(out), "--restart"]) == 0
    assert "resuming" not in capsys.readouterr().err and read_matches(out)[0].deals == 12 and not path.exists()


def test_a_torn_last_line_is_dropped_and_its_deal_played_again(tmp_path, monkeypatch, capsys, whole):
    out = tmp_path / "s.json"
    _interrupted_run(out, monkeypatch, chunks=2)
    path = _journal_of(out)
    lines = path.read_text().splitlines(keepends=True)
    path.write_text("".join(lines[:-1]) + lines[-1][:17])  # the last deal's line cut short by a kill
    journal = open_journal(path, match_settings("gin", "greedy", "random", deals=12, seed=3))
    assert journal.torn and sorted(journal.kept) == list(range(9))
    capsys.readouterr()
    assert main(STRENGTH + ["--out", str(out)]) == 0
    assert "resuming: 9 of 12 deals already played" in capsys.readouterr().err
    assert _same_figures(read_matches(out)[0], whole)


def test_a_journal_that_cannot_be_kept_is_refused_before_any_play(tmp_path, capsys, monkeypatch):
    from rumino.tournament import strength

    out = tmp_path / "s.json"
    Path(str(out) + ".unfinished").write_text("not a folder")
    monkeypatch.setattr(strength, "_play_chunk", lambda job: pytest.fail("a deal was played"))
    assert main(STRENGTH + ["--out", str(out)]) == 2
    out_, err = capsys.readouterr()
    assert out_ == "" and err.strip() == (f"rumino strength: the deals played cannot be kept in {out}.unfinished "
                                          f"(file exists): give another --out.")
    assert not out.exists() and Path(str(out) + ".unfinished").read_text() == "not a folder"


def test_the_list_names_an_unfinished_match_and_how_to_finish_it(tmp_path, monkeypatch, capsys):
    out = tmp_path / "s.json"
    _interrupted_run(out, monkeypatch, chunks=1)
    capsys.readouterr()
    assert main(["strength", "--list", "--out", str(out)]) == 0
    listed = capsys.readouterr().out
    assert ("unfinished: Gin Rummy, greedy against random, 5 of 12 deals played (seed 3); to finish it: rumino "
            "strength --variant gin --a greedy --b random --deals 12 --seed 3 --workers 1 --out ") in listed


def test_a_match_against_openspiel_resumes_the_same_way(tmp_path, monkeypatch, capsys):
    pytest.importorskip("pyspiel")
    from rumino.tournament.strength import play_openspiel_match

    whole_os = play_openspiel_match("greedy", "simple", "openspiel-simple", deals=7, seed=5)
    out = tmp_path / "s.json"
    argv = ["strength", "--variant", "gin", "--a", "greedy", "--b", "openspiel-simple", "--deals", "7", "--seed", "5",
            "--no-progress"]
    _interrupted_run(out, monkeypatch, chunks=1, argv=argv)
    path = journal_path(out, "gin", "greedy", "openspiel-simple", 5, 7)
    head = json.loads(path.read_text().splitlines()[0])
    assert head["settings"]["players"]["b"]["bot"] == "simple" and "OpenSpiel" in head["settings"]["rules"]
    capsys.readouterr()
    assert main(argv + ["--out", str(out)]) == 0
    assert "resuming: 5 of 7 deals already played" in capsys.readouterr().err
    (m,) = read_matches(out)
    assert _same_figures(m, whole_os) and m.b == "openspiel-simple" and m.rules == whole_os.rules
    assert not path.exists()
