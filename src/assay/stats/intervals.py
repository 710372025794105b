"""Confidence intervals: the bootstrap percentile interval and the Wilson score interval."""

from __future__ import annotations

import math
from dataclasses import dataclass
from statistics import NormalDist

import numpy as np

from assay.errors import UsageError
from assay.metrics.kinds import FloatArray


@dataclass(frozen=True)
class Interval:
    """A two-sided interval at ``level`` (0.95 for alpha 0.05); bounds None when undefined."""

    lower: float | None
    upper: float | None
    level: float
    method: str

    def contains(self, value: float) -> bool:
        if self.lower is None or self.upper is None:
            return False
        return self.lower <= value <= self.upper


def check_alpha(alpha: float) -> float:
    if not 0.0 < alpha < 1.0:
        raise UsageError(f"alpha must be in (0, 1), got {alpha}")
    return float(alpha)


def percentile_interval(distribution: FloatArray, alpha: float = 0.05) -> Interval:
    """Percentile interval from the finite resampled values, by order statistics.

    With B values sorted, m = ⌈αB/2⌉: lower = Δ*₍ₘ₎, upper = Δ*₍B−m+1₎ (1-based). Unlike an
    interpolated quantile, this makes "the interval excludes 0" exactly equivalent to the
    two-sided sign p-value 2·#{Δ* on the wrong side}/B being < α.
    """
    alpha = check_alpha(alpha)
    finite = np.sort(distribution[np.isfinite(distribution)])
    b = finite.size
    if b == 0:
        return Interval(None, None, 1 - alpha, "percentile")
    m = min(b, max(1, math.ceil(alpha * b / 2 - 1e-9)))
    return Interval(float(finite[m - 1]), float(finite[b - m]), 1 - alpha, "percentile")


def wilson_interval(successes: float, n: float, alpha: float = 0.05) -> Interval:
    """Wilson score interval for a proportion k/n:

    (p + z²/2n ± z·sqrt(p(1−p)/n + z²/4n²)) / (1 + z²/n), z the 1 − alpha/2 normal quantile.
    """
    alpha = check_alpha(alpha)
    if n < 0 or successes < 0 or successes > n:
        raise UsageError(f"need 0 <= successes <= n, got {successes}/{n}")
    if n == 0:
        return Interval(None, None, 1 - alpha, "wilson")
    z = NormalDist().inv_cdf(1 - alpha / 2)
    p = successes / n
    denom = 1 + z * z / n
    centre = (p + z * z / (2 * n)) / denom
    half = z * math.sqrt(p * (1 - p) / n + z * z / (4 * n * n)) / denom
    # exact bounds at 0/n and n/n (centre ∓ half rounds to ±1e-17 there and misses k/n)
    lower = 0.0 if successes == 0 else max(0.0, centre - half)
    upper = 1.0 if successes == n else min(1.0, centre + half)
    return Interval(lower, upper, 1 - alpha, "wilson")


def bootstrap_se(distribution: FloatArray) -> float | None:
    """The standard deviation of the finite resampled values (ddof 1); None below two."""
    finite = distribution[np.isfinite(distribution)]
    return float(finite.std(ddof=1)) if finite.size >= 2 else None
