"""Plugin metrics (seed 001): every numeric value under an entry's ``plugin_metrics`` becomes a
per-entry mean, so any plugin's metric gets a CI and a paired test with no plugin code."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

PREFIX = "plugin_metrics"
#: the stats columns of plugin metrics start with this
PLUGIN_COLUMN = "plugin:"


def flatten_numeric(values: Mapping[str, Any], prefix: str = PREFIX) -> dict[str, float]:
    """Dotted paths of the numeric leaves (booleans as 0/1); strings and lists are skipped.

    ``{"crk": {"fst_valid": true}}`` → ``{"plugin_metrics.crk.fst_valid": 1.0}``
    """
    out: dict[str, float] = {}
    for key, value in values.items():
        path = f"{prefix}.{key}"
        if isinstance(value, Mapping):
            out.update(flatten_numeric(value, path))
        elif isinstance(value, bool):
            out[path] = 1.0 if value else 0.0
        elif isinstance(value, int | float) and value == value and abs(value) != float("inf"):
            out[path] = float(value)
    return out


def column_of(name: str) -> str:
    """The stats column of a plugin metric (its mean_columns value column)."""
    return f"{PLUGIN_COLUMN}{name}"
