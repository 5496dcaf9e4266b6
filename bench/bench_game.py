"""Game-engine benchmark: complete Rumino hands and games per second, beside OpenSpiel's gin rummy.

    python bench/bench_game.py            # full run (a few minutes on a quiet 2-core machine)
    python bench/bench_game.py --quick    # smaller samples (under a minute)
    python bench/bench_game.py --json bench/results/game.json   # also save the figures

(a) Rumino, whole games between bots through the engine (``rumino.variants.rumino``),
    counting complete hands (every deal played to its knock, gin, rumino or
    stock-out) and complete games (to the winner taking the pool):
      * four greedy bots, the simulation path (``apply_unchecked``) — the target:
        at least 1,000 complete hands per second on one core;
      * the same through the checked ``apply``;
      * two greedy bots (heads-up, like gin rummy);
      * four random-legal bots (every decision lists the legal actions).
    Each repeat plays a fresh block of seeds with the evaluator's per-hand cache
    cleared first, so the cache only helps within the run, as in real use.
(a2) Gin Rummy (``rumino.variants.gin``, rules §6) with two greedy bots, apply_unchecked:
    complete hands (every deal to its knock, gin or void hand) per second — the
    like-for-like comparison with OpenSpiel's gin rummy (target: at least 3×
    OpenSpiel's deals/s with its simple bot, same run).
(b) OpenSpiel ``pyspiel.load_game("gin_rummy")`` (C++, one-deck two-player gin
    rummy; one OpenSpiel game is one deal) driven from a Python loop the same
    way: chance outcomes drawn from a seeded numpy generator, and either uniform
    random legal actions or OpenSpiel's own rule-based bot on both seats
    (``pyspiel.make_simple_gin_rummy_bot(params, player)``).
(c) The ratios: Rumino hands/s over OpenSpiel deals/s, for the rule-based bots
    and for random play.

The games differ (Rumino: 7 cards, two decks and jokers, up to 6 players,
exact minimum deadwood after every draw; gin rummy: 10 cards, one deck, 2
players), so the ratio says how a Python-driven Rumino deal compares in cost
with a Python-driven deal of the best-known open engine, not that the work is
the same. Rates are the best of several repeats (the machine is shared), on
wall-clock and on CPU time; the load average is printed in the header.
"""

from __future__ import annotations

import argparse
import json
import os
import sys
import time

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from _common import machine, rate, table, verdict  # noqa: E402  (also puts the repo root on sys.path)
from _common import best_run, one_core, section  # noqa: E402

one_core()  # before numpy and numba are imported

import numpy as np  # noqa: E402

from rumino.engine import kernels_module, play  # noqa: E402
from rumino.players import GreedyPlayer, RandomPlayer  # noqa: E402
from rumino.variants.gin import GIN, GinGame  # noqa: E402
from rumino.variants.rumino import RUMINO, RuminoGame, evaluator_for  # noqa: E402

SEED = 20240607
TARGET_HANDS = 1000.0


# --------------------------------------------------------------------------- (a) Rumino


def rumino_block(n_players: int, games: int, bots: str, checked: bool, k: int) -> dict:
    evaluator_for(RUMINO).clear()  # a cold cache for every repeat
    hands = actions = 0
    for i in range(games):
        g = RuminoGame.new(RUMINO, n_players, seed=[SEED, k, i])
        players = ([GreedyPlayer() for _ in range(n_players)] if bots == "greedy"
                   else [RandomPlayer(seed=[SEED, k, i, p]) for p in range(n_players)])
        play(g, players, checked=checked)
        hands += len(g.results)
        actions += len(g.history)
    return {"games": games, "hands": hands, "actions": actions}


