"""Aggregation: a StatsTable and its MetricSpecs become the run's metric entries with CIs.

With clustered units the CI is the cluster bootstrap: the percentile interval of θ* over
resamples of the table of cluster sums S_c = Σ_{i∈c} S_i (``assay.stats.units.collapse``),
widened about θ by c(m) = √(m/(m−1))·t_{m−1}/z for the m clusters (``few_units_factor``). Each
metric also reports its design effect, deff = Var(θ* over clusters) / Var(θ* over items), the
iid distribution drawn once with ``DEFF_RESAMPLES`` resamples (the cluster bootstrap itself is
over m ≪ N rows, so the pair costs little more than the iid run alone).
"""

from __future__ import annotations

from collections.abc import Sequence

import numpy as np

from assay._engine.run import MetricResult
from assay.metrics.kinds import FloatArray
from assay.metrics.spec import MetricSpec
from assay.metrics.table import StatsTable
from assay.stats.bootstrap import (
    Resampling,
    bootstrap_distributions,
    check_resampling,
    distributions_from_sums,
)
from assay.stats.intervals import percentile_interval
from assay.stats.quantiles import median, percentile
from assay.stats.units import (
    ITEMS,
    Units,
    design_effect,
    few_units_factor,
    resampling_table,
    widen,
)

#: iid resamples drawn to estimate each metric's design effect (its relative SE ≈ √(2/B) = 10%)
DEFF_RESAMPLES = 200


def _num(value: float) -> float | None:
    return float(value) if np.isfinite(value) else None


def metric_support(table: StatsTable, spec: MetricSpec) -> int:
    """n: items where a per-item mean is defined; otherwise every item of the table."""
    if spec.is_per_item_mean:
        return round(float(table.column(spec.columns[1]).sum()))
    return len(table)


def aggregate(
    table: StatsTable,
    specs: Sequence[MetricSpec],
    *,
    ci: bool = True,
    n_bootstrap: int = 1000,
    seed: int = 12345,
    alpha: float = 0.05,
    resampling: Resampling = "multinomial",
    replicate_sums: tuple[Sequence[str], FloatArray] | None = None,
    units: Units = ITEMS,
) -> dict[str, MetricResult]:
    """Point value ``finalize(S.sum(0))`` and, with ``ci``, the percentile bootstrap CI over
    ``units`` (items, or clusters: see the module docstring).

    ``replicate_sums`` = (columns, (B, K) sums) are Poisson replicate sums already reduced
    elsewhere (per partition on a cluster, then added; keyed by the cluster labels when
    ``units`` are clusters); they replace the local bootstrap.
    """
    check_resampling(resampling)
    clustered = units.labels is not None
    sample = resampling_table(table, units)
    dists: dict[str, FloatArray] = {}
    iid: dict[str, FloatArray] = {}
    if ci and len(table) > 0 and specs:
        dists = _distributions(sample, specs, n_bootstrap, seed, resampling, replicate_sums)
        if clustered:
            iid = bootstrap_distributions(
                table,
                specs,
                n_resamples=min(n_bootstrap, DEFF_RESAMPLES),
                seed=seed,
                resampling=resampling,
            )
    method = "percentile_bootstrap" if resampling == "multinomial" else "poisson_bootstrap"
    ci_method = f"cluster_{method}" if clustered else method
    factor = few_units_factor(len(sample), alpha) if clustered else 1.0
    out: dict[str, MetricResult] = {}
    for spec in specs:
        value = spec.value(table) if len(table) else float("nan")
        lo = hi = deff = None
        used = None
        if spec.name in dists and np.isfinite(value):
            interval = percentile_interval(dists[spec.name], alpha)
            lo, hi = widen(interval.lower, interval.upper, float(value), factor)
            used = ci_method
            if spec.name in iid:
                deff = design_effect(dists[spec.name], iid[spec.name])
        out[spec.name] = MetricResult(
            name=spec.name,
            value=_num(value),
            ci_lower=lo,
            ci_upper=hi,
            ci_method=used,
            n=metric_support(table, spec),
            tier=spec.tier,
            higher_is_better=spec.higher_is_better,
            kind=spec.kind,
            description=spec.description,
            design_effect=None if deff is None else round(deff, 6),
            n_units=len(sample) if clustered else None,
            unit=units.by,
            **_spread(table, spec),
        )
    return out


def _distributions(
    table: StatsTable,
    specs: Sequence[MetricSpec],
    n_bootstrap: int,
    seed: int,
    resampling: Resampling,
    replicate_sums: tuple[Sequence[str], FloatArray] | None,
) -> dict[str, FloatArray]:
    """Each spec's bootstrap distribution: ``finalize`` of the replicate sums reduced
    elsewhere when given, else of this table's resamples."""
    if replicate_sums is not None:
        return distributions_from_sums(replicate_sums[1], replicate_sums[0], specs)
    return bootstrap_distributions(
        table, specs, n_resamples=n_bootstrap, seed=seed, resampling=resampling
    )


def _spread(table: StatsTable, spec: MetricSpec) -> dict[str, float | None]:
    """For a per-item mean, the spread of its defined per-item values (mean, 10th
    percentile, median, min, max); nothing for other metrics or an empty table."""
    if not (spec.is_per_item_mean and len(table)):
        return {}
    values = table.column(spec.columns[0])[table.column(spec.columns[1]) > 0]
    if not values.size:
        return {}
    return {
        "mean": float(values.mean()),
        "p10": percentile(values, 10),
        "median": median(values),
        "min": float(values.min()),
        "max": float(values.max()),
    }
