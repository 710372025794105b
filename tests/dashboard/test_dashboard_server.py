"""The dashboard server under hostile and heavy use (issue 20): Host allow-list, bounded query
parameters (400, never 500), and 200 concurrent clients on a store of 1,000 runs, no errors."""

from __future__ import annotations

import gc
import http.client
import re
from collections.abc import Iterator
from pathlib import Path

import pytest

from assay._dashboard import serve_in_thread
from assay._dashboard.server import BACKLOG, TIMEOUT, host_name, make_server
from assay._dashboard.views import Memo
from assay._store import RunStore
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


def test_a_stopped_server_gives_back_what_it_froze(tmp_path: Path, demo: DemoRuns) -> None:
    """Served from a thread, the server moves the process's objects out of the collector's
    reach while it runs and gives them back when it stops, unless the process had frozen
    objects itself (those stay frozen)."""
    url = f"sqlite:///{tmp_path / 'assay.db'}"
    with RunStore(url) as st:
        st.add(demo.baseline)
    gc.unfreeze()  # whatever an earlier test left frozen
    for frozen_before in (False, True):
        if frozen_before:
            gc.freeze()
        count = gc.get_freeze_count()
        with RunStore(url, readonly=True) as store:
            server, _ = serve_in_thread(store)
            try:
                port = int(server.server_address[1])
                assert _get(port, "/", f"127.0.0.1:{port}") == 200
                assert gc.get_freeze_count() > count
            finally:
                server.shutdown()
                server.server_close()
        if frozen_before:
            assert gc.get_freeze_count() > 0
            gc.unfreeze()
        else:
            assert gc.get_freeze_count() == 0


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
            assert "box.lan" in server.allowed_hosts
            assert "127.0.0.1" in server.allowed_hosts
            assert server.backlog == BACKLOG
            assert server.timeout == TIMEOUT
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
    targets = targets_for(ids, demo.baseline.surface.fingerprint)
    with served(url) as server:
        result = hammer(server.port, targets, per_client=3)
        fresh = hammer(server.port, targets, clients=50, per_client=2, keep_alive=False)
    assert result.errors == []
    assert result.requests == 600
    assert fresh.errors == []
    assert fresh.requests == 100


def test_half_open_connections_neither_block_nor_stay(tmp_path: Path, demo: DemoRuns) -> None:
    """300 connections that never finish their headers: a real request is still served, and
    each of them is closed by the server once its socket timeout passes."""
    import socket
    import time

    url = f"sqlite:///{tmp_path / 'h.db'}"
    with RunStore(url) as st:
        st.add(demo.baseline)
    store = RunStore(url, readonly=True)
    server, _ = serve_in_thread(store, timeout=1.0)
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


def _raw(port: int, data: bytes, *, wait: float = 5.0) -> bytes:
    """Send ``data`` on a fresh connection and read until the server closes it."""
    import socket

    with socket.create_connection(("127.0.0.1", port), timeout=wait) as s:
        s.sendall(data)
        chunks = []
        while True:
            try:
                chunk = s.recv(65536)
            except TimeoutError:
                break
            if not chunk:
                break
            chunks.append(chunk)
    return b"".join(chunks)


def test_keep_alive_etag_and_head(port: int) -> None:
    conn = http.client.HTTPConnection("127.0.0.1", port, timeout=10)
    try:
        conn.request("GET", "/", headers={"Host": "localhost"})
        first = conn.getresponse()
        body = first.read()
        assert first.status == 200 and first.getheader("Connection") == "keep-alive"
        assert first.getheader("Content-Security-Policy", "").startswith("default-src 'none'")
        assert first.getheader("X-Frame-Options") == "DENY"
        etag = first.getheader("ETag")
        assert etag and etag.startswith('"')
        # the same connection serves the next request; an unchanged page is a 304, no body
        conn.request("GET", "/", headers={"Host": "localhost", "If-None-Match": etag})
        again = conn.getresponse()
        assert again.status == 304 and again.read() == b""
        assert again.getheader("Content-Length") is None and again.getheader("ETag") == etag
        conn.request("HEAD", "/", headers={"Host": "localhost"})
        head = conn.getresponse()
        assert head.status == 200 and head.read() == b""
        assert int(head.getheader("Content-Length", "0")) == len(body)
    finally:
        conn.close()


def test_new_run_changes_the_page(tmp_path: Path, demo: DemoRuns) -> None:
    """The page cache follows the store: a run recorded while the server runs shows at once."""
    url = f"sqlite:///{tmp_path / 'live.db'}"
    with RunStore(url) as st:
        st.add(demo.baseline)
    store = RunStore(url, readonly=True)
    server, _ = serve_in_thread(store)
    port = int(server.server_address[1])
    try:
        conn = http.client.HTTPConnection("127.0.0.1", port, timeout=10)
        conn.request("GET", "/", headers={"Host": "localhost"})
        before = conn.getresponse().read().decode()
        with RunStore(url) as st:
            st.add(demo.candidate)
        conn.request("GET", "/", headers={"Host": "localhost"})
        after = conn.getresponse().read().decode()
        conn.close()
        assert demo.candidate.run_id not in before and "runs 1–1 of 1" in before
        # the run count is a fact the pages share (Memo): it too follows the store at once
        assert demo.candidate.run_id in after and "runs 1–2 of 2" in after
    finally:
        server.shutdown()
        server.server_close()
        store.close()


