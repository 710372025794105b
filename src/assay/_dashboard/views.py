"""The dashboard's pages as (status, HTML): runs list, run page, compare view, history.

Pure functions of a read-only RunStore and the query string, so they are tested without a
server. The compare view enforces the same-surface rule: runs are compared (and "Δ vs best"
computed) only when they share the dataset fingerprint, seed and sample size.
"""

from __future__ import annotations

import math
from collections import Counter
from collections.abc import Callable, Hashable, Mapping, Sequence
from dataclasses import dataclass, replace
from typing import Any, TypeVar
from urllib.parse import urlencode

from assay._compare.comparison import Comparison, PairComparison, compare
from assay._engine.run import Run
from assay._report.html import ItemPage, environment, pair_views, run_view, triage_script
from assay._report.plain import dataset_name, fmt_fixed, metric_decimals
from assay._report.svg import Interval, forest_plot, line_chart
from assay._store import HistoryPoint, RunStore, RunSummary
from assay._version import __version__
from assay.errors import InputError, UsageError
from assay.stats.result import SignificanceResult

PAGE_SIZE = 50
ITEMS_PER_PAGE = 100
#: runs in one page of a surface's history table and forest plot
HISTORY_PAGE = 50
MAX_COMPARE = 8
#: a run page decodes every item (for the per-item distributions) up to this many items
FULL_RUN_ITEMS = 20_000

_env = environment("assay._dashboard")

T = TypeVar("T")


class Memo:
    """Facts many pages share, read from the store once per store state: a surface's readable
    name (every run page of the surface shows it), the task list and the run count of the runs
    list (every page of the list shows them).

    The server keeps one Memo while the store's state is unchanged and starts a new one when
    it changes (``DashboardServer``), so a page never shows a fact older than the store state
    it is kept under; without a server (tests, one-off renders) each page gets a fresh one.
    Shared by the render threads: a dict's get and set are atomic, and two threads computing
    one key at once both store the same value.
    """

    def __init__(self, token: int = 0) -> None:
        #: which Memo this is (render processes keep their own copy per token)
        self.token = token
        self._values: dict[Hashable, Any] = {}

    def get(self, key: Hashable, compute: Callable[[], T]) -> T:
        """The value kept under ``key``, computed (and kept) on first use."""
        try:
            value: T = self._values[key]
        except KeyError:
            value = self._values[key] = compute()
        return value


@dataclass(frozen=True)
class Page:
    status: int
    html: str


def _render(template: str, status: int = 200, /, **context: Any) -> Page:
    html = _env.get_template(template).render(version=__version__, generated=None, **context)
    return Page(status, html)


def render_page(template: str, status: int = 200, /, **context: Any) -> Page:
    """A dashboard template rendered into a page (for the views of other modules)."""
    return _render(template, status, **context)


def _script() -> dict[str, str]:
    """The item table's script and its CSP source, for a page that shows an item table: it
    opens an item's details in a row as wide as the table (the pages work without it)."""
    script, script_hash = triage_script()
    return {"script": script, "script_hash": script_hash}


def compile_templates() -> None:
    """Compile every template the dashboard renders (at server start, before any client)."""
    for name in _env.list_templates(filter_func=lambda n: n.endswith(".j2")):
        _env.get_template(name)


def message(status: int, title: str, text: str, *, refuse: bool = False) -> Page:
    return _render("message.html.j2", status, title=title, text=text, refuse=refuse)


def _int(params: Mapping[str, Sequence[str]], key: str, default: int) -> int:
    raw = (params.get(key) or [""])[0]
    try:
        return max(0, int(raw)) if raw else default
    except ValueError:
        raise UsageError(f"{key} must be a whole number, not {raw!r}") from None


def _one(params: Mapping[str, Sequence[str]], key: str) -> str:
    return (params.get(key) or [""])[0].strip()


def metric_order(store: RunStore, run_id: str) -> list[str]:
    """A run's metrics in its suite's order (``RunStore.metric_order``)."""
    return store.metric_order(run_id)


