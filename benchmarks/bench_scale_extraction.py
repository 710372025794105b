"""Benchmark: 100,000 synthetic extraction documents scored end to end (``assay.score``, Poisson
CIs, B = 1000, the artifact saved) on 1 process, 2 processes and a 2-worker local Dask cluster.

A document is modest on purpose (a 12-field schema, two entity lists of 3–8 parties and 3–8
obligations, a ~2 KB source inline in the gold record), built with the generators of
``bench_extraction.py``. Every measurement runs in a fresh interpreter (the script re-invokes
itself with ``--_child``), so the peak RSS (``getrusage(RUSAGE_SELF).ru_maxrss``) is that run's
alone; for the 2-process and Dask runs it is the driver's (workers are separate processes).

    uv run python benchmarks/bench_scale_extraction.py              # 100,000 documents
    uv run python benchmarks/bench_scale_extraction.py --quick      # 2,000 documents
    uv run python benchmarks/bench_scale_extraction.py --modes "1 process" --no-spill
"""

from __future__ import annotations

import argparse
import json
import os
import random
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))

from bench_extraction import TYPES, _party, _sentence, contract
from bench_scale import CHILD, cpu_s, executor_options, peak_mib, run_child

MODES = ("1 process", "2 processes", "dask")


def make_modest_document(rng: random.Random, i: int) -> tuple[dict[str, Any], dict[str, Any]]:
    """Gold (with its ~2 KB source text inline) and prediction records for document ``i``."""
    parties = [_party(rng) for _ in range(rng.randint(3, 8))]
    obligations = [_sentence(rng, rng.randint(6, 14)) for _ in range(rng.randint(3, 8))]
    gold, pred = contract(
        rng,
        i,
        parties,
        obligations,
        summary_words=20,
        payment_words=12,
        id_width=6,
        extra_parties=2,
        extra_obligations=0,
    )
    source = " ".join(parties) + " " + _sentence(rng, 200) + " " + " ".join(obligations[:3])
    source += f" effective {gold['effective_date']}"
    return {**gold, "source_text": source}, pred


def write_inputs(folder: Path, n: int, seed: int = 7) -> tuple[Path, Path]:
    """``gold.jsonl`` and ``pred.jsonl`` with ``n`` documents (about 3.5 KB of gold each)."""
    rng = random.Random(seed)
    gold, pred = folder / "gold.jsonl", folder / "pred.jsonl"
    with gold.open("w", encoding="utf-8") as g, pred.open("w", encoding="utf-8") as p:
        for i in range(n):
            expected, predicted = make_modest_document(rng, i)
            g.write(json.dumps({"id": f"doc{i:06d}", "expected": expected}) + "\n")
            p.write(json.dumps({"id": f"doc{i:06d}", "predicted": predicted}) + "\n")
    return gold, pred


def _child(job: dict[str, Any]) -> dict[str, Any]:
    import assay

    kwargs: dict[str, Any] = {
        "pred": job["pred"],
        "gold": job["gold"],
        "n_bootstrap_ci": job["b"],
        "resampling": "poisson",
        "field_types": TYPES,
        "spill": job["spill"],
    }
    cluster = executor_options(job["mode"], kwargs)
    cpu0 = cpu_s()
    try:
        start = time.perf_counter()
        run = assay.score("extraction", **kwargs)
        scored = time.perf_counter() - start
        run.save(job["out"])
        wall = time.perf_counter() - start
    finally:
        if cluster is not None:
            cluster.close()
    m = run.metrics["overall_extraction_score"]
    return {
        "wall_s": wall,
        "score_s": scored,
        "items_per_s": run.cohort.attempted / wall,
        "peak_mib": peak_mib(),
        "value": m.value,
        "ci": [m.ci_lower, m.ci_upper],
        "spilled": run.spilled,
        "cpu_s": cpu_s() - cpu0,
        "bytes": os.path.getsize(job["out"]),
    }


def main() -> None:
    if len(sys.argv) == 3 and sys.argv[1] == CHILD:
        print(json.dumps(_child(json.loads(sys.argv[2]))))
        return
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--quick", action="store_true", help="2,000 documents, B = 200")
    parser.add_argument("--docs", type=int, help="documents (default 100,000)")
    parser.add_argument("--b", type=int, help="bootstrap resamples (default 1000)")
    parser.add_argument(
        "--modes", default=",".join(MODES), help="comma-separated, of " + ", ".join(MODES)
    )
    spill = parser.add_mutually_exclusive_group()
    spill.add_argument(
        "--spill", dest="spill", action="store_true", default=None, help="always out of core"
    )
    spill.add_argument("--no-spill", dest="spill", action="store_false", help="always in memory")
    args = parser.parse_args()
    n = args.docs or (2_000 if args.quick else 100_000)
    b = args.b or (200 if args.quick else 1000)
    modes = [m.strip() for m in args.modes.split(",") if m.strip()]

    with tempfile.TemporaryDirectory() as tmp:
        t0 = time.perf_counter()
        gold, pred = write_inputs(Path(tmp), n)
        size = (gold.stat().st_size + pred.stat().st_size) / 2**20
        dt = time.perf_counter() - t0
        print(f"{n:,} extraction documents written in {dt:.1f} s ({size:.0f} MiB)")
        print(f"assay.score + save, B = {b}, Poisson resampling, spill = {args.spill or 'auto'}")
        print(
            f"{'executor':<22} {'wall s':>8} {'score s':>8} {'cpu s':>7} {'items/s':>8} "
            f"{'peak MiB':>9} {'spilled':>7}  overall_extraction_score CI"
        )
        for mode in modes:
            job = {
                "mode": mode,
                "gold": str(gold),
                "pred": str(pred),
                "b": b,
                "spill": args.spill,
                "out": str(Path(tmp) / "run.json"),
            }
            r = run_child(job, __file__)
            label = "2-worker Dask cluster" if mode == "dask" else mode
            print(
                f"{label:<22} {r['wall_s']:>8.1f} {r['score_s']:>8.1f} {r['cpu_s']:>7.1f} "
                f"{r['items_per_s']:>8.0f} "
                f"{r['peak_mib']:>9.0f} {r['spilled']!s:>7}  "
                f"{r['value']:.5f} [{r['ci'][0]:.5f}, {r['ci'][1]:.5f}]",
                flush=True,
            )


if __name__ == "__main__":
    main()
