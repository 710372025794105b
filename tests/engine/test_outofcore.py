"""Out-of-core scoring: a run scored through the spill files equals the in-memory run."""

from __future__ import annotations

import gc
import json
import pickle
from pathlib import Path
from typing import Any

import pytest

import assay
import assay._engine.plan as plan
from assay._compare import compare
from assay._engine.item import Item
from assay._engine.run import Run
from assay._engine.spill import RecordSpool
from assay._engine.task import ItemScore, LoadedInputs, Task
from assay._io.compact import ShapedRecords
from assay._store import RunStore
from assay.suites.classification import ClassificationSettings, ClassificationTask
from assay.suites.extraction.task import ExtractionTask
from tests.conftest import write_jsonl
from tests.scale.helpers import write_classification

TYPES = {
    "title": "name",
    "parties": "entity_list:name",
    "effective_date": "date",
    "amount": "money",
    "summary": "free_text",
}


def _lines(run: Run) -> list[str]:
    return [ln for ln in run.to_json().splitlines() if '"generated_at"' not in ln]


def _saved_lines(run: Run, path: Path) -> list[str]:
    text = run.save(path).read_text(encoding="utf-8")
    return [ln for ln in text.splitlines() if '"generated_at"' not in ln]


@pytest.fixture(scope="module")
def messy(tmp_path_factory: pytest.TempPathFactory) -> tuple[Path, Path]:
    """Classification inputs with every kind of accounting: missing, failed (corrupt line with
    an id), unmatched, duplicate and unattributable predictions, an ERROR row."""
    tmp = tmp_path_factory.mktemp("messy")
    gold, pred = write_classification(tmp, 600, seed=5)
    with pred.open("a", encoding="utf-8") as fh:
        fh.write('{"id": "doc-1", "predicted": "memo"}\n')  # duplicate
        fh.write('{"id": "nowhere", "predicted": "memo"}\n')  # unmatched
        fh.write("{not json\n")  # unattributable parse failure
        fh.write('{"predicted": "memo"}\n')  # no id
        fh.write('{"id": "doc-3", "predicted": "ERROR: timeout"}\n')
    return gold, pred


@pytest.mark.parametrize(
    "options",
    [{}, {"jobs": 2}, {"executor": "thread", "jobs": 2}, {"positive": "memo"}, {"ci": False}],
    ids=["default", "jobs2", "threads", "positive", "no-ci"],
)
def test_classification_spilled_equals_in_memory(
    tmp_path: Path, messy: tuple[Path, Path], options: dict[str, Any]
) -> None:
    gold, pred = messy
    common = {"pred": pred, "gold": gold, "n_bootstrap_ci": 200, **options}
    memory = assay.score("classification", spill=False, **common)
    spilled = assay.score("classification", spill=True, **common)
    assert spilled.spilled and not memory.spilled
    assert _saved_lines(spilled, tmp_path / "s.json") == _saved_lines(memory, tmp_path / "m.json")
    assert _lines(spilled) == _lines(memory)
    assert spilled.cohort.duplicates and spilled.cohort.unmatched == 1
    assert spilled.cohort.parse_failures and spilled.cohort.missing > 0


def test_poisson_and_expected_ids_spilled_equal_in_memory(tmp_path: Path) -> None:
    gold, pred = write_classification(tmp_path, 400, seed=2)
    expected = tmp_path / "expected.json"
    expected.write_text(json.dumps([f"doc-{i}" for i in range(0, 420, 2)]), encoding="utf-8")
    common = {"pred": pred, "gold": gold, "resampling": "poisson", "expected_ids": expected}
    memory = assay.score("classification", spill=False, **common)
    spilled = assay.score("classification", spill=True, **common)
    assert _lines(spilled) == _lines(memory)
    assert spilled.cohort.no_gold_ids  # ids 400..418 have no gold


class FlakyTask(ClassificationTask):
    """Classification, except that scoring the predictions of ``doc-7`` and ``doc-30`` raises."""

    def score_item(self, item: Item, settings: ClassificationSettings) -> ItemScore:
        if item.id in ("doc-7", "doc-30") and item.pred is not None:
            raise MemoryError(f"no memory for {item.id}")
        return super().score_item(item, settings)


