"""HouseRuleLab: simulate one house rule at two settings and compare the results with intervals.

Choose a variant and one of its knobs, set the two values (A and B) with the
same controls as :mod:`widgets.rule_knobs`, and press *Run*: each setting plays
the same seeded games between the same bots. Game ``i`` is dealt from
``numpy.random.default_rng([seed, i])`` and the bots draw from ``[seed, i, 1]``,
exactly as ``rumino simulate`` does, so a setting's figures equal that
command's for the same seed (the tests check this). Intervals come from
:mod:`rumino.stats` (Wilson for proportions, normal for means), and the two settings are compared
by the difference B − A with its test (:meth:`HouseRuleLabController.differences`): game by game
for what a game has, since the settings play the same seeded games. Before anything is played, the lab
shows what the book's house-rule atlas measured for the two settings, where it did (one of them the
default: :meth:`HouseRuleLabController.atlas_html`, the cells of the book's pages).

>>> lab = HouseRuleLabController(knob="knock_max_deadwood", a=7, b=3, players="greedy,greedy", games=4, seed=1)
>>> res = lab.run(); sorted(res), res["A"]["games"]
(['A', 'B'], 4)
"""

from __future__ import annotations

import dataclasses
from html import escape
from typing import Any, Callable

import ipywidgets as W
import plotly.graph_objects as go
from plotly.subplots import make_subplots

from rumino.errors import RuminoError
from rumino.stats import Comparison, paired_mean_difference, proportion_difference, verdict
from rumino.players import make_players, player_words
from rumino.compare.profile import ENDING_WORDS
from rumino.playing.simulation import play_games
from rumino.variants import VARIANTS, find_variant, playable_variants
from rumino.compare.matrix import lower_first
from rumino.engine.knobs import knob_table, value_words
from rumino.pages.atlas import measured_answer, measured_values, project_atlas

from rumino_widgets._base import StaticFallback, error_html, interval_text, table_html
from rumino_widgets.rule_knobs import KnobControl

SIMULATED = playable_variants()  # the variants with a playable engine (from the one registry)


def knob_words(row: dict) -> str:
    """The knob as a reader says it in a legend or a title: its label, lower-cased (``"knock limit"``)."""
    return lower_first(row["label"])


