"""LegalBench's example data (``assay demo legal`` writes it with the other legal suites'): 80
hearsay questions answered "Yes."/"No.", "1.0"/"0.0", wrongly or with an ``ERROR:`` row, drawn
by the shared legal corpus (:mod:`assay._legal.demo`)."""

from __future__ import annotations

from pathlib import Path

from assay._legal.demo import corpus, write_jsonl


def write_demo(out: Path) -> list[Path]:
    """``hearsay-answers.jsonl`` (gold and answers in one file) and the same rows apart,
    ``gold.jsonl`` + ``answers.jsonl``, written into ``out``; returns the files written."""
    out.mkdir(parents=True, exist_ok=True)
    rows = corpus().legalbench
    return [
        write_jsonl(out / "hearsay-answers.jsonl", rows),
        write_jsonl(out / "gold.jsonl", [{"id": r["id"], "answer": r["answer"]} for r in rows]),
        write_jsonl(
            out / "answers.jsonl", [{"id": r["id"], "predicted": r["predicted"]} for r in rows]
        ),
    ]
