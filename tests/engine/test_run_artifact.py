"""The Run artifact: determinism, round trip, provenance and surface."""

from __future__ import annotations

import json
import re
from collections.abc import Callable
from pathlib import Path
from typing import Any

import numpy as np
import pytest

import assay
from assay._engine.provenance import surface_fingerprint, tree_sha256
from assay._engine.run import CheckedRows, LazyItems, Run, looks_like_run
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


# --------------------------------------------------------------------------- lazy item records


def _saved(tmp_path: Path, labels_files: tuple[Path, Path]) -> tuple[Run, Path]:
    gold, pred = labels_files
    run = assay.score("classification", pred=pred, gold=gold, n_bootstrap_ci=50)
    return run, run.save(tmp_path / "run.json")


def _write_like_assay(path: Path, data: dict[str, Any]) -> Path:
    """``data`` laid out as assay writes an artifact: the items last, one record a line."""
    items = data.pop("items")
    lines = ",\n    ".join(json.dumps(i, ensure_ascii=False) for i in items)
    path.write_text(json.dumps(data, indent=2)[:-2] + f',\n  "items": [\n    {lines}\n  ]\n}}\n')
    return path


def test_lazy_items_read_the_same_run(tmp_path: Path, labels_files: tuple[Path, Path]) -> None:
    run, path = _saved(tmp_path, labels_files)
    lazy = Run.load(path, lazy_items=True)
    assert isinstance(lazy.items, LazyItems) and not lazy.spilled
    assert lazy.items._keys is None and not lazy.items.empty  # nothing parsed yet
    # what a comparison reads, without building a record
    assert lazy.item_ids() == [i.id for i in run.items]
    assert lazy.item_gold_digests() == run.item_gold_digests()
    assert lazy.items._records is None
    assert len(lazy.items) == len(run.items)
    table, expected = lazy.table(), run.table()
    assert table.ids == expected.ids and np.array_equal(table.values, expected.values)
    # the records on first use: equal to Run.load's, and the artifact written back the same
    assert lazy.items[0] == run.items[0] and list(lazy.items) == list(run.items)
    assert lazy == Run.load(path) == run
    assert lazy.to_json() == path.read_text(encoding="utf-8")


def test_the_checked_matrix_is_reused_until_the_rows_are_replaced(
    tmp_path: Path, labels_files: tuple[Path, Path]
) -> None:
    run, path = _saved(tmp_path, labels_files)
    back = Run.load(path)
    rows = back.stats["values"]
    assert isinstance(rows, CheckedRows) and rows == run.stats["values"]
    assert np.shares_memory(back.table().values, rows.matrix) and not rows.matrix.flags.writeable
    back.stats["values"] = [[0.0] * len(back.stats["columns"]) for _ in rows]
    assert back.table().values.sum() == 0.0  # converted again, not the stale matrix


def test_a_bad_item_record_is_named_when_the_records_are_read(
    tmp_path: Path, labels_files: tuple[Path, Path]
) -> None:
    _, path = _saved(tmp_path, labels_files)
    data = json.loads(path.read_text(encoding="utf-8"))
    data["items"][2]["scores"] = "high"
    bad = _write_like_assay(tmp_path / "bad.json", data)
    expected = rf"^{re.escape(str(bad))}: not an assay run artifact: items\.2\.scores: "
    with pytest.raises(InputError, match=expected):
        Run.load(bad)
    lazy = Run.load(bad, lazy_items=True)  # the ids and digests are sound: read
    with pytest.raises(InputError, match=expected):
        list(lazy.items)


@pytest.mark.parametrize(
    "tamper",
    [
        lambda d: d["items"][1].update(id="elsewhere"),  # checked against stats.ids
        lambda d: d["items"][1].pop("gold_sha256"),  # read by a comparison
        lambda d: d["metrics"]["exact_match"].update(value="0.9"),
        lambda d: d["stats"]["values"][0].__setitem__(0, True),
    ],
)
def test_lazy_items_refuse_what_run_load_refuses(
    tmp_path: Path, labels_files: tuple[Path, Path], tamper: Callable[[dict[str, Any]], None]
) -> None:
    _, path = _saved(tmp_path, labels_files)
    data = json.loads(path.read_text(encoding="utf-8"))
    tamper(data)
    bad = _write_like_assay(tmp_path / "bad.json", data)
    with pytest.raises(InputError) as whole:
        Run.load(bad)
    with pytest.raises(InputError) as lazy:  # on reading, or when the records are first used
        Run.load(bad, lazy_items=True).item_gold_digests()
    assert str(lazy.value) == str(whole.value) and str(bad) in str(whole.value)


def test_lazy_items_read_any_layout_whole(tmp_path: Path, labels_files: tuple[Path, Path]) -> None:
    """Items not last, a nested member that looks like them, text after the object: the run, or
    the refusal when the records are read, is Run.load's."""
    run, path = _saved(tmp_path, labels_files)
    data = json.loads(path.read_text(encoding="utf-8"))
    reordered = {"items": data.pop("items"), **data}
    first = tmp_path / "first.json"
    first.write_text(json.dumps(reordered, indent=2), encoding="utf-8")
    assert Run.load(first, lazy_items=True) == run
    nested = tmp_path / "nested.json"  # the last '\n  "items": ' is inside an item record
    text = path.read_text(encoding="utf-8")
    at = text.rindex('"details":{') + len('"details":{')
    nested.write_text(text[:at] + '\n  "items": [],' + text[at:], encoding="utf-8")
    whole = Run.load(nested)
    assert whole.items[-1].details["items"] == []
    assert Run.load(nested, lazy_items=True) == whole
    trailing = tmp_path / "trailing.json"
    trailing.write_text(path.read_text(encoding="utf-8") + '{"items": []}', encoding="utf-8")
    with pytest.raises(InputError) as whole:
        Run.load(trailing)
    with pytest.raises(InputError) as lazy:
        Run.load(trailing, lazy_items=True).item_ids()
    assert str(lazy.value) == str(whole.value)


def test_an_integer_beyond_any_float_is_named(
    tmp_path: Path, labels_files: tuple[Path, Path]
) -> None:
    _, path = _saved(tmp_path, labels_files)
    data = json.loads(path.read_text(encoding="utf-8"))
    data["stats"]["values"][4][1] = 10**400
    bad = _write_like_assay(tmp_path / "bad.json", data)
    with pytest.raises(InputError, match=r"stats\.values\[4\]\[1\] \('d4', .* is not a finite"):
        Run.load(bad)
