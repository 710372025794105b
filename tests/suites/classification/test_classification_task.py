"""The classification suite end to end through assay.score."""

from __future__ import annotations

import csv
import json
from pathlib import Path

import pytest

import assay
from assay.errors import InputError
from tests.conftest import write_jsonl


def test_scores_and_cohort(labels_files: tuple[Path, Path]) -> None:
    gold, pred = labels_files
    run = assay.score("classification", pred=pred, gold=gold, n_bootstrap_ci=200)
    c = run.cohort
    assert (c.attempted, c.evaluated, c.missing, c.missing_ids) == (12, 11, 1, ["d11"])
    # correct: d0 d1 d3 d5 d6 d7 d8 d10 = 8 (d2 and d9 wrong, d4 ERROR, d11 missing)
    assert run.metrics["exact_match"].value == pytest.approx(8 / 12)
    assert run.metrics["exact_match"].n == 12
    assert run.metrics["failure"].value == pytest.approx(1 / 12)
    # per class over every row (the README): contract 3/4 (d9 wrong), invoice 3/4 (d4 ERROR a
    # miss), memo 2/4 (d2 wrong, d5 right via the word-boundary fallback, d11 missing a miss)
    assert run.metrics["accuracy[contract]"].value == 0.75
    assert run.metrics["accuracy[invoice]"].value == 0.75
    assert run.metrics["accuracy[memo]"].value == pytest.approx(2 / 4)
    assert run.metrics["macro_accuracy"].value == pytest.approx((0.75 + 0.75 + 2 / 4) / 3)
    # seed 000 §2's figure, failed rows excluded, a diagnostic: invoice 3/3, memo 2/3
    assert run.metrics["macro_accuracy_usable"].value == pytest.approx((0.75 + 1 + 2 / 3) / 3)
    per_class = run.summaries["per_class"]
    assert per_class["invoice"] == {"n": 4, "correct": 3, "accuracy": 0.75, "unusable": 1}
    assert per_class["memo"] == {"n": 4, "correct": 2, "accuracy": 0.5, "unusable": 1}
    for m in run.metrics.values():
        assert m.ci_lower is not None and m.ci_upper is not None
        assert m.ci_lower <= (m.value or 0) <= m.ci_upper
    conf = run.summaries["confusion"]
    assert conf["labels"] == ["contract", "invoice", "letter", "memo"]
    assert run.summaries["n_error_rows"] == 1
    d4 = next(i for i in run.items if i.id == "d4")
    assert "error_row" in d4.flags and d4.scores["exact_match"] == 0.0


def test_positive_class_binary_metrics(labels_files: tuple[Path, Path]) -> None:
    gold, pred = labels_files
    run = assay.score("classification", pred=pred, gold=gold, positive="invoice", ci=False)
    # invoice gold: d1 d4 d7 d10; predicted invoice: d1 d7 d9 d10 -> tp 3 (d1 d7 d10), fp 1 (d9)
    # fn 1 (d4 ERROR)
    assert run.metrics["precision"].value == pytest.approx(3 / 4)
    assert run.metrics["recall"].value == pytest.approx(3 / 4)
    assert run.metrics["f1"].value == pytest.approx(0.75)
    assert run.metrics["f1"].ci_lower is None  # --no-ci


def test_combined_csv_file(tmp_path: Path) -> None:
    path = tmp_path / "rows.csv"
    with path.open("w", newline="") as fh:
        w = csv.writer(fh)
        w.writerow(["doc", "label", "output"])
        w.writerows([["a", "yes", "Yes"], ["b", "no", "yes"], ["c", "no", "No."]])
    run = assay.score(
        "classification",
        pred=path,
        id_field="doc",
        expected_field="label",
        predicted_field="output",
        ci=False,
    )
    assert run.metrics["exact_match"].value == pytest.approx(2 / 3)


def test_expected_ids_keep_missing_in_denominator(
    tmp_path: Path, labels_files: tuple[Path, Path]
) -> None:
    gold, pred = labels_files
    expected = tmp_path / "expected.json"
    expected.write_text(json.dumps({"members": ["d0", "d1", "d11", "d99"]}))
    run = assay.score("classification", pred=pred, gold=gold, expected_ids=expected, ci=False)
    assert run.cohort.attempted == 3
    assert run.cohort.missing_ids == ["d11"]
    assert run.cohort.no_gold_ids == ["d99"]
    assert run.metrics["exact_match"].value == pytest.approx(2 / 3)
    assert any("d99" in w for w in run.warnings)


