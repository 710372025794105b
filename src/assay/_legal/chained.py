"""The chained sorter → extractor composite (seed 000 §5): one number per document, and the
record-shaped summary of the four trackers it is built from."""

from __future__ import annotations

from collections.abc import Sequence

DEFAULT_WEIGHTS = (0.25, 0.75)


def chained_composite(
    sorter_score: float, extractor_score: float, weights: Sequence[float] = DEFAULT_WEIGHTS
) -> float:
    """w_s · sorter + w_e · extractor, weights normalized to sum 1 (the extractor carries the
    document-level output the pipeline is judged on, so it dominates by default)."""
    if len(weights) != 2 or min(weights) < 0 or sum(weights) <= 0:
        raise ValueError(f"weights must be two non-negative numbers with a positive sum: {weights}")
    w_s, w_e = weights[0] / sum(weights), weights[1] / sum(weights)
    return w_s * float(sorter_score) + w_e * float(extractor_score)


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