def _headline_text(s: RunSummary) -> list[tuple[str, str, str]]:
    """The row's headline metrics (already in the suite's order) with their CIs, each metric
    with one number of decimals."""
    out = []
    for m in s.headline:
        d = metric_decimals(m.value, m.ci_lower, m.ci_upper)
        ci = (
            f"[{fmt_fixed(m.ci_lower, d)}, {fmt_fixed(m.ci_upper, d)}]"
            if m.ci_lower is not None and m.ci_upper is not None
            else ""
        )
        out.append((m.name, fmt_fixed(m.value, d), ci))
    return out


def runs_page(
    store: RunStore, params: Mapping[str, Sequence[str]], memo: Memo | None = None
) -> Page:
    """Stored runs, newest first, filtered by task, surface (prefix) and name (substring)."""
    memo = memo or Memo()
    task, surface, name = _one(params, "task"), _one(params, "surface"), _one(params, "name")
    page = _int(params, "page", 0)
    total = memo.get(
        ("count", task, surface, name),
        lambda: store.count_runs(task=task or None, surface=surface or None, name=name or None),
    )
    rows = store.list_runs(
        task=task or None,
        surface=surface or None,
        name=name or None,
        limit=PAGE_SIZE,
        offset=page * PAGE_SIZE,
    )
    rows = store.in_suite_order(rows)
    base = {k: v for k, v in (("task", task), ("surface", surface), ("name", name)) if v}
    prev_url = f"/?{urlencode({**base, 'page': page - 1})}" if page > 0 else None
    more = (page + 1) * PAGE_SIZE < total
    next_url = f"/?{urlencode({**base, 'page': page + 1})}" if more else None
    return _render(
        "runs.html.j2",
        title="assay runs",
        runs=[(s, _headline_text(s)) for s in rows],
        surface_names={
            s.surface_fingerprint: surface_label(store, s.surface_fingerprint, memo) for s in rows
        },
        tasks=memo.get("tasks", store.tasks),
        task=task,
        surface=surface,
        name=name,
        total=total,
        first=page * PAGE_SIZE + 1 if rows else 0,
        last=page * PAGE_SIZE + len(rows),
        prev_url=prev_url,
        next_url=next_url,
        store_url=store.display_url,
    )


def surface_names(store: RunStore) -> dict[str, str]:
    """Every surface's readable name: its dataset — the gold file or folder its runs read
    (``gold.jsonl``, ``reference/``) — and task; where the runs read different gold files
    (each system's file carries the references, as translation JSON does), the task and its
    item count. A short fingerprint is added only where two surfaces would share a name."""
    names: dict[str, str] = {}
    for fp, (run_id, task, n_golds) in store.surface_runs().items():
        run = store.get(run_id, light=True)
        dataset = dataset_name(run.provenance.gold) if n_golds == 1 else ""
        names[fp] = f"{dataset} · {task}" if dataset else f"{task} · {run.surface.n_items} items"
    counts = Counter(names.values())
    return {fp: n if counts[n] == 1 else f"{n} · {fp[:8]}" for fp, n in names.items()}


def surface_label(store: RunStore, fingerprint: str, memo: Memo | None = None) -> str:
    """A surface's readable name (``surface_names``; read once per store state)."""
    names = (memo or Memo()).get("surface_names", lambda: surface_names(store))
    return names.get(fingerprint, "")


def script_context() -> dict[str, str]:
    """``_script``'s context for the views of other modules."""
    return _script()


