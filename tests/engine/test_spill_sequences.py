"""The lazy sequences of a spilled run behave like the lists they replace, and the streamed
artifact writer and fingerprint give the same text and digest as the in-memory ones."""

from __future__ import annotations

import json
import pickle
from typing import Any

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

import assay._engine.run as run_module
import assay._engine.spill as spill_module
from assay._engine.cohort import Cohort
from assay._engine.item import Item
from assay._engine.outofcore import SpillCollector, _cells, spill_cohort
from assay._engine.provenance import surface_fingerprint, surface_fingerprint_streamed
from assay._engine.run import ItemRecord, _stats_pieces, item_line, json_safe
from assay._engine.spill import SpillDir, StatsRows, pickled_sequence
from assay._engine.task import ItemScore
from assay.metrics.table import StatsTable

json_scalars = (
    st.none()
    | st.booleans()
    | st.integers(min_value=-(2**60), max_value=2**60)
    | st.floats(allow_nan=True, allow_infinity=True)
    | st.text(max_size=8)
)
json_values = st.recursive(
    json_scalars,
    lambda inner: (
        st.lists(inner, max_size=4) | st.dictionaries(st.text(max_size=5), inner, max_size=4)
    ),
    max_leaves=20,
)


@settings(max_examples=60, deadline=None)
@given(
    values=st.lists(json_values, max_size=40),
    block=st.sampled_from([1, 16, 1 << 20]),
    data=st.data(),
)
def test_spilled_sequence_behaves_like_a_list(
    values: list[Any], block: int, data: st.DataObject
) -> None:
    with pytest.MonkeyPatch.context() as mp:
        mp.setattr(spill_module, "READ_BLOCK", block)
        _check_sequence(values, data)


def _check_sequence(values: list[Any], data: st.DataObject) -> None:
    folder = SpillDir()
    f = folder.file("values.pickle")
    for v in values:
        f.append(pickle.dumps(v))
    seq = pickled_sequence(f)
    expected = [pickle.loads(pickle.dumps(v)) for v in values]  # NaN-safe comparison below
    as_text = json.dumps
    assert len(seq) == len(values)
    assert as_text(list(seq)) == as_text(expected)
    if values:
        i = data.draw(st.integers(-len(values), len(values) - 1))
        assert as_text(seq[i]) == as_text(expected[i])
    lo = data.draw(st.integers(-50, 50))
    hi = data.draw(st.integers(-50, 50) | st.none())
    step = data.draw(st.sampled_from([1, 2, -1, 3]))
    assert as_text(seq[lo:hi:step]) == as_text(expected[lo:hi:step])
    with pytest.raises(IndexError):
        seq[len(values)]
    assert as_text(pickle.loads(pickle.dumps(seq))) == as_text(expected)
    folder.cleanup()
    assert not folder.path.exists()


@settings(max_examples=60, deadline=None)
@given(
    sizes=st.lists(st.integers(0, 40), min_size=1, max_size=60),
    ahead=st.sampled_from([1, 8, 64, 1 << 16]),
    data=st.data(),
)
def test_reads_by_index_with_read_ahead_give_each_record(
    sizes: list[int], ahead: int, data: st.DataObject
) -> None:
    """Forward runs, jumps back, repeats and appends between reads: every read is its record."""
    with pytest.MonkeyPatch.context() as mp:
        mp.setattr(spill_module, "READ_AHEAD", ahead)
        f = SpillDir().file("records")
        records = [bytes([k % 256]) * n for k, n in enumerate(sizes)]
        half = len(records) // 2
        for r in records[:half]:
            f.append(r)
        order = data.draw(st.lists(st.integers(0, max(half - 1, 0)), max_size=40))
        for i in [*range(half), *order] if half else []:
            assert f.read(i) == records[i]
        for r in records[half:]:
            f.append(r)
        for i in [*range(len(records)), *reversed(range(len(records)))]:
            assert f.read(i) == records[i]


@settings(max_examples=60, deadline=None)
@given(
    st.lists(
        st.lists(
            st.integers(-(2**55), 2**55).map(float) | st.floats(-1e6, 1e6), min_size=3, max_size=3
        ),
        max_size=20,
    )
)
def test_stats_rows_are_the_artifact_rows(rows: list[list[float]]) -> None:
    values = np.array(rows, dtype=np.float64).reshape(len(rows), 3)
    table = StatsTable(tuple(f"i{k}" for k in range(len(rows))), ("a", "b", "c"), values)
    lazy = StatsRows(table.values)
    expected = json_safe(table.to_json()["values"])
    assert list(lazy) == expected and lazy == expected
    assert [lazy[k] for k in range(len(rows))] == expected and lazy[1:] == expected[1:]
    assert np.asarray(lazy, dtype=np.float64) is table.values
    back = StatsTable.from_json({"ids": table.ids, "columns": table.columns, "values": lazy})
    assert np.array_equal(back.values, table.values)


