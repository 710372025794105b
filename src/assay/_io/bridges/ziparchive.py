"""ZIP members read whole, deflate or Zstandard: what an Inspect ``.eval`` log is made of.

Python's ``zipfile`` reads stored and deflated members; it refuses the Zstandard members (ZIP
method 93) that Inspect writes by default since inspect_ai 0.3.206 until Python 3.14. A member
of method 93 is therefore read here from its local header and decompressed with
``zstandard``, imported only when such a member is met; its CRC-32 is checked as ``zipfile``
checks a deflated one's.

A name written twice (Inspect writes a requeued sample again under the same name) is read at its
last entry, as Inspect's own reader does.
"""

from __future__ import annotations

import struct
import zipfile
import zlib
from pathlib import Path
from types import TracebackType
from typing import Any

from assay.errors import InputError

__all__ = ["MAX_MEMBER_BYTES", "ZIP_ZSTD", "Archive"]

#: ZIP compression method of a Zstandard member (APPNOTE 4.4.5)
ZIP_ZSTD = 93
#: a member that decompresses to more than this is refused (a sample of a long agent
#: transcript is a few MB; a ZIP bomb is not read)
MAX_MEMBER_BYTES = 1024**3
_LOCAL_HEADER = struct.Struct("<4s2B4HL2L2H")
_LOCAL_MAGIC = b"PK\x03\x04"


class Archive:
    """A ZIP file's members by name (the last entry of a repeated name), read whole."""

    def __init__(self, path: Path) -> None:
        self.path = path
        try:
            self._zip = zipfile.ZipFile(path)
        except (zipfile.BadZipFile, OSError) as exc:
            raise InputError(f"{path}: not a readable ZIP archive ({exc})") from None
        self._infos: dict[str, zipfile.ZipInfo] = {}
        for info in self._zip.infolist():
            self._infos[info.filename] = info  # a repeated name: the last entry wins

    def __enter__(self) -> Archive:
        return self

    def __exit__(
        self,
        kind: type[BaseException] | None,
        value: BaseException | None,
        tb: TracebackType | None,
    ) -> None:
        self.close()

    def close(self) -> None:
        self._zip.close()

    def names(self) -> list[str]:
        """Every member name once, in the order of their last entries."""
        return sorted(self._infos, key=lambda n: self._infos[n].header_offset)

    def __contains__(self, name: object) -> bool:
        return name in self._infos

    def read(self, name: str) -> bytes:
        """Member ``name``'s bytes; an ``InputError`` naming the member when it cannot be read."""
        info = self._infos.get(name)
        if info is None:
            raise InputError(f"{self.path}: no member {name!r}")
        if info.file_size > MAX_MEMBER_BYTES:
            raise InputError(
                f"{self.path}:{name}: {info.file_size:,} bytes, beyond the limit of "
                f"{MAX_MEMBER_BYTES:,}"
            )
        if info.compress_type == ZIP_ZSTD:
            return self._read_zstd(info)
        try:
            return self._zip.read(info)
        except NotImplementedError:
            raise InputError(
                f"{self.path}:{name}: ZIP compression method {info.compress_type} is not one "
                "assay reads (stored, deflate, Zstandard)"
            ) from None
        except (zipfile.BadZipFile, zlib.error, OSError, EOFError) as exc:
            raise InputError(f"{self.path}:{name}: corrupt member ({exc})") from None

    def _raw(self, info: zipfile.ZipInfo) -> bytes:
        fp: Any = self._zip.fp
        fp.seek(info.header_offset)
        header = fp.read(_LOCAL_HEADER.size)
        if len(header) != _LOCAL_HEADER.size or header[:4] != _LOCAL_MAGIC:
            raise InputError(f"{self.path}:{info.filename}: bad local file header")
        fields = _LOCAL_HEADER.unpack(header)
        name_len, extra_len = fields[-2], fields[-1]
        fp.seek(info.header_offset + _LOCAL_HEADER.size + name_len + extra_len)
        data: bytes = fp.read(info.compress_size)
        if len(data) != info.compress_size:
            raise InputError(f"{self.path}:{info.filename}: truncated member")
        return data

    def _read_zstd(self, info: zipfile.ZipInfo) -> bytes:
        try:
            import zstandard  # here: only a Zstandard member needs it
        except ImportError:
            raise InputError(
                f"{self.path}:{info.filename}: ZIP method 93 (Zstandard, Inspect's default "
                "since inspect_ai 0.3.206) needs the 'zstandard' package: pip install zstandard"
            ) from None
        raw = self._raw(info)
        try:
            data: bytes = zstandard.ZstdDecompressor().decompress(
                raw, max_output_size=max(info.file_size, 1)
            )
        except zstandard.ZstdError as exc:
            raise InputError(
                f"{self.path}:{info.filename}: corrupt Zstandard member ({exc})"
            ) from None
        if len(data) != info.file_size or zlib.crc32(data) != info.CRC:
            raise InputError(f"{self.path}:{info.filename}: bad CRC-32 or size after Zstandard")
        return data
