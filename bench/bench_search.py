"""Search playouts: our compiled Gin playouts per second beside OpenSpiel's ISMCTS simulations per second.

    python bench/bench_search.py            # full run (a few minutes on a quiet 2-core machine)
    python bench/bench_search.py --quick    # smaller samples (about a minute)
    python bench/bench_search.py --json bench/results/search.json   # also save the figures
    python bench/bench_search.py --decisions 6   # only (e): every game's decision times, 6 hands a game

The search player scores an action by playing the rest of the hand out in
sampled worlds; one simulation is one whole playout to the end of the hand.

(a) Ours, compiled: :func:`rumino.variants.gin.playout.playouts`, greedy in both
    seats (rules §6, default ``GinRules()``), on mid-hand positions: seeded deals
    (the one seeding scheme) advanced 0–30 greedy actions, each with many
    worlds — the hidden cards (the opponent's hand and the stock) shuffled
    again, as a determinized search samples them — in one kernel call per
    position; and :func:`~rumino.variants.gin.playout.playout` one call per world
    (what a Python loop pays per playout).
(b) Ours, through the Python engine: ``play`` with two ``GreedyPlayer`` on a copy of
    the same positions (:func:`rumino.variants.gin.playout.python_playout`), the
    rollout the compiled kernel replaces, the evaluator's cache cleared for each
    repeat; the kernel's gains are checked equal.
(c) OpenSpiel: ``pyspiel.ISMCTSBot`` with ``pyspiel.RandomRolloutEvaluator`` (one random
    rollout a simulation) on ``gin_rummy`` with knock card 10, gin bonus 25 and
    undercut bonus 25 (the mapping of tests/games/gin/test_gin_game.py), a fixed
    number of simulations a decision, on mid-hand positions reached by seeded
    random chance outcomes and the simple rule-based bot: simulations per second
    of ``bot.step``. Then the ratio ours / theirs (target: at least 10×).

(e) The search player's decisions at its default budget (``search`` = 200 rollouts), or the best
    player's (``--player best``), against greedy on seeded deals, for every game it plays, in CPU time on
    one core: the median of a searched decision, the mean and p90 of every decision (target: a p90 of
    at most 1 s) and the slowest; the forced decisions spend nothing.

The work differs: an ISMCTS simulation also walks and grows its tree, and its
rollout is uniform random play (OpenSpiel's random gin hands run to the wall);
ours is a greedy playout, exact minimum deadwood after every draw. Rates are
the best of several repeats (the machine is shared), on wall-clock and on CPU
time; the load average is printed in the header.
"""

from __future__ import annotations

import argparse
import os
import sys
import time

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from _common import machine, rate, table, verdict  # noqa: E402  (also puts the repo root on sys.path)
from _common import best_run, one_core, section, write_json  # noqa: E402

one_core()  # before numpy and numba are imported

import numpy as np  # noqa: E402

import rumino.players  # noqa: E402,F401 - registers greedy's Gin decisions
from rumino.players import GreedyPlayer  # noqa: E402
from rumino.variants.gin.playout import playout, playouts, python_playout, sample_worlds, supported  # noqa: E402
from rumino.playing.seeding import new_table  # noqa: E402

SEED = 20261202
TARGET_RATIO = 10.0
OS_PARAMS = {"knock_card": 10, "gin_bonus": 25, "undercut_bonus": 25}


# --------------------------------------------------------------------------- positions and worlds


def mid_hand_positions(n: int) -> list:
    """``n`` seeded Gin positions, each a deal advanced 0–30 greedy actions (still in the hand)."""
    out, i = [], 0
    greedy = GreedyPlayer()
    rng = np.random.default_rng(SEED)
    while len(out) < n:
        game, _ = new_table("gin", ["greedy", "greedy"], SEED, i, dealer=1)
        i += 1
        for _ in range(int(rng.integers(31))):
            game.apply_unchecked(greedy.choose(game.view(game.to_act)))
            if game.hand_over:
                break
        if not game.hand_over:
            out.append(game)
    return out


