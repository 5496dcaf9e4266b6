"""Gin against OpenSpiel's bots, hand by hand on the same deals, seats swapped (issue 23, item 3).

    python bench/bench_gin_openspiel.py --workers 2              # 1,000 deals a match (hours: see below)
    python bench/bench_gin_openspiel.py --quick                  # 10 deals a match (a few minutes)
    python bench/bench_gin_openspiel.py --deals 2000 --simulations 200 --workers 2 --json bench/results/gin_openspiel.json

Every deal is dealt by rumino's seeding scheme, replayed card for card in
OpenSpiel's ``gin_rummy`` and played twice with the seats swapped; every
action goes to both engines, and every hand is scored by our engine (rules §6,
with OpenSpiel's wall): :mod:`rumino.tournament.openspiel_gin`.

(a) ``greedy`` against ``SimpleGinRummyBot`` (``pyspiel.make_simple_gin_rummy_bot``);
(b) ``search:N`` against the same bot — target: more than 55% of hands won
    (a void hand counts ½) with a positive mean of points a hand;
(c) the time a decision: ``search:N`` against ISMCTS with K0 simulations on a
    few deals, both sides timed in the same processes; K = K0 × ours ÷ theirs
    gives ISMCTS about our time a decision (both times are printed again in (d));
(d) ``search:N`` against ``ismcts:K`` (``pyspiel.ISMCTSBot`` with
    ``RandomRolloutEvaluator``, seeded) — target: more than 50% of hands won.

Each line gives the share of hands won with its Wilson 95% interval, the ties,
the mean points a hand (our gain minus theirs) with its 95% interval, and the
mean seconds a decision of each side. Deals go to ``--workers`` processes in
chunks; the figures of (a) and (b) are identical for any number of workers
(the hands are summed in deal order); OpenSpiel's C++ ISMCTS does not replay
from its seed, so (c) and (d) are a fresh sample each run. Cost, measured on
this 2-core machine with both cores busy: ``search:5000`` on the compiled Gin
playout (``rumino.variants.gin.playout``) took 58.9 ms a decision and a hand
has about 12 of ours, so 1,000 deals (2,000 hands) of (b) took 23 CPU-minutes
(12 minutes on 2 workers); (d), where ISMCTS spends as much again, about twice
that; (a) takes half a minute.
"""

from __future__ import annotations

import argparse
import os
import sys
import time
from concurrent.futures import ProcessPoolExecutor, as_completed

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from _common import machine, micros, verdict  # noqa: E402  (also puts the repo root on sys.path)
from _common import one_core, write_json  # noqa: E402

one_core()  # before numpy and numba are imported (the workers inherit it)

from rumino.tournament.openspiel_gin import play_deal, summarize  # noqa: E402

SEED = 20260601
CHUNK = 5  # deals a task: small enough to share out evenly, large enough to keep the pool busy
K0 = 100  # the ISMCTS simulations the calibration times
ISSUE_GREEDY = "47.8% [46.3, 49.3] of hands over 2,000 deals, -1.15 points a hand"


def section(title: str) -> None:
    print(f"\n{title}\n" + "=" * len(title), flush=True)


def _chunk(ours: str, theirs: str, seed: int, start: int, stop: int) -> list:
    records = []
    for i in range(start, stop):
        records += play_deal(ours, theirs, seed, i)
    return records


def run_match(ours: str, theirs: str, deals: int, seed: int, workers: int) -> dict:
    """The match in chunks of deals over ``workers`` processes (1: in this process)."""
    chunks = [(s, min(s + CHUNK, deals)) for s in range(0, deals, CHUNK)]
    records, done, t = [], 0, time.perf_counter()
    if workers <= 1:
        for a, b in chunks:
            records += _chunk(ours, theirs, seed, a, b)
            done += b - a
            print(f"\r  {ours} vs {theirs}: {done}/{deals} deals", end="", file=sys.stderr, flush=True)
    else:
        with ProcessPoolExecutor(max_workers=workers) as pool:
            futures = {pool.submit(_chunk, ours, theirs, seed, a, b): b - a for a, b in chunks}
            for f in as_completed(futures):
                records += f.result()
                done += futures[f]
                print(f"\r  {ours} vs {theirs}: {done}/{deals} deals", end="", file=sys.stderr, flush=True)
    print(file=sys.stderr)
    result = summarize(records, our_spec=ours, their=theirs, seed=seed)
    result["wall_seconds"] = time.perf_counter() - t
    return result


