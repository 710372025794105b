"""The LegalBench suite (seed 000 §8): LegalBench's official figure (balanced accuracy after its
own normalization), and Yes/No answers with aliases: exact match, per-class accuracy, binary
precision / recall / F1 with yes positive, confusion and top confusions. Multi-class LegalBench
tasks (abercrombie) get the same metrics without the binary ones.

Reading and the label set are the label-suite base's (:class:`assay._legal.labelsuite.LabelSuite`);
a row is scored by :mod:`.scorer`, the run's metrics are :mod:`.metrics`, its summaries
:mod:`.summaries`."""

from __future__ import annotations

from collections.abc import Collection, Sequence
from typing import Any, ClassVar

from assay._engine.item import Item
from assay._engine.task import ItemScore
from assay._legal.labelsuite import LabelSettings, LabelSuite
from assay.metrics.spec import MetricSpec
from assay.suites.legalbench import metrics, scorer, summaries
from assay.suites.legalbench.settings import LegalBenchSettings


class LegalBenchTask(LabelSuite[LegalBenchSettings]):
    """LegalBench: one question per row, a gold answer and the model's answer."""

    name: ClassVar[str] = "legalbench"
    description: ClassVar[str] = (
        "LegalBench: its official balanced accuracy, exact match, per-class, binary P/R/F1"
    )
    metrics_version: ClassVar[int] = 2
    settings_model = LegalBenchSettings

    def default_cluster_by(self, settings: LegalBenchSettings) -> str | None:
        """Rows of the cuad_* tasks are clauses of CUAD contracts: where the rows name their
        contract (a ``contract`` column), CIs resample contracts."""
        return "contract"

    def normalize(self, value: Any, valid: Collection[str] | None) -> str:
        return scorer.normalize_answer(value, valid)

    def positive_class(self, s: LabelSettings) -> str | None:
        """Binary metrics only for a Yes/No task."""
        return scorer.positive_class(s)

    def score_item(self, item: Item, settings: LegalBenchSettings) -> ItemScore:
        return scorer.score_row(item, settings)

    def metric_specs(
        self, scores: Sequence[ItemScore], settings: LegalBenchSettings
    ) -> list[MetricSpec]:
        return metrics.metric_specs(scores, settings)

    def summaries(
        self, items: Sequence[Item], scores: Sequence[ItemScore], settings: LegalBenchSettings
    ) -> dict[str, Any]:
        return summaries.summaries(scores, settings)


#: the suite's one instance: the package's ``task``, named by the ``assay.tasks`` entry point
task = LegalBenchTask()
