"""``rumino odds best HAND --goal knock|gin|rumino --draws N [--json]``: the best discard, exactly.

The model is solitaire against the stock (:mod:`rumino.odds.optimal`): every draw
comes from the cards not in the hand (discards are reshuffled in), and the goal
is reached when the 7 cards kept may knock, are a gin, or are a rumino.

* An **8-card** hand asks which card to throw: every distinct card with the best
  chance to reach the goal within ``N`` more draws after throwing it (and the
  expected draws, for knock and gin), best first.
* A **7-card** hand asks what the next draw is worth: the hand's best chance
  within ``N`` draws, and for each card that could come, its chance and the
  value of the best discard after it.

Answers come from the full table when it has been built
(``rumino optimal build``, written under
``$RUMINO_OPTIMAL_DIR`` or ``~/.cache/rumino/optimal``), and are computed
directly for ``N ≤ 2`` otherwise (a few seconds at most); anything else is
refused with the command that builds the table.

>>> from rumino.cli import main
>>> main(["odds", "best", "7h 8h 9h 5c 5d 5s Ks 2c", "--goal", "gin", "--draws", "1",
...       "--table-dir", "no-table-here"])  # doctest: +ELLIPSIS
best discard for gin in 1 draw: Ks (P = 0.128713)
  throw  Ks: P = 0.128713
  throw  2c: P = 0.128713
...
(source: direct; model: solitaire against the stock, discards reshuffled in)
0
"""

from __future__ import annotations

import json

from rumino.cli import check_range
from rumino.odds.optimal import MAX_HORIZON, best_answer


def best_report(hand: str, goal: str, draws: int, directory=None) -> dict:
    """The dict ``rumino odds best --json`` prints (see :func:`rumino.odds.optimal.best_answer`)."""

    # beyond the tables' horizon building them would not help (the message used to say it would)
    check_range("--draws", draws, 0, MAX_HORIZON, "the optimal tables go up to that many draws")
    return best_answer(hand, goal, draws, directory=directory)


def _text(r: dict) -> str:
    plural = "s" if r["draws"] != 1 else ""
    lines = []
    if r["best_discard"] is not None:
        lines.append(f"best discard for {r['goal']} in {r['draws']} draw{plural}: {r['best_discard']} "
                     f"(P = {r['probability']:.6g})")
        for d in r["discards"]:
            e = d.get("expected_draws")
            extra = f", expected draws {e:.4f}" if e is not None else ""
            lines.append(f"  throw {d['card']:>3}: P = {d['probability']:.6g}{extra}")
    else:
        lines.append(f"P({r['goal']} within {r['draws']} draw{plural}) with the best discards = "
                     f"{r['probability']:.6g}")
        for d in r.get("next_draws", [])[:10]:
            lines.append(f"  draw {d['card']:>3} (chance {d['chance']:.4f}): then throw {d['best_discard']}, "
                         f"P = {d['probability']:.6g}")
    if r.get("expected_draws") is not None:
        lines.append(f"expected draws to {r['goal']} with the best discards: {r['expected_draws']:.4f}")
    lines.append(f"(source: {r['source']}; model: solitaire against the stock, discards reshuffled in)")
    return "\n".join(lines)


def run_best(args) -> int:
    from rumino.cli.optimal import table_dir  # --table-dir "" or a file: refused, not read as "no table"

    report = best_report(args.hand, args.goal, args.draws, directory=table_dir("--table-dir", args.table_dir))
    print(json.dumps(report) if args.json else _text(report))
    return 0


def add_parser(osub) -> None:
    """Add ``best`` to the ``rumino odds`` subcommands (called from :mod:`rumino.cli.odds`)."""
    b = osub.add_parser("best", help="the optimal discard against the stock, and its chances (exact)",
                        description="Optimal play against the stock (discards reshuffled in): an 8-card hand "
                                    "gives the best card to throw and the value of every discard; a 7-card hand "
                                    "what the next draw is worth. Uses the table of `rumino optimal build` when "
                                    "built, else answers directly for --draws up to 2.")
    b.add_argument("hand", metavar="HAND", help='7 or 8 cards, e.g. "7h 8h 9h 5c 5d 5s Ks 2c"')
    b.add_argument("--goal", required=True, choices=("knock", "gin", "rumino"))
    b.add_argument("--draws", type=int, required=True, metavar="N", help="draws to come (table: up to 10)")
    b.add_argument("--table-dir", default=None, metavar="DIR",
                   help="where the built table lives (default $RUMINO_OPTIMAL_DIR or ~/.cache/rumino/optimal)")
    b.add_argument("--json", action="store_true", help="print JSON")
    b.set_defaults(run=run_best)
