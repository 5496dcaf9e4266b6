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
import os
import pkgutil
import re
import sys

from rumino import __version__
from rumino.errors import RuminoError


class CommandError(RuminoError, ValueError):
    """A command-line argument that cannot be used (exit code 2)."""


def check_range(option: str, value, low: int, high: int | None = None, why: str = ""):
    """``value`` if it is a whole number from ``low`` to ``high``; otherwise a one-line :class:`CommandError`.

    >>> check_range("--port", 8000, 1, 65535)
    8000
    >>> check_range("--port", 70000, 1, 65535, "a TCP port")
    Traceback (most recent call last):
    ...
    rumino.cli.CommandError: --port is 70000: it must be from 1 to 65535 (a TCP port).
    """
    if isinstance(value, bool) or not isinstance(value, int) or value < low or (high is not None and value > high):
        span = f"at least {low}" if high is None else f"from {low} to {high}"
        raise CommandError(f"{option} is {value!r}: it must be {span}" + (f" ({why})." if why else "."))
    return value


MAX_SAMPLES = 100_000_000  # simulated deals per run: beyond this the arrays would not fit in memory


def check_samples(value) -> int:
    """``--samples``: from 1 to :data:`MAX_SAMPLES`.

    >>> check_samples(99999999999999999999)
    Traceback (most recent call last):
    ...
    rumino.cli.CommandError: --samples is 99999999999999999999: it must be from 1 to 100000000 (deals to simulate).
    """
    return check_range("--samples", value, 1, MAX_SAMPLES, "deals to simulate")


def check_workers(value) -> int:
    """``--workers``: at least 1, and no more processes than the machine has cores (more would only
    share the same cores, and a pool of 999 would start 999 processes).

    >>> check_workers(1)
    1
    >>> check_workers(0)
    Traceback (most recent call last):
    ...
    rumino.cli.CommandError: --workers is 0: it must be at least 1.
    """
    cores = os.cpu_count() or 1
    check_range("--workers", value, 1)
    if value > cores:
        raise CommandError(f"--workers is {value}: this machine has {cores} core{'s' if cores > 1 else ''}, "
                           f"give at most {cores}.")
    return value


_LINE_BREAK = re.compile("[\n\r\v\f\x1c\x1d\x1e\x85\u2028\u2029]")  # what str.splitlines() splits at


def one_line(text: str) -> str:
    r"""``text`` with each line break written as its escape: an error quotes what was typed, and
    argparse quotes some arguments as they are, so a typed newline would make a second line.

    >>> print(one_line("unrecognized arguments: a\nb\u2028c"))
    unrecognized arguments: a\nb\u2028c
    """
    return _LINE_BREAK.sub(lambda m: m.group().encode("unicode_escape").decode("ascii"), text)


class Parser(argparse.ArgumentParser):
    """argparse's parser, with a usage error in one line (argparse prints the whole usage first).

    The subcommands' parsers are of this class too (``add_subparsers`` makes parsers of its parser's type).
    """

    def error(self, message):
        self.exit(2, one_line(f"{self.prog}: {message} (see {self.prog} --help).") + "\n")


# where a terminal user finds a section a message cites ("rules §3.4.5")
RULES_NOTE = ("rules §N refers to the book's part 'The rules in full' (rumino book build; "
              "book/rules/, e.g. rules §3.4.5 is in book/rules/romme.md).")


def build_parser() -> argparse.ArgumentParser:
    parser = Parser(
        prog="rumino",
        description="Rules, exact odds and simulations for the rummy family (Rumino, Rummoli, Rommé, "
                    "Robber, Wiener, Gin).",
        epilog=RULES_NOTE,
    )
    parser.add_argument("--version", action="version", version=f"rumino {__version__}")
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
        print(one_line(f"rumino {args.command}: {err}"), file=sys.stderr)
        return 2
    except BrokenPipeError:  # pragma: no cover - e.g. `rumino ... | head`
        return 0


if __name__ == "__main__":  # pragma: no cover
    sys.exit(main())
