"""``hint`` at the ``rumino play`` prompt: the search coach's move (the best player's) and each move's chance of winning
the hand."""

from __future__ import annotations

import re

import subprocess
import sys


def _play(variant: str, lines: str, players: str) -> str:
    run = subprocess.run([sys.executable, "-m", "rumino", "play", "--variant", variant, "--players", players,
                          "--seed", "4"], input=lines, capture_output=True, text=True, timeout=300)
    assert run.returncode == 0, run.stderr
    return run.stdout


def test_hint_names_the_search_move_and_every_move_it_tried():
    out = _play("gin", "hint\nhint\nq\n", "human,greedy")
    hints = [line.strip() for line in out.splitlines() if line.strip().startswith("search (")]
    assert len(hints) == 2 and hints[0] == hints[1]  # the same position, the same advice
    head, _, moves = hints[0].partition(" · chance of winning the hand by move: ")
    assert head.startswith("search (5000 rollouts): ")  # the best player's budget at Gin (Variant.bots.best_budget)
    chosen = head.split(": ", 1)[1]
    assert chosen in ("draw discard", "pass") and moves.count("%") == 2


def test_hint_at_robber_names_the_placements_and_the_draw():
    """Robber is searched at its small default budget: the hint weighs the placements against the draw, each
    written as the moves a player types (``new Jc Qc Kc Ac``, ``lay 7c on 2``), not as the whole table."""
    out = _play("robber", "hint\nq\n", "human,greedy")
    hint = next(line for line in out.splitlines() if "search (" in line)
    assert "rollouts" in hint and "draw stock" in hint and re.search(r"\b(new|lay|move) ", hint)
    assert "place " not in hint and "|" not in hint


def test_hint_says_where_the_search_does_not_play_yet(monkeypatch):
    """A game the search does not fit gets one line saying so (none is left; this keeps the message right)."""
    from rumino.cli import _terminal
    from rumino.players.search import SearchPlayer

    from rumino.playing.seeding import new_table

    monkeypatch.setattr(SearchPlayer, "fits", classmethod(lambda cls, game: False))
    game, _ = new_table("robber", ["human", "greedy"], 4, 0)
    out = _terminal.search_hint(game, game.view(0))
    assert out.strip() == "the search coach does not play Robber Rummy yet."
