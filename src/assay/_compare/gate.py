"""The regression gate: fail (exit 1) when a run is worse than a bar or than its baseline.

Three independent checks, each optional, all reported:

- **threshold** — every selected metric on the right side of an absolute bar X (``≥ X``, or
  ``≤ X`` for a lower-is-better metric such as ``failure``);
- **baseline** — no selected metric of the candidate significantly worse than the baseline's on
  their shared items: the engine's paired test (``compare_pair``), Δ = candidate − baseline, a
  regression when Δ points the wrong way for the metric's direction, its adjusted p < α, and
  |Δ| > max(margin, noise band) (the margin says "materially"; the band is the surface's
  recorded rerun noise floor, seed 000 §10). The gated metrics are one family, adjusted by
  Holm by default: the chance that a gate against an equal baseline fails on a false
  regression in any of them is at most α (``--correction bh`` bounds the share of false
  regressions instead, ``none`` tests each metric at α: with m metrics up to m·α);
- **failed share** — (failed + missing) / attempted of the candidate at most ``max_failed``;
  by default no higher than the baseline's share, or 5% without a baseline — so a mapping typo
  that turns every item into a failure cannot pass.

A selected metric that is null (nothing scored) is reported; when every selected metric is null
the gate fails: there is nothing it could have checked.
"""

from __future__ import annotations

import math
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any

from assay._engine.run import Run
from assay.errors import UsageError
from assay.metrics.spec import TIERS

#: the failed + missing share allowed when there is no baseline and no --max-failed
DEFAULT_MAX_FAILED = 0.05


@dataclass(frozen=True)
class GateCheck:
    """One metric against the absolute bar."""

    name: str
    value: float | None
    passed: bool
    reason: str


@dataclass(frozen=True)
class BaselineCheck:
    """One metric of the candidate against the baseline: Δ = candidate − baseline."""

    name: str
    candidate: float | None
    baseline: float | None
    delta: float | None
    ci_lower: float | None
    ci_upper: float | None
    p_value: float | None
    higher_is_better: bool
    noise_band: float | None
    verdict: str
    passed: bool
    p_adjusted: float | None = None
    mde: float | None = None


@dataclass(frozen=True)
class FailedShareCheck:
    """(failed + missing) / attempted of the candidate against its allowance."""

    candidate_share: float
    baseline_share: float | None
    limit: float
    rule: str
    passed: bool


@dataclass(frozen=True)
class GateResult:
    threshold: float | None
    checks: list[GateCheck]
    baseline: str | None = None
    baseline_checks: list[BaselineCheck] = field(default_factory=list)
    n_shared: int | None = None
    failed_share: FailedShareCheck | None = None
    margin: float = 0.0
    alpha: float = 0.05
    all_null: bool = False
    #: the family the baseline tests were adjusted over: its name, the correction, what the
    #: correction controls, the number of tests, and the test that decided
    family: dict[str, Any] | None = None
    test: str | None = None

    @property
    def passed(self) -> bool:
        return (
            not self.all_null
            and all(c.passed for c in self.checks)
            and all(c.passed for c in self.baseline_checks)
            and (self.failed_share is None or self.failed_share.passed)
        )

    @property
    def failures(self) -> list[GateCheck]:
        """Metrics below the absolute bar."""
        return [c for c in self.checks if not c.passed]

    @property
    def regressions(self) -> list[BaselineCheck]:
        """Metrics significantly (and materially) worse than the baseline."""
        return [c for c in self.baseline_checks if not c.passed]

    def failure_reasons(self) -> list[str]:
        """One phrase per failed check, for the closing line."""
        out = []
        if self.all_null:
            out.append("every selected metric is null (nothing was scored)")
        out += [f"{c.name} {c.reason}" for c in self.failures]
        out += [f"{c.name} regressed" for c in self.regressions]
        if self.failed_share is not None and not self.failed_share.passed:
            out.append(
                f"failed+missing {self.failed_share.candidate_share:.1%} > "
                f"{self.failed_share.limit:.1%}"
            )
        return out


