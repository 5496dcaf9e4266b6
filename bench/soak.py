"""Soak an engine: many seeded bot games with the invariants checked after every action.

    python bench/soak.py --variant rumino --games 10000 --workers 2
    python bench/soak.py --variant rumino --games 2000 --random-share 0.2 --deep --json soak.json
    python bench/soak.py --variant robber --games 100000 --random-share 0.12 --min-random 10000 \
        --workers 2 --state robber_soak.jsonl      # the full Robber soak: resumable, hours of CPU

Not a test (it runs as long as you ask). Game ``i`` is started by the one seeding
scheme (``rumino.playing.seeding.new_table(variant, bots, seed, i)``); a share of
the games (``--random-share``, default 0.1) are played by random bots only, the
rest by greedy-type bots (greedy and threshold knockers) that fit the game, of which
a share (``--mixed-share``, default 0) seat one or more random bots among them
(all-random games of Gin or Wiener last thousands of actions, since random bots
rarely end a hand; mixed tables exercise random choices in games that finish).
After every action ``check_invariants`` runs (``--deep`` also recomputes every
hand's deadwood with the reference search). An invariant that fails is counted
as a *leak* by kind: **cards** (a card out of place, a wrong hand size), **chips**
(money, the pot or the ledger out of balance), **scores**, or **other** (an exception
raised while playing counts here too, with its seed); a game
that does not end within ``--max-actions`` counts as **stuck**; the first few
failures are printed with their seed, so each can be replayed alone. At the end
the script prints games/s, actions/s, games per CPU-second (the workers' own CPU time, the figure
that does not depend on what else the machine runs) and the leak counts (target: 0 of each).

The games are played in chunks (``--chunk``, default 100) shared out to the workers, with a
progress bar on stderr (``--no-progress`` leaves it out). With ``--state FILE`` every finished
chunk is appended to FILE as one JSON line, and a run started again with the same FILE and the same
options plays only the chunks still missing: a long soak can be stopped and resumed. A game's seed
depends only on ``--seed`` and its index, so the chunks and the workers do not change any game.
``--min-random N`` fails the run (exit 1) if fewer than N of its games were all random-bot.
"""

from __future__ import annotations

import argparse
import json
import os
import sys
import time
from concurrent.futures import ProcessPoolExecutor, as_completed

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from _common import machine, one_core  # noqa: E402

one_core()  # before numpy and numba are imported

import numpy as np  # noqa: E402

KINDS = ("cards", "chips", "scores", "other", "stuck")


def _kind(message: str) -> str:
    m = message.lower()
    if "card" in m or "holds" in m or "discard pile" in m or "picked-up" in m:
        return "cards"
    if "money" in m or "pot" in m or "pool" in m or "ledger" in m or "paid" in m or "cents" in m:
        return "chips"
    if "score" in m or "hand " in m or "busted" in m or "rebought" in m:
        return "scores"
    return "other"


def _bots_for(game_cls, n: int, random_only: bool, rng, n_random: int = 0) -> list[str]:
    """The bots of one game: all random, or greedy-type with ``n_random`` random seats among them."""
    from rumino.players import GreedyPlayer, make_player

    if not random_only and make_player("default").fits(game_cls):  # a game with its own default bot: default, some random
        return [("default", "default", "random")[int(rng.integers(3))] for _ in range(n)]
    if random_only or not GreedyPlayer.fits(game_cls):
        return ["random"] * n
    kinds = [s for s in ("greedy", "threshold:2", "threshold:4") if make_player(s).fits(game_cls)]  # Robber: greedy
    specs = [kinds[int(rng.integers(len(kinds)))] for _ in range(n)]
    if n_random:
        for seat in rng.permutation(n)[:n_random]:
            specs[int(seat)] = "random"
    return specs


