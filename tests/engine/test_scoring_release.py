"""The in-memory sink releases a scored block's documents (``BlockSummaries.release_scored``):
the run is the same bytes as when every item is kept to the end, gold digests, surface
fingerprint and summaries included, serially and on a pool."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest

import assay
from assay._engine import executors
from assay._engine.item import Item
from assay.suites.extraction.task import ExtractionTask
from tests.conftest import write_jsonl
from tests.engine.test_outofcore import _saved_lines


def _inputs(tmp: Path, n: int) -> tuple[Path, Path]:
    """Gold records carrying a long source text each (escaped characters included), and
    predictions, one of them missing and one not an object."""
    gold, pred = [], []
    for i in range(n):
        text = f'Supply Agreement {i} between "Acme {i} Inc"\tand Initech Corp.\n' * (9 + i)
        expected = {"title": f"Supply Agreement {i}", "parties": [f"Acme {i} Inc", "Initech"]}
        gold.append({"id": f"x{i}", "expected": expected, "source_text": text})
        if i != 5:
            got = {"title": expected["title"], "parties": [f"Acme {i} Inc", "Hooli"]}
            pred.append({"id": f"x{i}", "predicted": got if i != 7 else "not an object"})
    return write_jsonl(tmp / "gold.jsonl", gold), write_jsonl(tmp / "pred.jsonl", pred)


@pytest.mark.parametrize("options", [{}, {"executor": "thread", "jobs": 2}])
def test_released_blocks_give_the_same_run(
    options: dict[str, Any], tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    gold, pred = _inputs(tmp_path, 13)
    monkeypatch.setattr(ExtractionTask, "batch_size", 4)
    types = {"title": "name", "parties": "entity_list:name"}
    common: dict[str, Any] = {"pred": pred, "gold": gold, "field_types": types, **options}
    released: list[str] = []
    keep = executors._released

    def counted(item: Item) -> Item:
        released.append(item.id)
        light = keep(item)
        assert light.gold == {} and light.pred is None and light.status == item.status
        return light

    monkeypatch.setattr(executors, "_released", counted)
    run = assay.score("extraction", **common)
    assert sorted(released) == sorted(f"x{i}" for i in range(13))  # every item, block by block

    monkeypatch.setattr(ExtractionTask, "release_scored", False)
    kept = assay.score("extraction", **common)
    assert len(released) == 13  # kept to the end this time
    assert _saved_lines(run, tmp_path / "a.json") == _saved_lines(kept, tmp_path / "b.json")
    assert run.surface.fingerprint == kept.surface.fingerprint
    assert {i.status for i in run.items} == {"ok", "missing", "failed"}