def test_scoring_failures_are_listed_alike_in_memory_and_out_of_core(
    tmp_path: Path, messy: tuple[Path, Path]
) -> None:
    gold, pred = messy
    common = {"pred": pred, "gold": gold, "n_bootstrap_ci": 100}
    memory = assay.score(FlakyTask(), spill=False, **common)
    spilled = assay.score(FlakyTask(), spill=True, **common)
    plain = assay.score("classification", spill=False, **common)
    assert spilled.cohort.failures == memory.cohort.failures
    raised = [f for f in memory.cohort.failures if "MemoryError" in f.reason]
    assert [(f.id, f.reason) for f in raised] == [
        ("doc-7", "scoring failed: MemoryError: no memory for doc-7"),
        ("doc-30", "scoring failed: MemoryError: no memory for doc-30"),
    ]
    assert memory.cohort.failed == plain.cohort.failed + 2 == spilled.cohort.failed
    assert memory.cohort.evaluated == plain.cohort.evaluated - 2 == spilled.cohort.evaluated
    assert memory.summaries["n_failed"] == plain.summaries["n_failed"] + 2
    assert spilled.summaries == memory.summaries
    # the item's record carries the failure, not status "ok"
    for run in (memory, spilled):
        record = next(r for r in run.items if r.id == "doc-7")
        assert record.status == "failed" and record.error == raised[0].reason
        assert "score_error" in record.flags
    assert _saved_lines(spilled, tmp_path / "s.json") == _saved_lines(memory, tmp_path / "m.json")
    back = Run.load(tmp_path / "s.json")
    assert next(r for r in back.items if r.id == "doc-30").status == "failed"


def _extraction_inputs(tmp: Path, n: int) -> tuple[Path, Path]:
    gold, pred = [], []
    for i in range(n):
        expected = {
            "title": f"Supply Agreement {i}",
            "parties": [f"Acme {i} Inc", f"Globex {i % 7} LLC", "Initech Corp"],
            "effective_date": f"{1 + i % 12}/{1 + i % 28}/20{10 + i % 9}",
            "amount": f"${(i + 1) * 1000:,}",
            "summary": f"supplier delivers product {i} under the terms with notice",
            "source_text": f"This Supply Agreement {i} between Acme {i} Inc and Initech Corp.",
        }
        got = dict(expected)
        got["parties"] = [f"Acme {i} Inc", "Initech Corporation"] + (["Hooli"] if i % 3 else [])
        got["amount"] = expected["amount"] if i % 4 else "$1"
        got["summary"] = f"supplier delivers product {i + i % 2}"
        gold.append({"id": f"x{i}", "expected": expected})
        if i % 11 != 5:
            pred.append({"id": f"x{i}", "predicted": got})
    pred.append({"id": "x3", "predicted": "not an object"})
    return write_jsonl(tmp / "gold.jsonl", gold), write_jsonl(tmp / "pred.jsonl", pred)


@pytest.mark.parametrize("jobs", [1, 2])
def test_extraction_spilled_equals_in_memory(tmp_path: Path, jobs: int) -> None:
    gold, pred = _extraction_inputs(tmp_path, 60)
    common = {"pred": pred, "gold": gold, "field_types": TYPES, "n_bootstrap_ci": 200}
    memory = assay.score("extraction", spill=False, jobs=jobs, **common)
    spilled = assay.score("extraction", spill=True, jobs=jobs, **common)
    assert spilled.spilled
    assert _saved_lines(spilled, tmp_path / "s.json") == _saved_lines(memory, tmp_path / "m.json")
    assert spilled.summaries == memory.summaries
    assert list(spilled.items) == memory.items


