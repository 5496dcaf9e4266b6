"""The progress bar the long commands share: a tqdm bar on stderr and the ``progress(done, total)`` hook
that moves it (the hook the engine's long runs call).

>>> progress_bar(False, "games", "game")
(None, None)
"""

from __future__ import annotations

import sys
from typing import Any, Callable


def progress_bar(enabled: bool, desc: str, unit: str) -> tuple[Any, Callable[[int, int], None] | None]:
    """``(bar, progress)``: a tqdm bar on stderr and the ``progress(done, total)`` that moves it,
    or ``(None, None)`` when ``enabled`` is false. Light to import (tqdm loads on the first bar)."""
    if not enabled:
        return None, None
    from tqdm.auto import tqdm

    bar = tqdm(total=0, desc=desc, unit=f" {unit}", file=sys.stderr)

    def tick(done: int, total: int) -> None:
        if bar.total != total:
            bar.total = total
        bar.n = done
        bar.refresh()

    return bar, tick
