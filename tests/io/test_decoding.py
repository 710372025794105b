"""Input bytes to UTF-8 (assay._io.decoding): gzip, BOMs, binary formats, FIFOs."""

from __future__ import annotations

import codecs
import gzip
import os
from pathlib import Path

import pytest

from assay._io.decoding import read_bytes, sniff
from assay.errors import InputError

TEXT = '{"id": "é"}\n{"id": "ü"}\n'


@pytest.mark.parametrize(
    "raw",
    [
        TEXT.encode("utf-8"),
        TEXT.encode("utf-16"),
        codecs.BOM_UTF16_BE + TEXT.encode("utf-16-be"),
        TEXT.encode("utf-32"),
        gzip.compress(TEXT.encode("utf-8")),
        gzip.compress(TEXT.encode("utf-16")),
    ],
)
def test_every_encoding_reads_as_utf8(tmp_path: Path, raw: bytes) -> None:
    path = tmp_path / "f.jsonl"
    path.write_bytes(raw)
    assert read_bytes(path) == TEXT.encode("utf-8")


def test_sniff() -> None:
    assert sniff(b"\x1f\x8b\x08") == ("gzip", None)
    assert sniff(codecs.BOM_UTF32_LE + b"x") == ("bom", "utf-32")  # not read as UTF-16
    assert sniff(b"PK\x03\x04") == ("binary", "a ZIP archive")
    assert sniff(b'{"a": 1}') == ("plain", None)


def test_a_gzip_holding_a_gzip_or_zip_is_refused(tmp_path: Path) -> None:
    path = tmp_path / "f.gz"
    path.write_bytes(gzip.compress(gzip.compress(b"x")))
    with pytest.raises(InputError, match="not text"):
        read_bytes(path)


def test_fifo_refused_without_blocking(tmp_path: Path) -> None:
    fifo = tmp_path / "pipe"
    os.mkfifo(fifo)
    with pytest.raises(InputError, match="FIFO"):
        read_bytes(fifo)
