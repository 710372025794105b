"""Comparing runs: every shared metric side by side, with paired significance on shared items.

Pairs are aligned on the ids both runs scored (in run A's order, which keeps line-aligned MT
systems in sacrebleu's order). Gold that differs on a shared id is an error unless allowed.
"""

from __future__ import annotations

import itertools
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field, replace
from typing import Any

from assay._compare.units import shared_units
from assay._engine.run import LazyItems, Run
from assay._engine.signature import test_signature
from assay._settings import get_settings
from assay._settings.model import StatsSettings
from assay.errors import UsageError
from assay.metrics.spec import MetricSpec
from assay.stats.bootstrap import Resampling, check_resampling
from assay.stats.family import ALL, FAMILIES, HEADLINE, adjust_family
from assay.stats.multiplicity import check_correction
from assay.stats.result import SignificanceResult
from assay.stats.significance import Method, PValueRule, paired_test

#: the tiers of the headline family: the metrics a comparison shows by default
HEADLINE_TIERS = ("headline", "core")


@dataclass(frozen=True)
class MetricDelta:
    """One metric of both runs on their full cohorts: Δ = A − B."""

    name: str
    a: float | None
    b: float | None
    delta: float | None
    tier: str
    higher_is_better: bool


@dataclass(frozen=True)
class PairComparison:
    """Two runs: their metric deltas and, when asked, the paired tests on shared items."""

    run_a: str
    run_b: str
    name_a: str
    name_b: str
    same_surface: bool
    n_shared: int
    only_a: list[str]
    only_b: list[str]
    metrics: list[MetricDelta]
    significance: list[SignificanceResult]
    warnings: list[str] = field(default_factory=list)

    def to_json(self) -> dict[str, Any]:
        return {
            "run_a": self.run_a,
            "run_b": self.run_b,
            "name_a": self.name_a,
            "name_b": self.name_b,
            "same_surface": self.same_surface,
            "n_shared": self.n_shared,
            "only_a": self.only_a,
            "only_b": self.only_b,
            "metrics": [vars(m) for m in self.metrics],
            "significance": [s.to_json() for s in self.significance],
            "warnings": self.warnings,
        }


@dataclass(frozen=True)
class Comparison:
    """All pairs of the runs given; ``significance`` is the pair's list when there are two."""

    runs: list[dict[str, Any]]
    pairs: dict[str, PairComparison]
    method: str | None
    p_value_rule: str
    n_resamples: int | None
    seed: int
    alpha: float
    warnings: list[str]
    family: str = HEADLINE
    correction: str = "holm"

    @property
    def tests(self) -> list[SignificanceResult]:
        """Every pair's results, in pair order: the family the correction adjusted."""
        return [r for pair in self.pairs.values() for r in pair.significance]

    @property
    def significance(self) -> list[SignificanceResult]:
        if len(self.pairs) == 1:
            return next(iter(self.pairs.values())).significance
        return []

    def to_json(self) -> dict[str, Any]:
        out: dict[str, Any] = {
            "runs": self.runs,
            "method": self.method,
            "p_value_rule": self.p_value_rule,
            "n_resamples": self.n_resamples,
            "seed": self.seed,
            "alpha": self.alpha,
            "family": family_json(self.family, self.correction, self.tests, len(self.pairs)),
            "warnings": self.warnings,
            "signature": comparison_signature(self),
        }
        if len(self.pairs) == 1:
            pair = next(iter(self.pairs.values()))
            out.update(pair.to_json())
        else:
            out["pairs"] = {key: pair.to_json() for key, pair in self.pairs.items()}
        return out


def family_json(
    family: str, correction: str, tests: Sequence[SignificanceResult], n_pairs: int = 1
) -> dict[str, Any]:
    """The family a comparison adjusted: its name, correction, what that controls, its size."""
    from assay.stats.multiplicity import CONTROLS

    return {
        "name": family,
        "correction": correction,
        "controls": CONTROLS[check_correction(correction)],
        "n_tests": sum(1 for r in tests if r.delta is not None),
        "n_pairs": n_pairs,
    }


