"""Scholarly-paper metadata suite (seed 002): metrics version 5, cohorts, pass rate, sections."""

from assay.suites.biblio.dialects import DIALECTS, detect, read_export, read_section_gold
from assay.suites.biblio.export import (
    SCHEMA_VERSION,
    ExportError,
    PaperExport,
    export_json_schema,
    paper_id,
    parse_export,
)
from assay.suites.biblio.metrics import METRICS, METRICS_VERSION, PRIMARY
from assay.suites.biblio.settings import BiblioSettings
from assay.suites.biblio.task import EXCLUDED_FILES, BiblioTask

task = BiblioTask()

__all__ = [
    "DIALECTS",
    "EXCLUDED_FILES",
    "METRICS",
    "METRICS_VERSION",
    "PRIMARY",
    "SCHEMA_VERSION",
    "BiblioSettings",
    "BiblioTask",
    "ExportError",
    "PaperExport",
    "detect",
    "export_json_schema",
    "paper_id",
    "parse_export",
    "read_export",
    "read_section_gold",
    "task",
]
