"""``assay serve``: a read-only local web server over the run store (stdlib http.server).

It holds against a hostile page and heavy local use (issue 20):

- **Host allow-list**: a request whose ``Host`` header names anything but 127.0.0.1,
  localhost, [::1] or the ``--host`` the server was started with is refused (403), so a
  DNS-rebinding page cannot read the stored runs through the victim's browser.
- **Bounded requests**: a target longer than ``MAX_TARGET`` characters, more than
  ``MAX_PARAMS`` query values, a value longer than ``MAX_VALUE`` or a ``page`` that is not a
  whole number below ``MAX_PAGE`` is a 400, never a 500.
- **A server that holds**: one thread per connection, a listen backlog of ``BACKLOG``, a
  ``TIMEOUT``-second socket timeout (a half-open connection holds its thread that long at
  most), and rendered pages cached per store state (``PageCache``), so 200 concurrent local
  clients are served without errors (figures in docs/reports.md).
"""

from __future__ import annotations

import os
import re
import sys
import threading
import time
from collections import OrderedDict
from collections.abc import Callable, Iterable, Mapping, Sequence
from http import HTTPStatus
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from typing import Any, ClassVar
from urllib.parse import parse_qs, unquote, urlsplit

from assay.dashboard.views import (
    Page,
    compare_page,
    history_page,
    message,
    run_page,
    runs_page,
)
from assay.errors import AssayError, UsageError
from assay.store import RunStore
from assay.store.url import sqlite_path

CSP = (
    "default-src 'none'; style-src 'unsafe-inline'; img-src data:; form-action 'self'; "
    "frame-ancestors 'none'; base-uri 'none'"
)
_RUN_PATH = re.compile(r"^/runs/([A-Za-z0-9_.-]{1,64})$")
_PAGE = re.compile(r"^[0-9]{1,7}$")

#: the host names a local dashboard answers to (plus the ``--host`` it was started with)
LOCAL_HOSTS = frozenset({"127.0.0.1", "localhost", "::1"})
#: longest request target (path and query) accepted, in characters
MAX_TARGET = 4096
#: most query values accepted in one request
MAX_PARAMS = 32
#: longest single query value accepted, in characters
MAX_VALUE = 512
#: pages beyond this are refused (50 runs a page: far more runs than any store holds)
MAX_PAGE = 10_000_000
#: connections the kernel queues before the server accepts them
BACKLOG = 1024
#: seconds a connection may take to send its request (and to receive the answer)
TIMEOUT = 10.0
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


def check_params(target: str, params: Mapping[str, Sequence[str]]) -> str | None:
    """Why a request's query cannot be served (a 400), or None."""
    if len(target) > MAX_TARGET:
        return f"request target longer than {MAX_TARGET} characters"
    values = [v for vs in params.values() for v in vs]
    if len(values) > MAX_PARAMS:
        return f"more than {MAX_PARAMS} query parameters"
    if any(len(v) > MAX_VALUE for v in values):
        return f"a query parameter longer than {MAX_VALUE} characters"
    for raw in params.get("page", []):
        if not _PAGE.match(raw.strip()) or int(raw) >= MAX_PAGE:
            return f"page must be a whole number from 0 to {MAX_PAGE - 1}, not {raw[:40]!r}"
    return None


class PageCache:
    """Rendered pages by request target, valid while the store is unchanged.

    The store's state is the size and modification time of its SQLite file and write-ahead
    log (a commit changes one of them), checked with two ``stat`` calls and no query; entries
    also expire after ``ttl`` seconds (2 s for a database that is not a file, 30 s for SQLite).
    Threads share one cache.
    """

    def __init__(self, store: RunStore, *, entries: int = CACHE_ENTRIES) -> None:
        self._path = sqlite_path(store.url)
        self._entries = entries
        self._ttl = 2.0 if self._path is None else 30.0
        self._lock = threading.Lock()
        self._pages: OrderedDict[str, tuple[object, Page]] = OrderedDict()
        self._flights: dict[str, threading.Lock] = {}

    def _state(self) -> object:
        if self._path is None:
            return int(time.monotonic() / self._ttl)
        parts: list[int] = []
        for name in (str(self._path), f"{self._path}-wal"):
            try:
                st = os.stat(name)
            except OSError:
                parts += [-1, -1]
                continue
            parts += [st.st_mtime_ns, st.st_size]
        # two commits within the file clock's resolution that leave the log's size unchanged
        # would go unseen: entries expire after ``ttl`` seconds in any case
        return (*parts, int(time.monotonic() / self._ttl))

    def _lookup(self, target: str, state: object) -> Page | None:
        with self._lock:
            hit = self._pages.get(target)
            if hit is not None and hit[0] == state:
                self._pages.move_to_end(target)
                return hit[1]
        return None

    def get(self, target: str, render: Callable[[], Page]) -> Page:
        """The cached page for ``target``, else ``render()``: one thread renders a target while
        the others asking for it wait for that page (no stampede of identical renders)."""
        state = self._state()
        page = self._lookup(target, state)
        if page is not None:
            return page
        with self._lock:
            flight = self._flights.setdefault(target, threading.Lock())
        with flight:
            page = self._lookup(target, state)
            if page is not None:
                return page
            page = render()
            with self._lock:
                if page.status < 500:
                    self._pages[target] = (state, page)
                    self._pages.move_to_end(target)
                    while len(self._pages) > self._entries:
                        self._pages.popitem(last=False)
                self._flights.pop(target, None)
        return page


