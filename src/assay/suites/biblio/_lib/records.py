"""Export records read once: each results or gold file is validated when the inputs are read
(``validated``), and scoring takes the validated export back from that read (``export_of``)
instead of parsing the record again."""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from pathlib import Path
from typing import Any

from assay._io.records import ParseFailure, ReadResult, SourceRecord
from assay.suites.biblio._lib.dialects import read_export, read_section_gold
from assay.suites.biblio._lib.export import ExportError, PaperExport, paper_id

#: exports validated by ``load``, keyed by the id of their record dict, so a single-process run
#: validates each file once; the identity check makes a stale or foreign entry a plain miss
_PARSED: dict[int, tuple[dict[str, Any], str, PaperExport]] = {}


def forget_exports() -> None:
    """Empty the cache of validated exports (a new run's inputs are being read)."""
    _PARSED.clear()


def read_cached(record: dict[str, Any], *, section_gold: bool = False) -> tuple[str, PaperExport]:
    """(dialect, validated export) of a record, from load's cache when it is the same object."""
    hit = _PARSED.get(id(record))
    if hit is not None and hit[0] is record:
        return hit[1], hit[2]
    return read_section_gold(record) if section_gold else read_export(record)


def export_of(record: dict[str, Any], *, section_gold: bool = False) -> PaperExport:
    """The validated export of a record (``read_cached`` without the dialect)."""
    return read_cached(record, section_gold=section_gold)[1]


def validated(
    results: Iterable[ReadResult], role: str, *, section_gold: bool = False
) -> list[ReadResult]:
    """Records keyed by paper id; an export that does not validate (unknown schema, a required
    block absent, a field of the wrong type) is a failure naming the file and the key.

    Section gold is keyed by its ``paper_id`` when it has one (bibr joins on it), else by the
    file stem."""
    out: list[ReadResult] = []
    for res in results:
        if isinstance(res, ParseFailure):
            pid = paper_id(res.id) if res.id else None
            out.append(ParseFailure(res.file, res.line, res.reason, pid))
            continue
        pid = paper_id(res.id) if res.id else res.id
        try:
            if section_gold:
                dialect, export = read_section_gold(res.record)
                own = res.record.get("paper_id")
                pid = own if isinstance(own, str) and own.strip() else pid
            else:
                dialect, export = read_export(res.record)
        except ExportError as err:
            out.append(ParseFailure(res.file, res.line, f"{role} export: {err}", pid))
            continue
        _PARSED[id(res.record)] = (res.record, dialect, export)
        out.append(SourceRecord(pid, res.record, res.file, res.line))
    return out


def source_files(results: Sequence[ReadResult]) -> tuple[Path, ...]:
    """The files the records were read from, sorted, each once."""
    return tuple(sorted({Path(r.file) for r in results}))
