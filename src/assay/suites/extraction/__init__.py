"""Structured-extraction suite (seed 000 §3, §4, §16).

Every name loads with its module on first use (:mod:`assay._lazy`): ``task`` (the suite's entry
point) imports the scoring, and scoring does not import miss attribution, the judge pass or the
rescue study.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from assay._lazy import lazy_exports

if TYPE_CHECKING:
    from assay.suites.extraction._lib.audit import AUDIT_KEYS, Audit, SourceIndex, audit_items
    from assay.suites.extraction._lib.chunks import (
        MergedExtraction,
        merge_chunks,
        parse_json_object,
    )
    from assay.suites.extraction._lib.diagnostics import r_squared, regression_summary
    from assay.suites.extraction._lib.judge import JudgePass, judge_run
    from assay.suites.extraction._lib.misses import (
        Miss,
        document_misses,
        family_of,
        miss_table,
        recovery,
        run_misses,
    )
    from assay.suites.extraction._lib.rescue_study import StudyRow, rescue_study, study_json
    from assay.suites.extraction._lib.rows import DocumentInput, DocumentScore, score_document
    from assay.suites.extraction.metrics import extraction_metric_specs
    from assay.suites.extraction.scorer import score_documents
    from assay.suites.extraction.settings import DEFAULT_MISS_FAMILIES, ExtractionSettings
    from assay.suites.extraction.task import ExtractionTask, task

_MODULES = {
    "assay.suites.extraction._lib.audit": ("AUDIT_KEYS", "Audit", "SourceIndex", "audit_items"),
    "assay.suites.extraction._lib.chunks": (
        "MergedExtraction",
        "merge_chunks",
        "parse_json_object",
    ),
    "assay.suites.extraction._lib.diagnostics": ("r_squared", "regression_summary"),
    "assay.suites.extraction._lib.judge": ("JudgePass", "judge_run"),
    "assay.suites.extraction._lib.misses": (
        "Miss",
        "document_misses",
        "family_of",
        "miss_table",
        "recovery",
        "run_misses",
    ),
    "assay.suites.extraction._lib.rescue_study": ("StudyRow", "rescue_study", "study_json"),
    "assay.suites.extraction._lib.rows": ("DocumentInput", "DocumentScore", "score_document"),
    "assay.suites.extraction.metrics": ("extraction_metric_specs",),
    "assay.suites.extraction.scorer": ("score_documents",),
    "assay.suites.extraction.settings": ("DEFAULT_MISS_FAMILIES", "ExtractionSettings"),
    "assay.suites.extraction.task": ("ExtractionTask", "task"),
}
lazy_exports(__name__, {name: module for module, names in _MODULES.items() for name in names})

__all__ = [
    "AUDIT_KEYS",
    "DEFAULT_MISS_FAMILIES",
    "Audit",
    "DocumentInput",
    "DocumentScore",
    "ExtractionSettings",
    "ExtractionTask",
    "JudgePass",
    "MergedExtraction",
    "Miss",
    "SourceIndex",
    "StudyRow",
    "audit_items",
    "document_misses",
    "extraction_metric_specs",
    "family_of",
    "judge_run",
    "merge_chunks",
    "miss_table",
    "parse_json_object",
    "r_squared",
    "recovery",
    "regression_summary",
    "rescue_study",
    "run_misses",
    "score_document",
    "score_documents",
    "study_json",
    "task",
]
