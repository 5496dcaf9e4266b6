"""Small helpers shared by the benchmark scripts: one core, careful timing, a plain table.

The machines these run on are shared, so a single timing can be inflated by
another process. Every figure is therefore the **best of several repeats**
(the least disturbed run), which is what the code can do; the load average
at the start is printed so a reader can judge the conditions.
"""

from __future__ import annotations

import json
import os
import platform
import sys
import time
from typing import Callable, Sequence

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))


def one_core() -> None:
    """Ask numba and the BLAS libraries for one thread. Call before importing numpy or numba."""
    for var in ("NUMBA_NUM_THREADS", "OMP_NUM_THREADS", "OPENBLAS_NUM_THREADS", "MKL_NUM_THREADS"):
        os.environ[var] = "1"
    if ROOT not in sys.path:
        sys.path.insert(0, ROOT)


def best_of(fn: Callable[[], object], repeat: int) -> float:
    """Fewest wall-clock seconds ``fn()`` took over ``repeat`` runs."""
    return timed(fn, repeat)[0]


def timed(fn: Callable[[], object], repeat: int) -> tuple[float, float]:
    """``(wall, cpu)``: the fewest wall-clock and the fewest CPU seconds of ``repeat`` runs.

    CPU time (this process only) leaves out the time the process waited for a
    core, so on a busy machine it is the closer figure for single-threaded code;
    wall-clock time is what a user waits. Reports show both.
    """
    wall = cpu = float("inf")
    for _ in range(repeat):
        t, c = time.perf_counter(), time.process_time()
        fn()
        wall = min(wall, time.perf_counter() - t)
        cpu = min(cpu, time.process_time() - c)
    return wall, cpu


def machine() -> str:
    """CPU model, cores, load average and versions, for the header of a report."""
    cpu = platform.processor() or "unknown CPU"
    try:
        with open("/proc/cpuinfo") as f:
            cpu = next(line.split(":", 1)[1].strip() for line in f if line.startswith("model name"))
    except (OSError, StopIteration):
        pass
    load = " ".join(f"{x:.2f}" for x in os.getloadavg())
    import numba
    import numpy

    return (f"{cpu}, {os.cpu_count()} cores, load average {load}; Python {platform.python_version()}, "
            f"numpy {numpy.__version__}, numba {numba.__version__}")


def rate(x: float) -> str:
    """Hands per second, readable: ``'1.23 M/s'``, ``'56.1 k/s'``."""
    if x >= 1e6:
        return f"{x / 1e6:.2f} M/s"
    if x >= 1e3:
        return f"{x / 1e3:.1f} k/s"
    return f"{x:.0f} /s"


def micros(seconds: float) -> str:
    us = seconds * 1e6
    return f"{us:.1f} µs" if us < 1000 else f"{us / 1000:.2f} ms"


def table(headers: Sequence[str], rows: Sequence[Sequence[object]]) -> str:
    """A plain-text table, first column left-aligned, the others right-aligned."""
    cells = [[str(h) for h in headers]] + [[str(c) for c in row] for row in rows]
    widths = [max(len(r[i]) for r in cells) for i in range(len(headers))]

    def fmt(r):
        return "  ".join(c.ljust(w) if i == 0 else c.rjust(w) for i, (c, w) in enumerate(zip(r, widths)))

    rule = "  ".join("-" * w for w in widths)
    return "\n".join([fmt(cells[0]), rule] + [fmt(r) for r in cells[1:]])


def section(title: str) -> None:
    print(f"\n{title}\n" + "=" * len(title))


def best_run(fn: Callable[[int], object], repeat: int) -> tuple[float, float, object]:
    """Fewest wall and CPU seconds over ``repeat`` calls of ``fn(k)``, and the last result."""
    wall = cpu = float("inf")
    out = None
    for k in range(repeat):
        t, c = time.perf_counter(), time.process_time()
        out = fn(k)
        wall = min(wall, time.perf_counter() - t)
        cpu = min(cpu, time.process_time() - c)
    return wall, cpu, out


def verdict(ok: bool) -> str:
    return "met" if ok else "MISSED"


def write_json(path: str | None, figures: dict) -> None:
    """Write ``figures`` to ``path`` (a script's ``--json``), making its folder; nothing when no path was given."""
    if not path:
        return
    os.makedirs(os.path.dirname(os.path.abspath(path)), exist_ok=True)
    with open(path, "w") as fh:
        json.dump(figures, fh, indent=1)
