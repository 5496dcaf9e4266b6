"""``rumino compare COLUMN...``: games (or one game under several house rules) side by side.

A column is a variant with optional house rules after a colon:
``wiener``, ``rumino:knock_max_deadwood=5,n_jokers=2``. Without ``--samples``
the command prints the rules matrix only (instant); with ``--samples N`` (and
``--seed S``) it adds each column's profile (:mod:`rumino.compare.profile`):
the deal, the hand, the game and luck against skill (Rummoli in its own
terms: the poker pot and the sections), exact figures as
``{"numerator", "denominator", "value"}`` and simulated ones as ``{"estimate",
"ci95", "n", "seed"}`` in the JSON. ``--save PATH`` writes that JSON to a results
file, with a header (the command, the figures' settings and the CPU time it took) that
the book reads (:func:`rumino.compare.profile.load_profiles`); ``--play default``
plays the default bots' match only (the hands, not luck against skill).
"""

from __future__ import annotations

import json
import resource
import shlex
import sys
import time

from rumino.compare import rules_matrix
from rumino.compare.figures import check_dask_reachable
from rumino.compare.matrix import Column
from rumino.compare.profile import PLAY_CHOICES, profiles as make_profiles, profiles_text
from rumino.cli import CommandError, check_range, check_samples, check_workers
from rumino.cli.inputs import check_seed, out_file
from rumino.cli.simulate import MAX_GAMES
from rumino.console import progress_bar


def run(args) -> int:
    check_range("--width", args.width, 12, 200, "characters of one column")
    cols = [Column.parse(c) for c in args.columns]  # an unknown variant or knob: one line, exit 2
    matrix = rules_matrix(cols)
    wants_profiles = args.samples is not None or args.games is not None
    if not wants_profiles and (args.workers != 1 or args.dask is not None):
        raise CommandError("--workers and --dask run the profiles: give --samples N (and --seed S) too.")
    if not wants_profiles and (args.save is not None or args.play != "all"):
        raise CommandError("--save and --play are for the profiles: give --samples N (and --seed S) too.")
    if not wants_profiles and args.seed is not None:  # it was silently ignored: the matrix has no seed
        raise CommandError(f"--seed is {args.seed}, and the rules matrix alone has no seed: it is for the profiles, "
                           f"give --samples N too.")
    save = out_file("--save", args.save) if args.save is not None else None  # before hours of games, not after
    profiles = []
    if wants_profiles:

        samples = 20_000 if args.samples is None else args.samples
        if args.seed is None:
            raise CommandError("--samples needs --seed S, so the profiles can be reproduced.")
        check_samples(samples)
        check_seed(args.seed)
        if args.games is not None:  # 10**20 games planned their chunks until a MemoryError
            check_range("--games", args.games, 1, MAX_GAMES, "games per heads-up match")
        check_workers(args.workers)
        if args.dask is not None:  # last (it may wait for an answer), before the progress bar
            check_dask_reachable(args.dask)
        bar, tick = progress_bar(not args.no_progress, "profiles", "chunks of work")
        wall, cpu0 = time.perf_counter(), _cpu_seconds()
        try:
            profiles = make_profiles(cols, samples=samples, games=args.games, seed=args.seed, workers=args.workers,
                                     dask=args.dask, progress=tick, play=args.play)
        finally:
            if bar is not None:
                bar.close()
        if save is not None:
            run_info = {"command": "rumino compare " + shlex.join(sys.argv[2:] if _is_compare(sys.argv) else
                                                                  args.columns),
                        "samples": samples, "games": args.games, "seed": args.seed, "play": args.play,
                        # this process and its worker processes (a Dask cluster's CPU is not counted)
                        "cpu_seconds": round(_cpu_seconds() - cpu0, 1),
                        "wall_seconds": round(time.perf_counter() - wall, 1), "workers": args.workers}
            out = {"run": run_info, "matrix": matrix.to_json(), "profiles": [p.as_json() for p in profiles]}
            save.write_text(json.dumps(out, indent=1, ensure_ascii=False) + "\n", encoding="utf-8")
    if args.json:
        out = {"matrix": matrix.to_json()}
        if wants_profiles:
            out["profiles"] = [p.as_json() for p in profiles]
        print(json.dumps(out, indent=2, ensure_ascii=False))
    else:
        print(matrix.to_text(width=args.width), end="")
        if profiles:
            print()
            print(profiles_text(profiles, width=args.width), end="")
    return 0


def _cpu_seconds() -> float:
    """CPU seconds of this process and of its finished children (the worker pool)."""
    me, kids = resource.getrusage(resource.RUSAGE_SELF), resource.getrusage(resource.RUSAGE_CHILDREN)
    return me.ru_utime + me.ru_stime + kids.ru_utime + kids.ru_stime


def _is_compare(argv) -> bool:
    return len(argv) > 1 and argv[1] == "compare"


def register(sub) -> None:
    p = sub.add_parser("compare", help="games or house rules side by side (rules matrix and profiles)",
                       description="Print the rules matrix of the given columns, read from the rules "
                                   "dataclasses, and with --samples N --seed S each column's profile: "
                                   "the deal, the hand, the game, luck against skill (exact where the "
                                   "engine can, otherwise simulated with n, seed and a 95% interval). "
                                   "A column is a variant with optional house rules: "
                                   "wiener, gin, rumino:knock_max_deadwood=5,n_jokers=2.")
    p.add_argument("columns", nargs="+", metavar="COLUMN", help="a variant, optionally with :KEY=VALUE,...")
    p.add_argument("--samples", type=int, default=None,
                   help="simulated deals per column where the deal is not exact; turns the profiles on")
    p.add_argument("--games", type=int, default=None,
                   help="games per heads-up match (default: max(40, samples // 40)); a costly game plays "
                        "fewer: Robber's solver bot max(games/50, 20)")
    p.add_argument("--seed", type=int, default=None, help="the seed of every simulated figure")
    p.add_argument("--workers", type=int, default=1,
                   help="local worker processes (the figures are the same for any number)")
    p.add_argument("--dask", metavar="ADDRESS", default=None,
                   help="run on the Dask cluster at this scheduler address instead (same figures)")
    p.add_argument("--play", choices=PLAY_CHOICES, default="all",
                   help="the matches played: all (default), or the default bots' match only (the hands and the "
                        "game, no luck against skill: a fifth of the games)")
    p.add_argument("--save", metavar="PATH", default=None,
                   help="also write the JSON, with the command and the CPU time it took, to this results file")
    p.add_argument("--json", action="store_true",
                   help="print JSON: matrix.columns, matrix.rows and, with --samples, profiles")
    p.add_argument("--width", type=int, default=38, help="text width of one column (default 38)")
    p.add_argument("--no-progress", action="store_true", help="no progress bar on stderr")
    p.set_defaults(run=run)
