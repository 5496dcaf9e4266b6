"""The variants' rules dataclasses: validation, the registry, meld rules derived from knobs,
rebuy prices and the rumino-hand test (rumino/variants/)."""

from __future__ import annotations

import dataclasses
from dataclasses import replace

import pytest

from brute_force import brute_is_meld
from rumino.cards import JOKER, STANDARD_PACK, parse_hand
from rumino.errors import InvalidCardError, RuleConfigError
from rumino.melds import GIN_MELDS, ROBBER_MELDS, ROMME_MELDS, RUMINO_MELDS, WIENER_MELDS, is_meld
from rumino.variants import VARIANTS, Variant, find_variant
from rumino.engine.knobs import knob_table, parse_knob_value, value_words
from rumino.variants.gin import GIN, GinRules
from rumino.variants.robber import ROBBER, RobberRules
from rumino.variants.romme import ROMME, RommeRules
from rumino.variants.rumino import RUMINO, RuminoRules, is_rumino, rumino_in
from rumino.variants.rummoli import RUMMOLI, SECTIONS, RummoliRules
from rumino.variants.wiener import WIENER, WIENER_13, WienerRules

CLASSES = [RuminoRules, RummoliRules, RommeRules, RobberRules, WienerRules, GinRules]
KNOBS = [(cls, row) for cls in CLASSES for row in knob_table(cls)]


def _bad_values(row):
    """Values a knob must refuse: outside its choices or range, wrong type, None unless allowed."""
    bad = [] if row["allow_none"] else [None]
    if row["choices"] is not None:
        bad.append("no-such-value")
        if isinstance(row["choices"][0], bool):
            bad.append(int(row["choices"][0]))  # 0 or 1 is not False or True
        elif isinstance(row["choices"][0], int):
            bad += [True, max(row["choices"]) + 1, str(row["choices"][0])]
    else:
        if row["low"] is not None:
            bad.append(row["low"] - 1)
        if row["high"] is not None:
            bad.append(row["high"] + 1)
        bad += [True, 2.5, str(row["default"])]
    return bad


def test_every_field_is_a_documented_knob():
    """Every field has a rules section, and every class validates its defaults."""
    for cls in CLASSES:
        fields = dataclasses.fields(cls)
        assert fields and all("section" in f.metadata and f.metadata["section"].startswith("§") for f in fields), cls
        cls()  # the defaults are valid


@pytest.mark.parametrize("cls, row", KNOBS, ids=[f"{c.__name__}.{r['name']}" for c, r in KNOBS])
def test_bad_values_are_refused_naming_field_value_and_allowed(cls, row):
    for bad in _bad_values(row):
        with pytest.raises(RuleConfigError) as err:
            cls(**{row["name"]: bad})
        text = str(err.value)
        assert text.startswith(f"{row['label']}: ") and " is not allowed; it must be " in text, text  # the rule's name
        assert cls.__name__ not in text and row["name"] not in text, text  # in a player's words
        assert f"(rules {row['section']})" in text
        if row["choices"] is not None:
            assert all(value_words(row, c) in text for c in row["choices"]), text
        elif bad not in (True, 2.5, None) and not isinstance(bad, str):
            assert f"{row['low']:,}" in text and f"{row['high']:,}" in text, text


@pytest.mark.parametrize("cls, row", KNOBS, ids=[f"{c.__name__}.{r['name']}" for c, r in KNOBS])
def test_good_values_are_accepted(cls, row):
    goods = list(row["choices"] or [row["low"], row["high"]]) + ([None] if row["allow_none"] else [])
    for good in goods:
        if good is None and not row["allow_none"]:
            continue
        assert getattr(cls(**{row["name"]: good}), row["name"]) == good


def test_rules_are_frozen_and_keyword_only():
    with pytest.raises(dataclasses.FrozenInstanceError):
        RUMINO.knock_max_deadwood = 5  # type: ignore[misc]
    with pytest.raises(TypeError):
        RuminoRules(4)  # type: ignore[misc]
    assert replace(RUMINO, knock_max_deadwood=5).knock_max_deadwood == 5
    with pytest.raises(RuleConfigError, match=r"^Knock limit: -1 is not allowed; it must be a whole "
                                              r"number from 0 to 70 \(rules §1.3\)"):
        replace(RUMINO, knock_max_deadwood=-1)


