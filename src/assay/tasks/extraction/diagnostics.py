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
from dataclasses import dataclass
from typing import Any

from assay.core.item import Item
from assay.core.task import ItemScore, new_score
from assay.fields import is_entity_list
from assay.tasks.extraction.settings import ExtractionSettings


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


def _error_decomposition(scores: Sequence[ItemScore]) -> dict[str, Any]:
    per: dict[str, dict[str, int]] = defaultdict(lambda: {"exact": 0, "partial": 0, "miss": 0})
    presence: dict[str, list[float]] = defaultdict(list)
    for sc in scores:
        audits = sc.details.get("entity_list_audit", {})
        for name, f in sc.details.get("fields", {}).items():
            value = f.get("score")
            if value is None:
                continue
            bucket = "exact" if value >= 1.0 else ("miss" if value <= 0 else "partial")
            per[name][bucket] += 1
            if not f.get("null_expectation"):
                audit = audits.get(name)
                presence[name].append(float(bool(audit and audit["n_predicted"])))
    total = {k: sum(p[k] for p in per.values()) for k in ("exact", "partial", "miss")}
    n = sum(total.values())
    out: dict[str, Any] = {
        "field_exact_rate": _rate(total["exact"], n),
        "field_partial_rate": _rate(total["partial"], n),
        "field_miss_rate": _rate(total["miss"], n),
        "n_pairs": n,
        "error_decomposition": {},
        "field_presence_per_field": {k: _mean(v) for k, v in sorted(presence.items())},
    }
    for name, counts in sorted(per.items()):
        m = sum(counts.values())
        out["error_decomposition"][name] = {
            "exact_rate": _rate(counts["exact"], m),
            "partial_rate": _rate(counts["partial"], m),
            "miss_rate": _rate(counts["miss"], m),
            "n": m,
        }
    return out


def _list_quality(scores: Sequence[ItemScore], s: ExtractionSettings) -> dict[str, Any]:
    per: dict[str, dict[str, list[float]]] = defaultdict(
        lambda: {"precision": [], "recall": [], "f1": []}
    )
    sums: dict[str, dict[str, float]] = defaultdict(lambda: {"tp": 0.0, "fp": 0.0, "fn": 0.0})
    for sc in scores:
        for name, f in sc.details.get("fields", {}).items():
            if not is_entity_list(f.get("type", "")) or f.get("score") is None:
                continue
            for k in ("precision", "recall", "f1"):
                if f.get(k) is not None:
                    per[name][k].append(float(f[k]))
            for k in ("tp", "fp", "fn"):
                sums[name][k] += sc.stats.get(f"{name}.{k}", 0.0)
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


def _regression(scores: Sequence[ItemScore]) -> dict[str, Any]:
    by_bucket: dict[str, list[dict[str, Any]]] = defaultdict(list)
    for sc in scores:
        for pair in sc.details.get("regression", []):
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


