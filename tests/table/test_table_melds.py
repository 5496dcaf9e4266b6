"""Melds on the table (rumino.table.melds): the §3.7 and §4.5 facts on melds, lay-off and joker exchange,
and whole turns that are applied atomically or refused with the rule they break and nothing changed."""

from __future__ import annotations

import copy

import pytest

from rumino.cards import JOKER, parse_hand
from rumino.errors import IllegalActionError, InvalidMeldError
from rumino.melds import ROBBER_MELDS, ROMME_MELDS
from rumino.table.melds import (
    Exchange,
    Lay,
    LayOff,
    TableRules,
    apply_turn,
    check_rearrangement,
    check_table,
    declare,
    exchange,
    is_valid_reading,
    lay_off,
)
from rumino.variants.romme import RommeRules


def c(text: str) -> int:
    return parse_hand(text)[0]


def h(text: str) -> tuple[int, ...]:
    return parse_hand(text)


GENERAL = TableRules(ROMME_MELDS)
DSKV = TableRules(ROMME_MELDS, joker_exchange="dskv")
LAYOFF_OK = TableRules(ROMME_MELDS, freed_joker_use="new_meld_or_layoff")


# ---------------------------------------------------------------------- §3.2 joker identity, §3.7.2–4 melds


def test_3_2_joker_identity_is_declared_at_a_run_end():
    assert str(declare(h("5h 6h JK"), ROMME_MELDS, jokers=h("7h"))) == "5h 6h JK(7h)"
    assert str(declare(h("5h 6h JK"), ROMME_MELDS, jokers=h("4h"))) == "JK(4h) 5h 6h"
    assert str(declare(h("7h JK 9h"), ROMME_MELDS)) == "7h JK(8h) 9h"  # fixed by its place
    with pytest.raises(InvalidMeldError, match="§3.2"):
        declare(h("7h JK 9h"), ROMME_MELDS, jokers=h("10h"))


def test_3_2_a_three_card_set_joker_is_either_missing_suit():
    a = declare(h("6s 6h JK"), ROMME_MELDS, jokers=h("6c"))
    b = declare(h("6s 6h JK"), ROMME_MELDS, jokers=h("6d"))
    assert a.stands_for[-1] == c("6c") and b.stands_for[-1] == c("6d")
    # either missing suit frees it in a general exchange
    assert exchange(a, h("6d"), ROMME_MELDS)[1] == 1
    assert exchange(b, h("6c"), ROMME_MELDS)[1] == 1
    with pytest.raises(InvalidMeldError):
        declare(h("6s 6h JK"), ROMME_MELDS, jokers=h("6s"))


def test_3_7_2_joker_limits_on_the_table():
    with pytest.raises(InvalidMeldError):
        declare(h("JK JK 6s"), ROMME_MELDS)
    assert declare(h("3s JK JK 6s"), ROMME_MELDS).jokers == 2
    assert declare(h("3s JK JK 6s 7s"), ROMME_MELDS).jokers == 2


def test_3_7_3_sets_of_distinct_suits_at_most_four():
    with pytest.raises(InvalidMeldError):
        declare(h("6s 6s 6h"), ROMME_MELDS)
    four = declare(h("6s 6h 6d 6c"), ROMME_MELDS)
    with pytest.raises(IllegalActionError, match="§3.2"):
        lay_off(four, c("6s"), ROMME_MELDS)  # a fifth card


def test_3_7_4_no_run_around_the_corner():
    qka = declare(h("Qc Kc Ac"), ROMME_MELDS)
    with pytest.raises(IllegalActionError):
        lay_off(qka, c("2c"), ROMME_MELDS)  # K-A-2
    assert str(lay_off(qka, c("Jc"), ROMME_MELDS)) == "Jc Qc Kc Ac"


def test_check_table_finds_a_misread_joker_and_too_many_copies():
    good = declare(h("7h JK 9h"), ROMME_MELDS)
    check_table([good], ROMME_MELDS)
    bad = type(good)("run", good.cards, h("7h 10h 9h"), positions=good.positions)
    assert not is_valid_reading(bad, ROMME_MELDS)
    with pytest.raises(IllegalActionError, match="§3.2"):
        check_table([bad], ROMME_MELDS)
    run = declare(h("5c 6c 7c"), ROMME_MELDS)
    with pytest.raises(IllegalActionError, match="exactly one place"):
        check_table([run, run, run], ROMME_MELDS)


# ---------------------------------------------------------------------- §3.4.4 lay-off


