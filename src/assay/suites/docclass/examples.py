"""The docclass suite's example data (``assay demo legal`` writes it with the other legal
suites'): 60 documents, 40 merger agreements with a consideration type as subclass, drawn by the
shared legal corpus (:mod:`assay._legal.demo`)."""

from __future__ import annotations

from pathlib import Path

from assay._legal.demo import corpus, write_jsonl


def write_demo(out: Path) -> list[Path]:
    """``docclass_merged.jsonl`` (gold and answers in one file), written into ``out``; returns
    the files written."""
    out.mkdir(parents=True, exist_ok=True)
    return [write_jsonl(out / "docclass_merged.jsonl", corpus().docclass_merged)]
