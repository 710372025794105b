"""Benchmark: paired bootstrap and approximate randomization between two systems.

Two systems are scored on the same N items (a 6-class classification-like task) and their
per-item statistics are two aligned StatsTables with K = 24 columns shared by 8 metrics:

==============  =======  ==========================================  ===========
metric          kind     columns                                      new columns
==============  =======  ==========================================  ===========
accuracy        ratio    correct, n                                   2
exact_match     mean     em, em#n                                     2
token_f1        mean     f1, f1#n (10% of items undefined)            2
latency_s       mean     lat, lat#n (lower is better)                 2
pos_f1          fbeta    tp, fp, fn (class 0 as "positive")           3
pos_f2          fbeta    tp, fp, fn, beta = 2                         0
abstain_rate    ratio    abstain, n (lower is better)                 1
macro_accuracy  macro    (correct_c, count_c) for each of 6 classes   12
==============  =======  ==========================================  ===========

Measured (each in a fresh subprocess; by default once with BLAS threads pinned to 1 and once
with the library's default thread count, see ``--threads``): ``paired_bootstrap_test``
(B = 1000), ``approximate_randomization_test`` (R = 10,000; it also runs a B = 1000 paired
bootstrap for the CI of Δ) and ``randomization_statistics`` alone. The issue's goal — paired
bootstrap under 0.3 s and 300 MB on one core — is checked and printed. A second table
sweeps ``chunk_bytes``.

    uv run python benchmarks/bench_paired.py
    uv run python benchmarks/bench_paired.py --quick
    uv run python benchmarks/bench_paired.py --n 50000 --threads 1 --chunk-mib ""
"""

from __future__ import annotations

import argparse
import os
import sys
from typing import Any

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))

import _bench_common as bc

SCRIPT = os.path.abspath(__file__)
GOAL_SECONDS = 0.3
GOAL_BYTES = 300 * 10**6  # "300 MB"
IMPLS = {
    "paired_bootstrap": "paired_bootstrap_test",
    "ar_test": "approximate_randomization_test",
    "ar_stats": "randomization_statistics",
}


# --------------------------------------------------------------------------- worker


def build(n: int, n_classes: int, data_seed: int) -> tuple[Any, Any, list[Any]]:
    """Two aligned StatsTables (systems A and B) and the metric specs over them."""
    import numpy as np

    from assay.metrics import StatsTable, fbeta_metric, macro_metric, mean_metric, ratio_metric

    rng = np.random.default_rng(data_seed)
    prior = rng.dirichlet(np.full(n_classes, 2.0))
    gold = rng.choice(n_classes, size=n, p=prior)
    difficulty = rng.random(n)  # shared, so the two systems' errors are correlated
    ids = tuple(f"doc-{i:07d}" for i in range(n))

    def system(skill: float, latency_mu: float) -> Any:
        correct = (difficulty < skill) ^ (rng.random(n) < 0.05)
        wrong = (gold + rng.integers(1, n_classes, size=n)) % n_classes
        pred = np.where(correct, gold, wrong)
        abstain = rng.random(n) < 0.04
        correct &= ~abstain
        em = correct & (rng.random(n) < 0.9)
        f1_defined = rng.random(n) >= 0.10
        f1 = np.where(correct, rng.beta(8, 2, n), rng.beta(2, 5, n)) * f1_defined
        lat = rng.lognormal(latency_mu, 0.4, n)
        pos_pred, pos_gold = (pred == 0) & ~abstain, gold == 0
        cols: dict[str, Any] = {
            "correct": correct,
            "n": np.ones(n),
            "em": em,
            "em#n": np.ones(n),
            "f1": f1,
            "f1#n": f1_defined,
            "lat": lat,
            "lat#n": np.ones(n),
            "tp": pos_pred & pos_gold,
            "fp": pos_pred & ~pos_gold,
            "fn": ~pos_pred & pos_gold,
            "abstain": abstain,
        }
        for c in range(n_classes):
            cols[f"correct_{c}"] = correct & (gold == c)
            cols[f"count_{c}"] = gold == c
        values = np.column_stack([np.asarray(v, dtype=np.float64) for v in cols.values()])
        return StatsTable(ids, tuple(cols), values)

    table_a = system(0.80, -0.5)
    table_b = system(0.78, -0.45)
    specs = [
        ratio_metric("accuracy", "correct", "n", tier="headline"),
        mean_metric("exact_match", "em"),
        mean_metric("token_f1", "f1"),
        mean_metric("latency_s", "lat", higher_is_better=False, tier="diagnostic"),
        fbeta_metric("pos_f1", "tp", "fp", "fn"),
        fbeta_metric("pos_f2", "tp", "fp", "fn", beta=2.0),
        ratio_metric("abstain_rate", "abstain", "n", higher_is_better=False),
        macro_metric("macro_accuracy", [(f"correct_{c}", f"count_{c}") for c in range(n_classes)]),
    ]
    return table_a, table_b, specs


