"""``rumino strength``: a strength match (the best player against a baseline), written into the book's file.

    rumino strength --variant gin --a best --b greedy --deals 1000 --seed 11 --workers 2
    rumino strength --variant gin --a best --b openspiel-simple --deals 1000 --seed 20260601 --workers 2
    rumino strength --list

Each match is played on seeded deals, each deal twice with the seats swapped, and added to
``book/data/family_strength.json`` (``--out``), replacing a match of the same game, players, deals
and seed (:mod:`rumino.tournament.strength`). ``openspiel-simple`` is OpenSpiel's
``SimpleGinRummyBot`` (Gin only; OpenSpiel needed): the deals are replayed card for card in
OpenSpiel's ``gin_rummy`` and scored by rules §6 (:mod:`rumino.tournament.openspiel_gin`).

>>> from rumino.cli import main
>>> import tempfile, os
>>> out = os.path.join(tempfile.mkdtemp(), "strength.json")
>>> main(["strength", "--variant", "gin", "--a", "greedy", "--b", "random", "--deals", "2", "--seed", "1",
...       "--out", out, "--no-progress"])  # doctest: +ELLIPSIS
Gin Rummy: greedy against random, 2 deals (4 hands, seed 1): greedy wins 100.0% ... a decision
written to ...strength.json (1 match)
0
"""

from __future__ import annotations

import dataclasses
import resource
import shlex
import sys
import time
from pathlib import Path

from rumino.cli import CommandError, check_range, check_workers
from rumino.cli.inputs import check_seed, out_file
from rumino.cli.simulate import playable
from rumino.errors import RuleConfigError
from rumino.console import progress_bar
from rumino.players import UnknownPlayerError, make_player
from rumino.tournament.strength import StrengthFileError, match_from_openspiel, play_match, read_matches, write_match

DEFAULT_FILE = Path(__file__).resolve().parents[2] / "book" / "data" / "family_strength.json"
OPENSPIEL_BOTS = {"openspiel-simple": "simple"}
"""The OpenSpiel bots a Gin match can be played against, by the name the file gives them."""


def _cpu() -> float:
    """CPU seconds of this process and its finished children (the workers)."""
    me, kids = resource.getrusage(resource.RUSAGE_SELF), resource.getrusage(resource.RUSAGE_CHILDREN)
    return me.ru_utime + me.ru_stime + kids.ru_utime + kids.ru_stime


def _check_player(spec: str, game, option: str) -> None:
    try:
        player = make_player(spec, seed=0)
    except UnknownPlayerError as err:
        raise CommandError(f"{option}: {err}") from None
    if spec.strip().lower() == "human" or not player.fits(game):
        raise CommandError(f"{option}: {spec!r} does not play {game.NAME} in a match.")


def _openspiel_match(a: str, bot: str, name: str, deals: int, seed: int, workers: int, command: str, tick):
    from concurrent.futures import ProcessPoolExecutor, as_completed

    from rumino.tournament.openspiel_gin import load_pyspiel, play_deal

    try:
        load_pyspiel()
    except ImportError as err:
        raise CommandError(str(err)) from None
    chunks = [(s, min(s + 5, deals)) for s in range(0, deals, 5)]
    records, done = [], 0
    if workers <= 1:
        for lo, hi in chunks:
            for i in range(lo, hi):
                records += play_deal(a, bot, seed, i)
            done += hi - lo
            if tick:
                tick(done, deals)
    else:
        with ProcessPoolExecutor(max_workers=workers) as pool:
            futures = {pool.submit(_openspiel_chunk, a, bot, seed, lo, hi): hi - lo for lo, hi in chunks}
            for f in as_completed(futures):
                records += f.result()
                done += futures[f]
                if tick:
                    tick(done, deals)
    return match_from_openspiel(records, a=a, b=name, seed=seed, command=command)


def _openspiel_chunk(a: str, bot: str, seed: int, lo: int, hi: int) -> list:
    from rumino.tournament.openspiel_gin import play_deal

    return [r for i in range(lo, hi) for r in play_deal(a, bot, seed, i)]