def test_threshold_chooses_the_spill_path(
    monkeypatch: pytest.MonkeyPatch, labels_files: tuple[Path, Path]
) -> None:
    gold, pred = labels_files
    assert not assay.score("classification", pred=pred, gold=gold, ci=False).spilled
    monkeypatch.setattr(plan, "SPILL_THRESHOLD", 10)
    assert assay.score("classification", pred=pred, gold=gold, ci=False).spilled
    assert not assay.score("classification", pred=pred, gold=gold, ci=False, spill=False).spilled


def test_spilled_run_loads_pickles_stores_and_compares(
    tmp_path: Path, labels_files: tuple[Path, Path]
) -> None:
    gold, pred = labels_files
    memory = assay.score("classification", pred=pred, gold=gold, n_bootstrap_ci=100)
    spilled = assay.score(
        "classification", pred=pred, gold=gold, n_bootstrap_ci=100, spill=True, name="pred"
    )
    back = Run.load(spilled.save(tmp_path / "run.json"))
    assert back == spilled and spilled == back
    assert not back.spilled and back.items == list(spilled.items)
    assert back.table().values.tolist() == spilled.table().values.tolist()
    assert spilled.item_gold_digests() == memory.item_gold_digests()
    again = pickle.loads(pickle.dumps(spilled))
    assert not again.spilled and again == spilled
    # model_dump materializes the lazy members, so every consumer of a dump keeps working
    assert json.dumps(spilled.model_dump(mode="json")["items"]) == json.dumps(
        memory.model_dump(mode="json")["items"]
    )
    with RunStore(f"sqlite:///{tmp_path / 'assay.db'}") as st:
        st.add(spilled)
        stored = st.get(spilled.run_id)
        assert _lines(stored) == _lines(spilled)
    a = compare(memory, spilled, n_bootstrap=200).to_json()
    b = compare(memory, memory, n_bootstrap=200).to_json()
    assert a == b


def test_spill_folder_goes_with_the_run(tmp_path: Path, labels_files: tuple[Path, Path]) -> None:
    gold, pred = labels_files
    spill_dir = tmp_path / "spill"
    run = assay.score(
        "classification", pred=pred, gold=gold, ci=False, spill=True, spill_dir=spill_dir
    )
    assert len(list(spill_dir.iterdir())) == 1
    assert len(run.items) == 12 and run.items[-1].id == "d11"
    del run
    gc.collect()
    assert list(spill_dir.iterdir()) == []


def test_spill_flag_setting_and_folder_from_cli_and_config(
    tmp_path: Path, messy: tuple[Path, Path]
) -> None:
    from assay._cli import main

    gold, pred = messy
    folder = tmp_path / "spill-here"
    outputs = {}
    for flag in ("--spill", "--no-spill"):
        out = tmp_path / f"run{flag}.json"
        args = ["score", "classification", "--pred", str(pred), "--gold", str(gold), flag]
        args += ["--spill-dir", str(folder), "--no-store", "--output", str(out)]
        assert main(args) == 0
        outputs[flag] = [ln for ln in out.read_text().splitlines() if "generated_at" not in ln]
    assert outputs["--spill"] == outputs["--no-spill"]
    assert folder.is_dir()  # the spill files went there (and were removed with the run)
    config = tmp_path / "assay.yaml"
    config.write_text(f"run:\n  spill: true\n  spill_dir: {folder}\n", encoding="utf-8")
    settings = assay.load_settings(config)
    assert assay.score("classification", pred=pred, gold=gold, ci=False, settings=settings).spilled


def _to_json_dir(jsonl: Path, folder: Path) -> Path:
    """The records of a JSONL file as a JSON directory, one ``<id>.json`` file each."""
    folder.mkdir()
    for n, line in enumerate(jsonl.read_text(encoding="utf-8").splitlines()):
        try:
            name = str(json.loads(line).get("id", f"no-id-{n}"))
        except json.JSONDecodeError:
            name = f"corrupt-{n}"
        (folder / f"{name}.json").write_text(line, encoding="utf-8")
    return folder


