"""Tests for the record readers: every failure path yields a located ParseFailure, not a crash."""

from __future__ import annotations

import json
import os
from pathlib import Path
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from assay._io import (
    ParseFailure,
    ReadResult,
    RecordFormat,
    SourceRecord,
    read_csv,
    read_json_dir,
    read_jsonl,
    read_records,
    read_text_lines,
)
from assay.errors import InputError, UsageError


def records(results: list[ReadResult]) -> list[SourceRecord]:
    return [r for r in results if isinstance(r, SourceRecord)]


def failures(results: list[ReadResult]) -> list[ParseFailure]:
    return [r for r in results if isinstance(r, ParseFailure)]


def write(path: Path, data: bytes | str) -> Path:
    if isinstance(data, str):
        data = data.encode("utf-8")
    path.write_bytes(data)
    return path


# --------------------------------------------------------------------------- records


def test_where_formats() -> None:
    assert SourceRecord("a", {}, "p.jsonl", 3).where() == "p.jsonl:3"
    assert SourceRecord("a", {}, "d/a.json", None).where() == "d/a.json"
    assert ParseFailure("p.jsonl", 7, "bad").where() == "p.jsonl:7"
    assert ParseFailure("d/a.json", None, "bad", "a").where() == "d/a.json"


# --------------------------------------------------------------------------- JSONL


def test_jsonl_reads_records_in_order(tmp_path: Path) -> None:
    p = write(tmp_path / "p.jsonl", '{"id": "a", "x": 1}\n{"id": 2, "x": 2}\n')
    out = list(read_jsonl(p))
    assert out == [
        SourceRecord("a", {"id": "a", "x": 1}, str(p), 1),
        SourceRecord("2", {"id": 2, "x": 2}, str(p), 2),
    ]


def test_jsonl_corrupt_line_in_middle(tmp_path: Path) -> None:
    p = write(tmp_path / "p.jsonl", '{"id": "a"}\n{"id": "b", oops}\n{"id": "c"}\n')
    out = list(read_jsonl(p))
    assert [r.id for r in records(out)] == ["a", "c"]
    assert [r.line for r in records(out)] == [1, 3]
    (fail,) = failures(out)
    assert fail.line == 2
    assert fail.file == str(p)
    assert fail.reason.startswith("invalid JSON")
    assert fail.where() == f"{p}:2"
    # order is preserved: the failure sits between the records
    assert [type(r).__name__ for r in out] == ["SourceRecord", "ParseFailure", "SourceRecord"]


def test_jsonl_truncated_last_line(tmp_path: Path) -> None:
    p = write(tmp_path / "p.jsonl", '{"id": "a"}\n{"id": "b", "x": [1, 2')
    out = list(read_jsonl(p))
    assert [r.id for r in records(out)] == ["a"]
    assert [f.line for f in failures(out)] == [2]


def test_jsonl_blank_lines_skipped_but_counted(tmp_path: Path) -> None:
    p = write(tmp_path / "p.jsonl", '\n{"id": "a"}\n   \n\r\n{"id": "b"}\n\n')
    out = list(read_jsonl(p))
    assert not failures(out)
    assert [(r.id, r.line) for r in records(out)] == [("a", 2), ("b", 5)]


def test_jsonl_invalid_utf8_costs_one_line(tmp_path: Path) -> None:
    data = b'{"id": "a"}\n{"id": "b", "t": "\xff\xfe"}\n{"id": "c", "t": "caf\xc3\xa9"}\n'
    p = write(tmp_path / "p.jsonl", data)
    out = list(read_jsonl(p))
    assert [r.id for r in records(out)] == ["a", "c"]
    assert records(out)[1].record["t"] == "café"
    (fail,) = failures(out)
    assert fail.line == 2
    assert "UTF-8" in fail.reason


@pytest.mark.parametrize(
    ("line", "found"),
    [("[1, 2]", "array"), ('"text"', "string"), ("3", "integer"), ("null", "null")],
)
def test_jsonl_non_object(tmp_path: Path, line: str, found: str) -> None:
    p = write(tmp_path / "p.jsonl", '{"id": "a"}\n' + line + "\n")
    out = list(read_jsonl(p))
    (fail,) = failures(out)
    assert fail.line == 2
    assert fail.reason == f"expected a JSON object, found {found}"


