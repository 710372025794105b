"""The artifact's per-item members: record lines written straight are the validated records'
lines, and a run scored in memory makes its records and statistics rows when read, giving
what a list of records and the rows as lists gave."""

from __future__ import annotations

import json
import pickle
from pathlib import Path
from typing import Any

import numpy as np
import pytest
from hypothesis import example, given, settings
from hypothesis import strategies as st

import assay
from assay._engine.item import Item
from assay._engine.records import (
    ScoredRecords,
    item_record,
    record_line,
    record_lines,
    stats_member,
)
from assay._engine.run import ItemRecord, Run, item_line
from assay._engine.spill import StatsRows
from assay._engine.task import ItemScore, item_outcome
from assay.metrics.table import StatsTable
from tests.engine.test_spill_sequences import json_values


@settings(max_examples=80, deadline=None)
@given(
    scores=st.dictionaries(
        st.text(max_size=3),
        st.none() | st.booleans() | st.integers(-5, 5) | st.floats(allow_nan=True),
        max_size=3,
    ),
    flags=st.lists(st.sampled_from(["missing", "score_error", "é"]), max_size=2),
    details=st.dictionaries(st.text(max_size=3), json_values, max_size=3),
    status=st.sampled_from(["ok", "missing", "failed"]),
    source=st.none() | st.text(max_size=4),
)
def test_item_record_is_the_validated_record(
    scores: dict[str, Any],
    flags: list[str],
    details: dict[str, Any],
    status: Any,
    source: str | None,
) -> None:
    """Written straight or through the validated record, an item's artifact line is that of
    ``ItemRecord(...)`` (ints and booleans among the scores become floats, NaN null)."""
    item = Item(
        "id-1", {"g": 1}, None if status != "ok" else {"p": 1}, source=source, status=status
    )
    score = ItemScore(stats={}, scores=scores, flags=tuple(flags), details=details)
    got = item_record(item, score, "ab" * 32)
    status_line, line = record_line(item, score, "ab" * 32)
    status_, error = item_outcome(item, score)
    want = ItemRecord(
        id="id-1",
        status=status_,
        gold_sha256="ab" * 32,
        source=source,
        error=error,
        scores=scores,
        flags=flags,
        details=details,
    )
    assert item_line(got) == item_line(want) == line
    assert status_line == want.status
    assert ItemRecord.model_validate_json(item_line(got)) == ItemRecord.model_validate_json(
        item_line(want)
    )
    assert [type(v) for v in got.scores.values()] == [type(v) for v in want.scores.values()]


#: texts that exercise the JSON string escaping: quotes, backslashes, C0 controls, DEL,
#: non-ASCII (U+2028 and astral ones) and lone surrogates (not encodable as UTF-8)
tricky_text = st.text(
    alphabet=st.sampled_from([*'"\\\x00\x08\t\n\x0c\r\x1f\x7fa/é\u2028\U0001f600\ud800'])
    | st.characters(),
    max_size=6,
)


@settings(max_examples=150, deadline=None)
@given(
    rows=st.lists(
        st.tuples(
            tricky_text,
            st.sampled_from(["ok", "missing", "failed"]),
            st.none() | tricky_text,
            st.none() | tricky_text,
            st.integers(0, 2),
        ),
        min_size=1,
        max_size=8,
    ),
    shared=st.lists(
        st.tuples(
            st.dictionaries(tricky_text, st.none() | st.floats() | st.integers(-2, 2), max_size=2),
            st.lists(st.sampled_from(["missing", "score_error", "é", 'a"b']), max_size=2),
            st.dictionaries(tricky_text, json_values | tricky_text, max_size=3),
        ),
        min_size=3,
        max_size=3,
    ),
)
@example(
    # a lone surrogate as a score's key: pydantic-core's plain ``to_json`` refuses it, the
    # validated record writes it (as U+FFFD), so the line is the validated record's
    rows=[("", "ok", None, None, 1)],
    shared=[({}, [], {}), ({"\ud800": None}, [], {}), ({}, [], {})],
)
def test_record_lines_are_the_validated_records(
    rows: list[tuple[str, Any, str | None, str | None, int]],
    shared: list[tuple[dict[str, Any], list[str], dict[str, Any]]],
) -> None:
    """``record_lines`` (heads by json's C string encoder, a score's end once per score
    object) writes each item's line exactly as ``item_line`` of the validated ``ItemRecord``,
    whatever the texts; items share score objects as a suite's batch may hand them; a line
    the encoder cannot write (a lone surrogate) fails as the validated record does."""
    score_objects = [
        ItemScore(stats={}, scores=sc, flags=tuple(fl), details=de) for sc, fl, de in shared
    ]
    items, scores, digests = [], [], []
    for k, (item_id, status, source, error, which) in enumerate(rows):
        items.append(Item(item_id, {"g": 1}, None, source=source, error=error, status=status))
        scores.append(score_objects[which])
        digests.append(f"{k:064x}")
    want: list[tuple[str, bytes] | type[Exception]] = []
    for item, s, digest in zip(items, scores, digests, strict=True):
        try:
            record = item_record(item, s, digest)
            want.append((record.status, item_line(record)))
        except Exception as exc:  # the same failure is expected
            want.append(type(exc))
    if any(isinstance(w, type) for w in want):
        with pytest.raises(Exception) as raised:
            record_lines(items, scores, digests)
        assert type(raised.value) in {w for w in want if isinstance(w, type)}
        return
    statuses, lines = record_lines(items, scores, digests)
    assert list(zip(statuses, lines, strict=True)) == want
    assert [record_line(i, s, d) for i, s, d in zip(items, scores, digests, strict=True)] == want


