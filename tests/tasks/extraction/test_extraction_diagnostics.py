"""The extraction summaries by blocks (``BlockSummaries``): any split of the run into blocks
gives the summaries of the whole run, and a block's part keeps only what they read."""

from __future__ import annotations

import pickle
from itertools import pairwise
from pathlib import Path

from hypothesis import given, settings
from hypothesis import strategies as st
from pydantic import BaseModel

from assay.core.cohort import build_cohort
from assay.core.item import Item
from assay.core.task import BlockSummaries, ItemScore, score_in_blocks
from assay.examples.extraction import write_demo
from assay.settings.loader import load_settings
from assay.tasks.extraction.diagnostics import SummaryPart
from assay.tasks.extraction.task import ExtractionTask

TASK = ExtractionTask()


def _scored(folder: Path) -> tuple[list[Item], list[ItemScore], BaseModel]:
    write_demo(folder)
    section = load_settings(folder / "extraction.yaml").section("extraction")
    loaded = TASK.load(folder / "preds.jsonl", (folder / "gold.jsonl",), section)
    section = TASK.prepare(loaded, section)
    cohort = build_cohort(loaded.predictions, loaded.gold)
    items = list(cohort.items)
    return items, score_in_blocks(TASK, items, section), section


def test_extraction_summarizes_by_blocks(tmp_path: Path) -> None:
    assert isinstance(TASK, BlockSummaries)
    items, scores, section = _scored(tmp_path)
    assert len(items) >= 4

    @given(st.lists(st.integers(0, len(items)), max_size=4))
    @settings(max_examples=25, deadline=None)
    def any_split_gives_the_whole(cuts: list[int]) -> None:
        edges = [0, *sorted(cuts), len(items)]
        parts = [TASK.summarize_block(items[a:b], scores[a:b], section) for a, b in pairwise(edges)]
        whole = TASK.summaries(items, scores, section)
        assert TASK.merge_summaries(parts, section) == whole

    any_split_gives_the_whole()
    part = TASK.summarize_block(items, scores, section)
    assert isinstance(part, SummaryPart) and part.ids == [it.id for it in items]
    # no display values, reasons or expected items: a fraction of the scores
    assert len(pickle.dumps(part)) < len(pickle.dumps(scores)) / 4
    shown = [f for sc in part.scores for f in sc.details.get("fields", {}).values()]
    assert shown and not any("gold" in f or "reason" in f for f in shown)
    lists = [stored for sc in part.scores for stored in sc.details.get("lists", {}).values()]
    assert lists and all(set(stored) == {"words"} for stored in lists)
