"""Bootstrap CIs against scipy.stats.bootstrap, Wilson intervals against closed forms and scipy.

scipy draws its resamples with ``rng.integers(0, n, (B, n))`` — the same stream as assay's
``default_rng(seed).choice(n, (B, n))`` — and takes linear-interpolated quantiles, so with the
same seed the two percentile intervals agree to rounding. With different seeds they must agree
within Monte Carlo error; that second check does not depend on sharing a random stream.
"""

from __future__ import annotations

import math

import numpy as np
import pytest
import scipy.stats
from hypothesis import given, settings
from hypothesis import strategies as st

from assay.errors import UsageError
from assay.metrics import StatsTable, mean_columns, mean_metric, ratio_metric
from assay.stats import (
    DEFAULT_ALPHA,
    DEFAULT_N_BOOTSTRAP,
    DEFAULT_SEED,
    Interval,
    bootstrap_ci,
    bootstrap_ci_generic,
    bootstrap_distribution_generic,
    bootstrap_index_chunks,
    percentile_interval,
    wilson_interval,
)

N_RESAMPLES = 4000


def _scores_table(x: np.ndarray) -> StatsTable:
    return StatsTable.from_rows(
        [f"i{i}" for i in range(len(x))], [mean_columns("s", float(v)) for v in x]
    )


def _datasets() -> dict[str, tuple[np.ndarray, float]]:
    """name -> (per-item scores, lattice step of the bootstrap distribution of the mean)."""
    rng = np.random.default_rng(20240611)
    n = 200
    return {
        "bernoulli_p0.3": (rng.binomial(1, 0.3, n).astype(float), 1 / n),
        "bernoulli_p0.9": (rng.binomial(1, 0.9, n).astype(float), 1 / n),
        "uniform_scores": (rng.random(n), 0.0),
        "skewed_beta_0.5_5": (rng.beta(0.5, 5.0, n), 0.0),
        "skewed_lognormal": (rng.lognormal(0.0, 1.0, n), 0.0),
    }


DATASETS = _datasets()


def _scipy_same_draws_ci(data: tuple, statistic, seed: int, **kw) -> tuple[float, float]:
    """scipy's bootstrap distribution for the same draws, cut at assay's order statistics
    (m = ⌈αB/2⌉-th from each end) instead of scipy's interpolated quantiles."""
    res = scipy.stats.bootstrap(
        data,
        statistic,
        method="percentile",
        n_resamples=N_RESAMPLES,
        confidence_level=0.95,
        rng=np.random.default_rng(seed),
        vectorized=True,
        **kw,
    )
    dist = np.sort(res.bootstrap_distribution)
    m = math.ceil(0.05 * N_RESAMPLES / 2 - 1e-9)
    return float(dist[m - 1]), float(dist[N_RESAMPLES - m])


def _scipy_percentile_ci(data: tuple, statistic, seed: int, **kw) -> tuple[float, float]:
    res = scipy.stats.bootstrap(
        data,
        statistic,
        method="percentile",
        n_resamples=N_RESAMPLES,
        confidence_level=0.95,
        rng=np.random.default_rng(seed),
        vectorized=True,
        **kw,
    )
    return float(res.confidence_interval.low), float(res.confidence_interval.high)


def _mc_tolerance(bootstrap_se: float, lattice_step: float) -> float:
    """Allowed gap between two independent percentile-CI endpoints, each from B = 4000 draws.

    The sample 2.5% quantile of B draws has standard error sqrt(q(1−q)/B) / f(x_q); with the
    bootstrap distribution ≈ normal with sd σ_b, f(x_q) = φ(1.96)/σ_b, so SE ≈ 0.0423 σ_b and the
    difference of two independent endpoints has SE ≈ 0.060 σ_b. We allow 5 SE = 0.30 σ_b, plus
    one lattice step for 0/1 data, whose bootstrap means live on multiples of 1/N.
    """
    return 0.30 * bootstrap_se + lattice_step


