"""The biblio suite (seed 002): scholarly-paper metadata scored against gold exports.

Cohort: a prediction pairs with the gold paper of its normalized DOI, else with the gold file
of the same paper id (file stem). Missing and failed papers score 0 on the pass-rate floor
metrics and fail the pass rate; unmatched predictions are listed and left out.

The flow: ``load`` validates every export once (``_lib/records.py``); ``prepare`` indexes the
gold papers for the pairing (``_lib/pairing.py``); each paper is scored into its row
(``scorer.py``); the run's metrics are the specs of ``metrics.py`` and its summaries those of
``summaries.py``.
"""

from __future__ import annotations

from collections.abc import Sequence
from pathlib import Path
from typing import Any, ClassVar

from assay._engine.item import Item
from assay._engine.task import ItemScore, KeyFunction, LoadedInputs, Task
from assay._io.readers import read_json_dir
from assay._io.records import ReadResult
from assay.errors import UsageError
from assay.metrics.spec import MetricSpec
from assay.suites.biblio._lib.pairing import gold_indexes, gold_key
from assay.suites.biblio._lib.records import forget_exports, source_files, validated
from assay.suites.biblio.metrics import METRICS_VERSION, biblio_metric_specs
from assay.suites.biblio.scorer import score_paper
from assay.suites.biblio.settings import BiblioSettings
from assay.suites.biblio.summaries import biblio_summaries

#: files of a results directory that are never scored (a batch's own records)
EXCLUDED_FILES = frozenset({"run_info.json", "validation_report.json"})
SECTION_GOLD = ".sectiongold.json"


class BiblioTask(Task[BiblioSettings]):
    """Paper metadata and references (metrics version 5), or section text (mode sections)."""

    name: ClassVar[str] = "biblio"
    description: ClassVar[str] = (
        "scholarly-paper metadata: title, DOI, abstract, authors, references, section text"
    )
    metrics_version: ClassVar[int] = METRICS_VERSION
    settings_model = BiblioSettings

    def load(self, pred: Path, gold: tuple[Path, ...], settings: BiblioSettings) -> LoadedInputs:
        """Every ``*.json`` of the results dir but run_info.json and validation_report.json;
        gold exports (or ``*.sectiongold.json`` in sections mode) from every gold dir."""
        forget_exports()
        if not gold:
            raise UsageError("biblio needs at least one gold directory (--gold-dirs / --gold)")
        preds = validated(read_json_dir(pred, id_field=None, exclude=EXCLUDED_FILES), "prediction")
        golds: list[ReadResult] = []
        for g in gold:
            if settings.mode == "sections":
                found = read_json_dir(g, id_field=None, pattern="*" + SECTION_GOLD)
            else:
                found = (
                    r
                    for r in read_json_dir(g, id_field=None, exclude=EXCLUDED_FILES)
                    if not r.file.endswith(SECTION_GOLD)
                )
            golds += validated(found, "gold", section_gold=settings.mode == "sections")
        return LoadedInputs(preds, golds, source_files(preds), source_files(golds))

    def prepare(self, loaded: LoadedInputs, settings: BiblioSettings) -> BiblioSettings:
        """Index the gold papers by normalized DOI and by the stem of their
        ``source.file_name`` for the cohort's pairing."""
        prepared = settings.model_copy()
        prepared._doi_index, prepared._file_index = gold_indexes(loaded.gold)
        return prepared

    def cohort_from_predictions(self, settings: BiblioSettings) -> bool:
        """Seed 002, metadata mode: the cohort is the predictions that match gold, and
        --expected-ids adds the expected papers without a prediction (0 on the floors), never
        restricts. Section text is scored per gold artifact (a gold paper without a prediction
        is missing), as bibr's section mode does."""
        return settings.mode == "metadata"

    def pred_key(self, settings: BiblioSettings) -> KeyFunction:
        """The gold paper of the prediction's DOI, else of its file name (``gold_key``)."""
        return gold_key(settings._doi_index, settings._file_index)

    def score_item(self, item: Item, settings: BiblioSettings) -> ItemScore:
        return score_paper(item, settings)

    def metric_specs(
        self, scores: Sequence[ItemScore], settings: BiblioSettings
    ) -> list[MetricSpec]:
        return biblio_metric_specs(scores, settings)

    def summaries(
        self, items: Sequence[Item], scores: Sequence[ItemScore], settings: BiblioSettings
    ) -> dict[str, Any]:
        return biblio_summaries(items, scores, settings)


task = BiblioTask()
