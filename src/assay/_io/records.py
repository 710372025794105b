"""What the readers yield: a parsed record or a parse failure, each knowing where it came from.

A corrupt record is never dropped: it becomes a `ParseFailure` the caller counts and reports.
"""

from __future__ import annotations

from collections.abc import Collection
from dataclasses import dataclass
from typing import Any, TypeAlias

__all__ = [
    "MODEL_FIELDS",
    "MODEL_PREFIXES",
    "ParseFailure",
    "ReadResult",
    "SourceRecord",
    "gold_part",
]


def _where(file: str, line: int | None) -> str:
    return file if line is None else f"{file}:{line}"


@dataclass(frozen=True, slots=True)
class SourceRecord:
    """One record read from an input file.

    `line` is 1-based for line-oriented formats (JSONL, CSV with the header as line 1, text),
    the 1-based element position for a single JSON file holding a list, and None for a file of
    a JSON directory. `id` is None when the record has no id field; the pairing layer decides.
    """

    id: str | None
    record: dict[str, Any]
    file: str
    line: int | None

    def where(self) -> str:
        """Return "file:line", or "file" when there is no line."""
        return _where(self.file, self.line)


@dataclass(frozen=True, slots=True)
class ParseFailure:
    """A record that could not be read: counted and reported, never skipped silently."""

    file: str
    line: int | None
    reason: str
    id: str | None = None

    def where(self) -> str:
        """Return "file:line", or "file" when there is no line."""
        return _where(self.file, self.line)


ReadResult: TypeAlias = SourceRecord | ParseFailure


#: fields of a combined file (gold and the model's answer in one record) that are the model's,
#: besides a suite's own prediction fields: left out of the gold record
MODEL_FIELDS = frozenset({"confidence", "reasoning", "input_mode", "fallback_reason", "usage"})
#: names starting with these are the model's too (``predicted``, ``predicted_subclass`` …)
MODEL_PREFIXES = ("predicted", "extractor_")


def gold_part(
    result: ReadResult, prediction_fields: Collection[str], keep: Collection[str] = ()
) -> ReadResult:
    """A combined file's record as gold: without ``prediction_fields`` (the suite's), the
    ``MODEL_FIELDS`` and the names starting with ``MODEL_PREFIXES``, but with the suite's gold
    fields ``keep`` whatever their names.

    The per-item gold digest and the surface fingerprint are taken from the gold record, so two
    models' answers to the same rows (two ``--pred rows.csv`` runs) have the same gold and
    compare; with the answer in it, every item's gold would differ. A record holding none of
    them is returned as it is; a parse failure too.
    """
    if not isinstance(result, SourceRecord):
        return result
    record = result.record
    kept = {
        k: v
        for k, v in record.items()
        if k in keep
        or (
            k not in prediction_fields
            and k not in MODEL_FIELDS
            and not k.startswith(MODEL_PREFIXES)
        )
    }
    if len(kept) == len(record):
        return result
    return SourceRecord(result.id, kept, result.file, result.line)
