"""Self-contained HTML reports (and their markdown form for pull-request comments).

One file that renders offline: no CDN, inline CSS and SVG, one script of assay's own (the item
tables', ``static/triage.js``) under a Content-Security-Policy that allows it by its hash and
nothing else (``default-src 'none'``), the item tables' rows as escaped JSON the script draws
as text, and Jinja2 autoescaping on every template, so a prediction containing ``<script>``
is shown as text. A comparison reads the candidate (its first run) against the baseline.
The view functions here are shared with the dashboard.
"""

from __future__ import annotations

import hashlib
import math
from base64 import b64encode
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field, replace
from datetime import UTC, datetime
from functools import cache, partial
from importlib.resources import files
from typing import Any

import jinja2

from assay._compare.comparison import Comparison, PairComparison, compare, comparison_signature
from assay._engine.run import ItemRecord, MetricResult, Run
from assay._engine.signature import signature_lines
from assay._report.evidence import evidence_of, family_of
from assay._report.plain import (
    cohort_line,
    fmt_delta,
    fmt_fixed,
    fmt_p,
    fmt_p_eq,
    fmt_value,
    metric_decimals,
    sample_lines,
    units_line,
)
from assay._report.ranking import Ranking, ranking_for, worst_first
from assay._report.sides import (
    GOLD_KEYS,
    PRED_KEYS,
    SIDE_HEADERS,
    SOURCE_KEYS,
    FieldRow,
    TableView,
    display_text,
    field_rows,
    first_of,
    is_empty,
    is_scalar,
    paired_labels,
    source_of,
    structured,
    table_from_list,
    table_from_mapping,
)
from assay._report.svg import ForestPlot, Histogram, Interval, forest_plot, histogram
from assay._report.triage import (
    EMBED_LIMIT,
    ItemTableView,
    Query,
    pair_table,
    row_view,
    run_table,
    select,
    table_view,
)
from assay._version import __version__
from assay.stats.significance import SignificanceResult

TIER_ORDER = {"headline": 0, "core": 1, "diagnostic": 2}
MAX_LISTED = 200


def environment(*extra_packages: str) -> jinja2.Environment:
    """The Jinja2 environment: autoescape on for every template, undefined names are errors."""
    loaders: list[jinja2.BaseLoader] = [
        jinja2.PackageLoader(pkg, "templates") for pkg in extra_packages
    ]
    loaders.append(jinja2.PackageLoader("assay._report", "templates"))
    env = jinja2.Environment(
        loader=jinja2.ChoiceLoader(loaders),
        autoescape=True,
        undefined=jinja2.StrictUndefined,
        trim_blocks=True,
        lstrip_blocks=True,
    )
    env.filters["fmt"] = fmt_value
    env.filters["fmt_delta"] = fmt_delta
    env.filters["short"] = lambda s, n=12: (s or "")[:n]
    env.filters["fmt_p_eq"] = fmt_p_eq
    return env


# -- views -----------------------------------------------------------------------------------


@dataclass(frozen=True)
class MetricView:
    name: str
    value: str
    ci: str
    n: int
    tier: str
    higher_is_better: bool
    description: str
    kind: str


@dataclass(frozen=True)
class HeatCell:
    count: str
    alpha: float
    diagonal: bool


@dataclass(frozen=True)
class HeatmapView:
    title: str
    labels: tuple[str, ...]
    rows: tuple[tuple[str, tuple[HeatCell, ...]], ...]
    row_axis: str
    col_axis: str


@dataclass(frozen=True)
class IssueRow:
    id: str
    where: str
    reason: str


@dataclass(frozen=True)
class IssueList:
    title: str
    rows: tuple[IssueRow, ...]
    more: int


@dataclass(frozen=True)
class IdList:
    title: str
    ids: tuple[str, ...]
    more: int


@dataclass(frozen=True)
class CohortView:
    line: str
    counts: tuple[tuple[str, int], ...]
    issues: tuple[IssueList, ...]
    ids: tuple[IdList, ...]


@dataclass(frozen=True)
class ItemView:
    id: str
    status: str
    error: str | None
    scores: str
    flags: tuple[str, ...]
    gold: str | None
    pred: str | None
    details: tuple[tuple[str, str], ...]
    fields: tuple[FieldRow, ...] = ()  # gold beside prediction field by field (structured)
    tables: tuple[TableView, ...] = ()  # per-field details (a claim's matches, …)
    field_columns: tuple[str, ...] = ()  # the names of every FieldRow's ``extra`` cells
    field_headers: tuple[str, str, str] = ("field", "gold", "prediction")
    source: str | None = None  # what the model was given (a translation's source)


