"""A/B evaluation (seed 000 §9–§10): a candidate against its baseline on one surface.

The seed's prompt A is the baseline and its prompt B the candidate; assay names them so, as
every command does: Δ = candidate − baseline (``compare_pair(candidate, baseline)``). The
verdict on the headline metric, in this order:

* ``tie`` when |Δ| ≤ tie band (±0.001);
* ``within noise (logic repair)`` when a noise floor is known and |Δ| ≤ its band — never a win;
* ``candidate wins`` / ``baseline wins`` when the paired test (the one dispatch,
  ``assay.stats.paired_test``: exact sign-flip at few items, randomization below 50, the
  bootstrap above) rejects at the family's adjusted p < α (the leader by the metric's
  direction); the family is the headline and core metrics (``family="all"``: every metric),
  Holm-adjusted by default;
* ``inconclusive`` otherwise; at n ≤ 5 items nothing can be significant (the exact test's
  smallest p is 2 / 2ⁿ ≥ 0.0625) and the verdict says so.
"""

from __future__ import annotations

from dataclasses import asdict, dataclass, field
from typing import Any, Literal

from assay._analytics.noise import WITHIN_NOISE, NoiseFloor
from assay._analytics.surface import headline_metric, require_same_surface
from assay._compare.comparison import compare_pair, family_json
from assay._engine.run import MetricResult, Run
from assay.errors import UsageError
from assay.stats.result import SignificanceResult
from assay.stats.significance import Method
from assay.stats.statements import cannot_reject_line

Leader = Literal["candidate", "baseline", "tie"]


@dataclass(frozen=True)
class ABMetric:
    """One metric side by side: candidate, baseline, Δ = candidate − baseline, the CI of Δ and
    whether it excludes zero."""

    name: str
    tier: str
    higher_is_better: bool
    candidate: float | None
    baseline: float | None
    delta: float | None
    ci_lower: float | None
    ci_upper: float | None
    p_value: float | None
    significant: bool
    n: int
    noise_band: float | None = None
    within_noise: bool = False
    p_adjusted: float | None = None
    mde: float | None = None


@dataclass(frozen=True)
class ABResult:
    """The A/B verdict on the headline metric plus the per-metric table (see module doc)."""

    baseline: dict[str, str]
    candidate: dict[str, str]
    task: str
    surface: dict[str, Any]
    metric: str
    leader: Leader
    verdict: str
    delta: float | None
    ci_lower: float | None
    ci_upper: float | None
    significant: bool
    tie_band: float
    noise_band: float | None
    noise_source: str | None
    test: str
    n_resamples: int
    seed: int
    alpha: float
    n: int
    metrics: list[ABMetric]
    warnings: list[str] = field(default_factory=list)
    #: the family the tests were adjusted over (name, correction, what it controls, size)
    family: dict[str, Any] = field(default_factory=dict)
    #: False when the headline's test could never reject at this n (min p ≥ α)
    can_reject: bool = True
    cannot_reject: str | None = None

    @property
    def headline(self) -> ABMetric:
        return next(m for m in self.metrics if m.name == self.metric)

    def to_json(self) -> dict[str, Any]:
        return asdict(self)


def leader_of(delta: float | None, higher_is_better: bool, tie_band: float) -> Leader:
    """§9's verdict on the point delta: 'tie' within ±tie_band, else the better run."""
    if delta is None or abs(delta) <= tie_band:
        return "tie"
    better = delta > 0 if higher_is_better else delta < 0
    return "candidate" if better else "baseline"


def verdict_of(
    leader: Leader, significant: bool, within_noise: bool, can_reject: bool = True
) -> str:
    """The final verdict: tie, within noise, a significant win, or inconclusive."""
    if leader == "tie":
        return "tie"
    if within_noise:
        return WITHIN_NOISE
    if significant:
        return f"{leader} wins"
    if not can_reject:
        return f"inconclusive ({leader} ahead; too few items: nothing can be significant)"
    return f"inconclusive ({leader} ahead, not significant)"