def failed_share(run: Run) -> float:
    """(failed + missing) / attempted; 0 for an empty cohort."""
    c = run.cohort
    return (c.failed + c.missing) / c.attempted if c.attempted else 0.0


def select_metrics(run: Run, metrics: Sequence[str] | None, tier: str | None) -> list[str]:
    """The named ``metrics``, else the metrics of ``tier`` (default ``headline``)."""
    if metrics:
        unknown = [m for m in metrics if m not in run.metrics]
        if unknown:
            raise UsageError(
                f"unknown metric(s) {', '.join(unknown)}; run has {', '.join(run.metrics)}"
            )
        return list(metrics)
    tier = tier or "headline"
    if tier not in TIERS:
        raise UsageError(f"tier must be one of {', '.join(TIERS)}, not {tier!r}")
    selected = [name for name, m in run.metrics.items() if m.tier == tier]
    if not selected:
        raise UsageError(f"run {run.name} has no {tier} metrics to gate")
    return selected


def _check_number(name: str, value: float | None, *, low: float = -math.inf) -> None:
    if value is not None and (not math.isfinite(value) or value < low):
        raise UsageError(f"{name} must be a finite number{' ≥ 0' if low == 0 else ''}, not {value}")


def _threshold_checks(run: Run, selected: Sequence[str], threshold: float) -> list[GateCheck]:
    checks = []
    for name in selected:
        m = run.metrics[name]
        if m.value is None:
            checks.append(GateCheck(name, None, True, "null: nothing to score, not gated"))
        elif m.higher_is_better:
            ok = m.value >= threshold
            checks.append(GateCheck(name, m.value, ok, f"{'>=' if ok else '<'} {threshold}"))
        else:
            ok = m.value <= threshold
            checks.append(
                GateCheck(name, m.value, ok, f"{'<=' if ok else '>'} {threshold} (lower is better)")
            )
    return checks


def _baseline_checks(
    run: Run,
    baseline: Run,
    selected: Sequence[str],
    *,
    margin: float,
    noise: Mapping[str, float],
    n_resamples: int | None,
    seed: int,
    alpha: float,
    family: str,
    correction: str,
) -> tuple[list[BaselineCheck], int, dict[str, Any], str]:
    """The baseline checks, the shared items, the family's JSON and the deciding test:
    ``family`` headline tests the gated metrics, all every metric (gating the selected)."""
    from assay._compare.comparison import compare_pair, family_json
    from assay.stats.statements import decided_by

    members = list(selected) if family == "headline" else None
    pair = compare_pair(
        run,
        baseline,
        significance=True,
        n_resamples=n_resamples,
        seed=seed,
        alpha=alpha,
        family="gated" if members is not None else "all",
        correction=correction,
        members=members,
    )
    tested = {s.metric_name: s for s in pair.significance}
    checks = []
    for name in selected:
        m = run.metrics[name]
        base = baseline.metrics.get(name)
        band = noise.get(name)
        s = tested.get(name)
        if base is None or s is None:
            checks.append(
                BaselineCheck(
                    name, m.value, None if base is None else base.value, None, None, None, None,
                    m.higher_is_better, band, "not in the baseline: not compared", True,
                )
            )  # fmt: skip
            continue
        delta = s.delta
        if m.value is None and base.value is not None:
            verdict, ok = "undefined in the candidate, defined in the baseline", False
        elif delta is None:
            verdict, ok = "undefined: not compared", True
        else:
            verdict, ok = _change_verdict(delta, s.significant, m.higher_is_better, margin, band)
        checks.append(
            BaselineCheck(
                name, m.value, base.value, delta, s.ci_lower, s.ci_upper,
                s.p_value if delta is not None else None, m.higher_is_better, band, verdict, ok,
                s.p_adjusted if delta is not None else None, s.mde,
            )
        )  # fmt: skip
    fam = family_json("gated" if members is not None else "all", correction, pair.significance)
    return checks, pair.n_shared, fam, decided_by(pair.significance)


