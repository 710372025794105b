"""MetricSpec: validation, finalize/value, helpers, JSON round-trip, same_definition."""

from __future__ import annotations

import json
import math

import numpy as np
import pytest

from assay.errors import UsageError
from assay.metrics import (
    MetricSpec,
    StatsTable,
    fbeta_metric,
    macro_metric,
    mean_columns,
    mean_metric,
    precision_metric,
    ratio_metric,
    recall_metric,
)

ALL_HELPERS = [
    mean_metric("score", "s", tier="headline", description="mean per-item score"),
    ratio_metric("accuracy", "correct", "total", higher_is_better=True),
    precision_metric("precision", "tp", "fp"),
    recall_metric("recall", "tp", "fn", tier="diagnostic"),
    fbeta_metric("f1", "tp", "fp", "fn"),
    fbeta_metric("f2", "tp", "fp", "fn", beta=2.0),
    macro_metric("macro", [("c_a", "n_a"), ("c_b", "n_b")]),
    MetricSpec("error_rate", "ratio", ("wrong", "total"), higher_is_better=False),
]


def test_helpers_build_the_documented_columns() -> None:
    assert mean_metric("m", "s").columns == ("s", "s#n")
    assert mean_metric("m", "s").kind == "mean"
    assert ratio_metric("r", "a", "b").columns == ("a", "b")
    assert precision_metric("p", "tp", "fp").kind == "precision"
    assert recall_metric("r", "tp", "fn").kind == "recall"
    f2 = fbeta_metric("f", "tp", "fp", "fn", beta=2.0)
    assert (f2.kind, f2.columns, dict(f2.params)) == ("fbeta", ("tp", "fp", "fn"), {"beta": 2.0})
    assert dict(fbeta_metric("f", "tp", "fp", "fn").params) == {"beta": 1.0}
    macro = macro_metric("m", [("c1", "n1"), ("c2", "n2")])
    assert macro.columns == ("c1", "n1", "c2", "n2")


def test_mean_columns() -> None:
    assert mean_columns("s", 0.25) == {"s": 0.25, "s#n": 1.0}
    assert mean_columns("s", 0.0) == {"s": 0.0, "s#n": 1.0}
    assert mean_columns("s", None) == {"s": 0.0, "s#n": 0.0}
    assert mean_columns("s", math.nan) == {"s": 0.0, "s#n": 0.0}


def test_mean_metric_skips_null_items() -> None:
    spec = mean_metric("score", "s")
    rows = [mean_columns("s", v) for v in (1.0, None, 0.5, None, 0.0)]
    table = StatsTable.from_rows([f"i{i}" for i in range(5)], rows)
    assert spec.value(table) == pytest.approx(0.5)  # (1 + 0.5 + 0) / 3, nulls not in the count
    assert spec.is_per_item_mean
    assert not ratio_metric("r", "a", "b").is_per_item_mean


@pytest.mark.parametrize(
    ("kwargs", "message"),
    [
        ({"name": "", "kind": "ratio", "columns": ("a", "b")}, "needs a name"),
        ({"name": "m", "kind": "ratio", "columns": ()}, "no columns"),
        ({"name": "m", "kind": "ratio", "columns": ("a", "b"), "tier": "top"}, "tier"),
    ],
)
def test_invalid_specs_raise(kwargs: dict, message: str) -> None:
    with pytest.raises(UsageError, match=message):
        MetricSpec(**kwargs)


def test_columns_and_params_are_normalized() -> None:
    spec = MetricSpec("m", "fbeta", ["tp", "fp", "fn"], params={"beta": 2.0})  # type: ignore[arg-type]
    assert spec.columns == ("tp", "fp", "fn")
    assert isinstance(spec.params, dict)


def test_finalize_checks_the_number_of_sums() -> None:
    spec = fbeta_metric("f1", "tp", "fp", "fn")
    with pytest.raises(UsageError, match="expects 3 sums, got 2"):
        spec.finalize(np.ones((4, 2)))


def test_finalize_is_vectorized_and_value_is_the_point_estimate() -> None:
    spec = fbeta_metric("f2", "tp", "fp", "fn", beta=2.0)
    sums = np.array([[[3.0, 1.0, 2.0], [0.0, 0.0, 0.0]], [[1.0, 0.0, 3.0], [1.0, 3.0, 0.0]]])
    got = spec.finalize(sums)
    assert got.shape == (2, 2)
    np.testing.assert_allclose(got[0, 0], 15 / 24)
    assert math.isnan(got[0, 1])
    np.testing.assert_allclose(got[1], [5 / 17, 5 / 8])

    table = StatsTable(
        ("a", "b", "c"),
        ("fn", "junk", "tp", "fp"),  # column order of the table does not matter
        np.array([[1.0, 9.0, 2.0, 0.0], [1.0, 9.0, 0.0, 1.0], [0.0, 9.0, 1.0, 0.0]]),
    )
    # tp = 3, fp = 1, fn = 2
    assert spec.value(table) == pytest.approx(15 / 24)
    assert isinstance(spec.value(table), float)


def test_value_of_a_table_missing_a_column_raises() -> None:
    table = StatsTable(("a",), ("tp", "fp"), np.array([[1.0, 0.0]]))
    with pytest.raises(UsageError, match="unknown stats column"):
        fbeta_metric("f1", "tp", "fp", "fn").value(table)


@pytest.mark.parametrize("spec", ALL_HELPERS, ids=lambda s: s.name)
def test_json_round_trip(spec: MetricSpec) -> None:
    data = spec.to_json()
    back = MetricSpec.from_json(json.loads(json.dumps(data)))
    assert back == spec
    assert back.to_json() == data
    assert back.same_definition(spec)
    assert dict(back.params) == dict(spec.params)
    assert (back.tier, back.higher_is_better, back.description) == (
        spec.tier,
        spec.higher_is_better,
        spec.description,
    )


def test_from_json_defaults() -> None:
    spec = MetricSpec.from_json({"name": "acc", "kind": "ratio", "columns": ["c", "n"]})
    assert spec == MetricSpec("acc", "ratio", ("c", "n"))
    assert spec.tier == "core" and spec.higher_is_better and spec.params == {}


def test_same_definition() -> None:
    f1 = fbeta_metric("f1", "tp", "fp", "fn")
    # name, tier, direction and description do not change the quantity
    renamed = fbeta_metric(
        "entity_f1", "tp", "fp", "fn", tier="headline", higher_is_better=False, description="x"
    )
    assert f1.same_definition(renamed) and renamed.same_definition(f1)
    assert not f1.same_definition(fbeta_metric("f1", "tp", "fp", "fn", beta=2.0))
    assert not f1.same_definition(fbeta_metric("f1", "tp", "fn", "fp"))  # column order matters
    assert not f1.same_definition(MetricSpec("f1", "precision", ("tp", "fp")))
    assert not precision_metric("p", "tp", "fp").same_definition(recall_metric("p", "tp", "fp"))
    # the helper stores beta explicitly, so a hand-built spec with beta=1.0 is the same
    assert f1.same_definition(MetricSpec("x", "fbeta", ("tp", "fp", "fn"), params={"beta": 1.0}))


def test_specs_are_hashable_and_frozen() -> None:
    spec = fbeta_metric("f2", "tp", "fp", "fn", beta=2.0)
    assert hash(spec) == hash(fbeta_metric("f2", "tp", "fp", "fn", beta=2.0))
    with pytest.raises(AttributeError):
        spec.name = "other"  # type: ignore[misc]
