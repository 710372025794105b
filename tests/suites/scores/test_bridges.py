"""The bridge readers on real and fixture files: Inspect (the eight logs of ../shared and our
zstd fixture), lm-evaluation-harness and promptfoo (our fixtures, laid out as their writers lay
them out), and content detection."""

from __future__ import annotations

import json
import sys
import types
import zipfile
from pathlib import Path
from typing import Any

import pytest

from assay._io.bridges import BridgeOptions, BridgeRun, detect_source, read_bridge
from assay._io.bridges.values import ScoreValueError, to_score
from assay.errors import InputError, UsageError
from tests.conftest import SHARED

DATA = Path(__file__).parent / "data"
INSPECT = SHARED / "data" / "bridges" / "inspect"
LOGS = sorted(p for p in INSPECT.glob("*") if p.suffix in (".eval", ".json"))
ZSTD = DATA / "inspect" / "epochs-strids.eval"
LM_A = DATA / "lm-eval" / "example-org__model-a"
LM_B = DATA / "lm-eval" / "example-org__model-b"
PROMPTFOO = DATA / "promptfoo"
BUILTIN = BridgeOptions(inspect_reader="builtin")
needs_shared = pytest.mark.skipif(not LOGS, reason=f"Inspect logs absent: {INSPECT}")


def _one(path: Path, source: str | None = None, opts: BridgeOptions = BUILTIN) -> BridgeRun:
    runs = read_bridge(path, source, opts)
    assert len(runs) == 1
    return runs[0]


def _mean(run: BridgeRun, score: str) -> float:
    """Inspect's reduction by hand: per item the mean of the scored samples, then the mean."""
    values = []
    for item in run.items:
        xs = [s.scores[score] for s in item.samples if s.error is None]
        scored = [x for x in xs if x is not None]
        values.append(sum(scored) / len(scored))
    return sum(values) / len(values)


# --------------------------------------------------------------------------- values


@pytest.mark.parametrize(
    ("value", "score"),
    [
        ("C", 1.0),
        ("P", 0.5),
        ("I", 0.0),
        ("N", 0.0),
        ("Yes", 1.0),
        ("false", 0.0),
        (" 0.25 ", 0.25),
        (True, 1.0),
        (3, 3.0),
        (float("nan"), None),
        (None, None),
    ],
)
def test_score_values(value: Any, score: float | None) -> None:
    assert to_score(value) == score


@pytest.mark.parametrize("value", ["maybe", [1, 0], {"a": 1}, float("inf"), "nan"])
def test_values_that_are_not_scores(value: Any) -> None:
    with pytest.raises(ScoreValueError):
        to_score(value)


# --------------------------------------------------------------------------- Inspect


@needs_shared
@pytest.mark.parametrize("log", LOGS, ids=lambda p: p.name)
def test_every_shared_log_is_detected(log: Path) -> None:
    assert detect_source(log) == "inspect"


@needs_shared
@pytest.mark.parametrize("log", LOGS, ids=lambda p: p.name)
def test_shared_logs_mean_equals_their_own_accuracy(log: Path) -> None:
    if "popularity" in log.name:
        with pytest.raises(InputError, match="no scores in it"):
            read_bridge(log, "inspect", BUILTIN)
        return
    run = _one(log, "inspect")
    own = {o.score: o for o in run.own}
    assert run.scores and set(run.scores) <= set(own)
    for score in run.scores:
        assert _mean(run, score) == pytest.approx(own[score].value, abs=1e-12)
    assert run.system.startswith(str(run.task))
    assert run.provenance["run_id"]


@needs_shared
def test_a_log_without_samples_is_read_from_its_reductions() -> None:
    log = INSPECT / "2025-05-12T20-28-13-04-00_no-samples.json"
    run = _one(log)
    assert "reductions" in run.format
    assert any("status is 'cancelled'" in w for w in run.warnings)
    with pytest.raises(InputError, match="no samples"):
        read_bridge(
            log, "inspect", BridgeOptions(inspect_reader="builtin", inspect_source="samples")
        )


