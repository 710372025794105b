"""Confidence intervals: the bootstrap percentile interval and the Wilson score interval."""

from __future__ import annotations

import math
from dataclasses import dataclass

import numpy as np
from scipy.stats import norm

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
    """Percentile interval: the alpha/2 and 1 − alpha/2 quantiles of the finite resampled values."""
    alpha = check_alpha(alpha)
    finite = distribution[np.isfinite(distribution)]
    if finite.size == 0:
        return Interval(None, None, 1 - alpha, "percentile")
    lo, hi = np.quantile(finite, [alpha / 2, 1 - alpha / 2])
    return Interval(float(lo), float(hi), 1 - alpha, "percentile")


def wilson_interval(successes: float, n: float, alpha: float = 0.05) -> Interval:
    """Wilson score interval for a proportion k/n:

    (p + z²/2n ± z·sqrt(p(1−p)/n + z²/4n²)) / (1 + z²/n), z the 1 − alpha/2 normal quantile.
    """
    alpha = check_alpha(alpha)
    if n < 0 or successes < 0 or successes > n:
        raise UsageError(f"need 0 <= successes <= n, got {successes}/{n}")
    if n == 0:
        return Interval(None, None, 1 - alpha, "wilson")
    z = float(norm.ppf(1 - alpha / 2))
    p = successes / n
    denom = 1 + z * z / n
    centre = (p + z * z / (2 * n)) / denom
    half = z * math.sqrt(p * (1 - p) / n + z * z / (4 * n * n)) / denom
    return Interval(max(0.0, centre - half), min(1.0, centre + half), 1 - alpha, "wilson")