def worker(job: dict[str, Any]) -> None:
    import numpy as np

    from assay.stats import (
        approximate_randomization_test,
        paired_bootstrap_test,
        randomization_statistics,
    )
    from assay.stats.bootstrap import spec_columns
    from assay.stats.resampling import DEFAULT_CHUNK_BYTES

    table_a, table_b, specs = build(job["n"], job["classes"], job["data_seed"])
    n_columns = len(spec_columns(specs)[0])
    chunk = DEFAULT_CHUNK_BYTES if job.get("chunk_mib") is None else int(job["chunk_mib"] * bc.MIB)
    seed, b, r, impl = job["seed"], job["b"], job["r"], job["impl"]

    def call(ta: Any, tb: Any, scale: int) -> Any:
        if impl == "paired_bootstrap":
            return paired_bootstrap_test(
                ta, tb, specs, n_resamples=b // scale, seed=seed, chunk_bytes=chunk
            )
        if impl == "ar_test":
            return approximate_randomization_test(
                ta,
                tb,
                specs,
                n_trials=r // scale,
                n_bootstrap_ci=b // scale,
                seed=seed,
                chunk_bytes=chunk,
            )
        if impl == "ar_stats":
            return randomization_statistics(
                ta, tb, specs, n_trials=r // scale, seed=seed, chunk_bytes=chunk
            )
        raise SystemExit(f"unknown impl {impl!r}")

    small_a, small_b = table_a.take(table_a.ids[:200]), table_b.take(table_b.ids[:200])
    call(small_a, small_b, 10)  # warm-up: lazy imports, kind registry
    value, stats = bc.measure(lambda: call(table_a, table_b, 1), job["repeat"])

    summary = []
    if impl != "ar_stats":
        for res in value:
            summary.append(
                {
                    "metric": res.metric_name,
                    "a": res.system_a_score,
                    "b": res.system_b_score,
                    "delta": res.delta,
                    "p": res.p_value,
                    "ci": [res.ci_lower, res.ci_upper],
                }
            )
    bc.emit(
        {
            **job,
            **stats,
            "k": n_columns,
            "n_metrics": len(specs),
            "summary": summary,
            "numpy": np.__version__,
        }
    )


# --------------------------------------------------------------------------- parent


def _label(job: dict[str, Any]) -> str:
    impl = job["impl"]
    if impl == "paired_bootstrap":
        return f"paired_bootstrap_test B={job['b']:,}"
    if impl == "ar_test":
        return f"approximate_randomization_test R={job['r']:,} (+B={job['b']:,} CI)"
    return f"randomization_statistics R={job['r']:,}"


