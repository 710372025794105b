"""Benchmark (issue 32): what clusters cost, classification at 10⁶ items, and the simulations.

* ``--stats`` (default): CPU seconds in one process, side by side, least of ``--repeat`` runs:
  the iid bootstrap of a CUAD-shaped classification table (N items in contracts of 41 clauses,
  0/1 statistics), the cluster path (``collapse`` + the bootstrap of the cluster sums) and the
  cluster path with the iid bootstrap beside it (what a design effect needs); and the bootstrap
  at 10⁵ and 10⁶ items with distinct-row counting (``stats.resampling.SumsMatrix``) on and off,
  its sums checked identical.
* ``--classification``: ``assay score classification`` at 10⁵ and 10⁶ items against the
  pandas + numpy floor (``bench_throughput.py``'s measurement, each command its own process);
  ``BENCH_CLASSIFICATION_BASELINE=<src dir>`` alternates another checkout's code with it.
* ``--simulate``: the coverage and type-I figures of docs/statistics.md on the real clustered
  data in ../shared/data (``assay.stats.simulation``), at 10, 30 and 60 clusters.

    uv run python benchmarks/bench_clusters.py                  # --stats
    uv run python benchmarks/bench_clusters.py --classification
    uv run python benchmarks/bench_clusters.py --simulate
"""

from __future__ import annotations

import argparse
import sys
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

HERE = Path(__file__).resolve().parent
SHARED_DATA = HERE.parent.parent / "shared" / "data"
CLAUSES = 41


def cpu(fn: Callable[[], Any], repeat: int) -> float:
    """The least process CPU time of ``repeat`` calls."""
    best = float("inf")
    for _ in range(repeat):
        start = time.process_time()
        fn()
        best = min(best, time.process_time() - start)
    return best


