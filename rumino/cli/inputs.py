"""The checks every command shares, so each says the same words: numbers as a person types them, seeds,
and the files and folders a command reads or writes, checked before any work.

A refusal is a one-line :class:`~rumino.cli.CommandError` (exit code 2) naming the option, what was typed
and the reason; nothing has been written when it comes.

The numbers typed as options are read by :func:`rumino.cli.whole` and :func:`rumino.cli.decimal`
(every ``type=int`` and ``type=float``).

>>> check_seed(-1)
Traceback (most recent call last):
...
rumino.cli.CommandError: --seed is -1: it must be 0 or more (the seed of the deals).
"""

from __future__ import annotations

import errno
import os
import tempfile
from pathlib import Path

from rumino.cli import CommandError


def check_seed(value, option: str = "--seed") -> int:
    """A seed: a whole number, 0 or more (numpy's generators take no negative seed)."""
    if isinstance(value, bool) or not isinstance(value, int) or value < 0:
        raise CommandError(f"{option} is {value!r}: it must be 0 or more (the seed of the deals).")
    return value


def _say(option: str, text) -> str:
    return f"{option} is {str(text)!r}"


def _blank(option: str, text, what: str) -> None:
    if text is None or not str(text).strip():
        raise CommandError(f"{_say(option, text)}: give {what}.")


# the reasons a new file is refused, in words (ENOENT is what /proc and /sys answer)
_WHY = {errno.EACCES: "permission denied", errno.EPERM: "permission denied", errno.EROFS: "a read-only disk",
        errno.ENOENT: "it takes no new files", errno.ENOSPC: "the disk is full", errno.EDQUOT: "the disk quota is full"}


def _probe(folder: Path) -> str | None:
    """Why nothing can be written in ``folder``, or None: a file is made there and removed at once (the
    permission bits do not tell, for root or on a read-only disk)."""
    try:
        fd, name = tempfile.mkstemp(dir=folder, prefix=".rumino-check-")
    except OSError as err:
        return _WHY.get(err.errno, (err.strerror or type(err).__name__).lower())
    os.close(fd)
    os.unlink(name)
    return None


def _nearest_existing(path: Path) -> Path:
    probe = path
    while not probe.exists() and probe != probe.parent:
        probe = probe.parent
    return probe


def out_file(option: str, text) -> Path:
    """The file an option names for writing, checked before any work: not empty, not a folder, in a
    folder that exists and takes a new file.

    >>> out_file("--out", "")
    Traceback (most recent call last):
    ...
    rumino.cli.CommandError: --out is '': give a file name.
    >>> out_file("--out", "/")
    Traceback (most recent call last):
    ...
    rumino.cli.CommandError: --out is '/': it is a folder; give a file (such as /results.json).
    """
    _blank(option, text, "a file name")
    path = Path(text).expanduser()
    if path.is_dir():
        raise CommandError(f"{_say(option, text)}: it is a folder; give a file (such as "
                           f"{path / 'results.json'}).")
    if path.exists() and not path.is_file():
        raise CommandError(f"{_say(option, text)}: it is not a regular file.")
    folder = path.parent
    if not folder.exists():
        above = _nearest_existing(folder)
        if above.exists() and not above.is_dir():
            raise CommandError(f"{_say(option, text)}: {above} is a file, not a folder.")
        raise CommandError(f"{_say(option, text)}: the folder {folder} does not exist.")
    if not folder.is_dir():
        raise CommandError(f"{_say(option, text)}: {folder} is not a folder.")
    why = _probe(folder)
    if why is not None:
        raise CommandError(f"{_say(option, text)}: nothing can be written in {folder} ({why}).")
    if path.exists() and not os.access(path, os.W_OK):
        raise CommandError(f"{_say(option, text)}: the file cannot be written (it is read-only).")
    return path


def out_folder(option: str, text) -> Path:
    """The folder an option names for writing (made if missing), checked before any work: not empty,
    not a file, under a folder that takes new files.

    >>> out_folder("--out", " ")
    Traceback (most recent call last):
    ...
    rumino.cli.CommandError: --out is ' ': give a folder.
    >>> out_folder("--dir", "/proc/rumino")  # doctest: +ELLIPSIS
    Traceback (most recent call last):
    ...
    rumino.cli.CommandError: --dir is '/proc/rumino': nothing can be written in /proc (...).
    """
    _blank(option, text, "a folder")
    path = Path(text).expanduser()
    if path.exists() and not path.is_dir():
        raise CommandError(f"{_say(option, text)}: it is a file, not a folder.")
    above = _nearest_existing(path)
    if not above.is_dir():
        raise CommandError(f"{_say(option, text)}: {above} is a file, not a folder.")
    why = _probe(above)
    if why is not None:
        raise CommandError(f"{_say(option, text)}: nothing can be written in {above} ({why}).")
    return path


def in_folder(option: str, text) -> Path:
    """A folder an option names for reading: not empty and, if it exists, a folder (a missing one is
    the caller's to explain: no table built there, no book there).

    >>> in_folder("--table-dir", "/etc/passwd")
    Traceback (most recent call last):
    ...
    rumino.cli.CommandError: --table-dir is '/etc/passwd': it is a file, not a folder.
    """
    _blank(option, text, "a folder")
    path = Path(text).expanduser()
    if path.exists() and not path.is_dir():
        raise CommandError(f"{_say(option, text)}: it is a file, not a folder.")
    return path


def inside(path: Path, folder: Path) -> bool:
    """Whether ``path`` is ``folder`` or lies under it (after resolving links and ``..``).

    >>> inside(Path("/a/b/../c"), Path("/a")), inside(Path("/ab"), Path("/a"))
    (True, False)
    """
    p, f = Path(os.path.realpath(path)), Path(os.path.realpath(folder))
    return p == f or f in p.parents


__all__ = ["check_seed", "in_folder", "inside", "out_file", "out_folder"]


def playable_games(option: str, text: str | None, measured: str) -> list[str] | None:
    """The games a comma-separated option names (their keys, in order), each one that plays and named once;
    ``None`` when the option is not given. ``measured`` says what the command would measure of a game.

    >>> playable_games("--games", "gin, Rumino", "its length")
    ['gin', 'rumino']
    """
    from rumino.errors import RuleConfigError
    from rumino.variants import find_variant

    if text is None:
        return None
    keys = []
    for name in (s.strip() for s in text.split(",")):
        try:
            v = find_variant(name)
        except RuleConfigError as err:
            raise CommandError(f"{option}: {err}") from None
        if v.game is None:
            raise CommandError(f"{option}: {v.title} cannot be played yet, so {measured} cannot be measured.")
        if v.key in keys:
            raise CommandError(f"{option} names {name} twice.")
        keys.append(v.key)
    return keys
