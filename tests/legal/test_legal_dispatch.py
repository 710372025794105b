"""The dispatcher (seed 000 §8) and the failure-mode taxonomy (§15)."""

from __future__ import annotations

from pathlib import Path

import pytest

import assay
from assay._labels import classify_docclass_failure, classify_failure, summarize_failures
from assay._labels.equivalences import SUBTYPE_EQUIVALENCES, equivalence_set
from assay._legal.dispatch import (
    court_opinion_score,
    legalbench_score,
    maud_docclass_score,
    maud_question_score,
    multiclass_score,
    normalize_task_answer,
    score_task,
    task_kind,
)
from assay.errors import UsageError
from tests.conftest import write_jsonl


def test_task_kind() -> None:
    assert task_kind("legalbench") == "legalbench"
    assert task_kind("legalbench_hearsay") == "legalbench"
    assert task_kind("maud_question") == "maud_question"
    assert task_kind("ContractEval") == "contracteval"
    assert task_kind("invoices") == "invoices"  # fallback: plain labels


def test_score_task_legalbench_deterministic() -> None:
    exp = ["Yes", "No", "Yes", "No", "Yes"] * 8
    pred = ["yes", "no", "No", "ERROR: x", "TRUE"] * 8
    a = score_task("legalbench", exp, pred, n_boot=300)
    b = score_task("legalbench", exp, pred, n_boot=300)
    assert a == b
    m = a["metrics"]
    assert m["exact_match"]["value"] == pytest.approx(3 / 5)
    assert m["f1"]["value"] == pytest.approx(2 * 16 / (2 * 16 + 0 + 8))
    assert a["n_failed"] == 8
    assert m["exact_match"]["ci_lower"] <= m["exact_match"]["value"] <= m["exact_match"]["ci_upper"]
    assert a["top_confusions"] == [{"expected": "yes", "predicted": "no", "count": 8}]
    # LegalBench's official figure: "TRUE" is "true" there (a miss), "ERROR: x" a miss too;
    # yes rows 8 right of 24, no rows 8 of 16
    assert m["balanced_accuracy"]["value"] == pytest.approx((8 / 24 + 8 / 16) / 2)
    # every row in its class's denominator: yes 16 of 24 right (TRUE → yes), no 8 of 16 (the
    # ERROR rows are misses in it)
    assert m["macro_accuracy"]["value"] == pytest.approx((16 / 24 + 8 / 16) / 2)
    assert a["per_class"]["no"] == {"n": 16, "correct": 8, "accuracy": 0.5}


def test_dispatcher_equals_the_legalbench_suite(tmp_path: Path) -> None:
    """Offline rescoring and the suite never disagree: every metric the same."""
    exp = ["Yes", "No", "No", "Yes", "No", "Yes"] * 5
    pred: list[object] = ["yes", "No.", "Answer: no", "", "ERROR: x", None] * 5
    rows = [
        {"id": f"r{i}", "answer": e, "predicted": p}
        for i, (e, p) in enumerate(zip(exp, pred, strict=True))
    ]
    run = assay.score("legalbench", pred=write_jsonl(tmp_path / "lb.jsonl", rows), ci=False)
    out = score_task("legalbench", exp, pred, n_boot=0)
    assert {k: v["value"] for k, v in out["metrics"].items()} == pytest.approx(
        {k: m.value for k, m in run.metrics.items()}
    )
    assert out["per_class"] == {
        k: {key: v[key] for key in ("n", "correct", "accuracy")}
        for k, v in run.summaries["per_class"].items()
    }


def test_score_task_kinds() -> None:
    dc = score_task(
        "maud_docclass",
        ["merger_agreement"] * 2,
        ["merger_agreement"] * 2,
        expected_subclass=["All Cash", "Mixed Cash/Stock"],
        predicted_subclass=["cash", "election"],
        n_boot=0,
    )
    assert dc["metrics"]["subclass_accuracy"]["value"] == 0.5
    assert dc["metrics"]["subclass_accuracy_equiv"]["value"] == 1.0
    ce = score_task(
        "contracteval",
        [["a b"], [], []],
        ["x a b", "No related clause", None],
        categories=["A", "B", "B"],
        n_boot=0,
    )
    assert ce["metrics"]["f2"]["value"] == pytest.approx(5 / 6)
    assert ce["per_category"]["B"] == {"TP": 0, "FN": 0, "TN": 1, "FP": 1}
    st = score_task("subtype", ["reseller", "license"], ["distributor", "other"], n_boot=0)
    assert st["metrics"]["subtype_accuracy_equiv"]["value"] == 0.5
    mc = score_task("court_opinion", ["court_opinion", "contract"], ["court opinion", ""], n_boot=0)
    assert mc["metrics"]["exact_match"]["value"] == 0.5
    with pytest.raises(UsageError, match="per-stage"):
        score_task("chained", [1], [1])
    with pytest.raises(UsageError, match="length"):
        score_task("multiclass", ["a"], ["a", "b"])


