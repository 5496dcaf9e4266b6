"""ClassExperiment: a class deals real hands (or virtual ones), types its tallies, and sees the pooled
estimate with its 95% interval against the exact value.

The numbers all come from :mod:`rumino.classroom.experiment`: the experiments and their exact values,
the virtual dealer judged by the engine, the tallies read as typed, the pooling and the running
estimate. A bad tally shows its one-line message and changes nothing.

>>> c = ClassExperimentController("first_out")
>>> c.add_text("16", "30"), c.add_text("40", "30"), len(c.tally.groups)
(True, False, 1)
>>> c.error
'successes is 40 but trials is 30: a group cannot count more successes than trials.'
>>> text = c.to_csv(); c.reset(); c.load_csv(text), [g.successes for g in c.tally.groups]
(True, [16])

The tallies save to and load from the CSV the static page exports (:mod:`rumino.classroom.tally`), so a
class can carry its counts between the book's page and JupyterLab.
"""

from __future__ import annotations

import json
from html import escape

import ipywidgets as W
import plotly.graph_objects as go

from pathlib import Path

from rumino.classroom.experiment import EXPERIMENTS, ClassTally, Group, TallyError
from rumino.classroom.tally import read_tally_csv, tally_csv, tally_html
from rumino.render.cards import hand_svg

from rumino_widgets._base import StaticFallback, error_html, fraction_html, info_html, table_html

SHOWN_SCALE = 0.5  # virtual hands as small faces: thirty of them fit in a scrolling box
BAND, LINE, EXACT = "rgba(31,119,180,0.18)", "#1f77b4", "#c0392b"


