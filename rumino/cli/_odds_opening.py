"""``rumino odds opening``: how often a dealt Rommé hand can open (rules §3.4.2), simulated.

``rumino odds opening --variant romme --samples N --seed S [--cards 13|14] [--opening-min M]
[--table] [--workers W] [--json]`` deals N hands, finds each one's best opening
from its own cards (:mod:`rumino.odds.opening`) and prints P(opening value ≥ M)
with its 95% interval, overall and by the number of jokers dealt; ``--table``
adds the thresholds 30, 35, 40, 42, 50 from the same pass (the JSON always has
them under ``thresholds``).

>>> from rumino.cli import main
>>> main(["odds", "opening", "--samples", "2000", "--seed", "1", "--no-progress"])  # doctest: +ELLIPSIS
German Rommé: 13 dealt cards from 110 — can they open with 40 or more?
P(open ≥ 40) ≈ 0.4... (95% CI ...; n = 2,000, seed 1)
...
0
"""

from __future__ import annotations

import json
from contextlib import nullcontext

from rumino.cli.inputs import check_seed
from rumino.console import worker_pool
from rumino.odds.draws import OddsArgumentError
from rumino.variants import find_variant
from rumino.cli import CommandError, check_range, check_samples, check_workers
from rumino.odds.opening import THRESHOLDS, simulate_opening
from rumino.stats import same_precision


MAX_CARD_POINTS = 11  # an ace in an opening meld (rules §3.3): no card counts more


def _text(r: dict, title: str, table: bool) -> str:
    m = r["opening_min"]
    p = r["probability"]
    lines = [f"{title}: {r['cards']} dealt cards from {r['pack_size']} — can they open with {m} or more?",
             "P(open ≥ {}) ≈ {} (95% CI {} … {}; ".format(m, *same_precision(p["estimate"], *p["ci95"]))
             + f"n = {r['samples']:,}, seed {r['seed']})"]
    for j, fig in r["by_jokers"].items():
        lines.append(f"  {j} joker{'s' if j != '1' else ''}: {fig['n']:,} deal{'s' if fig['n'] != 1 else ''} · "
                     "{} [{}, {}]".format(*same_precision(fig["estimate"], *fig["ci95"])))
    mv = r["mean_value"]
    lines.append("mean best opening ≈ {} points (95% CI {} … {})".format(*same_precision(mv["estimate"], *mv["ci95"])))
    if table:
        jokers = list(r["by_jokers"])
        lines.append("P(open ≥ M), the same deals: M · all · " + " · ".join(f"{j}★" for j in jokers))
        for t, fig in r["thresholds"].items():
            cells = [f"{fig['by_jokers'][j]['estimate']:.4f}" for j in jokers]
            lines.append(f"  {t:>3} · {fig['estimate']:.5f} [{fig['ci95'][0]:.5f}, {fig['ci95'][1]:.5f}] · "
                         + " · ".join(cells))
    return "\n".join(lines)


def run_opening(args) -> int:
    variant = find_variant(args.variant)
    if not variant.opening_sizes:
        raise CommandError(f"{variant.title} has no opening from the dealt hand: the opening odds are for "
                           f"romme (rules §3.4) and robber (rules §4).")
    sizes = variant.opening_sizes
    cards = args.cards if args.cards is not None else sizes[0]
    if cards not in sizes:
        raise CommandError(f"--cards is {cards}: a {variant.title} deal gives "
                           f"{', '.join(map(str, sorted(sizes)))} cards.")
    if args.samples is None:
        raise CommandError("--samples N is needed: give the number of deals to simulate.")
    check_samples(args.samples)
    if args.seed is None:
        raise CommandError("--seed S (0 or more) is needed, so the figures can be reproduced.")
    check_seed(args.seed)  # and a negative one is named
    if args.opening_min is not None:  # 99999 was accepted, and answered 0
        check_range("--opening-min", args.opening_min, 1, MAX_CARD_POINTS * cards,
                    f"points; no card is worth more than {MAX_CARD_POINTS}, so {cards} cards never open with more")
    check_workers(args.workers)
    with worker_pool(args.workers) if args.workers > 1 else nullcontext() as executor:
        try:
            sample = simulate_opening(args.samples, args.seed, cards=cards, variant=variant.key, executor=executor,
                                      progress=not args.no_progress)
            report = sample.report(args.opening_min, thresholds=THRESHOLDS)
        except OddsArgumentError as err:
            raise CommandError(str(err)) from None
    print(json.dumps(report) if args.json else _text(report, variant.title, args.table))
    return 0


def register_opening(osub) -> None:
    o = osub.add_parser("opening", help="P(a dealt Rommé hand can open with 40), simulated with its interval",
                        description="Deal N hands and find each one's best opening from its own cards "
                                    "(rules §3.3 values): P(opening ≥ M) with n, seed and a 95% Wilson "
                                    "interval, overall and by jokers dealt. 10^8 deals take a few minutes "
                                    "on one core.")
    o.add_argument("--variant", default="romme", help="romme (default) or robber")
    o.add_argument("--samples", type=int, default=None, metavar="N", help="deals to simulate")
    o.add_argument("--seed", type=int, default=None, metavar="S", help="seed of the simulation")
    o.add_argument("--cards", type=int, default=None, metavar="K",
                   help="cards in the hand: 13 (default) or 14, the dealer's (11 with 5-6 players)")
    o.add_argument("--opening-min", type=int, default=None, metavar="M",
                   help="points the opening must reach (default: the rules' 40)")
    o.add_argument("--table", action="store_true", help="also print M = 30, 35, 40, 42, 50 (one pass)")
    o.add_argument("--workers", type=int, default=1, metavar="W", help="processes to use (default 1)")
    o.add_argument("--no-progress", action="store_true", help="no progress bar on stderr")
    o.add_argument("--json", action="store_true", help="print JSON")
    o.set_defaults(run=run_opening)
