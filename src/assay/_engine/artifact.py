"""A run artifact read from disk checked for tampering before it is trusted.

``Run.from_bytes`` parses the bytes once, straight into the models; ``MetricResult``'s numbers
go through ``refuse_input`` (pydantic would turn a metric value written as the string ``"0.9"``
into 0.9 without a word), and ``check_run`` then checks the validated run, because a statistics
table whose rows do not match its ids fails much later, in a comparison, with an error that
names no file. Every refusal here is an ``InputError`` naming the file
and the field (``metrics.accuracy.value``, ``stats.values``).
"""

from __future__ import annotations

import math
from collections.abc import Mapping
from itertools import chain
from pathlib import Path
from typing import Any, Protocol

import numpy as np
from numpy.typing import NDArray

from assay.errors import InputError

__all__ = ["CheckedRun", "check_items", "check_run", "refuse_input"]

_METRIC_NUMBERS = ("value", "ci_lower", "ci_upper", "mean", "p10", "median", "min", "max")


class _Surface(Protocol):
    @property
    def n_items(self) -> int: ...


class CheckedRun(Protocol):
    """What ``check_run`` reads of a run (``_engine.run.Run`` has it all): the checks sit
    below the model they check, which calls them as it reads an artifact."""

    @property
    def metrics(self) -> Mapping[str, Any]: ...

    @property
    def stats(self) -> dict[str, Any]: ...

    @property
    def surface(self) -> _Surface: ...

    def item_ids(self) -> list[str]: ...


def _number(value: object) -> bool:
    return isinstance(value, int | float) and not isinstance(value, bool)


def _finite(value: float) -> bool:
    try:
        return math.isfinite(value)
    except OverflowError:  # an int too large for a float
        return False


def refuse_input(value: object) -> object:
    """A ``mode="before"`` validator for an artifact's numbers: pydantic would read the string
    ``"0.9"`` as 0.9 (and ``true`` as 1) without a word; a tampered number is refused."""
    if isinstance(value, str | bool):
        raise ValueError(f"{value!r} is not a finite number")
    return value


def _refuse(path: Path, field: str, problem: str) -> InputError:
    return InputError(f"{path}: tampered or corrupt run artifact: {field}: {problem}")


def check_run(run: CheckedRun, path: Path, *, items: bool = True) -> NDArray[np.float64] | None:
    """Refuse a run read from disk whose metrics or statistics table are not what assay writes.

    Checked on the validated model (the bytes are parsed once, by ``Run.from_bytes``): every
    metric number finite or null and ``n`` a count (a string or boolean never reaches here:
    ``MetricResult`` refuses them as input); ``stats`` has one row of ``len(columns)`` finite
    numbers per id, unique ids, as many as ``surface.n_items``; the items, when listed, are
    those ids (``items=False``: the records are checked when they are read, ``check_items``).

    Returns the statistics rows as the float64 matrix the check built (read-only; ``Run.table``
    reuses it instead of converting the rows again), None for a run without statistics.
    """
    for name, m in run.metrics.items():
        for key in _METRIC_NUMBERS:
            v = getattr(m, key)
            if v is not None and not math.isfinite(v):
                raise _refuse(path, f"metrics.{name}.{key}", f"{v!r} is not a finite number")
        if m.n < 0:
            raise _refuse(path, f"metrics.{name}.n", f"{m.n!r} is not a count")
    if not run.stats:
        return None
    return _check_stats(run.stats, run.surface.n_items, run.item_ids() if items else [], path)


def check_items(ids: list[str] | None, listed: list[str], path: Path) -> None:
    """Refuse item records (``listed``: their ids) that are not those of ``stats.ids``
    (``ids`` None: a run without statistics, nothing to hold them to)."""
    if ids is not None and listed and (len(listed) != len(ids) or set(listed) != set(ids)):
        raise _refuse(path, "items", "the item records are not the ids of stats.ids")


def _check_stats(
    stats: dict[str, Any], n_items: int, listed: list[str], path: Path
) -> NDArray[np.float64]:
    ids, columns, values = stats.get("ids"), stats.get("columns"), stats.get("values")
    if not isinstance(ids, list) or not all(isinstance(i, str) for i in ids):
        raise _refuse(path, "stats.ids", "not a list of ids")
    if not isinstance(columns, list) or not all(isinstance(c, str) for c in columns):
        raise _refuse(path, "stats.columns", "not a list of column names")
    if not isinstance(values, list):
        raise _refuse(path, "stats.values", "not a list of rows")
    if len(values) != len(ids):
        raise _refuse(path, "stats.values", f"{len(values)} rows for {len(ids)} ids")
    if len(set(ids)) != len(ids):
        raise _refuse(path, "stats.ids", "an id appears twice")
    width = len(columns)
    for k, row in enumerate(values):
        if not isinstance(row, list) or len(row) != width:
            raise _refuse(path, f"stats.values[{k}]", f"not a row of {width} numbers")
    # the common case in one pass over the cells, the culprit named only when there is one
    # (the cells' types gathered by C-level iteration: a bool or a string is refused by name
    # below, which numpy's conversion would take as 1.0 or parse)
    kinds = set(map(type, chain.from_iterable(values)))
    matrix = None
    if kinds <= {int, float}:  # the rows are all `width` long: one flat pass (asarray's values)
        try:
            cells = np.fromiter(chain.from_iterable(values), np.float64, count=len(values) * width)
            matrix = cells.reshape(len(values), width)
        except OverflowError:  # an integer beyond any float: named below
            pass
    if matrix is None or not bool(np.isfinite(matrix).all()):
        for k, row in enumerate(values):
            for j, v in enumerate(row):
                if not _number(v) or not _finite(v):
                    where = f"stats.values[{k}][{j}] ({ids[k]!r}, {columns[j]!r})"
                    raise _refuse(path, where, f"{v!r} is not a finite number")
    assert matrix is not None  # every cell was a finite int or float
    if n_items != len(ids):
        raise _refuse(path, "stats.ids", f"{len(ids)} ids but surface.n_items is {n_items}")
    clusters = stats.get("clusters")
    if clusters is not None and (
        not isinstance(clusters, list)
        or len(clusters) != len(ids)
        or not all(isinstance(c, str) for c in clusters)
    ):
        raise _refuse(path, "stats.clusters", f"not one cluster label per id ({len(ids)} ids)")
    check_items(ids, listed, path)
    matrix.flags.writeable = False
    return matrix
