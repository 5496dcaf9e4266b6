"""OddsExplorer: the chance of completing a target within N draws, exact and simulated.

Three targets:

* **any k outs**: P(at least one of ``k`` outs among ``N`` draws from ``U``
  unseen cards), exactly by :func:`rumino.odds.draws.p_at_least_one`;
* **complete this straight flush** / **seven of a kind**: the rumino target the
  engine picks for a hand (:func:`rumino.odds.markov.best_target`), exactly by
  the hypergeometric DP with jokers (:meth:`Target.p_hit`), and simulated with
  real cards by the keep-the-target policy (:func:`simulate_keep_target`).

The unseen slider lowers ``U`` by counting cards as *seen elsewhere*; the cards
taken are blanks (neither target cards nor jokers), so the target's needs stay
and only the pool shrinks. Every Monte Carlo point carries ``n``, its seed and a
Wilson 95% interval (:func:`rumino.odds.montecarlo.proportion`). For a target the point
at ``N`` draws is its own run, seeded ``[seed, N]``; for bare outs one seeded sample of
shuffles gives every point (the draw that brings the first out).

>>> c = OddsExplorerController(target="outs", outs=8, unseen=47, draws=1)
>>> str(c.exact_at(1)), c.readout()
('8/47', 'P(at least 1 of 8 outs in 1 draw from 47 unseen) = 8/47 = 0.170213 (1 in 5.88)')
"""

from __future__ import annotations

from fractions import Fraction
from html import escape

import ipywidgets as W
import numpy as np
import plotly.graph_objects as go

from rumino.cards import JOKER, RUMINO_PACK, format_hand, from_counts, parse_hand, to_counts
from rumino.errors import RuminoError
from rumino.odds.draws import p_at_least_one, p_complete
from rumino.odds.exact import one_in, show
from rumino.odds.markov import Target, best_target, rumino_targets, simulate_keep_target
from rumino.odds.coach import first_out_estimates, p_knockable_within
from rumino.odds.montecarlo import OddsEstimate, proportion

from rumino_widgets._base import StaticFallback, error_html, fraction_html, interval_text, table_html

TARGETS = {
    "straight_flush": "complete this straight flush",
    "seven_kind": "seven of a kind",
    "outs": "any k outs",
}
DEFAULT_HANDS = {"straight_flush": "3h 4h 5h 6h Kc Kd 2s", "seven_kind": "5h 5h 5s 5s 5d JK 9c"}
PACK = RUMINO_PACK
MC_POINTS = 6  # Monte Carlo points along the curve