def _verdict(n: int, b: int, res: dict[str, Any]) -> str:
    """The issue's goal, judged on wall time (median of the timed calls), on CPU time (robust to
    other load on the machine) and on peak memory (the larger of tracemalloc and RSS Δ)."""
    peak = max(res["tracemalloc_peak_bytes"], res["rss_delta_bytes"])

    def ok(flag: bool) -> str:
        return "MET" if flag else "NOT MET"

    return (
        f"N={n:,}, K={res['k']}, B={b:,}, 1 thread:\n"
        f"    wall time {ok(res['median_s'] < GOAL_SECONDS)}: median {bc.fmt_s(res['median_s'])}"
        f" (best {bc.fmt_s(res['best_s'])}, first call {bc.fmt_s(res['cold_s'])})\n"
        f"    CPU time  {ok(res['cpu_best_s'] < GOAL_SECONDS)}: {bc.fmt_s(res['cpu_best_s'])}"
        f" user+sys (of which sys {bc.fmt_s(res['sys_of_best_s'])})\n"
        f"    memory    {ok(peak < GOAL_BYTES)}: peak {peak / 1e6:.0f} MB"
        f" (tracemalloc {res['tracemalloc_peak_bytes'] / 1e6:.0f} MB,"
        f" RSS Δ {res['rss_delta_bytes'] / 1e6:.0f} MB)"
    )


def _fmt(x: float | None, digits: int = 4) -> str:
    return "-" if x is None else f"{x:.{digits}f}"


