"""How an input file's bytes become UTF-8 lines: gzip read transparently, UTF-16/32 decoded by
their byte-order mark, known binary formats refused by name.

Readers open every prediction, gold and id file through ``open_bytes``, which returns UTF-8
bytes whatever the file was saved as, so that the line-by-line readers keep decoding each line
on its own (one bad byte sequence costs one record). A file that is a gzip stream is read
through ``gzip`` (its name need not end in ``.gz``); a UTF-16 or UTF-32 text (with its BOM, as
Windows tools write it) is decoded as a whole; a ZIP, bzip2, xz, zstd or PDF file is an
``InputError`` naming what it is, instead of lines of garbage.
"""

from __future__ import annotations

import codecs
import io
import os
import stat
import zlib
from pathlib import Path
from typing import BinaryIO

from assay.errors import InputError

__all__ = ["open_bytes", "read_bytes", "sniff"]

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
#: a decompressed or re-encoded file is held in memory; beyond this it is refused
MAX_DECODED_BYTES = 4 * 1024**3


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


def open_bytes(path: str | os.PathLike[str]) -> BinaryIO:
    """A binary stream of the file's text as UTF-8 (see the module docstring).

    Raises ``InputError`` for a FIFO/device, a known binary format, a corrupt gzip stream or
    text that does not decode with its BOM's encoding; ``OSError`` for an unreadable file.
    """
    p = Path(path)
    _regular(p)
    raw = p.open("rb")
    try:
        head = raw.read(16)
        raw.seek(0)
        kind, detail = sniff(head)
        if kind == "plain":
            return raw
        with raw:
            if kind == "binary":
                raise InputError(f"{p}: is {detail}, not a text file (unpack or convert it)")
            if kind == "bom":
                assert detail is not None
                return io.BytesIO(_recode(p, raw.read(), detail))
            data = _gunzip(p, raw)
        inner, codec = sniff(data[:16])
        if inner in ("binary", "gzip"):
            raise InputError(f"{p}: holds {codec or 'a gzip stream'}, not text")
        if inner == "bom":
            assert codec is not None
            data = _recode(p, data, codec)
        return io.BytesIO(data)
    except BaseException:
        raw.close()
        raise


def _gunzip(path: Path, raw: BinaryIO) -> bytes:
    import gzip  # here: only a gzip input needs it

    try:
        with gzip.GzipFile(fileobj=raw) as gz:
            data = gz.read(MAX_DECODED_BYTES + 1)
    except (OSError, EOFError, zlib.error) as exc:
        raise InputError(f"{path}: corrupt gzip stream ({exc})") from None
    if len(data) > MAX_DECODED_BYTES:
        raise InputError(f"{path}: decompresses to more than {MAX_DECODED_BYTES:,} bytes")
    return data


def _recode(path: Path, data: bytes, codec: str) -> bytes:
    try:
        text = data.decode(codec)  # "utf-16"/"utf-32" read and drop the BOM
    except UnicodeDecodeError as exc:
        raise InputError(
            f"{path}: starts with a {codec.upper()} byte-order mark but is not valid "
            f"{codec.upper()} at byte {exc.start}"
        ) from None
    return text.encode("utf-8", errors="surrogatepass")


def read_bytes(path: str | os.PathLike[str]) -> bytes:
    """The whole file as UTF-8 bytes (``open_bytes``, read at once)."""
    with open_bytes(path) as f:
        return f.read()
