"""The Run artifact: determinism, round trip, provenance and surface."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

import assay
from assay.core.provenance import surface_fingerprint, tree_sha256
from assay.core.run import Run, looks_like_run
from assay.errors import InputError


def _strip_time(text: str) -> dict[str, object]:
    data = json.loads(text)
    data.pop("generated_at")
    return data


def test_byte_identical_apart_from_generated_at(
    tmp_path: Path, labels_files: tuple[Path, Path]
) -> None:
    gold, pred = labels_files
    a = assay.score("classification", pred=pred, gold=gold, n_bootstrap_ci=300)
    b = assay.score("classification", pred=pred, gold=gold, n_bootstrap_ci=300)
    pa, pb = a.save(tmp_path / "a.json"), b.save(tmp_path / "b.json")
    ta, tb = pa.read_text(), pb.read_text()
    assert _strip_time(ta) == _strip_time(tb)
    lines_a = [ln for ln in ta.splitlines() if '"generated_at"' not in ln]
    lines_b = [ln for ln in tb.splitlines() if '"generated_at"' not in ln]
    assert lines_a == lines_b
    c = assay.score("classification", pred=pred, gold=gold, n_bootstrap_ci=300, seed=1)
    assert c.metrics["exact_match"].ci_lower is not None
    assert c.run_id != a.run_id  # the seed is part of the configuration


def test_round_trip(tmp_path: Path, labels_files: tuple[Path, Path]) -> None:
    gold, pred = labels_files
    run = assay.score("classification", pred=pred, gold=gold, n_bootstrap_ci=100)
    path = run.save(tmp_path / "sub" / "run.json")
    back = Run.load(path)
    assert back == run
    assert back.table().ids == tuple(i.id for i in run.items)
    assert [s.name for s in back.metric_specs()] == list(run.metrics)
    m = run.metrics["exact_match"]
    assert {"value", "ci_lower", "ci_upper", "n", "mean", "p10", "median", "min", "max"} <= set(
        m.model_dump()
    )


def test_provenance_and_surface(labels_files: tuple[Path, Path]) -> None:
    gold, pred = labels_files
    run = assay.score("classification", pred=pred, gold=gold, ci=False)
    assert run.provenance.predictions_sha256 == tree_sha256([pred])
    assert run.provenance.gold_sha256 == tree_sha256([gold])
    assert run.surface.fingerprint == surface_fingerprint(
        [i.id for i in run.items], run.item_gold_digests()
    )
    assert run.surface.n_items == 12 and run.surface.seed == 12345
    assert run.provenance.ci is False


def test_tree_digest_depends_on_names_and_bytes(tmp_path: Path) -> None:
    d = tmp_path / "d"
    d.mkdir()
    (d / "a.json").write_text("1")
    first = tree_sha256([d])
    (d / "a.json").rename(d / "b.json")
    assert tree_sha256([d]) != first
    (d / "b.json").rename(d / "a.json")
    assert tree_sha256([d]) == first


def test_load_errors(tmp_path: Path) -> None:
    with pytest.raises(InputError, match="not found"):
        Run.load(tmp_path / "none.json")
    bad = tmp_path / "bad.json"
    bad.write_text("{}")
    with pytest.raises(InputError, match="not an assay run artifact"):
        Run.load(bad)
    bad.write_text("{oops")
    with pytest.raises(InputError, match="not a readable run artifact"):
        Run.load(bad)


def test_few_items_warn(tmp_path: Path) -> None:
    gold = tmp_path / "g.jsonl"
    gold.write_text('{"id": "a", "expected": "x"}\n')
    run = assay.score(
        "classification",
        pred=gold.with_name("g.jsonl"),
        ci=True,
        expected_field="expected",
        predicted_field="expected",
    )
    assert any("poor coverage" in w for w in run.warnings)


def test_save_writes_into_a_device_or_fifo_instead_of_replacing_it(
    tmp_path: Path, labels_files: tuple[Path, Path]
) -> None:
    """``-o /dev/null`` once replaced /dev/null with a regular file (the atomic rename): a
    target that exists and is not a regular file is written in place."""
    import os
    import threading

    gold, pred = labels_files
    run = assay.score("classification", pred=pred, gold=gold, n_bootstrap_ci=100)
    fifo = tmp_path / "pipe"
    os.mkfifo(fifo)
    got: list[bytes] = []
    reader = threading.Thread(target=lambda: got.append(fifo.read_bytes()))
    reader.start()
    run.save(fifo)
    reader.join(timeout=30)
    assert fifo.is_fifo() and not fifo.is_file()
    assert Run.from_bytes(got[0]).run_id == run.run_id
    assert not (tmp_path / "pipe.tmp").exists()


def test_schema_1_layout_and_pretty_text_load_the_same_run(
    tmp_path: Path, labels_files: tuple[Path, Path]
) -> None:
    gold, pred = labels_files
    run = assay.score("classification", pred=pred, gold=gold, n_bootstrap_ci=50)
    text = run.to_json()
    # schema 2: one compact line per statistics row and per item record
    items = text.split('\n  "items": ')[1]
    assert items.count("\n    {") == len(run.items) and text.count("\n      [") == len(run.items)
    old = tmp_path / "old.json"  # schema 1: indented throughout, every item field present
    old.write_text(json.dumps(run.model_dump(mode="json"), indent=2), encoding="utf-8")
    pretty = tmp_path / "pretty.json"
    pretty.write_text(run.pretty_json(), encoding="utf-8")
    for path in (old, pretty):
        back = Run.load(path)
        assert back == run and back.to_json() == text
    assert looks_like_run(old.read_bytes()) and not looks_like_run(b'{"entries": []}')
    assert Run.from_bytes(text.encode()).to_json() == text