def comparison_signature(comparison: Comparison) -> str:
    """The comparison's signature line (``_engine.signature``'s format): the test that
    decided, its settings, the runs' ids, the shared items of each pair and the family."""
    tasks = sorted({str(r.get("task")) for r in comparison.runs})
    n_shared = sorted({pair.n_shared for pair in comparison.pairs.values()})
    return test_signature(
        method=comparison.method,
        task="+".join(tasks),
        who=("runs", ",".join(str(r.get("run_id")) for r in comparison.runs)),
        n=",".join(str(n) for n in n_shared) or "0",
        n_resamples=comparison.n_resamples,
        seed=comparison.seed,
        alpha=comparison.alpha,
        p_value_rule=comparison.p_value_rule,
        decided=[r.method for r in comparison.tests],
        family=(comparison.family, comparison.correction) if comparison.method else None,
    )


def pair_key(run_a: Run, run_b: Run) -> str:
    return f"({run_a.run_id}, {run_b.run_id})"


def _testable_specs(
    run_a: Run, run_b: Run, family: str = ALL, members: Sequence[str] | None = None
) -> list[MetricSpec]:
    """The specs both runs define alike, within the family: ``members`` when named, else
    the headline family's tiers (``HEADLINE_TIERS``) or every metric (``all``)."""
    specs_b = {s.name: s for s in run_b.metric_specs()}
    cols_a, cols_b = set(run_a.stats["columns"]), set(run_b.stats["columns"])
    out = []
    for spec in run_a.metric_specs():
        other = specs_b.get(spec.name)
        if (
            other is not None
            and spec.same_definition(other)
            and set(spec.columns) <= cols_a
            and set(spec.columns) <= cols_b
            and in_family(run_a, spec, family, members)
        ):
            out.append(spec)
    return out


def check_family(family: str) -> str:
    """``family`` if it names one (headline, all), else a UsageError listing them."""
    if family not in FAMILIES:
        raise UsageError(f"family must be one of {', '.join(FAMILIES)}, not {family!r}")
    return family


def in_family(run: Run, spec: MetricSpec, family: str, members: Sequence[str] | None) -> bool:
    """Whether ``spec`` is tested: a named member, or within the family's tiers."""
    if members is not None:
        return spec.name in members
    if family == ALL:
        return True
    metric = run.metrics.get(spec.name)
    return (metric.tier if metric is not None else spec.tier) in HEADLINE_TIERS


def run_resampling(run: Run) -> Resampling:
    """The bootstrap scheme a run was scored with (recorded only when not multinomial)."""
    stats = run.settings.get("stats", {})
    value = stats.get("resampling", "multinomial") if isinstance(stats, dict) else "multinomial"
    return check_resampling(str(value))


def shared_resampling(run_a: Run, run_b: Run) -> Resampling:
    """The scheme of a paired test: both runs must have been scored with the same one."""
    a, b = run_resampling(run_a), run_resampling(run_b)
    if a != b:
        raise UsageError(
            f"runs use different bootstrap resampling ({run_a.name}: {a}, {run_b.name}: {b}); "
            "rescore one with the other's --resampling to test them as a pair"
        )
    return a


def _one_surface_unread(run_a: Run, run_b: Run) -> bool:
    """Two runs read with lazy item records (``Run.load(lazy_items=True)``), both listing
    records, on one surface: equal fingerprints (a hash of every id with its gold digest) and
    equal ``stats.ids``. Their records then hold the same ids and the same gold, which the
    comparison knows without parsing them (84% of a translation artifact's bytes)."""
    return (
        all(isinstance(r.items, LazyItems) and not r.items.empty for r in (run_a, run_b))
        and run_a.surface.fingerprint == run_b.surface.fingerprint
        and set(run_a.stats["ids"]) == set(run_b.stats["ids"])
    )


def compare_pair(
    run_a: Run,
    run_b: Run,
    *,
    significance: bool = True,
    method: Method = "bootstrap",
    p_value: PValueRule = "assay",
    n_resamples: int | None = None,
    seed: int = 12345,
    alpha: float = 0.05,
    allow_gold_mismatch: bool = False,
    min_items: int = 10,
    family: str = HEADLINE,
    correction: str = "holm",
    members: Sequence[str] | None = None,
) -> PairComparison:
    """Compare two runs of one task (see the module docstring): every shared metric's Δ on
    the full cohorts, and with ``significance`` the paired tests of the family's metrics on
    the shared items, adjusted together by ``correction`` (``members`` names the family's
    metrics outright, e.g. the gated ones; ``family`` is then its name)."""
    pair = _compare_pair(
        run_a,
        run_b,
        significance=significance,
        method=method,
        p_value=p_value,
        n_resamples=n_resamples,
        seed=seed,
        alpha=alpha,
        allow_gold_mismatch=allow_gold_mismatch,
        min_items=min_items,
        family=family,
        members=members,
    )
    adjusted = adjust_family(pair.significance, correction=correction, family=family)
    return replace(pair, significance=adjusted)


