"""Render processes: the dashboard's pages rendered on every core, not one at a time.

A render is pure Python (SQL rows, JSON decoding, pydantic validation, Jinja escaping), so the
server's render threads take turns at the interpreter lock: a burst of first renders (a server
just started, or a store that changed under every kept page) used one core however many the
machine has. ``RenderProcesses`` forks ``n`` workers from the server once its templates are
compiled and its first pages rendered (a forked worker starts warm, in milliseconds, sharing
the parent's memory until it writes), each with its own connections to the store (the
inherited ones are dropped, never used by two processes), and renders a page in whichever is
free. Workers talk to the server through the pipes of ``concurrent.futures`` only (no
socket); they ignore Ctrl-C (the server stops them) and exit when the server closes the pool.

Only where ``fork`` exists (Linux, macOS); elsewhere, and with ``n == 0``, the server renders
in threads as before.
"""

from __future__ import annotations

import contextlib
import gc
import multiprocessing as mp
import os
import signal
import threading
import time
from concurrent.futures import Future, ProcessPoolExecutor, wait

from assay._dashboard.routes import Answer, render_answer
from assay._dashboard.views import Memo
from assay._store import RunStore

#: seconds between a worker's checks that the server still runs
ORPHAN_CHECK = 1.0
#: what a worker keeps: the store and, per store state, the facts pages share
_worker: dict[str, object] = {}


def available() -> bool:
    """Whether render processes can be forked here."""
    return "fork" in mp.get_all_start_methods()


def _start(store: RunStore, parent: int) -> None:
    """A worker's start: its own store connections, Ctrl-C left to the server, and an exit
    when the server is gone (killed, it cannot close the pool: a worker would wait forever
    on a pipe whose other end it holds itself)."""
    signal.signal(signal.SIGINT, signal.SIG_IGN)
    threading.Thread(target=_orphan_watch, args=(parent,), daemon=True).start()
    store.engine.dispose(close=False)  # the parent's connections stay the parent's
    _worker.clear()
    _worker["store"] = store
    gc.freeze()  # what the parent had at fork: never collected, never copied by the collector


def _orphan_watch(parent: int) -> None:
    """Exit this worker once its parent has died (checked every ``ORPHAN_CHECK`` seconds)."""
    while os.getppid() == parent:
        time.sleep(ORPHAN_CHECK)
    os._exit(0)


def _render(target: str, memo_token: int) -> Answer:
    """Render ``target`` in a worker, with the facts pages share kept per ``memo_token`` (the
    token of the server's Memo: a new one in the server is a new one here)."""
    store = _worker["store"]
    assert isinstance(store, RunStore)
    memo = _worker.get("memo")
    if not isinstance(memo, Memo) or memo.token != memo_token:
        memo = _worker["memo"] = Memo(memo_token)
    return render_answer(store, target, memo)


def _ready() -> int:
    return 0


class RenderProcesses:
    """``n`` forked render workers over ``store`` (see the module's docstring)."""

    def __init__(self, store: RunStore, n: int) -> None:
        self.n = n
        self._pool = ProcessPoolExecutor(
            max_workers=n,
            mp_context=mp.get_context("fork"),
            initializer=_start,
            initargs=(store, os.getpid()),
        )
        # fork every worker now, before the server starts its threads, and wait until each
        # has started (the first submit forks all of them with the fork start method)
        wait([self._pool.submit(_ready) for _ in range(n)], timeout=60)

    def submit(self, target: str, memo: Memo) -> Future[Answer]:
        """Render ``target`` in a free worker (``memo``: the server's Memo for the store state
        the page is kept under; its token, not its values, crosses the pipe)."""
        return self._pool.submit(_render, target, memo.token)

    def pids(self) -> list[int]:
        """The workers' process ids (tests check that none is left after ``close``)."""
        return sorted(getattr(self._pool, "_processes", None) or {})

    def close(self) -> None:
        """Stop the workers (queued renders are cancelled) and wait until they exited."""
        with contextlib.suppress(Exception):
            self._pool.shutdown(wait=True, cancel_futures=True)
