"""``rumino atlas``: what each house rule changes, every knob of every game measured against its default.

Each knob is set in turn to each of its other values (a numeric knob: the low end of its range, half and
twice the default) and the game is played on the same seeded deals as its default rules: the baseline bot
(greedy; Rummoli's default) in both seats for the length of a game and the first player's edge, and the
baseline against the random player, the seats swapped, for its edge and the deal's share of the variance
(:mod:`rumino.tournament.atlas`). Each figure's difference from the default is printed with its 95%
interval, paired on the deals. The results file (``--out``, by default the book's
``book/data/house_rule_atlas.json``) is written whenever a value's deals are all in; the same command
run again resumes it, playing only what is missing, and a file written with other settings is refused.

CPU cost on the project's 2-core machine: ``rumino atlas --deals 4 --seed 1`` (every knob of every game:
195 values and 8 defaults) took 90.8 CPU-s; the default run at 200 deals, seed 1, took for seven games
(CPU-seconds a deal of one set of rules, sets of rules, CPU-minutes in all)

=============  ========  =====  ==========
game           s a deal  rules  CPU-min
=============  ========  =====  ==========
Rumino         0.008     29     0.8
Rummoli        0.005     20     0.3
Rommé          0.057     36     6.9
Wiener Rummy   0.013     30     1.3
Gin Rummy      0.010     23     0.8
Knock Rummy    0.011     19     2.7
Oklahoma Gin   0.016     23     1.2
Robber Rummy   0.872     22     64 (projected from 4 deals)
=============  ========  =====  ==========

Knock Rummy's 2.7 minutes include 2.0 for its knock limit of 0, under which deal 32's game never ends (the
engine stops it after 2,000,000 moves; the value is kept as not measured). In all about 78 CPU-minutes
(840 CPU-s measured, 3,840 projected), 82% of it Robber Rummy's solver bot: about 40 minutes on two
workers (``--workers 2``) of an idle machine, or spread over a Dask cluster (``--dask``).

>>> from rumino.cli import main
>>> main(["atlas", "--games", "gin", "--knobs", "wall_knock", "--deals", "2", "--seed", "1", "--no-out",
...       "--no-progress"])  # doctest: +ELLIPSIS
Gin Rummy: the greedy bot in both seats, and the greedy bot against the random one with the seats swapped; 2 deals, seed 1
  the default rules: ...
  Knock at the wall (rules ...), yes instead of no: ...
0
"""

from __future__ import annotations

import json
import shlex
import sys
from pathlib import Path

from rumino.cli import CommandError, check_range, check_workers
from rumino.cli.inputs import check_seed, out_file, playable_games
from rumino.console import progress_bar
from rumino.engine.knobs import knob_table, parse_knob_value, value_words
from rumino.errors import RuleConfigError, RuminoError
from rumino.tournament.atlas import (FIGURES, MIN_DEALS, PROPORTIONS, VALUES_RULE, AtlasFileError, plan,
                                     read_atlas, refigure, run_atlas)
from rumino.tournament.run import MAX_DEALS
from rumino.variants import find_variant, playable_variants

DEFAULT_OUT = "book/data/house_rule_atlas.json"

FULL_RUN_CPU_MINUTES = 78  # every game, 200 deals: see the module's docstring (the file keeps each value's seconds)


def _norm(text: str) -> str:
    return " ".join(text.strip().lower().replace("_", " ").replace("-", " ").split())


