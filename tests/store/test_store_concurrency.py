"""Several processes scoring into one new SQLite store: its creation and every write hold.

Issue 20: two processes racing on a new store's CREATE TABLE lost 1 run of 40. Each writer
here opens the store itself (so 4 processes create and migrate it at once), then records 20
runs; all 80 must be stored and the file must pass ``PRAGMA integrity_check``.
"""

from __future__ import annotations

import multiprocessing as mp
import sqlite3
from pathlib import Path
from typing import Any

import pytest

from assay._engine.run import Run
from assay._store import RunStore
from tests.store.services import DemoRuns

PROCESSES = 4
RUNS_EACH = 20


def _writer(url: str, artifact: str, worker: int, barrier: Any, errors: Any) -> None:
    try:
        base = Run.load(artifact)
        barrier.wait(timeout=60)
        with RunStore(url) as st:  # every process creates/migrates the store if it must
            for k in range(RUNS_EACH):
                st.add(base.model_copy(update={"run_id": f"w{worker}r{k:02d}"}))
    except BaseException as err:  # reported by the parent
        errors.put(f"worker {worker}: {type(err).__name__}: {err}")


@pytest.mark.parametrize("processes", [2, PROCESSES])
def test_processes_create_and_write_one_store(
    tmp_path: Path, demo: DemoRuns, processes: int
) -> None:
    artifact = tmp_path / "base.json"
    demo.baseline.save(artifact)
    db = tmp_path / "new" / "assay.db"
    url = f"sqlite:///{db}"
    ctx = mp.get_context("fork")
    barrier = ctx.Barrier(processes)
    errors = ctx.Queue()
    workers = [
        ctx.Process(target=_writer, args=(url, str(artifact), w, barrier, errors))
        for w in range(processes)
    ]
    for p in workers:
        p.start()
    for p in workers:
        p.join(timeout=240)
    failures = []
    while not errors.empty():
        failures.append(errors.get())
    assert failures == []
    assert [p.exitcode for p in workers] == [0] * processes
    with RunStore(url) as st:
        assert st.count_runs() == processes * RUNS_EACH
        stored = {s.run_id for s in st.list_runs(limit=1000)}
    expected = {f"w{w}r{k:02d}" for w in range(processes) for k in range(RUNS_EACH)}
    assert stored == expected
    with sqlite3.connect(db) as conn:
        assert conn.execute("PRAGMA integrity_check").fetchall() == [("ok",)]
