"""VariantCompare: two or three games (or one game under two house rules) side by side.

Each column is a variant with its own :class:`~widgets.rule_knobs.RuleKnobs`; move a
knob and that column's profile is recomputed by :func:`rumino.compare.profile`
(a progress bar runs meanwhile), then the rules matrix, the profile table and the
overlaid plots (the dealt hand's deadwood, how long a hand lasts — the
distribution of turns per hand —, luck against skill) are redrawn. The profile table holds how
long a game lasts (hands, turns and minutes a game) and, with two columns, each figure's
difference with the words its test allows (:func:`difference_text`). Nothing about any game is decided here: the matrix comes from
:func:`rumino.compare.rules_matrix` and every number from the profiles.

A column's profile is cached by (variant, rules, samples, seed), so moving a knob
in one column recomputes that column only, and moving it back costs nothing.

>>> c = VariantCompareController(["rumino", "gin"], samples=200, games=4, seed=1)
>>> c.labels
['Rumino', 'Gin Rummy']
>>> c.set_knob(0, "knock_max_deadwood", 5); c.labels[0]
'Rumino (knock limit: 5)'
"""

from __future__ import annotations

import json
import math
from html import escape
from typing import Any, Callable, Sequence

import ipywidgets as W
import plotly.graph_objects as go
from plotly.subplots import make_subplots

from rumino.errors import RuminoError, RuleConfigError
from rumino.compare import Column, profile, rules_matrix
from rumino.compare.figures import difference_text
from rumino.players import player_words

from rumino_widgets._base import StaticFallback, error_html, info_html, interval_text, table_html
from rumino_widgets.rule_knobs import RuleKnobs, RuleKnobsController
from rumino.variants import playable_variants

MAX_COLUMNS = 3
LETTERS = "ABC"
# each column told apart by colour, marker shape and line style (never colour alone)
COLOURS = ("#1f77b4", "#d62728", "#2ca02c")
SYMBOLS = ("circle", "square", "diamond")
DASHES = ("solid", "dash", "dot")


MATRIX_CELL = "border:1px solid #c8c8c8;padding:3px 8px;vertical-align:top;text-align:left"


def matrix_table(matrix) -> str:
    """The engine's rules matrix (``RulesMatrix.to_html``) with ruled, padded cells, inline so that it reads
    the same in JupyterLab, the book and a static page; wide matrices scroll sideways.

    >>> from rumino.compare import rules_matrix
    >>> "overflow-x:auto" in matrix_table(rules_matrix(["gin", "wiener"]))
    True
    """
    html = matrix.to_html()
    html = html.replace('<table class="rumino-matrix">',
                        '<table class="rumino-matrix" style="border-collapse:collapse;font:13px sans-serif;'
                        'color:#222;margin:6px 0">')
    html = html.replace("<caption>", '<caption style="caption-side:top;text-align:left;font-style:italic">')
    html = html.replace('<th scope="col">', f'<th scope="col" style="{MATRIX_CELL};background:#eef1f5">')
    html = html.replace('<th scope="row">', f'<th scope="row" style="{MATRIX_CELL};background:#f7f8fa">')
    html = html.replace("<td>", f'<td style="{MATRIX_CELL}">')
    return f'<div class="rumino-matrix-wrap" style="overflow-x:auto">{html}</div>'


def _parse_column(item) -> tuple[str, Any]:
    """``"rumino"``, ``"rumino:knock_max_deadwood=5"`` or ``(name, rules)`` -> (variant key, rules)."""

    col = Column.of(item)
    return col.variant.key, col.rules


