"""Power from a pilot: the standard error of Δ a pilot gives, and what it implies.

``assay power`` reads one of three pilots and turns each metric's SE(Δ) over n₀ units into the
units a difference Δ needs (``assay.stats.power``):

* **two runs** (candidate, baseline) on shared items: SE(Δ) is the paired bootstrap's standard
  error of Δ = A − B (``paired_test(...).se``) over items, or over clusters when the runs (or
  ``--clusters FILE``) name them;
* **a comparison artifact** (``assay compare -o``): the SE and the units its tests recorded;
* **one run**: SE(θ) of each metric over its units, and for two systems like it whose
  per-unit results correlate by ρ, SE(Δ) = √(2(1 − ρ)) · SE(θ) (ρ = 0 by default: the
  conservative answer; two runs give the paired SE itself).
"""

from __future__ import annotations

import math
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Any

from assay._engine.run import Run
from assay.errors import InputError, UsageError
from assay.metrics.spec import MetricSpec
from assay.stats.power import PowerAnswer, units_from_pilot
from assay.stats.units import ITEMS, Units


@dataclass(frozen=True)
class PilotSE:
    """One metric of a pilot: SE(Δ) over ``n_units`` units called ``unit``; ``design_effect``
    when the units are clusters and it was measured."""

    metric: str
    se: float
    n_units: int
    unit: str
    basis: str
    design_effect: float | None = None


def run_units(run: Run, ids: Sequence[str], cluster_labels: Mapping[str, str] | None) -> Units:
    """The resampling units of ``ids`` (a subset of the run's items, in the order given): the
    ``--clusters`` map when given, else the run's own cluster setting when it has one, else
    items."""
    if cluster_labels is not None:
        return Units("cluster", tuple(cluster_labels[i] for i in ids))
    units = run.table_units()
    if units.labels is None or units.by is None:
        return ITEMS
    by_id = dict(zip(run.stats["ids"], units.labels, strict=True))
    return Units(units.by, tuple(by_id[i] for i in ids))


def chosen_specs(run: Run, metrics: Sequence[str]) -> list[MetricSpec]:
    """The specs of ``metrics`` (default: the run's headline metrics); an unknown name is a
    UsageError listing the run's metrics."""
    specs = {s.name: s for s in run.metric_specs()}
    if not metrics:
        names = [n for n, m in run.metrics.items() if m.tier == "headline" and n in specs]
        return [specs[n] for n in names] or list(specs.values())[:1]
    unknown = [m for m in metrics if m not in specs]
    if unknown:
        raise UsageError(
            f"{run.name}: no metric {', '.join(map(repr, unknown))}; it has {', '.join(specs)}"
        )
    return [specs[m] for m in metrics]


def pilot_from_run(
    run: Run,
    *,
    metrics: Sequence[str] = (),
    cluster_labels: Mapping[str, str] | None = None,
    correlation: float = 0.0,
    n_resamples: int = 1000,
    seed: int = 12345,
) -> list[PilotSE]:
    """SE(Δ) = √(2(1 − ρ)) · SE(θ) per metric, SE(θ) the bootstrap SE over the run's units."""
    import numpy as np

    from assay.stats.bootstrap import bootstrap_distributions
    from assay.stats.units import design_effect, resampling_table

    if not -1 < correlation < 1:
        raise UsageError(f"correlation must be in (-1, 1), got {correlation}")
    specs = chosen_specs(run, metrics)
    table = run.table()
    units = run_units(run, list(table.ids), cluster_labels)
    resampled = resampling_table(table, units)
    dists = bootstrap_distributions(resampled, specs, n_resamples=n_resamples, seed=seed)
    iid = (
        bootstrap_distributions(table, specs, n_resamples=n_resamples, seed=seed)
        if units.clustered
        else None
    )
    factor = math.sqrt(2 * (1 - correlation))
    out = []
    for spec in specs:
        finite = dists[spec.name][np.isfinite(dists[spec.name])]
        if finite.size < 2:
            raise InputError(f"{run.name}: {spec.name} is undefined on the resamples")
        out.append(
            PilotSE(
                metric=spec.name,
                se=factor * float(finite.std(ddof=1)),
                n_units=len(resampled),
                unit=units.name,
                basis=f"one run ({run.name}): SE(Δ) = √(2(1 − {correlation:g})) · SE",
                design_effect=design_effect(dists[spec.name], iid[spec.name])
                if iid is not None
                else None,
            )
        )
    return out


