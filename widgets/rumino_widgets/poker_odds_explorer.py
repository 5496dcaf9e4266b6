"""PokerOddsExplorer: the exact best-five-of-n poker table for n = 5 … 18 cards, as a bar plot.

Every number comes from :func:`rumino.odds.poker.best_five_table` (exact integers
that sum to C(52, n)); the hand sizes Rummoli deals come from the Rummoli engine
(:func:`rummoli_hand_sizes`), so the slider can say which tables hold which sizes.
A hand-size slider picks ``n``; the figure shows the nine categories' probabilities
(a log axis on demand, since a straight flush and high card differ by up to five
powers of ten), with the exact counts in the table beside it, and the five-card
table as reference markers, so "more cards, better hands" is seen at a glance.

The static view (a page without a kernel) is the same figure with a plotly slider
over all fourteen tables (precomputed, so it works without Python) and the table
for the default ``n``.

>>> c = PokerOddsExplorerController(cards=7)
>>> c.counts["straight"], c.total, c.readout().split(":")[0]
(6180020, 133784560, 'best five of 7 cards')
"""

from __future__ import annotations

from fractions import Fraction
from html import escape
from math import comb

import ipywidgets as W
import plotly.graph_objects as go
import plotly.io as pio

from rumino.errors import RuminoError
from rumino.odds.poker import CATEGORIES, MAX_CARDS, MIN_CARDS, best_five_table, one_in

from rumino_widgets._base import StaticFallback, error_html, table_html
from rumino.variants import find_variant

NAMES = {k: k.replace("_", " ") for k in CATEGORIES}
REFERENCE = 5  # the reference markers: ordinary five-card poker
BAR_COLOUR, REF_COLOUR = "#1f5f99", "#b03a2e"


def rummoli_hand_sizes() -> dict[int, tuple[int, ...]]:
    """Rummoli's hand sizes by number of players, from the engine (rules §2.1), widow included."""

    out = {}
    for players in range(2, 9):
        out[players] = tuple(find_variant("rummoli").game.deal_sizes(players))
    return out


def sizes_to_players(sizes: dict[int, tuple[int, ...]]) -> dict[int, tuple[int, ...]]:
    """Invert ``{players: hand sizes}`` to ``{hand size: player counts that deal it}``.

    >>> sizes_to_players({2: (18, 17, 17), 3: (13, 13, 13, 13)})
    {13: (3,), 17: (2,), 18: (2,)}
    """
    out: dict[int, set[int]] = {}
    for players, hands in sizes.items():
        for n in hands:
            out.setdefault(n, set()).add(players)
    return {n: tuple(sorted(p)) for n, p in sorted(out.items())}


def players_text(players: tuple[int, ...]) -> str:
    """``(4, 5)`` -> ``'4 or 5 players'``; ``()`` -> ``''``."""
    if not players:
        return ""
    words = [str(p) for p in players]
    joined = words[0] if len(words) == 1 else ", ".join(words[:-1]) + " or " + words[-1]
    return f"{joined} players"  # Rummoli has 2 to 8 players: always a plural


