"""Display helpers shared by the book's chapters (no rules, no odds: those live in ``rumino/``).

Every chapter opens with a hidden setup cell::

    import bookutils; bookutils.setup()

What the helpers do:

* :func:`show` displays a plotly figure with **alt text**. The output carries the
  plotly JSON (JupyterLab draws it interactively) and a static HTML rendering
  (the built book draws it with the plotly.js that the book extension serves from
  ``_static/``, so no network and no kernel are needed). Captions and figure
  numbers come from the cell's ``mystnb.figure`` metadata.
* :func:`live` displays a live widget together with a static fallback: JupyterLab
  shows the widget; the static book (which drops the widget view, see
  ``_config.yml``) shows the fallback and a note on how to run the live version.
* :func:`choices` is a static interactive counterpart of a live widget: a menu over views computed
  when the book is built (plotly figures, card pictures, HTML), switched in the page without a kernel.
* :func:`hand` and :func:`arrangement` show cards drawn by :mod:`rumino.render.cards`.
* :func:`glue` hands a computed number, formatted for people, to the prose: a hidden
  cell calls ``glue("p_twins", p_twins, "pct")`` and the Markdown says
  ``{glue:text}`p_twins```, so no number the engine computes is typed by hand.

>>> "aria-label" in _figure_html({"data": [], "layout": {}}, "An empty plot")
True
"""

from __future__ import annotations

import html as _html
import itertools
from typing import Any

from rumino.classroom import quiz
from rumino.render.plotly_start import defer_iri_grammar

defer_iri_grammar()  # before plotly is imported: 2.8 s off every chapter's start (see that module)

import plotly.graph_objects as go  # noqa: E402
import plotly.io as pio  # noqa: E402
from IPython.display import HTML, display  # noqa: E402
from plotly.io.base_renderers import MimetypeRenderer, PlotlyRenderer  # noqa: E402

RENDERER = "rumino_book"
_ids = itertools.count(1)


def _figure_html(fig_dict: dict, alt: str | None) -> str:
    """Static HTML of a figure: a plotly div and its ``Plotly.newPlot`` call, labelled with ``alt``.

    plotly.js itself is not included (the built book loads it once from ``_static``)
    and neither is MathJax (plotly's notebook renderer would add a CDN script per figure).
    """
    layout = fig_dict.get("layout", {}) or {}
    if not alt:
        title = layout.get("title", {})
        text = title.get("text") if isinstance(title, dict) else title
        alt = f"Chart: {text}" if text else "Chart"
    div_id = f"rumino-fig-{next(_ids)}"
    body = pio.to_html(
        fig_dict, include_plotlyjs=False, include_mathjax=False, full_html=False, div_id=div_id,
        default_width="100%", default_height=int(layout.get("height") or 460), validate=False,
        config={"displaylogo": False, "responsive": True},
    )
    return (f'<div class="rumino-figure" role="group" aria-label="{_html.escape(alt, quote=True)}">'
            f'<span class="rumino-alt" hidden>{_html.escape(alt)}</span>{body}</div>')


class BookRenderer(MimetypeRenderer):
    """plotly renderer for the book: static HTML without plotly.js or MathJax inlined."""

    def to_mimebundle(self, fig_dict):
        return {"text/html": _figure_html(fig_dict, None)}


def setup() -> None:
    """Configure plotly for both JupyterLab (plotly mimetype) and the static book (HTML); the page's
    figures and quizzes are numbered from 1 (the build runs chapter after chapter in one kernel)."""
    global _ids
    _ids = itertools.count(1)
    quiz.restart_numbering()
    pio.renderers[RENDERER] = BookRenderer()
    pio.renderers.default = f"plotly_mimetype+{RENDERER}"
    pio.templates.default = "plotly_white"


def show(fig: go.Figure, alt: str) -> None:
    """Display ``fig`` with ``alt`` as its text alternative (read by screen readers, shown if plots fail)."""
    if not alt or not alt.strip():
        raise ValueError("show(fig, alt): every figure in the book needs alt text.")
    fig_dict = fig.to_dict()
    bundle = dict(PlotlyRenderer().to_mimebundle(fig_dict))
    bundle["text/html"] = _figure_html(fig_dict, alt)
    bundle["text/plain"] = f"[figure] {alt}"
    display(bundle, raw=True)


