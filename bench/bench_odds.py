"""Benchmark of the odds engine: ours against the targets and the peers, in one run, with ratios.

    python bench/bench_odds.py            # everything (about a minute)
    python bench/bench_odds.py --quick    # smaller samples, no exact enumeration

Targets (issue 4): the exact Rumino deal distribution in ≤ 60 s and ≤ 2 GB peak
memory on a 2-core machine; ≥ 1,000,000 simulated Rumino deals evaluated per
second on one core. Peers: OpenSpiel's and RLCard's gin rummy deadwood, timed
on random 10-card gin deals (the only deal they can evaluate), and the naive
alternatives inside rumino (brute force over every deal instead of suit
classes; the generic sampler instead of Floyd's).
"""

from __future__ import annotations

import argparse
import json
import os
import resource
import subprocess
import sys
import time
from math import comb

import numpy as np

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
sys.path.insert(0, ROOT)

from rumino.cards import RUMINO_PACK, STANDARD_PACK, sample_hands  # noqa: E402
from rumino.hand.kernels import min_deadwood_batch  # noqa: E402
from rumino.melds import GIN_MELDS, RUMINO_MELDS  # noqa: E402
from rumino.odds.enumerate import PackShape, class_count  # noqa: E402
from rumino.odds.montecarlo import sample_deals, simulate_deals  # noqa: E402
from rumino.variants import find_variant  # noqa: E402

EXACT_CHILD = r"""
import json, resource, time
from rumino.odds.exact import rumino_deal_distribution
t = time.perf_counter()
d = rumino_deal_distribution()
secs = time.perf_counter() - t
peak_kb = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss
print(json.dumps({"seconds": secs, "peak_mb": peak_kb / 1024, "classes": d.classes,
                  "p_gin": str(d.p_gin()), "deals": d.deals()}))
"""


def line(name: str, ours: str, other: str = "", ratio: str = "", target: str = "") -> None:
    print(f"{name:<44} {ours:>22} {other:>22} {ratio:>9}  {target}")


def rate(n: int, secs: float) -> str:
    return f"{n / secs / 1e6:.2f} M/s"


def bench_exact() -> None:
    # a child process, so its peak memory is its own (imports, numba, the enumeration)
    out = subprocess.run([sys.executable, "-c", EXACT_CHILD], capture_output=True, text=True, cwd=ROOT, check=True)
    r = json.loads(out.stdout.strip().splitlines()[-1])
    deals = comb(108, 7)
    line("exact Rumino deal distribution (1 core)", f"{r['seconds']:.1f} s", "", "",
         f"target ≤ 60 s: {'met' if r['seconds'] <= 60 else 'MISSED'}")
    line("  peak memory of that process", f"{r['peak_mb']:.0f} MB", "", "",
         f"target ≤ 2048 MB: {'met' if r['peak_mb'] <= 2048 else 'MISSED'}")
    # the naive alternative: evaluate every one of the C(108, 7) deals at the measured kernel rate
    per_hand = r["seconds"] / r["classes"]
    line("  hands evaluated: classes vs every deal", f"{r['classes']:,}", f"{deals:,}",
         f"{deals / r['classes']:.0f}×", f"brute force would take ~{deals * per_hand / 3600:.0f} h")


def bench_rumino_simulation(n: int) -> None:
    variant = find_variant("rumino")
    simulate_deals(variant, 20_000, 0)  # compile and warm up
    t = time.perf_counter()
    simulate_deals(variant, n, 1)
    secs = time.perf_counter() - t
    ours = n / secs
    line("simulated Rumino deals, sample+evaluate (1 core)", rate(n, secs), "", "",
         f"target ≥ 1.00 M/s: {'met' if ours >= 1e6 else 'MISSED'}")
    rng = np.random.default_rng(2)
    sample_deals(RUMINO_PACK, 7, 1000, rng)
    t = time.perf_counter()
    sample_deals(RUMINO_PACK, 7, n, rng)
    floyd = time.perf_counter() - t
    m = min(n, 200_000)
    t = time.perf_counter()
    sample_hands(RUMINO_PACK, 7, m, rng)
    generic = (time.perf_counter() - t) * n / m
    line("  dealing only: Floyd vs cards.sample_hands", rate(n, floyd), rate(n, generic), f"{generic / floyd:.0f}×")


def bench_gin_peers(n: int) -> None:
    rng = np.random.default_rng(5)
    counts = sample_deals(STANDARD_PACK, 10, n, rng)
    min_deadwood_batch(counts[:100], GIN_MELDS)
    t = time.perf_counter()
    ours_dw = min_deadwood_batch(counts, GIN_MELDS)
    ours = time.perf_counter() - t
    hands = [np.flatnonzero(row[:52]).tolist() for row in counts]
    try:
        import pyspiel

        U = pyspiel.gin_rummy.GinRummyUtils(13, 4, 10)
        m = min(n, 100_000)
        t = time.perf_counter()
        theirs = [U.min_deadwood(h) for h in hands[:m]]
        spiel = (time.perf_counter() - t) * n / m
        agree = theirs == ours_dw[:m].tolist()
        line("gin 10-card deadwood: ours vs OpenSpiel", rate(n, ours), rate(n, spiel), f"{spiel / ours:.1f}×",
             f"values agree: {agree}")
    except ImportError:
        line("gin 10-card deadwood: OpenSpiel", "", "not installed")
    try:
        from rlcard.games.gin_rummy.utils import melding, utils
        from rlcard.games.gin_rummy.utils.gin_rummy_error import GinRummyProgramError  # noqa: F401
        from rlcard.games.base import Card

        suits = "SCDH"
        ranks = "A23456789TJQK"
        m = min(n, 3_000)
        cards = [[Card(suits[c // 13], ranks[c % 13]) for c in h] for h in hands[:m]]
        t = time.perf_counter()
        theirs = []
        for hand in cards:
            clusters = melding.get_best_meld_clusters(hand)
            theirs.append(utils.get_deadwood_count(hand, clusters[0]) if clusters else
                          sum(utils.get_deadwood_value(c) for c in hand))
        rl = (time.perf_counter() - t) * n / m
        agree = theirs == ours_dw[:m].tolist()
        line("gin 10-card deadwood: ours vs RLCard", rate(n, ours), rate(n, rl), f"{rl / ours:.0f}×",
             f"values agree: {agree}")
    except ImportError:
        line("gin 10-card deadwood: RLCard", "", "not installed")


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--quick", action="store_true", help="smaller samples and no exact enumeration")
    args = ap.parse_args()
    n = 200_000 if args.quick else 2_000_000
    print(f"rumino odds benchmark · {os.cpu_count()} cores · Rumino classes {class_count(PackShape(copies=2, jokers=4), 7):,}")
    line("", "rumino", "peer / naive", "ratio")
    if not args.quick:
        bench_exact()
    bench_rumino_simulation(n)
    bench_gin_peers(n // 4)
    usage = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024
    print(f"(this process peaked at {usage:.0f} MB)")


if __name__ == "__main__":
    main()
