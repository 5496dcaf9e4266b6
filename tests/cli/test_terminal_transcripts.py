"""``rumino play`` typed at from start to end, for every game: the transcripts in docs/transcripts/ are
regenerated and compared (so they stay true), and their typed lines are replayed through the command
line (``rumino play`` reading a pipe) to the same end."""

from __future__ import annotations

import io
import pathlib
import re
import sys

import pytest

sys.path.insert(0, str(pathlib.Path(__file__).resolve().parent.parent))

import terminal_transcripts as T  # noqa: E402

from rumino.cli import main  # noqa: E402
from rumino.errors import IllegalActionError  # noqa: E402
from rumino.cli.play import game_help  # noqa: E402

ENDS = {"rumino": "takes the pool", "gin": "first to 50 points", "knock": "the game is to 60",
        "wiener": "takes the pot", "romme": "with the best total", "robber": "having gone out",
        "rummoli": "final chips:", "oklahoma": "first to 30 points"}


@pytest.mark.parametrize("case", T.CASES, ids=[c.name for c in T.CASES])
def test_the_transcript_is_what_rumino_play_prints(case):
    text = T.transcript(case)
    assert case.path.read_text(encoding="utf-8") == text, "python tests/terminal_transcripts.py --write"
    assert ENDS[case.name] in text and "End of input" not in text
    assert game_help(case.variant) in text  # '?' printed this game's own help
    refusals = [line for line in text.splitlines() if line.startswith("  ") and
                ("cannot" in line or "not understood" in line or "you do not hold" in line or "is not a" in line
                 or line.startswith(("  It is the start of your turn: ", "  You have already drawn this turn: ")))]
    assert refusals, "each transcript shows an illegal line refused"


@pytest.mark.parametrize("case", T.CASES, ids=[c.name for c in T.CASES])
def test_the_typed_lines_replay_through_the_command_to_the_end(case, monkeypatch, capsys):
    text = case.path.read_text(encoding="utf-8")
    monkeypatch.setattr(sys, "stdin", io.StringIO("\n".join(T.typed_lines(text)) + "\n"))
    assert main(case.argv) == 0
    out = capsys.readouterr().out
    assert out == text.split("\n", 2)[2]  # the same session, without the transcript's two header lines


def test_a_refused_line_leaves_the_game_as_it_was():
    case = next(c for c in T.CASES if c.name == "robber")
    out = io.StringIO()
    from rumino.cli.play import make_session

    session, narrator, seed = make_session(list(case.players), seed=case.seed, stdin=io.StringIO(""), stdout=out,
                                           variant="robber")
    g = session.game
    v = g.view(g.to_act)
    before = (g.snapshot() if hasattr(g, "snapshot") else None, [list(h) for h in g.hands], g.table)
    for line in ("lay 7c on 9", "new As Ks Qs", "move Zz from 0 to new", "place 2c 2c 2c"):
        with pytest.raises(IllegalActionError) as err:
            a = session.translate(line, v)
            g.check(a)
        assert "rules §" in str(err.value) or "type v" in str(err.value) or "not a card" in str(err.value)
    assert (g.snapshot() if hasattr(g, "snapshot") else None, [list(h) for h in g.hands], g.table) == before


@pytest.mark.parametrize("variant, seeds", [("rumino", range(4)), ("gin", range(3)), ("knock-rummy", range(4)),
                                            ("wiener", range(4)), ("romme", range(4)), ("robber", (1, 2)),
                                            ("rummoli", range(4))])
def test_bot_games_end_with_the_games_own_last_lines(variant, seeds):
    """Whoever wins, by whatever ending, the last lines name him and the game's own units; no float."""
    from rumino.cli.play import play_terminal
    from rumino.cli.simulate import default_players, playable

    specs = default_players(playable(variant)).split(",")
    for seed in seeds:
        out = io.StringIO()
        assert play_terminal(specs, seed=seed, stdin=io.StringIO(""), stdout=out, variant=variant) == 0
        lines = out.getvalue().splitlines()
        end = "\n".join(lines[-3:])
        assert re.search(r"\bwins?\b", end), end
        assert "game to" not in end and "wins rotations" not in end
        assert not re.search(r"(?<![§\d])\d+\.\d", end), end  # 40, never 40.00 (a rules section such as §1.5 is no float)


def test_robber_moves_typed_at_the_prompt_make_the_whole_table():
    from rumino.variants.robber.words import RobberNarrator
    from rumino.variants.robber import ROBBER, RobberGame

    g = RobberGame.new(ROBBER, 2, seed=3)
    g.set_position(hands={g.turn: "7c Kd 9c 9c JK"}, table=["5c 6c 7c 8c", "9s 9d 9h"], opened={g.turn: True})
    names = [f"P{p} ({'you' if p == g.turn else 'greedy'})" for p in range(2)]
    narrator = RobberNarrator(g, names, [g.turn])
    v = g.view(g.turn)
    for line, table in [("lay 9c on 1", "place 5c 6c 7c 8c | 9s 9c 9d 9h"), ("l 9c 1", "place 5c 6c 7c 8c | 9s 9c 9d 9h"),
                        ("lay JK on 0", "place 5c 6c 7c 8c JK(9c) | 9s 9d 9h"),
                        ("lay JK(4c) on 0", "place JK(4c) 5c 6c 7c 8c | 9s 9d 9h"),
                        ("move 8c from 0 to new; lay 7c 9c on new", "place 5c 6c 7c | 9s 9d 9h | 7c 8c 9c"),
                        ("m 8c 0 new; l 7c 9c 2", "place 5c 6c 7c | 9s 9d 9h | 7c 8c 9c")]:
        action = narrator.translate(line, v)
        g.check(action)
        assert str(action) == table, line
    for line, words in [("move 9s from 1 to 0", "rules §4.3 (iii)"), ("move 8c from 1 to 0", "holds no 8c"),
                        ("lay 7c on 5", "numbered 0 to 1"), ("new 7c 8c 9c", "you do not hold 8♣"),
                        ("lay 7c on new", "no new meld yet")]:
        with pytest.raises(IllegalActionError, match=re.escape(words)):
            g.check(narrator.translate(line, v))
    action = narrator.translate("move 8c from 0 to new; lay 7c 9c on new", v)
    seat = g.turn
    narrator.before(g, seat, action)
    g.apply(action)
    assert narrator.after(g, seat, action)[0] == (
        f"P{seat} (you) places 7♣ 9♣ (3 cards left): 5♣ 6♣ 7♣ 8♣ → 5♣ 6♣ 7♣; new meld 7♣ 8♣ 9♣ (8♣ from 5♣ 6♣ 7♣ 8♣)")