@dataclass(frozen=True)
class RunView:
    """Everything a run section shows."""

    run_id: str
    name: str
    task: str
    meta: tuple[tuple[str, str], ...]
    level: int
    metrics: tuple[MetricView, ...]
    diagnostics: tuple[MetricView, ...]
    plots: tuple[ForestPlot, ...]
    tables: tuple[TableView, ...]
    heatmaps: tuple[HeatmapView, ...]
    scalars: tuple[tuple[str, str], ...]
    other: tuple[tuple[str, str], ...]
    cohort: CohortView
    items: tuple[ItemView, ...]
    n_items: int
    item_offset: int
    items_note: str
    warnings: tuple[str, ...]
    distributions: tuple[Histogram, ...] = ()
    undrawn: tuple[str, ...] = ()  # per-item scores past MAX_HISTOGRAMS, named, not drawn
    rank_key: str | None = None
    rank_choices: tuple[str, ...] = ()
    triage: ItemTableView | None = None  # the item table (the report embeds it)
    items_link: str | None = None  # the dashboard's item table of this run


@dataclass(frozen=True)
class DeltaRow:
    """One metric of a comparison: the candidate's and the baseline's values, Δ = candidate −
    baseline with its CI, the raw p-value and (issue 32) the adjusted one, in the metric's
    own number of decimals; ``verdict`` in words."""

    name: str
    tier: str
    candidate: str
    baseline: str
    delta: str
    ci: str
    p: str
    marker: str
    significant: bool
    tested: bool
    undefined: bool = False
    higher_is_better: bool = True
    p_adjusted: str = ""
    verdict: str = ""


@dataclass(frozen=True)
class PairView:
    """Two runs compared: the candidate (``run_c``) against the baseline (``run_b``)."""

    key: str
    run_c: str
    run_b: str
    name_c: str
    name_b: str
    same_surface: bool
    n_shared: int
    only_c: int
    only_b: int
    rows: tuple[DeltaRow, ...]
    plots: tuple[ForestPlot, ...]
    warnings: tuple[str, ...]
    method: str | None
    n_resamples: int | None
    alpha: float
    adjusted: str | None = None  # how adjusted p-values were adjusted (None: they were not)
    multiplicity: str = ""  # what the raw p-values do not control, in words
    tests: str = ""  # which tests decided, when the results say (issue 32)
    triage: ItemTableView | None = None
    #: the smallest detectable Δ of each test, and that the sample can never reject
    power: tuple[str, ...] = ()

    @property
    def headline(self) -> tuple[DeltaRow, ...]:
        """The rows that answer "did it help?": the headline metrics (else every row)."""
        return tuple(r for r in self.rows if r.tier == "headline") or self.rows


@dataclass(frozen=True)
class ItemPage:
    """Which slice of the drill-down to show."""

    offset: int = 0
    limit: int = 500
    extra: Mapping[str, str] = field(default_factory=dict)


def _ci(m: MetricResult, decimals: int | None = None) -> str:
    if m.ci_lower is None or m.ci_upper is None:
        return "—"
    d = metric_decimals(m.value, m.ci_lower, m.ci_upper) if decimals is None else decimals
    return f"[{fmt_fixed(m.ci_lower, d)}, {fmt_fixed(m.ci_upper, d)}]"


def units_meta(run: Run) -> tuple[tuple[str, str], ...]:
    """A clustered run's resampling units for its page: the cluster field, the number of
    clusters and the design effect of each headline metric (none for an iid run)."""
    line = units_line(run)
    if line is None or run.units is None:
        return ()
    rows = [("resampling units", f"{line} · field {run.units.by} · {run.units.source}")]
    deffs = [
        f"{m.name} {m.design_effect:.2f}"
        for m in run.metrics.values()
        if m.tier == "headline" and m.design_effect is not None
    ]
    if deffs:
        rows.append(("design effect", ", ".join(deffs)))
    return tuple(rows)


def metric_view(m: MetricResult) -> MetricView:
    """A scorecard row: the value and its CI with one number of decimals."""
    d = metric_decimals(m.value, m.ci_lower, m.ci_upper)
    return MetricView(
        name=m.name,
        value=fmt_fixed(m.value, d),
        ci=_ci(m, d),
        n=m.n,
        tier=m.tier,
        higher_is_better=m.higher_is_better,
        description=m.description,
        kind=m.kind,
    )


def _is_proportion(values: Sequence[float | None]) -> bool:
    return all(v is None or (0.0 <= v <= 1.0) for v in values)


def _split_scales(
    intervals: Sequence[tuple[Interval, Sequence[float | None]]],
) -> tuple[list[Interval], list[Interval]]:
    props: list[Interval] = []
    scores: list[Interval] = []
    for iv, values in intervals:
        (props if _is_proportion(values) else scores).append(iv)
    return props, scores


