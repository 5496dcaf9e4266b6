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

>>> from rumino.cli import main
>>> main(["optimal", "figures", "--dir", "no-table-here", "--out", "unused.json"])
2
"""

from __future__ import annotations

import math

from rumino.cli import CommandError, check_range
from rumino.odds.enumerate import PackShape
from rumino.odds.optimal import (BUILD_COMMAND, BUILD_COST, MAX_HORIZON, build_tables, default_table_dir,
                                 write_table_figures)
from rumino.playing.optimal_play import write_play_figures


def parse_shape(text: str) -> PackShape:
    """``suits,ranks,copies,jokers``, for example ``4,13,2,4`` (the 108-card pack).

    >>> parse_shape("2,5,1,1")
    PackShape(suits=2, ranks=5, copies=1, jokers=1)
    """
    parts = str(text).split(",")
    if len(parts) != 4 or not all(p.strip().isascii() and p.strip().isdigit() for p in parts):  # int('²') fails
        raise CommandError(f"--shape is {text!r}: write suits,ranks,copies,jokers, such as 4,13,2,4.")
    return PackShape(*[int(p) for p in parts])


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
    check_range("--threads", args.threads, 1)
    # a NaN or negative tolerance is never reached: 2,000 sweeps of the full tables, then a traceback
    check_fraction("--tol", args.tol, 1, "the certified relative error")
    if args.max_minutes is not None:
        check_fraction("--max-minutes", args.max_minutes, why="the cap of the infinite-horizon iteration")
    build_tables(parse_shape(args.shape), args.dir, horizon=args.horizon, tol=args.tol, threads=args.threads,
                 reuse_finite=args.reuse_finite, max_minutes=args.max_minutes, progress=not args.no_progress)
    return 0


def run_figures(args) -> int:
    out = write_table_figures(parse_shape(args.shape), args.dir, args.out)  # a missing table: one line, exit 2
    print(f"wrote {out}")
    return 0


def run_play(args) -> int:
    for name in ("hands", "games"):
        check_range(f"--{name}", getattr(args, name), 1, 10_000_000)
    check_range("--seed", args.seed, 0)
    out = write_play_figures(args.dir, args.out, hands=args.hands, games=args.games, seed=args.seed, only=args.only,
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
    b.add_argument("--threads", type=int, default=2, help="numba threads (default 2)")
    b.add_argument("--reuse-finite", action="store_true", help="keep a finished prob.npy in the target folder")
    b.add_argument("--max-minutes", type=float, default=None,
                   help="cap the infinite-horizon iteration (it stops with the bound certified so far)")
    b.add_argument("--no-progress", action="store_true",
                   help="no progress bars on stderr (one a stage: classes, draws tabled, sweeps, the check)")
    b.set_defaults(run=run_build)
    f = osub.add_parser("figures", help="the book's figures from a built table, as JSON")
    f.add_argument("--dir", default=None, help=f"where the table is (default {default_table_dir()})")
    f.add_argument("--out", default="book/data/optimal_figures.json", help="JSON file to write")
    f.add_argument("--shape", default="4,13,2,4", help="suits,ranks,copies,jokers")
    f.set_defaults(run=run_figures)
    g = osub.add_parser("play", help="play the built table: bots' losses and the solitaire bot's win rates",
                        description="Play the optimal table: bots' losses, the model against real play, and the "
                                    "solitaire bot's win rates (needs the full tables).")
    g.add_argument("--dir", default=None, help=f"where the table is (default {default_table_dir()})")
    g.add_argument("--out", default="book/data/optimal_figures.json", help="results file to update")
    g.add_argument("--hands", type=int, default=4000, help="hands per policy simulation")
    g.add_argument("--games", type=int, default=1000, help="games per win-rate measurement")
    g.add_argument("--seed", type=int, default=14)
    g.add_argument("--only", choices=("policies", "games"), default=None, help="compute one part only")
    g.add_argument("--no-progress", action="store_true", help="no progress bars on stderr (hands played, games)")
    g.set_defaults(run=run_play)
