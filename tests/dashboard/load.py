"""Load for the dashboard: a store of many runs, a server in its own process, many clients.

Shared by the load test (tests/dashboard/test_dashboard_server.py: no errors, bounded in count
and time) and the benchmark that measures latency (benchmarks/bench_dashboard_load.py).

The clients are lean so that they measure the server, not themselves: each is a thread with
one socket that sends a prepared request and reads the answer by its ``Content-Length`` (no
``http.client``, no header parsing beyond the status line and the length); threads are spread
over several client processes, and every process reports the CPU seconds it used, so the
benchmark can print the client's share of the machine beside the server's.
"""

from __future__ import annotations

import multiprocessing as mp
import os
import resource
import socket
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


def fill_store(url: str, base: Run, n_runs: int, *, first: int = 0) -> list[str]:
    """Record ``n_runs`` copies of ``base`` (ids ``load00000``... from ``first``) in one
    transaction."""
    ids = [f"load{k:05d}" for k in range(first, first + n_runs)]
    with RunStore(url) as st, st.engine.begin() as conn:
        for k, run_id in zip(range(first, first + n_runs), ids, strict=True):
            insert_run(conn, base.model_copy(update={"run_id": run_id, "name": f"run-{k}"}))
    return ids


def _serve(url: str, ready: mp.Queue[int]) -> None:
    from assay.dashboard import make_server

    store = RunStore(url, readonly=True)
    server = make_server(store, "127.0.0.1", 0)
    ready.put(int(server.server_address[1]))
    server.serve_forever()


