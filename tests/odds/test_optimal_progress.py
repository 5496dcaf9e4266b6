"""The progress bars of `rumino optimal build` and `rumino optimal play` (issue 25, item 3), on a small pack.

The full build takes 16 minutes and the play figures need its tables, so the bars are checked on a
reduced pack: each stage's bar reaches its total (tqdm's last line, ``n/n``), and the play figures call
their ``progress(done, total)`` up to the total they announce.
"""

from __future__ import annotations

import contextlib
import io
import re

from tqdm import tqdm

from rumino.cli import main
from rumino.odds.enumerate import PackShape, class_count
from rumino.odds.optimal import SolitaireModel, build_tables
from rumino.playing.optimal_play import POLICY_RUNS, game_figures, policy_figures, progress_bar

SMALL = PackShape(suits=2, ranks=6, copies=1, jokers=2)  # as tests/odds/test_odds_optimal.py


class Terminal(io.StringIO):
    """A stderr that says it is a terminal: the bars are drawn only on one (never into a file or a pipe)."""

    def isatty(self):
        return True


def _last_counts(err: str) -> dict[str, str]:
    """Each bar's last state on stderr: its description and ``done/total`` (or ``done`` without a total)."""
    out = {}
    for piece in re.split(r"[\r\n]", err):
        m = re.match(r"\s*([\w -]+?): (?:\s*\d+%\|[^|]*\| )?([\d.]+k?(?:/[\d.]+k?)?) ", piece)
        if m:
            out[m.group(1)] = m.group(2)
    return out


def _all(n: int) -> str:
    """How a bar of classes (scaled: 1.26k) shows ``n`` done out of ``n``."""
    return f"{tqdm.format_sizeof(n)}/{tqdm.format_sizeof(n)}"


def test_build_draws_a_bar_for_each_stage_and_each_reaches_its_total(tmp_path):
    err = Terminal()
    with contextlib.redirect_stderr(err), contextlib.redirect_stdout(io.StringIO()):
        d = build_tables(SMALL, tmp_path, horizon=3, tol=1e-6, threads=1, progress=True)
    n7, n8 = class_count(SMALL, 7), class_count(SMALL, 8)
    bars = _last_counts(err.getvalue())
    assert bars["7-card classes"] == _all(n7) and bars["8-card classes"] == _all(n8), bars
    assert bars["finite horizon"] == "3/3" and bars["keep-target check"] == _all(n7), bars
    assert int(bars["expected draws"]) >= 2, bars  # the sweeps to the tolerance: no total known in advance
    assert (d / "prob.npy").is_file()


def test_the_command_draws_the_bars_and_no_progress_leaves_them_out(tmp_path):
    argv = ["optimal", "build", "--shape", "2,6,1,2", "--horizon", "2", "--threads", "1", "--dir", str(tmp_path)]
    for extra, drawn in (([], True), (["--no-progress"], False)):
        err = Terminal()
        with contextlib.redirect_stderr(err), contextlib.redirect_stdout(io.StringIO()):
            assert main(argv + extra) == 0
        assert ("finite horizon" in err.getvalue()) == drawn, err.getvalue()
        assert drawn or err.getvalue() == ""


def test_without_progress_the_model_draws_nothing():
    err = io.StringIO()
    with contextlib.redirect_stderr(err):
        SolitaireModel(SMALL).solve(horizon=2, tol=1e-6)
    assert err.getvalue() == ""


def test_the_play_figures_count_every_hand_and_every_game():
    table = SolitaireModel(SMALL).solve(horizon=2, tol=1e-6)
    calls = []
    policy_figures(table, hands=3, seed=1, horizon=2, progress=lambda done, total: calls.append((done, total)))
    assert calls[-1] == (POLICY_RUNS * 3, POLICY_RUNS * 3) and len(calls) == POLICY_RUNS * 3
    assert [d for d, _ in calls] == list(range(1, len(calls) + 1))
    calls.clear()
    # the solitaire bot needs the full tables: the games' count is checked with greedy seats
    game_figures(2, seed=1, progress=lambda done, total: calls.append((done, total)),
                 matches=(("a", ["greedy", "greedy"]), ("b", ["greedy", "random", "greedy"])))
    assert calls == [(1, 4), (2, 4), (3, 4), (4, 4)]


def test_the_play_bar_follows_its_progress_calls():
    err = Terminal()
    with contextlib.redirect_stderr(err):
        bar, tick = progress_bar(True, "games", "game")
        for done in range(1, 6):
            tick(done, 5)
        bar.close()
    assert _last_counts(err.getvalue())["games"] == "5/5"
    assert progress_bar(False, "games", "game") == (None, None)


def test_no_bar_is_drawn_into_a_file_or_a_pipe(tmp_path):
    """A log file or a pipe gets no carriage returns or escape codes: the bars are left out."""
    err = io.StringIO()
    with contextlib.redirect_stderr(err), contextlib.redirect_stdout(io.StringIO()):
        build_tables(SMALL, tmp_path, horizon=2, tol=1e-6, threads=1, progress=True)
        bar, tick = progress_bar(True, "games", "games")
        tick(1, 2)
        bar.close()
    assert err.getvalue() == ""
