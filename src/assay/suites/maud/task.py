"""The MAUD suite (seed 000 §8, maud_docclass_score): merger-agreement doc_type plus the
consideration type as subclass, strict and equiv; answers normalized by
normalize_maud_consideration (unknown → other).

Reading is the hierarchical base's (:class:`assay._legal.hierarchical.HierarchicalTask`); a row
is scored by :mod:`.scorer`, the run's metrics are :mod:`.metrics`, its summaries
:mod:`.summaries`."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any, ClassVar

from assay._engine.item import Item
from assay._engine.task import ItemScore, LoadedInputs
from assay._legal.hierarchical import HierarchicalTask
from assay.metrics.spec import MetricSpec
from assay.suites.maud import metrics, scorer, summaries
from assay.suites.maud.settings import MaudSettings


class MaudTask(HierarchicalTask[MaudSettings]):
    """doc_type + consideration type per merger agreement."""

    name: ClassVar[str] = "maud"
    description: ClassVar[str] = (
        "MAUD: merger-agreement doc_type + consideration type (strict and equiv)"
    )
    metrics_version: ClassVar[int] = 1
    settings_model = MaudSettings

    def subclass_key(self, value: Any) -> str:
        return scorer.subclass_key(value)

    def prepare(self, loaded: LoadedInputs, settings: MaudSettings) -> MaudSettings:
        """With class scores in the predictions, the AUPR plan of the whole sample: each
        consideration type's minority flip and AP thresholds (:func:`.scorer.aupr_plan`)."""
        return scorer.aupr_plan(loaded, settings)

    def score_item(self, item: Item, settings: MaudSettings) -> ItemScore:
        return scorer.score_row(item, settings)

    def metric_specs(self, scores: Sequence[ItemScore], settings: MaudSettings) -> list[MetricSpec]:
        return metrics.metric_specs(scores, settings)

    def summaries(
        self, items: Sequence[Item], scores: Sequence[ItemScore], settings: MaudSettings
    ) -> dict[str, Any]:
        return summaries.summaries(items, scores, settings)


#: the suite's one instance: the package's ``task``, named by the ``assay.tasks`` entry point
task = MaudTask()
