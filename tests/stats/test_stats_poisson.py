"""The Poisson bootstrap: counter-based weights, partition independence, coverage, and the
multinomial default left untouched."""

from __future__ import annotations

import itertools

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from scipy.stats import poisson

from assay.errors import UsageError
from assay.metrics import MetricSpec, StatsTable, mean_metric
from assay.stats import bootstrap_distributions, counts_from_indices, percentile_interval
from assay.stats.bootstrap import distributions_from_sums
from assay.stats.poisson import (
    item_key,
    item_keys,
    mix64_int,
    poisson_counts,
    poisson_replicate_sums,
    poisson_thresholds,
    poisson_weights,
)
from assay.stats.resampling import bootstrap_index_chunks
from assay.stats.significance import paired_bootstrap_deltas, paired_bootstrap_test

GAMMA = 0x9E3779B97F4A7C15


def _reference_weight(item_id: str, seed: int, replicate: int) -> int:
    """The definition, one cell at a time in Python ints: #{k : x ≥ T_k}."""
    stream = mix64_int(item_key(item_id) ^ mix64_int(seed))
    x = mix64_int(stream + (replicate + 1) * GAMMA)
    return sum(1 for t in poisson_thresholds().tolist() if x >= t)


def test_vectorized_weights_match_the_scalar_definition() -> None:
    ids = [f"doc-{i}" for i in range(40)] + ["", "ünï", "🙂"]
    w = poisson_weights(item_keys(ids), 7, 3, 9)
    for i, item_id in enumerate(ids):
        for b in range(3, 9):
            assert w[b - 3, i] == _reference_weight(item_id, 7, b)


def test_thresholds_are_the_poisson_cdf() -> None:
    t = poisson_thresholds().astype(np.float64) / 2.0**64
    assert np.allclose(t, poisson.cdf(np.arange(t.size), 1.0), rtol=0, atol=1e-15)
    assert np.all(np.diff(poisson_thresholds().astype(object)) > 0)


def test_lookup_equals_binary_search_everywhere() -> None:
    rng = np.random.default_rng(3)
    x = rng.integers(0, 2**64 - 1, size=200_000, dtype=np.uint64, endpoint=True)
    near = poisson_thresholds()
    edges = np.concatenate([near, near - np.uint64(1), near + np.uint64(1)])
    x = np.concatenate([x, edges, np.array([0, 2**64 - 1], dtype=np.uint64)])
    expected = np.searchsorted(poisson_thresholds(), x, side="right")
    assert np.array_equal(poisson_counts(x), expected)


def test_weights_are_poisson_one() -> None:
    w = poisson_weights(item_keys([f"i{i}" for i in range(5000)]), 12345, 0, 200).ravel()
    assert w.mean() == pytest.approx(1.0, abs=0.005)
    assert w.var() == pytest.approx(1.0, abs=0.01)
    freq = np.bincount(w, minlength=6)[:6] / w.size
    assert np.allclose(freq, poisson.pmf(np.arange(6), 1.0), atol=0.002)


def test_seed_and_replicate_change_the_weights() -> None:
    keys = item_keys([f"i{i}" for i in range(1000)])
    a, b = poisson_weights(keys, 1, 0, 2), poisson_weights(keys, 2, 0, 2)
    assert not np.array_equal(a, b)
    assert not np.array_equal(a[0], a[1])
    # replicate b does not depend on which other replicates are drawn with it
    assert np.array_equal(poisson_weights(keys, 1, 1, 2)[0], a[1])


@settings(max_examples=40, deadline=None)
@given(
    n=st.integers(1, 300),
    cuts=st.lists(st.integers(0, 300), max_size=6),
    seed=st.integers(-(2**70), 2**70),
    shuffle_seed=st.integers(0, 2**32),
)
def test_integer_sums_identical_for_any_partitioning_and_order(
    n: int, cuts: list[int], seed: int, shuffle_seed: int
) -> None:
    rng = np.random.default_rng(shuffle_seed)
    ids = [f"item/{i}" for i in range(n)]
    matrix = rng.integers(0, 50, size=(n, 3)).astype(np.float64)
    whole = poisson_replicate_sums(item_keys(ids), matrix, 64, seed)
    order = rng.permutation(n)
    bounds = sorted({0, n, *[c % (n + 1) for c in cuts]})
    total = np.zeros_like(whole)
    for lo, hi in itertools.pairwise(bounds):
        part = order[lo:hi]
        total += poisson_replicate_sums(item_keys([ids[i] for i in part]), matrix[part], 64, seed)
    assert np.array_equal(total, whole)


def test_float_sums_agree_to_rounding_for_any_partitioning() -> None:
    """Float statistics: partial sums add in another order, so the totals agree to a relative
    1e-12 (measured differences are a few ulps), not bit for bit."""
    rng = np.random.default_rng(0)
    n = 20_000
    ids = [f"seg{i}" for i in range(n)]
    matrix = rng.random((n, 2))
    whole = poisson_replicate_sums(item_keys(ids), matrix, 100, 5)
    order = rng.permutation(n)
    total = np.zeros_like(whole)
    for part in np.array_split(order, 7):
        total += poisson_replicate_sums(item_keys([ids[i] for i in part]), matrix[part], 100, 5)
    np.testing.assert_allclose(total, whole, rtol=1e-12, atol=0)


