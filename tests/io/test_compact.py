"""ShapedRecords gives back exactly the results appended, plain records kept as columns."""

from __future__ import annotations

import pickle

from hypothesis import given
from hypothesis import strategies as st

from assay._io.compact import ShapedRecords
from assay._io.records import ParseFailure, ReadResult, SourceRecord

_LABELS = st.one_of(st.text(max_size=5), st.integers(), st.none(), st.booleans())


@st.composite
def _result(draw: st.DrawFn) -> ReadResult:
    kind = draw(st.sampled_from(["plain", "plain", "reordered", "extra", "int-id", "failure"]))
    rid = draw(st.text(max_size=4))
    file = draw(st.sampled_from(["a.jsonl", "b.jsonl"]))
    line = draw(st.one_of(st.none(), st.integers(1, 10**6)))
    label = draw(_LABELS)
    if kind == "failure":
        return ParseFailure(file, line, "bad line", draw(st.one_of(st.none(), st.just(rid))))
    if kind == "plain":
        return SourceRecord(rid, {"id": rid, "expected": label}, file, line)
    if kind == "reordered":
        return SourceRecord(rid, {"expected": label, "id": rid}, file, line)
    if kind == "extra":
        return SourceRecord(rid, {"id": rid, "expected": label, "text": "x"}, file, line)
    return SourceRecord(str(len(rid)), {"id": len(rid), "expected": label}, file, line)


@given(st.lists(_result(), max_size=30))
def test_shaped_records_equal_the_results_appended(results: list[ReadResult]) -> None:
    shaped = ShapedRecords("id", results)
    assert len(shaped) == len(results)
    assert list(shaped) == results and shaped == results
    assert [shaped[i] for i in range(len(results))] == results
    assert shaped[1:4] == results[1:4]
    if results:
        assert shaped[-1] == results[-1]
        assert [list(r.record) for r in shaped if isinstance(r, SourceRecord)] == [
            list(r.record) for r in results if isinstance(r, SourceRecord)
        ]
    assert [shaped.file_at(i) for i in range(len(results))] == [r.file for r in results]
    assert [shaped.record_at(i) for i, r in enumerate(results) if isinstance(r, SourceRecord)] == [
        (r.record, r.where()) for r in results if isinstance(r, SourceRecord)
    ]
    scanned = list(shaped.scan())
    for got, want in zip(scanned, results, strict=True):
        assert got == (want.id if isinstance(got, str) else want)
    assert pickle.loads(pickle.dumps(shaped)) == results


def test_plain_records_are_columns_and_others_kept_whole() -> None:
    plain = [SourceRecord(f"d{i}", {"id": f"d{i}", "expected": "memo"}, "g", i) for i in range(5)]
    odd = SourceRecord("7", {"id": 7, "expected": "memo"}, "g", 9)
    failure = ParseFailure("g", 10, "not JSON")
    shaped = ShapedRecords("id", [*plain, odd, failure])
    assert list(shaped.scan()) == ["d0", "d1", "d2", "d3", "d4", odd, failure]
    assert repr(shaped) == "<ShapedRecords of 7 (2 kept whole)>"
