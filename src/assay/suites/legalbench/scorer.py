"""One LegalBench answer scored into its statistics row.

The row's columns (exact_match, failure, ``correct[c]`` / ``count[c]``, and tp / fp / fn with a
positive class) and the flags of a bad answer are the label suites', shared with multiclass and
the dispatcher: :func:`assay._legal.labelsuite.score_label_row` over
:func:`assay._legal.labelscore.label_stats`. What LegalBench adds:

- the columns of its official figure, balanced accuracy after LegalBench's own ``normalize``
  (:func:`assay._legal.answers.legalbench_key`: str, ASCII punctuation deleted, strip, lower;
  a missing or failed answer is ``""``): ``legalbench_correct[k]`` and ``legalbench_count[k]``
  for the gold key ``k``, every row counted;
- assay's answer normalization (:func:`assay._legal.answers.normalize_legalbench`: yes/no
  aliases such as "Y", "true", "1.0", trailing punctuation, a JSON ``{"answer": ...}``, a
  word-boundary search), behind ``exact_match`` and ``macro_accuracy``;
- the rule that the binary metrics, yes positive, apply to a Yes/No task only.
"""

from __future__ import annotations

from collections.abc import Collection
from typing import Any

from assay._engine.item import Item
from assay._engine.task import ItemScore
from assay._labels import normalize_label
from assay._legal.answers import LEGALBENCH_BINARY_LABELS, normalize_legalbench
from assay._legal.labelsuite import LabelSettings, score_label_row


def normalize_answer(value: Any, valid: Collection[str] | None) -> str:
    """A Yes/No task's answer through ``normalize_legalbench``; a multi-class task's (the valid
    labels are not within {yes, no}, e.g. abercrombie) through plain label normalization."""
    if valid and not set(valid) <= set(LEGALBENCH_BINARY_LABELS):
        return normalize_label(value, valid)
    return normalize_legalbench(value, valid)


def positive_class(settings: LabelSettings) -> str | None:
    """The positive class of the binary metrics: ``positive`` (yes) for a Yes/No task, else
    None (no binary metrics)."""
    labels = settings.labels
    if settings.positive is None or not labels or not set(labels) <= set(LEGALBENCH_BINARY_LABELS):
        return None
    return normalize_legalbench(settings.positive)


def score_row(item: Item, settings: LabelSettings) -> ItemScore:
    """The label suites' row with LegalBench's normalization and positive class, and the
    columns of LegalBench's official figure (its own normalization of the raw gold and answer,
    :func:`assay._legal.answers.legalbench_key`)."""
    return score_label_row(
        item, settings, normalize_answer, positive_class(settings), legalbench=True
    )
