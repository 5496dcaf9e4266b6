"""``rumino compare COLUMN...``: games (or one game under several house rules) side by side.

A column is a variant with optional house rules after a colon:
``wiener``, ``rumino:knock_max_deadwood=5,stake=20``.
"""

from __future__ import annotations

import json

from ..compare import rules_matrix


def run(args) -> int:
    matrix = rules_matrix(args.columns)
    if args.json:
        print(json.dumps({"matrix": matrix.to_json()}, indent=2, ensure_ascii=False))
    else:
        print(matrix.to_text(width=args.width), end="")
    return 0


def register(sub) -> None:
    p = sub.add_parser("compare", help="games or house rules side by side (the rules matrix)",
                       description="Print the rules matrix of the given columns, read from the rules "
                                   "dataclasses. A column is a variant with optional house rules: "
                                   "wiener, gin, rumino:knock_max_deadwood=5,stake=20.")
    p.add_argument("columns", nargs="+", metavar="COLUMN", help="a variant, optionally with :KEY=VALUE,...")
    p.add_argument("--json", action="store_true", help="print JSON: matrix.columns and matrix.rows")
    p.add_argument("--width", type=int, default=38, help="text width of one column (default 38)")
    p.set_defaults(run=run)
