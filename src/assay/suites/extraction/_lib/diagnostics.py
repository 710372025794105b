"""Run-level diagnostics of seed 000 §4, computed from the stored rows (never rescored).

- error decomposition: exact / partial / miss rates over scored (document, field) pairs, per
  field, and field presence per field;
- list quality: raw precision / recall / F1 per field (macro: mean over documents; micro:
  span-summed), and the macro over the post-hoc fields;
- regression error: MAE and median AE for dates and durations (days) and money (USD) over pairs
  where both sides parse, with support sizes, per bucket and per field;
- R² = 1 − SS_res / SS_tot over the same pairs (null with fewer than 2 pairs or SS_tot = 0;
  negative values kept);
- span-count drift: MAE and signed mean of n_predicted − n_expected per (document, list field).
"""

from __future__ import annotations

import statistics
from collections import defaultdict
from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import Any

from assay._engine.item import Item
from assay._engine.task import ItemScore
from assay._fields import is_entity_list
from assay.suites.extraction.settings import ExtractionSettings


def r_squared(pred: Sequence[float], expected: Sequence[float]) -> float | None:
    """1 − Σ(pred − exp)² / Σ(exp − mean(exp))²; None with < 2 pairs or zero variance."""
    if len(expected) < 2:
        return None
    mean = sum(expected) / len(expected)
    ss_tot = sum((e - mean) ** 2 for e in expected)
    if ss_tot == 0:
        return None
    ss_res = sum((p - e) ** 2 for p, e in zip(pred, expected, strict=True))
    return 1 - ss_res / ss_tot


def regression_summary(pairs: Sequence[dict[str, Any]]) -> dict[str, Any]:
    """MAE, median AE, R² and the support size of (pred, expected) pairs."""
    errors = [abs(p["pred"] - p["expected"]) for p in pairs]
    return {
        "n_pairs": len(pairs),
        "mae": sum(errors) / len(errors) if errors else None,
        "median_ae": statistics.median(errors) if errors else None,
        "r2": r_squared([p["pred"] for p in pairs], [p["expected"] for p in pairs]),
    }


def _rate(num: float, den: float) -> float | None:
    return num / den if den else None


def _mean(values: Sequence[float]) -> float | None:
    return sum(values) / len(values) if values else None


def _median(values: list[int]) -> float:
    """``statistics.median(values)``, the same value and type, with less Python per call."""
    values.sort()
    n = len(values)
    mid = n // 2
    return values[mid] if n % 2 else (values[mid - 1] + values[mid]) / 2


@dataclass
class SummaryPart:
    """One block's share of the summaries (``ExtractionTask.summarize_block``): what the
    summaries read of its documents, gathered in one pass over each score.

    The summaries are means, medians, R² and sums of per-document values, so a part keeps
    those values in item order (never a sum of floats: ``merge_summary_parts`` adds them in
    the order ``extraction_summaries`` adds the documents' values, so the floats are the
    same); only integer counts are added up per block. It is a small fraction of the scores
    (no display values, reasons, audits or list items: of the items only their documents'
    median word count), so the out-of-core path keeps the parts in memory and reads nothing
    back to summarize. Every per-field dict lists its fields in the order they first occur
    in the block, so merging the blocks in order gives the run's first-occurrence order."""

    ids: list[str]
    #: per field: [exact, partial, miss] counts of its scored pairs
    buckets: dict[str, list[int]] = field(default_factory=dict)
    #: per field: whether each scored, non-null-expectation pair was predicted (1.0 / 0.0)
    presence: dict[str, list[float]] = field(default_factory=dict)
    #: per scored list field: its precision, recall and f1 per document (those not None)
    list_values: dict[str, dict[str, list[float]]] = field(default_factory=dict)
    #: per scored list field: its (tp, fp, fn) stats per document
    list_counts: dict[str, list[tuple[float, float, float]]] = field(default_factory=dict)
    #: the regression pairs, in item order
    regression: list[dict[str, Any]] = field(default_factory=list)
    #: per scored list field: n_predicted − n_expected per document
    drift: dict[str, list[int]] = field(default_factory=dict)
    #: documents that stored list items
    n_list_docs: int = 0
    #: per document: its ``posthoc.*`` stats (``_POSTHOC`` order)
    posthoc: list[tuple[float, ...]] = field(default_factory=list)
    #: per document with items in the post-hoc fields: the median words per item
    medians: list[float] = field(default_factory=list)
    review_ids: list[str] = field(default_factory=list)
    #: per schema-invalid document: its id and first five schema errors
    schema_invalid: list[dict[str, Any]] = field(default_factory=list)
    n_chunked: int = 0
    n_chunks_skipped: int = 0
    n_doc_verified: int = 0