class DashboardHandler(BaseHTTPRequestHandler):
    """GET and HEAD only; every other method is refused (the dashboard never writes)."""

    store: ClassVar[RunStore]
    cache: ClassVar[PageCache]
    allowed_hosts: ClassVar[frozenset[str]] = LOCAL_HOSTS
    quiet: ClassVar[bool] = True
    server_version = "assay-dashboard"
    sys_version = ""
    timeout = TIMEOUT

    def page(self) -> Page:
        """The answer to this request: a refusal, or the routed page (cached)."""
        host = host_name(self.headers.get("Host"))
        if host is None or host not in self.allowed_hosts:
            return message(403, "host not allowed", "This dashboard answers to local names only.")
        if len(self.path) > MAX_TARGET:
            return message(400, "bad request", f"request target longer than {MAX_TARGET}")
        return self.cache.get(self.path, self.route)

    def route(self) -> Page:
        parts = urlsplit(self.path)
        params = parse_qs(parts.query, keep_blank_values=False, max_num_fields=MAX_PARAMS * 4)
        problem = check_params(self.path, params)
        if problem is not None:
            return message(400, "bad request", problem)
        path = unquote(parts.path)
        try:
            if path in ("/", "/runs"):
                return runs_page(self.store, params)
            m = _RUN_PATH.match(path)
            if m:
                return run_page(self.store, m.group(1), params)
            if path == "/compare":
                return compare_page(self.store, params)
            if path in ("/history", "/surfaces"):
                return history_page(self.store, params)
        except UsageError as err:
            return message(400, "bad request", str(err))
        except AssayError as err:
            return message(500, "store error", str(err))
        return message(404, "not found", f"no page at {path}")

    def _send(self, page: Page, *, body: bool = True) -> None:
        data = page.html.encode("utf-8")
        self.send_response(page.status)
        self.send_header("Content-Type", "text/html; charset=utf-8")
        self.send_header("Content-Length", str(len(data)))
        self.send_header("Content-Security-Policy", CSP)
        self.send_header("X-Content-Type-Options", "nosniff")
        self.send_header("X-Frame-Options", "DENY")
        self.send_header("Referrer-Policy", "no-referrer")
        self.send_header("Cache-Control", "no-store")
        self.end_headers()
        if body:
            self.wfile.write(data)

    def _answer(self) -> Page:
        try:
            return self.page()
        except ValueError as err:  # a query parse_qs refuses (too many fields)
            return message(400, "bad request", str(err)[:200])
        except Exception as err:  # never a traceback to the client
            self.log_error("error serving %s: %r", self.path, err)
            return message(500, "internal error", f"{type(err).__name__}")

    def do_GET(self) -> None:
        self._send(self._answer())

    def do_HEAD(self) -> None:
        self._send(self._answer(), body=False)

    def _refuse(self) -> None:
        page = message(405, "read-only", "The dashboard is read-only.")
        self.send_response(HTTPStatus.METHOD_NOT_ALLOWED)
        data = page.html.encode("utf-8")
        self.send_header("Allow", "GET, HEAD")
        self.send_header("Content-Type", "text/html; charset=utf-8")
        self.send_header("Content-Length", str(len(data)))
        self.end_headers()
        self.wfile.write(data)

    do_POST = do_PUT = do_DELETE = do_PATCH = _refuse

    def log_message(self, format: str, *args: Any) -> None:
        if not self.quiet:
            sys.stderr.write(f"{self.address_string()} {format % args}\n")


class DashboardServer(ThreadingHTTPServer):
    """One daemon thread per connection, with a deep listen backlog."""

    daemon_threads = True
    request_queue_size = BACKLOG


def make_server(
    store: RunStore,
    host: str = "127.0.0.1",
    port: int = 8000,
    *,
    quiet: bool = True,
    allowed_hosts: Iterable[str] = (),
) -> ThreadingHTTPServer:
    """A threaded server bound to ``host:port`` (port 0 picks a free one).

    It answers requests whose ``Host`` is a local name, ``host`` itself, or in
    ``allowed_hosts`` (e.g. the machine's name when serving on 0.0.0.0).
    """
    names = LOCAL_HOSTS | {host.strip("[]").lower()} | {h.lower() for h in allowed_hosts}
    handler = type(
        "Handler",
        (DashboardHandler,),
        {
            "store": store,
            "quiet": quiet,
            "cache": PageCache(store),
            "allowed_hosts": frozenset(names),
        },
    )
    server = DashboardServer((host, port), handler)
    _warm(store)
    return server


def _warm(store: RunStore) -> None:
    """Render a runs list and a run page once, so templates are compiled and the modules they
    use imported before the first client waits (the first render of a run page costs about
    ten times a later one). A failure here is the first request's to report, not startup's."""
    try:
        runs_page(store, {})
        first = store.list_runs(limit=1)
        if first:
            run_page(store, first[0].run_id, {})
    except Exception:
        return


def serve_in_thread(
    store: RunStore, host: str = "127.0.0.1", port: int = 0
) -> tuple[ThreadingHTTPServer, threading.Thread]:
    """Start a server on a background thread (for tests and screenshots); returns both."""
    server = make_server(store, host, port)
    thread = threading.Thread(target=server.serve_forever, name="assay-dashboard", daemon=True)
    thread.start()
    return server, thread
