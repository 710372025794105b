"""Common properties of every metric kind, in the spirit of scikit-learn's ``test_common``.

``COMMON_METRICS`` lists one MetricSpec per kind, each with a hypothesis strategy of valid
per-item statistics. Adding a kind means adding a line there; every property below then applies:

* bounds: the point estimate and every bootstrap resample lie in [0, 1] (or are NaN: undefined);
* invariance to item order, and to duplicating every item (all kinds are ratios of sums);
* the fast path (``finalize(W @ S)``) equals the generic path (rebuild a table from the resampled
  items and call ``spec.value``) draw for draw, since both use the same seeded index draws;
* the percentile CI contains the point estimate on non-degenerate data;
* a paired test of a table against itself finds nothing: p = 1, Δ = 0, not significant.
"""

from __future__ import annotations

import math
from collections.abc import Callable, Sequence
from dataclasses import dataclass

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from assay.errors import UsageError
from assay.metrics import (
    MetricSpec,
    StatsTable,
    fbeta_metric,
    macro_metric,
    mean_metric,
    precision_metric,
    ratio_metric,
    recall_metric,
)
from assay.stats import (
    approximate_randomization_test,
    bootstrap_ci,
    bootstrap_distribution_generic,
    bootstrap_distributions,
    paired_bootstrap_test,
)

SETTINGS = settings(max_examples=30, deadline=None, derandomize=True)

Row = list[float]


@dataclass(frozen=True)
class CommonMetric:
    spec: MetricSpec
    row: st.SearchStrategy[Row]  # one valid item's statistics, in spec.columns order

    def __str__(self) -> str:
        return self.spec.name


# ---------------------------------------------------------------- valid per-item statistics


def _mean_row() -> st.SearchStrategy[Row]:
    """A per-item score in [0, 1], or null (0, 0)."""
    score = st.floats(0.0, 1.0, allow_nan=False)
    return st.one_of(st.just([0.0, 0.0]), score.map(lambda v: [v, 1.0]))


def _ratio_row() -> st.SearchStrategy[Row]:
    """num <= den, e.g. correct fields out of present fields (den may be 0)."""
    return st.integers(0, 3).flatmap(
        lambda den: st.integers(0, den).map(lambda num: [float(num), float(den)])
    )


def _count_row(k: int) -> st.SearchStrategy[Row]:
    return st.lists(st.integers(0, 3).map(float), min_size=k, max_size=k)


def _macro_row(n_classes: int) -> st.SearchStrategy[Row]:
    """Per class: (correct, count) with correct <= count; most items have one label."""

    def pair(count: int) -> st.SearchStrategy[Row]:
        return st.integers(0, count).map(lambda c: [float(c), float(count)])

    single = st.tuples(st.integers(0, n_classes - 1), st.booleans()).map(
        lambda cb: [
            x for c in range(n_classes) for x in ((float(cb[1]), 1.0) if c == cb[0] else (0.0, 0.0))
        ]
    )
    multi = st.lists(st.integers(0, 2).flatmap(pair), min_size=n_classes, max_size=n_classes).map(
        lambda pairs: [x for p in pairs for x in p]
    )
    return st.one_of(single, multi)


COMMON_METRICS: list[CommonMetric] = [
    CommonMetric(mean_metric("mean_score", "s"), _mean_row()),
    CommonMetric(ratio_metric("accuracy", "correct", "total"), _ratio_row()),
    CommonMetric(precision_metric("precision", "tp", "fp"), _count_row(2)),
    CommonMetric(recall_metric("recall", "tp", "fn"), _count_row(2)),
    CommonMetric(fbeta_metric("f1", "tp", "fp", "fn"), _count_row(3)),
    CommonMetric(fbeta_metric("f2", "tp", "fp", "fn", beta=2.0), _count_row(3)),
    CommonMetric(macro_metric("macro_acc", [(f"c{k}", f"n{k}") for k in range(3)]), _macro_row(3)),
]