class OddsExplorerController:
    """Target, sliders and seed in; exact curve, Monte Carlo points and a readout out."""

    def __init__(self, target: str = "straight_flush", *, hand: str | None = None, outs: int = 8,
                 unseen: int | None = None, draws: int = 10, samples: int = 2000, seed: int = 1):
        self.error: str | None = None
        self.samples = samples
        self.seed = seed
        self.outs = outs
        self.draws = draws
        self.hand_text = hand if hand is not None else DEFAULT_HANDS.get(target, DEFAULT_HANDS["straight_flush"])
        self.target_key = target
        self._unseen = unseen
        self.set_target(target, hand=hand)
        if unseen is not None:
            self.set_unseen(unseen)

    # ------------------------------------------------------------------ inputs

    def set_target(self, key: str, *, hand: str | None = None) -> None:
        if key not in TARGETS:
            self.error = f"unknown target {key!r}: choose one of {', '.join(TARGETS)}."
            return
        self.target_key = key
        self._unseen = None  # a new target starts from its full urn
        if key != "outs":
            self.set_hand(hand if hand is not None else DEFAULT_HANDS[key])
        else:
            self.error = None
            self.unseen = self._clamp(self._unseen or 47, self.min_unseen, self.max_unseen)
            self.draws = min(self.draws, self.unseen)

    def set_hand(self, text: str) -> None:
        """A 7-card Rumino hand whose best rumino target is plotted; a bad hand shows the engine's message."""
        self.hand_text = text
        if self.target_key == "outs":  # the hand plays no part in bare outs
            return
        try:
            hand = parse_hand(text)
            if len(hand) != 7:
                raise RuminoError(f"a Rumino hand has 7 cards; {format_hand(hand) or 'the hand'} has {len(hand)}.")
            self.hand = hand
            self.full_target = best_target(hand, pack=PACK)
        except RuminoError as err:
            self.error = str(err)
            return
        self.error = None
        self.unseen = self._clamp(self._unseen or self.max_unseen, self.min_unseen, self.max_unseen)
        self.draws = min(self.draws, self.unseen)

    def set_outs(self, k: int) -> None:
        self.outs = int(k)
        self.unseen = max(self.unseen, self.min_unseen)

    def set_unseen(self, u: int) -> None:
        self._unseen = int(u)
        self.unseen = self._clamp(int(u), self.min_unseen, self.max_unseen)
        self.draws = min(self.draws, self.unseen)

    def set_draws(self, n: int) -> None:
        self.draws = self._clamp(int(n), 0, self.unseen)

    @staticmethod
    def _clamp(x: int, lo: int, hi: int) -> int:
        return max(lo, min(hi, x))

    # ------------------------------------------------------------------ the urn

    @property
    def max_unseen(self) -> int:
        """Unseen cards with nothing seen elsewhere: the pack minus the hand (or 108 for bare outs)."""
        if self.target_key == "outs":
            return PACK.size
        return PACK.size - 7

    @property
    def min_unseen(self) -> int:
        """The fewest unseen cards the target allows: its live cards (every other card may be seen)."""
        if self.target_key == "outs":
            return max(1, self.outs)
        return self.max_unseen - len(self._blanks())

    def _blanks(self) -> tuple[int, ...]:
        """Unseen cards that neither make the target nor are jokers, in id order."""
        t = self.full_target
        rest = PACK.counts() - to_counts(self.hand)
        for c in set(t.kinds) | {JOKER}:
            rest[c] = 0
        return from_counts(rest)

    def seen(self) -> tuple[int, ...]:
        """The blanks counted as seen elsewhere so that ``unseen`` cards remain."""
        return self._blanks()[: self.max_unseen - self.unseen]

    def target(self) -> Target | None:
        if self.target_key == "outs" or self.error:
            return None
        return best_target(self.hand, seen=self.seen(), pack=PACK)

    def describe(self) -> str:
        if self.target_key == "outs":
            return f"at least 1 of {self.outs} outs"
        t = self.target()
        return t.describe(unicode=True) if t is not None else "no target"

    # ------------------------------------------------------------------ answers

    def exact_at(self, n: int) -> Fraction:
        """P(target complete within ``n`` draws), exactly (engine)."""
        if self.target_key == "outs":
            return p_at_least_one(self.outs, self.unseen, n)
        t = self.target()
        return p_complete(t.needs, t.unseen, n, t.jokers_unseen, jokers_held=t.jokers_held)

    def exact_curve(self) -> list[Fraction]:
        """``P(complete within n draws)`` for ``n = 0 … draws``."""
        if self.error:
            return []
        return [self.exact_at(n) for n in range(self.draws + 1)]

    def mc_draws(self) -> list[int]:
        """The draw counts that get a Monte Carlo point (up to MC_POINTS, always including ``draws``)."""
        if self.draws == 0:
            return []
        pts = np.unique(np.linspace(1, self.draws, min(MC_POINTS, self.draws)).round().astype(int))
        return [int(x) for x in pts]

    def monte_carlo(self) -> dict[int, OddsEstimate]:
        """Seeded simulations: ``{draws: estimate with 95% interval}``."""
        if self.error:
            return {}
        out = {}
        if self.target_key == "outs":
            out = first_out_estimates(self.outs, self.unseen, self.mc_draws(), self.samples, self.seed)
        else:
            seen = self.seen()
            for n in self.mc_draws():
                # each point is its own run, from the stream (seed, N): independent points, not one shared fluke
                hits, total = simulate_keep_target(self.hand, n, self.samples, [self.seed, n], seen=seen, pack=PACK)
                out[n] = proportion(hits, total, self.seed)
        return out

    def readout(self) -> str:
        if self.error:
            return self.error
        p = self.exact_at(self.draws)
        s = "" if self.draws == 1 else "s"
        if self.target_key == "outs":
            what = f"at least 1 of {self.outs} outs"
        else:
            what = self.describe()
        return f"P({what} in {self.draws} draw{s} from {self.unseen} unseen) = {show(p)}"

    def figure_spec(self) -> dict:
        """The plot's data (also what the tests check): exact curve, MC points with bars, title."""
        curve = self.exact_curve()
        mc = self.monte_carlo()
        xs = sorted(mc)
        title = (f"{self.describe()}: {one_in(curve[-1])} within {self.draws} draws"
                 if curve else "no target")
        return {
            "exact_x": list(range(len(curve))), "exact_y": [float(p) for p in curve],
            "mc_x": xs, "mc_y": [mc[x].value for x in xs],
            "mc_plus": [mc[x].hi - mc[x].value for x in xs], "mc_minus": [mc[x].value - mc[x].lo for x in xs],
            "mc": mc, "title": title,
        }

    def html(self) -> str:
        """A static table of the curve and the simulated points (for pages without a kernel)."""
        if self.error:
            return error_html(self.error)
        spec = self.figure_spec()
        mc = spec["mc"]
        rows = []
        for n, y in zip(spec["exact_x"], self.exact_curve()):
            sim = interval_text(mc[n].value, mc[n].lo, mc[n].hi, digits=1) if n in mc else ""
            rows.append([str(n), fraction_html(y), f"{float(y):.2%}", escape(one_in(y)), sim])
        caption = (f"Exact chance by draws, and simulated points (n = {self.samples:,} each, "
                   f"seed {self.seed}, Wilson 95% interval)")
        hand = "" if self.target_key == "outs" else f" · hand {escape(format_hand(self.hand, unicode=True))}"
        table = table_html(["draws N", "exact", "percent", "about", "simulated (95% interval)"], rows,
                           caption=caption, cls="rumino-odds-table")
        return (f'<div class="rumino-odds" style="font:13px sans-serif"><b>{escape(spec["title"])}</b>{hand}'
                f'<div class="rumino-odds-readout">{escape(self.readout())}</div>{table}</div>')