def test_parse_knob_value_from_the_command_line():
    assert parse_knob_value(RuminoRules, "max_lay_size", "unlimited") is None
    assert parse_knob_value(RuminoRules, "max_lay_size", "4") == 4
    assert parse_knob_value(RuminoRules, "set_suits", "Distinct") == "distinct"
    assert parse_knob_value(RommeRules, "must_discard_to_go_out", "true") is True
    assert parse_knob_value(WienerRules, "knock_max_deadwood", " 9 ") == 9
    with pytest.raises(RuleConfigError, match="^there is no rule 'colour' in this game; its rules are: ace, allow_new_entrants"):
        parse_knob_value(RuminoRules, "colour", "red")
    with pytest.raises(RuleConfigError, match="^the rule 'ace' cannot be 'high': it must be both or around"):
        parse_knob_value(RommeRules, "ace", "high")
    with pytest.raises(RuleConfigError, match="^the rule 'knock_max_deadwood' cannot be 'five': it must be a whole number"):
        parse_knob_value(WienerRules, "knock_max_deadwood", "five")


# ------------------------------------------------------------------ the registry


@pytest.mark.parametrize("name, key", [
    ("rumino", "rumino"), ("Rumino", "rumino"), ("rummoli", "rummoli"), ("Rumoli", "rummoli"),
    ("German Rummy", "romme"), ("german-rummy", "romme"), ("ROMMÉ", "romme"), ("Rommé mit Auslegen", "romme"),
    ("romme_mit_auslegen", "romme"), ("Robber Rummy", "robber"), ("Räuber-Rommé", "robber"),
    ("robbers' rummy", "robber"), ("Wiener", "wiener"), ("Viennese Rummy", "wiener"), ("101", "wiener"),
    ("Rommé ohne Auslegen", "wiener"), ("  gin   rummy ", "gin"), ("Gin", "gin"), ("Knock Rummy", "knock-rummy"),
])
def test_find_variant_aliases(name, key):
    assert find_variant(name).key == key


def test_every_alias_and_title_finds_its_variant():
    for v in VARIANTS.values():
        for name in (v.key, v.title, *v.aliases):
            assert find_variant(name) is v
            assert find_variant(name.upper()) is v
    assert find_variant(VARIANTS["gin"]) is VARIANTS["gin"]


def test_unknown_variant_names_the_choices():
    with pytest.raises(RuleConfigError) as err:
        find_variant("canasta")
    # every game of the registry, in its order (a new game's row adds itself)
    assert str(err.value) == f"unknown variant 'canasta': choose one of {', '.join(VARIANTS)}."
    assert str(err.value).startswith("unknown variant 'canasta': choose one of rumino, rummoli, romme, robber, wiener")


def test_variant_records_agree_with_the_rules():
    rumino, romme, wiener, gin = (find_variant(n) for n in ("rumino", "romme", "wiener", "gin"))
    assert (rumino.pack.size, rumino.hand_size, rumino.players, rumino.hand_sizes) == (108, 7, (2, 6), (7, 8))
    assert (romme.pack.size, romme.hand_size) == (110, 13) and find_variant("robber").pack.size == 110
    assert (wiener.pack.size, wiener.hand_size, wiener.hand_sizes) == (106, 10, (10, 11))
    assert (gin.pack, gin.players, gin.knock_limit()) == (STANDARD_PACK, (2, 2), 10)
    assert rumino.knock_limit() == 7 and wiener.knock_limit() == 5 and romme.knock_limit() is None
    assert rumino.knock_limit(replace(RUMINO, knock_max_deadwood=3)) == 3
    assert find_variant("rummoli").meld_rules() is None
    for v in VARIANTS.values():
        mr = v.meld_rules()
        assert mr is None or mr.pack == v.pack, v.key
        assert isinstance(v.rules, v.rules_class)
    assert rumino.with_rules(set_suits="distinct").set_suits == "distinct"
    with pytest.raises(RuleConfigError, match="^Suits in a set: mixed is not allowed; it must be any suits or all different"):
        rumino.with_rules(set_suits="mixed")


# ------------------------------------------------------------------ meld rules from knobs


def test_default_meld_rules_are_the_presets():
    assert RUMINO.meld_rules == RUMINO_MELDS and GIN.meld_rules == GIN_MELDS
    assert replace(ROMME.meld_rules, name="x") == replace(ROMME_MELDS, name="x")
    assert replace(ROBBER.meld_rules, name="x") == replace(ROBBER_MELDS, name="x")
    assert WIENER.meld_rules == WIENER_MELDS and RUMMOLI.meld_rules is None


