"""Wall time of the analytics layer: the Monte Carlo report over a seed-sized corpus, and the
noise floor + A/B over large runs. Plain script: ``uv run python benchmarks/bench_analytics.py``
(``--quick`` for a small size)."""

from __future__ import annotations

import argparse
import json
import tempfile
import time
from pathlib import Path

import numpy as np

import assay
from assay._analytics import ab_compare, measure_noise_floor, read_corpus, run_montecarlo

LABELS = ("contract", "invoice", "memo", "letter", "court_opinion")


def write_corpus(path: Path, n_docs: int, samples: int) -> int:
    """n_docs documents × 4 (model, prompt) configurations × ``samples`` label draws."""
    rng = np.random.default_rng(0)
    configs = [
        ("small", "v1", 0.80),
        ("small", "v2", 0.86),
        ("big", "v1", 0.95),
        ("big", "v2", 0.95),
    ]
    lines = []
    for d in range(n_docs):
        gold = LABELS[d % len(LABELS)]
        hardness = rng.beta(1, 6)
        for model, prompt, acc in configs:
            p_ok = max(0.0, acc - hardness)
            for _ in range(samples):
                ok = rng.random() < p_ok
                label = gold if ok else LABELS[(d + 1 + int(rng.integers(2))) % len(LABELS)]
                failed = rng.random() < 0.0024
                lines.append(
                    json.dumps(
                        {
                            "doc": f"d{d}",
                            "model": model,
                            "prompt": prompt,
                            "label": None if failed else label,
                            "gold": gold,
                            "confidence": float(np.clip(p_ok + rng.normal(0, 0.1), 0, 1)),
                            "prompt_tokens": 800,
                            "completion_tokens": 40,
                            "cost": 0.0001 if model == "small" else 0.0004,
                        }
                    )
                )
    path.write_text("\n".join(lines) + "\n")
    return len(lines)


def write_run_inputs(tmp: Path, n: int, reruns: int) -> list[Path]:
    rng = np.random.default_rng(1)
    gold = tmp / "gold.jsonl"
    gold.write_text(
        "".join(json.dumps({"id": f"i{i}", "expected": LABELS[i % 5]}) + "\n" for i in range(n))
    )
    p_item = rng.beta(6, 1.5, size=n)
    paths = []
    for r in range(reruns + 1):
        ok = rng.random(n) < np.minimum(1, p_item + (0.01 if r == reruns else 0))
        pred = tmp / f"run{r}.jsonl"
        pred.write_text(
            "".join(
                json.dumps({"id": f"i{i}", "predicted": LABELS[i % 5] if ok[i] else "memo"}) + "\n"
                for i in range(n)
            )
        )
        paths.append(pred)
    return [gold, *paths]


def timed(label: str, fn):  # type: ignore[no-untyped-def]
    t0 = time.perf_counter()
    value = fn()
    print(f"{label:<58} {time.perf_counter() - t0:8.2f} s")
    return value


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__)
    ap.add_argument("--quick", action="store_true", help="small sizes")
    args = ap.parse_args()
    n_docs, samples, n_items = (200, 3, 2000) if args.quick else (1500, 3, 20000)
    with tempfile.TemporaryDirectory() as d:
        tmp = Path(d)
        rows = write_corpus(tmp / "corpus.jsonl", n_docs, samples)
        corpus = timed(
            f"read corpus ({rows} samples, {n_docs} docs)",
            lambda: read_corpus(tmp / "corpus.jsonl"),
        )
        report = timed(
            "run_montecarlo (7 committee sizes × 2000 draws, escalation)",
            lambda: run_montecarlo(corpus, cheap="small:v2", strong="big:v1", fallback="big"),
        )
        k25 = [c for c in report.committee if c.k == 25 and c.model == "small" and c.prompt == "v2"]
        print(f"  small:v2 committee K=25 accuracy {k25[0].accuracy.value:.4f}")
        gold, *preds = write_run_inputs(tmp, n_items, 3)
        runs = [assay.score("classification", pred=p, gold=gold, name=p.stem) for p in preds]
        floor = timed(
            f"measure_noise_floor (3 reruns × {n_items} items, 2000 swaps/pair)",
            lambda: measure_noise_floor(runs[:3]),
        )
        print(f"  exact_match band ±{floor.band('exact_match'):.4f}")
        res = timed(
            f"ab_compare ({n_items} items, B = 1000)",
            lambda: ab_compare(runs[0], runs[3], noise_floor=floor),
        )
        print(f"  verdict: {res.verdict} (Δ {res.delta:+.4f})")


if __name__ == "__main__":
    main()
