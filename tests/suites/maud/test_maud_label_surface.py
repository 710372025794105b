"""Issue 16, cases 4 and 5: MAUD's own label surface, and subclass_accuracy over the subclass
alone (seed 000 §7, §8).

MAUD's "Type of Consideration" answers are written "All Cash", "All Stock", "Mixed Cash &
Stock" and "Mixed Cash & Stock (Election)" (MAUD's answer surface; no MAUD data file is in
../shared, see its PROVENANCE.md).
"""

from __future__ import annotations

import random
from pathlib import Path

import pytest

import assay
from assay.suites.maud import normalize_maud_consideration
from tests.conftest import write_jsonl

SURFACE = {
    "All Cash": "all_cash",
    "All Stock": "all_stock",
    "Mixed Cash & Stock": "mixed_cash_stock",
    "Mixed Cash & Stock (Election)": "mixed_cash_stock_election",
}


@pytest.mark.parametrize(("label", "key"), sorted(SURFACE.items()))
def test_case5_the_maud_label_surface_maps_to_its_key(label: str, key: str) -> None:
    assert normalize_maud_consideration(label) == key
    assert normalize_maud_consideration(label.upper()) == key


def test_case5_maud_score_with_surface_gold(tmp_path: Path) -> None:
    rows = [
        {"id": "m1", "expected": "merger_agreement", "predicted": "merger_agreement",
         "expected_consideration": "Mixed Cash & Stock", "predicted_consideration": "mixed"},
        {"id": "m2", "expected": "merger_agreement", "predicted": "merger_agreement",
         "expected_consideration": "Mixed Cash & Stock (Election)",
         "predicted_consideration": "mixed_cash_stock_election"},
    ]  # fmt: skip
    run = assay.score("maud", pred=write_jsonl(tmp_path / "m.jsonl", rows), ci=False)
    assert run.metrics["subclass_accuracy"].value == 1.0  # the seed's number (was 0.5)
    # an unknown answer degrades to other, and is wrong against these golds
    rows[0]["predicted_consideration"] = "earnout units"
    run = assay.score("maud", pred=write_jsonl(tmp_path / "m.jsonl", rows), ci=False)
    assert run.metrics["subclass_accuracy"].value == 0.5


def _rows(n: int = 1000) -> list[dict[str, object]]:
    """Merger agreements with a consideration gold (2 in 3) and contracts without one; doc_type
    and subclass answers wrong independently of each other."""
    rng = random.Random(16)
    labels = sorted(SURFACE)
    out = []
    for i in range(n):
        merger = i % 3 != 0
        gold_sub = rng.choice(labels) if merger else None
        doc = "merger_agreement" if merger else "contract"
        doc_pred = doc if rng.random() < 0.85 else ("contract" if merger else "merger_agreement")
        sub_pred = gold_sub if (gold_sub and rng.random() < 0.77) else rng.choice(labels)
        out.append(
            {
                "id": f"r{i}",
                "expected": doc,
                "predicted": doc_pred,
                "expected_consideration": gold_sub,
                "predicted_consideration": sub_pred,
            }
        )
    return out


def test_case4_subclass_accuracy_is_over_the_subclass_alone(tmp_path: Path) -> None:
    rows = _rows()
    run = assay.score("maud", pred=write_jsonl(tmp_path / "m.jsonl", rows), ci=False)
    scored = [r for r in rows if r["expected_consideration"] is not None]
    by_def = sum(
        normalize_maud_consideration(r["predicted_consideration"])
        == normalize_maud_consideration(r["expected_consideration"])
        for r in scored
    ) / len(scored)
    both = sum(
        r["predicted"] == r["expected"]
        and normalize_maud_consideration(r["predicted_consideration"])
        == normalize_maud_consideration(r["expected_consideration"])
        for r in scored
    ) / len(scored)
    m = run.metrics
    assert m["subclass_accuracy"].value == pytest.approx(by_def)
    assert m["subclass_accuracy"].n == len(scored)
    assert by_def - both > 0.05  # requiring the doc_type too made it a copy of exact_match
