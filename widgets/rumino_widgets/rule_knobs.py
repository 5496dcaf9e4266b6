"""RuleKnobs: a form generated from a variant's rules dataclass.

Each field's metadata (``rumino.variants._fields.knob_table``) picks its
control: ``choices`` of True/False give a checkbox, two or three short choices
toggle buttons, more a dropdown, an integer range a slider (or a number box
for wide ranges, so an out-of-range number reaches the engine and its message
is shown rather than silently clamped), and ``allow_none`` adds an "unlimited"
checkbox. The controller builds the rules object through the dataclass itself,
so the engine decides validity and its ``RuleConfigError`` is what the form shows.

>>> c = RuleKnobsController("rumino")
>>> c.set("knock_max_deadwood", 5); c.code()
'RuminoRules(knock_max_deadwood=5)'
>>> c.set("stake", 0); c.rules is None, c.error
(True, 'RuminoRules.stake is 0: it must be an integer from 1 to 1000000 (RULES §1.5).')
"""

from __future__ import annotations

from html import escape
from typing import Any, Callable

import ipywidgets as W

from rumino.errors import RuminoError
from rumino.variants import VARIANTS, Variant, find_variant
from rumino.variants._fields import knob_table

from rumino_widgets._base import StaticFallback, error_html

SLIDER_MAX_SPAN = 200  # wider integer ranges get a number box


def control_kind(row: dict) -> str:
    """Which control a knob row gets: checkbox, toggle, dropdown, slider or number.

    >>> rows = {r["name"]: r for r in knob_table(find_variant("rumino").rules_class)}
    >>> [control_kind(rows[n]) for n in ("triple_gin_wins", "set_suits", "stock_exhausted", "knock_max_deadwood", "stake")]
    ['checkbox', 'toggle', 'toggle', 'slider', 'number']
    """
    choices = row["choices"]
    if choices is not None:
        if set(choices) == {True, False} and all(isinstance(c, bool) for c in choices):
            return "checkbox"
        if 2 <= len(choices) <= 3 and all(len(str(c)) <= 14 for c in choices):
            return "toggle"
        return "dropdown"
    lo, hi = row["low"], row["high"]
    if lo is not None and hi is not None and hi - lo <= SLIDER_MAX_SPAN:
        return "slider"
    return "number"


class RuleKnobsController:
    """The values of every knob of one variant, and the rules object they make (or the engine's refusal)."""

    def __init__(self, variant: str | Variant = "rumino", rules: Any = None):
        self._listeners: list[Callable[[Any], None]] = []
        self.load(variant, rules)

    def load(self, variant: str | Variant, rules: Any = None) -> None:
        """Start over from ``rules`` (default: the variant's defaults)."""
        self.variant = find_variant(variant)
        self.cls = self.variant.rules_class
        self.rows = knob_table(self.cls)
        base = rules if rules is not None else self.variant.rules
        self.values: dict[str, Any] = {r["name"]: getattr(base, r["name"]) for r in self.rows}
        self._build()

    def row(self, name: str) -> dict:
        for r in self.rows:
            if r["name"] == name:
                return r
        raise KeyError(name)

    def set(self, name: str, value: Any) -> None:
        """Set one knob and rebuild the rules; the engine's message lands in ``error``."""
        if name not in self.values:
            self.error = f"{self.cls.__name__} has no rule {name!r}; the rules are: {', '.join(self.values)}."
            self.rules = None
            self._notify()
            return
        self.values[name] = value
        self._build()

    def reset(self) -> None:
        self.load(self.variant)

    def _build(self) -> None:
        try:
            rules = self.cls(**self.values)
            rules.meld_rules  # a combination whose melds cannot be built is refused here too
        except RuminoError as err:
            self.rules, self.error = None, str(err)
        else:
            self.rules, self.error = rules, None
        self._notify()

    def on_change(self, fn: Callable[[Any], None]) -> None:
        """Call ``fn(rules or None)`` after every change."""
        self._listeners.append(fn)

    def _notify(self) -> None:
        for fn in getattr(self, "_listeners", ()):
            fn(self.rules)

    def changes(self) -> dict[str, Any]:
        """The knobs that differ from the variant's defaults."""
        return {k: v for k, v in self.values.items() if getattr(self.variant.rules, k) != v}

    def code(self) -> str:
        """Python that rebuilds these rules (paste it into a notebook)."""
        args = ", ".join(f"{k}={v!r}" for k, v in self.changes().items())
        return f"{self.cls.__name__}({args})"

    def html(self) -> str:
        """The knobs as a table (changed ones in bold), then the rules object or the engine's message."""
        changed = self.changes()
        rows = []
        for r in self.rows:
            name, v = r["name"], self.values[r["name"]]
            allowed = (" | ".join(map(str, r["choices"])) if r["choices"] is not None
                       else f"{r['low']}–{r['high']}")
            if r["allow_none"]:
                allowed += " | unlimited"
            val = "unlimited" if v is None else str(v)
            style = "font-weight:bold;background:#fff5cc" if name in changed else ""
            rows.append(f'<tr style="{style}"><td><code>{escape(name)}</code></td><td>{escape(val)}</td>'
                        f'<td>{escape(allowed)}</td><td>{escape(r["section"])}</td><td>{escape(r["doc"])}</td></tr>')
        table = ('<table class="rumino-knob-table" style="font:12px sans-serif;border-collapse:collapse">'
                 '<thead><tr><th>rule</th><th>value</th><th>allowed</th><th>RULES</th><th>meaning</th></tr></thead>'
                 f'<tbody>{"".join(rows)}</tbody></table>')
        return (f'<div style="font:bold 14px sans-serif">{escape(self.variant.title)} rules</div>'
                + self.status_html() + table)

    def status_html(self) -> str:
        if self.error:
            return error_html(self.error)
        n = len(self.changes())
        what = "the default rules" if n == 0 else f"{n} house rule{'s' if n != 1 else ''}"
        return (f'<div class="rumino-rules-ok" style="font:13px sans-serif;margin:4px 0">{what}: '
                f'<code>{escape(self.code())}</code></div>')