@pytest.fixture
def loads(monkeypatch: pytest.MonkeyPatch) -> list[LoadedInputs]:
    """Every LoadedInputs the classification and extraction ``load`` return, in order."""
    seen: list[LoadedInputs] = []
    for cls in (ClassificationTask, ExtractionTask):
        original = cls.load

        def load(self: Task, *args: Any, _original: Any = original) -> LoadedInputs:
            loaded: LoadedInputs = _original(self, *args)
            seen.append(loaded)
            return loaded

        monkeypatch.setattr(cls, "load", load)
    return seen


def _as_columns(loaded: LoadedInputs) -> bool:
    """True when both record sequences are kept as columns (``io.compact.ShapedRecords``)."""
    return all(isinstance(r, ShapedRecords) for r in (loaded.gold, loaded.predictions))


def _on_disk(loaded: LoadedInputs) -> bool:
    """True when both record sequences are spools on disk, False when both are in memory."""
    where = {
        isinstance(records, RecordSpool) and records.spilled
        for records in (loaded.gold, loaded.predictions)
    }
    assert len(where) == 1, loaded
    return where.pop()


@pytest.mark.parametrize("layout", ["jsonl", "json-dir", "one-file"])
def test_classification_keeps_its_records_as_columns_on_both_paths(
    tmp_path: Path, messy: tuple[Path, Path], loads: list[LoadedInputs], layout: str
) -> None:
    gold, pred = messy
    common: dict[str, Any] = {"pred": pred, "gold": gold, "n_bootstrap_ci": 200}
    if layout == "json-dir":
        common["pred"] = _to_json_dir(pred, tmp_path / "pred")
        common["gold"] = _to_json_dir(gold, tmp_path / "gold")
    elif layout == "one-file":
        # gold and predicted labels in one file; rows without a prediction lack the field
        preds = {r["id"]: r for r in map(json.loads, pred.read_text().splitlines()[:580])}
        both = [{**preds.get(r["id"], {}), **r} for r in map(json.loads, gold.open())]
        one = write_jsonl(tmp_path / "both.jsonl", both)
        with one.open("a", encoding="utf-8") as fh:
            fh.write("{not json\n")
        common = {"pred": one, "n_bootstrap_ci": 200}
    memory = assay.score("classification", spill=False, **common)
    spilled = assay.score("classification", spill=True, **common)
    # ~100 bytes a label record in memory: no spool on disk, the items still spilled
    assert [_as_columns(x) for x in loads] == [True, True]
    assert spilled.spilled and not memory.spilled
    assert _saved_lines(spilled, tmp_path / "s.json") == _saved_lines(memory, tmp_path / "m.json")
    assert spilled.cohort.attempted == 600


def test_automatic_choice_spills_past_the_threshold(
    tmp_path: Path, messy: tuple[Path, Path], loads: list[LoadedInputs], monkeypatch: Any
) -> None:
    gold, pred = messy
    memory = assay.score("classification", pred=pred, gold=gold, ci=False)
    monkeypatch.setattr(plan, "SPILL_THRESHOLD", 100)
    spilled = assay.score("classification", pred=pred, gold=gold, ci=False)
    assert [_as_columns(x) for x in loads] == [True, True]
    assert spilled.spilled and not memory.spilled
    assert _lines(spilled) == _lines(memory)


@pytest.mark.parametrize("layout", ["jsonl", "json-dir"])
def test_extraction_reads_onto_disk_when_spilled(
    tmp_path: Path, loads: list[LoadedInputs], layout: str
) -> None:
    gold, pred = _extraction_inputs(tmp_path, 40)
    if layout == "json-dir":
        gold, pred = _to_json_dir(gold, tmp_path / "g"), _to_json_dir(pred, tmp_path / "p")
    common = {"pred": pred, "gold": gold, "field_types": TYPES, "n_bootstrap_ci": 200}
    memory = assay.score("extraction", spill=False, **common)
    spilled = assay.score("extraction", spill=True, **common)
    assert [_on_disk(x) for x in loads] == [False, True]
    assert _saved_lines(spilled, tmp_path / "s.json") == _saved_lines(memory, tmp_path / "m.json")
    assert spilled.summaries == memory.summaries
