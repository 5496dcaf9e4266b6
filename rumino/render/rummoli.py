"""The Rummoli play sheet as SVG (a pure function, no widgets): nine sections, their chips and pay cards.

The layout follows the printed boards (rules §2.2): the **Rummoli** section in
the centre and the eight others around it — the poker pot, the five single pay
cards 10♠ J♦ Q♣ K♥ A♠, the A♦ + K♦ pair and 7-8-9 of one suit. Each pay-card
section shows its cards (drawn by :mod:`rumino.render.cards`, so suits differ by shape
and by text, not by colour alone) and every section shows its chips as a small
stack and as a number, also in its accessible label.

>>> svg = board_svg({"rummoli": 12, "10s": 3})
>>> svg.count('class="rummoli-section"'), 'aria-label="10♠: 3 chips"' in svg
(9, True)
>>> 'data-section="rummoli" data-chips="12"' in svg
True
"""

from __future__ import annotations

from html import escape
from typing import Mapping, Sequence

from rumino.cards import parse_hand
from rumino.errors import RuminoError
from rumino.render.cards import CARD_H, CARD_W, _card_body, card_name

__all__ = ["SECTION_TITLES", "SECTION_CARDS", "board_svg", "BoardError"]

# The sheet's sections in the order of rules §2.2's table. Drawing sits below the games, so the
# keys are the sheet's own; tests/games/rummoli pins them equal to rumino.variants.rummoli.SECTIONS.
SECTION_TITLES = {
    "rummoli": "Rummoli", "poker": "Poker pot", "10s": "10♠", "Jd": "J♦", "Qc": "Q♣", "Kh": "K♥", "As": "A♠",
    "Ad+Kd": "A♦ + K♦", "7-8-9": "7-8-9 of a suit",
}
SECTION_KEYS = tuple(SECTION_TITLES)
# The cards each section pays for. 7-8-9 is any suit: it is drawn in hearts with a note saying so.
SECTION_CARDS = {
    "rummoli": (), "poker": (), "10s": ("10s",), "Jd": ("Jd",), "Qc": ("Qc",), "Kh": ("Kh",), "As": ("As",),
    "Ad+Kd": ("Kd", "Ad"), "7-8-9": ("7h", "8h", "9h"),
}
SECTION_NOTES = {
    "rummoli": "first player out", "poker": "best poker hand", "Ad+Kd": "one player, in succession",
    "7-8-9": "any suit, one player",
}
# Grid position (column, row) of each section: Rummoli in the centre.
_GRID = {
    "poker": (0, 0), "10s": (1, 0), "Jd": (2, 0),
    "7-8-9": (0, 1), "rummoli": (1, 1), "Qc": (2, 1),
    "Ad+Kd": (0, 2), "As": (1, 2), "Kh": (2, 2),
}
_CELL_W, _CELL_H, _GAP = 150, 150, 8
_CHIP_COLOURS = ("#d64541", "#2e86de", "#27ae60", "#f39c12", "#8e44ad")
_MAX_DRAWN_CHIPS = 10


class BoardError(RuminoError, ValueError):
    """Chips for a section that does not exist, or a count that is not a whole number ≥ 0."""


def _chips(chips) -> dict[str, int]:
    if chips is None:
        return dict.fromkeys(SECTION_KEYS, 0)
    if isinstance(chips, Mapping):
        unknown = [k for k in chips if k not in SECTION_TITLES]
        if unknown:
            raise BoardError(f"{unknown[0]!r} is not a Rummoli section: the sections are {', '.join(SECTION_KEYS)}.")
        items = {k: chips.get(k, 0) for k in SECTION_KEYS}
    elif isinstance(chips, Sequence) and not isinstance(chips, str):
        if len(chips) != len(SECTION_KEYS):
            raise BoardError(f"chips for {len(chips)} sections given: the Rummoli sheet has {len(SECTION_KEYS)} "
                             f"({', '.join(SECTION_KEYS)}).")
        items = dict(zip(SECTION_KEYS, chips))
    else:
        raise BoardError(f"chips must map sections to counts (or list nine counts), got {type(chips).__name__}.")
    for k, v in items.items():
        if isinstance(v, bool) or not isinstance(v, int) or v < 0:
            raise BoardError(f"the {k!r} section holds {v!r} chips: a count is a whole number ≥ 0.")
    return items


def _stack(n: int, x: float, y: float, k: float) -> str:
    """A stack of at most ten chips, bottom at (x, y) (the number beside it gives the count)."""
    parts = []
    for i in range(min(n, _MAX_DRAWN_CHIPS)):
        parts.append(f'<ellipse cx="{x:g}" cy="{y - i * 4 * k:g}" rx="{11 * k:g}" ry="{4.5 * k:g}" '
                     f'fill="{_CHIP_COLOURS[i % len(_CHIP_COLOURS)]}" stroke="#222" stroke-width="{0.8 * k:g}"/>')
    return "".join(parts)