#: the post-hoc sums' stats columns, in ``_posthoc``'s order
_POSTHOC_KEYS = ("n_predicted", "matched_gt", "true_items", "n_expected")
_POSTHOC = tuple(f"posthoc.{k}" for k in _POSTHOC_KEYS)
_LIST_VALUES = ("precision", "recall", "f1")


def _add_document(part: SummaryPart, id: str, sc: ItemScore, chosen: frozenset[str] | None) -> None:
    """Add one document's values to ``part`` (what each summary of ``extraction_summaries``
    reads of it, in the same order); ``chosen``: the post-hoc fields, None for every list
    field."""
    d, stats = sc.details, sc.stats
    audits = d.get("entity_list_audit", {})
    for name, f in d.get("fields", {}).items():
        value = f.get("score")
        if value is None:
            continue
        # error decomposition
        counts = part.buckets.get(name)
        if counts is None:
            counts = part.buckets[name] = [0, 0, 0]
        counts[0 if value >= 1.0 else (2 if value <= 0 else 1)] += 1
        if not f.get("null_expectation"):
            audit = audits.get(name)
            part.presence.setdefault(name, []).append(float(bool(audit and audit["n_predicted"])))
        if not is_entity_list(f.get("type", "")):
            continue
        # list quality: a field enters ``list_values`` with its first value not None
        for k in _LIST_VALUES:
            if f.get(k) is not None:
                part.list_values.setdefault(name, {"precision": [], "recall": [], "f1": []})[
                    k
                ].append(float(f[k]))
        part.list_counts.setdefault(name, []).append(
            (
                stats.get(f"{name}.tp", 0.0),
                stats.get(f"{name}.fp", 0.0),
                stats.get(f"{name}.fn", 0.0),
            )
        )
        # span-count drift
        part.drift.setdefault(name, []).append(int(f["n_predicted"]) - int(f["n_expected"]))
    part.regression.extend(d.get("regression", []))
    lists = d.get("lists")
    if lists:
        part.n_list_docs += 1
    part.posthoc.append(tuple(stats.get(k, 0.0) for k in _POSTHOC))
    words: list[int] = []
    for name, stored in (lists or {}).items():
        if chosen is None or name in chosen:
            # the median words per item: the items' word counts, not the items, are kept
            words.extend(map(len, map(str.split, stored["predicted"])))
    if words:
        part.medians.append(_median(words))
    flags = sc.flags
    if "needs_judge_review" in flags:
        part.review_ids.append(id)
    if "schema_invalid" in flags:
        part.schema_invalid.append({"id": id, "errors": d.get("schema_errors", [])[:5]})
    if d.get("chunked"):
        part.n_chunked += 1
    part.n_chunks_skipped += len(d.get("chunks_skipped", []))
    if d.get("doc_verification"):
        part.n_doc_verified += 1


def summary_part(
    items: Sequence[Item], scores: Sequence[ItemScore], s: ExtractionSettings
) -> SummaryPart:
    """The block's ``SummaryPart``."""
    chosen = None if s.posthoc_fields is None else frozenset(s.posthoc_fields)
    part = SummaryPart([it.id for it in items])
    for item, sc in zip(items, scores, strict=True):
        _add_document(part, item.id, sc, chosen)
    return part