@pytest.mark.parametrize(
    ("value", "found"),
    [("1.5", "float"), ("true", "boolean"), ("false", "boolean"), ('["a"]', "array"),
     ('{"a": 1}', "object"), ("null", "null")],
)  # fmt: skip
def test_jsonl_bad_id_types(tmp_path: Path, value: str, found: str) -> None:
    p = write(tmp_path / "p.jsonl", '{"id": ' + value + ', "x": 1}\n{"id": "ok"}\n')
    out = list(read_jsonl(p))
    (fail,) = failures(out)
    assert fail.line == 1
    assert "'id'" in fail.reason
    assert found in fail.reason
    assert [r.id for r in records(out)] == ["ok"]


def test_jsonl_missing_id_gives_none(tmp_path: Path) -> None:
    p = write(tmp_path / "p.jsonl", '{"x": 1}\n')
    assert list(read_jsonl(p)) == [SourceRecord(None, {"x": 1}, str(p), 1)]


def test_jsonl_custom_and_no_id_field(tmp_path: Path) -> None:
    p = write(tmp_path / "p.jsonl", '{"uid": 7, "id": true}\n')
    assert [r.id for r in read_jsonl(p, id_field="uid")] == ["7"]
    (rec,) = list(read_jsonl(p, id_field=None))
    assert isinstance(rec, SourceRecord)
    assert rec.id is None


def test_jsonl_duplicate_ids_not_deduplicated(tmp_path: Path) -> None:
    p = write(tmp_path / "p.jsonl", '{"id": "a", "v": 1}\n{"id": "a", "v": 2}\n')
    out = records(list(read_jsonl(p)))
    assert [(r.id, r.record["v"]) for r in out] == [("a", 1), ("a", 2)]


def test_jsonl_empty_file_yields_nothing(tmp_path: Path) -> None:
    assert list(read_jsonl(write(tmp_path / "e.jsonl", b""))) == []
    assert list(read_jsonl(write(tmp_path / "b.jsonl", b"\n\n  \n"))) == []
    assert list(read_jsonl(write(tmp_path / "bom.jsonl", b"\xef\xbb\xbf"))) == []


def test_jsonl_bom_and_crlf(tmp_path: Path) -> None:
    p = write(tmp_path / "p.jsonl", b'\xef\xbb\xbf{"id": "a"}\r\n{"id": "b"}\r\n')
    out = list(read_jsonl(p))
    assert [(r.id, r.line) for r in records(out)] == [("a", 1), ("b", 2)]
    assert not failures(out)


def test_jsonl_unicode_line_separators_inside_strings(tmp_path: Path) -> None:
    # U+2028 and U+0085 are line breaks for str.splitlines but not for JSONL.
    line = json.dumps({"id": "a", "t": "x\u2028y\x85z"}, ensure_ascii=False)
    p = write(tmp_path / "p.jsonl", line + "\n")
    (rec,) = list(read_jsonl(p))
    assert isinstance(rec, SourceRecord)
    assert rec.record["t"] == "x\u2028y\x85z"


def test_jsonl_deep_nesting_is_a_failure(tmp_path: Path) -> None:
    p = write(tmp_path / "p.jsonl", "[" * 100_000 + "\n" + '{"id": "a"}\n')
    out = list(read_jsonl(p))
    assert [f.line for f in failures(out)] == [1]
    assert [r.id for r in records(out)] == ["a"]


def test_jsonl_missing_path(tmp_path: Path) -> None:
    with pytest.raises(InputError, match=r"nope\.jsonl"):
        read_jsonl(tmp_path / "nope.jsonl")


def test_jsonl_directory_instead_of_file(tmp_path: Path) -> None:
    with pytest.raises(InputError, match="is a directory"):
        read_jsonl(tmp_path)


@pytest.mark.skipif(os.geteuid() == 0, reason="root can read any file")
def test_jsonl_unreadable_file(tmp_path: Path) -> None:
    p = write(tmp_path / "p.jsonl", '{"id": "a"}\n')
    p.chmod(0)
    try:
        with pytest.raises(InputError, match="cannot read"):
            read_jsonl(p)
    finally:
        p.chmod(0o644)