def run_page(
    store: RunStore, run_id: str, params: Mapping[str, Sequence[str]], memo: Memo | None = None
) -> Page:
    """One run, as the report shows it, with the item drill-down paged.

    ``?metric=`` orders the drill-down worst first by that metric (default: the run's primary
    metric, the order the store keeps); a run of up to FULL_RUN_ITEMS items is decoded whole,
    so its per-item distributions cover every item.
    """
    page = _int(params, "page", 0)
    metric = _one(params, "metric") or None
    try:
        run_id = store.resolve(run_id)
        n = store.item_page(run_id, 0, 0)[1]  # the count alone: no chunk is read
        pages = max(1, math.ceil(n / ITEMS_PER_PAGE))
        page = min(page, pages - 1)
        item_page = ItemPage(offset=page * ITEMS_PER_PAGE, limit=ITEMS_PER_PAGE)
        if metric is not None or n <= FULL_RUN_ITEMS:
            run = store.get(run_id)
            view = run_view(run, page=item_page, metric=metric)
        else:
            run = store.get(run_id, light=True)
            items, _ = store.item_page(run.run_id, item_page.offset, ITEMS_PER_PAGE)
            view = run_view(run, page=item_page, ranked_items=items, n_items=n)
    except InputError as err:
        return message(404, "run not found", str(err))
    except UsageError as err:
        return message(400, "cannot rank by that metric", str(err))
    query = f"&metric={metric}" if metric else ""
    links = []
    if page > 0:
        links.append(
            ("previous items", f"/runs/{run.run_id}?page={page - 1}{query}#items-{run.run_id}")
        )
    if page + 1 < pages:
        links.append(
            ("next items", f"/runs/{run.run_id}?page={page + 1}{query}#items-{run.run_id}")
        )
    rank_links = [
        (key, f"/runs/{run.run_id}?{urlencode({'metric': key})}#items-{run.run_id}",
         key == view.rank_key)
        for key in view.rank_choices
    ]  # fmt: skip
    view = replace(view, items_link=f"/runs/{run.run_id}/items")
    return _render(
        "run.html.j2",
        title=f"{run.name} · assay",
        view=view,
        links=links,
        rank_links=rank_links if len(rank_links) > 1 else None,
        page=page + 1,
        pages=pages,
        surface=run.surface.fingerprint,
        surface_name=surface_label(store, run.surface.fingerprint, memo),
    )


def surface_key(run: Run) -> tuple[str, int, int]:
    """The same-surface rule's key: dataset fingerprint, seed, sample size."""
    return (run.surface.fingerprint, run.surface.seed, run.surface.n_items)


def surface_refusals(runs: Sequence[Run]) -> list[str]:
    """Why ``runs`` may not be compared (empty when they share one surface)."""
    ref = runs[0]
    reasons = []
    for r in runs[1:]:
        if r.task != ref.task:
            reasons.append(f"{r.name} ({r.run_id}) is a {r.task} run, {ref.name} a {ref.task} run")
        if r.surface.fingerprint != ref.surface.fingerprint:
            reasons.append(
                f"{r.name} ({r.run_id}) has dataset fingerprint {r.surface.fingerprint[:12]}…, "
                f"{ref.name} ({ref.run_id}) has {ref.surface.fingerprint[:12]}…"
            )
        if r.surface.seed != ref.surface.seed:
            reasons.append(
                f"{r.name} ({r.run_id}) used seed {r.surface.seed}, {ref.name} seed "
                f"{ref.surface.seed}"
            )
        if r.surface.n_items != ref.surface.n_items:
            reasons.append(
                f"{r.name} ({r.run_id}) has sample size {r.surface.n_items}, {ref.name} "
                f"{ref.surface.n_items}"
            )
    return reasons


@dataclass(frozen=True)
class BestCell:
    value: str
    ci: str
    delta: str
    marker: str
    best: bool


@dataclass(frozen=True)
class BestRow:
    name: str
    tier: str
    cells: tuple[BestCell, ...]
    higher_is_better: bool = True


def vs_best(runs: Sequence[Run], comparison: Comparison) -> list[BestRow]:
    """Per metric: each run's value and its Δ vs the best run, with the paired test's marker."""
    sig: dict[tuple[str, str, str], SignificanceResult] = {}
    for pair in comparison.pairs.values():
        for s in pair.significance:
            sig[(pair.run_a, pair.run_b, s.metric_name)] = s
    rows = []
    names = [n for n in runs[0].metrics if all(n in r.metrics for r in runs)]
    order = {"headline": 0, "core": 1, "diagnostic": 2}
    names.sort(key=lambda n: order.get(runs[0].metrics[n].tier, 3))
    for name in names:
        ms = [r.metrics[name] for r in runs]
        defined = [(i, m.value) for i, m in enumerate(ms) if m.value is not None]
        best_i = None
        if defined:
            pick = max if ms[0].higher_is_better else min
            best_i = pick(defined, key=lambda t: t[1])[0]
        cells = []
        dec = metric_decimals(*(v for m in ms for v in (m.value, m.ci_lower, m.ci_upper)))
        for i, m in enumerate(ms):
            delta, marker = "", ""
            if best_i is not None and m.value is not None and i != best_i:
                best_val = ms[best_i].value
                assert best_val is not None
                delta = fmt_fixed(m.value - best_val, dec, sign=True)
                a, b = runs[i].run_id, runs[best_i].run_id
                found = sig.get((a, b, name)) or sig.get((b, a, name))
                marker = found.stars if found is not None and found.delta is not None else ""
            ci = (
                f"[{fmt_fixed(m.ci_lower, dec)}, {fmt_fixed(m.ci_upper, dec)}]"
                if m.ci_lower is not None and m.ci_upper is not None
                else ""
            )
            cells.append(BestCell(fmt_fixed(m.value, dec), ci, delta, marker, i == best_i))
        rows.append(BestRow(name, ms[0].tier, tuple(cells), ms[0].higher_is_better))
    return rows


