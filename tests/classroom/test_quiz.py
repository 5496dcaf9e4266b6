"""The quiz helpers: question dicts in jupyterquiz's format, their checks, and the offline HTML."""

from __future__ import annotations

import json
import math
import re
from fractions import Fraction

import numpy as np
import pytest

from rumino.classroom.quiz import _scope, choice, fmt, numeric, quiz_html, show_quiz


def _accepts(q: dict, typed: float) -> bool | None:
    """What jupyterquiz's numeric check says of ``typed``: True/False from the first range that holds
    it (the order it reads them in), None when none does (the default feedback)."""
    for a in q["answers"]:
        if a["type"] == "range" and a["range"][0] <= typed < a["range"][1]:
            return a["correct"]
    return None


def test_numeric_accepts_what_rounds_like_the_value():
    q = numeric("Chance of a heart on top?", Fraction(13, 52), digits=3)
    assert _accepts(q, 0.25) and _accepts(q, 0.2504) and _accepts(q, 13 / 52)
    assert _accepts(q, 0.2506) is None and _accepts(q, 0.249) is None
    assert "to 3 decimal places" in q["question"]
    assert q["answers"][0]["feedback"] == "Right: 0.250 (exactly 1/4)."


def test_numeric_whole_numbers_and_numpy_values():
    q = numeric("Hands?", np.int64(math.comb(52, 7)))
    assert _accepts(q, 133784560) and _accepts(q, 133784560.4) and not _accepts(q, 133784561)
    assert q["answers"][0]["feedback"] == "Right: 133,784,560."
    assert "(a whole number)" in q["question"]
    assert numeric("Mean?", np.float64(23.46), digits=1)["answers"][0]["range"] == pytest.approx([23.45, 23.55])


def test_numeric_near_values_get_their_own_feedback():
    q = numeric("Two-card hands?", 1326, near={2652: "Order does not matter."}, hint="Divide by 2.")
    assert _accepts(q, 2652) is False
    assert q["answers"][1]["feedback"] == "Not yet. Order does not matter."
    assert q["answers"][-1] == {"type": "default", "feedback": "Not yet: try again. Hint: Divide by 2."}
    with pytest.raises(ValueError, match="rounds like the answer"):
        numeric("Two-card hands?", 1326, near={1326.2: "same"})


@pytest.mark.parametrize("bad, err", [("12", TypeError), (True, TypeError), (float("nan"), ValueError),
                                      (math.inf, ValueError), (None, TypeError)])
def test_numeric_refuses_what_is_not_a_finite_number(bad, err):
    with pytest.raises(err):
        numeric("How many?", bad)


def test_numeric_refuses_bad_digits_and_questions():
    for digits in (-1, 13, 1.5, True):
        with pytest.raises(ValueError, match="digits"):
            numeric("How many?", 3, digits=digits)
    with pytest.raises(ValueError, match="question"):
        numeric("  ", 3)
    with pytest.raises(ValueError, match="rounds to 0"):
        numeric("Chance?", 0.004, digits=2)
    assert numeric("Zero?", 0)["answers"][0]["range"] == [-0.5, 0.5]


def test_choice_formats_numbers_and_keeps_feedback():
    q = choice("How many 2-card hands?", 1326, {2652: "Order does not matter.", 663: ""})
    assert [(a["answer"], a["correct"]) for a in q["answers"]] == [("1,326", True), ("2,652", False),
                                                                   ("663", False)]
    assert q["answers"][1]["feedback"] == "Not yet. Order does not matter."
    assert q["answers"][2]["feedback"] == "Not yet: try again."
    q = choice("Chance?", Fraction(1, 13), [Fraction(1, 4)], explain="One rank of 13.")
    assert [a["answer"] for a in q["answers"]] == ["1/13", "1/4"]
    assert q["answers"][0]["feedback"] == "Right. One rank of 13."


def test_choice_refuses_options_that_read_the_same_or_none():
    with pytest.raises(ValueError, match="read the same"):
        choice("Chance?", 0.3333, [Fraction(1, 3)], digits=2)
    with pytest.raises(ValueError, match="read the same"):
        choice("Which?", "a pair", ["a pair "])
    with pytest.raises(ValueError, match="wrong options"):
        choice("Which?", "a", [])
    with pytest.raises(TypeError, match="wrong must be"):
        choice("Which?", "a", "b")
    with pytest.raises(ValueError, match="needs digits"):
        choice("Chance?", 0.5, [0.25])