def test_jsonl_deterministic(tmp_path: Path) -> None:
    lines = [json.dumps({"id": f"r{i}", "v": i}) for i in range(50)]
    lines.insert(17, "not json")
    p = write(tmp_path / "p.jsonl", "\n".join(lines) + "\n")
    assert list(read_jsonl(p)) == list(read_jsonl(p))


json_values = st.recursive(
    st.none()
    | st.booleans()
    | st.integers()
    | st.floats(allow_nan=False, allow_infinity=False)
    | st.text(),
    lambda children: (
        st.lists(children, max_size=4) | st.dictionaries(st.text(max_size=8), children, max_size=4)
    ),
    max_leaves=10,
)


@settings(max_examples=100, deadline=None)
@given(
    rows=st.lists(st.dictionaries(st.text(max_size=8), json_values, max_size=5), max_size=10),
    ensure_ascii=st.booleans(),
)
def test_jsonl_round_trip(
    tmp_path_factory: pytest.TempPathFactory, rows: list[dict[str, Any]], ensure_ascii: bool
) -> None:
    p = tmp_path_factory.mktemp("rt") / "p.jsonl"
    text = "".join(json.dumps(r, ensure_ascii=ensure_ascii) + "\n" for r in rows)
    p.write_bytes(text.encode("utf-8"))
    out = list(read_jsonl(p, id_field=None))
    assert out == [SourceRecord(None, r, str(p), i) for i, r in enumerate(rows, start=1)]


# --------------------------------------------------------------------------- JSON directory


def test_json_dir_sorted_with_one_bad_file(tmp_path: Path) -> None:
    write(tmp_path / "b.json", '{"id": "B", "v": 2}')
    write(tmp_path / "a.json", '{"v": 1}')
    write(tmp_path / "c.json", '{"v": ')
    write(tmp_path / "d.json", '{"v": 4}')
    write(tmp_path / "notes.txt", "ignored: does not match the pattern")
    out = list(read_json_dir(tmp_path))
    assert [r.where() for r in out] == [str(tmp_path / f"{n}.json") for n in "abcd"]
    assert [r.id for r in out] == ["a", "B", "c", "d"]
    (fail,) = failures(out)
    assert fail.id == "c"
    assert fail.line is None
    assert fail.reason.startswith("invalid JSON")
    assert all(r.line is None for r in out)


@pytest.mark.parametrize(
    ("data", "reason"),
    [
        (b"", "empty file"),
        (b"  \n", "empty file"),
        (b"[1]", "expected a JSON object, found array"),
        (b'{"t": "\xff"}', "invalid UTF-8"),
        (b'{"id": 1.0}', "must be a string or integer, found float"),
        (b'{"id": false}', "must be a string or integer, found boolean"),
    ],
)
def test_json_dir_failures(tmp_path: Path, data: bytes, reason: str) -> None:
    write(tmp_path / "x.json", data)
    write(tmp_path / "y.json", '{"id": "y"}')
    out = list(read_json_dir(tmp_path))
    assert len(out) == 2
    fail = out[0]
    assert isinstance(fail, ParseFailure)
    assert fail.id == "x"
    assert reason in fail.reason
    assert out[1] == SourceRecord("y", {"id": "y"}, str(tmp_path / "y.json"), None)


def test_json_dir_bom(tmp_path: Path) -> None:
    write(tmp_path / "x.json", b'\xef\xbb\xbf{"v": 1}')
    assert list(read_json_dir(tmp_path)) == [
        SourceRecord("x", {"v": 1}, str(tmp_path / "x.json"), None)
    ]


def test_json_dir_exclude_is_explicit(tmp_path: Path) -> None:
    write(tmp_path / "run_info.json", '{"model": "m"}')
    write(tmp_path / "q1.json", '{"v": 1}')
    assert [r.id for r in read_json_dir(tmp_path)] == ["q1", "run_info"]
    excluded = read_json_dir(tmp_path, exclude={"run_info.json", "manifest.json"})
    assert [r.id for r in excluded] == ["q1"]