def test_replicate_sums_equal_weights_times_matrix() -> None:
    ids = [f"x{i}" for i in range(9000)]
    matrix = np.random.default_rng(1).integers(0, 4, size=(9000, 2)).astype(np.float64)
    keys = item_keys(ids)
    direct = poisson_weights(keys, 9, 0, 150).astype(np.float64) @ matrix
    assert np.array_equal(poisson_replicate_sums(keys, matrix, 150, 9), direct)


def test_replicate_sums_check_shapes() -> None:
    with pytest.raises(UsageError, match="does not match"):
        poisson_replicate_sums(item_keys(["a"]), np.zeros((2, 1)), 3, 1)
    assert poisson_replicate_sums(item_keys([]), np.zeros((0, 2)), 3, 1).shape == (3, 2)


def _bernoulli_table(x: np.ndarray) -> StatsTable:
    ids = tuple(f"i{i}" for i in range(x.size))
    return StatsTable(ids, ("v", "v#n"), np.column_stack([x, np.ones_like(x)]))


def test_default_resampling_is_the_multinomial_draw() -> None:
    x = (np.random.default_rng(4).random(300) < 0.6).astype(np.float64)
    table = _bernoulli_table(x)
    spec = mean_metric("acc", "v")
    default = bootstrap_distributions(table, [spec], n_resamples=500, seed=11)["acc"]
    explicit = bootstrap_distributions(
        table, [spec], n_resamples=500, seed=11, resampling="multinomial"
    )["acc"]
    indices = np.concatenate(list(bootstrap_index_chunks(300, 500, 11)))
    manual = counts_from_indices(indices, 300) @ table.values
    assert np.array_equal(default, explicit)
    assert np.array_equal(default, manual[:, 0] / manual[:, 1])
    poisson_dist = bootstrap_distributions(
        table, [spec], n_resamples=500, seed=11, resampling="poisson"
    )["acc"]
    assert not np.array_equal(default, poisson_dist)


def test_unknown_resampling_is_an_error() -> None:
    table = _bernoulli_table(np.ones(5))
    with pytest.raises(UsageError, match="resampling must be"):
        bootstrap_distributions(table, [mean_metric("a", "v")], resampling="jackknife")  # type: ignore[arg-type]


def test_distributions_from_sums_names_missing_columns() -> None:
    with pytest.raises(UsageError, match="lack column"):
        distributions_from_sums(np.zeros((2, 1)), ["v"], [mean_metric("a", "v")])


def test_poisson_ci_coverage_of_a_bernoulli_mean() -> None:
    """95% Poisson-bootstrap CI of a Bernoulli(0.3) mean at N = 200, over 400 datasets."""
    p, n, batch, n_datasets = 0.3, 200, 50, 400
    rng = np.random.default_rng(2024)
    ids = tuple(f"i{i}" for i in range(n))
    covered = 0
    for k in range(n_datasets // batch):
        specs: list[MetricSpec] = []
        blocks = []
        columns: list[str] = []
        for d in range(batch):
            spec = mean_metric(f"d{d}", f"d{d}:v")
            specs.append(spec)
            columns.extend(spec.columns)
            blocks.append(np.column_stack([(rng.random(n) < p).astype(np.float64), np.ones(n)]))
        table = StatsTable(ids, tuple(columns), np.hstack(blocks))
        dists = bootstrap_distributions(
            table, specs, n_resamples=1000, seed=7000 + k, resampling="poisson"
        )
        covered += sum(percentile_interval(dists[s.name]).contains(p) for s in specs)
    coverage = covered / n_datasets
    assert 0.93 <= coverage <= 0.97, coverage


def test_paired_poisson_weights_follow_the_item_ids() -> None:
    rng = np.random.default_rng(8)
    n = 400
    ids = tuple(f"q{i}" for i in range(n))
    a = rng.integers(0, 2, size=n).astype(np.float64)
    b = rng.integers(0, 2, size=n).astype(np.float64)
    one = np.ones(n)
    ta = StatsTable(ids, ("v", "v#n"), np.column_stack([a, one]))
    tb = StatsTable(ids, ("v", "v#n"), np.column_stack([b, one]))
    spec = mean_metric("acc", "v")
    deltas = paired_bootstrap_deltas(ta, tb, [spec], n_resamples=300, seed=3, resampling="poisson")
    perm = list(rng.permutation(n))
    shuffled = [ids[i] for i in perm]
    again = paired_bootstrap_deltas(
        ta.take(shuffled), tb.take(shuffled), [spec], n_resamples=300, seed=3, resampling="poisson"
    )
    assert np.array_equal(deltas["acc"], again["acc"])
    same = paired_bootstrap_deltas(ta, ta, [spec], n_resamples=300, seed=3, resampling="poisson")
    assert np.all(same["acc"] == 0)
    (result,) = paired_bootstrap_test(ta, tb, [spec], n_resamples=300, resampling="poisson")
    assert result.method == "paired_bootstrap_poisson"
    assert result.ci_lower is not None and result.ci_upper is not None
