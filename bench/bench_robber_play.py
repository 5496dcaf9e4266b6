"""The Robber Rummy table solver on positions from real bot games (issue 11, item 6).

    python bench/bench_robber_play.py                 # 12 games of 4 greedy bots, seed 2026
    python bench/bench_robber_play.py --games 4 --json out.json

Seeded greedy bots (``rumino simulate --variant robber``'s default) play whole games;
every position where a bot that has opened asks the solver for its move (the table
and the hand) is kept. Each position is then solved again alone, as the bot does it
(``solve_table(..., check=False)``), and timed in CPU time of this process (the machine
is shared, so wall-clock time is also shown): median, 90th percentile and slowest,
with the table sizes met, then the same for the tables of 20–60 cards, where the
issue sets its targets (median ≤ 2.6 ms, slowest ≤ 1 s). Not a test: the figures
go into the closing note.
"""

from __future__ import annotations

import argparse
import json
import os
import sys
import time

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from _common import machine, one_core, verdict  # noqa: E402

one_core()

import numpy as np  # noqa: E402


def positions(games: int, seed: int, players: int) -> list[tuple[tuple, tuple]]:
    from rumino.variants.robber.bots import solver_positions

    return solver_positions(games, seed, players)


def main(argv=None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--games", type=int, default=12)
    ap.add_argument("--players", type=int, default=4)
    ap.add_argument("--seed", type=int, default=2026)
    ap.add_argument("--json")
    ap.add_argument("--method", default="hybrid", choices=("hybrid", "jit", "auto", "milp", "dp"),
                    help="the solver route to time (default hybrid: the compiled programme, HiGHS past its cap)")
    args = ap.parse_args(argv)
    from rumino.table import solver
    from rumino.table.solver import meld_columns, solve_table
    from rumino.variants.robber import ROBBER

    rules = ROBBER.meld_rules
    method = args.method
    meld_columns(rules)  # built once per rules (not part of a solve)
    print(machine())
    pos = positions(args.games, args.seed, args.players)
    solve_table(*pos[0], rules, check=False, method=method)  # numba's compilation outside the timing
    cpu, wall, sizes = [], [], []
    # how many positions the hybrid route handed to HiGHS (its compiled programme outgrew the cap)
    highs, real_milp = [0], solver._milp

    def counted(*a, **k):
        highs[0] += 1
        return real_milp(*a, **k)

    solver._milp = counted
    try:
        for table, hand in pos:
            w0, c0 = time.perf_counter(), time.process_time()
            solve_table(table, hand, rules, check=False, method=method)
            cpu.append(time.process_time() - c0)
            wall.append(time.perf_counter() - w0)
            sizes.append(len(table))
    finally:
        solver._milp = real_milp
    cpu_ms, wall_ms = np.array(cpu) * 1e3, np.array(wall) * 1e3
    def summary(ms):
        return {"median": round(float(np.median(ms)), 2), "p90": round(float(np.percentile(ms, 90)), 2),
                "max": round(float(ms.max()), 2)}

    out = {"games": args.games, "players": args.players, "seed": args.seed, "positions": len(pos),
           "table_cards": [int(min(sizes)), int(np.median(sizes)), int(max(sizes))],
           "method": method, "highs_calls": highs[0],
           "cpu_ms": summary(cpu_ms), "wall_ms": summary(wall_ms), "cpu_total_ms": round(float(cpu_ms.sum()), 1)}
    print(f"{out['positions']} positions from {args.games} games of {args.players} greedy bots (seed {args.seed}); "
          f"tables of {out['table_cards'][0]}–{out['table_cards'][2]} cards (median {out['table_cards'][1]}); "
          f"route {method!r}, {highs[0]} calls to HiGHS")
    print(f"solve_table, CPU ms: median {out['cpu_ms']['median']}, p90 {out['cpu_ms']['p90']}, "
          f"slowest {out['cpu_ms']['max']}; wall ms: median {out['wall_ms']['median']}, "
          f"slowest {out['wall_ms']['max']}")
    # the targets are set on tables of 20–60 cards
    mid = (np.array(sizes) >= 20) & (np.array(sizes) <= 60)
    out["tables_20_60"] = {"positions": int(mid.sum()), "cpu_ms": summary(cpu_ms[mid]),
                           "wall_ms": summary(wall_ms[mid])}
    t = out["tables_20_60"]
    print(f"tables of 20–60 cards ({t['positions']} positions), CPU ms: median {t['cpu_ms']['median']} "
          f"(target ≤ 2.6: {verdict(t['cpu_ms']['median'] <= 2.6)}), slowest {t['cpu_ms']['max']} "
          f"(target ≤ 1000: {verdict(t['cpu_ms']['max'] <= 1000)}); wall ms: median {t['wall_ms']['median']}, "
          f"slowest {t['wall_ms']['max']}")
    if args.json:
        with open(args.json, "w") as fh:
            json.dump(out, fh, indent=1)
    return 0


if __name__ == "__main__":
    sys.exit(main())
