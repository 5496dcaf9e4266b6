"""``rumino odds``: exact and simulated odds of the deal, and drawing odds.

* ``rumino odds deal --variant V --exact [--json]`` — every deal enumerated up to
  suit symmetry: P(gin), P(rumino), P(may knock) as exact fractions, the number
  of deals, the distribution of minimum deadwood, its exact mean, by jokers.
* ``rumino odds deal --variant V --samples N --seed S [--json]`` — the same
  figures simulated, each with ``n``, the seed and a 95% interval.
* ``rumino odds draws --outs K --unseen U --draws N [--json]`` — P(at least one
  out in N draws) and the expected number of draws to the first out.
* ``rumino odds poker --cards N [--json]`` — the exact number of N-card hands
  (5 ≤ N ≤ 18, one deck) whose best five is each poker category (Rummoli).
* ``rumino odds opening --variant romme --samples N --seed S [--cards 13|14] [--json]``
  — P(a dealt Rommé hand can open with 40), by jokers and for 30 … 50
  (:mod:`rumino.cli._odds_opening`).
* ``rumino odds best HAND --goal G --draws N [--json]`` — the optimal discard
  against the stock (:mod:`rumino.cli.odds_best`).

>>> from rumino.cli import main
>>> main(["odds", "draws", "--outs", "8", "--unseen", "47", "--draws", "1"])
P(at least one of 8 outs in 1 draw from 47 unseen) = 8/47 = 0.170213 (1 in 5.88)
expected draws to the first out = (47+1)/(8+1) = 16/3 = 5.33333
0
"""

from __future__ import annotations

import json
from contextlib import nullcontext
from fractions import Fraction

from rumino.odds.draws import OddsArgumentError, expected_draws_to_first_out, p_at_least_one
from rumino.odds.enumerate import PackShape, class_count
from rumino.odds.exact import as_json, exact_deal_distribution, one_in, p_dealt_gin, show
from rumino.stats import same_precision
from rumino.variants import Variant, find_variant
from rumino.cli import CommandError, check_samples, check_workers
from rumino.cli.inputs import check_seed
from rumino.console import worker_pool
from rumino.cli._odds_opening import register_opening
from rumino.cli.odds_best import add_parser as add_best
from rumino.compare.matrix import Column, house_rule_words
from rumino.odds import poker
from rumino.odds.montecarlo import simulate_deals

# Full enumerations above this many suit classes are refused unless --full is given (see odds.exact.feasibility_table).
MAX_DEFAULT_CLASSES = 50_000_000
HARD_MAX_CLASSES = 1_000_000_000


OMITTED_WORDS = {"deadwood_distribution": "the whole distribution of the dealt deadwood"}

def _fraction_out(p: Fraction) -> dict:
    return as_json(p)


def _hist_json(hist: dict[int, int]) -> dict[str, int]:
    return {str(d): int(n) for d, n in sorted(hist.items())}


def _column_for_deals(name: str):
    """``(variant, rules)`` from ``gin`` or ``rumino:n_jokers=2`` (house rules after a colon, as in
    ``rumino compare``)."""

    col = Column.parse(name)
    variant = col.variant
    if variant.meld_rules() is None or variant.hand_size == 0:
        raise CommandError(f"{variant.title} has no melds and no deadwood (rules {variant.section}): "
                           f"there are no deal odds to compute.")
    return variant, col.rules


def _house_rules(variant: Variant, rules) -> dict:
    import dataclasses

    return {f.name: getattr(rules, f.name) for f in dataclasses.fields(rules)
            if getattr(rules, f.name) != getattr(variant.rules, f.name)}