class ColumnView:
    """What the widget shows of one column's profile, read from :mod:`rumino.compare` (see :func:`view_of`).

    ``deal`` maps a dealt deadwood (or penalty) to its probability (``deal_note`` says exact or
    simulated); ``turns`` is the mean number of turns a hand lasts as ``(value, lo, hi)``
    and ``turns_dist`` maps a number of turns to its share of hands (None: the mean only);
    ``skill`` lists ``(matchup, value, lo, hi)``; ``rows`` are the profile table's
    ``(key, label, text)`` lines, in the profile's own order.
    """

    def __init__(self, label: str, *, deal: dict, deal_note: str, turns: tuple | None, skill: list, rows: list,
                 turns_dist: dict | None = None):
        self.label, self.deal, self.deal_note = label, deal, deal_note
        self.turns, self.skill, self.rows = turns, skill, rows
        self.turns_dist = turns_dist


class VariantCompareController:
    """The columns (each a :class:`RuleKnobsController`), their profiles, and what they draw.

    ``samples`` deals and ``games`` games per column feed the simulated figures (exact
    ones ignore them), all seeded by ``seed``; ``source`` computes one profile (default:
    :func:`rumino.compare.profile`; the tests pass a stand-in to check the wiring alone).
    """

    def __init__(self, columns: Sequence = ("rumino", "gin"), *, samples: int = 2000, games: int = 20,
                 seed: int = 1, source: Callable | None = None):
        if not 2 <= len(columns) <= MAX_COLUMNS:
            raise RuleConfigError(f"a comparison has 2 or {MAX_COLUMNS} columns, not {len(columns)}.")
        self.samples, self.games, self.seed = samples, games, seed
        self.source = source
        self.knobs: list[RuleKnobsController] = []
        self._cache: dict = {}
        self._listeners: list[Callable[[int], None]] = []
        for item in columns:
            self.add_column(item)

    # ------------------------------------------------------------------ the columns

    def add_column(self, item: Any = "rumino", knobs: RuleKnobsController | None = None) -> int:
        """Add a column (a name, ``"name:knob=value,…"`` or ``(name, rules)``), or adopt a form's controller."""
        if len(self.knobs) >= MAX_COLUMNS:
            raise RuleConfigError(f"a comparison has at most {MAX_COLUMNS} columns.")
        if knobs is None:
            key, rules = _parse_column(item)
            knobs = RuleKnobsController(key, rules)
        self.knobs.append(knobs)
        self._follow(knobs)
        return len(self.knobs) - 1

    def adopt(self, i: int, knobs: RuleKnobsController) -> None:
        """Let column ``i`` follow ``knobs`` (a RuleKnobs form's controller, same game) from now on."""
        self.knobs[i] = knobs
        self._follow(knobs)

    def _follow(self, knobs: RuleKnobsController) -> None:
        # a dropped column's controller may still fire (its form lives on): ignore it then
        knobs.on_change(lambda _rules: self._notify(self.knobs.index(knobs)) if knobs in self.knobs else None)

    def remove_column(self, i: int) -> None:
        if len(self.knobs) <= 2:
            raise RuleConfigError("a comparison keeps at least 2 columns.")
        del self.knobs[i]

    def set_variant(self, i: int, name: str) -> None:
        """Column ``i`` becomes another game at its default rules."""
        self.knobs[i].load(name)

    def set_knob(self, i: int, name: str, value: Any) -> None:
        """Move one knob of column ``i`` (the engine validates; its message lands in ``errors``)."""
        self.knobs[i].set(name, value)

    def on_change(self, fn: Callable[[int], None]) -> None:
        """Call ``fn(column index)`` after a column's rules change."""
        self._listeners.append(fn)

    def _notify(self, i: int) -> None:
        for fn in self._listeners:
            fn(i)

    @property
    def errors(self) -> list[str | None]:
        return [k.error for k in self.knobs]

    @property
    def pairs(self) -> list[tuple[str, Any]]:
        return [(k.variant.key, k.rules) for k in self.knobs]

    @property
    def labels(self) -> list[str]:
        out = []
        for k in self.knobs:
            out.append(Column.of((k.variant.key, k.rules)).label if k.rules is not None
                       else f"{k.variant.title} (rules refused)")
        # one game under the same rules twice: tell the columns apart by their letter
        return [f"{LETTERS[i]}: {lab}" if out.count(lab) > 1 else lab for i, lab in enumerate(out)]

    # ------------------------------------------------------------------ the numbers

    def matrix(self):
        """The rules matrix of the columns whose rules the engine accepts (``None`` if none is)."""
        ok = [(k.variant.key, k.rules) for k in self.knobs if k.rules is not None]
        return rules_matrix(ok) if ok else None

    def _key(self, i: int):
        k = self.knobs[i]
        return (k.variant.key, repr(k.rules), self.samples, self.games, self.seed)

    def stale(self) -> list[int]:
        """The columns whose profile is not computed yet (a knob moved, or the sizes changed)."""
        return [i for i, k in enumerate(self.knobs) if k.rules is not None and self._key(i) not in self._cache]

    def compute(self, progress: Callable[[int, int], None] | None = None) -> list[ColumnView | None]:
        """Compute the stale columns' profiles (``progress(done, total)`` as they go); return every view."""
        todo = self.stale()
        total = max(1, len(todo) * 100)
        for n, i in enumerate(todo):
            step = None if progress is None else (
                lambda done, of, n=n: progress(n * 100 + int(100 * done / max(1, of)), total))
            self._cache[self._key(i)] = self._profile(i, step)
        if progress is not None:
            progress(total, total)
        return self.views()

    def views(self) -> list[ColumnView | None]:
        labels = self.labels
        out = []
        for i, k in enumerate(self.knobs):
            entry = self._cache.get(self._key(i)) if k.rules is not None else None
            out.append(None if entry is None else view_of(entry, labels[i]))
        return out

    def _profile(self, i: int, progress):
        k = self.knobs[i]
        source = self.source or _default_source
        return source(k.variant.key, k.rules, samples=self.samples, games=self.games, seed=self.seed,
                      progress=progress)

    # ------------------------------------------------------------------ what it shows

    def profile_html(self) -> str:
        """The profile table: one row per figure, one column per game (estimate and 95% interval).

        A figure a game lacks (a rumino in Gin) is a dash; where a column words a figure otherwise
        than the row's name (its own knock limit), its cell carries its own wording.
        """
        shown = [v for v in self.views() if v is not None]
        if not shown:
            return info_html("no profile computed yet")
        words: dict[str, list[str]] = {}  # each figure's wording in every column that has it
        for v in shown:
            for key, label, _text in v.rows:
                words.setdefault(key, []).append(label)
        heads = {key: shared_words(labels)[0] for key, labels in words.items()}
        cells = [{key: (label, text) for key, label, text in v.rows} for v in shown]
        rows = []
        for key, head in heads.items():
            row = [escape(head)]
            for c in cells:
                if key not in c:
                    row.append("—")
                    continue
                label, text = c[key]
                # where the columns word a figure otherwise (each game's own knock limit, its own ways to end
                # a hand), the row says what they share and each cell the part that is its game's own
                own = dict(zip(words[key], shared_words(words[key])[1]))[label]
                row.append(escape(text) + (f'<br><small style="white-space:normal">{escape(own)}</small>'
                                           if own else ""))
            rows.append(row)
        caption = (f"Profiles, heads-up: exact where every deal is counted, else {self.samples:,} deals; "
                   f"{self.games:,} games per match (fewer for a costly game such as Robber's); seed {self.seed}; "
                   "estimate (95% interval)")
        header = ["figure"] + [escape(v.label) for v in shown]
        profiles = self.profiles()
        if len(shown) == 2 and len(profiles) == 2:  # two columns: each figure's difference, and what it shows
            header.append("the difference, and what it shows")
            for row, key in zip(rows, heads):
                a, b = (p.get(key) for p in profiles)
                row.append("—" if a is None or b is None else escape(difference_text(key, a, b, *[v.label for v in shown])))
            caption += ("; the last column tests each difference (Newcombe's interval for two shares, the normal "
                        "interval for two means; the columns' games are taken as independent)")
        return table_html(header, rows, caption=caption, cls="rumino-compare-profiles", row_headers=True)

    def profiles(self) -> list:
        """The computed columns' profiles (the engine's, not a test's stand-in), in column order."""
        out = []
        for i, k in enumerate(self.knobs):
            entry = self._cache.get(self._key(i)) if k.rules is not None else None
            if entry is not None and not isinstance(entry, ColumnView):
                out.append(entry)
        return out

    def matrix_html(self) -> str:
        m = self.matrix()
        return matrix_table(m) if m is not None else ""

    def errors_html(self) -> str:
        return "".join(error_html(f"{self.labels[i]}: {e}") for i, e in enumerate(self.errors) if e)

    def html(self) -> str:
        """The static view: the errors, the rules matrix, the profile table."""
        return (f'<div class="rumino-variant-compare-static" style="font:13px sans-serif">{self.errors_html()}'
                f"{self.matrix_html()}{self.profile_html()}</div>")

    def figure(self) -> go.Figure:
        """Three panels overlaid by column: the dealt hand's deadwood (its distribution), how many
        turns a hand lasts (its distribution, the mean in the hover; a column with the mean only
        shows it with its 95% interval), and luck against skill (win rates, 95% intervals)."""
        fig = make_subplots(rows=1, cols=3, horizontal_spacing=0.09, column_widths=[0.36, 0.3, 0.34],
                            subplot_titles=("dealt deadwood (share of deals)", "turns per hand (share of hands)",
                                            "win rate heads-up"))
        views = self.views()
        dists = any(v is not None and v.turns_dist for v in views)
        for i, v in enumerate(views):
            if v is None:
                continue
            style = dict(color=COLOURS[i], symbol=SYMBOLS[i])
            line = dict(color=COLOURS[i], dash=DASHES[i], width=2)
            xs = sorted(v.deal)
            fig.add_scatter(x=xs, y=[v.deal[x] for x in xs], mode="lines+markers", name=v.label,
                            legendgroup=str(i), marker=dict(size=5, **style), line=line,
                            hovertemplate=f"{escape(v.label)}<br>deadwood %{{x}}: %{{y:.2%}} ({escape(v.deal_note)})"
                                          "<extra></extra>", row=1, col=1)
            if v.turns_dist:
                xs = sorted(v.turns_dist)
                mean = "" if v.turns is None else f" (mean {v.turns[0]:.1f}, {v.turns[1]:.1f} – {v.turns[2]:.1f})"
                fig.add_scatter(x=xs, y=[v.turns_dist[x] for x in xs], mode="lines+markers", name=v.label,
                                legendgroup=str(i), showlegend=False, marker=dict(size=4, **style), line=line,
                                hovertemplate=f"{escape(v.label)}{mean}<br>%{{x}} turns: %{{y:.1%}} of hands"
                                              "<extra></extra>", row=1, col=2)
            elif v.turns is not None and dists:  # the mean only, among distributions: a point on the turns axis
                m, lo, hi = v.turns
                fig.add_scatter(x=[m], y=[0], mode="markers", name=v.label, legendgroup=str(i), showlegend=False,
                                marker=dict(size=11, **style),
                                error_x=dict(type="data", symmetric=False, array=[hi - m], arrayminus=[m - lo]),
                                hovertemplate=f"{escape(v.label)}<br>mean %{{x:.1f}} turns ({lo:.1f} – {hi:.1f})"
                                              "<extra></extra>", row=1, col=2)
            elif v.turns is not None:
                m, lo, hi = v.turns
                fig.add_scatter(x=[LETTERS[i]], y=[m], mode="markers", name=v.label, legendgroup=str(i),
                                showlegend=False, marker=dict(size=11, **style),
                                error_y=dict(type="data", symmetric=False, array=[hi - m], arrayminus=[m - lo]),
                                hovertemplate=f"{escape(v.label)}<br>%{{y:.1f}} turns ({lo:.1f} – {hi:.1f})"
                                              "<extra></extra>", row=1, col=2)
            if v.skill:
                fig.add_scatter(x=[m for m, *_ in v.skill], y=[val for _, val, _, _ in v.skill], mode="markers",
                                name=v.label, legendgroup=str(i), showlegend=False, cliponaxis=False,
                                marker=dict(size=10, line=dict(color="white", width=1), **style),
                                error_y=dict(type="data", symmetric=False, thickness=2, width=6,
                                             array=[hi - val for _, val, _, hi in v.skill],
                                             arrayminus=[val - lo for _, val, lo, _ in v.skill]),
                                hovertemplate=f"{escape(v.label)}<br>%{{x}}: %{{y:.1%}}<extra></extra>", row=1, col=3)
        shown = [v.label for v in views if v is not None]
        if any(v is not None and v.skill for v in views):  # the even line, named in the legend
            matchups = list(dict.fromkeys(m for v in views if v is not None for m, *_ in v.skill))
            fig.add_scatter(x=matchups, y=[0.5] * len(matchups), mode="lines", name="an even match",
                            line=dict(color="#777", dash="dot", width=1), hoverinfo="skip", row=1, col=3)
        fig.update_layout(height=460, template="plotly_white", margin=dict(l=50, r=20, t=80, b=120),
                          title_text=" vs ".join(shown) if shown else "no profile yet",
                          legend=dict(orientation="h", y=-0.32), scattermode="group", scattergap=0.4)
        # ".1~%": shares of a few per cent get ticks 0.5%, 1%, 1.5% … (".0%" printed 3%, 3%, 2%, 2% …)
        fig.update_yaxes(tickformat=".1~%", rangemode="tozero", row=1, col=1)
        if dists:
            fig.update_yaxes(tickformat=".1~%", rangemode="tozero", row=1, col=2)
            fig.update_xaxes(title_text="turns in a hand", row=1, col=2)
        else:
            fig.update_yaxes(rangemode="tozero", row=1, col=2)
        # a little room above 100%: a win rate of 1 and its interval stay in view, not cut in half by the frame
        fig.update_yaxes(tickformat=".0%", range=[0, 1.06], tickvals=[0, 0.2, 0.4, 0.6, 0.8, 1], row=1, col=3)
        fig.update_xaxes(title_text="deadwood of the dealt hand", row=1, col=1)
        if not dists:
            fig.update_xaxes(title_text="column", row=1, col=2)
        return fig