@pytest.mark.parametrize(
    ("data", "status"),
    [
        (b"GET / HTTP/1.1\r\nHost: localhost\r\nX: " + b"a" * 20_000 + b"\r\n\r\n", 431),
        (b"GET  / HTTP/1.1\r\nHost: localhost\r\n\r\n", 400),
        (b"GET http://evil.example/ HTTP/1.1\r\nHost: localhost\r\n\r\n", 400),
        (b"GET / HTTP/2.0\r\nHost: localhost\r\n\r\n", 400),
        (b"GET / HTTP/1.1\r\nHost: localhost\r\nHost: evil.example\r\n\r\n", 400),
        (b"GET / HTTP/1.1\r\nHost localhost\r\n\r\n", 400),
        (b"POST / HTTP/1.1\r\nHost: localhost\r\nContent-Length: 3\r\n\r\nabc", 405),
        (b"\x16\x03\x01\x02\x00\x01\x00\x01\xfc\x03\x03\r\n\r\n", 400),
    ],
)
def test_malformed_requests_are_refused_and_closed(port: int, data: bytes, status: int) -> None:
    answer = _raw(port, data)
    assert answer.startswith(f"HTTP/1.1 {status} ".encode()), answer[:80]
    assert b"Connection: close" in answer.split(b"\r\n\r\n", 1)[0]


def test_pipelined_requests_are_answered_in_order(port: int) -> None:
    one = b"GET /?page=0 HTTP/1.1\r\nHost: localhost\r\n\r\n"
    last = b"GET /nowhere HTTP/1.1\r\nHost: localhost\r\nConnection: close\r\n\r\n"
    answer = _raw(port, one + one + last)
    statuses = re.findall(rb"HTTP/1\.1 (\d{3}) ", answer)
    assert statuses == [b"200", b"200", b"404"]


def test_connections_beyond_the_cap_get_503(tmp_path: Path) -> None:
    import socket

    from assay._dashboard.server import DashboardServer

    url = f"sqlite:///{tmp_path / 'cap.db'}"
    RunStore(url).close()
    with RunStore(url, readonly=True) as store:
        server = DashboardServer(store, "127.0.0.1", 0, max_connections=3)
        import threading

        thread = threading.Thread(target=server.serve_forever, daemon=True)
        thread.start()
        port = int(server.server_address[1])
        held = [socket.create_connection(("127.0.0.1", port), timeout=5) for _ in range(3)]
        try:
            import time

            time.sleep(0.3)
            assert _raw(port, b"GET / HTTP/1.1\r\nHost: localhost\r\n\r\n").startswith(
                b"HTTP/1.1 503 "
            )
        finally:
            for s in held:
                s.close()
            server.shutdown()
            server.server_close()
        thread.join(timeout=5)
        assert not thread.is_alive()


def test_shared_facts_live_as_long_as_one_store_state(tmp_path: Path) -> None:
    """The Memo of the pages' shared facts is one per store state, and is renewed when the
    state changes or is older than the page cache's ttl."""
    from assay._dashboard.server import PageCache

    url = f"sqlite:///{tmp_path / 'm.db'}"
    RunStore(url).close()
    with RunStore(url, readonly=True) as store:
        cache = PageCache(store)
        state = cache.state()
        memo = cache.memo(state)
        assert cache.memo(state) is memo
        assert memo.get("k", lambda: 1) == 1 and memo.get("k", lambda: 2) == 1
        other = cache.memo(("another", "state"))
        assert other is not memo and other.get("k", lambda: 2) == 2
        cache.ttl = 0.0
        assert cache.memo(("another", "state")) is not other


def test_kept_pages_while_rendering(tmp_path: Path, demo: DemoRuns) -> None:
    """A page the store changed under is re-rendered for a lone visitor, but answered from the
    kept page while the render pool is busy; a page that is only old is answered at once and
    refreshed behind."""
    import asyncio
    import threading

    from assay._dashboard.server import DashboardServer

    url = f"sqlite:///{tmp_path / 'k.db'}"
    with RunStore(url) as st:
        st.add(demo.baseline)
    store = RunStore(url, readonly=True)
    server = DashboardServer(store, "127.0.0.1", 0, workers=1)
    release = threading.Event()
    render = server._render

    def slow(target: str, memo: Memo | None = None) -> object:
        release.wait(10)
        return render(target, memo)

    async def scenario() -> None:
        first = await server._page("/")
        server._render = slow  # type: ignore[method-assign]
        with RunStore(url) as st:
            st.add(demo.candidate)
        waiting = asyncio.ensure_future(server._page("/"))  # a lone visitor: waits for it
        await asyncio.sleep(0.1)
        assert not waiting.done()
        busy = await asyncio.wait_for(server._page("/"), 2)  # pool busy: the kept page
        assert busy is first
        release.set()
        fresh = await asyncio.wait_for(waiting, 10)
        assert demo.candidate.run_id.encode() in fresh.body
        assert demo.candidate.run_id.encode() not in first.body
        server.cache.ttl = 0.0  # now only old: answered at once, refreshed behind
        release.clear()
        assert await asyncio.wait_for(server._page("/"), 2) is fresh
        assert "/" in server._flights
        release.set()
        await asyncio.wait_for(server._flights["/"], 10)

    try:
        asyncio.run(scenario())
    finally:
        release.set()
        server.server_close()
        store.close()
