"""Sufficient-statistics metrics: the table of per-item statistics and the specs over it, and
plain metric functions with a CI (``accuracy(y_true, y_pred)``, ``f1``, ``corpus_bleu`` …).

The names below load with their module on first use (:mod:`assay._lazy`): a scoring run reads
the table, the specs and the kinds, and does not import the plain metric functions.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from assay._lazy import lazy_exports

if TYPE_CHECKING:
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
    from assay.metrics.kinds import (
        Kind,
        get_kind,
        kind_info,
        known_kinds,
        register_kind,
        safe_divide,
    )
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

_MODULES = {
    "assay.metrics.functions": (
        "Estimate",
        "accuracy",
        "corpus_bleu",
        "corpus_chrf",
        "corpus_ter",
        "f1",
        "precision",
        "recall",
    ),
    "assay.metrics.kinds": (
        "Kind",
        "get_kind",
        "kind_info",
        "known_kinds",
        "register_kind",
        "safe_divide",
    ),
    "assay.metrics.spec": (
        "TIERS",
        "MetricSpec",
        "Tier",
        "fbeta_metric",
        "macro_metric",
        "mean_columns",
        "mean_metric",
        "precision_metric",
        "ratio_metric",
        "recall_metric",
    ),
    "assay.metrics.table": ("StatsTable",),
}
lazy_exports(__name__, {name: module for module, names in _MODULES.items() for name in names})

__all__ = [
    "TIERS",
    "Estimate",
    "Kind",
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
    "kind_info",
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