_BUILTIN_KINDS = {"mean", "ratio", "precision", "recall", "fbeta", "macro"}


def test_registry_covers_every_builtin_kind() -> None:
    assert {m.spec.kind for m in COMMON_METRICS} == _BUILTIN_KINDS
    assert {m.spec.params.get("beta") for m in COMMON_METRICS if m.spec.kind == "fbeta"} == {
        1.0,
        2.0,
    }


def _build(spec: MetricSpec, rows: Sequence[Row], prefix: str = "item") -> StatsTable:
    """A table with the spec's columns plus an unrelated column the metric must ignore."""
    columns = (*spec.columns, "unrelated")
    values = np.array([[*row, 1e6 * (i % 3)] for i, row in enumerate(rows)], dtype=np.float64)
    values = values.reshape(len(rows), len(columns))
    return StatsTable(tuple(f"{prefix}{i}" for i in range(len(rows))), columns, values)


def tables(metric: CommonMetric, min_size: int = 1, max_size: int = 40) -> st.SearchStrategy:
    return st.lists(metric.row, min_size=min_size, max_size=max_size).map(
        lambda rows: _build(metric.spec, rows)
    )


def _generic_fn(spec: MetricSpec, columns: tuple[str, ...]) -> Callable[[Sequence], float]:
    """The slow path's metric: a table rebuilt from the resampled rows, then ``spec.value``."""

    def fn(sample: Sequence[np.ndarray]) -> float:
        values = np.array(sample, dtype=np.float64).reshape(len(sample), len(columns))
        ids = tuple(str(j) for j in range(len(sample)))  # resampled items repeat: fresh ids
        return spec.value(StatsTable(ids, columns, values))

    return fn


def _in_unit_interval(values: np.ndarray) -> bool:
    finite = values[np.isfinite(values)]
    return bool(np.all(~np.isinf(values)) and np.all((finite >= 0) & (finite <= 1)))


def _same(a: float, b: float) -> bool:
    if math.isnan(a) or math.isnan(b):
        return math.isnan(a) and math.isnan(b)
    return math.isclose(a, b, rel_tol=1e-12, abs_tol=1e-12)


metric_params = pytest.mark.parametrize("metric", COMMON_METRICS, ids=str)


# ---------------------------------------------------------------- properties


@metric_params
@SETTINGS
@given(data=st.data())
def test_bounds(metric: CommonMetric, data: st.DataObject) -> None:
    table = data.draw(tables(metric))
    spec = metric.spec
    value = spec.value(table)
    assert math.isnan(value) or 0.0 <= value <= 1.0
    dist = bootstrap_distributions(table, [spec], n_resamples=50, seed=7)[spec.name]
    assert dist.shape == (50,)
    assert _in_unit_interval(dist)


@metric_params
@SETTINGS
@given(data=st.data())
def test_invariant_to_item_order(metric: CommonMetric, data: st.DataObject) -> None:
    table = data.draw(tables(metric))
    perm = data.draw(st.permutations(range(len(table))))
    spec = metric.spec
    shuffled = StatsTable(table.ids, table.columns, table.values[perm])
    assert _same(spec.value(shuffled), spec.value(table))
    # the same through take(), which re-aligns rows by id
    assert _same(spec.value(table.take([table.ids[i] for i in perm])), spec.value(table))


@metric_params
@SETTINGS
@given(data=st.data())
def test_invariant_to_duplicating_every_item(metric: CommonMetric, data: st.DataObject) -> None:
    table = data.draw(tables(metric))
    doubled = StatsTable(
        (*table.ids, *(f"dup-{i}" for i in table.ids)),
        table.columns,
        np.vstack([table.values, table.values]),
    )
    assert _same(metric.spec.value(doubled), metric.spec.value(table))


