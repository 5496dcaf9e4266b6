"""``rumino strength``: a strength match (the best player against a baseline), written into the book's file.

    rumino strength --variant gin --a best --b greedy --deals 1000 --seed 11 --workers 2
    rumino strength --variant gin --a best --b openspiel-simple --deals 1000 --seed 20260601 --workers 2
    rumino strength --list

Each match is played on seeded deals, each deal twice with the seats swapped, and added to
``book/data/family_strength.json`` (``--out``), replacing a match of the same game, players, deals
and seed (:mod:`rumino.tournament.strength`). ``openspiel-simple`` is OpenSpiel's
``SimpleGinRummyBot`` (Gin only; OpenSpiel needed): the deals are replayed card for card in
OpenSpiel's ``gin_rummy`` and scored by rules §6 (:mod:`rumino.tournament.openspiel_gin`).

A match is resumable. While it is played, every chunk of deals that finishes is appended to its
journal, ``<out>.unfinished/<game>-<a>-<b>-seed<seed>-<deals>deals.jsonl`` (one deal a line,
:class:`rumino.tournament.strength.Journal`). A match cut short (Ctrl-C, a killed process, a session
that ends) keeps every deal finished, and the same command again plays only the deals still missing
(``--workers`` may differ: a deal's hands do not depend on it); the figures are those of an
uninterrupted run. Before it resumes, the first deal kept is played again and must give the same
hands. When the match is complete it goes into the file and the journal is removed.

A journal of other settings (another match, other house rules, a player changed since, a file that
is no journal, a damaged line) is refused in one line, exit 2, before any play, and left as it is;
``--restart`` discards it and plays the match from its first deal. A last line cut short (the process
killed while writing it) is dropped and its deal played again. A folder beside ``--out`` that takes
no new file is refused before any play. ``--list`` names the unfinished matches too.

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
from rumino.tournament.strength import (OPENSPIEL_RULES, JournalError, StrengthFileError, check_journal, journal_path,
                                        match_settings, open_journal, openspiel_deal, play_deal, play_match,
                                        play_openspiel_match, read_matches, unfinished_matches, write_match)
from rumino.variants import find_variant

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


def _openspiel_settings(bot: str) -> dict:
    """OpenSpiel's bot as a journal keeps it: which bot, and OpenSpiel's version."""
    from importlib.metadata import PackageNotFoundError, version

    try:
        release = version("open_spiel")
    except PackageNotFoundError:
        release = "unknown"
    return {"kind": "OpenSpiel", "bot": bot, "open_spiel": release}


def _list(out: Path) -> int:
    try:
        matches = read_matches(out)
    except StrengthFileError as err:
        raise CommandError(str(err)) from None
    for m in matches:
        print(m.describe())
    if not matches:
        print(f"{out} holds no match yet.")
    for path, head, kept in unfinished_matches(out):
        if head is None:
            print(f"unfinished: {path} cannot be read as a match in progress")
            continue
        s = head["settings"]
        try:
            title = find_variant(s["game"]).title
        except RuleConfigError:
            title = s["game"]
        print(f"unfinished: {title}, {s['a']} against {s['b']}, {kept:,} of {s['deals']:,} deals played "
              f"(seed {s['seed']}); to finish it: {head.get('command') or 'the command that began it'}")
    return 0


def run(args) -> int:
    if not str(args.out).strip():
        raise CommandError(f"--out is {args.out!r}: give a file name.")
    out = Path(args.out)
    if args.list:
        return _list(out)
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
    if bot is not None:
        from rumino.tournament.openspiel_gin import load_pyspiel

        try:
            load_pyspiel()
        except ImportError as err:
            raise CommandError(str(err)) from None
    out = out_file("--out", args.out)  # before the match: a file that cannot be written is refused now
    try:
        read_matches(out)  # a file that cannot be read is refused before the match, not after it
    except StrengthFileError as err:
        raise CommandError(str(err)) from None
    command = (f"rumino strength --variant {variant.key} --a {shlex.quote(args.a)} --b {shlex.quote(args.b)} "
               f"--deals {args.deals} --seed {args.seed} --workers {args.workers}")
    b_name = args.b.strip().lower() if bot is not None else args.b
    if bot is not None:
        from rumino.tournament.openspiel_gin import RULES as OPENSPIEL_GAME

        settings = match_settings("gin", args.a, b_name, deals=args.deals, seed=args.seed, rules=OPENSPIEL_GAME,
                                  label=OPENSPIEL_RULES, b_settings=_openspiel_settings(bot))
    else:
        settings = match_settings(variant.key, args.a, args.b, deals=args.deals, seed=args.seed)
    where = journal_path(out, variant.key, args.a, b_name, args.seed, args.deals)
    try:
        journal = open_journal(where, settings, command=f"{command} --out {shlex.quote(str(out))}",
                               restart=args.restart)
        if journal.kept:  # one deal played again: the players and rules still give the hands it keeps
            if not args.no_progress and sys.stderr.isatty():  # a slow game's deal takes a while: say why
                print(f"checking the {len(journal.kept):,} deals kept: deal {min(journal.kept) + 1} is played "
                      f"again…", file=sys.stderr)
            check_journal(journal, (lambda i: openspiel_deal(args.a, bot, args.seed, i)) if bot is not None
                          else (lambda i: play_deal(variant.key, args.a, args.b, args.seed, i)))
        journal.begin()
    except JournalError as err:
        raise CommandError(str(err)) from None
    except OSError as err:  # the folder beside --out takes no new file, or the journal cannot be written
        raise CommandError(f"the deals played cannot be kept in {where.parent} "
                           f"({(err.strerror or type(err).__name__).lower()}): give another --out.") from None
    except RuleConfigError as err:
        raise CommandError(str(err)) from None
    earlier = journal.cpu_seconds  # CPU seconds the deals kept took when they were played
    if journal.kept:
        print(f"resuming: {len(journal.kept):,} of {args.deals:,} deals already played (kept in {where})",
              file=sys.stderr)
    bar, tick = progress_bar(not args.no_progress and sys.stderr.isatty(), f"{variant.key} strength", "deals",
                             initial=len(journal.kept))
    cpu0, t0 = _cpu(), time.perf_counter()
    try:
        if bot is not None:
            match = play_openspiel_match(args.a, bot, b_name, deals=args.deals, seed=args.seed,
                                         workers=args.workers, command=command, progress=tick, journal=journal)
        else:
            match = play_match(variant.key, args.a, args.b, deals=args.deals, seed=args.seed,
                               workers=args.workers, command=command, progress=tick, journal=journal)
    except RuleConfigError as err:
        raise CommandError(str(err)) from None
    finally:
        journal.close()
        if bar is not None:
            bar.close()
    wall = time.perf_counter() - t0
    cpu = _cpu() - cpu0
    # the whole match's, both players, every worker: this run's, and what the deals kept from earlier runs took
    match = dataclasses.replace(match, cpu_seconds=round(cpu + earlier, 1))
    matches = write_match(out, match)
    journal.finish()  # the match is in the file: its deals need not be kept apart any more
    print(match.describe())
    print(f"written to {out} ({len(matches)} match{'es' if len(matches) != 1 else ''})")
    again = f" this run ({cpu + earlier:.0f} in all)" if earlier else ""
    print(f"{cpu:.0f} CPU seconds{again}, {wall:.0f} s", file=sys.stderr)
    return 0


def register(sub) -> None:
    p = sub.add_parser("strength", help="a strength match (the best player against a baseline) into the book's file",
                       description="Play player A against player B on seeded deals, each deal twice with the seats "
                                   "swapped, and add the match to the book's strength file: A's share of hands won "
                                   "(a tie half) with its Wilson 95% interval, A's points a hand with a 95% "
                                   "interval, A's CPU seconds a decision and every hand. The deals played are kept "
                                   "as they finish (in a folder beside the file, OUT.unfinished): a match cut short "
                                   "resumes where it stopped when the same command is run again.")
    p.add_argument("--variant", default="gin", help="the game (default: gin)")
    p.add_argument("--a", help="the stronger player, e.g. best or search:5000")
    p.add_argument("--b", help="its opponent, e.g. greedy, default (Rummoli) or openspiel-simple (Gin)")
    p.add_argument("--deals", type=int, default=1000, help="deals, each played twice (default 1,000)")
    p.add_argument("--seed", type=int, default=0, help="the seed of the deals (default 0)")
    p.add_argument("--workers", type=int, default=1, help="local processes (at most the machine's cores)")
    p.add_argument("--out", default=str(DEFAULT_FILE), help="the strength file (default: the book's)")
    p.add_argument("--restart", action="store_true",
                   help="discard the deals kept from an unfinished run of this match and play it from its first "
                        "deal")
    p.add_argument("--list", action="store_true", help="print the file's matches (and the unfinished ones) and stop")
    p.add_argument("--no-progress", action="store_true", help="no progress bar")
    p.set_defaults(run=run)
