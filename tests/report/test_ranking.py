"""Worst first by one metric's own per-item score, in that metric's direction."""

from __future__ import annotations

from pathlib import Path

import pytest
from hypothesis import given
from hypothesis import strategies as st

import assay
from assay._engine.run import ItemRecord
from assay._report.ranking import Ranking, item_score_key, ranking_for, worst_first
from assay.errors import UsageError


def _item(i: int, status: str = "ok", **scores: float | None) -> ItemRecord:
    return ItemRecord(id=f"s{i}", status=status, gold_sha256="0", scores=scores)


def test_each_metric_in_its_own_direction() -> None:
    # s0 is perfect (chrF 100, TER 0): the old "lowest of all scores" put it first
    items = [
        _item(0, chrf=100.0, ter=0.0),
        _item(1, chrf=40.0, ter=70.0),
        _item(2, chrf=60.0, ter=90.0),
        _item(3, "failed", chrf=0.0, ter=100.0),
        _item(4, chrf=None, ter=None),
    ]
    by_chrf = worst_first(items, Ranking("corpus_chrf", "chrf", True))
    assert by_chrf == [3, 1, 2, 0, 4]
    by_ter = worst_first(items, Ranking("corpus_ter", "ter", False))
    assert by_ter == [3, 2, 1, 0, 4]
    assert worst_first(items) == by_chrf  # without a run: the first score, its direction


def test_item_score_key() -> None:
    keys = ["chrf", "bleu", "ter", "exact_match", "parties_score"]
    assert item_score_key("corpus_chrf", keys) == "chrf"
    assert item_score_key("corpus_ter", keys) == "ter"
    assert item_score_key("exact_match_rate", keys) == "exact_match"
    assert item_score_key("parties", keys) == "parties_score"
    assert item_score_key("macro_accuracy", keys) is None


def test_ranking_for_a_run(labels_files: tuple[Path, Path]) -> None:
    gold, pred = labels_files
    run = assay.score("classification", pred=pred, gold=gold, ci=False)
    assert ranking_for(run) == Ranking("exact_match", "exact_match", True)
    with pytest.raises(UsageError, match="per-item score"):
        ranking_for(run, "macro_accuracy")
    with pytest.raises(UsageError, match="cannot rank"):
        ranking_for(run, "nope")
    order = worst_first(run.items, ranking_for(run))
    statuses = [run.items[i].status for i in order]
    assert statuses[:2] == ["failed", "missing"] or statuses[0] != "ok"
    oks = [run.items[i].scores["exact_match"] for i in order if run.items[i].status == "ok"]
    assert oks == sorted(oks)


@given(st.lists(st.floats(0, 100), min_size=1, max_size=30), st.booleans())
def test_worst_first_is_a_sorted_permutation(values: list[float], higher: bool) -> None:
    items = [_item(i, score=v) for i, v in enumerate(values)]
    order = worst_first(items, Ranking(None, "score", higher))
    assert sorted(order) == list(range(len(values)))
    shown = [values[i] for i in order]
    assert shown == sorted(values, reverse=not higher)