def soak_range(variant: str, start: int, stop: int, seed: int, random_share: float, deep: bool,
               max_actions: int, mixed_share: float = 0.0, solver_route: str = "auto") -> dict:
    """Play games ``start … stop − 1``; returns counts, timings and the first failures."""
    from rumino.table import solver
    from rumino.playing.seeding import new_table

    if solver_route != "auto":  # the route of the Robber table solver the greedy bot calls (rumino.table.solver.AUTO)
        solver.AUTO = solver_route
    from rumino.variants import find_variant

    v = find_variant(variant)
    game_cls = v.game
    out = {"games": 0, "random_games": 0, "mixed_games": 0, "actions": 0, "seconds": 0.0, "cpu_seconds": 0.0,
           "failures": [],
           **{k: 0 for k in KINDS}}
    t0, c0 = time.perf_counter(), time.process_time()
    for i in range(start, stop):
        rng = np.random.default_rng([seed, i, 2])
        n = int(rng.integers(game_cls.MIN_PLAYERS, game_cls.MAX_SEATS + 1))
        draw = rng.random()
        random_only = draw < random_share
        # a mixed table: random seats among greedy-type ones (the greedy seats end the hands, so a
        # random bot's odd choices are exercised in games that finish; all-random games are long)
        mixed = not random_only and draw < random_share + mixed_share and n > 1
        n_random = int(rng.integers(1, n)) if mixed else 0
        specs = _bots_for(game_cls, n, random_only, rng, n_random)
        game, bots = new_table(v, specs, seed, i)
        actions = 0
        try:
            game.check_invariants(deep=deep)
            while not game.game_over:
                if actions >= max_actions:
                    out["stuck"] += 1
                    out["failures"].append((i, "stuck", f"no end after {max_actions} actions"))
                    break
                seat = game.to_act
                game.apply(bots[seat].choose(game.view(seat)))
                actions += 1
                game.check_invariants(deep=deep)
            else:
                # the end: every card of the pack in one place, every unit of money accounted for
                if hasattr(game, "card_places"):  # a game without stock and discard pile (Rummoli)
                    total = sum(game.card_places().values())
                else:
                    total = sum(len(h) for h in game.hands) + len(game.stock) + len(game.discard) \
                        + len(game.table_cards())  # cards laid in melds (Rommé, Robber)
                if total != game.PACK.size:
                    raise AssertionError(f"cards not conserved at the end: {total} of {game.PACK.size}")
                if sum(game.ledger.paid) != game.ledger.pot + sum(game.ledger.received) or game.ledger.pot:
                    raise AssertionError("money not conserved at the end of the game")
        except AssertionError as err:
            kind = _kind(str(err))
            out[kind] += 1
            out["failures"].append((i, kind, str(err)[:300]))
        except Exception as err:  # a crash is a failure of this game, not the end of the soak
            out["other"] += 1
            out["failures"].append((i, "other", f"{type(err).__name__}: {err}"[:300]))
        out["games"] += 1
        out["random_games"] += random_only
        out["mixed_games"] += mixed
        out["actions"] += actions
    out["seconds"] = time.perf_counter() - t0
    out["cpu_seconds"] = time.process_time() - c0
    out["failures"] = out["failures"][:10]
    out["range"] = [start, stop]
    return out


