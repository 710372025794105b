"""MetricSpec: a metric named by the columns it sums and the kind that finalizes the sums."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from functools import lru_cache
from typing import Any, Literal

import numpy as np

from assay.errors import UsageError
from assay.metrics.kinds import FloatArray, get_kind
from assay.metrics.table import StatsTable

Tier = Literal["headline", "core", "diagnostic"]
TIERS: tuple[Tier, ...] = ("headline", "core", "diagnostic")


@dataclass(frozen=True)
class MetricSpec:
    """One metric: ``finalize(S[:, columns].sum(0))`` with ``finalize`` the registered ``kind``.

    ``finalize`` is vectorized over any leading axes, so a (B, k) matrix of resampled sums gives
    B scores in one call. ``tier`` drives gates and reports; ``higher_is_better`` drives winners.
    """

    name: str
    kind: str
    columns: tuple[str, ...]
    params: Mapping[str, Any] = field(default_factory=dict, hash=False)
    tier: Tier = "core"
    higher_is_better: bool = True
    description: str = ""

    def __post_init__(self) -> None:
        if not self.name:
            raise UsageError("a MetricSpec needs a name")
        if not self.columns:
            raise UsageError(f"metric {self.name!r}: no columns")
        if self.tier not in TIERS:
            raise UsageError(
                f"metric {self.name!r}: tier must be one of {TIERS}, not {self.tier!r}"
            )
        object.__setattr__(self, "columns", tuple(self.columns))
        object.__setattr__(self, "params", dict(self.params))

    def finalize(self, sums: FloatArray) -> FloatArray:
        """Scores from sums of shape (..., len(columns))."""
        sums = np.asarray(sums, dtype=np.float64)
        if sums.shape[-1] != len(self.columns):
            raise UsageError(
                f"metric {self.name!r} expects {len(self.columns)} sums, got {sums.shape[-1]}"
            )
        return np.asarray(get_kind(self.kind)(sums, **self.params), dtype=np.float64)

    def value(self, table: StatsTable) -> float:
        """The point estimate on a whole table."""
        return float(self.finalize(table.select(self.columns).sum(axis=0)))

    @property
    def is_per_item_mean(self) -> bool:
        """A mean of a per-item score: its run entry also carries p10/median/min/max."""
        return self.kind == "mean"

    def to_json(self) -> dict[str, Any]:
        return {
            "name": self.name,
            "kind": self.kind,
            "columns": list(self.columns),
            "params": dict(self.params),
            "tier": self.tier,
            "higher_is_better": self.higher_is_better,
            "description": self.description,
        }

    @classmethod
    def from_json(cls, data: Mapping[str, Any]) -> MetricSpec:
        return cls(
            name=str(data["name"]),
            kind=str(data["kind"]),
            columns=tuple(str(c) for c in data["columns"]),
            params=dict(data.get("params", {})),
            tier=data.get("tier", "core"),
            higher_is_better=bool(data.get("higher_is_better", True)),
            description=str(data.get("description", "")),
        )

    def same_definition(self, other: MetricSpec) -> bool:
        """True when two specs compute the same quantity (so a paired test is meaningful)."""
        return (
            self.kind == other.kind
            and self.columns == other.columns
            and dict(self.params) == dict(other.params)
        )


def mean_metric(name: str, column: str, **kw: Any) -> MetricSpec:
    """Mean of a per-item score stored as ``column`` with its defined-count ``column#n``."""
    return MetricSpec(name, "mean", (column, f"{column}#n"), **kw)


def ratio_metric(name: str, num: str, den: str, **kw: Any) -> MetricSpec:
    """Micro ratio Σnum / Σden."""
    return MetricSpec(name, "ratio", (num, den), **kw)


def precision_metric(name: str, tp: str, fp: str, **kw: Any) -> MetricSpec:
    return MetricSpec(name, "precision", (tp, fp), **kw)


def recall_metric(name: str, tp: str, fn: str, **kw: Any) -> MetricSpec:
    return MetricSpec(name, "recall", (tp, fn), **kw)


def fbeta_metric(name: str, tp: str, fp: str, fn: str, beta: float = 1.0, **kw: Any) -> MetricSpec:
    return MetricSpec(name, "fbeta", (tp, fp, fn), params={"beta": beta}, **kw)


def macro_metric(name: str, pairs: Sequence[tuple[str, str]], **kw: Any) -> MetricSpec:
    """Macro average over classes given as (correct column, count column) pairs."""
    cols = tuple(c for pair in pairs for c in pair)
    return MetricSpec(name, "macro", cols, **kw)


def mean_columns(column: str, value: float | None) -> dict[str, float]:
    """The two stats a per-item mean needs: ``{column: v or 0, column#n: 1 or 0}``."""
    count = _count_column(column)
    # NaN is the one float unequal to itself
    if value is None or (isinstance(value, float) and value != value):
        return {column: 0.0, count: 0.0}
    return {column: float(value), count: 1.0}


@lru_cache(maxsize=4096)
def _count_column(column: str) -> str:
    """``column#n``, built once per column name (rows repeat the same few names)."""
    return f"{column}#n"