def pilot_from_pair(
    run_a: Run,
    run_b: Run,
    *,
    metrics: Sequence[str] = (),
    cluster_labels: Mapping[str, str] | None = None,
    n_resamples: int = 1000,
    seed: int = 12345,
) -> list[PilotSE]:
    """SE(Δ) of the paired test of A against B on their shared items (``paired_test``)."""
    from assay.stats.significance import paired_test

    if run_a.task != run_b.task:
        raise UsageError(
            f"{run_a.name} is {run_a.task!r} and {run_b.name} is {run_b.task!r}: "
            "a paired pilot needs two runs of one task"
        )
    in_b = set(run_b.stats["ids"])
    shared = [i for i in run_a.stats["ids"] if i in in_b]
    if len(shared) < 2:
        raise UsageError(f"{run_a.name} and {run_b.name} share {len(shared)} item(s)")
    specs = chosen_specs(run_a, metrics)
    units = run_units(run_a, shared, cluster_labels)
    results = paired_test(
        run_a.table().take(shared),
        run_b.table().take(shared),
        specs,
        method="bootstrap",
        n_resamples=n_resamples,
        seed=seed,
        units=units,
    )
    basis = f"paired bootstrap of {run_a.name} − {run_b.name}"
    return [_pilot(r.metric_name, r.se, r.n_units, r.unit, basis) for r in results]


def pilot_from_comparison(
    data: Mapping[str, Any], *, metrics: Sequence[str] = (), source: str = "comparison"
) -> list[PilotSE]:
    """The SE(Δ) and units a comparison artifact's paired tests recorded (one pair: its
    ``significance``; several: each pair's, the metric named ``pair: metric``)."""
    pairs: dict[str, Any] = {"": data} if "significance" in data else dict(data.get("pairs") or {})
    if not pairs:
        raise InputError(f"{source}: no paired tests recorded (compare with --significance)")
    out = []
    for key, pair in pairs.items():
        tiers = {m.get("name"): m.get("tier") for m in pair.get("metrics", [])}
        for sig in pair.get("significance", []):
            name = sig.get("metric_name")
            wanted = name in metrics if metrics else tiers.get(name, "headline") == "headline"
            if not wanted:
                continue
            label = f"{key}: {name}" if key else str(name)
            basis = f"comparison {source}"
            out.append(
                _pilot(label, sig.get("se"), sig.get("n_units") or 0, sig.get("unit"), basis)
            )
    if not out:
        raise UsageError(f"{source}: no recorded test of {', '.join(metrics) or 'a headline'}")
    return out


def _pilot(name: str, se: object, n_units: int, unit: object, basis: str) -> PilotSE:
    if not isinstance(se, int | float) or not math.isfinite(se):
        raise InputError(f"{name}: the pilot recorded no standard error of Δ")
    return PilotSE(name, float(se), int(n_units), str(unit or "item"), basis)


def answers(
    pilots: Sequence[PilotSE],
    deltas: Sequence[float],
    *,
    alpha: float = 0.05,
    power: float = 0.8,
) -> list[tuple[PilotSE, PowerAnswer]]:
    """Every pilot metric × every Δ: the units needed (``units_from_pilot``)."""
    return [
        (
            p,
            units_from_pilot(d, se=p.se, n_units=p.n_units, unit=p.unit, alpha=alpha, power=power),
        )
        for p in pilots
        for d in deltas
    ]
