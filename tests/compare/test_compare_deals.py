"""The stored exact deal tables (rumino/compare/data/exact_deals.json), each checked by routes that
share nothing with the enumeration that wrote it: formulas, meld unions, and Monte Carlo within 4 SE."""

from __future__ import annotations

import json
from fractions import Fraction
from math import comb

import pytest

from rumino.cards import Pack
from rumino.compare.deals import STORE, signature, stored_distribution
from rumino.compare.matrix import Column
from rumino.compare.figures import dealt_hand_size, rumino_flags
from rumino.odds.exact import lay_union_counts, p_dealt_gin, rumino_count_closed_form
from rumino.odds.montecarlo import simulate_deals

ENTRIES = json.loads(STORE.read_text())["entries"]
RUMINO_COLUMNS = ["rumino"] + [f"rumino:n_jokers={n}" for n in (0, 1, 2, 3, 5, 6, 7, 8)]


def stored(column: str):
    col = Column.parse(column)
    return col, stored_distribution(col.rules.meld_rules, dealt_hand_size(col), rumino_flags(col))


def test_store_holds_gin_and_every_rumino_joker_count():
    sigs = {e["signature"] for e in ENTRIES}
    for column in ["gin", *RUMINO_COLUMNS]:
        col = Column.parse(column)
        assert signature(col.rules.meld_rules, dealt_hand_size(col), rumino_flags(col)) in sigs, column


@pytest.mark.parametrize("column", ["gin", *RUMINO_COLUMNS])
def test_stored_table_adds_up_by_jokers(column):
    col, d = stored(column)
    pack = col.rules.meld_rules.pack
    k = dealt_hand_size(col)
    assert d.deals() == comb(pack.size, k)
    for j in range(min(pack.jokers, k) + 1):
        assert d.deals(j) == comb(pack.jokers, j) * comb(52 * pack.decks, k - j)


@pytest.mark.parametrize("column", RUMINO_COLUMNS)
def test_stored_rumino_counts_match_the_closed_form(column):
    col, d = stored(column)
    expect = rumino_count_closed_form(7, col.rules.meld_rules.pack)
    assert d.rumino == {j: c for j, c in expect.items() if j in d.deadwood}


def test_stored_gin_matches_meld_unions():
    _, d = stored("gin")
    g, n = p_dealt_gin()
    assert d.p_gin() == Fraction(g, n) and d.classes == 671_225_412


def test_stored_two_joker_rumino_table_gin_by_lay_unions_and_mean_by_monte_carlo():
    """The non-default joker count, by two independent routes."""
    col, d = stored("rumino:n_jokers=2")
    assert col.rules.meld_rules.pack == Pack(decks=2, jokers=2)
    assert {j: d.counts(j).get(0, 0) for j in d.deadwood} == lay_union_counts(col.rules.meld_rules, 7)
    s = simulate_deals(col.variant, 40_000, 13, rules=col.rules)
    assert s.hist.pack_size == 106
    assert abs(s.mean_deadwood().z_score(d.mean())) < 4
    assert abs(s.p_can_knock().z_score(d.p_deadwood_at_most(7))) < 4
    for j in (0, 1):
        assert abs(s.mean_deadwood(j).z_score(d.mean(j))) < 4


def test_signature_ignores_the_name_but_not_the_values():
    gin, kr = Column.parse("gin"), Column.parse("knock-rummy")
    assert signature(gin.rules.meld_rules, 10, None) == signature(kr.rules.meld_rules, 10, None)
    w5 = Column.parse("wiener:joker_value=25")
    assert signature(w5.rules.meld_rules, 10, None) != signature(Column.parse("wiener").rules.meld_rules, 10, None)
