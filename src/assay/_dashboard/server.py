"""``assay serve``: a read-only local web server over the run store (stdlib asyncio).

It holds against a hostile page and heavy local use (issue 20):

- **Host allow-list**: a request whose ``Host`` header names anything but 127.0.0.1,
  localhost, [::1] or the ``--host`` the server was started with is refused (403), so a
  DNS-rebinding page cannot read the stored runs through the victim's browser.
- **Bounded requests**: a request head over ``MAX_HEAD`` bytes is a 431; a target longer than
  ``MAX_TARGET`` characters, more than ``MAX_PARAMS`` query values, a value longer than
  ``MAX_VALUE`` or a ``page`` that is not a whole number below ``MAX_PAGE`` is a 400, never a
  500 (``_dashboard.routes``). A request with a body, or in a form other than
  ``GET /path HTTP/1.x``, is refused and its connection closed.
- **A server that holds**: one event-loop thread reads every request head (a half-open
  connection costs a socket, not a thread, and is closed after ``TIMEOUT`` seconds), at most
  ``MAX_CONNECTIONS`` connections are open at once (others get a 503), connections are kept
  alive (HTTP/1.1), and a page is rendered by one of the render processes ``make_server``
  forks (``assay._dashboard.workers``; else one of ``WORKERS`` threads), first come, first
  served, only when the store changed since it was last rendered (``PageCache``); a cached
  page is answered from the event loop with no query, with an ``ETag`` so a browser's
  revalidation is a 304. Figures: docs/reports.md.

Why not ``http.server``: its thread per connection means 200 clients are 200 threads taking
turns at the interpreter lock, and every request parses its headers with ``email``; under a
burst of 200 clients the p95 latency was over 1 s on a store of 1,000 runs.
"""

from __future__ import annotations

import asyncio
import contextlib
import gc
import os
import re
import socket
import sys
import threading
import time
from collections import OrderedDict
from collections.abc import Iterable, Mapping, Sequence
from concurrent.futures import ThreadPoolExecutor
from concurrent.futures.process import BrokenProcessPool
from dataclasses import dataclass
from email.utils import formatdate
from functools import lru_cache
from http import HTTPStatus
from typing import TYPE_CHECKING

from assay._dashboard.routes import MAX_TARGET, Answer, render_answer
from assay._dashboard.views import Memo, compile_templates, message
from assay._report.html import triage_script
from assay._store import RunStore
from assay._store.url import sqlite_path

if TYPE_CHECKING:
    from assay._dashboard.workers import RenderProcesses

#: scripts: only the item table's (``assay._report.html.triage_script``), by its hash
CSP = (
    "default-src 'none'; style-src 'unsafe-inline'; img-src data:; form-action 'self'; "
    f"frame-ancestors 'none'; base-uri 'none'; script-src {triage_script()[1]}"
)
_TOKEN = re.compile(r"^[!#$%&'*+.^_`|~0-9A-Za-z-]+$")

#: the host names a local dashboard answers to (plus the ``--host`` it was started with)
LOCAL_HOSTS = frozenset({"127.0.0.1", "localhost", "::1"})
#: longest request head (request line and headers) accepted, in bytes
MAX_HEAD = 16_384
#: most header lines accepted in one request
MAX_HEADERS = 100
#: connections the kernel queues before the server accepts them
BACKLOG = 1024
#: connections open at once; one more is answered 503 and closed
MAX_CONNECTIONS = 1000
#: requests served on one kept-alive connection before it is closed
MAX_REQUESTS_PER_CONNECTION = 10_000
#: seconds a connection may take to send a request head (or stay idle between requests), and
#: to take its answer
TIMEOUT = 10.0
#: threads that render pages (the cache answers the rest from the event loop)
WORKERS = 2
#: most render processes ``make_server`` forks (``assay serve``)
MAX_PROCESSES = 4


def default_processes() -> int:
    """Render processes for this machine: one per core this process may run on, at most
    ``MAX_PROCESSES``; none on a single core (they would only take turns with the server)."""
    cores = len(os.sched_getaffinity(0)) if hasattr(os, "sched_getaffinity") else os.cpu_count()
    n = min(MAX_PROCESSES, cores or 1)
    return n if n > 1 else 0


#: rendered pages kept per store state
CACHE_ENTRIES = 512


def host_name(header: str | None) -> str | None:
    """The host of a ``Host`` header without its port ("[::1]:8000" -> "::1"); None if absent."""
    if not header:
        return None
    value = header.strip().lower()
    if value.startswith("["):
        end = value.find("]")
        return value[1:end] if end > 0 else None
    return value.rsplit(":", 1)[0] if value.count(":") == 1 else value