class VariantCompare(StaticFallback, W.VBox):
    """The live comparison: a RuleKnobs form per column (in tabs), a progress bar, the rules matrix,
    the profile table and the overlaid plots, redrawn whenever a knob moves.

    ``VariantCompare(["rumino", "rumino:knock_max_deadwood=3"])`` compares one game under two settings.
    """

    def __init__(self, columns: Sequence = ("rumino", "gin"), *, samples: int = 2000, games: int = 20,
                 seed: int = 1, source: Callable | None = None):
        c = self.controller = VariantCompareController(columns, samples=samples, games=games, seed=seed,
                                                       source=source)
        self.count_box = W.ToggleButtons(options=[("2 columns", 2), ("3 columns", 3)], value=len(c.knobs),
                                         description="compare")
        self.count_box.style.button_width = "auto"
        self.samples_box = W.IntSlider(value=samples, min=100, max=20000, step=100, description="deals each",
                                       continuous_update=False)
        self.games_box = W.IntSlider(value=games, min=2, max=200, description="games each",
                                     continuous_update=False)
        self.progress = W.IntProgress(value=0, min=0, max=100, description="computing",
                                      style={"description_width": "80px"})
        self.progress.add_class("rumino-compare-progress")
        self.status = W.HTML()
        self.status.add_class("rumino-compare-status")
        self.tabs = W.Tab()
        self.tabs.add_class("rumino-compare-tabs")
        self.matrix = W.HTML()
        self.matrix.add_class("rumino-compare-matrix")
        self.table = W.HTML()
        self.table.add_class("rumino-compare-table")
        self.forms: list[RuleKnobs] = []
        for i in range(len(c.knobs)):
            self._add_form(i)
        self._show_tabs()
        # The plots go to an Output area as plotly's own MIME output (JupyterLab draws it natively) and are
        # replaced whole on every change: a FigureWidget of three subplots showed an empty plot in JupyterLab.
        self.plot = W.Output()
        self.plot.add_class("rumino-compare-plot")
        computed = self._compute()
        self.figure = c.figure()
        self._plot()
        c.on_change(lambda _i: self.refresh())
        self.count_box.observe(self._on_count, names="value")
        self.samples_box.observe(lambda ch: self._resize(samples=ch["new"]), names="value")
        self.games_box.observe(lambda ch: self._resize(games=ch["new"]), names="value")
        super().__init__([W.HBox([self.count_box, self.samples_box, self.games_box]),
                          W.HBox([self.progress, self.status]), self.plot, self.tabs, self.table, self.matrix])
        self.add_class("rumino-variant-compare")
        if computed:
            self._draw(figure=False)  # the figure was just built from these profiles

    def _add_form(self, i: int) -> None:
        k = self.controller.knobs[i]
        form = RuleKnobs(k.variant.key, k.rules)
        form.add_class(f"rumino-compare-column-{LETTERS[i]}")
        # a game has up to twenty knobs: scroll them in their tab, so the plots stay in sight
        form.form.layout = W.Layout(max_height="260px", overflow="auto", display="block")  # block: no squeezing
        self.controller.adopt(i, form.controller)
        self.forms.append(form)

    def _show_tabs(self) -> None:
        self.tabs.children = list(self.forms)
        titles = [f"{LETTERS[i]}: {k.variant.title}" for i, k in enumerate(self.controller.knobs)]
        if hasattr(self.tabs, "titles"):  # ipywidgets 8
            self.tabs.titles = tuple(titles)
        else:  # pragma: no cover - ipywidgets 7
            for i, t in enumerate(titles):
                self.tabs.set_title(i, t)

    def _on_count(self, change) -> None:
        c = self.controller
        if change["new"] > len(c.knobs):
            used = {k.variant.key for k in c.knobs}

            spare = next((key for key in playable_variants() if key not in used), c.knobs[0].variant.key)
            c.add_column(spare)
            self._add_form(len(c.knobs) - 1)
        else:
            c.remove_column(len(c.knobs) - 1)
            self.forms.pop()
        self._show_tabs()
        self.refresh()

    def _resize(self, **sizes) -> None:
        for name, value in sizes.items():
            setattr(self.controller, name, value)
        self.refresh()

    def refresh(self) -> None:
        """Recompute the stale columns (the progress bar runs), then redraw the matrix, table and plots."""
        self._show_tabs()
        if self._compute():
            self._draw()

    def _compute(self) -> bool:
        """Compute the stale columns with the progress bar running; False (and the message) on a refusal."""
        c = self.controller
        todo = c.stale()
        if not todo:  # nothing to compute (a cached setting): the bar stays full
            return True
        self.progress.value = 0
        self.progress.max = 100 * len(todo)
        self.status.value = info_html("computing " + ", ".join(c.labels[i] for i in todo) + " …")
        try:
            c.compute(progress=lambda done, total: setattr(self.progress, "value", min(done, self.progress.max)))
        except RuminoError as err:  # e.g. a table size the game refuses: shown, not raised
            self.status.value = error_html(str(err))
            return False
        self.progress.value = self.progress.max
        return True

    def _draw(self, figure: bool = True) -> None:
        c = self.controller
        self.status.value = c.errors_html() or info_html(
            f"done: {len(c.knobs)} columns, {c.samples:,} deals and {c.games:,} games each, seed {c.seed}")
        self.matrix.value = c.matrix_html()
        self.table.value = c.profile_html()
        if not figure:
            return
        self.figure = c.figure()
        self._plot()

    def _plot(self) -> None:
        """Show ``self.figure`` in the Output area (no kernel display needed: the output is set directly)."""
        bundle = {"application/vnd.plotly.v1+json": json.loads(self.figure.to_json()),
                  "text/plain": f"<figure: {self.figure.layout.title.text}>"}
        self.plot.outputs = ({"output_type": "display_data", "data": bundle, "metadata": {}},)

    def static_html(self) -> str:
        return self.controller.html()


