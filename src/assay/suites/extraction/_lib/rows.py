"""The statistics row of one document (seed 000 §4; the definitions are stated in the suite's
``scorer.py``): every expected field scored by its type, every predicted value audited, the
document scores and the counts the run-level metrics sum.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from functools import lru_cache
from typing import Any, NamedTuple

import numpy as np
from numpy.typing import NDArray

from assay._fields import (
    Embedder,
    EntityListScore,
    FieldScore,
    as_items,
    element_similarity_matrix,
    element_type,
    entity_list_from_similarity,
    infer_field_type,
    is_entity_list,
    is_null_expectation,
    parse_date,
    parse_duration_days,
    parse_money,
    score_entity_list,
    score_field,
)
from assay._fields.display import display_value
from assay._fields.embedding import cosine_matrix
from assay._fields.text import as_text, coverage, is_blank
from assay._matching.optimal import Assignment
from assay.suites.extraction._lib.audit import Audit, SourceIndex, audit_items
from assay.suites.extraction.settings import ExtractionSettings

FloatMatrix = NDArray[np.float64]


@dataclass(frozen=True)
class DocumentInput:
    """What one row is scored from (``pred`` None: the prediction is missing or failed)."""

    gold: Mapping[str, Any]
    pred: Mapping[str, Any] | None
    types: Mapping[str, str]
    fields: Sequence[str]
    source: SourceIndex | None = None
    categories: Mapping[str, Any] = field(default_factory=dict)
    master: Mapping[str, Any] = field(default_factory=dict)
    schema_errors: Sequence[str] = ()
    reasoning: Any = None
    #: ``list_items`` of each list field, filled on first use (the batch's similarity pass
    #: and the row read the same items)
    items: dict[str, tuple[list[str], list[str]]] = field(
        default_factory=dict, compare=False, repr=False
    )


class ListMatch(NamedTuple):
    """One list field's (predicted × expected) similarity matrix and its optimal assignment
    at ``bipartite_match_threshold``."""

    similarity: FloatMatrix
    assignment: Assignment


@dataclass(frozen=True)
class DocumentScore:
    stats: dict[str, float]
    scores: dict[str, float | None]
    flags: tuple[str, ...]
    details: dict[str, Any]


def resolve_types(
    fields: Sequence[str], gold: Mapping[str, Any], doc_class: str | None, s: ExtractionSettings
) -> dict[str, str]:
    """Declared types (settings.field_types, overridden by the doc class's mapping), else the
    name heuristic of ``infer_field_type``. A ``containment_fields`` name is scored by
    containment whatever scalar type it is declared with (seed 000 §3: "applied automatically
    to containment_fields"); a declared list type stays a list."""
    declared = {**s.field_types, **s.doc_classes.get(doc_class or "", {})}
    types = {f: declared.get(f) or infer_field_type(f, gold.get(f), s) for f in fields}
    contained = set(s.containment_fields)
    return {
        f: "containment" if f in contained and not is_entity_list(t) else t
        for f, t in types.items()
    }


def _reviewable(value: Any) -> Any:
    """A field value as the judge sees it: strings, numbers and lists as they are, anything
    else as its text."""
    if value is None or isinstance(value, str | int | float | bool):
        return value
    if isinstance(value, list):
        if _PLAIN.issuperset(map(type, value)):  # the common list: each element as it is
            return list(value)
        return [_reviewable(v) for v in value]
    return as_text(value)


#: the element types ``_reviewable`` keeps as they are (exact types: checked in C per list)
_PLAIN = frozenset({str, int, float, bool, type(None)})


def _mean(values: Sequence[float]) -> float | None:
    return sum(values) / len(values) if values else None


#: the field types with a numeric reading (``_regression_pair``)
_REGRESSION_KINDS = frozenset({"money", "duration", "containment", "date"})


def _regression_pair(name: str, kind: str, pred: Any, expected: Any) -> dict[str, Any] | None:
    """A (predicted, expected) numeric pair for the regression diagnostics, when both parse.

    Dates (date fields) as ordinal days; durations (duration and containment fields, e.g.
    term_length) in days, and an expected term that is actually a date feeds the date bucket;
    money in currency units. Other types have no numeric reading.
    """
    if kind not in _REGRESSION_KINDS or is_blank(pred) or is_blank(expected):
        return None
    if kind == "money":
        p, g = parse_money(pred), parse_money(expected)
        return (
            {"bucket": "money", "field": name, "pred": p, "expected": g}
            if (p is not None and g is not None)
            else None
        )
    if kind in ("duration", "containment"):
        g_days, p_days = parse_duration_days(expected), parse_duration_days(pred)
        if g_days is not None and p_days is not None:
            return {"bucket": "duration", "field": name, "pred": p_days, "expected": g_days}
    elif kind != "date":
        return None
    gd, pd_ = parse_date(expected), parse_date(pred)
    if gd is not None and pd_ is not None and gd.full and pd_.full:
        return {
            "bucket": "date",
            "field": name,
            "pred": float(pd_.ordinal() or 0),
            "expected": float(gd.ordinal() or 0),
        }
    return None


def _category_presence(
    doc: DocumentInput, pred: Mapping[str, Any], s: ExtractionSettings, embedder: Embedder | None
) -> tuple[float | None, dict[str, Any]]:
    """Share of labeled categories whose clause some candidate span covers (≥ 0.7)."""
    if not doc.categories:
        return None, {}
    entries = []
    if isinstance(doc.reasoning, Mapping) and isinstance(doc.reasoning.get("entries"), list):
        entries = [e for e in doc.reasoning["entries"] if isinstance(e, Mapping)]
    every_span = [
        t
        for v in pred.values()
        for t in (as_items(v) if isinstance(v, list) else [as_text(v)])
        if t and not isinstance(v, Mapping)
    ]
    per: dict[str, bool] = {}
    for category, labeled in sorted(doc.categories.items()):
        clauses = as_items(labeled)
        if not clauses or all(c.strip().lower() in ("no", "none", "false") for c in clauses):
            continue
        tagged = [
            as_text(e.get("evidence"))
            for e in entries
            if category in (e.get("category"), e.get("field"))
        ]
        if tagged:
            spans = tagged
        elif category in s.category_fields:
            spans = as_items(pred.get(s.category_fields[category]))
        else:
            spans = every_span
        covered = any(
            (coverage(c, sp) or 0.0) >= s.presence_threshold for c in clauses for sp in spans
        )
        if not covered and embedder is not None and spans:
            covered = bool((cosine_matrix(embedder, spans, clauses) >= s.presence_threshold).any())
        per[category] = covered
    if not per:
        return None, {}
    return sum(per.values()) / len(per), per


class _Columns(NamedTuple):
    """A field's stats column names (built once per field name, not per document)."""

    score: str
    score_n: str
    verified: str
    verified_n: str
    f1: str
    f1_n: str
    precision: str
    precision_n: str
    tp: str
    fp: str
    fn: str


@lru_cache(maxsize=4096)
def _columns(name: str) -> _Columns:
    score, verified, f1, precision = (
        f"{name}_{base}" for base in ("score", "verified_precision", "f1", "precision")
    )
    return _Columns(
        score, f"{score}#n", verified, f"{verified}#n", f1, f"{f1}#n",
        precision, f"{precision}#n", f"{name}.tp", f"{name}.fp", f"{name}.fn",
    )  # fmt: skip


def _put_mean(stats: dict[str, float], column: str, count: str, value: float | None) -> None:
    """``stats.update(mean_columns(column, value))`` with ``count`` = ``column + "#n"``."""
    if value is None or (isinstance(value, float) and value != value):
        stats[column] = 0.0
        stats[count] = 0.0
    else:
        stats[column] = float(value)
        stats[count] = 1.0


#: a row's document scores, and their count columns (``mean_columns``' names)
_DOC_COLUMNS = (
    "overall_extraction_score", "field_presence", "schema_valid", "category_presence",
    "overall_verified_precision",
)  # fmt: skip
_DOC_COUNTS = {column: f"{column}#n" for column in _DOC_COLUMNS}
#: the row's count columns, in the order of ``score_document``'s counters
_POSTHOC_STATS = tuple(
    f"posthoc.{k}" for k in ("n_predicted", "matched_gt", "true_items", "n_expected")
)
_LIST_STATS = ("list.tp", "list.fp", "list.fn")
_PAIR_STATS = ("pairs.exact", "pairs.partial", "pairs.miss")
_REGRESSION_STATS = tuple((b, f"{b}.abs_err", f"{b}.n") for b in ("date", "duration", "money"))

#: the scalar audit's matched rows: its one item, or none (shared, never mutated)
_HIT: frozenset[int] = frozenset({0})
_MISS: frozenset[int] = frozenset()


def list_items(doc: DocumentInput, name: str, s: ExtractionSettings) -> tuple[list[str], list[str]]:
    """A list field's predicted items (at most ``max_list_items``) and expected items, computed
    once per document and field (callers only read them)."""
    found = doc.items.get(name)
    if found is None:
        pred = doc.pred or {}
        found = as_items(pred.get(name))[: s.max_list_items], as_items(doc.gold.get(name))
        doc.items[name] = found
    return found


def score_document(
    doc: DocumentInput,
    s: ExtractionSettings,
    *,
    embedder: Embedder | None = None,
    similarity: Mapping[str, ListMatch] | None = None,
) -> DocumentScore:
    """Score every expected field by its type, audit every predicted value, build the row.

    ``similarity`` may hold a list field's (predicted × expected) element-similarity matrix
    and its optimal assignment, computed beforehand for many documents at once
    (``list_similarities``); they must equal what ``element_similarity_matrix`` and
    ``optimal_assignment`` return for the field's items.
    """
    pred: Mapping[str, Any] = doc.pred or {}
    stats: dict[str, float] = {}
    field_details: dict[str, Any] = {}
    audits: dict[str, Any] = {}
    field_scores: list[float] = []
    populated: list[bool] = []
    ambiguous: list[str] = []
    regression: list[dict[str, Any]] = []
    verified: list[float] = []
    lo, hi = s.ambiguous_band
    posthoc = {"n_predicted": 0, "matched_gt": 0, "true_items": 0, "n_expected": 0}
    list_counts = {"tp": 0, "fp": 0, "fn": 0}
    pairs = {"exact": 0, "partial": 0, "miss": 0}
    span_drift: list[int] = []
    lists_store: dict[str, Any] = {}
    posthoc_fields = s.posthoc_fields
    source = doc.source if s.doc_verification else None
    match_threshold = s.bipartite_match_threshold
    coverage_threshold = s.verification_token_coverage
    for name in doc.fields:
        kind = doc.types[name]
        cols = _columns(name)
        gold_value = doc.gold.get(name)
        pred_value = pred.get(name)
        expected = not is_blank(gold_value)
        pred_blank = is_blank(pred_value)
        null_expectation = kind == "date" and is_null_expectation(gold_value, s)
        result: FieldScore | None = None
        audit: Audit | None = None
        if is_entity_list(kind):
            element = element_type(kind)
            p_items, g_items = list_items(doc, name, s)
            list_result: EntityListScore | None = None
            sim: FloatMatrix | None = None
            assignment: Assignment | None = None
            if p_items and g_items:
                if similarity is not None and name in similarity:
                    sim, assignment = similarity[name]
                else:
                    sim = element_similarity_matrix(p_items, g_items, element, s, embedder=embedder)
            if expected:
                if sim is not None:
                    list_result = entity_list_from_similarity(
                        p_items,
                        g_items,
                        sim,
                        s,
                        element=element,
                        partial_gt=name in s.partial_gt_fields,
                        assignment=assignment,
                    )
                else:
                    list_result = score_entity_list(
                        p_items, g_items, s, element=element, partial_gt=name in s.partial_gt_fields
                    )
                result = list_result
            in_posthoc = posthoc_fields is None or name in posthoc_fields
            if p_items:
                matched_rows = {i for i, _, _ in list_result.pairs} if list_result else set()
                audit = audit_items(
                    p_items,
                    sim,
                    matched_rows,
                    element,
                    source,
                    match_threshold=match_threshold,
                    coverage_threshold=coverage_threshold,
                )
            if expected:
                assert list_result is not None
                _put_mean(stats, cols.f1, cols.f1_n, list_result.score)
                _put_mean(stats, cols.precision, cols.precision_n, list_result.precision)
                tp = list_result.matched
                fp, fn = list_result.n_predicted - tp, list_result.n_expected - tp
                stats[cols.tp], stats[cols.fp], stats[cols.fn] = float(tp), float(fp), float(fn)
                list_counts["tp"] += tp
                list_counts["fp"] += fp
                list_counts["fn"] += fn
                span_drift.append(list_result.n_predicted - list_result.n_expected)
                if in_posthoc:
                    posthoc["n_expected"] += list_result.n_expected
            if in_posthoc and audit is not None:
                posthoc["n_predicted"] += audit.n_predicted
                posthoc["matched_gt"] += audit.matched_gt
                posthoc["true_items"] += audit.true_items
            if s.store_items and (p_items or g_items):
                lists_store[name] = {"element": element, "predicted": p_items, "expected": g_items}
        else:
            if expected or null_expectation:
                result = score_field(pred_value, gold_value, kind, s, embedder=embedder)
            if not pred_blank:
                # the one item is matched iff its score reaches the threshold, so its
                # similarity row would add nothing: it is not passed
                hit = (
                    _HIT
                    if expected and result is not None and result.score >= match_threshold
                    else _MISS
                )
                audit = audit_items(
                    [as_text(pred_value)],
                    None,
                    hit,
                    kind,
                    source,
                    match_threshold=match_threshold,
                    coverage_threshold=coverage_threshold,
                )
            pair = _regression_pair(name, kind, pred_value, doc.master.get(name, gold_value))
            if pair is not None:
                regression.append(pair)
        score_value = result.score if result is not None else None
        _put_mean(stats, cols.score, cols.score_n, score_value)
        vp = audit.verified_precision if audit is not None else None
        _put_mean(stats, cols.verified, cols.verified_n, vp)
        if vp is not None:
            verified.append(vp)
        if audit is not None:
            audits[name] = audit.to_json()
        if score_value is not None:
            field_scores.append(score_value)
            if not null_expectation:
                populated.append(not pred_blank)
            if lo <= score_value <= hi:
                ambiguous.append(name)
            bucket = "exact" if score_value >= 1.0 else ("miss" if score_value <= 0 else "partial")
            pairs[bucket] += 1
        detail: dict[str, Any] = {"type": kind, "score": score_value}
        # the display values: for the report, never read by the scoring
        if (shown := display_value(gold_value)) is not None:
            detail["gold"] = shown
        if (shown := display_value(pred_value)) is not None:
            detail["pred"] = shown
        if result is not None:
            detail["reason"] = result.reason
        if isinstance(result, EntityListScore):
            detail.update(
                precision=result.precision,
                recall=result.recall,
                f1=result.f1,
                n_predicted=result.n_predicted,
                n_expected=result.n_expected,
                matched=result.matched,
                instantiated=[{"expected": j, "rule": r} for j, r in result.instantiated],
            )
        if null_expectation:
            detail["null_expectation"] = True
        if score_value is not None and lo <= score_value <= hi:
            # what an LLM judge reviews for an ambiguous-band field (assay extraction judge)
            detail["review"] = {
                "expected": _reviewable(gold_value),
                "predicted": _reviewable(pred_value),
            }
        field_details[name] = detail

    schema_valid = 1.0 if doc.pred is not None and not doc.schema_errors else 0.0
    overall = _mean(field_scores)
    presence = _mean([float(p) for p in populated])
    category, per_category = _category_presence(doc, pred, s, embedder)
    overall_vp = _mean(verified)
    # ``stats.update(mean_columns(column, value))`` of each document score
    for column, value in zip(
        _DOC_COLUMNS, (overall, presence, schema_valid, category, overall_vp), strict=True
    ):
        _put_mean(stats, column, _DOC_COUNTS[column], value)
    for key, v in zip(_POSTHOC_STATS, posthoc.values(), strict=True):
        stats[key] = float(v)
    for key, v in zip(_LIST_STATS, list_counts.values(), strict=True):
        stats[key] = float(v)
    for key, v in zip(_PAIR_STATS, pairs.values(), strict=True):
        stats[key] = float(v)
    stats["pairs.n"] = float(sum(pairs.values()))
    for bucket, sum_key, n_key in _REGRESSION_STATS:
        errs = [abs(r["pred"] - r["expected"]) for r in regression if r["bucket"] == bucket]
        stats[sum_key] = float(sum(errs))
        stats[n_key] = float(len(errs))
    stats["span_count.abs"] = float(sum(abs(d) for d in span_drift))
    stats["span_count.signed"] = float(sum(span_drift))
    stats["span_count.n"] = float(len(span_drift))

    flags = []
    if ambiguous:
        flags.append("needs_judge_review")
    if schema_valid == 0.0:
        flags.append("schema_invalid")
    details: dict[str, Any] = {
        "fields": field_details,
        "entity_list_audit": audits,
        "ambiguous_fields": ambiguous,
        "needs_judge_review": bool(ambiguous),
        "schema_errors": list(doc.schema_errors),
        "regression": regression,
        "category_presence": per_category,
    }
    if lists_store:
        details["lists"] = lists_store
    scores: dict[str, float | None] = {
        "overall_extraction_score": overall,
        "field_presence": presence,
        "schema_valid": schema_valid,
        "category_presence": category,
        "overall_verified_precision": overall_vp,
    }
    return DocumentScore(stats, scores, tuple(flags), details)