def test_json_dir_recursive_and_pattern(tmp_path: Path) -> None:
    (tmp_path / "sub").mkdir()
    (tmp_path / "dir.json").mkdir()  # a directory matching the pattern is not a file
    write(tmp_path / "z.json", '{"v": 0}')
    write(tmp_path / "sub" / "a.json", '{"v": 1}')
    write(tmp_path / "p.out", '{"v": 2}')
    assert [r.id for r in read_json_dir(tmp_path)] == ["z"]
    assert [r.where() for r in read_json_dir(tmp_path, recursive=True)] == [
        str(tmp_path / "sub" / "a.json"),
        str(tmp_path / "z.json"),
    ]
    assert [r.id for r in read_json_dir(tmp_path, pattern="*.out")] == ["p"]


def test_json_dir_empty_and_missing(tmp_path: Path) -> None:
    assert list(read_json_dir(tmp_path)) == []
    with pytest.raises(InputError, match="no such directory"):
        read_json_dir(tmp_path / "missing")
    f = write(tmp_path / "f.json", "{}")
    with pytest.raises(InputError, match="not a directory"):
        read_json_dir(f)


def test_json_dir_duplicate_ids_kept(tmp_path: Path) -> None:
    write(tmp_path / "a.json", '{"id": "same"}')
    write(tmp_path / "b.json", '{"id": "same"}')
    assert [r.id for r in read_json_dir(tmp_path)] == ["same", "same"]


# --------------------------------------------------------------------------- CSV / TSV


def test_csv_basic_values_are_strings(tmp_path: Path) -> None:
    p = write(tmp_path / "g.csv", 'id,label,score\n1,cat,0.5\n2,"dog, big",1\n')
    out = list(read_csv(p))
    assert out == [
        SourceRecord("1", {"id": "1", "label": "cat", "score": "0.5"}, str(p), 2),
        SourceRecord("2", {"id": "2", "label": "dog, big", "score": "1"}, str(p), 3),
    ]


def test_csv_ragged_rows(tmp_path: Path) -> None:
    p = write(tmp_path / "g.csv", "id,label\na,x\nb\nc,y,extra\nd,z\n")
    out = list(read_csv(p))
    assert [r.id for r in records(out)] == ["a", "d"]
    assert [(f.line, f.reason) for f in failures(out)] == [
        (3, "expected 2 fields, found 1"),
        (4, "expected 2 fields, found 3"),
    ]


def test_csv_line_numbers_with_multiline_field_and_blank_line(tmp_path: Path) -> None:
    p = write(tmp_path / "g.csv", 'id,text\na,"two\nlines"\n\nb,x\nc\n')
    out = list(read_csv(p))
    assert [(r.id, r.line) for r in records(out)] == [("a", 2), ("b", 5)]
    assert records(out)[0].record["text"] == "two\nlines"
    assert [f.line for f in failures(out)] == [6]


def test_csv_bom_stripped(tmp_path: Path) -> None:
    p = write(tmp_path / "g.csv", b"\xef\xbb\xbfid,label\r\na,x\r\n")
    (rec,) = list(read_csv(p))
    assert rec == SourceRecord("a", {"id": "a", "label": "x"}, str(p), 2)


def test_tsv_by_extension_and_explicit(tmp_path: Path) -> None:
    p = write(tmp_path / "g.tsv", "id\tlabel\na\tx, y\n")
    assert [r.record for r in records(list(read_csv(p)))] == [{"id": "a", "label": "x, y"}]
    q = write(tmp_path / "g.txt", "id\tlabel\na\tx\n")
    assert [r.record for r in records(list(read_csv(q, delimiter="\t")))] == [
        {"id": "a", "label": "x"}
    ]


def test_csv_invalid_utf8_fails_only_that_row(tmp_path: Path) -> None:
    p = write(tmp_path / "g.csv", b"id,text\na,ok\nb,\xff\xfe\nc,caf\xc3\xa9\n")
    out = list(read_csv(p))
    assert [r.id for r in records(out)] == ["a", "c"]
    assert records(out)[1].record["text"] == "café"
    (fail,) = failures(out)
    assert (fail.line, fail.reason) == (3, "invalid UTF-8 in field 'text'")


