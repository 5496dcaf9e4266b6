"""The ``rumino`` command.

Each module of this package that defines ``register(subparsers)`` adds its commands (``deadwood``,
``simulate``, ``odds``, ``book`` …), so commands live beside the code they drive. :data:`COMMANDS` names
each command's module and its line in ``rumino --help``: only the module of the command typed is
imported, so ``rumino --help`` and ``rumino --version`` start without numba, numpy or plotly.

Errors a user can cause (a bad card, an unknown variant, a rules key out of range) print one line
naming the input and exit with code 2; Ctrl-C prints one line, "interrupted", and exits with code 130.
"""

from __future__ import annotations

import argparse
import importlib
import os
import re
import sys

from rumino import __version__
from rumino.console import fit_streams_to_terminal, parse_whole
from rumino.errors import RuminoError

# command -> (the module that registers it, its line in `rumino --help`), in the order of the help;
# tests/cli/test_cli_startup.py checks the table against what the modules register
COMMANDS: dict[str, tuple[str, str]] = {
    "atlas": ("atlas", "what each house rule changes: every knob of every game against its default"),
    "book": ("book", "build or serve the illustrated book"),
    "lab": ("book", "open JupyterLab on the book (live widgets)"),
    "compare": ("compare", "games or house rules side by side (rules matrix and profiles)"),
    "deadwood": ("deadwood", "exact best arrangement and deadwood of a hand"),
    "ladder": ("ladder", "the family ranked from luck to skill: every game's players in a round robin"),
    "length": ("length", "how long each game lasts: hands, turns, decisions and minutes, at 2, 3 and 4 players"),
    "odds": ("odds", "exact and simulated odds: the deal, and drawing outs"),
    "optimal": ("optimal", "build and play the optimal-discard tables (rumino odds best reads them)"),
    "play": ("play", "play a game (Rumino by default) in the terminal against bots"),
    "simulate": ("simulate", "play many seeded games between bots; win rates with 95%% intervals"),
    "strength": ("strength", "a strength match (the best player against a baseline) into the book's file"),
    "table": ("table", "best rearrangement of a Robber Rummy table (exact)"),
    "tournament": ("tournament", "players against each other on the same deals: win rates, ratings, luck figures"),
}


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


def check_cores(option: str, value) -> int:
    """``--workers``, ``--threads``: at least 1, and no more than the machine has cores (more would only
    share the same cores, and a pool of 999 would start 999 processes).

    >>> check_cores("--threads", 1)
    1
    >>> check_cores("--workers", 0)
    Traceback (most recent call last):
    ...
    rumino.cli.CommandError: --workers is 0: it must be at least 1.
    """
    cores = os.cpu_count() or 1
    check_range(option, value, 1)
    if value > cores:
        raise CommandError(f"{option} is {value}: this machine has {cores} core{'s' if cores > 1 else ''}, "
                           f"give at most {cores}.")
    return value


def check_workers(value) -> int:
    """``--workers`` (:func:`check_cores`)."""
    return check_cores("--workers", value)


_DECIMAL = re.compile(r"[+-]?(?:[0-9]+\.?[0-9]*|\.[0-9]+)(?:[eE][+-]?[0-9]+)?|[+-]?(?:nan|inf|infinity)", re.I)


def whole(text: str) -> int:
    """argparse's reading of every whole-number option (``type=int``, see :class:`Parser`):
    the digits 0-9 only, so ``1_0`` and ``٥`` are refused instead of read as 10 and 5."""
    try:
        return parse_whole(text)
    except ValueError as err:
        raise argparse.ArgumentTypeError(str(err)) from None