def process_cpu(pid: int) -> float:
    """User + system CPU seconds of process ``pid`` so far (Linux ``/proc``; NaN elsewhere)."""
    try:
        with open(f"/proc/{pid}/stat") as f:
            fields = f.read().rsplit(")", 1)[1].split()
    except OSError:
        return float("nan")
    return (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")


@dataclass(frozen=True)
class Served:
    """A dashboard running in a child process: its port and process id."""

    port: int
    pid: int

    def cpu(self) -> float:
        return process_cpu(self.pid)


@contextmanager
def served(url: str) -> Iterator[Served]:
    """The dashboard over the store at ``url``, in a child process."""
    ctx = mp.get_context("fork")
    ready: mp.Queue[int] = ctx.Queue()
    proc = ctx.Process(target=_serve, args=(url, ready), daemon=True)
    proc.start()
    try:
        port = ready.get(timeout=60)
        assert proc.pid is not None
        yield Served(port, proc.pid)
    finally:
        proc.terminate()
        proc.join(timeout=10)


@dataclass
class LoadResult:
    """Latency (seconds) of every answered request, what went wrong with the others, the wall
    time of the burst and the CPU seconds the client processes used."""

    latencies: list[float] = field(default_factory=list)
    errors: list[str] = field(default_factory=list)
    wall: float = 0.0
    client_cpu: float = 0.0

    @property
    def requests(self) -> int:
        return len(self.latencies) + len(self.errors)

    def quantile(self, q: float) -> float:
        if len(self.latencies) < 2:
            return self.latencies[0] if self.latencies else float("nan")
        return statistics.quantiles(self.latencies, n=100, method="inclusive")[round(q * 100) - 1]


class _Conn:
    """One client connection: send a prepared GET, read the answer by its Content-Length."""

    def __init__(self, port: int, timeout: float) -> None:
        self.port = port
        self.timeout = timeout
        self.sock: socket.socket | None = None
        self.buf = b""

    def get(self, request: bytes, keep: bool) -> int:
        if self.sock is None:
            self.sock = socket.create_connection(("127.0.0.1", self.port), timeout=self.timeout)
            self.buf = b""
        self.sock.sendall(request)
        while b"\r\n\r\n" not in self.buf:
            self._more()
        head, _, rest = self.buf.partition(b"\r\n\r\n")
        lines = head.split(b"\r\n")
        status = int(lines[0].split(b" ", 2)[1])
        length = 0
        closing = not keep
        for line in lines[1:]:
            name, _, value = line.partition(b":")
            name = name.strip().lower()
            if name == b"content-length":
                length = int(value)
            elif name == b"connection" and value.strip().lower() == b"close":
                closing = True
        self.buf = rest
        while len(self.buf) < length:
            self._more()
        self.buf = self.buf[length:]
        if closing:
            self.close()
        return status

    def _more(self) -> None:
        assert self.sock is not None
        chunk = self.sock.recv(262_144)
        if not chunk:
            raise ConnectionError("connection closed before the answer was complete")
        self.buf += chunk

    def close(self) -> None:
        if self.sock is not None:
            self.sock.close()
            self.sock = None


def _clients(
    port: int,
    targets: Sequence[str],
    first: int,
    count: int,
    per_client: int,
    timeout: float,
    keep_alive: bool,
    seconds: float | None,
) -> LoadResult:
    """Clients ``first`` .. ``first + count - 1`` as threads of this process, started at once;
    each makes ``per_client`` requests, or as many as it can in ``seconds`` if that is given."""
    result = LoadResult()
    lock = threading.Lock()
    start = threading.Barrier(count)
    connection = "keep-alive" if keep_alive else "close"
    prepared = [
        f"GET {t} HTTP/1.1\r\nHost: 127.0.0.1:{port}\r\nConnection: {connection}\r\n\r\n".encode()
        for t in targets
    ]

    def client(k: int) -> None:
        conn = _Conn(port, timeout)
        start.wait()
        deadline = None if seconds is None else time.perf_counter() + seconds
        j = -1
        while True:
            j += 1
            if deadline is None and j >= per_client:
                break
            if deadline is not None and time.perf_counter() >= deadline:
                break
            i = (k + j) % len(targets)
            t0 = time.perf_counter()
            try:
                status = conn.get(prepared[i], keep_alive)
            except (OSError, ValueError, IndexError) as err:
                conn.close()
                with lock:
                    result.errors.append(f"{targets[i]}: {type(err).__name__}: {err}")
                continue
            elapsed = time.perf_counter() - t0
            with lock:
                if status == 200:
                    result.latencies.append(elapsed)
                else:
                    result.errors.append(f"{targets[i]}: HTTP {status}")
        conn.close()

    threads = [
        threading.Thread(target=client, args=(first + k,), daemon=True) for k in range(count)
    ]
    t0 = time.perf_counter()
    for t in threads:
        t.start()
    for t in threads:
        t.join(timeout=(seconds or timeout * per_client) + timeout + 30)
    result.wall = time.perf_counter() - t0
    return result


def _client_process(
    port: int,
    targets: Sequence[str],
    first: int,
    count: int,
    per_client: int,
    timeout: float,
    keep_alive: bool,
    seconds: float | None,
    barrier: Any,
    out: Any,
) -> None:
    barrier.wait(timeout=120)
    before = resource.getrusage(resource.RUSAGE_SELF)
    r = _clients(port, targets, first, count, per_client, timeout, keep_alive, seconds)
    after = resource.getrusage(resource.RUSAGE_SELF)
    cpu = (after.ru_utime - before.ru_utime) + (after.ru_stime - before.ru_stime)
    out.put((r.latencies, r.errors, r.wall, cpu))


def hammer(
    port: int,
    targets: Sequence[str],
    *,
    clients: int = 200,
    per_client: int = 5,
    processes: int = 4,
    timeout: float = 30.0,
    keep_alive: bool = True,
    seconds: float | None = None,
) -> LoadResult:
    """``clients`` concurrent clients, each making ``per_client`` GETs in turn (or, with
    ``seconds``, as many as it can in that time: a closed loop with no pause between requests).

    The clients are threads of ``processes`` client processes, all started together; each
    keeps its connection open between requests (as a browser does) unless ``keep_alive`` is
    False (then every request opens a connection). Client k asks for
    ``targets[(k + j) % len(targets)]`` on its j-th request; any status other than 200, a
    timeout, a closed or refused connection is an error.
    """
    ctx = mp.get_context("fork")
    barrier = ctx.Barrier(processes)
    out: Any = ctx.Queue()
    share = [clients // processes + (1 if p < clients % processes else 0) for p in range(processes)]
    firsts = [sum(share[:p]) for p in range(processes)]
    procs = [
        ctx.Process(
            target=_client_process,
            args=(
                port,
                targets,
                firsts[p],
                share[p],
                per_client,
                timeout,
                keep_alive,
                seconds,
                barrier,
                out,
            ),
            daemon=True,
        )
        for p in range(processes)
    ]
    for proc in procs:
        proc.start()
    result = LoadResult()
    for _ in procs:
        latencies, errors, wall, cpu = out.get(
            timeout=(seconds or timeout * per_client) + timeout + 120
        )
        result.latencies.extend(latencies)
        result.errors.extend(errors)
        result.wall = max(result.wall, wall)
        result.client_cpu += cpu
    for proc in procs:
        proc.join(timeout=30)
    return result


def targets_for(ids: Sequence[str], fingerprint: str) -> list[str]:
    """A mix of the dashboard's pages: runs list pages, run pages, a filter and the history."""
    pages = [f"/?page={p}" for p in range(0, 20)]
    runs = [f"/runs/{run_id}" for run_id in ids[:: max(1, len(ids) // 20)][:20]]
    return [*pages, *runs, "/?name=run-1", f"/history?surface={fingerprint[:12]}"]
