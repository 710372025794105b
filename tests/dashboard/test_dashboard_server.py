"""The dashboard server under hostile and heavy use (issue 20): Host allow-list, bounded query
parameters (400, never 500), and 200 concurrent clients on a store of 1,000 runs, no errors."""

from __future__ import annotations

import http.client
from collections.abc import Iterator
from pathlib import Path

import pytest

from assay.dashboard import serve_in_thread
from assay.dashboard.server import BACKLOG, TIMEOUT, host_name, make_server
from assay.store import RunStore
from tests.dashboard.load import fill_store, hammer, served, targets_for
from tests.store.services import DemoRuns


@pytest.fixture
def port(tmp_path: Path, demo: DemoRuns) -> Iterator[int]:
    url = f"sqlite:///{tmp_path / 'assay.db'}"
    with RunStore(url) as st:
        st.add(demo.baseline)
    store = RunStore(url, readonly=True)
    server, _ = serve_in_thread(store)
    try:
        yield int(server.server_address[1])
    finally:
        server.shutdown()
        server.server_close()
        store.close()


def _get(port: int, target: str, host: str | None = None) -> int:
    conn = http.client.HTTPConnection("127.0.0.1", port, timeout=10)
    conn.putrequest("GET", target, skip_host=True)
    if host is not None:
        conn.putheader("Host", host)
    conn.endheaders()
    response = conn.getresponse()
    response.read()
    conn.close()
    return response.status


def test_host_allow_list(port: int) -> None:
    for ok in (f"127.0.0.1:{port}", f"localhost:{port}", "localhost", f"[::1]:{port}"):
        assert _get(port, "/", ok) == 200, ok
    # a DNS-rebinding page's requests carry its own name: refused, as is no Host at all
    for bad in (f"evil.example:{port}", "attacker.test", "127.0.0.1.evil.example", "", None):
        assert _get(port, "/", bad) == 403, bad


def test_host_names_and_extra_hosts(tmp_path: Path) -> None:
    assert host_name("[::1]:8000") == "::1"
    assert host_name("LocalHost:80") == "localhost"
    assert host_name("example.org") == "example.org"
    assert host_name(None) is None
    url = f"sqlite:///{tmp_path / 'a.db'}"
    RunStore(url).close()
    with RunStore(url, readonly=True) as store:
        server = make_server(store, "127.0.0.1", 0, allowed_hosts=["box.lan"])
        try:
            handler = server.RequestHandlerClass
            assert "box.lan" in handler.allowed_hosts  # type: ignore[attr-defined]
            assert "127.0.0.1" in handler.allowed_hosts  # type: ignore[attr-defined]
            assert server.request_queue_size == BACKLOG
            assert handler.timeout == TIMEOUT
        finally:
            server.server_close()


@pytest.mark.parametrize(
    "target",
    [
        "/?page=10^30",
        "/?page=" + "1" * 31,
        "/?page=-1",
        "/?page=1e9",
        "/?page=%00",
        "/?name=" + "x" * 600,
        "/?" + "&".join(f"task=t{k}" for k in range(40)),
        "/runs/x?page=99999999999999999999",
        "/?" + "a" * 5000,
    ],
)
def test_nonsense_queries_are_400(port: int, target: str) -> None:
    assert _get(port, target, f"127.0.0.1:{port}") == 400


def test_pages_past_the_end_are_still_pages(port: int) -> None:
    assert _get(port, "/?page=9999", f"127.0.0.1:{port}") == 200


def test_200_concurrent_clients_on_1000_runs(tmp_path: Path, demo: DemoRuns) -> None:
    """Bounded: 200 clients × 3 requests, each with a 30 s timeout. Latency is measured by
    benchmarks/bench_dashboard_load.py (figures in docs/reports.md), not asserted here."""
    url = f"sqlite:///{tmp_path / 'load.db'}"
    ids = fill_store(url, demo.baseline, 1000)
    with served(url) as port:
        result = hammer(port, targets_for(ids, demo.baseline.surface.fingerprint), per_client=3)
    assert result.errors == []
    assert result.requests == 600


def test_half_open_connections_neither_block_nor_stay(
    tmp_path: Path, demo: DemoRuns, monkeypatch: pytest.MonkeyPatch
) -> None:
    """300 connections that never finish their headers: a real request is still served, and
    each of them is closed by the server once its socket timeout passes."""
    import socket
    import time

    from assay.dashboard.server import DashboardHandler

    monkeypatch.setattr(DashboardHandler, "timeout", 1.0)
    url = f"sqlite:///{tmp_path / 'h.db'}"
    with RunStore(url) as st:
        st.add(demo.baseline)
    store = RunStore(url, readonly=True)
    server, _ = serve_in_thread(store)
    port = int(server.server_address[1])
    stalled = []
    try:
        for _ in range(300):
            s = socket.create_connection(("127.0.0.1", port), timeout=5)
            s.sendall(b"GET / HTTP/1.1\r\nHost: 127.0.0.1\r\n")  # never the blank line
            stalled.append(s)
        assert _get(port, "/", f"127.0.0.1:{port}") == 200
        time.sleep(2.5)
        closed = 0
        for s in stalled:
            s.settimeout(5)
            try:
                closed += s.recv(1) == b""
            except OSError:
                closed += 1
        assert closed == len(stalled)
    finally:
        for s in stalled:
            s.close()
        server.shutdown()
        server.server_close()
        store.close()