def test_csv_invalid_utf8_in_header_fails_file(tmp_path: Path) -> None:
    p = write(tmp_path / "g.csv", b"id,t\xffext\na,b\n")
    out = list(read_csv(p))
    (fail,) = out
    assert isinstance(fail, ParseFailure)
    assert fail.line == 1
    assert "header" in fail.reason


def test_csv_duplicate_column_fails_file(tmp_path: Path) -> None:
    p = write(tmp_path / "g.csv", "id,x,x\na,1,2\n")
    (fail,) = list(read_csv(p))
    assert isinstance(fail, ParseFailure)
    assert "duplicate column 'x'" in fail.reason


def test_csv_missing_id_column_and_duplicates(tmp_path: Path) -> None:
    p = write(tmp_path / "g.csv", "key,label\nk,x\nk,y\n")
    assert [r.id for r in read_csv(p)] == [None, None]
    assert [r.id for r in read_csv(p, id_field="key")] == ["k", "k"]


def test_csv_empty_and_header_only(tmp_path: Path) -> None:
    assert list(read_csv(write(tmp_path / "e.csv", b""))) == []
    assert list(read_csv(write(tmp_path / "h.csv", "id,label\n"))) == []


def test_csv_oversized_field_is_a_row_failure(tmp_path: Path) -> None:
    big = "x" * 200_000  # beyond csv's default field size limit
    p = write(tmp_path / "g.csv", f"id,text\na,{big}\nb,ok\n")
    out = list(read_csv(p))
    assert [f.line for f in failures(out)] == [2]
    assert [r.id for r in records(out)] == ["b"]


def test_csv_malformed_quoting_is_flagged(tmp_path: Path) -> None:
    p = write(tmp_path / "g.csv", 'id,t\na,"x"y\nb,say "hi"\nc,"open\n')
    out = list(read_csv(p))
    assert [(r.id, r.record["t"]) for r in records(out)] == [("b", 'say "hi"')]
    assert [f.line for f in failures(out)] == [2, 4]
    assert all(f.reason.startswith("malformed CSV") for f in failures(out))


def test_csv_missing_path(tmp_path: Path) -> None:
    with pytest.raises(InputError, match=r"missing\.csv"):
        read_csv(tmp_path / "missing.csv")


# --------------------------------------------------------------------------- text lines


def test_text_lines(tmp_path: Path) -> None:
    p = write(tmp_path / "hyp.txt", "first\n\n third \r\nlast")
    out = list(read_text_lines(p))
    assert out == [
        SourceRecord("1", {"text": "first"}, str(p), 1),
        SourceRecord("2", {"text": ""}, str(p), 2),
        SourceRecord("3", {"text": " third "}, str(p), 3),
        SourceRecord("4", {"text": "last"}, str(p), 4),
    ]


def test_text_lines_invalid_utf8_and_bom(tmp_path: Path) -> None:
    p = write(tmp_path / "hyp.txt", b"\xef\xbb\xbfa\n\xc3(\nc\n")
    out = list(read_text_lines(p))
    assert [r.id for r in out] == ["1", "2", "3"]
    assert out[0] == SourceRecord("1", {"text": "a"}, str(p), 1)
    fail = out[1]
    assert isinstance(fail, ParseFailure)
    assert (fail.line, fail.id) == (2, "2")
    assert "UTF-8" in fail.reason


def test_text_lines_empty_file(tmp_path: Path) -> None:
    assert list(read_text_lines(write(tmp_path / "e.txt", b""))) == []
    only_newline = list(read_text_lines(write(tmp_path / "n.txt", b"\n")))
    assert [r.record for r in records(only_newline)] == [{"text": ""}]


# --------------------------------------------------------------------------- dispatch