def merge_summary_parts(
    parts: Sequence[SummaryPart], s: ExtractionSettings, *, embedding: str
) -> dict[str, Any]:
    """The run's summaries from its blocks' parts, in item order: ``extraction_summaries`` of
    their documents (the same values: the floats added in the same order)."""
    buckets: dict[str, list[int]] = {}
    presence: dict[str, list[float]] = {}
    list_values: dict[str, dict[str, list[float]]] = {}
    list_counts: dict[str, list[tuple[float, float, float]]] = {}
    drift: dict[str, list[int]] = {}
    regression: list[dict[str, Any]] = []
    posthoc: list[tuple[float, ...]] = []
    medians: list[float] = []
    review_ids: list[str] = []
    schema_invalid: list[dict[str, Any]] = []
    for part in parts:
        for name, counts in part.buckets.items():
            total = buckets.setdefault(name, [0, 0, 0])
            for i in range(3):
                total[i] += counts[i]
        for name, flags in part.presence.items():
            presence.setdefault(name, []).extend(flags)
        for name, values in part.list_values.items():
            into = list_values.setdefault(name, {"precision": [], "recall": [], "f1": []})
            for k in _LIST_VALUES:
                into[k].extend(values[k])
        for name, rows in part.list_counts.items():
            list_counts.setdefault(name, []).extend(rows)
        for name, deltas in part.drift.items():
            drift.setdefault(name, []).extend(deltas)
        regression.extend(part.regression)
        posthoc.extend(part.posthoc)
        medians.extend(part.medians)
        review_ids.extend(part.review_ids)
        schema_invalid.extend(part.schema_invalid)
    return {
        "embedding_rescue": embedding,
        "error_decomposition": _error_decomposition(buckets, presence),
        "list_quality": _list_quality(list_values, list_counts, s),
        "regression": _regression(regression),
        "span_count": _span_drift(drift, sum(p.n_list_docs for p in parts)),
        "posthoc": _posthoc(posthoc, medians, s),
        "n_needs_judge_review": len(review_ids),
        "needs_judge_review_ids": review_ids,
        "n_schema_invalid": len(schema_invalid),
        "schema_invalid": schema_invalid[:50],
        "n_chunked": sum(p.n_chunked for p in parts),
        "n_chunks_skipped": sum(p.n_chunks_skipped for p in parts),
        "n_doc_verified": sum(p.n_doc_verified for p in parts),
        "n_documents": sum(len(p.ids) for p in parts),
    }


def _error_decomposition(
    per: dict[str, list[int]], presence: dict[str, list[float]]
) -> dict[str, Any]:
    total = {k: sum(p[i] for p in per.values()) for i, k in enumerate(("exact", "partial", "miss"))}
    n = sum(total.values())
    out: dict[str, Any] = {
        "field_exact_rate": _rate(total["exact"], n),
        "field_partial_rate": _rate(total["partial"], n),
        "field_miss_rate": _rate(total["miss"], n),
        "n_pairs": n,
        "error_decomposition": {},
        "field_presence_per_field": {k: _mean(v) for k, v in sorted(presence.items())},
    }
    for name, (exact, partial, miss) in sorted(per.items()):
        m = exact + partial + miss
        out["error_decomposition"][name] = {
            "exact_rate": _rate(exact, m),
            "partial_rate": _rate(partial, m),
            "miss_rate": _rate(miss, m),
            "n": m,
        }
    return out


