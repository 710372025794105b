"""The subtype suite's metrics over the per-row columns of :mod:`.scorer`:

- ``exact_match``: share of rows with doc_type == the expected doc_type (contract);
- ``subtype_accuracy``: share of rows whose normalized subtype equals the gold folder
  (headline);
- ``subtype_accuracy_equiv``: strict, or a listed defensible equivalent family (headline);
- ``confidence``: mean model-reported confidence (diagnostic);
- ``strict[s]``, ``equiv[s]``: strict / equiv accuracy on rows of gold subtype s (diagnostic).
"""

from __future__ import annotations

from collections.abc import Sequence

from assay._engine.task import ItemScore
from assay.metrics.spec import MetricSpec, mean_metric, ratio_metric


def metric_specs(scores: Sequence[ItemScore]) -> list[MetricSpec]:
    """The pooled metrics, then strict and equiv accuracy of every gold subtype seen."""
    specs = [
        mean_metric(
            "exact_match",
            "exact_match",
            description="share of rows with doc_type == the expected doc_type (contract)",
        ),
        mean_metric(
            "subtype_accuracy",
            "subtype_accuracy",
            tier="headline",
            description="share of rows whose subtype equals the gold folder",
        ),
        mean_metric(
            "subtype_accuracy_equiv",
            "subtype_accuracy_equiv",
            tier="headline",
            description="strict, or a listed defensible equivalent family",
        ),
        mean_metric(
            "confidence",
            "confidence",
            tier="diagnostic",
            description="mean model-reported confidence",
        ),
    ]
    for c in sorted({str(sc.details["expected"]) for sc in scores}):
        specs += [
            ratio_metric(
                f"strict[{c}]",
                f"strict[{c}]",
                f"count[{c}]",
                tier="diagnostic",
                description=f"strict subtype accuracy on {c} rows",
            ),
            ratio_metric(
                f"equiv[{c}]",
                f"equiv[{c}]",
                f"count[{c}]",
                tier="diagnostic",
                description=f"equiv subtype accuracy on {c} rows",
            ),
        ]
    return specs
