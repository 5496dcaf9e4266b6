"""What every profile is made of: figures (exact or simulated), the executor they run on, the table size.

Shared by the profiles of every game (:mod:`rumino.compare.profile`, :mod:`rumino.compare.rummoli_profile`)
and the stored deal tables (:mod:`rumino.compare.deals`).

>>> exact_figure("deal.p_gin", "deal", "P(dealt gin)", Fraction(1, 8)).text()
'0.125 (exact)'
"""

from __future__ import annotations

import math
import socket
import struct
from concurrent.futures import Executor
from contextlib import contextmanager
from dataclasses import dataclass
from fractions import Fraction
from typing import Iterator, Sequence

from rumino.compare.matrix import Column
from rumino.console import worker_pool
from rumino.errors import RuleConfigError
from rumino.stats import Estimate

SHARE_KEYS = ("deal.p_", ".p_", "hand.ending.", "luck.", ".share")  # figures that are shares

PLAYERS = 2  # every play figure is heads-up: the one table size every game allows (Gin is for two only)

__all__ = ["PLAYERS", "Figure", "exact_figure", "simulated_figure", "executor_for", "histogram", "dealt_hand_size",
           "rumino_flags", "difference_text", "is_share"]


@dataclass(frozen=True)
class Figure:
    """One named figure of a profile: exact (``exact``, a Fraction) or simulated (``estimate``).

    >>> Figure("deal.p_deadwood_0", "deal", "P(all in melds)", exact=Fraction(1, 4)).as_json()
    {'numerator': 1, 'denominator': 4, 'value': 0.25, 'kind': 'exact', 'label': 'P(all in melds)', 'section': 'deal'}
    """

    key: str
    section: str  # "deal", "hand", "game", "luck"
    label: str
    exact: Fraction | None = None
    estimate: Estimate | None = None
    note: str = ""

    def __post_init__(self):
        if (self.exact is None) == (self.estimate is None):
            raise ValueError(f"figure {self.key!r} needs exactly one of exact or estimate.")

    @property
    def kind(self) -> str:
        return "exact" if self.exact is not None else "simulated"

    @property
    def value(self) -> float:
        return float(self.exact) if self.exact is not None else self.estimate.value

    @property
    def ci95(self) -> tuple[float, float]:
        """The 95% interval (an exact figure's is the point itself)."""
        if self.exact is not None:
            return float(self.exact), float(self.exact)
        return self.estimate.lo, self.estimate.hi

    def as_json(self) -> dict:
        if self.exact is not None:
            out = {"numerator": self.exact.numerator, "denominator": self.exact.denominator,
                   "value": float(self.exact), "kind": "exact"}
        else:
            out = {**self.estimate.as_json(), "kind": "simulated"}
            if self.estimate.se is not None:  # kept so a stored figure can be checked within k standard errors
                out["se"] = self.estimate.se
        out.update(label=self.label, section=self.section)
        if self.note:
            out["note"] = self.note
        return out

    @classmethod
    def from_json(cls, key: str, d: dict) -> "Figure":
        """The figure :meth:`as_json` wrote, read back (a stored results file).

        >>> f = exact_figure("deal.p", "deal", "P", Fraction(1, 8))
        >>> Figure.from_json("deal.p", f.as_json()) == f
        True
        """
        note = d.get("note", "")
        if d["kind"] == "exact":
            return cls(key, d["section"], d["label"], exact=Fraction(d["numerator"], d["denominator"]), note=note)
        lo, hi = d["ci95"]
        est = Estimate(d["estimate"], lo, hi, d["n"], d["seed"], d.get("interval", "normal"),
                       successes=d.get("successes"), se=d.get("se"))
        return cls(key, d["section"], d["label"], estimate=est, note=note)

    def text(self, digits: int = 4) -> str:
        """Short text for a table cell: ``0.1234 (exact)`` or ``0.1234 [0.12, 0.13]``."""
        if self.exact is not None:
            return f"{float(self.exact):.{digits}g} (exact)"
        e = self.estimate
        return f"{e.value:.{digits}g} [{e.lo:.{digits - 1}g}, {e.hi:.{digits - 1}g}]"