def _static_html(static: Any) -> str:
    if static is None:
        return ""
    if isinstance(static, str):
        return static
    if isinstance(static, go.Figure):
        return _figure_html(static.to_dict(), None)
    if hasattr(static, "_repr_html_"):
        return static._repr_html_()
    return f"<pre>{_html.escape(repr(static))}</pre>"


LIVE_NOTE = ("This is the static view of a live widget. To change its controls, run the chapter in "
             "JupyterLab: <code>rumino lab</code>.")


def live(widget: Any, static: Any = None, note: str = LIVE_NOTE) -> None:
    """Display a live widget, with ``static`` (HTML text, a plotly figure or anything with ``_repr_html_``)
    as the output a page without a kernel shows; by default the widget's own ``static_html()``."""
    if static is None and hasattr(widget, "static_html"):
        static = widget.static_html()
    if hasattr(widget, "_repr_mimebundle_"):
        bundle = widget._repr_mimebundle_()
        if isinstance(bundle, tuple):  # (data, metadata)
            bundle = bundle[0]
        bundle = dict(bundle or {})
    else:
        bundle = {"text/plain": repr(widget)}
    bundle["text/html"] = (f'<div class="rumino-live-static">{_static_html(static)}'
                           f'<p class="rumino-live-note">{note}</p></div>')
    display(bundle, raw=True)


def choices(views: dict, label: str, *, selected: str | None = None) -> str:
    """HTML of a menu (``<select>``) over precomputed ``views`` ({option: view}); only the chosen view
    shows. A view is HTML text, a plotly figure or anything with ``_repr_html_`` (see :func:`live`).

    Without JavaScript the page shows the ``selected`` view (default: the first). Pass the result to
    :func:`live` as ``static`` so that the static page keeps a working control.

    >>> page = choices({"a": "<p>A</p>", "b": "<p>B</p>"}, "Letter")
    >>> page.count("<option"), page.count(" hidden>"), "<p>B</p>" in page
    (2, 1, True)
    """
    if not views:
        raise ValueError("choices(views, label): give at least one view")
    selected = selected if selected is not None else next(iter(views))
    if selected not in views:
        raise ValueError(f"choices: selected={selected!r} is not one of {list(views)}")
    menu_id = f"rumino-choices-{next(_ids)}"
    options = "".join(f'<option value="{k}"{" selected" if name == selected else ""}>'
                      f"{_html.escape(str(name))}</option>" for k, name in enumerate(views))
    panes = "".join(f'<div data-choice="{k}"{"" if name == selected else " hidden"}>'
                    f"{_static_html(view)}</div>" for k, (name, view) in enumerate(views.items()))
    # on change: show the chosen pane, then let plotly size the figures that were hidden
    script = (f"<script>(function(){{var s=document.getElementById('{menu_id}');"
              "s.addEventListener('change',function(){"
              "s.parentNode.parentNode.querySelectorAll(':scope > [data-choice]').forEach("
              "function(d){d.hidden=(d.dataset.choice!==s.value);});"
              "window.dispatchEvent(new Event('resize'));});})();</script>")
    return (f'<div class="rumino-choices"><p><label for="{menu_id}">{_html.escape(label)} </label>'
            f'<select id="{menu_id}">{options}</select></p>{panes}{script}</div>')


def hand(cards, caption: str | None = None, **kw) -> HTML:
    """A hand drawn as cards (suits by shape and letter, never by colour alone)."""
    from rumino.render.cards import hand_html

    return HTML(hand_html(cards, caption=caption, **kw))


def arrangement(arr, title: str | None = None) -> HTML:
    """An arrangement drawn meld by meld, with its deadwood."""
    from rumino.render.cards import arrangement_html

    return HTML(arrangement_html(arr, title=title))


def side_by_side(parts) -> HTML:
    """Several card pictures (:func:`hand`, :func:`arrangement` results) in one output, side by side."""
    return HTML("".join(p.data if hasattr(p, "data") else str(p) for p in parts))


def table(rows, header, *, caption: str | None = None) -> HTML:
    """A small HTML table (numbers formatted by the caller)."""
    head = "".join(f"<th>{_html.escape(str(h))}</th>" for h in header)
    body = "".join("<tr>" + "".join(f"<td>{c}</td>" for c in row) + "</tr>" for row in rows)
    cap = f"<caption>{_html.escape(caption)}</caption>" if caption else ""
    return HTML(f'<table class="rumino-table">{cap}<thead><tr>{head}</tr></thead><tbody>{body}</tbody></table>')


