"""How an input file's bytes become UTF-8 lines: gzip read transparently, UTF-16/32 decoded by
their byte-order mark, known binary formats refused by name, every piece bounded.

Readers open every prediction, gold and id file through ``open_bytes``, which returns a stream
of UTF-8 bytes whatever the file was saved as, so that the line-by-line readers keep decoding
each line on its own (one bad byte sequence costs one record). A file that is a gzip stream is
read through ``gzip`` (its name need not end in ``.gz``) and a UTF-16 or UTF-32 text (with its
BOM, as Windows tools write it) is decoded, both **streamed**: a piece at a time, never the
whole file in memory. A ZIP, bzip2, xz, zstd or PDF file is an ``InputError`` naming what it
is, instead of lines of garbage; so is a corrupt gzip stream or bad UTF-16, when it is met.

``open_lines`` adds the record limit (``assay._io.limits``): a line longer than it is handed on
as an empty line and noted in the stream's ``oversized`` (its length and first bytes), having
been skipped in bounded pieces. ``read_bytes`` reads a document whole, up to the document
limit. Both report the bytes they consume to ``reading_progress``'s callback.
"""

from __future__ import annotations

import codecs
import io
import os
import stat
import zlib
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from contextvars import ContextVar
from dataclasses import dataclass
from pathlib import Path
from typing import Any, BinaryIO

from assay._io.limits import (
    DOCUMENT_LIMIT_VARIABLE,
    RECORD_LIMIT_VARIABLE,
    document_limit,
    record_limit,
)
from assay.errors import InputError

__all__ = [
    "LineStream",
    "Oversized",
    "open_bytes",
    "open_lines",
    "read_bytes",
    "reading_progress",
    "sniff",
]

_GZIP = b"\x1f\x8b"
_BOMS = (  # longest first: the UTF-32 LE mark starts with the UTF-16 LE one
    (codecs.BOM_UTF32_LE, "utf-32"),
    (codecs.BOM_UTF32_BE, "utf-32"),
    (codecs.BOM_UTF16_LE, "utf-16"),
    (codecs.BOM_UTF16_BE, "utf-16"),
)
_BINARY = (
    (b"PK\x03\x04", "a ZIP archive"),
    (b"BZh", "a bzip2 stream"),
    (b"\xfd7zXZ\x00", "an xz stream"),
    (b"\x28\xb5\x2f\xfd", "a zstd stream"),
    (b"%PDF-", "a PDF document"),
    (b"\x89PNG", "a PNG image"),
    (b"SQLite format 3\x00", "an SQLite database"),
)
#: bytes decompressed, decoded or scanned at a time
_PIECE = 1 << 17
#: first bytes of an oversized line kept, to find its record's id
HEAD_BYTES = 4096

#: ``callback(n)``: ``n`` more bytes of an input file were read (``reading_progress``)
_PROGRESS: ContextVar[Callable[[int], None] | None] = ContextVar(
    "assay_read_progress", default=None
)


@contextmanager
def reading_progress(callback: Callable[[int], None] | None) -> Iterator[None]:
    """Within the block, every input read through this module reports the bytes it consumes
    from the file on disk (compressed bytes for a gzip file) to ``callback``."""
    token = _PROGRESS.set(callback)
    try:
        yield
    finally:
        _PROGRESS.reset(token)


def sniff(head: bytes) -> tuple[str, str | None]:
    """("gzip" | "bom" | "binary" | "plain", detail) for a file's first bytes."""
    if head.startswith(_GZIP):
        return "gzip", None
    for bom, codec in _BOMS:
        if head.startswith(bom):
            return "bom", codec
    for magic, what in _BINARY:
        if head.startswith(magic):
            return "binary", what
    return "plain", None


def _regular(path: Path) -> None:
    """Refuse a FIFO, socket or device by name: reading one would block or never end."""
    try:
        mode = path.stat().st_mode
    except OSError:
        return  # the open below reports it
    if stat.S_ISFIFO(mode):
        raise InputError(f"{path}: is a FIFO (named pipe), expected a regular file")
    if stat.S_ISCHR(mode) or stat.S_ISBLK(mode):
        raise InputError(f"{path}: is a device, expected a regular file")
    if stat.S_ISSOCK(mode):
        raise InputError(f"{path}: is a socket, expected a regular file")