def _span_drift(scores: Sequence[ItemScore]) -> dict[str, Any]:
    per: dict[str, list[int]] = defaultdict(list)
    for sc in scores:
        for name, f in sc.details.get("fields", {}).items():
            if is_entity_list(f.get("type", "")) and f.get("score") is not None:
                per[name].append(int(f["n_predicted"]) - int(f["n_expected"]))
    deltas = [d for v in per.values() for d in v]
    return {
        "span_count_mae": _mean([abs(d) for d in deltas]),
        "span_count_signed_mean": _mean([float(d) for d in deltas]),
        "span_count_n_docs": len({i for i, sc in enumerate(scores) if sc.details.get("lists")}),
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


def _posthoc(scores: Sequence[ItemScore], s: ExtractionSettings) -> dict[str, Any]:
    sums = {
        k: sum(sc.stats.get(f"posthoc.{k}", 0.0) for sc in scores)
        for k in ("n_predicted", "matched_gt", "true_items", "n_expected")
    }
    medians: list[float] = []
    chosen = s.posthoc_fields
    for sc in scores:
        words: list[int] = []
        for name, stored in sc.details.get("lists", {}).items():
            if chosen is None or name in chosen:
                # a block's part keeps each item's word count, not the item (``_slim``)
                counts = stored.get("words")
                words.extend(
                    counts if counts is not None else map(len, map(str.split, stored["predicted"]))
                )
        if words:
            medians.append(_median(words))
    return {
        "item_count": int(sums["n_predicted"]),
        "matched_gt_spans": int(sums["matched_gt"]),
        "expected_spans": int(sums["n_expected"]),
        "alignment_precision": _rate(sums["matched_gt"], sums["n_predicted"]),
        "verified_precision": _rate(sums["true_items"], sums["n_predicted"]),
        "median_words_per_item": statistics.median(medians) if medians else None,
        "fields": "every list field" if s.posthoc_fields is None else list(s.posthoc_fields),
    }


#: the detail keys of one field the summaries read
_FIELD_KEYS = (
    "type", "score", "null_expectation", "precision", "recall", "f1", "n_predicted", "n_expected",
)  # fmt: skip
#: the stats columns the summaries read: the post-hoc sums and each list field's counts
_POSTHOC = tuple(f"posthoc.{k}" for k in ("n_predicted", "matched_gt", "true_items", "n_expected"))
_STATS_ENDS = (".tp", ".fp", ".fn")


@dataclass(frozen=True)
class SummaryPart:
    """One block's share of the summaries (``ExtractionTask.summarize_block``): each
    document's id and a copy of its score holding only what the summaries read.

    The summaries are means, medians and R² of per-document values, so a part keeps those
    values, not sums; it is a small fraction of the scores (no display values, reasons,
    audits beyond their counts; of the list items only their word counts: ~1.6 kB per document
    pickled, against ~17 kB for its score), so the out-of-core path keeps the parts in memory
    and reads nothing back to summarize."""

    ids: list[str]
    scores: list[ItemScore]


def _slim(sc: ItemScore) -> ItemScore:
    """``sc`` with only the stats and details the summaries read (the same values)."""
    d = sc.details
    details: dict[str, Any] = {}
    if "fields" in d:
        details["fields"] = {
            name: {k: f[k] for k in _FIELD_KEYS if k in f} for name, f in d["fields"].items()
        }
    if "entity_list_audit" in d:
        details["entity_list_audit"] = {
            name: {"n_predicted": a["n_predicted"]} for name, a in d["entity_list_audit"].items()
        }
    if "lists" in d:
        details["lists"] = {
            name: {"words": list(map(len, map(str.split, stored["predicted"])))}
            for name, stored in d["lists"].items()
        }
    if "schema_errors" in d:
        details["schema_errors"] = list(d["schema_errors"][:5])
    for key in ("regression", "chunked", "chunks_skipped", "doc_verification"):
        if key in d:
            details[key] = d[key]
    # the post-hoc sums, and each list field's counts (``_list_quality``)
    stats = {k: sc.stats[k] for k in _POSTHOC if k in sc.stats}
    for name, f in details.get("fields", {}).items():
        if is_entity_list(f.get("type", "")):
            for end in _STATS_ENDS:
                if (key := name + end) in sc.stats:
                    stats[key] = sc.stats[key]
    return new_score(stats, {}, sc.flags, details)


def summary_part(items: Sequence[Item], scores: Sequence[ItemScore]) -> SummaryPart:
    """The block's ``SummaryPart``."""
    return SummaryPart([it.id for it in items], [_slim(sc) for sc in scores])


def merge_summary_parts(
    parts: Sequence[SummaryPart], s: ExtractionSettings, *, embedding: str
) -> dict[str, Any]:
    """The run's summaries from its blocks' parts, in item order (``extraction_summaries`` of
    their documents)."""
    ids = [i for part in parts for i in part.ids]
    scores = [sc for part in parts for sc in part.scores]
    return extraction_summaries(ids, scores, s, embedding=embedding)


def extraction_summaries(
    ids: Sequence[str], scores: Sequence[ItemScore], s: ExtractionSettings, *, embedding: str
) -> dict[str, Any]:
    """The run's summaries: diagnostics, post-hoc sums, chunking and review counts."""
    schema_examples = [
        {"id": i, "errors": sc.details.get("schema_errors", [])[:5]}
        for i, sc in zip(ids, scores, strict=True)
        if "schema_invalid" in sc.flags
    ]
    return {
        "embedding_rescue": embedding,
        "error_decomposition": _error_decomposition(scores),
        "list_quality": _list_quality(scores, s),
        "regression": _regression(scores),
        "span_count": _span_drift(scores),
        "posthoc": _posthoc(scores, s),
        "n_needs_judge_review": sum(1 for sc in scores if "needs_judge_review" in sc.flags),
        "needs_judge_review_ids": [
            i for i, sc in zip(ids, scores, strict=True) if "needs_judge_review" in sc.flags
        ],
        "n_schema_invalid": len(schema_examples),
        "schema_invalid": schema_examples[:50],
        "n_chunked": sum(1 for sc in scores if sc.details.get("chunked")),
        "n_chunks_skipped": sum(len(sc.details.get("chunks_skipped", [])) for sc in scores),
        "n_doc_verified": sum(1 for sc in scores if sc.details.get("doc_verification")),
        "n_documents": len(scores),
    }
