"""The rule settings (knobs) every game's rules are made of, and the ones the games share, written once.

A rules field is a :func:`knob`: its default, the rules section that sets it, the values it may take and
a player's words for it, in ``field(metadata=...)`` next to its default, so the rule, its range and its
section are written in one place (the widgets' RuleKnobs form, the rules matrix, the records' schema and
the book read the same metadata). Each rules dataclass calls :func:`check_knobs` from ``__post_init__``.

The knobs of the common rules (rules §0), which several games' rules share, are made here once:
:func:`stock_exhausted` (§0.4), :func:`may_rediscard_pickup` and :func:`pickup_bars_twin` (§0.5).
"""

from __future__ import annotations

import dataclasses
from typing import Any

from rumino.console import parse_whole
from rumino.errors import RuleConfigError


def knob(default: Any, *, section: str, label: str, choices: tuple | None = None, low: int | None = None,
         high: int | None = None, doc: str = "", allow_none: bool = False,
         words: dict[Any, str] | None = None) -> Any:
    """A rules field: its default, where the rules set it, the values it may take, and how a player says it.

    ``label`` names the rule as a card player would ("Knock limit", never the field's name) and ``doc``
    says what it does; ``words`` gives a player's words for each choice that is not a plain number
    (``{"dealer11": "the dealer takes 11 and discards first"}``). Forms, the rules matrix and the book
    read these, so a rule is worded once.

    >>> import dataclasses
    >>> @dataclasses.dataclass(frozen=True)
    ... class Toy:
    ...     ace: str = knob("low", section="§1.2", label="Ace", choices=("low", "high"),
    ...                     words={"low": "low only", "high": "high only"}, doc="where the ace ranks")
    >>> row = knob_table(Toy)[0]
    >>> row["label"], value_words(row, "high")
    ('Ace', 'high only')
    """
    meta = {"section": section, "choices": choices, "low": low, "high": high, "doc": doc, "allow_none": allow_none,
            "label": label, "words": dict(words or {})}
    return dataclasses.field(default=default, metadata=meta)


def value_words(row: dict, value: Any) -> str:
    """A knob's value in a player's words: its ``words`` entry, else yes/no, unlimited or the number.

    >>> value_words({"words": {}, "allow_none": True}, None), value_words({"words": {}}, True)
    ('unlimited', 'yes')
    """
    for key, text in (row.get("words") or {}).items():
        if key == value and type(key) is type(value):  # True == 1, yet a 1 must not read True's words
            return text
    if value is None:
        return "unlimited"
    if isinstance(value, bool):
        return "yes" if value else "no"
    return str(value)


def _one_of(words: list[str]) -> str:
    return words[0] if len(words) == 1 else ", ".join(words[:-1]) + " or " + words[-1]


def _span(lo: int | None, hi: int | None) -> str:
    if lo is not None and hi is not None:
        return f" from {lo:,} to {hi:,}"
    return f" of at least {lo:,}" if lo is not None else (f" of at most {hi:,}" if hi is not None else "")


def knob_refusal(meta: Any, value: Any) -> str | None:
    """Why ``value`` is not allowed for the knob described by ``meta`` (a field's metadata), in a player's
    words, or None when it is allowed.

    >>> from rumino.variants import find_variant
    >>> meta = {f.name: f.metadata for f in dataclasses.fields(find_variant("gin").rules_class)}
    >>> knob_refusal(meta["knock_max_deadwood"], -1)
    'Knock limit: -1 is not allowed; it must be a whole number from 0 to 100 (rules §6).'
    """
    if value is None and meta["allow_none"]:
        return None
    row = {"words": meta["words"], "allow_none": meta["allow_none"]}
    kinds = {type(c) for c in meta["choices"]} if meta["choices"] is not None else {int}
    shown = value_words(row, value) if type(value) in kinds else repr(value)  # a wrong type: as Python wrote it
    where = f"{meta['label']}: {shown} is not allowed"
    if meta["choices"] is not None:
        if value not in meta["choices"] or (isinstance(value, bool) != isinstance(meta["choices"][0], bool)):
            allowed = _one_of([value_words(row, c) for c in meta["choices"]])
            return f"{where}; it must be {allowed} (rules {meta['section']})."
    elif meta["low"] is not None or meta["high"] is not None:
        if isinstance(value, bool) or not isinstance(value, int):
            return f"{where}; it must be a whole number (rules {meta['section']})."
        lo, hi = meta["low"], meta["high"]
        if (lo is not None and value < lo) or (hi is not None and value > hi):
            return f"{where}; it must be a whole number{_span(lo, hi)} (rules {meta['section']})."
    return None


