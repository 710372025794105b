"""ContractEval's example data (``assay demo legal`` writes it with the other legal suites'):
two models' answers to the same 30 synthetic contracts × 6 CUAD categories, and a CUAD-shaped
``master_clauses.csv`` for ``assay legal contracteval-rows``. The contracts are the shared legal
corpus's (:mod:`assay._legal.demo`); the answers are drawn here, from their own seeds."""

from __future__ import annotations

import csv
import random
from pathlib import Path
from typing import Any

from assay._legal.demo import CLAUSES, corpus, write_jsonl


def _answer(rng: random.Random, spans: list[str], skill: float) -> str:
    """A model's ContractEval answer: verbatim, trimmed, lazy refusal or invented clause."""
    r = rng.random()
    if not spans:
        return "No related clause." if r < skill + 0.1 else "The parties shall cooperate."
    if r < skill:
        return "\n".join(spans)
    if r < skill + (1 - skill) / 2:
        return " ".join(spans[0].split()[: max(3, len(spans[0].split()) // 2)])
    return "No related clause."


def contracteval_rows(docs: list[dict[str, Any]], skill: float, seed: int) -> list[dict[str, Any]]:
    """One row per (contract, category): gold spans and a model of the given skill's answer."""
    rng = random.Random(seed)
    return [
        {"id": f"{d['name']}__{cat}", "contract": d["name"], "category": cat,
         "gold_spans": spans, "output": _answer(rng, spans, skill)}
        for d in docs
        for cat, spans in d["clauses"].items()
    ]  # fmt: skip


def master_csv(path: Path, docs: list[dict[str, Any]]) -> Path:
    """CUAD's ``master_clauses.csv`` shape: Filename, then each category and its ``-Answer``."""
    cats = list(CLAUSES)
    header = ["Filename", "Parties", "Parties-Answer"]
    for c in cats:
        header += [c, f"{c}-Answer"]
    with path.open("w", encoding="utf-8", newline="") as fh:
        w = csv.writer(fh)
        w.writerow(header)
        for d in docs:
            a, b = d["parties"]
            row = [f"{d['name']}.pdf", repr([a, b]), f"{a}; {b}"]
            for c in cats:
                spans = d["clauses"][c]
                row += [repr(spans), "Yes" if spans else "No"]
            w.writerow(row)
    return path


def write_demo(out: Path) -> list[Path]:
    """``rows-a.jsonl`` / ``rows-b.jsonl`` (models A and B; ``rows.jsonl`` is A's) and
    ``master_clauses_sample.csv``, written into ``out``; returns the files written."""
    out.mkdir(parents=True, exist_ok=True)
    docs = corpus().contracts
    rows_a = contracteval_rows(docs, 0.7, 1)
    return [
        write_jsonl(out / "rows-a.jsonl", rows_a),
        write_jsonl(out / "rows-b.jsonl", contracteval_rows(docs, 0.85, 2)),
        write_jsonl(out / "rows.jsonl", rows_a),
        master_csv(out / "master_clauses_sample.csv", docs),
    ]
