"""`rumino deadwood`: text and JSON reports, a hand one card over, and one-line errors with exit code 2."""

from __future__ import annotations

import json
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

from brute_force import brute_after_draw, brute_min_deadwood
from rumino.cards import parse_hand
from rumino.cli import main
from rumino.variants import VARIANTS, find_variant


def run(capsys, *args):
    code = main(["deadwood", *args])
    out, err = capsys.readouterr()
    return code, out, err


def report(capsys, *args):
    code, out, err = run(capsys, *args, "--json")
    assert code == 0 and err == ""
    return json.loads(out)


def console_script() -> str:
    """The installed `rumino` command (next to this Python, or on PATH)."""
    here = Path(sys.executable).with_name("rumino")
    path = str(here) if here.exists() else shutil.which("rumino")
    assert path, "the rumino console script is not installed: pip install -e ."
    return path


# ------------------------------------------------------------------ reports


def test_console_script_json():
    done = subprocess.run([console_script(), "deadwood", "7h 8h 9h 10h 5c 5d 5s", "--json"],
                          capture_output=True, text=True, timeout=120)
    assert done.returncode == 0 and done.stderr == ""
    data = json.loads(done.stdout)
    assert data == {"hand": ["7h", "8h", "9h", "10h", "5c", "5d", "5s"], "variant": "rumino", "deadwood": 0,
                    "melds": [["7h", "8h", "9h", "10h"], ["5s", "5c", "5d"]], "unmatched": [], "gin": True,
                    "rumino": False, "can_knock": True, "knock_limit": 7}


def test_console_script_error_is_one_line_with_exit_code_2():
    done = subprocess.run([console_script(), "deadwood", "7h 8h 9h 10h 5c 5d 5x"], capture_output=True, text=True,
                          timeout=120)
    assert done.returncode == 2 and done.stdout == ""
    assert done.stderr == "rumino deadwood: '5x' is not a card: the suit 'x' is not one of s c d h (or ♠ ♣ ♦ ♥).\n"


def test_text_report(capsys):
    code, out, err = run(capsys, "2c", "3c", "4c", "9d", "9h", "9s", "7d")
    assert code == 0 and err == ""
    assert out == ("2c 3c 4c | 9s 9d 9h  ·  unmatched 7d\n"
                   "deadwood 7 · gin: no · rumino: no · may knock: yes (limit 7)\n")


def test_json_keys_for_every_knock_variant(capsys):
    must = {"hand", "variant", "deadwood", "melds", "unmatched", "can_knock", "knock_limit"}
    rumino = report(capsys, "JK JK 5h 9c 9d 9s 2c")
    assert must | {"gin", "rumino"} == set(rumino) and rumino["deadwood"] == 2 and rumino["unmatched"] == ["2c"]
    gin = report(capsys, "Tc Qc 4d 9d 4h 9h Jh 4s 5s 6s", "--variant", "gin")
    assert must | {"gin"} == set(gin) and gin["deadwood"] == 56 and gin["can_knock"] is False
    wiener = report(capsys, "2c 3c 4c 7d 7h 7s Js Qs Ks 5h", "--variant", "wiener")
    assert must == set(wiener) and (wiener["deadwood"], wiener["can_knock"], wiener["knock_limit"]) == (5, True, 5)
    romme = report(capsys, "As JK Kd 5c", "--variant", "german rummy")
    assert set(romme) == {"hand", "variant", "deadwood", "melds", "unmatched", "penalty", "opening"}
    assert (romme["variant"], romme["deadwood"], romme["melds"]) == ("romme", 46, [])
    assert romme["penalty"] == 46 and romme["opening"]["value"] == 0  # rules §3.7.6: 11 + 20 + 10 + 5


def test_report_is_a_valid_best_arrangement(capsys):
    """The melds and unmatched cards of the report partition the hand, and deadwood is the brute-force minimum."""
    variant = find_variant("romme")
    rules = variant.meld_rules()
    for text in ("3s JK JK 6s 7s 8d 8c 8h Ah Kd", "Qc Kc Ac 2c 3c JK 9h 9s 9d 9c"):
        data = report(capsys, text, "--variant", "romme")
        cards = [c for m in data["melds"] for c in m] + data["unmatched"]
        assert sorted(parse_hand(cards)) == sorted(parse_hand(text))
        assert data["deadwood"] == brute_min_deadwood(parse_hand(text), rules)
        assert data["deadwood"] == sum(rules.value(c) for c in parse_hand(data["unmatched"]))