def test_ids_file_restricts(tmp_path: Path, labels_files: tuple[Path, Path]) -> None:
    gold, pred = labels_files
    ids = tmp_path / "ids.txt"
    ids.write_text("# subset\nd0\nd2  # wrong one\n")
    run = assay.score("classification", pred=pred, gold=gold, ids_file=ids, ci=False)
    assert run.cohort.attempted == 2
    assert run.metrics["exact_match"].value == 0.5
    assert run.cohort.unmatched == 0


def test_corrupt_lines_duplicates_and_unmatched(tmp_path: Path) -> None:
    gold = write_jsonl(tmp_path / "g.jsonl", [{"id": str(i), "expected": "a"} for i in range(4)])
    pred = tmp_path / "p.jsonl"
    pred.write_text(
        '{"id": "0", "predicted": "a"}\n'
        "{not json\n"
        '{"id": "1", "predicted": "a"}\n'
        '{"id": "1", "predicted": "b"}\n'
        '{"id": "2", "predicted": 3.5}\n'
        '{"id": "2x", "predicted": "a"}\n'
        '{"id": "3", "predicted": ["a"]}\n'
    )
    run = assay.score("classification", pred=pred, gold=gold, ci=False)
    c = run.cohort
    assert [p.where for p in c.parse_failures] == [f"{pred}:2"]
    assert [(d.id, d.where) for d in c.duplicates] == [("1", f"{pred}:4")]
    assert c.unmatched_ids == ["2x"]
    assert c.failed == 1 and c.failures[0].id == "3" and "predicted" in c.failures[0].reason
    # 0 right, 1 right (first kept), 2 wrong (3.5 -> "3.5"), 3 failed
    assert run.metrics["exact_match"].value == 0.5
    assert c.attempted == 4


def test_gold_without_label_field_is_reported(tmp_path: Path) -> None:
    gold = write_jsonl(
        tmp_path / "g.jsonl", [{"id": "a", "expected": "x"}, {"id": "b", "label": "x"}]
    )
    pred = write_jsonl(tmp_path / "p.jsonl", [{"id": "a", "predicted": "x"}])
    run = assay.score("classification", pred=pred, gold=gold, ci=False)
    assert run.cohort.attempted == 1
    assert "expected" in run.cohort.gold_failures[0].reason
    assert run.cohort.gold_failures[0].where == f"{gold}:2"


def test_no_match_is_a_clear_error(tmp_path: Path) -> None:
    gold = write_jsonl(tmp_path / "g.jsonl", [{"id": "a", "expected": "x"}])
    pred = write_jsonl(tmp_path / "p.jsonl", [{"id": "zzz", "predicted": "x"}])
    with pytest.raises(InputError, match="none of the 1 predictions"):
        assay.score("classification", pred=pred, gold=gold)


def test_missing_gold_and_empty_files(tmp_path: Path) -> None:
    pred = write_jsonl(tmp_path / "p.jsonl", [{"id": "a", "predicted": "x"}])
    with pytest.raises(InputError, match="nope"):
        assay.score("classification", pred=pred, gold=tmp_path / "nope")
    empty = tmp_path / "empty.jsonl"
    empty.write_text("")
    with pytest.raises(InputError, match="no usable gold"):
        assay.score("classification", pred=pred, gold=empty)
    gold = write_jsonl(tmp_path / "g.jsonl", [{"id": "a", "expected": "x"}])
    run = assay.score("classification", pred=empty, gold=gold, ci=False)
    assert run.cohort.missing_ids == ["a"]
    assert run.metrics["exact_match"].value == 0.0


def test_parallel_jobs_give_identical_results(labels_files: tuple[Path, Path]) -> None:
    gold, pred = labels_files
    one = assay.score("classification", pred=pred, gold=gold, n_bootstrap_ci=100)
    two = assay.score("classification", pred=pred, gold=gold, n_bootstrap_ci=100, jobs=2)
    assert one.model_dump(exclude={"generated_at"}) == two.model_dump(exclude={"generated_at"})


def test_labels_leaving_out_gold_classes_warn(labels_files: tuple[Path, Path]) -> None:
    gold, pred = labels_files
    run = assay.score("classification", pred=pred, gold=gold, ci=False, labels=["contract"])
    (warning,) = [w for w in run.warnings if "--labels" in w]
    assert "2 gold class(es): invoice, memo" in warning
    full = assay.score("classification", pred=pred, gold=gold, ci=False)
    assert not [w for w in full.warnings if "--labels" in w]
