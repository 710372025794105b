"""Spill files: per-item data written once to a temporary file and read back on demand.

A large run keeps its items, item scores and item records on disk instead of in Python lists:
each is appended to a `SpillFile` (bytes plus an int64 offsets array) and read through a lazy,
random-access `Sequence`. The folder is removed when the last object using it is collected.
Input records go the same way while they are read: a task's ``load`` fills a `record_list`,
which under `spooling` is a `RecordSpool` (a list that moves to disk past a count).

What is written is compact: a read record is pickled as a plain tuple of its fields (its file
name as a number into the spool's table of names), never as a dataclass, whose pickling goes
through Python-level ``__getstate__``/``__setstate__`` per record (``ResultCodec``).
"""

from __future__ import annotations

import itertools
import os
import pickle
import shutil
import tempfile
import weakref
from array import array
from collections.abc import Callable, Iterable, Iterator
from contextlib import contextmanager
from contextvars import ContextVar
from dataclasses import dataclass
from pathlib import Path
from typing import Any, TypeVar, overload

import numpy as np

from assay._io.listlike import ListLike as _ListLike
from assay._io.records import ParseFailure, SourceRecord
from assay.metrics.kinds import FloatArray

T = TypeVar("T")
#: bytes read at a time when a spill file is iterated from start to end
READ_BLOCK = 1 << 20
#: bytes read ahead when records are read by index one after the other
READ_AHEAD = 1 << 16


class SpillDir:
    """A private temporary folder holding a run's spill files; removed with its last user."""

    def __init__(self, parent: str | os.PathLike[str] | None = None) -> None:
        if parent is not None:
            Path(parent).mkdir(parents=True, exist_ok=True)
        self.path = Path(tempfile.mkdtemp(prefix="assay-spill-", dir=parent))
        self.fds: set[int] = set()  # open descriptors, closed when the folder goes
        self._finalizer = weakref.finalize(self, _remove, self.path, self.fds)

    def file(self, name: str) -> SpillFile:
        """A new, empty spill file in this folder."""
        return SpillFile(self, self.path / name)

    def cleanup(self) -> None:
        """Close every file and remove the folder now (also done when collected)."""
        self._finalizer()


def _remove(path: Path, fds: set[int]) -> None:
    for fd in list(fds):
        os.close(fd)
    fds.clear()
    shutil.rmtree(path, ignore_errors=True)


class SpillFile:
    """Append-only records of bytes: written in order, then read by index with ``pread``."""

    def __init__(self, owner: SpillDir, path: Path) -> None:
        self.owner = owner  # keeps the folder alive while the file is in use
        self.path = path
        self._fd = os.open(path, os.O_RDWR | os.O_CREAT | os.O_EXCL, 0o600)
        owner.fds.add(self._fd)
        self._offsets = array("q", [0])
        self._pending: list[bytes] = []
        self._pending_size = 0
        # read-ahead for reads by index that go forward one by one (pairing a cohort whose id
        # order is the file's): (the block last read, its first record, the record after its
        # last), replaced as one tuple so that a thread reading at the same time sees either
        # block whole; and the index a forward read would ask for next
        self._ahead: tuple[bytes, int, int] = (b"", 0, 0)
        self._next = -1

    def append(self, data: bytes) -> None:
        self._pending.append(data)
        self._pending_size += len(data)
        self._offsets.append(self._offsets[-1] + len(data))
        if self._pending_size >= READ_BLOCK:
            self.flush()

    def extend(self, records: list[bytes]) -> None:
        """``append`` of each record, in order (one offsets update for them all)."""
        if not records:
            return
        sizes = [len(r) for r in records]
        self._pending += records
        self._pending_size += sum(sizes)
        ends = itertools.accumulate(sizes, initial=self._offsets[-1])
        self._offsets.extend(itertools.islice(ends, 1, None))  # the first is the last offset
        if self._pending_size >= READ_BLOCK:
            self.flush()

    def flush(self) -> None:
        if self._pending:
            os.pwrite(self._fd, b"".join(self._pending), self._offsets[-1] - self._pending_size)
            self._pending.clear()
            self._pending_size = 0

    def close(self) -> None:
        if self._fd in self.owner.fds:
            self.owner.fds.discard(self._fd)
            os.close(self._fd)

    def __len__(self) -> int:
        return len(self._offsets) - 1

    def read(self, index: int) -> bytes:
        """Record ``index``; reads that go forward one record at a time are served from a
        block of about ``READ_AHEAD`` bytes read at once."""
        self.flush()
        offsets = self._offsets
        block, first, after = self._ahead
        forward = index == self._next
        self._next = index + 1
        if first <= index < after:
            base = offsets[first]
            return block[offsets[index] - base : offsets[index + 1] - base]
        start, end = offsets[index], offsets[index + 1]
        if not forward:
            return os.pread(self._fd, end - start, start)
        stop, limit = index + 1, len(offsets) - 1
        while stop < limit and offsets[stop + 1] - start <= READ_AHEAD:
            stop += 1
        block = os.pread(self._fd, offsets[stop] - start, start)
        self._ahead = (block, index, stop)
        return block[: end - start]

    def iter_range(self, start: int = 0, stop: int | None = None) -> Iterator[bytes]:
        """Records ``start`` to ``stop`` in order, read in blocks of about ``READ_BLOCK``."""
        self.flush()
        stop = len(self) if stop is None else stop
        offsets = self._offsets
        i = start
        while i < stop:
            j = i + 1
            while j < stop and offsets[j + 1] - offsets[i] <= READ_BLOCK:
                j += 1
            base = offsets[i]
            block = os.pread(self._fd, offsets[j] - base, base)
            for k in range(i, j):
                yield block[offsets[k] - base : offsets[k + 1] - base]
            i = j


