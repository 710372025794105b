"""Pairing keys: how a record names the item it belongs to.

The default key is the record's id. Papers are paired by normalized DOI, falling back to the
file name when a record has no DOI (seed 002's cohort rule).
"""

from __future__ import annotations

import re
from pathlib import Path
from urllib.parse import unquote

from assay._io.records import SourceRecord

_DOI_PREFIX = re.compile(r"^(?:https?://(?:dx\.)?doi\.org/|doi:\s*|urn:doi:)", re.IGNORECASE)
_DOI_BODY = re.compile(r"10\.\d{4,9}/\S+")


def normalize_doi(value: object) -> str | None:
    """Canonical DOI: the first ``10.NNNN/...`` body in the text, resolver prefixes and ``doi:``
    stripped, URL-decoded, lowercased, trailing punctuation removed; None when there is none
    (also when nothing but punctuation follows the slash).

    ``https://doi.org/10.1000/ABC.`` → ``10.1000/abc``.
    """
    if not isinstance(value, str) or not value.strip():
        return None
    text = _DOI_PREFIX.sub("", unquote(value.strip()))
    match = _DOI_BODY.search(text)
    if not match:
        return None
    doi = match.group(0).rstrip(".,;:)]}>\"'").lower()
    return doi if doi.partition("/")[2] else None  # "10.1000/." is a prefix with no DOI after it


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