def compare_page(store: RunStore, params: Mapping[str, Sequence[str]]) -> Page:
    """Chosen runs side by side under the same-surface rule; otherwise a refusal saying why."""
    refs = [r for r in params.get("run", []) if r.strip()]
    if len(refs) < 2:
        return message(400, "choose runs", "Pick at least two runs on the runs list to compare.")
    if len(refs) > MAX_COMPARE:
        return message(400, "too many runs", f"Compare at most {MAX_COMPARE} runs at once.")
    try:
        runs = [store.get(r) for r in refs]
    except (InputError, UsageError) as err:
        return message(404, "run not found", str(err))
    if len({r.run_id for r in runs}) != len(runs):
        return message(400, "same run twice", "Each run may be chosen once.")
    reasons = surface_refusals(runs)
    if reasons:
        return _render(
            "message.html.j2",
            409,
            title="not comparable: different surfaces",
            text="The same-surface rule allows a comparison (and Δ vs best) only between runs "
            "with the same dataset fingerprint, seed and sample size.",
            reasons=reasons,
            refuse=True,
        )
    comparison = compare(*runs, significance=True)

    def link(pair: PairComparison, query: Mapping[str, str]) -> str:
        runs = {"run": [pair.run_a, pair.run_b]}
        return f"/compare/items?{urlencode({**runs, **query}, doseq=True)}#items"

    return _render(
        "compare.html.j2",
        title="compare · assay",
        runs=runs,
        best=vs_best(runs, comparison),
        pairs=pair_views(comparison, runs, link=link),
        **_script(),
        surface=runs[0].surface.fingerprint,
        warnings=comparison.warnings,
        family=_family_text(comparison),
    )


def _family_text(comparison: Comparison) -> str:
    """What the stars control: the family over every pair and its correction."""
    from assay.stats.statements import controls_text

    n = sum(1 for r in comparison.tests if r.delta is not None)
    return (
        f"stars follow the p-value adjusted over the {comparison.family} family ({n} tests over "
        f"{len(comparison.pairs)} pair{'s' if len(comparison.pairs) != 1 else ''}; "
        f"{comparison.correction} {controls_text(comparison.correction)})"
    )