class ClassExperimentController:
    """The experiment, its groups and the last message, without any widget."""

    def __init__(self, experiment: str = "rumino_meld", *, hands: int = 30, seed: int = 0):
        self.hands = hands
        self.seed = seed
        self.error: str | None = None
        self.info: str | None = None
        self.choose(experiment)

    @property
    def experiment(self):
        return self.tally.experiment

    def choose(self, key: str) -> None:
        """Another experiment: its own exact value, so the groups start again."""
        if key not in EXPERIMENTS:
            self.error = f"unknown experiment {key!r}: choose one of {', '.join(EXPERIMENTS)}."
            return
        self.key = key
        self.tally = ClassTally(key, seed=self.seed)
        self.error = self.info = None

    def add_text(self, successes, trials, name: str = "") -> bool:
        """Add a typed group; False, with ``error`` set and the groups unchanged, if the tally is bad."""
        self.info = None
        try:
            g = self.tally.add(successes, trials, name)
        except TallyError as err:
            self.error = str(err)
            return False
        self.error = None
        self.info = f"added {g.name}: {g.successes} of {g.trials}."
        return True

    def deal(self, n: int | None = None) -> bool:
        """Deal ``n`` virtual trials (default ``hands``), judged by the engine, as a new group."""
        self.info = None
        try:
            g = self.tally.deal_group(self.hands if n is None else n)
        except TallyError as err:
            self.error = str(err)
            return False
        self.error = None
        self.info = (f"dealt {g.name}: {g.trials} virtual {self.experiment.unit}, "
                     f"{g.successes} successes (seed {self.seed}, group {len(self.tally.groups)}).")
        return True

    def reset(self) -> None:
        self.tally.reset()
        self.error = None
        self.info = "reset: no groups."

    # ------------------------------------------------------------------ saving and loading

    def csv_name(self) -> str:
        """The file the tallies are saved to: the name the static page downloads too."""
        return f"class-tally-{self.key}.csv"

    def to_csv(self) -> str:
        return tally_csv(self.key, self.tally.groups)

    def save(self, folder=".") -> Path:
        """Write the groups to ``folder/class-tally-<experiment>.csv``; say where."""
        path = Path(folder) / self.csv_name()
        try:
            path.write_text(self.to_csv(), encoding="utf-8")
        except OSError as err:
            self.error, self.info = f"the tallies could not be saved to {path}: {err.strerror}.", None
            return path
        self.error, self.info = None, f"saved {len(self.tally.groups)} groups to {path}."
        return path

    def load_csv(self, text: str, name: str = "the file") -> bool:
        """Replace the groups by those of a tally CSV; False, with ``error`` set and the groups unchanged, if
        a line is bad. A file for another experiment switches to it."""
        self.info = None
        first = next((line for line in text.splitlines()[1:] if line.strip()), "")
        key = first.split(",", 1)[0].strip()
        if key in EXPERIMENTS and key != self.key:
            try:
                read_tally_csv(text, key)
            except TallyError as err:
                self.error = f"{name}, {err}"
                return False
            self.choose(key)
        try:
            groups = read_tally_csv(text, self.key)
        except TallyError as err:
            self.error = f"{name}, {err}"
            return False
        self.tally.reset()
        self.tally.groups.extend(Group(g.name, g.successes, g.trials) for g in groups)
        self.error, self.info = None, f"loaded {len(groups)} groups from {name}."
        return True

    # ------------------------------------------------------------------ what is shown

    def exact_text(self) -> str:
        p = self.experiment.exact
        return f"{p.numerator:,} / {p.denominator:,} = {float(p):.2%}"

    def instructions_html(self) -> str:
        e = self.experiment
        steps = "".join(f"<li>{escape(s)}</li>" for s in e.steps)
        note = f'<p style="margin:4px 0">{escape(e.note)}</p>' if e.note else ""
        return (f'<div class="rumino-experiment-instructions" style="font:14px sans-serif;max-width:760px">'
                f'<p style="margin:4px 0"><b>{escape(e.question)}</b></p>'
                f'<p style="margin:4px 0">You need {escape(e.materials)}.</p>'
                f'<ol style="margin:4px 0 4px 1.2em;padding:0">{steps}</ol>{note}'
                f'<p class="rumino-experiment-exact" style="margin:4px 0">Exact chance (the engine): '
                f'{fraction_html(e.exact)} = <b>{float(e.exact):.2%}</b></p></div>')

    def dealt_html(self) -> str:
        """The last virtual group: each trial's cards and the engine's verdict (✓ counts, ✗ does not)."""
        trials = self.tally.last_trials
        if not trials:
            return ""
        items = "".join(
            f'<div class="rumino-trial" data-success="{int(t.success)}" style="display:inline-block;'
            f'margin:2px 10px 4px 0;vertical-align:top">{hand_svg(t.cards, scale=SHOWN_SCALE)}'
            f'<div style="font:12px sans-serif;color:{"#1b5e20" if t.success else "#555"}">'
            f'{"✓" if t.success else "✗"} {escape(t.verdict)}</div></div>' for t in trials)
        g = self.tally.groups[-1]
        head = (f'<div style="font:13px sans-serif;margin:2px 0">{escape(g.name)}: '
                f'{g.successes} of {g.trials} {escape(self.experiment.unit)} count (✓)</div>')
        return (f'<div class="rumino-experiment-dealt">{head}<div style="max-height:300px;overflow:auto;'
                f'border:1px solid #ddd;padding:4px">{items}</div></div>')

    def table_html(self) -> str:
        """One row per group: its tally, its own share, and the pooled estimate up to it."""
        if not self.tally.groups:
            return info_html("No groups yet: type a group's tally, or deal virtual hands.")
        rows = []
        for g, e in zip(self.tally.groups, self.tally.running()):
            name = escape(g.name) + (" (virtual)" if g.virtual else "")
            rows.append([name, f"{g.successes:,}", f"{g.trials:,}", f"{g.successes / g.trials:.1%}",
                         f"{int(e.successes):,} / {e.n:,} = {e.value:.1%}",
                         f"{e.lo:.1%} – {e.hi:.1%}"])
        return table_html(["group", "successes", "trials", "share", "pooled so far", "95% interval"], rows,
                          caption="The groups, and the class's estimate after each one",
                          cls="rumino-experiment-groups")

    def readout_text(self) -> str:
        return self.tally.summary()

    def readout_html(self) -> str:
        if not self.tally.groups:
            return ""  # the table says there is nothing yet
        inside = self.tally.exact_inside()
        mark = "" if inside is None else ("✓ " if inside else "✗ ")
        return (f'<div class="rumino-experiment-readout" style="font:14px sans-serif;margin:4px 0">'
                f'<b>{escape(mark + self.readout_text())}</b></div>')

    def message_html(self) -> str:
        if self.error:
            return error_html(self.error)
        return info_html(self.info) if self.info else ""

    def figure_spec(self) -> dict:
        """The running estimate, its interval band and the exact value (what the plot draws)."""
        r = self.tally.running()
        xs = list(range(1, len(r) + 1))
        p = float(self.experiment.exact)
        right = max(len(r), 6) + 0.5  # room for a class of six groups from the start
        return {"xrange": [0.5, right], "x": xs, "y": [e.value for e in r],
                "lo": [e.lo for e in r], "hi": [e.hi for e in r],
                "n": [e.n for e in r], "exact_x": [0.5, right], "exact_y": [p, p],
                "title": f"{self.experiment.title}: the class's estimate after each group"}

    def html(self) -> str:
        """The static page: the instructions, and the tally the browser keeps (no kernel needed)."""
        return (f'<div class="rumino-class-experiment" style="font:13px sans-serif">'
                f'{self.instructions_html()}{tally_html([self.experiment], groups=self.tally.groups)}</div>')