@lru_cache(maxsize=32)
def refusal(status: int, title: str, text: str) -> Answer:
    """A fixed refusal page (403, 405, 431, 503...), rendered once per wording."""
    return Answer.of(message(status, title, text))


class PageCache:
    """Rendered pages by request target, with the store state each was rendered from.

    The store's state is the size and modification time of its SQLite file and write-ahead
    log (a commit changes one of them), checked with two ``stat`` calls and no query. Two
    commits within the file clock's resolution that leave the log's size unchanged would go
    unseen, so a page is also re-rendered once it is ``ttl`` seconds old (30 s for SQLite; 2 s
    for a database that is not a file, whose state is not seen at all). Used from the
    event-loop thread only, so it needs no lock.
    """

    def __init__(self, store: RunStore, *, entries: int = CACHE_ENTRIES) -> None:
        self._path = sqlite_path(store.url)
        self._entries = entries
        self.ttl = 2.0 if self._path is None else 30.0
        self._pages: OrderedDict[str, tuple[object, float, Answer]] = OrderedDict()
        self._memo: tuple[object, float, Memo] | None = None
        self._tokens = 0

    def state(self) -> object:
        """The store's state now (equal states: no commit in between, as far as seen)."""
        if self._path is None:
            return None
        parts: list[int] = []
        for name in (str(self._path), f"{self._path}-wal"):
            try:
                st = os.stat(name)
            except OSError:
                parts += [-1, -1]
                continue
            parts += [st.st_mtime_ns, st.st_size]
        return tuple(parts)

    def get(self, target: str, state: object) -> tuple[Answer, str] | None:
        """The page kept for ``target`` and how it stands: "fresh" (rendered from ``state``,
        younger than ``ttl``), "old" (from ``state`` but older) or "outdated" (from another
        state); None if no page is kept."""
        hit = self._pages.get(target)
        if hit is None:
            return None
        self._pages.move_to_end(target)
        if hit[0] != state:
            return hit[2], "outdated"
        return hit[2], "fresh" if time.monotonic() - hit[1] <= self.ttl else "old"

    def memo(self, state: object) -> Memo:
        """The shared facts of pages rendered from the store in ``state``: one Memo while the
        state is unchanged and it is younger than ``ttl`` (as a kept page), a new one after."""
        now = time.monotonic()
        if self._memo is None or self._memo[0] != state or now - self._memo[1] > self.ttl:
            self._tokens += 1
            self._memo = (state, now, Memo(self._tokens))
        return self._memo[2]

    def put(self, target: str, state: object, answer: Answer, rendered_at: float) -> None:
        """Keep ``answer`` (rendered from the store in ``state``, started at ``rendered_at``)."""
        if answer.status >= 500:
            return
        self._pages[target] = (state, rendered_at, answer)
        self._pages.move_to_end(target)
        while len(self._pages) > self._entries:
            self._pages.popitem(last=False)


@dataclass(frozen=True)
class Request:
    """A parsed request head: method, target, HTTP version and headers (lower-case names)."""

    method: str
    target: str
    version: str
    headers: Mapping[str, str]

    @property
    def keep_alive(self) -> bool:
        connection = self.headers.get("connection", "").lower()
        if self.version == "HTTP/1.1":
            return "close" not in connection
        return "keep-alive" in connection

    @property
    def has_body(self) -> bool:
        length = self.headers.get("content-length", "0").strip()
        return "transfer-encoding" in self.headers or length not in ("", "0")


def parse_head(head: bytes) -> Request | str:
    """The request in ``head`` (request line and headers, ending with a blank line), or why it
    is not one (a 400). Strict: one space between the parts of the request line, an
    origin-form target, HTTP/1.0 or 1.1, ``name: value`` header lines, one ``Host``."""
    lines = head.decode("latin-1").split("\r\n")
    parts = lines[0].split(" ")
    if len(parts) != 3:
        return "malformed request line"
    method, target, version = parts
    if not _TOKEN.match(method):
        return "malformed method"
    if version not in ("HTTP/1.0", "HTTP/1.1"):
        return "unsupported HTTP version"
    if not target.startswith("/") or any(c <= " " or c == "\x7f" for c in target):
        return "the request target must be a path"
    headers: dict[str, str] = {}
    fields = [line for line in lines[1:] if line]
    if len(fields) > MAX_HEADERS:
        return f"more than {MAX_HEADERS} header lines"
    for line in fields:
        name, sep, value = line.partition(":")
        if not sep or not _TOKEN.match(name):
            return "malformed header line"
        key = name.lower()
        if key in headers and key in ("host", "content-length"):
            return f"more than one {name} header"
        headers[key] = value.strip() if key not in headers else f"{headers[key]}, {value.strip()}"
    return Request(method, target, version, headers)


