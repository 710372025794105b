"""keep_freed_memory: glibc's thresholds raised for a large run only, nothing asked elsewhere."""

from __future__ import annotations

import ctypes
import platform
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest

from assay._cli import allocator


class _Libc:
    def __init__(self) -> None:
        self.calls: list[tuple[int, int]] = []

    def mallopt(self, param: int, value: int) -> int:
        self.calls.append((param, value))
        return 1


def _fake_libc(monkeypatch: pytest.MonkeyPatch) -> _Libc:
    libc = _Libc()

    def cdll(name: Any) -> _Libc:
        return libc

    monkeypatch.setattr(ctypes, "CDLL", cdll)
    return libc


def test_a_small_run_asks_nothing(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    libc = _fake_libc(monkeypatch)
    (tmp_path / "p.jsonl").write_bytes(b"x" * 1000)
    assert not allocator.keep_freed_memory([tmp_path / "p.jsonl", tmp_path, tmp_path / "gone"])
    assert libc.calls == []


def test_a_large_run_raises_both_thresholds(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    libc = _fake_libc(monkeypatch)
    half = allocator.MIN_INPUT_BYTES // 2
    (tmp_path / "p.jsonl").write_bytes(b"x" * half)
    (tmp_path / "g.jsonl").write_bytes(b"x" * half)
    assert allocator.input_bytes([tmp_path / "p.jsonl", tmp_path / "g.jsonl"]) == 2 * half
    assert allocator.keep_freed_memory([tmp_path / "p.jsonl", tmp_path / "g.jsonl"])
    assert libc.calls == [
        (allocator.M_TRIM_THRESHOLD, allocator.TRIM_THRESHOLD),
        (allocator.M_MMAP_THRESHOLD, allocator.MMAP_THRESHOLD),
    ]


def test_no_mallopt_is_no_setting(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    def missing(name: Any) -> object:
        return object()  # a C library without mallopt (not glibc)

    monkeypatch.setattr(ctypes, "CDLL", missing)
    (tmp_path / "p.jsonl").write_bytes(b"x" * allocator.MIN_INPUT_BYTES)
    assert not allocator.keep_freed_memory([tmp_path / "p.jsonl"])


GLIBC = platform.libc_ver()[0] == "glibc"


@pytest.mark.skipif(
    not GLIBC,
    reason="mallopt is glibc's: elsewhere (musl, macOS) keep_freed_memory asks nothing, "
    "which test_no_mallopt_is_no_setting checks",
)
def test_glibc_takes_the_settings(tmp_path: Path) -> None:
    """The real mallopt accepts both settings; in a child process, so that this test run's own
    allocator keeps its defaults."""
    (tmp_path / "p.jsonl").write_bytes(b"x" * allocator.MIN_INPUT_BYTES)
    probe = (
        "import sys\n"
        "from pathlib import Path\n"
        "from assay._cli.allocator import keep_freed_memory\n"
        "print(keep_freed_memory([Path(sys.argv[1])]))"
    )
    out = subprocess.run(
        [sys.executable, "-c", probe, str(tmp_path / "p.jsonl")],
        capture_output=True,
        text=True,
        check=True,
    ).stdout
    assert out.strip() == "True"
