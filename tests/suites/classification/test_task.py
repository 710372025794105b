"""The classification task's load notes the gold labels that prepare would otherwise re-read."""

from __future__ import annotations

from collections import Counter
from collections.abc import Sequence
from dataclasses import replace
from pathlib import Path

from hypothesis import example, given
from hypothesis import strategies as st

from assay._engine.item import Item
from assay._engine.spill import spooling
from assay._engine.task import SCORE_ERROR, ItemScore, LoadedInputs, item_outcome
from assay._io.records import ParseFailure, ReadResult, SourceRecord
from assay._labels.normalize import normalize_label
from assay.suites.classification import ClassificationTask
from assay.suites.classification._lib.reading import checked, label_failure
from assay.suites.classification.scorer import score_item
from assay.suites.classification.settings import ClassificationSettings
from tests.conftest import write_jsonl


def test_labels_noted_while_reading_equal_a_pass_over_the_gold(tmp_path: Path) -> None:
    gold = write_jsonl(
        tmp_path / "gold.jsonl",
        [
            {"id": "a", "expected": " Memo "},
            {"id": "b", "expected": {"label": "Letter"}},
            {"id": "c", "expected": ["not", "a", "label"]},  # refused: not a label
            {"id": "d", "expected": ""},
            {"id": "e"},  # refused: no field
            {"id": "f", "expected": "contract"},
        ],
    )
    pred = write_jsonl(tmp_path / "pred.jsonl", [{"id": "a", "predicted": "memo"}])
    both = write_jsonl(
        tmp_path / "both.jsonl",
        [{"id": "a", "expected": "Memo", "predicted": "x"}, {"id": "b", "predicted": "y"}],
    )
    task, s = ClassificationTask(), ClassificationSettings()
    for threshold in (None, 0):  # in memory, and with the records spooled to disk
        for loaded in (
            _load(task, pred, (gold,), s, threshold, tmp_path),
            _load(task, both, (), s, threshold, tmp_path),
        ):
            noted = task.prepare(loaded, s)
            reread = task.prepare(replace(loaded, gathered={}), s)
            assert isinstance(noted, ClassificationSettings)
            assert isinstance(reread, ClassificationSettings)
            assert noted.labels == reread.labels
    got = task.prepare(task.load(pred, (gold,), s), s)
    assert isinstance(got, ClassificationSettings)
    assert got.labels == ["contract", "letter", "memo"]


def _items(rows: Sequence[tuple[object, object, str]]) -> list[Item]:
    """One item per (gold label, predicted label, status) row; only an "ok" item has a
    prediction."""
    return [
        Item(
            f"i{k}",
            {"expected": gold},
            None if status != "ok" else {"predicted": pred},
            error=None if status == "ok" else "no prediction",
            status=status,  # type: ignore[arg-type]
        )
        for k, (gold, pred, status) in enumerate(rows)
    ]


def _load(
    task: ClassificationTask,
    pred: Path,
    gold: tuple[Path, ...],
    s: ClassificationSettings,
    threshold: int | None,
    tmp: Path,
) -> LoadedInputs:
    if threshold is None:
        return task.load(pred, gold, s)
    with spooling(threshold, tmp):
        return task.load(pred, gold, s)


@given(
    st.lists(
        st.tuples(
            st.sampled_from(["memo", "letter", "Memo", ""]),
            st.one_of(st.sampled_from(["memo", "letter", "ERROR: x", "other"]), st.none()),
            st.sampled_from(["ok", "ok", "missing", "failed"]),
        ),
        max_size=40,
    ),
    st.integers(1, 7),
    st.sampled_from([None, ["memo", "letter"]]),
)
def test_summaries_merged_from_blocks_equal_the_whole_run(
    rows: list[tuple[str, str | None, str]], size: int, labels: list[str] | None
) -> None:
    task = ClassificationTask()
    s = ClassificationSettings(labels=labels)
    items = _items(rows)
    scores = task.score_batch(items, s)
    parts = [
        task.summarize_block(items[lo : lo + size], scores[lo : lo + size], s)
        for lo in range(0, len(items), size)
    ]
    assert task.merge_summaries(parts, s) == task.summaries(items, scores, s)


label_values = st.one_of(
    st.sampled_from(["memo", "letter", " Memo", "ERROR: x", "other", ""]),
    st.none(),
    st.sampled_from([1, True, 1.0, 0, False]),  # equal as keys, not as labels
    st.just({"label": "memo"}),
)


