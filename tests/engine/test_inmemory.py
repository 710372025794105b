"""``assay.score`` on records in memory: the same cohort, scoring and Run as from files."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

import assay
from assay.errors import UsageError
from tests.conftest import write_jsonl

GOLD = [{"id": f"d{i}", "expected": lab} for i, lab in enumerate(["a", "b", "c"] * 5)]
PRED = [{"id": f"d{i}", "predicted": lab} for i, lab in enumerate(["a", "b", "b"] * 5)]


def _artifact(run: assay.Run, folder: Path | None = None) -> dict[str, object]:
    text = run.to_json()
    if folder is not None:  # the same lines read from files in ``folder``
        text = text.replace(str(folder), "<records>")
    data = json.loads(text)
    data.pop("generated_at")
    data.pop("provenance")
    data.pop("name")
    return data


def test_records_score_like_the_same_lines_in_files(tmp_path: Path) -> None:
    gold = write_jsonl(tmp_path / "gold.jsonl", GOLD)
    pred = write_jsonl(tmp_path / "predictions.jsonl", PRED)
    from_files = assay.score("classification", pred=pred, gold=gold, n_bootstrap_ci=200)
    in_memory = assay.score("classification", predictions=PRED, gold=GOLD, n_bootstrap_ci=200)
    assert in_memory.run_id == from_files.run_id
    assert _artifact(in_memory) == _artifact(from_files, tmp_path)
    assert in_memory.provenance.predictions == ["<records>/predictions.jsonl"]
    assert in_memory.provenance.gold == ["<records>/gold.jsonl"]
    assert in_memory.name == "predictions"
    again = assay.score("classification", predictions=PRED, gold=GOLD, n_bootstrap_ci=200)
    assert again.to_json().replace(again.generated_at, "") == in_memory.to_json().replace(
        in_memory.generated_at, ""
    )  # deterministic bytes: nothing of the temporary folder leaks into the artifact


def test_records_and_paths_mix(tmp_path: Path) -> None:
    gold = write_jsonl(tmp_path / "gold.jsonl", GOLD)
    run = assay.score("classification", pred=PRED, gold=gold, ci=False)
    assert run.cohort.evaluated == 15 and run.provenance.gold == [str(gold)]


def test_a_bad_record_is_a_counted_failure_of_that_item() -> None:
    pred = [*PRED[:-1], {"id": "d14", "predicted": None}]
    run = assay.score("classification", predictions=pred, gold=GOLD, ci=False)
    assert run.cohort.attempted == 15


def test_pyarrow_tables_are_records() -> None:
    pa = pytest.importorskip("pyarrow")
    run = assay.score(
        "classification", predictions=pa.Table.from_pylist(PRED), gold=pa.Table.from_pylist(GOLD)
    )
    assert run.run_id == assay.score("classification", predictions=PRED, gold=GOLD).run_id


@pytest.mark.parametrize(
    ("kwargs", "message"),
    [
        ({"predictions": [1, 2]}, "predictions[0] must be a record"),
        ({"predictions": {"id": "x"}}, "predictions must be a path, a list of records"),
        ({"predictions": PRED, "pred": PRED}, "not both"),
        ({"predictions": [{"id": "x", "v": object()}]}, "predictions[0]: not representable"),
        ({}, "give predictions"),
    ],
)
def test_bad_arguments_are_named(kwargs: dict[str, object], message: str) -> None:
    with pytest.raises(UsageError) as err:
        assay.score("classification", gold=GOLD, ci=False, **kwargs)  # type: ignore[arg-type]
    assert message in str(err.value)


def test_paths_and_no_gold_are_not_records() -> None:
    from assay._engine.inmemory import as_records

    assert as_records((), "gold") is None  # no gold file: it travels in the predictions
    assert as_records(["a.jsonl", Path("b.jsonl")], "gold") is None
    assert as_records("a.jsonl", "predictions") is None
    assert as_records([{"id": "x"}], "gold") == [{"id": "x"}]