def test_rumino_knobs_change_the_melds():
    """rules §1.2 / §1.6: lay size, set suits, naturals per lay."""
    unlimited = replace(RUMINO, max_lay_size=None).meld_rules
    assert (unlimited.max_run, unlimited.max_set) == (13, 8)
    assert is_meld(parse_hand("3h 4h 5h 6h 7h"), unlimited) and not is_meld(parse_hand("3h 4h 5h 6h 7h"), RUMINO_MELDS)
    assert is_meld(parse_hand("5h 5h 5s 5s 5d"), unlimited)
    distinct = replace(RUMINO, set_suits="distinct").meld_rules
    assert distinct.set_suits == "distinct" and not is_meld(parse_hand("5h 5h 5s"), distinct)
    both = replace(RUMINO, max_lay_size=None, set_suits="distinct").meld_rules  # used to raise RuleConfigError
    assert (both.max_run, both.max_set, both.set_suits) == (13, 4, "distinct")
    assert is_meld(parse_hand("3h 4h 5h 6h 7h"), both) and not is_meld(parse_hand("5h 5s 5d 5c 5h"), both)
    no_naturals = replace(RUMINO, min_naturals_per_lay=0).meld_rules
    assert is_meld([JOKER] * 3, no_naturals) and not is_meld([JOKER] * 3, RUMINO_MELDS)
    for mr in (unlimited, distinct, both, no_naturals):
        assert mr.ace == "low" and mr.pack.size == 108 and mr.joker_value == 10 and mr.ace_value == 1


@pytest.mark.parametrize("cls", [RommeRules, RobberRules])
def test_romme_family_knobs_change_the_melds(cls):
    """rules §3.1 n_jokers, §3.2 ace and joker_rules, §3.3 penalties (Robber uses the same, §4.2)."""
    base = cls()
    assert base.meld_rules.pack.jokers == 6
    assert cls(n_jokers=4).meld_rules.pack.jokers == 4 and cls(n_jokers=2).meld_rules.pack.size == 106
    around = cls(ace="around").meld_rules
    assert around.ace == "around" and is_meld(parse_hand("Ks As 2s"), around)
    one = cls(joker_rules="one_per_meld").meld_rules
    lenient = cls(joker_rules="lenient").meld_rules
    cases = {  # group: (seed, one_per_meld, lenient), each also checked by the brute force
        "3s JK JK 6s": (True, False, True),
        "3s JK 5s JK": (True, False, True),
        "JK Ah JK": (False, False, True),  # rummy-party Rommé 51: ★-A♥-★
        "JK JK 6s": (False, False, True),
        "3s 4s JK": (True, True, True),
        "3s JK JK JK 7s": (False, False, False),  # never three side by side
    }
    for text, expected in cases.items():
        got = tuple(is_meld(parse_hand(text), r) for r in (base.meld_rules, one, lenient))
        assert got == expected, text
        assert got == tuple(brute_is_meld(parse_hand(text), r) for r in (base.meld_rules, one, lenient)), text
    pen = cls(joker_penalty=25, ace_penalty=15).meld_rules
    assert (pen.value(JOKER), pen.value(parse_hand("Ad")[0]), pen.value(parse_hand("Kd")[0])) == (25, 15, 10)


def test_wiener_knobs_change_the_values():
    mr = WienerRules(ace_value=10, joker_value=25).meld_rules
    assert (mr.value(0), mr.value(JOKER), mr.pack.size, mr.set_suits, mr.ace) == (10, 25, 106, "distinct", "both")
    assert (WIENER_13.hand_size, WIENER_13.knock_max_deadwood, WIENER_13.extra_turn_after_knock) == (13, 9, False)


def test_rummoli_sheet():
    """rules §2.2: nine sections."""
    assert len(SECTIONS) == 9 and SECTIONS[:2] == ("rummoli", "poker")


# ------------------------------------------------------------------ rebuys and the rumino hand


def test_rebuy_cost_doubles_per_rebuy():
    """rules §1.5 / §1.7.11: $10, $20, $40; flat keeps B."""
    assert [RUMINO.rebuy_cost(k) for k in (1, 2, 3, 4)] == [10, 20, 40, 80]
    assert [replace(RUMINO, rebuy_price="flat").rebuy_cost(k) for k in (1, 2, 3)] == [10, 10, 10]
    assert [replace(RUMINO, stake=25).rebuy_cost(k) for k in (1, 2, 3)] == [25, 50, 100]
    with pytest.raises(ValueError, match="rebuy number k is 0: it counts from 1"):
        RUMINO.rebuy_cost(0)