class PokerOddsExplorerController:
    """Hand size in; the exact table, its probabilities, a figure spec and a readout out."""

    def __init__(self, cards: int = 7, *, log_axis: bool = False):
        self.error: str | None = None
        self.log_axis = bool(log_axis)
        self.sizes = rummoli_hand_sizes()
        self.marks = sizes_to_players(self.sizes)
        self.reference = best_five_table(REFERENCE)
        self.cards = MIN_CARDS
        self.counts = best_five_table(MIN_CARDS)
        self.set_cards(cards)

    def set_cards(self, n) -> None:
        """Choose the hand size; a size the engine refuses keeps the last table and shows its message."""
        try:
            counts = best_five_table(n)
        except RuminoError as err:
            self.error = str(err)
            return
        self.error = None
        self.cards, self.counts = int(n), counts

    def set_log_axis(self, on: bool) -> None:
        self.log_axis = bool(on)

    @property
    def total(self) -> int:
        return comb(52, self.cards)

    def probability(self, key: str, n: int | None = None) -> Fraction:
        """Exact P(best five is ``key``) for ``n`` cards (default: the chosen size)."""
        if n is None or n == self.cards:
            return Fraction(self.counts[key], self.total)
        return Fraction(best_five_table(n)[key], comb(52, n))

    def players_for(self, n: int | None = None) -> tuple[int, ...]:
        """The player counts whose Rummoli deal gives some hand (players' or widow) ``n`` cards."""
        return self.marks.get(self.cards if n is None else n, ())

    def readout(self) -> str:
        n = self.cards
        who = players_text(self.players_for())
        rummoli = f"a Rummoli hand with {who}" if who else "no Rummoli deal gives this size"
        better = sum(self.counts[k] for k in CATEGORIES[:-2])  # two pair or better
        return (f"best five of {n} cards: C(52, {n}) = {self.total:,} hands ({rummoli}); "
                f"two pair or better in {float(Fraction(better, self.total)):.2%}")

    def figure_spec(self, n: int | None = None) -> dict:
        """The plot's data for ``n`` cards (default: the chosen size), also what the tests check."""
        n = self.cards if n is None else n
        counts = self.counts if n == self.cards else best_five_table(n)
        total = comb(52, n)
        who = players_text(self.players_for(n))
        title = f"Best five of {n} cards" + (f" (Rummoli with {who})" if who else "")
        return {
            "x": [NAMES[k] for k in CATEGORIES],
            "y": [counts[k] / total for k in CATEGORIES],
            "counts": [counts[k] for k in CATEGORIES],
            "ref_y": [self.reference[k] / comb(52, REFERENCE) for k in CATEGORIES],
            "title": title, "log": self.log_axis,
        }

    def rows(self) -> list[list[str]]:
        """The table beside the figure: category, exact count, percent, "1 in N" (HTML cells)."""
        rows = []
        for k in CATEGORIES:
            c = self.counts[k]
            rows.append([escape(NAMES[k]), f"{c:,}", f"{100 * c / self.total:.4f}%", escape(one_in(c, self.total))])
        rows.append(["<b>total</b>", f"<b>{self.total:,}</b>", "100%", ""])
        return rows

    def table_html(self) -> str:
        if self.error:
            return error_html(self.error)
        return table_html(["category", "hands (exact)", "percent", "about"], self.rows(),
                          caption=f"Best five of {self.cards} cards from one 52-card deck: exact counts",
                          cls="rumino-poker-table", row_headers=True)

    def sizes_html(self) -> str:
        """The hand sizes 5 … 18 in a strip: Rummoli's sizes bold with their player counts, the chosen one boxed."""
        cells = []
        for n in range(MIN_CARDS, MAX_CARDS + 1):
            who = self.players_for(n)
            chosen = n == self.cards
            style = ("display:inline-block;min-width:26px;text-align:center;margin:1px;padding:1px 3px;"
                     + ("border:2px solid #1f5f99;" if chosen else "border:1px solid #ccc;")
                     + ("font-weight:bold;background:#eef4fb;" if who else "color:#666;"))
            label = f"{n} cards: " + (f"Rummoli with {players_text(who)}" if who else "not a Rummoli hand size")
            tip = f"<sup>{','.join(map(str, who))}p</sup>" if who else ""
            cells.append(f'<span class="rumino-size{" rumino-size-chosen" if chosen else ""}'
                         f'{" rumino-size-rummoli" if who else ""}" data-cards="{n}" title="{escape(label)}" '
                         f'aria-label="{escape(label)}" style="{style}">{n}{tip}</span>')
        return (f'<div class="rumino-sizes" style="font:12px sans-serif">Rummoli hand sizes (bold; '
                f'<sup>N p</sup> = with N players): {"".join(cells)}</div>')

    # ------------------------------------------------------------------ figures

    def figure(self) -> go.Figure:
        """The live figure for the chosen size: bars for ``n`` cards, diamonds for five cards."""
        spec = self.figure_spec()
        fig = go.Figure(layout=_layout(spec["title"], spec["log"]))
        fig.add_bar(name=f"{self.cards} cards", x=spec["x"], y=spec["y"], marker_color=BAR_COLOUR,
                    customdata=spec["counts"], hovertemplate="%{x}: %{y:.4%} (%{customdata:,} hands)<extra></extra>")
        fig.add_scatter(name=f"{REFERENCE} cards (reference)", mode="markers", x=spec["x"], y=spec["ref_y"],
                        marker=dict(symbol="diamond", size=10, color=REF_COLOUR, line=dict(width=1, color="#fff")),
                        hovertemplate="%{x}: %{y:.4%} with 5 cards<extra></extra>")
        return fig

    def static_figure(self) -> go.Figure:
        """Every size's bars as one trace each, a plotly slider choosing which one shows (no kernel needed)."""
        sizes = list(range(MIN_CARDS, MAX_CARDS + 1))
        fig = go.Figure(layout=_layout(self.figure_spec()["title"], self.log_axis))
        steps = []
        for i, n in enumerate(sizes):
            spec = self.figure_spec(n)
            fig.add_bar(name=f"{n} cards", x=spec["x"], y=spec["y"], marker_color=BAR_COLOUR,
                        visible=n == self.cards, showlegend=True, customdata=spec["counts"],
                        hovertemplate="%{x}: %{y:.4%} (%{customdata:,} hands)<extra></extra>")
            visible = [j == i for j in range(len(sizes))] + [True]
            who = self.players_for(n)
            steps.append(dict(method="update", label=f"{n}{'*' if who else ''}",
                              args=[{"visible": visible}, {"title.text": spec["title"]}]))
        spec = self.figure_spec()
        fig.add_scatter(name=f"{REFERENCE} cards (reference)", mode="markers", x=spec["x"], y=spec["ref_y"],
                        marker=dict(symbol="diamond", size=10, color=REF_COLOUR, line=dict(width=1, color="#fff")))
        fig.update_layout(height=500, margin=dict(b=150), sliders=[dict(
            active=sizes.index(self.cards), steps=steps, y=-0.32, len=1.0,
            currentvalue=dict(prefix="cards in the hand (* = a Rummoli size): "))])
        # the log-axis switch, also without a kernel
        lin, log = _layout("", False)["yaxis"], _layout("", True)["yaxis"]
        fig.update_layout(updatemenus=[dict(
            type="buttons", direction="right", x=1.0, xanchor="right", y=1.18, yanchor="bottom", showactive=True,
            active=1 if self.log_axis else 0,
            buttons=[dict(label=label, method="relayout", args=[{f"yaxis.{k}": v for k, v in ax.items()
                                                                 if k != "title"}])
                     for label, ax in (("linear axis", lin), ("log axis", log))])])
        return fig

    def static_html(self) -> str:
        """The static view: the slider figure (plotly.js comes from the page) and the exact table."""
        if self.error:
            return error_html(self.error)
        fig = self.static_figure()
        alt = (f"Bar chart of the nine poker categories' probabilities for the best five of {self.cards} cards, "
               f"with a slider for 5 to 18 cards and diamonds for five-card poker.")
        body = pio.to_html(fig, include_plotlyjs=False, include_mathjax=False, full_html=False,
                           div_id=f"rumino-poker-odds-{self.cards}", default_width="100%", default_height=500,
                           config={"displaylogo": False, "responsive": True})
        return (f'<div class="rumino-poker-odds" style="font:13px sans-serif">'
                f'<div class="rumino-poker-readout"><b>{escape(self.readout())}</b></div>'
                f'<div class="rumino-figure" role="group" aria-label="{escape(alt)}">{body}</div>'
                f'{self.table_html()}</div>')