@settings(max_examples=80, deadline=None)
@given(
    ids=st.lists(st.text(max_size=4), max_size=12),
    rows=st.lists(
        st.lists(
            st.integers(-(2**55), 2**55).map(float)
            | st.floats(allow_nan=False, allow_infinity=False),
            min_size=3,
            max_size=3,
        ),
        max_size=12,
    ),
    block=st.sampled_from([1, 2, 3, 7, 4096]),
)
def test_stats_section_reads_back_and_spilled_rows_write_the_same(
    ids: list[str], rows: list[list[float]], block: int
) -> None:
    values = np.array(rows, dtype=np.float64).reshape(len(rows), 3)
    table = StatsTable(tuple(f"i{k}" for k in range(len(rows))), ("a", "b", "c"), values)
    with pytest.MonkeyPatch.context() as mp:
        mp.setattr(run_module, "CELL_BLOCK", block)  # cells: fewer than a row is one row
        listed = "".join(_stats_pieces({**table.to_json(), "extra": ids}))
        lazy = "".join(
            _stats_pieces({**table.to_json(), "values": StatsRows(values), "extra": ids})
        )
    assert lazy == listed
    assert json.loads(listed) == json_safe({**table.to_json(), "extra": ids})
    # one statistics row a line, whatever the block size
    assert listed.count("\n      [") == len(rows)


@settings(max_examples=80, deadline=None)
@given(
    status=st.sampled_from(["ok", "missing", "failed"]),
    source=st.none() | st.text(max_size=6),
    error=st.none() | st.text(max_size=6),
    scores=st.dictionaries(st.text(max_size=4), st.none() | st.floats(), max_size=3),
    flags=st.lists(st.text(max_size=4), max_size=3),
    details=st.dictionaries(st.text(max_size=5), json_values, max_size=3),
)
def test_item_line_is_one_line_that_reads_back(
    status: str,
    source: str | None,
    error: str | None,
    scores: dict[str, float | None],
    flags: list[str],
    details: dict[str, Any],
) -> None:
    record = ItemRecord(
        id="x\ny",
        status=status,
        gold_sha256="0" * 64,
        source=source,
        error=error,
        scores=scores,
        flags=flags,
        details=details,
    )
    text = item_line(record).decode("utf-8")
    # model_dump_json's bytes, as it encodes them before decoding
    assert text == record.model_dump_json(exclude_defaults=True)
    assert "\n" not in text
    back = ItemRecord.model_validate_json(text)
    assert back.model_dump() == json_safe(record.model_dump())
    assert item_line(back).decode("utf-8") == text  # byte-stable through a round trip
    if source is None:
        assert "source" not in json.loads(text)  # a field at its default is left out


@settings(max_examples=60, deadline=None)
@given(st.lists(st.text(min_size=1, max_size=6), unique=True, max_size=30))
def test_streamed_fingerprint_equals_the_in_memory_one(ids: list[str]) -> None:
    digests = {i: f"{abs(hash(i)):064x}"[-64:] for i in ids}
    assert surface_fingerprint_streamed(ids, lambda k: digests[ids[k]]) == surface_fingerprint(
        ids, digests
    )


score_rows = st.lists(
    st.tuples(
        st.dictionaries(st.sampled_from("abcdefghij"), st.floats(-5, 5), max_size=6),
        st.dictionaries(st.sampled_from("xy"), st.none() | st.floats(0, 1), max_size=2),
        st.lists(st.sampled_from(["error_row", "missing", "odd"]), max_size=2),
        st.dictionaries(st.text(max_size=3), json_values, max_size=3),
        st.booleans(),
    ),
    min_size=1,
    max_size=25,
)


