"""The item table: every item of a run, or every shared item of two runs, to filter, sort and
search — "which items moved, and why?".

One compact row per item: its id, status, a few per-item scores, gold and prediction as short
text, the parts (fields, claims, levels) that lost points or changed, and the item's cluster
when the run declares clusters. The same rows serve three readers:

- the single-file report embeds them as JSON (``to_json``; at most ``EMBED_LIMIT`` rows, the
  worst or the most moved first, and it says so when it cut) for its small client script
  (``static/triage.js``), which filters, sorts and pages them in the browser;
- the dashboard filters, sorts and pages them on the server (``select``, ``Query``), so a run
  of 10⁵ items never reaches the browser whole;
- the tests, which check the counts a page shows against ``select`` and the artifact.

The client script mirrors ``select`` rule for rule: a filter here is a filter there.

Two runs are the **candidate** and the **baseline** (Δ = candidate − baseline); an item's
outcome on a per-item score is "candidate" when the candidate did better on it (in the score's
direction: a lower TER is better), "baseline" when the baseline did, "tie" when both scored it
the same, and "" when either has no score for it.
"""

from __future__ import annotations

import json
import math
import re
from collections.abc import Callable, Iterable, Mapping, Sequence
from dataclasses import dataclass, field, replace
from typing import Any, Literal

from assay._engine.run import ItemRecord, Run
from assay._report.evidence import run_clusters
from assay._report.plain import fmt_fixed, metric_decimals
from assay._report.ranking import LOWER_IS_BETTER, item_score_key, ranking_for, worst_first
from assay._report.sides import FieldRow, item_parts, source_of
from assay.errors import UsageError
from assay.stats.mcnemar import mcnemar_exact

#: rows a single-file report embeds per table (the worst or the most moved first)
EMBED_LIMIT = 10_000
#: characters of each text a row carries (gold, a prediction, a source)
TEXT_LIMIT = 240
#: characters of one line of a row's "why" (a part that lost points or changed), and lines
WHY_LIMIT = 160
MAX_WHY = 12
#: per-item scores a row carries (the ranking's score first)
MAX_SCORES = 8
#: parts named in the part filter
MAX_PARTS = 80
#: rows a page shows
PAGE_SIZE = 50
#: statuses and outcomes a query may ask for
STATUSES = ("", "ok", "missing", "failed")
OUTCOMES = ("", "moved", "candidate", "baseline", "tie")
#: what a query may sort on ("": worst first for a run, most moved first for a pair)
SORTS = ("", "id", "status", "value", "candidate", "baseline")

Mode = Literal["run", "pair"]


def _short(text: str | None, limit: int = TEXT_LIMIT) -> str:
    if not text:
        return ""
    text = text.strip()
    return text if len(text) <= limit else text[: limit - 1] + "…"


@dataclass(frozen=True)
class ScoreKey:
    """A per-item score the table carries: its name, its direction and the decimals it
    prints with; ``binary`` when every value is 0 or 1 (McNemar's test applies)."""

    key: str
    higher_is_better: bool
    decimals: int
    binary: bool


@dataclass(slots=True)
class Row:
    """One item. ``status``, ``scores`` and ``preds`` have one entry per side (the run; or
    the candidate, then the baseline); ``parts`` indexes ``ItemTable.parts``: those that lost
    points (a run) or were scored differently (a pair); ``order`` is the item's place in
    natural id order, ``rank`` its place in the default order (set once, when the table is
    built; rows are not changed after)."""

    id: str
    status: tuple[str, ...]
    scores: tuple[tuple[float | None, ...], ...]
    gold: str
    preds: tuple[str, ...]
    parts: tuple[int, ...]
    why: tuple[str, ...]
    cluster: int | None
    source: str
    error: str
    order: int
    rank: int


