"""The per-item views of every suite with example data, in Chromium: the HTML report of the
suite's two runs (or its one run) shows score distributions, the items worst first with gold
beside prediction (values, not "—"), and for a comparison the items where the runs disagree
most. Screenshots go to the test's folder (docs/img with ASSAY_UPDATE_SCREENSHOTS=1)."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from assay.report.html import disagreements, render_report
from tests.report.suites import SUITES, SuiteRuns, suite_runs
from tests.store.services import browser_context, screenshot_dir


@pytest.fixture(scope="module")
def suites(tmp_path_factory: pytest.TempPathFactory) -> dict[str, SuiteRuns]:
    folder = tmp_path_factory.mktemp("suites")
    return {name: suite_runs(name, folder) for name in SUITES}


@pytest.fixture(scope="module")
def browser() -> Iterator[Any]:
    with browser_context() as ctx:
        yield ctx


def check_items(page: Any, runs: SuiteRuns) -> Any:
    """The assertions the report and the dashboard share, on the page's first run: a score
    histogram, the worst-first note, and the first item opened shows gold beside prediction
    with values on both sides, and we keep a screenshot of it."""
    items = page.locator("div.items").first
    assert items.locator("figure.hist").count() >= 1, runs.suite
    note = items.inner_text()
    assert "worst first by" in note or runs.a.cohort.evaluated == 0, note[:300]
    # the first scored item (failed and missing ones come first and have one side only)
    first = items.locator("details.item", has=page.locator("span.status-ok")).first
    first.locator("summary").click()
    sides = first_item_sides(first)
    assert sides, f"{runs.suite}: no gold/prediction in the first item"
    assert any(g not in ("", "—") for g, _ in sides), (runs.suite, sides)
    assert any(p not in ("", "—") for _, p in sides), (runs.suite, sides)
    return first


def first_item_sides(item: Any) -> list[tuple[str, str]]:
    """(gold, prediction) texts of an opened item: a field table's rows, or the pair."""
    rows = item.locator("table.fields tbody tr")
    if rows.count():
        out = []
        for i in range(rows.count()):
            cells = rows.nth(i).locator("td pre")
            out.append((cells.nth(0).inner_text().strip(), cells.nth(1).inner_text().strip()))
        return out
    pair = item.locator("div.pair pre")
    if pair.count() == 2:
        return [(pair.nth(0).inner_text().strip(), pair.nth(1).inner_text().strip())]
    return []


def check_disagreements(page: Any, runs: SuiteRuns) -> bool:
    """A comparison lists the items the runs disagree on, each with gold and both answers, or
    says that they agree on every item (biblio's demo: one system in two dialects). Returns
    whether there is a list."""
    assert runs.b is not None
    key, rows = disagreements(runs.a, runs.b)
    if not rows:
        assert key is not None
        assert f"A and B score every shared item the same on {key}" in page.inner_text("body")
        return False
    table = page.locator("table.disagree").first
    assert table.count(), f"{runs.suite}: no disagreement list"
    first = table.locator("tbody tr").first.locator("td")
    gold, pred_a, pred_b = (first.nth(i).inner_text().strip() for i in (5, 6, 7))
    assert "—" not in (gold, pred_a, pred_b), (runs.suite, gold, pred_a, pred_b)
    return True


@pytest.mark.parametrize("suite", list(SUITES))
def test_report_per_item_views(
    suite: str, suites: dict[str, SuiteRuns], browser: Any, tmp_path: Path
) -> None:
    runs = suites[suite]
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
