"""Rommé opening-value benchmarks: the compiled kernel (rumino/hand/opening.py) against
the reference search rumino.hand.arrange.max_opening, and the whole simulation of the opening odds.

    python bench/bench_opening.py            # full run (a few minutes on a quiet 2-core machine)
    python bench/bench_opening.py --quick    # smaller samples (under a minute)
    python bench/bench_opening.py --json bench/results/opening.json   # also save the figures

(a) 13- and 14-card deals from the 110-card pack: hands/s of ``max_opening_batch`` by
    its two methods (suits apart with a memo of suit rows, the default; branch and
    bound, for any rules), exact and capped at 50 (enough for every threshold of
    rules §3.6), beside ``arrange.max_opening`` on the first deals, with the number
    of hands on which all of them agree. The memo is filled by a first pass over
    other deals of the same seed family (as in a long simulation, where it fills in
    the first second); the cold first pass over fresh deals is shown too.
    Target: ≥ 1,000,000 13-card hands/s on one core (exact).
(b) Hard hands: joker-heavy (3–6 jokers) and meld-dense 13-card hands, each timed
    alone (a one-row batch, memo warm), median / p99 / max, and the slowest printed
    so it can be replayed.
(c) The simulation as ``rumino odds opening`` runs it: dealing (seeded chunks),
    the kernel and the histogram, deals/s for 13 and 14 cards.

Compile time is excluded; one thread; every rate is the best of several repeats and
is shown on wall-clock and on CPU time (see bench/README.md, "Measuring on a shared
machine").
"""

from __future__ import annotations

import argparse
import json
import os
import sys
import time

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from _common import machine, micros, one_core, rate, table, timed, verdict  # noqa: E402

one_core()  # before numpy and numba are imported

import numpy as np  # noqa: E402

from rumino.hand import opening as ko  # noqa: E402
from rumino.hand.arrange import max_opening  # noqa: E402
from rumino.cards import JOKER, ROMME_PACK, Pack, format_hand, from_counts, to_counts  # noqa: E402
from rumino.melds import ROMME_MELDS  # noqa: E402
from rumino.odds.montecarlo import sample_deals  # noqa: E402
from rumino.odds.opening import simulate_opening  # noqa: E402

SEED = 20261130


def section(title: str) -> None:
    print(f"\n{title}\n" + "=" * len(title))