@dataclass(frozen=True)
class ItemTable:
    """The rows of one run (``mode`` "run") or of two runs' shared items ("pair")."""

    mode: Mode
    names: tuple[str, ...]  # the run's name; or the candidate's, then the baseline's
    run_ids: tuple[str, ...]
    keys: tuple[ScoreKey, ...]
    parts: tuple[str, ...]
    part_label: str  # what a part is: "field", "claim", "level"
    clusters: tuple[str, ...]
    cluster_field: str | None
    rows: tuple[Row, ...]
    n_total: int  # items before any cut (``rows`` may hold fewer: ``cut``)
    not_shared: int = 0  # a pair: items only one of the runs scored (not listed)

    @property
    def truncated(self) -> bool:
        return len(self.rows) < self.n_total

    def key_index(self, key: str) -> int:
        if not key:
            return 0
        for i, k in enumerate(self.keys):
            if k.key == key:
                return i
        raise UsageError(
            f"no per-item score {key!r} in this table; choose one of "
            f"{', '.join(k.key for k in self.keys) or 'none'}"
        )

    def cut(self, limit: int) -> ItemTable:
        """The first ``limit`` rows in the default order (the worst, or the most moved)."""
        if len(self.rows) <= limit:
            return self
        kept = sorted(self.rows, key=lambda r: r.rank)[:limit]
        return replace(self, rows=tuple(sorted(kept, key=lambda r: r.order)))


# -- building ----------------------------------------------------------------------------------


def _direction(run: Run, key: str) -> bool:
    """Whether a higher ``key`` is better: the direction of the run metric it stands for,
    else by its name (TER and error rates are lower-is-better)."""
    for name, m in run.metrics.items():
        if item_score_key(name, [key]) == key:
            return m.higher_is_better
    return key not in LOWER_IS_BETTER


def _score_keys(runs: Sequence[Run], items: Sequence[Sequence[ItemRecord]]) -> list[str]:
    """The per-item scores every side has: the primary metric's first, then those of the
    headline and core metrics, then the rest, at most ``MAX_SCORES``."""
    common: dict[str, None] | None = None
    for side in items:
        seen: dict[str, None] = {}
        for it in side:
            for k in it.scores:
                seen.setdefault(k, None)
        common = seen if common is None else {k: None for k in common if k in seen}
    available = list(common or {})
    first = ranking_for(runs[0], None, items[0]).key if items[0] else None
    ordered: dict[str, None] = {}
    if first in available:
        ordered[first] = None
    for tier in ("headline", "core", "diagnostic"):
        for name, m in runs[0].metrics.items():
            if m.tier == tier and (found := item_score_key(name, available)) is not None:
                ordered.setdefault(found, None)
    for k in available:
        ordered.setdefault(k, None)
    return list(ordered)[:MAX_SCORES]


def _round(v: float | None) -> float | None:
    """A score as the table keeps it: rounded to 6 decimals (the browser and the server then
    see the same numbers, and float noise is no movement); None when undefined."""
    if v is None or not math.isfinite(v):
        return None
    return round(float(v), 6)


def _key_info(
    keys: Sequence[str], runs: Sequence[Run], items: Sequence[Sequence[ItemRecord]]
) -> tuple[ScoreKey, ...]:
    out = []
    for k in keys:
        values = [it.scores.get(k) for side in items for it in side]
        finite = [v for v in values if v is not None and math.isfinite(v)]
        out.append(
            ScoreKey(
                key=k,
                higher_is_better=_direction(runs[0], k),
                decimals=metric_decimals(*finite),
                binary=bool(finite) and all(v in (0.0, 1.0) for v in finite),
            )
        )
    return tuple(out)


class _Parts:
    """Part names in first-seen order (at most ``MAX_PARTS`` named)."""

    def __init__(self) -> None:
        self.names: dict[str, int] = {}
        self.label = ""

    def index(self, name: str) -> int | None:
        k = self.names.get(name)
        if k is None and len(self.names) < MAX_PARTS:
            k = self.names[name] = len(self.names)
        return k


_PART_LABELS = {"fields": "field", "matches": "claim", "levels": "level"}


def _part_label(key: str | None) -> str:
    return _PART_LABELS.get(key or "", "field")


def _line(text: str) -> str:
    return _short(text.replace("\n", "; "), WHY_LIMIT)


def _side_text(rows: Sequence[FieldRow], attr: str, names: Iterable[str] | None = None) -> str:
    """Parts as one text: ``name: value`` joined by " · " (the chosen ones, else all)."""
    keep = None if names is None else set(names)
    return " · ".join(
        f"{r.field}: {getattr(r, attr).replace(chr(10), '; ')}"
        for r in rows
        if keep is None or r.field in keep
    )


