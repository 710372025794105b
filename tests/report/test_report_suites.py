"""Every suite's report in Chromium: the per-item views (score distributions, the worst items
with gold beside prediction), and the item tables driven as a user does — the comparison's
discordant counts open the items that moved (one click) and an item opens to gold, both
answers and the parts that changed (two); every filter and sort of the shared items' table
and of the run's table is set, and the counts shown are checked against the artifacts.
Screenshots go to the test's folder (docs/img with ASSAY_UPDATE_SCREENSHOTS=1)."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from assay._report.html import render_report, summary_views
from assay._report.triage import pair_table, run_table
from tests.report.suites import (
    SUITES,
    SuiteRuns,
    TableDriver,
    all_suite_runs,
    check_items,
    drive_table,
    expected_outcomes,
)
from tests.store.services import browser_context, screenshot_dir

#: suites whose screenshots docs/reports.md shows
DOCS_SHOTS = ("classification", "extraction", "translation")


@pytest.fixture(scope="module")
def suites(tmp_path_factory: pytest.TempPathFactory) -> dict[str, SuiteRuns]:
    return all_suite_runs(tmp_path_factory)


@pytest.fixture(scope="module")
def browser() -> Iterator[Any]:
    with browser_context() as ctx:
        yield ctx


def two_clicks(page: Any, runs: SuiteRuns, section: str) -> Any:
    """From the comparison's headline to the items that moved and why: click the count of
    items the candidate (else the baseline) did better on, then open the first of them.
    Returns the opened row's detail."""
    table = pair_table(runs.a, runs.b)
    key = table.keys[0]
    want = expected_outcomes(runs, key.key, key.higher_is_better)
    which = "candidate" if want["candidate"] else "baseline"
    move = page.locator(f"a.move.{which}").first
    assert move.locator("span.n").inner_text() == str(want[which]), runs.suite
    move.click()  # click 1
    driver = TableDriver(page, section, live=True)
    assert driver.matched() == want[which], (runs.suite, which)
    better = page.locator(f"#{section} tbody td.better")
    assert set(better.all_inner_texts()) == {which}, runs.suite
    page.locator(f"#{section} tbody tr[data-id] summary").first.click()  # click 2
    detail = page.locator(f"#{section} tr.detail-row").first
    text = detail.inner_text()
    assert "gold" in text and "candidate (" in text and "baseline (" in text, runs.suite
    return detail


@pytest.mark.parametrize("suite", list(SUITES))
def test_report_per_item_views_and_tables(
    suite: str, suites: dict[str, SuiteRuns], browser: Any, tmp_path: Path
) -> None:
    runs = suites[suite]
    for run in (runs.a, runs.b):  # summaries as tables, not JSON dumps
        assert summary_views(run.summaries)[3] == [], (suite, run.name)
    docs = screenshot_dir(tmp_path)  # docs/img with ASSAY_UPDATE_SCREENSHOTS=1
    shots = tmp_path / "shots"  # every suite's, kept with the test's files
    shots.mkdir()
    html = tmp_path / f"{suite}.html"
    html.write_text(render_report([runs.a, runs.b], max_items=40), encoding="utf-8")
    page = browser.new_page()
    errors: list[str] = []
    page.on("pageerror", lambda e: errors.append(str(e)))
    page.on("console", lambda m: errors.append(m.text) if m.type == "error" else None)
    try:
        page.goto(html.as_uri())
        # the run's per-item views (the candidate's section follows the comparison)
        run_section = page.locator("section.run").first
        item = check_items(run_section, page, runs)
        item_folder = docs if suite == "extraction" else shots
        item.screenshot(path=str(item_folder / f"report-item-{suite}.png"))
        # the comparison: two clicks from its headline to the items that moved, and why
        detail = two_clicks(page, runs, "items-pair-0")
        assert detail.is_visible()
        detail.scroll_into_view_if_needed()
        page.screenshot(
            path=str((docs if suite in DOCS_SHOTS else shots) / f"report-triage-{suite}.png")
        )
        page.locator("#items-pair-0 tbody tr[data-id] summary").first.click()  # closes
        # every filter and sort of both tables
        checks = drive_table(TableDriver(page, "items-pair-0", True), pair_table(runs.a, runs.b),
                             runs)  # fmt: skip
        checks += drive_table(TableDriver(page, "items-run-0", True), run_table(runs.a), runs)
        assert checks >= 20
        assert errors == [], errors
    finally:
        page.close()


def test_a_cut_table_says_so_and_without_script_reads_as_a_table(
    suites: dict[str, SuiteRuns], browser: Any, tmp_path: Path
) -> None:
    """A table cut to its limit says how many items it holds of how many (the most moved
    first); with JavaScript off the first rows are a plain table and the filters, which
    need the script, are not offered."""
    runs = suites["classification"]
    html = tmp_path / "cut.html"
    html.write_text(render_report([runs.a, runs.b], max_items=10, table_limit=60))
    page = browser.new_page()
    try:
        page.goto(html.as_uri())
        banner = page.locator("#items-pair-0 [data-truncated]").inner_text()
        assert "holds 60 of the 400 items (the most moved first)" in banner
        assert (
            "of 60 embedded; the run has 400"
            in page.locator("#items-pair-0 [data-count]").inner_text()
        )
        driver = TableDriver(page, "items-pair-0", True)
        driver.set(outcome="moved")
        assert driver.matched() == 60  # the 60 kept are among the 117 that moved
    finally:
        page.close()
    # without the script: the first rows as a plain table, the filters (which need it) hidden
    text = html.read_text(encoding="utf-8")
    section = text.split('id="items-pair-0"', 1)[1].split("</section>", 1)[0]
    assert '<form class="filters triage-filters" method="get" hidden>' in section
    assert section.count("<tr data-id=") == 50
    assert "filtering needs JavaScript" in section
