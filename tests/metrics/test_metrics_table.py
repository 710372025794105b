"""StatsTable: validation, construction from rows, alignment by ids, JSON round-trip."""

from __future__ import annotations

import json
import math

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from hypothesis.extra import numpy as hnp

from assay.errors import UsageError
from assay.metrics import StatsTable

SETTINGS = settings(max_examples=60, deadline=None, derandomize=True)


def _table() -> StatsTable:
    return StatsTable(
        ("a", "b", "c"),
        ("tp", "fp", "fn"),
        np.array([[1.0, 0.0, 2.0], [3.0, 1.0, 0.0], [0.5, 2.0, 1.0]]),
    )


# ---------------------------------------------------------------- validation


@pytest.mark.parametrize(
    ("ids", "columns", "values", "message"),
    [
        (("a", "b"), ("x",), np.zeros((3, 1)), "does not match"),
        (("a", "b"), ("x", "y"), np.zeros((2, 3)), "does not match"),
        (("a",), ("x",), np.zeros(1), "2-D"),
        (("a",), ("x",), np.zeros((1, 1, 1)), "2-D"),
        (("a", "a"), ("x",), np.zeros((2, 1)), "ids must be unique"),
        (("a", "b"), ("x", "x"), np.zeros((2, 2)), "columns must be unique"),
        (("a", "b"), ("x",), np.array([[1.0], [math.nan]]), "finite"),
        (("a", "b"), ("x",), np.array([[math.inf], [1.0]]), "finite"),
        (("a", "b"), ("x",), np.array([[1.0], [-math.inf]]), "finite"),
    ],
)
def test_invalid_tables_raise_usage_error(
    ids: tuple[str, ...], columns: tuple[str, ...], values: np.ndarray, message: str
) -> None:
    with pytest.raises(UsageError, match=message):
        StatsTable(ids, columns, values)


def test_values_are_stored_as_float64() -> None:
    table = StatsTable(("a", "b"), ("x",), np.array([[1], [2]], dtype=np.int32))
    assert table.values.dtype == np.float64
    table = StatsTable(("a",), ("x", "y"), [[1, 2]])  # a nested list is accepted too
    assert table.values.dtype == np.float64
    np.testing.assert_array_equal(table.values, [[1.0, 2.0]])


def test_empty_table() -> None:
    table = StatsTable.empty(["x", "y"])
    assert len(table) == 0
    assert table.columns == ("x", "y")
    assert table.values.shape == (0, 2)
    np.testing.assert_array_equal(table.sums(), [0.0, 0.0])
    assert StatsTable.from_json(table.to_json()).values.shape == (0, 2)


# ---------------------------------------------------------------- from_rows


def test_from_rows_missing_columns_count_as_zero() -> None:
    table = StatsTable.from_rows(
        ["i1", "i2", "i3"], [{"tp": 2, "fp": 1}, {"fn": 3}, {"tp": 1, "fn": 1}]
    )
    # columns in order of first appearance
    assert table.columns == ("tp", "fp", "fn")
    np.testing.assert_array_equal(table.values, [[2, 1, 0], [0, 0, 3], [1, 0, 1]])
    assert table.ids == ("i1", "i2", "i3")


def test_from_rows_with_explicit_columns() -> None:
    table = StatsTable.from_rows(["i1", "i2"], [{"b": 1.5}, {}], columns=["a", "b", "c"])
    assert table.columns == ("a", "b", "c")
    np.testing.assert_array_equal(table.values, [[0.0, 1.5, 0.0], [0.0, 0.0, 0.0]])


def test_from_rows_rejects_a_column_outside_the_given_ones() -> None:
    with pytest.raises(UsageError, match="'z'"):
        StatsTable.from_rows(["i1"], [{"z": 1.0}], columns=["a"])


def test_from_rows_rejects_length_mismatch() -> None:
    with pytest.raises(UsageError, match="2 ids but 1 rows"):
        StatsTable.from_rows(["i1", "i2"], [{"a": 1.0}])


def test_from_rows_validates_like_the_constructor() -> None:
    with pytest.raises(UsageError, match="ids must be unique"):
        StatsTable.from_rows(["i1", "i1"], [{"a": 1.0}, {"a": 2.0}])
    with pytest.raises(UsageError, match="finite"):
        StatsTable.from_rows(["i1"], [{"a": math.nan}])


# ---------------------------------------------------------------- access


def test_select_column_and_sums() -> None:
    table = _table()
    np.testing.assert_array_equal(table.select(["fn", "tp"]), [[2, 1], [0, 3], [1, 0.5]])
    np.testing.assert_array_equal(table.column("fp"), [0, 1, 2])
    np.testing.assert_array_equal(table.sums(), [4.5, 3.0, 3.0])
    assert table.column_index(["fn", "tp"]) == [2, 0]
    with pytest.raises(UsageError, match="unknown stats column"):
        table.select(["tp", "nope"])


def test_take_returns_rows_in_the_requested_order() -> None:
    table = _table()
    taken = table.take(["c", "a"])
    assert taken.ids == ("c", "a")
    assert taken.columns == table.columns
    np.testing.assert_array_equal(taken.values, table.values[[2, 0]])
    # a full permutation keeps every row attached to its id
    perm = table.take(["b", "c", "a"])
    for item_id in table.ids:
        np.testing.assert_array_equal(
            perm.values[perm.ids.index(item_id)], table.values[table.ids.index(item_id)]
        )


def test_take_unknown_id_raises() -> None:
    with pytest.raises(UsageError, match="ids not in table"):
        _table().take(["a", "zzz"])


def test_take_does_not_alias_the_original() -> None:
    table = _table()
    taken = table.take(["a", "b", "c"])
    taken.values[0, 0] = 99.0
    assert table.values[0, 0] == 1.0


# ---------------------------------------------------------------- JSON


def test_to_json_is_compact_and_json_serializable() -> None:
    data = _table().to_json()
    assert data == {
        "ids": ["a", "b", "c"],
        "columns": ["tp", "fp", "fn"],
        "values": [[1, 0, 2], [3, 1, 0], [0.5, 2, 1]],
    }
    assert isinstance(data["values"][0][0], int)
    assert isinstance(data["values"][2][0], float)
    json.dumps(data)


_finite = st.floats(allow_nan=False, allow_infinity=False, width=64)
_values = st.one_of(st.integers(-(2**60), 2**60).map(float), _finite)


@st.composite
def _tables(draw: st.DrawFn) -> StatsTable:
    n = draw(st.integers(0, 6))
    k = draw(st.integers(0, 4))
    ids = draw(st.lists(st.text(max_size=5), min_size=n, max_size=n, unique=True))
    columns = draw(st.lists(st.text(max_size=5), min_size=k, max_size=k, unique=True))
    values = draw(hnp.arrays(np.float64, (n, k), elements=_values))
    return StatsTable(tuple(ids), tuple(columns), values)


@SETTINGS
@given(table=_tables())
def test_json_round_trip_is_exact(table: StatsTable) -> None:
    text = json.dumps(table.to_json())
    back = StatsTable.from_json(json.loads(text))
    assert back.ids == table.ids
    assert back.columns == table.columns
    assert back.values.shape == table.values.shape
    np.testing.assert_array_equal(back.values, table.values)
    # and it is byte-stable
    assert json.dumps(back.to_json()) == text
