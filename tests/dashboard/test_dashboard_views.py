"""Dashboard pages without a browser: runs list and filters, run page, the compare view's
same-surface rule, history; the server is read-only and bound to 127.0.0.1."""

from __future__ import annotations

import urllib.error
import urllib.request
from collections.abc import Iterator
from pathlib import Path

import pytest

from assay._dashboard import compare_page, history_page, run_page, runs_page, serve_in_thread
from assay._store import RunStore
from assay.errors import UsageError
from tests.store.services import DemoRuns


@pytest.fixture
def store(tmp_path: Path, demo: DemoRuns) -> Iterator[RunStore]:
    url = f"sqlite:///{tmp_path / 'd.db'}"
    with RunStore(url) as st:
        for i, run in enumerate(
            [demo.baseline, demo.candidate, demo.subset, demo.reseeded, demo.hostile]
        ):
            st.add(run, stored_at=f"2026-01-0{i + 1}T00:00:00+00:00")
    with RunStore(url, readonly=True) as ro:
        yield ro


def test_runs_list_and_filters(store: RunStore, demo: DemoRuns) -> None:
    page = runs_page(store, {})
    assert page.status == 200 and "runs 1–5 of 5" in page.html
    assert page.html.index(">hostile ") < page.html.index(">baseline<")  # newest first
    assert "&lt;script&gt;" in page.html and "<script" not in page.html
    page = runs_page(store, {"name": ["cand"]})
    assert "runs 1–1 of 1" in page.html
    page = runs_page(store, {"surface": [demo.subset.surface.fingerprint[:8]]})
    assert "runs 1–1 of 1" in page.html
    with pytest.raises(UsageError, match="page must be a whole number"):
        runs_page(store, {"page": ["x"]})


def test_run_page(store: RunStore, demo: DemoRuns) -> None:
    page = run_page(store, demo.baseline.run_id, {"page": ["1"]})
    assert page.status == 200
    assert "items 101–200 of 400, worst first by exact_match" in page.html
    assert "page 2 of 4" in page.html
    assert run_page(store, "nope", {}).status == 404


def test_compare_enforces_the_same_surface_rule(store: RunStore, demo: DemoRuns) -> None:
    ok = compare_page(store, {"run": [demo.baseline.run_id, demo.candidate.run_id]})
    assert ok.status == 200 and "Δ vs best" in ok.html
    assert '<span class="sig">*</span>' in ok.html  # baseline's exact_match vs the best run
    refused = compare_page(store, {"run": [demo.candidate.run_id, demo.subset.run_id]})
    assert refused.status == 409
    assert "dataset fingerprint" in refused.html and "sample size 150" in refused.html
    reseeded = compare_page(store, {"run": [demo.candidate.run_id, demo.reseeded.run_id]})
    assert reseeded.status == 409 and "used seed 7" in reseeded.html
    assert compare_page(store, {"run": [demo.baseline.run_id]}).status == 400


def test_history(store: RunStore, demo: DemoRuns) -> None:
    fp = demo.baseline.surface.fingerprint
    page = history_page(store, {"surface": [fp[:10]]})
    assert page.status == 200 and "History of exact_match" in page.html
    assert page.html.count('<a href="/runs/') >= 3
    assert "+0.000" in page.html  # the best run's Δ vs best
    assert history_page(store, {}).status == 200
    assert history_page(store, {"surface": ["ffff"]}).status == 404


