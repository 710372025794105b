"""``assay serve``: a read-only local web server over the run store (stdlib http.server)."""

from __future__ import annotations

import re
import sys
import threading
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

CSP = (
    "default-src 'none'; style-src 'unsafe-inline'; img-src data:; form-action 'self'; "
    "frame-ancestors 'none'; base-uri 'none'"
)
_RUN_PATH = re.compile(r"^/runs/([A-Za-z0-9_.-]{1,64})$")


class DashboardHandler(BaseHTTPRequestHandler):
    """GET and HEAD only; every other method is refused (the dashboard never writes)."""

    store: ClassVar[RunStore]
    quiet: ClassVar[bool] = True
    server_version = "assay-dashboard"
    sys_version = ""

    def route(self) -> Page:
        parts = urlsplit(self.path)
        params = parse_qs(parts.query, keep_blank_values=False)
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

    def do_GET(self) -> None:
        try:
            page = self.route()
        except Exception as err:  # never a traceback to the client
            page = message(500, "internal error", f"{type(err).__name__}")
            self.log_error("error serving %s: %r", self.path, err)
        self._send(page)

    def do_HEAD(self) -> None:
        self._send(self.route(), body=False)

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


def make_server(
    store: RunStore, host: str = "127.0.0.1", port: int = 8000, *, quiet: bool = True
) -> ThreadingHTTPServer:
    """A ThreadingHTTPServer bound to ``host:port`` (port 0 picks a free one)."""
    handler = type("Handler", (DashboardHandler,), {"store": store, "quiet": quiet})
    server = ThreadingHTTPServer((host, port), handler)
    server.daemon_threads = True
    return server


def serve_in_thread(
    store: RunStore, host: str = "127.0.0.1", port: int = 0
) -> tuple[ThreadingHTTPServer, threading.Thread]:
    """Start a server on a background thread (for tests and screenshots); returns both."""
    server = make_server(store, host, port)
    thread = threading.Thread(target=server.serve_forever, name="assay-dashboard", daemon=True)
    thread.start()
    return server, thread
