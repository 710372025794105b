"""``assay demo [SUITE]``: the classification demo unchanged, a suite's example data with SUITE."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from assay._cli import main
from assay._cli.demo import available_demos


def test_suite_demos_are_listed() -> None:
    assert {"analytics", "classification", "scale", "translation"} <= set(available_demos())


def test_demo_suite_writes_and_lists_its_files(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    assert main(["demo", "translation", "--out", str(tmp_path)]) == 0
    out = capsys.readouterr().out
    for name in ("a.json", "b.json", "c.json", "run_log.json", "ref.txt", "sys2.txt"):
        assert (tmp_path / name).is_file() and name in out
    report = json.loads((tmp_path / "b.json").read_text())
    assert len(report["entries"]) == 240 and report["entries"][7]["error"] == "timeout"
    first = (tmp_path / "a.json").read_bytes()
    assert main(["demo", "translation", "--out", str(tmp_path)]) == 0  # deterministic
    assert (tmp_path / "a.json").read_bytes() == first


def test_unknown_suite_is_a_usage_error(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["demo", "nope"]) == 2
    err = capsys.readouterr().err
    assert "no demo for 'nope'" in err and "translation" in err
    assert main(["demo", "translation", "--items", "50"]) == 2


def test_classification_demo_writes_the_inputs(tmp_path: Path) -> None:
    assert main(["demo", "classification", "--out", str(tmp_path)]) == 0
    names = sorted(p.name for p in tmp_path.iterdir())
    assert names == ["baseline.jsonl", "candidate.jsonl", "expected_ids.json", "gold.jsonl"]