@needs_shared
def test_a_json_log_without_sample_ids_expects_the_items_read() -> None:
    run = _one(INSPECT / "log_formats.json")
    assert run.expected is None and [i.id for i in run.items] == ["1"]


def test_zstd_log_epochs_string_ids_nan_and_errors() -> None:
    run = _one(ZSTD)
    assert run.format == "Inspect .eval log, version 2"
    assert run.expected == ["q-alpha", "q-bravo", "q-charlie", "q-delta", "q-echo", "q-foxtrot"]
    assert run.scores == ["match_like", "rubric"]
    items = {i.id: i for i in run.items}
    assert sorted(items) == sorted(run.expected)  # ids as Inspect wrote them, epochs not split
    assert all(len(i.samples) == 3 for i in items.values())
    assert items["q-bravo"].samples[2].scores["rubric"] is None  # NaN: unscored
    errored = items["q-foxtrot"].samples[1]
    assert errored.error == "RuntimeError('tool sandbox timed out (fixture)')"
    assert errored.where.endswith("samples/q-foxtrot_epoch_2.json")
    own = {o.score: o for o in run.own}
    assert _mean(run, "match_like") == pytest.approx(own["match_like"].value)  # 0.5556
    assert _mean(run, "rubric") == pytest.approx(own["rubric"].value)  # 0.6028
    assert own["rubric"].note == "stderr clustered by topic"
    clustered = _one(
        ZSTD, opts=BridgeOptions(inspect_reader="builtin", cluster_field="metadata.topic")
    )
    assert {i.cluster for i in clustered.items} >= {"math"}