def scorecard_plots(run: Run, metrics: Sequence[MetricResult]) -> tuple[ForestPlot, ...]:
    """Forest plots of the metrics' CIs, each axis around its values (padded to whole ticks):
    the proportions together (within [0, 1]), every other score on an axis of its own."""
    level = round(100 * (1 - run.provenance.alpha))
    items = [
        (
            Interval(
                label=m.name,
                value=m.value,
                lower=m.ci_lower,
                upper=m.ci_upper,
                text=fmt_value(m.value) + ("" if m.higher_is_better else " ↓"),
                headline=m.tier == "headline",
            ),
            (m.value, m.ci_lower, m.ci_upper),
        )
        for m in metrics
    ]
    props, scores = _split_scales(items)
    plots = []
    if props:
        plots.append(forest_plot(f"{level}% CIs (proportions)", props, clamp=(0.0, 1.0)))
    # scores on other scales (chrF, BLEU, TER…) each get their own axis: one axis for all
    # would squeeze a TER of 10 and a chrF of 90 into the same strip
    for iv in scores:
        plots.append(forest_plot(f"{level}% CI of {iv.label}", [iv]))
    return tuple(plots)


def _heatmap(title: str, value: Mapping[str, Any]) -> HeatmapView | None:
    labels = value.get("labels")
    matrix = value.get("matrix")
    if not isinstance(labels, list) or not isinstance(matrix, list) or len(matrix) != len(labels):
        return None
    col_labels = value.get("column_labels", labels)
    if not isinstance(col_labels, list):
        return None
    peak = max((float(c) for row in matrix for c in row if isinstance(c, int | float)), default=0)
    rows = []
    for i, (label, row) in enumerate(zip(labels, matrix, strict=True)):
        if not isinstance(row, list) or len(row) != len(col_labels):
            return None
        cells = tuple(
            HeatCell(
                count=display_text(c),
                alpha=round(float(c) / peak, 3) if peak and isinstance(c, int | float) else 0.0,
                diagonal=i == j and col_labels is labels,
            )
            for j, c in enumerate(row)
        )
        rows.append((str(label), cells))
    return HeatmapView(
        title=title,
        labels=tuple(str(c) for c in col_labels),
        rows=tuple(rows),
        row_axis=str(value.get("rows", "expected")),
        col_axis=str(value.get("columns", "predicted")),
    )


def _flatten(value: Mapping[str, Any], prefix: str = "") -> list[tuple[str, str]] | None:
    """A nested mapping whose leaves are scalars or short lists of scalars as (path, value)
    rows — ``signatures.corpus_chrf`` — so a summary reads as a table, not a JSON dump."""
    rows: list[tuple[str, str]] = []
    for k, v in value.items():
        path = f"{prefix}{k}"
        if is_scalar(v):
            rows.append((path, display_text(v)))
        elif isinstance(v, Mapping):
            if is_empty(v):
                continue
            inner = _flatten(v, path + ".")
            if inner is None:
                return None
            rows += inner
        elif isinstance(v, list) and all(is_scalar(x) for x in v):
            if v:
                rows.append((path, ", ".join(display_text(x) for x in v)))
        else:
            return None
    return rows


#: per-item score histograms drawn per run (the ranking's score first); the others are named
MAX_HISTOGRAMS = 6


def score_distributions(
    items: Sequence[ItemRecord], first: str | None = None, *, limit: int | None = None
) -> tuple[tuple[Histogram, ...], tuple[str, ...]]:
    """A histogram per per-item score over the ok items (the ranking's score first, at most
    ``limit`` of them), and the names of the scores left undrawn; scores that live on [0, 1]
    or [0, 100] get that axis, others their own range."""
    keys: dict[str, None] = {}
    if first is not None:
        keys[first] = None
    for item in items:
        for k in item.scores:
            keys.setdefault(k, None)
    out: list[Histogram] = []
    undrawn: list[str] = []
    for key in keys:
        if limit is not None and len(out) >= limit:
            undrawn.append(key)
            continue
        values = [
            float(v)
            for it in items
            if it.status == "ok" and (v := it.scores.get(key)) is not None and math.isfinite(v)
        ]
        if not values:
            continue
        lo, hi = min(values), max(values)
        if lo >= 0 and hi <= 1:
            lo, hi = 0.0, 1.0
        elif lo >= 0 and hi <= 100.0 + 1e-9:
            lo, hi = 0.0, 100.0
        out.append(histogram(f"{key} per item ({len(values)} scored)", values, lo=lo, hi=hi))
    return tuple(out), tuple(undrawn)