def test_text_is_shown_as_typed():
    q = choice("Is $5 [a lot](x) <b>?", "yes", ["no"])
    assert q["question"] == "Is &#36;5 &#91;a lot](x) &lt;b&gt;?"  # no formula, no link, no tag


def test_fmt():
    assert fmt(1000) == "1,000" and fmt(Fraction(3, 4)) == "3/4" and fmt(Fraction(3, 4), 2) == "0.75"
    assert fmt(np.int32(7)) == "7" and fmt(0.123456, 4) == "0.1235"


def test_quiz_html_needs_nothing_from_the_network_and_is_confined():
    page = quiz_html([numeric("Two plus two?", 4), choice("Pick", "a", ["b"])])
    assert not re.search(r"""(src|href)\s*=\s*["']?(https?:)?//""", page)
    assert "cdn." not in page and not re.search(r"https?://", page)
    assert "typeof MathJax" not in page  # no typesetting call, no MathJax loaded from elsewhere
    div_id = re.match(r'<div class="rumino-quiz" id="(\w+)"', page).group(1)
    style = page[page.index("<style>") + len("<style>"):page.index("</style>")]
    rules = re.findall(r"([^{}]+)\{", style)
    selectors = [s.strip() for r in rules for s in r.split(",")]
    loose = [s for s in selectors if not (s.startswith((f"#{div_id}", "@")) or re.fullmatch(r"\d+%", s))]
    assert not loose, loose  # every rule belongs to this quiz (jupyterquiz's sheet is global)
    assert "var questions" + div_id in page and "role" in page


def test_quiz_html_refuses_anything_but_questions():
    with pytest.raises(ValueError):
        quiz_html([])
    with pytest.raises(ValueError):
        quiz_html([{"type": "string", "question": "?"}])


def test_scope():
    assert _scope(".a{x:1}", "#q") == "#q .a {x:1}"


def test_show_quiz_displays_html_and_plain_text():
    from unittest import mock

    from IPython.core.formatters import format_display_data

    with mock.patch("IPython.display.display") as display:
        show_quiz([choice("Likelier?", "a pair", ["trips"])])
    (obj,), _ = display.call_args
    data, _ = format_display_data(obj)
    assert data["text/html"].startswith('<div class="rumino-quiz"')
    assert data["text/plain"] == "1. Likelier?\n   - a pair\n   - trips"


# ------------------------------------------------------------------------------------ the sealed quiz
# The student edition's quiz (quiz_html(sealed=True)): no answer and no feedback in the page's source,
# and a browser still marks a right answer right and a wrong one wrong.

def _sealed_questions():
    return [numeric("Chance of an ace?", Fraction(4, 52), digits=3, explain="Four aces of 52 cards.",
                    near={Fraction(1, 4): "That is a suit, not a rank."}, hint="Count the aces."),
            choice("Likelier in a 7-card hand?", "a pair", {"three of a kind": "Rarer: fewer ways."},
                   explain="More ways to make it."),
            numeric("Hands of 2 cards?", 1326)]


def test_a_sealed_quiz_holds_no_answer_and_no_feedback():
    plain, sealed = quiz_html(_sealed_questions()), quiz_html(_sealed_questions(), sealed=True)
    for secret in ("0.077", "1/13", "Right", "Four aces", "Rarer", "1,326", "1326", "a suit"):
        assert secret in plain, secret
        assert secret not in sealed, f"the sealed quiz shows {secret!r}"
    m = re.search(r"var questions\w+\s*=\s*", sealed)
    shown, _ = json.JSONDecoder().raw_decode(sealed[m.end():])
    assert [q["question"] for q in shown] == [q["question"] for q in _sealed_questions()]
    assert not any(a.get("correct") or "range" in a for q in shown for a in q["answers"])
    assert "Count the aces" in sealed  # the hint after a wrong answer gives nothing away


