"""Resampling units: items, or clusters of items whose statistics rows are summed first.

Every metric is ``finalize(Σ rows)``, so summing the rows of a cluster (the contract of a clause,
the document of a segment, the paper of a claim) leaves every point estimate unchanged, and
resampling the summed rows is the cluster bootstrap of every metric kind at once:

    S_c = Σ_{i ∈ c} S_i,   θ = finalize(Σ_c S_c) = finalize(Σ_i S_i),   θ* = finalize(W S_C).

Paired tests swap a cluster's summed rows between the systems, which is the sign-flip test over
clusters. The design effect of a headline is deff = Var_cluster(θ*) / Var_iid(θ*): how many times
the iid variance understates the variance over the units actually sampled.
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from dataclasses import dataclass
from statistics import NormalDist

import numpy as np
from numpy.typing import NDArray

from assay.errors import UsageError
from assay.metrics.kinds import FloatArray
from assay.metrics.table import StatsTable

IntArray = NDArray[np.intp]
#: below this many clusters a cluster bootstrap's coverage may be poor (it is said, and widened)
FEW_CLUSTERS = 30


@dataclass(frozen=True)
class Units:
    """The resampling units of a table: ``labels[i]`` is the cluster of row i (``by`` names the
    field it came from), or None for iid items."""

    by: str | None = None
    labels: tuple[str, ...] | None = None

    def __post_init__(self) -> None:
        if (self.by is None) != (self.labels is None):
            raise UsageError("a cluster needs both its field name and one label per item")

    @property
    def clustered(self) -> bool:
        return self.labels is not None

    @property
    def name(self) -> str:
        """``item`` or the cluster field: what the resampling unit is called in outputs."""
        return self.by if self.by is not None else "item"


ITEMS = Units()


def cluster_codes(labels: Sequence[str]) -> tuple[IntArray, tuple[str, ...]]:
    """(code per label, distinct labels in order of first appearance): code[i] indexes them."""
    index: dict[str, int] = {}
    codes = np.fromiter(
        (index.setdefault(label, len(index)) for label in labels), dtype=np.intp, count=len(labels)
    )
    return codes, tuple(index)


def collapse(table: StatsTable, labels: Sequence[str]) -> StatsTable:
    """The table of cluster sums: one row per distinct label (first-appearance order), its id
    the label, its cells the sum of its items' rows (S_c = Σ_{i ∈ c} S_i)."""
    if len(labels) != len(table):
        raise UsageError(f"{len(labels)} cluster labels for {len(table)} items")
    codes, names = cluster_codes(labels)
    sums = np.zeros((len(names), len(table.columns)), dtype=np.float64)
    if len(table):
        order = np.argsort(codes, kind="stable")
        starts = np.flatnonzero(np.r_[True, np.diff(codes[order]) != 0])
        sums[codes[order][starts]] = np.add.reduceat(table.values[order], starts, axis=0)
    return StatsTable(names, table.columns, sums)


def resampling_table(table: StatsTable, units: Units) -> StatsTable:
    """The table whose rows are resampled: ``table`` for items, its cluster sums otherwise."""
    if units.labels is None:
        return table
    return collapse(table, units.labels)


def aligned_units(
    table_a: StatsTable, table_b: StatsTable, units: Units
) -> tuple[StatsTable, StatsTable]:
    """Both systems' tables collapsed by the same units (aligned on the cluster labels)."""
    if units.labels is None:
        return table_a, table_b
    return collapse(table_a, units.labels), collapse(table_b, units.labels)


def design_effect(clustered: FloatArray, iid: FloatArray) -> float | None:
    """deff = Var(θ* over clusters) / Var(θ* over items), from two bootstrap distributions;
    None when either variance is undefined or the iid one is 0."""
    a, b = clustered[np.isfinite(clustered)], iid[np.isfinite(iid)]
    if a.size < 2 or b.size < 2:
        return None
    var_iid = float(b.var(ddof=1))
    if var_iid <= 0:
        return None
    return float(a.var(ddof=1)) / var_iid


