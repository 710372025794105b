"""A fork server for the docs run: ``assay`` with its imports already loaded.

Every documented ``uv run assay …`` would otherwise pay the CLI's start-up (numpy, scipy,
pydantic, the suites) again; the docs run has dozens of them. The server imports the CLI once,
then forks one child per command. The ``assay`` shim the pages see (``CLIENT``) connects to the
server's Unix socket and hands over its argv, working directory, environment and its stdin,
stdout and stderr file descriptors; the child runs ``assay._cli.main(argv)`` on them and reports
the exit code back. A forked child starts from the same pristine state for every command, so
no command sees another's settings or state. Without the server the shim runs the real CLI.

``python -m tests.doc_server SOCKET`` serves until terminated.
"""

from __future__ import annotations

import json
import os
import signal
import socket
import struct
import sys

#: the shim installed as ``assay`` in the page's PATH (formatted with python, socket, fallback)
CLIENT = """#!{python} -IS
import json, os, socket, struct, sys
try:
    s = socket.socket(socket.AF_UNIX, socket.SOCK_STREAM)
    s.connect({socket!r})
except OSError:
    os.execv({fallback!r}, [{fallback!r}, *sys.argv[1:]])
msg = json.dumps({{"args": sys.argv[1:], "cwd": os.getcwd(), "env": dict(os.environ)}}).encode()
socket.send_fds(s, [struct.pack("!Q", len(msg))], [0, 1, 2])
s.sendall(msg)
data = b""
while True:
    chunk = s.recv(64)
    if not chunk:
        break
    data += chunk
sys.exit(int(data) if data.strip() else 1)
"""

#: seconds a forked command may run before it is stopped
CHILD_TIMEOUT = 300


def _recv_exact(conn: socket.socket, n: int) -> bytes:
    data = b""
    while len(data) < n:
        chunk = conn.recv(n - len(data))
        if not chunk:
            raise ConnectionError("client went away")
        data += chunk
    return data


def _child(conn: socket.socket) -> None:
    """Run one command on the client's descriptors; never returns."""
    code = 1
    try:
        header, fds, _, _ = socket.recv_fds(conn, 8, 3)
        (length,) = struct.unpack("!Q", header)
        request = json.loads(_recv_exact(conn, length))
        for target, fd in enumerate(fds):
            os.dup2(fd, target)
            os.close(fd)
        os.chdir(request["cwd"])
        os.environ.clear()
        os.environ.update(request["env"])
        sys.stdout.reconfigure(write_through=True)  # type: ignore[union-attr]
        sys.stderr.reconfigure(write_through=True)  # type: ignore[union-attr]
        signal.alarm(CHILD_TIMEOUT)
        from assay._cli import main
        from assay._settings import clear_settings_cache

        clear_settings_cache()
        try:
            code = main(request["args"])
        except SystemExit as exc:
            code = exc.code if isinstance(exc.code, int) else 1
    except BaseException as exc:  # report, never hang the client
        print(f"doc-test server: {type(exc).__name__}: {exc}", file=sys.stderr)
    finally:
        try:
            sys.stdout.flush()
            sys.stderr.flush()
            conn.sendall(str(code).encode())
        finally:
            os._exit(0)


def serve(path: str) -> None:
    """Import the CLI, listen on ``path`` and fork a child per connection."""
    os.environ.setdefault("OPENBLAS_NUM_THREADS", "1")
    import assay._cli.app as app

    app.build_cli()
    for module in ("numpy", "scipy.stats", "assay._compare.comparison", "assay._engine.scoring"):
        __import__(module)
    signal.signal(signal.SIGCHLD, signal.SIG_IGN)  # children are reaped automatically
    server = socket.socket(socket.AF_UNIX, socket.SOCK_STREAM)
    tmp = path + ".tmp"
    server.bind(tmp)
    server.listen(16)
    os.rename(tmp, path)  # the socket appears only once the server is ready
    sys.stdout.flush()
    sys.stderr.flush()
    while True:
        conn, _ = server.accept()
        if os.fork() == 0:
            server.close()
            _child(conn)
        conn.close()


if __name__ == "__main__":
    serve(sys.argv[1])
