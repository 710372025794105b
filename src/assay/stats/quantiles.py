"""Quantiles of per-item values without ``np.percentile`` / ``np.median``.

numpy's quantile functions import ``numpy.ma`` on first use (15-20 ms of CPU with its bytecode
cached, measured), only to give the scorecard's spread its p10 and median. These
return the same floats, bit for bit (hypothesis-tested against numpy), but for the sign of a
zero among tied ±0.0 values, which numpy's partition order decides:

* ``percentile(x, q)``, numpy's default "linear" method: sort x (n values), h = (n − 1)·q/100,
  j = ⌊h⌋, t = h − j, a = x₍ⱼ₎, b = x₍ⱼ₊₁₎ (x₍ₙ₋₁₎ past the end); a + (b − a)·t when t < ½, else
  b − (b − a)·(1 − t), the form numpy uses to stay monotone near b;
* ``median(x)``: the middle value, or the mean (a + b)/2 of the two middle values (numpy
  takes both as a mean, so a median of −0.0 is 0.0).

Either is NaN when x holds a NaN, as numpy's are.
"""

from __future__ import annotations

import math

import numpy as np

from assay.metrics.kinds import FloatArray


def _sorted(values: FloatArray) -> FloatArray:
    if values.size == 0:
        raise ValueError("a quantile of no values")
    return np.sort(np.asarray(values, dtype=np.float64).ravel())


def percentile(values: FloatArray, q: float) -> float:
    """The q-th percentile (0 ≤ q ≤ 100) by linear interpolation between order statistics."""
    if not 0.0 <= q <= 100.0:
        raise ValueError(f"q must be in [0, 100], got {q}")
    x = _sorted(values)
    if math.isnan(x[-1]):  # np.sort puts NaNs last
        return math.nan
    n = x.size
    h = (n - 1) * (q / 100.0)
    if h >= n - 1:
        return float(x[-1])
    j = math.floor(h)
    t = h - j
    a, b = float(x[j]), float(x[j + 1])
    return a + (b - a) * t if t < 0.5 else b - (b - a) * (1.0 - t)


def median(values: FloatArray) -> float:
    """The median: the middle order statistic, or the mean of the two middle ones."""
    x = _sorted(values)
    if math.isnan(x[-1]):
        return math.nan
    n = x.size
    mid = n // 2
    if n % 2:
        return float(x[mid]) + 0.0  # numpy's mean of one value: -0.0 comes out as 0.0
    return (float(x[mid - 1]) + float(x[mid])) / 2.0
