"""The result of a paired significance test, shared by every test that makes one.

The paired bootstrap and approximate randomization (``assay.stats.significance``) and the exact
sign-flip test (``assay.stats.exact``) all report Δ = A − B the same way, so the type and the
one function that fills it in live here, below the tests, and neither test module imports the
other for it.
"""

from __future__ import annotations

from dataclasses import asdict, dataclass
from typing import Any

import numpy as np

from assay.stats.bootstrap import DEFAULT_SEED
from assay.stats.power import z_sum


@dataclass(frozen=True)
class SignificanceResult:
    """Seed 001's result: Δ = A − B, its two-sided p-value and the 95% CI of Δ.

    For ``method="ar"``, ``n_bootstrap`` is the number of randomization trials and the CI
    of Δ comes from a paired bootstrap with the same seed.
    """

    metric_name: str
    system_a_score: float | None
    system_b_score: float | None
    delta: float | None
    p_value: float
    n_bootstrap: int
    confidence_level: float
    significant: bool
    winner: str | None
    ci_lower: float | None
    ci_upper: float | None
    method: str = "paired_bootstrap"
    seed: int = DEFAULT_SEED
    #: the resampling unit (``item`` or the cluster field) and how many of them were tested
    unit: str = "item"
    n_units: int = 0
    #: the bootstrap standard error of Δ and the minimum detectable effect (power 0.8 at α):
    #: MDE = (z_{1−α/2} + z_{0.8}) · SE ≈ 2.8 · SE
    se: float | None = None
    mde: float | None = None
    #: the smallest p-value this test could give at this n (2 / 2ⁿ exact, 1 / (R + 1) AR)
    min_p: float | None = None
    #: after a family is adjusted (``assay.stats.family``): its adjusted p, the correction
    #: and the family's name; ``significant`` and the stars then follow ``p_adjusted``
    p_adjusted: float | None = None
    correction: str | None = None
    family: str | None = None
    higher_is_better: bool = True

    def to_json(self) -> dict[str, Any]:
        return asdict(self)

    @property
    def decisive_p(self) -> float:
        """The p-value the verdict follows: the adjusted one within a family, else the raw."""
        return self.p_adjusted if self.p_adjusted is not None else self.p_value

    @property
    def stars(self) -> str:
        """``**`` for p < 0.01, ``*`` for p < 0.05 (the adjusted p within a family), else empty."""
        p = self.decisive_p
        return "**" if p < 0.01 else "*" if p < 0.05 else ""

    @property
    def can_reject(self) -> bool:
        """False when even the most extreme outcome could not reach α at this n."""
        return self.min_p is None or self.min_p < 1 - self.confidence_level


def significance_result(
    name: str,
    score_a: float,
    score_b: float,
    p: float,
    ci: tuple[float | None, float | None],
    *,
    n: int,
    alpha: float,
    method: str,
    seed: int,
    higher_is_better: bool,
    unit: str = "item",
    n_units: int = 0,
    se: float | None = None,
    min_p: float | None = None,
) -> SignificanceResult:
    """The result of one metric's test: Δ = ``score_a`` − ``score_b``, significant when
    Δ is defined and p < ``alpha`` (an undefined Δ or p gives p = 1), the winner the better
    system by ``higher_is_better`` when significant; non-finite scores are None."""
    delta = score_a - score_b
    defined = bool(np.isfinite(delta))
    p = float(p) if defined and np.isfinite(p) else 1.0
    significant = defined and p < alpha
    return SignificanceResult(
        metric_name=name,
        system_a_score=_none_if_nan(score_a),
        system_b_score=_none_if_nan(score_b),
        delta=_none_if_nan(delta),
        p_value=p,
        n_bootstrap=n,
        confidence_level=1 - alpha,
        significant=significant,
        winner=winner(_none_if_nan(delta), significant, higher_is_better),
        ci_lower=ci[0],
        ci_upper=ci[1],
        method=method,
        seed=seed,
        unit=unit,
        n_units=n_units,
        se=se,
        mde=None if se is None else z_sum(alpha) * se,
        min_p=min_p,
        higher_is_better=higher_is_better,
    )


def winner(delta: float | None, significant: bool, higher_is_better: bool) -> str | None:
    """ "A" or "B", the better system when the change is significant; else None."""
    if not significant or delta is None or delta == 0:
        return None
    a_better = delta > 0 if higher_is_better else delta < 0
    return "A" if a_better else "B"


def _none_if_nan(value: float) -> float | None:
    return None if not np.isfinite(value) else float(value)