def _run_row(item: ItemRecord, keys: Sequence[str], parts: _Parts, order: int, rank: int,
             cluster: int | None) -> Row:  # fmt: skip
    key, gold, pred, rows = item_parts(item.details)
    lost: list[int] = []
    why: list[str] = []
    if rows:
        parts.label = parts.label or _part_label(key)
        for r in rows:
            k = parts.index(r.field)
            if r.differs and k is not None:
                lost.append(k)
                if len(why) < MAX_WHY:
                    extra = f" ({', '.join(x for x in r.extra if x)})" if r.extra else ""
                    why.append(_line(f"{r.field}: gold {r.gold} → predicted {r.pred}{extra}"))
        gold, pred = _side_text(rows, "gold"), _side_text(rows, "pred")
    return Row(
        id=item.id,
        status=(item.status,),
        scores=(tuple(_round(item.scores.get(k)) for k in keys),),
        gold=_short(gold),
        preds=(_short(pred),),
        parts=tuple(lost),
        why=tuple(why),
        cluster=cluster,
        source=_short(source_of(item.details)),
        error=_short(item.error),
        order=order,
        rank=rank,
    )


def _said(r: FieldRow | None) -> str:
    """What one run answered for a part, with its outcome: "July 9 (0.000)"."""
    if r is None:
        return "—"
    return r.pred.replace("\n", "; ") + (f" ({r.outcome})" if r.outcome else "")


def _pair_row(a: ItemRecord, b: ItemRecord, keys: Sequence[str], parts: _Parts, order: int,
              cluster: int | None) -> Row:  # fmt: skip
    key_a, gold, pred_a, rows_a = item_parts(a.details)
    key_b, _, pred_b, rows_b = item_parts(b.details)
    changed: list[int] = []
    why: list[str] = []
    if rows_a or rows_b:
        parts.label = parts.label or _part_label(key_a or key_b)
        ra, rb = {r.field: r for r in rows_a}, {r.field: r for r in rows_b}
        for name in dict.fromkeys([*ra, *rb]):
            x, y = ra.get(name), rb.get(name)
            if (x and (x.pred, x.outcome)) == (y and (y.pred, y.outcome)):
                continue
            k = parts.index(name)
            if k is None:
                continue
            changed.append(k)
            if len(why) < MAX_WHY:
                either = x if x is not None else y
                gold_text = either.gold if either is not None else ""
                why.append(
                    _line(f"{name}: gold {gold_text} · candidate {_said(x)} · baseline {_said(y)}")
                )
        names = [n for n in dict.fromkeys([*ra, *rb]) if parts.names.get(n) in changed]
        shown = names or None
        gold = _side_text(rows_a or rows_b, "gold", shown)
        pred_a = _side_text(rows_a, "pred", shown)
        pred_b = _side_text(rows_b, "pred", shown)
    elif gold is None:
        gold = item_parts(b.details)[1]
    return Row(
        id=a.id,
        status=(a.status, b.status),
        scores=(
            tuple(_round(a.scores.get(k)) for k in keys),
            tuple(_round(b.scores.get(k)) for k in keys),
        ),
        gold=_short(gold),
        preds=(_short(pred_a), _short(pred_b)),
        parts=tuple(changed),
        why=tuple(why),
        cluster=cluster,
        source=_short(source_of(a.details) or source_of(b.details)),
        error=_short(
            "; ".join(
                f"{side}: {e}" for side, e in (("candidate", a.error), ("baseline", b.error)) if e
            )
        ),
        order=order,
        rank=0,
    )


def _clusters(run: Run) -> tuple[tuple[str, ...], str | None, Mapping[str, str]]:
    found = run_clusters(run)
    if found is None:
        return (), None, {}
    return found.labels, found.field, found.of_item


