"""Adapters from other tools' formats to assay's: JATS and GROBID TEI to the paper export, and
a GROBID HTTP runner. XML is parsed with DTDs, entities and the network off."""

from assay.adapters.convert import ConversionFailure, ConversionReport, convert_dir, find_files
from assay.adapters.grobid import (
    ENDPOINT,
    REQUEST_PARAMS,
    GrobidRunResult,
    ResumeRefused,
    grobid_version,
    run_grobid,
)
from assay.adapters.jats import jats_to_export
from assay.adapters.tei import tei_to_export
from assay.adapters.xml import XmlError, parse_xml, text_of

__all__ = [
    "ENDPOINT",
    "REQUEST_PARAMS",
    "ConversionFailure",
    "ConversionReport",
    "GrobidRunResult",
    "ResumeRefused",
    "XmlError",
    "convert_dir",
    "find_files",
    "grobid_version",
    "jats_to_export",
    "parse_xml",
    "run_grobid",
    "tei_to_export",
    "text_of",
]
