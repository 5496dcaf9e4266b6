"""The class tally of a static page: its JavaScript against the Python it mirrors, on the same numbers.

* Without a browser: the CSV the page and the widget share reads back what it wrote, and a bad line is
  refused in one line naming it; the live widget saves and loads its tallies through that CSV.
* In Debian's Chromium, on a page holding the tally: the page's Wilson interval is
  :func:`rumino.stats.wilson_interval` (to the last bit) on a grid of counts; its summary of random classes
  is :meth:`ClassTally.summary` character for character; its refusals of bad counts and bad CSV lines say
  what the Python says; and three groups typed in pool as the Python pools them, download as the CSV
  the Python writes, and load back.
"""

from __future__ import annotations

import datetime
import random

import pytest

from rumino.classroom.experiment import EXPERIMENTS, ClassTally, Group, TallyError, parse_tally
from rumino.classroom.tally import read_tally_csv, tally_csv, tally_html
from rumino.cli import bookbuild
from rumino.stats import wilson_interval

GROUPS = [("A", "14", "30"), ("B", "17", "30"), ("C", "21", "30")]


def test_the_csv_reads_back_what_it_wrote_and_refuses_a_bad_line_naming_it():
    groups = [Group("A", 14, 30), Group("the, back row", 3, 12)]
    assert read_tally_csv(tally_csv("first_out", groups), "first_out") == groups
    with pytest.raises(TallyError, match=r"^line 3: trials is 0: a group needs at least 1\.$"):
        read_tally_csv("activity,group,successes,trials\nfirst_out,A,1,2\nfirst_out,B,0,0\n", "first_out")
    with pytest.raises(TallyError, match=r"^line 2: the tally is for the activity 'knock_meld', not 'first_out'"):
        read_tally_csv("activity,group,successes,trials\nknock_meld,A,1,2\n", "first_out")
    with pytest.raises(TallyError, match=r"^line 1: a tally file starts with the columns"):
        read_tally_csv("group,successes\nA,1\n", "first_out")


def test_the_live_widget_saves_and_loads_its_tallies(tmp_path):
    from rumino_widgets.class_experiment import ClassExperiment

    w = ClassExperiment("first_out", hands=5, seed=2)
    for name, s, n in GROUPS:
        w.successes.value, w.trials.value, w.group_name.value = s, n, name
        w.add_button.click()
    w.controller.save(tmp_path)
    saved = (tmp_path / "class-tally-first_out.csv").read_text(encoding="utf-8")
    assert saved == tally_csv("first_out", w.controller.tally.groups)
    other = ClassExperiment("rumino_meld")
    other.load_upload.value = ({"name": "class-tally-first_out.csv", "type": "text/csv", "size": len(saved),
                                "content": memoryview(saved.encode()),
                                "last_modified": datetime.datetime(2026, 1, 1, tzinfo=datetime.timezone.utc)},)
    assert other.controller.key == "first_out" and other.choice.value == "first_out"  # the file's experiment
    assert [(g.name, g.successes, g.trials) for g in other.controller.tally.groups] == [
        (n, int(s), int(t)) for n, s, t in GROUPS]
    assert other.controller.readout_text() == w.controller.readout_text()
    bad = saved.replace("21,30", "31,30")
    assert not other.controller.load_csv(bad, "bad.csv") and len(other.controller.tally.groups) == 3
    assert other.controller.error.startswith("bad.csv, line 4: successes is 31 but trials is 30")


@pytest.fixture(scope="module")
def page(chromium_path):
    from playwright.sync_api import sync_playwright

    with sync_playwright() as pw:
        browser = pw.chromium.launch(executable_path=chromium_path, args=bookbuild.CHROMIUM_ARGS)
        p = browser.new_page(accept_downloads=True)
        p.set_content("<!DOCTYPE html><html lang='en'><body><main>"
                      + tally_html(EXPERIMENTS.values()) + "</main></body></html>")
        p.wait_for_selector(".rumino-tally[data-ready=true]")
        yield p
        browser.close()