def run_table(run: Run, items: Sequence[ItemRecord] | None = None) -> ItemTable:
    """Every item of ``run`` (or ``items``, a run loaded without them), worst first by its
    primary metric in the default order."""
    items = list(run.items if items is None else items)
    keys = _score_keys([run], [items])
    ranking = ranking_for(run, None, items) if items else None
    ranks = {pos: r for r, pos in enumerate(worst_first(items, ranking))} if items else {}
    id_order = {item_id: k for k, item_id in enumerate(_ids(run, items))}
    labels, cluster_field, of_item = _clusters(run)
    index = {label: k for k, label in enumerate(labels)}
    parts = _Parts()
    rows = [
        _run_row(
            it, keys, parts, id_order.get(it.id, pos), ranks.get(pos, pos),
            index.get(of_item[it.id]) if it.id in of_item else None,
        )
        for pos, it in enumerate(items)
    ]  # fmt: skip
    rows.sort(key=lambda r: r.order)
    return ItemTable(
        mode="run",
        names=(run.name,),
        run_ids=(run.run_id,),
        keys=_key_info(keys, [run], [items]),
        parts=tuple(parts.names),
        part_label=parts.label or "field",
        clusters=labels,
        cluster_field=cluster_field,
        rows=tuple(rows),
        n_total=len(rows),
    )


def _ids(run: Run, items: Sequence[ItemRecord]) -> list[str]:
    """The run's ids in natural order (its statistics' order), else the items'."""
    stats = run.stats if isinstance(run.stats, Mapping) else {}
    ids = stats.get("ids")
    return list(ids) if ids is not None and len(ids) else [it.id for it in items]


def pair_table(
    candidate: Run,
    baseline: Run,
    items_c: Sequence[ItemRecord] | None = None,
    items_b: Sequence[ItemRecord] | None = None,
) -> ItemTable:
    """The items both runs scored, the most moved first in the default order: by |Δ| of the
    primary per-item score, then those whose status changed, then in id order."""
    items_c = list(candidate.items if items_c is None else items_c)
    items_b = list(baseline.items if items_b is None else items_b)
    by_id = {it.id: it for it in items_b}
    shared = [it for it in items_c if it.id in by_id]
    keys = _score_keys([candidate, baseline], [shared, [by_id[it.id] for it in shared]])
    id_order = {item_id: k for k, item_id in enumerate(_ids(candidate, items_c))}
    labels, cluster_field, of_item = _clusters(candidate)
    index = {label: k for k, label in enumerate(labels)}
    parts = _Parts()
    rows = [
        _pair_row(
            it, by_id[it.id], keys, parts, id_order.get(it.id, pos),
            index.get(of_item[it.id]) if it.id in of_item else None,
        )
        for pos, it in enumerate(shared)
    ]  # fmt: skip
    info = _key_info(keys, [candidate, baseline], [shared, [by_id[it.id] for it in shared]])
    table = ItemTable(
        mode="pair",
        names=(candidate.name, baseline.name),
        run_ids=(candidate.run_id, baseline.run_id),
        keys=info,
        parts=tuple(parts.names),
        part_label=parts.label or "field",
        clusters=labels,
        cluster_field=cluster_field,
        rows=tuple(sorted(rows, key=lambda r: r.order)),
        n_total=len(rows),
        not_shared=len(items_c) - len(shared) + len(items_b) - len(shared),
    )
    for k, r in enumerate(select(table, Query())):
        r.rank = k
    return table


# -- outcomes, filters, order ------------------------------------------------------------------


def delta(row: Row, k: int) -> float | None:
    """Δ = candidate − baseline on score ``k`` (None when either has no score)."""
    if len(row.scores) < 2:
        return None
    c, b = row.scores[0][k], row.scores[1][k]
    return None if c is None or b is None else round(c - b, 6)


def outcome(row: Row, k: int, higher_is_better: bool) -> str:
    """Who did better on score ``k``: "candidate", "baseline", "tie", or "" (no score)."""
    d = delta(row, k)
    if d is None:
        return ""
    if d == 0:
        return "tie"
    return "candidate" if (d > 0) == higher_is_better else "baseline"


