"""Structured-extraction suite (seed 000 §3, §4, §16)."""

from assay.tasks.extraction.audit import AUDIT_KEYS, Audit, SourceIndex, audit_items
from assay.tasks.extraction.chunks import MergedExtraction, merge_chunks, parse_json_object
from assay.tasks.extraction.diagnostics import r_squared, regression_summary
from assay.tasks.extraction.misses import Miss, document_misses, family_of, recovery, run_misses
from assay.tasks.extraction.rows import DocumentInput, DocumentScore, score_document
from assay.tasks.extraction.settings import DEFAULT_MISS_FAMILIES, ExtractionSettings
from assay.tasks.extraction.task import ExtractionTask

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
