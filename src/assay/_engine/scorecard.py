"""Aggregation: a StatsTable and its MetricSpecs become the run's metric entries with CIs."""

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
) -> dict[str, MetricResult]:
    """Point value ``finalize(S.sum(0))`` and, with ``ci``, the percentile bootstrap CI.

    ``replicate_sums`` = (columns, (B, K) sums) are Poisson replicate sums already reduced
    elsewhere (per partition on a cluster, then added); they replace the local bootstrap.
    """
    check_resampling(resampling)
    dists: dict[str, FloatArray] = {}
    if ci and len(table) > 0 and specs:
        dists = _distributions(table, specs, n_bootstrap, seed, resampling, replicate_sums)
    ci_method = "percentile_bootstrap" if resampling == "multinomial" else "poisson_bootstrap"
    out: dict[str, MetricResult] = {}
    for spec in specs:
        value = spec.value(table) if len(table) else float("nan")
        lo = hi = None
        method = None
        if spec.name in dists and np.isfinite(value):
            interval = percentile_interval(dists[spec.name], alpha)
            lo, hi, method = interval.lower, interval.upper, ci_method
        out[spec.name] = MetricResult(
            name=spec.name,
            value=_num(value),
            ci_lower=lo,
            ci_upper=hi,
            ci_method=method,
            n=metric_support(table, spec),
            tier=spec.tier,
            higher_is_better=spec.higher_is_better,
            kind=spec.kind,
            description=spec.description,
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
