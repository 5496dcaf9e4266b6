"""``rumino odds``: exact and simulated deal odds, drawing odds, and refusals with exit code 2."""

from __future__ import annotations

import json
from fractions import Fraction
from math import comb

import pytest

from rumino.cli import main


def run(capsys, *argv):
    code = main(list(argv))
    out, err = capsys.readouterr()
    return code, out, err


def test_draws_text_and_json(capsys):
    code, out, _ = run(capsys, "odds", "draws", "--outs", "2", "--unseen", "4", "--draws", "2")
    assert code == 0 and "= 5/6 = 0.833333 (1 in 1.2)" in out and "(4+1)/(2+1) = 5/3" in out
    code, out, _ = run(capsys, "odds", "draws", "--outs", "8", "--unseen", "47", "--draws", "3", "--json")
    data = json.loads(out)
    p = data["p_at_least_one"]
    assert Fraction(p["numerator"], p["denominator"]) == 1 - Fraction(comb(39, 3), comb(47, 3))
    assert data["expected_draws_to_first_out"] == {"numerator": 16, "denominator": 3, "value": 16 / 3}


@pytest.mark.parametrize("argv,message", [
    (["odds", "draws", "--outs", "5", "--unseen", "4", "--draws", "1"], "outs is 5 but only 4 cards are unseen"),
    (["odds", "draws", "--outs", "1", "--unseen", "4", "--draws", "-1"], "draws is -1"),
    (["odds", "draws", "--outs", "1", "--unseen", "4", "--draws", "5"], "draws is 5 but only 4"),
    (["odds", "deal", "--variant", "canasta", "--exact"], "unknown variant 'canasta'"),
    (["odds", "deal", "--variant", "rummoli", "--exact"], "Rummoli has no melds"),
    (["odds", "deal", "--variant", "wiener", "--exact"], "3,851,104,712 suit classes"),
    (["odds", "deal", "--variant", "romme", "--exact", "--full"], "beyond the 1,000,000,000"),
    (["odds", "deal", "--exact", "--samples", "10"], "choose one of --exact or --samples"),
    (["odds", "deal"], "choose one of --exact or --samples"),
    (["odds", "deal", "--samples", "10"], "needs --seed"),
    (["odds", "deal", "--samples", "0", "--seed", "1"], "--samples is 0"),
    (["odds", "deal", "--samples", "10", "--seed", "1", "--workers", "0"], "--workers is 0"),
])
def test_impossible_arguments_exit_2_with_a_message(capsys, argv, message):
    code, out, err = run(capsys, *argv)
    assert code == 2 and out == ""
    assert message in err and err.startswith(f"rumino odds {argv[1]}: ")  # the command and its action speak


def test_argparse_refuses_non_numbers(capsys):
    with pytest.raises(SystemExit) as exc:
        main(["odds", "draws", "--outs", "two", "--unseen", "4", "--draws", "1"])
    assert exc.value.code == 2


def _frac(d):
    assert set(d) == {"numerator", "denominator", "value"}
    f = Fraction(d["numerator"], d["denominator"])
    assert d["value"] == float(f)
    return f


@pytest.mark.slow
def test_exact_rumino_deal_json(capsys):
    code, out, err = run(capsys, "odds", "deal", "--variant", "rumino", "--exact", "--json", "--no-progress")
    assert code == 0 and err == ""
    r = json.loads(out)
    assert r["total"] == comb(108, 7) and r["classes"] == 14_945_658
    hist = {int(d): n for d, n in r["deadwood_distribution"].items()}
    assert sum(hist.values()) == r["total"]
    assert _frac(r["gin"]) == Fraction(hist[0], r["total"])
    assert _frac(r["can_knock"]) == Fraction(sum(n for d, n in hist.items() if d <= 7), r["total"])
    assert _frac(r["mean_deadwood"]) == Fraction(sum(d * n for d, n in hist.items()), r["total"])
    assert _frac(r["rumino"]) > 0
    assert sorted(r["by_jokers"]) == ["0", "1", "2", "3", "4"]
    assert sum(b["total"] for b in r["by_jokers"].values()) == r["total"]
    for j, b in r["by_jokers"].items():
        assert b["total"] == comb(4, int(j)) * comb(104, 7 - int(j))
        assert {"gin", "rumino", "can_knock", "mean_deadwood", "deadwood_distribution"} <= set(b)


@pytest.mark.slow
def test_exact_rumino_deal_text(capsys):
    code, out, _ = run(capsys, "odds", "deal", "--exact", "--no-progress")
    assert code == 0
    assert "P(gin) = 91129/129088973 = 0.000705939 (1 in 1,417)" in out
    assert "P(may knock: deadwood ≤ 7) = " in out and "4 jokers: 182,104 deals" in out


def test_exact_gin_deal_counts_dealt_gin_and_says_what_it_omits(capsys):
    code, out, _ = run(capsys, "odds", "deal", "--variant", "gin", "--exact", "--json")
    r = json.loads(out)
    assert code == 0 and r["total"] == comb(52, 10)
    assert _frac(r["gin"]) == Fraction(136_694, comb(52, 10))
    assert "deadwood_distribution" in r["omitted"] and "rumino" not in r


def test_sampled_deal_json_has_intervals(capsys):
    code, out, err = run(capsys, "odds", "deal", "--variant", "rumino", "--samples", "50000", "--seed", "12",
                         "--json")
    assert code == 0
    assert err == ""  # stderr is no terminal here: the progress bar is left out (no carriage returns in a file)
    r = json.loads(out)
    assert r["n"] == r["total"] == 50_000 and r["seed"] == 12 and r["method"] == "monte carlo"
    for key in ("gin", "rumino", "can_knock", "mean_deadwood"):
        e = r[key]
        assert e["n"] == 50_000 and e["seed"] == 12 and e["ci95"][0] <= e["value"] <= e["ci95"][1]
    assert sum(r["deadwood_distribution"].values()) == 50_000
    assert sum(b["total"] for b in r["by_jokers"].values()) == 50_000
    # the same seed gives the same figures
    code, again, _ = run(capsys, "odds", "deal", "--samples", "50000", "--seed", "12", "--json", "--no-progress")
    assert json.loads(again) == r


def test_sampled_gin_deal_text(capsys):
    code, out, _ = run(capsys, "odds", "deal", "--variant", "gin", "--samples", "20000", "--seed", "1",
                       "--no-progress")
    assert code == 0 and "P(may knock: deadwood ≤ 10) ≈" in out and "n = 20,000" in out and "rumino" not in out
