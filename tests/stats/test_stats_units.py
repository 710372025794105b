"""Clusters as resampling units: collapsing keeps every point estimate, resamples clusters."""

from __future__ import annotations

import numpy as np
import pytest
import scipy.stats
from hypothesis import given, settings
from hypothesis import strategies as st

from assay.errors import UsageError
from assay.metrics.spec import mean_columns, mean_metric, ratio_metric
from assay.metrics.table import StatsTable
from assay.stats import bootstrap_distributions, paired_test
from assay.stats.units import (
    ITEMS,
    Units,
    cluster_codes,
    collapse,
    design_effect,
    few_units_factor,
    student_t_cdf,
    student_t_quantile,
    widen,
)

ACC = mean_metric("accuracy", "acc")


def _table(values: list[float]) -> StatsTable:
    ids = [f"i{k}" for k in range(len(values))]
    return StatsTable.from_rows(ids, [mean_columns("acc", v) for v in values])


def test_cluster_codes_keep_first_appearance_order() -> None:
    codes, names = cluster_codes(["b", "a", "b", "c", "a"])
    assert names == ("b", "a", "c") and codes.tolist() == [0, 1, 0, 2, 1]


def test_collapse_sums_rows_per_cluster() -> None:
    t = _table([1.0, 0.0, 1.0, 1.0])
    c = collapse(t, ["x", "y", "x", "y"])
    assert c.ids == ("x", "y") and c.columns == t.columns
    assert c.values.tolist() == [[2.0, 2.0], [1.0, 2.0]]
    with pytest.raises(UsageError, match="3 cluster labels for 4 items"):
        collapse(t, ["x", "y", "x"])


@settings(max_examples=60, deadline=None)
@given(
    st.lists(
        st.tuples(st.floats(0, 1, allow_nan=False), st.integers(0, 6)), min_size=1, max_size=40
    )
)
def test_collapse_keeps_every_point_estimate(rows: list[tuple[float, int]]) -> None:
    """finalize(Σ rows) is the same over items and over cluster sums, for any grouping."""
    t = _table([v for v, _ in rows])
    labels = [f"c{g}" for _, g in rows]
    c = collapse(t, labels)
    assert len(c) == len(set(labels))
    np.testing.assert_allclose(c.sums(), t.sums(), rtol=1e-12, atol=1e-12)
    ratio = ratio_metric("r", "acc", "acc#n")
    assert ACC.value(c) == pytest.approx(ACC.value(t))
    assert ratio.value(c) == pytest.approx(ratio.value(t))


def test_singleton_clusters_are_the_iid_bootstrap() -> None:
    t = _table(list(np.random.default_rng(1).random(30)))
    iid = bootstrap_distributions(t, [ACC], n_resamples=200, seed=3)["accuracy"]
    one_each = collapse(t, [f"c{k}" for k in range(30)])
    clustered = bootstrap_distributions(one_each, [ACC], n_resamples=200, seed=3)["accuracy"]
    np.testing.assert_array_equal(iid, clustered)


def test_design_effect_of_perfectly_correlated_clusters() -> None:
    """40 clusters of 10 identical items: the cluster bootstrap's variance is about 10× the iid
    one (deff = 1 + (m − 1)ρ with ρ = 1)."""
    rng = np.random.default_rng(5)
    per_cluster = rng.integers(0, 2, 40).astype(float)
    t = _table([float(v) for v in np.repeat(per_cluster, 10)])
    labels = [f"c{k}" for k in np.repeat(np.arange(40), 10)]
    iid = bootstrap_distributions(t, [ACC], n_resamples=2000, seed=1)["accuracy"]
    cl = bootstrap_distributions(collapse(t, labels), [ACC], n_resamples=2000, seed=1)["accuracy"]
    deff = design_effect(cl, iid)
    assert deff is not None and 8.0 < deff < 12.5
    assert design_effect(np.zeros(5), np.zeros(5)) is None


@pytest.mark.parametrize("df", [1, 2, 3, 5, 9, 29, 136, 1000])
@pytest.mark.parametrize("q", [0.6, 0.975, 0.995])
def test_student_t_matches_scipy(df: int, q: float) -> None:
    assert student_t_quantile(q, df) == pytest.approx(scipy.stats.t.ppf(q, df), rel=1e-9)
    assert student_t_quantile(1 - q, df) == pytest.approx(scipy.stats.t.ppf(1 - q, df), rel=1e-9)
    assert student_t_cdf(1.3, df) == pytest.approx(scipy.stats.t.cdf(1.3, df), rel=1e-10)


def test_few_units_factor() -> None:
    z = scipy.stats.norm.ppf(0.975)
    for m in (2, 10, 30, 137):
        expected = np.sqrt(m / (m - 1)) * scipy.stats.t.ppf(0.975, m - 1) / z
        assert few_units_factor(m) == pytest.approx(expected, rel=1e-9)
    assert few_units_factor(1) == 1.0 and few_units_factor(10) > few_units_factor(100) > 1.0
    assert widen(0.1, 0.5, 0.4, 2.0) == pytest.approx((-0.2, 0.6))
    assert widen(None, 0.5, 0.4, 2.0) == (None, 0.5)


def test_units_validate_and_name_themselves() -> None:
    assert ITEMS.name == "item" and not ITEMS.clustered
    assert Units("contract", ("a",)).name == "contract"
    with pytest.raises(UsageError):
        Units("contract", None)


def test_paired_test_over_clusters_swaps_clusters() -> None:
    """8 clusters of 5 items: the exact test over clusters enumerates 2⁸ swaps (min p 2/256),
    where over the 40 items AR would decide; the unit and count are on each result."""
    rng = np.random.default_rng(2)
    a = _table(list(rng.random(40)))
    b = _table(list(rng.random(40)))
    units = Units("doc", tuple(f"d{k // 5}" for k in range(40)))
    (r,) = paired_test(a, b, [ACC], units=units)
    assert r.method == "exact_sign_flip" and r.n_bootstrap == 256
    assert r.unit == "doc" and r.n_units == 8 and r.min_p == pytest.approx(2 / 256)
    (flat,) = paired_test(a, b, [ACC])
    assert flat.method == "approximate_randomization" and flat.n_units == 40
    assert r.delta == pytest.approx(flat.delta)
