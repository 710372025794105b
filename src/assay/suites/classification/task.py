"""The classification suite (seed 000 §1–§2): exact match, failures, per-class and macro
accuracy, a confusion matrix and, for ``--positive CLASS``, binary precision / recall / F1.

Each hook delegates: reading to ``_lib.reading``, one item to ``scorer``, a block of items to
its fast twin ``_lib.block``, the metrics to ``metrics`` and the summaries to ``summaries``.
"""

from __future__ import annotations

from collections.abc import Sequence
from pathlib import Path
from typing import Any, ClassVar

from assay._engine.item import Item
from assay._engine.task import BlockSummaries, ItemScore, LoadedInputs, Task
from assay.metrics.spec import MetricSpec
from assay.suites.classification import metrics, scorer, summaries
from assay.suites.classification._lib.block import score_block
from assay.suites.classification._lib.reading import gold_labels, load_labels
from assay.suites.classification.settings import ClassificationSettings
from assay.suites.classification.summaries import SummaryPart


class ClassificationTask(Task[ClassificationSettings], BlockSummaries[ClassificationSettings]):
    """Label classification: one gold label and one predicted label per item."""

    name: ClassVar[str] = "classification"
    description: ClassVar[str] = (
        "label classification: exact match, per-class, macro, binary P/R/F1"
    )
    metrics_version: ClassVar[int] = 2
    settings_model = ClassificationSettings
    #: items per score_batch call: one collector pause and one call per block, not per item
    batch_size: ClassVar[int] = 1024

    def load(
        self, pred: Path, gold: tuple[Path, ...], settings: ClassificationSettings
    ) -> LoadedInputs:
        """Separate gold and prediction files, or one file with both label columns."""
        return load_labels(pred, gold, settings)

    def prepare(
        self, loaded: LoadedInputs, settings: ClassificationSettings
    ) -> ClassificationSettings:
        """Without a configured label set, the valid labels are the gold labels seen."""
        if settings.labels is not None:
            return settings
        labels = sorted(gold_labels(loaded, settings) - {""})
        return settings.model_copy(update={"labels": labels})

    def score_item(self, item: Item, settings: ClassificationSettings) -> ItemScore:
        return scorer.score_item(item, settings)

    def score_batch(
        self, items: Sequence[Item], settings: ClassificationSettings
    ) -> list[ItemScore]:
        """``score_item`` of each item, by the block scorer (``_lib.block``); item by item when
        a subclass overrides ``score_item`` (its scoring is then the one used)."""
        if type(self).score_item is not _SCORE_ITEM:
            return super().score_batch(items, settings)
        return score_block(items, settings)

    def metric_specs(
        self, scores: Sequence[ItemScore], settings: ClassificationSettings
    ) -> list[MetricSpec]:
        return metrics.metric_specs(scores, settings)

    def summaries(
        self, items: Sequence[Item], scores: Sequence[ItemScore], settings: ClassificationSettings
    ) -> dict[str, Any]:
        return summaries.summaries(items, scores, settings)

    def summarize_block(
        self, items: Sequence[Item], scores: Sequence[ItemScore], settings: ClassificationSettings
    ) -> SummaryPart:
        return summaries.summarize_block(items, scores, settings)

    def merge_summaries(
        self, parts: Sequence[Any], settings: ClassificationSettings
    ) -> dict[str, Any]:
        return summaries.merge_summaries(parts, settings)


#: the suite's own ``score_item``: another one (a subclass's, a patched one) is scored per item
_SCORE_ITEM = ClassificationTask.score_item

#: the suite's one instance: the package's ``task``, named by the ``assay.tasks`` entry point
task = ClassificationTask()