@metric_params
@SETTINGS
@given(data=st.data(), seed=st.integers(0, 2**32 - 1))
def test_fast_path_equals_generic_path(
    metric: CommonMetric, data: st.DataObject, seed: int
) -> None:
    table = data.draw(tables(metric))
    spec = metric.spec
    n_resamples = 40
    fast = bootstrap_distributions(table, [spec], n_resamples=n_resamples, seed=seed)[spec.name]
    items = list(table.values)
    fn = _generic_fn(spec, table.columns)
    slow = bootstrap_distribution_generic(items, fn, n_resamples=n_resamples, seed=seed)
    assert fast.shape == slow.shape == (n_resamples,)
    np.testing.assert_allclose(fast, slow, rtol=1e-12, atol=1e-12, equal_nan=True)
    assert _same(fn(items), spec.value(table))


@metric_params
@SETTINGS
@given(data=st.data(), seed=st.integers(0, 2**32 - 1))
def test_percentile_ci_contains_the_point_estimate(
    metric: CommonMetric, data: st.DataObject, seed: int
) -> None:
    # non-degenerate: enough items that the bootstrap distribution has a body, a defined value
    table = data.draw(tables(metric, min_size=15))
    spec = metric.spec
    point = spec.value(table)
    if math.isnan(point):
        return
    ci = bootstrap_ci(table, spec, n_resamples=300, seed=seed)
    assert ci.lower is not None and ci.upper is not None
    assert ci.level == pytest.approx(0.95)
    assert ci.lower <= ci.upper
    # 1e-12 slack: W @ S and S.sum(0) add the same numbers in a different order
    assert ci.lower - 1e-12 <= point <= ci.upper + 1e-12


@metric_params
@SETTINGS
@given(data=st.data())
def test_paired_tests_of_a_table_with_itself_find_nothing(
    metric: CommonMetric, data: st.DataObject
) -> None:
    table = data.draw(tables(metric))
    spec = metric.spec
    value = spec.value(table)
    (boot,) = paired_bootstrap_test(table, table, [spec], n_resamples=100, seed=3)
    (ar,) = approximate_randomization_test(
        table, table, [spec], n_trials=64, n_bootstrap_ci=50, seed=3
    )
    for result in (boot, ar):
        assert result.p_value == 1.0
        assert result.significant is False
        assert result.winner is None
        if math.isnan(value):
            assert result.delta is None
        else:
            assert result.delta == 0.0
            assert result.system_a_score == result.system_b_score == pytest.approx(value)
            assert result.ci_lower == result.ci_upper == 0.0


@metric_params
def test_empty_table_cannot_be_resampled(metric: CommonMetric) -> None:
    empty = StatsTable.empty((*metric.spec.columns, "unrelated"))
    assert math.isnan(metric.spec.value(empty))
    with pytest.raises(UsageError):
        bootstrap_distributions(empty, [metric.spec], n_resamples=10)
    with pytest.raises(UsageError):
        paired_bootstrap_test(empty, empty, [metric.spec], n_resamples=10)


@SETTINGS
@given(data=st.data(), seed=st.integers(0, 2**32 - 1))
def test_all_specs_share_one_set_of_resamples(data: st.DataObject, seed: int) -> None:
    """Several specs in one call give the same distributions as each spec alone."""
    rows = data.draw(st.lists(_count_row(3), min_size=1, max_size=30))
    specs = [m.spec for m in COMMON_METRICS if m.spec.kind in {"precision", "recall", "fbeta"}]
    specs = [*specs, ratio_metric("tp_per_fp", "tp", "fp")]
    table = StatsTable(
        tuple(str(i) for i in range(len(rows))),
        ("tp", "fp", "fn"),
        np.array(rows, dtype=np.float64).reshape(len(rows), 3),
    )
    together = bootstrap_distributions(table, specs, n_resamples=30, seed=seed)
    assert list(together) == [s.name for s in specs]
    for spec in specs:
        alone = bootstrap_distributions(table, [spec], n_resamples=30, seed=seed)[spec.name]
        np.testing.assert_array_equal(together[spec.name], alone)
