"""Benchmark of the optimal-discard tables (issue 14): look-up from the table, and the direct answer.

    rumino optimal build      # once: the full tables (see its log for time and memory)
    python bench/bench_optimal.py            # then: look-ups and direct answers, timed
    python bench/bench_optimal.py --json bench/results/optimal.json

Targets (issue 14): one hand's answer from the table in ≤ 10 ms; without the
table, one hand's finite-horizon answer for N ≤ 2 in ≤ 5 s; the full tables in
≤ 30 minutes and 8 GB on 2 cores (read from the table's ``meta.json``, which
the build writes with its own timings). Every figure is the best of several
repeats, wall-clock and CPU side by side (the machine is shared); the first
call of each compiled function is timed apart (numba loads it from its cache).
"""

from __future__ import annotations

import argparse
import json
import os
import sys
import time

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
sys.path.insert(0, ROOT)

import numpy as np  # noqa: E402

from bench._common import machine, timed  # noqa: E402
from rumino.cards import parse_hand, to_counts  # noqa: E402
from rumino.odds.enumerate import PackShape  # noqa: E402
from rumino.odds.optimal import (OptimalTable, TableMissingError, shape_key, best_answer,  # noqa: E402
                                 default_table_dir, direct_values)
from rumino.variants.rumino import RUMINO  # noqa: E402

FULL = PackShape(4, 13, 2, 4)
HANDS8 = ["7h 8h 9h 5c 5d 5s Ks 2c", "As 2s 3s 4s 9d 9c Kh Qd", "JK 5h 9c 9d 9s 2c 3d 4h"]
HANDS7 = ["7h 8h 9h 5c 5d 5s Ks", "3h 4h 5h 6h Kc Kd 2s", "Ah 4c 7d 10s Kh Qc 2d"]


def simulate_checks(table, trials: int, seed: int) -> list[dict]:
    """Play the table's discards with real random draws on the full pack (discards reshuffled in, as in the
    model); the hit rate must match the table's value within 4 standard errors."""
    rng = np.random.default_rng(seed)
    pack = np.zeros(53, np.int64)
    for c in FULL.card_ids():
        pack[c] = FULL.copies
    pack[52] = FULL.jokers
    results = []
    for hand, goal, n in (("7h 8h 9h 5c 5d 5s Ks", "gin", 5), ("As 2s 3s 4s 9d 9c Kh", "knock", 3),
                          ("4h 5h 6h 7h 8h JK Kc", "rumino", 4)):
        start = to_counts(parse_hand(hand)).astype(np.int64)
        target = table.value7(start, goal, n)
        hits = 0
        for _ in range(trials):
            h = start.copy()
            for left in range(n, 0, -1):
                if table.value7(h, goal, 0) == 1:
                    break
                w = (pack - h).astype(float)
                c = int(np.searchsorted(np.cumsum(w), rng.random() * w.sum(), side="right"))
                h[c] += 1
                opts = [d for d in range(53) if h[d]]
                c7s = []
                for d in opts:
                    x = h.copy()
                    x[d] -= 1
                    c7s.append(x)
                idx = table.index.index(np.stack(c7s))
                g = ("knock", "gin", "rumino").index(goal)
                vals = (np.asarray(table.prob[g, left - 2])[idx] if left > 1
                        else (np.asarray(table.goal)[idx] >> g) & 1)
                h[opts[int(np.argmax(vals))]] -= 1
            hits += int(table.value7(h, goal, 0) == 1)
        p = hits / trials
        se = (target * (1 - target) / trials) ** 0.5
        z = (p - target) / se if se else 0.0
        half = 1.96 * (p * (1 - p) / trials) ** 0.5
        results.append({"hand": hand, "goal": goal, "draws": n, "table": target, "hits": hits, "n": trials,
                        "seed": seed, "ci95": [p - half, p + half], "z": z})
        print(f"simulated optimal play, {hand} → {goal} within {n}: {hits}/{trials} = {p:.4f} "
              f"(95% CI {p - half:.4f}–{p + half:.4f}); table {target:.4f}; z = {z:+.2f} (|z| ≤ 4 required)")
    return results


