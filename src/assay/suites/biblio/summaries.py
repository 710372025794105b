"""The biblio run's summaries (seed 002), from the papers' rows.

Metadata mode: ``pass_rate`` with its exact denominator (missing, failed and abstained papers
fail), the legacy survivors-only ``pass_rate_excl_abstained`` with its own, the abstentions
(rate, count, ids and fields), the dialects read, and how many gold references hold each field
the reference metrics check. Sections mode: the drop report (gold sections recalled below the
drop threshold) and the recall per section type.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from assay._engine.item import Item
from assay._engine.task import ItemScore
from assay.suites.biblio.metrics import METRICS, METRICS_VERSION, MICRO
from assay.suites.biblio.settings import BiblioSettings


def biblio_summaries(
    items: Sequence[Item], scores: Sequence[ItemScore], settings: BiblioSettings
) -> dict[str, Any]:
    """The run's summaries for its mode."""
    if settings.mode == "sections":
        return section_summaries(items, scores)
    return metadata_summaries(items, scores)


def _rate(values: list[float]) -> float | None:
    return sum(values) / len(values) if values else None


def metadata_summaries(items: Sequence[Item], scores: Sequence[ItemScore]) -> dict[str, Any]:
    """pass_rate (+ its n), the survivors-only rate, abstentions, reference field coverage."""
    passes = [float(sc.scores.get("pass") or 0.0) for sc in scores]
    evaluated = [(it, sc) for it, sc in zip(items, scores, strict=True) if it.status == "ok"]
    survivors = [float(sc.scores.get("pass") or 0.0) for _, sc in evaluated if not sc.abstained]
    abstained = [it.id for it, sc in evaluated if sc.abstained]
    coverage: dict[str, dict[str, Any]] = {}
    total_gold = sum(int(sc.details["ref_counts"]["gold"]) for _, sc in evaluated)
    for name in MICRO:
        with_field = sum(
            int(sc.details["ref_counts"]["fields"][name]["with_field"]) for _, sc in evaluated
        )
        coverage[name] = {
            "gold_refs_with_field": with_field,
            "gold_refs": total_gold,
            "field_coverage": with_field / total_gold if total_gold else None,
        }
    dialects: dict[str, dict[str, int]] = {}
    for _, sc in evaluated:
        for side in ("dialect", "gold_dialect"):
            kind = "predictions" if side == "dialect" else "gold"
            name = str(sc.details.get(side))
            dialects.setdefault(kind, {})[name] = dialects.get(kind, {}).get(name, 0) + 1
    return {
        "metrics_version": METRICS_VERSION,
        "tiers": {m: tier for m, (tier, _) in METRICS.items()},
        "dialects": {k: dict(sorted(v.items())) for k, v in sorted(dialects.items())},
        "pass_rate": _rate(passes),
        "pass_rate_n": len(passes),
        "pass_rate_excl_abstained": _rate(survivors),
        "pass_rate_excl_abstained_n": len(survivors),
        "abstention_rate": len(abstained) / len(evaluated) if evaluated else None,
        "n_abstained": len(abstained),
        "abstained_ids": abstained,
        "abstained_fields": {
            it.id: sc.details["abstained_fields"] for it, sc in evaluated if sc.abstained
        },
        "reference_coverage": coverage,
    }


def section_summaries(items: Sequence[Item], scores: Sequence[ItemScore]) -> dict[str, Any]:
    """The drop report (gold sections recalled below the threshold) and per-type totals."""
    drops = [
        {"id": it.id, "status": it.status, "sections": sc.details["dropped"]}
        for it, sc in zip(items, scores, strict=True)
        if sc.details["dropped"]
    ]
    per_type: dict[str, list[int]] = {}
    for sc in scores:
        for t, (ov, n) in sc.details["per_type"].items():
            acc = per_type.setdefault(t, [0, 0])
            acc[0] += int(ov)
            acc[1] += int(n)
    return {
        "metrics_version": METRICS_VERSION,
        "mode": "sections",
        "drop_report": drops,
        "n_dropped_sections": sum(len(d["sections"]) for d in drops),
        "per_type_recall": {
            t: {"recalled_tokens": ov, "gold_tokens": n, "recall": ov / n if n else None}
            for t, (ov, n) in sorted(per_type.items())
        },
    }
