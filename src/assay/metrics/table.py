"""StatsTable: the N items × K named columns of per-item sufficient statistics a task produces."""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass
from functools import cached_property
from itertools import chain
from typing import Any

import numpy as np
from numpy.typing import NDArray

from assay.errors import UsageError

FloatArray = NDArray[np.float64]


@dataclass(frozen=True, eq=False)
class StatsTable:
    """Per-item sufficient statistics: row i belongs to ``ids[i]``, column k is ``columns[k]``.

    Every metric is a function of column sums of this table, so the point estimate, every
    bootstrap resample and every paired test are matrix products with it.
    """

    ids: tuple[str, ...]
    columns: tuple[str, ...]
    values: FloatArray

    def __post_init__(self) -> None:
        values = np.asarray(self.values, dtype=np.float64)
        if values.ndim != 2:
            raise UsageError(f"StatsTable values must be 2-D, got shape {values.shape}")
        if values.shape != (len(self.ids), len(self.columns)):
            raise UsageError(
                f"StatsTable shape {values.shape} does not match "
                f"{len(self.ids)} ids × {len(self.columns)} columns"
            )
        if len(set(self.columns)) != len(self.columns):
            raise UsageError("StatsTable columns must be unique")
        if len(set(self.ids)) != len(self.ids):
            raise UsageError("StatsTable ids must be unique")
        if not np.all(np.isfinite(values)):
            raise UsageError("StatsTable values must be finite (encode nulls with a count column)")
        object.__setattr__(self, "values", values)

    @classmethod
    def from_rows(
        cls,
        ids: Sequence[str],
        rows: Sequence[Mapping[str, float]],
        columns: Sequence[str] | None = None,
    ) -> StatsTable:
        """Build from one mapping per item; a column absent from a row counts as 0."""
        if len(ids) != len(rows):
            raise UsageError(f"{len(ids)} ids but {len(rows)} rows")
        if columns is None:
            columns = list(dict.fromkeys(chain.from_iterable(rows)))
        index = {name: k for k, name in enumerate(columns)}
        try:
            values = _filled(rows, index)
        except (KeyError, TypeError, ValueError):
            values = _filled_checked(ids, rows, index)  # raises the error of the first bad cell
        return cls(tuple(ids), tuple(columns), values)

    @classmethod
    def empty(cls, columns: Iterable[str] = ()) -> StatsTable:
        cols = tuple(columns)
        return cls((), cols, np.zeros((0, len(cols))))

    def __len__(self) -> int:
        return len(self.ids)

    @cached_property
    def _positions(self) -> dict[str, int]:
        """Column name → position, made once per table (a run's metrics look columns up a
        few hundred times)."""
        return {name: k for k, name in enumerate(self.columns)}

    def column_index(self, names: Sequence[str]) -> list[int]:
        """Positions of ``names``; an unknown name is an error that lists what exists."""
        index = self._positions
        missing = [n for n in names if n not in index]
        if missing:
            raise UsageError(f"unknown stats column(s) {missing}; table has {list(self.columns)}")
        return [index[n] for n in names]

    def select(self, names: Sequence[str]) -> FloatArray:
        """The (N, len(names)) sub-matrix of the named columns."""
        return self.values[:, self.column_index(names)]

    def column(self, name: str) -> FloatArray:
        return self.values[:, self.column_index([name])[0]]

    def sums(self) -> FloatArray:
        return np.asarray(self.values.sum(axis=0), dtype=np.float64)

    def take(self, ids: Sequence[str]) -> StatsTable:
        """Rows for ``ids`` in that order (the alignment step of a paired test)."""
        pos = {item_id: i for i, item_id in enumerate(self.ids)}
        missing = [i for i in ids if i not in pos]
        if missing:
            raise UsageError(f"ids not in table: {missing[:5]}")
        rows = [pos[i] for i in ids]
        return StatsTable(tuple(ids), self.columns, self.values[rows])

    def to_json(self) -> dict[str, Any]:
        return {
            "ids": list(self.ids),
            "columns": list(self.columns),
            "values": compact_rows(self.values),
        }

    @classmethod
    def from_json(cls, data: Mapping[str, Any]) -> StatsTable:
        ids = [str(i) for i in data["ids"]]
        columns = [str(c) for c in data["columns"]]
        values = np.asarray(data["values"], dtype=np.float64).reshape(len(ids), len(columns))
        return cls(tuple(ids), tuple(columns), values)


def _filled(rows: Sequence[Mapping[str, float]], index: Mapping[str, int]) -> FloatArray:
    """The (N, K) matrix of ``rows``, absent cells 0, filled by one scatter over all cells."""
    values = np.zeros((len(rows), len(index)), dtype=np.float64)
    lengths = np.fromiter(map(len, rows), dtype=np.intp, count=len(rows))
    n = int(lengths.sum())
    cols = np.fromiter(map(index.__getitem__, chain.from_iterable(rows)), dtype=np.intp, count=n)
    cells = np.fromiter(
        map(float, chain.from_iterable(row.values() for row in rows)), dtype=np.float64, count=n
    )
    values[np.repeat(np.arange(len(rows)), lengths), cols] = cells
    return values


def _filled_checked(
    ids: Sequence[str], rows: Sequence[Mapping[str, float]], index: Mapping[str, int]
) -> FloatArray:
    """The (N, K) matrix of ``rows`` cell by cell: an unknown column names its item."""
    values = np.zeros((len(rows), len(index)), dtype=np.float64)
    for i, row in enumerate(rows):
        for name, value in row.items():
            if name not in index:
                raise UsageError(f"item {ids[i]!r}: column {name!r} is not in the table")
            values[i, index[name]] = float(value)
    return values


def compact_rows(values: FloatArray) -> list[list[float | int]]:
    """The rows as Python numbers, whole values below 2**53 as ints so the artifact stays small
    and byte-stable (``int(v) if v.is_integer() and abs(v) < 2**53 else v``, found by numpy)."""
    whole = (values == np.trunc(values)) & (np.abs(values) < 2**53)
    if not whole.any():
        rows: list[list[float | int]] = values.tolist()
        return rows
    mixed = values.astype(object)
    mixed[whole] = values[whole].astype(np.int64).astype(object)
    out: list[list[float | int]] = mixed.tolist()
    return out