@pytest.mark.parametrize("name", sorted(DATASETS))
def test_mean_ci_matches_scipy_bootstrap(name: str) -> None:
    x, step = DATASETS[name]
    table = _scores_table(x)
    spec = mean_metric("score", "s")
    assert spec.value(table) == pytest.approx(x.mean(), rel=1e-12)

    # same seed: the same resamples, so the same order statistics up to rounding
    ours = bootstrap_ci(table, spec, n_resamples=N_RESAMPLES, seed=11)
    assert ours.method == "percentile" and ours.level == pytest.approx(0.95)
    low, high = _scipy_same_draws_ci((x,), np.mean, seed=11)
    assert ours.lower == pytest.approx(low, rel=1e-12, abs=1e-12)
    assert ours.upper == pytest.approx(high, rel=1e-12, abs=1e-12)

    # independent streams: agreement within Monte Carlo error
    se = float(x.std() / math.sqrt(len(x)))  # the bootstrap standard error of the mean
    tol = _mc_tolerance(se, step)
    for seed_ours, seed_scipy in [(1, 2), (3, 4)]:
        ours = bootstrap_ci(table, spec, n_resamples=N_RESAMPLES, seed=seed_ours)
        low, high = _scipy_percentile_ci((x,), np.mean, seed=seed_scipy)
        assert ours.lower is not None and ours.upper is not None
        assert abs(ours.lower - low) <= tol, (ours, low, tol)
        assert abs(ours.upper - high) <= tol, (ours, high, tol)
    # sanity of the scale: the interval is about ±1.96 σ_b wide around the mean
    assert ours.upper - ours.lower == pytest.approx(2 * 1.96 * se, rel=0.2)


def _ratio_statistic(num: np.ndarray, den: np.ndarray, axis: int = -1) -> np.ndarray:
    return num.sum(axis=axis) / den.sum(axis=axis)


@pytest.mark.parametrize("seed", [5, 6])
def test_ratio_ci_matches_scipy_paired_bootstrap(seed: int) -> None:
    """Micro ratio Σnum/Σden: items are resampled as (num, den) pairs (paired=True)."""
    rng = np.random.default_rng(seed)
    n = 150
    den = rng.integers(1, 8, size=n).astype(float)  # fields per document
    num = rng.binomial(den.astype(int), rng.beta(4, 2, size=n)).astype(float)  # correct ones
    table = StatsTable(
        tuple(f"d{i}" for i in range(n)), ("num", "den"), np.column_stack([num, den])
    )
    spec = ratio_metric("field_accuracy", "num", "den")
    assert spec.value(table) == pytest.approx(num.sum() / den.sum(), rel=1e-12)

    ours = bootstrap_ci(table, spec, n_resamples=N_RESAMPLES, seed=seed)
    low, high = _scipy_same_draws_ci((num, den), _ratio_statistic, seed=seed, paired=True)
    assert ours.lower == pytest.approx(low, rel=1e-12)
    assert ours.upper == pytest.approx(high, rel=1e-12)

    # independent streams, within Monte Carlo error; σ_b of a ratio by the delta method
    ratio = num.sum() / den.sum()
    se = float(np.sqrt(np.sum((num - ratio * den) ** 2)) / den.sum())
    ours = bootstrap_ci(table, spec, n_resamples=N_RESAMPLES, seed=seed + 100)
    low, high = _scipy_percentile_ci((num, den), _ratio_statistic, seed=seed + 200, paired=True)
    assert ours.lower is not None and ours.upper is not None
    assert abs(ours.lower - low) <= _mc_tolerance(se, 0.0)
    assert abs(ours.upper - high) <= _mc_tolerance(se, 0.0)


def test_mean_with_null_items_is_a_ratio_over_defined_items() -> None:
    """Null per-item scores are skipped; the CI resamples all items (nulls included) like a
    ratio estimator Σv / Σdefined, which scipy reproduces with paired (v, defined) arrays."""
    rng = np.random.default_rng(8)
    n = 120
    v = rng.random(n)
    defined = rng.random(n) < 0.7
    table = StatsTable.from_rows(
        [f"i{i}" for i in range(n)],
        [mean_columns("s", float(s) if d else None) for s, d in zip(v, defined, strict=True)],
    )
    spec = mean_metric("score", "s")
    assert spec.value(table) == pytest.approx(v[defined].mean(), rel=1e-12)
    ours = bootstrap_ci(table, spec, n_resamples=N_RESAMPLES, seed=9)
    low, high = _scipy_same_draws_ci(
        (np.where(defined, v, 0.0), defined.astype(float)), _ratio_statistic, seed=9, paired=True
    )
    assert ours.lower == pytest.approx(low, rel=1e-12)
    assert ours.upper == pytest.approx(high, rel=1e-12)


