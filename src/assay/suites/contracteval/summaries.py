"""ContractEval's run summaries: the confusion counts, pooled and per category, the laziness
counts and, for rows answered by the mapping scorer (``--mapping-from``), the coverage bands
with the mapping's caveat (:mod:`._lib.mapping`)."""

from __future__ import annotations

from collections import Counter
from collections.abc import Sequence
from typing import Any

from assay._engine.task import ItemScore
from assay.suites.contracteval._lib.mapping import DEFAULT_BANDS, STRUCTURAL_PRECISION_CAVEAT
from assay.suites.contracteval.scorer import OUTCOMES


def summaries(scores: Sequence[ItemScore]) -> dict[str, Any]:
    """``confusion`` (TP/FN/TN/FP), ``per_category`` counts, ``n_pairs``, ``n_positive``,
    ``n_no_related``, ``n_error_rows``, ``n_no_output``; ``coverage_bands`` and ``caveat`` when
    positive rows carry a mapped best containment."""
    pooled = Counter(str(sc.details["outcome"]) for sc in scores)
    per_cat: dict[str, Counter[str]] = {}
    for sc in scores:
        per_cat.setdefault(str(sc.details["category"]), Counter())[str(sc.details["outcome"])] += 1
    mapped = [
        sc.details["best_containment"]
        for sc in scores
        if sc.details["positive"] and sc.details["best_containment"] is not None
    ]
    extra: dict[str, Any] = {}
    if mapped:
        extra["coverage_bands"] = {
            f"containment>={t}": sum(v >= t for v in mapped) / len(mapped) for t in DEFAULT_BANDS
        } | {"n_positive": len(mapped)}
        extra["caveat"] = STRUCTURAL_PRECISION_CAVEAT
    return {
        **extra,
        "confusion": {o.upper(): pooled.get(o, 0) for o in OUTCOMES},
        "per_category": {
            c: {o.upper(): n.get(o, 0) for o in OUTCOMES} for c, n in sorted(per_cat.items())
        },
        "n_pairs": len(scores),
        "n_positive": sum(1 for sc in scores if sc.details["positive"]),
        "n_no_related": sum(1 for sc in scores if sc.details["said_no_related"]),
        "n_error_rows": sum(1 for sc in scores if "error_row" in sc.flags),
        "n_no_output": sum(1 for sc in scores if "no_output" in sc.flags),
    }
