"""One multiclass (or court-opinion) row scored into its statistics row.

A multiclass row is scored as every label suite's, shared with LegalBench and the dispatcher:
:func:`assay._legal.labelsuite.score_label_row` over
:func:`assay._legal.labelscore.label_stats`, answers through plain label normalization over the
valid labels (``normalize_label``); with ``--positive CLASS``, the tp / fp / fn columns of the
binary metrics. Multiclass adds nothing to the row.
"""

from __future__ import annotations

from assay._engine.item import Item
from assay._engine.task import ItemScore
from assay._labels import normalize_label
from assay._legal.labelsuite import LabelSettings, score_label_row


def positive_class(settings: LabelSettings) -> str | None:
    """``--positive`` as a label key, or None (no binary metrics)."""
    if settings.positive is None:
        return None
    return normalize_label(settings.positive, settings.labels)


def score_row(item: Item, settings: LabelSettings) -> ItemScore:
    """The label suites' row with plain label normalization."""
    return score_label_row(item, settings, normalize_label, positive_class(settings))