def summary_views(
    summaries: Mapping[str, Any],
) -> tuple[list[TableView], list[HeatmapView], list[tuple[str, str]], list[tuple[str, str]]]:
    """Split a run's summaries into tables (per-class, per-field…), heatmaps (confusion),
    scalar diagnostics and anything else (shown as JSON)."""
    tables: list[TableView] = []
    heatmaps: list[HeatmapView] = []
    scalars: list[tuple[str, str]] = []
    other: list[tuple[str, str]] = []
    for key, value in summaries.items():
        if is_empty(value):
            continue  # no empty tables: an empty mapping or list says nothing
        if is_scalar(value):
            scalars.append((key, display_text(value)))
            continue
        if isinstance(value, Mapping):
            heat = _heatmap(key, value)
            if heat is not None:
                heatmaps.append(heat)
                continue
            table = table_from_mapping(key, value)
            if table is not None:
                tables.append(table)
                continue
            flat = _flatten(value)
            if flat is not None:
                tables.append(TableView(key, ("", "value"), tuple(flat)))
                continue
            split = _split_records(key, value)
            if split is not None:
                tables += split
                continue
        elif isinstance(value, list):
            table = table_from_list(key, _joined_records(value))
            if table is not None:
                tables.append(table)
                continue
            if all(is_scalar(v) for v in value):  # a list of ids: one line
                scalars.append((key, display_text(", ".join(display_text(v) for v in value))))
                continue
        other.append((key, display_text(value)))
    return tables, heatmaps, scalars, other


def _joined_records(value: list[Any]) -> list[Any]:
    """Records whose values are scalars or short lists of scalars, the lists joined with
    " / " (a failure's expected and predicted labels), so they fit a table; other lists as
    they are."""
    out: list[Any] = []
    for v in value:
        if isinstance(v, Mapping):
            v = {
                k: " / ".join(display_text(y) for y in x)
                if isinstance(x, list) and all(is_scalar(y) for y in x)
                else x
                for k, x in v.items()
            }
        out.append(v)
    return out


def _split_records(key: str, value: Mapping[str, Any]) -> list[TableView] | None:
    """A summary mixing counts and lists of records (``failure_insights``: totals, rates per
    mode, the failures): the counts flattened into one table, each list of records a table of
    its own (``failure_insights.failures``). None when some part fits neither."""
    records = {
        k: v
        for k, v in value.items()
        if isinstance(v, list) and v and all(isinstance(x, Mapping) for x in v)
    }
    if not records:
        return None
    rest = _flatten({k: v for k, v in value.items() if k not in records})
    if rest is None:
        return None
    tables = [TableView(key, ("", "value"), tuple(rest))] if rest else []
    for name, rows in records.items():
        table = table_from_list(f"{key}.{name}", _joined_records(rows))
        if table is None:
            return None
        tables.append(table)
    return tables


def cohort_view(run: Run) -> CohortView:
    c = run.cohort
    counts = (
        ("attempted", c.attempted),
        ("evaluated", c.evaluated),
        ("missing", c.missing),
        ("failed", c.failed),
        ("unmatched", c.unmatched),
        ("abstained", c.abstained),
        ("duplicates", len(c.duplicates)),
        ("unreadable", len(c.parse_failures)),
        ("excluded", c.excluded),
    )

    def issues(title: str, records: Sequence[Any]) -> IssueList:
        shown = records[:MAX_LISTED]
        return IssueList(
            title,
            tuple(IssueRow(r.id or "—", r.where, r.reason) for r in shown),
            len(records) - len(shown),
        )

    def ids(title: str, values: Sequence[str]) -> IdList:
        return IdList(title, tuple(values[:MAX_LISTED]), max(0, len(values) - MAX_LISTED))

    issue_lists = [
        issues("failed items", c.failures),
        issues("unmatched predictions (no gold)", c.unmatched_records),
        issues("unreadable prediction records", c.parse_failures),
        issues("duplicates", c.duplicates),
        issues("unreadable gold records", c.gold_failures),
    ]
    id_lists = [
        ids("missing (expected, no prediction)", c.missing_ids),
        ids("abstained", c.abstained_ids),
        ids("expected ids without gold", c.no_gold_ids),
    ]
    return CohortView(
        line=cohort_line(run),
        counts=counts,
        issues=tuple(i for i in issue_lists if i.rows),
        ids=tuple(i for i in id_lists if i.ids),
    )


