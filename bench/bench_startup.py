"""How quickly the command starts: ``rumino --help`` and ``rumino --version`` beside a bare Python (issue 38).

    python bench/bench_startup.py              # 15 runs of each, the fewest CPU seconds
    python bench/bench_startup.py --runs 30 --json bench/results/startup.json

Each command runs in a fresh interpreter (``python -m rumino ...``), and its CPU time (user + system, read
from the finished child) is set beside the same for ``python -c "import argparse, json"``, the least a
command line in Python costs. Target: at most 8 times that. CPU time leaves out the waits for a core on a
shared machine; each figure is the best of the runs (the least disturbed), as in the other benchmarks.
The last column is what ``import rumino`` alone costs, and the modules a start must not load are listed
if one of them was loaded (tests/cli/test_cli_startup.py checks the same without timing anything).
"""

from __future__ import annotations

import argparse
import os
import resource
import subprocess
import sys

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
sys.path.insert(0, ROOT)

from bench._common import table, verdict, write_json  # noqa: E402

TARGET = 8.0  # times the bare interpreter's CPU time
HEAVY = ("numba", "numpy", "scipy", "plotly", "tqdm", "ipywidgets")
CASES = [
    ("python -c 'import argparse, json' (the baseline)", ["-c", "import argparse, json"]),
    ("rumino --help", ["-m", "rumino", "--help"]),
    ("rumino --version", ["-m", "rumino", "--version"]),
    ("import rumino", ["-c", "import rumino"]),
]


def _env() -> dict:
    env = dict(os.environ)
    env["PYTHONPATH"] = os.pathsep.join([ROOT, os.path.join(ROOT, "widgets")] +
                                        ([env["PYTHONPATH"]] if env.get("PYTHONPATH") else []))
    return env


def cpu_seconds(args: list[str], runs: int) -> float:
    """The fewest CPU seconds (user + system) of ``runs`` fresh ``python args``."""
    best = float("inf")
    for _ in range(runs):
        before = resource.getrusage(resource.RUSAGE_CHILDREN)
        subprocess.run([sys.executable, *args], env=_env(), stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL,
                       check=True)
        after = resource.getrusage(resource.RUSAGE_CHILDREN)
        best = min(best, after.ru_utime - before.ru_utime + after.ru_stime - before.ru_stime)
    return best


def heavy_loaded(args: list[str]) -> list[str]:
    """The heavy modules a run of ``python args`` imported (``-X importtime`` lists every import)."""
    done = subprocess.run([sys.executable, "-X", "importtime", *args], env=_env(), capture_output=True, text=True)
    names = {line.rsplit("|", 1)[-1].strip() for line in done.stderr.splitlines() if line.startswith("import time:")}
    return sorted(h for h in HEAVY if h in names)


def main(argv=None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--runs", type=int, default=15, help="fresh interpreters per command (default 15)")
    ap.add_argument("--json", default=None, help="also write the figures to this JSON file")
    args = ap.parse_args(argv)
    load = " ".join(f"{x:.2f}" for x in os.getloadavg())
    print(f"{os.cpu_count()} cores, load average {load}; Python {sys.version.split()[0]}; best of {args.runs} runs")
    figures = {label: cpu_seconds(cmd, args.runs) for label, cmd in CASES}
    base = figures[CASES[0][0]]
    rows, out = [], {"runs": args.runs, "target_ratio": TARGET, "commands": {}}
    for label, cmd in CASES:
        ratio = figures[label] / base
        heavy = heavy_loaded(cmd) if label != CASES[0][0] else []
        met = "" if label in (CASES[0][0], "import rumino") else verdict(ratio <= TARGET)
        rows.append([label, f"{1000 * figures[label]:.0f} ms", f"{ratio:.1f}×", met, ", ".join(heavy) or "-"])
        out["commands"][label] = {"cpu_seconds": figures[label], "ratio": ratio, "heavy_modules": heavy}
    print(table(["command", "CPU", "× baseline", f"target ≤ {TARGET:g}×", "heavy modules loaded"], rows))
    write_json(args.json, out)
    return 0


if __name__ == "__main__":
    sys.exit(main())