def one_in(p) -> str:
    """A probability as "1 in N" (N rounded to a readable precision).

    >>> from fractions import Fraction
    >>> one_in(Fraction(1, 4)), one_in(Fraction(2, 7))
    ('1 in 4', '1 in 3.5')
    """
    if p <= 0:
        return "never"
    n = 1 / float(p)
    return f"1 in {n:,.0f}" if n >= 10 else f"1 in {n:.2g}"


def fmt(value, how: str = "int") -> str:
    """``value`` written for people: ``how`` is ``int`` (thousands separators), ``pct``/``pct1``/``pct2``
    (a percentage with 0, 1 or 2 decimals), ``one_in``, ``frac`` (``a/b``), ``dec2``/``dec3``/``dec4``,
    ``money`` (dollars), or ``str``.

    >>> from fractions import Fraction
    >>> fmt(27883218168), fmt(Fraction(948437, 5257017), "pct"), fmt(Fraction(7, 1926), "frac")
    ('27,883,218,168', '18%', '7/1926')
    >>> fmt(0.18811, "pct1"), fmt(Fraction(1, 4), "one_in"), fmt(10, "money"), fmt(0.125, "dec3")
    ('18.8%', '1 in 4', '$10', '0.125')
    """
    if how == "str":
        return str(value)
    if how == "int":
        if int(value) != value:
            raise ValueError(f"fmt(value={value!r}, 'int'): the value is not a whole number")
        return f"{int(value):,}"
    if how.startswith("pct"):
        digits = int(how[3:] or 0)
        return f"{float(value):.{digits}%}"
    if how.startswith("dec"):
        return f"{float(value):,.{int(how[3:])}f}"
    if how == "one_in":
        return one_in(value)
    if how == "frac":
        from fractions import Fraction

        f = Fraction(value)
        return f"{f.numerator}/{f.denominator}"
    if how == "money":
        return f"${int(value):,}" if int(value) == value else f"${float(value):,.2f}"
    raise ValueError(f"fmt(how={how!r}): unknown format; use int, pct, pct1, pct2, dec2, one_in, frac, money or str")


def glue(name: str, value, how: str = "int") -> str:
    """Format ``value`` with :func:`fmt` and glue it under ``name`` for ``{glue:text}`name``` in the prose.

    Nothing is displayed (call it from a cell tagged ``remove-cell``); returns the text it glued.
    """
    from myst_nb import glue as _glue

    text = value if isinstance(value, str) else fmt(value, how)
    _glue(name, text, display=False)
    return text


def game_lengths(path: str = "data/game_length.json") -> tuple[dict, dict]:
    """The book's game-length results file (written by ``rumino length``), read: its run header and
    ``{game: {players: GameLength}}``, the figures read again from each game's counts."""
    import json

    from rumino.playing.game_length import GameLength

    with open(path, encoding="utf-8") as f:
        data = json.load(f)
    return data["run"], {key: {int(n): GameLength.from_json(d) for n, d in by_n.items()}
                         for key, by_n in data["lengths"].items()}


def length_table(by_players: dict, title: str) -> HTML:
    """One game's length at each table size: hands, turns a hand and a game, minutes (95% intervals)."""
    from rumino.stats import same_precision

    def cell(e, digits=1):
        if e.lo == e.hi:  # the same in every game (one deal a player): no interval around a constant
            return f"{e.value:g} (every game)"
        v, lo, hi = (f"{x:.{digits}f}" for x in (e.value, e.lo, e.hi))
        if lo == hi:  # an interval narrower than the last place shown: the decimals its width needs
            v, lo, hi = same_precision(e.value, e.lo, e.hi, 1)
        return f"{v} ({lo} – {hi})"

    rows = []
    for n, m in by_players.items():
        f = m.figures()
        rows.append([n, cell(f["hands_per_game"]), cell(f["turns_per_hand"]), cell(f["turns_per_game"], 0),
                     cell(f["minutes_per_game"], 0)])
    games = sorted({m.games for m in by_players.values()})
    return table(rows, ["players", "hands a game", "turns a hand", "turns a game", "minutes a game"],
                 caption=f"{title}: how long a game takes, {' or '.join(map(str, games))} seeded games of its own "
                         f"bot at each table size (95% intervals; minutes at the pace of chapter 10)")
