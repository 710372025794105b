"""The multiclass suite: macro and micro accuracy, bad labels as per-row outcomes."""

from __future__ import annotations

from pathlib import Path

import pytest

import assay
from tests.conftest import write_jsonl


def test_macro_micro_and_bad_rows(tmp_path: Path) -> None:
    rows = [
        {"id": "1", "expected": "court_opinion", "predicted": "Court Opinion"},
        {"id": "2", "expected": "court_opinion", "predicted": "contract"},
        {"id": "3", "expected": "contract", "predicted": "contract"},
        {"id": "4", "expected": "contract", "predicted": "ERROR: boom"},
        {"id": "5", "expected": "memo", "predicted": float("nan")},
        {"id": "6", "expected": "memo", "predicted": "poem"},
        {"id": "7", "expected": "memo", "predicted": ["list"]},
    ]
    path = tmp_path / "mc.jsonl"
    write_jsonl(path, rows[:-1])
    with path.open("a") as fh:
        fh.write('{"id": "7", "expected": "memo", "predicted": ["list"]}\n')
    run = assay.score("multiclass", pred=path, ci=False)
    m = run.metrics
    # NaN is not JSON (issue 20): row 5, gold and prediction at once, is a listed failure
    # naming its line and field, never a label "nan"
    assert [(g.id, g.where) for g in run.cohort.gold_failures] == [("5", f"{path}:5")]
    assert "NaN is not valid JSON (field $.predicted)" in run.cohort.gold_failures[0].reason
    assert m["exact_match"].value == pytest.approx(2 / 6)
    # every row in its class's denominator: court 1/2, contract 1/2 (ERROR a miss), memo 0/2
    # (poem, the unreadable list a miss)
    assert m["macro_accuracy"].value == pytest.approx((0.5 + 0.5 + 0) / 3)
    # seed 000 §2's figure over usable rows, a diagnostic: court 1/2, contract 1/1, memo 0/1
    assert m["macro_accuracy_usable"].value == pytest.approx((0.5 + 1 + 0) / 3)
    assert m["macro_accuracy_usable"].tier == "diagnostic"
    assert m["macro_accuracy"].tier == "headline"
    s = run.summaries
    assert (s["n_error_rows"], s["n_blank"], s["n_invalid_label"]) == (1, 0, 1)
    assert [f.id for f in run.cohort.failures] == ["7"]