def shared_words(labels: Sequence[str]) -> tuple[str, list[str]]:
    """A row's name for figures the columns word differently, and each column's own part of its words.

    The name is what every wording shares: up to a colon, or else up to the last word they share (a
    trailing "of the" goes back to the columns), a parenthesis closed; wordings that share no first
    word are named by the words they end with. Each column keeps the rest (a bare number with the word
    before it). One wording is its own name.

    >>> shared_words(["P(dealt deadwood ≤ knock limit 7)", "P(dealt deadwood ≤ knock limit 10)"])
    ('P(dealt deadwood ≤ the knock limit)', ['knock limit 7', 'knock limit 10'])
    >>> shared_words(["P(hand may end at once: a knock, gin or a rumino)", "P(hand may end at once: a knock)"])
    ('P(hand may end at once)', ['a knock, gin or a rumino', 'a knock'])
    >>> shared_words(["spread (sd) of the points that change hands per game",
    ...               "spread (sd) of the chips that change hands per game"])
    ('spread (sd)', ['of the points that change hands per game', 'of the chips that change hands per game'])
    >>> shared_words(["points that change hands per game", "chips that change hands per game"])
    ('… that change hands per game', ['points', 'chips'])
    >>> shared_words(["mean turns", "mean turns"])
    ('mean turns', ['', ''])
    >>> shared_words(["turns a hand", "hands a game"])
    ('turns a hand', ['turns a hand', 'hands a game'])
    """
    if len(set(labels)) == 1:
        return labels[0], [""] * len(labels)
    split = [label.split(" ") for label in labels]
    n = 0
    while all(len(w) > n + 1 for w in split) and len({tuple(w[:n + 1]) for w in split}) == 1:
        n += 1
    if n == 0:  # no first word in common: the words they end with name the row, else the first wording
        k = 0
        while all(len(w) > k + 1 for w in split) and len({tuple(w[len(w) - k - 1:]) for w in split}) == 1:
            k += 1
        if k == 0:
            return labels[0], list(labels)
        return "\u2026 " + " ".join(split[0][-k:]), [" ".join(w[:-k]) for w in split]
    # a name that would end on a small word ("spread (sd) of the") leaves it to the columns' own words
    while n > 1 and split[0][n - 1] in ("of", "the", "a", "an", "per", "at", "in", "to", "by", "for"):
        n -= 1
    common = " ".join(split[0][:n])
    if ": " in common or any(w[n - 1].endswith(":") for w in split):
        # what follows the colon is each column's own: the name is what precedes it
        head = labels[0].split(": ", 1)[0]
        rest = [label.split(": ", 1)[1] if ": " in label else "" for label in labels]
    else:
        head = common
        rest = [" ".join(w[n:]) for w in split]
        # a bare value (a limit) keeps the word it qualifies: "knock limit 7", not "7"; the name then
        # says "the knock limit"
        tail = " ".join(split[0][max(0, n - 2):n]).lstrip("\u2264\u2265<>= ")
        bare = [r.rstrip(")").replace(".", "").isdigit() for r in rest]
        if tail and any(bare):
            rest = [f"{tail} {r}" if is_bare else r for r, is_bare in zip(rest, bare)]
            if head.endswith(tail):
                head = head[: len(head) - len(tail)] + "the " + tail
    opened = head.count("(") - head.count(")")
    rest = [r[:-1] if opened > 0 and r.endswith(")") else r for r in rest]
    return head + ")" * max(0, opened), rest


