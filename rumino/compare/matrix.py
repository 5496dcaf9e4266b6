"""The rules matrix: every game (or one game under several house rules) side by side.

Nothing here is written by hand about any one game. Each column is a variant
from the registry with a rules object; the rows are read from that object:

* the pack, the players and the deal from the :class:`~rumino.variants.Variant`
  and the rules (a ``hand_size`` or ``n_jokers`` knob wins over the default);
* sets, runs, jokers and card values from the rules' :class:`~rumino.melds.MeldRules`
  (Rummoli has none: it has no melds);
* every house-rule knob under its topic (how a hand ends, scoring, the game,
  money), by the knob's own label, with its value in the knob's own words.

So a knob moved in a column changes that column's cell, and a knob added to a
rules dataclass appears here without an edit (the tests check both).

>>> m = rules_matrix(["gin", "rumino:knock_max_deadwood=5"])
>>> m.labels
['Gin Rummy', 'Rumino (knock limit: 5)']
>>> m.cell("Pack", 0), m.cell("Pack", 1)
('52 cards: 1 deck and no jokers', '108 cards: 2 decks and 4 jokers')
>>> "knock limit: 5" in m.cell("Ending a hand", 1)
True
"""

from __future__ import annotations

import dataclasses
import html
from dataclasses import dataclass
from typing import Any, Sequence

from rumino.errors import RuleConfigError
from rumino.variants import Variant, find_variant
from rumino.engine.knobs import knob_table, parse_knob_value, value_words

# The topic of each house-rule knob, by name. A name shared by several games
# (knock_max_deadwood, elimination_at …) is classified once. A knob missing
# here lands under "Other house rules"; a test fails until it is classified.
KNOB_TOPICS: dict[str, str] = {
    # the deal
    "deal_mode": "Deal", "hand_size": "Deal", "hand_size_5_6p": "Deal", "cut_joker_robbing": "Deal",
    "widow_deal_position": "Deal", "n_jokers": "Deal",
    # melds
    "max_lay_size": "Melds", "set_suits": "Melds", "ace": "Melds", "min_naturals_per_lay": "Melds",
    "rumino_natural_only": "Melds", "joker_rules": "Melds",
    # a turn and the table
    "may_rediscard_pickup": "Turn and table", "discard_pickup_rule": "Turn and table",
    "pickup_counts_for_opening": "Turn and table", "opening_min": "Turn and table",
    "joker_exchange": "Turn and table", "freed_joker_use": "Turn and table", "discard_pile": "Turn and table",
    "illegal_manipulation_penalty": "Turn and table", "out_of_turn_claim_priority": "Turn and table",
    "pass_when_stock_empty": "Turn and table",
    "stock_exhausted": "Turn and table", "widow_paycard_restriction": "Turn and table",
    "widow_auction": "Turn and table", "colour_change_rule": "Turn and table", "manual_claims": "Turn and table",
    "pickup_bars_twin": "Turn and table",
    # how a hand ends
    "knock_max_deadwood": "Ending a hand", "knock_max": "Ending a hand", "knock_zero_is_gin": "Ending a hand",
    "extra_turn_after_knock": "Ending a hand", "dealer_opening_ends": "Ending a hand", "must_discard_to_go_out": "Ending a hand",
    "hand_romme_condition": "Ending a hand", "void_at_stock": "Ending a hand", "poker_method": "Ending a hand",
    "wall_knock": "Ending a hand", "reshuffle_limit": "Ending a hand",
    # scoring
    "gin_bonus": "Scoring", "undercut_bonus": "Scoring", "knock_undercut_penalty": "Scoring",
    "joker_penalty": "Scoring", "ace_penalty": "Scoring", "ace_value": "Scoring", "joker_value": "Scoring",
    "hand_romme_multiplier": "Scoring", "winner_collects_sum": "Scoring", "scoring": "Scoring",
    "rummy_bonus": "Scoring", "knock_penalty": "Scoring", "spades_double": "Scoring",
    # the game
    "elimination_at": "Game and elimination", "game_to": "Game and elimination",
    "game_end": "Game and elimination", "triple_gin_wins": "Game and elimination",
    "allow_new_entrants": "Game and elimination", "final_sweep": "Game and elimination",
    "buyback_low": "Game and elimination", "buyback_target": "Game and elimination",
    "rebuy_requires_others": "Game and elimination", "game_bonus": "Game and elimination",
    "box_bonus": "Game and elimination", "rounds": "Game and elimination", "short_ante": "Game and elimination",
    # money and chips
    "stake": "Money and chips", "rebuy_price": "Money and chips", "entry_chips": "Money and chips",
    "buyback_chips": "Money and chips", "rummy_call_money": "Money and chips",
    "knock_money_to_pot": "Money and chips", "initial_chips": "Money and chips", "bet_size": "Money and chips",
    "raise_cap": "Money and chips",
}
TOPICS = ("Deal", "Melds", "Turn and table", "Ending a hand", "Scoring", "Game and elimination",
          "Money and chips", "Other house rules")