def item_views(items: Sequence[ItemRecord]) -> list[ItemView]:
    """Display views of item records: gold beside prediction (field by field when they are
    structured), per-field detail tables, the other details below."""
    views = []
    for item in items:
        gold_key, gold = first_of(item.details, GOLD_KEYS)
        pred_key, pred = first_of(item.details, PRED_KEYS)
        fields = field_rows(
            item.details.get(gold_key) if gold_key else None,
            item.details.get(pred_key) if pred_key else None,
        )
        columns: tuple[str, ...] = ()
        headers = ("field", "gold", "prediction")
        tables = []
        shown: tuple[str | None, ...] = (gold_key, pred_key)
        if not fields:
            fields, paired = paired_labels(item.details, gold_key, pred_key)
            shown = paired or shown
        if not fields:
            key, fields, columns, rest = structured(item.details)
            if key is not None:
                shown = (key,)
                headers = SIDE_HEADERS.get(key, headers)
                tables += [rest] if rest is not None else []
        details = []
        for k, v in item.details.items():
            if k in shown or k in SOURCE_KEYS or v is None or is_empty(v):
                continue  # null and empty details say nothing
            table = (
                table_from_mapping(k, v)
                if isinstance(v, Mapping)
                else table_from_list(k, v)
                if isinstance(v, list)
                else None
            )  # per-field scores, a claim's matches: tables, not JSON
            if table is not None:
                tables.append(table)
            elif isinstance(v, Mapping) and (flat := _flatten(v)) is not None:
                details.append((k, "\n".join(f"{path}: {x}" for path, x in flat)))
            else:
                details.append((k, display_text(v)))
        scores = ", ".join(f"{k} {fmt_value(v)}" for k, v in item.scores.items())
        views.append(
            ItemView(
                id=item.id,
                status=item.status,
                error=item.error,
                scores=scores,
                flags=tuple(item.flags),
                gold=None if fields else gold,
                pred=None if fields else pred,
                details=tuple(details),
                fields=fields,
                tables=tuple(tables),
                field_columns=columns,
                field_headers=headers,
                source=source_of(item.details),
            )
        )
    return views


def run_view(
    run: Run,
    *,
    page: ItemPage | None = None,
    ranked_items: Sequence[ItemRecord] | None = None,
    n_items: int | None = None,
    metric: str | None = None,
) -> RunView:
    """The view of one run: scorecard, plots, summaries, cohort and a page of items.

    The drill-down shows ``page`` of the run's items worst first by ``metric`` (default the
    run's primary metric, see ``assay._report.ranking``); a caller that already has that page
    (the store keeps items in the primary order) passes it as ``ranked_items``.
    """
    page = page or ItemPage()
    sample = run.items if run.items else (ranked_items or [])
    ranking = ranking_for(run, metric, sample) if sample else Ranking(None, None)
    ordered = sorted(run.metrics.values(), key=lambda m: TIER_ORDER.get(m.tier, 3))
    main = [m for m in ordered if m.tier != "diagnostic"]
    diag = [m for m in ordered if m.tier == "diagnostic"]
    tables, heatmaps, scalars, other = summary_views(run.summaries)
    p = run.provenance
    meta = (
        ("run id", run.run_id),
        ("task", f"{run.task} (metrics version {run.metrics_version})"),
        ("generated", run.generated_at),
        (
            "surface",
            f"{run.surface.fingerprint[:16]} · seed {run.surface.seed} · "
            f"{run.surface.n_items} items",
        ),
        ("predictions", f"{', '.join(p.predictions)} (sha256 {p.predictions_sha256[:12]})"),
        ("gold", f"{', '.join(p.gold)} (sha256 {p.gold_sha256[:12]})"),
        ("config", f"sha256 {p.config_sha256[:12]}"),
        ("git commit", p.git_commit or "—"),
        (
            "resampling",
            f"{p.n_bootstrap_ci} bootstrap resamples, seed {p.seed}, α {p.alpha:g}"
            if p.ci
            else "no CIs (--no-ci)",
        ),
        ("assay", p.assay_version),
        *units_meta(run),
        *((k, v) for k, _, v in (line.partition(": ") for line in signature_lines(run))),
    )
    if ranked_items is None:
        order = worst_first(run.items, ranking)[page.offset : page.offset + page.limit]
        ranked_items = [run.items[i] for i in order]
        n = len(run.items)
    else:
        n = len(run.items) if n_items is None else n_items
    items = item_views(ranked_items)
    shown_to = page.offset + len(items)
    note = (
        f"items {page.offset + 1}–{shown_to} of {n}, {ranking.label}"
        if n and (page.offset or shown_to < n)
        else f"all {n} items, {ranking.label}"
    )
    choices = tuple(dict.fromkeys(k for it in sample for k in it.scores))
    hists, undrawn = score_distributions(run.items, ranking.key, limit=MAX_HISTOGRAMS)
    return RunView(
        run_id=run.run_id,
        name=run.name,
        task=run.task,
        meta=meta,
        level=round(100 * (1 - p.alpha)),
        metrics=tuple(metric_view(m) for m in main),
        diagnostics=tuple(metric_view(m) for m in diag),
        plots=scorecard_plots(run, main + diag),
        tables=tuple(tables),
        heatmaps=tuple(heatmaps),
        scalars=tuple(scalars),
        other=tuple(other),
        cohort=cohort_view(run),
        items=tuple(items),
        n_items=n,
        item_offset=page.offset,
        items_note=note,
        warnings=tuple(run.warnings),
        distributions=hists,
        undrawn=undrawn,
        rank_key=ranking.key,
        rank_choices=choices,
    )