class OddsExplorer(StaticFallback, W.VBox):
    """The live explorer: target, hand, sliders, a plotly figure and the "1 in N" readout.

    >>> w = OddsExplorer("outs", outs=8, unseen=47, draws=5, samples=500)
    >>> w.figure.data[0].y[1] == 8 / 47, len(w.figure.data[1].x)
    (True, 5)
    """

    def __init__(self, target: str = "straight_flush", *, hand: str | None = None, outs: int = 8,
                 unseen: int | None = None, draws: int = 10, samples: int = 2000, seed: int = 1):
        self._updating = False
        c = self.controller = OddsExplorerController(target, hand=hand, outs=outs, unseen=unseen, draws=draws,
                                                     samples=samples, seed=seed)
        self.target_box = W.Dropdown(options=[(v, k) for k, v in TARGETS.items()], value=c.target_key,
                                     description="target")
        self.hand_box = W.Text(value=c.hand_text, description="hand", continuous_update=False,
                               layout=W.Layout(width="360px"))
        style = {"description_width": "110px"}
        self.outs_slider = W.IntSlider(value=c.outs, min=0, max=30, description="outs k", continuous_update=False,
                                       style=style)
        self.unseen_slider = W.IntSlider(value=c.unseen, min=1, max=108, description="unseen cards",
                                         continuous_update=False, style=style)
        self.draws_slider = W.IntSlider(value=c.draws, min=0, max=40, description="draws N",
                                        continuous_update=False, style=style)
        self.samples_box = W.BoundedIntText(value=samples, min=100, max=100_000, step=100,
                                            description="MC samples", style=style)
        self.seed_box = W.IntText(value=seed, description="seed", style=style, layout=W.Layout(width="200px"))
        for s in (self.outs_slider, self.unseen_slider, self.draws_slider):
            s.add_class(f"rumino-{s.description.split()[0]}-slider")
        self.readout = W.HTML()
        self.readout.add_class("rumino-odds-readout")
        self.figure = self._new_figure()
        self.target_box.observe(self._on_target, names="value")
        self.hand_box.observe(lambda ch: self._act(lambda: c.set_hand(ch["new"])), names="value")
        self.outs_slider.observe(lambda ch: self._act(lambda: c.set_outs(ch["new"])), names="value")
        self.unseen_slider.observe(lambda ch: self._act(lambda: c.set_unseen(ch["new"])), names="value")
        self.draws_slider.observe(lambda ch: self._act(lambda: c.set_draws(ch["new"])), names="value")
        self.samples_box.observe(lambda ch: self._act(lambda: setattr(c, "samples", ch["new"])), names="value")
        self.seed_box.observe(lambda ch: self._act(lambda: setattr(c, "seed", ch["new"])), names="value")
        super().__init__([
            W.HBox([self.target_box, self.hand_box]),
            W.HBox([W.VBox([self.outs_slider, self.unseen_slider, self.draws_slider]),
                    W.VBox([self.samples_box, self.seed_box])]),
            self.readout, self.figure,
        ])
        self.add_class("rumino-odds-explorer")
        self._refresh()

    def _new_figure(self) -> go.FigureWidget:
        """The figure, built with its data: a FigureWidget shows the state it was created with, and
        later changes reach the page as updates (updates made before it is displayed may be lost)."""
        c = self.controller
        spec = c.figure_spec() if not c.error else {"exact_x": [], "exact_y": [], "mc_x": [], "mc_y": [],
                                                     "mc_plus": [], "mc_minus": [], "title": "no target"}
        fig = go.Figure(layout=dict(
            height=380, margin=dict(l=60, r=20, t=50, b=50), xaxis_title="draws N", title=dict(text=spec["title"]),
            yaxis=dict(title="P(complete within N draws)", rangemode="tozero"), template="plotly_white",
            legend=dict(x=0.01, y=0.99)))
        fig.add_scatter(name="exact", mode="lines+markers", line=dict(color="#1f77b4"),
                        x=spec["exact_x"], y=spec["exact_y"])
        fig.add_scatter(name="Monte Carlo (95% CI)", mode="markers", marker=dict(color="#d62728", symbol="diamond",
                                                                                size=9),
                        x=spec["mc_x"], y=spec["mc_y"],
                        error_y=dict(type="data", symmetric=False, color="#d62728", array=spec["mc_plus"],
                                     arrayminus=spec["mc_minus"]))
        return go.FigureWidget(fig)

    def _on_target(self, change):
        self._act(lambda: self.controller.set_target(change["new"]))

    def _act(self, action):
        if self._updating:  # a slider moved by _refresh itself, not by the reader
            return
        action()
        self._refresh()

    def _refresh(self):
        self._updating = True
        try:
            self._redraw()
        finally:
            self._updating = False

    def _redraw(self):
        c = self.controller
        outs_mode = c.target_key == "outs"
        self.hand_box.layout.display = "none" if outs_mode else None
        self.outs_slider.layout.display = None if outs_mode else "none"
        if not outs_mode and self.hand_box.value != c.hand_text:
            self.hand_box.value = c.hand_text
        if not c.error:
            # slider ranges follow the engine's urn; set max before min so the range stays valid
            self._set_range(self.unseen_slider, c.min_unseen, c.max_unseen, c.unseen)
            self._set_range(self.draws_slider, 0, min(c.unseen, 60), c.draws)
        spec = c.figure_spec() if not c.error else None
        if spec is None:
            self.readout.value = error_html(c.error)
            with self.figure.batch_update():
                for tr in self.figure.data:
                    tr.x, tr.y = [], []
                self.figure.layout.title.text = "no target"
            return
        self.readout.value = (f'<div style="font:14px sans-serif"><b>{escape(c.readout())}</b></div>'
                              f'<div style="font:12px sans-serif;color:#555">Monte Carlo: n = {c.samples:,} per '
                              f'point, seed {c.seed}, Wilson 95% intervals'
                              + ("" if outs_mode else f"; {len(c.seen())} blank cards counted as seen elsewhere")
                              + "</div>")
        with self.figure.batch_update():
            exact, sim = self.figure.data
            exact.x, exact.y = spec["exact_x"], spec["exact_y"]
            sim.x, sim.y = spec["mc_x"], spec["mc_y"]
            sim.error_y.array, sim.error_y.arrayminus = spec["mc_plus"], spec["mc_minus"]
            self.figure.layout.title.text = spec["title"]

    @staticmethod
    def _set_range(slider: W.IntSlider, lo: int, hi: int, value: int) -> None:
        # ipywidgets validates value against min/max on each assignment: widen first, then narrow
        if hi < slider.min:
            slider.min = lo
            slider.max = hi
        else:
            slider.max = hi
            slider.min = lo
        if slider.value != value:
            slider.value = value

    def static_html(self) -> str:
        return self.controller.html()
