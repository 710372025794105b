"""StatsRow: a statistics row over shared column names, read as the dict it stands for."""

from __future__ import annotations

import pickle

from hypothesis import given
from hypothesis import strategies as st

from assay.metrics.table import StatsTable
from assay.suites.translation._lib.statsrow import StatsRow

_NAMES = st.lists(st.text(min_size=1, max_size=6), min_size=1, max_size=12, unique=True)
_VALUE = st.floats(allow_nan=False, allow_infinity=False, width=64)


def _row(mapping: dict[str, float]) -> StatsRow:
    names = tuple(mapping)
    return StatsRow(names, {n: k for k, n in enumerate(names)}, tuple(mapping.values()))


@given(
    _NAMES.flatmap(
        lambda names: st.lists(_VALUE, min_size=len(names), max_size=len(names)).map(
            lambda values: dict(zip(names, values, strict=True))
        )
    )
)
def test_a_row_reads_as_its_dict(mapping: dict[str, float]) -> None:
    row = _row(mapping)
    assert row == mapping and dict(row) == mapping
    assert list(row) == list(mapping) and len(row) == len(mapping)
    assert list(row.values()) == list(mapping.values())
    assert list(row.items()) == list(mapping.items())
    assert all(row[name] == value for name, value in mapping.items())
    assert "\x00missing" not in row and row.get("\x00missing") is None
    assert pickle.loads(pickle.dumps(row)) == mapping
    assert type(pickle.loads(pickle.dumps(row))) is dict


def test_the_table_of_rows_is_the_table_of_their_dicts() -> None:
    dicts = [{"a": 1.0, "b": 2.5, "c": 0.0}, {"a": 3.0, "b": -1.0, "c": 7.0}]
    ids = ["x", "y"]
    got = StatsTable.from_rows(ids, [_row(d) for d in dicts])
    want = StatsTable.from_rows(ids, dicts)
    assert got.columns == want.columns and (got.values == want.values).all()
