"""The resampling units of a comparison: the clusters both runs declare, on their shared ids.

Two runs are compared over the same units or not at all: a run whose CIs resample contracts
and one that resamples items (or documents) were scored under different assumptions about
what was sampled, and a paired test must pick one. So the runs' cluster settings must agree
(the same ``units.by``, or neither clustered), and on every shared id both runs must name the
same cluster; otherwise the comparison is refused with a UsageError naming both runs, and the
remedy (rescore one with the other's ``--cluster-by``). The units returned are then the labels
of the shared ids, in the order the paired test's tables are taken.
"""

from __future__ import annotations

from collections.abc import Sequence

from assay._engine.run import Run
from assay.errors import UsageError
from assay.stats.units import ITEMS, Units

__all__ = ["describe_units", "shared_units"]


def describe_units(units: Units) -> str:
    """``clusters by 'contract'`` or ``items``: a run's units, for messages."""
    return f"clusters by {units.by!r}" if units.clustered else "items (no clusters)"


def shared_units(run_a: Run, run_b: Run, shared: Sequence[str]) -> Units:
    """The units of the paired test of ``run_a`` and ``run_b`` on the ``shared`` ids (see the
    module docstring); ITEMS when neither run declares clusters."""
    units_a, units_b = run_a.table_units(), run_b.table_units()
    if units_a.by != units_b.by:
        raise UsageError(
            f"runs differ in cluster settings: {_named(run_a)} resamples "
            f"{describe_units(units_a)}, {_named(run_b)} resamples {describe_units(units_b)}; "
            "rescore one with the other's --cluster-by (or --cluster-by item) to compare them"
        )
    if units_a.labels is None or units_b.labels is None:
        return ITEMS
    of_a = dict(zip(run_a.stats["ids"], units_a.labels, strict=True))
    of_b = dict(zip(run_b.stats["ids"], units_b.labels, strict=True))
    differ = [i for i in shared if of_a[i] != of_b[i]]
    if differ:
        first = differ[0]
        raise UsageError(
            f"runs differ in cluster settings: {len(differ)} shared id(s) are in different "
            f"{units_a.by!r} clusters, e.g. {first!r} is in {of_a[first]!r} in {_named(run_a)} "
            f"and in {of_b[first]!r} in {_named(run_b)}"
        )
    return Units(units_a.by, tuple(of_a[i] for i in shared))


def _named(run: Run) -> str:
    return f"{run.name} (run {run.run_id})"
