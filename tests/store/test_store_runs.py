"""The run store on SQLite and PostgreSQL: round trip, listing, filters, removal, run_cards."""

from __future__ import annotations

import threading
from pathlib import Path

import numpy as np
import pytest
import sqlalchemy as sa

from assay._engine.run import MetricResult
from assay._report.ranking import worst_first
from assay._store import RunStore, StoreError, resolve_store_url
from assay.errors import InputError, UsageError
from tests.store.services import DemoRuns


def test_round_trip_is_byte_identical(store_url: str, demo: DemoRuns) -> None:
    with RunStore(store_url) as st:
        assert st.add(demo.baseline).replaced is False
        assert st.add(demo.baseline).replaced is True
        back = st.get(demo.baseline.run_id)
        assert back.to_json() == demo.baseline.to_json()
        stats = st.get_stats(demo.baseline.run_id[:6])
        assert stats["ids"] == list(demo.baseline.table().ids)
        assert np.array_equal(stats["values"], demo.baseline.table().values)
        light = st.get(demo.baseline.run_id, light=True)
        assert light.items == [] and light.metrics == demo.baseline.metrics


def test_list_filters_and_headlines(store_url: str, demo: DemoRuns) -> None:
    with RunStore(store_url) as st:
        for i, run in enumerate([demo.baseline, demo.candidate, demo.subset]):
            st.add(run, stored_at=f"2026-01-0{i + 1}T00:00:00+00:00")
        rows = st.list_runs()
        assert [r.name for r in rows] == ["subset", "candidate", "baseline"]
        assert {m.name for m in rows[0].headline} == {"exact_match", "macro_accuracy"}
        em = next(m for m in rows[1].headline if m.name == "exact_match")
        assert em.value == demo.candidate.metrics["exact_match"].value
        assert em.ci_lower == demo.candidate.metrics["exact_match"].ci_lower
        fp = demo.baseline.surface.fingerprint
        assert {r.name for r in st.list_runs(surface=fp[:10])} == {"baseline", "candidate"}
        assert [r.name for r in st.list_runs(name="cand")] == ["candidate"]
        assert st.list_runs(task="translation") == []
        assert st.count_runs(task="classification") == 3
        assert st.list_runs(name="%") == []  # LIKE wildcards are literal
        assert [r.name for r in st.list_runs(limit=1, offset=1)] == ["candidate"]
        assert st.tasks() == ["classification"]
        assert [p.name for p in st.history(fp, "exact_match")] == ["baseline", "candidate"]
        assert st.metric_names(fp, tier="headline") == ["exact_match", "macro_accuracy"]


def test_resolve_remove_and_errors(store_url: str, demo: DemoRuns) -> None:
    with RunStore(store_url) as st:
        st.add(demo.baseline)
        st.add(demo.candidate)
        assert st.resolve(demo.candidate.run_id[:5]) == demo.candidate.run_id
        with pytest.raises(InputError, match="no stored run 'zzz'"):
            st.get("zzz")
        with pytest.raises(UsageError, match="empty run id"):
            st.resolve(" ")
        for suffix in ("1", "2"):
            st.add(demo.baseline.model_copy(update={"run_id": "abc00000000" + suffix}))
        with pytest.raises(UsageError, match="ambiguous: abc000000001, abc000000002"):
            st.resolve("abc")
        st.remove("abc000000001")
        st.remove("abc000000002")
        assert st.remove(demo.baseline.run_id[:8]) == demo.baseline.run_id
        assert not st.has(demo.baseline.run_id)
        assert [r.run_id for r in st.list_runs()] == [demo.candidate.run_id]
        with st.engine.connect() as conn:
            for table in ("run_metrics", "run_payloads", "run_item_chunks"):
                count = conn.execute(
                    sa.text(f"SELECT count(*) FROM {table} WHERE run_id = :r"),
                    {"r": demo.baseline.run_id},
                ).scalar_one()
                assert count == 0, table


def test_item_pages_are_worst_first(store_url: str, demo: DemoRuns) -> None:
    run = demo.baseline
    order = worst_first(run.items)
    with RunStore(store_url) as st:
        st.add(run)
        page, n = st.item_page(run.run_id, 95, 10)
        assert n == len(run.items)
        assert [i.id for i in page] == [run.items[k].id for k in order[95:105]]
        assert page[0].status != "ok" or order[95] >= 0
        assert st.item_page(run.run_id, n + 5, 10)[0] == []


