"""The assay command: exit codes, one-line errors, the commands end to end."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import pytest

from assay._cli import main
from tests.conftest import write_jsonl


def run_cli(capsys: pytest.CaptureFixture[str], *args: str) -> tuple[int, str, str]:
    code = main(list(args))
    captured = capsys.readouterr()
    return code, captured.out, captured.err


def test_score_compare_significance_gate(
    tmp_path: Path, labels_files: tuple[Path, Path], capsys: pytest.CaptureFixture[str]
) -> None:
    gold, pred = labels_files
    out_a = tmp_path / "a.json"
    code, out, _ = run_cli(
        capsys,
        "score",
        "classification",
        "--pred",
        str(pred),
        "--gold",
        str(gold),
        "--output",
        str(out_a),
        "--n-bootstrap-ci",
        "200",
        "--positive",
        "invoice",
    )
    assert code == 0
    assert "exact_match" in out and "95% CI" in out and "cohort: attempted 12" in out
    assert json.loads(out_a.read_text())["settings"]["classification"]["positive"] == "invoice"

    better = write_jsonl(
        tmp_path / "better.jsonl",
        [
            {"id": f"d{i}", "predicted": lab}
            for i, lab in enumerate(["contract", "invoice", "memo"] * 4)
        ],
    )
    out_b = tmp_path / "b.json"
    assert (
        run_cli(
            capsys,
            "score",
            "classification",
            "--pred",
            str(better),
            "--gold",
            str(gold),
            "-o",
            str(out_b),
            "--no-ci",
            "--positive",
            "invoice",
        )[0]
        == 0
    )

    cmp_json = tmp_path / "cmp.json"
    code, out, err = run_cli(
        capsys, "compare", str(out_b), str(out_a), "--significance", "--output", str(cmp_json)
    )
    assert code == 0
    # 12 shared items: the exact sign-flip test over all 2^12 swaps decides
    assert "Significance Tests (exact sign-flip over all swaps of items, n=4096, α=0.05):" in out
    assert "Metric              candidate baseline  Δ       p-value  p-adj    Sig?" in out
    data = json.loads(cmp_json.read_text())
    assert {s["metric_name"] for s in data["significance"]} >= {"exact_match", "f1"}
    assert "only 12 shared items" not in err  # 12 >= 10

    code, out, _ = run_cli(
        capsys, "significance", str(out_b), str(out_a), "--method", "ar", "--n-bootstrap", "500"
    )
    assert code == 0 and "exact sign-flip over all swaps of items, n=4096" in out
    assert "\nsignature: exact|task:classification|" in out  # the test that decided

    assert run_cli(capsys, "gate", str(out_b), "--threshold", "0.9")[0] == 0
    code, out, _ = run_cli(capsys, "gate", str(out_a), "--threshold", "0.9")
    assert code == 1 and "FAIL" in out and "exact_match" in out
    code, _, err = run_cli(capsys, "gate", str(out_a), "--threshold", "0.9", "--metrics", "zz")
    assert code == 2 and err.startswith("error: unknown metric")


def test_errors_are_one_line_exit_2(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    code, _, err = run_cli(capsys, "score", "classification", "--pred", str(tmp_path / "x"))
    assert code == 2 and err.strip().count("\n") == 0 and "x" in err
    code, _, err = run_cli(capsys, "compare", str(tmp_path / "a.json"), str(tmp_path / "b.json"))
    assert code == 2 and "run file not found" in err
    code, _, err = run_cli(capsys, "score", "nosuchtask", "--pred", "p")
    assert code == 2
    code, _, err = run_cli(capsys, "compare", "--method", "xx", "a", "b")
    assert code == 2 and "xx" in err
    bad = tmp_path / "bad.yaml"
    bad.write_text("stats: {sed: 1}\n")
    gold = write_jsonl(tmp_path / "g.jsonl", [{"id": "a", "expected": "x"}])
    code, _, err = run_cli(
        capsys, "score", "classification", "--pred", str(gold), "--config", str(bad)
    )
    assert code == 2 and "stats.sed: unknown key" in err


def test_debug_shows_traceback(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    code, _, err = run_cli(capsys, "--debug", "gate", str(tmp_path / "r.json"), "--threshold", "1")
    assert code == 2 and "Traceback" in err


def test_quiet(
    labels_files: tuple[Path, Path], tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    gold, pred = labels_files
    code, out, _ = run_cli(
        capsys,
        "score",
        "classification",
        "--pred",
        str(pred),
        "--gold",
        str(gold),
        "-o",
        str(tmp_path / "r.json"),
        "--no-ci",
        "--quiet",
    )
    assert code == 0 and out == ""


def test_tasks_and_demo(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    code, out, _ = run_cli(capsys, "tasks")
    assert code == 0 and "classification" in out
    code, out, _ = run_cli(capsys, "demo", "--out", str(tmp_path / "demo"), "--items", "120")
    assert code == 0
    for name in ("baseline.run.json", "candidate.run.json", "comparison.json", "gold.jsonl"):
        assert (tmp_path / "demo" / name).is_file()
    assert "Significance Tests" in out


def test_console_script_and_module(tmp_path: Path) -> None:
    exe = Path(sys.executable).with_name("assay")
    res = subprocess.run([str(exe), "--help"], capture_output=True, text=True, check=False)
    assert res.returncode == 0 and "score" in res.stdout and "significance" in res.stdout
    res = subprocess.run(
        [sys.executable, "-m", "assay", "score", "--help"],
        capture_output=True,
        text=True,
        check=False,
    )
    assert res.returncode == 0 and "classification" in res.stdout
