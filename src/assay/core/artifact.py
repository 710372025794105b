"""A run artifact read from disk checked for tampering before it is trusted.

``Run.load`` calls ``check_artifact`` on the parsed JSON before the pydantic model sees it:
pydantic would turn a metric value written as the string ``"0.9"`` into 0.9 without a word,
and a statistics table whose rows do not match its ids fails much later, in a comparison,
with an error that names no file. Every refusal here is an ``InputError`` naming the file
and the field (``metrics.accuracy.value``, ``stats.values``).
"""

from __future__ import annotations

import math
from pathlib import Path
from typing import Any

import numpy as np

from assay.errors import InputError

__all__ = ["check_artifact"]

_METRIC_NUMBERS = ("value", "ci_lower", "ci_upper", "mean", "p10", "median", "min", "max")


def _number(value: object) -> bool:
    return isinstance(value, int | float) and not isinstance(value, bool)


def _refuse(path: Path, field: str, problem: str) -> InputError:
    return InputError(f"{path}: tampered or corrupt run artifact: {field}: {problem}")


def check_artifact(data: Any, path: Path) -> None:
    """Refuse an artifact whose metrics or statistics table are not what assay writes.

    Checked: every metric number is a finite number or null (never a string or a boolean)
    and ``n`` a whole number; ``stats`` has one row of ``len(columns)`` finite numbers per id,
    unique ids, as many as ``surface.n_items``; the items, when listed, are those ids.
    """
    if not isinstance(data, dict):
        raise _refuse(path, "(top level)", "not a JSON object")
    metrics = data.get("metrics")
    if isinstance(metrics, dict):
        for name, m in metrics.items():
            if not isinstance(m, dict):
                raise _refuse(path, f"metrics.{name}", "not an object")
            for key in _METRIC_NUMBERS:
                v = m.get(key)
                if v is None:
                    continue
                if not _number(v) or not math.isfinite(v):
                    raise _refuse(path, f"metrics.{name}.{key}", f"{v!r} is not a finite number")
            n = m.get("n")
            if n is not None and (not isinstance(n, int) or isinstance(n, bool) or n < 0):
                raise _refuse(path, f"metrics.{name}.n", f"{n!r} is not a count")
    stats = data.get("stats")
    if isinstance(stats, dict):
        _check_stats(stats, data, path)


def _check_stats(stats: dict[str, Any], data: dict[str, Any], path: Path) -> None:
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
    numeric = {int, float}
    if not all(type(v) in numeric for row in values for v in row) or not bool(
        np.isfinite(np.asarray(values, dtype=np.float64)).all()
    ):
        for k, row in enumerate(values):
            for j, v in enumerate(row):
                if not _number(v) or not math.isfinite(v):
                    where = f"stats.values[{k}][{j}] ({ids[k]!r}, {columns[j]!r})"
                    raise _refuse(path, where, f"{v!r} is not a finite number")
    surface = data.get("surface")
    n_items = surface.get("n_items") if isinstance(surface, dict) else None
    if isinstance(n_items, int) and n_items != len(ids):
        raise _refuse(path, "stats.ids", f"{len(ids)} ids but surface.n_items is {n_items}")
    items = data.get("items")
    if isinstance(items, list) and items:
        listed = [it.get("id") for it in items if isinstance(it, dict)]
        if len(listed) != len(ids) or set(listed) != set(ids):
            raise _refuse(path, "items", "the item records are not the ids of stats.ids")
