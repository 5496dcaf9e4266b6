"""Card faces, hands and arrangements as SVG/HTML strings (pure functions, no widgets).

The same functions draw the cards of the static book (through ``_repr_html_``)
and of the live widgets, so both look alike. Suits are told apart by **shape**
(drawn as paths, so no font is needed) and by **text** (a suit letter on the
face and a ``<title>``/``aria-label`` such as "7 of hearts"), never by colour
alone: ♦ and ♥ are both red but a diamond is not a heart.

>>> svg = card_svg(parse_card("7h"))
>>> svg.startswith("<svg") and "7 of hearts" in svg and 'data-card="45"' in svg
True
>>> "joker" in card_svg(JOKER)
True
>>> from rumino.hand.arrange import best_arrangement
>>> from rumino.melds import RUMINO_MELDS
>>> html = arrangement_html(best_arrangement(parse_hand("2c 3c 4c 9d 9h 9s 7d"), RUMINO_MELDS))
>>> html.count('class="rumino-meld"'), "deadwood 7" in html
(2, True)
"""

from __future__ import annotations

from html import escape
from typing import Iterable, Protocol, Sequence

from rumino.cards import JOKER, RANKS, SUIT_NAMES, SUIT_SYMBOLS, SUITS, format_card, parse_card, parse_hand

__all__ = [
    "card_name", "card_svg", "hand_svg", "hand_html", "meld_html", "meld_description", "arrangement_html",
    "suit_key_html", "card_back_svg", "CARD_W", "CARD_H", "marked_meld_html", "MARK_STYLES",
]



class MeldLike(Protocol):
    """What the drawings read of a meld: a :class:`rumino.melds.Meld` (this layer is below
    :mod:`rumino.melds`, so it names the fields it reads instead of importing the class)."""

    @property
    def kind(self) -> str: ...

    @property
    def cards(self) -> Sequence[int]: ...

    @property
    def stands_for(self) -> Sequence[int]: ...


class ArrangementLike(Protocol):
    """What the drawings read of an arrangement: a :class:`rumino.hand.arrange.Arrangement`."""

    @property
    def melds(self) -> Iterable[MeldLike]: ...

    @property
    def unmatched(self) -> Iterable[int]: ...

    @property
    def deadwood(self) -> int: ...


CARD_W, CARD_H = 60, 84  # the face at scale 1, in px (about the 5:7 ratio of a real card)

RANK_NAMES = ("ace", "2", "3", "4", "5", "6", "7", "8", "9", "10", "jack", "queen", "king")
INK = {0: "#1a1a1a", 1: "#1a1a1a", 2: "#c0141e", 3: "#c0141e"}  # black ♠♣, red ♦♥ (rules §0.1)
JOKER_INK = "#5b2a86"

# Suit shapes in a 100 x 100 box. Shapes, not font glyphs: every browser and
# every static page draws them the same, and they differ in outline, so a
# reader who cannot tell red from black still tells ♦ from ♥ and ♠ from ♣.
_SUIT_SHAPES = {
    0: '<path d="M50 2C30 28 4 42 4 62c0 16 12 26 25 26 9 0 15-4 18-10L40 100h20l-7-22c3 6 9 10 18 10 '
       '13 0 25-10 25-26C96 42 70 28 50 2z"/>',
    1: '<circle cx="50" cy="27" r="22"/><circle cx="26" cy="62" r="22"/><circle cx="74" cy="62" r="22"/>'
       '<path d="M44 50h12l6 50H38z"/>',
    2: '<path d="M50 0L90 50L50 100L10 50z"/>',
    3: '<path d="M50 96C22 70 2 52 2 30 2 14 14 2 29 2c10 0 17 6 21 14 4-8 11-14 21-14 15 0 27 12 27 28 '
       '0 22-20 40-48 66z"/>',
}
_STAR = '<path d="M50 2l14 32 35 3-27 23 8 35-30-19-30 19 8-35L1 37l35-3z"/>'


def card_name(c: int) -> str:
    """The spoken name of a card, used as its accessible label.

    >>> card_name(parse_card("7h")), card_name(parse_card("As")), card_name(JOKER)
    ('7 of hearts', 'ace of spades', 'joker')
    """
    c = parse_hand([c])[0]
    if c == JOKER:
        return "joker"
    return f"{RANK_NAMES[c % 13]} of {SUIT_NAMES[c // 13]}"