def board_svg(chips: Mapping[str, int] | Sequence[int] | None = None, *, scale: float = 1.0,
              highlight: str | None = None, title: str = "Rummoli play sheet") -> str:
    """The nine-section Rummoli sheet with the chips on each section, as one ``<svg>``.

    ``chips`` maps section keys (``"rummoli"``, ``"poker"``, ``"10s"``, ``"Jd"``,
    ``"Qc"``, ``"Kh"``, ``"As"``, ``"Ad+Kd"``, ``"7-8-9"``; missing ones hold 0) to
    counts, or lists nine counts in that order. ``highlight`` outlines one section
    (the one just paid, say).

    >>> board_svg([9] * 9).count('data-chips="9"')
    9
    >>> board_svg({"Js": 1})
    Traceback (most recent call last):
    ...
    rumino.render.rummoli.BoardError: 'Js' is not a Rummoli section: the sections are rummoli, poker, 10s, Jd, Qc, Kh, As, Ad+Kd, 7-8-9.
    """
    counts = _chips(chips)
    if highlight is not None and highlight not in SECTION_TITLES:
        raise BoardError(f"cannot highlight {highlight!r}: it is not a Rummoli section.")
    k = scale
    cw, ch, gap = _CELL_W * k, _CELL_H * k, _GAP * k
    width, height = 3 * cw + 4 * gap, 3 * ch + 4 * gap
    font = 'font-family="DejaVu Sans, Arial, Helvetica, sans-serif"'
    total = sum(counts.values())
    name = f"{title}: {total} chip{'s' if total != 1 else ''} on the sheet"
    parts = [f'<rect width="{width:g}" height="{height:g}" rx="{14 * k:g}" fill="#0f5132"/>']
    card_w, card_h = CARD_W * 0.62 * k, CARD_H * 0.62 * k
    for key in SECTION_KEYS:
        col, row = _GRID[key]
        x, y = gap + col * (cw + gap), gap + row * (ch + gap)
        n = counts[key]
        label = f"{SECTION_TITLES[key]}: {n} chip{'s' if n != 1 else ''}"
        centre = (col, row) == (1, 1)  # the middle of the grid: the Rummoli section, drawn larger
        fill = "#fdf6e3" if not centre else "#fff3c4"
        stroke, sw = ("#1565c0", 4 * k) if key == highlight else ("#7a5c12", 1.5 * k)
        cell = [f'<rect x="{sw / 2:g}" y="{sw / 2:g}" width="{cw - sw:g}" height="{ch - sw:g}" rx="{10 * k:g}" '
                f'fill="{fill}" stroke="{stroke}" stroke-width="{sw:g}"/>',
                f'<text x="{cw / 2:g}" y="{20 * k:g}" text-anchor="middle" font-size="{(17 if centre else 14) * k:g}" '
                f'font-weight="bold" fill="#3b2a05" {font}>{escape(SECTION_TITLES[key])}</text>']
        cards = parse_hand(SECTION_CARDS[key])
        if cards:
            step = card_w + 3 * k
            x0 = (cw - (step * (len(cards) - 1) + card_w)) / 2
            for i, c in enumerate(cards):
                cell.append(f'<svg x="{x0 + i * step:g}" y="{28 * k:g}" width="{card_w:g}" height="{card_h:g}" '
                            f'data-card="{c}"><title>{escape(card_name(c))}</title>'
                            f'{_card_body(c, card_w, card_h, selected=False, dim=False, note=None)}</svg>')
        note = SECTION_NOTES.get(key)
        if note:
            ny = (28 * k + card_h + 12 * k) if cards else 46 * k
            cell.append(f'<text x="{cw / 2:g}" y="{ny:g}" text-anchor="middle" font-size="{10 * k:g}" '
                        f'fill="#5a4a1a" {font}>{escape(note)}</text>')
        cell.append(_stack(n, 26 * k, ch - 16 * k, k))
        cell.append(f'<text x="{cw - 12 * k:g}" y="{ch - 12 * k:g}" text-anchor="end" font-size="{18 * k:g}" '
                    f'font-weight="bold" fill="#1a1a1a" {font}>{n}</text>')
        parts.append(f'<g class="rummoli-section" transform="translate({x:g},{y:g})" role="img" '
                     f'aria-label="{escape(label)}" data-section="{key}" data-chips="{n}">'
                     f'<title>{escape(label)}</title>{"".join(cell)}</g>')
    return (f'<svg xmlns="http://www.w3.org/2000/svg" class="rummoli-board" role="img" width="{width:g}" '
            f'height="{height:g}" viewBox="0 0 {width:g} {height:g}" aria-label="{escape(name)}">'
            f'<title>{escape(name)}</title>{"".join(parts)}</svg>')
