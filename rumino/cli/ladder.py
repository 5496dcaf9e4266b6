"""``rumino ladder``: the family ranked from luck to skill, every game's ladder of players in a round robin.

>>> from rumino.cli import main
>>> main(["ladder", "--variants", "rummoli", "--games", "1", "--seed", "1", "--no-progress"])  # doctest: +ELLIPSIS
Rummoli: random, default, search:40, search:200; 1 deal, seed 1, heads-up...
0
"""

from __future__ import annotations

import json
from pathlib import Path

from rumino.cli import CommandError, check_range, check_workers
from rumino.cli.inputs import check_seed, out_file
from rumino.cli.tournament import format_tournament
from rumino.compare.matrix import house_rule_words
from rumino.console import progress_bar
from rumino.errors import RuleConfigError, RuminoError
from rumino.stats import Comparison, verdict
from rumino.tournament.ladder import (HOUSE_RULE_COLUMNS, LADDERS, ResultsFileError, ladder_players, luck_tests, ranking,
                                      read_results, run_house_rules, run_ladder, spread_tests)
from rumino.tournament.run import MAX_DEALS
from rumino.variants import find_variant


def _variants(text: str | None) -> list[str] | None:
    if text is None:
        return None
    keys = []
    for name in (s.strip() for s in text.split(",")):
        try:
            key = find_variant(name).key
        except RuleConfigError as err:
            raise CommandError(str(err)) from None
        if key not in LADDERS:
            raise CommandError(f"--variants: {key} has no ladder; the ladders are {', '.join(LADDERS)}.")
        if key in keys:
            raise CommandError(f"--variants names {key} twice.")
        keys.append(key)
    return keys


def format_ranking(data: dict) -> str:
    """The ranking's lines: each game's rating spread (or its lower bound, where random never won a
    hand against the best) and its baseline's chance against the best, in the order of the estimates,
    then what the tests between games show (:func:`format_game_tests`)."""
    lines = ["", "the family in the order of the rating spread from random to the best (Elo, 95% intervals; the "
                 "order of the estimates, the tests below say which differences are shown):"]
    for row in data["ranking"]:
        v, lo, hi = row["spread_elo"]
        if row.get("spread_at_least") is not None:  # random never won a hand: only a bound is measured
            line = f"  {row['game']:<12} at least {round(row['spread_at_least'])}  best: {row['best']}"
        else:  # round() gives an int, so a bound a hair below 0 prints 0, not -0
            line = f"  {row['game']:<12} {round(v):6d} [{round(lo)}, {round(hi)}]  best: {row['best']}"
        if row["baseline_wins_a_hand"] is not None:
            p, plo, phi = row["baseline_wins_a_hand"]
            line += f"; {row['baseline']} wins a hand against it {p:.1%} [{plo:.1%}, {phi:.1%}]"
        lines.append(line)
    if "games" not in data:  # a ranking alone (no hands to test)
        return "\n".join(lines)
    return "\n".join(lines) + "\n" + format_game_tests(data)


def format_game_tests(data: dict) -> str:
    """What the tests between games show: a random player's chance of a hand against each game's best
    (Fisher's exact test, Holm-adjusted over the pairs) and the rating spreads where both are measured
    (the bootstrap interval of their difference). Only the differences shown are called a ranking."""
    title = {k: find_variant(k).title for k in data["games"]}
    lines = ["", "a random player's hands against the best, game against game (Fisher's exact test on the hands, "
                 "Holm-adjusted over the pairs):"]
    luck = luck_tests(data)
    for key in data["games"]:
        over = [title[t["b"] if t["a"] == key else t["a"]] for t in luck if t["more_luck"] == key]
        if over:
            lines.append(f"  {title[key]}: more luck than {', '.join(over)}")
    undecided = [f"{title[t['a']]} and {title[t['b']]}" for t in luck if not t["shown"]]
    if not luck:
        lines.append("  (no two games to compare)")
    elif not any(t["shown"] for t in luck):
        lines.append("  no difference is shown")
    lines.append(f"  not shown between: {'; '.join(undecided) or 'none'}")
    spreads = spread_tests(data)
    if spreads:
        lines.append("")
        lines.append("rating spreads, game against game where both are measured (bootstrap interval of the "
                     "difference):")
        for t in spreads:
            c = Comparison.from_json(t["comparison"])
            lines.append(f"  {title[t['a']]} against {title[t['b']]}: "
                         + verdict(c, title[t["a"]], title[t["b"]], more="has the larger spread", unit="Elo",
                                   digits=0))
    return "\n".join(lines)


def _columns(names: list[str]) -> list[str]:
    for name in names:
        if name not in HOUSE_RULE_COLUMNS:
            raise CommandError(f"--house-rules: {name} is not a column; the columns are "
                               f"{', '.join(HOUSE_RULE_COLUMNS)}.")
    if len(set(names)) < len(names):
        raise CommandError("--house-rules names a column twice.")
    return names