def _scored(n: int) -> tuple[list[Item], list[ItemScore], dict[str, str]]:
    items = [
        Item(f"i{k}", {"g": k}, {"p": k} if k % 4 else None, status="ok" if k % 4 else "missing")
        for k in range(n)
    ]
    scores = [
        ItemScore(
            stats={"a": float(k)},
            scores={"x": k / 2, "y": None} if k % 3 else {"x": k},  # an int becomes a float
            flags=("missing",) if k % 4 == 0 else (),
            details={"text": f"é{k}", "n": [k]},
        )
        for k in range(n)
    ]
    return items, scores, {item.id: f"{k:064x}" for k, item in enumerate(items)}


@pytest.mark.parametrize("n", [0, 1, 5, 257, 600])
def test_scored_records_are_the_list_of_validated_records(n: int) -> None:
    """Read any way (index, negative index, slice, iteration, lines), the records made when
    read are those a list of ``item_record`` held; equal to that list, pickled as it."""
    items, scores, digests = _scored(n)
    want = [item_record(i, s, digests[i.id]) for i, s in zip(items, scores, strict=True)]
    got = ScoredRecords(items, scores, digests)
    assert len(got) == n
    assert list(got) == want and got == want and want == got
    assert list(got.raw()) == [item_line(r) for r in want]
    if n:
        assert got[0] == want[0] and got[-1] == want[-1]
        assert got.raw_at(n - 1) == item_line(want[-1])
        assert got[1:n:2] == want[1:n:2] and got[-3:] == want[-3:]
        assert type(got[0].scores["x"]) is float
    assert pickle.loads(pickle.dumps(got)) == want
    assert type(pickle.loads(pickle.dumps(got))) is list
    with pytest.raises(IndexError):
        got[n]


def test_scored_records_refuse_items_and_scores_of_different_lengths() -> None:
    items, scores, digests = _scored(3)
    with pytest.raises(ValueError, match="3 items but 2 scores"):
        ScoredRecords(items, scores[:2], digests)


@settings(max_examples=40, deadline=None)
@given(
    rows=st.lists(
        st.lists(
            st.integers(-(2**55), 2**55).map(float)
            | st.floats(allow_nan=False, allow_infinity=False),  # a table holds finite values
            min_size=3,
            max_size=3,
        ),
        max_size=10,
    )
)
def test_stats_member_rows_are_to_json_rows(rows: list[list[float]]) -> None:
    """The rows made when read are ``StatsTable.to_json``'s (whole numbers as ints)."""
    values = np.array(rows, dtype=np.float64).reshape(len(rows), 3)
    table = StatsTable(tuple(f"i{k}" for k in range(len(rows))), ("a", "b", "c"), values)
    member = stats_member(table)
    assert isinstance(member["values"], StatsRows)
    assert member["ids"] == list(table.ids) and member["columns"] == ["a", "b", "c"]
    want = table.to_json()["values"]
    got = list(member["values"])
    assert [[repr(v) for v in r] for r in got] == [[repr(v) for v in r] for r in want]


def test_a_run_scored_in_memory_writes_what_its_records_as_a_list_write(
    tmp_path: Path, labels_files: tuple[Path, Path]
) -> None:
    """The artifact of a run scored here is the one its records and rows as lists give, and
    it loads back equal; the run is not a spilled one."""
    gold, pred = labels_files
    run = assay.score("classification", pred=pred, gold=gold, n_bootstrap_ci=200)
    assert isinstance(run.items, ScoredRecords) and not run.spilled
    as_lists = run.model_copy(
        update={
            "items": list(run.items),
            "stats": {**run.stats, "values": [list(r) for r in run.stats["values"]]},
        }
    )
    assert run.to_json() == as_lists.to_json()
    back = Run.load(run.save(tmp_path / "run.json"))
    assert back.items == run.items and back.table().values.tolist() == run.table().values.tolist()
    assert json.loads(run.to_json())["stats"]["values"] == list(run.stats["values"])
