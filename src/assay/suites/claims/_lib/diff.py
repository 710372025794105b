"""Seed 003's iteration discipline: is a candidate scorecard a net win over the baseline?

For each watched metric (recovery and role agreement by default), Δ = candidate − baseline on
the papers both runs scored, tested by a paired sign-flip test over papers (the one dispatch,
``assay.stats.paired_test``): the **exact** test, all 2^n ways of swapping papers between the
runs, while n ≤ 16 papers, else the approximate randomization test with the resample count's
draws. The watched metrics are one family (``family="all"``: every metric shown), adjusted by
Holm (default), BH or none:

- *better* / *worse*: adjusted p < alpha (beyond noise), Δ in the metric's good / bad direction;
- *holds*: otherwise, whatever the sign of Δ.

At n papers the exact test cannot go below 2 / 2^n: 0.25 at 3 papers, 0.0625 at 5. Then no
metric can ever be *better* or *worse*, and the diff says so (``cannot_reject``).

The paired bootstrap's CI of Δ is shown beside it; it does not decide, because over a handful of
papers a percentile bootstrap excludes zero whenever every paper moved the same way (3 papers
each losing one claim: p = 0.000), while the exact test cannot go below 2 / 2^n (0.25 at 3).

Verdict: ``regression`` when any watched metric is worse (exit code 1 in CI); else ``net_win``
when at least one is better (both up, or one up and the other holding); else
``no_material_change``.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import asdict, dataclass, field, replace
from typing import Any, Literal

from assay._compare import compare_pair
from assay._compare.comparison import family_json
from assay._engine.run import Run
from assay.errors import UsageError
from assay.stats.significance import SignificanceResult
from assay.stats.statements import cannot_reject_line

Verdict = Literal["net_win", "regression", "no_material_change"]
Move = Literal["better", "worse", "holds"]


@dataclass(frozen=True)
class MetricMove:
    """One metric from baseline to candidate: Δ, its paired CI and p-value, and the call."""

    name: str
    baseline: float | None
    candidate: float | None
    delta: float | None
    ci_lower: float | None
    ci_upper: float | None
    p_value: float
    move: Move
    watched: bool
    test: str = ""
    p_adjusted: float | None = None
    mde: float | None = None
    in_family: bool = True


@dataclass(frozen=True)
class DiffResult:
    """The verdict, every metric's move, per-paper deltas and the warnings."""

    verdict: Verdict
    baseline: str
    candidate: str
    n_shared: int
    moves: list[MetricMove]
    per_paper: list[dict[str, Any]]
    warnings: list[str] = field(default_factory=list)
    n_bootstrap: int = 0
    seed: int = 0
    alpha: float = 0.05
    test: str = ""
    #: the family adjusted together: name, correction, what it controls, number of tests
    family: dict[str, Any] = field(default_factory=dict)
    #: the plain statement that this sample can never reject (None when it can)
    cannot_reject: str | None = None

    @property
    def test_description(self) -> str:
        """Which test decided, in words."""
        if self.test == "exact_sign_flip":
            return (
                f"exact sign-flip test over all 2^{self.n_shared} = {2**self.n_shared} ways of "
                "swapping papers between the runs"
            )
        if self.test.startswith("approximate_randomization"):
            return f"approximate randomization test, {self.n_bootstrap} random swaps of papers"
        if self.test:
            return f"paired bootstrap over papers, {self.n_bootstrap} resamples"
        return "no test (no shared papers)"

    @property
    def exit_code(self) -> int:
        """1 for a regression (fail the CI job), else 0."""
        return 1 if self.verdict == "regression" else 0

    def to_json(self) -> dict[str, Any]:
        return {
            "verdict": self.verdict,
            "baseline": self.baseline,
            "candidate": self.candidate,
            "n_shared": self.n_shared,
            "n_bootstrap": self.n_bootstrap,
            "seed": self.seed,
            "alpha": self.alpha,
            "test": self.test,
            "test_description": self.test_description,
            "family": self.family,
            "cannot_reject": self.cannot_reject,
            "moves": [asdict(m) for m in self.moves],
            "per_paper": self.per_paper,
            "warnings": self.warnings,
        }


def classify(result: SignificanceResult, higher_is_better: bool, alpha: float = 0.05) -> Move:
    """better / worse when the paired test's p (adjusted within its family) < alpha, by the
    sign of Δ; else holds."""
    if result.delta is None or result.delta == 0 or not result.decisive_p < alpha:
        return "holds"
    up = result.delta > 0
    return "better" if up == higher_is_better else "worse"


def verdict_of(moves: Sequence[MetricMove]) -> Verdict:
    watched = [m for m in moves if m.watched]
    if any(m.move == "worse" for m in watched):
        return "regression"
    if any(m.move == "better" for m in watched):
        return "net_win"
    return "no_material_change"


def _matcher_identity(run: Run) -> dict[str, Any]:
    section = run.settings.get("claims", {})
    summary = run.summaries.get("matcher") or {}
    identity = {"matcher": section.get("matcher"), "prompt": summary.get("prompt")}
    if section.get("matcher") == "llm":
        identity["model"] = (section.get("judge") or {}).get("model")
    else:
        for key in ("similarity", "exact_threshold", "partial_threshold", "panel_rule"):
            identity[key] = section.get(key)
        hybrid = ("assignment", "embeddings", "lexical_weight", "second_pass")
        for key in (*hybrid, "csls_threshold", "mutual_threshold", "match_threshold"):
            identity[key] = summary.get(key)  # in effect (calibrated defaults resolved)
    identity["na_counts_as"] = section.get("na_counts_as")
    return identity


