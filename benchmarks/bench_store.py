"""Benchmark: the run store and the dashboard at 1,000 runs × 10,000 items.

One real classification run of N items is scored, then recorded R times under different ids,
names, surfaces (10) and perturbed metric values, as a store filled by many scoring runs would
be. Measured: the time to record a run, the database size, and the latency of the dashboard's
runs list (first page, and filtered), a run page (decode + render, 100 items of the
drill-down), a compare view of two runs (with paired tests) and ``RunStore.get`` alone; each
cold once, then the median of ``--repeat`` warm calls. The issue's goal is < 200 ms for the
runs list and a run page.

    uv run python benchmarks/bench_store.py              # 1,000 runs × 10,000 items
    uv run python benchmarks/bench_store.py --quick      # 100 runs × 2,000 items
    uv run python benchmarks/bench_store.py --store postgresql+psycopg://user@127.0.0.1:5432/db
"""

from __future__ import annotations

import argparse
import json
import random
import statistics
import tempfile
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any


def _timed(fn: Callable[[], Any], repeat: int) -> tuple[float, float]:
    t = time.perf_counter()
    fn()
    cold = time.perf_counter() - t
    warm = []
    for _ in range(repeat):
        t = time.perf_counter()
        fn()
        warm.append(time.perf_counter() - t)
    return cold, statistics.median(warm)


def _base_run(n_items: int, folder: Path) -> Any:
    import assay

    rng = random.Random(7)
    labels = ["contract", "invoice", "letter", "memo", "court_opinion", "insurance_claim"]
    gold, pred = [], []
    for i in range(n_items):
        lab = rng.choice(labels)
        gold.append({"id": f"doc{i:06d}", "expected": lab})
        out = lab if rng.random() < 0.8 else rng.choice(labels)
        if rng.random() < 0.01:
            out = "ERROR: timeout"
        if rng.random() > 0.005:
            pred.append({"id": f"doc{i:06d}", "predicted": out})
    (folder / "gold.jsonl").write_text("".join(json.dumps(r) + "\n" for r in gold))
    (folder / "pred.jsonl").write_text("".join(json.dumps(r) + "\n" for r in pred))
    return assay.score("classification", pred=folder / "pred.jsonl", gold=folder / "gold.jsonl")


def _variant(base: Any, k: int, n_surfaces: int) -> Any:
    rng = random.Random(k)
    metrics = {}
    for name, m in base.metrics.items():
        shift = rng.uniform(-0.05, 0.05)
        metrics[name] = m.model_copy(
            update={
                "value": None if m.value is None else m.value + shift,
                "ci_lower": None if m.ci_lower is None else m.ci_lower + shift,
                "ci_upper": None if m.ci_upper is None else m.ci_upper + shift,
            }
        )
    surface = base.surface.model_copy(
        update={"fingerprint": f"{k % n_surfaces:04x}" + base.surface.fingerprint[4:]}
    )
    return base.model_copy(
        update={
            "run_id": f"{k:06x}" + base.run_id[6:],
            "name": f"run-{k:04d}",
            "metrics": metrics,
            "surface": surface,
        }
    )


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--runs", type=int, default=1000)
    parser.add_argument("--items", type=int, default=10_000)
    parser.add_argument("--repeat", type=int, default=5)
    parser.add_argument("--store", help="SQLAlchemy URL (default: a fresh SQLite file)")
    parser.add_argument("--quick", action="store_true", help="100 runs × 2,000 items")
    args = parser.parse_args()
    if args.quick:
        args.runs, args.items = 100, 2000

    from assay._dashboard.views import compare_page, run_page, runs_page
    from assay._store import RunStore

    with tempfile.TemporaryDirectory() as tmp:
        folder = Path(tmp)
        url = args.store or f"sqlite:///{folder / 'bench.db'}"
        t = time.perf_counter()
        base = _base_run(args.items, folder)
        print(f"scored the base run: {args.items} items in {time.perf_counter() - t:.1f} s")
        store = RunStore(url)
        t = time.perf_counter()
        first_id = ""
        for k in range(args.runs):
            run = _variant(base, k, 10)
            store.add(run, stored_at=f"2026-01-01T00:00:{k // 1000:02d}.{k % 1000:03d}000+00:00")
            first_id = first_id or run.run_id
        add_s = (time.perf_counter() - t) / args.runs
        size = (folder / "bench.db").stat().st_size if not args.store else None
        print(f"recorded {args.runs} runs: {1000 * add_s:.1f} ms per run", end="")
        print(f", database {size / 2**20:.0f} MiB" if size else "")
        store.close()

        ro = RunStore(url, readonly=True)
        last = ro.list_runs(limit=1)[0].run_id
        same_surface = ro.list_runs(surface=last[:4] and None, limit=None)
        pair = [
            s.run_id
            for s in same_surface
            if s.surface_fingerprint == same_surface[0].surface_fingerprint
        ][:2]
        cases: list[tuple[str, Callable[[], Any]]] = [
            ("runs list (page 1 of 50 rows)", lambda: runs_page(ro, {})),
            (
                "runs list filtered (task + name)",
                lambda: runs_page(ro, {"task": ["classification"], "name": ["run-09"]}),
            ),
            ("run page (decode + render)", lambda: run_page(ro, last, {})),
            ("RunStore.get (decode only)", lambda: ro.get(last)),
            ("RunStore.get_stats (stats only)", lambda: ro.get_stats(last)),
            ("compare view, 2 runs (paired tests)", lambda: compare_page(ro, {"run": pair})),
        ]
        print(f"\n{'latency':<40} {'cold ms':>9} {'median ms':>10}")
        for label, fn in cases:
            cold, warm = _timed(fn, args.repeat)
            print(f"{label:<40} {1000 * cold:>9.1f} {1000 * warm:>10.1f}")
        ro.close()


if __name__ == "__main__":
    main()