def _verdict(s: SignificanceResult | None, higher_is_better: bool) -> str:
    """A tested metric in words: who did significantly better, or that neither did."""
    if s is None:
        return "not tested"
    if s.delta is None:
        return "undefined"
    if not s.significant or s.delta == 0:
        return "no significant difference"
    return "candidate better" if (s.delta > 0) == higher_is_better else "baseline better"


def _multiplicity(rows: Sequence[DeltaRow], results: Sequence[SignificanceResult], alpha: float,
                  adjusted: str | None) -> str:  # fmt: skip
    """What the p-values control: the family they were adjusted over, or, for raw
    p-values, how many rows reach α and how many would by chance alone."""
    tested = [s for s in results if s.delta is not None]
    if adjusted is not None:
        from assay.stats.statements import controls_text

        _, correction = family_of(results)
        return (
            f"stars and verdicts follow the adjusted p-value ({adjusted}, which "
            f"{controls_text(correction or 'none')} over {len(tested)} tests); the raw "
            "p-value is beside it"
        )
    if len(tested) < 2:
        return ""
    below = sum(1 for s in tested if s.p_value < alpha)
    return (
        f"p-values are per metric, not adjusted for multiple testing: {below} of the "
        f"{len(tested)} metrics tested have p < {alpha:g}, about {alpha * len(tested):.1f} "
        "would by chance alone when nothing changed"
    )


def pair_view(key: str, pair: PairComparison, comparison: Comparison) -> PairView:
    """Δ = candidate − baseline for every shared metric (the candidate is the comparison's
    run A), its CI, the p-values, stars and a verdict, each metric with its own number of
    decimals and its direction (↓ lower is better)."""
    sig = {s.metric_name: s for s in pair.significance}
    rows = []
    intervals: list[tuple[Interval, Sequence[float | None]]] = []
    ordered = sorted(pair.metrics, key=lambda m: TIER_ORDER.get(m.tier, 3))
    _, correction = family_of(pair.significance)
    adjusted = None
    if correction not in (None, "none"):  # raw p-values: say what they do not control
        adjusted = next(
            label for r in pair.significance if (label := evidence_of(r).adjusted_label)
        )
    tests = sorted({t for r in pair.significance if (t := evidence_of(r).test)})
    for m in ordered:
        s = sig.get(m.name)
        dec = metric_decimals(m.a, m.b)
        evidence = evidence_of(s) if s is not None else None
        undefined = s is not None and s.delta is None
        ci = "—"
        if s is not None and s.ci_lower is not None and s.ci_upper is not None:
            lo, hi = fmt_fixed(s.ci_lower, dec, sign=True), fmt_fixed(s.ci_upper, dec, sign=True)
            ci = f"[{lo}, {hi}]"
        p_adjusted = ""
        if evidence is not None and evidence.p_adjusted is not None and not undefined:
            p_adjusted = fmt_p(evidence.p_adjusted)
        rows.append(
            DeltaRow(
                name=m.name,
                tier=m.tier,
                candidate=fmt_fixed(m.a, dec),
                baseline=fmt_fixed(m.b, dec),
                delta=fmt_fixed(m.delta, dec, sign=True),
                ci=ci,
                p="—" if s is None else "undefined" if undefined else fmt_p(s.p_value),
                marker="" if s is None or undefined else s.stars,
                significant=bool(s and s.significant),
                tested=s is not None,
                undefined=undefined,
                higher_is_better=m.higher_is_better,
                p_adjusted=p_adjusted,
                verdict=_verdict(s, m.higher_is_better),
            )
        )
        if s is not None and s.delta is not None:
            intervals.append(
                (
                    Interval(
                        label=m.name + ("" if m.higher_is_better else " ↓"),
                        value=s.delta,
                        lower=s.ci_lower,
                        upper=s.ci_upper,
                        text=fmt_fixed(s.delta, dec, sign=True),
                        marker=s.stars,
                        headline=m.tier == "headline",
                    ),
                    (m.a, m.b),
                )
            )
    props, scores = _split_scales(intervals)
    plots = []
    title = "Δ = candidate − baseline with its CI"
    if props:
        plots.append(forest_plot(f"{title} (proportions)", props, zero_line=True))
    if scores:
        plots.append(forest_plot(f"{title} (scores)", scores, zero_line=True))
    return PairView(
        key=key,
        run_c=pair.run_a,
        run_b=pair.run_b,
        name_c=pair.name_a,
        name_b=pair.name_b,
        same_surface=pair.same_surface,
        n_shared=pair.n_shared,
        only_c=len(pair.only_a),
        only_b=len(pair.only_b),
        rows=tuple(rows),
        plots=tuple(plots),
        warnings=tuple(pair.warnings),
        method=comparison.method,
        n_resamples=comparison.n_resamples,
        alpha=comparison.alpha,
        adjusted=adjusted,
        multiplicity=_multiplicity(rows, pair.significance, comparison.alpha, adjusted),
        tests=", ".join(tests),
        power=_power_lines(pair.significance),
    )