def _per_paper(baseline: Run, candidate: Run, names: Sequence[str]) -> list[dict[str, Any]]:
    base = {it.id: it.scores for it in baseline.items}
    rows = []
    for it in candidate.items:
        if it.id not in base:
            continue
        row: dict[str, Any] = {"paper": it.id}
        for name in names:
            b, c = base[it.id].get(name), it.scores.get(name)
            row[name] = {
                "baseline": b,
                "candidate": c,
                "delta": None if b is None or c is None else c - b,
            }
        rows.append(row)
    return rows


def diff_runs(
    baseline: Run,
    candidate: Run,
    *,
    metrics: Sequence[str] = ("recovery", "role_agreement"),
    n_bootstrap: int = 1000,
    seed: int = 12345,
    alpha: float = 0.05,
    family: str = "headline",
    correction: str = "holm",
) -> DiffResult:
    """Compare two claims scorecards under seed 003's discipline (see the module docstring):
    ``family`` headline adjusts the watched metrics together, all every metric shown."""
    for run in (baseline, candidate):
        if run.task != "claims":
            raise UsageError(f"{run.name} is a {run.task!r} run, not a claims scorecard")
    missing = [m for m in metrics if m not in baseline.metrics or m not in candidate.metrics]
    if missing:
        raise UsageError(
            f"metric(s) {', '.join(missing)} not in both scorecards "
            f"(known: {', '.join(sorted(baseline.metrics))})"
        )
    pair = compare_pair(
        candidate,
        baseline,
        significance=True,
        method="ar",
        n_resamples=n_bootstrap,
        seed=seed,
        alpha=alpha,
        min_items=0,
        family="watched" if family == "headline" else "all",
        correction=correction,
        members=list(metrics) if family == "headline" else _shown(candidate, metrics),
    )
    warnings = list(pair.warnings)
    ident_b, ident_c = _matcher_identity(baseline), _matcher_identity(candidate)
    if ident_b != ident_c:
        changed = sorted(k for k in ident_b if ident_b.get(k) != ident_c.get(k))
        warnings.append(
            f"the scorecards were matched differently ({', '.join(changed)}): a change of "
            "matcher is confounded with the change under test"
        )
    moves = []
    tested = {r.metric_name: r for r in pair.significance}
    raw = {r.metric_name: r for r in _raw_tests(candidate, baseline, metrics, n_bootstrap,
                                                 seed, alpha, tested)}  # fmt: skip
    for name in _shown(candidate, metrics):
        r = tested.get(name) or raw.get(name)
        if r is None:
            continue
        higher = candidate.metrics[r.metric_name].higher_is_better
        moves.append(
            MetricMove(
                name=r.metric_name,
                baseline=r.system_b_score,
                candidate=r.system_a_score,
                delta=r.delta,
                ci_lower=r.ci_lower,
                ci_upper=r.ci_upper,
                p_value=r.p_value,
                move=classify(r, higher, alpha) if name in tested else "holds",
                watched=r.metric_name in metrics,
                test=r.method,
                p_adjusted=r.p_adjusted,
                mde=r.mde,
                in_family=name in tested,
            )
        )
    moves.sort(key=lambda m: (not m.watched, list(metrics).index(m.name) if m.watched else 0))
    return DiffResult(
        verdict=verdict_of(moves),
        baseline=baseline.name,
        candidate=candidate.name,
        n_shared=pair.n_shared,
        moves=moves,
        per_paper=_per_paper(baseline, candidate, list(metrics)),
        warnings=warnings,
        n_bootstrap=n_bootstrap,
        seed=seed,
        alpha=alpha,
        test=next((m.test for m in moves if m.watched), ""),
        family=family_json(
            "watched" if family == "headline" else "all", correction, pair.significance
        ),
        cannot_reject=cannot_reject_line(pair.significance),
    )


def _shown(run: Run, metrics: Sequence[str]) -> list[str]:
    """The metrics a diff shows: the watched ones and every non-diagnostic metric."""
    return [name for name, m in run.metrics.items() if m.tier != "diagnostic" or name in metrics]


def _raw_tests(
    candidate: Run,
    baseline: Run,
    metrics: Sequence[str],
    n_bootstrap: int,
    seed: int,
    alpha: float,
    tested: dict[str, SignificanceResult],
) -> list[SignificanceResult]:
    """The shown metrics outside the family, tested for their Δ, CI and raw p (their move
    stays *holds*: only the family decides)."""
    rest = [n for n in _shown(candidate, metrics) if n not in tested]
    if not rest:
        return []
    pair = compare_pair(
        candidate, baseline, significance=True, method="ar", n_resamples=n_bootstrap,
        seed=seed, alpha=alpha, min_items=0, family="outside", correction="none",
        members=rest,
    )  # fmt: skip
    return [replace(r, p_adjusted=None, family=None, correction=None) for r in pair.significance]
