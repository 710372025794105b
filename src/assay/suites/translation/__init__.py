"""Machine translation suite (seed 001): chrF++, BLEU, TER, exact match and COMET, with CIs and
paired significance tests, on sacrebleu's per-segment statistics (sacrebleu itself is imported
only for the options assay does not implement: :mod:`assay.metrics.corpus.options`). Docs:
``docs.md`` beside this file; the command group is ``assay mt`` (:mod:`assay._cli.mt`).

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
    from assay.suites.translation._lib.api import (
        EntryMismatchError,
        corpus_bleu,
        corpus_chrf,
        corpus_ter,
        exact_match_rate,
        paired_bootstrap,
    )
    from assay.suites.translation._lib.comet import CometScorer, CometUnavailable, load_comet
    from assay.suites.translation._lib.entries import EMPTY, Segment, segment_from_entry
    from assay.suites.translation._lib.inputs import report_schema
    from assay.suites.translation._lib.languages import (
        XLMR_LANGUAGES,
        in_xlmr,
        low_resource_warnings,
    )
    from assay.suites.translation._lib.systems import (
        SystemsComparison,
        compare_systems,
        score_text_systems,
    )
    from assay.suites.translation.settings import TranslationSettings
    from assay.suites.translation.task import TranslationTask, task

_MODULES = {
    "assay.stats.significance": ("SignificanceResult",),
    "assay.suites.translation._lib.api": (
        "EntryMismatchError",
        "corpus_bleu",
        "corpus_chrf",
        "corpus_ter",
        "exact_match_rate",
        "paired_bootstrap",
    ),
    "assay.suites.translation._lib.comet": ("CometScorer", "CometUnavailable", "load_comet"),
    "assay.suites.translation._lib.entries": ("EMPTY", "Segment", "segment_from_entry"),
    "assay.suites.translation._lib.inputs": ("report_schema",),
    "assay.suites.translation._lib.languages": (
        "XLMR_LANGUAGES",
        "in_xlmr",
        "low_resource_warnings",
    ),
    # `assay mt sacrebleu`: plain-text systems against references, sacrebleu's multi-system test
    "assay.suites.translation._lib.systems": (
        "SystemsComparison",
        "compare_systems",
        "score_text_systems",
    ),
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
    "SystemsComparison",
    "TranslationSettings",
    "TranslationTask",
    "bleu_metric",
    "chrf_metric",
    "compare_systems",
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
    "report_schema",
    "score_text_systems",
    "segment_from_entry",
    "task",
    "ter_metric",
]