def running_figure(spec: dict, height: int = 360) -> go.Figure:
    """The running estimate as a plotly figure: the band (95% interval), the estimate, the exact line."""
    fig = go.Figure(layout=dict(
        height=height, margin=dict(l=60, r=20, t=50, b=50), template="plotly_white",
        title=dict(text=spec["title"], font=dict(size=14)),
        xaxis=dict(title="groups pooled", dtick=1, range=spec["xrange"]),
        yaxis=dict(title="share of successes", tickformat=".0%", range=[0, 1]),
        legend=dict(orientation="h", x=0, y=-0.2)))
    fig.add_scatter(name="95% interval", x=spec["x"], y=spec["hi"], mode="lines", line=dict(width=0),
                    showlegend=False, hoverinfo="skip")
    fig.add_scatter(name="95% interval", x=spec["x"], y=spec["lo"], mode="lines", line=dict(width=0),
                    fill="tonexty", fillcolor=BAND, hoverinfo="skip")
    fig.add_scatter(name="class estimate", x=spec["x"], y=spec["y"], mode="lines+markers",
                    line=dict(color=LINE), customdata=spec["n"],
                    hovertemplate="after %{x} groups (n = %{customdata}): %{y:.1%}<extra></extra>")
    fig.add_scatter(name="exact", x=spec["exact_x"], y=spec["exact_y"], mode="lines",
                    line=dict(color=EXACT, dash="dash"), hovertemplate="exact %{y:.2%}<extra></extra>")
    return fig