def _layout(title: str, log: bool) -> dict:
    return dict(
        height=440, margin=dict(l=70, r=20, t=80, b=90), title=dict(text=title, y=0.97), template="plotly_white",
        xaxis=dict(title="best five cards"),
        # a log axis has no zero: "normal" range there and one tick per power of ten; "tozero" and percent
        # on a linear one (None removes a setting when the axis switches back)
        yaxis=dict(title="probability", type="log" if log else "linear", tickformat="" if log else ".0%",
                   dtick=1 if log else None, exponentformat="power", rangemode="normal" if log else "tozero"),
        # the legend above the plot, where it covers no bar on either axis
        legend=dict(orientation="h", x=0, y=1.0, yanchor="bottom"), bargap=0.25)


class PokerOddsExplorer(StaticFallback, W.VBox):
    """The live explorer: a hand-size slider, a log-axis switch, the bar plot and the exact table.

    >>> w = PokerOddsExplorer(cards=5)
    >>> w.slider.value = 13
    >>> w.figure.data[0].name, w.controller.counts == best_five_table(13)
    ('13 cards', True)
    """

    def __init__(self, cards: int = 7, *, log_axis: bool = False):
        c = self.controller = PokerOddsExplorerController(cards, log_axis=log_axis)
        self.slider = W.IntSlider(value=c.cards, min=MIN_CARDS, max=MAX_CARDS, description="cards n",
                                  continuous_update=False, style={"description_width": "70px"},
                                  layout=W.Layout(width="420px"))
        self.slider.add_class("rumino-cards-slider")
        self.log_box = W.Checkbox(value=c.log_axis, description="log axis", indent=False)
        self.log_box.add_class("rumino-log-axis")
        self.sizes = W.HTML()
        self.readout = W.HTML()
        self.readout.add_class("rumino-poker-readout")
        self.table = W.HTML()
        self.table.add_class("rumino-poker-table-box")
        self.figure = go.FigureWidget(c.figure().update_layout(width=560))
        self.slider.observe(lambda ch: self._act(lambda: c.set_cards(ch["new"])), names="value")
        self.log_box.observe(lambda ch: self._act(lambda: c.set_log_axis(ch["new"])), names="value")
        super().__init__([W.HBox([self.slider, self.log_box]), self.sizes, self.readout,
                          W.HBox([self.figure, self.table])])
        self.add_class("rumino-poker-odds-explorer")
        # the figure was built with its data: updating it before it is displayed can leave an empty plot
        # in JupyterLab (the update races the first render), so only the HTML parts are filled here
        self._refresh(figure=False)

    def _act(self, action):
        action()
        self._refresh()

    def _refresh(self, figure: bool = True):
        c = self.controller
        self.sizes.value = c.sizes_html()
        self.table.value = c.table_html()
        if c.error:
            self.readout.value = error_html(c.error)
            return
        self.readout.value = f'<div style="font:14px sans-serif"><b>{escape(c.readout())}</b></div>'
        if not figure:
            return
        spec = c.figure_spec()
        layout = _layout(spec["title"], spec["log"])
        with self.figure.batch_update():
            bars, ref = self.figure.data
            bars.name, bars.x, bars.y, bars.customdata = f"{c.cards} cards", spec["x"], spec["y"], spec["counts"]
            ref.y = spec["ref_y"]
            self.figure.layout.title.text = spec["title"]
            self.figure.layout.yaxis.update(layout["yaxis"])

    def static_html(self) -> str:
        return self.controller.static_html()