def main() -> None:
    job = bc.worker_job(sys.argv)
    if job is not None:
        worker(job)
        return

    p = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawTextHelpFormatter)
    p.add_argument("--n", default="10000", help="item counts, comma-separated")
    p.add_argument("--classes", type=int, default=6, help="classes (K = 12 + 2·classes columns)")
    p.add_argument("--b", type=int, default=1000, help="paired bootstrap resamples B")
    p.add_argument("--r", type=int, default=10_000, help="randomization trials R")
    p.add_argument(
        "--impl",
        default="paired_bootstrap,ar_test,ar_stats",
        help=f"what to measure, comma-separated from {list(IMPLS)}",
    )
    p.add_argument(
        "--threads",
        default="1,default",
        help="BLAS/OpenMP threads per run, comma-separated; 'default' = library default",
    )
    p.add_argument(
        "--chunk-mib",
        default="16,48,128",
        help="chunk_bytes sweep in MiB for the paired bootstrap and randomization_statistics "
        "(1 thread); empty string to skip",
    )
    p.add_argument("--repeat", type=int, default=5, help="timed runs per measurement (>= 1)")
    p.add_argument("--seed", type=int, default=12345, help="resampling seed")
    p.add_argument("--data-seed", type=int, default=7, help="data generation seed")
    p.add_argument(
        "--prefault-mib",
        type=int,
        default=1024,
        help="touch this much memory once in a throwaway process first (0 = skip); see "
        "_bench_common.prefault",
    )
    p.add_argument("--quick", action="store_true", help="tiny smoke run (N=1000, B=100, R=500)")
    args = p.parse_args()

    if args.quick:
        args.prefault_mib = 0
        args.n, args.b, args.r, args.repeat = "1000", 100, 500, 1
        args.threads, args.chunk_mib = "1", "0.5"
    ns = bc.parse_int_list(args.n)
    impls = [i.strip() for i in args.impl.split(",") if i.strip()]
    for impl in impls:
        if impl not in IMPLS:
            p.error(f"unknown --impl {impl!r}; choose from {list(IMPLS)}")
    threads = bc.parse_threads(args.threads)
    chunk_mibs = [float(c) for c in args.chunk_mib.split(",") if c.strip()]

    print("bench_paired: paired bootstrap and approximate randomization over 8 metrics")
    print(bc.machine_line())
    if args.prefault_mib > 0:
        took = bc.prefault(args.prefault_mib)
        print(f"prefaulted {args.prefault_mib} MiB in a throwaway process ({took:.2f} s)")
    print(
        f"B = {args.b:,}, R = {args.r:,}, seed = {args.seed}, repeat = {args.repeat}, "
        f"threads = {threads}"
    )
    print("time: cold = first call in a fresh process; best/median over all timed calls;")
    print("      CPU = least process CPU time of a call (user+sys, all threads), and its sys part")
    print("mem: tracemalloc peak of the call; RSS Δ = ru_maxrss after − RSS before (MiB)")

    base = {
        "b": args.b,
        "r": args.r,
        "seed": args.seed,
        "data_seed": args.data_seed,
        "repeat": args.repeat,
        "classes": args.classes,
    }
    rows, sweep_rows, verdicts = [], [], []
    summaries: dict[tuple[int, str], list[dict[str, Any]]] = {}
    k = None
    for n in ns:
        for th in threads:
            for impl in impls:
                j = {**base, "n": n, "impl": impl}
                res = bc.run_worker(SCRIPT, j, th)
                k = res["k"]
                rows.append(
                    [
                        f"{n:,}",
                        res["k"],
                        _label(j),
                        th,
                        bc.fmt_s(res["cold_s"]),
                        bc.fmt_s(res["best_s"]),
                        bc.fmt_s(res["median_s"]),
                        bc.fmt_s(res["cpu_best_s"]),
                        bc.fmt_s(res["sys_of_best_s"]),
                        f"{res['cpu_over_wall']:.2f}",
                        bc.fmt_mib(res["tracemalloc_peak_bytes"]),
                        bc.fmt_rss(res),
                    ]
                )
                print(f"  done: N={n:,} {_label(j)} threads={th}", flush=True)
                if res["summary"] and (n, impl) not in summaries:
                    summaries[(n, impl)] = res["summary"]
                if impl == "paired_bootstrap" and th == "1":
                    verdicts.append(_verdict(n, args.b, res))
        for mib in chunk_mibs:
            for impl in ("paired_bootstrap", "ar_stats"):
                if impl not in impls:
                    continue
                j = {**base, "n": n, "impl": impl, "chunk_mib": mib}
                res = bc.run_worker(SCRIPT, j, "1")
                total = args.b if impl == "paired_bootstrap" else args.r
                rows_per = max(1, int(mib * bc.MIB) // (8 * n))
                if impl == "ar_stats":
                    rows_per = max(32, rows_per - rows_per % 32)
                sweep_rows.append(
                    [
                        f"{n:,}",
                        _label(j),
                        f"{mib:g}",
                        min(rows_per, total),
                        -(-total // rows_per),
                        bc.fmt_s(res["cold_s"]),
                        bc.fmt_s(res["best_s"]),
                        bc.fmt_s(res["median_s"]),
                        bc.fmt_s(res["cpu_best_s"]),
                        bc.fmt_s(res["sys_of_best_s"]),
                        bc.fmt_mib(res["tracemalloc_peak_bytes"]),
                        bc.fmt_rss(res),
                    ]
                )
                print(f"  done: N={n:,} {_label(j)} chunk={mib:g} MiB", flush=True)

    bc.print_table(
        [
            "N",
            "K",
            "call",
            "threads",
            "cold",
            "best",
            "median",
            "CPU",
            "of which sys",
            "cpu/wall",
            "tracemalloc MiB",
            "RSS Δ MiB",
        ],
        rows,
        title=f"Paired tests, 8 metrics over K = {k} columns per system",
    )
    if sweep_rows:
        bc.print_table(
            [
                "N",
                "call",
                "chunk MiB",
                "rows/chunk",
                "chunks",
                "cold",
                "best",
                "median",
                "CPU",
                "of which sys",
                "tracemalloc MiB",
                "RSS Δ MiB",
            ],
            sweep_rows,
            title="chunk_bytes sweep (1 thread)",
        )
    for (n, impl), summary in summaries.items():
        bc.print_table(
            ["metric", "A", "B", "Δ", "p", "95% CI of Δ"],
            [
                [
                    s["metric"],
                    _fmt(s["a"]),
                    _fmt(s["b"]),
                    _fmt(s["delta"]),
                    _fmt(s["p"]),
                    f"[{_fmt(s['ci'][0])}, {_fmt(s['ci'][1])}]",
                ]
                for s in summary
            ],
            title=f"Results, N={n:,}: {IMPLS[impl]}",
        )
    if verdicts:
        print(
            f"\nGoal (issue): paired bootstrap under {GOAL_SECONDS} s and 300 MB (10^6 bytes) on"
            " one core"
        )
        for v in verdicts:
            print("  " + v)

    print(f"\n{bc.load_line()} (at the end of the run)")


if __name__ == "__main__":
    main()