def history_page(
    store: RunStore, params: Mapping[str, Sequence[str]], memo: Memo | None = None
) -> Page:
    """A metric's value and CI over the runs of one surface, oldest first, with Δ vs best.

    The line chart shows every run; the table and the forest plot show ``HISTORY_PAGE`` runs,
    ``?page=0`` (the default) the newest, ``?page=1`` the ones before them, and so on (a page
    past the oldest shows the oldest).
    """
    surface = _one(params, "surface")
    surfaces = store.surfaces()
    if not surface:
        return _render(
            "surfaces.html.j2",
            title="surfaces · assay",
            surfaces=[(*s, surface_label(store, s[1], memo)) for s in surfaces],
        )
    matches = [s for s in surfaces if s[1].startswith(surface)]
    if not matches:
        return message(404, "unknown surface", f"no stored run has surface {surface!r}")
    fingerprint = matches[0][1]
    names, headline = _surface_metrics(store, fingerprint)
    metric = _one(params, "metric") or (headline[0] if headline else names[0] if names else "")
    if metric not in names:
        return message(404, "unknown metric", f"no run on this surface has metric {metric!r}")
    points = store.history(fingerprint, metric)
    seeds = {(s[2], s[3]) for s in matches if s[1] == fingerprint}
    best = _best(store, points, metric)
    values = [p.value for p in points if p.value is not None]
    proportions = all(0 <= v <= 1 for v in values)
    clamp = (0.0, 1.0) if proportions else None
    dec = metric_decimals(*values, *(v for p in points for v in (p.ci_lower, p.ci_upper)))
    line = line_chart(
        f"{metric} over time on this surface, with {95}% CIs (oldest first; dated by when "
        "each run was stored)",
        [
            (
                f"{p.stored_at[:16].replace('T', ' ')} {p.name}",
                p.value,
                p.ci_lower,
                p.ci_upper,
                fmt_fixed(p.value, dec),
            )
            for p in points
        ],
        clamp=clamp,
        x_labels=[p.stored_at[:10] for p in points],
    )
    # the table and the forest plot show one page of HISTORY_PAGE runs: page 0 the newest
    # (a surface of 1,000 runs would be a 1 MB page and an 18,000-pixel plot); the line
    # chart and "Δ vs best" cover every run
    pages = max(1, math.ceil(len(points) / HISTORY_PAGE))
    page = min(_int(params, "page", 0), pages - 1)
    stop = len(points) - page * HISTORY_PAGE
    shown = points[max(0, stop - HISTORY_PAGE) : stop]
    first = len(points) - page * HISTORY_PAGE - len(shown) + 1
    plot = forest_plot(
        f"{metric} per run (oldest first)",
        [
            Interval(
                label=f"{p.stored_at[:16].replace('T', ' ')} {p.name}",
                value=p.value,
                lower=p.ci_lower,
                upper=p.ci_upper,
                text=fmt_fixed(p.value, dec),
            )
            for p in shown
        ],
        clamp=clamp,
    )
    rows = [_history_row(p, best, dec) for p in shown]
    base = {"surface": fingerprint, "metric": metric}
    older_url = f"/history?{urlencode({**base, 'page': page + 1})}" if page + 1 < pages else None
    newer_url = f"/history?{urlencode({**base, 'page': page - 1})}" if page > 0 else None
    return _render(
        "history.html.j2",
        title=f"{metric} history · assay",
        fingerprint=fingerprint,
        metric=metric,
        names=names,
        headline=headline,
        plot=plot,
        line=line,
        rows=rows,
        first=first,
        last=first + len(shown) - 1,
        total=len(points),
        older_url=older_url,
        newer_url=newer_url,
        mixed=len(seeds) > 1,
        surface_name=surface_label(store, fingerprint, memo),
    )


def _surface_metrics(store: RunStore, fingerprint: str) -> tuple[list[str], list[str]]:
    """(every metric of the surface's runs, its headline metrics) in the suite's own order:
    its primary metric first (the first headline metric of its latest run), then the other
    headline metrics, then the rest."""
    names = store.metric_names(fingerprint)
    headline = store.metric_names(fingerprint, tier="headline")
    latest = store.list_runs(surface=fingerprint, limit=1)
    order = metric_order(store, latest[0].run_id) if latest else []
    rank = {n: (0 if n in headline else 1, order.index(n) if n in order else len(order), n)
            for n in names}  # fmt: skip
    names.sort(key=rank.__getitem__)
    return names, [n for n in names if n in headline]


def _best(store: RunStore, points: Sequence[HistoryPoint], metric: str) -> float | None:
    """The best value of ``metric`` over the history: the least when the latest run says
    lower is better, else the greatest; None when no run has a value."""
    lower_better = any(
        not m.higher_is_better
        for s in store.list_runs(run_ids=[points[-1].run_id], limit=1)
        for m in store.metrics(s.run_id)
        if m.name == metric
    )
    values = [p.value for p in points if p.value is not None]
    return (min(values) if lower_better else max(values)) if values else None


def _history_row(
    p: HistoryPoint, best: float | None, dec: int
) -> tuple[HistoryPoint, str, str, str]:
    """A history table row: the point, its value, its CI and its Δ vs the best, in the
    metric's ``dec`` decimals."""
    ci = (
        f"[{fmt_fixed(p.ci_lower, dec)}, {fmt_fixed(p.ci_upper, dec)}]"
        if p.ci_lower is not None and p.ci_upper is not None
        else ""
    )
    delta = (
        fmt_fixed(p.value - best, dec, sign=True)
        if p.value is not None and best is not None
        else ""
    )
    return p, fmt_fixed(p.value, dec), ci, delta
