"""The docclass suite (seed 000 §7): doc_type and subclass, strict and equiv, flags."""

from __future__ import annotations

from pathlib import Path

import pytest

import assay
from tests.conftest import write_jsonl

ROWS = [
    # id, gold type, gold subclass, predicted type, predicted subclass, input mode
    ("a", "merger_agreement", "all_cash", "merger_agreement", "all_cash", "text"),
    (
        "b",
        "merger_agreement",
        "mixed_cash_stock",
        "merger_agreement",
        "mixed_cash_stock_election",
        "vision",
    ),
    ("c", "merger_agreement", "all_stock", "contract", "all_stock", "text_fallback"),
    ("d", "contract", None, "contract", "license", "text"),
    ("e", "corporate_record", "bylaws", "corporate_record", "charter", "text"),
    ("f", "contract", None, "ERROR: timeout", None, None),
]


def _write(tmp_path: Path) -> Path:
    return write_jsonl(
        tmp_path / "dc.jsonl",
        [
            {
                "id": i,
                "expected": t,
                "expected_subclass": s,
                "predicted": pt,
                "predicted_subclass": ps,
                "input_mode": mode,
                "fallback_reason": "ocr" if mode == "text_fallback" else None,
                "confidence": 0.5,
            }
            for i, t, s, pt, ps, mode in ROWS
        ],
    )


def test_hierarchical_metrics_and_flags(tmp_path: Path) -> None:
    run = assay.score("docclass", pred=_write(tmp_path), n_bootstrap_ci=200)
    m = run.metrics
    assert m["doc_type_accuracy"].value == pytest.approx(4 / 6)  # c wrong, f ERROR
    # subclass scored on a, b, c, e only, over the subclass alone (§7): a and c right (c's
    # doc_type is wrong, which costs exact_match, not subclass_accuracy)
    assert m["subclass_accuracy"].value == pytest.approx(2 / 4)
    assert m["subclass_accuracy"].n == 4  # rows without subclass gold are not counted
    assert m["subclass_accuracy_equiv"].value == pytest.approx(3 / 4)  # + b (election)
    assert m["exact_match"].value == pytest.approx(2 / 6)  # a, d
    assert m["per_class_accuracy[merger_agreement]"].value == pytest.approx(2 / 3)
    assert m["per_subclass_accuracy[all_cash]"].value == 1.0
    s = run.summaries
    assert s["equiv_recovered"] == ["b"]
    assert s["input_mode_counts"] == {"text": 3, "vision": 1, "text_fallback": 1}
    assert s["per_subclass_support"]["mixed_cash_stock"] == 1
    assert s["failure_insights"]["mode_counts"] == {"doc_type_miss": 2, "subclass_miss": 2}
    c = next(i for i in run.items if i.id == "c")
    assert c.details["failure_mode"] == "doc_type_miss"
    assert c.details["fallback_reason"] == "ocr"
    d = next(i for i in run.items if i.id == "d")
    assert d.details["subclass_ok"] is None and d.details["failure_mode"] is None
