"""Resampling statistics over StatsTables: bootstrap CIs, paired tests, Wilson intervals.

The names below load with their module on first use (:mod:`assay._lazy`): a scoring run's
bootstrap does not import the paired tests.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from assay._lazy import lazy_exports

if TYPE_CHECKING:
    from assay.stats.bootstrap import (
        DEFAULT_ALPHA,
        DEFAULT_N_BOOTSTRAP,
        DEFAULT_SEED,
        bootstrap_ci,
        bootstrap_ci_generic,
        bootstrap_distribution_generic,
        bootstrap_distributions,
        paired_bootstrap_deltas,
    )
    from assay.stats.intervals import Interval, percentile_interval, wilson_interval
    from assay.stats.mcnemar import mcnemar_exact
    from assay.stats.resampling import (
        bootstrap_index_chunks,
        bootstrap_weight_chunks,
        counts_from_indices,
        randomization_mask_chunks,
    )
    from assay.stats.result import SignificanceResult
    from assay.stats.significance import (
        DEFAULT_N_TRIALS,
        Method,
        PValueRule,
        approximate_randomization_test,
        paired_bootstrap_generic,
        paired_bootstrap_test,
        paired_test,
        randomization_p,
        randomization_statistics,
        sacrebleu_bootstrap_p,
        two_sided_sign_p,
    )

_MODULES = {
    "assay.stats.bootstrap": (
        "DEFAULT_ALPHA",
        "DEFAULT_N_BOOTSTRAP",
        "DEFAULT_SEED",
        "bootstrap_ci",
        "bootstrap_ci_generic",
        "bootstrap_distribution_generic",
        "bootstrap_distributions",
        "paired_bootstrap_deltas",
    ),
    "assay.stats.intervals": (
        "Interval",
        "percentile_interval",
        "wilson_interval",
    ),
    "assay.stats.mcnemar": ("mcnemar_exact",),
    "assay.stats.resampling": (
        "bootstrap_index_chunks",
        "bootstrap_weight_chunks",
        "counts_from_indices",
        "randomization_mask_chunks",
    ),
    "assay.stats.result": ("SignificanceResult",),
    "assay.stats.significance": (
        "DEFAULT_N_TRIALS",
        "Method",
        "PValueRule",
        "approximate_randomization_test",
        "paired_bootstrap_generic",
        "paired_bootstrap_test",
        "paired_test",
        "randomization_p",
        "randomization_statistics",
        "sacrebleu_bootstrap_p",
        "two_sided_sign_p",
    ),
}
lazy_exports(__name__, {name: module for module, names in _MODULES.items() for name in names})

__all__ = [
    "DEFAULT_ALPHA",
    "DEFAULT_N_BOOTSTRAP",
    "DEFAULT_N_TRIALS",
    "DEFAULT_SEED",
    "Interval",
    "Method",
    "PValueRule",
    "SignificanceResult",
    "approximate_randomization_test",
    "bootstrap_ci",
    "bootstrap_ci_generic",
    "bootstrap_distribution_generic",
    "bootstrap_distributions",
    "bootstrap_index_chunks",
    "bootstrap_weight_chunks",
    "counts_from_indices",
    "mcnemar_exact",
    "paired_bootstrap_deltas",
    "paired_bootstrap_generic",
    "paired_bootstrap_test",
    "paired_test",
    "percentile_interval",
    "randomization_mask_chunks",
    "randomization_p",
    "randomization_statistics",
    "sacrebleu_bootstrap_p",
    "two_sided_sign_p",
    "wilson_interval",
]