def exact_deal_report(variant_name: str, *, full: bool = False, workers: int = 1, progress: bool = False) -> dict:
    """The exact figures ``rumino odds deal --exact --json`` prints (see the module docstring)."""
    variant, rules = _column_for_deals(variant_name)
    mr = rules.meld_rules
    shape = PackShape.of(mr.pack)
    k = variant.hand_size
    classes = class_count(shape, k)
    out: dict = {"variant": variant.key, "hand_size": k, "pack_size": shape.size, "method": "exact",
                 "classes": classes}
    if _house_rules(variant, rules):
        out["house_rules"] = _house_rules(variant, rules)
    if classes > MAX_DEFAULT_CLASSES and not full:
        if variant.has_gin:
            # dealt gin is a union of disjoint melds: counted directly, whatever the class count
            g, n = p_dealt_gin(mr, k)
            out["method"] = "exact (hands that are unions of disjoint melds)"
            out["total"] = n
            out["gin"] = _fraction_out(Fraction(g, n))
            out["omitted"] = {"deadwood_distribution": f"{classes:,} suit classes: pass --full to enumerate them "
                                                       "(about 3.2 CPU-minutes: under two minutes with --workers 2)"}
            return out
        raise CommandError(f"an exact {variant.title} deal needs {classes:,} suit classes of {k} cards from "
                           f"{shape.size}, too many to enumerate (the limit is {MAX_DEFAULT_CLASSES:,}, or "
                           f"{HARD_MAX_CLASSES:,} with --full); use --samples N --seed S instead.")
    if classes > HARD_MAX_CLASSES:
        raise CommandError(f"an exact {variant.title} deal needs {classes:,} suit classes, beyond the "
                           f"{HARD_MAX_CLASSES:,} that --full allows; use --samples N --seed S instead.")
    with worker_pool(workers) if workers > 1 else nullcontext() as executor:
        dist = exact_deal_distribution(mr, k, rumino=variant.has_rumino,
                                       rumino_distinct=getattr(rules, "set_suits", "any") == "distinct",
                                       rumino_natural_only=bool(getattr(rules, "rumino_natural_only", False)),
                                       executor=executor, progress=progress)
    limit = variant.knock_limit(rules) if variant.knock_field else None

    def figures(j):
        fig: dict = {"total": dist.deals(j)}
        if variant.has_gin:
            fig["gin"] = _fraction_out(dist.p_gin(j))
        if variant.has_rumino:
            fig["rumino"] = _fraction_out(dist.p_rumino(j))
        if limit is not None:
            fig["can_knock"] = _fraction_out(dist.p_deadwood_at_most(limit, j))
        fig["mean_deadwood"] = _fraction_out(dist.mean(j))
        fig["deadwood_distribution"] = _hist_json(dist.counts(j))
        return fig

    out.update(figures(None))
    if limit is not None:
        out["knock_limit"] = limit
    if shape.jokers:
        out["by_jokers"] = {str(j): figures(j) for j in sorted(dist.deadwood)}
    return out


def sampled_deal_report(variant_name: str, samples: int, seed: int, *, workers: int = 1,
                        progress: bool = False) -> dict:
    """The simulated figures ``rumino odds deal --samples N --seed S --json`` prints."""

    variant, rules = _column_for_deals(variant_name)
    with worker_pool(workers) if workers > 1 else nullcontext() as executor:
        s = simulate_deals(variant, samples, seed, rules=rules, executor=executor, progress=progress)
    out: dict = {"variant": variant.key, "hand_size": variant.hand_size, "pack_size": s.hist.pack_size,
                 "method": "monte carlo", "n": samples, "seed": seed}
    if _house_rules(variant, rules):
        out["house_rules"] = _house_rules(variant, rules)

    def figures(j):
        n = s.hist.deals(j)
        fig: dict = {"total": n}
        if n == 0:
            return fig
        if variant.has_gin:
            fig["gin"] = s.p_gin(j).as_json()
        if variant.has_rumino:
            fig["rumino"] = s.p_rumino(j).as_json()
        if s.knock_limit is not None:
            fig["can_knock"] = s.p_can_knock(j).as_json()
        fig["mean_deadwood"] = s.mean_deadwood(j).as_json()
        fig["deadwood_distribution"] = _hist_json(s.hist.counts(j))
        return fig

    out.update(figures(None))
    if s.knock_limit is not None:
        out["knock_limit"] = s.knock_limit
    if s.hist.pack_size and variant.meld_rules().pack.jokers:
        out["by_jokers"] = {str(j): figures(j) for j in sorted(s.hist.deadwood)}
    return out


def _p_line(name: str, fig: dict) -> str:
    if "numerator" in fig:
        p = Fraction(fig["numerator"], fig["denominator"])
        return f"P({name}) = {show(p)}"
    v, lo, hi = same_precision(fig["value"], *fig["ci95"])
    return f"P({name}) ≈ {v} (95% CI {lo} … {hi}; n = {fig['n']:,}, seed {fig['seed']})"


