"""Scholarly-paper metadata suite (seed 002): metrics version 5, cohorts, pass rate, sections;
and the converters that make exports of GROBID's TEI and publishers' JATS.

Every name loads with its module on first use (:mod:`assay._lazy`): scoring imports neither
the converters nor the GROBID client.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from assay._lazy import lazy_exports

if TYPE_CHECKING:
    from assay.suites.biblio._lib.bibr_writer import to_bibr12
    from assay.suites.biblio._lib.convert import ConversionFailure, ConversionReport, convert_dir
    from assay.suites.biblio._lib.dialects import (
        DIALECTS,
        detect,
        read_export,
        read_section_gold,
    )
    from assay.suites.biblio._lib.export import (
        SCHEMA_VERSION,
        ExportError,
        PaperExport,
        export_json_schema,
        paper_id,
        parse_export,
    )
    from assay.suites.biblio._lib.grobid import GrobidRunResult, run_grobid
    from assay.suites.biblio._lib.jats import JATS_CONVERTER, jats_to_export
    from assay.suites.biblio._lib.report import metadata_view, sections_view, write_view
    from assay.suites.biblio._lib.tei import TEI_CONVERTER, TEI_PRODUCER, tei_to_export
    from assay.suites.biblio.metrics import (
        METRICS,
        METRICS_VERSION,
        PRIMARY,
        biblio_metric_specs,
    )
    from assay.suites.biblio.scorer import score_paper
    from assay.suites.biblio.settings import BiblioSettings
    from assay.suites.biblio.task import EXCLUDED_FILES, BiblioTask, task

_MODULES = {
    "assay.suites.biblio._lib.bibr_writer": ("to_bibr12",),
    "assay.suites.biblio._lib.convert": ("ConversionFailure", "ConversionReport", "convert_dir"),
    "assay.suites.biblio._lib.dialects": (
        "DIALECTS",
        "detect",
        "read_export",
        "read_section_gold",
    ),
    "assay.suites.biblio._lib.export": (
        "SCHEMA_VERSION",
        "ExportError",
        "PaperExport",
        "export_json_schema",
        "paper_id",
        "parse_export",
    ),
    "assay.suites.biblio._lib.grobid": ("GrobidRunResult", "run_grobid"),
    "assay.suites.biblio._lib.jats": ("JATS_CONVERTER", "jats_to_export"),
    "assay.suites.biblio._lib.report": ("metadata_view", "sections_view", "write_view"),
    "assay.suites.biblio._lib.tei": ("TEI_CONVERTER", "TEI_PRODUCER", "tei_to_export"),
    "assay.suites.biblio.metrics": ("METRICS", "METRICS_VERSION", "PRIMARY", "biblio_metric_specs"),
    "assay.suites.biblio.scorer": ("score_paper",),
    "assay.suites.biblio.settings": ("BiblioSettings",),
    "assay.suites.biblio.task": ("EXCLUDED_FILES", "BiblioTask", "task"),
}
lazy_exports(__name__, {name: module for module, names in _MODULES.items() for name in names})

__all__ = [
    "DIALECTS",
    "EXCLUDED_FILES",
    "JATS_CONVERTER",
    "METRICS",
    "METRICS_VERSION",
    "PRIMARY",
    "SCHEMA_VERSION",
    "TEI_CONVERTER",
    "TEI_PRODUCER",
    "BiblioSettings",
    "BiblioTask",
    "ConversionFailure",
    "ConversionReport",
    "ExportError",
    "GrobidRunResult",
    "PaperExport",
    "biblio_metric_specs",
    "convert_dir",
    "detect",
    "export_json_schema",
    "jats_to_export",
    "metadata_view",
    "paper_id",
    "parse_export",
    "read_export",
    "read_section_gold",
    "run_grobid",
    "score_paper",
    "sections_view",
    "task",
    "tei_to_export",
    "to_bibr12",
    "write_view",
]
