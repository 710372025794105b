"""Input bytes to UTF-8 (assay._io.decoding): gzip, BOMs, binary formats, FIFOs."""

from __future__ import annotations

import codecs
import gzip
import os
from pathlib import Path

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from assay._io.decoding import open_bytes, open_lines, read_bytes, reading_progress, sniff
from assay._io.limits import (
    DOCUMENT_LIMIT_VARIABLE,
    RECORD_LIMIT_VARIABLE,
    document_limit,
    record_limit,
)
from assay.errors import ConfigError, InputError

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


# --------------------------------------------------------------------------- streamed, bounded


def test_a_gzip_file_is_streamed_not_read_whole(tmp_path: Path) -> None:
    path = tmp_path / "f.jsonl.gz"
    path.write_bytes(gzip.compress(TEXT.encode("utf-8") * 1000))
    with open_bytes(path) as f:
        piece = TEXT.encode("utf-8")
        assert f.read(len(piece)) == piece  # a piece, not the whole member


def test_a_corrupt_gzip_stream_is_named_when_met(tmp_path: Path) -> None:
    path = tmp_path / "f.jsonl.gz"
    whole = gzip.compress(b"x" * 100_000)
    path.write_bytes(whole[: len(whole) // 2])  # cut short
    with pytest.raises(InputError, match=r"f\.jsonl\.gz: corrupt gzip stream"):
        read_bytes(path)


def test_bad_utf16_is_named_with_its_offset(tmp_path: Path) -> None:
    path = tmp_path / "f.jsonl"
    path.write_bytes(codecs.BOM_UTF16_LE + "ab".encode("utf-16-le") + b"\x00\xdc")  # lone low
    with pytest.raises(InputError, match=r"not valid UTF-16 at byte 6"):
        read_bytes(path)


def test_read_bytes_stops_at_the_limit(tmp_path: Path) -> None:
    path = tmp_path / "f.json"
    path.write_bytes(b"[" + b"1," * 1000 + b"1]")
    assert read_bytes(path, limit=5000) == path.read_bytes()
    with pytest.raises(InputError, match=r"more than 100 bytes, beyond the limit"):
        read_bytes(path, limit=100)


def test_the_document_limit_is_read_from_the_environment(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    path = tmp_path / "f.json"
    path.write_bytes(b"[" + b" " * 3000 + b"]")
    monkeypatch.setenv(DOCUMENT_LIMIT_VARIABLE, "2K")
    assert document_limit() == 2048
    with pytest.raises(InputError, match=DOCUMENT_LIMIT_VARIABLE):
        read_bytes(path)
    monkeypatch.setenv(DOCUMENT_LIMIT_VARIABLE, "lots")
    with pytest.raises(ConfigError, match="a positive number of bytes"):
        document_limit()


@pytest.mark.parametrize(
    ("raw", "value"), [("8388608", 8 << 20), ("8M", 8 << 20), ("64MiB", 64 << 20), ("1g", 1 << 30)]
)
def test_record_limit_sizes(monkeypatch: pytest.MonkeyPatch, raw: str, value: int) -> None:
    monkeypatch.setenv(RECORD_LIMIT_VARIABLE, raw)
    assert record_limit() == value


def _lines_through(path: Path, limit: int) -> tuple[list[bytes], dict[int, int]]:
    with open_lines(path, limit=limit) as f:
        return list(f), {n: o.length for n, o in f.oversized.items()}


@settings(max_examples=150, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(
    lengths=st.lists(st.integers(0, 40), max_size=30),
    limit=st.integers(1, 17),
    final_newline=st.booleans(),
)
def test_lines_beyond_the_limit_become_empty_and_listed(
    tmp_path_factory: pytest.TempPathFactory, lengths: list[int], limit: int, final_newline: bool
) -> None:
    """Every line as written, except each one longer than the limit: an empty line in its
    place, and its number and length in ``oversized``; at every line length around the piece
    size (pieces are at most ``limit`` bytes)."""
    lines = [bytes([97 + i % 26]) * n for i, n in enumerate(lengths)]
    data = b"\n".join(lines) + (b"\n" if final_newline and lines else b"")
    path = tmp_path_factory.mktemp("lines") / "f.txt"
    path.write_bytes(data)
    got, oversized = _lines_through(path, limit)
    expected = [b"\n" if len(line) > limit else line + b"\n" for line in lines]
    if lines and not final_newline and len(lines[-1]) <= limit:
        expected[-1] = lines[-1]
    if lines and not final_newline and not lines[-1]:
        expected.pop()  # "a\n" + "" is one line
    assert got == expected
    assert oversized == {i: len(line) for i, line in enumerate(lines, 1) if len(line) > limit}


def test_an_oversized_line_keeps_its_first_bytes(tmp_path: Path) -> None:
    path = tmp_path / "f.jsonl"
    path.write_bytes(b'{"id": "x", "v": "' + b"a" * 10_000 + b'"}\n{"id": "y"}\n')
    with open_lines(path, limit=1000) as f:
        assert list(f) == [b"\n", b'{"id": "y"}\n']
        [(line, over)] = f.oversized.items()
    assert line == 1 and over.length == 10_020 and over.head.startswith(b'{"id": "x"')
    assert "a line of 10,020 bytes, beyond the limit of 1,000" in over.reason


def test_reading_reports_bytes_read_from_disk(tmp_path: Path) -> None:
    path = tmp_path / "f.jsonl.gz"
    path.write_bytes(gzip.compress(TEXT.encode("utf-8") * 10_000))
    seen: list[int] = []
    with reading_progress(seen.append), open_lines(path) as f:
        assert len(f.read()) == len(TEXT.encode("utf-8")) * 10_000
    assert sum(seen) == path.stat().st_size  # the compressed bytes, as a bar over file sizes
