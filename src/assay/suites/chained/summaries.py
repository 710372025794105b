"""The chained suite's summaries. A chained run has none beyond its metrics (:func:`summaries`
is empty); :func:`chained_summary` is the record-shaped summary of a pipeline's four tracker
figures and their composite, for figures computed elsewhere (seed 000 §5)."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from assay._engine.task import ItemScore
from assay.suites.chained.scorer import DEFAULT_WEIGHTS, chained_composite


def summaries(scores: Sequence[ItemScore]) -> dict[str, Any]:
    """A chained run's summaries: none (the per-stage trackers are its metrics)."""
    return {}


def chained_summary(
    *,
    sorter_doc_type: float | None,
    sorter_subtype: float | None,
    extractor_overall: float | None,
    extractor_presence: float | None,
    weights: Sequence[float] = DEFAULT_WEIGHTS,
) -> dict[str, float | None]:
    """The sorter doc_type / subtype and extractor overall / presence figures and their
    composite: the sorter's doc_type accuracy (``sorter_exact_match``, §5) weighted with the
    extractor's overall score; None when either is missing."""
    composite = (
        chained_composite(sorter_doc_type, extractor_overall, weights)
        if sorter_doc_type is not None and extractor_overall is not None
        else None
    )
    return {
        "sorter_exact_match": sorter_doc_type,
        "sorter_subtype_accuracy": sorter_subtype,
        "extractor_overall": extractor_overall,
        "extractor_field_presence": extractor_presence,
        "chained_composite": composite,
    }
