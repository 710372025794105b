"""The dashboard's per-item views for every suite with example data, in Chromium: each run's
page shows score distributions and its items worst first with gold beside prediction; the
compare page of a suite's two runs lists where they disagree, with gold and both answers; the
runs list shows each suite's primary metric first. Screenshots go to the test's folder
(docs/img with ASSAY_UPDATE_SCREENSHOTS=1)."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from assay._dashboard import serve_in_thread
from assay._store import RunStore
from tests.report.suites import (
    SUITES,
    SuiteRuns,
    all_suite_runs,
    check_disagreements,
    check_items,
)
from tests.store.services import browser_context, screenshot_dir


@pytest.fixture(scope="module")
def dashboard(tmp_path_factory: pytest.TempPathFactory) -> Iterator[tuple[str, Any]]:
    """Every suite's runs in one store, served read-only; yields (base URL, browser)."""
    suites = all_suite_runs(tmp_path_factory)
    url = f"sqlite:///{tmp_path_factory.mktemp('dash') / 'suites.db'}"
    with RunStore(url) as st:
        for k, runs in enumerate(suites.values()):
            for j, run in enumerate(r for r in (runs.b, runs.a) if r is not None):
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
def test_dashboard_per_item_views(
    suite: str, suites: dict[str, SuiteRuns], dashboard: tuple[str, Any], tmp_path: Path
) -> None:
    base, ctx = dashboard
    runs = suites[suite]
    shots = screenshot_dir(tmp_path)
    page = ctx.new_page()
    try:
        page.goto(f"{base}/runs/{runs.a.run_id}")
        assert page.locator("h1").first.inner_text().startswith(runs.a.name)
        item = check_items(page, runs)
        item.screenshot(path=str(shots / f"dashboard-item-{suite}.png"))
        page.locator("div.items").first.screenshot(path=str(shots / f"dashboard-items-{suite}.png"))
        if runs.b is not None:
            page.goto(f"{base}/compare?run={runs.a.run_id}&run={runs.b.run_id}")
            assert "/compare?" in page.url and "not comparable" not in page.inner_text("h1")
            if check_disagreements(page, runs):
                page.locator("table.disagree").first.screenshot(
                    path=str(shots / f"dashboard-disagree-{suite}.png")
                )
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
        page.screenshot(path=str(screenshot_dir(tmp_path) / "dashboard-runs-suites.png"))
    finally:
        page.close()
