"""The subtype suite (seed 000 §6): the sorter's doc_type and contract subtype against the
CUAD folder, strict and with defensible equivalent families, plus the failure modes (§15).

Reading is the legal suites' (:mod:`assay._legal.records`); a row is scored by :mod:`.scorer`,
the run's metrics are :mod:`.metrics`, its summaries :mod:`.summaries`."""

from __future__ import annotations

from collections.abc import Sequence
from pathlib import Path
from typing import Any, ClassVar

from assay._engine.item import Item
from assay._engine.task import ItemScore, LoadedInputs, Task
from assay._legal.records import load_inputs, optional_label
from assay.metrics.spec import MetricSpec
from assay.suites.subtype import metrics, scorer, summaries
from assay.suites.subtype.settings import SubtypeSettings


class SubtypeTask(Task[SubtypeSettings]):
    """One sorter answer (doc_type, subtype, confidence) per CUAD document."""

    name: ClassVar[str] = "subtype"
    description: ClassVar[str] = "contract subtype: exact match, strict and equiv subtype accuracy"
    metrics_version: ClassVar[int] = 1
    settings_model = SubtypeSettings

    def load(self, pred: Path, gold: tuple[Path, ...], settings: SubtypeSettings) -> LoadedInputs:
        return load_inputs(
            pred,
            gold,
            suite=self.name,
            id_field=settings.id_field,
            gold_checks={settings.expected_field: optional_label},
            pred_checks={
                settings.predicted_field: optional_label,
                settings.doc_type_field: optional_label,
            },
            pred_required=False,
        )

    def score_item(self, item: Item, settings: SubtypeSettings) -> ItemScore:
        return scorer.score_answer(item, settings)

    def metric_specs(
        self, scores: Sequence[ItemScore], settings: SubtypeSettings
    ) -> list[MetricSpec]:
        return metrics.metric_specs(scores)

    def summaries(
        self, items: Sequence[Item], scores: Sequence[ItemScore], settings: SubtypeSettings
    ) -> dict[str, Any]:
        """failure_insights, per_subtype and the confusion matrix (unusable rows as
        ``<none>``)."""
        return summaries.summaries(items, scores)


#: the suite's one instance: the package's ``task``, named by the ``assay.tasks`` entry point
task = SubtypeTask()
