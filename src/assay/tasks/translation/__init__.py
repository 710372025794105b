"""Machine translation suite (seed 001): chrF++, BLEU, TER, exact match and COMET, with CIs and
paired significance tests, on sacrebleu's own per-segment statistics."""

from assay.stats.significance import SignificanceResult
from assay.tasks.translation.api import (
    EntryMismatchError,
    corpus_bleu,
    corpus_chrf,
    corpus_ter,
    exact_match_rate,
    paired_bootstrap,
)
from assay.tasks.translation.comet import CometScorer, CometUnavailable, load_comet
from assay.tasks.translation.entries import EMPTY, Segment, segment_from_entry
from assay.tasks.translation.languages import XLMR_LANGUAGES, in_xlmr, low_resource_warnings
from assay.tasks.translation.settings import TranslationSettings
from assay.tasks.translation.sufficient import (
    CorpusMetric,
    bleu_metric,
    chrf_metric,
    corpus_metrics,
    extract_statistics,
    ter_metric,
)
from assay.tasks.translation.task import TranslationTask

task = TranslationTask()

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
