"""Differential test: `assay score legalbench` against LegalBench's own ``evaluation.py``.

Every shared task's test file, answered in seven styles (``legalbench_outputs``), goes through
assay here and through the benchmark's unmodified ``evaluate`` in a scratch environment
(``regen_legalbench``; its figures are pinned in ``legalbench_reference.json``). The official
figure of all eight tasks is balanced accuracy after LegalBench's ``normalize``; assay's
``balanced_accuracy`` must equal it on every run. ``macro_accuracy`` (the same balanced accuracy
after assay's own answer normalization) equals it too, except on "Answer: X" outputs, which
LegalBench scores as misses and assay reads as X: the one deliberate difference
(src/assay/suites/legalbench/docs.md).
"""

from __future__ import annotations

import json
from functools import cache
from pathlib import Path

import pytest

import assay
from tests.conftest import SHARED, write_jsonl
from tests.differential.legalbench_outputs import STYLES, answer_rows, gold_rows, tasks

LB = SHARED / "data" / "legal" / "legalbench"
PINNED = Path(__file__).with_name("legalbench_reference.json")
pytestmark = pytest.mark.skipif(not LB.is_dir(), reason=f"LegalBench data not found at {LB}")


@cache
def reference() -> dict[str, dict[str, float]]:
    figures: dict[str, dict[str, float]] = json.loads(PINNED.read_text(encoding="utf-8"))["figures"]
    return figures


def _run(tmp: Path, task: str, style: str) -> assay.Run:
    gold = gold_rows(LB, task)
    return assay.score(
        "legalbench",
        pred=write_jsonl(tmp / f"{style}.jsonl", answer_rows(gold, task, style)),
        gold=write_jsonl(tmp / f"{task}.jsonl", gold),
        ci=False,
    )


def test_every_task_and_style_is_pinned() -> None:
    assert sorted(reference()) == tasks(LB)
    assert all(sorted(v) == sorted(STYLES) for v in reference().values())


@pytest.mark.parametrize("task", tasks(LB) if LB.is_dir() else [])
def test_balanced_accuracy_is_legalbench_figure(tmp_path: Path, task: str) -> None:
    for style in STYLES:
        run = _run(tmp_path, task, style)
        official = reference()[task][style]
        m = run.metrics
        assert m["balanced_accuracy"].value == pytest.approx(official, abs=1e-12), style
        assert m["balanced_accuracy"].tier == "headline"
        if style == "answer_prefix":
            # the deliberate difference: LegalBench keeps "answer x", assay reads x
            assert official == 0.0
            assert m["macro_accuracy"].value == pytest.approx(reference()[task]["noisy"])
        else:
            # blank, missing and ERROR rows stay in their class's denominator, as LegalBench's
            assert m["macro_accuracy"].value == pytest.approx(official, abs=1e-12), style
        if style == "missing10":
            assert run.cohort.missing == round(0.1 * run.cohort.attempted)
