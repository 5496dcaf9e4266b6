"""The one numba wrapper every compiled kernel uses (hand maths and table solver alike).

>>> @jit
... def square(x):
...     return x * x
>>> square(7)
49
"""

from __future__ import annotations

from typing import Any, Callable

import numba

__all__ = ["jit"]


def jit(fn: Callable[..., Any] | None = None, *, sig: str | None = None, inline: bool = False,
        **options: Any) -> Callable[..., Any]:
    """``numba.njit(cache=True)``, or without the on-disk cache where no cache directory is writable.

    numba looks for a writable ``__pycache__`` next to this file, then
    ``NUMBA_CACHE_DIR``, then a per-user directory; if none is writable
    ``cache=True`` raises at decoration time, and compiling in memory is the
    right fallback (slower start, same code). ``inline=True`` asks numba to
    inline the function into its compiled callers (for small helpers on a hot path); other keywords
    (``parallel=True``) go to numba as they are. ``sig`` is a numba signature as text (compiled at
    once, not on the first call). With ``fn`` the answer is numba's compiled dispatcher; without it
    (``@jit(inline=True)``), the decorator that makes one.
    """
    if fn is None:
        return lambda f: jit(f, sig=sig, inline=inline, **options)
    args = (sig,) if sig is not None else ()
    opts = {**options, **({"inline": "always"} if inline else {})}
    try:
        return numba.njit(*args, cache=True, **opts)(fn)
    except RuntimeError:  # "cannot cache function ...: no locator available"
        return numba.njit(*args, **opts)(fn)
