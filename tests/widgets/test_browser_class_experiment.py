"""Real browser (Voilà + Chromium): the class experiment demo takes a typed tally, pools it, and refuses
a bad one with its message, changing nothing. See test_browser_widgets.py for the set-up."""

from __future__ import annotations

import pytest

from rumino.classroom.experiment import ClassTally, TallyError
from voila_pages import (ARTIFACTS, DEMOS, PAGE_TIMEOUT_MS, STEP_TIMEOUT_MS,  # noqa: F401 (fixtures)
                         _wait_text, browser, open_demo, wait_until)

pytestmark = [pytest.mark.browser, pytest.mark.timeout(600)]  # above the page waits (120 s a step), as test_browser_widgets

CE = ".rumino-class-experiment"


def _add(page, successes: str, trials: str) -> None:
    page.fill(f"{CE} .rumino-experiment-successes input", successes)
    page.fill(f"{CE} .rumino-experiment-trials input", trials)
    page.click(f"{CE} button.rumino-experiment-add")


def _wait_points(page, n: int) -> list[float]:
    """The plot's running estimate once it has ``n`` points (the third trace: band, band, estimate)."""
    plot = f"{CE} .rumino-experiment-plot .js-plotly-plot"
    wait_until(page, "([sel, n]) => { const d = document.querySelector(sel); "
               "return !!d && !!d.data && d.data.length > 2 && (d.data[2].y || []).length === n; }", [plot, n])
    return page.eval_on_selector(plot, "d => Array.from(d.data[2].y)")


def test_class_experiment_typed_tally_then_a_bad_one(open_demo):
    page = open_demo("class_experiment", f"{CE} .rumino-experiment-instructions")
    assert "No groups yet" in page.inner_text(f"{CE} .rumino-static-table, {CE} .rumino-info")

    # a group's tally, as a teacher types it: the pooled estimate, its interval, the exact value
    tally = ClassTally("rumino_meld")  # the demo's experiment
    tally.add("11", "30")
    _add(page, "11", "30")
    text = _wait_text(page, f"{CE} .rumino-experiment-readout", "pooled: 11 of 30")
    assert text.strip().endswith(tally.summary())
    assert page.locator(f"{CE} .rumino-experiment-groups tbody tr").count() == 1
    assert page.input_value(f"{CE} .rumino-experiment-successes input") == ""
    _wait_points(page, 1)

    # a bad tally: the message names the field and the reason, and nothing else changes
    with pytest.raises(TallyError) as info:
        tally.add("40", "30")
    _add(page, "40", "30")
    message = _wait_text(page, f"{CE} .rumino-experiment-message .rumino-error", "successes is 40")
    assert message.strip() == str(info.value)
    assert page.inner_text(f"{CE} .rumino-experiment-readout").strip().endswith(tally.summary())
    assert page.locator(f"{CE} .rumino-experiment-groups tbody tr").count() == 1
    assert "Traceback" not in page.inner_text("body")

    # a second good group clears the message and pools both
    tally.add("9", "30")
    _add(page, "9", "30")
    text = _wait_text(page, f"{CE} .rumino-experiment-readout", "pooled: 20 of 60")
    assert text.strip().endswith(tally.summary())
    assert page.locator(f"{CE} .rumino-experiment-message .rumino-error").count() == 0
    ys = _wait_points(page, 2)
    assert ys == [e.value for e in tally.running()]