def _knobs(items: list[str] | None, games: list[str]) -> dict | None:
    """``--knobs KNOB[=V1,V2]``: for each game, the knobs it has of those named (by the rules' key or the
    rule's label) with their values (None: the atlas's own); refused if a knob is in none of the games, or a
    value is not one its rule allows."""
    if items is None:
        return None
    out: dict = {key: {} for key in games}
    seen = set()
    for item in items:
        name, eq, values = item.partition("=")
        if not name.strip():
            raise CommandError(f"--knobs {item!r}: give a rule (such as knock_max_deadwood, or "
                               f"knock_max_deadwood=0,20).")
        found = False
        for key in games:
            v = find_variant(key)
            rows = {r["name"]: r for r in knob_table(v.rules_class)}
            field = next((n for n, r in rows.items() if _norm(name) in (_norm(n), _norm(r["label"]))), None)
            if field is None:
                continue
            found = True
            if (key, field) in seen:
                raise CommandError(f"--knobs names {v.title}'s rule {rows[field]['label']!r} twice.")
            seen.add((key, field))
            if not eq:
                out[key][field] = None
                continue
            typed = []
            for text in values.split(","):
                try:
                    value = parse_knob_value(v.rules_class, field, text)
                except RuleConfigError as err:
                    raise CommandError(f"--knobs {item}: {v.title}: {err}") from None
                if value == rows[field]["default"] and type(value) is type(rows[field]["default"]):
                    raise CommandError(f"--knobs {item}: {value_words(rows[field], value)} is {v.title}'s default, "
                                       f"which every value is measured against; give other values.")
                try:  # a value its rules refuse beside the game's other defaults: refused now, not skipped later
                    v.with_rules(**{field: value})
                except RuleConfigError as err:
                    raise CommandError(f"--knobs {item}: {v.title}: {str(err).splitlines()[0]}") from None
                if value not in typed:
                    typed.append(value)
            out[key][field] = typed
        if not found:
            titles = ", ".join(find_variant(k).title for k in games) if len(games) < 3 else "any game chosen"
            keys = sorted({r["name"] for k in games for r in knob_table(find_variant(k).rules_class)})
            raise CommandError(f"--knobs: {name.strip()!r} is not a rule of {titles}; give a rule's key or "
                               f"label, one of: {', '.join(keys)}.")
    return {k: v for k, v in out.items() if v}


def _signed(x: float, proportion: bool) -> str:
    return f"{x * 100:+.1f}" if proportion else f"{x:+.2f}"


def _plain(est: dict | None, proportion: bool) -> str:
    if est is None:
        return "not measured"
    return f"{est['estimate'] * 100:.1f}%" if proportion else f"{est['estimate']:.2f}"


def _value_text(v, name: str, value) -> str:
    """A knob's value in a player's words with its unit ("10 points", "dealt first"), without the label.

    >>> _value_text(find_variant("gin"), "game_to", 50), _value_text(find_variant("rummoli"), "widow_auction", "none")
    ('50 points', 'not sold')
    """
    from rumino.compare.matrix import house_rule_words

    return house_rule_words(v, name, value).split(": ", 1)[-1]


def format_atlas(data: dict, shown_games: list[str] | None = None) -> str:
    """The atlas as the command prints it: per game the default's figures, then per knob value the
    differences from the default, each with its 95% interval (percentage points for shares); those whose
    interval leaves out 0 are marked "shown"."""
    s = data["settings"]
    lines = []
    for key, game in data["games"].items():
        if shown_games is not None and key not in shown_games:
            continue
        v = find_variant(key)
        base = f"the {game['baseline']} bot"
        lines.append(f"{v.title}: {base} in both seats, and {base} against the random one with the seats "
                     f"swapped; {s['deals']:,} deals, seed {s['seed']}")
        words = {k: w.replace("the baseline", base) for k, w in FIGURES.items()}
        default = game.get("default")
        if default and "figures" in default:
            f = default["figures"]
            lines.append("  the default rules: " + ", ".join(
                f"{words[k]} {_plain(f[k], k in PROPORTIONS)}" for k in FIGURES))
        rows = {r["name"]: r for r in knob_table(v.rules_class)}
        for name, knob in game["knobs"].items():
            row = rows[name]
            if "skipped" in knob:
                lines.append(f"  {row['label']} (rules {row['section']}): not measured, {knob['skipped']}")
                continue
            for entry in knob["values"].values():
                said = f"  {row['label']} (rules {row['section']}), {_value_text(v, name, entry['value'])} instead " \
                       f"of {_value_text(v, name, row['default'])}: "
                if "skipped" in entry:
                    lines.append(said + f"not measured: {entry['skipped']}")
                    continue
                if "differences" not in entry:
                    lines.append(said + "not yet measured")
                    continue
                if entry.get("same_play"):
                    lines.append(said + "every deal counted exactly as under the default (nothing measured "
                                        "here changed)")
                    continue
                parts, quiet = [], []
                for k, d in entry["differences"].items():
                    if d is None:
                        continue
                    p = k in PROPORTIONS
                    text = f"{words[k]} {_signed(d['estimate'], p)} [{_signed(d['ci95'][0], p)}, " \
                           f"{_signed(d['ci95'][1], p)}]"
                    (parts if d["shown"] else quiet).append(text + (" shown" if d["shown"] else ""))
                if not parts:
                    lines.append(said + "no difference shown")
                else:
                    lines.append(said + "; ".join(parts) + (f"; no difference shown in the other {len(quiet)}"
                                                            if quiet else ""))
        lines.append("")
    lines.append(f"Differences from the default on the same deals, with 95% intervals (shares in percentage "
                 f"points); 'shown' where the interval leaves out 0. Values measured: {VALUES_RULE}.")
    return "\n".join(lines)


