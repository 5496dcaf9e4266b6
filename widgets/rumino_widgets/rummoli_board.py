"""RummoliBoard: the nine-section Rummoli play sheet with its chips, drawn by :mod:`rumino.render.rummoli`.

The widget only shows chips it is given (from a game's ledger, or typed by the
reader); it decides nothing. A count the drawing refuses (a section that does
not exist, a negative or fractional count) shows the engine's message and the
board keeps its last chips.

>>> c = RummoliBoardController({"rummoli": 12, "10s": 3})
>>> c.total, 'data-section="10s" data-chips="3"' in c.svg()
(15, True)
>>> c.set_chips({"Js": 1}); c.error
"'Js' is not a Rummoli section: the sections are rummoli, poker, 10s, Jd, Qc, Kh, As, Ad+Kd, 7-8-9."
"""

from __future__ import annotations

from html import escape
from typing import Mapping

import ipywidgets as W

from rumino.errors import RuminoError
from rumino.render.rummoli import SECTION_KEYS, SECTION_TITLES, board_svg

from rumino_widgets._base import StaticFallback, error_html, table_html


class RummoliBoardController:
    """Chips per section (and an optional highlighted section) in; the SVG and a chip table out."""

    def __init__(self, chips: Mapping[str, int] | None = None, *, highlight: str | None = None,
                 title: str = "Rummoli play sheet", scale: float = 1.0):
        self.error: str | None = None
        self.title = title
        self.scale = scale
        self.chips = dict.fromkeys(SECTION_KEYS, 0)
        self.highlight: str | None = None
        self.set_chips(chips or {}, highlight=highlight)

    def set_chips(self, chips: Mapping[str, int], *, highlight: str | None = None) -> None:
        """New chips (missing sections hold 0); refused input keeps the old board and sets ``error``."""
        try:
            board_svg(chips, highlight=highlight)  # the drawing validates sections and counts
        except RuminoError as err:
            self.error = str(err)
            return
        self.error = None
        self.chips = {k: int(chips.get(k, 0)) for k in SECTION_KEYS} if isinstance(chips, Mapping) else \
            dict(zip(SECTION_KEYS, chips))
        self.highlight = highlight

    @property
    def total(self) -> int:
        return sum(self.chips.values())

    def svg(self) -> str:
        return board_svg(self.chips, scale=self.scale, highlight=self.highlight, title=self.title)

    def table_html(self) -> str:
        rows = [[escape(SECTION_TITLES[k]), str(self.chips[k])] for k in SECTION_KEYS]
        rows.append(["<b>on the sheet</b>", f"<b>{self.total}</b>"])
        return table_html(["section", "chips"], rows, caption="Chips on each section", cls="rumino-board-table",
                          row_headers=True)

    def html(self) -> str:
        err = error_html(self.error) if self.error else ""
        return (f'<div class="rumino-board" style="display:flex;gap:16px;align-items:flex-start;flex-wrap:wrap">'
                f'<div>{self.svg()}</div><div>{err}{self.table_html()}</div></div>')


class RummoliBoard(StaticFallback, W.VBox):
    """The board as a live view: call ``set_chips`` (a game table does after every action).

    >>> b = RummoliBoard({"poker": 4})
    >>> b.set_chips({"poker": 0, "rummoli": 9}, highlight="rummoli")
    >>> 'data-section="rummoli" data-chips="9"' in b.view.value
    True
    """

    def __init__(self, chips: Mapping[str, int] | None = None, *, highlight: str | None = None,
                 title: str = "Rummoli play sheet", scale: float = 1.0):
        self.controller = RummoliBoardController(chips, highlight=highlight, title=title, scale=scale)
        self.view = W.HTML()
        self.view.add_class("rumino-board-view")
        super().__init__([self.view])
        self.add_class("rumino-rummoli-board")
        self._refresh()

    def set_chips(self, chips: Mapping[str, int], *, highlight: str | None = None) -> None:
        self.controller.set_chips(chips, highlight=highlight)
        self._refresh()

    def _refresh(self) -> None:
        self.view.value = self.controller.html()

    def static_html(self) -> str:
        return self.controller.html()
