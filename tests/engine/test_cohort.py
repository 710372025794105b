"""Pairing and cohort accounting."""

from __future__ import annotations

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from assay._engine.cohort import _natural_key, build_cohort, canonical_order
from assay._io.records import ParseFailure, SourceRecord
from assay.errors import InputError


def rec(i: str | None, line: int, **fields: object) -> SourceRecord:
    return SourceRecord(i, dict(fields), "f.jsonl", line)


def test_surface_is_canonical_order_and_missing_stays() -> None:
    gold = [rec("b", 1, y=1), rec("a", 2, y=2), rec("c", 3, y=3)]
    preds = [rec("a", 1, p=1), rec("b", 2, p=2)]
    c = build_cohort(preds, gold)
    assert c.ids == ["a", "b", "c"]  # by id, not by gold file order (issue 20)
    assert c.missing_ids == ["c"]
    assert (c.attempted, c.evaluated) == (3, 2)


def test_parse_failure_with_id_is_a_failed_item() -> None:
    gold = [rec("a", 1), rec("b", 2)]
    preds = [rec("a", 1), ParseFailure("dir/b.json", None, "invalid JSON", id="b")]
    c = build_cohort(preds, gold)
    assert c.failed[0].id == "b" and c.failed[0].reason == "invalid JSON"
    assert c.items[1].status == "failed"
    assert not c.parse_failures


def test_unattributable_failures_are_listed() -> None:
    c = build_cohort([rec("a", 1), ParseFailure("p.jsonl", 2, "bad"), rec(None, 3)], [rec("a", 1)])
    assert [f.where for f in c.parse_failures] == ["p.jsonl:2", "f.jsonl:3"]


def test_duplicate_gold() -> None:
    same = build_cohort([rec("a", 1)], [rec("a", 1, y=1), rec("a", 2, y=1)])
    assert same.duplicates[0].reason.startswith("duplicate gold")
    with pytest.raises(InputError, match="duplicate gold id 'a'"):
        build_cohort([rec("a", 1)], [rec("a", 1, y=1), rec("a", 2, y=2)])


def test_expected_and_restrict() -> None:
    gold = [rec(x, i) for i, x in enumerate("abcd")]
    preds = [rec(x, i) for i, x in enumerate("abe")]
    c = build_cohort(preds, gold, expected_ids=["d", "a", "z"], restrict_ids=["a", "d", "e", "z"])
    assert c.ids == ["a", "d"]
    assert c.no_gold_ids == ("z",)
    assert c.missing_ids == ["d"]
    # b is outside the ids file (not scored, not unmatched); e is inside it but has no gold
    assert [u.id for u in c.unmatched] == ["e"]
    assert c.n_excluded == 2


def test_prediction_outside_surface_is_unmatched() -> None:
    c = build_cohort([rec("a", 1), rec("q", 2)], [rec("a", 1)])
    assert [(u.id, u.where) for u in c.unmatched] == [("q", "f.jsonl:2")]


def test_errors() -> None:
    with pytest.raises(InputError, match="no usable gold"):
        build_cohort([rec("a", 1)], [])
    with pytest.raises(InputError, match="none of the 2 predictions"):
        build_cohort([rec("x", 1), rec("y", 2)], [rec("a", 1)])


def test_sink_receives_the_items_and_the_accounting_is_unchanged() -> None:
    from assay._engine.item import Item
    from assay._engine.outofcore import CohortSpiller
    from assay._engine.spill import SpillDir

    gold = [rec("b", 1, y=1), rec("a", 2, y=2), rec("c", 3, y=3), rec("d", 4, y=4)]
    preds = [
        rec("a", 1, p=1),
        ParseFailure("p.jsonl", 2, "invalid JSON", id="b"),
        rec("a", 3, p=9),
        rec("z", 4, p=0),
        ParseFailure("p.jsonl", 5, "bad"),
    ]
    kept = build_cohort(preds, gold, expected_ids=["a", "b", "c", "x"])
    seen: list[Item] = []
    sunk = build_cohort(preds, gold, expected_ids=["a", "b", "c", "x"], sink=seen.append)
    assert tuple(seen) == kept.items and sunk.items == ()
    assert (sunk.unmatched, sunk.duplicates, sunk.parse_failures) == (
        kept.unmatched,
        kept.duplicates,
        kept.parse_failures,
    )
    assert (sunk.no_gold_ids, sunk.n_excluded, sunk.warnings) == (
        kept.no_gold_ids,
        kept.n_excluded,
        kept.warnings,
    )
    spiller = CohortSpiller(SpillDir())
    spilled = spiller.finish(
        build_cohort(preds, gold, expected_ids=["a", "b", "c", "x"], sink=spiller)
    )
    assert list(spilled.items) == list(kept.items) and spilled.ids == kept.ids
    assert (spilled.evaluated, spilled.missing_ids, spilled.failed) == (
        kept.evaluated,
        kept.missing_ids,
        kept.failed,
    )


def test_canonical_order_is_natural_and_file_order_free() -> None:
    ids = ["10", "2", "1", "007", "7", "x10", "x9", "x09", "b", "A", "9" * 5000]
    expected = ["1", "2", "007", "7", "10", "9" * 5000, "A", "b", "x09", "x9", "x10"]
    assert canonical_order(ids) == expected
    assert canonical_order(reversed(ids)) == expected
    assert canonical_order(["3", "20", "100"]) == ["3", "20", "100"]  # line numbers keep order
    gold = [rec(x, i) for i, x in enumerate(["c", "a", "b"])]
    shuffled = [rec(x, i) for i, x in enumerate(["b", "c", "a"])]
    assert build_cohort(gold, gold).ids == build_cohort(shuffled, shuffled).ids == ["a", "b", "c"]


@settings(max_examples=80, deadline=None)
@given(
    st.lists(
        st.tuples(
            st.text(st.characters(categories=["L", "P", "Zs"]), min_size=1, max_size=3),
            st.text(st.sampled_from("0019٣"), min_size=1, max_size=4),
        ).map("".join),
        max_size=30,
    )
)
def test_prefixed_ids_sort_as_the_natural_key_says(ids: list[str]) -> None:
    """The flat key for "text then digits" ids gives exactly ``_natural_key``'s order."""
    assert canonical_order(ids) == sorted(ids, key=_natural_key)
    assert canonical_order([*ids, "1"]) == sorted([*ids, "1"], key=_natural_key)  # mixed shapes


def test_no_usable_gold_names_files_places_and_reasons() -> None:
    """Issue 36: ``no usable gold records (5 unreadable)`` named nothing."""
    from assay._io.records import ParseFailure, SourceRecord

    bad = [
        ParseFailure("g.jsonl", 1, "gold record has no field 'expectd' (did you mean 'expected'?)"),
        ParseFailure("g.jsonl", 2, "gold record has no field 'expectd' (did you mean 'expected'?)"),
        SourceRecord(None, {"index": "1", "text": "q"}, "g.jsonl", 3),
    ]
    with pytest.raises(InputError) as info:
        build_cohort([rec("a", 1)], bad, gold_files=["g.jsonl"])
    assert str(info.value) == (
        "no usable gold records in g.jsonl: all 3 records could not be used: g.jsonl:1 and 1 "
        "more: gold record has no field 'expectd' (did you mean 'expected'?); g.jsonl:3: gold "
        "record has no id (its fields: index, text; the id may be in 'index': --id-field index)"
    )
    with pytest.raises(InputError, match=r"in g\.jsonl: none was read \(an empty file"):
        build_cohort([rec("a", 1)], [], gold_files=["g.jsonl"])
