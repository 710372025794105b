"""What the readers yield: a parsed record or a parse failure, each knowing where it came from.

A corrupt record is never dropped: it becomes a `ParseFailure` the caller counts and reports.
"""

from __future__ import annotations

from collections.abc import Collection, Iterable, Mapping
from dataclasses import dataclass
from difflib import get_close_matches
from functools import lru_cache
from typing import Any, TypeAlias

__all__ = [
    "MODEL_FIELDS",
    "MODEL_PREFIXES",
    "ParseFailure",
    "ReadResult",
    "SourceRecord",
    "did_you_mean",
    "gold_part",
    "missing_field",
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


#: field names shown when none is close to the one asked for
_SHOWN_FIELDS = 8


def did_you_mean(name: str, known: Iterable[str], *, what: str = "fields") -> str:
    """ " (did you mean 'x'?)" for the known name nearest ``name`` (case aside, then by
    ``difflib``), else " (WHAT: a, b, c)" listing them; "" when there are none."""
    return _suggestion(name, tuple(known), what)


@lru_cache(maxsize=256)
def _suggestion(name: str, known: tuple[str, ...], what: str) -> str:
    if not known:
        return ""
    folded = {k.casefold(): k for k in known}
    close = folded.get(name.casefold())
    if close is None:
        found = get_close_matches(name, known, n=1, cutoff=0.6)
        close = found[0] if found else None
    if close is not None and close != name:
        return f" (did you mean {close!r}?)"
    shown = ", ".join(known[:_SHOWN_FIELDS]) + (", …" if len(known) > _SHOWN_FIELDS else "")
    return f" ({what}: {shown})"


def missing_field(role: str, field: str, record: Mapping[str, Any]) -> str:
    """The reason a record lacks ``field``: "ROLE record has no field 'x'", with the record's
    nearest field name ("did you mean 'expected'?") or the fields it has."""
    return f"{role} record has no field {field!r}" + did_you_mean(
        field, [k for k in record if isinstance(k, str)], what="its fields"
    )
