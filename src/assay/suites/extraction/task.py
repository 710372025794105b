"""The extraction suite (seed 000 §3, §4, §16): typed field scoring of extracted JSON objects,
optimal list matching, the factuality audit, run-level diagnostics and miss attribution.

The flow: ``load`` reads predictions and gold into canonical records (``_lib/documents.py``);
each batch of documents is scored into rows (``scorer.py``); the run's metrics are the specs of
``metrics.py``, its diagnostics the summaries of ``summaries.py``, built block by block.
"""

from __future__ import annotations

from collections.abc import Sequence
from pathlib import Path
from typing import Any, ClassVar

from assay._engine.item import Item
from assay._engine.spill import record_list
from assay._engine.task import BlockSummaries, ItemScore, LoadedInputs, Task
from assay._fields.embedding import load_embedder
from assay._io.readers import read_records
from assay.errors import UsageError
from assay.metrics import MetricSpec
from assay.suites.extraction._lib.diagnostics import SummaryPart
from assay.suites.extraction._lib.documents import gold_record, pred_record
from assay.suites.extraction._lib.sources import (
    check_source_dir,
    load_json_schema,
    load_master_labels,
)
from assay.suites.extraction.metrics import extraction_metric_specs
from assay.suites.extraction.scorer import score_documents
from assay.suites.extraction.settings import ExtractionSettings
from assay.suites.extraction.summaries import merge_summaries, summarize_block


class ExtractionTask(Task[ExtractionSettings], BlockSummaries[ExtractionSettings]):
    """Structured extraction: one gold and one predicted JSON object per document."""

    name: ClassVar[str] = "extraction"
    description: ClassVar[str] = (
        "structured extraction: typed field scores, list matching, factuality audit"
    )
    metrics_version: ClassVar[int] = 2
    settings_model = ExtractionSettings
    #: documents scored together: their list matrices are computed in one vectorized pass
    batch_size: ClassVar[int] = 64
    #: the summaries read a block's ids and cut scores only (``summarize_block``): each block's
    #: documents (85 kB sources in the gold records) can go once it is scored
    release_scored: ClassVar[bool] = True

    def load(
        self, pred: Path, gold: tuple[Path, ...], settings: ExtractionSettings
    ) -> LoadedInputs:
        """Predictions and gold (one file or directory each, or one file holding both)."""
        if len(gold) > 1:
            raise UsageError("extraction takes one gold file or directory")
        pred_raw = record_list(read_records(pred, id_field=settings.id_field))
        gold_raw = (
            record_list(read_records(gold[0], id_field=settings.id_field)) if gold else pred_raw
        )
        source_dir = check_source_dir(settings.source) if settings.source else None
        master = (
            load_master_labels(
                settings.master_labels, settings.master_labels_key, settings.master_labels_columns
            )
            if settings.master_labels
            else {}
        )
        reserved = {
            settings.id_field,
            settings.source_field,
            settings.doc_class_field,
            settings.categories_field,
        }
        # record_list: plain lists, or on the out-of-core path lists on disk (``spooling``)
        golds = record_list(
            gold_record(r, settings, reserved, source_dir, master) for r in gold_raw
        )
        del gold_raw
        preds = record_list(pred_record(r, settings, reserved) for r in pred_raw)
        return LoadedInputs(preds, golds, (pred,), gold or (pred,))

    def prepare(self, loaded: LoadedInputs, settings: ExtractionSettings) -> ExtractionSettings:
        """A JSON Schema named by path is read once, so the run records its content; with the
        embedding rescue on, the embedder that loads (or why none did) is recorded too
        (``embedding_backend``), so a run without the extra is another run (issue 34)."""
        update: dict[str, object] = {}
        if isinstance(settings.json_schema, str):
            update["json_schema"] = load_json_schema(settings.json_schema)
        if settings.embedding_enabled:
            status = load_embedder(settings)[1]
            update["embedding_backend"] = (
                status.reason if status.enabled else f"off: {status.reason}"
            )
        return settings.model_copy(update=update) if update else settings

    def score_item(self, item: Item, settings: ExtractionSettings) -> ItemScore:
        return self.score_batch([item], settings)[0]

    def score_batch(self, items: Sequence[Item], settings: ExtractionSettings) -> list[ItemScore]:
        return score_documents(items, settings)

    def metric_specs(
        self, scores: Sequence[ItemScore], settings: ExtractionSettings
    ) -> list[MetricSpec]:
        return extraction_metric_specs(scores, settings)

    def summaries(
        self, items: Sequence[Item], scores: Sequence[ItemScore], settings: ExtractionSettings
    ) -> dict[str, Any]:
        return self.merge_summaries([self.summarize_block(items, scores, settings)], settings)

    def summarize_block(
        self, items: Sequence[Item], scores: Sequence[ItemScore], settings: ExtractionSettings
    ) -> SummaryPart:
        return summarize_block(items, scores, settings)

    def merge_summaries(self, parts: Sequence[Any], settings: ExtractionSettings) -> dict[str, Any]:
        return merge_summaries(parts, settings)


task = ExtractionTask()
