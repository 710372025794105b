"""The dashboard for every suite with example data, in Chromium: each run's page shows score
distributions and its items worst first with gold beside prediction; from the compare page
of a suite's two runs, two clicks lead to the items that moved and why (the discordant count,
then an item); every filter and sort of the shared items' table and of the run's table is
set through its form and links, the counts checked against the artifacts; the runs list
shows each suite's headline metrics in the suite's order. Screenshots go to the test's folder
(docs/img with ASSAY_UPDATE_SCREENSHOTS=1)."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from assay._dashboard import serve_in_thread
from assay._report.triage import pair_table, run_table
from assay._store import RunStore
from tests.report.suites import (
    SUITES,
    SuiteRuns,
    TableDriver,
    all_suite_runs,
    check_items,
    drive_table,
    expected_outcomes,
    expected_statuses,
)
from tests.store.services import browser_context, screenshot_dir

#: suites whose screenshots docs/reports.md shows
DOCS_SHOTS = ("classification", "extraction")


@pytest.fixture(scope="module")
def dashboard(tmp_path_factory: pytest.TempPathFactory) -> Iterator[tuple[str, Any]]:
    """Every suite's runs in one store (the baseline stored before the candidate), served
    read-only; yields (base URL, browser)."""
    suites = all_suite_runs(tmp_path_factory)
    url = f"sqlite:///{tmp_path_factory.mktemp('dash') / 'suites.db'}"
    with RunStore(url) as st:
        for k, runs in enumerate(suites.values()):
            for j, run in enumerate((runs.b, runs.a)):
                st.add(run, stored_at=f"2026-02-{k + 1:02d}T0{j}:00:00+00:00")
    with RunStore(url, readonly=True) as ro, browser_context() as ctx:
        server, _ = serve_in_thread(ro)
        try:
            yield f"http://127.0.0.1:{server.server_address[1]}", ctx
        finally:
            server.shutdown()
            server.server_close()


@pytest.fixture(scope="module")
def suites(tmp_path_factory: pytest.TempPathFactory) -> dict[str, SuiteRuns]:
    return all_suite_runs(tmp_path_factory)


@pytest.mark.parametrize("suite", list(SUITES))
def test_dashboard_per_item_views_and_tables(
    suite: str, suites: dict[str, SuiteRuns], dashboard: tuple[str, Any], tmp_path: Path
) -> None:
    base, ctx = dashboard
    runs = suites[suite]
    docs = screenshot_dir(tmp_path)  # docs/img with ASSAY_UPDATE_SCREENSHOTS=1
    shots = tmp_path / "shots"  # every suite's, kept with the test's files
    shots.mkdir()
    page = ctx.new_page()
    errors: list[str] = []
    page.on("pageerror", lambda e: errors.append(str(e)))
    try:
        page.goto(f"{base}/runs/{runs.a.run_id}")
        assert page.locator("h1").first.inner_text().startswith(runs.a.name)
        item = check_items(page, page, runs)
        item.screenshot(path=str(shots / f"dashboard-item-{suite}.png"))
        # two clicks from the comparison's headline to the items that moved, and why
        page.goto(f"{base}/compare?run={runs.a.run_id}&run={runs.b.run_id}")
        assert "not comparable" not in page.inner_text("h1")
        table = pair_table(runs.a, runs.b)
        key = table.keys[0]
        want = expected_outcomes(runs, key.key, key.higher_is_better)
        which = "candidate" if want["candidate"] else "baseline"
        with page.expect_navigation():
            page.locator(f"a.move.{which}").first.click()  # click 1
        assert "/compare/items?" in page.url
        driver = TableDriver(page, "items", live=False)
        assert driver.matched() == want[which], (suite, which)
        assert set(page.locator("#items tbody td.better").all_inner_texts()) == {which}
        page.locator("#items tbody tr[data-id] summary").first.click()  # click 2
        detail = page.locator("#items tr.detail-row").first.inner_text()
        assert "gold" in detail and "candidate (" in detail and "baseline (" in detail
        folder = docs if suite in DOCS_SHOTS else shots
        page.screenshot(path=str(folder / f"dashboard-triage-{suite}.png"))
        checks = drive_table(driver, table, runs, thorough=False)
        # a run's own table: the same forms and links (its filters are the pair's less the
        # better-run one), driven in full on two suites, its statuses on every one
        page.goto(f"{base}/runs/{runs.a.run_id}/items")
        run_driver = TableDriver(page, "items", live=False)
        if suite in DOCS_SHOTS:
            checks += drive_table(run_driver, run_table(runs.a), runs, thorough=False)
        else:
            for status, n in expected_statuses(runs, pair=False).items():
                run_driver.set(status=status)
                assert run_driver.matched() == n, (suite, status)
        assert checks >= 15 and errors == [], errors
    finally:
        page.close()


def test_runs_list_shows_each_suites_primary_metric_first(
    suites: dict[str, SuiteRuns], dashboard: tuple[str, Any], tmp_path: Path
) -> None:
    base, ctx = dashboard
    page = ctx.new_page()
    try:
        page.goto(base + "/")
        for runs in suites.values():
            row = page.locator(f'tr[data-run="{runs.a.run_id}"]')
            heads = row.locator("td div strong")
            if not heads.count():
                continue  # a run without headline metrics lists none
            # the suite's primary metric (its run's first headline metric), then the others
            # in the run's order, not by name
            headline = [n for n, m in runs.a.metrics.items() if m.tier == "headline"]
            assert heads.all_inner_texts() == headline, runs.suite
        page.screenshot(path=str(tmp_path / "dashboard-runs-suites.png"))
    finally:
        page.close()
