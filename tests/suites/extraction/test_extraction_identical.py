"""The extraction scores stay what they were: every row, item score and metric of fixed runs is
compared with the digest recorded before the issue-21 speed-ups (``fingerprints.json``).

Three sets of documents: the benchmark's synthetic contracts (benchmarks/bench_extraction.py,
two batches and a single document), the extraction demo's two models (``assay.examples``), and
CUAD's real label strings (../shared/data, gold spans against other spans of the same contract).
A digest that changes means a score changed: a scoring change on purpose records the new digest
(``uv run python -m tests.suites.extraction.test_extraction_identical``) and says why in its
commit; a speed-up never does. The digests were recorded by the code of commit 06a2746 (before
the speed-ups: ``git archive 06a2746 src`` on PYTHONPATH).
"""

from __future__ import annotations

import ast
import csv
import hashlib
import json
import sys
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest

import assay
from assay._engine.run import Run
from tests.conftest import SHARED, write_jsonl

ROOT = Path(__file__).resolve().parents[3]
FINGERPRINTS = Path(__file__).with_name("fingerprints.json")
CUAD = SHARED / "data" / "legal" / "cuad" / "master_clauses.csv"

#: the per-field detail keys the scoring writes (other keys, e.g. display values a report adds,
#: are not scores and are left out of the digest)
FIELD_KEYS = (
    "type", "score", "reason", "precision", "recall", "f1", "n_predicted", "n_expected",
    "matched", "instantiated", "null_expectation", "review",
)  # fmt: skip
#: a metric's scored values (a field other work adds to MetricResult is not a score)
METRIC_KEYS = (
    "name", "value", "ci_lower", "ci_upper", "ci_method", "n", "kind", "mean", "p10", "median",
    "min", "max",
)  # fmt: skip
DETAIL_KEYS = (
    "entity_list_audit", "ambiguous_fields", "needs_judge_review", "schema_errors",
    "regression", "category_presence", "lists", "n_chunks", "chunked", "doc_class",
    "doc_verification",
)  # fmt: skip


def digest(run: Run) -> dict[str, Any]:
    """A digest of everything scored: metrics (values, CIs), the stats table, the summaries and
    every item's scores, flags and scoring details; and the headline value, to read."""
    items = []
    for item in run.items:
        details = {k: item.details[k] for k in DETAIL_KEYS if k in item.details}
        details["fields"] = {
            name: {k: d[k] for k in FIELD_KEYS if k in d}
            for name, d in item.details.get("fields", {}).items()
        }
        items.append([item.id, item.status, item.scores, item.flags, details])
    content = {
        "metrics": {
            k: {key: v for key, v in m.model_dump(mode="json").items() if key in METRIC_KEYS}
            for k, m in run.metrics.items()
        },
        "stats": run.model_dump(include={"stats"})["stats"],  # its rows as lists
        "summaries": run.summaries,
        "items": items,
    }
    text = json.dumps(content, sort_keys=True, allow_nan=True)
    headline = run.metrics["overall_extraction_score"]
    return {
        "sha256": hashlib.sha256(text.encode()).hexdigest(),
        "n_items": len(items),
        "overall_extraction_score": [headline.value, headline.ci_lower, headline.ci_upper],
    }


def _benchmark_run(tmp: Path, n: int) -> Run:
    sys.path.insert(0, str(ROOT / "benchmarks"))
    try:
        from bench_extraction import TYPES, write_data
    finally:
        sys.path.remove(str(ROOT / "benchmarks"))
    pred, gold, src = write_data(tmp, n)
    return assay.score("extraction", pred=pred, gold=gold, field_types=TYPES, source=str(src))


def _demo_run(tmp: Path, model: str) -> Run:
    from assay.suites.extraction.examples import write_demo

    write_demo(tmp)
    return assay.score(
        "extraction",
        pred=tmp / model,
        gold=tmp / "gold.jsonl",
        settings=assay.load_settings(tmp / "extraction.yaml"),
        source=str(tmp / "contracts"),
    )


def _spans(row: dict[str, str], column: str) -> list[str]:
    value = row[column].strip()
    return [str(v) for v in ast.literal_eval(value)] if value.startswith("[") else []


