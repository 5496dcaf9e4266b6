"""The book's pages "What each house rule changes": one a game, written from the house-rule atlas.

The atlas (``rumino atlas``, ``book/data/house_rule_atlas.json``) sets every house rule of a game, one at
a time, to its other values and plays them on the same seeded deals as the default rules. A page turns
one game's part of it into two tables a card player reads: how long a game lasts, and what the rule does
to luck, to the first player and to the stakes. Each row is one setting of one rule; each cell is the
change from the default rules with its 95% interval.

An atlas makes many tests on one page (a rule, a value, a figure), so a change is marked as shown only
where its test holds after Holm's correction over every test of the game's page (:func:`holm_shown`);
the deal's share has a bootstrap interval and no p-value, so it is marked by its interval alone and the
page says so. The rows are sorted by the size of the change in the table's first column.

>>> three = {k: {"ci95": [0.1, 1.0], "p_value": p} for k, p in (("a", 0.01), ("b", 0.04), ("c", 0.03))}
>>> holm_shown(three)  # each alone is shown at 5%; corrected for three tests, only the first
{'a': True, 'b': False, 'c': False}
"""

from __future__ import annotations

import functools
import json
from pathlib import Path
from typing import Any

from rumino.engine.knobs import knob_table, value_words
from rumino.stats import ALPHA, holm
from rumino.variants import find_variant

LENGTH = ("minutes_a_game", "hands_a_game", "turns_a_hand")
"""The first table's figures, in its columns' order: how long a game lasts."""
PLAY = ("deal_share", "baseline_share", "first_seat_share", "points_a_hand")
"""The second table's figures: luck, the first player's edge and what a hand is worth."""
PERCENT = {"deal_share", "baseline_share", "first_seat_share"}  # shares: their changes in percentage points
SHOWN = "✔"  # marks a change the tests show (Holm-corrected); the page's legend says so
NONE = "none"  # a figure that came out the same on every deal: no interval is printed around a constant
UNMEASURED = "—"  # a figure with nothing to measure (the deal's share where no points change hands)


def _column_words(figure: str, baseline: str, unit: str) -> str:
    """A figure's column heading, in a card player's words (the change from the default)."""
    return {
        "minutes_a_game": "minutes a game",
        "hands_a_game": "hands a game",
        "turns_a_hand": "turns a hand",
        "deal_share": "the deal's share of the result (% pts)",
        "baseline_share": f"{baseline}'s hands against random (% pts)",
        "first_seat_share": "the first player's hands (% pts)",
        "points_a_hand": f"{unit} a hand",
    }[figure]


def _number(x: float, digits: int) -> str:
    """``x`` with a true minus sign and a plus sign on a positive change (0.0 bare)."""
    text = f"{abs(x):.{digits}f}"
    if float(text) == 0:
        return text
    return ("−" if x < 0 else "+") + text


def change_text(difference: dict, percent: bool, shown: bool) -> str:
    """One cell: the change with its interval, marked when shown (``"**−4.6 [−5.1, −4.1]** ✔"``), or
    :data:`NONE` where every deal came out the same under both rules.

    >>> change_text({"estimate": -0.0275, "ci95": [-0.12, 0.065]}, True, False)
    '−2.8 [−12.0, +6.5]'
    >>> change_text({"estimate": 0.0, "ci95": [0.0, 0.0]}, False, False)
    'none'
    """
    if difference is None:
        return UNMEASURED
    if difference["estimate"] == 0 and difference["ci95"] == [0, 0]:
        return NONE
    scale, digits = (100, 1) if percent else (1, 2 if abs(difference["estimate"]) < 1 else 1)
    lo, hi = difference["ci95"]
    text = (f"{_number(difference['estimate'] * scale, digits)} "
            f"[{_number(lo * scale, digits)}, {_number(hi * scale, digits)}]")
    return f"**{text}** {SHOWN}" if shown else text


def holm_shown(differences: dict[Any, dict]) -> dict[Any, bool]:
    """Which differences are shown once Holm's correction is made over all of them that have a p-value
    (each also needs its interval to leave out 0); one without a p-value (a bootstrap interval) is shown
    by its interval alone."""
    keyed = [(k, d) for k, d in differences.items() if d is not None and d.get("p_value") is not None]
    adjusted = dict(zip((k for k, _ in keyed), holm([d["p_value"] for _, d in keyed])))
    out = {}
    for k, d in differences.items():
        if d is None:  # not measured: nothing to show
            out[k] = False
            continue
        lo, hi = d["ci95"]
        leaves_out_zero = lo > 0 or hi < 0
        out[k] = leaves_out_zero and (adjusted[k] < ALPHA if k in adjusted else True)
    return out


