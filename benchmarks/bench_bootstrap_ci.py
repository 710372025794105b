"""Benchmark: percentile bootstrap CI of a mean metric, assay vs scipy.stats.bootstrap.

Data: one per-item score (Bernoulli or continuous) stored as a StatsTable with columns
``v`` and ``v#n``, metric ``mean_metric("score", "v")``. assay's ``bootstrap_ci`` is timed beside
``scipy.stats.bootstrap((x,), np.mean, method="percentile", vectorized=True, batch=...)`` on the
same values; both CIs are printed to show they agree. scipy draws ``rng.integers(0, N, (B, N))``,
the very stream of assay's ``rng.choice(N, (B, N))``, so with the same seed both see the same
resamples: the CIs then differ only by the interval rule (assay: order statistics; scipy:
interpolated percentiles), and the last column — scipy's resampled means put through assay's
rule — reproduces assay's CI exactly. A second table sweeps ``chunk_bytes``.

Every measurement runs in a fresh subprocess (see ``_bench_common``)::

    uv run python benchmarks/bench_bootstrap_ci.py            # N = 10,000 and 1,000,000, B = 1000
    uv run python benchmarks/bench_bootstrap_ci.py --quick    # tiny smoke run
    uv run python benchmarks/bench_bootstrap_ci.py --n 10000 --dist bernoulli --threads 1,default
"""

from __future__ import annotations

import argparse
import os
import sys
from typing import Any

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))

import _bench_common as bc

SCRIPT = os.path.abspath(__file__)


# --------------------------------------------------------------------------- worker


def _data(n: int, dist: str, data_seed: int) -> Any:
    import numpy as np

    rng = np.random.default_rng(data_seed)
    if dist == "bernoulli":
        return (rng.random(n) < 0.73).astype(np.float64)
    if dist == "continuous":
        return rng.beta(2.0, 5.0, size=n)
    raise SystemExit(f"unknown --dist {dist!r}")


def _table(x: Any) -> Any:
    import numpy as np

    from assay.metrics import StatsTable

    ids = tuple(f"item-{i}" for i in range(len(x)))
    return StatsTable(ids, ("v", "v#n"), np.column_stack([x, np.ones_like(x)]))


def worker(job: dict[str, Any]) -> None:
    import numpy as np

    n, b, seed = job["n"], job["b"], job["seed"]
    x = _data(n, job["dist"], job["data_seed"])
    extra: dict[str, Any] = {}

    if job["impl"] == "assay":
        from assay.metrics import mean_metric
        from assay.stats import bootstrap_ci, bootstrap_distributions, percentile_interval

        spec = mean_metric("score", "v")
        table = _table(x)
        chunk_mib = job.get("chunk_mib")

        def run_on(t: Any, reps: int) -> Any:
            if chunk_mib is None:
                return bootstrap_ci(t, spec, n_resamples=reps, seed=seed)
            dist = bootstrap_distributions(
                t, [spec], n_resamples=reps, seed=seed, chunk_bytes=int(chunk_mib * bc.MIB)
            )[spec.name]
            return percentile_interval(dist, 0.05)

        run_on(_table(x[:100]), 10)  # warm-up: lazy imports, kind registry
        point = spec.value(table)
        ci, stats = bc.measure(lambda: run_on(table, b), job["repeat"])
        lo, hi = ci.lower, ci.upper
    else:
        from scipy import stats as sst

        batch = job.get("batch")

        def run_scipy(data: Any, reps: int) -> Any:
            return sst.bootstrap(
                (data,),
                np.mean,
                method="percentile",
                n_resamples=reps,
                vectorized=True,
                batch=batch,
                rng=np.random.default_rng(seed),
            )

        run_scipy(x[:100], 10)  # warm-up
        point = float(np.mean(x))
        res, stats = bc.measure(lambda: run_scipy(x, b), job["repeat"])
        lo, hi = float(res.confidence_interval.low), float(res.confidence_interval.high)
        # scipy draws rng.integers(0, N, (B, N)), the same stream as assay's rng.choice, so its
        # resampled means put through assay's interval rule should reproduce assay's CI exactly
        from assay.stats import percentile_interval

        same_rule = percentile_interval(np.asarray(res.bootstrap_distribution), 0.05)
        extra["scipy_dist_assay_rule"] = [same_rule.lower, same_rule.upper]

    bc.emit({**job, **stats, **extra, "point": point, "lo": lo, "hi": hi})


# --------------------------------------------------------------------------- parent


def _label(job: dict[str, Any]) -> str:
    if job["impl"] == "assay":
        if job.get("chunk_mib") is None:
            return "assay bootstrap_ci"
        return f"assay chunk_bytes={job['chunk_mib']:g} MiB"
    batch = job.get("batch")
    return f"scipy bootstrap batch={'None' if batch is None else batch}"


def _same_rule(r: dict[str, Any]) -> str:
    pair = r.get("scipy_dist_assay_rule")
    return "-" if pair is None else f"[{pair[0]:.5f}, {pair[1]:.5f}]"


