"""``assay score extraction`` and ``assay extraction misses`` through the real CLI entry point."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from assay._cli import main
from tests.conftest import SHARED, write_jsonl

EXAMPLE = Path(__file__).resolve().parents[3] / "examples" / "cuad-extraction.yaml"


def test_score_then_misses(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    gold = write_jsonl(
        tmp_path / "gold.jsonl",
        [
            {
                "id": f"c{i}",
                "expected": {"effective_date": "5/8/2014", "parties": ["Acme Inc.", "Beta LLC"]},
            }
            for i in range(6)
        ],
    )
    pred = write_jsonl(
        tmp_path / "pred.jsonl",
        [
            {
                "id": f"c{i}",
                "predicted": {"effective_date": "May 8, 2014", "parties": ["ACME, Inc."]},
            }
            for i in range(5)
        ],
    )
    src = tmp_path / "src"
    src.mkdir()
    (src / "c0.txt").write_text("Acme Inc. and Beta LLC, May 8, 2014.", encoding="utf-8")
    run_path = tmp_path / "run.json"
    code = main(
        [
            "score", "extraction", "--pred", str(pred), "--gold", str(gold), "--source", str(src),
            "-o", str(run_path), "--no-store", "--n-bootstrap-ci", "200",
        ]
    )  # fmt: skip
    assert code == 0
    out = capsys.readouterr().out
    assert "overall_extraction_score" in out and "missing 1" in out
    run = json.loads(run_path.read_text(encoding="utf-8"))
    assert run["metrics"]["overall_extraction_score"]["value"] == pytest.approx(5 * 0.75 / 6)
    assert main(["extraction", "misses", str(run_path)]) == 0
    # "Beta LLC" in the five predicted documents, both parties of the missing one
    assert "7 of 12 expected spans unmatched" in capsys.readouterr().out


def test_bad_option_names_the_key(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    gold = write_jsonl(tmp_path / "g.jsonl", [{"id": "a", "expected": {"x": "y"}}])
    code = main(
        ["score", "extraction", "--pred", str(gold), "--gold", str(gold), "--field-types", "{bad",
         "--no-store"]
    )  # fmt: skip
    assert code == 2
    assert "field_types" in capsys.readouterr().err


@pytest.mark.skipif(
    not (SHARED / "data" / "legal" / "cuad").is_dir(), reason="CUAD data not in ../shared"
)
def test_example_cuad_settings_validate() -> None:
    from assay._settings import load_settings

    settings = load_settings(EXAMPLE)
    section = settings.section("extraction")
    assert section.field_types["parties"] == "entity_list:name"  # type: ignore[attr-defined]
