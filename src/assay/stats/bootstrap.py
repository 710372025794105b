"""Bootstrap distributions of metrics: ``finalize(W @ S)`` for every resample chunk W.

The fast path serves every MetricSpec with one matrix product per chunk; the generic path
recomputes an arbitrary callable per resample (slow, labelled ``path="generic"``).
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import Literal, TypeVar

import numpy as np

from assay.errors import UsageError
from assay.metrics.kinds import FloatArray
from assay.metrics.spec import MetricSpec
from assay.metrics.table import StatsTable
from assay.stats.intervals import Interval, percentile_interval
from assay.stats.poisson import item_keys, poisson_replicate_sums
from assay.stats.resampling import (
    DEFAULT_CHUNK_BYTES,
    GATHER_CHUNK_BYTES,
    GATHER_MAX_COLUMNS,
    SumsMatrix,
    bootstrap_index_chunks,
    resampled_sums,
)

T = TypeVar("T")
#: "multinomial": B draws of N items with replacement (exactly N per resample, the default);
#: "poisson": independent Poisson(1) weights keyed by (seed, item id, replicate).
Resampling = Literal["multinomial", "poisson"]
RESAMPLINGS: tuple[str, ...] = ("multinomial", "poisson")

DEFAULT_N_BOOTSTRAP = 1000
DEFAULT_SEED = 12345
DEFAULT_ALPHA = 0.05


def spec_columns(specs: Sequence[MetricSpec]) -> tuple[list[str], list[list[int]]]:
    """The union of the specs' columns and, per spec, the positions of its columns in it."""
    union: dict[str, int] = {}
    for spec in specs:
        for column in spec.columns:
            union.setdefault(column, len(union))
    return list(union), [[union[c] for c in spec.columns] for spec in specs]


def check_resampling(resampling: str) -> Resampling:
    """``resampling`` if it names a scheme, else a UsageError listing the schemes."""
    if resampling == "multinomial":
        return "multinomial"
    if resampling == "poisson":
        return "poisson"
    raise UsageError(f"resampling must be 'multinomial' or 'poisson', not {resampling!r}")


def distributions_from_sums(
    sums: FloatArray, columns: Sequence[str], specs: Sequence[MetricSpec]
) -> dict[str, FloatArray]:
    """Each spec's resampled scores from (B, K) replicate sums over the named ``columns``."""
    index = {c: k for k, c in enumerate(columns)}
    missing = sorted({c for spec in specs for c in spec.columns if c not in index})
    if missing:
        raise UsageError(f"replicate sums lack column(s) {missing}")
    return {spec.name: spec.finalize(sums[:, [index[c] for c in spec.columns]]) for spec in specs}


def bootstrap_distributions(
    table: StatsTable,
    specs: Sequence[MetricSpec],
    *,
    n_resamples: int = DEFAULT_N_BOOTSTRAP,
    seed: int = DEFAULT_SEED,
    chunk_bytes: int = DEFAULT_CHUNK_BYTES,
    resampling: Resampling = "multinomial",
) -> dict[str, FloatArray]:
    """Each spec's B resampled scores; all specs share the same resamples (one W per chunk).

    ``resampling="poisson"`` uses the partition-independent Poisson weights (see
    :mod:`assay.stats.poisson`) instead of multinomial draws.
    """
    columns, positions = spec_columns(specs)
    matrix = table.select(columns)
    if check_resampling(resampling) == "poisson":
        sums = poisson_replicate_sums(item_keys(table.ids), matrix, n_resamples, seed)
        return distributions_from_sums(sums, columns, specs)
    parts: list[list[FloatArray]] = [[] for _ in specs]
    summed: FloatArray | SumsMatrix = matrix
    if len(columns) <= GATHER_MAX_COLUMNS:  # gathered sums: small draw chunks stay in cache
        chunk_bytes = min(chunk_bytes, GATHER_CHUNK_BYTES)
    else:  # one product per chunk: the matrix prepared once (its copy of S freed)
        summed = SumsMatrix.of(matrix)
    del matrix
    for indices in bootstrap_index_chunks(len(table), n_resamples, seed, chunk_bytes=chunk_bytes):
        sums = resampled_sums(indices, summed)
        for k, spec in enumerate(specs):
            parts[k].append(spec.finalize(sums[:, positions[k]]))
        del indices, sums  # freed before the next chunk is drawn: one chunk alive at a time
    return {
        spec.name: np.concatenate(parts[k]) if parts[k] else np.zeros(0)
        for k, spec in enumerate(specs)
    }


