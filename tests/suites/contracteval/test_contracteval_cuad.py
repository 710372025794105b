"""A ContractEval case set built from CUAD's master_clauses.csv: gold spans from the CSV,
outputs made by keeping, trimming, dropping, re-spacing and re-casing spans and by answering
"No related clause"; every branch of the confusion matrix is exercised."""

from __future__ import annotations

import ast
import csv
import json
from pathlib import Path
from typing import Any

import pytest
from click.testing import CliRunner

import assay
from assay._cli.app import build_cli
from assay._engine.run import Run
from tests.conftest import SHARED, write_jsonl

CUAD = SHARED / "data" / "legal" / "cuad" / "master_clauses.csv"
pytestmark = pytest.mark.skipif(not CUAD.exists(), reason=f"CUAD data absent: {CUAD}")
N_CONTRACTS = 12


def _cuad_pairs() -> list[tuple[str, str, list[str]]]:
    csv.field_size_limit(10**9)
    with CUAD.open(encoding="utf-8", newline="") as fh:
        rows = list(csv.DictReader(fh))[:N_CONTRACTS]
    cats = [c for c in rows[0] if c != "Filename" and not c.endswith("-Answer")]
    pairs = []
    for row in rows:
        for cat in cats:
            spans = ast.literal_eval(row[cat])
            pairs.append((row["Filename"], cat, [str(s) for s in spans]))
    return pairs


def _variant(i: int, spans: list[str]) -> tuple[str | None, str]:
    """The output of case ``i`` and the outcome the rubric must give it."""
    if not spans:
        k = i % 4
        if k == 0:
            return "No related clause.", "tn"
        if k == 1:
            return "```\nThere is no related clause in this contract.\n```", "tn"
        if k == 2:
            return "The parties agree to cooperate.", "fp"
        return None, "fp"
    k = i % 6
    cased = [s for s in spans if s.upper() != s]
    spaced = [s for s in spans if " " in s.strip(" \n`")]
    if k == 0:
        return "``` \n" + "\n\n".join(spans) + "\n```", "tp"
    if k == 1:
        return " ".join(s.strip(" \n`") for s in spans), "tp"  # trimmed spans
    if k == 2 and len(spans) > 1:
        return "\n".join(spans[1:]), "fn"  # one span dropped
    if k == 3 and cased:
        return "\n".join(s.upper() if s in cased else s for s in spans), "fn"  # re-cased
    if k == 4 and spaced:
        return "\n".join(s.replace(" ", "  ") if s in spaced else s for s in spans), "fn"
    return "No related clause.", "fn"


def _case_set(tmp_path: Path) -> tuple[Path, dict[str, int], list[dict[str, Any]]]:
    rows, counts = [], {"tp": 0, "fn": 0, "tn": 0, "fp": 0}
    for i, (contract, cat, spans) in enumerate(_cuad_pairs()):
        output, outcome = _variant(i, spans)
        counts[outcome] += 1
        rows.append(
            {
                "id": f"p{i:05d}",
                "contract": contract,
                "category": cat,
                "gold_spans": spans,
                "output": output,
                "want": outcome,
            }
        )
    return write_jsonl(tmp_path / "rows.jsonl", rows), counts, rows


