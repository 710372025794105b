"""Read results kept as columns: a file of small records of one shape, without an object each.

A classification file is a million records such as ``{"id": "doc-1", "expected": "memo"}``.
Kept as they were read, each is a ``SourceRecord`` holding a dict (about 400 bytes); spooled to
disk (``core.spill.RecordSpool``), each is pickled once and unpickled when paired, a few
microseconds apiece. `ShapedRecords` keeps a record whose keys are the file's usual ones, in
the usual order, with its id a string under the id field (the *shape*, learned from the first
such record), as its id, its other values, its file and its line: about 100 bytes, in memory.
Every other result (a parse failure, a record of another shape) is kept whole. Indexing gives
back a result equal to the one appended (``SourceRecord`` and ``ParseFailure`` compare by
value; the dict has the same keys in the same order), so the pairing (``core.cohort``) and every
suite hook read it as they read a list.
"""

from __future__ import annotations

from array import array
from collections.abc import Iterable, Iterator, Sequence
from typing import Any, overload

from assay.io.records import ReadResult, SourceRecord

_SOURCE = SourceRecord


class ShapedRecords(Sequence[ReadResult]):
    """Read results of one file (or a few), records of the common shape stored as columns.

    ``id_field`` is the record field holding the id (what the reader turned into
    ``SourceRecord.id``); a record is compact when its id is that field's string value and its
    keys are the shape's. Lines are kept as 64-bit integers (-1: no line, a file of a JSON
    directory).
    """

    def __init__(self, id_field: str, results: Iterable[ReadResult] = ()) -> None:
        self._id_field = id_field
        self._keys: tuple[str, ...] | None = None  # the shape: the record's keys, in order
        self._at_id = 0  # where the id field is among them
        self._ids: list[str | None] = []
        self._values: list[tuple[object, ...] | None] = []  # the record's values, in order
        self._files: list[str | None] = []
        self._lines = array("q")
        self._whole: dict[int, ReadResult] = {}
        self.extend(results)

    def append(self, result: ReadResult) -> None:
        if type(result) is _SOURCE:
            record = result.record
            rid = result.id
            keys = self._keys
            if keys is None and type(rid) is str and record.get(self._id_field) == rid:
                keys = self._keys = tuple(record)
                self._at_id = keys.index(self._id_field)
            if keys is not None and tuple(record) == keys:
                values = tuple(record.values())
                if values[self._at_id] == rid and type(values[self._at_id]) is str:
                    self._ids.append(rid)
                    self._values.append(values)
                    self._files.append(result.file)
                    line = result.line
                    self._lines.append(-1 if line is None else line)
                    return
        self._whole[len(self._ids)] = result
        self._ids.append(None)
        self._values.append(None)
        self._files.append(None)
        self._lines.append(0)

    def extend(self, results: Iterable[ReadResult]) -> None:
        for result in results:
            self.append(result)

    def __len__(self) -> int:
        return len(self._ids)

    def _at(self, index: int) -> ReadResult:
        whole = self._whole.get(index)
        if whole is not None:
            return whole
        values = self._values[index]
        assert values is not None and self._keys is not None
        record = dict(zip(self._keys, values))  # noqa: B905 (one length: the shape's)
        line = self._lines[index]
        return _SOURCE(self._ids[index], record, self._files[index], None if line < 0 else line)  # type: ignore[arg-type]

    @overload
    def __getitem__(self, index: int) -> ReadResult: ...

    @overload
    def __getitem__(self, index: slice) -> list[ReadResult]: ...

    def __getitem__(self, index: int | slice) -> ReadResult | list[ReadResult]:
        n = len(self._ids)
        if type(index) is int and 0 <= index < n:  # the pairing's reads by position
            return self._at(index)
        if isinstance(index, slice):
            return [self._at(i) for i in range(*index.indices(n))]
        if index < 0:
            index += n
        if not 0 <= index < n:
            raise IndexError("record index out of range")
        return self._at(index)

    def __iter__(self) -> Iterator[ReadResult]:
        return map(self._at, range(len(self._ids)))

    def scan(self) -> Iterator[ReadResult | str]:
        """Every result in order, a plain record as its id (the pairing reads no more of it
        in its first pass: ``core.cohort._scan``)."""
        whole = self._whole
        for index, rid in enumerate(self._ids):
            yield whole[index] if rid is None else rid

    def record_at(self, index: int) -> tuple[dict[str, Any], str]:
        """(record, where) of the record ``index`` (``core.cohort``'s pairing: its item)."""
        values = self._values[index]
        if values is None:
            res = self._whole[index]
            assert isinstance(res, SourceRecord)
            return res.record, res.where()
        assert self._keys is not None
        file, line = self._files[index], self._lines[index]
        return dict(zip(self._keys, values)), (file if line < 0 else f"{file}:{line}")  # type: ignore[return-value]  # noqa: B905

    def file_at(self, index: int) -> str:
        """The file of result ``index``."""
        file = self._files[index]
        if file is None:
            return self._whole[index].file
        return file

    def __eq__(self, other: object) -> bool:
        if not isinstance(other, Sequence) or isinstance(other, str | bytes):
            return NotImplemented
        return len(self) == len(other) and all(a == b for a, b in zip(self, other, strict=True))

    __hash__ = None  # type: ignore[assignment]

    def __reduce__(self) -> tuple[object, ...]:
        return (list, (list(self),))

    def __repr__(self) -> str:
        return f"<ShapedRecords of {len(self)} ({len(self._whole)} kept whole)>"


def shaped(results: Iterable[ReadResult], id_field: str | None) -> Sequence[ReadResult]:
    """``results`` as `ShapedRecords` (a list when there is no id field to shape by)."""
    if id_field is None:
        return list(results)
    return ShapedRecords(id_field, results)