def test_run_cards_view_has_the_mt_columns(store_url: str, demo: DemoRuns) -> None:
    base = demo.baseline
    metrics = dict(base.metrics)
    for name, value in [("corpus_chrf", 42.96), ("corpus_bleu", 6.8), ("comet", 0.81)]:
        metrics[name] = MetricResult(
            name=name, value=value, ci_lower=value - 1, ci_upper=value + 1, n=400, kind="chrf"
        )
    metrics["exact_match_rate"] = metrics.pop("exact_match").model_copy(
        update={"name": "exact_match_rate"}
    )
    mt = base.model_copy(
        update={"run_id": "mt0000000001", "task": "translation", "metrics": metrics}
    )
    with RunStore(store_url) as st:
        st.add(base)
        st.add(mt)
        cards = {c["run_id"]: c for c in st.run_cards()}
    card = cards["mt0000000001"]
    assert (
        card["chrf"] == 42.96 and card["chrf_ci_lower"] == 41.96 and card["chrf_ci_upper"] == 43.96
    )
    assert card["corpus_bleu"] == 6.8 and card["comet_score"] == 0.81
    em = base.metrics["exact_match"]
    assert (card["exact_match"], card["exact_match_ci_lower"], card["exact_match_ci_upper"]) == (
        em.value,
        em.ci_lower,
        em.ci_upper,
    )
    plain = cards[base.run_id]
    assert plain["comet_score"] is None and plain["exact_match"] == em.value


def test_sqlite_is_in_wal_mode_and_default_path(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.chdir(tmp_path)
    monkeypatch.delenv("ASSAY_STORE")
    assert resolve_store_url() == "sqlite:///.assay/assay.db"
    assert resolve_store_url("runs.db") == "sqlite:///runs.db"
    assert resolve_store_url("postgresql://u:secret@h/db").startswith("postgresql+psycopg://")
    with RunStore() as st:
        with st.engine.connect() as conn:
            assert conn.exec_driver_sql("PRAGMA journal_mode").scalar_one() == "wal"
        assert "secret" not in RunStore.__name__
    assert (tmp_path / ".assay" / "assay.db").is_file()


def test_readonly_store_refuses_writes_and_missing_files(tmp_path: Path, demo: DemoRuns) -> None:
    url = f"sqlite:///{tmp_path / 'ro.db'}"
    with pytest.raises(StoreError, match="no run store"):
        RunStore(url, readonly=True)
    RunStore(url).close()
    with RunStore(url, readonly=True) as ro:
        with pytest.raises(StoreError, match="read-only"):
            ro.add(demo.baseline)
        with ro.engine.connect() as conn, pytest.raises(sa.exc.OperationalError):
            conn.exec_driver_sql("DELETE FROM runs")


def test_concurrent_writers(tmp_path: Path, demo: DemoRuns) -> None:
    url = f"sqlite:///{tmp_path / 'c.db'}"
    RunStore(url).close()
    errors: list[BaseException] = []

    def write(run_id: str) -> None:
        try:
            with RunStore(url) as st:
                st.add(demo.baseline.model_copy(update={"run_id": run_id}))
        except BaseException as err:  # pragma: no cover - reported below
            errors.append(err)

    threads = [threading.Thread(target=write, args=(f"run{i:09d}",)) for i in range(6)]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    assert errors == []
    with RunStore(url) as st:
        assert st.count_runs() == 6


def test_password_is_masked(tmp_path: Path) -> None:
    from assay._store import display_url

    assert "hunter2" not in display_url("postgresql+psycopg://me:hunter2@127.0.0.1:1/db")
    with pytest.raises(StoreError) as err:
        RunStore("postgresql+psycopg://me:hunter2@127.0.0.1:1/db")
    assert "hunter2" not in str(err.value)


def test_a_sqlite_store_commits_durably(tmp_path: Path) -> None:
    """Issue 36: a recorded run is on disk when ``add`` returns (the WAL fsynced at each
    commit, ``synchronous=FULL``), as an artifact is fsynced before its rename."""
    with RunStore(f"sqlite:///{tmp_path / 'a.db'}") as st, st.engine.connect() as conn:
        assert conn.execute(sa.text("PRAGMA synchronous")).scalar() == 2  # FULL