def main(argv=None) -> int:
    p = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    p.add_argument("--json", default=None, help="also write the figures to this file")
    p.add_argument("--repeat", type=int, default=5)
    p.add_argument("--trials", type=int, default=4000, help="simulated plays per hand for the policy check")
    p.add_argument("--seed", type=int, default=14)
    args = p.parse_args(argv)
    print(machine())
    out: dict = {}
    # ---- direct answers (no table): N = 1 and 2, 7- and 8-card hands
    t, c = timed(lambda: direct_values(to_counts(parse_hand(HANDS7[0])), "gin", 1, FULL), 1)
    out["direct_first_call_seconds"] = {"wall": t, "cpu": c}
    for n in (1, 2):
        for hand in (HANDS7[0], HANDS8[0]):
            f = lambda: best_answer(hand, "gin", n, shape=FULL, directory=os.path.join(ROOT, "no-table"))  # noqa: E731
            wall, cpu = timed(f, max(1, args.repeat // (2 if n == 2 else 1)))
            out[f"direct_{len(hand.split())}cards_{n}draws"] = {"wall": wall, "cpu": cpu}
            print(f"direct answer, {len(hand.split())} cards, {n} draw(s): {wall:.3f} s wall, {cpu:.3f} s CPU "
                  f"(target ≤ 5 s)")
    # ---- the table
    try:
        table = OptimalTable.load(FULL)
    except TableMissingError as err:
        print(f"no table: {err}")
        table = None
    if table is not None:
        d = default_table_dir() / shape_key(FULL, RUMINO)
        size = sum(f.stat().st_size for f in d.iterdir())
        meta = table.meta
        out["table"] = {"directory": str(d), "bytes": size, "build_seconds": meta.get("build_seconds"),
                        "classes7": meta.get("classes7"), "classes8": meta.get("classes8"), "edges": meta.get("edges"),
                        "infinite": meta.get("infinite"), "keep_target_check": meta.get("keep_target_check")}
        print(f"table: {d} ({size / 1e9:.2f} GB), built in {meta.get('build_seconds', float('nan')):.0f} s")
        t0 = time.perf_counter()
        cold = OptimalTable.load(FULL)
        best_answer(HANDS8[1], "knock", 3, table=cold)
        out["lookup_first_seconds"] = time.perf_counter() - t0
        for hand in HANDS8 + HANDS7:
            for goal, n in (("gin", 5), ("knock", 10), ("rumino", 10)):
                if len(hand.split()) == 7 and goal != "gin":
                    continue
                wall, cpu = timed(lambda: best_answer(hand, goal, n, table=table), args.repeat)
                key = f"lookup_{len(hand.split())}cards"
                out[key] = max(out.get(key, 0.0), wall)
        print(f"one 8-card answer from the table (every discard): ≤ {out['lookup_8cards'] * 1e3:.2f} ms "
              f"(target ≤ 10 ms); 7-card (every next draw): ≤ {out['lookup_7cards'] * 1e3:.2f} ms; "
              f"first look-up after loading {out['lookup_first_seconds'] * 1e3:.1f} ms")
        # one class's value alone
        cnt = to_counts(parse_hand(HANDS7[1])).astype(np.int64)
        wall, cpu = timed(lambda: table.value7(cnt, "gin", 5), 50)
        out["lookup_one_class_seconds"] = wall
        print(f"one class's value: {wall * 1e6:.0f} µs")
    if table is not None:
        out["simulation"] = simulate_checks(table, trials=args.trials, seed=args.seed)
    if args.json:
        os.makedirs(os.path.dirname(os.path.abspath(args.json)), exist_ok=True)
        with open(args.json, "w") as fh:
            json.dump(out, fh, indent=1)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