_REASONS = {s.value: s.phrase for s in HTTPStatus}


def _head(status: int, fields: Sequence[tuple[str, str]]) -> bytes:
    lines = [f"HTTP/1.1 {status} {_REASONS.get(status, '')}"]
    lines += [f"{k}: {v}" for k, v in fields]
    return ("\r\n".join(lines) + "\r\n\r\n").encode("latin-1")


_SECURITY_HEADERS = (
    ("Content-Security-Policy", CSP),
    ("X-Content-Type-Options", "nosniff"),
    ("X-Frame-Options", "DENY"),
    ("Referrer-Policy", "no-referrer"),
    # a browser keeps the page only to revalidate it (ETag, 304): never served stale
    ("Cache-Control", "private, no-cache"),
)


class DashboardServer:
    """The dashboard's HTTP/1.1 server: an asyncio event loop on the thread that calls
    ``serve_forever`` and ``workers`` render threads.

    The listening socket is bound at construction (``server_address`` is known at once, a
    port in use fails here); ``shutdown`` (from another thread) stops ``serve_forever`` and
    waits for it; ``server_close`` releases the socket and the threads.
    """

    def __init__(
        self,
        store: RunStore,
        host: str = "127.0.0.1",
        port: int = 8000,
        *,
        quiet: bool = True,
        allowed_hosts: Iterable[str] = (),
        timeout: float = TIMEOUT,
        workers: int = WORKERS,
        max_connections: int = MAX_CONNECTIONS,
    ) -> None:
        self.store = store
        self.quiet = quiet
        self.timeout = timeout
        self.max_connections = max_connections
        self.backlog = BACKLOG
        self.allowed_hosts = frozenset(
            LOCAL_HOSTS | {host.strip("[]").lower()} | {h.lower() for h in allowed_hosts}
        )
        self.cache = PageCache(store)
        self._pool = ThreadPoolExecutor(max_workers=workers, thread_name_prefix="assay-render")
        self.workers = workers
        self._procs: RenderProcesses | None = None
        self._flights: dict[str, asyncio.Future[Answer]] = {}
        self._open = 0
        self._loop: asyncio.AbstractEventLoop | None = None
        self._stop: asyncio.Event | None = None
        self._done = threading.Event()
        self._done.set()
        self._shutdown = False
        # IPv4 first where a name has both ("localhost"), as http.server bound it
        infos = socket.getaddrinfo(host, port, type=socket.SOCK_STREAM, flags=socket.AI_PASSIVE)
        family, kind, proto, _, address = next(
            (info for info in infos if info[0] == socket.AF_INET), infos[0]
        )
        self.socket = socket.socket(family, kind, proto)
        try:
            self.socket.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
            self.socket.bind(address)
            self.socket.listen(BACKLOG)
        except OSError:
            self.socket.close()
            raise
        self.socket.setblocking(False)
        self.server_address: tuple[str, int] = self.socket.getsockname()[:2]

    # ------------------------------------------------------------------ lifecycle

    def serve_forever(self) -> None:
        """Serve until ``shutdown`` is called (or KeyboardInterrupt).

        The objects alive at start (modules, compiled templates and statements, pydantic
        schemas: a few hundred thousand) are moved out of the cyclic collector's reach
        (``gc.freeze``): a full collection over them in the first burst of renders cost
        50-70 ms each time, and they live as long as the server anyway. When it stops, a
        process that froze nothing before has them back (``gc.unfreeze``): one that served from
        a thread (``serve_in_thread``) and goes on keeps no object out of the collector's reach.
        """
        self._done.clear()
        ours = gc.get_freeze_count() == 0  # else what the process froze itself stays frozen
        gc.collect()
        gc.freeze()
        try:
            asyncio.run(self._main())
        finally:
            if ours:
                gc.unfreeze()
            self._done.set()

    def shutdown(self) -> None:
        """Stop ``serve_forever`` (called from another thread) and wait until it returned."""
        self._shutdown = True
        loop, stop = self._loop, self._stop
        if loop is not None and stop is not None and not loop.is_closed():
            with contextlib.suppress(RuntimeError):  # the loop closed meanwhile
                loop.call_soon_threadsafe(stop.set)
        self._done.wait()

    def server_close(self) -> None:
        self.socket.close()
        self._pool.shutdown(wait=False, cancel_futures=True)
        procs, self._procs = self._procs, None
        if procs is not None:
            procs.close()

    async def _main(self) -> None:
        self._loop = asyncio.get_running_loop()
        self._stop = asyncio.Event()
        if self._shutdown:
            return
        server = await asyncio.start_server(
            self._connection, sock=self.socket, limit=MAX_HEAD, backlog=BACKLOG
        )
        try:
            await self._stop.wait()
        finally:
            server.close()
            self._loop = None

    # ------------------------------------------------------------------ connections

    async def _connection(self, reader: asyncio.StreamReader, writer: asyncio.StreamWriter) -> None:
        self._open += 1
        try:
            if self._open > self.max_connections:
                answer = refusal(503, "busy", "Too many open connections; try again.")
                await self._write(writer, answer, (), keep=False, body=True)
                return
            for _ in range(MAX_REQUESTS_PER_CONNECTION):
                if not await self._one(reader, writer):
                    return
        except (ConnectionError, TimeoutError, asyncio.IncompleteReadError):
            return
        finally:
            self._open -= 1
            writer.close()

    async def _one(self, reader: asyncio.StreamReader, writer: asyncio.StreamWriter) -> bool:
        """Read, answer and log one request; whether the connection stays open."""
        try:
            head = await asyncio.wait_for(reader.readuntil(b"\r\n\r\n"), self.timeout)
        except asyncio.LimitOverrunError:
            answer = refusal(
                431, "request too large", f"Request heads are {MAX_HEAD} bytes at most."
            )
            await self._write(writer, answer, (), keep=False, body=True)
            return False
        except asyncio.IncompleteReadError:
            return False  # the client closed (or a partial head): nothing to answer
        request = parse_head(head)
        if isinstance(request, str):
            await self._write(
                writer, refusal(400, "bad request", request), (), keep=False, body=True
            )
            return False
        answer, extra = await self._answer(request)
        keep = request.keep_alive and not request.has_body and answer.status not in (400, 405)
        if answer.status == 200 and request.headers.get("if-none-match") == answer.etag:
            answer = Answer(304, b"", answer.etag)
        await self._write(writer, answer, extra, keep=keep, body=request.method != "HEAD")
        if not self.quiet:
            peer = writer.get_extra_info("peername") or ("?",)
            sys.stderr.write(
                f"{peer[0]} {request.method} {request.target[:200]!r} {answer.status}\n"
            )
        return keep

    async def _answer(self, request: Request) -> tuple[Answer, Sequence[tuple[str, str]]]:
        if request.method not in ("GET", "HEAD"):
            return refusal(405, "read-only", "The dashboard is read-only."), (
                ("Allow", "GET, HEAD"),
            )
        host = host_name(request.headers.get("host"))
        if host is None or host not in self.allowed_hosts:
            return refusal(
                403, "host not allowed", "This dashboard answers to local names only."
            ), ()
        if len(request.target) > MAX_TARGET:
            return refusal(400, "bad request", f"request target longer than {MAX_TARGET}"), ()
        return await self._page(request.target), ()

    async def _page(self, target: str) -> Answer:
        """The answer for ``target``: the kept page while the store is unchanged, else one
        render in the pool, which every request for that target waits for (no stampede of
        identical renders).

        Two cases are answered with the kept page while one render refreshes it: a page that
        is only old (the store's state is unchanged: its content almost surely is too; pages
        rendered in one burst would otherwise all expire at once), and a page the store has
        changed under while more renders are under way than the pool has threads (under load,
        the page is at most one render behind, instead of queueing every client behind the
        re-render of every page). A single visitor always gets a page rendered after the
        store's last seen change.
        """
        state = self.cache.state()
        kept = self.cache.get(target, state)
        if kept is not None and kept[1] == "fresh":
            return kept[0]
        flight = self._flights.get(target)
        busy = len(self._flights) >= self.workers
        if flight is None:
            flight = asyncio.ensure_future(self._refresh(target, state))
            self._flights[target] = flight
        if kept is not None and (kept[1] == "old" or busy):
            return kept[0]
        return await asyncio.shield(flight)

    async def _refresh(self, target: str, state: object) -> Answer:
        """Render ``target`` in the pool and keep the page under ``state``."""
        started = time.monotonic()
        try:
            memo = self.cache.memo(state)
            answer = await self._rendered(target, memo)
        except RuntimeError as err:  # the pool was shut down under a late request
            return Answer.of(message(503, "stopping", str(err)[:200]))
        else:
            self.cache.put(target, state, answer, started)
            return answer
        finally:
            self._flights.pop(target, None)

    async def _rendered(self, target: str, memo: Memo) -> Answer:
        """``target`` rendered in a render process if the server has them, else in a thread
        (also when a process died: its pool is closed and the threads take over)."""
        procs = self._procs
        if procs is not None:
            try:
                return await asyncio.wrap_future(procs.submit(target, memo))
            except BrokenProcessPool as err:
                if self._procs is procs:
                    self._procs = None
                    sys.stderr.write(f"assay serve: render processes lost ({err}); threads go on\n")
                    procs.close()
        loop = asyncio.get_running_loop()
        return await loop.run_in_executor(self._pool, self._render, target, memo)

    def start_processes(self, n: int) -> None:
        """Render in ``n`` forked processes from now on (see ``assay._dashboard.workers``);
        nothing where fork is not available or ``n`` is 0. Called before ``serve_forever``,
        when the server is warm and has no threads yet."""
        from assay._dashboard import workers

        if n > 0 and self._procs is None and workers.available():
            self._procs = workers.RenderProcesses(self.store, n)
            self.workers = max(self.workers, n)

    def _render(self, target: str, memo: Memo | None = None) -> Answer:
        return render_answer(self.store, target, memo)

    async def _write(
        self,
        writer: asyncio.StreamWriter,
        answer: Answer,
        extra: Sequence[tuple[str, str]],
        *,
        keep: bool,
        body: bool,
    ) -> None:
        fields = [
            ("Server", "assay-dashboard"),
            ("Date", _date()),
            ("Content-Type", "text/html; charset=utf-8"),
            # a 304 has no body and names no length (the page's length is the kept copy's)
            *([] if answer.status == 304 else [("Content-Length", str(len(answer.body)))]),
            ("ETag", answer.etag),
            *_SECURITY_HEADERS,
            *extra,
            ("Connection", "keep-alive" if keep else "close"),
        ]
        writer.write(_head(answer.status, fields))
        if body and answer.body:
            writer.write(answer.body)
        await asyncio.wait_for(writer.drain(), self.timeout)