def test_zstd_without_zstandard_is_refused_by_name(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setitem(sys.modules, "zstandard", None)
    with pytest.raises(InputError, match=r"ZIP method 93 \(Zstandard.*needs the 'zstandard'"):
        _one(ZSTD)


def _rewrite(src: Path, dst: Path, change: dict[str, Any]) -> Path:
    """A copy of an .eval log (deflated) with members replaced or added."""
    with zipfile.ZipFile(src) as zin, zipfile.ZipFile(dst, "w", zipfile.ZIP_DEFLATED) as zout:
        from assay._io.bridges.ziparchive import Archive

        archive = Archive(src)
        for name in archive.names():
            data = change.pop(name, None)
            zout.writestr(name, archive.read(name) if data is None else data)
        for name, data in change.items():
            zout.writestr(name, data)
        assert zin  # (zipfile opened the source too)
    return dst


def test_unknown_inspect_version_is_refused_by_name(tmp_path: Path) -> None:
    from assay._io.bridges.ziparchive import Archive

    header = json.loads(Archive(ZSTD).read("header.json"))
    header["version"] = 3
    log = _rewrite(ZSTD, tmp_path / "v3.eval", {"header.json": json.dumps(header)})
    with pytest.raises(InputError, match="Inspect log format version 3 is not one assay reads"):
        _one(log, "inspect")


def test_a_repeated_member_is_read_at_its_last_entry(tmp_path: Path) -> None:
    from assay._io.bridges.ziparchive import Archive

    name = "samples/q-alpha_epoch_1.json"
    sample = json.loads(Archive(ZSTD).read(name))
    sample["scores"]["match_like"]["value"] = "P"
    log = _rewrite(ZSTD, tmp_path / "dup.eval", {})
    with zipfile.ZipFile(log, "a") as z, pytest.warns(UserWarning):  # zipfile: duplicate name
        z.writestr(name, json.dumps(sample))
    items = {i.id: i for i in _one(log).items}
    assert items["q-alpha"].samples[0].scores["match_like"] == 0.5


def test_a_sample_member_that_is_not_json_is_a_listed_failure(tmp_path: Path) -> None:
    log = _rewrite(ZSTD, tmp_path / "bad.eval", {"samples/q-alpha_epoch_1.json": b"{not json"})
    run = _one(log)
    assert [f.file for f in run.failures] == [f"{log}:samples/q-alpha_epoch_1.json"]
    assert "not readable JSON" in run.failures[0].reason


def test_an_in_progress_log_reads_its_start_journal(tmp_path: Path) -> None:
    with zipfile.ZipFile(ZSTD) as z:
        names = [n for n in z.namelist() if n not in ("header.json", "reductions.json")]
    from assay._io.bridges.ziparchive import Archive

    src = Archive(ZSTD)
    log = tmp_path / "running.eval"
    with zipfile.ZipFile(log, "w", zipfile.ZIP_DEFLATED) as zout:
        for name in dict.fromkeys(names):
            zout.writestr(name, src.read(name))
    run = _one(log)
    assert run.provenance["status"] == "started"
    assert run.own == [] and run.scores == ["match_like", "rubric"]


def test_version_1_json_log_is_migrated(tmp_path: Path) -> None:
    log = {
        "version": 1,
        "status": "success",
        "eval": {"task": "t", "model": "m", "dataset": {"sample_ids": [1, 2]}},
        "results": {"scorer": {"name": "match"}, "metrics": {"accuracy": {"value": 0.5}}},
        "samples": [
            {"id": 1, "epoch": 1, "score": {"value": "C"}},
            {"id": 2, "epoch": 1, "score": {"value": "I"}},
        ],
    }
    path = tmp_path / "v1.json"
    path.write_text(json.dumps(log))
    run = _one(path)
    assert run.scores == ["match"] and _mean(run, "match") == 0.5
    assert run.own[0].value == 0.5


def test_the_library_reader_is_used_when_installed(monkeypatch: pytest.MonkeyPatch) -> None:
    """The adapter over inspect_ai's API (a stand-in module here: the package is the optional
    extra [inspect]): the same run as the built-in reader's."""
    from assay._io.bridges import inspect_log
    from assay._io.bridges.ziparchive import Archive

    archive = Archive(ZSTD)
    header = json.loads(archive.read("header.json"))
    samples = [json.loads(archive.read(n)) for n in archive.names() if n.startswith("samples/")]

    class Model:
        def __init__(self, data: dict[str, Any]) -> None:
            self.data = data
            self.id, self.epoch = data.get("id"), data.get("epoch")

        def model_dump(self, exclude: Any = None) -> dict[str, Any]:
            return {k: v for k, v in self.data.items() if k not in (exclude or ())}

    calls: list[str] = []
    log_module = types.ModuleType("inspect_ai.log")

    def read_eval_log(path: str, header_only: bool = False) -> Model:
        calls.append(f"read_eval_log header_only={header_only}")
        return Model(header)

    def read_eval_log_samples(path: str, **kw: Any) -> Any:
        calls.append(f"read_eval_log_samples {sorted(kw)}")
        return iter(Model(s) for s in samples)

    log_module.read_eval_log = read_eval_log  # type: ignore[attr-defined]
    log_module.read_eval_log_samples = read_eval_log_samples  # type: ignore[attr-defined]
    monkeypatch.setitem(sys.modules, "inspect_ai", types.ModuleType("inspect_ai"))
    monkeypatch.setitem(sys.modules, "inspect_ai.log", log_module)
    monkeypatch.setattr(inspect_log, "inspect_available", lambda: True)
    library = _one(ZSTD, opts=BridgeOptions())
    builtin = _one(ZSTD)
    assert calls == [
        "read_eval_log header_only=True",
        "read_eval_log_samples ['all_samples_required', 'exclude_fields']",
    ]
    assert library.scores == builtin.scores and library.own == builtin.own
    assert _content(library) == _content(builtin)


def _content(run: BridgeRun) -> list[tuple[str, list[tuple[int, object, str | None]]]]:
    return sorted((i.id, [(s.index, s.scores, s.error) for s in i.samples]) for i in run.items)


def test_library_reader_asked_for_but_absent(monkeypatch: pytest.MonkeyPatch) -> None:
    from assay._io.bridges import inspect_log

    monkeypatch.setattr(inspect_log, "inspect_available", lambda: False)
    with pytest.raises(InputError, match=r"needs inspect_ai"):
        _one(ZSTD, opts=BridgeOptions(inspect_reader="library"))


# --------------------------------------------------------------------------- lm-eval


def _samples(folder: Path, task: str) -> Path:
    return next(folder.glob(f"samples_{task}_*.jsonl"))


def test_lm_eval_multiple_choice_mean_equals_its_own_acc() -> None:
    run = _one(_samples(LM_A, "arc_mini"))
    assert detect_source(_samples(LM_A, "arc_mini")) == "lm-eval"
    assert run.system == "example-org/model-a · arc_mini · none"
    assert run.scores == ["acc", "acc_norm"] and run.lower == set()
    own = {o.score: o for o in run.own}
    for score in run.scores:
        assert _mean(run, score) == pytest.approx(own[score].value)  # 0.75
    assert run.expected == [str(i) for i in range(8)]
    assert run.provenance["lm_eval_version"] == "0.4.12"


def test_lm_eval_filters_one_read_the_others_named() -> None:
    path = _samples(LM_A, "gsm8k_mini")
    strict = _one(path)
    assert "'flexible-extract'" in strict.warnings[0]
    flexible = _one(path, opts=BridgeOptions(filter="flexible-extract"))
    assert _mean(strict, "exact_match") == pytest.approx(0.5)
    assert _mean(flexible, "exact_match") == pytest.approx(5 / 6)
    assert flexible.own[0].name == "exact_match,flexible-extract"
    with pytest.raises(InputError, match="no filter 'nope'"):
        _one(path, opts=BridgeOptions(filter="nope"))


def test_lm_eval_missing_doc_is_expected() -> None:
    run = _one(_samples(LM_B, "arc_mini"))
    assert len(run.items) == 7 and len(run.expected or ()) == 8
    assert "5" not in {i.id for i in run.items}
    assert any("ran 7 of the split's 8 docs" in w for w in run.warnings)


def test_lm_eval_before_0_4_7_maps_lines_to_filters(tmp_path: Path) -> None:
    folder = tmp_path / "m"
    folder.mkdir()
    src = _samples(LM_A, "gsm8k_mini")
    lines = [json.loads(x) for x in src.read_text().splitlines()]
    for line in lines:
        del line["filter"], line["metrics"]
    (folder / src.name).write_text("".join(json.dumps(x) + "\n" for x in lines))
    results = next(LM_A.glob("results_*.json"))
    with pytest.raises(InputError, match="lines name no filter"):
        _one(folder / src.name)
    (folder / results.name).write_bytes(results.read_bytes())
    flexible = _one(folder / src.name, opts=BridgeOptions(filter="flexible-extract"))
    assert _mean(flexible, "exact_match") == pytest.approx(5 / 6)


def test_lm_eval_corpus_metrics_are_left_out_by_name(tmp_path: Path) -> None:
    src = _samples(LM_A, "arc_mini")
    lines = [json.loads(x) for x in src.read_text().splitlines()]
    for line in lines:
        line["f1"] = [1, 0]
        line["metrics"].append("f1")
    path = tmp_path / src.name
    path.write_text("".join(json.dumps(x) + "\n" for x in lines))
    run = _one(path)
    assert "f1" not in run.scores
    assert any("metric 'f1' holds lists per line" in w for w in run.warnings)


def test_lm_eval_model_folder_qualifies_ids_by_task() -> None:
    run = _one(LM_A)
    assert len(run.items) == 14 and "arc_mini/0" in {i.id for i in run.items}
    assert set(run.scores) == {"acc", "acc_norm", "exact_match"}


# --------------------------------------------------------------------------- promptfoo


def test_promptfoo_columns_are_systems() -> None:
    runs = read_bridge(PROMPTFOO / "results.json", None, BridgeOptions())
    assert [r.system for r in runs] == [
        "openai:chat:gpt-4o-mini · terse",
        "openai:chat:gpt-4o-mini · careful",
        "haiku · terse",
        "haiku · careful",
    ]
    for run in runs:
        own = {o.score: o.value for o in run.own}
        assert own["pass"] == 0.8  # promptfoo's pass rate, errors in the denominator
        assert _mean_with_errors(run, "pass") == pytest.approx(own["pass"])
        assert _mean_with_errors(run, "score") == pytest.approx(own["score"])
    errored = runs[3].items[3].samples[0]
    assert errored.error and errored.error.startswith("API error: 529")


def _mean_with_errors(run: BridgeRun, score: str) -> float:
    """The mean with an errored row counted 0 (promptfoo's own rule for the pass rate)."""
    values = [
        0.0 if i.samples[0].error else (i.samples[0].scores.get(score) or 0.0) for i in run.items
    ]
    return sum(values) / len(values)


def test_promptfoo_partial_scores_and_components() -> None:
    run = read_bridge(PROMPTFOO / "results.json", None, BridgeOptions(systems=("0",)))[0]
    first = run.items[2].samples[0].scores
    assert first["pass"] == 0.0 and 0 < (first["score"] or 0) < 1
    assert {"correct", "style", "assert:correct", "assert:style"} <= set(first)
    set_row = run.items[3].samples[0].scores
    assert {"assert:contains", "assert:not-contains"} <= set(set_row)  # flattened set children


def test_promptfoo_jsonl_equals_json() -> None:
    opts = BridgeOptions()
    as_json = read_bridge(PROMPTFOO / "results.json", None, opts)
    as_jsonl = read_bridge(PROMPTFOO / "results.jsonl", None, opts)
    assert detect_source(PROMPTFOO / "results.jsonl") == "promptfoo"
    assert [r.system for r in as_json] == [r.system for r in as_jsonl]
    for a, b in zip(as_json, as_jsonl, strict=True):
        assert [(i.id, i.samples[0].scores) for i in a.items] == [
            (i.id, i.samples[0].scores) for i in b.items
        ]


def test_promptfoo_v2_needs_an_id_field() -> None:
    path = PROMPTFOO / "results-v2.json"
    with pytest.raises(InputError, match=r"no testIdx.*--id-field"):
        read_bridge(path, None, BridgeOptions())
    runs = read_bridge(path, None, BridgeOptions(id_field="vars.id"))
    assert len(runs) == 4 and runs[0].items[0].id == "cap-fr"


def test_promptfoo_unknown_version_and_system(tmp_path: Path) -> None:
    data = json.loads((PROMPTFOO / "results.json").read_text())
    data["results"]["version"] = 9
    path = tmp_path / "r.json"
    path.write_text(json.dumps(data))
    with pytest.raises(InputError, match="results version 9 is not one assay reads"):
        read_bridge(path, "promptfoo", BridgeOptions())
    with pytest.raises(UsageError, match="no system 'x'"):
        read_bridge(PROMPTFOO / "results.json", None, BridgeOptions(systems=("x",)))


def test_promptfoo_repeats_are_samples_of_one_item(tmp_path: Path) -> None:
    data = json.loads((PROMPTFOO / "results.json").read_text())
    rows = [r for r in data["results"]["results"] if r["promptIdx"] == 0]
    again = [dict(r, testIdx=r["testIdx"] + 5) for r in rows]
    data["results"]["results"] = rows + again
    path = tmp_path / "r.json"
    path.write_text(json.dumps(data))
    run = read_bridge(path, None, BridgeOptions())[0]
    assert len(run.items) == 5 and all(len(i.samples) == 2 for i in run.items)


# --------------------------------------------------------------------------- detection


def test_detection_and_contradicting_from(tmp_path: Path) -> None:
    plain = tmp_path / "p.jsonl"
    plain.write_text('{"id": 1, "predicted": "a"}\n')
    assert detect_source(plain) is None
    with pytest.raises(InputError, match="name its tool with --from"):
        read_bridge(plain, None, BridgeOptions())
    with pytest.raises(
        UsageError, match=r"written by lm-evaluation-harness, not promptfoo: pass --from lm-eval"
    ):
        read_bridge(_samples(LM_A, "arc_mini"), "promptfoo", BridgeOptions())
    with pytest.raises(UsageError, match="--from 'x'"):
        read_bridge(plain, "x", BridgeOptions())
    assert detect_source(LM_A) == "lm-eval"