def check_knobs(obj: Any) -> None:
    """Raise :class:`RuleConfigError` naming, in a player's words, the first rule whose value is out of range.

    >>> from rumino.variants import find_variant
    >>> find_variant("gin").with_rules(knock_max_deadwood=-1)
    Traceback (most recent call last):
    ...
    rumino.errors.RuleConfigError: Knock limit: -1 is not allowed; it must be a whole number from 0 to 100 (rules §6).
    """
    for f in dataclasses.fields(obj):
        if "section" in f.metadata:
            why = knob_refusal(f.metadata, getattr(obj, f.name))
            if why is not None:
                raise RuleConfigError(why)


def knob_table(cls: type) -> list[dict]:
    """The knobs of a rules class as rows: name, default, allowed values, rules section, label, words."""
    rows = []
    for f in dataclasses.fields(cls):
        if "section" in f.metadata:
            m = f.metadata
            rows.append({"name": f.name, "default": f.default, "choices": m["choices"], "low": m["low"],
                         "high": m["high"], "section": m["section"], "doc": m["doc"],
                         "allow_none": m["allow_none"], "label": m["label"], "words": m["words"]})
    return rows


def parse_knob_value(cls: type, name: str, text: str) -> Any:
    """Turn ``KEY=VALUE`` text from the command line into a field value of ``cls``.

    Raises :class:`RuleConfigError` naming the key and what it accepts.
    """
    fields = {f.name: f for f in dataclasses.fields(cls) if "section" in f.metadata}
    if name not in fields:
        raise RuleConfigError(
            f"there is no rule {name!r} in this game; its rules are: {', '.join(sorted(fields))}.")
    meta = fields[name].metadata
    t = text.strip()
    if meta["allow_none"] and t.lower() in ("none", "unlimited"):
        return None
    if meta["choices"] is not None:
        for c in meta["choices"]:
            if str(c).lower() == t.lower():
                return c
        raise RuleConfigError(
            f"the rule {name!r} cannot be {text!r}: it must be {_one_of([str(c) for c in meta['choices']])}.")
    try:
        value = parse_whole(t)  # the digits 0-9 only: int() would read '1_0' as 10 and '٥' as 5
    except ValueError:
        none = " (or 'none')" if meta["allow_none"] else ""
        raise RuleConfigError(
            f"the rule {name!r} cannot be {text!r}: it must be a whole number{_span(meta['low'], meta['high'])}"
            f"{none}.") from None
    why = knob_refusal(meta, value)
    if why is not None:  # out of range: the refusal names the rule as typed, then as a player says it
        raise RuleConfigError(f"{name}={t}: {why}")
    return value


# ------------------------------------------------------------------ the knobs of the common rules (rules §0)


def stock_exhausted(doc: str = "what happens when the stock runs out") -> Any:
    """Rules §0.4: what happens when the stock runs out (default: the discards are reshuffled into a new stock);
    ``doc`` says it as the game's own rules do."""
    return knob("reshuffle", section="§0.4", choices=("reshuffle", "void_hand", "end_and_score"),
                label="When the stock runs out",
                words={"reshuffle": "reshuffle the discards", "void_hand": "the hand is void",
                       "end_and_score": "the hand ends and is scored"},
                doc=doc)


def may_rediscard_pickup() -> Any:
    """Rules §0.5: may a card taken from the discard pile go straight back onto it (default: no)."""
    return knob(False, section="§0.5", choices=(False, True), label="Discard the card just taken",
                doc="may a card taken from the discard pile go straight back onto it")


def pickup_bars_twin() -> Any:
    """Rules §0.5, two decks: is the identical card of the other deck barred too that turn (default: no)."""
    return knob(False, section="§0.5", choices=(False, True), label="Its twin barred too",
                doc="the identical card of the other deck may not be discarded that turn either")


__all__ = ["knob", "value_words", "check_knobs", "knob_table", "parse_knob_value", "stock_exhausted",
           "may_rediscard_pickup", "pickup_bars_twin"]