def test_read_records_auto_dispatch(tmp_path: Path) -> None:
    jl = write(tmp_path / "p.JSONL", '{"id": "a"}\n')
    nd = write(tmp_path / "p.ndjson", '{"id": "a"}\n')
    cs = write(tmp_path / "p.csv", "id\na\n")
    ts = write(tmp_path / "p.tsv", "id\tx\na\t1,2\n")
    tx = write(tmp_path / "p.out", "hello\n")
    d = tmp_path / "dir"
    d.mkdir()
    write(d / "a.json", "{}")
    for path in (jl, nd, cs, d):
        assert [r.id for r in read_records(path)] == ["a"], path
    (tsv_rec,) = records(list(read_records(ts)))
    assert tsv_rec.record == {"id": "a", "x": "1,2"}
    assert [r.record for r in records(list(read_records(tx)))] == [{"text": "hello"}]


def test_read_records_explicit_format(tmp_path: Path) -> None:
    p = write(tmp_path / "data.dat", '{"id": "a"}\n')
    assert [r.id for r in read_records(p, format="jsonl")] == ["a"]
    assert [r.record for r in records(list(read_records(p, format="text")))] == [
        {"text": '{"id": "a"}'}
    ]
    t = write(tmp_path / "data.csv", "id\tx\na\tb\n")
    assert [r.record for r in records(list(read_records(t, format="tsv")))] == [
        {"id": "a", "x": "b"}
    ]
    with pytest.raises(UsageError):
        read_records(p, format="yaml")  # type: ignore[arg-type]


def test_read_records_json_list(tmp_path: Path) -> None:
    p = write(tmp_path / "p.json", '[{"id": "a"}, 3, {"id": 2}, {"id": true}, {"x": 1}]')
    out = list(read_records(p))
    assert [r.where() for r in out] == [f"{p}:{i}" for i in range(1, 6)]
    assert [r.id for r in records(out)] == ["a", "2", None]
    assert [(f.line, f.reason) for f in failures(out)] == [
        (2, "expected a JSON object, found integer"),
        (4, "id field 'id' must be a string or integer, found boolean"),
    ]


@pytest.mark.parametrize("key", ["entries", "items", "records", "data"])
def test_read_records_json_wrapped_list(tmp_path: Path, key: str) -> None:
    p = write(tmp_path / "p.json", json.dumps({"meta": {"n": 1}, key: [{"id": "a"}]}))
    assert [r.id for r in read_records(p)] == ["a"]


def test_read_records_json_errors(tmp_path: Path) -> None:
    bad = write(tmp_path / "bad.json", '[{"id": "a"},')
    with pytest.raises(InputError, match=r"bad\.json: invalid JSON"):
        read_records(bad)
    obj = write(tmp_path / "obj.json", '{"id": "a"}')
    with pytest.raises(InputError, match=r"obj\.json: expected a JSON list"):
        read_records(obj)
    enc = write(tmp_path / "enc.json", b'[{"t": "\xff"}]')
    with pytest.raises(InputError, match="UTF-8"):
        read_records(enc)
    assert list(read_records(write(tmp_path / "empty.json", b""))) == []


@pytest.mark.parametrize("fmt", ["auto", "jsonl", "json", "json_dir", "csv", "tsv", "text"])
def test_read_records_missing_path(tmp_path: Path, fmt: RecordFormat) -> None:
    with pytest.raises(InputError, match="missing"):
        read_records(tmp_path / "missing", format=fmt)


# --------------------------------------------------------------------------- record limit (36)

LONG = "a" * 5000


@pytest.fixture
def small_records(monkeypatch: pytest.MonkeyPatch) -> int:
    """A record limit of 1,000 bytes, as ``ASSAY_MAX_RECORD_BYTES`` sets it."""
    monkeypatch.setenv("ASSAY_MAX_RECORD_BYTES", "1000")
    return 1000


@pytest.mark.parametrize(
    ("line", "rid"),
    [
        (f'{{"id": "b", "v": "{LONG}"}}', "b"),
        (f'{{"n": 1, "ok": true, "id": 7, "v": "{LONG}"}}', "7"),  # after scalars only
        (f'{{"meta": {{"id": "x"}}, "id": "b", "v": "{LONG}"}}', None),  # a nested "id" first
        (f'["b", "{LONG}"]', None),
    ],
)
def test_jsonl_oversized_line_is_that_lines_failure(
    tmp_path: Path, small_records: int, line: str, rid: str | None
) -> None:
    p = write(tmp_path / "p.jsonl", '{"id": "a"}\n' + line + '\n{"id": "c"}\n')
    out = list(read_jsonl(p))
    assert [r.id for r in records(out)] == ["a", "c"]
    [f] = failures(out)
    assert (f.line, f.id) == (2, rid)
    assert (
        f.reason.startswith("a line of ") and "beyond the limit of 1,000 for one record" in f.reason
    )