class HouseRuleLabController:
    """Two settings of one knob, the games to play, and the summaries they give."""

    def __init__(self, variant: str = "rumino", *, knob: str = "knock_max_deadwood", a: Any = None, b: Any = None,
                 players: str = "greedy,greedy,greedy", games: int = 100, seed: int = 0,
                 atlas: dict | None | str = "project"):
        # the house-rule atlas whose answer the lab offers before it plays ("project": the book's own file)
        self.atlas = project_atlas() if atlas == "project" else atlas
        self.error: str | None = None
        self.results: dict | None = None
        self.players = players
        self.games = games
        self.seed = seed
        self.set_variant(variant, knob=knob)
        if a is not None:
            self.a = a
        if b is not None:
            self.b = b

    def set_variant(self, name: str, *, knob: str | None = None) -> None:
        self.variant = find_variant(name)
        self.rows = knob_table(self.variant.rules_class)
        names = [r["name"] for r in self.rows]
        self.set_knob(knob if knob in names else names[0])

    def set_knob(self, name: str) -> None:
        row = next((r for r in self.rows if r["name"] == name), None)
        if row is None:
            self.error = f"there is no rule {name!r} in {self.variant.title}."
            return
        self.knob = name
        self.row = row
        default = getattr(self.variant.rules, name)
        self.a = default
        measured = measured_values(self.atlas, self.variant.key, name)
        # B starts at a value the atlas measured, so its answer is on screen before anything is played
        self.b = measured[0] if measured else self._other(row, default)
        self.results = None

    @staticmethod
    def _other(row: dict, default):
        """A second value to compare with the default: unlimited, the next choice, or a nearby integer."""
        if row["allow_none"] and default is not None:
            return None
        if row["choices"] is not None:
            others = [c for c in row["choices"] if c != default]
            return others[0] if others else default
        if default is None:
            return row["low"] if row["low"] is not None else 0
        hi = row["high"] if row["high"] is not None else default + 10
        lo = row["low"] if row["low"] is not None else default - 10
        return default - 3 if default - 3 >= lo else min(hi, default + 3)

    def rules_for(self, value):
        """The rules with the knob at ``value`` (the engine validates it)."""
        rules = dataclasses.replace(self.variant.rules, **{self.knob: value})
        rules.meld_rules
        return rules

    def run(self, progress: Callable[[int, int], None] | None = None) -> dict | None:
        """Play ``games`` games under A and under B; ``progress(done, total)`` after each game."""
        self.error = None
        self.results = None
        game_cls = self.variant.game
        if game_cls is None:
            self.error = (f"{self.variant.title} has no playable engine yet; the lab simulates: "
                          f"{', '.join(find_variant(k).title for k in SIMULATED)}.")
            return None
        try:
            specs = [s.strip() for s in self.players.split(",")]
            make_players(specs, seed=0, game=game_cls)  # names, fit to the game and count
            settings = {"A": self.rules_for(self.a), "B": self.rules_for(self.b)}
            if isinstance(self.games, bool) or not isinstance(self.games, int) or self.games < 1:
                raise RuminoError(f"games is {self.games!r}: it must be a positive integer.")
            game_cls.new(settings["A"], len(specs), seed=0)  # the engine checks the table size
        except RuminoError as err:
            self.error = str(err)
            return None
        out = {}
        for k, (label, rules) in enumerate(settings.items()):
            # the engine plays and tallies (the same seeds as `rumino simulate`)
            step = None if progress is None else (lambda done, total, k=k: progress(k * total + done, 2 * total))
            run = play_games(rules, specs, self.games, self.seed, variant=self.variant.key, progress=step)
            out[label] = {
                "value": getattr(rules, self.knob), "games": self.games,
                "win_rate": [run.win_rate(s) for s in range(len(specs))],
                "endings": {e: run.ending_rate(e) for e in run.endings},
                "hands_per_game": run.mean_hands(), "rebuys_per_game": run.mean_rebuys(),
                "pool": run.mean_pool(), "hands": run.hands,
                # game by game (game i is dealt the same cards under both settings): the paired differences
                "per_game": {"hands_per_game": list(run.hands_per_game), "rebuys_per_game": list(run.rebuys_per_game),
                             "pool": list(run.pools)},
                "counts": {"wins": list(run.wins), "endings": dict(run.endings)},
            }
        self.results = out
        return out

    def differences(self) -> dict[str, Comparison]:
        """B − A for each figure of :meth:`html`, tested: the figures a game has (hands, rebuys, pool per
        game) game by game, since game ``i`` is dealt the same cards under both settings (a paired mean
        difference); a share of games or of hands as two proportions (Newcombe's interval)."""
        if not self.results:
            return {}
        A, B = self.results["A"], self.results["B"]
        specs = [s.strip() for s in self.players.split(",")]
        out: dict[str, Comparison] = {}
        for i in range(len(specs)):
            out[f"seat {i} ({player_words(specs[i])}) wins"] = proportion_difference(B["counts"]["wins"][i], B["games"],
                                                                       A["counts"]["wins"][i], A["games"])
        for k in A["endings"]:
            out[f"hands ending by {k.replace('_', ' ')}"] = proportion_difference(
                B["counts"]["endings"][k], B["hands"], A["counts"]["endings"][k], A["hands"])
        for key, words in (("hands_per_game", "hands per game"), ("rebuys_per_game", "rebuys per game"),
                           ("pool", "pool per game")):
            pairs = [b - a for a, b in zip(A["per_game"][key], B["per_game"][key])]
            out[words] = paired_mean_difference(pairs) if len(pairs) >= 2 else None
        return out

    def figure(self) -> go.Figure:
        """Side by side: win rates and hand endings (Wilson 95%), and hands per game (normal 95%)."""
        fig = make_subplots(rows=1, cols=2, column_widths=[0.72, 0.28],
                            subplot_titles=("win rates and how hands end (95% CI)", "hands per game (95% CI)"))
        if not self.results:
            fig.update_layout(title_text="press Run to simulate", height=420)
            return fig
        specs = [s.strip() for s in self.players.split(",")]
        colours = {"A": "#1f77b4", "B": "#ff7f0e"}
        for label, res in self.results.items():
            ests = [(f"seat {i} ({player_words(specs[i])}) wins", e) for i, e in enumerate(res["win_rate"])]
            ests += [(f"ends by {ENDING_WORDS.get(k, k.replace('_', ' '))}", e) for k, e in res["endings"].items()]
            name = f"{label}: {knob_words(self.row)} {value_words(self.row, res['value'])}"
            fig.add_scatter(x=[k for k, _ in ests], y=[e.value for _, e in ests], mode="markers", name=name,
                            marker=dict(size=10, color=colours[label], symbol="circle" if label == "A" else "square"),
                            error_y=dict(type="data", symmetric=False, array=[e.hi - e.value for _, e in ests],
                                         arrayminus=[e.value - e.lo for _, e in ests]), row=1, col=1)
            h = res["hands_per_game"]
            fig.add_scatter(x=[label], y=[h.value], mode="markers", name=f"{label} hands/game",
                            marker=dict(size=10, color=colours[label], symbol="circle" if label == "A" else "square"),
                            error_y=dict(type="data", symmetric=False, array=[h.hi - h.value],
                                         arrayminus=[h.value - h.lo]), showlegend=False, row=1, col=2)
        fig.update_layout(height=440, template="plotly_white", margin=dict(l=50, r=20, t=70, b=110),
                          title_text=f"{self.variant.title}: {knob_words(self.row)} "
                                     f"{value_words(self.row, self.results['A']['value'])} vs "
                                     f"{value_words(self.row, self.results['B']['value'])} · {self.games} games each, "
                                     f"seed {self.seed}",
                          legend=dict(orientation="h", y=-0.35), scattermode="group", scattergap=0.5)
        fig.update_yaxes(rangemode="tozero")
        fig.update_yaxes(tickformat=".0%", title_text="share (95% interval)", row=1, col=1)  # proportions
        return fig

    def atlas_html(self) -> str:
        """The atlas's answer for these two settings (one of them the default), or which values it has."""
        words = knob_words(self.row)
        answer = measured_answer(self.atlas, self.variant.key, self.knob, self.a, self.b)
        if answer is None:
            values = measured_values(self.atlas, self.variant.key, self.knob)
            if not values:
                return ""
            default = value_words(self.row, getattr(self.variant.rules, self.knob))
            listed = ", ".join(value_words(self.row, v) for v in values)
            return (f'<div class="rumino-lab-atlas" style="font:13px sans-serif">The book\'s house-rule atlas has '
                    f'measured {escape(words)} at {escape(listed)} against the default, {escape(default)}: set A '
                    f'to the default and B to one of them to read its answer here before you play.</div>')
        head = (f"Measured already, on {answer['deals']:,} deals (seed {answer['seed']}, two players): "
                f"{escape(words)} {escape(value_words(self.row, self.b))} (B) against "
                f"{escape(value_words(self.row, self.a))} (A)")
        if answer["same_play"]:
            return (f'<div class="rumino-lab-atlas" style="font:13px sans-serif">{head}: every deal played '
                    f'exactly as under A, at two players.</div>')
        cells = [[escape(name), _markdown_bold(text)] for name, text in answer["rows"]]
        table = table_html(["figure", "B − A (95% interval)"], cells, caption=(
            f"{head}. ✔ marks a change the tests show after Holm's correction over every change measured in "
            "this game; the shares' changes are in percentage points"), cls="rumino-lab-atlas-table",
            row_headers=True)
        return f'<div class="rumino-lab-atlas" style="font:13px sans-serif">{table}</div>'

    def html(self) -> str:
        """The two settings' figures as a table with intervals (static)."""
        if self.error:
            return error_html(self.error)
        if not self.results:
            return (f'<div class="rumino-lab" style="font:13px sans-serif">{escape(self.variant.title)}: compare '
                    f'{escape(knob_words(self.row))} {escape(value_words(self.row, self.a))} (A) with '
                    f'{escape(value_words(self.row, self.b))} (B) over {self.games} games each (not run yet).</div>')
        A, B = self.results["A"], self.results["B"]

        def cell(e, pct=True):
            return interval_text(e.value, e.lo, e.hi, percent=pct, digits=1 if pct else 2)

        specs = [s.strip() for s in self.players.split(",")]
        rows = [(f"seat {i} ({player_words(specs[i])}) wins", cell(A["win_rate"][i]), cell(B["win_rate"][i]))
                for i in range(len(specs))]
        rows += [(f"hands ending by {k.replace('_', ' ')}", cell(A["endings"][k]), cell(B["endings"][k]))
                 for k in A["endings"]]
        rows += [("hands per game", cell(A["hands_per_game"], False), cell(B["hands_per_game"], False)),
                 ("rebuys per game", cell(A["rebuys_per_game"], False), cell(B["rebuys_per_game"], False)),
                 ("pool per game", cell(A["pool"], False), cell(B["pool"], False))]
        diffs = self.differences()

        def said(name):
            c = diffs.get(name)
            if c is None:
                return "—"
            return escape(verdict(c, "B", "A", more="is higher", p=False, digits=1 if c.kind == "proportion" else 2))

        caption = (f"{escape(self.variant.title)}: {escape(knob_words(self.row))} · {self.games} games per setting, "
                   f"seed {self.seed}, players {escape(self.players)} · estimate (95% interval); the last column "
                   f"tests B − A (game by game for the figures of a game, Newcombe's interval for a share)")
        table = table_html(["quantity", f"A: {escape(value_words(self.row, A['value']))}",
                            f"B: {escape(value_words(self.row, B['value']))}", "B − A, and what it shows"],
                           [[escape(a), b, c, said(a)] for a, b, c in rows], caption=caption,
                           cls="rumino-lab-table", row_headers=True)
        return f'<div class="rumino-lab" style="font:13px sans-serif">{table}</div>'


