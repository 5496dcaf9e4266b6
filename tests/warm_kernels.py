"""The numba kernels the tests use most, compiled once per test run and shared between the xdist workers.

A kernel compiles on its first call (seconds to half a minute each) and numba keeps the result in the
on-disk cache (``__pycache__``), which a fresh clone does not have. Two workers reaching the same kernel
at about the same time (xdist hands them neighbouring tests) both compiled it. Here, before collecting,
each worker compiles its own share of the heaviest kernels (``warm(0)``: hand deadwood, Rommé openings,
poker, about 46 CPU-s; ``warm(1)``: the compiled table programmes, about 54 CPU-s), then waits until the
other worker has finished its share, so that from then on each loads the other's kernels from the cache
instead of compiling them again. Nothing is asserted here: the tests check the answers.
"""

from __future__ import annotations

import os
import time
from pathlib import Path


def warm(part: int) -> None:
    """Compile share ``part`` (0 or 1) of the heaviest kernels by calling them on small inputs."""
    import numpy as np

    from rumino.cards import ROMME_PACK, parse_hand
    from rumino.melds import ROBBER_MELDS, ROMME_MELDS

    if part == 0:
        from rumino.engine.evaluator import kernels_module
        from rumino.hand.opening import max_opening_batch, max_opening_fast
        from rumino.odds.montecarlo import sample_deals

        if kernels_module() is None:  # RUMINO_NO_KERNELS: nothing to compile
            return
        hands = sample_deals(ROMME_PACK, 13, 4, np.random.default_rng(0))
        max_opening_batch(hands, ROMME_MELDS)
        max_opening_batch(hands, ROMME_MELDS, method="search")
        max_opening_fast(parse_hand("7h 8h 9h 10h 5c 5d 5s"), ROMME_MELDS)
        # Rummoli's poker hands (evaluator and odds tables)
        from rumino.hand.poker import evaluate_batch, hand_value
        from rumino.odds.poker import best_five_table, simulate_table

        hand_value(parse_hand("Ah Kh Qh Jh 10h 2c 3d"))
        evaluate_batch(np.array([parse_hand("Ah Kh Qh Jh 10h 2c 3d")], dtype=np.int64))
        best_five_table(7)
        simulate_table(7, 100, 1)
    else:
        from rumino.table.solver import solve_table

        # the compiled table programmes (the tests ask for them by name; "auto" is HiGHS)
        for method in ("hybrid", "jit"):
            solve_table(parse_hand("5d 6d 7d 5s 6s JK"), parse_hand("5c 6h 9d"), ROBBER_MELDS, method=method)
            solve_table(parse_hand("5c 6c 7c 8c 9c"), parse_hand("7c 4h"), ROBBER_MELDS, method=method)
        # the search player's compiled Gin playout (about 15 CPU-s cold)
        from rumino.variants.gin.playout import playout
        from rumino.playing.seeding import new_table

        playout(new_table("gin", ["greedy", "greedy"], 1, 0, dealer=1)[0])


def warm_and_wait(part: int, folder: Path, others: int = 1, timeout: float = 300.0) -> None:
    """``warm(part)``, mark it done in ``folder``, then wait (at most ``timeout`` seconds) until ``others``
    other parts are marked done there too."""
    try:
        warm(part)
    except Exception:  # noqa: BLE001 - the tests that call the kernel meet the same error and report it
        pass
    folder.mkdir(parents=True, exist_ok=True)
    (folder / f"{part}.done").touch()  # after a failure too: never leave the other worker waiting
    deadline = time.monotonic() + timeout
    while len(list(folder.glob("*.done"))) < others + 1 and time.monotonic() < deadline:
        time.sleep(0.2)


def worker_part(config) -> int | None:
    """0 or 1 for the first two xdist workers of a run, else ``None`` (no xdist, or a third worker)."""
    name = os.environ.get("PYTEST_XDIST_WORKER", "")
    count = int(os.environ.get("PYTEST_XDIST_WORKER_COUNT", "0") or 0)
    if count < 2 or name not in ("gw0", "gw1") or not hasattr(config, "workerinput"):
        return None
    return int(name[2:])
