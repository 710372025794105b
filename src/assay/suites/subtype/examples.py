"""The subtype suite's example data (``assay demo legal`` writes it with the other legal
suites'): a sorter's answers for the 30 contracts of the shared legal corpus
(:mod:`assay._legal.demo`), gold written as CUAD's folder names."""

from __future__ import annotations

from pathlib import Path

from assay._legal.demo import corpus, write_jsonl


def write_demo(out: Path) -> list[Path]:
    """``subtype.jsonl``, written into ``out``; returns the files written."""
    out.mkdir(parents=True, exist_ok=True)
    return [write_jsonl(out / "subtype.jsonl", corpus().sorter)]