def _mean_line(fig: dict) -> str:
    if "numerator" in fig:
        return f"mean minimum deadwood = {fig['numerator']}/{fig['denominator']} = {fig['value']:.6g}"
    v, lo, hi = same_precision(fig["value"], *fig["ci95"])
    return f"mean minimum deadwood ≈ {v} (95% CI {lo} … {hi}; n = {fig['n']:,})"


def _deal_text(report: dict) -> str:
    lines = []
    what = {"exact": "every deal, up to suit symmetry", "monte carlo": "simulated deals"}.get(
        report["method"], report["method"])
    variant = find_variant(report["variant"])
    lines.append(f"{variant.title}: {report['hand_size']} cards from {report['pack_size']} — {what}")
    if report.get("house_rules"):
        lines.append("house rules: " + "; ".join(house_rule_words(variant, k, v)
                                                 for k, v in report["house_rules"].items()))
    if report["method"].startswith("exact"):
        lines.append(f"deals: {report['total']:,} ({report['classes']:,} suit classes)")
    else:
        lines.append(f"deals: n = {report['n']:,}, seed {report['seed']}")
    limit = report.get("knock_limit")
    names = [("gin", "gin"), ("rumino", "rumino"), ("can_knock", f"may knock: deadwood ≤ {limit}")]
    for key, name in names:
        if key in report:
            lines.append(_p_line(name, report[key]))
    if "mean_deadwood" in report:
        lines.append(_mean_line(report["mean_deadwood"]))
    if "deadwood_distribution" in report:
        dist = report["deadwood_distribution"]
        # a table of ten deadwoods a line, not one line of seventy
        lines.append("deals by deadwood:")
        items = [f"{d:>3}: {n:<9,}" for d, n in dist.items()]
        lines += ["  " + " ".join(items[i:i + 8]).rstrip() for i in range(0, len(items), 8)]
    for key, why in report.get("omitted", {}).items():  # the JSON keeps its keys; the screen says them in words
        lines.append(f"{OMITTED_WORDS.get(key, key.replace('_', ' '))} not computed: {why}")
    for j, fig in report.get("by_jokers", {}).items():
        parts = [f"{fig['total']:,} deal{'s' if fig['total'] != 1 else ''}"]
        for key, name in (("gin", "gin"), ("rumino", "rumino"), ("can_knock", "knock")):
            if key in fig:
                v = fig[key]
                if "numerator" in v:
                    parts.append(f"{name} {v['value']:.4g} ({one_in(Fraction(v['numerator'], v['denominator']))})")
                else:
                    parts.append("{} {} [{}, {}]".format(name, *same_precision(v["value"], *v["ci95"])))
        if "mean_deadwood" in fig:
            parts.append(f"mean {fig['mean_deadwood']['value']:.4g}")
        lines.append(f"  {j} joker{'s' if j != '1' else ''}: " + " · ".join(parts))
    return "\n".join(lines)


def draws_report(outs: int, unseen: int, draws: int) -> dict:
    """The figures ``rumino odds draws`` prints.

    >>> draws_report(0, 10, 3)["expected_draws_to_first_out"] is None
    True
    """
    p = p_at_least_one(outs, unseen, draws)
    out = {"outs": outs, "unseen": unseen, "draws": draws, "p_at_least_one": as_json(p)}
    out["expected_draws_to_first_out"] = as_json(expected_draws_to_first_out(outs, unseen)) if outs else None
    return out


def _draws_text(r: dict) -> str:
    p = Fraction(r["p_at_least_one"]["numerator"], r["p_at_least_one"]["denominator"])
    k, u, n = r["outs"], r["unseen"], r["draws"]
    lines = [f"P(at least one of {k} out{'s' if k != 1 else ''} in {n} draw{'s' if n != 1 else ''} from {u} unseen) "
             f"= {show(p)}"]
    e = r["expected_draws_to_first_out"]
    if e is None:
        lines.append("expected draws to the first out: never (no outs)")
    else:
        lines.append(f"expected draws to the first out = ({u}+1)/({k}+1) = {e['numerator']}/{e['denominator']} "
                     f"= {e['value']:.6g}" if e["denominator"] != 1 else
                     f"expected draws to the first out = ({u}+1)/({k}+1) = {e['numerator']}")
    return "\n".join(lines)


