"""Load for the dashboard: a store of many runs, a server in its own process, many clients.

Shared by the load test (tests/dashboard/test_dashboard_server.py: no errors, bounded in count
and time) and the benchmark that measures latency (benchmarks/bench_dashboard_load.py).

The clients are lean so that they measure the server, not themselves: each is a socket that
sends a prepared request and reads the answer by its ``Content-Length`` (no ``http.client``,
no header parsing beyond the status line and the length); the sockets of several client
processes are each driven by one thread with a selector, and every process reports the CPU
seconds it used, so the benchmark can print the client's share of the machine beside the
server's.
"""

from __future__ import annotations

import multiprocessing as mp
import os
import resource
import selectors
import socket
import statistics
import time
from collections.abc import Iterator, Sequence
from contextlib import contextmanager
from dataclasses import dataclass, field
from typing import Any

from assay._engine.run import Run
from assay._store import RunStore
from assay._store.store import insert_run


def fill_store(url: str, base: Run, n_runs: int, *, first: int = 0) -> list[str]:
    """Record ``n_runs`` copies of ``base`` (ids ``load00000``... from ``first``) in one
    transaction."""
    ids = [f"load{k:05d}" for k in range(first, first + n_runs)]
    with RunStore(url) as st, st.engine.begin() as conn:
        for k, run_id in zip(range(first, first + n_runs), ids, strict=True):
            insert_run(conn, base.model_copy(update={"run_id": run_id, "name": f"run-{k}"}))
    return ids


def _serve(url: str, ready: mp.Queue[int], processes: int | None) -> None:
    from assay._dashboard import make_server

    store = RunStore(url, readonly=True)
    server = make_server(store, "127.0.0.1", 0, processes=processes)
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


def child_pids(pid: int) -> list[int]:
    """The live child processes of ``pid`` (Linux ``/proc``; none elsewhere)."""
    try:
        with open(f"/proc/{pid}/task/{pid}/children") as f:
            return [int(p) for p in f.read().split()]
    except OSError:
        return []


@dataclass(frozen=True)
class Served:
    """A dashboard running in a child process: its port and process id."""

    port: int
    pid: int

    def cpu(self) -> float:
        """CPU seconds of the server and its render processes so far."""
        return process_cpu(self.pid) + sum(process_cpu(c) for c in child_pids(self.pid))


@contextmanager
def served(url: str, *, processes: int | None = None) -> Iterator[Served]:
    """The dashboard over the store at ``url``, in a child process, rendering in
    ``processes`` processes of its own (default: as ``assay serve``; 0: in threads)."""
    ctx = mp.get_context("fork")
    ready: mp.Queue[int] = ctx.Queue()
    # not a daemon: the server forks its render processes (they exit when it is terminated)
    proc = ctx.Process(target=_serve, args=(url, ready, processes))
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


class _Client:
    """One client: a non-blocking socket, the request it waits for and what it has read."""

    def __init__(self, k: int) -> None:
        self.k = k
        self.j = 0  # requests made
        self.sock: socket.socket | None = None
        self.buf = b""
        self.length = -1  # body length once the head is read
        self.body_at = 0
        self.status = 0
        self.closing = False
        self.t0 = 0.0

    def close(self, sel: selectors.BaseSelector) -> None:
        if self.sock is not None:
            sel.unregister(self.sock)
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
    """Clients ``first`` .. ``first + count - 1`` of this process, all driven by one thread
    with a selector (no thread per client: the client's own interpreter lock would be measured
    too); each makes ``per_client`` requests, or as many as it can in ``seconds`` if that is
    given. A request's latency runs from connecting (for a new connection) or sending to its
    last byte."""
    result = LoadResult()
    connection = "keep-alive" if keep_alive else "close"
    prepared = [
        f"GET {t} HTTP/1.1\r\nHost: 127.0.0.1:{port}\r\nConnection: {connection}\r\n\r\n".encode()
        for t in targets
    ]
    sel = selectors.DefaultSelector()
    clients = [_Client(first + k) for k in range(count)]
    t_start = time.perf_counter()
    deadline = None if seconds is None else t_start + seconds
    hard_stop = t_start + (seconds or timeout * per_client) + timeout + 30
    active = set(range(count))

    def target_of(c: _Client) -> int:
        return (c.k + c.j) % len(targets)

    def connect(c: _Client) -> None:
        c.sock = socket.create_connection(("127.0.0.1", port), timeout=timeout)
        c.sock.setblocking(False)
        c.buf, c.length = b"", -1
        sel.register(c.sock, selectors.EVENT_READ, c)

    def send(c: _Client) -> None:
        c.t0 = time.perf_counter()
        if c.sock is None:
            connect(c)
        assert c.sock is not None
        c.sock.setblocking(True)
        c.sock.sendall(prepared[target_of(c)])  # ~100 bytes: never blocks in practice
        c.sock.setblocking(False)

    def finish(c: _Client, error: str | None, status: int = 0) -> None:
        i = target_of(c)
        if error is not None:
            result.errors.append(f"{targets[i]}: {error}")
            c.close(sel)
        elif status != 200:
            result.errors.append(f"{targets[i]}: HTTP {status}")
        else:
            result.latencies.append(time.perf_counter() - c.t0)
        c.j += 1
        done = c.j >= per_client if deadline is None else time.perf_counter() >= deadline
        if done:
            c.close(sel)
            active.discard(c.k - first)
            return
        try:
            send(c)
        except OSError as err:
            finish(c, f"{type(err).__name__}: {err}")

    for c in clients:  # kept-alive clients are connected before the burst, as open tabs are
        if keep_alive:
            try:
                connect(c)
            except OSError as err:
                finish(c, f"{type(err).__name__}: {err}")
    for c in clients:
        if c.k - first in active:
            try:
                send(c)
            except OSError as err:
                finish(c, f"{type(err).__name__}: {err}")
    while active and time.perf_counter() < hard_stop:
        for key, _ in sel.select(timeout=0.5):
            c = key.data
            assert c.sock is not None
            try:
                chunk = c.sock.recv(262_144)
            except BlockingIOError:
                continue
            except OSError as err:
                finish(c, f"{type(err).__name__}: {err}")
                continue
            if not chunk:
                finish(c, "ConnectionError: closed before the answer was complete")
                continue
            c.buf += chunk
            if c.length < 0:
                end = c.buf.find(b"\r\n\r\n")
                if end < 0:
                    continue
                head = c.buf[:end].split(b"\r\n")
                c.length, c.body_at = 0, end + 4
                closing = not keep_alive
                for line in head[1:]:
                    name, _, value = line.partition(b":")
                    name = name.strip().lower()
                    if name == b"content-length":
                        c.length = int(value)
                    elif name == b"connection" and value.strip().lower() == b"close":
                        closing = True
                c.status = int(head[0].split(b" ", 2)[1])
                c.closing = closing
            if len(c.buf) - c.body_at >= c.length:
                if c.closing:
                    c.close(sel)
                else:
                    c.buf, c.length = c.buf[c.body_at + c.length :], -1
                finish(c, None, c.status)
        now = time.perf_counter()
        for c in clients:
            if c.sock is not None and c.k - first in active and now - c.t0 > timeout:
                finish(c, f"TimeoutError: no answer in {timeout:g} s")
    for c in clients:
        if c.k - first in active:
            result.errors.append(f"{targets[target_of(c)]}: unfinished at the hard stop")
        c.close(sel)
    result.wall = time.perf_counter() - t_start
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
