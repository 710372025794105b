"""A fake OpenAI-compatible chat-completions server on 127.0.0.1 for the judge tests.

The test gives a ``responder(request_json, n)`` returning a :class:`Reply` (status, body, delay,
headers); the server records every request, its headers, and the most requests it ever held
at once.
"""

from __future__ import annotations

import json
import threading
import time
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from dataclasses import dataclass, field
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from typing import Any


@dataclass
class Reply:
    status: int = 200
    body: Any = None
    delay: float = 0.0
    headers: dict[str, str] = field(default_factory=dict)


def completion(
    content: str | None,
    prompt_tokens: int = 100,
    completion_tokens: int = 20,
    *,
    model: str | None = None,
    usage: bool = True,
    finish_reason: str | None = None,
) -> Reply:
    """A 200 chat-completions answer with ``content`` and the given usage (none at all when
    ``usage`` is False), naming ``model`` when given."""
    choice: dict[str, Any] = {"index": 0, "message": {"role": "assistant", "content": content}}
    if finish_reason is not None:
        choice["finish_reason"] = finish_reason
    body: dict[str, Any] = {"id": "chatcmpl-test", "object": "chat.completion", "choices": [choice]}
    if model is not None:
        body["model"] = model
    if usage:
        body["usage"] = {
            "prompt_tokens": prompt_tokens,
            "completion_tokens": completion_tokens,
            "total_tokens": prompt_tokens + completion_tokens,
        }
    return Reply(body=body)


def refused_port() -> int:
    """A loopback port nothing listens on (bound, then closed): connecting is refused."""
    import socket

    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        port: int = sock.getsockname()[1]
    return port


Responder = Callable[[dict[str, Any], int], Reply]


class FakeServer(ThreadingHTTPServer):
    daemon_threads = True

    def __init__(self, responder: Responder) -> None:
        super().__init__(("127.0.0.1", 0), _Handler)
        self.responder = responder
        self.requests: list[dict[str, Any]] = []
        self.headers_seen: list[dict[str, str]] = []
        self.lock = threading.Lock()
        self.in_flight = 0
        self.max_in_flight = 0

    @property
    def url(self) -> str:
        return f"http://127.0.0.1:{self.server_address[1]}/v1"


class _Handler(BaseHTTPRequestHandler):
    server: FakeServer

    def log_message(self, format: str, *args: Any) -> None:  # quiet
        return

    def do_POST(self) -> None:
        length = int(self.headers.get("Content-Length", "0"))
        body = json.loads(self.rfile.read(length) or b"{}")
        srv = self.server
        with srv.lock:
            srv.requests.append(body)
            srv.headers_seen.append(dict(self.headers))
            n = len(srv.requests)
            srv.in_flight += 1
            srv.max_in_flight = max(srv.max_in_flight, srv.in_flight)
        try:
            if self.path != "/v1/chat/completions":
                reply = Reply(404, {"error": {"message": f"no route {self.path}"}})
            else:
                reply = srv.responder(body, n)
            if reply.delay:
                time.sleep(reply.delay)
            data = (
                reply.body.encode()
                if isinstance(reply.body, str)
                else json.dumps(reply.body).encode()
            )
        finally:
            # done before the reply is sent: a client that has its answer may send its next
            # request before this thread runs again, which must not count as a third in flight
            with srv.lock:
                srv.in_flight -= 1
        try:
            self.send_response(reply.status)
            for k, v in reply.headers.items():
                self.send_header(k, v)
            self.send_header("Content-Type", "application/json")
            self.send_header("Content-Length", str(len(data)))
            self.end_headers()
            self.wfile.write(data)
        except (BrokenPipeError, ConnectionResetError):
            pass  # the client gave up (timeout test)


@contextmanager
def fake_server(responder: Responder) -> Iterator[FakeServer]:
    """Serve on 127.0.0.1 (an ephemeral port) for the duration of the block."""
    server = FakeServer(responder)
    thread = threading.Thread(target=server.serve_forever, args=(0.02,), daemon=True)
    thread.start()
    try:
        yield server
    finally:
        server.shutdown()
        server.server_close()
        thread.join(timeout=5)
