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

from assay._io.listlike import ListLike
from assay._io.records import ReadResult, SourceRecord

_SOURCE = SourceRecord
#: label-like values up to this long are shared between records, up to this many distinct ones
_SHARED_CHARS = 64
_SHARED_MAX = 1 << 16


class ShapedRecords(ListLike[ReadResult]):
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
        #: per record its values but the id: the value itself for a shape of two keys (a
        #: short string one shared with the equal ones before it), else their tuple
        self._values: list[object] = []
        self._single = False
        self._shared: dict[str, str] = {}
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
                self._single = len(keys) == 2
            if keys is not None and tuple(record) == keys:
                values = tuple(record.values())
                k = self._at_id
                if values[k] == rid and type(values[k]) is str:
                    if self._single:
                        value = values[1 - k]
                        if type(value) is str and len(value) <= _SHARED_CHARS:
                            shared = self._shared.get(value)
                            if shared is not None:
                                value = shared
                            elif len(self._shared) < _SHARED_MAX:
                                self._shared[value] = value
                        self._values.append(value)
                    else:
                        self._values.append(values[:k] + values[k + 1 :])
                    self._ids.append(rid)
                    self._files.append(result.file)
                    line = result.line
                    self._lines.append(-1 if line is None else line)
                    return
        self._whole[len(self._ids)] = result
        self._ids.append(None)
        self._values.append(None)
        self._files.append(None)
        self._lines.append(0)

    def _record(self, index: int) -> dict[str, Any]:
        """The record of compact result ``index``, its keys in the shape's order."""
        rid, packed, keys, k = self._ids[index], self._values[index], self._keys, self._at_id
        assert keys is not None
        if self._single:
            return {keys[0]: rid, keys[1]: packed} if k == 0 else {keys[0]: packed, keys[1]: rid}
        values = list(packed)  # type: ignore[call-overload]
        values.insert(k, rid)
        return dict(zip(keys, values, strict=True))

    def extend(self, results: Iterable[ReadResult]) -> None:
        for result in results:
            self.append(result)

    def __len__(self) -> int:
        return len(self._ids)

    def _at(self, index: int) -> ReadResult:
        whole = self._whole.get(index)
        if whole is not None:
            return whole
        record = self._record(index)
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
        if self._ids[index] is None:
            res = self._whole[index]
            assert isinstance(res, SourceRecord)
            return res.record, res.where()
        file, line = self._files[index], self._lines[index]
        return self._record(index), (file if line < 0 else f"{file}:{line}")  # type: ignore[return-value]

    def file_at(self, index: int) -> str:
        """The file of result ``index``."""
        file = self._files[index]
        if file is None:
            return self._whole[index].file
        return file

    def __repr__(self) -> str:
        return f"<ShapedRecords of {len(self)} ({len(self._whole)} kept whole)>"


def shaped(results: Iterable[ReadResult], id_field: str | None) -> Sequence[ReadResult]:
    """``results`` as `ShapedRecords` (a list when there is no id field to shape by)."""
    if id_field is None:
        return list(results)
    return ShapedRecords(id_field, results)
