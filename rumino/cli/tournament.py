"""``rumino tournament``: players against each other on the same deals, rated, with the luck figures.

>>> from rumino.cli import main
>>> main(["tournament", "--variant", "gin", "--players", "greedy,random", "--games", "4", "--seed", "1",
...       "--no-progress", "--json"])  # doctest: +ELLIPSIS
{"variant": "gin", "players": ["greedy", "random"], "deals": 4, "seed": 1, ...}
0
"""

from __future__ import annotations

import json
import math

from rumino.cli import CommandError, check_range, check_workers
from rumino.cli.inputs import check_seed
from rumino.cli.simulate import parse_rules, playable
from rumino.console import progress_bar
from rumino.engine.words import plural
from rumino.errors import RuleConfigError
from rumino.stats import Comparison, verdict
from rumino.tournament.run import MAX_DEALS, tournament
from rumino.variants import find_variant


def _players(text: str) -> list[str]:
    specs = [s.strip() for s in text.split(",")]
    if any(not s for s in specs):
        raise CommandError(f"--players {text!r} has an empty name: give names separated by commas.")
    return specs


def _pct(x: float) -> str:
    return f"{100 * x:.1f}%"


def format_tournament(data: dict) -> str:
    """The text report of a tournament's JSON (``Tournament.as_json()``)."""
    players = data["players"]
    width = max(len(p) for p in players) + 2
    deals = f"{data['deals']:,} deal" + ("" if data["deals"] == 1 else "s")
    lines = [f"{find_variant(data['variant']).title}: {', '.join(players)}; {deals}, seed {data['seed']}, "
             + ("heads-up, each deal played twice with the seats swapped" if data["table"] == 2
                else f"a table of {data['table']}, each deal played once per rotation of the seats")]
    if "win_rate" in data:
        lines.append("")
        lines.append("share of hands won (row against column; a tie counts half), with 95% intervals:")
        lines.append(" " * width + "".join(f"{p:>26}" for p in players))
        for a in players:
            cells = []
            for b in players:
                if a == b:
                    cells.append(f"{'—':>26}")
                else:
                    w = data["win_rate"][a][b]
                    cells.append(f"{_pct(w['estimate']) + ' [' + _pct(w['ci95'][0]) + ', ' + _pct(w['ci95'][1]) + ']':>26}")
            lines.append(f"{a:<{width}}" + "".join(cells))
        if "share_difference" in data:
            lines.append("")
            lines.append("who wins more hands, pair by pair (on the same deals: each deal's hands won less the "
                         "other's, their t interval, and the exact sign test over the deals):")
            for pair, c in data["share_difference"].items():
                a, b = pair.split("|")
                lines.append(f"  {a} against {b}: "
                             + verdict(Comparison.from_json(c), a, b, more="wins more hands"))
    else:
        lines.append("")
        lines.append("share of hands won outright (a tie for first shared), with 95% intervals:")
        for p in players:
            w = data["hand_wins"][p]
            lines.append(f"  {p:<{width}} {_pct(w['estimate'])} [{_pct(w['ci95'][0])}, {_pct(w['ci95'][1])}]")
    lines.append("")
    model = "Bradley–Terry" if data["model"] == "bradley-terry" else "Plackett–Luce"
    lines.append(f"ratings ({model}, Elo points, the weakest at 0; 95% bootstrap intervals over the deals):")
    for p, (v, lo, hi) in sorted(data["ratings_elo"].items(), key=lambda kv: -kv[1][0]):
        if v == lo == hi == 0:  # the weakest, where the scale is set to 0: there is no interval to give
            lines.append(f"  {p:<{width}} {v:7.0f}  (the scale starts here)")
        else:
            lines.append(f"  {p:<{width}} {v:7.0f}  [{lo:.0f}, {hi:.0f}]")
    luck = data["luck"]
    v, lo, hi = luck["spread_elo"]
    lines.append("")
    lines.append(f"rating spread from {luck['weakest']} to {luck['best']}: {v:.0f} Elo [{lo:.0f}, {hi:.0f}]")
    for name, f in luck.get("against_best", {}).items():
        p, plo, phi = f["weaker_wins_a_hand"]
        n, n_lo, n_hi = f["hands_for_match"]
        s, slo, shi = f["deal_share"]
        if n is None:
            match = "no number of hands (it does not win more than half)"
        elif n_hi is None:  # the interval's far end is past the longest match the search tries
            match = f"{plural(n, 'hand')} [{n_lo:,}, more than 100,000]"
        else:
            match = f"{plural(n, 'hand')} [{n_lo:,}, {n_hi:,}]"
        deal = (f"the deal explains {_pct(s)} [{_pct(slo)}, {_pct(shi)}] of a hand's variance"
                if all(math.isfinite(x) for x in (s, slo, shi)) else
                "too few deals to say how much of a hand's variance the deal explains")
        lines.append(f"  {name} against {luck['best']}: wins a hand {_pct(p)} [{_pct(plo)}, {_pct(phi)}]; "
                     f"{luck['best']} needs {match} to win a match 95% of the time; {deal}; "
                     f"{plural(f['ties'], 'tied hand')}")
    if luck.get("separated"):
        bounds = [f"{a} over {b} at least {g:.0f} Elo" if g > 0 else f"{a} over {b}: too few hands to bound it"
                  for a, b, g in luck["separated"]]
        lines.append("  (a player that won every hand against another: their rating gap is only bounded below, "
                     "so their ratings above are not measured; " + ", ".join(bounds) + ")")
    return "\n".join(lines)


