"""Benchmark: the dashboard under 200 concurrent local clients on a store of 1,000 runs.

The store holds ``--runs`` copies of one scored classification run (the demo data); the server
runs in its own process (as ``assay serve`` does); ``--clients`` clients (threads of 4 client
processes, tests/dashboard/load.py) start at once over a mix of runs-list pages, run pages, a
name filter and a surface history. Two phases on one server:

- **cold**: each client makes one request the moment the server is up, so every page of the
  mix is rendered for the first time inside the burst; measured twice, each on a server just
  started: first on one that renders in threads only (``processes=0``), then on one as
  ``assay serve`` starts it (a render process per core); the CPU of a server includes its
  render processes;
- **sustained**: each client requests pages back to back for ``--seconds`` seconds (a closed
  loop with no pause: the issue's scenario was 200 clients for 30 s);
- **changed**: one run is recorded in the store, then each client makes one request (every
  kept page is outdated at once).

Printed per phase: requests, errors, throughput, p50 / p95 / max latency, and the CPU seconds
of the server process and of the client processes (the clients share the machine's cores
with the server). The issue's goal: no errors and p95 under 1 s.

    uv run python benchmarks/bench_dashboard_load.py                  # 200 clients, 10 s
    uv run python benchmarks/bench_dashboard_load.py --seconds 30
    uv run python benchmarks/bench_dashboard_load.py --no-keep-alive  # a connection per request
"""

from __future__ import annotations

import argparse
import os
import sys
import tempfile
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--runs", type=int, default=1000)
    parser.add_argument("--clients", type=int, default=200)
    parser.add_argument("--seconds", type=float, default=10.0)
    parser.add_argument("--no-keep-alive", action="store_true", help="a connection per request")
    args = parser.parse_args()

    from tests.dashboard.load import LoadResult, fill_store, hammer, served, targets_for

    import assay
    from assay.suites.classification.examples import write_classification_demo

    keep = not args.no_keep_alive

    def show(phase: str, r: LoadResult, server_cpu: float) -> None:
        total = server_cpu + r.client_cpu
        print(
            f"{phase:>13}: {r.requests} requests, {len(r.errors)} errors, "
            f"{r.requests / r.wall:.0f} req/s over {r.wall:.1f} s; "
            f"p50 {r.quantile(0.5) * 1000:.0f} ms, p95 {r.quantile(0.95) * 1000:.0f} ms, "
            f"max {max(r.latencies, default=float('nan')) * 1000:.0f} ms; "
            f"CPU server {server_cpu:.2f} s, clients {r.client_cpu:.2f} s "
            f"({100 * r.client_cpu / total:.0f}% of the two)"
        )
        for err in r.errors[:10]:
            print("  error:", err)

    with tempfile.TemporaryDirectory() as tmp:
        files = write_classification_demo(Path(tmp))
        base = assay.score("classification", pred=files.baseline, gold=files.gold)
        url = f"sqlite:///{Path(tmp) / 'assay.db'}"
        ids = fill_store(url, base, args.runs)
        targets = targets_for(ids, base.surface.fingerprint)
        print(
            f"{args.runs} runs, {args.clients} clients, {len(targets)} distinct pages, "
            f"keep-alive {'on' if keep else 'off'}, load average {os.getloadavg()[0]:.1f} "
            f"on {os.cpu_count()} cores"
        )
        # the same cold burst on a server that renders in threads only (as before the render
        # processes), side by side under the same machine load
        with served(url, processes=0) as server:
            cpu = server.cpu()
            cold = hammer(server.port, targets, clients=args.clients, per_client=1, keep_alive=keep)
            show("cold, threads", cold, server.cpu() - cpu)
        with served(url) as server:
            cpu = server.cpu()
            cold = hammer(server.port, targets, clients=args.clients, per_client=1, keep_alive=keep)
            show("cold", cold, server.cpu() - cpu)
            cpu = server.cpu()
            hot = hammer(
                server.port, targets, clients=args.clients, seconds=args.seconds, keep_alive=keep
            )
            show("sustained", hot, server.cpu() - cpu)
            fill_store(url, base, 1, first=args.runs)
            cpu = server.cpu()
            changed = hammer(
                server.port, targets, clients=args.clients, per_client=1, keep_alive=keep
            )
            show("changed", changed, server.cpu() - cpu)
        print(f"load average at the end {os.getloadavg()[0]:.1f}")


if __name__ == "__main__":
    main()