def _check_resumable(out: Path | None, args) -> None:
    """The results file at ``--out``, read before any game is played: refused (one line) if it is not
    this command's, holds other deals or another seed, or holds a game this version cannot report."""
    try:
        old = read_results(out, deals=args.games, seed=args.seed, replace=args.replace)
    except ResultsFileError as err:
        raise CommandError(str(err)) from None
    for key, game in (old.get("games") or {}).items():  # read as the report will read them, before any play
        try:
            format_tournament(game["tournament"])
            format_ranking({"ranking": ranking({"games": {key: game}})})
        except (KeyError, TypeError, ValueError, IndexError, AttributeError):
            raise CommandError(f"{out} is not a results file of rumino ladder (its game {key!r} cannot be "
                               f"read): give another --out, or --replace to write over it.") from None
    for name, column in (old.get("columns") or {}).items():
        for value, played in column["values"].items():
            try:
                format_tournament(played["tournament"])
            except (KeyError, TypeError, ValueError, IndexError, AttributeError):
                raise CommandError(f"{out} is not a results file of rumino ladder (its column {name!r} at {value} "
                                   f"cannot be read): give another --out, or --replace to write over it.") from None


def run(args) -> int:
    if args.house_rules is not None and args.variants is not None:
        raise CommandError("--house-rules plays its own columns' games: give it no --variants.")
    columns = _columns(args.house_rules) if args.house_rules is not None else None
    variants = _variants(args.variants)
    check_range("--games", args.games, 1, MAX_DEALS, "deals each match plays")
    check_seed(args.seed)
    check_workers(args.workers)
    out = out_file("--out", args.out) if args.out is not None else None  # before any game: an --out of ""
    if args.replace and out is None:
        raise CommandError("--replace is for --out FILE: give the results file to write over.")
    _check_resumable(out, args)
    if columns is None:  # a damaged optimal table is refused now, not when its game comes up
        for key in variants or LADDERS:
            try:
                ladder_players(key)
            except RuminoError as err:
                raise CommandError(str(err).splitlines()[0]) from None
    if args.dask is not None:
        from rumino.compare.figures import check_dask_reachable

        check_dask_reachable(args.dask)
    bars: dict = {}

    def tick(game: str, done: int, total: int) -> None:
        if args.no_progress:
            return
        if game not in bars:
            bars[game] = progress_bar(True, f"{game} ladder", "chunks of deals")
        bars[game][1](done, total)

    try:
        if columns is not None:
            data = run_house_rules(deals=args.games, seed=args.seed, columns=columns, out=out,
                                   workers=args.workers, dask=args.dask, progress=tick, replace=args.replace)
        else:
            data = run_ladder(deals=args.games, seed=args.seed, variants=variants, out=out, workers=args.workers,
                              dask=args.dask, progress=tick, replace=args.replace)
    except (RuleConfigError, RuminoError, OSError) as err:
        raise CommandError(str(err).splitlines()[0]) from None
    finally:
        for bar, _ in bars.values():
            if bar is not None:
                bar.close()
    if args.json:
        print(json.dumps(data))
    elif columns is not None:
        for name in columns or HOUSE_RULE_COLUMNS:
            column = data["columns"][name]
            for value, played in column["values"].items():
                variant = find_variant(column["variant"])
                typed = next((v for v in HOUSE_RULE_COLUMNS[name][2] if str(v) == value), value)
                print(f"{variant.title} with {house_rule_words(variant, column['knob'], typed)}"
                      f"{' (the default)' if str(column['default']) == value else ''}:")
                print(format_tournament(played["tournament"]))
                print(f"  ({played['cpu_seconds']:,.0f} CPU-s, {played['wall_seconds']:,.0f} s wall)")
                print()
    else:
        for key, game in data["games"].items():
            if variants is None or key in variants:
                print(format_tournament(game["tournament"]))
                for spec, why in game["left_out"].items():
                    print(f"  ({spec} left out: {why})")
                print(f"  ({game['cpu_seconds']:,.0f} CPU-s, {game['wall_seconds']:,.0f} s wall)")
                print()
        print(format_ranking(data).lstrip("\n"))
    return 0


def register(sub) -> None:
    p = sub.add_parser(
        "ladder", help="the family ranked from luck to skill: every game's players in a round robin",
        description="Play every game's ladder of players (random, greedy, the other bots, the search player at "
                    "two budgets) heads-up on the same seeded deals, and rank the games by the rating spread "
                    "from the random player to the best. With --out the results file is written after each "
                    "game, and a run with the same --games and --seed keeps the games already in it (and the "
                    "house-rule columns: one file can hold both); a file of other results is refused unless "
                    "--replace.")
    p.add_argument("--variants", default=None, help="comma-separated games (default: every game; the book's ladder was run before "
                        "Oklahoma Gin came and holds the other seven)")
    p.add_argument("--games", type=int, default=200, help="deals each match plays (default 200)")
    p.add_argument("--seed", type=int, default=1, help="the seed of the deals (default 1)")
    p.add_argument("--out", default=None,
                   help="the results file (JSON), written after each game; a run with the same --games and --seed "
                        "resumes it, and any other file there is refused")
    p.add_argument("--replace", action="store_true",
                   help="write over the --out file even if it holds other results (they are lost)")
    p.add_argument("--workers", type=int, default=1, help="local processes (at most the machine's cores)")
    p.add_argument("--dask", metavar="ADDRESS", default=None, help="a Dask scheduler to run the matches on")
    p.add_argument("--house-rules", nargs="*", metavar="COLUMN", default=None,
                   help="instead of the ladders, play what a house rule does to the luck: each column's players "
                        f"once per value of its knob (columns: {', '.join(HOUSE_RULE_COLUMNS)}; default all)")
    p.add_argument("--json", action="store_true", help="print the results as JSON")
    p.add_argument("--no-progress", action="store_true", help="no progress bar")
    p.set_defaults(run=run)
