"""The MAUD suite's example data (``assay demo legal`` writes it with the other legal suites'):
the 40 merger agreements of the docclass example, gold and answers apart in MAUD's field names
and label surface ("Mixed Cash & Stock (Election)"), drawn by the shared legal corpus
(:mod:`assay._legal.demo`)."""

from __future__ import annotations

from pathlib import Path

from assay._legal.demo import corpus, write_jsonl


def write_demo(out: Path) -> list[Path]:
    """``maud-gold.jsonl`` and ``maud-rows.jsonl``, written into ``out``; returns the files
    written."""
    out.mkdir(parents=True, exist_ok=True)
    data = corpus()
    return [
        write_jsonl(out / "maud-gold.jsonl", data.maud_gold),
        write_jsonl(out / "maud-rows.jsonl", data.maud_rows),
    ]
