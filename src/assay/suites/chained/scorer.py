"""One document of a sorter → extractor pipeline scored into its statistics row (seed 000 §5).

sorter_exact_match = doc_type right; sorter_subtype_accuracy = doc_type AND subtype (normalized
against the CUAD folder names) right; extractor_* = the specialist stage's composite lookups (a
row without ``extractor_overall`` scores 0 there, so a dropped document stays in the
denominator; the other trackers count only where reported); chained_composite = w_s ·
sorter_exact_match + w_e · extractor_overall, per document.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from assay._engine.item import Item
from assay._engine.task import ItemScore
from assay._labels import is_blank, is_error_output, normalize_label, normalize_subtype
from assay.metrics.spec import mean_columns
from assay.suites.chained.settings import ChainedSettings

EXTRACTOR_TRACKERS = (
    "extractor_overall",
    "extractor_field_presence",
    "extractor_verified_precision",
    "extractor_category_presence",
    "extractor_schema_valid",
)
#: the composite's (sorter, extractor) weights
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


def _number(value: Any) -> float | None:
    if isinstance(value, bool):
        return float(value)
    if isinstance(value, int | float) and value == value:
        return float(value)
    return None


def score_document(item: Item, settings: ChainedSettings) -> ItemScore:
    """The sorter's two trackers and confidence, the extractor's trackers and the composite of
    one document; an ``ERROR:`` or failed row is unusable (every tracker a miss)."""
    pred = item.pred or {}
    expected = normalize_subtype(item.gold.get(settings.expected_field))
    raw_doc, raw_sub = pred.get(settings.doc_type_field), pred.get(settings.subtype_field)
    flags: list[str] = [item.status] if item.status != "ok" else []
    if is_error_output(raw_doc):
        flags.append("error_row")
    usable = not flags
    doc_type = normalize_label(raw_doc) if usable and not is_blank(raw_doc) else None
    subtype = normalize_subtype(raw_sub) if usable and not is_blank(raw_sub) else None
    doc_ok = doc_type == normalize_label(settings.expected_doc_type)
    sub_ok = doc_ok and subtype == expected
    extractor = {t: (_number(pred.get(t)) if usable else None) for t in EXTRACTOR_TRACKERS}
    overall = extractor["extractor_overall"] or 0.0
    composite = chained_composite(
        float(doc_ok), overall, (settings.sorter_weight, settings.extractor_weight)
    )
    stats = {
        **mean_columns("sorter_exact_match", float(doc_ok)),
        **mean_columns("sorter_subtype_accuracy", float(sub_ok)),
        **mean_columns("sorter_confidence", _number(pred.get(settings.confidence_field))),
        **mean_columns("chained_composite", composite),
    }
    for t, v in extractor.items():
        stats.update(mean_columns(t, v if v is not None or t == "extractor_overall" else None))
        if t == "extractor_overall":
            stats.update(mean_columns(t, overall))
    return ItemScore(
        stats=stats,
        scores={"chained_composite": composite, "extractor_overall": overall},
        flags=tuple(flags),
        details={"expected": expected, "predicted": subtype, "doc_type": doc_type},
    )
