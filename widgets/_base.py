"""Shared pieces of the widgets: the static HTML fallback and message boxes.

Every widget is an ipywidgets container with a ``controller`` (plain Python,
testable without a browser) and a ``static_html()`` method. Its MIME bundle
carries that HTML as ``text/html`` beside the live widget view, so a page read
without a kernel (a static book, GitHub) still shows the cards and numbers.

>>> "rumino-error" in error_html("bad card")
True
>>> fraction_html(Fraction(1234, 56789))
'<span class="rumino-frac">1,234&thinsp;/&thinsp;56,789</span>'
"""

from __future__ import annotations

from fractions import Fraction
from html import escape

ERROR_STYLE = ("font:13px sans-serif;color:#8a1111;background:#fdecec;border:1px solid #e0a0a0;"
               "border-radius:4px;padding:4px 8px;margin:4px 0")
INFO_STYLE = "font:13px sans-serif;color:#333;margin:4px 0"


def error_html(message: str) -> str:
    """The engine's message in a red box (role=alert, so a screen reader announces it)."""
    return f'<div class="rumino-error" role="alert" style="{ERROR_STYLE}">{escape(message)}</div>'


def info_html(message: str) -> str:
    return f'<div class="rumino-info" style="{INFO_STYLE}">{escape(message)}</div>'


# Static tables are read without the book's CSS too (JupyterLab, Voilà, GitHub), so their
# look is inline: ruled cells with padding, so neighbouring numbers never run together,
# numbers right-aligned in tabular figures so their digits line up down a column.
TABLE_STYLE = "border-collapse:collapse;margin:6px 0;font:13px sans-serif;color:#222"
CELL_STYLE = "border:1px solid #c8c8c8;padding:3px 10px"
NUM_STYLE = CELL_STYLE + ";text-align:right;font-variant-numeric:tabular-nums;white-space:nowrap"
HEAD_STYLE = CELL_STYLE + ";background:#eef1f5;text-align:center"
CAPTION_STYLE = "caption-side:top;text-align:left;font-style:italic;padding:2px 0"


def fraction_html(p: Fraction) -> str:
    """An exact fraction for people: thousands separators and a spaced slash (``1,234 / 56,789``)."""
    p = Fraction(p)
    if p.denominator == 1:
        return f'<span class="rumino-frac">{p.numerator:,}</span>'
    return f'<span class="rumino-frac">{p.numerator:,}&thinsp;/&thinsp;{p.denominator:,}</span>'


def interval_text(estimate: float, lo: float, hi: float, *, percent: bool = True, digits: int = 1) -> str:
    """An estimate with its interval, e.g. ``36.0% (31.4 – 40.8%)`` or ``4.21 (3.90 – 4.52)``."""
    if percent:
        return f"{estimate:.{digits}%} ({100 * lo:.{digits}f} – {hi:.{digits}%})"
    return f"{estimate:.{digits}f} ({lo:.{digits}f} – {hi:.{digits}f})"


def table_html(header: list[str], rows: list[list[str]], *, caption: str = "", cls: str = "",
               row_headers: bool = False) -> str:
    """A ruled HTML table; cells are HTML already (escape text yourself). The first column is text,
    the others numbers; with ``row_headers`` the first cell of each row is a row header."""
    head = "".join(f'<th scope="col" style="{HEAD_STYLE}">{h}</th>' for h in header)
    body = []
    for row in rows:
        cells = []
        for i, c in enumerate(row):
            if i == 0:
                tag = 'th scope="row"' if row_headers else "td"
                cells.append(f'<{tag} style="{CELL_STYLE};text-align:left;font-weight:normal">{c}</{tag.split()[0]}>')
            else:
                cells.append(f'<td style="{NUM_STYLE}">{c}</td>')
        body.append("<tr>" + "".join(cells) + "</tr>")
    cap = f'<caption style="{CAPTION_STYLE}">{caption}</caption>' if caption else ""
    classes = f"rumino-static-table {cls}".strip()
    return (f'<table class="{classes}" style="{TABLE_STYLE}">{cap}<thead><tr>{head}</tr>'
            f'</thead><tbody>{"".join(body)}</tbody></table>')


def facts_html(facts: list[tuple[str, str]]) -> str:
    """Label/value pairs as a row of small badges, e.g. ``[("deadwood", "7"), ("gin", "no")]``."""
    items = "".join(
        f'<span class="rumino-fact" data-fact="{escape(k)}" style="display:inline-block;margin:2px 6px 2px 0;'
        f'padding:2px 8px;border:1px solid #bbb;border-radius:10px;background:#f7f7f7">'
        f'{escape(k)}: <b>{escape(v)}</b></span>'
        for k, v in facts)
    return f'<div class="rumino-facts" style="font:13px sans-serif">{items}</div>'


class TypedActions:
    """A controller mixin: an action typed in the game's notation, read and checked by the engine.

    The controller has ``game`` (an engine), ``error`` (the last refusal, shown by the widget) and
    ``act(action) -> bool``; a typo or an illegal move sets ``error`` and changes nothing.
    """

    def act_text(self, text: str) -> bool:
        """Play ``text`` (``"swap"``, ``"bid 3"``, ``"play lay 10s Js Qs"``); False, with ``error`` set, if refused."""
        from rumino.errors import RuminoError

        self.error = None
        try:
            action = self.game.ACTIONS.parse(text)
        except RuminoError as err:
            self.error = str(err)
            return False
        return self.act(action)


class StaticFallback:
    """Mixin for widgets: add ``static_html()`` as ``text/html`` to the widget's MIME bundle."""

    def static_html(self) -> str:  # pragma: no cover - every widget overrides it
        raise NotImplementedError

    def _repr_mimebundle_(self, **kwargs):
        bundle = super()._repr_mimebundle_(**kwargs)  # the live widget view
        if bundle is None:
            return None
        bundle = dict(bundle)
        bundle["text/html"] = self.static_html()
        return bundle