def _shape(suit: int | None, x: float, y: float, size: float, fill: str) -> str:
    body = _STAR if suit is None else _SUIT_SHAPES[suit]
    k = size / 100
    return f'<g transform="translate({x:g},{y:g}) scale({k:g})" fill="{fill}">{body}</g>'


def _card_body(c: int, w: float, h: float, *, selected: bool, dim: bool, note: str | None) -> str:
    """The drawing of one face in a w x h box at the origin (no outer <svg>)."""
    k = w / CARD_W
    stroke, sw = ("#1565c0", 3 * k) if selected else ("#555", 1 * k)
    bg = "#e8f0fe" if selected else "#ffffff"
    parts = [f'<rect x="{sw / 2:g}" y="{sw / 2:g}" width="{w - sw:g}" height="{h - sw:g}" rx="{6 * k:g}" '
             f'fill="{bg}" stroke="{stroke}" stroke-width="{sw:g}"/>']
    font = 'font-family="DejaVu Sans, Arial, Helvetica, sans-serif" font-weight="bold"'
    if c == JOKER:
        ink = JOKER_INK
        parts.append(f'<text x="{5 * k:g}" y="{16 * k:g}" font-size="{13 * k:g}" fill="{ink}" {font}>JK</text>')
        parts.append(_shape(None, w / 2 - 15 * k, h / 2 - 17 * k, 30 * k, ink))
        if not note:  # the note takes the bottom line
            parts.append(f'<text x="{w / 2:g}" y="{h - 8 * k:g}" font-size="{9 * k:g}" fill="{ink}" '
                         f'text-anchor="middle" {font}>JOKER</text>')
    else:
        rank, suit = c % 13, c // 13
        ink = INK[suit]
        label = RANKS[rank]
        fs = (12 if len(label) > 1 else 15) * k
        # top-left corner: rank over a small suit shape
        parts.append(f'<text x="{4 * k:g}" y="{16 * k:g}" font-size="{fs:g}" fill="{ink}" {font}>{label}</text>')
        parts.append(_shape(suit, 4.5 * k, 20 * k, 11 * k, ink))
        # the centre pip, and the suit letter (text, not colour, names the suit)
        parts.append(_shape(suit, w / 2 - 13 * k, h / 2 - 11 * k, 26 * k, ink))
        parts.append(f'<text x="{w - 5 * k:g}" y="{h - 6 * k:g}" font-size="{11 * k:g}" fill="{ink}" '
                     f'text-anchor="end" {font}>{label}{SUITS[suit]}</text>')
    if note:
        parts.append(f'<rect x="{2 * k:g}" y="{h - 22 * k:g}" width="{w - 4 * k:g}" height="{12 * k:g}" '
                     f'fill="#fff8d6" opacity="0.95"/>'
                     f'<text x="{w / 2:g}" y="{h - 13 * k:g}" font-size="{9 * k:g}" fill="#333" '
                     f'text-anchor="middle" {font}>{escape(note)}</text>')
    if dim:
        parts.append(f'<rect width="{w:g}" height="{h:g}" rx="{6 * k:g}" fill="#888" opacity="0.45"/>')
    return "".join(parts)


def card_svg(c: int | str, *, scale: float = 1.0, selected: bool = False, dim: bool = False,
             stands_for: int | None = None, label: str | None = None) -> str:
    """One card face as a standalone ``<svg>``.

    ``selected`` draws a thick blue border and tints the face; ``dim`` greys it
    (e.g. a card that may not be discarded). ``stands_for`` marks what a joker
    stands for in a meld ("= 8♥"). ``label`` replaces the accessible name.

    >>> s = card_svg("Qs", scale=0.5, selected=True)
    >>> 'width="30"' in s and "queen of spades" in s and 'data-selected="true"' in s
    True
    """
    c = parse_card(c) if isinstance(c, str) else parse_hand([c])[0]
    w, h = CARD_W * scale, CARD_H * scale
    name = label or card_name(c)
    note = None
    if stands_for is not None and c == JOKER and stands_for != JOKER:
        note = "= " + format_card(stands_for, unicode=True)
        name += f" standing for the {card_name(stands_for)}"
    return (f'<svg xmlns="http://www.w3.org/2000/svg" class="rumino-card" role="img" width="{w:g}" height="{h:g}" '
            f'viewBox="0 0 {w:g} {h:g}" aria-label="{escape(name)}" data-card="{c}" '
            f'data-text="{format_card(c)}" data-selected="{str(selected).lower()}">'
            f'<title>{escape(name)}</title>{_card_body(c, w, h, selected=selected, dim=dim, note=note)}</svg>')


