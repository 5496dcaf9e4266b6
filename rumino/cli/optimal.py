"""``rumino optimal build|figures|play``: the optimal-discard tables of Rumino against the stock.

* ``build`` solves every 7-card class of the pack (:func:`rumino.odds.optimal.build_tables`;
  the 108-card pack takes about 16 minutes on 2 cores and 2 GB of disk) and saves the tables
  under ``$RUMINO_OPTIMAL_DIR`` or ``~/.cache/rumino/optimal``, with a progress bar on stderr
  for each stage (the classes, the draws tabled, the sweeps to the tolerance, the check);
* ``figures`` writes the book's figures from a built table (``book/data/optimal_figures.json``);
* ``play`` plays the built table (bots' losses against it, the solitaire bot's win rates) and adds
  those figures to the same file, with a bar for the hands played and one for the games.

``--no-progress`` leaves the bars out.

``rumino odds best`` reads the tables once built.

Both write into the project's ``book/data/optimal_figures.json`` (found as ``rumino book`` finds the
book), or into ``--out``; never into a path relative to the folder the command runs in.

>>> from rumino.cli import main
>>> main(["optimal", "figures", "--dir", "/nonexistent", "--out", "/tmp/unused.json"])
2
"""

from __future__ import annotations

import json
import math
import os
from pathlib import Path

from rumino.cli import CommandError, check_cores, check_range
from rumino.cli.inputs import check_seed, in_folder, out_file, out_folder
from rumino.errors import RuminoError
from rumino.odds.enumerate import PackShape
from rumino.odds.optimal import (BUILD_COMMAND, BUILD_COST, HAND_SIZE, MAX_HORIZON, build_tables, default_table_dir,
                                 shape_key, write_table_figures)
from rumino.playing.optimal_play import write_play_figures

FIGURES = Path("data") / "optimal_figures.json"  # in the book's folder: what the chapters read


def parse_shape(text: str) -> PackShape:
    """``suits,ranks,copies,jokers``, for example ``4,13,2,4`` (the 108-card pack).

    >>> parse_shape("2,5,1,1")
    PackShape(suits=2, ranks=5, copies=1, jokers=1)
    """
    parts = str(text).split(",")
    if len(parts) != 4 or not all(p.strip().isascii() and p.strip().isdigit() for p in parts):  # int('²') fails
        raise CommandError(f"--shape is {text!r}: write suits,ranks,copies,jokers, such as 4,13,2,4.")
    try:
        return PackShape(*[int(p) for p in parts])
    except RuminoError as err:
        raise CommandError(f"--shape is {text!r}: {err}") from None


def table_dir(option: str, text) -> Path:
    """Where the tables are read or written: ``text`` (checked as a folder), else ``$RUMINO_OPTIMAL_DIR``
    (checked the same way) or the cache folder."""
    if text is not None:
        return in_folder(option, text)
    env = os.environ.get("RUMINO_OPTIMAL_DIR")
    if env is not None and env.strip():
        return in_folder("RUMINO_OPTIMAL_DIR", env)
    return default_table_dir()


def figures_file(text) -> Path:
    """``--out``, or the project's book/data/optimal_figures.json; checked before any work, and an
    existing file must be the figures file (its other part is kept when one part is written)."""
    if text is None:
        from rumino.cli.bookbuild import BookError, find_book

        try:
            text = str(find_book() / FIGURES)
        except BookError:
            raise CommandError(f"no book found to write {FIGURES} into (run in the repository, or give "
                               f"--out FILE).") from None
    path = out_file("--out", text)
    if path.exists():
        try:
            old = json.loads(path.read_text(encoding="utf-8"))
        except (OSError, ValueError):
            old = None
        if not isinstance(old, dict):
            raise CommandError(f"--out is {text!r}: the file there is not a figures file (a JSON object) to "
                               f"update; give another --out, or move it away.")
    return path


def check_fraction(option: str, value: float, high: float | None = None, why: str = "") -> float:
    """``value`` if it is a finite number above 0 (and below ``high``); else a one-line :class:`CommandError`.

    >>> check_fraction("--tol", float("nan"), 1, "the certified relative error")
    Traceback (most recent call last):
    ...
    rumino.cli.CommandError: --tol is nan: it must be a number above 0 and below 1 (the certified relative error).
    """
    if not (math.isfinite(value) and value > 0 and (high is None or value < high)):
        span = "above 0" + ("" if high is None else f" and below {high:g}")
        raise CommandError(f"{option} is {value!r}: it must be a number {span}" + (f" ({why})." if why else "."))
    return value


