"""RuleKnobs: a form generated from a variant's rules dataclass.

Each field's metadata (``rumino.engine.knobs.knob_table``) picks its
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
(True, 'Buy-in: 0 is not allowed; it must be a whole number from 1 to 1,000,000 (rules §1.5).')
"""

from __future__ import annotations

import re
from html import escape
from typing import Any, Callable

import ipywidgets as W

from rumino.errors import RuminoError
from rumino.variants import VARIANTS, Variant, find_variant
from rumino.compare.matrix import TOPICS, house_rule_words, knob_topic
from rumino.engine.knobs import knob_table, value_words

from rumino_widgets._base import StaticFallback, error_html

SLIDER_MAX_SPAN = 200  # wider integer ranges get a number box


TOGGLE_MAX_WORDS = 44  # two or three choices whose words fit on one row of buttons; longer ones get a menu
LABEL_WIDTH = "270px"  # every label fits (the rules' labels are at most 36 characters: tests/engine)
CONTROL_WIDTH = "680px"  # label and control: a slider's track is about 300 px
ROW_CONTROL_WIDTH = "800px"  # the control and an "unlimited" box, so that the notes line up


def control_kind(row: dict) -> str:
    """Which control a knob row gets: checkbox, toggle, dropdown, slider or number.

    >>> rows = {r["name"]: r for r in knob_table(find_variant("rumino").rules_class)}
    >>> [control_kind(rows[n]) for n in ("triple_gin_wins", "set_suits", "stock_exhausted", "knock_max_deadwood", "stake")]
    ['checkbox', 'toggle', 'dropdown', 'slider', 'number']
    """
    choices = row["choices"]
    if choices is not None:
        if set(choices) == {True, False} and all(isinstance(c, bool) for c in choices):
            return "checkbox"
        if 2 <= len(choices) <= 3 and sum(len(value_words(row, c)) for c in choices) <= TOGGLE_MAX_WORDS:
            return "toggle"
        return "dropdown"
    lo, hi = row["low"], row["high"]
    if lo is not None and hi is not None and hi - lo <= SLIDER_MAX_SPAN:
        return "slider"
    return "number"


PACK_NOTE = re.compile(r"\s*\(\d+ jokers?: \d+ cards\)")  # the rules' doc names the default's pack


def knob_note(row: dict, value: Any, cls: Any = None) -> str:
    """What a knob does, said for the value it has now.

    A rules doc such as "jokers shuffled in with the two decks (4 jokers: 108 cards)" names the
    default's pack, which is wrong beside any other count; the note names the pack of ``value``
    instead (read from the rules ``cls`` builds with it), or, without ``cls``, no pack at all.

    >>> row = {r["name"]: r for r in knob_table(find_variant("rumino").rules_class)}["n_jokers"]
    >>> knob_note(row, 0, find_variant("rumino").rules_class)
    'jokers shuffled in with the two decks: 0 jokers, 104 cards'
    >>> knob_note(row, 1, find_variant("rumino").rules_class), knob_note(row, 8)
    ('jokers shuffled in with the two decks: 1 joker, 105 cards', 'jokers shuffled in with the two decks')
    """
    doc = row["doc"]
    if row["name"] != "n_jokers":
        return doc
    doc = PACK_NOTE.sub("", doc)
    if cls is None or not isinstance(value, int):
        return doc
    try:
        pack = cls(**{row["name"]: value}).meld_rules.pack
    except RuminoError:  # a count these rules refuse: the form shows the engine's message instead
        return doc
    return f"{doc}: {value} joker{'s' if value != 1 else ''}, {pack.size} cards"


def group_rows(rows: list[dict]) -> list[tuple[str, list[dict]]]:
    """The knobs under their topics (the rules matrix's), in the matrix's order of topics.

    >>> [t for t, _ in group_rows(knob_table(find_variant("gin").rules_class))]
    ['Turn and table', 'Ending a hand', 'Scoring', 'Game and elimination']
    """
    by_topic: dict[str, list[dict]] = {}
    for r in rows:
        by_topic.setdefault(knob_topic(r["name"]), []).append(r)
    return [(t, by_topic[t]) for t in TOPICS if t in by_topic]


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
            self.error = f"there is no rule {name!r} in this game; its rules are: {', '.join(self.values)}."
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
            allowed = (" | ".join(value_words(r, c) for c in r["choices"]) if r["choices"] is not None
                       else f"{r['low']:,}–{r['high']:,}")
            if r["allow_none"]:
                allowed += " | unlimited"
            style = "font-weight:bold;background:#fff5cc" if name in changed else ""
            rows.append(f'<tr style="{style}"><td>{escape(r["label"])}</td><td>{escape(value_words(r, v))}</td>'
                        f'<td>{escape(allowed)}</td><td>{escape(r["section"])}</td>'
                        f'<td>{escape(knob_note(r, v, self.cls))}</td></tr>')
        table = ('<table class="rumino-knob-table" style="font:12px sans-serif;border-collapse:collapse">'
                 '<thead><tr><th>rule</th><th>value</th><th>allowed</th><th>rules</th><th>meaning</th></tr></thead>'
                 f'<tbody>{"".join(rows)}</tbody></table>')
        return (f'<div style="font:bold 14px sans-serif">{escape(self.variant.title)} rules</div>'
                + self.status_html() + table)

    def status_html(self) -> str:
        if self.error:
            return error_html(self.error)
        changed = self.changes()
        n = len(changed)
        what = "the default rules" if n == 0 else (
            f"{n} house rule{'s' if n != 1 else ''}: "
            + "; ".join(house_rule_words(self.variant, k, v) for k, v in changed.items()))
        return f'<div class="rumino-rules-ok" style="font:13px sans-serif;margin:4px 0">{escape(what)}</div>'


