"""The extraction summaries by blocks (``BlockSummaries``): any split of the run into blocks
gives the summaries of the whole run, and a block's part keeps only what they read."""

from __future__ import annotations

import pickle
import statistics
from collections import defaultdict
from collections.abc import Sequence
from itertools import pairwise
from pathlib import Path
from typing import Any

from hypothesis import given, settings
from hypothesis import strategies as st

from assay._engine.cohort import build_cohort
from assay._engine.item import Item
from assay._engine.task import BlockSummaries, ItemScore, score_in_blocks
from assay._fields import is_entity_list
from assay._settings.loader import load_settings
from assay.suites.extraction._lib import diagnostics as D
from assay.suites.extraction._lib.diagnostics import (
    SummaryPart,
    extraction_summaries,
    merge_summary_parts,
)
from assay.suites.extraction.examples import write_demo
from assay.suites.extraction.settings import ExtractionSettings
from assay.suites.extraction.task import ExtractionTask

TASK = ExtractionTask()


def _scored(folder: Path) -> tuple[list[Item], list[ItemScore], ExtractionSettings]:
    write_demo(folder)
    section = load_settings(folder / "extraction.yaml").section("extraction")
    assert isinstance(section, ExtractionSettings)
    loaded = TASK.load(folder / "preds.jsonl", (folder / "gold.jsonl",), section)
    section = TASK.prepare(loaded, section)
    cohort = build_cohort(loaded.predictions, loaded.gold)
    items = list(cohort.items)
    return items, score_in_blocks(TASK, items, section), section


def test_extraction_summarizes_by_blocks(tmp_path: Path) -> None:
    assert isinstance(TASK, BlockSummaries)
    items, scores, section = _scored(tmp_path)
    assert len(items) >= 4

    @given(st.lists(st.integers(0, len(items)), max_size=4))
    @settings(max_examples=25, deadline=None)
    def any_split_gives_the_whole(cuts: list[int]) -> None:
        edges = [0, *sorted(cuts), len(items)]
        parts = [TASK.summarize_block(items[a:b], scores[a:b], section) for a, b in pairwise(edges)]
        whole = TASK.summaries(items, scores, section)
        assert TASK.merge_summaries(parts, section) == whole

    any_split_gives_the_whole()
    part = TASK.summarize_block(items, scores, section)
    assert isinstance(part, SummaryPart) and part.ids == [it.id for it in items]
    # no display values, reasons, audits or list items: a fraction of the scores
    assert len(pickle.dumps(part)) < len(pickle.dumps(scores)) / 4
    assert part.medians and part.list_counts and part.buckets


def test_summaries_match_their_definition(tmp_path: Path) -> None:
    """The parts' one-pass summaries equal the straightforward per-summary passes over the
    full scores (``_reference_summaries``), whatever the split and the post-hoc fields."""
    items, scores, section = _scored(tmp_path)
    names = sorted({n for sc in scores for n in sc.details.get("lists", {})})
    assert names

    @given(
        st.lists(st.integers(0, len(items)), max_size=4),
        st.one_of(st.none(), st.lists(st.sampled_from([*names, "other"]), max_size=3)),
    )
    @settings(max_examples=25, deadline=None)
    def same(cuts: list[int], posthoc: list[str] | None) -> None:
        s = section.model_copy(update={"posthoc_fields": posthoc})
        edges = [0, *sorted(cuts), len(items)]
        parts = [TASK.summarize_block(items[a:b], scores[a:b], s) for a, b in pairwise(edges)]
        ids = [it.id for it in items]
        expected = _reference_summaries(ids, scores, s, embedding="e")
        assert merge_summary_parts(parts, s, embedding="e") == expected
        assert extraction_summaries(ids, scores, s, embedding="e") == expected

    same()


# the summaries as first written: one pass over the full scores per summary


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
        "field_exact_rate": D._rate(total["exact"], n),
        "field_partial_rate": D._rate(total["partial"], n),
        "field_miss_rate": D._rate(total["miss"], n),
        "n_pairs": n,
        "error_decomposition": {},
        "field_presence_per_field": {k: D._mean(v) for k, v in sorted(presence.items())},
    }
    for name, counts in sorted(per.items()):
        m = sum(counts.values())
        out["error_decomposition"][name] = {
            "exact_rate": D._rate(counts["exact"], m),
            "partial_rate": D._rate(counts["partial"], m),
            "miss_rate": D._rate(counts["miss"], m),
            "n": m,
        }
    return out