def run(args) -> int:
    games = playable_games("--games", args.games, "its house rules")
    chosen = games or list(playable_variants())
    knobs = _knobs(args.knobs, chosen)
    check_range("--deals", args.deals, MIN_DEALS, MAX_DEALS, "deals each set of rules plays; a paired "
                                                             "difference needs two")
    check_seed(args.seed)
    check_workers(args.workers)
    out = None if args.no_out else out_file("--out", args.out)
    try:
        old = read_atlas(out, args.deals, args.seed)  # a foreign file or other settings: refused before any play
    except AtlasFileError as err:
        raise CommandError(f"--out: {err}") from None
    if old is not None:  # read as the report will read it, before any play
        try:
            refigure(old)
            format_atlas(old)
        except (KeyError, TypeError, ValueError, AttributeError, IndexError, ZeroDivisionError, RuminoError):
            raise CommandError(f"--out: {out} is not a results file of rumino atlas (its figures cannot be read "
                               f"from its deals): move it away or give another --out.") from None
    if args.dask is not None:
        from rumino.compare.figures import check_dask_reachable

        check_dask_reachable(args.dask)
    from rumino.compare.figures import executor_for

    bar, tick = progress_bar(not args.no_progress, "house-rule atlas", "chunks of deals")
    command = "rumino " + shlex.join(sys.argv[1:] if len(sys.argv) > 1 and sys.argv[1] == "atlas" else ["atlas"])
    try:
        with executor_for(args.workers, args.dask) as ex:
            data = run_atlas(games=games, knobs=knobs if knobs is not None else None, deals=args.deals,
                             seed=args.seed, out=out, executor=ex, progress=tick, command=command)
    except (RuleConfigError, RuminoError) as err:
        raise CommandError(str(err).splitlines()[0]) from None
    finally:
        if bar is not None:
            bar.close()
    shown = list(plan(games, knobs))
    if args.json:
        print(json.dumps(data))
    else:
        print(format_atlas(_only(data, shown, knobs)))
        print(f"({data['run']['cpu_seconds']:,.1f} CPU-s of play in the results"
              f"{'' if out is None else ' file ' + str(out)})")
    return 0


def _only(data: dict, games: list[str], knobs: dict | None) -> dict:
    """The part of the atlas this run asked for (a results file may hold more)."""
    out = dict(data)
    out["games"] = {}
    for key in games:
        game = dict(data["games"][key])
        if knobs is not None:
            game["knobs"] = {k: v for k, v in game["knobs"].items() if k in knobs.get(key, {})}
        out["games"][key] = game
    return out


def register(sub) -> None:
    p = sub.add_parser(
        "atlas", help="what each house rule changes: every knob of every game against its default",
        description="Measure every house rule (knob) of every game against the game's default rules on the "
                    "same seeded deals: hands a game, turns a hand, minutes a game, the deal's share of the "
                    "variance, the first player's share of hands, the baseline's share against random and the "
                    "points or chips a hand, each as a difference from the default with its 95% interval "
                    "(paired on the deals). The results file is written as each value finishes and is resumed "
                    "by the same command; a file written with other settings is refused. CPU cost of the full "
                    f"default run (every game, 200 deals): about {FULL_RUN_CPU_MINUTES} CPU-minutes, most of it "
                    "Robber Rummy's.")
    p.add_argument("--games", default=None, help="comma-separated games (default: every playable game)")
    p.add_argument("--knobs", nargs="+", metavar="KNOB[=V1,V2]", default=None,
                   help="the house rules to measure, by key or label, each with its values if you choose them "
                        "(default: every rule, at the atlas's values)")
    p.add_argument("--deals", type=int, default=200, help="deals each set of rules plays (default 200)")
    p.add_argument("--seed", type=int, default=1, help="the seed of the deals (default 1)")
    p.add_argument("--out", default=DEFAULT_OUT, help=f"the results file (JSON; default {DEFAULT_OUT}), written "
                                                      f"as each value finishes; the same command resumes it")
    p.add_argument("--no-out", action="store_true", help="write no results file (print only)")
    p.add_argument("--workers", type=int, default=1, help="local processes (at most the machine's cores)")
    p.add_argument("--dask", metavar="ADDRESS", default=None, help="a Dask scheduler to play the deals on")
    p.add_argument("--json", action="store_true", help="print the atlas as JSON")
    p.add_argument("--no-progress", action="store_true", help="no progress bar")
    p.set_defaults(run=run)
