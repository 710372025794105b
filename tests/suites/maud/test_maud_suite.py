"""MAUD (seed 000 §8): consideration normalization and the doc_type + consideration score."""

from __future__ import annotations

from pathlib import Path

import pytest
from hypothesis import given
from hypothesis import strategies as st

import assay
from assay.suites.maud import MAUD_CONSIDERATION_KEYS, normalize_maud_consideration
from tests.conftest import write_jsonl


@pytest.mark.parametrize(
    ("raw", "key"),
    [
        ("All Cash", "all_cash"),
        ("all-stock", "all_stock"),
        ("Mixed Cash/Stock", "mixed_cash_stock"),
        ("Mixed Cash/Stock: Election", "mixed_cash_stock_election"),
        ({"consideration": "cash"}, "all_cash"),
        ("The deal is mixed_cash_stock_election.", "mixed_cash_stock_election"),
        ("earnout units", "other"),
        (None, "other"),
    ],
)
def test_normalize(raw: object, key: str) -> None:
    assert normalize_maud_consideration(raw) == key


@given(st.text(max_size=30))
def test_normalize_is_total(text: str) -> None:
    assert normalize_maud_consideration(text) in MAUD_CONSIDERATION_KEYS


def test_maud_docclass(tmp_path: Path) -> None:
    rows = [
        ("m1", "All Cash", "cash"),
        ("m2", "Mixed Cash/Stock", "Mixed Cash/Stock: Election"),
        ("m3", "All Stock", "all cash"),
        ("m4", "All Stock", "something new"),
    ]
    path = write_jsonl(
        tmp_path / "maud.jsonl",
        [
            {
                "id": i,
                "expected": "merger_agreement",
                "expected_consideration": g,
                "predicted": "merger_agreement",
                "predicted_consideration": p,
            }
            for i, g, p in rows
        ],
    )
    run = assay.score("maud", pred=path, ci=False)
    assert run.metrics["subclass_accuracy"].value == pytest.approx(1 / 4)
    assert run.metrics["subclass_accuracy_equiv"].value == pytest.approx(2 / 4)
    m4 = next(i for i in run.items if i.id == "m4")
    assert m4.details["predicted_subclass"] == "other"
