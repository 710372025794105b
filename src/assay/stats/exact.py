"""The exact paired sign-flip (permutation) test, for few items.

Under the null hypothesis that systems A and B are exchangeable on every item, each of the 2^n
ways of swapping the items' statistics between A and B is equally likely. The randomization
test samples R of them; with few items all 2^n can be enumerated instead, which gives the exact
p-value

    p = #{m : |T_m| ≥ |Δ|} / 2^n,     T_m = f(A_m) − f(B_m),

with A_m = ΣA + M D and B_m = ΣB − M D (D = S_B − S_A, M the 0/1 swap mask; the same statistics
as ``significance.randomization_statistics``). The identity mask is one of the 2^n, so p > 0;
a mask and its complement give T and −T, so p ≥ 2 / 2^n: with 3 items no change can be
significant at 5% (p ≥ 0.25), which is the honest answer a bootstrap over 3 items does not give
(its percentile p-value reaches 0 whenever all items moved the same way).

``significance.dispatched_test`` decides when this test runs (n ≤ 16 units: 65,536 masks);
:func:`use_exact` is the older rule (2^n at most the resample count), kept for callers of it.
"""

from __future__ import annotations

from collections.abc import Iterator, Sequence

import numpy as np

from assay.errors import UsageError
from assay.metrics.kinds import FloatArray
from assay.metrics.spec import MetricSpec
from assay.metrics.table import StatsTable
from assay.stats.bootstrap import (
    DEFAULT_ALPHA,
    DEFAULT_N_BOOTSTRAP,
    DEFAULT_SEED,
    Resampling,
    paired_bootstrap_deltas,
    spec_columns,
)
from assay.stats.intervals import bootstrap_se, check_alpha, percentile_interval
from assay.stats.result import SignificanceResult, significance_result

EXACT_METHOD = "exact_sign_flip"
#: the most items enumerated (2^20 ≈ 10^6 masks), whatever the resample count
MAX_EXACT_ITEMS = 20
#: masks evaluated per chunk
_CHUNK = 1 << 14
#: relative tolerance under which |T_m| and |Δ| count as tied (float sums of the same numbers)
_TIE_RTOL = 1e-12


def use_exact(n_items: int, n_resamples: int) -> bool:
    """True when all 2^n swap masks are no more than the ``n_resamples`` asked for."""
    return 0 < n_items <= MAX_EXACT_ITEMS and 2**n_items <= n_resamples


def swap_masks(n_items: int) -> Iterator[FloatArray]:
    """Every 0/1 swap mask over ``n_items`` (row m has bit k of m at column k), in chunks."""
    if not 0 < n_items <= MAX_EXACT_ITEMS:
        raise UsageError(f"exact enumeration needs 1..{MAX_EXACT_ITEMS} items, got {n_items}")
    bits = np.arange(n_items, dtype=np.int64)
    total = 1 << n_items
    for start in range(0, total, _CHUNK):
        codes = np.arange(start, min(total, start + _CHUNK), dtype=np.int64)
        yield ((codes[:, None] >> bits[None, :]) & 1).astype(np.float64)


def exact_randomization_statistics(
    table_a: StatsTable, table_b: StatsTable, specs: Sequence[MetricSpec]
) -> dict[str, FloatArray]:
    """Per spec, T_m = f(A_m) − f(B_m) for all 2^n swap masks m (n = the tables' items)."""
    if table_a.ids != table_b.ids:
        raise UsageError("paired tests need both tables aligned on the same ids in the same order")
    columns, positions = spec_columns(specs)
    sa, sb = table_a.select(columns), table_b.select(columns)
    diff = sb - sa
    sum_a, sum_b = sa.sum(axis=0), sb.sum(axis=0)
    parts: list[list[FloatArray]] = [[] for _ in specs]
    for masks in swap_masks(len(table_a)):
        moved = masks @ diff
        shuf_a, shuf_b = sum_a + moved, sum_b - moved
        for j, spec in enumerate(specs):
            p = positions[j]
            parts[j].append(spec.finalize(shuf_a[:, p]) - spec.finalize(shuf_b[:, p]))
    return {spec.name: np.concatenate(parts[j]) for j, spec in enumerate(specs)}


def min_exact_p(n_units: int) -> float:
    """The smallest exact p-value over n units: 2 / 2ⁿ (a mask and its complement tie)."""
    return min(1.0, 2.0 / float(2**n_units))


def exact_p(stats: FloatArray, observed: float) -> float:
    """#{|T_m| ≥ |Δ|} / #masks, over the masks whose statistic is defined (1.0 for no Δ)."""
    t = np.abs(stats[np.isfinite(stats)])
    if t.size == 0 or not np.isfinite(observed):
        return 1.0
    d = abs(observed)
    return float(np.mean(t >= d - _TIE_RTOL * max(1.0, d)))


def exact_randomization_test(
    table_a: StatsTable,
    table_b: StatsTable,
    specs: Sequence[MetricSpec],
    *,
    seed: int = DEFAULT_SEED,
    alpha: float = DEFAULT_ALPHA,
    n_bootstrap_ci: int = DEFAULT_N_BOOTSTRAP,
    resampling: Resampling = "multinomial",
) -> list[SignificanceResult]:
    """The exact sign-flip test of every spec (``n_bootstrap`` in the results is 2^n, the masks
    enumerated), with the paired bootstrap's percentile CI of Δ beside it (descriptive: at a
    handful of items it is narrow; the verdict is the p-value's)."""
    alpha = check_alpha(alpha)
    if len(table_a) == 0:
        raise UsageError("paired tests need at least one shared item")
    stats = exact_randomization_statistics(table_a, table_b, specs)
    deltas = paired_bootstrap_deltas(
        table_a, table_b, specs, n_resamples=n_bootstrap_ci, seed=seed, resampling=resampling
    )
    results = []
    for spec in specs:
        score_a, score_b = spec.value(table_a), spec.value(table_b)
        ci = percentile_interval(deltas[spec.name], alpha)
        results.append(
            significance_result(
                spec.name,
                score_a,
                score_b,
                exact_p(stats[spec.name], score_a - score_b),
                (ci.lower, ci.upper),
                n=2 ** len(table_a),
                alpha=alpha,
                method=EXACT_METHOD,
                seed=seed,
                higher_is_better=spec.higher_is_better,
                n_units=len(table_a),
                se=bootstrap_se(deltas[spec.name]),
                min_p=min_exact_p(len(table_a)),
            )
        )
    return results