def exact_figure(key: str, section: str, label: str, p: Fraction, note: str = "") -> Figure:
    return Figure(key, section, label, exact=Fraction(p), note=note)


def simulated_figure(key: str, section: str, label: str, e: Estimate, note: str = "") -> Figure:
    return Figure(key, section, label, estimate=e, note=note)


DASK_TIMEOUT_S = 5  # how long to wait for a scheduler that does not answer (distributed's default is 30 s)
DASK_SCHEMES = ("tcp", "tls", "inproc", "ws", "wss", "ucx")


def check_dask_address(text) -> str:
    """A Dask scheduler address, checked before anything connects: ``[scheme://]host:port``.

    >>> check_dask_address("tcp://127.0.0.1:8786")
    'tcp://127.0.0.1:8786'
    >>> check_dask_address("")
    Traceback (most recent call last):
    ...
    rumino.errors.RuleConfigError: the Dask address '' is empty: give the scheduler's, such as tcp://127.0.0.1:8786.
    >>> check_dask_address("tcp://host:99999")
    Traceback (most recent call last):
    ...
    rumino.errors.RuleConfigError: the Dask address 'tcp://host:99999' has port 99999: a port is from 1 to 65535.
    """
    if not isinstance(text, str) or not text.strip():
        raise RuleConfigError(f"the Dask address {text!r} is empty: give the scheduler's, such as tcp://127.0.0.1:8786.")
    text = text.strip()
    scheme, sep, rest = text.rpartition("://")
    if sep and scheme not in DASK_SCHEMES:
        raise RuleConfigError(f"the Dask address {text!r} has the scheme {scheme!r}: use one of "
                              f"{', '.join(DASK_SCHEMES)} (or none, for tcp).")
    if scheme == "inproc":
        return text
    host, colon, port = rest.rpartition(":")
    host = host.strip("[]")  # an IPv6 host is written in brackets
    if not colon or not host or not (port.isascii() and port.isdigit()):  # '²'.isdigit() is true; int('²') fails
        raise RuleConfigError(f"the Dask address {text!r} is not [scheme://]host:port, such as tcp://127.0.0.1:8786.")
    if not 1 <= int(port) <= 65535:
        raise RuleConfigError(f"the Dask address {text!r} has port {int(port)}: a port is from 1 to 65535.")
    return text


def _unanswered(address: str, timeout: float, err: Exception) -> RuleConfigError:
    return RuleConfigError(f"no Dask scheduler answered at {address} within {timeout:g} s ({type(err).__name__}): "
                           f"start one (dask scheduler) or check the address.")


MAX_HANDSHAKE_BYTES = 1 << 20  # a scheduler's greeting is a few hundred bytes; a larger length is not Dask's


def _read_exactly(sock: socket.socket, n: int) -> bytes:
    data = b""
    while len(data) < n:
        chunk = sock.recv(n - len(data))
        if not chunk:
            raise ConnectionResetError("the connection closed")
        data += chunk
    return data


def _dask_greeting_problem(sock: socket.socket) -> str | None:
    """Why what a tcp:// listener sends first is not a Dask scheduler's greeting, or None.

    A scheduler speaks first: one message, its 8-byte length (little-endian), then the frames, which start
    with their count and each frame's length (distributed's framing). Checked here, with the socket's
    timeout, before distributed reads it: distributed takes any length it is sent (garbage asked it for
    exbibytes, a MemoryError) and waits for a listener that never speaks.
    """
    (size,) = struct.unpack("<Q", _read_exactly(sock, 8))
    if not 16 <= size <= MAX_HANDSHAKE_BYTES:
        return "it sent something else first"
    body = _read_exactly(sock, size)
    (count,) = struct.unpack("<Q", body[:8])
    if not 1 <= count <= 64 or 8 * (count + 1) > size:
        return "it sent something else first"
    lengths = struct.unpack(f"<{count}Q", body[8:8 * (count + 1)])
    if 8 * (count + 1) + sum(lengths) != size:
        return "it sent something else first"
    return None