@dataclass(frozen=True)
class Query:
    """What a page of the table shows: the filters (all must hold), the order, the page."""

    status: str = ""  # a run: the item's; a pair: "ok" both ok, else either side's
    outcome: str = ""  # a pair: "moved" (candidate or baseline), "candidate", "baseline", "tie"
    metric: str = ""  # the per-item score the outcome, Δ and value filters read ("": first)
    part: str = ""  # only items whose part of this name lost points (a run) or changed (a pair)
    cluster: str = ""
    q: str = ""  # in the id, gold, predictions or source (case-insensitive)
    lo: float | None = None  # the score (a run) or Δ (a pair) at least this
    hi: float | None = None  # … and at most this
    sort: str = ""
    desc: bool = False
    page: int = 0

    #: the query string's names of the fields above
    NAMES = ("status", "outcome", "metric", "part", "cluster", "q", "lo", "hi", "sort", "desc",
             "page")  # fmt: skip

    @classmethod
    def from_params(cls, params: Mapping[str, Sequence[str]]) -> Query:
        """A query from a query string's values; a value it cannot take is a UsageError
        naming the parameter and what it may be."""

        def one(name: str) -> str:
            return (params.get(name) or [""])[0].strip()

        def number(name: str) -> float | None:
            raw = one(name)
            if not raw:
                return None
            try:
                v = float(raw)
            except ValueError:
                raise UsageError(f"{name} must be a number, not {raw[:40]!r}") from None
            if not math.isfinite(v):
                raise UsageError(f"{name} must be a finite number, not {raw[:40]!r}")
            return v

        for name, allowed in (("status", STATUSES), ("outcome", OUTCOMES), ("sort", SORTS)):
            if one(name) not in allowed:
                raise UsageError(
                    f"{name} must be one of {', '.join(a for a in allowed if a)}, "
                    f"not {one(name)[:40]!r}"
                )
        page = one("page")
        return cls(
            status=one("status"),
            outcome=one("outcome"),
            metric=one("metric"),
            part=one("part"),
            cluster=one("cluster"),
            q=one("q"),
            lo=number("lo"),
            hi=number("hi"),
            sort=one("sort"),
            desc=one("desc") in ("1", "true", "yes"),
            page=int(page) if page.isdigit() else 0,
        )

    def params(self, **changes: Any) -> dict[str, str]:
        """The query string values of this query with ``changes`` (defaults left out)."""
        q = replace(self, **changes)
        out: dict[str, str] = {}
        for name in self.NAMES:
            v = getattr(q, name)
            if v in ("", None, False, 0):
                continue
            out[name] = "1" if v is True else f"{v:g}" if isinstance(v, float) else str(v)
        return out


def _status_ok(row: Row, status: str) -> bool:
    if not status:
        return True
    if status == "ok":
        return all(s == "ok" for s in row.status)
    return status in row.status


def _value(row: Row, k: int) -> float | None:
    return row.scores[0][k] if len(row.scores) == 1 else delta(row, k)


def matches(table: ItemTable, row: Row, query: Query, k: int) -> bool:
    """Whether ``row`` passes every filter of ``query`` (score ``k`` chosen)."""
    if not _status_ok(row, query.status):
        return False
    if query.outcome and table.mode == "pair":
        got = outcome(row, k, table.keys[k].higher_is_better) if table.keys else ""
        if query.outcome == "moved":
            if got not in ("candidate", "baseline"):
                return False
        elif got != query.outcome:
            return False
    if query.part:
        k_part = table.parts.index(query.part) if query.part in table.parts else -1
        if k_part not in row.parts:
            return False
    if query.cluster and (row.cluster is None or table.clusters[row.cluster] != query.cluster):
        return False
    if query.lo is not None or query.hi is not None:
        v = _value(row, k) if table.keys else None
        if v is None:
            return False
        if query.lo is not None and v < query.lo:
            return False
        if query.hi is not None and v > query.hi:
            return False
    if query.q:
        needle = query.q.lower()
        hay = (row.id, row.gold, *row.preds, row.source)
        if not any(needle in h.lower() for h in hay):
            return False
    return True


_NONE_LAST = math.inf


def _default_key(table: ItemTable, k: int) -> Any:
    if table.mode == "run":
        sign = 1.0 if not table.keys or table.keys[k].higher_is_better else -1.0

        def run_key(r: Row) -> tuple[int, float, int]:
            if r.status[0] != "ok":
                return (0, 0.0, r.order)
            v = r.scores[0][k] if table.keys else None
            return (2, 0.0, r.order) if v is None else (1, sign * v, r.order)

        return run_key

    def pair_key(r: Row) -> tuple[float, int, int]:
        d = delta(r, k) if table.keys else None
        changed = 0 if r.status[0] != r.status[1] else 1
        return (-abs(d) if d is not None else 1.0, changed, r.order)

    return pair_key