def _markdown_bold(text: str) -> str:
    """A cell of the book's atlas pages (``**…** ✔``) as HTML."""
    if text.startswith("**"):
        inner, _, rest = text[2:].partition("**")
        return f"<strong>{escape(inner)}</strong>{escape(rest)}"
    return escape(text)


class HouseRuleLab(StaticFallback, W.VBox):
    """The live lab: variant, knob, settings A and B, bots, games, seed, Run with a progress bar, and the plot."""

    def __init__(self, variant: str = "rumino", *, knob: str = "knock_max_deadwood", a: Any = None, b: Any = None,
                 players: str = "greedy,greedy,greedy", games: int = 100, seed: int = 0,
                 atlas: dict | None | str = "project"):
        c = self.controller = HouseRuleLabController(variant, knob=knob, a=a, b=b, players=players, games=games,
                                                     seed=seed, atlas=atlas)
        self.variant_box = W.Dropdown(options=[(v.title, k) for k, v in VARIANTS.items()], value=c.variant.key,
                                      description="variant")
        self.knob_box = W.Dropdown(description="house rule", layout=W.Layout(width="420px"))
        self.settings = W.VBox()
        self.players_box = W.Text(value=players, description="players", continuous_update=False,
                                  layout=W.Layout(width="420px"))
        self.games_box = W.IntSlider(value=games, min=1, max=2000, description="games each",
                                     continuous_update=False, layout=W.Layout(width="560px"))
        self.seed_box = W.IntText(value=seed, description="seed", layout=W.Layout(width="180px"))
        self.run_button = W.Button(description="Run", button_style="primary", icon="play")
        self.run_button.add_class("rumino-lab-run")
        self.progress = W.IntProgress(value=0, min=0, max=2 * games, description="games played",
                                      style={"description_width": "100px"})
        self.progress.add_class("rumino-lab-progress")
        self.status = W.HTML()
        self.status.add_class("rumino-lab-status")
        self.atlas_box = W.HTML()  # the atlas's answer, offered before the lab plays its own
        self.atlas_box.add_class("rumino-lab-atlas-box")
        self.figure = go.FigureWidget(c.figure())
        self.variant_box.observe(self._on_variant, names="value")
        self.knob_box.observe(self._on_knob, names="value")
        self.players_box.observe(lambda ch: setattr(c, "players", ch["new"]), names="value")
        self.games_box.observe(lambda ch: setattr(c, "games", ch["new"]), names="value")
        self.seed_box.observe(lambda ch: setattr(c, "seed", ch["new"]), names="value")
        self.run_button.on_click(lambda _b: self.run())
        super().__init__([W.HBox([self.variant_box, self.knob_box]), self.settings, self.atlas_box,
                          W.HBox([self.players_box, self.seed_box]), self.games_box,
                          W.HBox([self.run_button, self.progress]), self.status, self.figure])
        self.add_class("rumino-house-rule-lab")
        self._load_knobs()

    def _on_variant(self, change):
        self.controller.set_variant(change["new"])
        self._load_knobs()

    def _on_knob(self, change):
        if change["new"] and change["new"] != self.controller.knob:
            self.controller.set_knob(change["new"])
            self._build_settings()

    def _load_knobs(self):
        c = self.controller
        self.knob_box.unobserve(self._on_knob, names="value")
        self.knob_box.options = [(r["label"], r["name"]) for r in c.rows]  # the rule's words, its name as value
        self.knob_box.value = c.knob
        self.knob_box.observe(self._on_knob, names="value")
        self._build_settings()

    def _build_settings(self):
        c = self.controller
        self.controls = {}
        boxes = []
        for label in ("A", "B"):
            ctl = KnobControl(c.row, getattr(c, label.lower()), label=f"{label}: {c.row['label']}")
            ctl.widget.add_class(f"rumino-lab-setting-{label}")
            if label == "B":  # what the rule does is said once, beside A
                ctl.note.layout.visibility = "hidden"
            ctl.on_change(lambda v, attr=label.lower(): self._set_value(attr, v))
            self.controls[label] = ctl
            boxes.append(ctl.widget)
        self.settings.children = boxes
        self.atlas_box.value = c.atlas_html()
        self._show()

    def _set_value(self, attr: str, value) -> None:
        setattr(self.controller, attr, value)
        self.atlas_box.value = self.controller.atlas_html()

    def run(self):
        c = self.controller
        self.progress.max = 2 * max(1, c.games)
        self.progress.value = 0
        self.run_button.disabled = True
        self.status.value = '<span style="font:13px sans-serif">simulating…</span>'
        try:
            c.run(progress=lambda done, total: setattr(self.progress, "value", done))
        finally:
            self.run_button.disabled = False
        self._show()

    def _show(self):
        c = self.controller
        if c.error:
            self.status.value = error_html(c.error)
        elif c.results:
            self.status.value = (f'<span style="font:13px sans-serif">done: {c.games} games per setting, seed {c.seed}'
                                 f'</span>')
        else:
            self.status.value = c.html()
        fig = c.figure()
        with self.figure.batch_update():
            self.figure.data = []
            for tr in fig.data:
                self.figure.add_trace(tr)
            self.figure.layout = fig.layout

    def static_html(self) -> str:
        return self.controller.atlas_html() + self.controller.html()