def check_dask_reachable(address: str, timeout: float = DASK_TIMEOUT_S) -> str:
    """``address`` (checked) if a Dask scheduler answers there within ``timeout`` seconds, so a command
    can say so in one line before it starts its progress bar: something must accept the connection and,
    at a tcp:// address, greet as a scheduler does (a listener that sends anything else, or nothing, is
    refused, rather than left to hang or crash the client).

    >>> check_dask_reachable("tcp://127.0.0.1:9", timeout=1)  # nothing listens on port 9
    Traceback (most recent call last):
    ...
    rumino.errors.RuleConfigError: no Dask scheduler answered at tcp://127.0.0.1:9 within 1 s (ConnectionRefusedError): start one (dask scheduler) or check the address.
    """
    address = check_dask_address(address)
    scheme, _, rest = address.rpartition("://")
    if scheme == "inproc":  # distributed's in-process transport: no other process can reach it
        raise RuleConfigError(f"the Dask address {address!r} is an in-process one: a command cannot reach a "
                              f"scheduler inside another process; give its tcp:// address.")
    host, _, port = rest.rpartition(":")
    try:
        sock = socket.create_connection((host.strip("[]"), int(port)), timeout=timeout)
    except OSError as err:
        raise _unanswered(address, timeout, err) from None
    except ValueError as err:  # a host no resolver takes: 'tcp://.:8786' (UnicodeError), a NUL character
        raise RuleConfigError(f"the Dask address {address!r} has a host that is not a name or an address "
                              f"({type(err).__name__}).") from None
    with sock:
        if scheme in ("", "tcp"):  # tls, ws, ucx: their own handshakes, left to distributed
            try:
                why = _dask_greeting_problem(sock)
            except socket.timeout:
                raise RuleConfigError(f"something at {address} accepted the connection but said nothing within "
                                      f"{timeout:g} s: it is not a Dask scheduler (start one with dask scheduler, "
                                      f"or check the address).") from None
            except OSError as err:
                why = f"it closed the connection ({type(err).__name__})"
            if why:
                raise RuleConfigError(f"something at {address} answered, but not as a Dask scheduler does ({why}): "
                                      f"check the address.")
    return address


@contextmanager
def executor_for(workers: int = 1, dask: str | None = None) -> Iterator[Executor | None]:
    """The executor profiles run on: None (this process) for one worker, a local process pool for
    ``workers`` > 1, or a Dask cluster's executor when ``dask`` is its scheduler address."""
    if dask is not None:
        address = check_dask_address(dask)
        try:
            from distributed import Client
        except ImportError:  # pragma: no cover - distributed is installed with the project's [dask] extra (in [all])
            raise RuleConfigError("--dask needs the 'distributed' package: pip install -e '.[dask]'.") from None
        try:
            client = Client(address, timeout=DASK_TIMEOUT_S)
        except (OSError, TimeoutError) as err:  # distributed raises OSError after its timeout
            raise _unanswered(address, DASK_TIMEOUT_S, err) from None
        try:
            yield client.get_executor()
        finally:
            client.close()
        return
    if isinstance(workers, bool) or not isinstance(workers, int) or workers < 1:
        raise RuleConfigError(f"workers is {workers!r}: it must be a whole number of at least 1.")
    if workers == 1:
        yield None
        return
    with worker_pool(workers) as pool:  # a Ctrl-C stops its workers quietly
        yield pool


def histogram(values: Sequence[int], seed: int) -> dict:
    """A simulated histogram in the profile's JSON form (value → count, with n and seed)."""
    counts: dict[int, int] = {}
    for v in values:
        counts[int(v)] = counts.get(int(v), 0) + 1
    return {"kind": "simulated", "total": len(values), "n": len(values), "seed": seed,
            "counts": {str(k): c for k, c in sorted(counts.items())}}


def dealt_hand_size(col: Column) -> int:
    """Cards a player is dealt at the profile's table (heads-up): the engine says so when there is one."""
    v, rules = col.variant, col.rules
    if v.game is not None:
        return int(v.game.new(rules, PLAYERS, seed=0).hand_size)
    size = getattr(rules, "hand_size", v.hand_size)
    return size if isinstance(size, int) else v.hand_size


