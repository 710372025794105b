"""Pairing keys: how a record names the item it belongs to.

The default key is the record's id. Papers are paired by normalized DOI, falling back to the
file name when a record has no DOI (seed 002's cohort rule).
"""

from __future__ import annotations

import re
from pathlib import Path
from urllib.parse import unquote

from assay.io.records import SourceRecord

_DOI_PREFIX = re.compile(r"^(?:https?://(?:dx\.)?doi\.org/|doi:\s*|urn:doi:)", re.IGNORECASE)
_DOI_SHAPE = re.compile(r"^10\.\d{4,9}/\S+$")


def normalize_doi(value: object) -> str | None:
    """Canonical DOI: resolver prefixes and ``doi:`` stripped, URL-decoded, lowercased,
    trailing punctuation removed; None when the value is not DOI-shaped (``10.NNNN/...``)."""
    if not isinstance(value, str):
        return None
    doi = unquote(value.strip())
    doi = _DOI_PREFIX.sub("", doi).strip().rstrip(".,;)").lower()
    return doi if _DOI_SHAPE.match(doi) else None


def record_id_key(record: SourceRecord) -> str | None:
    """The record's own id (the default pairing key)."""
    return record.id


def doi_or_filename_key(record: SourceRecord, doi_field: str = "doi") -> str | None:
    """Normalized DOI from ``doi_field`` (dotted path allowed, e.g. ``metadata.doi``), else the
    record's file stem (``paper.tei.json`` → ``paper``)."""
    value: object = record.record
    for part in doi_field.split("."):
        value = value.get(part) if isinstance(value, dict) else None
    doi = normalize_doi(value)
    if doi is not None:
        return doi
    name = Path(record.file).name
    return name.split(".", 1)[0] if name else record.id
