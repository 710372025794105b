"""The run's metrics (seed 000 §2), each a MetricSpec over the columns ``scorer.score_item``
writes:

==================  =========================================================================
``exact_match``     mean of ``exact_match`` over every item (headline)
``failure``         mean of ``failure`` (lower is better)
``macro_accuracy``  unweighted mean over the gold classes of per-class accuracy, every item
                    in its class's denominator (failed, error, missing rows are misses)
                    (headline)
``accuracy[c]``     Σ ``correct[c]`` / Σ ``count[c]`` for each gold class ``c`` (diagnostic)
``macro_accuracy_`` seed 000 §2's figure, per-class accuracy with failed rows excluded
``usable``          (Σ ``correct[c]`` / Σ ``usable[c]``), averaged (diagnostic)
``precision``,      with a positive class: tp / (tp + fp), tp / (tp + fn) and their F1
``recall``, ``f1``  (headline)
==================  =========================================================================
"""

from __future__ import annotations

from collections.abc import Sequence

from assay._engine.task import ItemScore, stats_columns
from assay.metrics.spec import (
    MetricSpec,
    fbeta_metric,
    macro_metric,
    mean_metric,
    precision_metric,
    ratio_metric,
    recall_metric,
)
from assay.suites.classification.settings import ClassificationSettings


def gold_classes(scores: Sequence[ItemScore]) -> list[str]:
    """The gold classes seen: every item has the column ``count[its gold class]``
    (``stats_columns`` reads a spilled run's from its table, nothing per item)."""
    return sorted(c[6:-1] for c in stats_columns(scores) if c.startswith("count["))


def metric_specs(scores: Sequence[ItemScore], settings: ClassificationSettings) -> list[MetricSpec]:
    """exact_match, failure, macro and per-class accuracy, and binary P/R/F1 with a positive
    class."""
    classes = gold_classes(scores)
    specs = [
        mean_metric(
            "exact_match",
            "exact_match",
            tier="headline",
            description="share of items whose normalized label equals gold "
            "(failed, error and missing rows count as misses)",
        ),
        mean_metric(
            "failure",
            "failure",
            higher_is_better=False,
            description="share of rows whose output is an ERROR: sentinel or unparseable",
        ),
    ]
    if classes:
        specs.append(
            macro_metric(
                "macro_accuracy",
                [(f"correct[{c}]", f"count[{c}]") for c in classes],
                tier="headline",
                description="unweighted mean of per-class accuracy over the gold classes "
                "(failed, error and missing rows are misses)",
            )
        )
        specs.append(
            macro_metric(
                "macro_accuracy_usable",
                [(f"correct[{c}]", f"usable[{c}]") for c in classes],
                tier="diagnostic",
                description="seed 000 §2's figure: per-class accuracy with failed rows "
                "excluded, averaged (not the headline: the README keeps every row)",
            )
        )
    for c in classes:
        specs.append(
            ratio_metric(
                f"accuracy[{c}]",
                f"correct[{c}]",
                f"count[{c}]",
                tier="diagnostic",
                description=f"accuracy on items whose gold label is {c} (failed rows are misses)",
            )
        )
    if settings.positive is not None:
        specs += [
            precision_metric("precision", "tp", "fp", description="binary precision"),
            recall_metric("recall", "tp", "fn", description="binary recall"),
            fbeta_metric("f1", "tp", "fp", "fn", tier="headline", description="binary F1"),
        ]
    return specs