def select(table: ItemTable, query: Query) -> list[Row]:
    """The rows ``query`` keeps, in its order (see ``Query``; None values sort last)."""
    k = table.key_index(query.metric) if table.keys else 0
    if query.part and query.part not in table.parts:
        raise UsageError(
            f"no {table.part_label} {query.part!r} in this table; choose one of "
            f"{', '.join(table.parts[:20]) or 'none'}"
        )
    rows = [r for r in table.rows if matches(table, r, query, k)]  # in id order
    if not query.sort:
        rows.sort(key=_default_key(table, k))
        if query.desc:
            rows.reverse()
        return rows
    if query.sort == "id":
        return rows[::-1] if query.desc else rows
    if query.sort == "status":  # stable: id order within a status, either way
        rows.sort(key=lambda r: r.status, reverse=query.desc)
        return rows
    side = {"candidate": 0, "baseline": 1}.get(query.sort)

    def value(r: Row) -> float | None:
        if not table.keys:
            return None
        if side is not None:
            return r.scores[side][k] if side < len(r.scores) else None
        return _value(r, k)

    defined = [(v, r) for r in rows if (v := value(r)) is not None]
    defined.sort(key=lambda t: t[0], reverse=query.desc)  # stable: id order within a value
    return [r for _, r in defined] + [r for r in rows if value(r) is None]


@dataclass(frozen=True)
class Page:
    """One page of a selection: its rows, where it starts and how many matched."""

    rows: tuple[Row, ...]
    first: int  # 0-based index of the first row shown
    matched: int
    page: int
    pages: int


def page_of(table: ItemTable, query: Query, size: int = PAGE_SIZE) -> Page:
    rows = select(table, query)
    pages = max(1, math.ceil(len(rows) / size))
    page = min(query.page, pages - 1)
    start = page * size
    return Page(tuple(rows[start : start + size]), start, len(rows), page, pages)


# -- movement: the discordant counts -----------------------------------------------------------


@dataclass(frozen=True)
class Movement:
    """How the shared items moved on one per-item score: the discordant counts first."""

    key: str
    higher_is_better: bool
    candidate: int  # items the candidate did better on
    baseline: int
    tie: int
    unscored: int  # items either run has no score for
    binary: bool
    mcnemar_p: float | None  # McNemar's exact test on the discordant items (0/1 scores)


def movement(table: ItemTable, k: int = 0) -> Movement | None:
    """The discordant counts on score ``k`` (None for a run, or without scores)."""
    if table.mode != "pair" or not table.keys:
        return None
    key = table.keys[k]
    counts = {"candidate": 0, "baseline": 0, "tie": 0, "": 0}
    for r in table.rows:
        counts[outcome(r, k, key.higher_is_better)] += 1
    p = mcnemar_exact(counts["candidate"], counts["baseline"]) if key.binary else None
    return Movement(
        key.key, key.higher_is_better, counts["candidate"], counts["baseline"], counts["tie"],
        counts[""], key.binary, p,
    )  # fmt: skip


@dataclass(frozen=True)
class ClusterMove:
    """One cluster (a contract, a document): its items and how they moved."""

    label: str
    n: int
    candidate: int
    baseline: int
    tie: int
    mean_delta: float | None


def cluster_moves(table: ItemTable, k: int = 0) -> list[ClusterMove]:
    """Per declared cluster, the shared items' movement on score ``k``, the clusters that
    moved most first (by |candidate − baseline| items, then |mean Δ|)."""
    if table.mode != "pair" or not table.clusters or not table.keys:
        return []
    hib = table.keys[k].higher_is_better
    acc: dict[int, list[Row]] = {}
    for r in table.rows:
        if r.cluster is not None:
            acc.setdefault(r.cluster, []).append(r)
    out = []
    for c, rows in acc.items():
        got = [outcome(r, k, hib) for r in rows]
        deltas = [d for r in rows if (d := delta(r, k)) is not None]
        out.append(
            ClusterMove(
                table.clusters[c], len(rows), got.count("candidate"), got.count("baseline"),
                got.count("tie"), sum(deltas) / len(deltas) if deltas else None,
            )
        )  # fmt: skip
    out.sort(key=lambda m: (-abs(m.candidate - m.baseline), -abs(m.mean_delta or 0.0), m.label))
    return out


# -- the embedded form ----------------------------------------------------------------------


