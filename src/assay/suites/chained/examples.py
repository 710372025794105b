"""The chained suite's example data (``assay demo legal`` writes it with the other legal
suites'): sorter → extractor rows for the 30 contracts of the shared legal corpus
(:mod:`assay._legal.demo`), once with the predicted-subtype handoff (the sorter wrong a quarter
of the time, the extractor then 0.2 worse) and once with the ground-truth handoff."""

from __future__ import annotations

import random
from pathlib import Path
from typing import Any

from assay._legal.demo import corpus, write_jsonl

#: both handoffs draw from this seed, so a document's base extractor score is the same in both
SEED = 5


def handoff_rows(docs: list[dict[str, Any]], *, truth: bool) -> list[dict[str, Any]]:
    """One chained row per contract; ``truth``: the ground-truth subtype was handed off."""
    rng = random.Random(SEED)
    rows = []
    for d in docs:
        folder, key, _ = d["folder"]
        right = truth or rng.random() < 0.75
        base = rng.uniform(0.55, 0.9)
        rows.append(
            {
                "id": d["name"],
                "expected_subtype": folder,
                "doc_type": "contract",
                "subtype": key if right else "other",
                "confidence": 0.8,
                "extractor_overall": round(base if right else base - 0.2, 4),
                "extractor_field_presence": 0.9,
                "extractor_verified_precision": 0.95,
                "extractor_category_presence": 0.8,
                "extractor_schema_valid": 1.0,
            }
        )
    return rows


def write_demo(out: Path) -> list[Path]:
    """``pred-handoff.jsonl`` and ``gt-handoff.jsonl``, written into ``out``; returns the files
    written."""
    out.mkdir(parents=True, exist_ok=True)
    docs = corpus().contracts
    return [
        write_jsonl(out / "pred-handoff.jsonl", handoff_rows(docs, truth=False)),
        write_jsonl(out / "gt-handoff.jsonl", handoff_rows(docs, truth=True)),
    ]
