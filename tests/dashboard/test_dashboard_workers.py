"""Render processes (assay._dashboard.workers): the same bytes as a render thread, a dead worker
taken over by the threads, and no worker left behind when the server stops or is killed."""

from __future__ import annotations

import http.client
import os
import signal
import time
from pathlib import Path

import pytest

from assay._dashboard import workers
from assay._dashboard.server import default_processes
from assay._store import RunStore
from tests.dashboard.load import child_pids, served
from tests.store.services import DemoRuns

pytestmark = pytest.mark.skipif(
    not workers.available() or not Path("/proc/self/stat").exists(),
    reason="render processes need fork and /proc",
)


def _fetch(port: int, target: str) -> tuple[int, bytes, str]:
    conn = http.client.HTTPConnection("127.0.0.1", port, timeout=30)
    conn.request("GET", target, headers={"Host": "localhost"})
    response = conn.getresponse()
    body = response.read()
    conn.close()
    return response.status, body, response.headers["ETag"]


def _alive(pid: int) -> bool:
    """Whether ``pid`` runs (a zombie, dead and not yet reaped, does not)."""
    try:
        with open(f"/proc/{pid}/stat") as f:
            return f.read().rsplit(")", 1)[1].split()[0] != "Z"
    except OSError:
        return False


def _wait_gone(pids: list[int], seconds: float = 15.0) -> list[int]:
    deadline = time.monotonic() + seconds
    while any(_alive(p) for p in pids) and time.monotonic() < deadline:
        time.sleep(0.1)
    return [p for p in pids if _alive(p)]


@pytest.fixture
def url(tmp_path: Path, demo: DemoRuns) -> str:
    url = f"sqlite:///{tmp_path / 'w.db'}"
    with RunStore(url) as st:
        for run in (demo.baseline, demo.candidate, demo.hostile):
            st.add(run)
    return url


def test_processes_render_what_threads_render(url: str, demo: DemoRuns) -> None:
    """Every page of the mix, byte for byte (and so ETag for ETag), hostile names escaped."""
    fp = demo.baseline.surface.fingerprint
    targets = [
        "/",
        "/?name=hostile",
        f"/runs/{demo.baseline.run_id}",
        f"/runs/{demo.hostile.run_id}",
        f"/runs/{demo.baseline.run_id}?metric=exact_match&page=1",
        f"/history?surface={fp[:12]}",
        "/history",
        f"/compare?run={demo.baseline.run_id}&run={demo.candidate.run_id}",
        "/runs/nope",
    ]
    pages = {}
    for processes in (0, 2):
        with served(url, processes=processes) as server:
            assert len(child_pids(server.pid)) == processes
            pages[processes] = [_fetch(server.port, t) for t in targets]
    assert pages[0] == pages[2]
    hostile = dict(zip(targets, pages[2], strict=True))[f"/runs/{demo.hostile.run_id}"]
    assert hostile[0] == 200 and b"<script" not in hostile[1] and b"&lt;script&gt;" in hostile[1]


def test_a_dead_worker_is_taken_over_and_none_outlives_the_server(url: str) -> None:
    with served(url, processes=2) as server:
        kids = child_pids(server.pid)
        assert len(kids) == 2
        os.kill(kids[0], signal.SIGKILL)
        assert _wait_gone([kids[0]]) == []
        # the pool is broken: the threads render this page, and the rest
        assert _fetch(server.port, "/")[0] == 200
        assert _fetch(server.port, "/history")[0] == 200
        assert _wait_gone(kids) == []  # the broken pool's other worker was stopped too
    with served(url, processes=2) as server:
        kids = child_pids(server.pid)
        assert _fetch(server.port, "/?page=1")[0] == 200
        os.kill(server.pid, signal.SIGKILL)  # no close: the workers see their parent gone
        assert _wait_gone(kids) == []


def test_processes_per_core() -> None:
    cores = len(os.sched_getaffinity(0)) if hasattr(os, "sched_getaffinity") else os.cpu_count()
    n = default_processes()
    assert n == (0 if (cores or 1) < 2 else min(4, cores or 1))
