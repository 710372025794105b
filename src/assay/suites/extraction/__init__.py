"""Structured-extraction suite (seed 000 §3, §4, §16).

``task`` (the suite's entry point) is built on import; the other names load with their module
on first use (:mod:`assay._lazy`), so scoring does not import miss attribution.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from assay._lazy import lazy_exports
from assay.suites.extraction.task import ExtractionTask

if TYPE_CHECKING:
    from assay.suites.extraction.audit import AUDIT_KEYS, Audit, SourceIndex, audit_items
    from assay.suites.extraction.chunks import MergedExtraction, merge_chunks, parse_json_object
    from assay.suites.extraction.diagnostics import r_squared, regression_summary
    from assay.suites.extraction.misses import (
        Miss,
        document_misses,
        family_of,
        recovery,
        run_misses,
    )
    from assay.suites.extraction.rows import DocumentInput, DocumentScore, score_document
    from assay.suites.extraction.settings import DEFAULT_MISS_FAMILIES, ExtractionSettings

_MODULES = {
    "assay.suites.extraction.audit": ("AUDIT_KEYS", "Audit", "SourceIndex", "audit_items"),
    "assay.suites.extraction.chunks": ("MergedExtraction", "merge_chunks", "parse_json_object"),
    "assay.suites.extraction.diagnostics": ("r_squared", "regression_summary"),
    "assay.suites.extraction.misses": (
        "Miss",
        "document_misses",
        "family_of",
        "recovery",
        "run_misses",
    ),
    "assay.suites.extraction.rows": ("DocumentInput", "DocumentScore", "score_document"),
    "assay.suites.extraction.settings": ("DEFAULT_MISS_FAMILIES", "ExtractionSettings"),
}
lazy_exports(__name__, {name: module for module, names in _MODULES.items() for name in names})

task = ExtractionTask()

__all__ = [
    "AUDIT_KEYS",
    "DEFAULT_MISS_FAMILIES",
    "Audit",
    "DocumentInput",
    "DocumentScore",
    "ExtractionSettings",
    "ExtractionTask",
    "MergedExtraction",
    "Miss",
    "SourceIndex",
    "audit_items",
    "document_misses",
    "family_of",
    "merge_chunks",
    "parse_json_object",
    "r_squared",
    "recovery",
    "regression_summary",
    "run_misses",
    "score_document",
    "task",
]
