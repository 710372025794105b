"""Seed 003's corpus metrics: each per-paper measure of ``scorer.py`` as a mean over the scored
papers (its run entry also carries the median, p10, min and max) and as a micro ratio over the
pooled claim counts, both with a bootstrap CI over papers; ``failure`` (the share of papers not
scored) and the match detail beside them.
"""

from __future__ import annotations

from assay.metrics.spec import MetricSpec, mean_metric, ratio_metric


def claims_metric_specs() -> list[MetricSpec]:
    """Per-paper means (headline), micro ratios and failures (core), match detail (diagnostic)."""
    return [
        mean_metric(
            "recovery",
            "recovery",
            tier="headline",
            description="mean over the scored papers of (# reference claims matched exact or "
            "partial) / (# reference claims); failed and missing papers are left out (counted "
            "by failure)",
        ),
        mean_metric(
            "role_agreement",
            "role_agreement",
            tier="headline",
            description="mean over papers of (# matched claims with role_match true) / "
            "(# matched claims)",
        ),
        mean_metric(
            "panel_agreement",
            "panel_agreement",
            tier="headline",
            description="mean over papers of (# matched claims with panel_match true) / "
            "(# matched claims)",
        ),
        ratio_metric(
            "recovery_micro",
            "recovered",
            "n_reference",
            description="Σ matched reference claims / Σ reference claims over papers",
        ),
        ratio_metric(
            "role_agreement_micro",
            "role_agree",
            "role_den",
            description="Σ matched claims with role_match true / Σ matched claims",
        ),
        ratio_metric(
            "panel_agreement_micro",
            "panel_agree",
            "panel_den",
            description="Σ matched claims with panel_match true / Σ matched claims",
        ),
        mean_metric(
            "failure",
            "failure",
            higher_is_better=False,
            description="share of papers not scored: extracted claims missing, unreadable or "
            "not matched (left out of the other metrics)",
        ),
        ratio_metric(
            "exact_rate",
            "exact",
            "n_reference",
            tier="diagnostic",
            description="Σ exact matches / Σ reference claims (high: the extraction's grain "
            "matches the curator's)",
        ),
        ratio_metric(
            "partial_rate",
            "partial",
            "n_reference",
            tier="diagnostic",
            description="Σ partial matches / Σ reference claims (high: over-decomposition)",
        ),
        ratio_metric(
            "unmatched_extracted_rate",
            "unmatched_extracted",
            "n_extracted",
            tier="diagnostic",
            higher_is_better=False,
            description="Σ extracted claims matched to no reference claim / Σ extracted claims",
        ),
        ratio_metric(
            "extracted_per_reference",
            "n_extracted",
            "n_reference",
            tier="diagnostic",
            higher_is_better=False,
            description="Σ extracted claims / Σ reference claims (over-extraction)",
        ),
    ]
