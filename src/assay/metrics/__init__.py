"""Sufficient-statistics metrics: the table of per-item statistics and the specs over it."""

from assay.metrics.kinds import get_kind, known_kinds, register_kind, safe_divide
from assay.metrics.spec import (
    TIERS,
    MetricSpec,
    Tier,
    fbeta_metric,
    macro_metric,
    mean_columns,
    mean_metric,
    precision_metric,
    ratio_metric,
    recall_metric,
)
from assay.metrics.table import StatsTable

__all__ = [
    "TIERS",
    "MetricSpec",
    "StatsTable",
    "Tier",
    "fbeta_metric",
    "get_kind",
    "known_kinds",
    "macro_metric",
    "mean_columns",
    "mean_metric",
    "precision_metric",
    "ratio_metric",
    "recall_metric",
    "register_kind",
    "safe_divide",
]
