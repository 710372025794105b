"""The dashboard's item tables: one run's items, or two runs' shared items, filtered, sorted
and paged on the server (``assay._report.triage``), so a run of 10⁵ items reaches the browser
a page at a time and every control is a link or a GET form (no script needed).

``/runs/<id>/items`` lists a run's items; ``/compare/items?run=CANDIDATE&run=BASELINE`` the
items two runs share, with the discordant counts on top. The query names are
``triage.Query``'s (``status``, ``outcome``, ``metric``, ``part``, ``cluster``, ``q``, ``lo``,
``hi``, ``sort``, ``desc``, ``page``). A table is built once per store state (``Memo``).
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from urllib.parse import urlencode

from assay._dashboard.views import (
    Memo,
    Page,
    message,
    render_page,
    script_context,
    surface_refusals,
)
from assay._report.triage import ItemTable, Query, pair_table, run_table, table_view
from assay._store import RunStore
from assay.errors import InputError, UsageError


def _run_table(store: RunStore, run_id: str, memo: Memo) -> ItemTable:
    return memo.get(("item_table", run_id), lambda: run_table(store.get(run_id)))


def _pair_table(store: RunStore, candidate: str, baseline: str, memo: Memo) -> ItemTable:
    def build() -> ItemTable:
        c, b = store.get(candidate), store.get(baseline)
        reasons = surface_refusals([c, b])
        if reasons:
            raise UsageError("not comparable: " + "; ".join(reasons))
        return pair_table(c, b)

    return memo.get(("pair_table", candidate, baseline), build)


def run_items_page(
    store: RunStore, run_id: str, params: Mapping[str, Sequence[str]], memo: Memo | None = None
) -> Page:
    """A run's items, a page at a time, under the query's filters and order."""
    memo = memo or Memo()
    try:
        run_id = store.resolve(run_id)
        query = Query.from_params(params)
        table = _run_table(store, run_id, memo)
        base = f"/runs/{run_id}/items"
        tv = table_view(table, query, dom_id="items", url=lambda p: f"{base}?{urlencode(p)}#items")
    except InputError as err:
        return message(404, "run not found", str(err))
    except UsageError as err:
        return message(400, "bad request", str(err))
    return render_page(
        "items.html.j2",
        title=f"items of {table.names[0]} · assay",
        tv=tv,
        action=base,
        hidden=(),
        runs=[(table.names[0], run_id)],
        **script_context(),
    )


def pair_items_page(
    store: RunStore, params: Mapping[str, Sequence[str]], memo: Memo | None = None
) -> Page:
    """The items two runs share (``run`` = the candidate, then the baseline), a page at a
    time, with how many each did better on."""
    memo = memo or Memo()
    refs = [r.strip() for r in params.get("run", []) if r.strip()]
    if len(refs) != 2:
        return message(400, "choose two runs", "Give run=CANDIDATE&run=BASELINE.")
    try:
        candidate, baseline = (store.resolve(r) for r in refs)
        if candidate == baseline:
            return message(400, "same run twice", "The candidate and the baseline differ.")
        query = Query.from_params(params)
        table = _pair_table(store, candidate, baseline, memo)
        runs = {"run": [candidate, baseline]}

        def url(p: Mapping[str, str]) -> str:
            return f"/compare/items?{urlencode({**runs, **p}, doseq=True)}#items"

        tv = table_view(table, query, dom_id="items", url=url)
    except InputError as err:
        return message(404, "run not found", str(err))
    except UsageError as err:
        return message(400, "bad request", str(err))
    return render_page(
        "items.html.j2",
        title=f"{table.names[0]} against {table.names[1]} · items · assay",
        tv=tv,
        action="/compare/items",
        hidden=(("run", candidate), ("run", baseline)),
        runs=[(table.names[0], candidate), (table.names[1], baseline)],
        **script_context(),
    )
