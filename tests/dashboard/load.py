"""Load for the dashboard: a store of many runs, a server in its own process, many clients.

Shared by the load test (tests/dashboard/test_dashboard_server.py: no errors, bounded in count
and time) and the benchmark that measures latency (benchmarks/bench_dashboard_load.py).
"""

from __future__ import annotations

import http.client
import multiprocessing as mp
import statistics
import threading
import time
from collections.abc import Iterator, Sequence
from contextlib import contextmanager
from dataclasses import dataclass, field
from typing import Any

from assay.core.run import Run
from assay.store import RunStore
from assay.store.store import insert_run


def fill_store(url: str, base: Run, n_runs: int) -> list[str]:
    """Record ``n_runs`` copies of ``base`` (ids ``load00000``...) in one transaction."""
    ids = [f"load{k:05d}" for k in range(n_runs)]
    with RunStore(url) as st, st.engine.begin() as conn:
        for k, run_id in enumerate(ids):
            insert_run(conn, base.model_copy(update={"run_id": run_id, "name": f"run-{k}"}))
    return ids


def _serve(url: str, ready: mp.Queue[int]) -> None:
    from assay.dashboard import make_server

    store = RunStore(url, readonly=True)
    server = make_server(store, "127.0.0.1", 0)
    ready.put(int(server.server_address[1]))
    server.serve_forever()


@contextmanager
def served(url: str) -> Iterator[int]:
    """The dashboard over the store at ``url``, in a child process; yields its port."""
    ctx = mp.get_context("fork")
    ready: mp.Queue[int] = ctx.Queue()
    proc = ctx.Process(target=_serve, args=(url, ready), daemon=True)
    proc.start()
    try:
        yield ready.get(timeout=60)
    finally:
        proc.terminate()
        proc.join(timeout=10)


@dataclass
class LoadResult:
    """Latency (seconds) of every answered request and what went wrong with the others."""

    latencies: list[float] = field(default_factory=list)
    errors: list[str] = field(default_factory=list)
    wall: float = 0.0

    @property
    def requests(self) -> int:
        return len(self.latencies) + len(self.errors)

    def quantile(self, q: float) -> float:
        if len(self.latencies) < 2:
            return self.latencies[0] if self.latencies else float("nan")
        return statistics.quantiles(self.latencies, n=100, method="inclusive")[round(q * 100) - 1]


def _clients(
    port: int,
    targets: Sequence[str],
    first: int,
    count: int,
    per_client: int,
    timeout: float,
) -> LoadResult:
    """Clients ``first`` .. ``first + count - 1`` as threads of this process, started at once."""
    result = LoadResult()
    lock = threading.Lock()
    start = threading.Barrier(count)

    def client(k: int) -> None:
        start.wait()
        for j in range(per_client):
            target = targets[(k + j) % len(targets)]
            t0 = time.perf_counter()
            try:
                conn = http.client.HTTPConnection("127.0.0.1", port, timeout=timeout)
                conn.request("GET", target, headers={"Host": f"127.0.0.1:{port}"})
                response = conn.getresponse()
                response.read()
                conn.close()
                status = response.status
            except (OSError, http.client.HTTPException) as err:
                with lock:
                    result.errors.append(f"{target}: {type(err).__name__}: {err}")
                continue
            elapsed = time.perf_counter() - t0
            with lock:
                if status == 200:
                    result.latencies.append(elapsed)
                else:
                    result.errors.append(f"{target}: HTTP {status}")

    threads = [
        threading.Thread(target=client, args=(first + k,), daemon=True) for k in range(count)
    ]
    t0 = time.perf_counter()
    for t in threads:
        t.start()
    for t in threads:
        t.join(timeout=timeout * per_client + 30)
    result.wall = time.perf_counter() - t0
    return result


def _client_process(
    port: int,
    targets: Sequence[str],
    first: int,
    count: int,
    per_client: int,
    timeout: float,
    barrier: Any,
    out: Any,
) -> None:
    barrier.wait(timeout=120)
    r = _clients(port, targets, first, count, per_client, timeout)
    out.put((r.latencies, r.errors, r.wall))


def hammer(
    port: int,
    targets: Sequence[str],
    *,
    clients: int = 200,
    per_client: int = 5,
    processes: int = 4,
    timeout: float = 30.0,
) -> LoadResult:
    """``clients`` concurrent clients, each making ``per_client`` GETs in turn.

    The clients are threads of ``processes`` client processes (200 browsers are not threads of
    one interpreter: in one process, the client's own lock contention would be measured too),
    all started together. Client k asks for ``targets[(k + j) % len(targets)]`` on its j-th
    request; any status other than 200, a timeout or a refused connection is an error.
    """
    ctx = mp.get_context("fork")
    barrier = ctx.Barrier(processes)
    out: Any = ctx.Queue()
    share = [clients // processes + (1 if p < clients % processes else 0) for p in range(processes)]
    firsts = [sum(share[:p]) for p in range(processes)]
    procs = [
        ctx.Process(
            target=_client_process,
            args=(port, targets, firsts[p], share[p], per_client, timeout, barrier, out),
            daemon=True,
        )
        for p in range(processes)
    ]
    for proc in procs:
        proc.start()
    result = LoadResult()
    for _ in procs:
        latencies, errors, wall = out.get(timeout=timeout * per_client + 120)
        result.latencies.extend(latencies)
        result.errors.extend(errors)
        result.wall = max(result.wall, wall)
    for proc in procs:
        proc.join(timeout=30)
    return result


def targets_for(ids: Sequence[str], fingerprint: str) -> list[str]:
    """A mix of the dashboard's pages: runs list pages, run pages, a filter and the history."""
    pages = [f"/?page={p}" for p in range(0, 20)]
    runs = [f"/runs/{run_id}" for run_id in ids[:: max(1, len(ids) // 20)][:20]]
    return [*pages, *runs, "/?name=run-1", f"/history?surface={fingerprint[:12]}"]
