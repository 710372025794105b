"""The translation suite (seed 001): corpus chrF++, BLEU and TER from sacrebleu's per-segment
statistics (extracted as sacrebleu extracts them), exact_match_rate, COMET and plugin metrics,
each with a bootstrap CI and a paired test between runs.

Each hook delegates: reading to ``_lib.inputs`` and COMET to ``_lib.comet``, the entries'
statistics to ``scorer``, the metrics to ``metrics`` and the summaries to ``summaries``.
"""

from __future__ import annotations

from collections.abc import Sequence
from pathlib import Path
from typing import Any, ClassVar

from assay._engine.item import Item
from assay._engine.task import ItemScore, LoadedInputs, Task
from assay.metrics.spec import MetricSpec
from assay.suites.translation import metrics, scorer, summaries
from assay.suites.translation._lib.comet import CometScorer, attach_comet
from assay.suites.translation._lib.inputs import read_inputs
from assay.suites.translation.settings import TranslationSettings


class TranslationTask(Task[TranslationSettings]):
    """Machine translation: one source, one or more references and one hypothesis per entry.

    ``comet_scorer`` injects a COMET scorer (any object with ``score(sources, hypotheses,
    references)``); without it, unbabel-comet is loaded from a local path or cache when present.
    """

    name: ClassVar[str] = "translation"
    description: ClassVar[str] = "machine translation: chrF++, BLEU, TER, exact match, COMET"
    #: a sample is correct (pass@k) when it matches a reference exactly
    pass_score: ClassVar[str | None] = "exact_match"

    def default_cluster_by(self, settings: TranslationSettings) -> str | None:
        """Entries that name their document (a ``docid`` field, as WMT's) are resampled by
        document; line-aligned text files take ``--clusters`` (WMT's ``*.docids.tsv``)."""
        return "docid"

    metrics_version: ClassVar[int] = 1
    #: entries scored at once: the batch shares one vectorized extraction per metric
    batch_size: ClassVar[int] = 2048
    settings_model = TranslationSettings

    def __init__(self, comet_scorer: CometScorer | None = None) -> None:
        self.comet_scorer = comet_scorer

    def load(
        self, pred: Path, gold: tuple[Path, ...], settings: TranslationSettings
    ) -> LoadedInputs:
        """A test report, JSONL entries or text lines (``gold`` = reference files or JSONL),
        each prediction record with its COMET score when there is one."""
        golds, preds, gold_paths = read_inputs(pred, gold, settings)
        preds = attach_comet(golds, preds, settings, self.comet_scorer)
        return LoadedInputs(preds, golds, (pred,), gold_paths)

    def score_item(self, item: Item, settings: TranslationSettings) -> ItemScore:
        """One entry: ``score_batch`` of one item (there is one scoring path)."""
        return self.score_batch([item], settings)[0]

    def score_batch(self, items: Sequence[Item], settings: TranslationSettings) -> list[ItemScore]:
        return scorer.score_batch(items, settings)

    def metric_specs(
        self, scores: Sequence[ItemScore], settings: TranslationSettings
    ) -> list[MetricSpec]:
        return metrics.metric_specs(scores, settings)

    def summaries(
        self, items: Sequence[Item], scores: Sequence[ItemScore], settings: TranslationSettings
    ) -> dict[str, Any]:
        return summaries.summaries(items, scores, settings)


#: the suite's one instance: the package's ``task``, named by the ``assay.tasks`` entry point
task = TranslationTask()