def to_json(table: ItemTable, *, limit: int = EMBED_LIMIT) -> dict[str, Any]:
    """The table as the report embeds it: rows as arrays (``ROW_FIELDS``), at most ``limit``
    of them (the worst, or the most moved, first)."""
    shown = table.cut(limit)
    return {
        "mode": table.mode,
        "names": list(table.names),
        "runs": list(table.run_ids),
        "keys": [
            {"key": k.key, "hib": k.higher_is_better, "dec": k.decimals, "binary": k.binary}
            for k in table.keys
        ],
        "parts": list(table.parts),
        "partLabel": table.part_label,
        "clusters": list(table.clusters),
        "clusterField": table.cluster_field,
        "total": table.n_total,
        "notShared": table.not_shared,
        "pageSize": PAGE_SIZE,
        "fields": list(ROW_FIELDS),
        "rows": [
            [
                r.id,
                list(r.status),
                [list(s) for s in r.scores],
                r.gold,
                list(r.preds),
                list(r.parts),
                list(r.why),
                r.cluster,
                r.source,
                r.error,
                r.order,
                r.rank,
            ]
            for r in shown.rows
        ],
    }


#: the order of a row's values in ``to_json``
ROW_FIELDS = ("id", "status", "scores", "gold", "preds", "parts", "why", "cluster", "source",
              "error", "order", "rank")  # fmt: skip

_SCRIPT_END = re.compile(r"[<>&\u2028\u2029]")
_ESCAPES = {"<": "\\u003c", ">": "\\u003e", "&": "\\u0026", "\u2028": "\\u2028",
            "\u2029": "\\u2029"}  # fmt: skip


def json_for_script(value: Any) -> str:
    """``value`` as JSON that may stand inside a ``<script type="application/json">`` element:
    ``<``, ``>`` and ``&`` escaped as ``\\u003c`` …, so no text in it can close the element
    (``</script>``) or open a comment; the browser's JSON.parse reads it back unchanged."""
    text = json.dumps(value, ensure_ascii=False, separators=(",", ":"), allow_nan=False)
    return _SCRIPT_END.sub(lambda m: _ESCAPES[m.group(0)], text)


@dataclass(frozen=True)
class RowView:
    """One row as a page prints it (every value already text)."""

    id: str
    status: str
    values: tuple[str, ...]  # a run: the score; a pair: candidate, baseline, Δ
    better: str  # a pair: "candidate", "baseline", "tie" or ""
    gold: str
    preds: tuple[str, ...]
    source: str
    why: tuple[str, ...]
    error: str
    scores: str  # every score of the row on one line
    ok: bool


@dataclass(frozen=True)
class Head:
    """A column header: its label and, for a sortable column, the sort it asks for."""

    label: str
    sort: str | None = None
    href: str = ""
    state: str = "none"  # aria-sort: "ascending", "descending", "none"
    value: str = ""  # the chosen score's name, after ``label`` (the client renames it)


@dataclass(frozen=True)
class MoveLink:
    """A discordant count that opens the table filtered to its items."""

    label: str
    count: int
    href: str
    outcome: str


@dataclass(frozen=True)
class ItemTableView:
    """What a page shows of an item table: the filters, the first page rendered (for a
    reader without JavaScript, and the dashboard's page), the counts and, in the report, the
    embedded data the client script pages through."""

    dom_id: str
    table: ItemTable
    query: Query
    page: Page
    rows: tuple[RowView, ...]
    heads: tuple[Head, ...]
    key: ScoreKey | None
    movement: Movement | None
    moves: tuple[MoveLink, ...]
    clusters: tuple[ClusterMove, ...]
    prev_href: str | None
    next_href: str | None
    data: str = ""  # the embedded JSON ("" on the dashboard)
    embedded: int = 0  # rows embedded
    cluster_hrefs: Mapping[str, str] = field(default_factory=dict)

    @property
    def count_text(self) -> str:
        p = self.page
        total = len(self.table.rows)
        if p.matched:
            what = f"items {p.first + 1}–{p.first + len(p.rows)} of {p.matched} matching"
        else:
            what = "no item matches"
        if self.table.n_total > total:
            return f"{what} (of {total} embedded; the run has {self.table.n_total})"
        return f"{what} (of {total})"


