"""The per-item views of every suite with example data, in Chromium: the HTML report of the
suite's two runs (or its one run) shows score distributions, the items worst first with gold
beside prediction (values, not "—"), and for a comparison the items where the runs disagree
most. Screenshots go to the test's folder (docs/img with ASSAY_UPDATE_SCREENSHOTS=1)."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from assay._report.html import render_report, summary_views
from tests.report.suites import (
    SUITES,
    SuiteRuns,
    all_suite_runs,
    check_disagreements,
    check_items,
)
from tests.store.services import browser_context, screenshot_dir


@pytest.fixture(scope="module")
def suites(tmp_path_factory: pytest.TempPathFactory) -> dict[str, SuiteRuns]:
    return all_suite_runs(tmp_path_factory)


@pytest.fixture(scope="module")
def browser() -> Iterator[Any]:
    with browser_context() as ctx:
        yield ctx


@pytest.mark.parametrize("suite", list(SUITES))
def test_report_per_item_views(
    suite: str, suites: dict[str, SuiteRuns], browser: Any, tmp_path: Path
) -> None:
    runs = suites[suite]
    for run in (runs.a, runs.b):
        if run is not None:  # summaries as tables, not JSON dumps
            assert summary_views(run.summaries)[3] == [], (suite, run.name)
    shots = screenshot_dir(tmp_path)
    html = tmp_path / f"{suite}.html"
    both = [runs.a] if runs.b is None else [runs.a, runs.b]
    html.write_text(render_report(both, max_items=40), encoding="utf-8")
    page = browser.new_page()
    try:
        page.goto(html.as_uri())
        item = check_items(page, runs)
        item.screenshot(path=str(shots / f"report-item-{suite}.png"))
        page.locator("div.items").first.screenshot(path=str(shots / f"report-items-{suite}.png"))
        if runs.b is not None and check_disagreements(page, runs):
            page.locator("table.disagree").first.screenshot(
                path=str(shots / f"report-disagree-{suite}.png")
            )
    finally:
        page.close()