def _list_quality(scores: Sequence[ItemScore], s: Any) -> dict[str, Any]:
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
        p, r = D._rate(t["tp"], t["tp"] + t["fp"]), D._rate(t["tp"], t["tp"] + t["fn"])
        fields[name] = {
            "entity_list_precision": D._mean(per[name]["precision"]),
            "entity_list_recall": D._mean(per[name]["recall"]),
            "entity_list_raw_f1": D._mean(per[name]["f1"]),
            "micro_precision": p,
            "micro_recall": r,
            "micro_f1": D._rate(2 * t["tp"], 2 * t["tp"] + t["fp"] + t["fn"]),
            "n_docs": len(per[name]["f1"]),
        }
    chosen = [n for n in per if s.posthoc_fields is None or n in s.posthoc_fields]
    total = {k: sum(sums[n][k] for n in chosen) for k in ("tp", "fp", "fn")}
    return {
        "fields": fields,
        "list_precision": D._mean([v for n in chosen for v in per[n]["precision"]]),
        "list_recall": D._mean([v for n in chosen for v in per[n]["recall"]]),
        "list_raw_f1": D._mean([v for n in chosen for v in per[n]["f1"]]),
        "list_micro_precision": D._rate(total["tp"], total["tp"] + total["fp"]),
        "list_micro_recall": D._rate(total["tp"], total["tp"] + total["fn"]),
        "list_micro_f1": D._rate(2 * total["tp"], 2 * total["tp"] + total["fp"] + total["fn"]),
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
        summary = D.regression_summary(pairs)
        out[f"{bucket}_mae_{unit}"] = summary["mae"]
        out[f"{bucket}_median_ae_{unit}"] = summary["median_ae"]
        out[f"{bucket}_n_pairs"] = summary["n_pairs"]
        if bucket != "money":
            out[f"{bucket}_r2"] = summary["r2"]
        fields: dict[str, list[dict[str, Any]]] = defaultdict(list)
        for p in pairs:
            fields[p["field"]].append(p)
        out[f"{bucket}_per_field"] = {k: D.regression_summary(v) for k, v in sorted(fields.items())}
    return out


def _span_drift(scores: Sequence[ItemScore]) -> dict[str, Any]:
    per: dict[str, list[int]] = defaultdict(list)
    for sc in scores:
        for name, f in sc.details.get("fields", {}).items():
            if is_entity_list(f.get("type", "")) and f.get("score") is not None:
                per[name].append(int(f["n_predicted"]) - int(f["n_expected"]))
    deltas = [d for v in per.values() for d in v]
    return {
        "span_count_mae": D._mean([abs(d) for d in deltas]),
        "span_count_signed_mean": D._mean([float(d) for d in deltas]),
        "span_count_n_docs": len({i for i, sc in enumerate(scores) if sc.details.get("lists")}),
        "span_count_n_pairs": len(deltas),
        "per_field": {
            k: {
                "mae": D._mean([abs(d) for d in v]),
                "signed_mean": D._mean([float(d) for d in v]),
                "n": len(v),
            }
            for k, v in sorted(per.items())
        },
    }


def _posthoc(scores: Sequence[ItemScore], s: Any) -> dict[str, Any]:
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
                words.extend(len(text.split()) for text in stored["predicted"])
        if words:
            medians.append(statistics.median(words))
    return {
        "item_count": int(sums["n_predicted"]),
        "matched_gt_spans": int(sums["matched_gt"]),
        "expected_spans": int(sums["n_expected"]),
        "alignment_precision": D._rate(sums["matched_gt"], sums["n_predicted"]),
        "verified_precision": D._rate(sums["true_items"], sums["n_predicted"]),
        "median_words_per_item": statistics.median(medians) if medians else None,
        "fields": "every list field" if s.posthoc_fields is None else list(s.posthoc_fields),
    }


def _reference_summaries(
    ids: Sequence[str], scores: Sequence[ItemScore], s: Any, *, embedding: str
) -> dict[str, Any]:
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
