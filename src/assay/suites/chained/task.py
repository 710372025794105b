"""The chained suite (seed 000 §5): per-stage trackers of a sorter → extractor pipeline and
their composite, one row per document.

Reading is the legal suites' (:mod:`assay._legal.records`); a document is scored by
:mod:`.scorer`, the run's metrics are :mod:`.metrics`; the handoff ablation (§12) that compares
two chained runs is :mod:`._lib.ablation`."""

from __future__ import annotations

from collections.abc import Sequence
from pathlib import Path
from typing import Any, ClassVar

from assay._engine.item import Item
from assay._engine.task import ItemScore, LoadedInputs, Task
from assay._legal.records import load_inputs, optional_label
from assay.metrics.spec import MetricSpec
from assay.suites.chained import metrics, scorer, summaries
from assay.suites.chained.settings import ChainedSettings


class ChainedTask(Task[ChainedSettings]):
    """Sorter and extractor outputs of one document per row."""

    name: ClassVar[str] = "chained"
    description: ClassVar[str] = "chained sorter → extractor trackers and their composite"
    metrics_version: ClassVar[int] = 1
    settings_model = ChainedSettings

    def load(self, pred: Path, gold: tuple[Path, ...], settings: ChainedSettings) -> LoadedInputs:
        return load_inputs(
            pred,
            gold,
            suite=self.name,
            id_field=settings.id_field,
            gold_checks={settings.expected_field: optional_label},
            pred_checks={
                settings.doc_type_field: optional_label,
                settings.subtype_field: optional_label,
            },
            pred_required=False,
        )

    def score_item(self, item: Item, settings: ChainedSettings) -> ItemScore:
        return scorer.score_document(item, settings)

    def metric_specs(
        self, scores: Sequence[ItemScore], settings: ChainedSettings
    ) -> list[MetricSpec]:
        return metrics.metric_specs(settings)

    def summaries(
        self, items: Sequence[Item], scores: Sequence[ItemScore], settings: ChainedSettings
    ) -> dict[str, Any]:
        return summaries.summaries(scores)


#: the suite's one instance: the package's ``task``, named by the ``assay.tasks`` entry point
task = ChainedTask()
