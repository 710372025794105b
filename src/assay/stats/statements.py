"""What a comparison says beside its p-values, in one wording for every command.

* the family: which tests were adjusted together and what the correction controls
  (``assay.stats.multiplicity.CONTROLS``);
* the minimum detectable effect of each Δ: MDE = (z_{1−α/2} + z_{0.8}) · SE(Δ) ≈ 2.8 · SE;
* when even the most extreme outcome cannot reach α (min_p ≥ α: the exact test over n units
  cannot go below 2 / 2ⁿ, so n ≤ 5 never rejects at 0.05): that nothing can be significant.
"""

from __future__ import annotations

from collections.abc import Sequence

from assay.stats.multiplicity import CONTROLS, check_correction
from assay.stats.result import SignificanceResult

#: how the deciding test is named in outputs (``SignificanceResult.method`` → words)
TEST_TITLES = {
    "exact_sign_flip": "exact sign-flip",
    "approximate_randomization": "approximate randomization",
    "approximate_randomization_sacrebleu": "approximate randomization (sacrebleu's p-value)",
    "paired_bootstrap": "paired bootstrap",
    "paired_bootstrap_poisson": "paired bootstrap (Poisson weights)",
    "paired_bootstrap_sacrebleu": "paired bootstrap (sacrebleu's p-value)",
    "paired_bootstrap_sacrebleu_poisson": "paired bootstrap (sacrebleu's p-value, Poisson)",
    "paired_bootstrap_generic": "paired bootstrap",
}


def test_title(method: str) -> str:
    """A result's ``method`` in words (the name itself when unknown)."""
    return TEST_TITLES.get(method, method)


def decided_by(results: Sequence[SignificanceResult]) -> str:
    """The tests that decided, in words, in first-use order: 'exact sign-flip' or
    'exact sign-flip, approximate randomization' (several pairs at different n)."""
    titles = dict.fromkeys(test_title(r.method) for r in results)
    return ", ".join(titles) or "no test"


def family_line(family: str, correction: str, n_tests: int, *, n_pairs: int = 1) -> str:
    """'family: headline, 6 tests; correction holm controls the family-wise error rate (Holm);
    stars follow p-adj'."""
    method = check_correction(correction)
    tests = f"{n_tests} test" + ("" if n_tests == 1 else "s")
    over = tests if n_pairs == 1 else f"{tests} over {n_pairs} pairs"
    return (
        f"family: {family}, {over}; correction {method} {controls_text(method)}; stars follow p-adj"
    )


def controls_text(correction: str) -> str:
    """'controls the family-wise error rate (Holm)', … 'controls nothing across the family'."""
    method = check_correction(correction)
    article = "" if method == "none" else "the "
    return f"controls {article}{CONTROLS[method]}"


def mde_line(results: Sequence[SignificanceResult], *, width: int = 0) -> str | None:
    """'smallest detectable Δ (power 0.8): exact_match 0.075, f1 0.061' (None: no SE)."""
    parts = [
        f"{r.metric_name} {_short(r.mde)}"
        for r in results
        if r.mde is not None and r.delta is not None
    ]
    if not parts:
        return None
    return "smallest detectable Δ (power 0.8): " + ", ".join(parts)


def cannot_reject_line(results: Sequence[SignificanceResult]) -> str | None:
    """The plain statement that this sample can never reject, when the test's smallest
    attainable p is at least α (None when it can reject)."""
    stuck = [r for r in results if not r.can_reject]
    if not stuck:
        return None
    r = stuck[0]
    alpha = 1 - r.confidence_level
    unit = "items" if r.unit == "item" else f"{r.unit} clusters"
    min_p = r.min_p if r.min_p is not None else 1.0
    return (
        f"at n = {r.n_units} {unit} the smallest p the {test_title(r.method)} test can give is "
        f"{min_p:.4g} ≥ α = {alpha:g}: this sample can never reject, nothing can be significant"
    )


def _short(value: float | None) -> str:
    if value is None:
        return "—"
    return f"{value:.3g}" if abs(value) < 1000 else f"{value:.1f}"