def _change_verdict(
    delta: float, significant: bool, higher_is_better: bool, margin: float, band: float | None
) -> tuple[str, bool]:
    """(verdict, passes) of a defined Δ = candidate − baseline: a regression only when it is
    significant, in the worse direction, and beyond both the margin and the noise band."""
    worse = delta < 0 if higher_is_better else delta > 0
    floor = max(margin, band or 0.0)
    if not significant or delta == 0:
        return "no significant change", True
    if abs(delta) <= floor:
        what = "noise band" if band is not None and band >= margin else "margin"
        return f"within the {what} ±{floor:g}", True
    if worse:
        beyond = f" (|Δ| > ±{floor:g})" if floor > 0 else ""
        return f"REGRESSION{beyond}", False
    return "improvement", True


def gate(
    run: Run,
    threshold: float | None = None,
    *,
    metrics: Sequence[str] | None = None,
    tier: str | None = None,
    baseline: Run | None = None,
    margin: float = 0.0,
    noise: Mapping[str, float] | None = None,
    max_failed: float | None = None,
    n_resamples: int | None = None,
    seed: int | None = None,
    alpha: float | None = None,
    family: str = "headline",
    correction: str = "holm",
) -> GateResult:
    """Gate ``run`` (the candidate): see the module docstring for the three checks.

    ``family`` headline adjusts the gated metrics' baseline tests together, all every
    metric's (the selected ones still gate); ``correction`` holm, bh or none.

    ``noise`` maps metric names to the recorded noise band of the surface (empty: none).
    ``max_failed`` is the allowed (failed + missing) share; None applies the default rule.
    """
    from assay._settings import get_settings

    _check_number("threshold", threshold)
    _check_number("margin", margin, low=0)
    _check_number("max-failed", max_failed, low=0)
    if threshold is None and baseline is None:
        raise UsageError("give a --threshold, a --baseline, or both")
    stats = get_settings().stats
    seed = stats.seed if seed is None else seed
    alpha = stats.alpha if alpha is None else alpha
    selected = select_metrics(run, metrics, tier)
    checks = _threshold_checks(run, selected, threshold) if threshold is not None else []
    from assay._compare.comparison import check_family
    from assay.stats.multiplicity import check_correction

    check_family(family)
    check_correction(correction)
    baseline_checks: list[BaselineCheck] = []
    n_shared = None
    fam: dict[str, Any] | None = None
    test: str | None = None
    if baseline is not None:
        baseline_checks, n_shared, fam, test = _baseline_checks(
            run,
            baseline,
            selected,
            margin=margin,
            noise=noise or {},
            n_resamples=n_resamples,
            seed=seed,
            alpha=alpha,
            family=family,
            correction=correction,
        )
    share_check = _failed_share_check(run, baseline, max_failed)
    all_null = all(run.metrics[name].value is None for name in selected)
    return GateResult(
        threshold=threshold,
        checks=checks,
        baseline=None if baseline is None else baseline.name,
        baseline_checks=baseline_checks,
        n_shared=n_shared,
        failed_share=share_check,
        margin=margin,
        alpha=alpha,
        all_null=all_null,
        family=fam,
        test=test,
    )


def _failed_share_check(
    run: Run, baseline: Run | None, max_failed: float | None
) -> FailedShareCheck:
    """The (failed + missing) share of ``run`` against its limit: ``max_failed`` when given,
    else the baseline's share (no rise over it), else ``DEFAULT_MAX_FAILED``."""
    share = failed_share(run)
    base_share = failed_share(baseline) if baseline is not None else None
    if max_failed is not None:
        limit, rule = max_failed, f"--max-failed {max_failed:g}"
    elif base_share is not None:
        limit, rule = base_share, "no rise over the baseline"
    else:
        limit, rule = DEFAULT_MAX_FAILED, f"at most {DEFAULT_MAX_FAILED:.0%} without a baseline"
    return FailedShareCheck(share, base_share, limit, rule, share <= limit + 1e-12)