def run(args) -> int:
    variant = playable(args.variant)
    players = _players(args.players)
    check_range("--games", args.games, 1, MAX_DEALS, "deals each match plays")
    check_seed(args.seed)
    check_range("--table", args.table, 2, 8, "players at a table")
    check_workers(args.workers)
    rules = parse_rules(variant, args.rules) if args.rules else None
    if args.dask is not None:
        from rumino.compare.figures import check_dask_reachable

        check_dask_reachable(args.dask)
    bar, tick = progress_bar(not args.no_progress, f"{variant.key} tournament", "chunks of deals")
    try:
        t = tournament(variant, players, deals=args.games, seed=args.seed, table=args.table, rules=rules,
                       workers=args.workers, dask=args.dask, progress=tick)
    except RuleConfigError as err:
        raise CommandError(str(err)) from None
    finally:
        if bar is not None:
            bar.close()
    data = t.as_json()
    print(json.dumps(data) if args.json else format_tournament(data))
    return 0


def register(sub) -> None:
    p = sub.add_parser(
        "tournament", help="players against each other on the same deals: win rates, ratings, luck figures",
        description="Play every pair of players heads-up on the same seeded deals (each deal twice, the seats "
                    "swapped), or a whole table with the seats rotated (--table N); print the share of hands "
                    "won with 95% intervals, Elo ratings (Bradley–Terry heads-up, Plackett–Luce at the table) "
                    "and the luck figures: the rating spread, the weaker player's chance of winning a hand "
                    "against the best, the hands a match needs, the share of a hand's variance the deal explains.")
    p.add_argument("--variant", default="rumino", help="the game (default: rumino)")
    p.add_argument("--players", required=True, help="comma-separated bots, e.g. greedy,random,threshold:4")
    p.add_argument("--games", type=int, default=200, help="deals each match plays (default 200)")
    p.add_argument("--seed", type=int, default=0, help="the seed of the deals (default 0)")
    p.add_argument("--table", type=int, default=2,
                   help="2 (default): heads-up matches; N: all N players at one table, seats rotated")
    p.add_argument("--rules", nargs="*", default=[], metavar="KEY=VALUE", help="house rules of the game")
    p.add_argument("--workers", type=int, default=1, help="local processes (at most the machine's cores)")
    p.add_argument("--dask", metavar="ADDRESS", default=None, help="a Dask scheduler to run the matches on")
    p.add_argument("--json", action="store_true", help="print the figures as JSON")
    p.add_argument("--no-progress", action="store_true", help="no progress bar")
    p.set_defaults(run=run)