class _Source(io.RawIOBase):
    """The raw file, reporting what is read from it to the ``reading_progress`` callback."""

    def __init__(self, raw: BinaryIO) -> None:
        self._raw = raw
        self._report = _PROGRESS.get()

    def readable(self) -> bool:
        return True

    def readinto(self, buffer: Any) -> int:
        n = self._raw.readinto(buffer)  # type: ignore[attr-defined]
        if n and self._report is not None:
            self._report(n)
        return int(n or 0)

    def close(self) -> None:
        self._raw.close()
        super().close()


class _Gunzipped(io.RawIOBase):
    """A gzip stream's decompressed bytes, streamed; a corrupt stream is an InputError naming
    the file when it is met."""

    def __init__(self, path: Path, raw: BinaryIO) -> None:
        import gzip  # here: only a gzip input needs it

        self._path = path
        self._gz = gzip.GzipFile(fileobj=raw)
        self._raw = raw

    def readable(self) -> bool:
        return True

    def readinto(self, buffer: Any) -> int:
        try:
            data = self._gz.read(len(buffer))
        except (EOFError, zlib.error) as exc:
            raise InputError(f"{self._path}: corrupt gzip stream ({exc})") from None
        except OSError as exc:  # gzip.BadGzipFile, or the disk
            raise InputError(f"{self._path}: corrupt gzip stream ({exc})") from None
        buffer[: len(data)] = data
        return len(data)

    def close(self) -> None:
        self._gz.close()
        self._raw.close()
        super().close()


class _Recoded(io.RawIOBase):
    """UTF-16/32 text (its BOM first) as UTF-8 bytes, a piece at a time; bytes that do not
    decode are an InputError naming the file and the offset."""

    def __init__(self, path: Path, raw: BinaryIO, codec: str) -> None:
        self._path, self._raw, self._codec = path, raw, codec
        self._decoder = codecs.getincrementaldecoder(codec)()  # reads and drops the BOM
        self._pending = b""
        self._offset = 0  # bytes of the source decoded so far
        self._eof = False

    def readable(self) -> bool:
        return True

    def readinto(self, buffer: Any) -> int:
        while not self._pending and not self._eof:
            data = self._raw.read(_PIECE)
            self._eof = not data
            try:
                text = self._decoder.decode(data, final=self._eof)
            except UnicodeDecodeError as exc:
                name = self._codec.upper()
                raise InputError(
                    f"{self._path}: starts with a {name} byte-order mark but is not valid "
                    f"{name} at byte {self._offset + exc.start}"
                ) from None
            self._offset += len(data)
            self._pending = text.encode("utf-8", errors="surrogatepass")
        n = min(len(buffer), len(self._pending))
        buffer[:n] = self._pending[:n]
        self._pending = self._pending[n:]
        return n

    def close(self) -> None:
        self._raw.close()
        super().close()


def open_bytes(path: str | os.PathLike[str]) -> BinaryIO:
    """A binary stream of the file's text as UTF-8 (see the module docstring).

    Raises ``InputError`` for a FIFO/device or a known binary format at once, and for a corrupt
    gzip stream or text that does not decode with its BOM's encoding when the bad bytes are
    read; ``OSError`` for an unreadable file.
    """
    p = Path(path)
    _regular(p)
    raw: BinaryIO = io.BufferedReader(_Source(p.open("rb", buffering=0)))
    try:
        head = raw.peek(16)[:16]  # type: ignore[attr-defined]
        kind, detail = sniff(head)
        if kind == "plain":
            return raw
        if kind == "binary":
            raise InputError(f"{p}: is {detail}, not a text file (unpack or convert it)")
        if kind == "bom":
            assert detail is not None
            return io.BufferedReader(_Recoded(p, raw, detail), _PIECE)
        inner = io.BufferedReader(_Gunzipped(p, raw), _PIECE)
        inner_kind, codec = sniff(inner.peek(16)[:16])
        if inner_kind in ("binary", "gzip"):
            raise InputError(f"{p}: holds {codec or 'a gzip stream'}, not text")
        if inner_kind == "bom":
            assert codec is not None
            return io.BufferedReader(_Recoded(p, inner, codec), _PIECE)
        return inner
    except BaseException:
        raw.close()
        raise


