"""Benchmark: assay at scale — 1,000,000 synthetic classification items scored on 1 process,
2 processes and a 2-worker local Dask cluster, and the bootstrap CI at N = 1,000,000, B = 1000
with both resampling schemes.

Every measurement runs in a fresh interpreter (the script re-invokes itself with ``--_child``),
so the peak RSS it reports (``getrusage(RUSAGE_SELF).ru_maxrss``) is that measurement's alone.
For the 2-process and Dask runs the peak is the driver's; workers are separate processes.

    uv run python benchmarks/bench_scale.py            # N = 1,000,000, B = 1000
    uv run python benchmarks/bench_scale.py --quick    # N = 20,000, B = 200
"""

from __future__ import annotations

import argparse
import json
import os
import resource
import subprocess
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

CHILD = "--_child"
MODES = ("1 process", "2 processes", "dask")
LABELS = ("contract", "invoice", "memo", "letter")


def peak_mib() -> float:
    return resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024.0


def cpu_s() -> float:
    """User + system CPU seconds of this process and its reaped children (pool workers, the
    local Dask cluster): on a busy machine a fairer cost than the wall time."""
    own, kids = (
        resource.getrusage(resource.RUSAGE_SELF),
        resource.getrusage(resource.RUSAGE_CHILDREN),
    )
    return own.ru_utime + own.ru_stime + kids.ru_utime + kids.ru_stime


def executor_options(mode: str, kwargs: dict[str, Any]) -> Any:
    """Set ``assay.score``'s executor options for ``mode`` ("1 process", "2 processes" or
    "dask"); returns the 2-worker loopback LocalCluster to close afterwards (or None)."""
    if mode != "dask":
        kwargs["jobs"] = 2 if mode == "2 processes" else 1
        return None
    from distributed import LocalCluster

    cluster = LocalCluster(
        n_workers=2, threads_per_worker=1, processes=True, host="127.0.0.1", dashboard_address=None
    )
    kwargs["executor"] = "dask://" + cluster.scheduler_address.removeprefix("tcp://")
    return cluster


def _write_inputs(folder: Path, n: int) -> tuple[Path, Path]:
    import numpy as np

    rng = np.random.default_rng(0)
    gold_labels = rng.integers(0, len(LABELS), size=n)
    right = rng.random(n) < 0.8
    other = rng.integers(0, len(LABELS), size=n)
    gold, pred = folder / "gold.jsonl", folder / "pred.jsonl"
    with gold.open("w") as g, pred.open("w") as p:
        for i in range(n):
            g.write(f'{{"id": "doc-{i}", "expected": "{LABELS[gold_labels[i]]}"}}\n')
            label = LABELS[gold_labels[i]] if right[i] else LABELS[other[i]]
            p.write(f'{{"id": "doc-{i}", "predicted": "{label}"}}\n')
    return gold, pred


def _child_score(job: dict[str, Any]) -> dict[str, Any]:
    import assay

    kwargs: dict[str, Any] = {
        "pred": job["pred"],
        "gold": job["gold"],
        "n_bootstrap_ci": job["b"],
        "resampling": job["resampling"],
    }
    if job.get("spill") is not None:  # older checkouts (the "before" figures) lack the option
        kwargs["spill"] = job["spill"]
    cluster = executor_options(job["mode"], kwargs)
    cpu0 = cpu_s()
    try:
        start = time.perf_counter()
        run = assay.score("classification", **kwargs)
        wall = time.perf_counter() - start
    finally:
        if cluster is not None:
            cluster.close()
    peak_scored = peak_mib()
    start = time.perf_counter()
    run.save(job["out"])
    save_s = time.perf_counter() - start
    m = run.metrics["exact_match"]
    return {
        "wall_s": wall,
        "items_per_s": run.cohort.attempted / wall,
        "peak_mib": peak_scored,
        "save_s": save_s,
        "cpu_s": cpu_s() - cpu0,
        "peak_saved_mib": peak_mib(),
        "spilled": bool(getattr(run, "spilled", False)),
        "value": m.value,
        "ci": [m.ci_lower, m.ci_upper],
    }


