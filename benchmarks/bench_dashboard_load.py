"""Benchmark: the dashboard under 200 concurrent local clients on a store of 1,000 runs.

The store holds ``--runs`` copies of one scored classification run (the demo data); the server
runs in its own process (as ``assay serve`` does); ``--clients`` threads start at once and each
makes ``--per-client`` requests over a mix of runs-list pages, run pages, a name filter and a
surface history (tests/dashboard/load.py). Printed: requests, errors, wall time, median, p95
and max latency. The issue's goal: no errors and p95 under 1 s.

    uv run python benchmarks/bench_dashboard_load.py
    uv run python benchmarks/bench_dashboard_load.py --clients 50 --runs 200
"""

from __future__ import annotations

import argparse
import sys
import tempfile
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--runs", type=int, default=1000)
    parser.add_argument("--clients", type=int, default=200)
    parser.add_argument("--per-client", type=int, default=5)
    args = parser.parse_args()

    from tests.dashboard.load import fill_store, hammer, served, targets_for

    import assay
    from assay.examples import write_classification_demo

    with tempfile.TemporaryDirectory() as tmp:
        files = write_classification_demo(Path(tmp))
        base = assay.score("classification", pred=files.baseline, gold=files.gold)
        url = f"sqlite:///{Path(tmp) / 'assay.db'}"
        ids = fill_store(url, base, args.runs)
        with served(url) as port:
            targets = targets_for(ids, base.surface.fingerprint)
            result = hammer(port, targets, clients=args.clients, per_client=args.per_client)
    print(
        f"{args.runs} runs, {args.clients} clients x {args.per_client} requests: "
        f"{result.requests} requests, {len(result.errors)} errors, wall {result.wall:.2f} s, "
        f"median {result.quantile(0.5) * 1000:.0f} ms, p95 {result.quantile(0.95) * 1000:.0f} ms, "
        f"max {max(result.latencies, default=float('nan')) * 1000:.0f} ms"
    )
    for err in result.errors[:10]:
        print("  error:", err)


if __name__ == "__main__":
    main()