# rows every column has, before the knob topics
FIXED_ROWS = ("Pack", "Players", "Cards dealt", "Sets", "Runs", "Jokers in melds", "Card values")
# What a plain number of a knob counts, so a cell reads "game to: 100 points", not "game to: 100". Like
# KNOB_TOPICS this is by knob name, shared by every game that has the knob.
UNITS: dict[str, str] = {
    **dict.fromkeys(("gin_bonus", "undercut_bonus", "knock_undercut_penalty", "game_to", "game_bonus", "box_bonus",
                     "rummy_bonus", "knock_penalty", "elimination_at", "buyback_low", "joker_penalty",
                     "ace_penalty", "ace_value", "joker_value", "opening_min"), "points"),
    **dict.fromkeys(("entry_chips", "buyback_chips", "initial_chips", "bet_size"), "chips"),
    "rummy_call_money": "chips from each player", "stake": "(currency units)",
}
# bonuses and penalties that may be switched off: 0 reads "none"
NONE_AT_ZERO = ("gin_bonus", "undercut_bonus", "knock_undercut_penalty", "game_bonus", "box_bonus", "rummy_bonus",
                "knock_penalty")
ACE_WORDS = {"low": "ace low only (A-2-3)", "high": "ace high only (Q-K-A)",
             "both": "ace low or high, not K-A-2", "around": "ace low, high or around the corner (K-A-2)"}


@dataclass(frozen=True)
class Column:
    """One column of a comparison: a variant under some rules, with a label a reader can tell apart."""

    variant: Variant
    rules: Any
    label: str

    @classmethod
    def parse(cls, text: str) -> "Column":
        """``"wiener"`` or ``"rumino:knock_max_deadwood=5,stake=20"`` (house rules after a colon).

        >>> Column.parse("rumino:knock_max_deadwood=5").rules.knock_max_deadwood
        5
        >>> Column.parse("rumino:knock_max_deadwood")
        Traceback (most recent call last):
        ...
        rumino.errors.RuleConfigError: house rule 'knock_max_deadwood' in column 'rumino:knock_max_deadwood' has no value: write KEY=VALUE, for example knock_max_deadwood=5.
        >>> Column.parse("rumino:knock_max_deadwood=5,knock_max_deadwood=6")
        Traceback (most recent call last):
        ...
        rumino.errors.RuleConfigError: house rule 'knock_max_deadwood' is given twice in column 'rumino:knock_max_deadwood=5,knock_max_deadwood=6': give it once.
        """
        name, _, knobs = str(text).partition(":")
        if not name.strip():  # find_variant('') quoted '' instead of what was typed
            raise RuleConfigError(f"column {text!r} names no game before the colon: write GAME or "
                                  f"GAME:KEY=VALUE, for example rumino:knock_max_deadwood=5.")
        variant = find_variant(name)
        changes: dict[str, Any] = {}
        for item in filter(None, (k.strip() for k in knobs.split(","))):
            key, eq, value = item.partition("=")
            if not eq:
                raise RuleConfigError(f"house rule {key!r} in column {text!r} has no value: write KEY=VALUE, "
                                      f"for example {key}=5.")
            key = key.strip()
            if not key:
                raise RuleConfigError(f"house rule {item!r} in column {text!r} has no name before the '=': write "
                                      f"KEY=VALUE, for example knock_max_deadwood=5.")
            if key in changes:  # the last would silently win
                raise RuleConfigError(f"house rule {key!r} is given twice in column {text!r}: give it once.")
            changes[key] = parse_knob_value(variant.rules_class, key, value)
        rules = dataclasses.replace(variant.rules, **changes) if changes else variant.rules
        label = variant.title + (f" ({'; '.join(house_rule_words(variant, k, v) for k, v in changes.items())})"
                                 if changes else "")
        return cls(variant, rules, label)

    @classmethod
    def of(cls, item: Column | str | tuple[str, Any]) -> "Column":
        if isinstance(item, Column):
            return item
        if isinstance(item, tuple):  # (variant name, rules object)
            variant = find_variant(item[0])
            if type(item[1]) is not variant.rules_class:
                raise RuleConfigError(f"rules {type(item[1]).__name__} do not belong to {variant.title}: "
                                      f"it takes {variant.rules_class.__name__}.")
            changed = [house_rule_words(variant, f.name, getattr(item[1], f.name)) for f in dataclasses.fields(item[1])
                       if "label" in f.metadata and getattr(item[1], f.name) != getattr(variant.rules, f.name)]
            return cls(variant, item[1], variant.title + (f" ({'; '.join(changed)})" if changed else ""))
        return cls.parse(item)