def test_history_pages_the_table_and_plot_not_the_line(tmp_path: Path, demo: DemoRuns) -> None:
    """A surface of 60 runs: the line chart draws all 60, the table and the forest plot the
    newest 50 (page 0) or the 10 before them (page 1, and any page past it); a hostile run
    name is escaped in all three."""
    import re

    from assay._dashboard.views import HISTORY_PAGE
    from assay._store.store import insert_run
    from tests.store.services import XSS

    url = f"sqlite:///{tmp_path / 'h.db'}"
    with RunStore(url) as st, st.engine.begin() as conn:
        for k in range(60):
            name = XSS if k == 59 else f"run-{k}"
            run = demo.baseline.model_copy(update={"run_id": f"h{k:03d}", "name": name})
            insert_run(conn, run, stored_at=f"2026-02-01T00:{k // 60:02d}:{k % 60:02d}+00:00")
    fp = demo.baseline.surface.fingerprint
    assert HISTORY_PAGE == 50
    with RunStore(url, readonly=True) as st:
        newest = history_page(st, {"surface": [fp[:12]]}).html
        older = history_page(st, {"surface": [fp[:12]], "page": ["1"]}).html
        past = history_page(st, {"surface": [fp[:12]], "page": ["7"]}).html
        with pytest.raises(UsageError):
            history_page(st, {"surface": [fp[:12]], "page": ["x"]})

    def table_ids(html: str) -> list[str]:
        body = html[html.index('<table id="history">') :]
        return re.findall(r'<a href="/runs/(h\d+)">', body)

    assert table_ids(newest) == [f"h{k:03d}" for k in range(10, 60)]  # oldest first
    assert table_ids(older) == [f"h{k:03d}" for k in range(10)] == table_ids(past)
    assert "runs 11–60 of 60 (oldest first)" in newest and "← older" in newest
    assert "newer →" not in newest and "runs 1–10 of 60" in older and "newer →" in older
    for html in (newest, older):
        line = html[html.index('<figure class="line">') : html.index('<figure class="forest">')]
        assert line.count("<circle") == 60 and line.count('<path class="ci"') == 1
        forest = html[
            html.index('<figure class="forest">') : html.index(
                "</figure>", html.index('<figure class="forest">')
            )
        ]
        assert forest.count("<circle") == len(table_ids(html))
    assert "<script" not in newest and newest.count("&lt;script&gt;") >= 3  # line, plot, table
    assert "&lt;script&gt;" in older  # the line chart covers the oldest page too


def test_server_is_read_only(store: RunStore, demo: DemoRuns) -> None:
    server, _ = serve_in_thread(store)
    try:
        host, port = server.server_address[:2]
        assert host == "127.0.0.1"
        with urllib.request.urlopen(f"http://127.0.0.1:{port}/runs/{demo.baseline.run_id}") as r:
            assert r.status == 200 and "default-src 'none'" in r.headers["Content-Security-Policy"]
        request = urllib.request.Request(f"http://127.0.0.1:{port}/", method="POST", data=b"x")
        with pytest.raises(urllib.error.HTTPError) as err:
            urllib.request.urlopen(request)
        assert err.value.code == 405
        with pytest.raises(urllib.error.HTTPError) as err:
            urllib.request.urlopen(f"http://127.0.0.1:{port}/etc/passwd")
        assert err.value.code == 404
    finally:
        server.shutdown()
        server.server_close()


def test_translation_views_rank_and_history_by_the_primary_metric(tmp_path: Path) -> None:
    import assay
    from assay.suites.translation.examples import write_demo

    write_demo(tmp_path)
    with RunStore(f"sqlite:///{tmp_path / 'mt.db'}") as st:
        runs = []
        for name in ("b", "a"):
            run = assay.score("translation", pred=tmp_path / f"{name}.json", name=name)
            st.add(run)
            runs.append(run)
        fp = runs[0].surface.fingerprint
        history = history_page(st, {"surface": [fp]})
        # corpus_bleu sorts first alphabetically; the suite's primary metric is corpus_chrf
        assert "History of corpus_chrf" in history.html
        assert '<path class="line"' in history.html and "with 95% CIs" in history.html
        # the surface's readable name: each system's file carries the references, so no one
        # file names the dataset (not "a.json", the newest run's file)
        assert "translation · 240 items" in history.html and "a.json ·" not in history.html
        page = run_page(st, runs[1].run_id, {})
        assert "worst first by chrf (higher is better)" in page.html
        assert "chrf per item (240 scored)" in page.html and "ter per item" in page.html
        by_ter = run_page(st, runs[1].run_id, {"metric": ["ter"]})
        assert "worst first by ter (lower is better)" in by_ter.html
        assert run_page(st, runs[1].run_id, {"metric": ["nope"]}).status == 400
        surfaces = history_page(st, {})
        assert "translation · 240 items" in surfaces.html
        # the runs list too shows the primary metric first, then the run's headline order
        listed = runs_page(st, {}).html
        row = listed[listed.index(f'data-run="{runs[1].run_id}"') :]
        row = row[: row.index("</tr>")]
        headline = [m for m, r in runs[1].metrics.items() if r.tier == "headline"]
        assert headline[0] == "corpus_chrf" and len(headline) > 2
        positions = [row.index(f"<strong>{m}</strong>") for m in headline]
        assert positions == sorted(positions), (headline, row)