def test_3_4_4_lay_off_at_either_end_keeps_the_jokers():
    run = declare(h("5h 6h JK"), ROMME_MELDS, jokers=h("7h"))
    assert str(lay_off(run, c("4h"), ROMME_MELDS)) == "4h 5h 6h JK(7h)"
    assert str(lay_off(run, c("8h"), ROMME_MELDS)) == "5h 6h JK(7h) 8h"
    with pytest.raises(IllegalActionError, match=r"cannot lay off 9h onto 5h 6h JK\(7h\): .* \(rules §3.2\)\.$"):
        lay_off(run, c("9h"), ROMME_MELDS)
    mid = declare(h("7h JK 9h"), ROMME_MELDS)  # 8h fits only where the joker stands: an exchange, not a lay-off
    with pytest.raises(IllegalActionError, match="either end"):
        lay_off(mid, c("8h"), ROMME_MELDS)


def test_3_4_4_the_card_an_end_joker_stands_for_slides_the_joker():
    run = declare(h("5h 6h JK"), ROMME_MELDS, jokers=h("7h"))
    assert str(lay_off(run, c("7h"), ROMME_MELDS)) == "JK(4h) 5h 6h 7h"
    # the middle joker cannot slide: that card is an exchange
    mid = declare(h("7h JK 9h"), ROMME_MELDS)
    with pytest.raises(IllegalActionError):
        lay_off(mid, c("8h"), ROMME_MELDS)
    # no slide past the ace: JK(Ah) 2h 3h + Ah has no other end for the joker... but 4h exists
    low = declare(h("JK 2h 3h"), ROMME_MELDS, jokers=h("Ah"))
    assert str(lay_off(low, c("Ah"), ROMME_MELDS)) == "Ah 2h 3h JK(4h)"


def test_3_4_4_lay_off_a_joker_and_onto_a_set():
    run = declare(h("5h 6h 7h"), ROMME_MELDS)
    assert str(lay_off(run, JOKER, ROMME_MELDS)) == "5h 6h 7h JK(8h)"
    assert str(lay_off(run, JOKER, ROMME_MELDS, stands_for=c("4h"))) == "JK(4h) 5h 6h 7h"
    three = declare(h("6s 6h JK"), ROMME_MELDS, jokers=h("6c"))
    four = lay_off(three, c("6c"), ROMME_MELDS)  # the joker is re-read as the other missing suit
    assert sorted(four.stands_for) == sorted(h("6s 6c 6d 6h"))
    with pytest.raises(IllegalActionError):
        lay_off(three, c("7c"), ROMME_MELDS)


# ---------------------------------------------------------------------- §3.4.5 joker exchange, §3.7.8


def test_3_7_8_dskv_set_joker_only_by_completing_to_four():
    three = declare(h("6s 6h JK"), ROMME_MELDS)
    with pytest.raises(IllegalActionError, match="DSkV"):
        exchange(three, h("6d"), ROMME_MELDS, "dskv")
    new, freed = exchange(three, h("6d 6c"), ROMME_MELDS, "dskv")
    assert freed == 1 and new.jokers == 0 and len(new.cards) == 4
    four = declare(h("6s 6h 6c JK"), ROMME_MELDS)
    new, freed = exchange(four, h("6d"), ROMME_MELDS, "dskv")
    assert freed == 1 and sorted(new.cards) == sorted(h("6s 6c 6d 6h"))
    # general: 6d alone frees the joker of 6s 6h JK
    assert exchange(three, h("6d"), ROMME_MELDS, "general")[1] == 1


def test_3_4_5_exchange_in_a_run_needs_the_exact_card():
    run = declare(h("7h JK 9h"), ROMME_MELDS)
    with pytest.raises(IllegalActionError, match="stands for"):
        exchange(run, h("8d"), ROMME_MELDS)
    new, freed = exchange(run, h("8h"), ROMME_MELDS, "dskv")  # dskv changes nothing for runs
    assert str(new) == "7h 8h 9h" and freed == 1


# ---------------------------------------------------------------------- whole turns (§3.4, §3.7.7, §3.7.9)


def test_3_7_9_a_freed_joker_may_not_stay_in_the_hand_and_nothing_changes():
    table = (declare(h("5h 6h JK"), ROMME_MELDS, jokers=h("7h")),)
    hand = h("7h 9c 10c Kd")
    before = copy.deepcopy((table, hand))
    with pytest.raises(IllegalActionError, match=r"§3.4.5, §3.7.9"):
        apply_turn(table, hand, [Exchange(0, h("7h"))], GENERAL, opened=True)
    assert (table, hand) == before  # refused: nothing changed
    ok = apply_turn(table, hand, [Exchange(0, h("7h")), Lay(h("9c 10c JK"))], GENERAL, opened=True)
    assert ok.hand == h("Kd") and [str(m) for m in ok.table] == ["5h 6h 7h", "9c 10c JK(Jc)"]


def test_3_4_5_freed_joker_use_new_meld_or_layoff():
    table = (declare(h("5h 6h JK"), ROMME_MELDS, jokers=h("7h")), declare(h("2c 3c 4c"), ROMME_MELDS))
    hand = h("7h Kd")
    turn = [Exchange(0, h("7h")), LayOff(1, JOKER)]
    with pytest.raises(IllegalActionError):  # new_meld: the lay-off needs a joker from the hand
        apply_turn(table, hand, turn, GENERAL, opened=True)
    r = apply_turn(table, hand, turn, LAYOFF_OK, opened=True)
    assert r.hand == h("Kd") and str(r.table[1]) == "2c 3c 4c JK(5c)"


