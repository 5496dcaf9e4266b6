"""Pictures for the "at a glance" pages: rows of captioned card pictures, numbered figures,
the knocker's melds with the cards laid off on them, and a game's house rules in words.

The card faces themselves are :mod:`rumino.render.cards`'s; this module lays them out so
that pictures side by side never run together: every picture sits in its own box with
a gap around it, and its caption wraps under its own cards instead of spilling into
its neighbour's. A :class:`Figures` numbers a page's figures ("Picture 1", "Picture 2",
…) and captions each one.

>>> from rumino.cards import parse_hand
>>> figs = Figures()
>>> html = figs.figure([picture(parse_hand("7h 8h 9h"), "a run"), stock_picture(31, "the stock")],
...                    "The deal.")
>>> "Picture 1." in html, html.count('class="rumino-glance-pic"'), figs.count
(True, 2, 1)
>>> rows = knob_table_words(__import__("rumino.variants.gin", fromlist=["GIN"]).GIN)
>>> rows[0][:2]
('Knock limit', '10')
"""

from __future__ import annotations

import dataclasses
from html import escape
from typing import Any, Iterable, Sequence

from rumino.cards import format_card, parse_hand
from rumino.melds import MeldRules, check_meld
from rumino.render.cards import CARD_W, arrangement_html, card_back_svg, hand_svg, marked_meld_html
from rumino.engine.knobs import knob_table, value_words

__all__ = ["picture", "stock_picture", "arrangement_picture", "laid_off_picture", "note_picture", "row",
           "Figures", "cards_text", "knob_table_words"]

_CAPTION = "font:13px/1.35 sans-serif;color:#222;margin-top:3px;overflow-wrap:anywhere"
_BOX = "display:inline-block;vertical-align:top;margin:0 22px 10px 0"


def cards_text(cards: Iterable[int]) -> str:
    """Cards in the book's text form, with suit symbols.

    >>> cards_text(parse_hand("10h Qs"))
    '10♥ Q♠'
    """
    return " ".join(format_card(c, unicode=True) for c in cards)


def _box(inner: str, caption: str | None, width: float) -> str:
    # the caption may be no wider than the picture above it (at least 110 px): it wraps instead
    cap = (f'<div class="rumino-glance-caption" style="{_CAPTION};max-width:{max(width, 110):g}px">'
           f'{escape(caption)}</div>') if caption else ""
    return f'<div class="rumino-glance-pic" style="{_BOX}">{inner}{cap}</div>'


def picture(cards: Iterable[int] | str, caption: str, *, scale: float = 0.8, selected: Iterable[int] = ()) -> str:
    """A row of face-up cards with its caption under it; ``selected`` holds positions to highlight.

    >>> '7 of hearts' in picture("7h", "one card") and "one card" in picture("7h", "one card")
    True
    """
    cards = parse_hand(cards)
    width = CARD_W * scale * max(len(cards), 1) + 4 * scale * max(len(cards) - 1, 0)
    return _box(hand_svg(cards, scale=scale, selected=selected), caption, width)


def stock_picture(count: int, caption: str, *, scale: float = 0.8) -> str:
    """The face-down stock, its number of cards written on its back.

    >>> "stock: 31 cards" in stock_picture(31, "the stock")
    True
    """
    svg = card_back_svg(scale=scale, count=count, label=f"stock: {count} cards")
    return _box(svg, caption, CARD_W * scale)


def note_picture(text: str) -> str:
    """A short word between pictures ("then", "draws", "→"), so two pictures never read as one.

    >>> "then" in note_picture("then")
    True
    """
    return (f'<div class="rumino-glance-note" style="display:inline-block;vertical-align:top;margin:26px 22px 0 0;'
            f'font:bold 15px sans-serif;color:#345">{escape(text)}</div>')


def arrangement_picture(arrangement: Any, title: str) -> str:
    """A hand split into its melds and unmatched cards (:func:`rumino.render.cards.arrangement_html`),
    boxed like the other pictures.

    >>> from rumino.hand.arrange import best_arrangement
    >>> from rumino.melds import GIN_MELDS
    >>> "deadwood 5" in arrangement_picture(best_arrangement(parse_hand("2c 3c 4c 5d"), GIN_MELDS), "a hand")
    True
    """
    return f'<div class="rumino-glance-pic" style="{_BOX}">{arrangement_html(arrangement, title=title)}</div>'