def test_seal_outputs_seals_the_quiz_of_an_executed_notebook_only():
    from rumino.classroom.quiz import seal_outputs

    quiz = quiz_html(_sealed_questions())
    nb = {"cells": [{"cell_type": "code", "outputs": [
        {"output_type": "display_data", "data": {"text/html": quiz, "text/plain": "1. Chance?"}},
        {"output_type": "display_data", "data": {"text/html": "<p>Right: a table</p>"}}]},
        {"cell_type": "markdown", "source": "Right: words"}]}
    assert seal_outputs(nb) == 1
    outs = nb["cells"][0]["outputs"]
    assert "Right" not in outs[0]["data"]["text/html"] and 'data-sealed' not in quiz
    assert outs[1]["data"]["text/html"] == "<p>Right: a table</p>"   # not a quiz: left alone


@pytest.mark.browser
def test_a_sealed_quiz_marks_right_and_wrong_answers_in_a_browser(chromium_path, tmp_path):
    from playwright.sync_api import sync_playwright

    from rumino.cli.bookbuild import CHROMIUM_ARGS

    page_file = tmp_path / "quiz.html"
    page_file.write_text("<!doctype html><html><head><meta charset='utf-8'></head><body>"
                         + quiz_html(_sealed_questions(), shuffle=True, sealed=True) + "</body></html>",
                         encoding="utf-8")
    with sync_playwright() as pw:
        browser = pw.chromium.launch(executable_path=chromium_path, args=CHROMIUM_ARGS)
        page = browser.new_page()
        errors = []
        page.on("pageerror", lambda e: errors.append(str(e)))
        page.goto(page_file.as_uri())
        page.wait_for_selector(".rumino-quiz[data-sealed=true][data-ready=true]")
        wraps = page.locator(".rumino-quiz .Quiz")

        def feedback(i):
            fb = wraps.nth(i).locator(".Feedback")
            page.wait_for_function("e => e.textContent.trim() !== ''", arg=fb.element_handle())
            text, cls = fb.inner_text().strip(), fb.get_attribute("class")
            fb.evaluate("e => { e.textContent = ''; }")
            return text, cls

        def typed(i, text):
            box = wraps.nth(i).locator("input.Input-text")
            box.fill(text)
            box.press("Enter")
            return feedback(i), box.get_attribute("class")

        # a number: right to the stated places, as a fraction too; a near value; wrong; not a number
        # the range of the plain quiz exactly: from 0.0765 (included) to 0.0775 (excluded)
        for right in ("0.077", "4/52", "0.0771", "7.7e-2", "0.0765"):
            (text, cls), box = typed(0, right)
            assert text == "Right: 0.077 (exactly 1/13). Four aces of 52 cards." and "incorrect" not in cls, right
            assert "correctButton" in box
        for wrong, said in (("0.25", "Not yet. That is a suit, not a rank."), ("1/4", "Not yet. That is a suit"),
                            ("0.08", "Not yet: try again. Hint: Count the aces."),
                            ("0.0775", "Not yet: try"), ("-0.077", "Not yet: try"), ("1/0", "Not yet: try")):
            (text, cls), box = typed(0, wrong)
            assert text.startswith(said) and "incorrect" in cls and "incorrectButton" in box, (wrong, text)
        # an option: the wrong one, then the right one (by the mouse) and the keyboard
        text, cls = (wraps.nth(1).locator("label.MCButton", has_text="three of a kind").click(), feedback(1))[1]
        assert text == "Not yet. Rarer: fewer ways." and "incorrect" in cls
        text, cls = (wraps.nth(1).locator("label.MCButton", has_text="a pair").click(), feedback(1))[1]
        assert text == "Right. More ways to make it." and "incorrect" not in cls
        assert "correctButton" in wraps.nth(1).locator("label.MCButton", has_text="a pair").get_attribute("class")
        wraps.nth(1).locator("label.MCButton", has_text="three of a kind").locator("input").focus()
        page.keyboard.press("Space")
        assert feedback(1)[0].startswith("Not yet")
        # a whole number: its neighbours are wrong
        assert typed(2, "1326")[0][0] == "Right: 1,326." and typed(2, "1327")[0][0].startswith("Not yet")
        assert errors == []
        browser.close()
