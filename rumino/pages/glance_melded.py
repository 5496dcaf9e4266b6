"""Pictures for the "at a glance" pages of the games with melds on the table, and their house-rule tables.

Two helpers, pure functions returning HTML text (the book wraps them in ``IPython.display.HTML``):

* :func:`table_html` draws a Rommé or Robber table meld by meld, numbered from 0 as the
  engine numbers them; given a :class:`~rumino.table.diff.TableDiff` it marks the cards a
  turn placed from the hand and the table cards it moved (outline pattern and a text
  badge, never colour alone, :func:`rumino.render.cards.marked_meld_html`);
* :func:`house_rule_rows` lists a rules class's knobs in a player's words (each knob's
  ``label`` and ``words``, :func:`rumino.engine.knobs.value_words`): the rule, what the
  engine plays by default, and what other tables play.

>>> from rumino.cards import parse_hand
>>> from rumino.melds import ROBBER_MELDS
>>> from rumino.table.melds import read_meld
>>> from rumino.table.diff import table_diff
>>> before = [read_meld(parse_hand("5c 6c 7c 8c 9c"), ROBBER_MELDS)]
>>> after = [read_meld(parse_hand(t), ROBBER_MELDS) for t in ("5c 6c 7c", "7c 8c 9c")]
>>> html = table_html(after, "after", diff=table_diff(before, after))
>>> html.count('class="rumino-marked-meld"'), html.count('data-mark="from hand"'), html.count('data-mark="moved"')
(2, 1, 2)
>>> from rumino.variants.robber import RobberRules
>>> [r for r in house_rule_rows(RobberRules) if r[0] == "Play with a discard pile"][0][1:3]
('place or draw one card', 'a Rommé turn with a discard')
"""

from __future__ import annotations

from html import escape
from typing import Any, Sequence

from rumino.render.cards import MeldLike, marked_meld_html, meld_description
from rumino.engine.knobs import knob_table, value_words

__all__ = ["table_html", "house_rule_rows"]

_SHOWN = {"from hand", "moved"}  # table_diff's "stayed" needs no mark


def table_html(melds: Sequence[MeldLike], title: str | None = None, *, diff: Any = None, scale: float = 0.5,
               empty: str = "the table is empty") -> str:
    """The table's melds, each boxed and numbered ``[0]``, ``[1]``, …, under an optional bold ``title``.

    ``diff`` (a :class:`~rumino.table.diff.TableDiff` whose ``after`` is ``melds``) marks each
    card placed from the hand this turn (solid outline, "+ from hand") and each table card
    that changed meld (dashed outline, "moved").

    >>> table_html([], "before anyone has opened").count("the table is empty")
    1
    """
    if diff is not None and tuple(diff.after) != tuple(melds):
        raise ValueError("table_html(melds, diff=...): the diff must describe these melds (its 'after')")
    blocks = []
    for i, m in enumerate(melds):
        marks = [k if k in _SHOWN else None for k in diff.marks[i]] if diff is not None else [None] * len(m.cards)
        # numbered from 0, as the engine's notation numbers them ("layoff 8h on 2")
        blocks.append(marked_meld_html(m, marks, scale=scale, caption=f"[{i}] {meld_description(m)}"))
    if not blocks:
        blocks.append(f'<div style="font:italic 13px sans-serif;color:#555;padding:6px">{escape(empty)}</div>')
    head = f'<div style="font:bold 13px sans-serif;margin:2px 0 4px">{escape(title)}</div>' if title else ""
    label = escape(title or "the table")
    body = "".join(blocks)
    return (f'<div class="rumino-table-melds" role="group" aria-label="{label}" style="margin:4px 0">'
            f'{head}<div style="display:flex;flex-wrap:wrap;align-items:flex-start">{body}</div></div>')


def house_rule_rows(rules_cls: type, rules: Any = None) -> list[tuple[str, str, str, str]]:
    """One row per knob of ``rules_cls``: (the rule, the engine's setting, other settings, rules section).

    The setting is ``rules``'s (by default the class's default); settings are in the knob's
    ``words`` (a number as itself), several separated by "; " (some words hold commas); a
    number knob's others read "any number from 1 to 10".

    >>> from rumino.variants.romme import RommeRules
    >>> row = [r for r in house_rule_rows(RommeRules) if r[0] == "Opening minimum"][0]
    >>> row
    ('Opening minimum', '40', '30; 35; 42; 50', '§3.4')
    """
    out = []
    for row in knob_table(rules_cls):
        value = row["default"] if rules is None else getattr(rules, row["name"])
        if row["choices"] is not None:
            others = "; ".join(value_words(row, c) for c in row["choices"]
                               if not (c == value and type(c) is type(value)))
        else:
            lo, hi = row["low"], row["high"]
            others = f"any number from {lo} to {hi:,}" if lo is not None and hi is not None else (
                f"any number from {lo}" if lo is not None else f"any number up to {hi}")
        out.append((row["label"], value_words(row, value), others, row["section"]))
    return out
