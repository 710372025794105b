"""Readers for prediction and gold files: records, parse failures and id lists."""

from assay.io.idlists import read_expected_ids, read_ids_file
from assay.io.readers import (
    RecordFormat,
    read_csv,
    read_json_dir,
    read_jsonl,
    read_records,
    read_text_lines,
)
from assay.io.records import ParseFailure, ReadResult, SourceRecord

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
