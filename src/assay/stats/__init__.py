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
    from assay.stats.family import adjust_family
    from assay.stats.intervals import Interval, bootstrap_se, percentile_interval, wilson_interval
    from assay.stats.mcnemar import mcnemar_exact
    from assay.stats.multiplicity import CONTROLS, CORRECTIONS, Correction, adjust_p_values
    from assay.stats.power import (
        PowerAnswer,
        minimum_detectable_effect,
        units_from_pilot,
        units_from_rate,
    )
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
        dispatched_test,
        paired_bootstrap_generic,
        paired_bootstrap_test,
        paired_test,
        randomization_p,
        randomization_statistics,
        sacrebleu_bootstrap_p,
        two_sided_sign_p,
    )
    from assay.stats.units import (
        ITEMS,
        Units,
        cluster_codes,
        collapse,
        design_effect,
        few_units_factor,
        resampling_table,
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
    "assay.stats.family": ("adjust_family",),
    "assay.stats.intervals": (
        "Interval",
        "bootstrap_se",
        "percentile_interval",
        "wilson_interval",
    ),
    "assay.stats.mcnemar": ("mcnemar_exact",),
    "assay.stats.multiplicity": ("CONTROLS", "CORRECTIONS", "Correction", "adjust_p_values"),
    "assay.stats.power": (
        "PowerAnswer",
        "minimum_detectable_effect",
        "units_from_pilot",
        "units_from_rate",
    ),
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
        "dispatched_test",
        "paired_bootstrap_generic",
        "paired_bootstrap_test",
        "paired_test",
        "randomization_p",
        "randomization_statistics",
        "sacrebleu_bootstrap_p",
        "two_sided_sign_p",
    ),
    "assay.stats.units": (
        "ITEMS",
        "Units",
        "cluster_codes",
        "collapse",
        "design_effect",
        "few_units_factor",
        "resampling_table",
    ),
}
lazy_exports(__name__, {name: module for module, names in _MODULES.items() for name in names})

__all__ = [
    "CONTROLS",
    "CORRECTIONS",
    "DEFAULT_ALPHA",
    "DEFAULT_N_BOOTSTRAP",
    "DEFAULT_N_TRIALS",
    "DEFAULT_SEED",
    "ITEMS",
    "Correction",
    "Interval",
    "Method",
    "PValueRule",
    "PowerAnswer",
    "SignificanceResult",
    "Units",
    "adjust_family",
    "adjust_p_values",
    "approximate_randomization_test",
    "bootstrap_ci",
    "bootstrap_ci_generic",
    "bootstrap_distribution_generic",
    "bootstrap_distributions",
    "bootstrap_index_chunks",
    "bootstrap_se",
    "bootstrap_weight_chunks",
    "cluster_codes",
    "collapse",
    "counts_from_indices",
    "design_effect",
    "dispatched_test",
    "few_units_factor",
    "mcnemar_exact",
    "minimum_detectable_effect",
    "paired_bootstrap_deltas",
    "paired_bootstrap_generic",
    "paired_bootstrap_test",
    "paired_test",
    "percentile_interval",
    "randomization_mask_chunks",
    "randomization_p",
    "randomization_statistics",
    "resampling_table",
    "sacrebleu_bootstrap_p",
    "two_sided_sign_p",
    "units_from_pilot",
    "units_from_rate",
    "wilson_interval",
]