def card_back_svg(*, scale: float = 1.0, count: int | None = None, label: str | None = None) -> str:
    """The back of a face-down card (the stock, an opponent's hand), with an optional count on it.

    >>> 'aria-label="stock: 80 cards"' in card_back_svg(count=80, label="stock: 80 cards")
    True
    """
    w, h = CARD_W * scale, CARD_H * scale
    k = scale
    name = label or ("face-down card" if count is None else f"{count} face-down cards")
    num = (f'<rect x="{w / 2 - 17 * k:g}" y="{h / 2 - 10 * k:g}" width="{34 * k:g}" height="{20 * k:g}" rx="{3 * k:g}" '
           f'fill="#fff"/><text x="{w / 2:g}" y="{h / 2 + 5 * k:g}" font-size="{13 * k:g}" text-anchor="middle" '
           f'font-family="DejaVu Sans, Arial, sans-serif" font-weight="bold" fill="#234">{count}</text>'
           if count is not None else "")
    return (f'<svg xmlns="http://www.w3.org/2000/svg" class="rumino-card-back" role="img" width="{w:g}" '
            f'height="{h:g}" viewBox="0 0 {w:g} {h:g}" aria-label="{escape(name)}"><title>{escape(name)}</title>'
            f'<rect x="0.5" y="0.5" width="{w - 1:g}" height="{h - 1:g}" rx="{6 * k:g}" fill="#2f5d8a" stroke="#555"/>'
            f'<rect x="{5 * k:g}" y="{5 * k:g}" width="{w - 10 * k:g}" height="{h - 10 * k:g}" rx="{4 * k:g}" '
            f'fill="none" stroke="#9cc3e6" stroke-width="{1.5 * k:g}" stroke-dasharray="{3 * k:g} {2 * k:g}"/>'
            f'{num}</svg>')


def _as_cards(cards) -> tuple[int, ...]:
    return parse_hand(cards)


def hand_svg(cards: Iterable[int] | str, *, scale: float = 1.0, selected: Iterable[int] = (),
             overlap: float = 0.0, gap: float = 4.0, notes: Sequence[str | None] | None = None,
             label: str | None = None) -> str:
    """A row of cards as one ``<svg>``; ``selected`` holds *positions* to highlight.

    ``overlap`` (0 to 0.8) fans the cards like a held hand; each card keeps
    its own ``<title>`` so a screen reader can name every card.

    >>> s = hand_svg("7h 8h JK", selected=[2])
    >>> s.count("<title>"), 'aria-label="hand: 7 of hearts, 8 of hearts, joker"' in s
    (4, True)
    """
    cards = _as_cards(cards)
    sel = set(selected)
    w, h = CARD_W * scale, CARD_H * scale
    step = w * (1 - overlap) + (gap * scale if overlap == 0 else 0)
    total_w = (step * (len(cards) - 1) + w) if cards else w
    pad = 3 * scale  # room for a selected card's raise
    text = ", ".join(card_name(c) for c in cards)  # spoken: "7 of hearts", not the typed "7h"
    name = label or (f"hand: {text}" if cards else "empty hand")
    inner = []
    for i, c in enumerate(cards):
        is_sel = i in sel
        note = notes[i] if notes is not None and i < len(notes) else None
        y = 0 if is_sel else pad
        card_name_ = card_name(c) + (f" ({note})" if note else "")
        inner.append(f'<svg x="{i * step:g}" y="{y:g}" width="{w:g}" height="{h:g}" data-card="{c}" '
                     f'data-index="{i}"><title>{escape(card_name_)}</title>'
                     f'{_card_body(c, w, h, selected=is_sel, dim=False, note=note)}</svg>')
    if not cards:
        inner.append(f'<rect x="1" y="{pad + 1:g}" width="{w - 2:g}" height="{h - 2:g}" rx="{6 * scale:g}" '
                     f'fill="none" stroke="#aaa" stroke-dasharray="4 3"/>')
    return (f'<svg xmlns="http://www.w3.org/2000/svg" class="rumino-hand" role="img" width="{total_w:g}" '
            f'height="{h + pad:g}" viewBox="0 0 {total_w:g} {h + pad:g}" aria-label="{escape(name)}">'
            f'<title>{escape(name)}</title>{"".join(inner)}</svg>')


def _caption(text: str) -> str:
    return (f'<div class="rumino-caption" style="font:13px/1.3 sans-serif;color:#333;margin-top:2px">'
            f'{escape(text)}</div>')


