"""Per-item statistics, metric specs and summaries shared by the label-classification kinds
(LegalBench, multiclass, court opinions, MAUD questions).

Every row stays in every denominator, as the README promises: exact match over every row, and
per-class accuracy ``correct[c] / count[c]`` over every row whose gold is ``c`` (a failed,
error, blank or missing row is a miss). Seed 000 §2's figure, per-class accuracy with failed
rows excluded, is kept as the diagnostic ``macro_accuracy_usable`` (``usable[c]``). LegalBench's
official figure, balanced accuracy after its own normalization, has its own columns
(``legalbench_correct[k]`` / ``legalbench_count[k]``, ``k`` the official key of the gold)."""

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

#: what the per-class table shows as the answer of a row without a usable one
NO_ANSWER = "<none>"


def label_stats(
    expected: str,
    predicted: str | None,
    *,
    positive: str | None,
    official: tuple[str, str] | None = None,
) -> dict[str, float]:
    """exact_match / failure columns; ``correct[c]`` / ``count[c]`` (every row) and
    ``usable[c]`` (rows with a usable answer) for the gold class ``c``; with a positive class,
    tp / fp / fn (an unusable row, ``predicted`` None, is a miss); with ``official`` = (gold
    key, answer key) under LegalBench's normalization, ``legalbench_correct[k]`` and
    ``legalbench_count[k]`` for the gold key ``k`` (every row)."""
    correct = predicted is not None and predicted == expected
    stats = {
        **mean_columns("exact_match", float(correct)),
        **mean_columns("failure", float(predicted is None)),
        f"correct[{expected}]": float(correct),
        f"count[{expected}]": 1.0,
        f"usable[{expected}]": float(predicted is not None),
    }
    if positive is not None:
        gold_pos, pred_pos = expected == positive, predicted == positive
        stats["tp"] = float(gold_pos and pred_pos)
        stats["fp"] = float(pred_pos and not gold_pos)
        stats["fn"] = float(gold_pos and not pred_pos)
    if official is not None:
        gold_key, answer_key = official
        stats[f"legalbench_correct[{gold_key}]"] = float(answer_key == gold_key)
        stats[f"legalbench_count[{gold_key}]"] = 1.0
    return stats


def label_specs(
    classes: Sequence[str],
    *,
    positive: str | None,
    official_classes: Sequence[str] = (),
) -> list[MetricSpec]:
    """exact_match, failure, macro and per-class accuracy (every row in its class's
    denominator), the seed's macro over usable rows (diagnostic) and, with a positive class,
    binary precision / recall / F1.

    With ``official_classes`` (LegalBench's gold keys), ``balanced_accuracy``, LegalBench's
    official figure, is the headline and exact_match and F1 are core; else exact_match (and F1)
    are."""
    official = bool(official_classes)
    specs: list[MetricSpec] = []
    if official:
        specs.append(
            macro_metric(
                "balanced_accuracy",
                [(f"legalbench_correct[{k}]", f"legalbench_count[{k}]") for k in official_classes],
                tier="headline",
                description="LegalBench's official figure: balanced accuracy (mean recall over "
                "the gold classes) after its normalize() — str, ASCII punctuation deleted, "
                "strip, lower; missing and failed rows are misses",
            )
        )
    specs += [
        mean_metric(
            "exact_match",
            "exact_match",
            tier="core" if official else "headline",
            description="share of rows whose normalized answer equals gold (= micro accuracy; "
            "failed, error, blank and missing rows count as misses)",
        ),
        mean_metric(
            "failure",
            "failure",
            higher_is_better=False,
            description="share of rows with no usable answer (ERROR:, blank, unreadable, missing)",
        ),
    ]
    if classes:
        specs += [
            macro_metric(
                "macro_accuracy",
                [(f"correct[{c}]", f"count[{c}]") for c in classes],
                description="unweighted mean of per-class accuracy"
                + (" after assay's answer normalization" if official else "")
                + " (failed, error, blank and missing rows are misses)",
            ),
            macro_metric(
                "macro_accuracy_usable",
                [(f"correct[{c}]", f"usable[{c}]") for c in classes],
                tier="diagnostic",
                description="seed 000 §2's figure: per-class accuracy with failed rows "
                "excluded, averaged (not the headline: the README keeps every row)",
            ),
        ]
    specs += [
        ratio_metric(
            f"accuracy[{c}]",
            f"correct[{c}]",
            f"count[{c}]",
            tier="diagnostic",
            description=f"accuracy on rows whose gold is {c} (unusable rows are misses)",
        )
        for c in classes
    ]
    if positive is not None:
        specs += [
            precision_metric(
                "precision", "tp", "fp", description=f"precision, {positive} positive"
            ),
            recall_metric("recall", "tp", "fn", description=f"recall, {positive} positive"),
            fbeta_metric(
                "f1",
                "tp",
                "fp",
                "fn",
                tier="core" if official else "headline",
                description="binary F1",
            ),
        ]
    return specs


def label_metric_specs(scores: Sequence[ItemScore], *, positive: str | None) -> list[MetricSpec]:
    """:func:`label_specs` over the gold classes the scored rows hold (and their LegalBench
    keys, when the rows carry them)."""
    classes = sorted({str(sc.details["expected"]) for sc in scores})
    official = sorted(
        {
            str(sc.details["legalbench_expected"])
            for sc in scores
            if "legalbench_expected" in sc.details
        }
    )
    return label_specs(classes, positive=positive, official_classes=official)


def label_summaries(scores: Sequence[ItemScore], *, top_k: int = 5) -> dict[str, Any]:
    """Confusion and top confusions over rows with a usable answer; the per-class table over
    every row (an unusable answer is a miss, shown as ``<none>``); failure counts."""
    every = [
        (
            str(sc.details["expected"]),
            NO_ANSWER if sc.details.get("predicted") is None else str(sc.details["predicted"]),
        )
        for sc in scores
    ]
    pairs = [
        (str(sc.details["expected"]), str(sc.details["predicted"]))
        for sc in scores
        if sc.details.get("predicted") is not None
    ]
    return {
        "confusion": confusion(pairs),
        "top_confusions": top_confusions(pairs, top_k),
        "per_class": per_class(every),
        "n_error_rows": sum(1 for sc in scores if "error_row" in sc.flags),
        "n_blank": sum(1 for sc in scores if "blank" in sc.flags),
        "n_invalid_label": sum(1 for sc in scores if "invalid_label" in sc.flags),
        "n_unusable": sum(1 for sc in scores if sc.details.get("predicted") is None),
    }