def ab_compare(
    *,
    candidate: Run,
    baseline: Run,
    metric: str | None = None,
    tie_band: float = 0.001,
    noise_floor: NoiseFloor | float | None = None,
    method: Method = "bootstrap",
    n_resamples: int | None = None,
    seed: int = 12345,
    alpha: float = 0.05,
    min_items: int = 10,
    family: str = "headline",
    correction: str = "holm",
) -> ABResult:
    """A/B of ``candidate`` against ``baseline`` on the same surface; Δ = candidate −
    baseline. Both are keyword arguments: a call cannot swap them silently.

    ``noise_floor`` is a recorded NoiseFloor (its band for each metric) or one band for the
    headline; without it, no delta is called noise.
    """
    if tie_band < 0:
        raise UsageError(f"tie_band must be >= 0, got {tie_band}")
    require_same_surface(baseline, candidate)
    name = headline_metric(baseline, metric)
    if name not in candidate.metrics:
        raise UsageError(f"candidate {candidate.name!r} has no metric {name!r}")
    n = n_resamples or (1000 if method == "bootstrap" else 10_000)
    pair = compare_pair(
        candidate,  # compare_pair's Δ = first − second = candidate − baseline
        baseline,
        significance=True,
        method=method,
        n_resamples=n,
        seed=seed,
        alpha=alpha,
        min_items=min_items,
        family=family,
        correction=correction,
        members=None if family == "all" else _headline_family(baseline, name),
    )
    tests = {s.metric_name: s for s in pair.significance}
    warnings = list(pair.warnings)
    bands, noise_source = _noise_bands(noise_floor, baseline, name, warnings)
    rows = [
        _ab_metric(mname, ma, mb, tests.get(mname), pair.n_shared, bands.get(mname))
        for mname, ma in baseline.metrics.items()
        if (mb := candidate.metrics.get(mname)) is not None
    ]
    head = next(r for r in rows if r.name == name)
    if name not in tests:
        warnings.append(f"{name}: no paired test (the runs define it differently)")
    leader = leader_of(head.delta, head.higher_is_better, tie_band)
    head_test = tests.get(name)
    can_reject = head_test is None or head_test.can_reject
    return ABResult(
        baseline={"run_id": baseline.run_id, "name": baseline.name},
        candidate={"run_id": candidate.run_id, "name": candidate.name},
        task=baseline.task,
        surface={
            "fingerprint": baseline.surface.fingerprint,
            "seed": baseline.surface.seed,
            "n_items": baseline.surface.n_items,
        },
        metric=name,
        leader=leader,
        verdict=verdict_of(leader, head.significant, head.within_noise, can_reject),
        delta=head.delta,
        ci_lower=head.ci_lower,
        ci_upper=head.ci_upper,
        significant=head.significant,
        tie_band=tie_band,
        noise_band=head.noise_band,
        noise_source=noise_source if head.noise_band is not None else None,
        test=head_test.method if head_test is not None else "none",
        n_resamples=head_test.n_bootstrap if head_test is not None else n,
        seed=seed,
        alpha=alpha,
        n=pair.n_shared,
        metrics=rows,
        warnings=warnings,
        family=family_json(family, correction, pair.significance),
        can_reject=can_reject,
        cannot_reject=cannot_reject_line([head_test]) if head_test is not None else None,
    )


def _headline_family(run: Run, headline: str) -> list[str]:
    """The headline family of an A/B: the headline and core metrics, and the verdict's."""
    from assay._compare.comparison import HEADLINE_TIERS

    names = [n for n, m in run.metrics.items() if m.tier in HEADLINE_TIERS]
    return names if headline in names else [*names, headline]


def _noise_bands(
    noise_floor: NoiseFloor | float | None, baseline: Run, headline: str, warnings: list[str]
) -> tuple[dict[str, float], str | None]:
    """(the noise band of each metric, where the bands come from): a recorded NoiseFloor's
    bands (refused on another task or surface, ignored with a warning under another metrics
    version), one given band for the ``headline`` metric, or none."""
    if isinstance(noise_floor, NoiseFloor):
        if (
            noise_floor.task != baseline.task
            or noise_floor.fingerprint != baseline.surface.fingerprint
        ):
            raise UsageError("the noise floor was recorded on another task or surface")
        if noise_floor.metrics_version != baseline.metrics_version:
            warnings.append("noise floor recorded under another metrics_version: ignored")
            return {}, None
        bands = {k: f.band for k, f in noise_floor.floors.items()}
        return bands, "recorded: " + ", ".join(r["name"] for r in noise_floor.runs)
    if noise_floor is not None:
        if noise_floor < 0:
            raise UsageError(f"noise floor must be >= 0, got {noise_floor}")
        return {headline: float(noise_floor)}, "given"
    return {}, None


def _ab_metric(
    name: str,
    ma: MetricResult,
    mb: MetricResult,
    test: SignificanceResult | None,
    n_shared: int,
    band: float | None,
) -> ABMetric:
    """One metric's row: Δ = candidate − baseline, the paired test's CI of Δ, p-value and
    adjusted p (significant when the adjusted p < α), and whether |Δ| is within the noise
    band."""
    delta = mb.value - ma.value if ma.value is not None and mb.value is not None else None
    return ABMetric(
        name=name,
        tier=ma.tier,
        higher_is_better=ma.higher_is_better,
        candidate=mb.value,
        baseline=ma.value,
        delta=delta,
        ci_lower=test.ci_lower if test else None,
        ci_upper=test.ci_upper if test else None,
        p_value=test.p_value if test else None,
        significant=test.significant if test else False,
        n=n_shared,
        noise_band=band,
        within_noise=band is not None and delta is not None and abs(delta) <= band,
        p_adjusted=test.p_adjusted if test else None,
        mde=test.mde if test else None,
    )