def test_every_branch_and_formulas(tmp_path: Path) -> None:
    path, counts, rows = _case_set(tmp_path)
    assert all(n > 0 for n in counts.values()), counts
    run = assay.score("contracteval", pred=path, n_bootstrap_ci=200)
    conf = run.summaries["confusion"]
    assert conf == {k.upper(): v for k, v in counts.items()}
    by_id = {r["id"]: r["want"] for r in rows}
    assert all(rec.details["outcome"] == by_id[rec.id] for rec in run.items)
    tp, fn, tn, fp = counts["tp"], counts["fn"], counts["tn"], counts["fp"]
    p, r = tp / (tp + fp), tp / (tp + fn)
    m = run.metrics
    assert m["accuracy"].value == pytest.approx((tp + tn) / len(rows))
    assert m["precision"].value == pytest.approx(p)
    assert m["recall"].value == pytest.approx(r)
    assert m["f1"].value == pytest.approx(2 * p * r / (p + r))
    assert m["f2"].value == pytest.approx(5 * p * r / (4 * p + r))
    positives = sum(1 for row in rows if row["gold_spans"])
    nr = [row for row in rows if row["output"] and "no related clause" in row["output"].lower()]
    false_nr = sum(1 for row in nr if row["gold_spans"])
    assert m["no_related_rate"].value == pytest.approx(len(nr) / len(rows))
    assert m["false_no_related_rate"].value == pytest.approx(false_nr / positives)
    assert m["false_no_related_rate_paper"].value == pytest.approx(false_nr / 1244)
    for name in ("f1", "f2", "accuracy", "jaccard", "false_no_related_rate"):
        lo, hi = m[name].ci_lower, m[name].ci_upper
        assert lo is not None and hi is not None and lo <= (m[name].value or 0) <= hi
    # per category: the counts of one category add up to its pairs
    cat = "Governing Law"
    per = run.summaries["per_category"][cat]
    assert sum(per.values()) == N_CONTRACTS
    if per["TP"] + per["FN"]:
        assert m[f"recall[{cat}]"].value == pytest.approx(per["TP"] / (per["TP"] + per["FN"]))


def test_jaccard_perfect_for_verbatim_answers(tmp_path: Path) -> None:
    rows = [
        {"id": f"j{i}", "category": cat, "gold_spans": spans, "output": " ".join(spans)}
        for i, (_, cat, spans) in enumerate(_cuad_pairs()[:200])
        if spans
    ]
    run = assay.score("contracteval", pred=write_jsonl(tmp_path / "j.jsonl", rows), ci=False)
    assert run.metrics["jaccard"].value == pytest.approx(1.0)
    assert run.metrics["recall"].value == 1.0


def test_cli_and_determinism(tmp_path: Path) -> None:
    path, counts, _ = _case_set(tmp_path)
    runner = CliRunner()
    outs = []
    for name in ("a.json", "b.json"):
        res = runner.invoke(
            build_cli(),
            [
                "legal",
                "contracteval",
                "--rows",
                str(path),
                "--output",
                str(tmp_path / name),
                "--n-bootstrap-ci",
                "100",
                "--no-store",
            ],
        )
        assert res.exit_code == 0, res.output
        assert f"TP {counts['tp']}" in res.output
        data = json.loads((tmp_path / name).read_text())
        data.pop("generated_at")
        outs.append(json.dumps(data, sort_keys=True))
    assert outs[0] == outs[1]
    assert Run.load(tmp_path / "a.json").task == "contracteval"


def test_bad_rows_are_counted(tmp_path: Path) -> None:
    path = tmp_path / "bad.jsonl"
    lines = [
        json.dumps({"id": "a", "category": "X", "gold_spans": ["foo"], "output": "ERROR: timeout"}),
        json.dumps({"id": "b", "category": "X", "gold_spans": [], "output": 42}),
        json.dumps({"id": "c", "category": "X", "gold_spans": "foo", "output": "foo"}),
        json.dumps({"id": "d", "category": "X", "gold_spans": [], "output": "No related clause"}),
    ]
    path.write_bytes(("\n".join(lines) + "\n").encode() + b'{"id": "e", "output": "\xff"}\n')
    run = assay.score("contracteval", pred=path, ci=False)
    outcomes = {i.id: i.details.get("outcome") for i in run.items}
    assert outcomes["a"] == "fn" and outcomes["d"] == "tn"
    assert outcomes["b"] == "fp"  # a non-string output is a failed row: no answer → FP
    assert [f.id for f in run.cohort.failures] == ["b"]
    assert "'output' must be a string or null" in run.cohort.failures[0].reason
    assert "error_row" in next(i for i in run.items if i.id == "a").flags
    # c (gold spans not a list) and e (invalid UTF-8) are listed gold failures, not a crash
    assert run.cohort.attempted == 3
    assert len(run.cohort.gold_failures) == 2
