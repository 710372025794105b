"""assay.stats.quantiles gives numpy's percentile and median bit for bit, without numpy.ma."""

from __future__ import annotations

import math
import subprocess
import sys

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from assay.stats.quantiles import median, percentile

finite = st.floats(allow_nan=False, allow_infinity=False, width=64)
values = st.lists(finite | st.sampled_from([0.0, 1.0, 0.5, 1 / 3]), min_size=1, max_size=60)
qs = st.sampled_from([0.0, 10.0, 25.0, 50.0, 90.0, 100.0]) | st.floats(0.0, 100.0)


def _same(a: float, b: float) -> bool:
    """Equal bits, or both NaN; a zero's sign aside (numpy's partition orders tied ±0.0 as it
    likes, and its interpolation then gives either)."""
    both_nan = math.isnan(a) and math.isnan(b)
    return both_nan or (a == b and (a == 0.0 or math.copysign(1, a) == math.copysign(1, b)))


@settings(max_examples=400, deadline=None)
@given(values, qs)
def test_percentile_is_numpys_linear_percentile(xs: list[float], q: float) -> None:
    x = np.array(xs)
    with np.errstate(all="ignore"):
        expected = float(np.percentile(x, q))
    assert _same(percentile(x, q), expected)


@settings(max_examples=400, deadline=None)
@given(values)
def test_median_is_numpys_median(xs: list[float]) -> None:
    x = np.array(xs)
    with np.errstate(all="ignore"):
        expected = float(np.median(x))
    assert _same(median(x), expected)


def test_per_item_scores_in_the_unit_interval() -> None:
    rng = np.random.default_rng(3)
    for n in (1, 2, 3, 10, 11, 999, 1000):
        x = rng.random(n).round(rng.integers(0, 4))
        assert percentile(x, 10) == float(np.percentile(x, 10))
        assert median(x) == float(np.median(x))


def test_a_nan_gives_nan_and_no_values_or_a_bad_q_are_refused() -> None:
    x = np.array([0.2, math.nan, 0.1])
    assert math.isnan(percentile(x, 10)) and math.isnan(median(x))
    with pytest.raises(ValueError, match="no values"):
        median(np.array([]))
    with pytest.raises(ValueError, match="q must be"):
        percentile(np.array([1.0]), 101)


def test_numpy_ma_is_not_imported() -> None:
    probe = (
        "import sys, numpy as np\n"
        "from assay.stats.quantiles import median, percentile\n"
        "x = np.arange(7.0)\n"
        "percentile(x, 10), median(x)\n"
        "print('numpy.ma' in sys.modules)"
    )
    res = subprocess.run([sys.executable, "-c", probe], capture_output=True, text=True, check=True)
    assert res.stdout.strip() == "False"