@settings(max_examples=40, deadline=None)
@given(score_rows)
def test_spilled_scores_equal_the_item_scores(rows: list[tuple[Any, ...]]) -> None:
    items = tuple(Item(f"id{k}", {"g": k}, {"p": k}) for k in range(len(rows)))
    scores = [
        ItemScore(stats=s, scores=sc, flags=tuple(f), details=d, abstained=a)
        for s, sc, f, d, a in rows
    ]
    spilled = spill_cohort(Cohort(items=items), SpillDir())
    assert list(spilled.items) == list(items)
    collector = SpillCollector(spilled)
    half = len(items) // 2
    collector.add(items[:half], scores[:half])
    collector.add_from(half, scores[half:])
    table = collector.table()
    expected = StatsTable.from_rows(
        [i.id for i in items],
        [s.stats for s in scores],
        list(dict.fromkeys(c for s in scores for c in s.stats)),
    )
    assert table.columns == expected.columns
    assert np.array_equal(table.values, expected.values)
    lazy = collector.item_scores(table)
    assert len(lazy) == len(scores)
    for got, want in zip(lazy, scores, strict=True):
        assert dict(got.stats) == want.stats and got.stats == want.stats
        assert set(got.stats) == set(want.stats) and len(got.stats) == len(want.stats)
        assert json.dumps([got.scores, got.flags, got.details, got.abstained]) == json.dumps(
            [want.scores, want.flags, want.details, want.abstained]
        )
    assert lazy[-1].stats == scores[-1].stats and lazy[:2][0].stats == scores[0].stats
    back = pickle.loads(pickle.dumps(lazy[0]))
    assert type(back) is ItemScore and back.stats == scores[0].stats
    assert collector.abstained == [i.id for i, s in zip(items, scores, strict=True) if s.abstained]
    with pytest.raises(KeyError):
        lazy[0].stats["not-a-column"]


@settings(max_examples=60, deadline=None)
@given(
    st.lists(st.lists(st.binary(max_size=40), max_size=6), max_size=8),
    st.sampled_from([1, 64, 1 << 20]),
)
def test_extend_is_append_of_each_record(groups: list[list[bytes]], block: int) -> None:
    with pytest.MonkeyPatch.context() as mp:
        mp.setattr(spill_module, "READ_BLOCK", block)
        one, many = SpillDir().file("one"), SpillDir().file("many")
        for group in groups:
            for record in group:
                one.append(record)
            many.extend(list(group))
        records = [r for group in groups for r in group]
        assert len(many) == len(one) == len(records)
        assert [many.read(i) for i in range(len(records))] == records
        assert list(many.iter_range()) == list(one.iter_range()) == records


@settings(max_examples=80, deadline=None)
@given(
    rows=st.lists(
        st.dictionaries(st.sampled_from("abcdef"), st.floats(-3, 3) | st.integers(-3, 3)),
        min_size=1,
        max_size=5,
    ),
    which=st.lists(st.integers(0, 4), max_size=30),
    start=st.integers(0, 5),
)
def test_collector_cells_are_each_items_row(
    rows: list[dict[str, float]], which: list[int], start: int
) -> None:
    """``_cells`` (the distinct rows laid end to end, gathered per item) sets exactly the
    cells an item-by-item loop over each item's statistics sets."""
    which = [w % len(rows) for w in which]
    columns: dict[str, int] = {}
    places = [[columns.setdefault(name, len(columns)) for name in row] for row in rows]
    values = [[float(v) for v in row.values()] for row in rows]
    got_rows, got_cols, got_values = _cells(start, np.array(which, dtype=np.intp), places, values)
    want = [
        (start + k, place, value)
        for k, w in enumerate(which)
        for place, value in zip(places[w], values[w], strict=True)
    ]
    got = list(zip(got_rows.tolist(), got_cols.tolist(), got_values.tolist(), strict=True))
    assert got == want


def test_collector_table_with_shared_scores_equals_one_score_per_item() -> None:
    """Items handed one score object each, or sharing a few, give the same table, score
    spill and artifact lines."""
    n = 40
    items = [Item(f"i{k}", {"g": k % 3}, {"p": 1}) for k in range(n)]
    rows = [{"a": 1.0, "b": 0.0}, {"b": 2.0}, {"c": 1.0, "a": 0.5, "d": 3.0}]
    shared = [ItemScore(stats=r, scores={"x": r.get("a")}, details={"k": 1}) for r in rows]
    copies = [ItemScore(stats=dict(rows[k % 3]), scores={"x": rows[k % 3].get("a")},
                        details={"k": 1}) for k in range(n)]  # fmt: skip
    got = []
    for scores in ([shared[k % 3] for k in range(n)], copies):
        cohort = spill_cohort(Cohort(items=tuple(items)), SpillDir())
        collector = SpillCollector(cohort)
        collector.add(items[:17], scores[:17])
        collector.add(items[17:], scores[17:])
        table = collector.table()
        got.append(
            (
                table.columns,
                table.values.tolist(),
                collector.present[:n].tolist(),
                list(collector.item_records().raw()),
                [dict(s.stats) for s in collector.item_scores(table)],
            )
        )
    assert got[0] == got[1]
    assert got[0][4] == [rows[k % 3] for k in range(n)]
