"""The LegalBench suite on the snapshot's test files: aliases, exact match, per-class accuracy,
binary P/R/F1 with yes positive, confusion, and bad answers as per-row outcomes."""

from __future__ import annotations

import csv
from pathlib import Path
from typing import Any

import pytest
from hypothesis import given
from hypothesis import strategies as st

import assay
from assay.suites.legalbench import normalize_legalbench
from tests.conftest import SHARED, write_jsonl

LB = SHARED / "data" / "legal" / "legalbench"
needs_data = pytest.mark.skipif(not LB.exists(), reason=f"LegalBench snapshot absent: {LB}")


def _tsv(task: str) -> list[dict[str, str]]:
    with (LB / task / "test.tsv").open(encoding="utf-8", newline="") as fh:
        return list(csv.DictReader(fh, delimiter="\t"))


def test_normalize_aliases() -> None:
    assert normalize_legalbench("Yes.") == "yes"
    assert normalize_legalbench(" TRUE ") == "yes"
    assert normalize_legalbench("N") == "no"
    assert normalize_legalbench({"answer": "No"}) == "no"
    assert normalize_legalbench("Answer: yes, it is hearsay") == "yes"
    assert normalize_legalbench("maybe") == "maybe"


@given(st.sampled_from(["yes", "no"]), st.sampled_from(["", " ", "\n"]), st.booleans())
def test_normalize_surface_invariance(label: str, pad: str, upper: bool) -> None:
    text = pad + (label.upper() if upper else label.capitalize()) + "." + pad
    assert normalize_legalbench(text) == label


def _answers(rows: list[dict[str, str]]) -> list[Any]:
    """A deterministic mix: right (with aliases), wrong, ERROR, blank, null, invalid label."""
    out: list[Any] = []
    for i, row in enumerate(rows):
        gold = row["label"].strip().lower()
        other = "no" if gold == "yes" else "yes"
        k = i % 8
        out.append(
            [
                gold.capitalize() + ".",
                {"yes": "TRUE", "no": "false"}[gold],
                other,
                "ERROR: rate limited",
                "",
                None,
                "maybe",
                gold,
            ][k]
        )
    return out


@needs_data
@pytest.mark.parametrize("task", ["hearsay", "proa", "cuad_most_favored_nation"])
def test_binary_task(tmp_path: Path, task: str) -> None:
    rows = _tsv(task)
    answers = _answers(rows)
    records = [
        {"id": f"{task}-{i}", "answer": r["label"], "predicted": a}
        for i, (r, a) in enumerate(zip(rows, answers, strict=True))
    ]
    run = assay.score("legalbench", pred=write_jsonl(tmp_path / "lb.jsonl", records), seed=7)
    gold = [r["label"].strip().lower() for r in rows]
    pred = [
        normalize_legalbench(a) if i % 8 not in (3, 4, 5) else None for i, a in enumerate(answers)
    ]
    correct = [g == p for g, p in zip(gold, pred, strict=True)]
    m = run.metrics
    assert m["exact_match"].value == pytest.approx(sum(correct) / len(rows))
    tp = sum(g == "yes" and p == "yes" for g, p in zip(gold, pred, strict=True))
    fp = sum(g != "yes" and p == "yes" for g, p in zip(gold, pred, strict=True))
    fn = sum(g == "yes" and p != "yes" for g, p in zip(gold, pred, strict=True))
    assert m["precision"].value == pytest.approx(tp / (tp + fp))
    assert m["recall"].value == pytest.approx(tp / (tp + fn))
    assert m["f1"].value == pytest.approx(2 * tp / (2 * tp + fp + fn))
    # every row in its class's denominator (the README), the seed's usable-only figure apart
    every_yes = [c for g, c in zip(gold, correct, strict=True) if g == "yes"]
    assert m["accuracy[yes]"].value == pytest.approx(sum(every_yes) / len(every_yes))
    usable = {
        c: [ok for g, p, ok in zip(gold, pred, correct, strict=True) if g == c and p]
        for c in ("yes", "no")
    }
    assert m["macro_accuracy_usable"].value == pytest.approx(
        sum(sum(v) / len(v) for v in usable.values()) / 2
    )
    assert m["balanced_accuracy"].tier == "headline"
    for name in ("exact_match", "f1", "macro_accuracy", "balanced_accuracy"):
        assert m[name].ci_lower is not None and m[name].ci_upper is not None
    s = run.summaries
    assert s["n_error_rows"] == sum(1 for i in range(len(rows)) if i % 8 == 3)
    assert s["n_blank"] == sum(1 for i in range(len(rows)) if i % 8 in (4, 5))
    assert s["n_invalid_label"] == sum(1 for i in range(len(rows)) if i % 8 == 6)
    assert "maybe" in s["confusion"]["labels"]
    assert s["top_confusions"][0]["count"] >= s["top_confusions"][-1]["count"]


@needs_data
def test_multiclass_task_has_no_binary_metrics(tmp_path: Path) -> None:
    rows = _tsv("abercrombie")
    records = [
        {"id": f"a{i}", "answer": r["label"], "predicted": f"The mark is {r['label']}."}
        for i, r in enumerate(rows)
    ]
    records[0]["predicted"] = "fanciful" if rows[0]["label"] != "fanciful" else "generic"
    run = assay.score("legalbench", pred=write_jsonl(tmp_path / "ab.jsonl", records), ci=False)
    assert "f1" not in run.metrics
    assert run.metrics["exact_match"].value == pytest.approx((len(rows) - 1) / len(rows))
    assert len(run.summaries["per_class"]) == 5
    assert run.summaries["top_confusions"][0]["count"] == 1


@needs_data
@pytest.mark.parametrize("task", ["cuad_most_favored_nation", "cuad_third_party_beneficiary"])
def test_float_answers_1_0_and_0_0(tmp_path: Path, task: str) -> None:
    """Issue 16, case 8: a model answering "1.0" / "0.0" (or the floats) is answering yes / no."""
    rows = _tsv(task)
    records = [
        {
            "id": f"{task}-{i}",
            "answer": r["label"],
            "predicted": ({"Yes": "1.0", "No": "0.0"} if i % 2 else {"Yes": 1.0, "No": 0.0})[
                r["label"].strip()
            ],
        }
        for i, r in enumerate(rows)
    ]
    run = assay.score("legalbench", pred=write_jsonl(tmp_path / "lb.jsonl", records), ci=False)
    assert run.metrics["exact_match"].value == 1.0
    assert normalize_legalbench("1.0") == "yes" and normalize_legalbench("0.0") == "no"
