"""JSONL read a block at a time (``_flat_objects``): exactly the results of line by line."""

from __future__ import annotations

from pathlib import Path

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from assay._io import readers
from assay._io.decoding import open_lines
from assay._io.readers import _flat_objects, _iter_lines, _jsonl_line, read_jsonl
from assay._io.records import ReadResult, SourceRecord


def line_by_line(path: Path, id_field: str | None = "id") -> list[ReadResult]:
    """The reader as it was: every line parsed on its own (``_jsonl_line``)."""
    out = []
    with open_lines(path) as f:
        for lineno, raw in _iter_lines(f, path):
            res = _jsonl_line(raw, lineno, str(path), id_field, {}, f.oversized)
            if res is not None:
                out.append(res)
    return out


#: pieces that make valid records, and pieces that break them in every way a reader must see
fragment = st.sampled_from(
    [
        '{"id": "a", "label": "x"}',
        '{"id":"b","label":"y"}',
        '{"id": 7, "label": 1.5}',
        '{"id": "c", "label": null, "n": true}',
        '{"id": "{", "label": "}"}',
        '{"id": "d", "v": [1, 2]}',
        '{"id": "e", "v": {"w": 1}}',
        '{"id": "f", "v": NaN}',
        '{"id": "g", "v": 1e999}',
        '{"a": 1',
        '"b": 2}',
        '{"p": 1}, {"q": 2}',
        '{"p": 1}, 5',
        "[1",
        "2]",
        "  ",
        "",
        ' {"id": "h"}',
        '{"id": "i"} ',
        '{"id": "j"}\r',
        "\ufeff{}",
        "{}",
        '"text"',
        "3",
        '{"id": true}',
        '{"id": "k", "dup": 1, "dup": 2}',
        '{"id": "\\u00e9", "s": "a\\nb"}',
    ]
)
lines = st.lists(st.lists(fragment, min_size=1, max_size=3).map("".join), max_size=30)


@given(lines, st.sampled_from([1, 8, 64, 1 << 20]), st.booleans())
@settings(
    max_examples=300, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture]
)
def test_blocks_give_exactly_the_line_by_line_results(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, text: list[str], block: int, newline: bool
) -> None:
    monkeypatch.setattr(readers, "_BLOCK_BYTES", block)
    path = tmp_path / "x.jsonl"
    path.write_bytes(("\n".join(text) + ("\n" if newline else "")).encode("utf-8"))
    assert list(read_jsonl(path)) == line_by_line(path)


def test_records_split_across_lines_are_never_joined(tmp_path: Path) -> None:
    # as one array these lines would parse into three objects for three lines
    path = tmp_path / "x.jsonl"
    path.write_text('{"a": 1\n"b": 2}\n{"p": 1}, {"q": 2}\n', "utf-8")
    assert _flat_objects(path.read_bytes()) is None
    got = list(read_jsonl(path))
    assert got == line_by_line(path)
    assert [type(r).__name__ for r in got] == ["ParseFailure"] * 3


def test_a_block_of_flat_records_is_one_parse(tmp_path: Path) -> None:
    data = b'{"id": "a", "x": "1"}\n{"id": "b", "x": 2}\r\n'
    assert _flat_objects(data) == [{"id": "a", "x": "1"}, {"id": "b", "x": 2}]
    for refused in (b'{"id": "a"}\n\n{"id": "b"}\n', b'{"id": NaN}\n', b'{"id": "\xff"}\n'):
        assert _flat_objects(refused) is None


def test_bad_bytes_and_a_bom_keep_their_lines(tmp_path: Path) -> None:
    path = tmp_path / "x.jsonl"
    path.write_bytes(b'\xef\xbb\xbf{"id": "a"}\n{"id": "\xff"}\n\n{"id": "c"}')
    got = list(read_jsonl(path))
    assert got == line_by_line(path)
    assert [r.line for r in got] == [1, 2, 4]


@given(lines)
@settings(
    max_examples=60, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture]
)
def test_blocks_without_an_id_field_give_the_line_by_line_results(
    tmp_path: Path, text: list[str]
) -> None:
    path = tmp_path / "x.jsonl"
    path.write_bytes(("\n".join(text) + "\n").encode("utf-8"))
    assert list(read_jsonl(path, id_field=None)) == line_by_line(path, None)


def test_a_record_made_by_its_slots_is_the_dataclass_record() -> None:
    """``_new_record`` (the slots set directly) gives the record ``SourceRecord(...)`` gives:
    equal, same hash-less frozen behaviour, repr, pickling and ``where``."""
    import pickle
    from dataclasses import FrozenInstanceError

    made = readers._new_record("a", {"id": "a", "x": 1}, "f.jsonl", 3)
    want = SourceRecord("a", {"id": "a", "x": 1}, "f.jsonl", 3)
    assert made == want and type(made) is SourceRecord
    assert repr(made) == repr(want) and made.where() == want.where() == "f.jsonl:3"
    assert pickle.loads(pickle.dumps(made)) == want
    with pytest.raises(FrozenInstanceError):
        made.id = "b"  # type: ignore[misc]
