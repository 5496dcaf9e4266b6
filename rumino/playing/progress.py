"""The progress bar the long commands share (:func:`rumino.console.progress_bar`), kept here under its
old name for the code that imports it from the playing layer.

>>> progress_bar(False, "games", "games")
(None, None)
"""

from __future__ import annotations

from rumino.console import progress_bar

__all__ = ["progress_bar"]
