"""rumino.table.diff: the marks of a rearrangement, checked against rules §4.5 and a brute-force matching."""

from __future__ import annotations

from collections import Counter
from itertools import permutations

import numpy as np
import pytest

from rumino.cards import format_hand, parse_hand
from rumino.errors import IllegalActionError, InvalidCardError, InvalidMeldError
from rumino.melds import ROBBER_MELDS
from rumino.table.solver import arrange_table, random_position
from rumino.table.diff import FROM_HAND, MOVED, MOVES, STAYED, STAYS, read_table, rearrangement, table_diff
from rumino.table.melds import check_rearrangement
from rumino.table.melds import read_meld


def _melds(*texts):
    return tuple(read_meld(parse_hand(t), ROBBER_MELDS) for t in texts)


def _marked(diff, mark):
    return sorted(c for m, ks in zip(diff.after, diff.marks) for c, k in zip(m.cards, ks) if k == mark)


def test_rules_4_5_1_the_second_7c_splits_the_run():
    r = rearrangement("5c 6c 7c 8c 9c", "7c", ROBBER_MELDS)
    d = r.diff
    assert [str(m) for m in d.after] == ["5c 6c 7c", "7c 8c 9c"]
    assert format_hand(_marked(d, FROM_HAND)) == "7c" and format_hand(d.moved) == "8c 9c"
    assert d.source == (0, None)
    assert d.before_marks == ((STAYS, STAYS, STAYS, MOVES, MOVES),)


def test_rules_4_5_2_the_joker_moves_without_an_exchange():
    r = rearrangement("5d 6d 7d | 5s 6s JK", "5c 6h 9d", ROBBER_MELDS)
    d = r.diff
    assert sorted(str(m) for m in d.after) == ["5s 5c 5d", "6s 6d 6h", "7d JK(8d) 9d"]
    assert tuple(_marked(d, FROM_HAND)) == r.solution.placed == tuple(sorted(parse_hand("5c 6h 9d")))
    run = next(m for m in d.after if m.kind == "run")
    i = d.after.index(run)
    joker = run.cards.index(52)
    assert run.stands_for[joker] == parse_hand("8d")[0] and d.marks[i][joker] == MOVED  # it left 5s 6s JK(7s)
    assert d.source[i] is None  # a new meld


def test_an_untouched_meld_is_unchanged_and_nothing_placed_marks_nothing():
    d = table_diff(_melds("5s 6s 7s", "9h 9c 9d"), _melds("5s 6s 7s 8s", "9h 9c 9d"))
    assert d.marks == ((STAYED,) * 3 + (FROM_HAND,), (STAYED,) * 3) and d.unchanged(1) and not d.unchanged(0)
    r = rearrangement("5c 6c 7c 8c 9c", "Kd 2h", ROBBER_MELDS)
    assert r.solution.placed == () and r.diff.after == r.diff.before and r.diff.moved == ()
    assert all(k == STAYED for ks in r.diff.marks for k in ks)


def test_a_card_leaving_the_table_is_refused_with_the_rule():
    with pytest.raises(IllegalActionError, match=r"§4.3 \(ii\)"):
        table_diff(_melds("5s 6s 7s 8s"), _melds("5s 6s 7s"))


def _brute_stayed(before, after) -> int:
    """The most table cards that can keep their meld: every injective matching of after- to before-melds."""
    a = [Counter(m.cards) for m in after]
    b = [Counter(m.cards) for m in before] + [Counter()] * len(after)  # unmatched = matched to an empty meld
    best = 0
    for perm in permutations(range(len(b)), len(a)):
        best = max(best, sum(sum((a[i] & b[j]).values()) for i, j in enumerate(perm)))
    return best


def test_marks_on_seeded_positions_agree_with_the_rules_and_a_brute_force_matching():
    rng = np.random.default_rng(17)
    checked = 0
    while checked < 25:
        table, hand = random_position(rng, ROBBER_MELDS, 9, 6)
        before = arrange_table(table, ROBBER_MELDS)
        if len(before) > 4:
            continue
        r = rearrangement(before, hand, ROBBER_MELDS)
        d = r.diff
        # the move itself is legal by the independent checker of rules §4.3 (when something is placed)
        if r.solution.placed:
            melds, placed = check_rearrangement(before, d.after, hand, ROBBER_MELDS)
            assert placed == r.solution.placed == d.placed
        # every card counted once: from-hand marks are the placed cards, stayed + moved the table cards
        assert Counter(_marked(d, FROM_HAND)) == Counter(d.placed)
        assert Counter(_marked(d, STAYED) + _marked(d, MOVED)) == Counter(c for m in before for c in m.cards)
        n_moves = sum(k == MOVES for ks in d.before_marks for k in ks)
        assert n_moves == len(d.moved)
        # as few table cards moved as any matching of the melds allows
        assert len(_marked(d, STAYED)) == _brute_stayed(before, d.after)
        checked += 1


def test_read_table_names_the_input_and_the_reason():
    assert [str(m) for m in read_table("7d JK(8d) 9d | Qs Qh Qc", ROBBER_MELDS)] == ["7d JK(8d) 9d", "Qs Qc Qh"]
    with pytest.raises(InvalidCardError, match=r"^table: '11c' is not a card"):
        read_table("5c 6c 11c", ROBBER_MELDS)
    with pytest.raises(InvalidMeldError, match=r"^table: meld 2: 8c 9c is not a meld"):
        read_table("5c 6c 7c | 8c 9c", ROBBER_MELDS)
    with pytest.raises(InvalidMeldError, match=r"^table: 5c 6c cannot be grouped"):
        read_table("5c 6c", ROBBER_MELDS)
    with pytest.raises(InvalidCardError, match=r"^hand: 'x' is not a card"):
        rearrangement("5c 6c 7c", "x", ROBBER_MELDS)
    with pytest.raises(InvalidCardError, match="table and hand together holds 3 copies of 7c"):
        rearrangement("5c 6c 7c | 7c 8c 9c", "7c", ROBBER_MELDS)
