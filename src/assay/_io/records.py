"""What the readers yield: a parsed record or a parse failure, each knowing where it came from.

A corrupt record is never dropped: it becomes a `ParseFailure` the caller counts and reports.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any, TypeAlias

__all__ = ["ParseFailure", "ReadResult", "SourceRecord"]


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