def _default_text(figure: str, estimate: dict) -> str:
    """A figure of the default rules, as the sentence above the tables says it."""
    if estimate is None:
        return "not measured"
    lo, hi = estimate["ci95"]
    if lo == hi == estimate["estimate"]:  # the same on every deal: no interval around a constant
        return (f"{lo:.1%}" if figure in PERCENT else f"{lo:.1f}") + " (the same on every deal)"
    if figure in PERCENT:
        return f"{estimate['estimate']:.1%} [{lo:.1%}, {hi:.1%}]"
    return f"{estimate['estimate']:.1f} [{lo:.1f}, {hi:.1f}]"


PROJECT_ATLAS = Path(__file__).resolve().parents[2] / "book" / "data" / "house_rule_atlas.json"


@functools.lru_cache(maxsize=1)
def project_atlas() -> dict | None:
    """The project's committed atlas (``book/data/house_rule_atlas.json``), or None where the package runs
    without the book beside it (an installed copy)."""
    try:
        return json.loads(PROJECT_ATLAS.read_text(encoding="utf-8"))
    except (OSError, ValueError):
        return None


def _baseline_words(atlas: dict, game: str) -> str:
    return "greedy" if atlas["settings"]["baseline"][game] == "greedy" else "the default bot"


def _unit(game: str) -> str:
    return "chips" if find_variant(game).tally == "chips" else "points"


def _marks(atlas: dict, game: str) -> dict[tuple[str, str, str], bool]:
    """Every measured change of a game, ``(knob, value's key, figure)``, and whether the page marks it
    (Holm over the page's tests, :func:`holm_shown`)."""
    tests = {(name, key, f): d for name, knob in atlas["games"][game]["knobs"].items()
             for key, value in knob.get("values", {}).items()
             if "skipped" not in value and not value.get("same_play")
             for f, d in value["differences"].items() if f in LENGTH + PLAY}
    return holm_shown(tests)


def measured_answer(atlas: dict | None, game: str, knob: str, a: Any, b: Any) -> dict | None:
    """What the atlas measured for B − A, where one of the two is the game's default and the other a value
    the atlas played; None where it has no such answer.

    Returns ``{"value", "default", "deals", "seed", "same_play", "rows": [(figure words, cell), ...]}``,
    each cell as the book's page writes it (marked where the page marks it), the sign turned for A − B.

    >>> measured_answer(project_atlas(), "gin", "knock_max_deadwood", 10, 20)["rows"][0]
    ('minutes a game', '**−10.7 [−12.1, −9.4]** ✔')
    """
    if atlas is None or game not in atlas.get("games", {}):
        return None
    entry = atlas["games"][game]["knobs"].get(knob)
    if entry is None or "values" not in entry:
        return None
    default = entry["default"]
    for key, value in entry["values"].items():
        if "skipped" in value:
            continue
        if a == default and value["value"] == b:
            sign = 1
        elif b == default and value["value"] == a:
            sign = -1
        else:
            continue
        out = {"value": value["value"], "default": default, "deals": value["deals"],
               "seed": atlas["settings"]["seed"], "same_play": bool(value.get("same_play")), "rows": []}
        if out["same_play"]:
            return out
        marks = _marks(atlas, game)
        baseline, unit = _baseline_words(atlas, game), _unit(game)
        for f in LENGTH + PLAY:
            d = value["differences"][f]
            turned = None if d is None else {"estimate": sign * d["estimate"],
                                             "ci95": sorted(sign * x for x in d["ci95"])}
            out["rows"].append((_column_words(f, baseline, unit), change_text(turned, f in PERCENT,
                                                                             marks[(knob, key, f)])))
        return out
    return None


def measured_values(atlas: dict | None, game: str, knob: str) -> list:
    """The values of ``knob`` the atlas played against the default (none where it has no atlas)."""
    if atlas is None or game not in atlas.get("games", {}):
        return []
    entry = atlas["games"][game]["knobs"].get(knob, {})
    return [v["value"] for v in entry.get("values", {}).values() if "skipped" not in v]