def hand_html(cards: Iterable[int] | str, *, caption: str | None = None, scale: float = 1.0,
              selected: Iterable[int] = ()) -> str:
    """A hand as an HTML block: the cards, then a caption in text (the canonical card text by default).

    >>> "2♣ 3♣ 4♣" in hand_html("2c 3c 4c")
    True
    """
    cards = _as_cards(cards)
    text = caption if caption is not None else " ".join(format_card(c, unicode=True) for c in cards)
    return (f'<div class="rumino-handblock" style="display:inline-block;margin:2px">'
            f'{hand_svg(cards, scale=scale, selected=selected)}{_caption(text)}</div>')


def _meld_notes(meld: MeldLike) -> list[str | None]:
    notes = []
    for c, s in zip(meld.cards, meld.stands_for):
        notes.append("= " + format_card(s, unicode=True) if c == JOKER and s != JOKER else None)
    return notes


def meld_description(meld: MeldLike) -> str:
    """Words for a meld: ``'run 7♥ 8♥ 9♥'``, ``'set of 9s'`` (jokers named by what they stand for).

    >>> from rumino.melds import check_meld, RUMINO_MELDS
    >>> meld_description(check_meld(parse_hand("7h JK 9h"), RUMINO_MELDS))
    'run 7♥ ★(8♥) 9♥'
    """
    if meld.kind == "set":
        nat = [c for c in meld.cards if c != JOKER]
        rank = RANKS[nat[0] % 13] if nat else "jokers"
        # a set's joker names its suit too when the meld says it (rules §3.2: a table joker is identified)
        return f"set of {rank}s: " + " ".join(
            f"★({format_card(s, unicode=True)})" if c == JOKER and s != JOKER else format_card(c, unicode=True)
            for c, s in zip(meld.cards, meld.stands_for))
    parts = []
    for c, s in zip(meld.cards, meld.stands_for):
        parts.append(f"★({format_card(s, unicode=True)})" if c == JOKER else format_card(c, unicode=True))
    return "run " + " ".join(parts)


def meld_html(meld: MeldLike, *, scale: float = 0.8) -> str:
    """One meld as a group of touching cards with its description underneath.

    >>> from rumino.melds import check_meld, RUMINO_MELDS
    >>> 'data-kind="run"' in meld_html(check_meld(parse_hand("As 2s 3s"), RUMINO_MELDS))
    True
    """
    desc = meld_description(meld)
    svg = hand_svg(meld.cards, scale=scale, gap=1, notes=_meld_notes(meld), label=desc)
    return (f'<div class="rumino-meld" data-kind="{meld.kind}" style="display:inline-block;margin:0 10px 4px 0;'
            f'padding:4px;border:1px solid #9bb;border-radius:6px;background:#f3f8f8">'
            f'{svg}{_caption(desc)}</div>')


def arrangement_html(arrangement: ArrangementLike, *, scale: float = 0.8, title: str | None = None) -> str:
    """An arrangement: each meld boxed on its own, the unmatched cards apart, and the deadwood in words.

    >>> from rumino.hand.arrange import best_arrangement
    >>> from rumino.melds import RUMINO_MELDS
    >>> html = arrangement_html(best_arrangement(parse_hand("7h 8h 9h 10h 5c 5d 5s"), RUMINO_MELDS))
    >>> "deadwood 0" in html and "no unmatched cards" in html
    True
    """
    melds = list(arrangement.melds)
    unmatched = tuple(arrangement.unmatched)
    blocks = [meld_html(m, scale=scale) for m in melds]
    un_text = ("unmatched: " + " ".join(format_card(c, unicode=True) for c in unmatched)) if unmatched \
        else "no unmatched cards"
    blocks.append(f'<div class="rumino-unmatched" style="display:inline-block;margin:0 0 4px 14px;padding:4px;'
                  f'border:1px dashed #c99;border-radius:6px;background:#fdf4f4">'
                  f'{hand_svg(unmatched, scale=scale, label=un_text)}{_caption(un_text)}</div>')
    n = len(melds)
    summary = (f"{n} meld{'s' if n != 1 else ''} · {len(unmatched)} unmatched "
               f"card{'s' if len(unmatched) != 1 else ''} · deadwood {arrangement.deadwood}")
    head = f'<div style="font:bold 13px sans-serif;margin-bottom:3px">{escape(title)}</div>' if title else ""
    return (f'<figure class="rumino-arrangement" role="group" aria-label="{escape(summary)}" '
            f'data-deadwood="{arrangement.deadwood}" style="margin:4px 0">{head}'
            f'<div style="display:flex;flex-wrap:wrap;align-items:flex-end">{"".join(blocks)}</div>'
            f'<figcaption style="font:13px sans-serif;color:#222">{escape(summary)}</figcaption></figure>')


