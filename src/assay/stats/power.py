"""Power: the smallest difference a comparison can detect, and the units a difference needs.

A two-sided test at α with power 1 − β detects Δ when |Δ| ≥ (z_{1−α/2} + z_{1−β}) · SE(Δ)
(Miller 2024, "Adding Error Bars to Evals", §5). SE(Δ) shrinks as 1/√n in the number of
resampling units (items, or clusters), so from a pilot with SE₀ over n₀ units

    n(Δ) = n₀ · ((z_{1−α/2} + z_{1−β}) · SE₀ / Δ)²,

and from a rate p alone (two systems of accuracy ≈ p, paired with correlation ρ, design effect D)

    n(Δ) = D · (z_{1−α/2} + z_{1−β})² · 2 p (1 − p) (1 − ρ) / Δ².
"""

from __future__ import annotations

import math
from dataclasses import dataclass
from statistics import NormalDist

from assay.errors import UsageError

DEFAULT_POWER = 0.8


def z_sum(alpha: float = 0.05, power: float = DEFAULT_POWER) -> float:
    """z_{1−α/2} + z_{power}: 2.80 at α = 0.05 and power 0.8."""
    if not 0 < alpha < 1:
        raise UsageError(f"alpha must be in (0, 1), got {alpha}")
    if not 0 < power < 1:
        raise UsageError(f"power must be in (0, 1), got {power}")
    normal = NormalDist()
    return normal.inv_cdf(1 - alpha / 2) + normal.inv_cdf(power)


def minimum_detectable_effect(
    se: float, *, alpha: float = 0.05, power: float = DEFAULT_POWER
) -> float:
    """MDE = (z_{1−α/2} + z_{power}) · SE(Δ)."""
    if not se >= 0:
        raise UsageError(f"the standard error must be >= 0, got {se}")
    return z_sum(alpha, power) * se


@dataclass(frozen=True)
class PowerAnswer:
    """How many units detect ``delta`` at ``power``; ``basis`` says what it was computed from."""

    delta: float
    units_needed: int
    unit: str
    alpha: float
    power: float
    basis: str
    mde_now: float | None = None
    units_now: int | None = None


def units_from_pilot(
    delta: float,
    *,
    se: float,
    n_units: int,
    unit: str = "item",
    alpha: float = 0.05,
    power: float = DEFAULT_POWER,
) -> PowerAnswer:
    """n(Δ) = n₀ · (z · SE₀ / Δ)² from a pilot comparison's SE of Δ over n₀ units."""
    _check_delta(delta)
    if n_units < 2:
        raise UsageError(f"a pilot needs at least 2 {unit}s, got {n_units}")
    z = z_sum(alpha, power)
    needed = n_units * (z * se / abs(delta)) ** 2
    return PowerAnswer(
        delta=delta,
        units_needed=max(2, math.ceil(needed - 1e-9)),
        unit=unit,
        alpha=alpha,
        power=power,
        basis=f"pilot: SE(Δ) = {se:.4g} over {n_units} {unit}s",
        mde_now=z * se,
        units_now=n_units,
    )


def units_from_rate(
    delta: float,
    *,
    rate: float,
    design_effect: float = 1.0,
    correlation: float = 0.0,
    alpha: float = 0.05,
    power: float = DEFAULT_POWER,
) -> PowerAnswer:
    """n(Δ) = D · z² · 2p(1 − p)(1 − ρ) / Δ² items for two paired proportions near ``rate``."""
    _check_delta(delta)
    if not 0 < rate < 1:
        raise UsageError(f"rate must be in (0, 1), got {rate}")
    if design_effect < 1:
        raise UsageError(f"the design effect must be >= 1, got {design_effect}")
    if not -1 < correlation < 1:
        raise UsageError(f"correlation must be in (-1, 1), got {correlation}")
    z = z_sum(alpha, power)
    needed = design_effect * z**2 * 2 * rate * (1 - rate) * (1 - correlation) / delta**2
    return PowerAnswer(
        delta=delta,
        units_needed=max(2, math.ceil(needed - 1e-9)),
        unit="item",
        alpha=alpha,
        power=power,
        basis=(
            f"rate {rate:g}, design effect {design_effect:g}, paired correlation {correlation:g}"
        ),
    )


def _check_delta(delta: float) -> None:
    if not math.isfinite(delta) or delta == 0:
        raise UsageError(f"the difference to detect must be a non-zero number, got {delta}")
