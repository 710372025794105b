"""The batch hook: items reach ``Task.score_batch`` in blocks of ``batch_size``, in order, and the
scores are those of ``score_item`` whatever the executor or the out-of-core path."""

from __future__ import annotations

import gc
import weakref
from collections.abc import Sequence
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path
from typing import Any, ClassVar

import pytest
from pydantic import BaseModel

import assay
from assay._engine.item import Item
from assay._engine.scoring import score_items
from assay._engine.task import ItemScore, LoadedInputs, Task, collector_paused, score_in_blocks
from assay.metrics import MetricSpec
from assay.suites.extraction.task import ExtractionTask
from tests.engine.test_outofcore import TYPES, _extraction_inputs, _saved_lines


class Blocks(BaseModel):
    pass


class CountingTask(Task[Blocks]):
    """Scores an item by its number; records the blocks ``score_batch`` receives."""

    name: ClassVar[str] = "counting"
    description: ClassVar[str] = "test task"
    settings_model = Blocks
    batch_size: ClassVar[int] = 4

    def __init__(self) -> None:
        self.blocks: list[list[str]] = []

    def load(self, pred: Path, gold: tuple[Path, ...], settings: Blocks) -> LoadedInputs:
        raise AssertionError("not used")

    def score_item(self, item: Item, settings: Blocks) -> ItemScore:
        return ItemScore(stats={"x": float(item.gold["x"])})

    def score_batch(self, items: Sequence[Item], settings: Blocks) -> list[ItemScore]:
        self.blocks.append([i.id for i in items])
        return [ItemScore(stats={"x": float(i.gold["x"]) * 1.0}) for i in items]

    def metric_specs(self, scores: Sequence[ItemScore], settings: Blocks) -> list[MetricSpec]:
        return []


def _items(n: int) -> list[Item]:
    return [Item(id=f"i{k}", gold={"x": k}, pred={}) for k in range(n)]


def test_blocks_of_batch_size_in_order() -> None:
    task = CountingTask()
    scores = score_items(task, _items(10), Blocks())
    assert [s.stats["x"] for s in scores] == [float(k) for k in range(10)]
    assert task.blocks == [["i0", "i1", "i2", "i3"], ["i4", "i5", "i6", "i7"], ["i8", "i9"]]


def test_threads_keep_the_order_and_the_blocks() -> None:
    task = CountingTask()
    progress: list[int] = []
    with ThreadPoolExecutor(2) as pool:
        scores = score_items(
            task, _items(23), Blocks(), executor=pool, progress=lambda d, t: progress.append(d)
        )
    assert [s.stats["x"] for s in scores] == [float(k) for k in range(23)]
    # consecutive items, at most batch_size of them, and at least 4 blocks per worker
    assert sorted(task.blocks, key=lambda b: int(b[0][1:])) == [
        [f"i{k}" for k in range(lo, min(lo + 3, 23))] for lo in range(0, 23, 3)
    ]
    assert progress[-1] == 23


def test_default_score_batch_is_score_item() -> None:
    class One(CountingTask):
        batch_size: ClassVar[int] = 1

    task = One()
    assert [s.stats for s in score_in_blocks(task, _items(3), Blocks())] == [
        {"x": 0.0},
        {"x": 1.0},
        {"x": 2.0},
    ]
    assert task.blocks == []  # batch size 1: item by item
    assert Task.score_batch(task, _items(2), Blocks()) == [
        task.score_item(i, Blocks()) for i in _items(2)
    ]


@pytest.mark.parametrize("jobs", [1, 2])
def test_extraction_batches_equal_item_by_item(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, jobs: int
) -> None:
    gold, pred = _extraction_inputs(tmp_path, 30)
    common: dict[str, Any] = {"pred": pred, "gold": gold, "field_types": TYPES}
    common["n_bootstrap_ci"] = 100
    monkeypatch.setattr(ExtractionTask, "batch_size", 1)
    single = assay.score("extraction", **common)
    monkeypatch.setattr(ExtractionTask, "batch_size", 7)
    for spill in (False, True):
        batched = assay.score("extraction", jobs=jobs, spill=spill, **common)
        assert _saved_lines(batched, tmp_path / "b.json") == _saved_lines(
            single, tmp_path / "s.json"
        )