class ClassExperiment(StaticFallback, W.VBox):
    """The live experiment: choose it, read what to do, deal or type groups, watch the estimate close in.

    >>> w = ClassExperiment("knock_meld", hands=10, seed=1)
    >>> w.deal_button.click(); w.successes.value, w.trials.value = "3", "30"; w.add_button.click()
    >>> [g.trials for g in w.controller.tally.groups], len(w.figure.data[2].x)
    ([10, 30], 2)
    """

    def __init__(self, experiment: str = "rumino_meld", *, hands: int = 30, seed: int = 0):
        c = self.controller = ClassExperimentController(experiment, hands=hands, seed=seed)
        label = {"description_width": "80px"}
        self.choice = W.Dropdown(options=[(e.title, k) for k, e in EXPERIMENTS.items()], value=c.key,
                                 description="experiment", style=label, layout=W.Layout(width="420px"))
        self.instructions = W.HTML()
        self.hands = W.BoundedIntText(value=hands, min=1, max=500, description="how many", style=label,
                                      layout=W.Layout(width="160px"))
        self.deal_button = W.Button(description="Deal virtual hands", layout=W.Layout(width="200px"))
        self.successes = W.Text(description="successes", placeholder="e.g. 11", style=label,
                                layout=W.Layout(width="170px"))
        self.trials = W.Text(description="trials", placeholder="e.g. 30", style={"description_width": "50px"},
                             layout=W.Layout(width="170px"))
        self.group_name = W.Text(description="group", placeholder="(optional)", style={"description_width": "50px"},
                                 layout=W.Layout(width="220px"))
        self.add_button = W.Button(description="Add group", button_style="primary",
                                   layout=W.Layout(width="120px"))
        self.reset_button = W.Button(description="Reset", layout=W.Layout(width="100px"))
        self.save_button = W.Button(description="Save tallies (CSV)", layout=W.Layout(width="170px"),
                                    tooltip="write the groups to class-tally-<experiment>.csv beside the notebook")
        self.load_upload = W.FileUpload(accept=".csv,text/csv", multiple=False, description="Load tallies (CSV)",
                                        layout=W.Layout(width="190px"))
        for w, cls in [(self.successes, "successes"), (self.trials, "trials"), (self.group_name, "group"),
                       (self.add_button, "add"), (self.deal_button, "deal"), (self.reset_button, "reset"),
                       (self.hands, "hands"), (self.choice, "choice"), (self.save_button, "save"),
                       (self.load_upload, "load")]:
            w.add_class(f"rumino-experiment-{cls}")
        self.message, self.dealt, self.table, self.readout = W.HTML(), W.HTML(), W.HTML(), W.HTML()
        self.message.add_class("rumino-experiment-message")
        # the plot is plotly's own output in an Output area, replaced whole on every change (as in
        # VariantCompare): new values set on a FigureWidget's traces did not reach the page in Voila
        self.plot = W.Output()
        self.plot.add_class("rumino-experiment-plot")
        self.figure = running_figure(c.figure_spec())
        self.choice.observe(self._on_choice, names="value")
        self.deal_button.on_click(lambda _b: self._act(c.deal, self.hands.value))
        self.add_button.on_click(lambda _b: self._add())
        self.reset_button.on_click(lambda _b: self._act(c.reset))
        self.save_button.on_click(lambda _b: self._act(c.save))
        self.load_upload.observe(self._on_upload, names="value")
        self.hands.observe(lambda _ch: self._label_deal(), names="value")
        heading = 'style="font:bold 13px sans-serif;margin:8px 0 2px"'
        super().__init__([
            self.choice, self.instructions,
            W.HTML(f"<div {heading}>A group's tally, as counted with real cards</div>"),
            W.HBox([self.successes, self.trials, self.group_name, self.add_button]),
            W.HTML(f"<div {heading}>Or let the engine deal a group</div>"),
            W.HBox([self.hands, self.deal_button, self.reset_button]),
            W.HBox([self.save_button, self.load_upload]),
            self.message, self.dealt, self.table, self.readout, self.plot,
        ])
        self.add_class("rumino-class-experiment")
        self._refresh()

    def _on_choice(self, change) -> None:
        if change["new"] != self.controller.key:
            self._act(self.controller.choose, change["new"])

    def _on_upload(self, change) -> None:
        files = change["new"]
        if not files:
            return
        f = files[0]
        try:
            text = bytes(f["content"]).decode("utf-8-sig")
        except UnicodeDecodeError:
            self.controller.error = f"{f['name']} is not UTF-8 text: save the tally as a UTF-8 CSV file."
            self._refresh()
            return
        self.controller.load_csv(text, f["name"])
        if self.choice.value != self.controller.key:
            self.choice.value = self.controller.key
        self._refresh()

    def _add(self) -> None:
        if self.controller.add_text(self.successes.value, self.trials.value, self.group_name.value):
            # a group counted: clear the fields for the next one (a refused tally stays, to be corrected)
            self.successes.value = self.trials.value = self.group_name.value = ""
        self._refresh()

    def _act(self, fn, *args) -> None:
        fn(*args)
        self._refresh()

    def _label_deal(self) -> None:
        unit = self.controller.experiment.unit
        n = self.hands.value
        one = {"hands": "hand", "tries": "try"}.get(unit, unit)
        self.deal_button.description = f"Deal {n} virtual {unit if n != 1 else one}"

    def _refresh(self) -> None:
        c = self.controller
        self._label_deal()
        self.instructions.value = c.instructions_html()
        self.message.value = c.message_html()
        self.dealt.value = c.dealt_html()
        self.table.value = c.table_html()
        self.readout.value = c.readout_html()
        self.figure = running_figure(c.figure_spec())
        bundle = {"application/vnd.plotly.v1+json": json.loads(self.figure.to_json()),
                  "text/plain": f"<figure: {self.figure.layout.title.text}>"}
        self.plot.outputs = ({"output_type": "display_data", "data": bundle, "metadata": {}},)

    def static_html(self) -> str:
        return self.controller.html()
