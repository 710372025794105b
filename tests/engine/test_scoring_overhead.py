"""The faster paths of ``assay.score`` outside item scoring give what the plain loops gave:
the StatsTable built from rows and written as JSON, the column order, the extraction medians."""

from __future__ import annotations

import json
import statistics
from typing import Any

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from hypothesis.extra import numpy as hnp

from assay._engine.task import ItemScore, stats_columns
from assay.errors import UsageError
from assay.metrics import StatsTable
from assay.suites.extraction._lib.diagnostics import _median, extraction_summaries
from assay.suites.extraction.metrics import _columns
from assay.suites.extraction.settings import ExtractionSettings

SETTINGS = settings(max_examples=80, deadline=None, derandomize=True)

#: values where int/float and rounding edges lie: signed zero, 2**53 either side, fractions
EDGES = [0.0, -0.0, 1.0, -7.0, 0.5, -2.5, 1 / 3, 2.0**53, 2.0**53 - 1, -(2.0**53), 2.0**60, 1e-300]
cells = st.one_of(st.sampled_from(EDGES), st.floats(allow_nan=False, allow_infinity=False))


def _compact_reference(value: float) -> float | int:
    """The cell rule as written before: whole values below 2**53 as ints."""
    return int(value) if value.is_integer() and abs(value) < 2**53 else value


def _cell_by_cell(rows: list[dict[str, float]], columns: list[str]) -> np.ndarray[Any, Any]:
    values = np.zeros((len(rows), len(columns)))
    for i, row in enumerate(rows):
        for name, value in row.items():
            values[i, columns.index(name)] = float(value)
    return values


@SETTINGS
@given(hnp.arrays(np.float64, hnp.array_shapes(min_dims=2, max_dims=2, min_side=0), elements=cells))
def test_to_json_writes_the_same_cells_with_the_same_types(values: np.ndarray[Any, Any]) -> None:
    table = StatsTable(
        tuple(f"i{k}" for k in range(values.shape[0])),
        tuple(f"c{k}" for k in range(values.shape[1])),
        values,
    )
    expected = [[_compact_reference(v) for v in row] for row in values.tolist()]
    got = table.to_json()["values"]
    assert json.dumps(got) == json.dumps(expected)
    assert [[type(v) for v in row] for row in got] == [[type(v) for v in row] for row in expected]


def test_to_json_turns_negative_zero_and_the_2_53_edge_like_before() -> None:
    table = StatsTable(("a",), ("x", "y", "z", "w"), np.array([[-0.0, 2.0**53, 2.0**53 - 1, 0.5]]))
    assert table.to_json()["values"] == [[0, 2.0**53, 2**53 - 1, 0.5]]
    assert [type(v) for v in table.to_json()["values"][0]] == [int, float, int, float]


row_strategy = st.lists(
    st.dictionaries(
        st.sampled_from(["a", "b", "c", "d", "e"]),
        st.one_of(cells, st.integers(-5, 5), st.booleans()),
        max_size=5,
    ),
    max_size=12,
)


@SETTINGS
@given(row_strategy)
def test_from_rows_fills_the_cells_row_by_row_would(rows: list[dict[str, float]]) -> None:
    ids = [f"i{k}" for k in range(len(rows))]
    columns = stats_columns([_score(row) for row in rows])
    table = StatsTable.from_rows(ids, rows, columns)
    assert table.columns == tuple(columns)
    assert np.array_equal(table.values, _cell_by_cell(rows, columns))
    assert StatsTable.from_rows(ids, rows).columns == table.columns


def test_from_rows_names_the_first_item_with_an_unknown_column() -> None:
    rows = [{"a": 1.0}, {"a": 2.0, "zz": 1.0}, {"yy": 3.0}]
    with pytest.raises(UsageError, match="item 'i1': column 'zz' is not in the table"):
        StatsTable.from_rows(["i0", "i1", "i2"], rows, ["a"])


def test_from_rows_rejects_a_value_float_rejects() -> None:
    with pytest.raises(TypeError):
        StatsTable.from_rows(["i0", "i1"], [{"a": 1.0}, {"a": None}], ["a"])  # type: ignore[dict-item]


def test_from_rows_of_no_rows_and_no_columns() -> None:
    assert StatsTable.from_rows([], [], ["a", "b"]).values.shape == (0, 2)
    assert StatsTable.from_rows(["i0"], [{}], []).values.shape == (1, 0)


def _score(stats: dict[str, float], details: dict[str, Any] | None = None) -> ItemScore:
    return ItemScore(scores={}, stats=stats, details=details or {})


def test_columns_come_in_order_of_first_appearance() -> None:
    scores = [_score({"b": 1, "a": 0}), _score({}), _score({"c": 2, "a": 1, "d": 0})]
    assert stats_columns(scores) == ["b", "a", "c", "d"]
    assert list(_columns(scores)) == ["b", "a", "c", "d"]


@SETTINGS
@given(st.lists(st.integers(0, 60), min_size=1, max_size=40))
def test_median_is_statistics_median_in_value_and_type(words: list[int]) -> None:
    expected = statistics.median(words)
    got = _median(list(words))
    assert got == expected
    assert type(got) is type(expected)


def test_posthoc_median_words_per_item() -> None:
    lists = {
        "parties": {"predicted": ["Acme Corp", "  Beta   Ltd ", "x"]},
        "key_obligations": {"predicted": ["pay the fee\tmonthly", "deliver"]},
    }
    scores = [_score({"posthoc.n_predicted": 5.0}, {"lists": lists}), _score({}, {})]

    def posthoc(s: ExtractionSettings) -> dict[str, Any]:
        found: dict[str, Any] = extraction_summaries(["a", "b"], scores, s, embedding="")["posthoc"]
        return found

    # words per item: 2, 2, 1, 4, 1 -> median 2; one document with items
    assert posthoc(ExtractionSettings())["median_words_per_item"] == 2
    chosen = ExtractionSettings(posthoc_fields=["key_obligations"])
    assert posthoc(chosen)["median_words_per_item"] == 2.5
