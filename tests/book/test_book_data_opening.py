"""The saved 10^8-deal opening odds that the Rommé chapter reads (book/data/romme_opening_1e8.json).

The file is the output of ``rumino odds opening --variant romme --samples 100000000 --seed 1 --json``
(and the same with ``--cards 14``): too long to rerun in a test, so its figures are checked against
each other and against exact values instead. The chapter itself checks its own 10^6-deal runs against
the file every time the book is built.
"""

from __future__ import annotations

import json
from math import comb
from pathlib import Path

import pytest

from rumino.odds.opening import THRESHOLDS
from rumino.stats import wilson_interval
from rumino.variants.romme import ROMME

DATA = Path(__file__).resolve().parents[2] / "book" / "data" / "romme_opening_1e8.json"
RUNS = json.loads(DATA.read_text(encoding="utf-8"))["runs"]


@pytest.mark.parametrize("cards", ["13", "14"])
def test_saved_run_is_the_documented_command(cards):
    r = RUNS[cards]
    assert (r["variant"], r["samples"], r["seed"], r["cards"]) == ("romme", 10**8, 1, int(cards))
    assert r["opening_min"] == ROMME.opening_min and r["pack_size"] == ROMME.meld_rules.pack.size
    assert sorted(map(int, r["thresholds"])) == list(THRESHOLDS)


@pytest.mark.parametrize("cards", ["13", "14"])
def test_saved_figures_agree_with_each_other(cards):
    r = RUNS[cards]
    n, p = r["samples"], r["probability"]
    assert p["successes"] / n == pytest.approx(p["estimate"], abs=1e-12)
    assert p["ci95"] == pytest.approx(list(wilson_interval(p["successes"], n)), abs=1e-12)
    assert r["thresholds"][str(r["opening_min"])]["estimate"] == p["estimate"]
    by = r["by_jokers"]
    assert sum(b["n"] for b in by.values()) == n                       # every deal has a joker count
    assert sum(b["n"] * b["estimate"] for b in by.values()) == pytest.approx(p["successes"], abs=0.5)
    ests = [r["thresholds"][str(m)]["estimate"] for m in THRESHOLDS]
    assert ests == sorted(ests, reverse=True)                           # a higher minimum opens less


@pytest.mark.parametrize("cards", ["13", "14"])
def test_saved_joker_counts_match_the_hypergeometric_law(cards):
    """The deals' joker counts against the exact law of j jokers among ``cards`` of 110 with 6 jokers."""
    r = RUNS[cards]
    n, k = r["samples"], int(cards)
    pack, jokers = ROMME.meld_rules.pack.size, ROMME.meld_rules.pack.jokers
    for j, b in r["by_jokers"].items():
        exact = comb(jokers, int(j)) * comb(pack - jokers, k - int(j)) / comb(pack, k)
        se = (exact * (1 - exact) / n) ** 0.5
        assert abs(b["n"] / n - exact) < 5 * se + 1e-9, (j, b["n"] / n, exact)