def rumino_flags(col: Column) -> tuple[bool, bool] | None:
    """``(distinct suits in sets, natural-only rumino)`` for a game with a rumino (the deal tables' key), else None."""
    if not col.variant.has_rumino:
        return None
    rules = col.rules
    return (getattr(rules, "set_suits", "any") == "distinct", bool(getattr(rules, "rumino_natural_only", False)))


def is_share(key: str, *figures: Figure) -> bool:
    """Is the figure ``key`` a share (a proportion, compared in percentage points)?

    >>> is_share("deal.p_gin"), is_share("deal.mean_deadwood"), is_share("game.hands")
    (True, False, False)
    """
    if any(f.estimate is not None and f.estimate.method == "wilson" for f in figures):
        return True
    return any(p in key for p in SHARE_KEYS) and "mean" not in key and "var" not in key


def difference_text(key: str, a: Figure, b: Figure, label_a: str = "A", label_b: str = "B") -> str:
    """The difference ``a − b`` of one figure between two columns, in the words its test allows
    (:func:`rumino.stats.verdict`): two exact figures differ exactly; two simulated shares are compared
    with Newcombe's interval; anything else as two independent means (an exact figure has no spread).
    The two columns' games are taken as independent (where they share seeds, the test is cautious).

    >>> from rumino.stats import proportion_estimate
    >>> a = Figure("luck.x", "luck", "w", estimate=proportion_estimate(60, 100))
    >>> b = Figure("luck.x", "luck", "w", estimate=proportion_estimate(40, 100))
    >>> difference_text("luck.x", a, b, "Gin", "Wiener")
    'shown: Gin is higher, by 20.0 points [6.1, 32.8]'
    >>> difference_text("deal.p_x", Figure("deal.p_x", "deal", "p", exact=Fraction(1, 4)),
    ...                 Figure("deal.p_x", "deal", "p", exact=Fraction(1, 5)))
    '+5.00 points (exact)'
    >>> difference_text("deal.p_x", Figure("deal.p_x", "deal", "p", exact=Fraction(1, 23758)),
    ...                 Figure("deal.p_x", "deal", "p", exact=Fraction(1, 1000000)))
    '+0.0041 points (exact)'
    >>> same = Figure("game.x", "game", "m", estimate=Estimate(20.0, 20.0, 20.0, 12, 1, "normal", se=0.0))
    >>> difference_text("game.x", same, same)
    'the same (neither varies)'
    """
    from dataclasses import replace

    from rumino.stats import mean_difference, proportion_difference, verdict

    pct = is_share(key, a, b)
    if a.kind == "exact" and b.kind == "exact":
        d = float(a.exact - b.exact)
        if d == 0:
            return "the same (exact)"
        x = 100 * d if pct else d
        # two decimals, or as many as a small difference needs to show (never −0.00 for a difference)
        places = max(2, 1 - math.floor(math.log10(abs(x))))
        return f"{x:+.{places}f} points (exact)" if pct else f"{x:+.{places}f} (exact)"

    def est(f: Figure) -> Estimate:
        if f.kind == "exact":
            x = float(f.exact)
            return Estimate(x, x, x, 0, None, "exact", se=0.0)
        return f.estimate

    ea, eb = est(a), est(b)
    if all(e.lo == e.hi == e.value for e in (ea, eb)):  # neither varies from game to game: nothing to test
        d = ea.value - eb.value
        if d == 0:
            return "the same (neither varies)"
        return f"{100 * d:+.2f} points (neither varies)" if pct else f"{d:+.2f} (neither varies)"
    if pct and ea.successes is not None and eb.successes is not None and ea.n and eb.n:
        c = proportion_difference(ea.successes, ea.n, eb.successes, eb.n)
    else:
        c = mean_difference(ea, eb)
        if pct:  # a share compared as a mean still reads in percentage points
            c = replace(c, kind="proportion")
    return verdict(c, label_a, label_b, more="is higher", p=False, digits=1 if pct else 2)
