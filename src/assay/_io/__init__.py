"""Readers for prediction and gold files: records, parse failures and id lists.

Names load on first use (``assay._lazy``): a module importing ``assay._io.listlike`` or
``assay._io.records`` does not pull in the readers.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from assay._lazy import lazy_exports

if TYPE_CHECKING:
    from assay._io.idlists import read_expected_ids, read_ids_file
    from assay._io.readers import (
        RecordFormat,
        read_csv,
        read_json_dir,
        read_jsonl,
        read_records,
        read_text_lines,
    )
    from assay._io.records import ParseFailure, ReadResult, SourceRecord

_MODULES = {
    "assay._io.idlists": ("read_expected_ids", "read_ids_file"),
    "assay._io.readers": (
        "RecordFormat",
        "read_csv",
        "read_json_dir",
        "read_jsonl",
        "read_records",
        "read_text_lines",
    ),
    "assay._io.records": ("ParseFailure", "ReadResult", "SourceRecord"),
}
lazy_exports(__name__, {name: module for module, names in _MODULES.items() for name in names})

__all__ = [
    "ParseFailure",
    "ReadResult",
    "RecordFormat",
    "SourceRecord",
    "read_csv",
    "read_expected_ids",
    "read_ids_file",
    "read_json_dir",
    "read_jsonl",
    "read_records",
    "read_text_lines",
]