class KnobControl:
    """One knob's control: ``widget`` to display, ``value`` to read, ``on_change`` to hear edits."""

    def __init__(self, row: dict, value: Any, *, label: str | None = None):
        self.row = row
        self.kind = control_kind(row)
        name, doc = row["name"], row["doc"]
        tip = f"{doc} (RULES {row['section']})"
        common = dict(description=label or name, style={"description_width": "200px"}, tooltip=tip)
        fixed_choices = row["choices"] is not None and len(row["choices"]) == 1
        start = value if value is not None else self._first()
        if self.kind == "checkbox":
            self.main = W.Checkbox(value=bool(start), indent=True, **common)
        elif self.kind == "toggle":
            self.main = W.ToggleButtons(options=[(str(c), c) for c in row["choices"]], value=start, **common)
            self.main.style.button_width = "auto"
        elif self.kind == "dropdown":
            self.main = W.Dropdown(options=[(str(c), c) for c in row["choices"]], value=start,
                                   disabled=fixed_choices, **common)
        elif self.kind == "slider":
            self.main = W.IntSlider(value=start, min=row["low"], max=row["high"], continuous_update=False, **common)
        else:
            self.main = W.IntText(value=start, **common)
        self.unlimited = W.Checkbox(value=value is None, description="unlimited", indent=False,
                                    layout=W.Layout(width="110px")) if row["allow_none"] else None
        if self.unlimited is not None:
            self.main.disabled = value is None or fixed_choices
        note = f"{doc} (RULES {row['section']})"
        if self.kind == "number" and (row["low"] is not None or row["high"] is not None):
            note = f"{row['low']}–{row['high']}: " + note
        self.note = W.HTML(f'<span style="font-size:11px;color:#555">{escape(note)}</span>')
        parts = [self.main] + ([self.unlimited] if self.unlimited is not None else []) + [self.note]
        self.widget = W.HBox(parts)
        self.widget.add_class("rumino-knob")
        self.widget.add_class(f"rumino-knob-{name}")
        self._fixed = fixed_choices

    def _first(self):
        r = self.row
        if r["choices"] is not None:
            return r["choices"][0]
        return r["low"] if r["low"] is not None else 0

    @property
    def value(self) -> Any:
        if self.unlimited is not None and self.unlimited.value:
            return None
        return self.main.value

    def on_change(self, fn: Callable[[Any], None]) -> None:
        def changed(_change):
            if self.unlimited is not None:
                self.main.disabled = self.unlimited.value or self._fixed
            fn(self.value)

        self.main.observe(changed, names="value")
        if self.unlimited is not None:
            self.unlimited.observe(changed, names="value")


class RuleKnobs(StaticFallback, W.VBox):
    """The live form. ``rules`` is the current rules object (``None`` while the engine refuses it).

    >>> f = RuleKnobs("gin"); f.controls["knock_max_deadwood"].main.value = 5
    >>> f.rules.knock_max_deadwood, "GinRules(knock_max_deadwood=5)" in f.status.value
    (5, True)
    """

    def __init__(self, variant: str = "rumino", rules: Any = None, *, choose_variant: bool = True):
        self.controller = RuleKnobsController(variant, rules)
        self.variant_box = W.Dropdown(options=[(v.title, k) for k, v in VARIANTS.items()],
                                      value=self.controller.variant.key, description="variant")
        self.variant_box.layout.display = None if choose_variant else "none"
        self.reset_button = W.Button(description="Reset to defaults")
        self.status = W.HTML()
        self.status.add_class("rumino-rules-status")
        self.form = W.VBox()
        self.controls: dict[str, KnobControl] = {}
        self.variant_box.observe(lambda ch: self._load(ch["new"]), names="value")
        self.reset_button.on_click(lambda _b: self._load(self.controller.variant.key))
        self.controller.on_change(lambda _rules: self._show_status())
        super().__init__([W.HBox([self.variant_box, self.reset_button]), self.form, self.status])
        self.add_class("rumino-rule-knobs")
        self._build_form()

    @property
    def rules(self):
        return self.controller.rules

    def _load(self, variant: str) -> None:
        self.controller.load(variant)
        self._build_form()

    def _build_form(self) -> None:
        self.controls = {}
        for row in self.controller.rows:
            ctl = KnobControl(row, self.controller.values[row["name"]])
            ctl.on_change(lambda v, name=row["name"]: self.controller.set(name, v))
            self.controls[row["name"]] = ctl
        self.form.children = [c.widget for c in self.controls.values()]
        self._show_status()

    def _show_status(self) -> None:
        self.status.value = self.controller.status_html()

    def static_html(self) -> str:
        return self.controller.html()