def run_deal(args) -> int:
    if args.exact == (args.samples is not None):
        raise CommandError("choose one of --exact or --samples N (with --seed S).")
    if args.exact and args.seed is not None:  # it was silently ignored
        raise CommandError(f"--seed is {args.seed}, and --exact counts every deal: an exact figure has no seed. "
                           f"Leave --seed out, or simulate with --samples N --seed S.")
    check_workers(args.workers)
    progress = not args.no_progress
    if args.exact:
        report = exact_deal_report(args.variant, full=args.full, workers=args.workers, progress=progress)
    else:
        check_samples(args.samples)
        if args.seed is None:
            raise CommandError("--samples needs --seed S, so the figures can be reproduced.")
        check_seed(args.seed)
        report = sampled_deal_report(args.variant, args.samples, args.seed, workers=args.workers, progress=progress)
    print(json.dumps(report) if args.json else _deal_text(report))
    return 0


def run_draws(args) -> int:
    try:
        report = draws_report(args.outs, args.unseen, args.draws)
    except OddsArgumentError as err:
        raise CommandError(str(err)) from None
    print(json.dumps(report) if args.json else _draws_text(report))
    return 0


def run_poker(args) -> int:
    counts = poker.best_five_table(args.cards, method=args.method)
    if args.json:
        print(json.dumps({"cards": args.cards, "total": sum(counts.values()), "method": args.method,
                          "counts": counts}))
    else:
        print(poker.table_text(args.cards, counts))
    return 0


def register(sub) -> None:
    p = sub.add_parser("odds", help="exact and simulated odds: the deal, and drawing outs",
                       description="Exact odds (fractions) and simulated odds (with n, seed and a 95% interval).")
    osub = p.add_subparsers(dest="odds_command", metavar="WHAT")
    osub.required = True

    d = osub.add_parser("deal", help="odds of the dealt hand: gin, rumino, may knock, deadwood",
                        description="Odds of a dealt hand. --exact enumerates every deal up to suit symmetry "
                                    "(Rumino: 14,945,658 classes, under ten seconds on one core); --samples N --seed S "
                                    "simulates N deals.")
    d.add_argument("--variant", default="rumino",
                   help="rumino (default), gin, knock-rummy, wiener, romme or robber, with optional house rules "
                        "after a colon: rumino:n_jokers=2")
    d.add_argument("--exact", action="store_true", help="enumerate every deal (exact fractions)")
    d.add_argument("--samples", type=int, default=None, metavar="N", help="simulate N deals instead")
    d.add_argument("--seed", type=int, default=None, metavar="S", help="seed of the simulation")
    d.add_argument("--workers", type=int, default=1, metavar="W", help="processes to use (default 1)")
    d.add_argument("--full", action="store_true",
                   help="allow long exact enumerations (Gin Rummy's 671 M classes: 3.2 CPU-minutes, --workers 2 halves the wait)")
    d.add_argument("--no-progress", action="store_true", help="no progress bar on stderr")
    d.add_argument("--json", action="store_true", help="print JSON")
    d.set_defaults(run=run_deal)

    w = osub.add_parser("draws", help="P(at least one of K outs in N draws from U unseen cards)",
                        description="Exact hypergeometric odds: P(at least one of K outs in N draws from U unseen) "
                                    "= 1 − C(U−K, N)/C(U, N), and the expected draws to the first out, (U+1)/(K+1).")
    w.add_argument("--outs", type=int, required=True, metavar="K", help="cards that would help")
    w.add_argument("--unseen", type=int, required=True, metavar="U", help="cards not yet seen (the outs among them)")
    w.add_argument("--draws", type=int, required=True, metavar="N", help="draws to come")
    w.add_argument("--json", action="store_true", help="print JSON")
    w.set_defaults(run=run_draws)

    k = osub.add_parser("poker", help="exact best-five-of-N poker categories for N = 5 … 18 cards (Rummoli)",
                        description="The exact number of N-card hands from one 52-card deck whose best five cards "
                                    "make each poker category, straight flush (royal flushes included) … high card.")
    k.add_argument("--cards", type=int, required=True, metavar="N", help="cards in the hand, 5 … 18")
    k.add_argument("--method", choices=("complements", "patterns"), default="complements",
                   help="complements (inclusion–exclusion, default) or patterns (rank patterns with their suits); "
                        "both are exact and give the same table")
    k.add_argument("--json", action="store_true", help="print JSON")
    k.set_defaults(run=run_poker)

    register_opening(osub)


    add_best(osub)
