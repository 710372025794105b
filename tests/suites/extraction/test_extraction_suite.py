"""The extraction suite end to end: rows, audit, bad input, chunks, determinism, jobs, CLI."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest

import assay
from assay._engine.run import Run
from assay._fields import FieldScore
from assay.suites.extraction import AUDIT_KEYS, merge_chunks, r_squared
from tests.conftest import SHARED, write_jsonl

GOLD: list[dict[str, Any]] = [
    {
        "id": "d1",
        "expected": {
            "document_name": "FRANCHISE AGREEMENT",
            "parties": ["Goosehead Insurance Agency, LLC", '"we," "us," or "our"', "Franchisee"],
            "effective_date": "3/1/2020",
            "governing_law": "Texas",
            "contract_value": "$250,000",
            "renewal_term": "successive 1 year",
            "key_obligations": [
                "Franchisee shall pay royalty fees monthly",
                "Franchisor shall provide initial training",
            ],
        },
        "categories": {"Revenue/Profit Sharing": ["Franchisee shall pay royalty fees monthly"]},
    },
    {
        "id": "d2",
        "expected": {
            "document_name": "Consulting Agreement",
            "parties": ["Timothy Cabrera", "Consultant"],
            "effective_date": "_____ day of ____, 19",
            "governing_law": "Delaware",
            "contract_value": "$250,000",
            "renewal_term": "2 years",
            "key_obligations": ["Consultant shall deliver monthly reports"],
        },
    },
    {"id": "d3", "expected": {"document_name": "Supply Agreement", "parties": ["Widget Co"]}},
    {"id": "d4", "expected": {"document_name": "License Agreement", "parties": ["Foo Corp"]}},
]
PRED: list[dict[str, Any]] = [
    {
        "id": "d1",
        "predicted": {
            "document_name": "Goosehead Insurance Agency, LLC Franchise Agreement",
            "parties": ['Goosehead Insurance Agency, LLC ("we," "us," or "our")', "John Smith"],
            "effective_date": "March 1, 2020",
            "governing_law": "governed by the laws of the State of Texas",
            "contract_value": "$250,001",
            "renewal_term": "one (1) year",
            "key_obligations": [
                "Franchisee shall pay royalty fees monthly",
                "Franchisee shall fly to the moon",
            ],
        },
    },
    {
        "id": "d2",
        "predicted": json.dumps(
            {
                "document_name": "Consulting Agreement",
                "parties": ['Timothy Cabrera ("Consultant")'],
                "effective_date": None,
                "governing_law": "Delaware",
                "contract_value": 250000,
                "renewal_term": "24 months",
                "key_obligations": ["deliver monthly reports"],
                "bogus": 1,
            }
        ),
    },
    {"id": "d3", "predicted": "this is not JSON"},
]


@pytest.fixture
def files(tmp_path: Path) -> tuple[Path, Path, Path]:
    src = tmp_path / "src"
    src.mkdir()
    (src / "d1.txt").write_text(
        "Franchise agreement effective March 1, 2020. Franchisee shall fly to the moon.",
        encoding="utf-8",
    )
    return (
        write_jsonl(tmp_path / "pred.jsonl", PRED),
        write_jsonl(tmp_path / "gold.jsonl", GOLD),
        src,
    )


def _score(files: tuple[Path, Path, Path], **kw: Any) -> Run:
    pred, gold, src = files
    return assay.score("extraction", pred=pred, gold=gold, source=str(src), **kw)


def test_rows_and_headline(files: tuple[Path, Path, Path]) -> None:
    run = _score(files)
    items = {it.id: it for it in run.items}
    d1, d2 = items["d1"].details, items["d2"].details
    f1 = d1["fields"]
    assert f1["document_name"]["score"] == 1.0  # title contained in the longer title
    assert f1["contract_value"]["score"] == 0.0  # $250,001 ≠ $250,000
    assert f1["effective_date"]["score"] == 1.0
    assert f1["governing_law"]["type"] == "containment" and f1["governing_law"]["score"] == 1.0
    assert f1["parties"]["score"] == 1.0  # GT coverage with contained and role-word labels
    assert f1["parties"]["f1"] == pytest.approx(0.4)  # raw numbers kept
    assert d2["fields"]["effective_date"] == {
        "type": "date",
        "score": 1.0,
        "reason": "null expectation: no date expected, none predicted",
        "null_expectation": True,
        "gold": "_____ day of ____, 19",  # the placeholder, shown beside the prediction
    }
    assert d2["fields"]["parties"]["score"] == 1.0  # "Consultant" contained label
    assert d2["schema_errors"] == ["bogus: unknown field"]
    assert items["d2"].scores["schema_valid"] == 0.0
    # failed and missing documents stay in the denominator as zeros
    assert items["d3"].status == "failed" and items["d4"].status == "missing"
    assert items["d3"].scores["overall_extraction_score"] == 0.0
    m = run.metrics["overall_extraction_score"]
    assert m.n == 4 and m.ci_lower is not None and m.ci_lower <= m.value <= m.ci_upper  # type: ignore[operator]
    assert run.summaries["embedding_rescue"].startswith("embedding rescue: off")
    assert "needs_judge_review" in items["d1"].flags
    assert d1["ambiguous_fields"] == ["key_obligations"]


def test_audit_has_exactly_the_seed_keys(files: tuple[Path, Path, Path]) -> None:
    run = _score(files)
    d1 = next(it for it in run.items if it.id == "d1").details
    for audit in d1["entity_list_audit"].values():
        assert tuple(audit) == AUDIT_KEYS
    obligations = d1["entity_list_audit"]["key_obligations"]
    # the invented obligation is written in the source document, so it is grounded
    assert obligations["matched_gt"] == 1 and obligations["true_items"] == 2
    parties = d1["entity_list_audit"]["parties"]
    assert parties["hallucinated"] == 1 and parties["hallucination_rate"] == 0.5
    assert d1["entity_list_audit"]["contract_value"]["hallucinated"] == 1


def test_posthoc_metrics_are_sums(files: tuple[Path, Path, Path]) -> None:
    run = _score(files)
    ph = run.summaries["posthoc"]
    assert run.metrics["item_count"].value == ph["item_count"]
    assert run.metrics["matched_gt_spans"].value == ph["matched_gt_spans"]
    assert run.metrics["alignment_precision"].value == pytest.approx(ph["alignment_precision"])
    assert run.metrics["verified_precision"].value == pytest.approx(ph["verified_precision"])
    assert run.metrics["money_mae_usd"].value == pytest.approx(0.5)  # |250,001 − 250,000| / 2
    assert run.summaries["regression"]["duration_n_pairs"] == 2


def test_same_inputs_give_the_same_artifact(files: tuple[Path, Path, Path], tmp_path: Path) -> None:
    a = _score(files).to_json()
    b = _score(files, jobs=2).to_json()

    def strip(text: str) -> dict[str, Any]:
        data = json.loads(text)
        data.pop("generated_at")
        return data

    assert strip(a) == strip(b)


def test_bad_predictions_complete_the_run(tmp_path: Path) -> None:
    gold = [{"id": f"g{i}", "expected": {"name": "Acme", "items": ["a", "b"]}} for i in range(5)]
    pred = [
        {"id": "g0", "predicted": ["a", "list"]},
        {"id": "g1", "predicted": {"name": 42, "items": "not a list"}},
        {"id": "g2", "predicted": {"name": "Acme", "items": ["x"] * 50}},
        {"id": "g3", "predicted": None},
        {"id": "g4", "predicted": {"name": None, "items": [1, 2]}},
    ]
    run = assay.score(
        "extraction",
        pred=write_jsonl(tmp_path / "p.jsonl", pred),
        gold=write_jsonl(tmp_path / "g.jsonl", gold),
        max_list_items=10,
        ci=False,
    )
    items = {it.id: it for it in run.items}
    assert items["g0"].status == "failed" and "array" in (items["g0"].error or "")
    assert items["g3"].status == "failed"
    assert items["g1"].details["schema_errors"] == [
        "items: string where an array was expected",
        "name: integer where a string was expected",
    ]
    assert "items: 50 items, more than 10" in items["g2"].details["schema_errors"]
    assert (
        "items: array items must be strings, found integer" in items["g4"].details["schema_errors"]
    )
    assert all(it.scores["schema_valid"] == 0.0 for it in run.items)
    assert run.summaries["n_schema_invalid"] == 5  # failed rows are invalid too


def test_json_schema_from_settings(tmp_path: Path) -> None:
    schema = {
        "type": "object",
        "properties": {"name": {"type": "string"}},
        "required": ["name"],
        "additionalProperties": False,
    }
    (tmp_path / "schema.json").write_text(json.dumps(schema), encoding="utf-8")
    gold = [{"id": "a", "expected": {"name": "Acme"}}, {"id": "b", "expected": {"name": "Acme"}}]
    pred = [{"id": "a", "predicted": {"name": "Acme"}}, {"id": "b", "predicted": {"x": 1}}]
    run = assay.score(
        "extraction",
        pred=write_jsonl(tmp_path / "p.jsonl", pred),
        gold=write_jsonl(tmp_path / "g.jsonl", gold),
        json_schema=str(tmp_path / "schema.json"),
        ci=False,
    )
    valid = {it.id: it.scores["schema_valid"] for it in run.items}
    assert valid == {"a": 1.0, "b": 0.0}
    assert run.settings["extraction"]["json_schema"] == schema


def test_chunk_merge() -> None:
    merged = merge_chunks(
        [
            {"parties": ["Acme Inc."], "effective_date": None, "confidence": 0.4},
            "{not json",
            {
                "parties": ["ACME, Inc", "Beta LLC"],
                "effective_date": "2020-01-01",
                "confidence": 0.9,
            },
            {"effective_date": "2021-01-01"},
        ]
    )
    assert merged.value == {
        "parties": ["Acme Inc.", "Beta LLC"],
        "effective_date": "2020-01-01",
        "confidence": 0.9,
    }
    assert merged.n_chunks == 3 and merged.chunked and len(merged.skipped) == 1


def test_chunked_prediction_is_scored_like_a_single_pass(tmp_path: Path) -> None:
    gold = [{"id": "a", "expected": {"parties": ["Acme Inc.", "Beta LLC"], "title": "Deal"}}]
    pred = [
        {
            "id": "a",
            "predicted": {
                "chunks": [{"parties": ["Acme Inc."], "title": "Deal"}, {"parties": ["Beta LLC"]}]
            },
        }
    ]
    run = assay.score(
        "extraction",
        pred=write_jsonl(tmp_path / "p.jsonl", pred),
        gold=write_jsonl(tmp_path / "g.jsonl", gold),
        ci=False,
    )
    item = run.items[0]
    assert item.scores["overall_extraction_score"] == 1.0
    assert item.details["n_chunks"] == 2 and item.details["chunked"] is True


def test_r_squared() -> None:
    assert r_squared([1.0], [1.0]) is None
    assert r_squared([1.0, 2.0], [3.0, 3.0]) is None
    assert r_squared([1.0, 2.0, 3.0], [1.0, 2.0, 3.0]) == 1.0
    assert r_squared([3.0, 2.0, 1.0], [1.0, 2.0, 3.0]) == pytest.approx(-3.0)


def test_embedding_rescue_with_an_injected_embedder() -> None:
    from assay._fields import score_free_text_field

    class Fake:
        def encode(self, sentences: list[str]) -> list[list[float]]:
            return [
                [1.0, 0.0] if "car" in s or "automobile" in s else [0.0, 1.0] for s in sentences
            ]

    plain = score_free_text_field("automobile", "car")
    rescued = score_free_text_field("automobile", "car", embedder=Fake())
    assert plain.score == 0.0
    assert isinstance(rescued, FieldScore) and rescued.score == 1.0
    assert "embedding" in rescued.reason
    # never lowers a score
    assert score_free_text_field("car", "car", embedder=Fake()).score == 1.0


CUAD = SHARED / "data" / "legal" / "cuad" / "master_clauses.csv"


@pytest.mark.skipif(not CUAD.is_file(), reason="CUAD master_clauses.csv not in ../shared")
def test_master_labels_feed_the_diagnostics(tmp_path: Path) -> None:
    doc = "ABILITYINC_06_15_2020-EX-4.25-SERVICES AGREEMENT"
    gold = [{"id": doc, "expected": {"effective_date": "the first day of November, 2019"}}]
    pred = [{"id": doc, "predicted": {"effective_date": "2019-11-03"}}]
    run = assay.score(
        "extraction",
        pred=write_jsonl(tmp_path / "p.jsonl", pred),
        gold=write_jsonl(tmp_path / "g.jsonl", gold),
        master_labels=str(CUAD),
        master_labels_columns={"effective_date": "Effective Date-Answer"},
        ci=False,
    )
    # CUAD's normalized answer for this contract is 11/1/2019: two days off
    assert run.summaries["regression"]["date_mae_days"] == 2.0
    assert run.items[0].details["fields"]["effective_date"]["score"] == pytest.approx(0.67)