def _compare_pair(
    run_a: Run,
    run_b: Run,
    *,
    significance: bool,
    method: Method,
    p_value: PValueRule,
    n_resamples: int | None,
    seed: int,
    alpha: float,
    allow_gold_mismatch: bool,
    min_items: int,
    family: str,
    members: Sequence[str] | None = None,
) -> PairComparison:
    """`compare_pair` before the family's adjustment (``compare`` adjusts over every pair)."""
    if run_a.task != run_b.task:
        raise UsageError(
            f"cannot compare runs of different tasks: {run_a.name} is {run_a.task!r}, "
            f"{run_b.name} is {run_b.task!r}"
        )
    warnings: list[str] = []
    if run_a.metrics_version != run_b.metrics_version:
        warnings.append(
            f"metrics_version differs ({run_a.metrics_version} vs {run_b.metrics_version}): "
            "metric definitions may have changed between the runs"
        )
    shared, only_a, only_b = _aligned_ids(run_a, run_b, allow_gold_mismatch, warnings)
    results: list[SignificanceResult] = []
    if significance:
        test = _PairedTest(method, p_value, n_resamples, seed, alpha, min_items)
        results = test.run(run_a, run_b, shared, warnings, family, members)
    return PairComparison(
        run_a=run_a.run_id,
        run_b=run_b.run_id,
        name_a=run_a.name,
        name_b=run_b.name,
        same_surface=run_a.surface.fingerprint == run_b.surface.fingerprint,
        n_shared=len(shared),
        only_a=only_a,
        only_b=only_b,
        metrics=metric_deltas(run_a, run_b),
        significance=results,
        warnings=warnings,
    )


def _aligned_ids(
    run_a: Run, run_b: Run, allow_gold_mismatch: bool, warnings: list[str]
) -> tuple[list[str], list[str], list[str]]:
    """(shared ids in A's order, ids only in A, ids only in B); ``warnings`` told when the
    runs differ in items. Gold that differs on a shared id is a UsageError unless allowed
    (then a warning)."""
    if _one_surface_unread(run_a, run_b):
        gold_a = gold_b = dict.fromkeys(run_a.stats["ids"], "")  # one gold: nothing differs
    else:
        gold_a, gold_b = run_a.item_gold_digests(), run_b.item_gold_digests()
    shared = [i for i in run_a.stats["ids"] if i in gold_b]
    only_a = [i for i in run_a.stats["ids"] if i not in gold_b]
    only_b = [i for i in run_b.stats["ids"] if i not in gold_a]
    if only_a or only_b:
        listed = ", ".join((only_a + only_b)[:10])
        warnings.append(
            f"runs differ in items: testing on the {len(shared)} shared ids; left out "
            f"{len(only_a)} only in A and {len(only_b)} only in B ({listed})"
        )
    mismatched = [i for i in shared if gold_a[i] != gold_b[i]]
    if mismatched:
        msg = (
            f"gold differs between the runs on {len(mismatched)} shared id(s) "
            f"({', '.join(mismatched[:5])}): another gold revision?"
        )
        if not allow_gold_mismatch:
            raise UsageError(msg + " Pass --allow-gold-mismatch to compare anyway.")
        warnings.append(msg)
    return shared, only_a, only_b


def metric_deltas(run_a: Run, run_b: Run) -> list[MetricDelta]:
    """Δ = A − B of every metric both runs have, on their full cohorts (None when either
    value is undefined), in A's order."""
    deltas = []
    for name, ma in run_a.metrics.items():
        mb = run_b.metrics.get(name)
        if mb is None:
            continue
        delta = ma.value - mb.value if ma.value is not None and mb.value is not None else None
        deltas.append(MetricDelta(name, ma.value, mb.value, delta, ma.tier, ma.higher_is_better))
    return deltas