def run_build(args) -> int:
    check_range("--horizon", args.horizon, 1, MAX_HORIZON)
    check_cores("--threads", args.threads)  # 999 threads asked for 999 copies of a table of every class
    # a NaN or negative tolerance is never reached: 2,000 sweeps of the full tables, then a traceback
    check_fraction("--tol", args.tol, 1, "the certified relative error")
    if args.max_minutes is not None:
        check_fraction("--max-minutes", args.max_minutes, why="the cap of the infinite-horizon iteration")
    shape = parse_shape(args.shape)
    if shape.size < HAND_SIZE + 1:  # before any work, in the words of the command
        raise CommandError(f"--shape is {args.shape!r}: a pack of {shape.size} cards cannot hold a 7-card hand "
                           f"and a card to draw.")
    if args.dir is not None:
        directory = out_folder("--dir", args.dir)
    else:
        env = os.environ.get("RUMINO_OPTIMAL_DIR")
        directory = out_folder("RUMINO_OPTIMAL_DIR", env) if env is not None and env.strip() else default_table_dir()
        out_folder("the table folder", str(directory))
    if args.reuse_finite:  # a damaged table to reuse is refused now, not after the classes are counted
        from rumino.odds.optimal import RUMINO, open_array, GOALS
        from rumino.odds.enumerate import class_count

        target = directory / shape_key(shape, RUMINO)
        if (target / "finite.done").exists():
            open_array(target / "prob.npy", (len(GOALS), args.horizon, class_count(shape, HAND_SIZE)),
                       "the finished table to reuse")
    build_tables(shape, directory, horizon=args.horizon, tol=args.tol, threads=args.threads,
                 reuse_finite=args.reuse_finite, max_minutes=args.max_minutes, progress=not args.no_progress)
    return 0


def run_figures(args) -> int:
    shape = parse_shape(args.shape)
    directory = table_dir("--dir", args.dir)
    out = figures_file(args.out)
    out = write_table_figures(shape, directory, out)  # a missing or damaged table: one line, exit 2
    print(f"wrote {out}")
    return 0


def run_play(args) -> int:
    for name in ("hands", "games"):
        check_range(f"--{name}", getattr(args, name), 1, 10_000_000)
    check_seed(args.seed)
    directory = table_dir("--dir", args.dir)
    out = figures_file(args.out)
    out = write_play_figures(directory, out, hands=args.hands, games=args.games, seed=args.seed, only=args.only,
                             progress=not args.no_progress)
    print(f"wrote {out}")
    return 0


def register(sub) -> None:
    p = sub.add_parser("optimal", help="build and play the optimal-discard tables (rumino odds best reads them)",
                       description=f"The optimal-discard tables of Rumino against the stock. `{BUILD_COMMAND}` "
                                   f"takes {BUILD_COST} for the 108-card pack.")
    osub = p.add_subparsers(dest="optimal_command", metavar="WHAT")
    osub.required = True
    b = osub.add_parser("build", help="solve every 7-card class and save the tables",
                        description=f"Solve every 7-card class and save the tables ({BUILD_COST} for the full pack).")
    b.add_argument("--dir", default=None, help=f"where to write (default {default_table_dir()})")
    b.add_argument("--horizon", type=int, default=MAX_HORIZON, help=f"draws tabled (default {MAX_HORIZON})")
    b.add_argument("--tol", type=float, default=1e-6, help="certified relative error of the expected draws")
    b.add_argument("--shape", default="4,13,2,4", help="suits,ranks,copies,jokers (default the 108-card pack)")
    b.add_argument("--threads", type=int, default=min(2, os.cpu_count() or 1),
                   help="numba threads (default 2, at most the machine's cores)")
    b.add_argument("--reuse-finite", action="store_true", help="keep a finished prob.npy in the target folder")
    b.add_argument("--max-minutes", type=float, default=None,
                   help="cap the infinite-horizon iteration (it stops with the bound certified so far)")
    b.add_argument("--no-progress", action="store_true",
                   help="no progress bars on stderr (one a stage: classes, draws tabled, sweeps, the check)")
    b.set_defaults(run=run_build)
    f = osub.add_parser("figures", help="the book's figures from a built table, as JSON")
    f.add_argument("--dir", default=None, help=f"where the table is (default {default_table_dir()})")
    f.add_argument("--out", default=None, help="JSON file to write (default: the book's data/optimal_figures.json)")
    f.add_argument("--shape", default="4,13,2,4", help="suits,ranks,copies,jokers")
    f.set_defaults(run=run_figures)
    g = osub.add_parser("play", help="play the built table: bots' losses and the solitaire bot's win rates",
                        description="Play the optimal table: bots' losses, the model against real play, and the "
                                    "solitaire bot's win rates (needs the full tables).")
    g.add_argument("--dir", default=None, help=f"where the table is (default {default_table_dir()})")
    g.add_argument("--out", default=None,
                   help="results file to update (default: the book's data/optimal_figures.json)")
    g.add_argument("--hands", type=int, default=4000, help="hands per policy simulation")
    g.add_argument("--games", type=int, default=1000, help="games per win-rate measurement")
    g.add_argument("--seed", type=int, default=14)
    g.add_argument("--only", choices=("policies", "games"), default=None, help="compute one part only")
    g.add_argument("--no-progress", action="store_true", help="no progress bars on stderr (hands played, games)")
    g.set_defaults(run=run_play)
