"""LegalBench's metrics: the label suites', shared with multiclass and the dispatcher and
defined in :func:`assay._legal.labelscore.label_specs`; LegalBench adds the binary ones with yes
positive for a Yes/No task (:func:`.scorer.positive_class`).

- ``exact_match``: share of rows whose normalized answer equals gold, i.e. micro accuracy;
  failed rows are misses (headline);
- ``failure``: share of rows with no usable answer;
- ``macro_accuracy``, ``accuracy[c]``: per-class accuracy over usable rows and its unweighted
  mean;
- ``precision``, ``recall``, ``f1``: binary, yes positive, a Yes/No task only (``f1`` headline).
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