def test_surfaces_are_named_by_their_dataset(tmp_path: Path, demo: DemoRuns) -> None:
    """A surface is named by its gold file (or the folder of its gold files); a fingerprint
    is added only where two surfaces would share a name."""
    from assay._dashboard.views import surface_names
    from assay._report.plain import dataset_name

    assert dataset_name(["data/gold.jsonl"]) == "gold.jsonl"
    assert dataset_name(["gold/a.json", "gold/b.json", "gold/c.json"]) == "gold/"
    assert dataset_name(["x/a.json", "y/b.json"]) == "a.json and 1 more"
    assert dataset_name([]) == ""
    with RunStore(f"sqlite:///{tmp_path / 'names.db'}") as st:
        st.add(demo.baseline)
        st.add(demo.candidate)
        st.add(demo.subset)  # another surface read from a gold file of the same name
        names = surface_names(st)
    base, subset = demo.baseline.surface.fingerprint, demo.subset.surface.fingerprint
    gold = dataset_name(demo.baseline.provenance.gold)
    assert names[base] == f"{gold} · classification · {base[:8]}"
    assert names[subset].endswith(subset[:8])


def test_item_pages_filter_sort_and_page_on_the_server(tmp_path: Path, demo: DemoRuns) -> None:
    """/runs/RUN/items and /compare/items: a page of 50 rows under the query, its links
    keeping the query; a bad query is a 400 naming the parameter, an unknown run a 404,
    runs on different surfaces a 400."""
    from assay._dashboard.items import pair_items_page, run_items_page

    with RunStore(f"sqlite:///{tmp_path / 'items.db'}") as st:
        for run in (demo.baseline, demo.candidate, demo.subset):
            st.add(run)
        c, b = demo.candidate.run_id, demo.baseline.run_id
        page = pair_items_page(st, {"run": [c, b], "outcome": ["candidate"]})
        assert page.status == 200 and 'data-matched="71"' in page.html
        assert page.html.count("<tr data-id=") == 50 and "page 1 of 2" in page.html
        assert f"/compare/items?run={c}&amp;run={b}&amp;outcome=candidate&amp;page=1" in page.html
        sorted_page = pair_items_page(st, {"run": [c, b], "sort": ["id"], "desc": ["1"]})
        assert sorted_page.html.index('data-id="doc-0400"') < sorted_page.html.index("doc-0399")
        own = run_items_page(st, b, {"status": ["missing"]})
        assert own.status == 200 and 'data-matched="6"' in own.html
        assert run_items_page(st, b, {"lo": ["x"]}).status == 400
        assert "lo must be a number" in run_items_page(st, b, {"lo": ["x"]}).html
        assert run_items_page(st, "nope", {}).status == 404
        refused = pair_items_page(st, {"run": [c, demo.subset.run_id]})
        assert refused.status == 400 and "not comparable" in refused.html
        assert pair_items_page(st, {"run": [c]}).status == 400
