"""The classification suite's example data: a realistic synthetic document-classification
benchmark, gold labels and two model runs (``assay demo``, ``assay demo classification``,
``assay demo scale``).

The baseline confuses letters with memos and contracts with corporate records more often than
the candidate; both have a few ``ERROR:`` rows and missing predictions, and their outputs come
in the shapes LLMs produce (Title Case, quoted, JSON objects, a sentence).
"""

from __future__ import annotations

import json
from dataclasses import dataclass
from pathlib import Path

import numpy as np

CLASSES = (
    "contract",
    "invoice",
    "letter",
    "memo",
    "court_opinion",
    "insurance_claim",
    "corporate_record",
)
WEIGHTS = (0.30, 0.20, 0.15, 0.12, 0.10, 0.08, 0.05)
#: the label a model confuses each class with most often
CONFUSED_WITH = {
    "contract": "corporate_record",
    "invoice": "contract",
    "letter": "memo",
    "memo": "letter",
    "court_opinion": "contract",
    "insurance_claim": "letter",
    "corporate_record": "contract",
}
TITLES = {
    "contract": "Master Services Agreement",
    "invoice": "Invoice no.",
    "letter": "Re: your enquiry of",
    "memo": "Internal memorandum",
    "court_opinion": "Opinion of the Court",
    "insurance_claim": "Claim notification",
    "corporate_record": "Minutes of the board meeting",
}


@dataclass(frozen=True)
class DemoFiles:
    gold: Path
    baseline: Path
    candidate: Path
    expected_ids: Path


def _render(label: str, style: int) -> str:
    words = label.replace("_", " ")
    if style == 0:
        return label
    if style == 1:
        return words.title()
    if style == 2:
        return f'"{label}"'
    if style == 3:
        return json.dumps({"doc_type": label, "confidence": 0.9})
    return f"This document is a {words}."


def _predict(
    rng: np.random.Generator,
    gold: list[str],
    accuracy: dict[str, float],
    *,
    n_errors: int,
    n_missing: int,
) -> list[tuple[int, str]]:
    """(index, output) for every item that has a prediction."""
    n = len(gold)
    error_at = set(rng.choice(n, size=n_errors, replace=False).tolist())
    rest = [i for i in range(n) if i not in error_at]
    missing_at = set(rng.choice(rest, size=n_missing, replace=False).tolist())
    rows: list[tuple[int, str]] = []
    for i, label in enumerate(gold):
        if i in missing_at:
            continue
        if i in error_at:
            reason = "timeout after 60s" if i % 2 else "invalid class 'brochure'"
            rows.append((i, f"ERROR: {reason}"))
            continue
        if rng.random() < accuracy[label]:
            predicted = label
        elif rng.random() < 0.7:
            predicted = CONFUSED_WITH[label]
        else:
            predicted = str(rng.choice([c for c in CLASSES if c != label]))
        rows.append((i, _render(predicted, int(rng.integers(5)))))
    return rows


def write_classification_demo(out_dir: Path, *, n_items: int = 400, seed: int = 7) -> DemoFiles:
    """Write gold.jsonl, baseline.jsonl, candidate.jsonl and expected_ids.json into ``out_dir``."""
    rng = np.random.default_rng(seed)
    out_dir.mkdir(parents=True, exist_ok=True)
    gold = [str(c) for c in rng.choice(CLASSES, size=n_items, p=WEIGHTS)]
    ids = [f"doc-{i + 1:04d}" for i in range(n_items)]
    base_acc = {
        "contract": 0.86,
        "invoice": 0.93,
        "letter": 0.68,
        "memo": 0.62,
        "court_opinion": 0.80,
        "insurance_claim": 0.75,
        "corporate_record": 0.55,
    }
    cand_acc = {**base_acc, "letter": 0.84, "memo": 0.80, "corporate_record": 0.70}
    files = DemoFiles(
        out_dir / "gold.jsonl",
        out_dir / "baseline.jsonl",
        out_dir / "candidate.jsonl",
        out_dir / "expected_ids.json",
    )
    with files.gold.open("w", encoding="utf-8") as fh:
        for i, label in enumerate(gold):
            title = f"{TITLES[label]} {1000 + i}"
            fh.write(json.dumps({"id": ids[i], "expected": label, "title": title}) + "\n")
    for path, acc, n_errors, n_missing in (
        (files.baseline, base_acc, 5, 6),
        (files.candidate, cand_acc, 2, 3),
    ):
        with path.open("w", encoding="utf-8") as fh:
            for i, output in _predict(rng, gold, acc, n_errors=n_errors, n_missing=n_missing):
                fh.write(json.dumps({"id": ids[i], "predicted": output}) + "\n")
    files.expected_ids.write_text(json.dumps({"members": ids}, indent=1) + "\n", encoding="utf-8")
    return files


def write_demo(out: Path) -> list[Path]:
    """``assay demo classification``: gold.jsonl, baseline.jsonl, candidate.jsonl and
    expected_ids.json in ``out``, the files ``assay demo`` scores, written without scoring them
    (for pages that score them step by step)."""
    files = write_classification_demo(out)
    return [files.gold, files.baseline, files.candidate, files.expected_ids]


#: documents in ``assay demo scale``: enough for the Poisson bootstrap and the parallel
#: executors to have something to split
SCALE_ITEMS = 5000


def write_scale_demo(out: Path) -> list[Path]:
    """``assay demo scale``: the same benchmark at ``SCALE_ITEMS`` documents, ``gold.jsonl`` and
    the candidate's predictions as ``preds.jsonl`` in ``out``; return their paths."""
    files = write_classification_demo(out / ".scale-demo", n_items=SCALE_ITEMS)
    out.mkdir(parents=True, exist_ok=True)
    gold, preds = out / "gold.jsonl", out / "preds.jsonl"
    files.gold.replace(gold)
    files.candidate.replace(preds)
    for leftover in (files.baseline, files.expected_ids):
        leftover.unlink()
    files.gold.parent.rmdir()
    return [gold, preds]
