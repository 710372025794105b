"""The dashboard in a real browser (system Chromium via Playwright): runs list, a run page,
comparing two runs with significance markers, a refused cross-surface comparison, the
history, screenshots for docs/, and XSS probes."""

from __future__ import annotations

from pathlib import Path

from assay._compare.comparison import compare
from assay._dashboard import serve_in_thread
from assay._store import RunStore
from tests.store.services import XSS, DemoRuns, browser_context, screenshot_dir


def test_dashboard_in_chromium(tmp_path: Path, demo: DemoRuns) -> None:
    url = f"sqlite:///{tmp_path / 'b.db'}"
    shots = screenshot_dir(tmp_path)
    with RunStore(url) as st:
        for i, run in enumerate(
            [demo.baseline, demo.candidate, demo.subset, demo.reseeded, demo.hostile]
        ):
            st.add(run, stored_at=f"2026-01-0{i + 1}T00:00:00+00:00")
    with RunStore(url, readonly=True) as ro, browser_context() as ctx:
        server, _ = serve_in_thread(ro)
        base = f"http://127.0.0.1:{server.server_address[1]}"
        try:
            page = ctx.new_page()
            dialogs: list[str] = []
            page.on("dialog", lambda d: (dialogs.append(d.message), d.dismiss()))
            page.goto(base + "/")
            assert page.locator("#runs tbody tr").count() == 5
            page.screenshot(path=str(shots / "dashboard-runs.png"))

            page.select_option("select[name=task]", "classification")
            page.fill("input[name=name]", "base")
            page.click("form.filters button")
            assert page.locator("#runs tbody tr").count() == 1
            page.click(f"text={demo.baseline.name}")
            assert page.url.endswith(f"/runs/{demo.baseline.run_id}")
            assert page.locator("h1").first.inner_text().startswith("baseline")

            page.goto(base + "/")
            page.check(f'input[value="{demo.candidate.run_id}"]')
            page.check(f'input[value="{demo.baseline.run_id}"]')
            page.click("#compare-button")
            assert "/compare?" in page.url
            marker = page.locator('td[data-metric="exact_match"]').first.inner_text()
            tested = compare(demo.candidate, demo.baseline, significance=True).significance
            assert marker == next(r.stars for r in tested if r.metric_name == "exact_match")
            assert "best" in page.locator("#vs-best").inner_text()
            # the newer run, ticked on the newest-first list, is the candidate
            heading = page.locator("section.pair-comparison h2").first.inner_text()
            assert (
                heading.startswith("candidate candidate") and "against baseline baseline" in heading
            )
            page.screenshot(path=str(shots / "dashboard-compare.png"))

            page.goto(base + "/")
            page.check(f'input[value="{demo.candidate.run_id}"]')
            page.check(f'input[value="{demo.subset.run_id}"]')
            page.click("#compare-button")
            assert "not comparable" in page.locator("h1").inner_text()
            assert "sample size" in page.locator("#reasons").inner_text()

            page.goto(f"{base}/history?surface={demo.baseline.surface.fingerprint}")
            assert page.locator("#history tbody tr").count() == 3  # reseeded shares the data
            assert "differ in seed or sample size" in page.inner_text("body")
            page.screenshot(path=str(shots / "dashboard-history.png"))

            page.goto(f"{base}/runs/{demo.baseline.run_id}")
            assert page.locator("figure.hist").count() >= 1
            assert "worst first by exact_match" in page.inner_text("div.items")
            page.locator("div.items").first.screenshot(path=str(tmp_path / "dashboard-items.png"))

            page.goto(f"{base}/runs/{demo.hostile.run_id}")
            body = page.text_content("body") or ""
            assert XSS in body
            # the item table: hostile gold and answers stay text, found, shown and opened
            page.goto(f"{base}/runs/{demo.hostile.run_id}/items?q=script")
            assert int(page.locator("#items [data-count]").get_attribute("data-matched")) >= 1
            page.locator("#items tbody tr[data-id] summary").first.click()
            assert "<script>window.__xss" in page.locator("#items tr.detail-row").inner_text()
            page.goto(f"{base}/runs/{demo.hostile.run_id}/items?q=%3Cscript%3E&sort=nope")
            assert "sort must be one of" in page.inner_text("body")
            page.goto(f"{base}/?name=%3Cscript%3Ewindow.__xss%3D3%3C/script%3E")
            assert page.evaluate("window.__xss") is None and dialogs == []
        finally:
            server.shutdown()
            server.server_close()
