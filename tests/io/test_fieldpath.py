"""Nested field paths (assay._io.fieldpath): the grammar, the literal-key rule, errors naming the
absent segment, and the readers resolving a run's paths in every record."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from assay._io.fieldpath import (
    FieldPathError,
    field_paths,
    get_field,
    has_field,
    lookup,
    parse_path,
    record_paths,
)
from assay._io.readers import read_records
from assay._io.records import SourceRecord
from assay.errors import InputError, UsageError

SAMPLE = {
    "id": 7,
    "scores": {"choice": {"value": "C"}},
    "filtered_resps": ["12", "13"],
    "choices": [{"message": {"content": "Paris"}}],
    "vars": {"user.id": "u-1"},
    "a.b": "literal",
    "a": {"b": "nested"},
}


@pytest.mark.parametrize(
    ("path", "value"),
    [
        ("scores.choice.value", "C"),
        ("filtered_resps[0]", "12"),
        ("filtered_resps[-1]", "13"),
        ("choices[0].message.content", "Paris"),
        ('vars["user.id"]', "u-1"),
        ("a.b", "literal"),  # a literal top-level key wins over the path
        ("id", 7),
    ],
)
def test_paths_resolve(path: str, value: object) -> None:
    assert lookup(SAMPLE, path) == value
    assert get_field(SAMPLE, path) == value
    assert has_field(SAMPLE, path)


def test_parse_segments() -> None:
    assert parse_path('a[0].b["c.d"][-2]').segments == ("a", 0, "b", "c.d", -2)


@pytest.mark.parametrize(
    ("path", "message"),
    [
        (
            "scores.match.value",
            'field "scores.match.value": no key "match" under "scores" (has: "choice")',
        ),
        (
            "filtered_resps[5]",
            'field "filtered_resps[5]": no index [5] under "filtered_resps" (an array of 2)',
        ),
        (
            "choices[0].message.content.x",
            'field "choices[0].message.content.x": no key "x": choices[0].message.content is a '
            "string, not an object",
        ),
        ("scores[0]", 'field "scores[0]": cannot index [0]: scores is an object, not an array'),
        ("nope", 'field "nope": no key "nope" (has: "id", "scores", "filtered_resps", '),
    ],
)
def test_errors_name_the_absent_segment(path: str, message: str) -> None:
    with pytest.raises(FieldPathError) as err:
        lookup(SAMPLE, path)
    assert str(err.value).startswith(message)
    assert get_field(SAMPLE, path, "dflt") == "dflt"
    assert not has_field(SAMPLE, path)


@pytest.mark.parametrize("bad", ["", ".a", "a..b", "a[x]", "a[0", "a]"])
def test_malformed_paths_are_usage_errors(bad: str) -> None:
    with pytest.raises(UsageError):
        parse_path(bad)


def test_field_paths_of_a_section() -> None:
    from assay.suites.classification.settings import ClassificationSettings

    section = ClassificationSettings(predicted_field="out.text", expected_field="gold")
    assert field_paths(section) == ["id", "gold", "out.text"]


def _write(path: Path, rows: list[dict[str, object]]) -> Path:
    path.write_text("".join(json.dumps(r) + "\n" for r in rows), encoding="utf-8")
    return path


def test_readers_resolve_a_runs_nested_paths(tmp_path: Path) -> None:
    rows = [
        {"meta": {"id": "q1"}, "out": {"choices": [{"text": "a"}]}},
        {"meta": {"id": "q2"}, "out": {"choices": []}},
    ]
    path = _write(tmp_path / "p.jsonl", rows)
    with record_paths(["meta.id", "out.choices[0].text", "plain"]):
        got = list(read_records(path, id_field="meta.id"))
    assert [r.id for r in got if isinstance(r, SourceRecord)] == ["q1", "q2"]
    first, second = (r.record for r in got if isinstance(r, SourceRecord))
    assert first["out.choices[0].text"] == "a"
    assert "out.choices[0].text" not in second  # absent in one record: the suite's rule
    # outside a run nothing is added
    plain = [r for r in read_records(path) if isinstance(r, SourceRecord)]
    assert "meta.id" not in plain[0].record


def test_a_path_resolving_in_no_record_names_the_segment(tmp_path: Path) -> None:
    path = _write(tmp_path / "p.jsonl", [{"id": 1, "out": {"text": "a"}}])
    with record_paths(["out.txt"]), pytest.raises(InputError) as err:
        list(read_records(path))
    assert 'no key "txt" under "out" (has: "text")' in str(err.value)
    assert str(err.value).startswith(f"{path}:1:")
    # a path whose first segment is in no record belongs to the other file: no error
    with record_paths(["gold.label"]):
        assert len(list(read_records(path))) == 1


def test_classification_reads_nested_fields(tmp_path: Path) -> None:
    import assay

    rows = [
        {"id": 1, "gold": {"label": "a"}, "out": {"choices": [{"message": {"content": "a"}}]}},
        {"id": 2, "gold": {"label": "b"}, "out": {"choices": [{"message": {"content": "a"}}]}},
    ]
    path = _write(tmp_path / "p.jsonl", rows)
    run = assay.score(
        "classification",
        pred=path,
        expected_field="gold.label",
        predicted_field="out.choices[0].message.content",
        ci=False,
    )
    assert run.metrics["exact_match"].value == 0.5
