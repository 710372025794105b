"""Type-I error of the paired tests by simulation: how often each calls a change where there is
none.

The paired bootstrap's percentile p-value over a handful of items is anti-conservative (it
reaches 0 whenever every item moved the same way); the dispatch of ``paired_test`` (exact
sign-flip over all 2^n swaps when 2^n is at most the resamples asked for, else approximate
randomization) is not. ``null_rejection_rates`` measures both on data where the null holds
(docs/claims.md has the table; ``benchmarks/bench_claims.py --type1`` reproduces it).

On clustered data (issue 32; docs/statistics.md has the figures, ``benchmarks/bench_clusters.py
--simulate`` reproduces them): ``cluster_coverage`` (CIs over sampled clusters, the cluster
bootstrap against the iid one), ``cluster_type_one`` (paired tests over clusters under a null
made by swapping systems within clusters), ``family_wise_rates`` (many metrics under one null,
per correction) and ``small_n_type_one`` (the dispatched test at n = 10, 20, 50).
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from dataclasses import dataclass, replace

import numpy as np

from assay.metrics.spec import MetricSpec, mean_columns, mean_metric
from assay.metrics.table import StatsTable
from assay.stats.bootstrap import (
    DEFAULT_ALPHA,
    DEFAULT_N_BOOTSTRAP,
    DEFAULT_SEED,
    bootstrap_distributions,
)
from assay.stats.intervals import percentile_interval
from assay.stats.significance import Method, dispatched_test, paired_test
from assay.stats.units import IntArray, Units, cluster_codes, collapse, few_units_factor, widen


def null_rejection_rates(
    n_items: int,
    *,
    n_datasets: int = 1000,
    n_resamples: int = DEFAULT_N_BOOTSTRAP,
    alpha: float = DEFAULT_ALPHA,
    seed: int = DEFAULT_SEED,
    n_claims: int = 20,
) -> dict[str, float | str]:
    """Type-I error by simulation: how often each paired test calls a change where there is
    none, at ``alpha``, over ``n_datasets`` datasets of ``n_items`` papers.

    A dataset: each paper i has ``n_claims`` reference claims and a recovery rate q_i ~ U(0.6,
    0.95); baseline and candidate each recover Binomial(n_claims, q_i) of them, independently
    (the same process: the null holds, and pairing matters). Tests: the percentile paired
    bootstrap (``bootstrap``, B = ``n_resamples``) and what ``paired_test`` dispatches to for
    ``method="ar"`` (``dispatched``: exact when 2^n ≤ ``n_resamples``, else approximate
    randomization with that many swaps), named in ``dispatched_method``.
    """
    spec = mean_metric("recovery", "recovery")
    rng = np.random.default_rng(seed)
    ids = [f"p{i}" for i in range(n_items)]
    hits = {"bootstrap": 0, "dispatched": 0}
    method = ""
    for d in range(n_datasets):
        q = rng.uniform(0.6, 0.95, n_items)
        a, b = rng.binomial(n_claims, q) / n_claims, rng.binomial(n_claims, q) / n_claims
        ta = StatsTable.from_rows(ids, [mean_columns("recovery", float(v)) for v in a])
        tb = StatsTable.from_rows(ids, [mean_columns("recovery", float(v)) for v in b])
        (boot,) = paired_test(
            ta,
            tb,
            [spec],
            method="bootstrap",
            exact=False,
            n_resamples=n_resamples,
            alpha=alpha,
            seed=seed + d,
        )
        (disp,) = paired_test(
            ta, tb, [spec], method="ar", n_resamples=n_resamples, alpha=alpha, seed=seed + d
        )
        hits["bootstrap"] += boot.significant
        hits["dispatched"] += disp.significant
        method = disp.method
    return {
        "bootstrap": hits["bootstrap"] / n_datasets,
        "dispatched": hits["dispatched"] / n_datasets,
        "dispatched_method": method,
    }


# ----------------------------------------------------------------- clustered data (issue 32)


@dataclass(frozen=True)
class CoverageFigure:
    """Coverage of the population value by 95% CIs over ``n_clusters`` sampled clusters: the
    cluster bootstrap (widened by c(m)) over ``n_datasets`` samples, the iid item bootstrap
    over the first ``n_iid`` of them."""

    metric: str
    n_clusters: int
    cluster: float
    iid: float
    n_datasets: int
    n_iid: int


@dataclass(frozen=True)
class TypeOneFigure:
    """Share of true nulls rejected at α: by ``paired_test`` over clusters (``method``: the
    test it dispatched to) and, for contrast, over items as if they were independent."""

    metric: str
    n_units: int
    clustered: float
    iid: float
    method: str
    n_datasets: int
    n_iid: int


def _cluster_rows(labels: Sequence[str]) -> list[IntArray]:
    """Row indices of each cluster (clusters in first-appearance order)."""
    codes, names = cluster_codes(labels)
    order = np.argsort(codes, kind="stable")
    bounds = np.searchsorted(codes[order], np.arange(len(names) + 1))
    return [order[bounds[c] : bounds[c + 1]] for c in range(len(names))]


def _sample(table: StatsTable, rows: Sequence[IntArray], draws: IntArray) -> StatsTable:
    """The items of the drawn clusters (a cluster drawn twice is two clusters), ids 0..n−1."""
    index = np.concatenate([rows[c] for c in draws])
    return StatsTable(tuple(map(str, range(index.size))), table.columns, table.values[index])


def _draw_labels(rows: Sequence[IntArray], draws: IntArray) -> tuple[str, ...]:
    return tuple(str(k) for k, c in enumerate(draws) for _ in range(rows[c].size))


def _prefixed(spec: MetricSpec, prefix: str) -> MetricSpec:
    return replace(spec, name=prefix + spec.name, columns=tuple(prefix + c for c in spec.columns))


def cluster_coverage(
    table: StatsTable,
    labels: Sequence[str],
    specs: Sequence[MetricSpec],
    *,
    n_clusters: int,
    n_datasets: int = 1000,
    n_iid: int = 200,
    n_resamples: int = 400,
    alpha: float = DEFAULT_ALPHA,
    seed: int = DEFAULT_SEED,
    batch: int = 50,
) -> list[CoverageFigure]:
    """Coverage of θ = finalize(Σ all rows) (the full data is the population) by the CI over
    ``n_clusters`` clusters drawn with replacement, per spec.

    Cluster CI: the percentile interval of ``bootstrap_distributions(collapse(sample,
    labels))`` widened by ``few_units_factor(m)`` about the sample's estimate. ``batch``
    samples are bootstrapped as column groups of one table (one W shared by the batch, drawn
    independently of the data: each sample's coverage event is as likely as with its own W).
    iid CI: the item bootstrap of the first ``n_iid`` samples' items.
    """
    truth = {s.name: s.value(table) for s in specs}
    sums = collapse(table, labels)
    rows = _cluster_rows(labels)
    m = n_clusters
    factor = few_units_factor(m, alpha)
    rng = np.random.default_rng(seed)
    draws = rng.integers(0, len(rows), size=(n_datasets, m))
    covered = dict.fromkeys(truth, 0)
    ids = tuple(map(str, range(m)))
    for lo in range(0, n_datasets, batch):
        group = draws[lo : lo + batch]
        prefixes = [f"{g}:" for g in range(len(group))]
        columns = tuple(p + c for p in prefixes for c in table.columns)
        stacked = StatsTable(ids, columns, np.hstack([sums.values[d] for d in group]))
        grouped = [_prefixed(s, p) for p in prefixes for s in specs]
        dists = bootstrap_distributions(
            stacked, grouped, n_resamples=n_resamples, seed=seed * 1000 + lo
        )
        for spec in grouped:
            name = spec.name.split(":", 1)[1]
            ci = percentile_interval(dists[spec.name], alpha)
            low, high = widen(ci.lower, ci.upper, spec.value(stacked), factor)
            covered[name] += low is not None and high is not None and low <= truth[name] <= high
    iid_covered = dict.fromkeys(truth, 0)
    n_iid = min(n_iid, n_datasets)
    for d in range(n_iid):
        sample = _sample(table, rows, draws[d])
        dists = bootstrap_distributions(sample, specs, n_resamples=n_resamples, seed=seed + d)
        for s in specs:
            iid_covered[s.name] += percentile_interval(dists[s.name], alpha).contains(truth[s.name])
    return [
        CoverageFigure(
            s.name,
            m,
            covered[s.name] / n_datasets,
            iid_covered[s.name] / n_iid if n_iid else math.nan,
            n_datasets,
            n_iid,
        )
        for s in specs
    ]


def cluster_type_one(
    table_a: StatsTable,
    table_b: StatsTable,
    labels: Sequence[str],
    specs: Sequence[MetricSpec],
    *,
    n_clusters: int,
    unit: str = "cluster",
    n_datasets: int = 300,
    n_iid: int = 100,
    n_resamples: int = 400,
    n_trials: int = 2000,
    alpha: float = DEFAULT_ALPHA,
    seed: int = DEFAULT_SEED,
) -> list[TypeOneFigure]:
    """Type-I error of ``paired_test(..., units=clusters)`` on real clustered data.

    A dataset: ``n_clusters`` clusters drawn with replacement; in each, systems A and B trade
    places with probability 1/2 (the whole cluster: the null holds, and the effect of a system
    may vary by cluster as much as it does in the data). Rejections at raw p < α per spec; the
    same test over items (iid) on the first ``n_iid`` datasets for contrast. Where the
    dispatch picks approximate randomization it runs with ``n_trials`` swaps (its default
    10,000 only sharpens p-values far from α, at 5x the time), the bootstrap with
    ``n_resamples``.
    """
    rows = _cluster_rows(labels)
    method_asked: Method = "ar" if dispatched_test(n_clusters) == "ar" else "bootstrap"
    resamples = n_trials if method_asked == "ar" else n_resamples
    rng = np.random.default_rng(seed)
    hits = dict.fromkeys((s.name for s in specs), 0)
    iid_hits = dict.fromkeys((s.name for s in specs), 0)
    method = ""
    n_iid = min(n_iid, n_datasets)
    for d in range(n_datasets):
        draws = rng.integers(0, len(rows), size=n_clusters)
        swap = rng.random(n_clusters) < 0.5
        a, b = _sample(table_a, rows, draws), _sample(table_b, rows, draws)
        per_item = np.repeat(swap, [rows[c].size for c in draws])[:, None]
        a_values = np.where(per_item, b.values, a.values)
        b_values = np.where(per_item, a.values, b.values)
        a, b = StatsTable(a.ids, a.columns, a_values), StatsTable(b.ids, b.columns, b_values)
        units = Units(unit, _draw_labels(rows, draws))
        results = paired_test(
            a, b, specs, method=method_asked, n_resamples=resamples, seed=seed + d, units=units
        )
        method = results[0].method
        for r in results:
            hits[r.metric_name] += r.p_value < alpha
        if d < n_iid:
            for r in paired_test(a, b, specs, n_resamples=n_resamples, seed=seed + d):
                iid_hits[r.metric_name] += r.p_value < alpha
    return [
        TypeOneFigure(
            s.name,
            n_clusters,
            hits[s.name] / n_datasets,
            iid_hits[s.name] / n_iid if n_iid else math.nan,
            method,
            n_datasets,
            n_iid,
        )
        for s in specs
    ]


def family_wise_rates(
    table_a: StatsTable,
    table_b: StatsTable,
    specs: Sequence[MetricSpec],
    *,
    n_items: int | None = None,
    n_datasets: int = 300,
    corrections: Sequence[str] = ("none", "holm", "bh"),
    n_resamples: int = 400,
    alpha: float = DEFAULT_ALPHA,
    seed: int = DEFAULT_SEED,
) -> dict[str, float]:
    """Family-wise error: the share of null datasets in which at least one of ``specs`` is
    called significant, per correction (``adjust_family`` over the whole family).

    A dataset: ``n_items`` items (default: all) drawn with replacement; each item's two rows
    trade places between A and B with probability 1/2, so every metric's null holds at once
    (with the metrics' real correlations).
    """
    from assay.stats.family import adjust_family

    n = n_items or len(table_a)
    rng = np.random.default_rng(seed)
    hits = dict.fromkeys(corrections, 0)
    for d in range(n_datasets):
        index = rng.integers(0, len(table_a), size=n)
        swap = (rng.random(n) < 0.5)[:, None]
        va, vb = table_a.values[index], table_b.values[index]
        ids = tuple(map(str, range(n)))
        a = StatsTable(ids, table_a.columns, np.where(swap, vb, va))
        b = StatsTable(ids, table_b.columns, np.where(swap, va, vb))
        results = paired_test(a, b, specs, n_resamples=n_resamples, seed=seed + d, alpha=alpha)
        for correction in corrections:
            adjusted = adjust_family(results, correction=correction, family="all")
            hits[correction] += any(r.significant for r in adjusted)
    return {c: hits[c] / n_datasets for c in corrections}


def small_n_type_one(
    table_a: StatsTable,
    table_b: StatsTable,
    specs: Sequence[MetricSpec],
    *,
    sizes: Sequence[int] = (10, 20, 50),
    n_datasets: int = 300,
    n_resamples: int = 400,
    n_trials: int = 2000,
    alpha: float = DEFAULT_ALPHA,
    seed: int = DEFAULT_SEED,
) -> dict[int, dict[str, float | str]]:
    """Type-I error at small n of the dispatched ``paired_test`` and of the percentile
    bootstrap it replaces (``exact=False``), per size: n items drawn with replacement, each
    item's rows swapped between A and B with probability 1/2; a rejection is any spec's raw
    p < α counted per spec (the mean over specs is reported). Approximate randomization, where
    dispatched, runs ``n_trials`` swaps (see `cluster_type_one`)."""
    out: dict[int, dict[str, float | str]] = {}
    for n in sizes:
        rng = np.random.default_rng(seed + n)
        hits = {"dispatched": 0, "bootstrap": 0}
        method = ""
        ids = tuple(map(str, range(n)))
        asked: Method = "ar" if dispatched_test(n) == "ar" else "bootstrap"
        resamples = n_trials if asked == "ar" else n_resamples
        for d in range(n_datasets):
            index = rng.integers(0, len(table_a), size=n)
            swap = (rng.random(n) < 0.5)[:, None]
            va, vb = table_a.values[index], table_b.values[index]
            a = StatsTable(ids, table_a.columns, np.where(swap, vb, va))
            b = StatsTable(ids, table_b.columns, np.where(swap, va, vb))
            disp = paired_test(a, b, specs, method=asked, n_resamples=resamples, seed=seed + d)
            boot = paired_test(a, b, specs, n_resamples=n_resamples, seed=seed + d, exact=False)
            method = disp[0].method
            hits["dispatched"] += sum(r.p_value < alpha for r in disp)
            hits["bootstrap"] += sum(r.p_value < alpha for r in boot)
        total = n_datasets * len(specs)
        out[n] = {
            "dispatched": hits["dispatched"] / total,
            "bootstrap": hits["bootstrap"] / total,
            "method": method,
        }
    return out
