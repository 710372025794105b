"""LegalBench's run summaries: the label suites' (:func:`assay._legal.labelscore.label_summaries`:
confusion, top confusions, the per-class table, the counts of error, blank, invalid and unusable
rows) and the positive class the binary metrics used (None for a multi-class task)."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from assay._engine.task import ItemScore
from assay._legal.labelscore import label_summaries
from assay._legal.labelsuite import LabelSettings
from assay.suites.legalbench.scorer import positive_class


def summaries(scores: Sequence[ItemScore], settings: LabelSettings) -> dict[str, Any]:
    """The label summaries (``--top-k`` top confusions) and ``positive``."""
    return {
        **label_summaries(scores, top_k=settings.top_k),
        "positive": positive_class(settings),
    }