# ---------------------------------------------------------------- generic path


def test_bootstrap_ci_generic_of_a_median() -> None:
    rng = np.random.default_rng(31)
    x = rng.lognormal(0.0, 0.8, size=101)
    items = [{"latency": float(v)} for v in x]

    def median_latency(sample) -> float:
        return float(np.median([e["latency"] for e in sample]))

    ci = bootstrap_ci_generic(items, median_latency, n_resamples=2000, seed=17)
    assert ci.method == "percentile"
    # reference 1: the same draws, done by hand with numpy
    idx = np.random.default_rng(17).choice(len(x), size=(2000, len(x)), replace=True)
    medians = np.median(x[idx], axis=1)
    lo, hi = np.quantile(medians, [0.025, 0.975])
    assert (ci.lower, ci.upper) == (pytest.approx(lo, rel=1e-15), pytest.approx(hi, rel=1e-15))
    # reference 2: scipy.stats.bootstrap on the same stream
    res = scipy.stats.bootstrap(
        (x,),
        np.median,
        method="percentile",
        n_resamples=2000,
        rng=np.random.default_rng(17),
        vectorized=True,
    )
    assert ci.lower == pytest.approx(res.confidence_interval.low, rel=1e-12)
    assert ci.upper == pytest.approx(res.confidence_interval.high, rel=1e-12)
    assert ci.contains(float(np.median(x)))


def test_generic_distribution_uses_the_fast_path_draws() -> None:
    items = list(range(23))
    dist = bootstrap_distribution_generic(items, lambda s: float(sum(s)), n_resamples=57, seed=3)
    draws = np.concatenate(list(bootstrap_index_chunks(23, 57, 3)))
    np.testing.assert_array_equal(dist, draws.sum(axis=1).astype(float))


def test_generic_bootstrap_of_an_empty_list_raises() -> None:
    with pytest.raises(UsageError):
        bootstrap_ci_generic([], lambda s: 0.0, n_resamples=10)


def test_defaults_are_seed_001s() -> None:
    assert (DEFAULT_N_BOOTSTRAP, DEFAULT_SEED, DEFAULT_ALPHA) == (1000, 12345, 0.05)


def test_bootstrap_ci_is_deterministic_and_seed_dependent() -> None:
    x, _ = DATASETS["uniform_scores"]
    table = _scores_table(x)
    spec = mean_metric("score", "s")
    assert bootstrap_ci(table, spec, seed=1) == bootstrap_ci(table, spec, seed=1)
    assert bootstrap_ci(table, spec, seed=1) != bootstrap_ci(table, spec, seed=2)


def test_alpha_sets_the_level() -> None:
    x, _ = DATASETS["uniform_scores"]
    table = _scores_table(x)
    spec = mean_metric("score", "s")
    ci90 = bootstrap_ci(table, spec, alpha=0.10, seed=1)
    ci95 = bootstrap_ci(table, spec, alpha=0.05, seed=1)
    assert ci90.level == pytest.approx(0.90)
    assert ci95.lower < ci90.lower < ci90.upper < ci95.upper  # type: ignore[operator]


# ---------------------------------------------------------------- percentile_interval


def test_percentile_interval_drops_nan_and_uses_order_statistics() -> None:
    dist = np.array([np.nan, 3.0, 1.0, np.nan, 2.0, 4.0, 5.0])
    ci = percentile_interval(dist, alpha=0.5)
    assert (ci.lower, ci.upper) == (2.0, 4.0)
    assert ci.level == 0.5
    # B = 101, m = ⌈0.05·101/2⌉ = 3: the 3rd value from each end
    ci = percentile_interval(np.arange(101, dtype=float), alpha=0.05)
    assert (ci.lower, ci.upper) == (2.0, 98.0)
    # B = 1000: the 25th smallest and the 25th largest
    ci = percentile_interval(np.arange(1000, dtype=float), alpha=0.05)
    assert (ci.lower, ci.upper) == (24.0, 975.0)


def test_percentile_interval_of_nothing_is_undefined() -> None:
    ci = percentile_interval(np.array([np.nan, np.nan]))
    assert ci.lower is None and ci.upper is None
    assert not ci.contains(0.0)
    assert percentile_interval(np.zeros(0)).lower is None


