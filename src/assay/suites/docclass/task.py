"""The docclass suite (seed 000 §7): hierarchical doc_type + subclass classification.

Reading is the hierarchical base's (:class:`assay._legal.hierarchical.HierarchicalTask`); a row
is scored by :mod:`.scorer`, the run's metrics are :mod:`.metrics`, its summaries
:mod:`.summaries`."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any, ClassVar

from assay._engine.item import Item
from assay._engine.task import ItemScore
from assay._legal.hierarchical import HierarchicalTask
from assay.metrics.spec import MetricSpec
from assay.suites.docclass import metrics, scorer, summaries
from assay.suites.docclass.settings import DocclassSettings


class DocclassTask(HierarchicalTask[DocclassSettings]):
    """doc_type and subclass per row; subclasses normalized as plain labels."""

    name: ClassVar[str] = "docclass"
    description: ClassVar[str] = (
        "hierarchical doc classification: doc_type, subclass (strict, equiv), exact match"
    )
    metrics_version: ClassVar[int] = 1
    settings_model = DocclassSettings

    def subclass_key(self, value: Any) -> str:
        return scorer.subclass_key(value)

    def score_item(self, item: Item, settings: DocclassSettings) -> ItemScore:
        return scorer.score_row(item, settings)

    def metric_specs(
        self, scores: Sequence[ItemScore], settings: DocclassSettings
    ) -> list[MetricSpec]:
        return metrics.metric_specs(scores)

    def summaries(
        self, items: Sequence[Item], scores: Sequence[ItemScore], settings: DocclassSettings
    ) -> dict[str, Any]:
        return summaries.summaries(items, scores)


#: the suite's one instance: the package's ``task``, named by the ``assay.tasks`` entry point
task = DocclassTask()
