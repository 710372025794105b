"""Machine translation suite (seed 001): chrF++, BLEU, TER, exact match and COMET, with CIs and
paired significance tests, on sacrebleu's per-segment statistics (sacrebleu itself is imported
only for the options assay does not implement: :mod:`assay.metrics.corpus.options`).

The names below load with their module on first use (:mod:`assay._lazy`), so ``assay mt
sacrebleu`` imports the statistics it runs, not the suite's task, settings model or COMET.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from assay._lazy import lazy_exports

if TYPE_CHECKING:
    from assay.metrics.corpus.sufficient import (
        CorpusMetric,
        bleu_metric,
        chrf_metric,
        corpus_metrics,
        extract_statistics,
        ter_metric,
    )
    from assay.stats.significance import SignificanceResult
    from assay.suites.translation.api import (
        EntryMismatchError,
        corpus_bleu,
        corpus_chrf,
        corpus_ter,
        exact_match_rate,
        paired_bootstrap,
    )
    from assay.suites.translation.comet import CometScorer, CometUnavailable, load_comet
    from assay.suites.translation.entries import EMPTY, Segment, segment_from_entry
    from assay.suites.translation.languages import XLMR_LANGUAGES, in_xlmr, low_resource_warnings
    from assay.suites.translation.settings import TranslationSettings
    from assay.suites.translation.task import TranslationTask, task

_MODULES = {
    "assay.stats.significance": ("SignificanceResult",),
    "assay.suites.translation.api": (
        "EntryMismatchError",
        "corpus_bleu",
        "corpus_chrf",
        "corpus_ter",
        "exact_match_rate",
        "paired_bootstrap",
    ),
    "assay.suites.translation.comet": ("CometScorer", "CometUnavailable", "load_comet"),
    "assay.suites.translation.entries": ("EMPTY", "Segment", "segment_from_entry"),
    "assay.suites.translation.languages": ("XLMR_LANGUAGES", "in_xlmr", "low_resource_warnings"),
    "assay.suites.translation.settings": ("TranslationSettings",),
    "assay.metrics.corpus.sufficient": (
        "CorpusMetric",
        "bleu_metric",
        "chrf_metric",
        "corpus_metrics",
        "extract_statistics",
        "ter_metric",
    ),
    # `task` (the suite's one instance, the assay.tasks entry point) shares its module's name
    "assay.suites.translation.task": ("TranslationTask", "task"),
}
lazy_exports(__name__, {name: module for module, names in _MODULES.items() for name in names})

__all__ = [
    "EMPTY",
    "XLMR_LANGUAGES",
    "CometScorer",
    "CometUnavailable",
    "CorpusMetric",
    "EntryMismatchError",
    "Segment",
    "SignificanceResult",
    "TranslationSettings",
    "TranslationTask",
    "bleu_metric",
    "chrf_metric",
    "corpus_bleu",
    "corpus_chrf",
    "corpus_metrics",
    "corpus_ter",
    "exact_match_rate",
    "extract_statistics",
    "in_xlmr",
    "load_comet",
    "low_resource_warnings",
    "paired_bootstrap",
    "segment_from_entry",
    "task",
    "ter_metric",
]
