"""``assay score SUITE --samples``: several predictions per id, the mean per item, pass@k and
the within-item variance share on the console and in the artifact."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from tests.cli.test_cli import run_cli
from tests.conftest import write_jsonl

GOLD = [{"id": f"q{i}", "expected": "yes" if i % 3 else "no"} for i in range(12)]


def _files(tmp_path: Path) -> tuple[Path, Path]:
    rows = []
    for i, g in enumerate(GOLD):
        for s in range(3):
            right = (i + s) % 4 != 0 or i % 5 == 0
            other = "no" if g["expected"] == "yes" else "yes"
            rows.append(
                {"id": g["id"], "epoch": s + 1, "predicted": g["expected"] if right else other}
            )
    gold = write_jsonl(tmp_path / "gold.jsonl", GOLD)
    pred = write_jsonl(tmp_path / "samples.jsonl", rows)
    return gold, pred


def test_samples_on_the_command_line(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    gold, pred = _files(tmp_path)
    out_path = tmp_path / "run.json"
    code, out, err = run_cli(
        capsys,
        "score",
        "classification",
        "--pred",
        str(pred),
        "--gold",
        str(gold),
        "--samples",
        "--pass-at",
        "1",
        "--pass-at",
        "3",
        "-o",
        str(out_path),
        "--no-store",
    )
    assert code == 0, err
    assert "samples: 36 of 12 items (3 per item, by 'epoch')" in out
    assert "% of the variance of exact_match is between samples of the same item" in out
    assert "pass@3" in out and "|k:3|" in out
    run = json.loads(out_path.read_text())
    assert run["summaries"]["samples"]["counts"] == {"3": 12}
    assert run["items"][0]["details"]["samples"] == 3
    assert run["settings"]["samples"] == {"field": None, "pass_at": [1, 3]}


def test_repeated_ids_without_the_option_warn(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    gold, pred = _files(tmp_path)
    code, out, err = run_cli(
        capsys,
        "score",
        "classification",
        "--pred",
        str(pred),
        "--gold",
        str(gold),
        "--no-store",
        "-o",
        str(tmp_path / "r.json"),
    )
    assert code == 0
    assert "duplicates 24" in out
    assert "24 prediction record(s) repeat an id" in err and "--samples" in err


def test_sample_field_implies_samples_and_pass_at_needs_them(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    gold, pred = _files(tmp_path)
    code, out, _ = run_cli(
        capsys,
        "score",
        "classification",
        "--pred",
        str(pred),
        "--gold",
        str(gold),
        "--sample-field",
        "epoch",
        "--no-store",
        "-o",
        str(tmp_path / "r.json"),
    )
    assert code == 0 and "samples: 36 of 12 items" in out
    code, _, err = run_cli(
        capsys,
        "score",
        "classification",
        "--pred",
        str(pred),
        "--gold",
        str(gold),
        "--pass-at",
        "2",
        "--no-store",
    )
    assert code == 2 and "--pass-at needs --samples" in err
    code, _, err = run_cli(
        capsys,
        "score",
        "classification",
        "--pred",
        str(pred),
        "--gold",
        str(gold),
        "--samples",
        "--spill",
        "--no-store",
    )
    assert code == 2 and "--no-spill" in err
