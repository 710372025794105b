"""The cohort's pairing (seed 002): a prediction pairs with the gold paper of its normalized DOI,
else with the gold paper of its file name."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from assay._engine.task import KeyFunction
from assay._io.records import ReadResult, SourceRecord
from assay.suites.biblio._lib.dialects import source_file_stem
from assay.suites.biblio._lib.normalize import normalize_doi

#: gold paper ids by normalized DOI, and by lower-cased paper id or ``source.file_name`` stem
Index = dict[str, tuple[str, ...]]


def record_doi(record: dict[str, Any]) -> str:
    """The normalized DOI of an export record ("" when it has none or is malformed)."""
    block = record.get("metadata", record.get("info"))
    if isinstance(block, dict) and isinstance(block.get("doi"), str):
        return normalize_doi(block["doi"])
    return ""


def gold_indexes(gold: Sequence[ReadResult]) -> tuple[Index, Index]:
    """The gold papers indexed by normalized DOI and by the stem of their file name (their
    paper id, and the stem of their ``source.file_name``), lower-cased."""
    index: dict[str, list[str]] = {}
    files: dict[str, list[str]] = {}
    for res in gold:
        if isinstance(res, SourceRecord) and res.id:
            doi = record_doi(res.record)
            if doi:
                index.setdefault(doi, []).append(res.id)
            for stem in {res.id, source_file_stem(res.record)}:
                if stem:
                    files.setdefault(stem.lower(), []).append(res.id)
    return (
        {k: tuple(v) for k, v in index.items()},
        {k: tuple(dict.fromkeys(v)) for k, v in files.items()},
    )


def gold_key(index: Index, files: Index) -> KeyFunction:
    """The gold paper of the prediction's normalized DOI; else the gold paper of the
    prediction's file name: its paper id (file stem), then the stem of its
    ``source.file_name`` (bibr's filename key), each matched against gold ids and gold
    ``source.file_name`` stems, case-insensitively.

    When several gold papers share the DOI, the one with the prediction's own id wins,
    else the filename decides. A prediction matching nothing keeps its own id (unmatched).
    """

    def key(record: SourceRecord) -> str | None:
        ids = index.get(record_doi(record.record), ())
        if len(ids) == 1 and record.id not in ids:
            return ids[0]
        if record.id in ids:
            return record.id
        for stem in (record.id, source_file_stem(record.record)):
            found = files.get(stem.lower(), ()) if stem else ()
            if len(found) == 1:
                return found[0]
            if record.id in found:
                return record.id
        return record.id

    return key
