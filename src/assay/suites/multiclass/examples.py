"""The multiclass suite's example data (``assay demo legal`` writes it with the other legal
suites'): the doc-class rows of the shared legal corpus (:mod:`assay._legal.demo`), whose
``expected`` / ``predicted`` doc types are plain labels; the same file as the docclass suite's."""

from __future__ import annotations

from pathlib import Path

from assay._legal.demo import corpus, write_jsonl


def write_demo(out: Path) -> list[Path]:
    """``docclass_merged.jsonl``, written into ``out``; returns the files written."""
    out.mkdir(parents=True, exist_ok=True)
    return [write_jsonl(out / "docclass_merged.jsonl", corpus().docclass_merged)]