def bench_deals(size: int, n: int, n_arrange: int, repeat: int) -> dict:
    section(f"(a) {size}-card deals from the 110-card pack (seed {SEED + size}, {n:,} deals)")
    ko._TABLES.clear()  # a cold memo: the first pass fills it
    warm = sample_deals(ROMME_PACK, size, n, np.random.default_rng(SEED + 100 + size))
    ko.max_opening_batch(warm[:10], ROMME_MELDS)  # compile / load, build the tables
    ko.max_opening_batch(warm[:10], ROMME_MELDS, method="search")
    t0, c0 = time.perf_counter(), time.process_time()
    ko.max_opening_batch(warm, ROMME_MELDS)
    cold, cold_cpu = time.perf_counter() - t0, time.process_time() - c0
    hands = sample_deals(ROMME_PACK, size, n, np.random.default_rng(SEED + size))
    exact = ko.max_opening_batch(hands, ROMME_MELDS)
    runs = {
        "split": lambda: ko.max_opening_batch(hands, ROMME_MELDS),
        "split, cap 50": lambda: ko.max_opening_batch(hands, ROMME_MELDS, cap=50),
        "search": lambda: ko.max_opening_batch(hands, ROMME_MELDS, method="search"),
    }
    times = {k: timed(fn, repeat) for k, fn in runs.items()}
    search = ko.max_opening_batch(hands, ROMME_MELDS, method="search")
    capped = ko.max_opening_batch(hands, ROMME_MELDS, cap=50)
    sub = [from_counts(h) for h in hands[:n_arrange]]
    t_ref, c_ref = timed(lambda: [max_opening(h, ROMME_MELDS) for h in sub], 1)
    ref = np.array([max_opening(h, ROMME_MELDS).value for h in sub])
    agree_ref = int((ref == exact[:n_arrange]).sum())
    agree_search = int((search == exact).sum())
    agree_cap = int((((capped >= 50) == (exact >= 50)) & ((capped == exact) | (exact >= 50))).sum())
    ref_rate = n_arrange / t_ref
    rows = [[f"max_opening_batch, {k}", f"{n:,}", f"{w:.3f} s", rate(n / w), rate(n / c), f"{(n / w) / ref_rate:.0f}×"]
            for k, (w, c) in times.items()]
    rows.append([f"max_opening_batch, split, cold memo (other deals)", f"{n:,}", f"{cold:.3f} s", rate(n / cold),
                 rate(n / cold_cpu), f"{(n / cold) / ref_rate:.0f}×"])
    rows.append(["rumino.hand.arrange.max_opening (reference)", f"{n_arrange:,}", f"{t_ref:.3f} s", rate(ref_rate),
                 rate(n_arrange / c_ref), "1×"])
    print(table(["evaluator (one core)", "hands", "best time", "rate", "rate (CPU time)", "vs arrange"], rows))
    print(f"agreement: split = arrange.max_opening on {agree_ref:,} of {n_arrange:,}; split = search on "
          f"{agree_search:,} of {n:,}; cap 50 answers every threshold ≤ 50 on {agree_cap:,} of {n:,}")
    print(f"share of deals with an opening ≥ 40: {(exact >= 40).mean():.4f}; mean opening value {exact.mean():.2f}")
    best = n / times["split"][0]
    out = {"hands": n, "rates": {k: n / w for k, (w, c) in times.items()},
           "cpu_rates": {k: n / c for k, (w, c) in times.items()}, "cold_rate": n / cold, "arrange_rate": ref_rate,
           "agree_arrange": [agree_ref, n_arrange], "agree_search": [agree_search, n], "agree_cap": [agree_cap, n]}
    if size == 13:
        ok = best >= 1e6
        cpu = n / times["split"][1]
        print(f"target ≥ 1,000,000 13-card hands/s on one core (exact, split): {verdict(ok)} on wall-clock time "
              f"({rate(best)}); on CPU time {verdict(cpu >= 1e6)} ({rate(cpu)})")
        out["targets"] = {"≥ 1 M 13-card hands/s": ok}
        out["target_on_cpu_time"] = cpu >= 1e6
    return out


def _hard_hands(n: int, rng) -> dict[str, np.ndarray]:
    naturals = Pack(decks=2, jokers=0)
    heavy = np.zeros((n, 53), dtype=np.int8)
    for i in range(n):
        j = int(rng.integers(3, 7))
        heavy[i] = sample_deals(naturals, 13 - j, 1, rng)[0]
        heavy[i, JOKER] = j
    dense = np.zeros((n, 53), dtype=np.int8)
    for i in range(n):
        suits = rng.choice(4, size=int(rng.integers(1, 3)), replace=False)
        width = int(rng.integers(4, 8))
        lo = int(rng.integers(0, 14 - width))
        pool = [s * 13 + r for s in suits for r in range(lo, lo + width) for _ in range(2)]
        pool += [s * 13 + r for s in range(4) if s not in suits for r in range(lo, lo + 3) for _ in range(2)]
        j = int(rng.integers(0, 7))
        take = min(13 - j, len(pool))
        dense[i] = to_counts([pool[p] for p in rng.choice(len(pool), size=take, replace=False)] + [JOKER] * (13 - take))
    return {"3–6 jokers": heavy, "meld-dense, 0–6 jokers": dense}