@given(
    st.lists(
        st.tuples(label_values, label_values, st.sampled_from(["ok", "ok", "missing", "failed"])),
        max_size=40,
    ),
    st.sampled_from([None, ["memo", "letter"], ["1", "True", "memo"]]),
    st.sampled_from([None, "memo", "1"]),
)
@example([("memo", 1, "ok"), ("memo", True, "ok"), (1, 1.0, "ok"), (True, 1, "ok")], None, None)
def test_a_block_scores_each_item_as_alone_and_alike_items_share_a_score(
    rows: list[tuple[object, object, str]], labels: list[str] | None, positive: str | None
) -> None:
    """Scored in one block (``_lib.block.score_block``), every item gets the score of its
    plain definition (``scorer.score_item``) and of a block of its own (where nothing is
    shared); items of the same status and the same gold and raw texts share one score object."""
    task = ClassificationTask()
    s = ClassificationSettings(labels=labels, positive=positive)
    items = _items(rows)
    scores = task.score_batch(items, s)
    alone = [task.score_batch([item], s)[0] for item in items]
    plain = [score_item(item, s) for item in items]
    assert scores == alone == plain
    assert [list(sc.stats) for sc in scores] == [list(sc.stats) for sc in plain]  # column order
    # 1 == True == 1.0: equal scores, but each keeps its own raw output
    for other in (alone, plain):
        assert [type(sc.details["raw_output"]) for sc in scores] == [
            type(sc.details["raw_output"]) for sc in other
        ]
    by_key: dict[tuple[object, ...], object] = {}
    for (gold, pred, status), score in zip(rows, scores, strict=True):
        raw = pred if status == "ok" else None
        if isinstance(gold, str | None) and isinstance(raw, str | None):
            assert by_key.setdefault((status, gold, raw), score) is score


def _plain_part(items: list[Item], scores: list[ItemScore]) -> tuple[object, ...]:
    """A block's summary part by its definition, item by item."""
    counts: Counter[tuple[str, str]] = Counter()
    gold: set[str] = set()
    n_error = n_invalid = n_failed = n_missing = 0
    for item, sc in zip(items, scores, strict=True):
        expected, predicted = str(sc.details["expected"]), sc.details["predicted"]
        gold.add(expected)
        if predicted is not None:
            counts[(expected, str(predicted))] += 1
        n_error += "error_row" in sc.flags
        n_invalid += "invalid_label" in sc.flags
        status = item_outcome(item, sc)[0]
        n_failed += status == "failed"
        n_missing += status == "missing"
    return dict(counts), gold, n_error, n_invalid, n_failed, n_missing


@given(
    st.lists(
        st.tuples(label_values, label_values, st.sampled_from(["ok", "ok", "missing", "failed"])),
        max_size=40,
    ),
    st.sampled_from([None, ["memo", "letter"]]),
    st.booleans(),
)
def test_a_block_summary_is_the_item_by_item_one(
    rows: list[tuple[object, object, str]], labels: list[str] | None, raised: bool
) -> None:
    """``summarize_block`` (items counted per shared score and status) equals the item by item
    count, with scores shared or not, and with items whose scoring raised."""
    task = ClassificationTask()
    s = ClassificationSettings(labels=labels)
    items = _items(rows)
    shared = task.score_batch(items, s)
    alone = [task.score_batch([item], s)[0] for item in items]
    if raised and shared:  # one score flagged as raised (``isolated_score``) for every item
        flagged = replace(shared[0], flags=(*shared[0].flags, SCORE_ERROR))
        shared = [flagged if sc is shared[0] else sc for sc in shared]
        alone = [replace(a, flags=(*a.flags, SCORE_ERROR)) if b is flagged else a
                 for a, b in zip(alone, shared, strict=True)]  # fmt: skip
    for scores in (shared, alone):
        part = task.summarize_block(items, scores, s)
        got = (dict(part.counts), part.gold, part.n_error, part.n_invalid, part.n_failed,
               part.n_missing)  # fmt: skip
        assert got == _plain_part(items, scores)


@given(
    st.lists(
        st.one_of(
            st.fixed_dictionaries({"id": st.just("x"), "expected": label_values}),
            st.fixed_dictionaries({"id": st.just("x"), "expected": st.lists(st.integers())}),
            st.just({"id": "x"}),
            st.just("failure"),
        ),
        max_size=30,
    )
)
def test_checked_labels_are_the_plain_field_checks(rows: list[object]) -> None:
    """``checked`` (string labels kept without the checks, each normalized once) equals
    ``label_failure`` of every record and the normalized label of every record kept."""
    results: list[ReadResult] = [
        ParseFailure("f", k, "bad line")
        if row == "failure"
        else SourceRecord("x", dict(row), "f", k)  # type: ignore[call-overload]
        for k, row in enumerate(rows)
    ]
    labels: set[str] = set()
    got = list(checked(results, "expected", "gold", labels))
    plain = [label_failure(r, "expected", "gold") if isinstance(r, SourceRecord) else r
             for r in results]  # fmt: skip
    assert got == plain
    assert labels == {
        normalize_label(r.record["expected"]) for r in plain if isinstance(r, SourceRecord)
    }
