"""TableRearrangement: a Robber Rummy table before and after the solver's best move.

The reader types (or picks from seeded examples) the table as melds and a hand;
the controller asks the engine — :func:`rumino.table.diff.rearrangement`, i.e. the
exact solver :func:`rumino.table.solver.solve_table` and the card-by-card diff — and shows

* the table **before**, each card that will change meld marked "moves",
* the table **after**, each card marked "moved" (a table card now in another meld) or
  "from hand" (placed this turn), by an outline pattern *and* a text badge, with the
  mark in the card's accessible name and tooltip (never by colour alone),
* every joker with the card it stands for, before and after,
* the hand left, the value (or number of cards) placed, and the move in words.

Bad input shows the engine's message, naming the input (``table: …``, ``hand: …``).

>>> c = TableRearrangementController("5c 6c 7c 8c 9c", "7c")
>>> from rumino.cards import format_hand
>>> c.result.solution.placed == c.result.diff.placed, format_hand(c.result.diff.moved)
(True, '8c 9c')
>>> c.set_position("5c 6c 11c", "7c"); c.error
"table: '11c' is not a card: the rank '11' is not one of A 2 3 4 5 6 7 8 9 10 J Q K."
"""

from __future__ import annotations

from html import escape

import ipywidgets as W

from rumino.engine.words import card_symbols
from rumino.cards import format_hand
from rumino.errors import RuminoError
from rumino.render.cards import MARK_STYLES, hand_html, marked_meld_html
from rumino.table.diff import FROM_HAND, MOVED, Rearrangement, rearrangement
from rumino.engine.melded import MeldedGame
from rumino.variants import VARIANTS, find_variant

from rumino_widgets._base import StaticFallback, error_html, facts_html, info_html

# Seeded positions: the two seed examples of rules §4.5, a joker freed by its natural card, a hand that fits
# nowhere.
EXAMPLES: dict[str, tuple[str, str]] = {
    "rules §4.5.1: split a run for a second 7♣": ("5c 6c 7c 8c 9c", "7c"),
    "rules §4.5.2: the joker moves to a new run": ("5d 6d 7d | 5s 6s JK", "5c 6h 9d"),
    # both eights are needed to fill the set, so the joker has one place left: the example shows what it
    # says under every route (with "7h JK(8h) 9h 10h" the joker could also end the run, a tie)
    "a natural 8♥ takes the joker's place, 8♣ fills the set; the joker joins the queens":
        ("8s 8d JK(8h) | Qs Qd Qc", "8h 8c"),
    "nothing fits: draw instead": ("5c 6c 7c 8c 9c", "Kd 2h"),
}
OWN = ""  # the example list's entry for a position the reader typed (None would show as no selection)

def tabled_games(first: str) -> list[str]:
    """The games whose melds lie on the table (the meld rules differ slightly), ``first`` first.

    >>> tabled_games("robber")
    ['robber', 'romme']
    """
    keys = [k for k, v in VARIANTS.items() if v.game is not None and issubclass(v.game, MeldedGame)]
    return sorted(keys, key=lambda k: k != first)


class TableRearrangementController:
    """A position (table text, hand text) and the solver's best move on it, without any widget."""

    def __init__(self, table: str = "5c 6c 7c 8c 9c", hand: str = "7c", *, variant: str = "robber",
                 rules=None, most_cards: bool = False):
        self.variant = find_variant(variant)
        self.rules = self.variant.rules if rules is None else rules
        self.most_cards = bool(most_cards)
        self.table_text, self.hand_text = table, hand
        self.result: Rearrangement | None = None
        self.error: str | None = None
        self._solve()

    def _solve(self) -> None:
        try:
            self.result = rearrangement(self.table_text, self.hand_text, self.rules.meld_rules,
                                        most_cards=self.most_cards)
            self.error = None
        except RuminoError as err:  # the engine's message, naming the input and the reason
            self.result, self.error = None, str(err)

    def set_position(self, table: str, hand: str) -> None:
        self.table_text, self.hand_text = str(table), str(hand)
        self._solve()

    def load_example(self, name: str) -> None:
        if name not in EXAMPLES:
            self.result, self.error = None, f"no example {name!r}: choose one of {'; '.join(EXAMPLES)}."
            return
        self.set_position(*EXAMPLES[name])

    def set_most_cards(self, most_cards: bool) -> None:
        self.most_cards = bool(most_cards)
        self._solve()

    def set_variant(self, variant: str, rules=None) -> None:
        self.variant = find_variant(variant)
        self.rules = self.variant.rules if rules is None else rules
        self._solve()

    # ------------------------------------------------------------------ views

    def facts(self) -> list[tuple[str, str]]:
        r = self.result
        if r is None:
            return []
        s, d = r.solution, r.diff
        unit = "cards placed" if self.most_cards else "value placed"
        return [("placed", format_hand(s.placed, unicode=True) or "nothing"), (unit, str(s.value)),
                ("table cards moved", str(len(d.moved))),
                ("melds", f"{len(d.before)} → {len(d.after)}")]

    def legend_html(self) -> str:
        items = []
        for mark, meaning in ((FROM_HAND, "placed from the hand this turn"),
                              (MOVED, "a table card now in another meld (before the move: “moves”)")):
            outline, symbol = MARK_STYLES[mark]
            items.append(f'<span style="display:inline-block;margin-right:14px"><span style="display:inline-block;'
                         f'width:14px;height:14px;border:{outline};border-radius:3px;vertical-align:middle">'
                         f'</span> <b>{escape(symbol)} {escape(mark)}</b>: {escape(meaning)}</span>')
        items.append('<span style="display:inline-block">★ = a joker, with the card it stands for</span>')
        return f'<div class="rumino-legend" style="font:12px sans-serif;margin:4px 0">{"".join(items)}</div>'

    def _table_block(self, title: str, melds, marks, cls: str) -> str:
        body = "".join(marked_meld_html(m, ks, index=i) for i, (m, ks) in enumerate(zip(melds, marks), 1)) \
            or info_html("(no melds on the table)")
        return (f'<section class="{cls}" aria-label="{escape(title)}" style="margin:4px 0">'
                f'<div style="font:bold 13px sans-serif;margin:2px 0">{escape(title)}</div>{body}</section>')

    def html(self) -> str:
        """Everything the view shows, as static HTML."""
        head = (f'<div style="font:bold 14px sans-serif">{escape(self.variant.title)}: the best rearrangement '
                f'(exact solver)</div>')
        if self.error:
            return head + error_html(self.error)
        r = self.result
        d, s = r.diff, r.solution
        parts = [head, hand_html(r.hand, scale=0.6, caption="hand: " + (format_hand(r.hand, unicode=True)
                                                                          or "(empty)"))]
        parts.append(self._table_block("table before", d.before,
                                       [[None if k == "stays" else k for k in ks] for ks in d.before_marks],
                                       "rumino-table-before"))
        if not s.placed:
            parts.append(info_html("Nothing from this hand can be placed: every table card must stay in a valid "
                                   "meld (rules §4.3), so the player draws instead."))
        else:
            parts.append(self._table_block("table after", d.after,
                                           [[None if k == "stayed" else k for k in ks] for ks in d.marks],
                                           "rumino-table-after"))
        left = s.hand_left
        left_text = "hand left: " + (format_hand(left, unicode=True) or "(none)")
        parts.append(f'<div class="rumino-hand-left">{hand_html(left, scale=0.6, caption=left_text)}</div>')
        parts.append(facts_html(self.facts()))
        if s.placed:
            parts.append(self.legend_html())
            lines = "".join(f"<li>{escape(card_symbols(x))}</li>" for x in d.describe())  # cards as on the table
            parts.append(f'<ol class="rumino-move-words" style="font:12px sans-serif;margin:2px 0">{lines}</ol>')
        parts.append(info_html("The player is taken to have opened (rules §4.3); jokers stay on the table."))
        return "".join(parts)