def line(r: dict) -> str:
    lo, hi = r["share_ci95"]
    plo, phi = r["points_ci95"]
    return (f"{r['ours']} vs {r['theirs']}: {r['hands']:,} hands ({r['deals']:,} deals, seed {r['seed']}), "
            f"won {r['share']:.1%} [{lo:.1%}, {hi:.1%}] (wins {r['wins']}, losses {r['losses']}, "
            f"ties {r['ties']} void hands at ½), {r['points_per_hand']:+.2f} points a hand [{plo:+.2f}, {phi:+.2f}]\n"
            f"    time a decision: ours {micros(r['our_seconds_per_decision'])} ({r['our_decisions']:,} decisions), "
            f"theirs {micros(r['their_seconds_per_decision'])} ({r['their_decisions']:,}); endings {r['endings']}; "
            f"equal-deadwood undercuts (§6; OpenSpiel: 0) {r['equal_deadwood_undercuts']}; "
            f"moves replaced {r['replaced'] or 'none'}; {r['wall_seconds']:.0f} s")


def main(argv=None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--deals", type=int, default=1000, help="deals a match, each played twice (default 1,000)")
    ap.add_argument("--quick", action="store_true", help="10 deals a match, 2 to calibrate")
    ap.add_argument("--simulations", type=int, default=200, help="the search player's rollouts a decision (N)")
    ap.add_argument("--ismcts", type=int, default=None, help="ISMCTS simulations K (default: calibrated)")
    ap.add_argument("--calibrate-deals", type=int, default=4, help="deals timed to choose K (default 4)")
    ap.add_argument("--workers", type=int, default=1, help="processes (default 1)")
    ap.add_argument("--seed", type=int, default=SEED)
    ap.add_argument("--skip-greedy", action="store_true", help="leave out (a)")
    ap.add_argument("--skip-ismcts", action="store_true", help="leave out (c) and (d): ISMCTS spends as much time as"
                    " we do, so a 1,000-deal (b) alone takes half the time")
    ap.add_argument("--json", metavar="PATH", help="also write the figures as JSON")
    args = ap.parse_args(argv)
    deals, calib = (10, 2) if args.quick else (args.deals, args.calibrate_deals)
    search = f"search:{args.simulations}"
    try:
        import pyspiel  # noqa: F401
    except ImportError:
        print("OpenSpiel is not installed: pip install open-spiel (or pip install -e '.[oracles]').")
        return 1
    print("rumino Gin against OpenSpiel's bots: " + machine())
    print(f"seed {args.seed}, {deals:,} deals a match (each played twice, seats swapped), {args.workers} workers")
    out = {"seed": args.seed, "deals": deals, "workers": args.workers, "machine": machine()}

    if not args.skip_greedy:
        section("(a) greedy against SimpleGinRummyBot")
        out["greedy_simple"] = r = run_match("greedy", "simple", deals, args.seed, args.workers)
        print(line(r))
        print(f"    (issue 23 measured greedy at {ISSUE_GREEDY})")

    section(f"(b) {search} against SimpleGinRummyBot")
    out["search_simple"] = r = run_match(search, "simple", deals, args.seed, args.workers)
    print(line(r))
    ok = r["share"] > 0.55 and r["points_per_hand"] > 0
    print(f"    target > 55% of hands and > 0 points a hand: {verdict(ok)}"
          f" (the interval's low end {'is' if r['share_ci95'][0] > 0.55 else 'is not'} above 55%)")
    out["search_simple_target_met"] = ok

    if not args.skip_ismcts:
        if args.ismcts is None:
            section(f"(c) the time a decision: {search} against ismcts:{K0} on {calib} deals")
            c = run_match(search, f"ismcts:{K0}", calib, args.seed + 1, min(args.workers, calib))
            ours, theirs = c["our_seconds_per_decision"], c["their_seconds_per_decision"]
            k = max(1, round(K0 * ours / theirs))
            print(f"ours {micros(ours)} a decision, ISMCTS at {K0} simulations {micros(theirs)}: "
                  f"K = {K0} × {ours:.4f} ÷ {theirs:.4f} = {k}")
            out["calibration"] = {"k0": K0, "deals": calib, "ours": ours, "theirs": theirs, "k": k}
        else:
            k = args.ismcts
        section(f"(d) {search} against ismcts:{k} (about equal time a decision)")
        out["search_ismcts"] = r = run_match(search, f"ismcts:{k}", deals, args.seed, args.workers)
        print(line(r))
        ratio = r["their_seconds_per_decision"] / r["our_seconds_per_decision"]
        ok = r["share"] > 0.5
        print(f"    ISMCTS took {ratio:.2f}× our time a decision; target > 50% of hands: {verdict(ok)}")
        out["search_ismcts_target_met"] = ok

    write_json(args.json, out)
    return 0


if __name__ == "__main__":
    sys.exit(main())