@lru_cache(maxsize=2)
def _date_at(second: int) -> str:
    return formatdate(second, usegmt=True)


def _date() -> str:
    return _date_at(int(time.time()))


def make_server(
    store: RunStore,
    host: str = "127.0.0.1",
    port: int = 8000,
    *,
    quiet: bool = True,
    allowed_hosts: Iterable[str] = (),
    timeout: float = TIMEOUT,
    processes: int | None = None,
) -> DashboardServer:
    """A server bound to ``host:port`` (port 0 picks a free one), templates warmed, rendering
    in ``processes`` forked processes (default: ``default_processes()``; 0: in threads).

    It answers requests whose ``Host`` is a local name, ``host`` itself, or in
    ``allowed_hosts`` (e.g. the machine's name when serving on 0.0.0.0).
    """
    server = DashboardServer(
        store, host, port, quiet=quiet, allowed_hosts=allowed_hosts, timeout=timeout
    )
    try:
        _warm(server)
        server.start_processes(default_processes() if processes is None else processes)
    except BaseException:
        server.server_close()
        raise
    return server


def _warm(server: DashboardServer) -> None:
    """Render the runs list and the newest run's page before the first client waits, and keep
    them: the templates are compiled and the modules they use imported (the first render of a
    run page costs about ten times a later one), and the page every visitor opens first is
    cached; every other template is compiled (a first render compiled its template: 20-50 ms
    inside the first burst, once per render process). No other page is rendered: a page
    nobody asked for is not kept. A failure here is the first request's to report, not
    startup's."""
    try:
        compile_templates()
        targets = ["/"]
        first = server.store.list_runs(limit=1)
        if first:
            targets.append(f"/runs/{first[0].run_id}")
        for target in targets:
            state, started = server.cache.state(), time.monotonic()
            answer = server._render(target, server.cache.memo(state))
            server.cache.put(target, state, answer, started)
    except Exception:
        return


def serve_in_thread(
    store: RunStore,
    host: str = "127.0.0.1",
    port: int = 0,
    *,
    timeout: float = TIMEOUT,
    processes: int = 0,
) -> tuple[DashboardServer, threading.Thread]:
    """Start a server on a background thread (for tests and screenshots); returns both. It
    renders in threads unless ``processes`` says otherwise (a test process has threads of its
    own, which a fork would copy mid-step)."""
    server = make_server(store, host, port, timeout=timeout, processes=processes)
    thread = threading.Thread(target=server.serve_forever, name="assay-dashboard", daemon=True)
    thread.start()
    return server, thread
