"""Artifacts written whole or not at all (assay._io.atomic), by one writer or many at once."""

from __future__ import annotations

import multiprocessing
import os
import stat
import time
from collections.abc import Iterator
from pathlib import Path

import pytest

from assay._io.atomic import write_atomic


def test_a_file_is_written_whole_with_the_usual_mode(tmp_path: Path) -> None:
    target = tmp_path / "sub" / "run.json"  # the folder is made
    written = write_atomic(target, [b"{", b'"a": 1', b"}"])
    assert target.read_bytes() == b'{"a": 1}' and written.path == target and written.is_ours()
    mask = os.umask(0)
    os.umask(mask)
    assert stat.S_IMODE(target.stat().st_mode) == 0o666 & ~mask  # not the temporary 0o600
    assert [p.name for p in target.parent.iterdir()] == ["run.json"]


def test_a_failed_write_keeps_the_old_file_and_leaves_no_temporary(tmp_path: Path) -> None:
    target = tmp_path / "run.json"
    target.write_bytes(b"old")

    def pieces() -> Iterator[bytes]:
        yield b"new, half"
        raise RuntimeError("disk full")

    with pytest.raises(RuntimeError, match="disk full"):
        write_atomic(target, pieces())
    assert target.read_bytes() == b"old" and [p.name for p in tmp_path.iterdir()] == ["run.json"]


def test_another_writer_after_us_is_seen(tmp_path: Path) -> None:
    target = tmp_path / "run.json"
    first = write_atomic(target, [b"first"])
    second = write_atomic(target, [b"second"])
    assert not first.is_ours() and second.is_ours()
    target.unlink()
    assert not second.is_ours()


def test_progress_counts_the_bytes_written(tmp_path: Path) -> None:
    seen: list[int] = []
    write_atomic(tmp_path / "f", [b"ab", b"cde"], progress=seen.append)
    assert seen == [2, 3]


def _writer(target: str, k: int, start: float, results: multiprocessing.Queue[object]) -> None:
    def pieces() -> Iterator[bytes]:  # slow, so that the writers overlap
        for i in range(20):
            yield f"writer {k} piece {i}\n".encode() * 2000
            time.sleep(0.005)

    time.sleep(max(0.0, start - time.time()))
    written = write_atomic(target, pieces())
    results.put((k, written.is_ours()))


def test_concurrent_writers_leave_one_whole_file_and_each_knows(tmp_path: Path) -> None:
    """Writers of one path at once (issue 36: ``PATH.tmp`` shared by all of them tore the
    artifact, and a writer failed on the temporary file another had renamed): one whole file
    is left, the last rename's; the writer whose file it is knows it, and so does each writer
    it replaced that looks afterwards."""
    target = tmp_path / "run.json"
    ctx = multiprocessing.get_context("fork")
    results: multiprocessing.Queue[object] = ctx.Queue()
    start = time.time() + 0.5
    procs = [ctx.Process(target=_writer, args=(str(target), k, start, results)) for k in range(8)]
    for p in procs:
        p.start()
    for p in procs:
        p.join(60)
    assert all(p.exitcode == 0 for p in procs)
    reports = dict(results.get(timeout=5) for _ in procs)  # type: ignore[misc]
    text = target.read_text()
    owner = int(text.split()[1])
    assert text == "".join(f"writer {owner} piece {i}\n" * 2000 for i in range(20))  # whole
    assert reports[owner] is True
    assert [p.name for p in tmp_path.iterdir()] == ["run.json"]  # no temporary file left
