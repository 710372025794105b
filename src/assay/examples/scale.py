"""``assay demo scale``: one larger classification set, ``gold.jsonl`` and ``preds.jsonl``.

The synthetic document-classification benchmark (``doc_classification``) at 5,000 documents,
the candidate's predictions as ``preds.jsonl``: enough items for the Poisson bootstrap and the
parallel executors to have something to split.
"""

from __future__ import annotations

from pathlib import Path

from assay.examples.doc_classification import write_classification_demo

N_ITEMS = 5000


def write_demo(out: Path) -> list[Path]:
    """Write gold.jsonl and preds.jsonl into ``out``; return their paths."""
    files = write_classification_demo(out / ".scale-demo", n_items=N_ITEMS)
    out.mkdir(parents=True, exist_ok=True)
    gold, preds = out / "gold.jsonl", out / "preds.jsonl"
    files.gold.replace(gold)
    files.candidate.replace(preds)
    for leftover in (files.baseline, files.expected_ids):
        leftover.unlink()
    files.gold.parent.rmdir()
    return [gold, preds]
