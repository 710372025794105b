"""One sorter answer scored into its statistics row (seed 000 §6, §15).

exact_match = doc_type == the expected doc_type (contract); subtype_accuracy = the normalized
subtype equals the gold folder (both sides through ``normalize_subtype``, so
"License_Agreements" and "License Agreement" are "license"); subtype_accuracy_equiv = strict or
a listed equivalent pair; ``strict[s]`` / ``equiv[s]`` / ``count[s]`` per gold subtype. The
details carry the sorter's failure mode (``assay._labels.classify_failure``).
"""

from __future__ import annotations

from typing import Any

from assay._engine.item import Item
from assay._engine.task import ItemScore
from assay._labels import (
    classify_failure,
    equivalence_set,
    equivalent,
    is_blank,
    is_error_output,
    normalize_label,
    normalize_subtype,
)
from assay._legal.labelsuite import raw_text
from assay.metrics.spec import mean_columns
from assay.suites.subtype.settings import SubtypeSettings


def _confidence(value: Any) -> float | None:
    if isinstance(value, bool) or not isinstance(value, int | float):
        return None
    return float(value) if value == value else None


def score_answer(item: Item, settings: SubtypeSettings) -> ItemScore:
    """The row's columns and details; an ``ERROR:`` answer, a blank one or a failed row is
    unusable (a miss everywhere, failure mode ``unusable``)."""
    pairs = equivalence_set(settings.equivalences)
    pred = item.pred or {}
    expected = normalize_subtype(item.gold.get(settings.expected_field))
    raw_doc = pred.get(settings.doc_type_field)
    raw_sub = pred.get(settings.predicted_field)
    flags: list[str] = [item.status] if item.status != "ok" else []
    if is_error_output(raw_doc) or is_error_output(raw_sub):
        flags.append("error_row")
    elif item.status == "ok" and is_blank(raw_doc) and is_blank(raw_sub):
        flags.append("blank")
    usable = not flags
    doc_type = normalize_label(raw_doc) if usable and not is_blank(raw_doc) else None
    predicted = normalize_subtype(raw_sub) if usable and not is_blank(raw_sub) else None
    doc_type_ok = doc_type == normalize_label(settings.expected_doc_type)
    strict = predicted is not None and predicted == expected
    equiv = equivalent(expected, predicted, pairs)
    mode = (
        classify_failure(
            doc_type_ok=doc_type_ok,
            expected=expected,
            predicted=predicted,
            equivalences=pairs,
            other_label=normalize_label(settings.other_label),
        )
        if usable
        else "unusable"
    )
    conf = _confidence(pred.get(settings.confidence_field))
    stats = {
        **mean_columns("exact_match", float(doc_type_ok)),
        **mean_columns("subtype_accuracy", float(strict)),
        **mean_columns("subtype_accuracy_equiv", float(equiv)),
        **mean_columns("confidence", conf),
        f"strict[{expected}]": float(strict),
        f"equiv[{expected}]": float(equiv),
        f"count[{expected}]": 1.0,
    }
    return ItemScore(
        stats=stats,
        scores={"subtype_accuracy": float(strict), "subtype_accuracy_equiv": float(equiv)},
        flags=tuple(flags),
        details={
            "expected": expected,
            "predicted": predicted,
            "doc_type": doc_type,
            "doc_type_ok": doc_type_ok,
            "failure_mode": mode,
            "equiv_recovered": not strict and equiv,
            "confidence": conf,
            "reasoning": raw_text(pred.get("reasoning")),
            "filename": raw_text(item.gold.get("filename", pred.get("filename"))),
        },
    )
