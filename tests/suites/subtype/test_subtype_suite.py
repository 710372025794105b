"""The subtype suite (seed 000 §6, §15): strict and equiv accuracy, failure modes."""

from __future__ import annotations

from pathlib import Path

import pytest

import assay
from tests.conftest import write_jsonl

ROWS = [
    # id, expected folder, doc_type, predicted subtype, confidence → mode
    ("d1", "license", "contract", "license", 0.9),  # ok
    ("d2", "distributor", "contract", "reseller", 0.8),  # equivalent_family
    ("d3", "license", "contract", "Development", 0.7),  # equivalent_family (symmetric pair)
    ("d4", "franchise", "contract", "other", 0.6),  # other_fallback
    ("d5", "franchise", "memo", "franchise", 0.5),  # function_over_form
    ("d6", "supply", "contract", "agency", None),  # family_confusion
    ("d7", "supply", "contract", "ERROR: timeout", None),  # unusable
    ("d8", "agency", "contract", "", None),  # blank subtype: family_confusion (None pred)
]


def _write(tmp_path: Path) -> Path:
    rows = [
        {
            "id": i,
            "expected": e,
            "doc_type": d,
            "predicted": p,
            "confidence": c,
            "reasoning": f"why {i}",
        }
        for i, e, d, p, c in ROWS
    ]
    return write_jsonl(tmp_path / "subtype.jsonl", rows)


def test_metrics_and_failure_modes(tmp_path: Path) -> None:
    run = assay.score("subtype", pred=_write(tmp_path), n_bootstrap_ci=200)
    m = run.metrics
    assert m["exact_match"].value == pytest.approx(6 / 8)  # d5 memo, d7 ERROR
    assert m["subtype_accuracy"].value == pytest.approx(2 / 8)  # d1, d5 (subtype only)
    assert m["subtype_accuracy_equiv"].value == pytest.approx(4 / 8)  # + d2, d3
    assert m["confidence"].value == pytest.approx((0.9 + 0.8 + 0.7 + 0.6 + 0.5) / 5)
    assert m["subtype_accuracy"].ci_lower is not None
    fi = run.summaries["failure_insights"]
    assert fi["mode_counts"] == {
        "function_over_form": 1,
        "other_fallback": 1,
        "equivalent_family": 2,
        "family_confusion": 2,
        "unusable": 1,
    }
    assert (fi["n_total"], fi["n_failed"], fi["n_ok"]) == (8, 7, 1)
    rec = next(f for f in fi["failures"] if f["id"] == "d2")
    assert rec["equiv_recovered"] is True and rec["reasoning"] == "why d2"
    assert rec["confidence"] == 0.8
    per = run.summaries["per_subtype"]["license"]
    assert (per["n"], per["strict"], per["equiv"]) == (2, 1, 2)
    assert "<none>" in run.summaries["confusion_matrix"]["labels"]


def test_equivalences_configurable(tmp_path: Path) -> None:
    run = assay.score("subtype", pred=_write(tmp_path), ci=False, equivalences=[])
    assert run.metrics["subtype_accuracy_equiv"].value == run.metrics["subtype_accuracy"].value
