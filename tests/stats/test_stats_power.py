"""Power: the minimum detectable effect and the units a difference needs."""

from __future__ import annotations

import math

import pytest
import scipy.stats

from assay.errors import UsageError
from assay.stats import minimum_detectable_effect, units_from_pilot, units_from_rate


def test_mde_is_z_sum_times_se() -> None:
    z = scipy.stats.norm.ppf(0.975) + scipy.stats.norm.ppf(0.8)
    assert minimum_detectable_effect(0.027) == pytest.approx(z * 0.027)
    assert z == pytest.approx(2.8016, abs=1e-4)


def test_units_from_pilot_scale_as_one_over_root_n() -> None:
    """Halving the difference to detect needs four times the units; detecting exactly the
    pilot's MDE needs the pilot's size."""
    a = units_from_pilot(0.05, se=0.02, n_units=400)
    b = units_from_pilot(0.025, se=0.02, n_units=400)
    assert b.units_needed == pytest.approx(4 * a.units_needed, rel=0.01)
    assert a.mde_now is not None
    same = units_from_pilot(a.mde_now, se=0.02, n_units=400)
    assert same.units_needed == 400


def test_units_from_rate_closed_form() -> None:
    z = scipy.stats.norm.ppf(0.975) + scipy.stats.norm.ppf(0.8)
    ans = units_from_rate(0.05, rate=0.7, design_effect=2.0, correlation=0.5)
    assert ans.units_needed == math.ceil(2.0 * z**2 * 2 * 0.7 * 0.3 * 0.5 / 0.05**2)


@pytest.mark.parametrize(
    ("kwargs", "message"),
    [
        ({"rate": 1.2}, "rate"),
        ({"rate": 0.5, "design_effect": 0.5}, "design effect"),
        ({"rate": 0.5, "correlation": 1.0}, "correlation"),
    ],
)
def test_units_from_rate_refuses_bad_input(kwargs: dict[str, float], message: str) -> None:
    with pytest.raises(UsageError, match=message):
        units_from_rate(0.05, **kwargs)
    with pytest.raises(UsageError, match="non-zero"):
        units_from_pilot(0.0, se=0.1, n_units=10)