def test_named_scorers_are_the_dispatcher() -> None:
    exp, pred = ["Yes", "No", "Yes", "No"] * 5, ["yes", "no", "no", "no"] * 5
    assert legalbench_score(exp, pred, n_boot=50) == score_task("legalbench", exp, pred, n_boot=50)
    q_exp, q_pred = ["all_cash", "all_stock"] * 6, ["All Cash", "mixed"] * 6
    assert maud_question_score(q_exp, q_pred, n_boot=0) == score_task(
        "maud_question", q_exp, q_pred, n_boot=0
    )
    dc = maud_docclass_score(
        ["merger_agreement"] * 2,
        ["merger_agreement"] * 2,
        expected_subclass=["All Cash", "Mixed Cash/Stock"],
        predicted_subclass=["cash", "election"],
        n_boot=0,
    )
    assert dc["metrics"]["subclass_accuracy_equiv"]["value"] == 1.0
    labels = ["a", "b", "c", "a"]
    assert multiclass_score(labels, ["a", "b", "b", "a"], n_boot=0)["metrics"]["exact_match"][
        "value"
    ] == pytest.approx(0.75)
    assert court_opinion_score(["court_opinion"], ["Court Opinion"], n_boot=0)["metrics"][
        "exact_match"
    ]["value"] == pytest.approx(1.0)


def test_failure_modes() -> None:
    eq = equivalence_set(SUBTYPE_EQUIVALENCES)
    kw = {"equivalences": eq}
    assert classify_failure(doc_type_ok=False, expected="a", predicted="a", **kw) == (
        "function_over_form"
    )
    assert classify_failure(doc_type_ok=True, expected="a", predicted="a", **kw) is None
    assert classify_failure(doc_type_ok=True, expected="a", predicted="other", **kw) == (
        "other_fallback"
    )
    assert classify_failure(
        doc_type_ok=True, expected="license", predicted="maintenance", **kw
    ) == ("equivalent_family")
    assert classify_failure(doc_type_ok=True, expected="a", predicted="b", **kw) == (
        "family_confusion"
    )
    assert classify_docclass_failure(doc_type_ok=False, subclass_ok=None) == "doc_type_miss"
    assert classify_docclass_failure(doc_type_ok=True, subclass_ok=False) == "subclass_miss"
    assert classify_docclass_failure(doc_type_ok=True, subclass_ok=None) is None
    s = summarize_failures(
        [{"failure_mode": None}, {"failure_mode": "family_confusion", "filename": "f.pdf"}]
    )
    assert (s["n_total"], s["n_failed"], s["n_ok"], s["rate"]) == (2, 1, 1, 0.5)
    assert s["mode_rate"]["family_confusion"] == 0.5  # over all rows, as rate (§15)
    assert s["failures"][0]["filename"] == "f.pdf"


@pytest.mark.parametrize(
    ("task", "value", "valid", "want"),
    [
        ("maud_docclass", "Mixed Cash & Stock", None, "mixed_cash_stock"),
        ("maud_question", "Mixed Cash & Stock (Election)", None, "mixed_cash_stock_election"),
        ("maud", "earnout units", None, "other"),
        ("legalbench", "1.0", None, "yes"),
        ("legalbench_hearsay", "No.", None, "no"),
        ("subtype", "License_Agreements", None, "license"),
        ("doc_class", '{"doc_type": "Corporate Record"}', None, "corporate_record"),
        (
            "doc_class",
            "It is a corporate record.",
            ["contract", "corporate_record"],
            "corporate_record",
        ),
        ("some_new_task", "Contract", None, "contract"),
    ],
)
def test_normalize_task_answer(task: str, value: str, valid: list[str] | None, want: str) -> None:
    assert normalize_task_answer(task, value, valid=valid) == want


def test_dispatch_subclass_accuracy_is_over_the_subclass_alone() -> None:
    out = score_task(
        "docclass",
        ["merger_agreement", "merger_agreement"],
        ["contract", "merger_agreement"],
        expected_subclass=["all_cash", "all_stock"],
        predicted_subclass=["all_cash", "all_cash"],
        n_boot=0,
    )
    assert out["metrics"]["subclass_accuracy"]["value"] == 0.5
    assert out["metrics"]["exact_match"]["value"] == 0.0