def row_view(table: ItemTable, row: Row, k: int) -> RowView:
    key = table.keys[k] if table.keys else None

    def f(v: float | None, sign: bool = False) -> str:
        return "—" if key is None else fmt_fixed(v, key.decimals, sign=sign)

    if table.mode == "pair":
        values: tuple[str, ...] = (f(row.scores[0][k] if key else None),
                                   f(row.scores[1][k] if key else None),
                                   f(delta(row, k) if key else None, True))  # fmt: skip
        better = outcome(row, k, key.higher_is_better) if key else ""
    else:
        values, better = (f(row.scores[0][k] if key else None),), ""
    scores = []
    for i, sk in enumerate(table.keys):
        text = f"{sk.key} {fmt_fixed(row.scores[0][i], sk.decimals)}"
        if len(row.scores) > 1:
            text += f" → {fmt_fixed(row.scores[1][i], sk.decimals)}"
        scores.append(text)
    prefix = "candidate → baseline: " if table.mode == "pair" and scores else ""
    return RowView(
        id=row.id,
        status=" / ".join(row.status),
        values=values,
        better=better,
        gold=row.gold,
        preds=row.preds,
        source=row.source,
        why=row.why,
        error=row.error,
        scores=prefix + " · ".join(scores),
        ok=all(s == "ok" for s in row.status),
    )


def table_view(
    table: ItemTable,
    query: Query,
    *,
    dom_id: str,
    url: Callable[[Mapping[str, str]], str] | None = None,
    embed: int | None = None,
) -> ItemTableView:
    """The view of ``table`` under ``query``: links through ``url`` (query values → href; the
    dashboard), or, without it, anchors the client script takes over (the report), which then
    pages through the ``embed`` first rows (the worst or most moved) as JSON. The discordant
    counts and the clusters are counted over every row, cut or not."""
    k = table.key_index(query.metric) if table.keys else 0
    full = table
    if embed is not None:
        table = table.cut(embed)
    page = page_of(table, query)
    key = table.keys[k] if table.keys else None

    def href(**changes: Any) -> str:
        return url(query.params(**changes)) if url is not None else f"#{dom_id}"

    sorts: list[tuple[str, str | None, bool]] = [("item", "id", False), ("status", "status", False)]
    value_label = (key.key + ("" if key.higher_is_better else " ↓")) if key else "score"
    if table.mode == "pair":
        sorts += [("candidate: ", "candidate", True), ("baseline: ", "baseline", True),
                  ("Δ", "value", False)]  # fmt: skip
        texts: tuple[str, ...] = ("better", "gold", "candidate answered", "baseline answered")
    else:
        sorts += [("", "value", True)]
        texts = ("gold", "prediction")
    sorts += [(t, None, False) for t in texts]
    heads = []
    for label, sort, is_value in sorts:
        if sort is None:
            heads.append(Head(label))
            continue
        on = query.sort == sort
        state = ("descending" if query.desc else "ascending") if on else "none"
        heads.append(
            Head(
                label,
                sort,
                href(sort=sort, desc=on and not query.desc, page=0),
                state,
                value_label if is_value else "",
            )
        )
    mv = movement(full, k)
    moves: list[MoveLink] = []
    if mv is not None:
        for label, n, which in (("candidate better", mv.candidate, "candidate"),
                                ("baseline better", mv.baseline, "baseline"),
                                ("tie", mv.tie, "tie")):  # fmt: skip
            moves.append(
                MoveLink(label, n, href(outcome=which, metric=mv.key, sort="", page=0), which)
            )
    clusters = tuple(cluster_moves(full, k)[:MAX_CLUSTERS])
    embedded = 0
    data = ""
    if embed is not None:
        payload = to_json(table, limit=embed)
        embedded = len(payload["rows"])
        data = json_for_script(payload)
    return ItemTableView(
        dom_id=dom_id,
        table=table,
        query=query,
        page=page,
        rows=tuple(row_view(table, r, k) for r in page.rows),
        heads=tuple(heads),
        key=key,
        movement=mv,
        moves=tuple(moves),
        clusters=clusters,
        prev_href=href(page=page.page - 1) if page.page > 0 else None,
        next_href=href(page=page.page + 1) if page.page + 1 < page.pages else None,
        data=data,
        embedded=embedded,
        cluster_hrefs={c.label: href(cluster=c.label, outcome="", page=0) for c in clusters},
    )


#: clusters listed in a comparison's per-cluster breakdown (the most moved)
MAX_CLUSTERS = 20
