"""What every layer shares with a person at a terminal: whole numbers as typed, progress bars drawn
only on a terminal, and worker processes that a Ctrl-C stops quietly.

>>> parse_whole("12"), parse_whole("-3")
(12, -3)
>>> parse_whole("1_0")
Traceback (most recent call last):
...
ValueError: '1_0' is not a whole number written with the digits 0-9
"""

from __future__ import annotations

import codecs
import os
import re
import signal
import sys
from contextlib import contextmanager
from typing import Any, Callable, Iterator

_WHOLE = re.compile(r"[+-]?[0-9]+")


def parse_whole(text: str) -> int:
    """``text`` as a whole number if it is written with the digits 0-9 (a sign allowed, spaces around it
    ignored); else a ``ValueError``. Python's ``int()`` also reads ``1_0`` as 10 and ``٥`` as 5, which
    nobody typing a count at a terminal means.

    >>> parse_whole(" 7 ")
    7
    >>> parse_whole("٥")
    Traceback (most recent call last):
    ...
    ValueError: '٥' is not a whole number written with the digits 0-9
    """
    stripped = str(text).strip()
    if not _WHOLE.fullmatch(stripped):
        raise ValueError(f"{text!r} is not a whole number written with the digits 0-9")
    return int(stripped)


# ---------------------------------------------------------------------------- a terminal without Unicode

# what a character the terminal cannot show becomes: card suits as the letters a player types, the rest
# as plain ASCII (anything else: its accent dropped, or '?')
ASCII_FALLBACK = {"♠": "s", "♥": "h", "♦": "d", "♣": "c", "♤": "s", "♡": "h", "♢": "d", "♧": "c", "★": "*",
                  "·": "-", "•": "*", "—": "--", "–": "-", "−": "-", "…": "...", "≤": "<=", "≥": ">=",
                  "≠": "!=", "≈": "~", "±": "+/-", "×": "x", "÷": "/", "→": "->", "←": "<-", "§": "section ",
                  "½": "1/2", "’": "'", "‘": "'", "“": '"', "”": '"', "«": '"', "»": '"', "█": "#", "│": "|",
                  "─": "-", "\u00a0": " ", "\u202f": " ", "\u2009": " "}


def _ascii_fallback(err: UnicodeError):
    if not isinstance(err, UnicodeEncodeError):
        raise err
    import unicodedata

    out = []
    for ch in err.object[err.start:err.end]:
        if ch in ASCII_FALLBACK:
            out.append(ASCII_FALLBACK[ch])
        else:
            plain = unicodedata.normalize("NFKD", ch).encode("ascii", "ignore").decode("ascii")
            out.append(plain or "?")
    return "".join(out), err.end


def fit_streams_to_terminal() -> None:
    """Let a terminal that cannot show Unicode (``PYTHONIOENCODING=ascii``, an old locale) read the
    output in ASCII (``7♥`` as ``7h``, ``·`` as ``-``) instead of a ``UnicodeEncodeError``, and read
    what it types with the bytes it cannot decode replaced (refused as "not a card", not a traceback).

    >>> "7♥ · 5♠ ≤ 7 é".encode("ascii", "rumino-ascii")
    b'7h - 5s <= 7 e'
    """
    for stream in (sys.stdout, sys.stderr):
        encoding = getattr(stream, "encoding", None)
        if encoding and hasattr(stream, "reconfigure"):
            try:
                "♥·§—".encode(encoding)
            except (UnicodeError, LookupError):
                stream.reconfigure(errors="rumino-ascii")
    if hasattr(sys.stdin, "reconfigure") and getattr(sys.stdin, "encoding", None):
        try:
            "♥".encode(sys.stdin.encoding)
        except (UnicodeError, LookupError):
            sys.stdin.reconfigure(errors="replace")


codecs.register_error("rumino-ascii", _ascii_fallback)


# ---------------------------------------------------------------------------- progress bars


def _bar_format(known_total: bool, unit: str) -> str:
    """The words of a bar: what it counts, the time spent and (with a total) about how long is left."""
    if known_total:
        return ("{desc}: {percentage:3.0f}%|{bar}| {n_fmt}/{total_fmt} " + unit
                + " · {elapsed} so far, about {remaining} left")
    return "{desc}: {n_fmt} " + unit + " · {elapsed} so far"