def test_eight_card_rumino_hand_is_valued_after_the_best_discard(capsys):
    hand = "2c 3c 4c 9d 9h 9s 8d 7d"
    data = report(capsys, hand)
    value, discards = brute_after_draw(parse_hand(hand), find_variant("rumino").meld_rules())
    assert (data["deadwood"], data["discards"], value, discards) == (7, ["8d"], 7, set(parse_hand("8d")))
    assert len(data["hand"]) == 8 and len([c for m in data["melds"] for c in m] + data["unmatched"]) == 7
    assert data["can_knock"] is True and data["gin"] is False and data["rumino"] is False
    code, out, _ = run(capsys, hand)
    assert code == 0 and "deadwood 7 · best discard 8d" in out


def test_eight_card_gin_and_rumino(capsys):
    gin = report(capsys, "7h 8h 9h 10h 5c 5d 5s Kc")
    assert (gin["gin"], gin["discards"], gin["deadwood"]) == (True, ["Kc"], 0)
    rumino = report(capsys, "Kc 3h 4h 5h 6h 7h 8h 9h")
    assert rumino["rumino"] is True and rumino["gin"] is True  # 3h–6h + 7h–9h after discarding Kc
    seven = report(capsys, "5h 5h 5s 5s 5d 5d 5c")
    assert seven["rumino"] is True


def test_unicode_and_commas(capsys):
    data = report(capsys, "7♥, 8♥, 9♥, T♥, 5♣, 5♦, 5♠")
    assert data["hand"] == ["7h", "8h", "9h", "10h", "5c", "5d", "5s"] and data["gin"] is True


# ------------------------------------------------------------------ errors


@pytest.mark.parametrize("args, message", [
    (["7h 8h 9h 10h 5c 5d 5x"], "'5x' is not a card: the suit 'x' is not one of s c d h (or ♠ ♣ ♦ ♥)."),
    (["7h 8h 9h 10h 5c 5d 11s"], "'11s' is not a card: the rank '11' is not one of A 2 3 4 5 6 7 8 9 10 J Q K."),
    (["1h 8h 9h 10h 5c 5d 5s"], "'1h' is not a card: write the ace as 'A' (for example 'Ah')."),
    (["7h 7h 7♥ 8h 9h 10h Jh"], "the hand holds 3 copies of 7h, but a pack of 2 decks and 4 jokers has only 2."),
    (["7h 7h 8h"], "a Rumino hand has 7 or 8 cards; 7h 7h 8h has 3."),
    (["7h 8h 9h"], "a Rumino hand has 7 or 8 cards; 7h 8h 9h has 3."),
    (["7h 8h 9h 10h 5c 5d 5s 2c 3c"], "a Rumino hand has 7 or 8 cards; 7h 8h 9h 10h 5c 5d 5s 2c 3c has 9."),
    (["2c 3c 4c 5c 6c 7c 8c 9c 10c", "--variant", "gin"], "a Gin Rummy hand has 10 or 11 cards;"),
    (["7h 8h 9h 10h 5c 5d 5s", "--variant", "canasta"],
     f"unknown variant 'canasta': choose one of {', '.join(VARIANTS)}."),  # every game, a new one too
    (["7h 8h 9h 10h 5c 5d 5s", "--variant", "rummoli"],
     "Rummoli has no melds and no deadwood: its rummy phase is a stops game (rules §2)."),
    (["JK JK JK JK JK 2c 3c"], "the hand holds 5 jokers, but a pack of 2 decks and 4 jokers has only 4."),
    (["Kh Kh 2c 3c 4c 5c 6c 7c 8c 9c", "--variant", "gin"],
     "the hand holds 2 copies of Kh, but a pack of 1 deck and no jokers has only 1."),
])
def test_errors_are_one_line_naming_the_input_with_exit_code_2(capsys, args, message):
    code, out, err = run(capsys, *args)
    assert code == 2 and out == ""
    assert err.count("\n") == 1 and err.startswith("rumino deadwood: ")
    assert message in err, err
