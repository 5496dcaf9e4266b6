"""``rumino length``: how long each game lasts, at 2, 3 and 4 players, from seeded games of its baseline bots.

Hands a game, turns a hand and a game, decisions a turn, and minutes at the table at the book's pace
(:class:`rumino.playing.game_length.TablePace`), each with its 95% interval over the games.
``--out FILE`` writes the results file (the book's ``book/data/game_length.json``) after every table
and, run again with the same games and seed, keeps the tables already measured.

>>> from rumino.cli import main
>>> main(["length", "--variants", "gin", "--games", "2", "--seed", "1", "--no-progress"])  # doctest: +ELLIPSIS
game ...
Gin Rummy ... 2 ...
0
"""

from __future__ import annotations

import json
import os
import resource
import shlex
import sys
import time
from pathlib import Path

from rumino.cli import CommandError, check_range, check_workers
from rumino.cli.inputs import check_seed, out_file, playable_games
from rumino.console import parse_whole, progress_bar
from rumino.errors import RuleConfigError, RuminoError
from rumino.playing.game_length import FIGURE_WORDS, PACE, GameLength, measure_family
from rumino.variants import find_variant, playable_variants

MAX_GAMES = 100_000
SHOWN = ("hands_per_game", "turns_per_hand", "turns_per_game", "minutes_per_game", "decisions_per_turn")


def _players(text: str) -> list[int]:
    out = []
    for part in (s.strip() for s in text.split(",")):
        try:
            size = parse_whole(part)
        except ValueError:
            size = 0
        if not 2 <= size <= 8:
            raise CommandError(f"--players {text!r}: give table sizes from 2 to 8 separated by commas, e.g. 2,3,4.")
        if size in out:
            raise CommandError(f"--players {text!r} names {part} twice.")
        out.append(size)
    return out


def _read_results(path: Path) -> dict:
    """The results file to resume from, or a clear refusal (unreadable, or not a results file of this command)."""
    try:
        data = json.loads(path.read_text(encoding="utf-8"))
    except (OSError, ValueError) as err:
        raise CommandError(f"--out {path}: the file cannot be read as a results file ({type(err).__name__}): "
                           f"move it away or choose another --out.") from None
    if not isinstance(data, dict) or not isinstance(data.get("lengths"), dict) or "run" not in data:
        raise CommandError(f"--out {path}: it is not a results file of rumino length (no \"lengths\"): "
                           f"move it away or choose another --out.")
    return data


def format_lengths(lengths: dict) -> str:
    """The table the command prints: a row a game and table size, each figure with its 95% interval."""
    head = ["game", "players"] + [FIGURE_WORDS[k] for k in SHOWN]
    rows = []
    for key, by_n in lengths.items():
        title = find_variant(key).title
        for n, d in sorted(by_n.items(), key=lambda kv: int(kv[0])):
            m = GameLength.from_json(d)
            f = m.figures()
            rows.append([title, n] + [f"{f[k].value:g} (every game)" if f[k].lo == f[k].hi
                                      else f"{f[k].value:.1f} [{f[k].lo:.1f}, {f[k].hi:.1f}]" for k in SHOWN])
    widths = [max(len(str(r[i])) for r in [head] + rows) for i in range(len(head))]
    lines = ["  ".join(str(c).ljust(w) for c, w in zip(head, widths)).rstrip()]
    lines += ["  ".join(str(c).ljust(w) for c, w in zip(r, widths)).rstrip() for r in rows]
    games = sorted({d["games"] for by_n in lengths.values() for d in by_n.values()})
    seeds = sorted({d["seed"] for by_n in lengths.values() for d in by_n.values()})
    lines += ["", f"{' or '.join(f'{g:,}' for g in games)} seeded games a row (seed {', '.join(map(str, seeds))}), "
                  f"the game's own bot in every seat; 95% intervals over the games.",
              f"minutes at the book's pace: {PACE.words()}."]
    return "\n".join(lines)


def _cpu_seconds() -> float:
    me, kids = resource.getrusage(resource.RUSAGE_SELF), resource.getrusage(resource.RUSAGE_CHILDREN)
    return me.ru_utime + me.ru_stime + kids.ru_utime + kids.ru_stime


