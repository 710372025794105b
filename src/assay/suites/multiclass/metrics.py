"""The multiclass suite's metrics: the label suites', shared with LegalBench and the dispatcher
and defined in :func:`assay._legal.labelscore.label_specs`; multiclass makes ``macro_accuracy``
a headline (seed 000 §8, multiclass_score / court_opinion_score).

- ``exact_match``: share of rows whose normalized answer equals gold, i.e. micro accuracy;
  failed rows are misses (headline);
- ``macro_accuracy``: unweighted mean over the gold classes of per-class accuracy, every row in
  its class's denominator (a failed or blank row is a miss) (headline);
- ``macro_accuracy_usable``: seed 000 §2's figure, failed rows excluded (diagnostic);
- ``failure``: share of rows with no usable answer;
- ``accuracy[c]``: accuracy on the rows whose gold is c (diagnostic);
- ``precision``, ``recall``, ``f1``: binary, with ``--positive CLASS`` only.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import replace

from assay._engine.task import ItemScore
from assay._legal.labelscore import label_metric_specs
from assay._legal.labelsuite import LabelSettings
from assay.metrics.spec import MetricSpec
from assay.suites.multiclass.scorer import positive_class


def metric_specs(scores: Sequence[ItemScore], settings: LabelSettings) -> list[MetricSpec]:
    """The label metrics over the gold classes seen, macro accuracy a headline."""
    specs = label_metric_specs(scores, positive=positive_class(settings))
    return [replace(s, tier="headline") if s.name == "macro_accuracy" else s for s in specs]