def test_csv_and_text_oversized_lines(tmp_path: Path, small_records: int) -> None:
    csv_path = write(tmp_path / "g.csv", f"id,label\n1,x\n2,{LONG}\n3,y\n")
    out = list(read_csv(csv_path))
    assert [r.id for r in records(out)] == ["1", "3"]
    assert [(f.line, f.reason[:9]) for f in failures(out)] == [(3, "a line of")]
    header = write(tmp_path / "h.csv", f"id,{LONG}\n1,x\n")
    assert [(f.line, f.reason[:9]) for f in failures(list(read_csv(header)))] == [(1, "a line of")]
    text = list(read_text_lines(write(tmp_path / "t.txt", f"one\n{LONG}\nthree\n")))
    assert [r.record["text"] for r in records(text)] == ["one", "three"]
    assert [(f.line, f.id) for f in failures(text)] == [(2, "2")]


def test_json_folder_file_beyond_the_record_limit(tmp_path: Path, small_records: int) -> None:
    write(tmp_path / "a.json", '{"id": "a"}')
    write(tmp_path / "b.json", f'{{"id": "b", "v": "{LONG}"}}')
    out = list(read_json_dir(tmp_path))
    [f] = failures(out)
    assert f.id == "b" and "beyond the limit of 1,000 for one record" in f.reason


def test_a_folder_reads_json_files_and_jsonl_shards(tmp_path: Path) -> None:
    write(tmp_path / "a.json", '{"id": "a"}')
    write(tmp_path / "part-1.jsonl", '{"id": "b"}\n{"id": "c"}\n')
    write(tmp_path / "part-2.ndjson", '{"id": "d"}\n')
    write(tmp_path / "README.md", "notes")
    assert [r.id for r in read_records(tmp_path)] == ["a", "b", "c", "d"]
    only_shards = tmp_path / "shards"
    only_shards.mkdir()
    write(only_shards / "x.jsonl", '{"id": "x"}\n')
    assert [r.id for r in read_records(only_shards)] == ["x"]


def test_a_folder_without_records_says_what_it_holds(tmp_path: Path) -> None:
    write(tmp_path / "gold.csv", "id,x\n")
    with pytest.raises(
        InputError, match=r"without \*\.json or \*\.jsonl files \(it holds gold\.csv\)"
    ):
        list(read_records(tmp_path))
    empty = tmp_path / "empty"
    empty.mkdir()
    with pytest.raises(InputError, match="an empty folder"):
        list(read_records(empty))


@pytest.mark.parametrize(
    ("text", "hint"),
    [
        ("id,expected\nd1,x\n", "looks like CSV text, header 'id,expected': name it .csv"),
        ("id\texpected\nd1\tx\n", "looks like TSV text"),
        ("hello\n", "a JSONL file holds one JSON object a line"),
    ],
)
def test_jsonl_that_is_a_table_says_so(tmp_path: Path, text: str, hint: str) -> None:
    out = list(read_jsonl(write(tmp_path / "g.jsonl", text)))
    assert hint in failures(out)[0].reason
    assert all(hint not in f.reason for f in failures(out)[1:])  # said once, at line 1


def test_missing_field_suggests_the_nearest_or_lists_the_fields() -> None:
    from assay._io.records import did_you_mean, missing_field

    record = {"id": "a", "predicted": "x", "confidence": 0.5}
    assert missing_field("prediction", "predictd", record) == (
        "prediction record has no field 'predictd' (did you mean 'predicted'?)"
    )
    assert missing_field("gold", "Predicted", record).endswith("(did you mean 'predicted'?)")
    assert missing_field("gold", "label", record) == (
        "gold record has no field 'label' (its fields: id, predicted, confidence)"
    )
    assert did_you_mean("x", []) == ""