def run(args) -> int:
    variants = playable_games("--variants", args.variants, "its length")
    players = _players(args.players)
    check_range("--games", args.games, 1, MAX_GAMES, "games a table plays")
    costly = args.games if args.costly_games is None else check_range("--costly-games", args.costly_games, 1,
                                                                      MAX_GAMES, "games of a slow game")
    check_seed(args.seed)
    check_workers(args.workers)
    for key in variants or playable_variants():
        v = find_variant(key)
        if not any(v.players[0] <= n <= v.players[1] for n in players):
            raise CommandError(f"--players {args.players}: {v.title} is for {v.players[0]} to {v.players[1]} "
                               f"players, none of those given.")
    out = out_file("--out", args.out) if args.out is not None else None
    done = None
    if out is not None:
        if out.exists():
            old = _read_results(out)
            settings = ("seed", "games", "costly_games", "pace")
            mine = {"seed": args.seed, "games": args.games, "costly_games": costly, "pace": PACE.as_json()}
            other = [k for k in settings if old["run"].get(k) != mine[k]]
            if other:
                raise CommandError(f"--out {args.out} holds a run with other settings ({', '.join(other)}: "
                                   f"{', '.join(str(old['run'].get(k)) for k in other)}): move it away, or give "
                                   f"its settings to resume it.")
            done = old["lengths"]
    if args.dask is not None:
        from rumino.compare.figures import check_dask_reachable

        check_dask_reachable(args.dask)
    from rumino.compare.figures import executor_for

    bars: dict = {}

    def tick(label: str, d: int, t: int) -> None:
        if args.no_progress:
            return
        if label not in bars:
            bars[label] = progress_bar(True, label, "chunks")
        bars[label][1](d, t)

    cpu0, wall0 = _cpu_seconds(), time.perf_counter()
    spent = float(done and _read_results(out)["run"].get("cpu_seconds", 0.0) or 0.0)

    def header() -> dict:
        return {"command": "rumino " + shlex.join(sys.argv[1:] if len(sys.argv) > 1 and sys.argv[1] == "length"
                                                  else ["length"]),
                "games": args.games, "costly_games": costly, "seed": args.seed, "pace": PACE.as_json(),
                "cpu_seconds": round(spent + _cpu_seconds() - cpu0, 1),
                "wall_seconds": round(time.perf_counter() - wall0, 1), "workers": args.workers}

    def save(lengths: dict) -> None:
        if out is None:
            return
        part = out.with_name(out.name + ".part")
        part.write_text(json.dumps({"run": header(), "lengths": lengths}, indent=None, separators=(",", ":"))
                        + "\n", encoding="utf-8")
        os.replace(part, out)  # a run stopped mid-write leaves the last whole file

    try:
        with executor_for(args.workers, args.dask) as ex:
            lengths = measure_family(games=args.games, seed=args.seed, variants=variants, players=players,
                                     costly_games=costly, executor=ex, progress=tick, done=done, save=save)
    except (RuleConfigError, RuminoError) as err:
        raise CommandError(str(err).splitlines()[0]) from None
    finally:
        for bar, _ in bars.values():
            if bar is not None:
                bar.close()
    save(lengths)
    shown = {k: v for k, v in lengths.items() if variants is None or k in variants}
    if args.json:
        print(json.dumps({"run": header(), "lengths": shown}))
    else:
        print(format_lengths(shown))
    return 0


def register(sub) -> None:
    p = sub.add_parser(
        "length", help="how long each game lasts: hands, turns, decisions and minutes, at 2, 3 and 4 players",
        description="Play seeded games of each game's default rules with its own bot in every seat, at each "
                    "table size the game allows, and print hands a game, turns a hand and a game, decisions a "
                    "turn and minutes at the table at the book's pace, with 95% intervals. With --out the "
                    "results file is written after each table and resumes a run with the same seed.")
    p.add_argument("--variants", default=None, help="comma-separated games (default: every playable game)")
    p.add_argument("--players", default="2,3,4", help="table sizes (default 2,3,4; a game plays those it allows)")
    p.add_argument("--games", type=int, default=200, help="games a table plays (default 200)")
    p.add_argument("--costly-games", type=int, default=None,
                   help="games a table of a slow game plays (Robber Rummy's solver bot; default: --games)")
    p.add_argument("--seed", type=int, default=1, help="the seed of the games (default 1)")
    p.add_argument("--out", default=None, help="the results file (JSON), written after each table; resumes")
    p.add_argument("--workers", type=int, default=1, help="local processes (at most the machine's cores)")
    p.add_argument("--dask", metavar="ADDRESS", default=None, help="a Dask scheduler to play the games on")
    p.add_argument("--json", action="store_true", help="print the results as JSON")
    p.add_argument("--no-progress", action="store_true", help="no progress bar")
    p.set_defaults(run=run)