def make_bar(total: int | None, desc: str, unit: str, *, scale: bool = False, leave: bool = True,
             initial: int = 0) -> Any:
    """A tqdm bar on stderr that counts ``unit`` (a plural word: "games", "deals") and says its times in
    words; drawn only when stderr is a terminal or in a notebook (``disable=None``: never ``\\r`` or
    escape codes into a file or a pipe). ``scale`` writes 14.9M for 14,945,658. ``initial``: the units
    done before the bar starts (a run resumed), left out of its pace and of the time it says is left."""
    from tqdm.auto import tqdm

    return tqdm(total=total, desc=desc, unit=f" {unit}", unit_scale=scale, leave=leave, file=sys.stderr,
                disable=None, bar_format=_bar_format(total is not None, unit), dynamic_ncols=True, initial=initial)


class NoBar:
    """What a stage updates when there is no progress bar."""

    def update(self, n: int = 1) -> None:
        pass

    def set_postfix_str(self, text: str) -> None:
        pass

    def close(self) -> None:
        pass


class _LazyBar:
    """A bar made at its first tick, when the total is known (no "0 chunks" frame before it)."""

    def __init__(self, desc: str, unit: str, initial: int = 0):
        self.desc, self.unit, self.initial, self.bar = desc, unit, initial, None

    def tick(self, done: int, total: int) -> None:
        if self.bar is None:
            self.bar = make_bar(total, self.desc, self.unit, initial=self.initial)
        if self.bar.total != total:
            self.bar.total = total
        self.bar.n = done
        self.bar.refresh()

    def close(self) -> None:
        if self.bar is not None:
            self.bar.close()


def progress_bar(enabled: bool, desc: str, unit: str, *,
                 initial: int = 0) -> tuple[Any, Callable[[int, int], None] | None]:
    """``(bar, progress)``: a bar on stderr and the ``progress(done, total)`` that moves it (the hook the
    engine's long runs call), or ``(None, None)`` when ``enabled`` is false. ``bar.close()`` closes it.
    ``initial``: the units done before this run (a resumed one), not counted in its pace.

    >>> progress_bar(False, "games", "games")
    (None, None)
    """
    if not enabled:
        return None, None
    bar = _LazyBar(desc, unit, initial)
    return bar, bar.tick


# ---------------------------------------------------------------------------- worker processes


def _start_worker(log: str | None) -> None:
    """In a worker: Ctrl-C ends the process without a traceback (a terminal sends it to every process of
    the foreground group, and the command says "interrupted" once); with ``log``, what the worker writes
    on its own goes there instead of the terminal."""
    signal.signal(signal.SIGINT, signal.SIG_DFL)
    signal.pthread_sigmask(signal.SIG_UNBLOCK, {signal.SIGINT})  # blocked while forked (see _QuietStartPool)
    if log is not None:
        fd = os.open(log, os.O_WRONLY | os.O_CREAT | os.O_APPEND, 0o644)
        os.dup2(fd, 1)
        os.dup2(fd, 2)
        os.close(fd)


def _quiet_start_pool() -> type:
    """A process pool whose workers are forked with Ctrl-C blocked.

    A Ctrl-C that reached a worker in the instant after its fork, before :func:`_start_worker` made it
    quiet, raised KeyboardInterrupt inside Python's at-fork hooks and printed a traceback beside the
    command's one line. Blocked (not ignored), the signal waits: the parent takes it as soon as the fork
    is done, and a worker that got one ends quietly when its start unblocks it."""
    from concurrent.futures import ProcessPoolExecutor

    class _QuietStartPool(ProcessPoolExecutor):
        def submit(self, fn, /, *args, **kwargs):  # the first submit forks the workers (and map submits)
            old = signal.pthread_sigmask(signal.SIG_BLOCK, {signal.SIGINT})
            try:
                return super().submit(fn, *args, **kwargs)
            finally:
                signal.pthread_sigmask(signal.SIG_SETMASK, old)

    return _QuietStartPool


@contextmanager
def worker_pool(workers: int, *, log: str | os.PathLike | None = None) -> Iterator[Any]:
    """A local process pool whose workers a Ctrl-C ends quietly; left by an exception (an interrupt, a
    refusal), it cancels the work not started instead of finishing it first. ``log``: a file for what
    the workers print themselves (their results come back to this process all the same).

    >>> with worker_pool(1) as pool:
    ...     list(pool.map(abs, [-1, 2]))
    [1, 2]
    """
    pool = _quiet_start_pool()(workers, initializer=_start_worker, initargs=(None if log is None else str(log),))
    try:
        yield pool
    except BaseException:
        pool.shutdown(wait=False, cancel_futures=True)
        raise
    pool.shutdown()


__all__ = ["NoBar", "make_bar", "parse_whole", "progress_bar", "worker_pool"]