def run(args) -> int:
    if not str(args.out).strip():
        raise CommandError(f"--out is {args.out!r}: give a file name.")
    out = Path(args.out)
    if args.list:
        try:
            matches = read_matches(out)
        except StrengthFileError as err:
            raise CommandError(str(err)) from None
        for m in matches:
            print(m.describe())
        if not matches:
            print(f"{out} holds no match yet.")
        return 0
    if args.a is None or args.b is None:
        raise CommandError("give both players of the match: --a (the stronger) and --b (its opponent).")
    variant = playable(args.variant)
    check_range("--deals", args.deals, 1, 1_000_000, "deals, each played twice")
    check_seed(args.seed)
    check_workers(args.workers)
    _check_player(args.a, variant.game, "--a")
    bot = OPENSPIEL_BOTS.get(args.b.strip().lower())
    if bot is None:
        _check_player(args.b, variant.game, "--b")
    elif variant.key != "gin":
        raise CommandError(f"--b {args.b}: OpenSpiel's bots play Gin only, not {variant.title}.")
    out = out_file("--out", args.out)  # before the match: a file that cannot be written is refused now
    try:
        read_matches(out)  # a file that cannot be read is refused before the match, not after it
    except StrengthFileError as err:
        raise CommandError(str(err)) from None
    command = (f"rumino strength --variant {variant.key} --a {shlex.quote(args.a)} --b {shlex.quote(args.b)} "
               f"--deals {args.deals} --seed {args.seed} --workers {args.workers}")
    bar, tick = progress_bar(not args.no_progress and sys.stderr.isatty(), f"{variant.key} strength", "deals")
    cpu0, t0 = _cpu(), time.perf_counter()
    try:
        if bot is not None:
            match = _openspiel_match(args.a, bot, args.b.strip().lower(), args.deals, args.seed, args.workers,
                                     command, tick)
        else:
            match = play_match(variant.key, args.a, args.b, deals=args.deals, seed=args.seed,
                               workers=args.workers, command=command, progress=tick)
    except RuleConfigError as err:
        raise CommandError(str(err)) from None
    finally:
        if bar is not None:
            bar.close()
    wall = time.perf_counter() - t0
    cpu = _cpu() - cpu0
    match = dataclasses.replace(match, cpu_seconds=round(cpu, 1))  # the whole match's, both players, every worker
    matches = write_match(out, match)
    print(match.describe())
    print(f"written to {out} ({len(matches)} match{'es' if len(matches) != 1 else ''})")
    print(f"{cpu:.0f} CPU seconds, {wall:.0f} s", file=sys.stderr)
    return 0


def register(sub) -> None:
    p = sub.add_parser("strength", help="a strength match (the best player against a baseline) into the book's file",
                       description="Play player A against player B on seeded deals, each deal twice with the seats "
                                   "swapped, and add the match to the book's strength file: A's share of hands won "
                                   "(a tie half) with its Wilson 95% interval, A's points a hand with a 95% "
                                   "interval, A's CPU seconds a decision and every hand.")
    p.add_argument("--variant", default="gin", help="the game (default: gin)")
    p.add_argument("--a", help="the stronger player, e.g. best or search:5000")
    p.add_argument("--b", help="its opponent, e.g. greedy, default (Rummoli) or openspiel-simple (Gin)")
    p.add_argument("--deals", type=int, default=1000, help="deals, each played twice (default 1,000)")
    p.add_argument("--seed", type=int, default=0, help="the seed of the deals (default 0)")
    p.add_argument("--workers", type=int, default=1, help="local processes (at most the machine's cores)")
    p.add_argument("--out", default=str(DEFAULT_FILE), help="the strength file (default: the book's)")
    p.add_argument("--list", action="store_true", help="print the file's matches and stop")
    p.add_argument("--no-progress", action="store_true", help="no progress bar")
    p.set_defaults(run=run)