def main() -> None:
    job = bc.worker_job(sys.argv)
    if job is not None:
        worker(job)
        return

    p = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawTextHelpFormatter)
    p.add_argument("--n", default="10000,1000000", help="item counts, comma-separated")
    p.add_argument("--b", type=int, default=1000, help="bootstrap resamples B")
    p.add_argument(
        "--dist", default="bernoulli,continuous", help="bernoulli and/or continuous per-item score"
    )
    p.add_argument("--scipy-batch", default="20", help="scipy `batch` values used at every N")
    p.add_argument(
        "--scipy-unbatched-max-n",
        type=int,
        default=100_000,
        help="also run scipy with batch=None when N <= this (B×N int64 indices + gathered "
        "values must fit in memory)",
    )
    p.add_argument(
        "--chunk-mib",
        default="16,48,128",
        help="chunk_bytes sweep in MiB (empty string to skip); assay's default is 48",
    )
    p.add_argument(
        "--threads",
        default="1",
        help="BLAS/OpenMP threads per run, comma-separated; 'default' = library default",
    )
    p.add_argument("--repeat", type=int, default=3, help="timed runs per measurement (>= 1)")
    p.add_argument("--seed", type=int, default=12345, help="resampling seed")
    p.add_argument("--data-seed", type=int, default=2024, help="data generation seed")
    p.add_argument(
        "--prefault-mib",
        type=int,
        default=2048,
        help="touch this much memory once in a throwaway process first (0 = skip); see "
        "_bench_common.prefault",
    )
    p.add_argument("--quick", action="store_true", help="tiny smoke run (N=2000, B=200)")
    args = p.parse_args()

    if args.quick:
        args.prefault_mib = 0
        args.n, args.b, args.repeat = "2000", 200, 1
        args.dist, args.chunk_mib, args.scipy_unbatched_max_n = "bernoulli", "0.5,48", 10**9
    ns = bc.parse_int_list(args.n)
    dists = [d.strip() for d in args.dist.split(",") if d.strip()]
    batches = bc.parse_int_list(args.scipy_batch)
    chunk_mibs = [float(c) for c in args.chunk_mib.split(",") if c.strip()]
    threads = bc.parse_threads(args.threads)

    print("bench_bootstrap_ci: percentile bootstrap CI of a mean metric")
    print(bc.machine_line())
    if args.prefault_mib > 0:
        took = bc.prefault(args.prefault_mib)
        print(f"prefaulted {args.prefault_mib} MiB in a throwaway process ({took:.2f} s)")
    print(f"B = {args.b}, seed = {args.seed}, repeat = {args.repeat}, threads = {threads}")
    print("time: cold = first call in a fresh process; best/median over all timed calls;")
    print("      CPU = least process CPU time of a call (user+sys, all threads), and its sys part")
    print("mem: tracemalloc peak of the call; RSS Δ = ru_maxrss after − RSS before (MiB)")

    base = {"b": args.b, "seed": args.seed, "data_seed": args.data_seed, "repeat": args.repeat}
    rows, sweep_rows = [], []
    for n in ns:
        for dist in dists:
            jobs: list[dict[str, Any]] = [{**base, "impl": "assay", "n": n, "dist": dist}]
            scipy_batches: list[int | None] = []
            if n <= args.scipy_unbatched_max_n:
                scipy_batches.append(None)
            scipy_batches.extend(batches)
            for batch in scipy_batches:
                jobs.append({**base, "impl": "scipy", "n": n, "dist": dist, "batch": batch})
            for th in threads:
                for j in jobs:
                    r = bc.run_worker(SCRIPT, j, th)
                    rows.append(
                        [
                            f"{n:,}",
                            dist,
                            _label(j),
                            th,
                            bc.fmt_s(r["cold_s"]),
                            bc.fmt_s(r["best_s"]),
                            bc.fmt_s(r["median_s"]),
                            bc.fmt_s(r["cpu_best_s"]),
                            bc.fmt_s(r["sys_of_best_s"]),
                            f"{r['cpu_over_wall']:.2f}",
                            bc.fmt_mib(r["tracemalloc_peak_bytes"]),
                            bc.fmt_rss(r),
                            f"{r['point']:.5f}",
                            f"[{r['lo']:.5f}, {r['hi']:.5f}]",
                            _same_rule(r),
                        ]
                    )
                    print(f"  done: N={n:,} {dist} {_label(j)} threads={th}", flush=True)
        for mib in chunk_mibs:
            rows_per_chunk = max(1, int(mib * bc.MIB) // (8 * n))
            j = {**base, "impl": "assay", "n": n, "dist": dists[0], "chunk_mib": mib}
            for th in threads:
                r = bc.run_worker(SCRIPT, j, th)
                sweep_rows.append(
                    [
                        f"{n:,}",
                        f"{mib:g}",
                        f"{min(rows_per_chunk, args.b)}",
                        f"{-(-args.b // rows_per_chunk)}",
                        th,
                        bc.fmt_s(r["cold_s"]),
                        bc.fmt_s(r["best_s"]),
                        bc.fmt_s(r["median_s"]),
                        bc.fmt_s(r["cpu_best_s"]),
                        bc.fmt_s(r["sys_of_best_s"]),
                        bc.fmt_mib(r["tracemalloc_peak_bytes"]),
                        bc.fmt_rss(r),
                    ]
                )
                print(f"  done: N={n:,} chunk={mib:g} MiB threads={th}", flush=True)

    bc.print_table(
        [
            "N",
            "data",
            "implementation",
            "threads",
            "cold",
            "best",
            "median",
            "CPU",
            "of which sys",
            "cpu/wall",
            "tracemalloc MiB",
            "RSS Δ MiB",
            "mean",
            "95% CI (as reported)",
            "scipy resamples, assay's rule",
        ],
        rows,
        title=f"Bootstrap CI of a mean, B = {args.b}",
    )
    if sweep_rows:
        bc.print_table(
            [
                "N",
                "chunk MiB",
                "rows/chunk",
                "chunks",
                "threads",
                "cold",
                "best",
                "median",
                "CPU",
                "of which sys",
                "tracemalloc MiB",
                "RSS Δ MiB",
            ],
            sweep_rows,
            title=f"chunk_bytes sweep (bootstrap_distributions + percentile, {dists[0]}, "
            f"B = {args.b})",
        )

    print(f"\n{bc.load_line()} (at the end of the run)")


if __name__ == "__main__":
    main()