def _row(v: Variant, name: str) -> dict:
    return next(row for row in knob_table(v.rules_class) if row["name"] == name)


def knob_words(row: dict, value: Any) -> str:
    """One house rule as a player says it: the knob's label, then its value in words and in its unit.

    >>> gin = find_variant("gin")
    >>> knob_words(_row(gin, "game_to"), 100), knob_words(_row(gin, "box_bonus"), 0)
    ('game to: 100 points', 'box bonus: none')
    >>> knob_words(_row(find_variant("rumino"), "gin_bonus"), -10)
    'gin bonus: 10 points off the score (low scores win)'
    >>> knob_words(_row(gin, "void_at_stock"), 2)
    'hand void at: 2 cards left in the stock'
    """
    name, label = row["name"], lower_first(row["label"])
    worded = any(k == value and type(k) is type(value) for k in (row.get("words") or {}))
    if name == "void_at_stock" and not worded:  # "hand void at: 2" says too little
        return f"{label}: {'an empty stock' if value == 0 else f'{value} cards left in the stock'}".replace(
            "1 cards", "1 card")
    if name == "wall_knock" and not worded:  # Gin's "wall": the last stock cards before the hand is void
        return f"a last knock on the final discard: {value_words(row, value)}"
    if isinstance(value, int) and not isinstance(value, bool) and not worded:
        if value == 0 and name in NONE_AT_ZERO:
            return f"{label}: none"
        if value < 0 and name == "gin_bonus":  # a penalty-points game: the bonus comes off the score
            return f"{label}: {-value} points off the score (low scores win)"
        if name in UNITS:
            unit = UNITS[name]
            if value == 1 and unit.split()[0] in ("chips", "points"):  # 1 chip, 1 point
                unit = unit.replace("chips", "chip", 1).replace("points", "point", 1)
            return f"{label}: {value} {unit}"
    return f"{label}: {value_words(row, value)}"


def house_rule_words(v: Variant, name: str, value) -> str:
    """A house rule as a player says it: the knob's label and the value in words.

    >>> house_rule_words(find_variant("wiener"), "deal_mode", "upcard")
    'the deal: 10 each and an upcard'
    """
    return knob_words(_row(v, name), value)


def lower_first(label: str) -> str:
    """``"Knock limit"`` -> ``"knock limit"`` for use inside a sentence (``"DSkV"`` stays)."""
    return label[:1].lower() + label[1:] if label[1:2].islower() or label[1:2] in (" ", "-") else label


def knob_topic(name: str) -> str:
    return KNOB_TOPICS.get(name, "Other house rules")


def _fixed_cells(col: Column) -> dict[str, str]:
    v, r = col.variant, col.rules
    mr = r.meld_rules
    pack = mr.pack if mr is not None else v.pack
    lo, hi = v.players
    cells = {
        "Pack": f"{pack.size} cards: {pack.describe()}",
        "Players": f"{lo}" if lo == hi else f"{lo} to {hi}",
    }
    if v.hand_size == 0:
        cells["Cards dealt"] = "all 52, among the players and a widow"
    else:
        size = getattr(r, "hand_size", v.hand_size)
        cells["Cards dealt"] = f"{size} each" if isinstance(size, int) else value_words(_row(v, "hand_size"), size)
        extra = _dealer_cards(v, r, lo)
        if isinstance(size, int) and extra is not None and extra != size:
            cells["Cards dealt"] += f", the dealer {extra}"  # Wiener's dealer takes 11, Rommé's 14
    if mr is None:
        for row in ("Sets", "Runs", "Jokers in melds", "Card values"):
            cells[row] = "none (no melds)"
        return cells
    # two decks hold twin cards (two 7♥), which a set of "any suits" may hold; one deck has no twins
    suits = ("all suits different" if mr.set_suits == "distinct" else
             "any suits, twin cards allowed" if pack.decks > 1 else "any suits")
    cells["Sets"] = f"{mr.min_meld} to {mr.max_set} cards of one rank, {suits}"
    cells["Runs"] = f"{mr.min_meld} to {mr.max_run} cards in suit, {ACE_WORDS[mr.ace]}"
    if pack.jokers == 0:
        cells["Jokers in melds"] = "no jokers"
    else:
        parts = [f"at least {mr.min_naturals} natural card{'s' if mr.min_naturals != 1 else ''} a meld"]
        if mr.max_jokers_per_meld is not None:
            parts.append(f"at most {mr.max_jokers_per_meld} joker{'s' if mr.max_jokers_per_meld != 1 else ''} a meld")
        if mr.max_adjacent_jokers is not None:
            parts.append(f"at most {mr.max_adjacent_jokers} side by side")
        if mr.adjacent_jokers_min_run:
            parts.append(f"two side by side only in runs of {mr.adjacent_jokers_min_run}+")
        cells["Jokers in melds"] = "; ".join(parts)
    cells["Card values"] = (f"ace {mr.ace_value}, 2 to 10 face value, J Q K {mr.face_value}"
                            + (f", joker {mr.joker_value}" if pack.jokers else ""))
    return cells


