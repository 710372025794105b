"""The extraction run's summaries (seed 000 §4's run-level diagnostics), from the stored rows,
never rescored:

- ``error_decomposition``: exact / partial / miss rates over the scored (document, field)
  pairs, per field, and field presence per field;
- ``list_quality``: raw precision / recall / F1 per list field (macro over documents, micro
  span-summed) and over the post-hoc fields;
- ``regression``: MAE, median AE and R² of dates and durations (days) and money (USD) over the
  pairs where both sides parse, with their support;
- ``span_count``: mean |n_predicted − n_expected| and its signed mean per (document, list field);
- ``posthoc``: the audit's sums (item count, matched GT spans, alignment and verified precision);
- the documents flagged for judge review, the schema-invalid ones, chunking and verification
  counts, and whether the embedding rescue was on.

A run is summarized block by block (``summarize_block``: only what the summaries read of each
document, so a scored block can be released), then the blocks' parts are merged in item order
(``merge_summaries``): the same floats as one pass over every document.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from assay._engine.item import Item
from assay._engine.task import ItemScore
from assay._fields import load_embedder
from assay.suites.extraction._lib.diagnostics import (
    SummaryPart,
    merge_summary_parts,
    summary_part,
)
from assay.suites.extraction.settings import ExtractionSettings


def summarize_block(
    items: Sequence[Item], scores: Sequence[ItemScore], settings: ExtractionSettings
) -> SummaryPart:
    """The block's documents with only what the summaries read (``SummaryPart``)."""
    return summary_part(items, scores, settings)


def merge_summaries(parts: Sequence[SummaryPart], settings: ExtractionSettings) -> dict[str, Any]:
    """The run's summaries from its blocks' parts, in item order."""
    _, status = load_embedder(settings)
    return merge_summary_parts(parts, settings, embedding=status.line())
