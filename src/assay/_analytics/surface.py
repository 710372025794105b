"""The same-surface rule (seed 000 §10) and the helpers every run-reading analysis shares.

A delta is computed only between runs of one task on the same surface: equal dataset
fingerprint (sorted ids + gold digests), equal resampling seed and equal sample size.
"""

from __future__ import annotations

from collections.abc import Sequence

from assay._engine.run import Run
from assay.errors import UsageError
from assay.metrics.spec import MetricSpec


class SurfaceMismatch(UsageError):
    """Two runs are not on the same surface (or not of the same task): no delta is computed."""


def surface_mismatches(a: Run, b: Run) -> list[str]:
    """Every reason the two runs may not be compared; empty when they share a surface."""
    reasons = []
    if a.task != b.task:
        reasons.append(f"different tasks ({a.task!r} vs {b.task!r})")
    if a.surface.fingerprint != b.surface.fingerprint:
        reasons.append(
            f"different dataset fingerprints ({a.surface.fingerprint[:12]} vs "
            f"{b.surface.fingerprint[:12]})"
        )
    if a.surface.seed != b.surface.seed:
        reasons.append(f"different seeds ({a.surface.seed} vs {b.surface.seed})")
    if a.surface.n_items != b.surface.n_items:
        reasons.append(f"different sample sizes ({a.surface.n_items} vs {b.surface.n_items})")
    return reasons


def require_same_surface(a: Run, b: Run) -> None:
    """Raise SurfaceMismatch naming both runs and every reason they differ."""
    reasons = surface_mismatches(a, b)
    if reasons:
        raise SurfaceMismatch(
            f"refusing to compare {a.name!r} and {b.name!r}: not the same surface: "
            + "; ".join(reasons)
            + " (`assay compare` tests such runs on their shared ids, with a warning)"
        )


def headline_metric(run: Run, metric: str | None = None) -> str:
    """``metric`` when the run has it, else the run's first headline-tier metric."""
    if metric is not None:
        if metric not in run.metrics:
            known = ", ".join(run.metrics)
            raise UsageError(f"run {run.name!r} has no metric {metric!r} (it has: {known})")
        return metric
    for name, m in run.metrics.items():
        if m.tier == "headline":
            return name
    if not run.metrics:
        raise UsageError(f"run {run.name!r} has no metrics")
    return next(iter(run.metrics))


def shared_specs(runs: Sequence[Run]) -> list[MetricSpec]:
    """Specs of the first run defined identically, with their columns, in every run."""
    first, *rest = runs
    others = [{s.name: s for s in r.metric_specs()} for r in rest]
    columns = [set(r.stats["columns"]) for r in runs]
    out = []
    for spec in first.metric_specs():
        if not all(set(spec.columns) <= cols for cols in columns):
            continue
        if all(spec.name in o and spec.same_definition(o[spec.name]) for o in others):
            out.append(spec)
    return out