def _dealer_cards(v: Variant, rules, players: int) -> int | None:
    """How many cards the engine deals the dealer at the smallest table (None: no engine)."""
    if v.game is None:
        return None
    game = v.game.new(rules, players, seed=0)
    dealer = getattr(game, "dealer", None)
    hands = getattr(game, "hands", None)
    return len(hands[dealer]) if dealer is not None and hands is not None else None


def _knob_cells(col: Column) -> dict[str, str]:
    by_topic: dict[str, list[str]] = {}
    for row in knob_table(col.variant.rules_class):
        value = getattr(col.rules, row["name"])
        by_topic.setdefault(knob_topic(row["name"]), []).append(knob_words(row, value))
    return {topic: "; ".join(items) for topic, items in by_topic.items()}


@dataclass
class RulesMatrix:
    """Rows by columns of plain text; ``to_text``, ``to_json`` and ``to_html`` render it."""

    labels: list[str]
    rows: list[str]
    cells: list[list[str]]  # cells[row][column]

    def cell(self, row: str, column: int) -> str:
        return self.cells[self.rows.index(row)][column]

    def to_json(self) -> dict:
        return {"columns": self.labels,
                "rows": [{"row": row, "cells": cells} for row, cells in zip(self.rows, self.cells)]}

    def to_text(self, width: int = 38) -> str:
        import textwrap

        head = width // 2
        out = [" " * head + " | " + " | ".join(label[:width].ljust(width) for label in self.labels)]
        out.append("-" * len(out[0]))
        for row, cells in zip(self.rows, self.cells):
            wrapped = [textwrap.wrap(c, width) or ["—"] for c in cells]
            label = textwrap.wrap(row, head)
            for k in range(max(len(label), *map(len, wrapped))):
                left = (label[k] if k < len(label) else "").ljust(head)
                out.append(left + " | " + " | ".join((w[k] if k < len(w) else "").ljust(width) for w in wrapped))
            out.append("")
        return "\n".join(out).rstrip() + "\n"

    def to_html(self) -> str:
        """A plain, accessible table (header cells with scope) for the book and the widgets."""
        e = html.escape
        head = "".join(f'<th scope="col">{e(label)}</th>' for label in self.labels)
        body = "".join(
            f'<tr><th scope="row">{e(row)}</th>' + "".join(f"<td>{e(c) or '—'}</td>" for c in cells) + "</tr>"
            for row, cells in zip(self.rows, self.cells))
        return ('<table class="rumino-matrix"><caption>The rules side by side</caption>'
                f'<thead><tr><th scope="col">rule</th>{head}</tr></thead><tbody>{body}</tbody></table>')

    def _repr_html_(self) -> str:
        return self.to_html()


def rules_matrix(columns: Sequence) -> RulesMatrix:
    """The rules matrix of ``columns``: names such as ``"wiener"`` or ``"rumino:knock_max_deadwood=5"``,
    :class:`Column` objects, or ``(variant name, rules)`` pairs."""
    cols = [Column.of(c) for c in columns]
    if not cols:
        raise RuleConfigError("a rules matrix needs at least one column (a variant name).")
    fixed = [_fixed_cells(c) for c in cols]
    knobs = [_knob_cells(c) for c in cols]
    rows = list(FIXED_ROWS) + [t for t in TOPICS if any(t in k for k in knobs)]
    cells = [[(f if r in FIXED_ROWS else k).get(r, "") for f, k in zip(fixed, knobs)] for r in rows]
    return RulesMatrix([c.label for c in cols], rows, cells)


__all__ = ["Column", "RulesMatrix", "rules_matrix", "KNOB_TOPICS", "TOPICS", "UNITS", "knob_topic", "knob_words"]
