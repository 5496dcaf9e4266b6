"""``rumino compare COLUMN...``: games (or one game under several house rules) side by side.

A column is a variant with optional house rules after a colon:
``wiener``, ``rumino:knock_max_deadwood=5,n_jokers=2``. Without ``--samples``
the command prints the rules matrix only (instant); with ``--samples N`` (and
``--seed S``) it adds each column's profile (:mod:`rumino.compare.profile`):
the deal, the hand, the game and luck against skill, exact figures as
``{"numerator", "denominator", "value"}`` and simulated ones as ``{"estimate",
"ci95", "n", "seed"}`` in the JSON.
"""

from __future__ import annotations

import json
import sys
import textwrap

from ..compare import rules_matrix
from ..compare.matrix import Column
from . import CommandError


def profile_table_text(profiles, width: int = 38) -> str:
    """The profiles side by side as text: one row per figure name, one column per profile."""
    keys: list[str] = []
    for p in profiles:
        keys += [k for k in p.figures if k not in keys]
    order = {"deal": 0, "hand": 1, "game": 2, "luck": 3}
    keys.sort(key=lambda k: order.get(k.split(".")[0], 9))  # stable: first appearance within a section
    head = 30
    out = [" " * head + " | " + " | ".join(p.label[:width].ljust(width) for p in profiles)]
    out.append("-" * len(out[0]))
    section = None
    for key in keys:
        sec = key.split(".")[0]
        if sec != section:
            section = sec
            out.append(f"[{sec}]")
        label = next(p.figures[key].label for p in profiles if key in p.figures)
        cells = [p.figures[key].text() if key in p.figures else "—" for p in profiles]
        left = textwrap.wrap(label, head) or [key]
        for i in range(len(left)):
            out.append(left[i].ljust(head) + " | " + " | ".join((c if i == 0 else "").ljust(width) for c in cells))
    out.append("")
    out.append("how: " + " | ".join(f"{p.label}: deal {p.deal_method or 'none'}"
                                   + (f"; {p.games:,} games a match, best bot {p.best_bot}" if p.engine else "")
                                   for p in profiles))
    for p in profiles:
        for note in p.notes:
            out.append(f"note ({p.label}): {note}")
    return "\n".join(out) + "\n"


def _progress_bar(enabled: bool):
    if not enabled:
        return None, None
    from tqdm.auto import tqdm

    bar = tqdm(total=0, unit=" chunks", desc="profiles", file=sys.stderr)

    def tick(done: int, total: int) -> None:
        if bar.total != total:
            bar.total = total
        bar.n = done
        bar.refresh()

    return bar, tick


def run(args) -> int:
    cols = [Column.parse(c) for c in args.columns]  # an unknown variant or knob: one line, exit 2
    matrix = rules_matrix(cols)
    wants_profiles = args.samples is not None or args.games is not None
    if not wants_profiles and (args.workers != 1 or args.dask):
        raise CommandError("--workers and --dask run the profiles: give --samples N (and --seed S) too.")
    profiles = []
    if wants_profiles:
        from ..compare.profile import profiles as make_profiles

        samples = 20_000 if args.samples is None else args.samples
        if args.seed is None:
            raise CommandError("--samples needs --seed S, so the profiles can be reproduced.")
        for name, value, low in (("--samples", samples, 1), ("--seed", args.seed, 0), ("--workers", args.workers, 1)):
            if value < low:
                raise CommandError(f"{name} is {value}: it must be at least {low}.")
        if args.games is not None and args.games < 1:
            raise CommandError(f"--games is {args.games}: it must be at least 1.")
        bar, tick = _progress_bar(not args.no_progress)
        try:
            profiles = make_profiles(cols, samples=samples, games=args.games, seed=args.seed, workers=args.workers,
                                     dask=args.dask, progress=tick)
        finally:
            if bar is not None:
                bar.close()
    if args.json:
        out = {"matrix": matrix.to_json()}
        if wants_profiles:
            out["profiles"] = [p.as_json() for p in profiles]
        print(json.dumps(out, indent=2, ensure_ascii=False))
    else:
        print(matrix.to_text(width=args.width), end="")
        if profiles:
            print()
            print(profile_table_text(profiles, width=args.width), end="")
    return 0


def register(sub) -> None:
    p = sub.add_parser("compare", help="games or house rules side by side (rules matrix and profiles)",
                       description="Print the rules matrix of the given columns, read from the rules "
                                   "dataclasses, and with --samples N --seed S each column's profile: "
                                   "the deal, the hand, the game, luck against skill (exact where the "
                                   "engine can, otherwise simulated with n, seed and a 95%% interval). "
                                   "A column is a variant with optional house rules: "
                                   "wiener, gin, rumino:knock_max_deadwood=5,n_jokers=2.")
    p.add_argument("columns", nargs="+", metavar="COLUMN", help="a variant, optionally with :KEY=VALUE,...")
    p.add_argument("--samples", type=int, default=None,
                   help="simulated deals per column where the deal is not exact; turns the profiles on")
    p.add_argument("--games", type=int, default=None,
                   help="games per heads-up match (default: max(40, samples // 40))")
    p.add_argument("--seed", type=int, default=None, help="the seed of every simulated figure")
    p.add_argument("--workers", type=int, default=1,
                   help="local worker processes (the figures are the same for any number)")
    p.add_argument("--dask", metavar="ADDRESS", default=None,
                   help="run on the Dask cluster at this scheduler address instead (same figures)")
    p.add_argument("--json", action="store_true",
                   help="print JSON: matrix.columns, matrix.rows and, with --samples, profiles")
    p.add_argument("--width", type=int, default=38, help="text width of one column (default 38)")
    p.add_argument("--no-progress", action="store_true", help="no progress bar on stderr")
    p.set_defaults(run=run)