def bootstrap_ci(
    table: StatsTable,
    spec: MetricSpec,
    *,
    n_resamples: int = DEFAULT_N_BOOTSTRAP,
    seed: int = DEFAULT_SEED,
    alpha: float = DEFAULT_ALPHA,
    resampling: Resampling = "multinomial",
) -> Interval:
    """Percentile bootstrap CI of one metric over the items of ``table``."""
    dist = bootstrap_distributions(
        table, [spec], n_resamples=n_resamples, seed=seed, resampling=resampling
    )[spec.name]
    return percentile_interval(dist, alpha)


def bootstrap_distribution_generic(
    items: Sequence[T],
    metric_fn: Callable[[Sequence[T]], float],
    *,
    n_resamples: int = DEFAULT_N_BOOTSTRAP,
    seed: int = DEFAULT_SEED,
) -> FloatArray:
    """Slow path: ``metric_fn`` on each resample of ``items`` (same draws as the fast path)."""
    values: list[float] = []
    for indices in bootstrap_index_chunks(len(items), n_resamples, seed):
        for row in indices:
            values.append(float(metric_fn([items[i] for i in row])))
    return np.asarray(values, dtype=np.float64)


def bootstrap_ci_generic(
    items: Sequence[T],
    metric_fn: Callable[[Sequence[T]], float],
    *,
    n_resamples: int = DEFAULT_N_BOOTSTRAP,
    seed: int = DEFAULT_SEED,
    alpha: float = DEFAULT_ALPHA,
) -> Interval:
    """Percentile CI of any callable metric; one Python call per resample."""
    dist = bootstrap_distribution_generic(items, metric_fn, n_resamples=n_resamples, seed=seed)
    return percentile_interval(dist, alpha)


def check_aligned(table_a: StatsTable, table_b: StatsTable) -> None:
    """Refuse two tables a paired statistic cannot pair: other ids or order, or no items."""
    if table_a.ids != table_b.ids:
        raise UsageError("paired tests need both tables aligned on the same ids in the same order")
    if len(table_a) == 0:
        raise UsageError("paired tests need at least one shared item")


def paired_bootstrap_deltas(
    table_a: StatsTable,
    table_b: StatsTable,
    specs: Sequence[MetricSpec],
    *,
    n_resamples: int = DEFAULT_N_BOOTSTRAP,
    seed: int = DEFAULT_SEED,
    chunk_bytes: int = DEFAULT_CHUNK_BYTES,
    resampling: Resampling = "multinomial",
) -> dict[str, FloatArray]:
    """Per spec, the B resampled Δ* = f(W S_A) − f(W S_B), W shared by A and B.

    With ``resampling="poisson"`` W holds the Poisson weights keyed by the shared item ids.
    """
    check_aligned(table_a, table_b)
    columns, positions = spec_columns(specs)
    k = len(columns)
    both = np.hstack([table_a.select(columns), table_b.select(columns)])
    if check_resampling(resampling) == "poisson":
        sums = poisson_replicate_sums(item_keys(table_a.ids), both, n_resamples, seed)
        return {
            spec.name: spec.finalize(sums[:, positions[j]])
            - spec.finalize(sums[:, [p + k for p in positions[j]]])
            for j, spec in enumerate(specs)
        }
    parts: list[list[FloatArray]] = [[] for _ in specs]
    n = len(table_a)
    summed = SumsMatrix.of(both)  # one product per chunk (exact in float32 when it can be)
    del both
    for indices in bootstrap_index_chunks(n, n_resamples, seed, chunk_bytes=chunk_bytes):
        sums = summed.sums(indices)
        for j, spec in enumerate(specs):
            pa = positions[j]
            pb = [p + k for p in pa]
            parts[j].append(spec.finalize(sums[:, pa]) - spec.finalize(sums[:, pb]))
        del indices, sums  # freed before the next chunk is drawn: one chunk alive at a time
    return {
        spec.name: np.concatenate(parts[j]) if parts[j] else np.zeros(0)
        for j, spec in enumerate(specs)
    }