def test_3_7_7_no_lay_off_or_exchange_before_opening():
    table = (declare(h("5h 6h 7h"), ROMME_MELDS),)
    with pytest.raises(IllegalActionError, match="§3.7.7"):
        apply_turn(table, h("8h"), [LayOff(0, c("8h"))], GENERAL, opened=False)
    # G15: allowed in the opening turn once the melds laid reach the minimum
    hand = h("10s Js Qs Ks 8h")
    r = apply_turn(table, hand, [Lay(h("10s Js Qs Ks")), LayOff(0, c("8h"))], GENERAL, opened=False)
    assert r.opening_value == 40 and r.hand == ()


def test_3_7_5_an_opening_below_the_minimum_is_refused_as_a_whole():
    hand = h("10s Js Qs 3d 3h 3c 9d")
    before = copy.deepcopy(hand)
    with pytest.raises(IllegalActionError, match=r"39, below the minimum 40"):
        apply_turn((), hand, [Lay(h("10s Js Qs")), Lay(h("3d 3h 3c"))], GENERAL, opened=False)
    assert hand == before
    r = apply_turn((), h("10s Js Qs Ks"), [Lay(h("10s Js Qs Ks"))], GENERAL, opened=False)
    assert r.opening_value == 40


def test_a_turn_refuses_cards_not_in_the_hand_and_bad_targets():
    table = (declare(h("5h 6h 7h"), ROMME_MELDS),)
    with pytest.raises(IllegalActionError, match="not in the hand"):
        apply_turn(table, h("9h"), [LayOff(0, c("8h"))], GENERAL, opened=True)
    with pytest.raises(IllegalActionError, match="no table meld 3"):
        apply_turn(table, h("8h"), [LayOff(3, c("8h"))], GENERAL, opened=True)
    # step 2 fails: step 1's lay-off is not applied either
    with pytest.raises(IllegalActionError, match="step 2"):
        apply_turn(table, h("8h 2c"), [LayOff(0, c("8h")), LayOff(0, c("2c"))], GENERAL, opened=True)


def test_table_rules_from_the_variants():
    tr = TableRules.of(RommeRules(joker_exchange="dskv", freed_joker_use="new_meld_or_layoff", opening_min=30))
    assert (tr.joker_exchange, tr.freed_joker_use, tr.opening_min) == ("dskv", "new_meld_or_layoff", 30)
    with pytest.raises(ValueError, match="joker_exchange"):
        TableRules(ROMME_MELDS, joker_exchange="sometimes")


# ---------------------------------------------------------------------- §4.5 Robber rearrangements


def test_4_5_1_split_the_run_for_the_second_seven():
    melds, placed = check_rearrangement(h("5c 6c 7c 8c 9c"), [h("5c 6c 7c"), h("7c 8c 9c")], h("7c"), ROBBER_MELDS)
    assert placed == h("7c") and len(melds) == 2


def test_4_5_2_the_joker_moves_without_an_exchange():
    before = [declare(h("5d 6d 7d"), ROBBER_MELDS), declare(h("5s 6s JK"), ROBBER_MELDS)]
    melds, placed = check_rearrangement(before, [h("5d 5s 5c"), h("6d 6h 6s"), h("7d JK 9d")], h("5c 6h 9d"),
                                        ROBBER_MELDS)
    assert sorted(placed) == sorted(h("5c 6h 9d"))
    assert melds[2].joker_meaning() == [(1, c("8d"))]


def test_4_5_3_two_loose_cards_are_illegal():
    with pytest.raises(IllegalActionError, match=r"§4.3 \(iii\)"):
        check_rearrangement(h("5c 6c 7c 8c 9c"), [h("5c 6c 7c"), h("7c 8c"), h("9c")], h("7c"), ROBBER_MELDS)


def test_4_5_4_a_table_joker_into_the_hand_is_illegal():
    with pytest.raises(IllegalActionError, match=r"§4.3 \(ii\)"):
        check_rearrangement(h("5s 6s JK 5d 6d 7d"), [h("5d 6d 7d"), h("5s 6s 7s")], h("7s"), ROBBER_MELDS)


def test_4_3_i_at_least_one_card_from_the_hand():
    with pytest.raises(IllegalActionError, match=r"§4.3 \(i\)"):
        check_rearrangement(h("5c 6c 7c 8c 9c 10c"), [h("5c 6c 7c"), h("8c 9c 10c")], h("Kd"), ROBBER_MELDS)
    with pytest.raises(IllegalActionError, match="not in the hand"):
        check_rearrangement(h("5c 6c 7c"), [h("5c 6c 7c 8c")], h("Kd"), ROBBER_MELDS)