@pytest.mark.parametrize("text, default, natural_only, distinct", [
    ("3h 4h 5h 6h 7h 8h 9h", True, True, True),
    ("Ah 2h 3h 4h 5h 6h 7h", True, True, True),
    ("7s 8s 9s 10s Js Qs Ks", True, True, True),  # the highest straight flush
    ("8s 9s 10s Js Qs Ks As", False, False, False),  # ace low only
    ("Qs Ks As 2s 3s 4s 5s", False, False, False),  # no wrap
    ("3h 4h JK 6h 7h JK 9h", True, False, True),
    ("5h 5h 5s 5s 5d 5d 5c", True, True, False),  # natural seven of a kind
    ("5h 5s 5d 5c JK JK JK", True, False, True),
    ("5h 5h 5s 5d 5c JK JK", True, False, False),
    ("3h 4h 5h 6h 7h 8h 8h", False, False, False),
    ("3h 4h 5h 6h 7h 8h 9s", False, False, False),
])
def test_is_rumino(text, default, natural_only, distinct):
    """rules §1.2: a 7-card straight flush (ace low) or 7 of a kind; jokers unless rumino_natural_only."""
    hand = parse_hand(text)
    assert is_rumino(hand, RUMINO) == default
    assert is_rumino(hand, replace(RUMINO, rumino_natural_only=True)) == natural_only
    assert is_rumino(hand, replace(RUMINO, set_suits="distinct")) == distinct


def test_rumino_in_eight_cards_and_size_errors():
    assert sorted(rumino_in(parse_hand("Kc 3h 4h 5h 6h 7h 8h 9h"))) == sorted(parse_hand("3h 4h 5h 6h 7h 8h 9h"))
    assert rumino_in(parse_hand("2c 3c 4c 9d 9h 9s 7d 7c")) is None
    with pytest.raises(InvalidCardError, match="a rumino is 7 cards; 3h 4h 5h has 3"):
        is_rumino(parse_hand("3h 4h 5h"))


def test_meld_rules_are_built_once_per_rules_object():
    # a new MeldRules on every access would defeat the evaluator's per-rules kernel tables
    from rumino.variants.robber import ROBBER
    from rumino.variants.romme import ROMME
    from rumino.variants.wiener import WIENER, WIENER_13

    for rules in (ROMME, ROBBER, WIENER, WIENER_13):
        assert rules.meld_rules is rules.meld_rules
    assert dataclasses.replace(WIENER, ace_value=10).meld_rules.ace_value == 10


def test_the_knock_limit_has_one_name_in_every_knock_game():
    from rumino.variants import VARIANTS

    for v in VARIANTS.values():
        if v.knock_field is not None:
            assert v.knock_field == "knock_max_deadwood" and hasattr(v.rules, "knock_max_deadwood")


# ---------------------------------------------------------------- every rule in a player's words (issue 24)

FIELD_NAMES = {row["name"] for _, row in KNOBS if "_" in row["name"]}  # "ace", "rounds" are English too


@pytest.mark.parametrize("cls,row", KNOBS, ids=[f"{c.__name__}.{r['name']}" for c, r in KNOBS])
def test_every_knob_has_a_players_label_and_words_for_its_choices(cls, row):
    """Forms, the rules matrix and the book show a rule by its label, its choices by their words:
    short enough for a form's label column, and never a field or choice code name."""
    label, words = row["label"], row["words"]
    assert label and len(label) <= 36 and label[0].isupper(), label
    shown = [label, row["doc"], *words.values()]
    for text in shown:
        assert "_" not in text and not any(f" {name} " in f" {text} " for name in FIELD_NAMES), text
        assert "True:" not in text and "False:" not in text and "None:" not in text, text
    for choice in row["choices"] or ():
        if isinstance(choice, str):  # a code word such as "dealer11" always has a player's words
            assert choice in words, f"{cls.__name__}.{row['name']}: no words for {choice!r}"
    assert set(words) <= set(row["choices"] or ()) | {None}, "words for a value the knob cannot take"
    for value, text in words.items():
        assert value_words(row, value) == text


def test_value_words_tells_true_from_one():
    """A knob whose choices are 0/1 numbers must not read True's words, nor the reverse."""
    row = {"words": {True: "a Rommé turn with a discard"}, "allow_none": False}
    assert value_words(row, True) == "a Rommé turn with a discard" and value_words(row, 1) == "1"
