"""The artifact's per-item members of a scored run: its item records and its statistics rows.

Both are made from what scoring produced (the items, their scores and gold digests; the N × K
table) by the functions here, for a run scored in memory and out of core alike. In memory they
are made when read (`ScoredRecords`, `StatsRows`), not kept beside the items, scores and table
they come from: a 2,000-segment translation run held 1.7 KB of validated record (a pydantic
model with its dict, its fields set and copies of the score's dicts) and 43 Python numbers per
segment, ~5 MiB of its ~15 MiB of scoring data, until its artifact was written. Out of core the
record lines go to a spill file as each batch is scored (``_engine/outofcore.py``).
"""

from __future__ import annotations

from collections.abc import Iterator, Mapping, Sequence
from json.encoder import encode_basestring as _json_string  # C: a str as JSON, non-ASCII kept
from typing import Any, overload

from pydantic_core import PydanticSerializationError, to_json

from assay._engine.item import Item
from assay._engine.run import ItemRecord, item_line
from assay._engine.spill import StatsRows
from assay._engine.task import SCORE_ERROR, ItemScore, item_outcome
from assay._io.listlike import ListLike
from assay.metrics.table import StatsTable

#: item records encoded per call of ``record_lines`` when a run scored in memory is written
RECORD_BLOCK = 256

_NONE = type(None)
#: the types ``record_line`` writes without validation (checked over a whole dict in C)
_STR = frozenset({str})
_FLOAT_OR_NONE = frozenset({float, _NONE})


def record_fields(item: Item, s: ItemScore, gold_sha256: str) -> dict[str, Any]:
    """The fields of ``item``'s artifact record (status and error by ``item_outcome``), in
    ``ItemRecord``'s order, those at their default left out (as ``item_line`` writes them)."""
    status, error = item_outcome(item, s)
    fields: dict[str, Any] = {"id": item.id, "status": status, "gold_sha256": gold_sha256}
    if item.source is not None:
        fields["source"] = item.source
    if error is not None:
        fields["error"] = error
    if s.scores:
        fields["scores"] = dict(s.scores)
    if s.flags:
        fields["flags"] = list(s.flags)
    if s.details:
        fields["details"] = dict(s.details)
    return fields


def item_record(item: Item, s: ItemScore, gold_sha256: str) -> ItemRecord:
    """The artifact's record of ``item`` scored ``s`` (validated: an int score becomes a float)."""
    return ItemRecord(**record_fields(item, s, gold_sha256))


def record_line(item: Item, s: ItemScore, gold_sha256: str) -> tuple[str, bytes]:
    """(status, ``item_line(item_record(...))``): ``record_lines`` of one item."""
    statuses, lines = record_lines((item,), (s,), (gold_sha256,))
    return statuses[0], lines[0]


def record_lines(
    items: Sequence[Item], scores: Sequence[ItemScore], gold_sha256: Sequence[str]
) -> tuple[list[str], list[bytes]]:
    """Per item, (status, ``item_line(item_record(item, score, digest))``).

    A line is written straight when each field already has the type validation would give
    (strings, float or None scores, string keys: validating would change nothing): its head
    (id, status, digest, source, error) with json's C string encoder, which escapes exactly
    as pydantic-core does (``"``, ``\\``, the C0 controls as ``\\b \\t \\n \\f \\r`` or
    ``\\u00xx``; the rest as UTF-8), and its end (scores, flags, details) by pydantic-core's
    encoder, the one ``item_line`` uses (non-finite floats as null), once per score object.
    Anything else (another type, a lone surrogate) goes through the validated record."""
    #: id(score) -> (its line's end, b"" when not plain; whether its scoring raised, which
    #: makes ``item_outcome`` differ from the item's own status and error); scores alive
    derived: dict[int, tuple[bytes, bool]] = {}
    statuses: list[str] = []
    lines: list[bytes] = []
    for item, s, digest in zip(items, scores, gold_sha256, strict=True):
        got = derived.get(id(s))
        if got is None:
            got = derived[id(s)] = (_tail(s), SCORE_ERROR in s.flags)
        tail, raised = got
        outcome, error = item_outcome(item, s) if raised else (item.status, item.error)
        line = _head(item.id, outcome, digest, item.source, error) if tail else None
        status: str = outcome
        if line is None:
            status, line = _validated_line(item, s, digest)
        else:
            line += tail
        statuses.append(status)
        lines.append(line)
    return statuses, lines