@pytest.mark.browser
def test_the_pages_interval_is_rumino_stats_to_the_last_bit(page):
    cases = [(s, n) for n in (1, 2, 3, 7, 10, 30, 59, 60, 180, 1000, 99_999) for s in sorted({0, 1, n // 3, n // 2, n - 1, n})
             if 0 <= s <= n]
    got = page.evaluate("cases => cases.map(c => ruminoTally.wilson(c[0], c[1]))", cases)
    assert [tuple(g) for g in got] == [wilson_interval(s, n) for s, n in cases]


@pytest.mark.browser
def test_the_pages_summary_and_refusals_are_the_pythons(page):
    rng = random.Random(39)
    for key, e in EXPERIMENTS.items():
        for _ in range(25):
            tally = ClassTally(key)
            for _ in range(rng.randint(1, 8)):
                n = rng.choice([5, 8, 10, 16, 20, 30, 40, 80])
                tally.add(rng.randint(0, n), n)
            groups = [{"successes": g.successes, "trials": g.trials} for g in tally.groups]
            js = page.evaluate("([g, p]) => ruminoTally.summary(g, p)", [groups, float(e.exact)])
            assert js == tally.summary(), (key, groups)
    for s, n in [("", "30"), ("12.5", "30"), ("-3", "30"), ("31", "30"), ("3", "0"), ("3", "1,000,000"),
                 ("1,2", "30"), ("x", "y")]:
        with pytest.raises(TallyError) as err:
            parse_tally(s, n)
        js = page.evaluate("([s, n]) => { try { ruminoTally.parseTally(s, n); return null; } "
                           "catch (e) { return e.message; } }", [s, n])
        assert js == str(err.value), (s, n)
    for text in ["activity,group,successes,trials\nfirst_out,A,3,2\n", "group\nA\n",
                 "activity,group,successes,trials\nfirst_out,A,3\n",
                 "activity,group,successes,trials\nknock_meld,A,1,2\n"]:
        with pytest.raises(TallyError) as err:
            read_tally_csv(text, "first_out")
        js = page.evaluate("t => { try { ruminoTally.parseCsv(t, 'first_out'); return null; } "
                           "catch (e) { return e.message; } }", text)
        assert js == str(err.value), text


@pytest.mark.browser
def test_three_groups_typed_pool_download_and_load_back(page, tmp_path):
    pool_three(page, "first_out", tmp_path)


def pool_three(page, key: str, tmp_path) -> None:
    """Type three groups into the page's tally for ``key``, check the pooled figure against the Python,
    download the CSV, clear, and load it back (shared with the built page's test)."""
    root = page.locator(".rumino-tally").first
    menu = root.locator("select.rumino-tally-activity")
    if menu.count():
        menu.select_option(key)
    root.locator(".rumino-tally-clear").click()
    for name, s, n in GROUPS:
        root.locator("input[name=group]").fill(name)
        root.locator("input[name=successes]").fill(s)
        root.locator("input[name=trials]").fill(n)
        root.locator(".rumino-tally-addbtn").click()
    tally = ClassTally(key)
    for name, s, n in GROUPS:
        tally.add(s, n, name)
    assert root.locator(".rumino-tally-result").inner_text().strip() == tally.summary()
    assert root.locator("tbody tr").count() == 3
    assert root.locator(".rumino-tally-plot svg circle").count() == 3
    root.locator("input[name=successes]").fill("31")  # a bad tally is refused and changes nothing
    root.locator("input[name=trials]").fill("30")
    root.locator(".rumino-tally-addbtn").click()
    assert root.locator(".rumino-tally-error").inner_text().strip() == \
        "successes is 31 but trials is 30: a group cannot count more successes than trials."
    assert root.locator("tbody tr").count() == 3
    with page.expect_download() as info:
        root.locator(".rumino-tally-download").click()
    download = info.value
    assert download.suggested_filename == f"class-tally-{key}.csv"
    saved = tmp_path / download.suggested_filename
    download.save_as(saved)
    assert saved.read_text(encoding="utf-8") == tally_csv(key, tally.groups)
    root.locator(".rumino-tally-clear").click()
    assert root.locator("tbody tr").count() == 0
    root.locator(".rumino-tally-load input").set_input_files(str(saved))
    page.wait_for_function("r => r.querySelectorAll('tbody tr').length === 3", arg=root.element_handle())
    assert root.locator(".rumino-tally-result").inner_text().strip() == tally.summary()