def test_collector_paused_while_scoring_and_restored() -> None:
    seen: list[bool] = []

    class Watching(CountingTask):
        def score_batch(self, items: Sequence[Item], settings: Blocks) -> list[ItemScore]:
            seen.append(gc.isenabled())
            return super().score_batch(items, settings)

    assert gc.isenabled()
    score_items(Watching(), _items(9), Blocks())
    assert seen == [False, False, False] and gc.isenabled()
    gc.disable()
    try:
        with collector_paused(), collector_paused():
            assert not gc.isenabled()
        assert not gc.isenabled()  # it was off before: it stays off
    finally:
        gc.enable()


def test_collector_promotes_what_survives_a_run_instead_of_collecting_it() -> None:
    class Marker:
        pass

    with collector_paused(promote=True):
        kept = [Marker() for _ in range(3)]
        cycle: list[Any] = [Marker()]
        cycle.append(cycle)
    assert gc.isenabled()
    oldest = {id(o) for o in gc.get_objects(generation=2)}
    assert all(id(m) in oldest for m in kept)  # moved there, not walked by a young collection
    ref = weakref.ref(cycle[0])
    del cycle
    gc.collect()
    assert ref() is None  # cyclic garbage is still found by the next full collection

    gc.freeze()  # objects a server froze itself stay frozen
    try:
        frozen = gc.get_freeze_count()
        with collector_paused(promote=True):
            kept.append(Marker())
        assert gc.get_freeze_count() == frozen
    finally:
        gc.unfreeze()


def test_collector_restored_after_concurrent_and_failing_blocks() -> None:
    class Failing(CountingTask):
        def score_batch(self, items: Sequence[Item], settings: Blocks) -> list[ItemScore]:
            if items[0].id == "i8":
                raise ValueError("bad block")
            return super().score_batch(items, settings)

    # a raising block is scored item by item (issue 20: one item never sinks the run)
    isolated = score_items(Failing(), _items(12), Blocks())
    assert [s.stats["x"] for s in isolated] == [float(k) for k in range(12)]
    assert gc.isenabled()
    with ThreadPoolExecutor(4) as pool:
        scores = score_items(CountingTask(), _items(200), Blocks(), executor=pool)
    assert len(scores) == 200 and gc.isenabled()


def test_collector_paused_for_the_whole_run_and_restored_after_an_error(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    from assay.suites.classification.task import ClassificationTask

    gold, pred = tmp_path / "gold.jsonl", tmp_path / "pred.jsonl"
    gold.write_text('{"id": "a", "expected": "x"}\n{"id": "b", "expected": "y"}\n')
    pred.write_text('{"id": "a", "predicted": "x"}\n{"id": "b", "predicted": "x"}\n')
    seen: list[bool] = []
    load = ClassificationTask.load

    def watching(self: ClassificationTask, *args: Any) -> LoadedInputs:
        seen.append(gc.isenabled())
        return load(self, *args)

    monkeypatch.setattr(ClassificationTask, "load", watching)
    run = assay.score("classification", pred=pred, gold=gold, n_bootstrap_ci=100)
    assert seen == [False] and gc.isenabled()
    assert run.cohort.evaluated == 2

    def failing(self: ClassificationTask, *args: Any) -> LoadedInputs:
        seen.append(gc.isenabled())
        raise RuntimeError("reading failed")

    monkeypatch.setattr(ClassificationTask, "load", failing)
    with pytest.raises(RuntimeError, match="reading failed"):
        assay.score("classification", pred=pred, gold=gold, n_bootstrap_ci=100)
    assert seen == [False, False] and gc.isenabled()