def laid_off_picture(melds: Sequence[Sequence[int]], laid_off: Iterable[int], rules: MeldRules, caption: str) -> str:
    """The knocker's melds with the defender's laid-off cards added to them, each such card marked
    "laid off" (by an outline and a text badge, not by colour alone).

    >>> from rumino.melds import GIN_MELDS
    >>> html = laid_off_picture([parse_hand("6h 7h 8h")], parse_hand("9h"), GIN_MELDS, "lay-offs")
    >>> html.count('data-mark="laid off"'), "9 of hearts, laid off" in html
    (1, True)
    """
    laid = list(laid_off)
    blocks = []
    for meld in melds:
        extra = []
        for c in list(laid):  # a card goes onto the first meld it extends
            if _extends(list(meld) + extra, c, rules):
                extra.append(c)
                laid.remove(c)
        whole = check_meld(list(meld) + extra, rules)
        marks = ["laid off" if c in extra else None for c in whole.cards]
        blocks.append(marked_meld_html(whole, marks, scale=0.7))
    if laid:
        raise ValueError(f"{cards_text(laid)} extend none of the melds {[cards_text(m) for m in melds]}")
    cap = f'<div class="rumino-glance-caption" style="{_CAPTION}">{escape(caption)}</div>'
    return f'<div class="rumino-glance-pic" style="{_BOX}"><div>{"".join(blocks)}</div>{cap}</div>'


def _extends(meld: list[int], card: int, rules: MeldRules) -> bool:
    try:
        check_meld(meld + [card], rules)
    except ValueError:
        return False
    return True


def row(parts: Iterable[str]) -> str:
    """Pictures side by side, wrapping onto a new line when the page is narrow.

    >>> row(["<b>a</b>", "<b>b</b>"]).count("<b>")
    2
    """
    return f'<div class="rumino-glance-row" style="display:flex;flex-wrap:wrap;align-items:flex-start">' \
           f'{"".join(parts)}</div>'


@dataclasses.dataclass
class Figures:
    """A page's figures, numbered in the order they are drawn ("Picture 1.", "Picture 2.", …).

    >>> figs = Figures()
    >>> _ = figs.figure(["x"], "First."); "Picture 2.</b> Second." in figs.figure(["y"], "Second.")
    True
    """

    count: int = 0

    def figure(self, parts: Iterable[str], caption: str) -> str:
        """A numbered figure: the pictures ``parts`` in a row, then ``caption``."""
        if not caption.strip():
            raise ValueError("every figure on an at-a-glance page needs a caption")
        self.count += 1
        n = self.count
        return (f'<figure class="rumino-glance-figure" data-number="{n}" style="margin:10px 0 18px 0">'
                f'{row(parts)}<figcaption style="font:italic 14px/1.4 sans-serif;color:#333;margin-top:2px">'
                f'<b>Picture {n}.</b> {escape(caption)}</figcaption></figure>')


def knob_table_words(rules: Any, skip: Iterable[str] = ()) -> list[tuple[str, str, str, str]]:
    """A game's house rules in a player's words: ``(rule, as played here, other choices, what it does)``,
    one row a knob of its rules class (``label=``, ``words=`` and ``doc=`` metadata), ``skip`` names left out.

    >>> from rumino.variants.wiener import WIENER
    >>> [r for r in knob_table_words(WIENER) if r[0] == "The deal"][0][1:3]
    ('the dealer takes 11 and discards first', '10 each and an upcard')
    """
    skip = set(skip)
    out = []
    for r in knob_table(type(rules)):
        if r["name"] in skip:
            continue
        value = getattr(rules, r["name"])
        if r["choices"] is not None:
            others = "; ".join(value_words(r, c) for c in r["choices"] if c != value or type(c) is not type(value))
            others = others or "none (fixed)"
        else:
            lo, hi = r["low"], r["high"]
            others = f"any number from {lo} to {hi}" + (" or unlimited" if r["allow_none"] else "")
        out.append((r["label"], value_words(r, value), others, r["doc"]))
    return out
