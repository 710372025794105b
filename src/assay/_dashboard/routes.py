"""The dashboard's routes: a request target → the page that answers it, encoded to be sent.

What a render thread of the server (``_dashboard.server``) and a forked render process
(``_dashboard.workers``) both do, so it sits below both: ``render_answer`` never raises (a
view that fails is a 500 page), and a query the server must not serve (too long, too many
values, a ``page`` that is not a whole number) is a 400 page, never a 500.
"""

from __future__ import annotations

import hashlib
import re
import sys
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from urllib.parse import parse_qs, unquote, urlsplit

from assay._dashboard.items import pair_items_page, run_items_page
from assay._dashboard.views import (
    Memo,
    Page,
    compare_page,
    history_page,
    message,
    run_page,
    runs_page,
)
from assay._store import RunStore
from assay.errors import AssayError, UsageError

_RUN_PATH = re.compile(r"^/runs/([A-Za-z0-9_.-]{1,64})$")
_RUN_ITEMS = re.compile(r"^/runs/([A-Za-z0-9_.-]{1,64})/items$")
_PAGE = re.compile(r"^[0-9]{1,7}$")

#: longest request target (path and query) accepted, in characters
MAX_TARGET = 4096
#: most query values accepted in one request
MAX_PARAMS = 32
#: longest single query value accepted, in characters
MAX_VALUE = 512
#: pages beyond this are refused (50 runs a page: far more runs than any store holds)
MAX_PAGE = 10_000_000


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


def render_answer(store: RunStore, target: str, memo: Memo | None = None) -> Answer:
    """The answer for ``target`` (a 500 page, never a traceback, if a view fails): what a
    render thread or a render process does."""
    try:
        return Answer.of(route(store, target, memo))
    except Exception as err:  # never a traceback to the client
        sys.stderr.write(f"assay serve: error serving {target[:200]!r}: {err!r}\n")
        return Answer.of(message(500, "internal error", type(err).__name__))


def route(store: RunStore, target: str, memo: Memo | None = None) -> Page:
    """The page for a request target (a refusal page for a bad query): views over ``store``,
    with the facts pages share taken from ``memo`` (see ``Memo``)."""
    parts = urlsplit(target)
    try:
        params = parse_qs(parts.query, keep_blank_values=False, max_num_fields=MAX_PARAMS * 4)
    except ValueError as err:  # more fields than max_num_fields
        return message(400, "bad request", str(err)[:200])
    problem = check_params(target, params)
    if problem is not None:
        return message(400, "bad request", problem)
    path = unquote(parts.path)
    try:
        if path in ("/", "/runs"):
            return runs_page(store, params, memo)
        m = _RUN_PATH.match(path)
        if m:
            return run_page(store, m.group(1), params, memo)
        m = _RUN_ITEMS.match(path)
        if m:
            return run_items_page(store, m.group(1), params, memo)
        if path == "/compare":
            return compare_page(store, params)
        if path == "/compare/items":
            return pair_items_page(store, params, memo)
        if path in ("/history", "/surfaces"):
            return history_page(store, params, memo)
    except UsageError as err:
        return message(400, "bad request", str(err))
    except AssayError as err:
        return message(500, "store error", str(err))
    return message(404, "not found", f"no page at {path}")


@dataclass(frozen=True)
class Answer:
    """A page as sent: status, encoded body and its entity tag (a digest of the body)."""

    status: int
    body: bytes
    etag: str

    @classmethod
    def of(cls, page: Page) -> Answer:
        body = page.html.encode("utf-8")
        return cls(page.status, body, '"' + hashlib.blake2b(body, digest_size=12).hexdigest() + '"')
