"""The multiclass suite (seed 000 §8, multiclass_score / court_opinion_score): macro accuracy,
micro accuracy (= exact match), per-class accuracy and confusion.

Reading and the label set are the label-suite base's (:class:`assay._legal.labelsuite.LabelSuite`);
a row is scored by :mod:`.scorer`, the run's metrics are :mod:`.metrics`, its summaries
:mod:`.summaries`."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any, ClassVar

from assay._engine.item import Item
from assay._engine.task import ItemScore
from assay._legal.labelsuite import LabelSuite
from assay.metrics.spec import MetricSpec
from assay.suites.multiclass import metrics, scorer, summaries
from assay.suites.multiclass.settings import MulticlassSettings


class MulticlassTask(LabelSuite[MulticlassSettings]):
    """Plain label classification over many classes; macro accuracy is the headline."""

    name: ClassVar[str] = "multiclass"
    description: ClassVar[str] = "multiclass / court opinions: macro and micro accuracy, confusion"
    metrics_version: ClassVar[int] = 2
    settings_model = MulticlassSettings

    def score_item(self, item: Item, settings: MulticlassSettings) -> ItemScore:
        return scorer.score_row(item, settings)

    def metric_specs(
        self, scores: Sequence[ItemScore], settings: MulticlassSettings
    ) -> list[MetricSpec]:
        return metrics.metric_specs(scores, settings)

    def summaries(
        self, items: Sequence[Item], scores: Sequence[ItemScore], settings: MulticlassSettings
    ) -> dict[str, Any]:
        return summaries.summaries(scores, settings)


#: the suite's one instance: the package's ``task``, named by the ``assay.tasks`` entry point
task = MulticlassTask()
