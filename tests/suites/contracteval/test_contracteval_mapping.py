"""The mapping scorer (seed 000 §17): extraction spans → CUAD categories → the rubric."""

from __future__ import annotations

from pathlib import Path

import pytest
from click.testing import CliRunner

import assay
from assay._cli.app import build_cli
from assay.suites.contracteval import (
    coverage_bands,
    map_spans,
    mapped_answer,
    normalize_filename,
)
from tests.conftest import write_jsonl

GOLD = {
    "Governing Law": ["This Agreement shall be governed by the laws of Delaware."],
    "Audit Rights": ["Licensor may audit Licensee's books once per year."],
    "Non-Compete": [],
}


def test_map_spans_routes() -> None:
    spans = [
        "Section 9. This Agreement shall be governed by the laws of Delaware.",  # verbatim
        "Licensor may audit the books of Licensee once per year upon notice.",  # containment
        "Unrelated boilerplate.",
    ]
    reasoning = [{"field": "non_compete", "evidence": "Licensee shall not compete."}]
    mapped = map_spans(spans, GOLD, reasoning=reasoning)
    assert mapped["Governing Law"] == [spans[0]]
    assert mapped["Audit Rights"] == [spans[1]]
    assert mapped["Non-Compete"] == ["Licensee shall not compete."]  # routed by the trace
    assert mapped_answer([]) == "No related clause."
    assert normalize_filename("dir/ACME_Inc 10-K.pdf") == normalize_filename("acme inc 10 k")


def test_coverage_bands() -> None:
    pairs = [
        (["royalty fee audit term"], ["royalty fee audit x"]),  # 3/4 contained
        (["royalty fee"], ["zebra"]),
        ([], ["royalty"]),  # an absent category is not a positive pair
    ]
    bands = coverage_bands(pairs)
    assert bands.n_positive == 2
    assert bands.shares == (0.5, 0.5, 0.5)


def test_cli_mapping_from_extraction_run(tmp_path: Path) -> None:
    gold_obj = {"key_obligations": [g for v in GOLD.values() for g in v]}
    pred_obj = {
        "key_obligations": [
            "This Agreement shall be governed by the laws of Delaware.",
            "Payment is due in 30 days.",
        ]
    }
    gold = write_jsonl(tmp_path / "gold.jsonl", [{"id": "ACME License.pdf", "expected": gold_obj}])
    pred = write_jsonl(tmp_path / "pred.jsonl", [{"id": "ACME License.pdf", "predicted": pred_obj}])
    ext = tmp_path / "ext.json"
    assay.score("extraction", pred=pred, gold=gold, ci=False, store_items=True).save(ext)
    rows = write_jsonl(
        tmp_path / "rows.jsonl",
        [
            {"id": f"r{i}", "contract": "acme_license", "category": c, "gold_spans": s}
            for i, (c, s) in enumerate(GOLD.items())
        ],
    )
    out = tmp_path / "run.json"
    res = CliRunner().invoke(
        build_cli(),
        [
            "legal",
            "contracteval",
            "--rows",
            str(rows),
            "--mapping-from",
            str(ext),
            "--output",
            str(out),
            "--no-ci",
            "--no-store",
        ],
    )
    assert res.exit_code == 0, res.output
    assert "structurally 1.0" in res.output
    run = assay.Run.load(out)
    assert run.summaries["confusion"] == {"TP": 1, "FN": 1, "TN": 1, "FP": 0}
    assert run.metrics["precision"].value == 1.0
    assert run.summaries["coverage_bands"]["n_positive"] == 2
    assert run.summaries["coverage_bands"]["containment>=0.7"] == pytest.approx(0.5)
