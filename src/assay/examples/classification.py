"""``assay demo classification``: the synthetic document-classification inputs alone.

The same files ``assay demo`` scores (gold, a baseline and a candidate run, the expected ids),
written without scoring them, for pages that score them step by step.
"""

from __future__ import annotations

from pathlib import Path

from assay.examples.doc_classification import write_classification_demo


def write_demo(out: Path) -> list[Path]:
    """Write gold.jsonl, baseline.jsonl, candidate.jsonl and expected_ids.json into ``out``."""
    files = write_classification_demo(out)
    return [files.gold, files.baseline, files.candidate, files.expected_ids]