def contract_table(n: int, seed: int = 0) -> tuple[Any, tuple[str, ...], list[Any]]:
    """N (contract, clause) items: a classification run's 0/1 statistics (correct, items, tp,
    fp, fn, tn), contract effects on the clause rate; labels: the contract of each item."""
    import numpy as np

    from assay.metrics.spec import MetricSpec, fbeta_metric, ratio_metric
    from assay.metrics.table import StatsTable

    rng = np.random.default_rng(seed)
    contracts = -(-n // CLAUSES)
    rate = rng.beta(2, 4, contracts).repeat(CLAUSES)[:n]
    truth = (rng.random(n) < rate).astype(np.float64)
    pred = np.where(rng.random(n) < 0.85, truth, 1 - truth)
    tp, fp, fn = truth * pred, (1 - truth) * pred, truth * (1 - pred)
    tn = (1 - truth) * (1 - pred)
    values = np.column_stack([truth == pred, np.ones(n), tp, fp, fn, tn]).astype(np.float64)
    table = StatsTable(
        tuple(map(str, range(n))), ("correct", "items", "tp", "fp", "fn", "tn"), values
    )
    labels = tuple(f"c{i // CLAUSES}" for i in range(n))
    specs = [
        ratio_metric("accuracy", "correct", "items"),
        fbeta_metric("f1", "tp", "fp", "fn"),
        MetricSpec("macro_f1", "macro_fbeta", ("tp", "fp", "fn", "tn", "fn", "fp")),
    ]
    return table, labels, specs


def bench_stats(repeat: int) -> None:
    from assay.stats import resampling
    from assay.stats.bootstrap import bootstrap_distributions
    from assay.stats.units import collapse, design_effect

    print("clusters: CPU s, least of", repeat, "(one process, 1,000 resamples)")
    print("| items | contracts | iid CI | collapse + cluster CI | ratio | + iid (deff) | ratio |")
    print("|---|---|---|---|---|---|---|")
    for n in (10**5, 10**6):
        table, labels, specs = contract_table(n)

        def iid(table: Any = table, specs: Any = specs) -> Any:
            return bootstrap_distributions(table, specs)

        def clustered(table: Any = table, labels: Any = labels, specs: Any = specs) -> Any:
            return bootstrap_distributions(collapse(table, labels), specs)

        def both(specs: Any = specs) -> None:
            c, i = clustered(), iid()
            for s in specs:
                design_effect(c[s.name], i[s.name])

        t_iid, t_cl, t_both = cpu(iid, repeat), cpu(clustered, repeat), cpu(both, repeat)
        print(
            f"| {n:,} | {n // CLAUSES:,} | {t_iid:.3f} | {t_cl:.3f} | {t_cl / t_iid:.2f} "
            f"| {t_both:.3f} | {t_both / t_iid:.2f} |"
        )
    print("\ndistinct-row counting: CPU s of the iid bootstrap, least of", repeat)
    print("| items | per item (before) | per distinct row | speed-up | same sums |")
    print("|---|---|---|---|---|")
    floor = resampling.DISTINCT_MIN_ITEMS
    growth = {}
    for n in (10**5, 10**6):
        table, _, specs = contract_table(n)
        resampling.DISTINCT_MIN_ITEMS = 1 << 62  # off: every item counted (the old path)
        before = cpu(lambda t=table, s=specs: bootstrap_distributions(t, s), repeat)
        old = bootstrap_distributions(table, specs)
        resampling.DISTINCT_MIN_ITEMS = floor
        after = cpu(lambda t=table, s=specs: bootstrap_distributions(t, s), repeat)
        new = bootstrap_distributions(table, specs)
        same = all((old[s.name] == new[s.name]).all() for s in specs)
        growth[n] = (before, after)
        print(f"| {n:,} | {before:.3f} | {after:.3f} | {before / after:.2f}× | {same} |")
    (b5, a5), (b6, a6) = growth[10**5], growth[10**6]
    print(f"CPU growth 10⁵ → 10⁶: ×{b6 / b5:.1f} per item, ×{a6 / a5:.1f} per distinct row")


def bench_classification(repeat: int) -> None:
    sys.path.insert(0, str(HERE))
    from bench_throughput import bench_classification as throughput

    throughput((10**5, 10**6), repeat)


def simulate(parts: set[str]) -> None:
    from assay.metrics.table import StatsTable
    from assay.stats.clustered_data import cuad, wmt22_cs_en

    if not SHARED_DATA.is_dir():
        raise SystemExit(f"{SHARED_DATA}: the shared data is not here")
    c, w = cuad(SHARED_DATA), wmt22_cs_en(SHARED_DATA)

    def cut(t: StatsTable, names: tuple[str, ...]) -> StatsTable:
        return StatsTable(t.ids, names, t.select(names))

    flags = ("correct", "items", "tp", "fp", "fn", "tn")
    cases = [
        ("CUAD no-clause", "accuracy", cut(c.table_a, flags), c.labels, c.specs[:1]),
        ("CUAD classifier", "3 metrics", cut(c.table_b, flags), c.labels, c.specs[:3]),
        ("CUAD classifier", "macro-F1/41", c.table_b, c.labels, c.specs[3:]),
        ("WMT22 Online-B", "chrF++", w.table_a, w.labels, w.specs),
    ]
    pairs = [
        ("CUAD", cut(c.table_a, flags), cut(c.table_b, flags), c.labels, c.specs[:3]),
        ("WMT22", w.table_a, w.table_b, w.labels, w.specs),
    ]
    if "coverage" in parts:
        coverage(cases)
    if "type1" in parts:
        type_one(pairs)
    if "small-n" in parts:
        small_n(c, w, cut)
    if "family" in parts:
        family()


def coverage(cases: list[Any]) -> None:
    from assay.stats.simulation import cluster_coverage

    print("coverage of the population value (1,000 samples; iid: 200)")
    print("| data | metric | clusters | cluster bootstrap | iid bootstrap |")
    print("|---|---|---|---|---|")
    for m in (10, 30, 60):
        for name, _, table, labels, specs in cases:
            for fig in cluster_coverage(table, labels, specs, n_clusters=m, n_iid=200):
                print(f"| {name} | {fig.metric} | {m} | {fig.cluster:.3f} | {fig.iid:.3f} |")


def type_one(pairs: list[Any]) -> None:
    from assay.stats.simulation import cluster_type_one

    print("\ntype-I at α 0.05, systems swapped within clusters (300 nulls; iid: 100)")
    print("| data | metric | clusters | test | over clusters | over items |")
    print("|---|---|---|---|---|---|")
    for m in (10, 30, 60):
        for name, a, b, labels, specs in pairs:
            for f in cluster_type_one(a, b, labels, specs, n_clusters=m, n_trials=1000):
                print(
                    f"| {name} | {f.metric} | {m} | {f.method} | {f.clustered:.3f} | {f.iid:.3f} |"
                )


def small_n(c: Any, w: Any, cut: Callable[..., Any]) -> None:
    """The tests' settings: chrF++ segments (400 nulls), CUAD contracts' clause F1 (600)."""
    from assay.stats.simulation import small_n_type_one
    from assay.stats.units import collapse

    names = ("tp", "fp", "fn")
    contract_f1 = (
        collapse(cut(c.table_b, names), c.labels),
        collapse(cut(c.table_a, names), c.labels),
        [c.specs[2]],
        600,
    )
    print("\ntype-I at small n, items swapped at random (the dispatched test; the bootstrap)")
    print("| data | n | dispatched test | its type-I | percentile bootstrap |")
    print("|---|---|---|---|---|")
    for name, (a, b, specs, k) in {
        "WMT22 chrF++ segments": (w.table_a, w.table_b, list(w.specs), 400),
        "CUAD contract clause F1": contract_f1,
    }.items():
        rates = small_n_type_one(a, b, specs, n_datasets=k, n_trials=1000)
        for n, r in rates.items():
            print(
                f"| {name} | {n} | {r['method']} | {float(r['dispatched']):.3f} "
                f"| {float(r['bootstrap']):.3f} |"
            )


def family() -> None:
    """The demo's runs (``assay demo``), every metric one family, 300 nulls of 400 items."""
    import tempfile

    from assay._cli import main as assay_main
    from assay._engine.run import Run
    from assay.stats.simulation import family_wise_rates

    with tempfile.TemporaryDirectory() as tmp:
        assay_main(["-q", "demo", "--out", tmp])
        cand = Run.load(Path(tmp) / "candidate.run.json")
        base = Run.load(Path(tmp) / "baseline.run.json")
    shared = [i for i in cand.stats["ids"] if i in set(base.stats["ids"])]
    specs = cand.metric_specs()
    rates = family_wise_rates(
        cand.table().take(shared), base.table().take(shared), specs, n_datasets=300
    )
    print(f"\nfamily-wise rate under a null, the demo's {len(specs)} metrics (300 nulls)")
    print("| correction | P(any metric starred) |")
    print("|---|---|")
    for correction, rate in rates.items():
        print(f"| {correction} | {rate:.3f} |")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--classification", action="store_true")
    parser.add_argument(
        "--simulate",
        nargs="*",
        choices=["coverage", "type1", "small-n", "family"],
        help="the simulations (default: all)",
    )
    parser.add_argument("--repeat", type=int, default=3)
    args = parser.parse_args()
    if args.classification:
        bench_classification(args.repeat)
    elif args.simulate is not None:
        simulate(set(args.simulate or ("coverage", "type1", "small-n", "family")))
    else:
        bench_stats(args.repeat)


if __name__ == "__main__":
    main()