@dataclass(frozen=True)
class _PairedTest:
    """The paired test a comparison runs on the shared items (``stats.paired_test``)."""

    method: Method
    p_value: PValueRule
    n_resamples: int | None
    seed: int
    alpha: float
    min_items: int

    def run(
        self,
        run_a: Run,
        run_b: Run,
        shared: list[str],
        warnings: list[str],
        family: str = ALL,
        members: Sequence[str] | None = None,
    ) -> list[SignificanceResult]:
        """Every testable spec's result within the family; with no shared item each p-value
        is 1.0, with fewer than ``min_items`` the test runs and ``warnings`` say it is
        unreliable."""
        specs = _testable_specs(run_a, run_b, family, members)
        if not shared:
            warnings.append("no shared items: every p-value is 1.0")
            return [self._untested(s.name) for s in specs]
        if len(shared) < self.min_items:
            warnings.append(
                f"only {len(shared)} shared items: significance tests are unreliable "
                f"with fewer than {self.min_items}"
            )
        return paired_test(
            run_a.table().take(shared),
            run_b.table().take(shared),
            specs,
            method=self.method,
            n_resamples=self.n_resamples,
            seed=self.seed,
            alpha=self.alpha,
            p_value=self.p_value,
            resampling=shared_resampling(run_a, run_b),
            units=shared_units(run_a, run_b, shared),
        )

    def _untested(self, name: str) -> SignificanceResult:
        """The result of a metric no item could test: no scores, p = 1, not significant."""
        n = self.n_resamples or 0
        return SignificanceResult(
            name,
            None,
            None,
            None,
            1.0,
            n,
            1 - self.alpha,
            False,
            None,
            None,
            None,
            method=self.method,
            seed=self.seed,
        )


def compare(
    *runs: Run,
    significance: bool = True,
    method: Method = "bootstrap",
    p_value: PValueRule = "assay",
    n_bootstrap: int | None = None,
    seed: int | None = None,
    alpha: float | None = None,
    allow_gold_mismatch: bool = False,
    family: str = HEADLINE,
    correction: str = "holm",
    progress: Callable[[int, int], None] | None = None,
) -> Comparison:
    """Compare two or more runs; with more than two, every pair keyed "(run_a_id, run_b_id)";
    ``progress(done, total)`` is told after each pair is tested.

    The family (headline: the headline and core metrics; all: every metric and per-class
    row) is tested in every pair and adjusted by ``correction`` over all pairs × metrics."""
    if len(runs) < 2:
        raise UsageError("compare needs at least two runs")
    check_family(family)
    check_correction(correction)
    stats = get_settings().stats
    seed = stats.seed if seed is None else seed
    alpha = stats.alpha if alpha is None else alpha
    if method not in ("bootstrap", "ar"):
        raise UsageError(f"method must be 'bootstrap' or 'ar', not {method!r}")
    if n_bootstrap is None:
        n_bootstrap = stats.n_bootstrap if method == "bootstrap" else stats.n_trials
    StatsSettings.check_resamples(n_bootstrap)  # issue 20: bounded, a clear usage error
    pairs: dict[str, PairComparison] = {}
    warnings: list[str] = []
    combos = list(itertools.combinations(runs, 2))
    for done, (a, b) in enumerate(combos, 1):
        pair = _compare_pair(
            a,
            b,
            significance=significance,
            method=method,
            p_value=p_value,
            n_resamples=n_bootstrap,
            seed=seed,
            alpha=alpha,
            allow_gold_mismatch=allow_gold_mismatch,
            min_items=stats.min_items_test,
            family=family,
        )
        key = pair_key(a, b)
        if key in pairs:
            raise UsageError(f"the same run is given twice: {key}")
        pairs[key] = pair
        prefix = "" if len(runs) == 2 else f"{key}: "
        warnings += [prefix + w for w in pair.warnings]
        if progress is not None:
            progress(done, len(combos))
    pairs = _adjust_pairs(pairs, family=family, correction=correction)
    return Comparison(
        runs=[
            {"run_id": r.run_id, "name": r.name, "task": r.task, "surface": r.surface.fingerprint}
            for r in runs
        ],
        pairs=pairs,
        method=method if significance else None,
        p_value_rule=p_value,
        n_resamples=n_bootstrap if significance else None,
        seed=seed,
        alpha=alpha,
        warnings=warnings,
        family=family,
        correction=correction,
    )


def _adjust_pairs(
    pairs: dict[str, PairComparison], *, family: str, correction: str
) -> dict[str, PairComparison]:
    """Every pair's results adjusted as one family (all pairs × metrics)."""
    flat = [r for pair in pairs.values() for r in pair.significance]
    adjusted = iter(adjust_family(flat, correction=correction, family=family))
    return {
        key: replace(pair, significance=[next(adjusted) for _ in pair.significance])
        for key, pair in pairs.items()
    }


def load_runs(paths: Sequence[str]) -> list[Run]:
    return [Run.load(p) for p in paths]