def read_bytes(path: str | os.PathLike[str], *, limit: int | None = None) -> bytes:
    """The whole file as UTF-8 bytes (``open_bytes``), at most the document limit of them
    (``assay._io.limits``), or ``limit`` bytes for a file that is one record (a file of a JSON
    folder: the record limit): a larger file is an InputError naming it and the limit, raised
    once the limit and one byte more have been read, never after reading it all."""
    cap = document_limit() if limit is None else limit
    with open_bytes(path) as f:
        data = f.read(cap + 1)
    if len(data) > cap:
        if limit is None:
            raise InputError(
                f"{path}: more than {cap:,} bytes, beyond the limit for a file read whole "
                f"({DOCUMENT_LIMIT_VARIABLE}; a JSONL file is read a line at a time, at any size)"
            )
        raise InputError(
            f"{path}: more than {cap:,} bytes, beyond the limit of {cap:,} for one record "
            f"({RECORD_LIMIT_VARIABLE})"
        )
    return data


# --------------------------------------------------------------------------- bounded lines


@dataclass(frozen=True)
class Oversized:
    """A line longer than the record limit: its length in bytes (without its newline), its
    first ``HEAD_BYTES`` bytes, and the limit it broke."""

    length: int
    head: bytes
    limit: int

    @property
    def reason(self) -> str:
        """The failure of its record, naming the limit and how to raise it."""
        return (
            f"a line of {self.length:,} bytes, beyond the limit of {self.limit:,} for one record "
            f"({RECORD_LIMIT_VARIABLE})"
        )


class _LineLimited(io.RawIOBase):
    """The bytes of a stream with every line longer than ``limit`` bytes replaced by an empty
    line (noted in ``oversized`` by line number). Holds at most ``limit`` bytes of a line.

    Pieces are read at most ``limit`` bytes long, so a line inside one piece is shorter than
    the limit: only the line continuing from the last piece (``_tail``) is measured."""

    def __init__(self, inner: BinaryIO, limit: int) -> None:
        self._inner = inner
        self._limit = limit
        self._piece = min(limit, _PIECE)
        self._tail = bytearray()  # the unfinished line (at most ``limit`` bytes)
        self._skipped = 0  # > 0: bytes of an oversized line skipped so far
        self._head = b""  # its first bytes
        self._out = bytearray()
        self._line = 1  # the line ``_tail`` belongs to
        self._eof = False
        self.oversized: dict[int, Oversized] = {}

    def readable(self) -> bool:
        return True

    def readinto(self, buffer: Any) -> int:
        while not self._out and not self._eof:
            self._fill()
        n = min(len(buffer), len(self._out))
        buffer[:n] = self._out[:n]
        del self._out[:n]
        return n

    def _fill(self) -> None:
        piece = self._inner.read(self._piece)
        if not piece:
            self._eof = True
            if self._skipped:
                self._end_oversized()
            else:
                self._out += self._tail
                self._tail.clear()
            return
        first = piece.find(b"\n")
        if first < 0:  # the current line goes on
            if self._skipped:
                self._skipped += len(piece)
            else:
                self._tail += piece
                if len(self._tail) > self._limit:
                    self._start_oversized()
            return
        if self._skipped:
            self._skipped += first
            self._end_oversized()
        elif len(self._tail) + first > self._limit:
            self._tail += piece[:first]
            self._start_oversized()
            self._end_oversized()
        else:
            self._out += self._tail
            self._out += piece[: first + 1]
            self._tail.clear()
            self._line += 1
        last = piece.rfind(b"\n")
        if last > first:
            self._out += piece[first + 1 : last + 1]
            self._line += piece.count(b"\n", first + 1, last + 1)
        self._tail += piece[last + 1 :]

    def _start_oversized(self) -> None:
        self._head = bytes(self._tail[:HEAD_BYTES])
        self._skipped = len(self._tail)
        self._tail.clear()

    def _end_oversized(self) -> None:
        """The oversized line ended (at a newline or the end): an empty line in its place."""
        self.oversized[self._line] = Oversized(self._skipped, self._head, self._limit)
        self._skipped, self._head = 0, b""
        self._out += b"\n"
        self._line += 1

    def close(self) -> None:
        self._inner.close()
        super().close()


class LineStream(io.BufferedReader):
    """``open_lines``' stream: lines (and ``read``) as from ``open_bytes``, every line longer
    than the record limit replaced by an empty one and listed in ``oversized``."""

    def __init__(self, limited: _LineLimited) -> None:
        super().__init__(limited, _PIECE)
        self.oversized: dict[int, Oversized] = limited.oversized


def open_lines(path: str | os.PathLike[str], *, limit: int | None = None) -> LineStream:
    """``open_bytes(path)`` with lines bounded by ``limit`` bytes (None: the record limit,
    ``assay._io.limits``): see ``LineStream``."""
    return LineStream(_LineLimited(open_bytes(path), record_limit() if limit is None else limit))