@pytest.mark.parametrize("alpha", [0.0, 1.0, -0.1, 1.5])
def test_alpha_outside_the_unit_interval_raises(alpha: float) -> None:
    with pytest.raises(UsageError, match="alpha"):
        percentile_interval(np.ones(5), alpha)
    with pytest.raises(UsageError, match="alpha"):
        wilson_interval(1, 2, alpha)


def test_interval_contains_is_inclusive() -> None:
    ci = Interval(0.1, 0.3, 0.95, "percentile")
    assert ci.contains(0.1) and ci.contains(0.3) and ci.contains(0.2)
    assert not ci.contains(0.09) and not ci.contains(0.31)


# ---------------------------------------------------------------- Wilson


def _wilson_reference(k: float, n: float, alpha: float) -> tuple[float, float]:
    """Wilson (1927), written as (2k + z² ± z·sqrt(z² + 4k(n−k)/n)) / (2(n + z²))."""
    z = float(scipy.stats.norm.ppf(1 - alpha / 2))
    root = z * math.sqrt(z * z + 4 * k * (n - k) / n)
    denom = 2 * (n + z * z)
    return (2 * k + z * z - root) / denom, (2 * k + z * z + root) / denom


@pytest.mark.parametrize(
    ("k", "n", "lower", "upper"),
    [
        # published 95% Wilson intervals (e.g. Newcombe 1998, Table I; Brown, Cai & DasGupta 2001)
        (0, 10, 0.0, 0.2775),
        (10, 10, 0.7225, 1.0),
        (5, 10, 0.2366, 0.7634),
        (1, 10, 0.0179, 0.4042),
        (81, 263, 0.2553, 0.3662),
    ],
)
def test_wilson_published_values(k: int, n: int, lower: float, upper: float) -> None:
    ci = wilson_interval(k, n)
    assert ci.method == "wilson" and ci.level == pytest.approx(0.95)
    assert ci.lower == pytest.approx(lower, abs=5e-5)
    assert ci.upper == pytest.approx(upper, abs=5e-5)


@settings(max_examples=200, deadline=None, derandomize=True)
@given(
    n=st.integers(1, 10_000),
    frac=st.floats(0, 1),
    alpha=st.sampled_from([0.01, 0.05, 0.1, 0.2]),
)
def test_wilson_matches_closed_form_and_scipy(n: int, frac: float, alpha: float) -> None:
    k = round(frac * n)
    ci = wilson_interval(k, n, alpha)
    lo, hi = _wilson_reference(k, n, alpha)
    assert ci.lower == pytest.approx(max(0.0, lo), abs=1e-12)
    assert ci.upper == pytest.approx(min(1.0, hi), abs=1e-12)
    ref = scipy.stats.binomtest(k, n).proportion_ci(confidence_level=1 - alpha, method="wilson")
    assert ci.lower == pytest.approx(ref.low, abs=1e-12)
    assert ci.upper == pytest.approx(ref.high, abs=1e-12)
    assert 0.0 <= ci.lower <= k / n <= ci.upper <= 1.0  # type: ignore[operator]
    assert ci.level == pytest.approx(1 - alpha)


def test_wilson_edge_cases() -> None:
    ci = wilson_interval(0, 0)
    assert ci.lower is None and ci.upper is None and ci.method == "wilson"
    for k, n in [(-1, 5), (6, 5), (1, -1)]:
        with pytest.raises(UsageError):
            wilson_interval(k, n)
    assert wilson_interval(0, 10).lower == 0.0
    assert wilson_interval(10, 10).upper == 1.0
    # symmetric under k -> n − k
    a, b = wilson_interval(3, 17), wilson_interval(14, 17)
    assert a.lower == pytest.approx(1 - b.upper) and a.upper == pytest.approx(1 - b.lower)  # type: ignore[operator]


def test_wilson_contains_the_observed_proportion_at_the_boundaries() -> None:
    # regression: 0/3 gave lower = 5.6e-17 and 10/10 upper = 0.9999999999999999, so the
    # interval did not contain the observed 0 or 1
    for n in range(1, 300):
        assert wilson_interval(0, n).lower == 0.0
        assert wilson_interval(n, n).upper == 1.0
        assert wilson_interval(0, n).contains(0.0) and wilson_interval(n, n).contains(1.0)