def decimal(text: str) -> float:
    """argparse's reading of every number option with a fraction (``type=float``): written with the digits
    0-9, a point and an exponent (``1e-6``); ``nan`` and ``inf`` pass here and are refused by the range
    check of the option that takes them.

    >>> decimal("1e-6"), decimal("0.5")
    (1e-06, 0.5)
    """
    if not _DECIMAL.fullmatch(str(text).strip()):
        raise argparse.ArgumentTypeError(f"{text!r} is not a number written with the digits 0-9 (such as 0.5 or 1e-6)")
    return float(text)


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
    Every option declared ``type=int`` or ``type=float`` is read as a person types a number
    (:func:`whole`, :func:`decimal`): Python's own ``int`` would take
    ``1_0`` as 10 and ``٥`` as 5.
    """

    def __init__(self, *args, **kwargs):
        super().__init__(*args, **kwargs)
        self.register("type", int, whole)
        self.register("type", float, decimal)

    def error(self, message):
        self.exit(2, one_line(f"{self.prog}: {message} (see {self.prog} --help).") + "\n")


# where a terminal user finds a section a message cites ("rules §3.4.5")
RULES_NOTE = ("rules §N refers to the book's part 'The rules in full' (rumino book build; "
              "book/rules/, e.g. rules §3.4.5 is in book/rules/romme.md).")


def _command_typed(argv: list[str]) -> str | None:
    """The command in ``argv``: its first word that is not an option (``rumino`` itself takes none
    with a value)."""
    return next((a for a in argv if not a.startswith("-")), None)


def build_parser(command: str | None = None) -> argparse.ArgumentParser:
    """The ``rumino`` parser; with ``command``, only that command's module is imported (the others are
    listed for ``--help`` and an unknown command's message, not loaded)."""
    parser = Parser(
        prog="rumino",
        description="Rules, exact odds and simulations for the rummy family (Rumino, Rummoli, Rommé, "
                    "Robber, Wiener, American Knock Rummy, Gin and Oklahoma Gin).",
        epilog=RULES_NOTE,
    )
    parser.add_argument("--version", action="version", version=f"rumino {__version__}")
    sub = parser.add_subparsers(dest="command", metavar="COMMAND")
    sub.required = True
    wanted = COMMANDS[command][0] if command in COMMANDS else None
    registered = set()
    for name, (module_name, help_line) in COMMANDS.items():
        if command is None or module_name == wanted:
            if module_name not in registered:
                registered.add(module_name)
                importlib.import_module(f"{__name__}.{module_name}").register(sub)
        else:
            sub.add_parser(name, help=help_line)  # listed only: this run does not use it
    return parser


def _refuse_more_after_version(parser: argparse.ArgumentParser, argv: list[str]) -> None:
    """``rumino --version extra`` printed the version and ignored the rest."""
    command = _command_typed(argv)
    before = argv if command is None else argv[:argv.index(command)]
    if "--version" in before and len(argv) > 1:
        others = [a for a in argv if a != "--version"]
        parser.error(f"--version takes nothing else, and {' '.join(others)!r} was given with it")


WORKERS_GRACE_S = 3  # how long a Ctrl-C waits for worker processes to stop their own work (a Jupyter kernel)


def _interrupted(who: str) -> int:
    """Ctrl-C: one line, exit code 130 (128 + SIGINT, as a shell reports it)."""
    if "multiprocessing" in sys.modules:  # workers still letting go of what they hold, or not told at all
        import multiprocessing
        import time

        deadline = time.monotonic() + WORKERS_GRACE_S
        for child in multiprocessing.active_children():
            child.join(max(0.0, deadline - time.monotonic()))
            if child.is_alive():
                child.kill()  # a worker running a notebook has its SIGTERM taken by nbclient
    try:
        if sys.stderr.isatty():
            sys.stderr.write("\n")  # after a prompt or a progress bar, the line starts afresh
        sys.stderr.write(f"{who}: interrupted\n")
        sys.stderr.flush()
    except (OSError, ValueError, AttributeError):  # stderr closed: nothing left to tell
        pass
    return 130


def _who(args, command: str | None) -> str:
    """Who is speaking in a refusal: ``rumino odds opening``, with the action of a command that has some."""
    if args is None:
        return f"rumino {command}" if command else "rumino"
    action = getattr(args, f"{args.command}_command", None)
    return " ".join(["rumino", args.command] + ([action] if action else []))


_INTERRUPTED = [False]  # a Ctrl-C came (the program's handler below notes it)
_DEFERRED = [False]  # … and came while numba compiled, so it was asked for again later
_LLVMLITE = f"{os.sep}llvmlite{os.sep}"
_NUMBA_COMPILER = f"{os.sep}numba{os.sep}core{os.sep}compiler.py"


def _in_compiler(frame) -> bool:
    """Is Python inside numba's compiler (or llvmlite, which it calls back into)? Importing numba or loading
    a kernel from its cache is not compiling: an interrupt there is raised at once, as anywhere else."""
    while frame is not None:
        name = frame.f_code.co_filename
        if _LLVMLITE in name or name.endswith(_NUMBA_COMPILER):
            return True
        frame = frame.f_back
    return False