# Marks on single cards of a meld (e.g. what a move changed). Told apart by the outline's *pattern*
# (solid, dashed, dotted) and by a text badge under the card, never by colour alone.
MARK_STYLES = {  # mark -> (outline, badge symbol)
    "from hand": ("3px solid #1b5e20", "+"),
    "moved": ("3px dashed #8a4b00", "\u21c4"),
    "moves": ("3px dashed #8a4b00", "\u21c4"),
}
_PLAIN_MARK = ("3px solid transparent", "")


def marked_meld_html(meld: MeldLike, marks: Sequence[str | None], *, scale: float = 0.7, caption: str | None = None,
                     index: int | None = None) -> str:
    """A meld whose cards carry marks (``"from hand"``, ``"moved"``, any short text, or None).

    A marked card gets an outline (its pattern says which mark, see ``MARK_STYLES``), a
    text badge under it, and the mark in its accessible name and tooltip; jokers show
    what they stand for. ``index`` numbers the meld (from 1) in its heading.

    >>> from rumino.melds import check_meld, RUMINO_MELDS
    >>> m = check_meld(parse_hand("7c 8c 9c"), RUMINO_MELDS)
    >>> html = marked_meld_html(m, ["from hand", "moved", None])
    >>> 'data-mark="from hand"' in html and "7 of clubs, from hand" in html and html.count("rumino-badge") == 2
    True
    """
    desc = meld_description(meld)
    cells, said = [], []
    for c, s, mark in zip(meld.cards, meld.stands_for, marks):
        name = card_name(c) + (f" standing for the {card_name(s)}" if c == JOKER and s != JOKER else "")
        if mark:
            name += f", {mark}"
            said.append(f"{format_card(c if c != JOKER else s, unicode=True)}"
                        f"{' (joker)' if c == JOKER else ''} {mark}")
        outline, symbol = MARK_STYLES.get(mark, ("3px dotted #333", "\u2022")) if mark else _PLAIN_MARK
        badge = (f'<span class="rumino-badge" style="display:block;font:bold 10px sans-serif;color:#222;'
                 f'background:#fff;border:1px solid #777;border-radius:8px;padding:0 4px;margin-top:2px;'
                 f'white-space:nowrap">{escape(symbol)} {escape(mark)}</span>') if mark else \
            '<span style="display:block;font:10px sans-serif;margin-top:2px">&nbsp;</span>'
        face = card_svg(c, scale=scale, stands_for=s if c == JOKER else None, label=name)
        cells.append(f'<span class="rumino-marked-card" data-card="{c}" data-mark="{escape(mark or "")}" '
                     f'title="{escape(name)}" style="display:inline-block;text-align:center;padding:1px;'
                     f'border:{outline};border-radius:6px;line-height:0">{face}{badge}</span>')
    head = f"meld {index}: " if index is not None else ""
    text = caption if caption is not None else head + desc
    label = text + (" \u2014 " + ", ".join(said) if said else "")
    return (f'<div class="rumino-marked-meld" data-kind="{meld.kind}" role="group" aria-label="{escape(label)}" '
            f'style="display:inline-block;margin:0 10px 6px 0;padding:4px;border:1px solid #9bb;border-radius:6px;'
            f'background:#f3f8f8;vertical-align:top"><div style="display:flex;gap:2px;align-items:flex-start">'
            f'{"".join(cells)}</div>{_caption(text)}</div>')


def suit_key_html() -> str:
    """A one-line legend of the four suit shapes with their names.

    >>> "spades" in suit_key_html() and "hearts" in suit_key_html()
    True
    """
    items = []
    for s in range(4):
        items.append(f'<span style="margin-right:10px"><svg width="14" height="14" viewBox="0 0 14 14" '
                     f'aria-hidden="true">{_shape(s, 0, 0, 14, INK[s])}</svg> {SUIT_SYMBOLS[s]} {SUITS[s]} = '
                     f'{SUIT_NAMES[s]}</span>')
    return f'<div class="rumino-suit-key" style="font:12px sans-serif">{"".join(items)}</div>'