class SpilledSequence(_ListLike[T]):
    """A read-only sequence whose elements are decoded from a spill file when accessed.

    Equality with any other sequence compares element by element; pickling materializes a list
    (a spill file does not travel to another process).
    """

    def __init__(self, spill: SpillFile, decode: Callable[[bytes], T]) -> None:
        self._spill = spill
        self._decode = decode

    def __len__(self) -> int:
        return len(self._spill)

    @overload
    def __getitem__(self, index: int) -> T: ...

    @overload
    def __getitem__(self, index: slice) -> list[T]: ...

    def __getitem__(self, index: int | slice) -> T | list[T]:
        n = len(self)
        if isinstance(index, slice):
            start, stop, step = index.indices(n)
            if step == 1:
                return [self._decode(b) for b in self._spill.iter_range(start, max(start, stop))]
            return [self[i] for i in range(start, stop, step)]
        if index < 0:
            index += n
        if not 0 <= index < n:
            raise IndexError("spilled sequence index out of range")
        return self._decode(self._spill.read(index))

    def __iter__(self) -> Iterator[T]:
        return (self._decode(b) for b in self._spill.iter_range())

    def raw(self) -> Iterator[bytes]:
        """The encoded elements, in order."""
        return self._spill.iter_range()

    def raw_at(self, index: int) -> bytes:
        """Element ``index`` as stored (not decoded)."""
        return self._spill.read(index if index >= 0 else index + len(self))

    def __repr__(self) -> str:
        return f"<{type(self).__name__} of {len(self)} spilled at {self._spill.path}>"


def pickled_sequence(spill: SpillFile) -> SpilledSequence[Any]:
    """Elements appended with ``pickle.dumps``."""
    return SpilledSequence(spill, pickle.loads)


class StatsRows(_ListLike[list[float | int | None]]):
    """The rows of a statistics matrix as the artifact writes them (whole numbers as ints,
    non-finite as null), produced on demand; ``numpy.asarray`` gives the matrix itself."""

    def __init__(self, values: FloatArray) -> None:
        self.values = values

    def __len__(self) -> int:
        return int(self.values.shape[0])

    @overload
    def __getitem__(self, index: int) -> list[float | int | None]: ...

    @overload
    def __getitem__(self, index: slice) -> list[list[float | int | None]]: ...

    def __getitem__(
        self, index: int | slice
    ) -> list[float | int | None] | list[list[float | int | None]]:
        if isinstance(index, slice):
            return [compact_row(r) for r in self.values[index].tolist()]
        return compact_row(self.values[index].tolist())

    def __iter__(self) -> Iterator[list[float | int | None]]:
        step = 4096
        for lo in range(0, len(self), step):
            for row in self.values[lo : lo + step].tolist():
                yield compact_row(row)

    def __array__(self, dtype: Any = None, copy: bool | None = None) -> FloatArray:
        if dtype is None or np.dtype(dtype) == self.values.dtype:
            return self.values.copy() if copy else self.values
        return self.values.astype(dtype)


def compact_row(row: list[float]) -> list[float | int | None]:
    """One statistics row as ``StatsTable.to_json`` then the artifact's cleaning write it."""
    out: list[float | int | None] = []
    for v in row:
        if v != v or v in (float("inf"), float("-inf")):
            out.append(None)
        elif v.is_integer() and abs(v) < 2**53:
            out.append(int(v))
        else:
            out.append(v)
    return out


_SPOOL_NUMBERS = itertools.count()
_PICKLE = pickle.HIGHEST_PROTOCOL
#: the first element of an encoded tuple: what the rest of it is
_SOURCE, _FAILURE, _OTHER = 0, 1, 2


