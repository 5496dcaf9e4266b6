"""Every code line a reader sees on a page fits the code column of the built book.

At 1280 px the column holds 77 characters of code (measured in Chromium), so a visible line is at
most 77 characters long; longer lines scroll sideways. A cell's input is visible unless the cell is
tagged ``remove-input``, ``hide-input`` (folded behind a toggle) or ``remove-cell``; the book uses
those three (and nbformat's underscore spellings are treated the same).
"""

from __future__ import annotations

import json
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]
BOOK = ROOT / "book"
NOTEBOOKS = sorted(BOOK.glob("*.ipynb"))
COLUMN = 77
NOT_SHOWN = {"remove-input", "remove_input", "hide-input", "hide_input", "remove-cell", "remove_cell"}


def shown_code_lines(nb: dict) -> list[tuple[int, str]]:
    """(cell index, line) for each line of each code cell whose input the page shows.

    >>> cell = lambda src, *tags: {"cell_type": "code", "source": src, "metadata": {"tags": list(tags)}}
    >>> shown_code_lines({"cells": [cell("a = 1\\nb = 2"), cell("hidden", "remove-cell")]})
    [(0, 'a = 1'), (0, 'b = 2')]
    """
    lines = []
    for i, cell in enumerate(nb["cells"]):
        if cell["cell_type"] != "code" or set(cell.get("metadata", {}).get("tags", [])) & NOT_SHOWN:
            continue
        src = cell["source"]
        text = "".join(src) if isinstance(src, list) else src
        lines += [(i, line) for line in text.splitlines()]
    return lines


def too_wide(nb: dict, column: int = COLUMN) -> list[tuple[int, int, str]]:
    return [(i, len(line), line) for i, line in shown_code_lines(nb) if len(line) > column]


def test_the_width_check_can_fail():
    cell = {"cell_type": "code", "source": ["x = 1\n", "y" * 78], "metadata": {}}
    folded = {"cell_type": "code", "source": "z" * 100, "metadata": {"tags": ["hide-input"]}}
    prose = {"cell_type": "markdown", "source": "w" * 100, "metadata": {}}
    assert too_wide({"cells": [cell, folded, prose]}) == [(0, 78, "y" * 78)]
    assert not too_wide({"cells": [{"cell_type": "code", "source": "y" * 77, "metadata": {}}]})


@pytest.mark.parametrize("path", NOTEBOOKS, ids=[p.stem for p in NOTEBOOKS])
def test_visible_code_fits_the_column(path):
    wide = too_wide(json.loads(path.read_text(encoding="utf-8")))
    assert not wide, (f"{path.name}: visible code lines over {COLUMN} characters "
                      f"(cell, length): {[(i, n) for i, n, _ in wide][:10]}")