# --------------------------------------------------------------------------- (a), (b) ours


def bench_ours(n_pos: int, n_worlds: int, n_python: int, repeat: int) -> dict:
    section(f"(a) our Gin playouts, greedy in both seats (seed {SEED}, best of {repeat})")
    games = mid_hand_positions(n_pos)
    assert all(supported(g) for g in games)
    rng = np.random.default_rng([SEED, 1])
    sampled = [sample_worlds(g, n_worlds, rng) for g in games]
    playouts(games[0], sampled[0][1][:2], sampled[0][0][:2])  # warm up: load or compile the kernel

    def batch(k):
        return [playouts(g, s, h) for g, (h, s) in zip(games, sampled)]

    wall, cpu, res = best_run(batch, repeat)
    total = n_pos * n_worlds
    gains = np.concatenate(res)
    out = {"positions": n_pos, "worlds": n_worlds,
           "batch": {"playouts": total, "per_s": total / wall, "per_s_cpu": total / cpu},
           "mean_gain": [float(x) for x in gains.mean(axis=0)]}

    def single(k):
        return [playout(g) for g in games]

    reps = max(1, 2000 // n_pos)
    w1, c1, _ = best_run(lambda k: [single(k) for _ in range(reps)], repeat)
    n1 = n_pos * reps
    out["single"] = {"playouts": n1, "per_s": n1 / w1, "per_s_cpu": n1 / c1}
    headers = ["playouts to the end of the hand", "playouts", "per s", "per s (CPU)"]
    print(table(headers, [
        [f"compiled, {n_worlds} worlds a kernel call (playouts)", f"{total:,}", rate(total / wall), rate(total / cpu)],
        ["compiled, one Python call a playout (playout)", f"{n1:,}", rate(n1 / w1), rate(n1 / c1)]]))
    print(f"{n_pos} positions, 0-30 greedy actions into a seeded deal; mean gains by seat "
          f"{out['mean_gain'][0]:.2f}, {out['mean_gain'][1]:.2f}")

    section(f"(b) the same playouts through the Python engine ({n_python} positions, best of {repeat})")
    some = games[:n_python]
    ev = some[0]._ev  # the engine's shared evaluator: its per-hand cache is cleared for every repeat,
    # or repeats after the first would replay the same hands from it (a search meets new worlds)

    def engine(k):
        ev.clear()
        return [python_playout(g) for g in some]

    wp, cp, want = best_run(engine, repeat)
    got = [playout(g) for g in some]
    if got != want:
        raise AssertionError("the kernel's gains differ from the engine's: run tests/players/test_playout_gin.py")
    out["python"] = {"playouts": n_python, "per_s": n_python / wp, "per_s_cpu": n_python / cp}
    print(table(headers, [["Python engine, two GreedyPlayers (python_playout)", f"{n_python:,}", rate(n_python / wp),
                           rate(n_python / cp)]]))
    r = out["batch"]["per_s"] / out["python"]["per_s"]
    print(f"\ncompiled (batch) ÷ Python engine: {r:.0f}× (wall); the gains are equal on the {n_python} positions")
    out["batch_vs_python"] = r
    return out


# --------------------------------------------------------------------------- (c) OpenSpiel ISMCTS


def openspiel_positions(pyspiel, game, n: int) -> list:
    """``n`` mid-hand gin_rummy states: seeded chance outcomes, 2–30 moves of the simple bot."""
    rng = np.random.default_rng([SEED, 2])
    params = game.get_parameters()
    out = []
    while len(out) < n:
        state = game.new_initial_state()
        agents = [pyspiel.make_simple_gin_rummy_bot(params, p) for p in range(2)]
        target, moves = int(rng.integers(2, 31)), 0
        while not state.is_terminal():
            if state.is_chance_node():
                outcomes = state.chance_outcomes()
                state.apply_action(outcomes[int(rng.integers(len(outcomes)))][0])
                continue
            if moves >= target:
                break
            state.apply_action(agents[state.current_player()].step(state))
            moves += 1
        if not state.is_terminal() and not state.is_chance_node():
            out.append(state)
    return out


def bench_openspiel(n_pos: int, sims: int, repeat: int) -> dict | None:
    section(f"(c) OpenSpiel ISMCTSBot + RandomRolloutEvaluator, {sims} simulations a decision "
            f"({n_pos} positions, best of {repeat})")
    try:
        import pyspiel
    except ImportError:
        print("OpenSpiel is not installed (pip install -e '.[oracles]'): no peer figures.")
        return None
    game = pyspiel.load_game("gin_rummy", OS_PARAMS)
    states = openspiel_positions(pyspiel, game, n_pos)

    def decide(k):
        evaluator = pyspiel.RandomRolloutEvaluator(1, SEED + k)
        bot = pyspiel.ISMCTSBot(SEED + k, evaluator, 2.0, sims)  # uct_c 2, max_world_samples unbounded
        return [bot.step(s.clone()) for s in states]

    wall, cpu, _ = best_run(decide, repeat)
    total = n_pos * sims
    out = {"positions": n_pos, "sims_per_decision": sims, "simulations": total, "per_s": total / wall,
           "per_s_cpu": total / cpu, "params": str(game.get_parameters())}
    print(table(["OpenSpiel", "decisions", "simulations", "per s", "per s (CPU)"],
                [["ISMCTSBot.step, random rollouts", f"{n_pos}", f"{total:,}", rate(total / wall),
                  rate(total / cpu)]]))
    print(f"parameters: {game.get_parameters()}")
    return out


def ratio(ours: dict, theirs: dict | None) -> dict:
    section("(d) our playouts/s ÷ OpenSpiel ISMCTS simulations/s (same run)")
    if theirs is None:
        print("no OpenSpiel figures")
        return {}
    rows, out = [], {}
    for label, key in (("compiled, batch", "batch"), ("compiled, one call per playout", "single"),
                       ("Python engine", "python")):
        r, rc = ours[key]["per_s"] / theirs["per_s"], ours[key]["per_s_cpu"] / theirs["per_s_cpu"]
        out[key] = {"wall": r, "cpu": rc}
        rows.append([label, rate(ours[key]["per_s"]), rate(theirs["per_s"]), f"{r:.1f}×", f"{rc:.1f}×"])
    print(table(["ours", "playouts/s", "ISMCTS sims/s", "ratio", "ratio (CPU)"], rows))
    ok = out["batch"]["wall"] >= TARGET_RATIO
    print(f"\ntarget ≥ {TARGET_RATIO:.0f}× OpenSpiel ISMCTS's simulations/s: {out['batch']['wall']:.1f}× (wall), "
          f"{out['batch']['cpu']:.1f}× (CPU) -> {verdict(ok)}")
    out["target_met"] = ok
    return out


def bench_decisions(hands: int, spec: str = "search", games: list[str] | None = None) -> dict:
    """(e): the CPU time of each searched decision of ``spec`` (``search``: the default budget; ``best``: the
    best player at its budgets) against greedy; the p90 counts every decision, the forced ones too."""
    from rumino.engine.protocol import play
    from rumino.players.search import DEFAULT_SIMULATIONS, SearchPlayer
    from rumino.variants import VARIANTS

    if spec == "best":  # each game's budget for the best player (Variant.bots.best_budget)
        budgets = {v.title: v.bots.best_budget for v in VARIANTS.values() if v.bots.best_budget}
    else:
        budgets = {**{v.title: v.bots.search_budget for v in VARIANTS.values() if v.bots.search_budget},
                   "others": DEFAULT_SIMULATIONS}
    section(f"(e) a decision of the {'best player' if spec == 'best' else 'search player at its default budget'} "
            f"({', '.join(f'{g} {n}' for g, n in budgets.items())} rollouts), {hands} hands against greedy "
            f"a game (Rummoli: its default bot), CPU time on one core")
    rows, out = [], {}
    for key, variant in VARIANTS.items():
        if not SearchPlayer.fits(variant.game) or (games and key not in games):
            continue
        times, every, forced = [], [], 0
        for k in range(hands):
            other = variant.bot  # the game's own bot (Rummoli's default: it has no greedy)
            game, players = new_table(variant, [spec, other], SEED, k, dealer=1)
            searcher = players[0]
            choose = searcher.choose

            def timed(view, choose=choose, searcher=searcher):
                nonlocal forced
                t0 = time.process_time()
                action = choose(view)
                spent = time.process_time() - t0
                every.append(spent)
                if searcher.last.forced:
                    forced += 1
                else:
                    times.append(spent)
                return action

            searcher.choose = timed
            play(game, players, checked=False, until=lambda g: g.hand_over)
        t = np.array(times)
        if not len(t):  # every decision of these hands was forced (a short Rummoli deal): nothing to time
            out[key] = {"decisions": 0, "forced": forced}
            rows.append([key, "0", str(forced), "—", "—", "—", "no searched decision"])
            continue
        e = np.array(every)
        out[key] = {"decisions": len(t), "forced": forced, "median_s": float(np.median(t)),
                    "mean_s": float(e.mean()), "p90_s": float(np.percentile(e, 90)), "max_s": float(t.max())}
        rows.append([key, str(len(t)), str(forced), f"{np.median(t) * 1000:.0f} ms", f"{e.mean() * 1000:.0f} ms",
                     f"{np.percentile(e, 90) * 1000:.0f} ms", f"{t.max() * 1000:.0f} ms",
                     verdict(np.percentile(e, 90) <= 1.0)])
    print(table(["game", "searched", "forced", "median (searched)", "mean (all)", "p90 (all)", "slowest",
                 "p90 ≤ 1 s"], rows))
    return out


def main(argv=None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--quick", action="store_true", help="smaller samples (about a minute)")
    ap.add_argument("--sims", type=int, default=1000, help="ISMCTS simulations a decision (default 1000)")
    ap.add_argument("--json", metavar="PATH", help="also write the figures as JSON")
    ap.add_argument("--decisions", type=int, metavar="HANDS",
                    help="only (e), the decision times, over HANDS hands a game")
    ap.add_argument("--player", default="search", choices=("search", "best"),
                    help="whose decisions (e) times: search at its default budget, or the best player")
    ap.add_argument("--games", default=None, help="(e) for these games only, e.g. robber,romme")
    args = ap.parse_args(argv)
    if args.decisions is not None:
        if args.decisions < 1:
            ap.error(f"--decisions is {args.decisions}: at least one hand a game.")
        print("rumino search benchmark: " + machine())
        decisions = bench_decisions(args.decisions, args.player, args.games.split(",") if args.games else None)
        write_json(args.json, {"seed": SEED, "machine": machine(), "decisions": decisions})
        return 0
    n_pos, n_worlds, n_python, os_pos, repeat = (20, 200, 40, 4, 3) if args.quick else (50, 1000, 200, 12, 5)
    print("rumino search benchmark: " + machine())
    ours = bench_ours(n_pos, n_worlds, n_python, repeat)
    theirs = bench_openspiel(os_pos, args.sims, repeat)
    rs = ratio(ours, theirs)
    decisions = bench_decisions(2 if args.quick else 6, args.player)
    write_json(args.json, {"seed": SEED, "quick": args.quick, "machine": machine(), "ours": ours,
                           "openspiel": theirs, "ratio": rs, "decisions": decisions})
    return 0


if __name__ == "__main__":
    sys.exit(main())
