"""The book's pages "What each house rule changes" (``book/house_rules/``), one a game of the atlas.

* each page is exactly what :func:`rumino.pages.atlas.page_markdown` writes from the committed atlas
  (``book/data/house_rule_atlas.json``), so every number on it is the atlas's, and the table of contents
  lists every page;
* a change is marked only where its test holds after Holm's correction over the page's tests, and an
  interval is never printed around a figure that was the same on every deal;
* the rows are in the order the page says (the size of the change in the first column).

The pages are written by ``python tests/book/test_book_atlas_pages.py --write``.
"""

from __future__ import annotations

import json
import re
import sys
from pathlib import Path

import pytest

from rumino.pages.atlas import LENGTH, NONE, SHOWN, change_text, holm_shown, page_markdown
from rumino.stats import holm

ROOT = Path(__file__).resolve().parents[2]
ATLAS = ROOT / "book" / "data" / "house_rule_atlas.json"
PAGES = ROOT / "book" / "house_rules"


def atlas() -> dict:
    return json.loads(ATLAS.read_text(encoding="utf-8"))


def write_pages() -> list[str]:
    """Write every game's page from the atlas; return the pages that changed."""
    PAGES.mkdir(exist_ok=True)
    changed = []
    data = atlas()
    for game in data["games"]:
        path = PAGES / f"{game}.md"
        text = page_markdown(data, game)
        if not path.exists() or path.read_text(encoding="utf-8") != text:
            path.write_text(text, encoding="utf-8")
            changed.append(path.name)
    return changed


@pytest.mark.parametrize("game", sorted(atlas()["games"]))
def test_each_page_is_the_atlas_s_own(game):
    path = PAGES / f"{game}.md"
    assert path.exists(), f"no page for {game}: python tests/book/test_book_atlas_pages.py --write"
    assert path.read_text(encoding="utf-8") == page_markdown(atlas(), game), \
        f"{path.name} differs from the atlas: python tests/book/test_book_atlas_pages.py --write"


def test_the_table_of_contents_lists_every_page():
    toc = (ROOT / "book" / "_toc.yml").read_text(encoding="utf-8")
    for game in atlas()["games"]:
        assert f"file: house_rules/{game}\n" in toc


def test_holm_marks_fewer_than_each_test_alone_and_never_a_change_whose_interval_holds_zero():
    diffs = {("v", f): d for game in atlas()["games"].values() for knob in game["knobs"].values()
             for value in knob.get("values", {}).values() for f, d in value.get("differences", {}).items()
             if f in LENGTH}
    diffs = dict(list(diffs.items())[:200])
    shown = holm_shown(diffs)
    keyed = [k for k, d in diffs.items() if d["p_value"] is not None]
    adjusted = dict(zip(keyed, holm([diffs[k]["p_value"] for k in keyed])))
    for k, d in diffs.items():
        if shown[k]:
            assert d["ci95"][0] > 0 or d["ci95"][1] < 0
            assert adjusted[k] < 0.05
    alone = sum(1 for d in diffs.values() if d["shown"])
    assert sum(shown.values()) <= alone


def test_holm_on_a_family_of_three():
    tests = {"a": {"ci95": [0.1, 1.0], "p_value": 0.01}, "b": {"ci95": [0.1, 1.0], "p_value": 0.04},
             "c": {"ci95": [0.1, 1.0], "p_value": 0.03}, "d": {"ci95": [0.2, 0.3], "p_value": None}}
    # Holm: 3 × 0.01 = 0.03 shown; then 2 × 0.03 = 0.06 and 0.06 not; "d" has no test: its interval decides
    assert holm_shown(tests) == {"a": True, "b": False, "c": False, "d": True}


def test_a_constant_figure_has_no_interval_and_a_shown_one_is_bold():
    assert change_text({"estimate": 0, "ci95": [0, 0]}, True, False) == NONE
    shown = change_text({"estimate": -4.625, "ci95": [-5.11, -4.14]}, False, True)
    assert shown == f"**−4.6 [−5.1, −4.1]** {SHOWN}"
    assert change_text({"estimate": 0.05557, "ci95": [-0.0248, 0.148]}, True, False) == "+5.6 [−2.5, +14.8]"


CELL = re.compile(r"^\| (.+?) \| (.+?) \|")


def _first_column(text: str, heading: str) -> list[str]:
    section = text.split(f"## {heading}\n", 1)[1].split("\n## ", 1)[0]
    return [m.group(2) for line in section.splitlines() if (m := CELL.match(line)) and not line.startswith("| :--")
            and not line.startswith("| house rule")]


def _size(cell: str) -> float:
    if cell == NONE:
        return 0.0
    return abs(float(cell.strip("*").split(" ")[0].replace("−", "-").replace("+", "")))


@pytest.mark.parametrize("game", ["gin", "rummoli"])
def test_rows_are_sorted_by_the_first_column(game):
    text = page_markdown(atlas(), game)
    for heading in ("How long a game lasts", "Luck, the first player and the stakes"):
        sizes = [_size(c) for c in _first_column(text, heading)]
        assert sizes and sizes == sorted(sizes, reverse=True), (game, heading, sizes)


def test_gin_s_page_says_what_the_atlas_measured():
    text = page_markdown(atlas(), "gin")
    # the default's game lasts the atlas's minutes; the knock limit at 20 shortens it, shown
    minutes = atlas()["games"]["gin"]["default"]["figures"]["minutes_a_game"]["estimate"]
    assert f"a game lasts {minutes:.1f} [" in text
    assert "| Knock limit: 20 (rules §6) | **−10.7 [−12.1, −9.4]** ✔ |" in text
    assert "- Knock at the wall: yes" in text  # a two-player table plays it exactly as the default
    # no field names (the page's label and a link's address are not shown)
    assert "_" not in re.sub(r"\]\([^)]*\)", "]", text.replace("(house-rules-gin)=", ""))


def test_robber_s_page_says_no_points_change_hands_and_measures_no_deal_s_share():
    text = page_markdown(atlas(), "robber")
    assert "no points change hands" in text and "1.0 (the same on every deal) hands" in text
    luck = text.split("## Luck, the first player and the stakes\n", 1)[1].split("\n## ", 1)[0]
    rows = [line for line in luck.splitlines()
            if line.startswith("| ") and not line.startswith(("| house rule", "| :--"))]
    # no change of the deal's share can be measured from a default that has none; Rommé's penalties
    # are the one rule under which points change hands
    assert rows and all(line.split(" | ")[1] == "—" for line in rows)
    assert "| Scoring: Rommé penalties (rules §4.4) | — | none | none | **+16.7 [+15.0, +18.4]** ✔ |" in rows


if __name__ == "__main__":  # python tests/book/test_book_atlas_pages.py --write
    if sys.argv[1:] == ["--write"]:
        print("rewrote:", ", ".join(write_pages()) or "nothing")