def _list_quality(
    per: dict[str, dict[str, list[float]]],
    counts: dict[str, list[tuple[float, float, float]]],
    s: ExtractionSettings,
) -> dict[str, Any]:
    sums: dict[str, dict[str, float]] = {}
    for name, rows in counts.items():
        tp = fp = fn = 0.0
        for row_tp, row_fp, row_fn in rows:  # the documents' order, as the rows were read
            tp += row_tp
            fp += row_fp
            fn += row_fn
        sums[name] = {"tp": tp, "fp": fp, "fn": fn}
    fields: dict[str, Any] = {}
    for name in sorted(per):
        t = sums[name]
        p, r = _rate(t["tp"], t["tp"] + t["fp"]), _rate(t["tp"], t["tp"] + t["fn"])
        fields[name] = {
            "entity_list_precision": _mean(per[name]["precision"]),
            "entity_list_recall": _mean(per[name]["recall"]),
            "entity_list_raw_f1": _mean(per[name]["f1"]),
            "micro_precision": p,
            "micro_recall": r,
            "micro_f1": _rate(2 * t["tp"], 2 * t["tp"] + t["fp"] + t["fn"]),
            "n_docs": len(per[name]["f1"]),
        }
    chosen = [n for n in per if s.posthoc_fields is None or n in s.posthoc_fields]
    total = {k: sum(sums[n][k] for n in chosen) for k in ("tp", "fp", "fn")}
    return {
        "fields": fields,
        "list_precision": _mean([v for n in chosen for v in per[n]["precision"]]),
        "list_recall": _mean([v for n in chosen for v in per[n]["recall"]]),
        "list_raw_f1": _mean([v for n in chosen for v in per[n]["f1"]]),
        "list_micro_precision": _rate(total["tp"], total["tp"] + total["fp"]),
        "list_micro_recall": _rate(total["tp"], total["tp"] + total["fn"]),
        "list_micro_f1": _rate(2 * total["tp"], 2 * total["tp"] + total["fp"] + total["fn"]),
        "macro_fields": sorted(chosen),
    }


def _regression(pairs_in_order: Sequence[dict[str, Any]]) -> dict[str, Any]:
    by_bucket: dict[str, list[dict[str, Any]]] = defaultdict(list)
    for pair in pairs_in_order:
        by_bucket[pair["bucket"]].append(pair)
    out: dict[str, Any] = {}
    units = {"date": "days", "duration": "days", "money": "usd"}
    for bucket, unit in units.items():
        pairs = by_bucket.get(bucket, [])
        summary = regression_summary(pairs)
        out[f"{bucket}_mae_{unit}"] = summary["mae"]
        out[f"{bucket}_median_ae_{unit}"] = summary["median_ae"]
        out[f"{bucket}_n_pairs"] = summary["n_pairs"]
        if bucket != "money":
            out[f"{bucket}_r2"] = summary["r2"]
        fields: dict[str, list[dict[str, Any]]] = defaultdict(list)
        for p in pairs:
            fields[p["field"]].append(p)
        out[f"{bucket}_per_field"] = {k: regression_summary(v) for k, v in sorted(fields.items())}
    return out


def _span_drift(per: dict[str, list[int]], n_docs: int) -> dict[str, Any]:
    deltas = [d for v in per.values() for d in v]
    return {
        "span_count_mae": _mean([abs(d) for d in deltas]),
        "span_count_signed_mean": _mean([float(d) for d in deltas]),
        "span_count_n_docs": n_docs,
        "span_count_n_pairs": len(deltas),
        "per_field": {
            k: {
                "mae": _mean([abs(d) for d in v]),
                "signed_mean": _mean([float(d) for d in v]),
                "n": len(v),
            }
            for k, v in sorted(per.items())
        },
    }


def _posthoc(
    rows: Sequence[tuple[float, ...]], medians: list[float], s: ExtractionSettings
) -> dict[str, Any]:
    sums = {k: sum(row[i] for row in rows) for i, k in enumerate(_POSTHOC_KEYS)}
    return {
        "item_count": int(sums["n_predicted"]),
        "matched_gt_spans": int(sums["matched_gt"]),
        "expected_spans": int(sums["n_expected"]),
        "alignment_precision": _rate(sums["matched_gt"], sums["n_predicted"]),
        "verified_precision": _rate(sums["true_items"], sums["n_predicted"]),
        "median_words_per_item": statistics.median(medians) if medians else None,
        "fields": "every list field" if s.posthoc_fields is None else list(s.posthoc_fields),
    }


def extraction_summaries(
    ids: Sequence[str], scores: Sequence[ItemScore], s: ExtractionSettings, *, embedding: str
) -> dict[str, Any]:
    """The run's summaries: diagnostics, post-hoc sums, chunking and review counts (of the
    documents ``ids`` scored ``scores``, as one block)."""
    chosen = None if s.posthoc_fields is None else frozenset(s.posthoc_fields)
    part = SummaryPart(list(ids))
    for id, sc in zip(ids, scores, strict=True):
        _add_document(part, id, sc, chosen)
    return merge_summary_parts([part], s, embedding=embedding)