def page_markdown(atlas: dict, game: str) -> str:
    """The page of ``game`` (a registry key) from an atlas's contents, as MyST Markdown."""
    variant = find_variant(game)
    part = atlas["games"][game]
    settings = atlas["settings"]
    baseline, unit = _baseline_words(atlas, game), _unit(game)
    rows = {row["name"]: row for row in knob_table(variant.rules_class)}

    measured, unchanged, skipped = [], [], []  # measured: (the row's words, its marks' keys, its differences)
    for name, knob in part["knobs"].items():
        if "skipped" in knob:
            skipped.append(f"{knob['label']} (rules {knob['section']}): {knob['skipped']}.")
            continue
        for key, value in knob["values"].items():
            said = f"{knob['label']}: {value_words(rows[name], value['value'])}"
            if "skipped" in value:
                skipped.append(f"{said}: {value['skipped']}.")
            elif value.get("same_play"):
                unchanged.append(said)
            else:
                measured.append((f"{said} (rules {knob['section']})", (name, key), value["differences"]))
    marks = _marks(atlas, game)
    n_tests = sum(1 for _, _, diffs in measured for f, d in diffs.items()
                  if f in LENGTH + PLAY and d is not None and d.get("p_value") is not None)

    default = part["default"]["figures"]
    unmeasured = default["deal_share"] is None  # no points change hands (Robber Rummy's default rules)
    lines = [
        f"(house-rules-{game})=",
        f"# What each house rule changes: {variant.title}",
        "",
        f"Each house rule of {variant.title} was set, one at a time, to each of its other values and played "
        f"on the same {settings['deals']:,} deals (seed {settings['seed']}) as the default rules, two players "
        f"a table. A whole game is played with {baseline} in both seats for its length; one hand with "
        f"{baseline} in both seats for the first player's share and what a hand is worth; and one hand of "
        f"{baseline} against a player who chooses at random, twice with the seats swapped, for {baseline}'s "
        f"edge and the deal's share of the result (how much the cards decide). The minutes are at the book's "
        f"pace (see [Which game for me?](../00_which_game_for_me.ipynb)).",
        "",
        f"Under the default rules (estimates with their 95% intervals) a game lasts "
        f"{_default_text('minutes_a_game', default['minutes_a_game'])} "
        f"minutes, {_default_text('hands_a_game', default['hands_a_game'])} hands of "
        f"{_default_text('turns_a_hand', default['turns_a_hand'])} turns; "
        + (f"the deal's share is {_default_text('deal_share', default['deal_share'])}, "
           if not unmeasured else "")
        + f"{baseline} takes "
        f"{_default_text('baseline_share', default['baseline_share'])} of the hands against random, the "
        f"player who plays first {_default_text('first_seat_share', default['first_seat_share'])} of the "
        f"hands ({baseline} in both seats), "
        + (f"and a hand is worth {_default_text('points_a_hand', default['points_a_hand'])} {unit}."
           if not unmeasured else "and no points change hands: the winner wins, so the deal's share of the "
           "result, which measures how much the cards decide the points, has nothing to measure "
           f"(\"{UNMEASURED}\" below, where a house rule scores no points either)."),
        "",
        f"Each cell is the change from the default rules, estimate and 95% interval, measured deal by deal "
        f"(the same cards under both rules); a share's change is in percentage points. A change marked "
        f"{SHOWN}, in bold, is shown by its test after Holm's correction over the {n_tests:,} tests of this "
        f"page; the deal's share has no test (its interval comes from resampling the deals), so there the "
        f"mark means only that its interval leaves out 0. An unmarked change may still be real: "
        f"{settings['deals']:,} deals did not show it. \"{NONE}\" means the figure came out the same on "
        f"every deal under both rules.",
        "",
    ]
    for heading, figures in (("How long a game lasts", LENGTH),
                             ("Luck, the first player and the stakes", PLAY)):
        # the first column whose changes are measured and not all nil (Robber's deal's share never is)
        first = next((f for f in figures if any(d[f] and d[f]["estimate"] for _, _, d in measured)), figures[0])
        order = sorted(range(len(measured)),
                       key=lambda i: (-abs((measured[i][2][first] or {"estimate": 0})["estimate"]), measured[i][0]))
        lines += [f"## {heading}", "",
                  f"Sorted by the size of the change in {_column_words(first, baseline, unit)}.", "",
                  "| house rule | " + " | ".join(_column_words(f, baseline, unit) for f in figures) + " |",
                  "| :-- | " + " | ".join("--:" for _ in figures) + " |"]
        for i in order:
            said, (name, key), diffs = measured[i]
            cells = [change_text(diffs[f], f in PERCENT, marks[(name, key, f)]) for f in figures]
            lines.append(f"| {said} | " + " | ".join(cells) + " |")
        lines.append("")
    if unchanged:
        lines += ["## Rules that change nothing here", "",
                  "These settings played every deal exactly as the default rules did, at two players: a rule "
                  "for a larger table, or one that scores only what these figures do not count.", ""]
        lines += [f"- {u}" for u in unchanged] + [""]
    if skipped:
        lines += ["## Not measured", ""] + [f"- {s}" for s in skipped] + [""]
    return "\n".join(lines)