class ResultCodec:
    """Bytes for the elements of a `RecordSpool`: a ``SourceRecord`` as the pickled tuple
    ``(0, id, record, file number, line)``, a ``ParseFailure`` as ``(1, file number, line,
    reason, id)``, anything else as ``(2, element)``.

    The file names live once in ``files`` (a run reads a handful of files and a million
    records), so the records read back share one string per file; a tuple pickles and unpickles
    in C, where a dataclass pays a Python ``__getstate__``/``__setstate__`` per record.
    """

    __slots__ = ("_numbers", "files")

    def __init__(self) -> None:
        self.files: list[str] = []
        self._numbers: dict[str, int] = {}

    def _number(self, file: str) -> int:
        k = self._numbers.get(file)
        if k is None:
            k = self._numbers[file] = len(self.files)
            self.files.append(file)
        return k

    def encode(self, element: Any) -> bytes:
        kind = type(element)
        if kind is SourceRecord:
            fields: tuple[Any, ...] = (
                _SOURCE,
                element.id,
                element.record,
                self._number(element.file),
                element.line,
            )
        elif kind is ParseFailure:
            fields = (
                _FAILURE,
                self._number(element.file),
                element.line,
                element.reason,
                element.id,
            )
        else:
            fields = (_OTHER, element)
        return pickle.dumps(fields, _PICKLE)

    def decode(self, data: bytes) -> Any:
        fields = pickle.loads(data)
        kind = fields[0]
        if kind == _SOURCE:
            _, rid, record, file, line = fields
            return SourceRecord(rid, record, self.files[file], line)
        if kind == _FAILURE:
            _, file, line, reason, rid = fields
            return ParseFailure(self.files[file], line, reason, rid)
        return fields[1]


class RecordSpool(_ListLike[T]):
    """A list that moves to a spill file once it holds ``threshold`` elements.

    Below the threshold it is a plain list (small inputs stay in memory); from it on, each
    element is pickled to disk and only its offset is kept, and indexing or iterating reads it
    back. A task's ``load`` fills one instead of a list under `spooling` (``assay.score`` on the
    out-of-core path), so reading and pairing keep the records on disk, not in memory.
    """

    def __init__(self, threshold: int, folder: Callable[[], SpillDir]) -> None:
        self._threshold = threshold
        self._folder = folder
        self._codec = ResultCodec()
        self._memory: list[T] | None = []
        self._spill: SpillFile | None = None
        self._view: SpilledSequence[T] | None = None
        if threshold <= 0:
            self._to_disk()

    @property
    def spilled(self) -> bool:
        """True once the elements live in the spill file."""
        return self._spill is not None

    def _to_disk(self) -> None:
        spill = self._folder().file(f"records-{next(_SPOOL_NUMBERS)}")
        encode = self._codec.encode
        for element in self._memory or ():
            spill.append(encode(element))
        self._spill, self._memory = spill, None
        self._view = SpilledSequence(spill, self._codec.decode)

    def append(self, element: T) -> None:
        if self._spill is not None:
            self._spill.append(self._codec.encode(element))
            return
        assert self._memory is not None
        self._memory.append(element)
        if len(self._memory) >= self._threshold:
            self._to_disk()

    def extend(self, elements: Iterable[T]) -> None:
        rest = iter(elements)
        for element in rest:
            self.append(element)
            if self._spill is not None:
                break
        if self._spill is not None:  # on disk: the rest without append's per-element checks
            add, encode = self._spill.append, self._codec.encode
            for element in rest:
                add(encode(element))

    def __len__(self) -> int:
        return len(self._spill) if self._spill is not None else len(self._memory or ())

    @overload
    def __getitem__(self, index: int) -> T: ...

    @overload
    def __getitem__(self, index: slice) -> list[T]: ...

    def __getitem__(self, index: int | slice) -> T | list[T]:
        if self._view is None:
            assert self._memory is not None
            return self._memory[index]
        return self._view[index]

    def __iter__(self) -> Iterator[T]:
        if self._spill is None:
            return iter(self._memory or ())
        return map(self._codec.decode, self._spill.iter_range())

    def __repr__(self) -> str:
        where = f"spilled at {self._spill.path}" if self._spill is not None else "in memory"
        return f"<{type(self).__name__} of {len(self)} {where}>"


@dataclass
class _SpoolPolicy:
    """Where and from how many elements `record_list` spools; its folder is made on first use."""

    threshold: int
    parent: str | os.PathLike[str] | None
    folder: SpillDir | None = None

    def spill_dir(self) -> SpillDir:
        if self.folder is None:
            self.folder = SpillDir(self.parent)
        return self.folder


_POLICY: ContextVar[_SpoolPolicy | None] = ContextVar("assay_record_spool", default=None)


@contextmanager
def spooling(threshold: int, parent: str | os.PathLike[str] | None = None) -> Iterator[None]:
    """Within the block, `record_list` gives a `RecordSpool` that goes to disk (a folder under
    ``parent``) from ``threshold`` elements; 0 spools from the first one."""
    token = _POLICY.set(_SpoolPolicy(threshold, parent))
    try:
        yield
    finally:
        _POLICY.reset(token)


def record_list(elements: Iterable[T] = ()) -> list[T] | RecordSpool[T]:
    """The elements as a list, or within `spooling` as a `RecordSpool` (for a task's ``load``)."""
    policy = _POLICY.get()
    if policy is None:
        return list(elements)
    spool: RecordSpool[T] = RecordSpool(policy.threshold, policy.spill_dir)
    spool.extend(elements)
    return spool
