"""Per-item statistics, metric specs and summaries shared by the label-classification kinds
(LegalBench, multiclass, court opinions, MAUD questions): exact match over every row (failed
and error rows count as misses), per-class accuracy and confusion over usable rows only."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from assay._engine.task import ItemScore
from assay._labels import confusion, per_class, top_confusions
from assay.metrics.spec import (
    MetricSpec,
    fbeta_metric,
    macro_metric,
    mean_columns,
    mean_metric,
    precision_metric,
    ratio_metric,
    recall_metric,
)


def label_stats(expected: str, predicted: str | None, *, positive: str | None) -> dict[str, float]:
    """exact_match / failure columns, correct[c] / count[c] for the gold class and, with a
    positive class, tp / fp / fn (an unusable row, ``predicted`` None, is a miss)."""
    correct = predicted is not None and predicted == expected
    stats = {
        **mean_columns("exact_match", float(correct)),
        **mean_columns("failure", float(predicted is None)),
        f"correct[{expected}]": float(correct),
        f"count[{expected}]": float(predicted is not None),
    }
    if positive is not None:
        gold_pos, pred_pos = expected == positive, predicted == positive
        stats["tp"] = float(gold_pos and pred_pos)
        stats["fp"] = float(pred_pos and not gold_pos)
        stats["fn"] = float(gold_pos and not pred_pos)
    return stats


def label_specs(classes: Sequence[str], *, positive: str | None) -> list[MetricSpec]:
    """exact_match (headline), failure, macro and micro accuracy, per-class accuracy and, with
    a positive class, binary precision / recall / F1."""
    specs = [
        mean_metric(
            "exact_match",
            "exact_match",
            tier="headline",
            description="share of rows whose normalized answer equals gold (= micro accuracy; "
            "failed, error and blank rows count as misses)",
        ),
        mean_metric(
            "failure",
            "failure",
            higher_is_better=False,
            description="share of rows with no usable answer (ERROR:, blank, unreadable, missing)",
        ),
    ]
    if classes:
        specs.append(
            macro_metric(
                "macro_accuracy",
                [(f"correct[{c}]", f"count[{c}]") for c in classes],
                description="unweighted mean of per-class accuracy (usable rows)",
            )
        )
    specs += [
        ratio_metric(
            f"accuracy[{c}]",
            f"correct[{c}]",
            f"count[{c}]",
            tier="diagnostic",
            description=f"accuracy on usable rows whose gold is {c}",
        )
        for c in classes
    ]
    if positive is not None:
        specs += [
            precision_metric(
                "precision", "tp", "fp", description=f"precision, {positive} positive"
            ),
            recall_metric("recall", "tp", "fn", description=f"recall, {positive} positive"),
            fbeta_metric("f1", "tp", "fp", "fn", tier="headline", description="binary F1"),
        ]
    return specs


def label_metric_specs(scores: Sequence[ItemScore], *, positive: str | None) -> list[MetricSpec]:
    """:func:`label_specs` over the gold classes the scored rows hold."""
    classes = sorted({str(sc.details["expected"]) for sc in scores})
    return label_specs(classes, positive=positive)


def label_summaries(scores: Sequence[ItemScore], *, top_k: int = 5) -> dict[str, Any]:
    """Confusion, top confusions and the per-class table over usable rows; failure counts."""
    pairs = [
        (str(sc.details["expected"]), str(sc.details["predicted"]))
        for sc in scores
        if sc.details.get("predicted") is not None
    ]
    return {
        "confusion": confusion(pairs),
        "top_confusions": top_confusions(pairs, top_k),
        "per_class": per_class(pairs),
        "n_error_rows": sum(1 for sc in scores if "error_row" in sc.flags),
        "n_blank": sum(1 for sc in scores if "blank" in sc.flags),
        "n_invalid_label": sum(1 for sc in scores if "invalid_label" in sc.flags),
        "n_unusable": sum(1 for sc in scores if sc.details.get("predicted") is None),
    }