def _child_ci(job: dict[str, Any]) -> dict[str, Any]:
    import numpy as np

    from assay.metrics import StatsTable, mean_metric
    from assay.stats import bootstrap_distributions, percentile_interval

    n = job["n"]
    x = (np.random.default_rng(1).random(n) < 0.73).astype(np.float64)
    table = StatsTable(
        tuple(f"i{i}" for i in range(n)), ("v", "v#n"), np.column_stack([x, np.ones(n)])
    )
    before = peak_mib()
    start = time.perf_counter()
    dist = bootstrap_distributions(
        table,
        [mean_metric("acc", "v")],
        n_resamples=job["b"],
        seed=12345,
        resampling=job["resampling"],
    )["acc"]
    wall = time.perf_counter() - start
    ci = percentile_interval(dist)
    return {
        "wall_s": wall,
        "peak_mib": peak_mib(),
        "peak_before_mib": before,
        "ci": [ci.lower, ci.upper],
    }


def run_child(job: dict[str, Any], script: str = __file__) -> dict[str, Any]:
    """Run ``script --_child JOB`` in a fresh interpreter; its last stdout line is the result."""
    proc = subprocess.run(
        [sys.executable, os.path.abspath(script), CHILD, json.dumps(job)],
        capture_output=True,
        text=True,
        check=False,
    )
    if proc.returncode != 0:
        raise SystemExit(f"benchmark child failed: {job}\n{proc.stderr[-3000:]}")
    result: dict[str, Any] = json.loads(proc.stdout.strip().splitlines()[-1])
    return result


def main() -> None:
    if len(sys.argv) == 3 and sys.argv[1] == CHILD:
        job = json.loads(sys.argv[2])
        out = _child_score(job) if job["kind"] == "score" else _child_ci(job)
        print(json.dumps(out))
        return
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--quick", action="store_true", help="N = 20,000, B = 200")
    parser.add_argument("--n", type=int, help="items (default 1,000,000)")
    parser.add_argument("--b", type=int, help="bootstrap resamples (default 1000)")
    parser.add_argument("--skip-score", action="store_true", help="only the CI benchmark")
    parser.add_argument("--skip-ci", action="store_true", help="only the scoring benchmark")
    parser.add_argument("--modes", default=",".join(MODES), help="of " + ", ".join(MODES))
    spill = parser.add_mutually_exclusive_group()
    spill.add_argument(
        "--spill", dest="spill", action="store_true", default=None, help="always out of core"
    )
    spill.add_argument("--no-spill", dest="spill", action="store_false", help="always in memory")
    args = parser.parse_args()
    n = args.n or (20_000 if args.quick else 1_000_000)
    b = args.b or (200 if args.quick else 1000)

    print(f"bootstrap CI of a mean at N = {n:,}, B = {b} (fresh process each)")
    print(f"{'resampling':<12} {'wall s':>8} {'peak MiB':>9} {'before MiB':>10}  95% CI")
    for resampling in () if args.skip_ci else ("multinomial", "poisson"):
        r = run_child({"kind": "ci", "n": n, "b": b, "resampling": resampling})
        print(
            f"{resampling:<12} {r['wall_s']:>8.2f} {r['peak_mib']:>9.0f} "
            f"{r['peak_before_mib']:>10.0f}  [{r['ci'][0]:.5f}, {r['ci'][1]:.5f}]"
        )
    if args.skip_score:
        return

    with tempfile.TemporaryDirectory() as tmp:
        gold, pred = _write_inputs(Path(tmp), n)
        print(
            f"\nscoring {n:,} classification items, B = {b}, Poisson resampling, "
            f"spill = {'auto' if args.spill is None else args.spill}; then saving the artifact"
        )
        print(
            f"{'executor':<22} {'wall s':>8} {'cpu s':>7} {'items/s':>9} {'peak MiB':>9} "
            f"{'save s':>7} {'+save MiB':>9} {'spilled':>7}  exact_match CI"
        )
        for mode in [m.strip() for m in args.modes.split(",") if m.strip()]:
            job = {
                "kind": "score",
                "mode": mode,
                "gold": str(gold),
                "pred": str(pred),
                "b": b,
                "resampling": "poisson",
                "spill": args.spill,
                "out": str(Path(tmp) / "run.json"),
            }
            r = run_child(job)
            label = "2-worker Dask cluster" if mode == "dask" else mode
            print(
                f"{label:<22} {r['wall_s']:>8.1f} {r['cpu_s']:>7.1f} {r['items_per_s']:>9.0f} "
                f"{r['peak_mib']:>9.0f} {r['save_s']:>7.1f} {r['peak_saved_mib']:>9.0f} "
                f"{r['spilled']!s:>7}  {r['value']:.5f} [{r['ci'][0]:.5f}, {r['ci'][1]:.5f}]",
                flush=True,
            )


if __name__ == "__main__":
    main()
