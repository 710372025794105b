"""The regression gate: fail (exit 1) when a selected metric falls on the wrong side of X."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from assay.core.run import Run
from assay.errors import UsageError
from assay.metrics.spec import TIERS


@dataclass(frozen=True)
class GateCheck:
    name: str
    value: float | None
    passed: bool
    reason: str


@dataclass(frozen=True)
class GateResult:
    threshold: float
    checks: list[GateCheck]

    @property
    def passed(self) -> bool:
        return all(c.passed for c in self.checks)

    @property
    def failures(self) -> list[GateCheck]:
        return [c for c in self.checks if not c.passed]


def gate(
    run: Run,
    threshold: float,
    *,
    metrics: Sequence[str] | None = None,
    tier: str | None = None,
) -> GateResult:
    """Check the selected metrics against ``threshold``.

    Selection: the named ``metrics``, else the metrics of ``tier`` (default ``headline``).
    A higher-is-better metric fails below X; a lower-is-better one (failure rate) fails above X.
    A null (undefined) value is reported and not gated.
    """
    if metrics:
        unknown = [m for m in metrics if m not in run.metrics]
        if unknown:
            raise UsageError(
                f"unknown metric(s) {', '.join(unknown)}; run has {', '.join(run.metrics)}"
            )
        selected = list(metrics)
    else:
        tier = tier or "headline"
        if tier not in TIERS:
            raise UsageError(f"tier must be one of {', '.join(TIERS)}, not {tier!r}")
        selected = [name for name, m in run.metrics.items() if m.tier == tier]
        if not selected:
            raise UsageError(f"run {run.name} has no {tier} metrics to gate")
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
    return GateResult(threshold, checks)