PERCENT = ("deal.p_", ".p_", "hand.ending.", "luck.", ".share")


def _pct(x: float) -> str:
    """A share in percent with three significant figures (small chances keep their digits)."""
    x = 100 * float(x)
    if x == 0:
        return "0%"
    if x >= 10:
        return f"{x:.1f}%"
    digits = 2 - math.floor(math.log10(abs(x)))  # 0.00067%, 1.74e-05 written out as 0.0000174%
    return f"{x:.{digits}f}%"


def cell_text(key: str, fig) -> str:
    """A profile figure for a table cell: a share in percent, a mean in decimals; exact or with its interval.

    >>> from fractions import Fraction
    >>> from rumino.compare import Figure
    >>> cell_text("deal.p_rumino", Figure("deal.p_rumino", "deal", "P", exact=Fraction(1, 149239)))
    '0.000670% (exact)'
    >>> _pct(0.0983), _pct(0.5), _pct(1.74e-7)
    ('9.83%', '50.0%', '0.0000174%')
    """
    pct = any(p in key for p in PERCENT) and "mean" not in key and "var" not in key
    if fig.kind == "exact":
        return f"{_pct(fig.exact)} (exact)" if pct else f"{float(fig.exact):.2f} (exact)"
    e = fig.estimate
    if pct and not e.value == e.lo == e.hi:  # a constant share is said so by interval_text: no interval
        return f"{_pct(e.value)} ({_pct(e.lo)} – {_pct(e.hi)})"
    if pct:
        return f"{_pct(e.value)} (always)"
    return interval_text(e.value, e.lo, e.hi, percent=False, digits=2)