class KnobControl:
    """One knob's control: ``widget`` to display, ``value`` to read, ``on_change`` to hear edits.

    The row reads label | control | what the rule does: the label is the rule's own (never the field's
    name) in a column wide enough for every label, a slider's track is 300 px or more, and a choice
    shows its words ("the dealer takes 11 and discards first", not ``dealer11``).
    """

    def __init__(self, row: dict, value: Any, *, label: str | None = None, cls: Any = None):
        self.row = row
        self.cls = cls  # the rules class, for a note that follows the value (knob_note); None: a fixed note
        self.kind = control_kind(row)
        name, doc = row["name"], knob_note(row, value, cls)
        tip = f"{knob_note(row, None)} (rules {row['section']})"
        text = label or row["label"]
        common = dict(description=text, style={"description_width": LABEL_WIDTH}, tooltip=tip)
        fixed_choices = row["choices"] is not None and len(row["choices"]) == 1
        start = value if value is not None else self._first()
        options = [(value_words(row, c), c) for c in row["choices"]] if row["choices"] is not None else None
        wide = W.Layout(width=CONTROL_WIDTH)
        if self.kind == "checkbox":
            # the label sits to the right of the box, after a spacer as wide as the other rows' labels
            self.main = W.Checkbox(value=bool(start), indent=True, layout=wide, **common)
        elif self.kind == "toggle":
            # ToggleButtons put their description above the buttons: the label is drawn beside them instead
            self.main = W.ToggleButtons(options=options, value=start, tooltip=tip)
            self.main.style.button_width = "auto"
        elif self.kind == "dropdown":
            self.main = W.Dropdown(options=options, value=start, disabled=fixed_choices, layout=wide, **common)
        elif self.kind == "slider":
            self.main = W.IntSlider(value=start, min=row["low"], max=row["high"], continuous_update=False,
                                    layout=wide, **common)
        else:
            self.main = W.IntText(value=start, layout=W.Layout(width="420px"), **common)
        self.unlimited = W.Checkbox(value=value is None, description="unlimited", indent=False,
                                    layout=W.Layout(width="110px")) if row["allow_none"] else None
        if self.unlimited is not None:
            self.main.disabled = value is None or fixed_choices
        self.note = W.HTML(self._note_html(value),
                           layout=W.Layout(flex="1 1 240px", min_width="200px", margin="0 0 0 12px"))
        self.note.add_class("rumino-knob-note")
        if cls is not None and knob_note(row, value, cls) != knob_note(row, None):  # the note names the value
            self.main.observe(lambda _ch: setattr(self.note, "value", self._note_html(self.value)), names="value")
        first = [self.main]
        self.caption = None  # the label drawn beside the buttons, for toggles
        if self.kind == "toggle":
            caption = self.caption = W.HTML(f'<div style="text-align:right;padding-right:8px;font-size:13px">{escape(text)}</div>',
                             layout=W.Layout(width=LABEL_WIDTH, flex="0 0 auto"))
            caption.add_class("rumino-knob-label")
            first = [caption, self.main]
        if self.unlimited is not None:
            first.append(self.unlimited)
        # every row's control part is as wide, so the notes line up in one column
        control = W.HBox(first, layout=W.Layout(width=ROW_CONTROL_WIDTH, flex="0 0 auto", align_items="center"))
        self.widget = W.HBox([control, self.note],
                             layout=W.Layout(align_items="center", flex_flow="row wrap", width="100%"))
        self.widget.add_class("rumino-knob")
        self.widget.add_class(f"rumino-knob-{name}")
        self._fixed = fixed_choices

    def _note_html(self, value: Any) -> str:
        row = self.row
        note = f"{knob_note(row, value, self.cls)} (rules {row['section']})"
        if self.kind == "number" and (row["low"] is not None or row["high"] is not None):
            note = f"{row['low']}–{row['high']}: " + note
        return f'<span style="font-size:12px;color:#444;line-height:1.3">{escape(note)}</span>'

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
    >>> f.rules.knock_max_deadwood, "1 house rule: knock limit: 5" in f.status.value
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
        children = []
        for topic, rows in group_rows(self.controller.rows):
            heading = W.HTML(f'<div style="font:600 14px sans-serif;margin:10px 0 2px;border-bottom:1px solid #ccc">'
                             f'{escape(topic)}</div>', layout=W.Layout(width="100%"))
            heading.add_class("rumino-knob-topic")
            children.append(heading)
            for row in rows:
                ctl = KnobControl(row, self.controller.values[row["name"]], cls=self.controller.cls)
                ctl.on_change(lambda v, name=row["name"]: self.controller.set(name, v))
                self.controls[row["name"]] = ctl
                children.append(ctl.widget)
        self.form.children = children
        self._show_status()

    def _show_status(self) -> None:
        self.status.value = self.controller.status_html()

    def static_html(self) -> str:
        return self.controller.html()