def main(argv=None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--variant", default="rumino", help="a variant with an engine (default rumino)")
    ap.add_argument("--games", type=int, default=1000, help="games to play (default 1000)")
    ap.add_argument("--workers", type=int, default=1, help="processes (default 1)")
    ap.add_argument("--seed", type=int, default=0, help="seed of the run (default 0)")
    ap.add_argument("--random-share", type=float, default=0.1, help="share of random-bot games (default 0.1)")
    ap.add_argument("--mixed-share", type=float, default=0.0,
                    help="share of games with random bots seated among greedy-type ones (default 0)")
    ap.add_argument("--deep", action="store_true", help="also recompute every hand's deadwood (slow)")
    ap.add_argument("--max-actions", type=int, default=200_000, help="a game longer than this is 'stuck'")
    ap.add_argument("--json", help="also write the figures to this file")
    ap.add_argument("--solver", default="auto", choices=("auto", "hybrid", "milp"),
                    help="route of the Robber table solver the greedy bot uses (default: the library's default)")
    ap.add_argument("--chunk", type=int, default=100, help="games per chunk handed to a worker (default 100)")
    ap.add_argument("--state", help="append each finished chunk to this JSON-lines file and skip those already in it")
    ap.add_argument("--min-random", type=int, default=0, help="fail unless at least this many games are all random-bot")
    ap.add_argument("--no-progress", action="store_true", help="no progress bar on stderr")
    args = ap.parse_args(argv)
    from rumino.variants import find_variant

    v = find_variant(args.variant)
    if v.game is None or not 1 <= args.games <= 100_000_000 or not 1 <= args.workers <= 64 \
            or not 0 <= args.random_share <= 1 or not 0 <= args.mixed_share <= 1 - args.random_share \
            or not 1 <= args.chunk <= 100_000:
        print(f"soak: --variant must have an engine ({v.key} has {'one' if v.game else 'none'}), --games 1 to "
              f"100,000,000, --workers 1 to 64, --random-share 0 to 1, --mixed-share 0 to 1 − random share, --chunk 1 to "
              f"100,000.", file=sys.stderr)
        return 2
    k = min(args.workers, args.games)
    params = {"variant": v.key, "seed": args.seed, "random_share": args.random_share, "deep": args.deep,
              "max_actions": args.max_actions, "mixed_share": args.mixed_share, "solver": args.solver,
              "chunk": args.chunk}
    chunks = [(a, min(a + args.chunk, args.games)) for a in range(0, args.games, args.chunk)]
    parts = _load_state(args.state, params) if args.state else []
    done = {tuple(p["range"]) for p in parts}
    todo = [c for c in chunks if c not in done]
    parts = [p for p in parts if tuple(p["range"]) in set(chunks)]  # a shorter run reports its own games
    print(machine())
    if parts:
        print(f"resumed from {args.state}: {sum(p['games'] for p in parts):,} games done, {len(todo)} chunks left")
    t0 = time.perf_counter()
    from tqdm import tqdm

    bar = tqdm(total=args.games, initial=sum(p["games"] for p in parts), unit="game", disable=args.no_progress,
               file=sys.stderr, smoothing=0.05)
    jobs = [(v.key, a, b, args.seed, args.random_share, args.deep, args.max_actions, args.mixed_share, args.solver)
            for a, b in todo]

    def finished(part):
        parts.append(part)
        bar.update(part["games"])
        bar.set_postfix_str(f"leaks {sum(sum(p[kind] for p in parts) for kind in KINDS)}")
        if args.state:  # one line per chunk, written at once: a killed run loses only the chunks in flight
            with open(args.state, "a") as fh:
                fh.write(json.dumps(part) + "\n")

    if k == 1:
        for job in jobs:
            finished(soak_range(*job))
    else:
        with ProcessPoolExecutor(k) as pool:
            for fut in as_completed([pool.submit(soak_range, *job) for job in jobs]):
                finished(fut.result())
    bar.close()
    wall = time.perf_counter() - t0
    keys = ("games", "random_games", "mixed_games", "actions", "cpu_seconds", *KINDS)
    total = {key: sum(p[key] for p in parts) for key in keys}
    failures = sorted(f for p in parts for f in p["failures"])[:10]
    cpu = total["cpu_seconds"]
    report = {**params, "workers": k, **total, "wall_seconds": round(wall, 2),
              "games_per_second": round(total["games"] / wall, 1) if not done else None,  # a resumed run: CPU only
              "actions_per_second": round(total["actions"] / wall, 1) if not done else None,
              "games_per_cpu_second": round(total["games"] / cpu, 2) if cpu else None, "failures": failures}
    rate = f"{report['games_per_second']:,} games/s, {report['actions_per_second']:,} actions/s, " if not done else ""
    print(f"{v.title}: {total['games']:,} games ({total['random_games']:,} all random-bot, {total['mixed_games']:,} "
          f"mixed) in {wall:.1f} s on {k} worker(s): {rate}{report['games_per_cpu_second']} games per CPU-second "
          f"({cpu:.1f} CPU-s)")
    print("leaks: " + ", ".join(f"{kind} {total[kind]}" for kind in KINDS))
    for i, kind, msg in failures:
        print(f"  game {i} ({kind}): {msg}")
    if args.json:
        with open(args.json, "w") as fh:
            json.dump(report, fh, indent=1)
    short = args.min_random and total["random_games"] < args.min_random
    if short:
        print(f"only {total['random_games']:,} all random-bot games, fewer than --min-random {args.min_random:,}")
    return 0 if not any(total[kind] for kind in KINDS) and not short else 1


def _load_state(path: str, params: dict) -> list[dict]:
    """The chunks a run with these ``params`` already finished (FILE's first line holds its options)."""
    if not os.path.exists(path) or os.path.getsize(path) == 0:
        with open(path, "w") as fh:
            fh.write(json.dumps({"params": params}) + "\n")
        return []
    lines = []
    with open(path) as fh:
        for line in fh:
            try:
                lines.append(json.loads(line))
            except json.JSONDecodeError:  # the line a killed run was writing: its chunk is played again
                pass
    if lines[0].get("params") != params:
        raise SystemExit(f"soak: {path} holds a run with other options ({lines[0].get('params')}); "
                         f"give another --state file")
    return lines[1:]


if __name__ == "__main__":
    sys.exit(main())