class TableRearrangement(StaticFallback, W.VBox):
    """The live view: pick an example or type a table and a hand; the solver's move is shown before and after.

    >>> w = TableRearrangement()
    >>> "from hand" in w.output.value and w.controller.result.solution.value
    7
    """

    def __init__(self, table: str = "5c 6c 7c 8c 9c", hand: str = "7c", *, variant: str = "robber",
                 rules=None, most_cards: bool = False):
        c = self.controller = TableRearrangementController(table, hand, variant=variant, rules=rules,
                                                             most_cards=most_cards)
        start = next((k for k, v in EXAMPLES.items() if v == (table, hand)), OWN)
        self.example_box = W.Dropdown(options=[("(your own)", OWN)] + [(k, k) for k in EXAMPLES], value=start,
                                      description="example", layout=W.Layout(width="560px"))
        self.table_box = W.Text(value=table, description="table", continuous_update=False,
                                placeholder="melds split by |, e.g. 5d 6d 7d | 5s 6s JK(7s)",
                                layout=W.Layout(width="560px"))
        self.hand_box = W.Text(value=hand, description="hand", continuous_update=False,
                               placeholder="e.g. 5c 6h 9d (JK for a joker)", layout=W.Layout(width="560px"))
        self.variant_box = W.ToggleButtons(options=[(find_variant(k).title, k) for k in tabled_games(c.variant.key)],
                                           value=c.variant.key, description="melds of")
        self.objective_box = W.ToggleButtons(options=[("most value", False), ("most cards", True)],
                                             value=c.most_cards, description="place")
        self.output = W.HTML()
        self.output.add_class("rumino-rearrangement-output")
        for box, name in ((self.example_box, "example"), (self.table_box, "table-text"), (self.hand_box, "hand-text"),
                          (self.variant_box, "melds-of"), (self.objective_box, "objective")):
            box.add_class(f"rumino-{name}")
        self.example_box.observe(self._on_example, names="value")
        self.table_box.observe(self._on_text, names="value")
        self.hand_box.observe(self._on_text, names="value")
        self.variant_box.observe(lambda ch: self._do(lambda: c.set_variant(ch["new"])), names="value")
        self.objective_box.observe(lambda ch: self._do(lambda: c.set_most_cards(ch["new"])), names="value")
        super().__init__([self.example_box, self.table_box, self.hand_box,
                          W.HBox([self.variant_box, self.objective_box]), self.output])
        self.add_class("rumino-table-rearrangement")
        self._refresh()

    def _on_example(self, change):
        if change["new"] == OWN:
            return
        self._syncing = True
        try:
            self.table_box.value, self.hand_box.value = EXAMPLES[change["new"]]
        finally:
            self._syncing = False
        self._do(lambda: self.controller.load_example(change["new"]))

    def _on_text(self, _change):
        if getattr(self, "_syncing", False):
            return
        c = self.controller
        if (self.table_box.value, self.hand_box.value) != (c.table_text, c.hand_text):
            if self.example_box.value != OWN and EXAMPLES[self.example_box.value] != \
                    (self.table_box.value, self.hand_box.value):
                self.example_box.value = OWN
            self._do(lambda: c.set_position(self.table_box.value, self.hand_box.value))

    def _do(self, fn):
        fn()
        self._refresh()

    def _refresh(self):
        self.output.value = self.controller.html()

    def static_html(self) -> str:
        return self.controller.html()


__all__ = ["TableRearrangement", "TableRearrangementController", "EXAMPLES"]
