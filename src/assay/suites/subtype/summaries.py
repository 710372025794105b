"""The subtype suite's run summaries (seed 000 §15): the sorter's failure insights, the
per-subtype table and the confusion matrix."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from assay._engine.item import Item
from assay._engine.task import ItemScore
from assay._labels import SORTER_FAILURE_MODES, confusion, summarize_failures


def summaries(items: Sequence[Item], scores: Sequence[ItemScore]) -> dict[str, Any]:
    """failure_insights, per_subtype and the confusion matrix (unusable rows as
    ``<none>``)."""
    rows = [{"id": it.id, **sc.details} for it, sc in zip(items, scores, strict=True)]
    per: dict[str, dict[str, Any]] = {}
    for r in rows:
        d = per.setdefault(str(r["expected"]), {"n": 0, "strict": 0, "equiv": 0})
        d["n"] += 1
        d["strict"] += int(r["predicted"] == r["expected"])
        d["equiv"] += int(r["predicted"] == r["expected"] or bool(r["equiv_recovered"]))
    for d in per.values():
        d["strict_accuracy"] = d["strict"] / d["n"]
        d["equiv_accuracy"] = d["equiv"] / d["n"]
    return {
        "failure_insights": summarize_failures(rows, modes=(*SORTER_FAILURE_MODES, "unusable")),
        "per_subtype": dict(sorted(per.items())),
        "confusion_matrix": confusion(
            [(str(r["expected"]), str(r["predicted"] or "<none>")) for r in rows]
        ),
    }