CUAD_TYPES = {
    "document_name": "name",
    "parties": "entity_list:name",
    "effective_date": "date",
    "expiration_date": "date",
    "governing_law": "containment",
    "renewal_term": "duration",
    "key_obligations": "entity_list:free_text",
    "audit_rights": "entity_list:containment",
}


def _cuad_run(tmp: Path) -> Run:
    """170 CUAD contracts: gold = the normalized answers and the clause spans; prediction = the
    raw spans (other wording of the same values), the parties' answer string split, a
    neighbour's party and clause added, clauses cut short; source = every span of the row."""
    with CUAD.open(encoding="utf-8", newline="") as handle:
        rows = list(csv.DictReader(handle))[::3]
    gold, pred = [], []
    for k, row in enumerate(rows):
        other = rows[(k + 1) % len(rows)]
        grants = _spans(row, "License Grant") + _spans(row, "Anti-Assignment")
        expected = {
            "document_name": row["Document Name-Answer"],
            "parties": _spans(row, "Parties"),
            "effective_date": row["Effective Date-Answer"],
            "expiration_date": row["Expiration Date-Answer"],
            "governing_law": row["Governing Law-Answer"],
            "renewal_term": row["Renewal Term-Answer"],
            "key_obligations": grants,
            "audit_rights": _spans(row, "Audit Rights"),
        }
        words = [g.split() for g in grants]
        predicted = {
            "document_name": " ".join(_spans(row, "Document Name")),
            "parties": [p.strip() for p in row["Parties-Answer"].split(";") if p.strip()][::-1]
            + _spans(other, "Parties")[:1],
            "effective_date": " ".join(_spans(row, "Effective Date")),
            "expiration_date": " ".join(_spans(row, "Expiration Date")),
            "governing_law": " ".join(_spans(row, "Governing Law")),
            "renewal_term": " ".join(_spans(row, "Renewal Term")),
            "key_obligations": [" ".join(w[: max(1, len(w) * (2 + k % 3) // 4)]) for w in words]
            + _spans(other, "License Grant")[:1],
            "audit_rights": _spans(row, "Audit Rights")[::-1] + _spans(other, "Audit Rights")[:1],
        }
        source = " ".join(
            span for column in row if column and not column.endswith("-Answer")
            for span in _spans(row, column)
        )  # fmt: skip
        gold.append({"id": row["Filename"], "expected": expected, "source_text": source})
        pred.append({"id": row["Filename"], "predicted": predicted})
    return assay.score(
        "extraction",
        pred=write_jsonl(tmp / "pred.jsonl", pred),
        gold=write_jsonl(tmp / "gold.jsonl", gold),
        field_types=CUAD_TYPES,
    )


CASES: dict[str, Callable[[Path], Run]] = {
    "benchmark-130": lambda tmp: _benchmark_run(tmp, 130),
    "benchmark-1": lambda tmp: _benchmark_run(tmp, 1),
    "demo-preds": lambda tmp: _demo_run(tmp, "preds.jsonl"),
    "demo-candidate": lambda tmp: _demo_run(tmp, "candidate.jsonl"),
    "cuad-170": _cuad_run,
}


@pytest.mark.parametrize("case", list(CASES))
def test_scores_are_the_recorded_ones(case: str, tmp_path: Path) -> None:
    if case.startswith("cuad") and not CUAD.is_file():
        pytest.skip("CUAD master_clauses.csv not in ../shared")
    recorded = json.loads(FINGERPRINTS.read_text(encoding="utf-8"))[case]
    assert digest(CASES[case](tmp_path)) == recorded


def record() -> None:
    """Write ``fingerprints.json`` from the current code (a deliberate scoring change only)."""
    import tempfile

    from assay._settings import clear_settings_cache

    out = {}
    for case, build in CASES.items():
        clear_settings_cache()
        with tempfile.TemporaryDirectory() as tmp:
            out[case] = digest(build(Path(tmp)))
        print(case, out[case])
    FINGERPRINTS.write_text(json.dumps(out, indent=2) + "\n", encoding="utf-8")


if __name__ == "__main__":
    record()