def bench_hard(n: int) -> dict:
    section(f"(b) hard 13-card hands, each timed alone ({n:,} of each kind, seed {SEED + 7})")
    out = {}
    rows = []
    for label, hands in _hard_hands(n, np.random.default_rng(SEED + 7)).items():
        ko.max_opening_batch(hands, ROMME_MELDS)  # warm the memo, as a long run has it
        secs = np.empty(n)
        for i in range(n):
            row = hands[i:i + 1]
            t = time.perf_counter()
            ko.max_opening_batch(row, ROMME_MELDS)
            secs[i] = time.perf_counter() - t
        worst = int(np.argmax(secs))
        again = timed(lambda: ko.max_opening_batch(hands[worst:worst + 1], ROMME_MELDS), 5)[0]
        rows.append([label, micros(float(np.median(secs))), micros(float(np.quantile(secs, 0.99))),
                     micros(float(secs.max())), micros(again)])
        hand = format_hand(from_counts(hands[worst]))
        ref = max_opening(from_counts(hands[worst]), ROMME_MELDS).value
        got = int(ko.max_opening_batch(hands[worst:worst + 1], ROMME_MELDS)[0])
        print(f"slowest {label}: {hand} (opening {got}; arrange.max_opening {ref})")
        out[label] = {"median_s": float(np.median(secs)), "max_s": float(secs.max()), "retimed_max_s": again,
                      "slowest": hand, "agrees": got == ref}
    print(table(["hands", "median", "p99", "max (first pass)", "slowest, re-timed"], rows))
    print("one-row batches: the times include the call from Python (a few µs)")
    return out


def bench_simulation(n: int, repeat: int) -> dict:
    section(f"(c) the simulation as `rumino odds opening` runs it ({n:,} deals, seeded chunks)")
    out = {}
    rows = []
    for cards in (13, 14):
        simulate_opening(70_000, seed=1, cards=cards)  # compile, tables, memo
        w, c = timed(lambda: simulate_opening(n, seed=2, cards=cards), repeat)
        s = simulate_opening(n, seed=2, cards=cards)
        e = s.p_open(40)
        rows.append([f"{cards} cards", f"{n:,}", f"{w:.2f} s", rate(n / w), rate(n / c), str(e)])
        out[cards] = {"rate": n / w, "cpu_rate": n / c, "p_open_40": e.as_json()}
    print(table(["deal", "deals", "best time", "rate", "rate (CPU time)", "P(open ≥ 40)"], rows))
    return out


def main(argv=None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--quick", action="store_true", help="smaller samples (under a minute)")
    parser.add_argument("--json", metavar="PATH", help="also write the figures to this JSON file")
    args = parser.parse_args(argv)
    q = args.quick
    print("rumino Rommé opening benchmark" + (" (--quick)" if q else ""))
    print(machine())
    repeat = 3 if q else 5
    print(f"numba threads: {os.environ['NUMBA_NUM_THREADS']}; compile time excluded; "
          f"rates are best of {repeat} repeats")
    results = {
        "deals_13": bench_deals(13, n=300_000 if q else 2_000_000, n_arrange=500 if q else 3_000, repeat=repeat),
        "deals_14": bench_deals(14, n=300_000 if q else 2_000_000, n_arrange=500 if q else 3_000, repeat=repeat),
        "hard": bench_hard(n=500 if q else 3_000),
        "simulation": bench_simulation(n=500_000 if q else 4_000_000, repeat=2 if q else 3),
    }
    results["machine"] = machine()
    if args.json:
        os.makedirs(os.path.dirname(os.path.abspath(args.json)), exist_ok=True)
        with open(args.json, "w") as f:
            json.dump(results, f, indent=2, default=str)
        print(f"\nfigures written to {args.json}")
    missed = [f"{part}: {name}" for part, r in results.items() if isinstance(r, dict)
              for name, ok in r.get("targets", {}).items() if not ok]
    print("\nall targets met" if not missed else "\ntargets missed: " + "; ".join(missed))
    return 0


if __name__ == "__main__":
    sys.exit(main())
