"""Properties every legal suite shares: byte-identical runs for the same inputs and seed, and
bad rows (invalid UTF-8, wrong field types) as listed per-row failures of a completed run."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest

import assay
from tests.conftest import write_jsonl

ROWS: dict[str, list[dict[str, Any]]] = {
    "legalbench": [
        {"id": f"q{i}", "answer": "Yes" if i % 2 else "No", "predicted": ["yes", "No."][i % 2]}
        for i in range(12)
    ],
    "multiclass": [
        {"id": f"m{i}", "expected": "abc"[i % 3], "predicted": "abc"[(i * 2) % 3]}
        for i in range(12)
    ],
    "subtype": [
        {"id": f"s{i}", "expected": "license", "doc_type": "contract", "predicted": "license"}
        for i in range(12)
    ],
    "docclass": [
        {"id": f"d{i}", "expected": "contract", "predicted": "contract"} for i in range(12)
    ],
    "maud": [
        {
            "id": f"a{i}",
            "expected": "merger_agreement",
            "expected_consideration": "all cash",
            "predicted": "merger_agreement",
            "predicted_consideration": ["cash", "stock"][i % 2],
        }
        for i in range(12)
    ],
    "chained": [
        {
            "id": f"c{i}",
            "expected_subtype": "license",
            "doc_type": "contract",
            "subtype": "license",
            "extractor_overall": i / 12,
        }
        for i in range(12)
    ],
    "contracteval": [
        {"id": f"p{i}", "category": "X", "gold_spans": ["a"] if i % 2 else [], "output": "a"}
        for i in range(12)
    ],
}


@pytest.mark.parametrize("suite", sorted(ROWS))
def test_deterministic_and_bad_rows_counted(tmp_path: Path, suite: str) -> None:
    gold = write_jsonl(tmp_path / "gold.jsonl", ROWS[suite])
    pred = tmp_path / "pred.jsonl"
    pred.write_bytes(
        gold.read_bytes().replace(b'"id": "' + ROWS[suite][0]["id"].encode(), b'"id": "x\xff', 1)
    )
    texts = []
    for name in ("a", "b"):
        run = assay.score(suite, pred=pred, gold=gold, n_bootstrap_ci=100, seed=3)
        path = run.save(tmp_path / f"{name}.json")
        data = json.loads(path.read_text())
        data.pop("generated_at")
        texts.append(json.dumps(data, sort_keys=True))
    assert texts[0] == texts[1]
    # the undecodable line is a listed parse failure; its gold id is scored as missing
    assert run.cohort.attempted == 12
    assert run.cohort.missing_ids == [ROWS[suite][0]["id"]]
    assert len(run.cohort.parse_failures) == 1
    assert "UTF-8" in run.cohort.parse_failures[0].reason
    headline = [m for m in run.metrics.values() if m.tier == "headline"]
    assert headline and all(m.ci_lower is not None for m in headline if m.value is not None)
