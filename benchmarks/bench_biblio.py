"""Benchmark: the biblio suite scoring 300 synthetic papers × 50 references on one core.

Goal (issue 7): under 5 s for the scoring of 300 papers with 50 references each, reference
matching vectorized with rapidfuzz ``process.cdist``. Also measures the reference-matching
cascade on biblio-glutton's raw reference strings (../shared/data) when present.

    uv run python benchmarks/bench_biblio.py            # 300 × 50, 3 repeats
    uv run python benchmarks/bench_biblio.py --quick    # 60 × 50, 1 repeat
"""

from __future__ import annotations

import argparse
import gzip
import json
import os
import random
import re
import statistics
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

for var in ("OMP_NUM_THREADS", "OPENBLAS_NUM_THREADS", "MKL_NUM_THREADS"):
    os.environ.setdefault(var, "1")

import assay  # noqa: E402
from assay.suites.biblio._lib.export import Reference  # noqa: E402
from assay.suites.biblio._lib.references import match_references  # noqa: E402
from assay.suites.biblio.settings import BiblioSettings  # noqa: E402

_VOCABULARY = (
    "protein kinase signalling pathway cell membrane receptor binding cancer tumour growth "
    "expression gene regulation analysis model patients clinical trial outcome risk factor "
    "structure crystal electron density neural network learning data method results"
)
WORDS = re.findall(r"\w+", _VOCABULARY)
GLUTTON = (
    Path(__file__).resolve().parents[1].parent
    / "shared/data/biblio/biblio_glutton/references-doi-matching.json.gz"
)


def _title(rng: random.Random, n: int) -> str:
    return " ".join(rng.choice(WORDS) for _ in range(n)).capitalize()


def _reference(rng: random.Random, k: int) -> dict[str, Any]:
    fam = rng.choice(["Smith", "Zhang", "Müller", "García", "Okafor", "Novak"]) + str(k)
    year = str(rng.randint(1980, 2023))
    first = rng.randint(1, 900)
    return {
        "doi": f"10.{rng.randint(1000, 9999)}/x{k}.{rng.randint(0, 10**6)}" if k % 3 else None,
        "title": _title(rng, rng.randint(5, 12)),
        "year": year,
        "authors": [{"given": "A", "family": fam}, {"given": "B", "family": "Lee"}],
        "container": rng.choice(["J Biol Chem", "Nature", "Acta Cryst D", "PLoS One"]),
        "volume": str(rng.randint(1, 300)),
        "pages": f"{first}-{first + rng.randint(2, 20)}",
        "raw": None,
    }


def _perturb(rng: random.Random, ref: dict[str, Any]) -> dict[str, Any]:
    out = dict(ref)
    if rng.random() < 0.3:
        out["doi"] = None
    if rng.random() < 0.2 and out["title"]:
        words = out["title"].split()
        out["title"] = " ".join(words[:-1])
    if rng.random() < 0.1:
        out["year"] = str(int(out["year"]) + 1)
    out["raw"] = (
        f"{ref['authors'][0]['family']} A. {ref['title']}. {ref['container']} {ref['year']}"
    )
    return out


def write_corpus(root: Path, papers: int, refs: int, seed: int = 7) -> tuple[Path, Path]:
    rng = random.Random(seed)
    gold_dir, pred_dir = root / "gold", root / "pred"
    gold_dir.mkdir()
    pred_dir.mkdir()
    for i in range(papers):
        gold_refs = [_reference(rng, k) for k in range(refs)]
        authors = [
            {"given": rng.choice(["Ana", "Wei", "Jo"]), "family": f"Author{j}"}
            for j in range(rng.randint(1, 8))
        ]
        gold = {
            "schema_version": 11,
            "metadata": {
                "title": _title(rng, 10),
                "doi": f"10.1000/paper.{i}",
                "abstract": " ".join(rng.choice(WORDS) for _ in range(220)),
                "keywords": rng.sample(WORDS, 4),
            },
            "authors": authors,
            "references": gold_refs,
        }
        pred_refs = [_perturb(rng, r) for r in gold_refs if rng.random() > 0.05]
        rng.shuffle(pred_refs)
        pred = {
            **gold,
            "metadata": {**gold["metadata"], "abstract": gold["metadata"]["abstract"][:-40]},
            "references": pred_refs,
        }
        (gold_dir / f"p{i:04d}.json").write_text(json.dumps(gold), encoding="utf-8")
        if rng.random() > 0.02:
            (pred_dir / f"p{i:04d}.json").write_text(json.dumps(pred), encoding="utf-8")
    return pred_dir, gold_dir


def bench_scoring(papers: int, refs: int, repeat: int) -> None:
    with tempfile.TemporaryDirectory() as tmp:
        pred, gold = write_corpus(Path(tmp), papers, refs)
        for ci in (False, True):
            times, cpu = [], []
            for _ in range(repeat):
                start, start_cpu = time.perf_counter(), time.process_time()
                run = assay.score("biblio", pred=pred, gold=[gold], ci=ci, jobs=1)
                times.append(time.perf_counter() - start)
                cpu.append(time.process_time() - start_cpu)
            label = "with 1000-resample CIs" if ci else "no CIs"
            print(
                f"score {papers} papers × {refs} refs ({label}): best {min(times):.2f} s, "
                f"median {statistics.median(times):.2f} s, CPU best {min(cpu):.2f} s  "
                f"[ref_matching_f1 {run.metrics['ref_matching_f1'].value:.3f}, "
                f"missing {run.cohort.missing}]"
            )


def bench_glutton(limit: int) -> None:
    if not GLUTTON.exists():
        print(f"glutton: skipped ({GLUTTON} not found)")
        return
    with gzip.open(GLUTTON) as f:
        rows = json.loads(f.read())[:limit]
    gold = [
        Reference(
            title=r.get("atitle"),
            authors=[{"family": r["firstAuthor"]}] if r.get("firstAuthor") else [],
            container=r.get("jtitle"),
            volume=r.get("volume"),
            pages=r.get("firstPage"),
        )
        for r in rows
    ]
    pred = [Reference(raw=r["reference"]) for r in rows]
    s = BiblioSettings()
    size = 50
    correct = matched = 0
    start = time.perf_counter()
    for k in range(0, len(rows), size):
        g, p = gold[k : k + size], pred[k : k + size][::-1]
        m = match_references(g, p, s)
        matched += len(m.pairs)
        correct += sum(1 for gi, pi, _ in m.pairs if gi == len(p) - 1 - pi)
    took = time.perf_counter() - start
    print(
        f"glutton: {len(rows)} raw strings vs structured gold in papers of {size}: "
        f"{took:.2f} s; matched {matched} ({matched / len(rows):.3f}), "
        f"correct pairs {correct} ({correct / max(matched, 1):.3f} of matches)"
    )


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--quick", action="store_true", help="60 papers, one repeat")
    parser.add_argument("--papers", type=int, default=300)
    parser.add_argument("--refs", type=int, default=50)
    parser.add_argument("--repeat", type=int, default=3)
    args = parser.parse_args(argv)
    papers = 60 if args.quick else args.papers
    repeat = 1 if args.quick else args.repeat
    print(f"python {sys.version.split()[0]}, one scoring process, BLAS threads pinned to 1")
    bench_scoring(papers, args.refs, repeat)
    bench_glutton(2000 if args.quick else 17015)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