def _on_ctrl_c(signum, frame) -> None:
    """The program's Ctrl-C: a KeyboardInterrupt, as Python's own, except inside numba's compiler.

    Raised there (a kernel compiling on its first call), the interrupt is swallowed by a callback of
    llvmlite's and comes out as numba's own RuntimeError, with a traceback, or leaves the compiler stuck.
    So it is asked for again a moment later, until the compiler has let go; the command then ends with
    its one line. A kernel already compiled runs in machine code, and Python takes the signal when it
    returns, as before.
    """
    import signal
    import threading

    _INTERRUPTED[0] = True
    if _in_compiler(frame):
        _DEFERRED[0] = True  # the signal again, to the main thread itself: a read it waits in is woken too
        main = threading.main_thread().ident
        again = threading.Timer(0.05, signal.pthread_kill, (main, signal.SIGINT))
        again.daemon = True
        again.start()
        return
    raise KeyboardInterrupt


def _quiet_excepthook(kind, value, traceback) -> None:
    """After a Ctrl-C, an interrupt that a compiled module printed and went on from says nothing.

    numba's C extensions import each other while numba loads; one cut short by the Ctrl-C prints its
    traceback through this hook (``PyErr_Print``) instead of raising it.
    """
    if _INTERRUPTED[0] and issubclass(kind, KeyboardInterrupt):
        return
    sys.__excepthook__(kind, value, traceback)


def _quiet_unraisable(unraisable) -> None:
    """After a Ctrl-C, an interrupt that Python could not raise (inside a callback) says nothing more."""
    if _INTERRUPTED[0] and isinstance(unraisable.exc_value, KeyboardInterrupt):
        return
    sys.__unraisablehook__(unraisable)


def main(argv: list[str] | None = None) -> int:
    """The ``rumino`` command: its exit code (0, 1 for a failed build, 2 for bad input, 130 for Ctrl-C).

    Run as the program (``argv`` None), a Ctrl-C after the work is done (while Python shuts down) is
    ignored: it would end the process by the signal, with no word, and the exit code of work done; and
    after an interrupt the process ends at once with 130, its output flushed, so nothing Python runs at
    exit can turn the one line into a traceback.
    """
    program = argv is None
    if program:
        import signal

        signal.signal(signal.SIGINT, _on_ctrl_c)
        sys.unraisablehook = _quiet_unraisable
        sys.excepthook = _quiet_excepthook
    try:
        code = _main(argv)
    except KeyboardInterrupt:  # in the instant between the command's own handler and this one
        code = _interrupted("rumino")
    finally:
        if program:
            import signal

            signal.signal(signal.SIGINT, signal.SIG_IGN)
    if program and code == 130:
        for stream in (sys.stdout, sys.stderr):
            try:
                stream.flush()
            except (OSError, ValueError, AttributeError):
                pass
        os._exit(130)
    return code


def _main(argv: list[str] | None = None) -> int:
    argv = sys.argv[1:] if argv is None else list(argv)
    command = _command_typed(argv)
    command = command if command in COMMANDS else None
    args = None
    try:
        fit_streams_to_terminal()  # a terminal without Unicode reads 7h for 7♥, not a traceback
        parser = build_parser(command or "")
        _refuse_more_after_version(parser, argv)
        args = parser.parse_args(argv)
        code = int(args.run(args) or 0)
        if _DEFERRED[0]:  # the command ended (its input closed, say) before the interrupt asked again
            return _interrupted(_who(args, command))
        return code
    except KeyboardInterrupt:
        return _interrupted(_who(args, command))
    except RuminoError as err:
        if _INTERRUPTED[0]:  # e.g. numba's import cut short by the Ctrl-C: the evaluator then fails to load
            return _interrupted(_who(args, command))
        print(one_line(f"{_who(args, command)}: {err}"), file=sys.stderr)
        return 2
    except BrokenPipeError:  # pragma: no cover - e.g. `rumino ... | head`
        return 0
    except Exception:
        if _INTERRUPTED[0]:  # a library that turned the Ctrl-C into an error of its own
            return _interrupted(_who(args, command))
        raise


if __name__ == "__main__":  # pragma: no cover
    sys.exit(main())