def _power_lines(results: Sequence[SignificanceResult]) -> tuple[str, ...]:
    """Each Δ's minimum detectable effect, and that the sample can never reject (when so)."""
    from assay.stats.statements import cannot_reject_line, mde_line

    return tuple(x for x in (mde_line(results), cannot_reject_line(results)) if x is not None)


#: a table's link maker: query values → href (the dashboard); None in the report
Linker = Callable[[PairComparison, Mapping[str, str]], str]


def pair_views(
    comparison: Comparison,
    runs: Sequence[Run] = (),
    *,
    link: Linker | None = None,
    query: Query | None = None,
    embed: int = EMBED_LIMIT,
) -> list[PairView]:
    """The comparison's pairs; with the runs given, each with its item table: embedded whole
    (at most ``EMBED_LIMIT`` rows) in the report, or its first page linking to the
    dashboard's item pages through ``link``."""
    by_id = {r.run_id: r for r in runs}
    views = []
    for n, (k, p) in enumerate(comparison.pairs.items()):
        view = pair_view(k, p, comparison)
        a, b = by_id.get(p.run_a), by_id.get(p.run_b)
        if a is not None and b is not None:
            table = pair_table(a, b)
            url = None if link is None else partial(link, p)
            tv = table_view(
                table, query or Query(), dom_id=f"items-pair-{n}", url=url,
                embed=None if link is not None else embed,
            )  # fmt: skip
            view = replace(view, triage=tv)
        views.append(view)
    return views


def _default_comparison(runs: Sequence[Run]) -> Comparison | None:
    if len(runs) < 2:
        return None
    return compare(*runs, significance=True)


@cache
def triage_script() -> tuple[str, str]:
    """The report's one script (``static/triage.js``: the item table's filters, sort and
    pages) and its CSP source, ``'sha256-…'``: the page's Content-Security-Policy allows
    this script and no other (``default-src 'none'`` stays), so an injected one cannot run
    even if it got past escaping."""
    text = files("assay._report").joinpath("static", "triage.js").read_text(encoding="utf-8")
    if "</" in text:
        raise RuntimeError("triage.js must not contain '</' (it is inlined in a <script>)")
    digest = b64encode(hashlib.sha256(text.encode("utf-8")).digest()).decode("ascii")
    return text, f"'sha256-{digest}'"


def render_report(
    runs: Sequence[Run],
    *,
    comparison: Comparison | None = None,
    max_items: int = 500,
    title: str | None = None,
    table_limit: int = EMBED_LIMIT,
) -> str:
    """One self-contained HTML page for ``runs`` (and their comparison when several): the
    comparison first (the first run is the candidate, the second its baseline), then each
    run. Each run and each pair carries its item table (``table_limit`` rows at most, the
    worst or the most moved first), filtered in the browser by the page's one script."""
    if not runs:
        raise ValueError("render_report needs at least one run")
    comparison = comparison or _default_comparison(runs)
    env = environment()
    script, script_hash = triage_script()
    views = []
    for n, r in enumerate(runs):
        view = run_view(r, page=ItemPage(limit=max_items))
        tv = table_view(run_table(r), Query(), dom_id=f"items-run-{n}", embed=table_limit)
        views.append(replace(view, triage=tv))
    pairs = pair_views(comparison, runs, embed=table_limit) if comparison else []
    return env.get_template("report.html.j2").render(
        title=title or " vs ".join(r.name for r in runs),
        runs=views,
        pairs=pairs,
        comparison_signature=comparison_signature(comparison) if comparison else "",
        generated=datetime.now(UTC).isoformat(timespec="seconds"),
        version=__version__,
        script=script,
        script_hash=script_hash,
    )


# -- markdown --------------------------------------------------------------------------------

_MD_SPECIAL = str.maketrans(
    {
        "\\": "\\\\",
        "|": "\\|",
        "`": "\\`",
        "*": "\\*",
        "_": "\\_",
        "[": "\\[",
        "]": "\\]",
        "<": "&lt;",
        ">": "&gt;",
        "&": "&amp;",
        "\n": " ",
        "\r": " ",
    }
)


