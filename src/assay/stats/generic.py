"""The one paired-test dispatch for a metric given as a function of a list of entries.

``metric_fn(list) -> float`` has no statistics table, so each swap or resample recomputes it
(the slow path; the fast path is ``paired_test`` on a table). The test is chosen as
``paired_test`` chooses it (`dispatched_test`): the exact sign-flip over all 2ⁿ swaps of
entries while n ≤ 16, approximate randomization (R = 10,000 swaps) below 50 entries, the
paired bootstrap above; the CI of Δ is the paired bootstrap's in every case.
"""

from __future__ import annotations

from collections.abc import Callable, Iterator, Sequence
from dataclasses import replace
from typing import TypeVar

import numpy as np

from assay.stats.bootstrap import DEFAULT_ALPHA, DEFAULT_N_BOOTSTRAP, DEFAULT_SEED
from assay.stats.exact import EXACT_METHOD, exact_p, min_exact_p, swap_masks
from assay.stats.resampling import randomization_mask_chunks
from assay.stats.result import SignificanceResult, significance_result
from assay.stats.significance import (
    DEFAULT_N_TRIALS,
    dispatched_test,
    paired_bootstrap_generic,
    randomization_p,
)

T = TypeVar("T")


def paired_test_generic(
    entries_a: Sequence[T],
    entries_b: Sequence[T],
    metric_fn: Callable[[Sequence[T]], float],
    *,
    n_resamples: int = DEFAULT_N_BOOTSTRAP,
    seed: int = DEFAULT_SEED,
    alpha: float = DEFAULT_ALPHA,
    metric_name: str = "metric",
    higher_is_better: bool = True,
) -> SignificanceResult:
    """Δ = metric_fn(A) − metric_fn(B) tested by the test valid at n (module docstring);
    as in ``paired_test``, ``n_resamples`` is the bootstrap's B when the bootstrap decides,
    and the CI beside an exact or randomization test takes the default B."""
    n = len(entries_a)
    test = dispatched_test(n)
    boot = paired_bootstrap_generic(
        entries_a,
        entries_b,
        metric_fn,
        n_resamples=n_resamples if test == "bootstrap" else DEFAULT_N_BOOTSTRAP,
        seed=seed,
        alpha=alpha,
        metric_name=metric_name,
        higher_is_better=higher_is_better,
    )
    if test == "bootstrap":
        return boot
    a, b = list(entries_a), list(entries_b)

    def swapped(keep: np.ndarray) -> float:
        left = [x if k else y for x, y, k in zip(a, b, keep, strict=True)]
        right = [y if k else x for x, y, k in zip(a, b, keep, strict=True)]
        return float(metric_fn(left)) - float(metric_fn(right))

    if test == "exact":
        stats = np.array([swapped(m == 0) for m in _rows(swap_masks(n))])
        p, count, method = exact_p(stats, _observed(boot)), 2**n, EXACT_METHOD
        min_p = min_exact_p(n)
    else:
        masks = _rows(randomization_mask_chunks(n, DEFAULT_N_TRIALS, seed))
        stats = np.array([swapped(m) for m in masks])
        p = randomization_p(stats, _observed(boot))
        count, method = DEFAULT_N_TRIALS, "approximate_randomization"
        min_p = 1 / (count + 1)
    result = significance_result(
        metric_name,
        boot.system_a_score if boot.system_a_score is not None else float("nan"),
        boot.system_b_score if boot.system_b_score is not None else float("nan"),
        p,
        (boot.ci_lower, boot.ci_upper),
        n=count,
        alpha=alpha,
        method=method,
        seed=seed,
        higher_is_better=higher_is_better,
        n_units=n,
        se=boot.se,
        min_p=min_p,
    )
    return replace(result, n_units=n)


def _observed(result: SignificanceResult) -> float:
    return result.delta if result.delta is not None else float("nan")


def _rows(chunks: Iterator[np.ndarray]) -> Iterator[np.ndarray]:
    for chunk in chunks:
        yield from chunk
