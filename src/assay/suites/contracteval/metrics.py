"""ContractEval's metrics over the per-pair columns of :mod:`.scorer`:

- ``accuracy``: (TP + TN) / pairs;
- ``precision``, ``recall``: TP / (TP + FP), TP / (TP + FN);
- ``f1``, ``f2``: 2TP / (2TP + FP + FN), 5TP / (5TP + 4FN + FP);
- ``jaccard``: mean token-set Jaccard over positive pairs;
- ``no_related_rate``: pairs answered "no related clause" / all pairs;
- ``false_no_related_rate``: positive pairs answered "no related clause" / this run's positives;
- ``false_no_related_rate_paper``: the same count / the paper's fixed 1,244 positives;
- ``accuracy[cat]`` … ``f2[cat]``: the first five per category (diagnostic).

The paper's fixed denominator is the ``fixed_denominator`` kind, registered by
:mod:`assay._legal.contracteval` (the dispatcher computes the same figure), not here.
"""

from __future__ import annotations

from collections.abc import Sequence

from assay._engine.task import ItemScore
from assay.metrics.spec import (
    MetricSpec,
    Tier,
    fbeta_metric,
    mean_metric,
    precision_metric,
    ratio_metric,
    recall_metric,
)
from assay.suites.contracteval.settings import ContractEvalSettings


def confusion_specs(suffix: str = "", *, per_category: bool = False) -> list[MetricSpec]:
    """accuracy / precision / recall / F1 / F2 over the columns ``tp{suffix}``, ``fp{suffix}``..."""
    s = suffix
    core: Tier = "diagnostic" if per_category else "core"
    head: Tier = "diagnostic" if per_category else "headline"
    return [
        ratio_metric(
            f"accuracy{s}",
            f"correct{s}",
            f"pairs{s}",
            tier=core,
            description="(TP + TN) / all pairs",
        ),
        precision_metric(
            f"precision{s}", f"tp{s}", f"fp{s}", tier=core, description="TP / (TP + FP)"
        ),
        recall_metric(f"recall{s}", f"tp{s}", f"fn{s}", tier=core, description="TP / (TP + FN)"),
        fbeta_metric(
            f"f1{s}",
            f"tp{s}",
            f"fp{s}",
            f"fn{s}",
            beta=1.0,
            tier=head,
            description="2PR / (P + R) = 2TP / (2TP + FP + FN)",
        ),
        fbeta_metric(
            f"f2{s}",
            f"tp{s}",
            f"fp{s}",
            f"fn{s}",
            beta=2.0,
            tier=head,
            description="5PR / (4P + R) = 5TP / (5TP + 4FN + FP)",
        ),
    ]


def metric_specs(scores: Sequence[ItemScore], settings: ContractEvalSettings) -> list[MetricSpec]:
    """The pooled confusion metrics, Jaccard and the laziness rates, then (``per_category``)
    the confusion metrics of every category seen."""
    specs = confusion_specs()
    specs += [
        mean_metric(
            "jaccard",
            "jaccard",
            tier="headline",
            description="mean token-set Jaccard over positive pairs (spans joined by a space)",
        ),
        ratio_metric(
            "no_related_rate",
            "said_no_related",
            "pairs",
            higher_is_better=False,
            description='share of all pairs answered "no related clause"',
        ),
        ratio_metric(
            "false_no_related_rate",
            "false_no_related",
            "positive",
            tier="headline",
            higher_is_better=False,
            description='share of this run\'s positive pairs answered "no related clause"',
        ),
        MetricSpec(
            "false_no_related_rate_paper",
            "fixed_denominator",
            ("false_no_related",),
            params={"denominator": float(settings.paper_positives)},
            higher_is_better=False,
            description=f'false "no related clause" answers / {settings.paper_positives} '
            "(the paper's fixed positive count)",
        ),
    ]
    if settings.per_category:
        for cat in sorted({str(sc.details["category"]) for sc in scores}):
            specs += confusion_specs(f"[{cat}]", per_category=True)
    return specs