_STATUSES = frozenset({"ok", "missing", "failed"})


def _head(id: object, status: str, digest: object, source: object, error: object) -> bytes | None:
    """The start of a record line, up to its score's fields; None unless every field is a
    plain string (source and error may be None) encodable as UTF-8."""
    if (
        type(id) is not str
        or type(digest) is not str
        or status not in _STATUSES
        or not (source is None or type(source) is str)
        or not (error is None or type(error) is str)
    ):
        return None
    head = '{"id":' + _json_string(id) + ',"status":"' + status + '","gold_sha256":'
    head += _json_string(digest)
    if source is not None:
        head += ',"source":' + _json_string(source)
    if error is not None:
        head += ',"error":' + _json_string(error)
    try:
        return head.encode("utf-8")
    except UnicodeEncodeError:  # a lone surrogate: the validated record says what to do
        return None


def _tail(s: ItemScore) -> bytes:
    """The end of a record line from its score (``record_fields``' last three fields and the
    closing brace); b"" when a field is not of the type validation would give."""
    scores, flags, details = s.scores, s.flags, s.details
    plain = (
        _STR.issuperset(map(type, scores))
        and _FLOAT_OR_NONE.issuperset(map(type, scores.values()))
        and _STR.issuperset(map(type, flags))
        and _STR.issuperset(map(type, details))
    )
    if not plain:
        return b""
    part: dict[str, Any] = {}
    if scores:
        part["scores"] = dict(scores)
    if flags:
        part["flags"] = list(flags)
    if details:
        part["details"] = dict(details)
    if not part:
        return b"}"
    try:
        return b"," + to_json(part, inf_nan_mode="null")[1:]
    except PydanticSerializationError:  # a lone surrogate: the validated record writes it
        return b""


def _validated_line(item: Item, s: ItemScore, gold_sha256: str) -> tuple[str, bytes]:
    record = item_record(item, s, gold_sha256)
    return record.status, item_line(record)


class ScoredRecords(ListLike[ItemRecord]):
    """The item records of a run scored in memory, made from its items, scores and gold
    digests when read: ``item_record`` per element (validated, a new record at each access),
    ``record_lines`` a block at a time for the artifact (``raw``), as a spilled run's records
    are read from their file. Read-only: a record changed after it is read is not kept."""

    def __init__(
        self, items: Sequence[Item], scores: Sequence[ItemScore], gold_sha256: Mapping[str, str]
    ) -> None:
        if len(items) != len(scores):
            raise ValueError(f"{len(items)} items but {len(scores)} scores")
        self._items = items
        self._scores = scores
        self._digests = gold_sha256

    def __len__(self) -> int:
        return len(self._items)

    @overload
    def __getitem__(self, index: int) -> ItemRecord: ...

    @overload
    def __getitem__(self, index: slice) -> list[ItemRecord]: ...

    def __getitem__(self, index: int | slice) -> ItemRecord | list[ItemRecord]:
        if isinstance(index, slice):
            return [self[i] for i in range(*index.indices(len(self)))]
        item = self._items[index]
        return item_record(item, self._scores[index], self._digests[item.id])

    def __iter__(self) -> Iterator[ItemRecord]:
        for item, s in zip(self._items, self._scores, strict=True):
            yield item_record(item, s, self._digests[item.id])

    def raw(self) -> Iterator[bytes]:
        """The records as the artifact writes them (``item_line``), RECORD_BLOCK at a time."""
        for lo in range(0, len(self), RECORD_BLOCK):
            items = self._items[lo : lo + RECORD_BLOCK]
            digests = [self._digests[item.id] for item in items]
            yield from record_lines(items, self._scores[lo : lo + RECORD_BLOCK], digests)[1]

    def raw_at(self, index: int) -> bytes:
        """Record ``index`` as the artifact writes it."""
        item = self._items[index]
        return record_line(item, self._scores[index], self._digests[item.id])[1]

    def __repr__(self) -> str:
        return f"<{type(self).__name__} of {len(self)} scored in memory>"


def stats_member(table: StatsTable, ids: Sequence[str] | None = None) -> dict[str, Any]:
    """The artifact's ``stats``: ``StatsTable.to_json()`` with the rows produced on demand
    (`StatsRows`); ``ids`` when the caller already holds them as a list."""
    return {
        "ids": list(table.ids) if ids is None else ids,
        "columns": list(table.columns),
        "values": StatsRows(table.values),
    }