def md(text: str) -> str:
    """Markdown-safe text: table pipes, emphasis and HTML (GitHub renders HTML) escaped."""
    return text.translate(_MD_SPECIAL)


def _md_pair(pv: PairView, signature: str) -> list[str]:
    """A pair in markdown: the Δ table, the items that moved, the signature."""
    lines = [
        f"### candidate {md(pv.name_c)} (`{pv.run_c}`) against baseline {md(pv.name_b)} "
        f"(`{pv.run_b}`)",
        "",
        f"Δ = candidate − baseline on {pv.n_shared} shared items; ↓ lower is better.",
        "",
    ]
    if not pv.same_surface:
        lines += [f"> different surfaces: tested on the {pv.n_shared} shared items only", ""]
    adj = f" p adjusted ({md(pv.adjusted)}) |" if pv.adjusted else ""
    lines += [
        f"| metric | candidate | baseline | Δ | 95% CI of Δ | p |{adj} sig | verdict |",
        "|---|---:|---:|---:|---:|---:|" + ("---:|" if pv.adjusted else "") + ":---:|---|",
    ]
    for r in pv.rows:
        if r.tier == "diagnostic":
            continue
        name = md(r.name) + ("" if r.higher_is_better else " ↓")
        name = f"**{name}**" if r.tier == "headline" else name
        marker = md(r.marker) if r.marker else ""
        adj_cell = f" {r.p_adjusted or '—'} |" if pv.adjusted else ""
        lines.append(
            f"| {name} | {r.candidate} | {r.baseline} | {r.delta} | {r.ci} | {r.p} |{adj_cell} "
            f"{marker} | {r.verdict} |"
        )
    test = f": {md(pv.tests)}" if pv.tests else ""
    which = "adjusted p" if pv.adjusted else "p"
    lines += ["", f"`*` {which} < 0.05, `**` {which} < 0.01 (paired test on shared items{test})"]
    if pv.multiplicity:
        lines += ["", md(pv.multiplicity) + "."]
    for line in pv.power:
        lines += ["", md(line) + "."]
    tv = pv.triage
    m = tv.movement if tv is not None else None
    if tv is not None and m is not None:
        test = f"; McNemar's exact p {fmt_p_eq(m.mcnemar_p)}" if m.mcnemar_p is not None else ""
        lines += [
            "",
            f"Items that moved on {md(m.key)}: candidate better on {m.candidate}, baseline "
            f"better on {m.baseline}, tie on {m.tie}{test}.",
        ]
        moved = select(tv.table, Query(outcome="moved"))[:10]
        if moved:
            k = tv.table.key_index(m.key)
            lines += [
                "",
                "| item | candidate | baseline | Δ | better |",
                "|---|---:|---:|---:|---|",
            ]
            for row in moved:
                rv = row_view(tv.table, row, k)
                c, b, d = rv.values
                lines.append(f"| {md(rv.id)} | {c} | {b} | {d} | {rv.better} |")
    lines += ["", f"`signature: {signature}`", ""]
    for w in pv.warnings:
        lines.append(f"> warning: {md(w)}")
    return lines


def render_markdown(runs: Sequence[Run], *, comparison: Comparison | None = None) -> str:
    """The report as GitHub-flavoured markdown for a pull-request comment: the comparison
    first (did the candidate help?), then each run's scorecard."""
    comparison = comparison or _default_comparison(runs)
    lines: list[str] = []
    if comparison:
        signature = comparison_signature(comparison)
        for pv in pair_views(comparison, runs, embed=0):
            lines += _md_pair(pv, signature)
    for run in runs:
        level = round(100 * (1 - run.provenance.alpha))
        lines += [
            f"#### {md(run.name)} · {md(run.task)} · run `{run.run_id}`",
            "",
            f"| metric | value | {level}% CI | n |",
            "|---|---:|---:|---:|",
        ]
        for m in sorted(run.metrics.values(), key=lambda m: TIER_ORDER.get(m.tier, 3)):
            if m.tier == "diagnostic":
                continue
            name = md(m.name) + ("" if m.higher_is_better else " ↓")
            name = f"**{name}**" if m.tier == "headline" else name
            mv = metric_view(m)
            lines.append(f"| {name} | {mv.value} | {mv.ci} | {m.n} |")
        lines += ["", md(cohort_line(run)), ""]
        units = [f"{k}: {md(v)}  " for k, v in units_meta(run)]
        lines += [*units, ""] if units else []
        samples = sample_lines(run)
        lines += [md(line.strip()) + "  " for line in samples] + ([""] if samples else [])
        lines += [f"`{line}`  " for line in signature_lines(run)] + [""]
        for w in run.warnings:
            lines.append(f"> warning: {md(w)}")
        if run.warnings:
            lines.append("")
    return "\n".join(lines).rstrip() + "\n"
