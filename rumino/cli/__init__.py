"""The ``rumino`` command.

Each module of this package that defines ``register(subparsers)`` adds one
command (``deadwood``, ``simulate``, ``odds``, ``book`` …), so commands live
beside the code they drive and this file never needs editing.

Errors a user can cause (a bad card, an unknown variant, a rules key out of
range) print one line naming the input and exit with code 2.
"""

from __future__ import annotations

import argparse
import importlib
import pkgutil
import sys

from rumino.errors import RuminoError


class CommandError(RuminoError, ValueError):
    """A command-line argument that cannot be used (exit code 2)."""


def build_parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(
        prog="rumino",
        description="Rules, exact odds and simulations for the rummy family (Rumino, Rummoli, Rommé, "
                    "Robber, Wiener, Gin).",
    )
    sub = parser.add_subparsers(dest="command", metavar="COMMAND")
    sub.required = True
    for info in sorted(pkgutil.iter_modules(__path__), key=lambda m: m.name):
        if info.name.startswith("_"):
            continue
        module = importlib.import_module(f"{__name__}.{info.name}")
        if hasattr(module, "register"):
            module.register(sub)
    return parser


def main(argv: list[str] | None = None) -> int:
    parser = build_parser()
    args = parser.parse_args(argv)
    try:
        return int(args.run(args) or 0)
    except RuminoError as err:
        print(f"rumino {args.command}: {err}", file=sys.stderr)
        return 2
    except BrokenPipeError:  # pragma: no cover - e.g. `rumino ... | head`
        return 0


if __name__ == "__main__":  # pragma: no cover
    sys.exit(main())