def bench_rumino(games: int, repeat: int) -> dict:
    section(f"(a) Rumino through the engine (seed {SEED}, best of {repeat})")
    # warm up: numba compiles or loads the kernels, the first deal builds the tables
    rumino_block(4, 3, "greedy", False, 99)
    configs = [
        ("4 greedy bots, apply_unchecked (target)", 4, games, "greedy", False, "greedy4"),
        ("4 greedy bots, checked apply", 4, games, "greedy", True, "greedy4_checked"),
        ("2 greedy bots, apply_unchecked", 2, games, "greedy", False, "greedy2"),
        ("4 random-legal bots, apply_unchecked", 4, max(games // 4, 5), "random", False, "random4"),
    ]
    rows, out = [], {}
    for label, n, g, bots, checked, key in configs:
        wall, cpu, res = best_run(lambda k: rumino_block(n, g, bots, checked, k), repeat)
        h = res["hands"]
        out[key] = {"games": g, "hands": h, "actions": res["actions"],
                    "hands_per_s": h / wall, "games_per_s": g / wall,
                    "hands_per_s_cpu": h / cpu, "games_per_s_cpu": g / cpu}
        rows.append([label, f"{g}", f"{h}", rate(h / wall), rate(h / cpu), rate(g / wall), f"{h / g:.1f}",
                     f"{res['actions'] / h:.0f}"])
    print(table(["bots", "games", "hands", "hands/s", "hands/s (CPU)", "games/s", "hands/game", "actions/hand"],
                rows))
    ok = out["greedy4"]["hands_per_s"] >= TARGET_HANDS
    print(f"\ntarget ≥ {TARGET_HANDS:,.0f} complete hands/s with four greedy bots on one core: "
          f"{out['greedy4']['hands_per_s']:,.0f} hands/s (wall), "
          f"{out['greedy4']['hands_per_s_cpu']:,.0f} (CPU) -> {verdict(ok)}")
    out["target_met"] = ok
    out["kernels"] = kernels_module() is not None
    if not out["kernels"]:
        print("note: rumino.hand.kernels did not load; deadwood came from the slower rumino.hand.arrange")
    return out


# --------------------------------------------------------------------------- (a2) Gin Rummy

TARGET_GIN_RATIO = 3.0


def gin_block(games: int, bots: str, k: int) -> dict:
    from rumino.engine.evaluator import evaluator_for as shared_evaluator

    shared_evaluator(GIN).clear()  # a cold cache for every repeat
    hands = actions = 0
    for i in range(games):
        g = GinGame.new(GIN, 2, seed=[SEED, k, i])
        players = ([GreedyPlayer(), GreedyPlayer()] if bots == "greedy"
                   else [RandomPlayer(seed=[SEED, k, i, p]) for p in range(2)])
        play(g, players, checked=False)
        hands += len(g.results)
        actions += len(g.history)
    return {"games": games, "hands": hands, "actions": actions}


def bench_gin(games: int, repeat: int) -> dict:
    section(f"(a2) Gin Rummy through the engine (seed {SEED}, best of {repeat})")
    gin_block(3, "greedy", 99)
    wall, cpu, res = best_run(lambda k: gin_block(games, "greedy", k), repeat)
    h = res["hands"]
    out = {"greedy2": {"games": games, "hands": h, "actions": res["actions"], "hands_per_s": h / wall,
                       "games_per_s": games / wall, "hands_per_s_cpu": h / cpu, "games_per_s_cpu": games / cpu}}
    print(table(["bots", "games", "hands", "hands/s", "hands/s (CPU)", "games/s", "hands/game", "actions/hand"],
                [["2 greedy bots, apply_unchecked", f"{games}", f"{h}", rate(h / wall), rate(h / cpu),
                  rate(games / wall), f"{h / games:.1f}", f"{res['actions'] / h:.0f}"]]))
    return out


# --------------------------------------------------------------------------- (b) OpenSpiel


def openspiel_block(pyspiel, game, games: int, bots: str, k: int) -> dict:
    rng = np.random.default_rng([SEED, k])
    params = game.get_parameters()
    agents = [pyspiel.make_simple_gin_rummy_bot(params, p) for p in range(2)] if bots == "simple" else None
    moves = 0
    for _ in range(games):
        state = game.new_initial_state()
        if agents:
            for a in agents:
                a.restart()
        while not state.is_terminal():
            if state.is_chance_node():
                outcomes = state.chance_outcomes()
                action = outcomes[int(rng.integers(len(outcomes)))][0]
            elif agents:
                action = agents[state.current_player()].step(state)
            else:
                legal = state.legal_actions()
                action = legal[int(rng.integers(len(legal)))]
            state.apply_action(action)
            moves += 1
    return {"games": games, "moves": moves}


def bench_openspiel(games: int, repeat: int) -> dict | None:
    section(f"(b) OpenSpiel gin_rummy from Python (seed {SEED}, best of {repeat})")
    try:
        import pyspiel
    except ImportError:
        print("OpenSpiel is not installed (pip install -e '.[oracles]'): no peer figures.")
        return None
    game = pyspiel.load_game("gin_rummy")
    openspiel_block(pyspiel, game, 2, "simple", 99)
    rows, out = [], {}
    for label, bots, key in (("simple rule-based bot, both seats", "simple", "simple"),
                             ("uniform random legal actions", "random", "random")):
        wall, cpu, res = best_run(lambda k: openspiel_block(pyspiel, game, games, bots, k), repeat)
        out[key] = {"games": games, "moves": res["moves"], "games_per_s": games / wall,
                    "games_per_s_cpu": games / cpu}
        rows.append([label, f"{games}", rate(games / wall), rate(games / cpu), f"{res['moves'] / games:.0f}"])
    print(table(["OpenSpiel players", "games (deals)", "games/s", "games/s (CPU)", "moves/game"], rows))
    print(f"parameters: {game.get_parameters()}")
    return out


# --------------------------------------------------------------------------- (c) ratios


def gin_ratio(gin: dict, theirs: dict | None) -> dict:
    section("(c2) Gin Rummy hands/s ÷ OpenSpiel gin rummy deals/s (same run, same game)")
    if theirs is None:
        print("no OpenSpiel figures")
        return {}
    r = gin["greedy2"]["hands_per_s"] / theirs["simple"]["games_per_s"]
    rc = gin["greedy2"]["hands_per_s_cpu"] / theirs["simple"]["games_per_s_cpu"]
    print(table(["comparison", "ours", "OpenSpiel", "ratio", "ratio (CPU)"],
                [["2 greedy Gin hands vs OpenSpiel simple-bot deals", rate(gin["greedy2"]["hands_per_s"]),
                  rate(theirs["simple"]["games_per_s"]), f"{r:.2f}×", f"{rc:.2f}×"]]))
    ok = r >= TARGET_GIN_RATIO
    print(f"\ntarget ≥ {TARGET_GIN_RATIO:.0f}× OpenSpiel's gin rummy with its simple bot: {r:.2f}× (wall), "
          f"{rc:.2f}× (CPU) -> {verdict(ok)}")
    return {"gin_greedy2_vs_simple": {"wall": r, "cpu": rc}, "gin_target_met": ok}


def ratios(ours: dict, theirs: dict | None) -> dict:
    section("(c) Rumino hands/s ÷ OpenSpiel gin rummy deals/s (same run)")
    if theirs is None:
        print("no OpenSpiel figures")
        return {}
    pairs = [
        ("4 greedy Rumino hands vs OpenSpiel simple-bot deals", "greedy4", "simple"),
        ("2 greedy Rumino hands vs OpenSpiel simple-bot deals", "greedy2", "simple"),
        ("4 random Rumino hands vs OpenSpiel random deals", "random4", "random"),
    ]
    rows, out = [], {}
    for label, a, b in pairs:
        r = ours[a]["hands_per_s"] / theirs[b]["games_per_s"]
        rc = ours[a]["hands_per_s_cpu"] / theirs[b]["games_per_s_cpu"]
        out[f"{a}_vs_{b}"] = {"wall": r, "cpu": rc}
        rows.append([label, rate(ours[a]["hands_per_s"]), rate(theirs[b]["games_per_s"]), f"{r:.2f}×", f"{rc:.2f}×"])
    g = ours["greedy4"]["games_per_s"] / theirs["simple"]["games_per_s"]
    out["greedy4_games_vs_simple_deals"] = {"wall": g}
    rows.append(["4 greedy Rumino *games* vs OpenSpiel simple-bot deals", rate(ours["greedy4"]["games_per_s"]),
                 rate(theirs["simple"]["games_per_s"]), f"{g:.2f}×", ""])
    print(table(["comparison", "ours", "OpenSpiel", "ratio", "ratio (CPU)"], rows))
    return out


def main(argv=None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--quick", action="store_true", help="smaller samples (under a minute)")
    ap.add_argument("--json", metavar="PATH", help="also write the figures as JSON")
    args = ap.parse_args(argv)
    games, os_games, repeat = (40, 150, 3) if args.quick else (150, 500, 5)
    print("rumino game benchmark: " + machine())
    ours = bench_rumino(games, repeat)
    gin = bench_gin(games, repeat)
    theirs = bench_openspiel(os_games, repeat)
    rs = ratios(ours, theirs)
    rs.update(gin_ratio(gin, theirs))
    if args.json:
        os.makedirs(os.path.dirname(os.path.abspath(args.json)), exist_ok=True)
        with open(args.json, "w") as fh:
            json.dump({"seed": SEED, "quick": args.quick, "machine": machine(), "rumino": ours, "gin": gin,
                       "openspiel": theirs, "ratios": rs}, fh, indent=1)
    return 0


if __name__ == "__main__":
    sys.exit(main())
