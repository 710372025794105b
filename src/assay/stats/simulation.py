"""Type-I error of the paired tests by simulation: how often each calls a change where there is
none.

The paired bootstrap's percentile p-value over a handful of items is anti-conservative (it
reaches 0 whenever every item moved the same way); the dispatch of ``paired_test`` (exact
sign-flip over all 2^n swaps when 2^n is at most the resamples asked for, else approximate
randomization) is not. ``null_rejection_rates`` measures both on data where the null holds
(docs/claims.md has the table; ``benchmarks/bench_claims.py --type1`` reproduces it).
"""

from __future__ import annotations

import numpy as np

from assay.metrics.spec import mean_columns, mean_metric
from assay.metrics.table import StatsTable
from assay.stats.bootstrap import DEFAULT_ALPHA, DEFAULT_N_BOOTSTRAP, DEFAULT_SEED
from assay.stats.significance import paired_test


def null_rejection_rates(
    n_items: int,
    *,
    n_datasets: int = 1000,
    n_resamples: int = DEFAULT_N_BOOTSTRAP,
    alpha: float = DEFAULT_ALPHA,
    seed: int = DEFAULT_SEED,
    n_claims: int = 20,
) -> dict[str, float | str]:
    """Type-I error by simulation: how often each paired test calls a change where there is
    none, at ``alpha``, over ``n_datasets`` datasets of ``n_items`` papers.

    A dataset: each paper i has ``n_claims`` reference claims and a recovery rate q_i ~ U(0.6,
    0.95); baseline and candidate each recover Binomial(n_claims, q_i) of them, independently
    (the same process: the null holds, and pairing matters). Tests: the percentile paired
    bootstrap (``bootstrap``, B = ``n_resamples``) and what ``paired_test`` dispatches to for
    ``method="ar"`` (``dispatched``: exact when 2^n ≤ ``n_resamples``, else approximate
    randomization with that many swaps), named in ``dispatched_method``.
    """
    spec = mean_metric("recovery", "recovery")
    rng = np.random.default_rng(seed)
    ids = [f"p{i}" for i in range(n_items)]
    hits = {"bootstrap": 0, "dispatched": 0}
    method = ""
    for d in range(n_datasets):
        q = rng.uniform(0.6, 0.95, n_items)
        a, b = rng.binomial(n_claims, q) / n_claims, rng.binomial(n_claims, q) / n_claims
        ta = StatsTable.from_rows(ids, [mean_columns("recovery", float(v)) for v in a])
        tb = StatsTable.from_rows(ids, [mean_columns("recovery", float(v)) for v in b])
        (boot,) = paired_test(
            ta,
            tb,
            [spec],
            method="bootstrap",
            exact=False,
            n_resamples=n_resamples,
            alpha=alpha,
            seed=seed + d,
        )
        (disp,) = paired_test(
            ta, tb, [spec], method="ar", n_resamples=n_resamples, alpha=alpha, seed=seed + d
        )
        hits["bootstrap"] += boot.significant
        hits["dispatched"] += disp.significant
        method = disp.method
    return {
        "bootstrap": hits["bootstrap"] / n_datasets,
        "dispatched": hits["dispatched"] / n_datasets,
        "dispatched_method": method,
    }