def view_of(profile, label: str) -> ColumnView:
    """One column's :class:`ColumnView`, read from its :class:`rumino.compare.Profile`
    (a ``ColumnView``, as the stand-in sources of the tests give, passes through relabelled)."""
    if isinstance(profile, ColumnView):
        return ColumnView(label, deal=profile.deal, deal_note=profile.deal_note, turns=profile.turns,
                          skill=profile.skill, rows=profile.rows, turns_dist=profile.turns_dist)
    deal = {}
    dist = profile.distributions.get("deal.deadwood")
    if dist:
        total = dist["total"]
        deal = {int(d): c / total for d, c in dist["counts"].items()}
    turns = profile.get("hand.turns")
    hist = profile.distributions.get("hand.turns")
    turns_dist = {int(t): c / hist["total"] for t, c in hist["counts"].items()} if hist and hist["total"] else None
    skill = []
    matchups = [("luck.greedy_vs_random", "greedy vs random")]
    if profile.best_bot != "greedy":  # where greedy is the best, its match against itself is not plotted
        best = player_words(profile.best_bot)
        matchups += [("luck.best_vs_random", f"best ({best}) vs random"),
                     ("luck.best_vs_greedy", f"best ({best}) vs greedy")]
    for key, words in matchups:
        f = profile.get(key)
        if f is not None:
            skill.append((words, f.value, *f.ci95))
    # where greedy is the best bot, its match against itself is one half by symmetry: it measures nothing
    rows = [(key, f.label, "none beats greedy" if key == "luck.best_vs_greedy" and profile.best_bot == "greedy"
             else cell_text(key, f)) for key, f in profile.figures.items()]
    return ColumnView(label, deal=deal, deal_note=profile.deal_method or "no deal",
                      turns=None if turns is None else (turns.value, *turns.ci95), skill=skill, rows=rows,
                      turns_dist=turns_dist)


def _default_source(variant: str, rules, *, samples: int, games: int, seed: int, progress=None):
    """The engine's profile of one column (one process: the widget's kernel)."""

    return profile((variant, rules), samples=samples, games=games, seed=seed, progress=progress)
