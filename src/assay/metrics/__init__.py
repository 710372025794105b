"""Sufficient-statistics metrics: the table of per-item statistics and the specs over it, and
plain metric functions with a CI (``accuracy(y_true, y_pred)``, ``f1``, ``corpus_bleu`` …)."""

from assay.metrics.functions import (
    Estimate,
    accuracy,
    corpus_bleu,
    corpus_chrf,
    corpus_ter,
    f1,
    precision,
    recall,
)
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
    "Estimate",
    "MetricSpec",
    "StatsTable",
    "Tier",
    "accuracy",
    "corpus_bleu",
    "corpus_chrf",
    "corpus_ter",
    "f1",
    "fbeta_metric",
    "get_kind",
    "known_kinds",
    "macro_metric",
    "mean_columns",
    "mean_metric",
    "precision",
    "precision_metric",
    "ratio_metric",
    "recall",
    "recall_metric",
    "register_kind",
    "safe_divide",
]