def few_units_factor(n_units: int, alpha: float = 0.05) -> float:
    """c(m) = √(m / (m − 1)) · t_{m−1, 1−α/2} / z_{1−α/2}: how much wider a percentile interval
    over m clusters is made (the bootstrap's variance is (m − 1)/m of the unbiased one, and
    with few clusters the t quantile, not the normal one, holds). 1 for m < 2."""
    if n_units < 2:
        return 1.0
    z = NormalDist().inv_cdf(1 - alpha / 2)
    return math.sqrt(n_units / (n_units - 1)) * student_t_quantile(1 - alpha / 2, n_units - 1) / z


def widen(
    lower: float | None, upper: float | None, centre: float, factor: float
) -> tuple[float | None, float | None]:
    """The interval's distances from ``centre`` multiplied by ``factor`` (the percentile
    interval's asymmetry kept)."""
    if lower is None or upper is None or not math.isfinite(centre) or factor == 1.0:
        return lower, upper
    return centre - (centre - lower) * factor, centre + (upper - centre) * factor


def student_t_quantile(q: float, df: int) -> float:
    """The q quantile of Student's t with ``df`` degrees of freedom (Hill's 1970 expansion,
    refined by Newton steps on the regularized incomplete beta; accurate to 1e-10)."""
    if df < 1:
        raise UsageError(f"degrees of freedom must be >= 1, got {df}")
    if not 0 < q < 1:
        raise UsageError(f"quantile level must be in (0, 1), got {q}")
    if q == 0.5:
        return 0.0
    if q < 0.5:
        return -student_t_quantile(1 - q, df)
    x = NormalDist().inv_cdf(q)
    for _ in range(50):
        f = student_t_cdf(x, df) - q
        step = f / _t_pdf(x, df)
        x -= step
        if abs(step) < 1e-12 * max(1.0, abs(x)):
            break
    return x


def student_t_cdf(x: float, df: int) -> float:
    """P(T ≤ x) for Student's t: 1 − I_{df/(df+x²)}(df/2, 1/2)/2 for x ≥ 0."""
    tail = 0.5 * _betainc(df / 2, 0.5, df / (df + x * x))
    return 1 - tail if x >= 0 else tail


def _t_pdf(x: float, df: int) -> float:
    log = (
        math.lgamma((df + 1) / 2)
        - math.lgamma(df / 2)
        - 0.5 * math.log(df * math.pi)
        - (df + 1) / 2 * math.log1p(x * x / df)
    )
    return math.exp(log)


def _betainc(a: float, b: float, x: float) -> float:
    """The regularized incomplete beta I_x(a, b) by its continued fraction (Lentz)."""
    if x <= 0:
        return 0.0
    if x >= 1:
        return 1.0
    if x > (a + 1) / (a + b + 2):
        return 1.0 - _betainc(b, a, 1.0 - x)
    log_front = math.lgamma(a + b) - math.lgamma(a) - math.lgamma(b)
    front = math.exp(log_front + a * math.log(x) + b * math.log1p(-x)) / a
    tiny = 1e-300
    c, d = 1.0, 1.0 - (a + b) * x / (a + 1)
    d = 1.0 / (d if abs(d) > tiny else tiny)
    f = d
    for m in range(1, 500):
        for numerator in (
            m * (b - m) * x / ((a + 2 * m - 1) * (a + 2 * m)),
            -(a + m) * (a + b + m) * x / ((a + 2 * m) * (a + 2 * m + 1)),
        ):
            d = 1.0 + numerator * d
            d = 1.0 / (d if abs(d) > tiny else tiny)
            c = 1.0 + numerator / c
            c = c if abs(c) > tiny else tiny
            f *= c * d
        if abs(c * d - 1.0) < 1e-15:
            break
    return front * f
