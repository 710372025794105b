"""LegalBench's metrics: the label suites', shared with multiclass and the dispatcher and
defined in :func:`assay._legal.labelscore.label_specs`; LegalBench adds its official figure and
the binary ones with yes positive for a Yes/No task (:func:`.scorer.positive_class`).

- ``balanced_accuracy``: LegalBench's official figure (its ``evaluation.py``,
  ``EXACT_MATCH_BALANCED_ACC_TASKS``): the mean over the gold classes of the share of that
  class's rows answered with it, gold and answer through LegalBench's ``normalize``; every row
  is in its class's denominator (headline);
- ``exact_match``: share of rows whose answer, normalized by assay, equals gold, i.e. micro
  accuracy; failed rows are misses;
- ``macro_accuracy``, ``accuracy[c]``: balanced accuracy after assay's answer normalization
  (aliases, JSON, word-boundary search) and its per-class terms, every row in its class's
  denominator; ``macro_accuracy_usable``: seed 000 §2's, failed rows excluded (diagnostic);
- ``failure``: share of rows with no usable answer;
- ``precision``, ``recall``, ``f1``: binary, yes positive, a Yes/No task only.
"""

from __future__ import annotations

from collections.abc import Sequence

from assay._engine.task import ItemScore
from assay._legal.labelscore import label_metric_specs
from assay._legal.labelsuite import LabelSettings
from assay.metrics.spec import MetricSpec
from assay.suites.legalbench.scorer import positive_class


def metric_specs(scores: Sequence[ItemScore], settings: LabelSettings) -> list[MetricSpec]:
    """The label metrics over the gold classes seen, binary ones for a Yes/No task."""
    return label_metric_specs(scores, positive=positive_class(settings))
