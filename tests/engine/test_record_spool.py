"""The record spool: a list that moves to a spill file past a count, behaving like the list."""

from __future__ import annotations

import gc
import pickle
from pathlib import Path

import pytest

from assay._engine.spill import RecordSpool, SpillDir, record_list, spooling
from assay._io.records import ParseFailure, ReadResult, SourceRecord


def _records(n: int) -> list[ReadResult]:
    out: list[ReadResult] = []
    for i in range(n):
        if i % 5 == 3:
            out.append(ParseFailure("p.jsonl", i + 1, "invalid JSON", f"r{i}"))
        else:
            record = {"id": f"r{i}", "x": i * 0.1, "tags": ["a", None, {"b": i}]}
            out.append(SourceRecord(f"r{i}", record, "p.jsonl", i + 1))
    return out


@pytest.mark.parametrize("threshold", [0, 1, 7, 50])
def test_spool_behaves_like_the_list(tmp_path: Path, threshold: int) -> None:
    records = _records(23)
    folder = SpillDir(tmp_path)
    spool: RecordSpool[ReadResult] = RecordSpool(threshold, lambda: folder)
    for i, r in enumerate(records):
        spool.append(r)
        assert spool.spilled == (i + 1 >= threshold)
    assert spool.spilled == (threshold <= len(records))
    assert len(spool) == len(records)
    assert list(spool) == records and spool == records
    assert [spool[i] for i in range(-len(records), len(records))] == records + records
    assert spool[3:11] == records[3:11] and spool[::4] == records[::4]
    with pytest.raises(IndexError):
        spool[len(records)]
    assert pickle.loads(pickle.dumps(spool)) == records
    on_disk = list(folder.path.iterdir())
    assert len(on_disk) == (1 if spool.spilled else 0)
    if spool.spilled:  # what the spool keeps in memory is offsets, not records
        assert on_disk[0].stat().st_size > 0 and spool._memory is None


def test_record_list_is_a_list_outside_spooling(tmp_path: Path) -> None:
    records = _records(9)
    plain = record_list(iter(records))
    assert type(plain) is list and plain == records
    with spooling(5, tmp_path):
        small, large = record_list(records[:4]), record_list(records)
    assert isinstance(small, RecordSpool) and not small.spilled and small == records[:4]
    assert isinstance(large, RecordSpool) and large.spilled and large == records
    assert type(record_list(records)) is list  # the block is over
    folders = list(tmp_path.iterdir())
    assert len(folders) == 1 and len(list(folders[0].iterdir())) == 1
    del small, large
    gc.collect()
    assert list(tmp_path.iterdir()) == []  # the folder went with its last spool
