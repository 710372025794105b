"""Scriptable output: ``-o -`` and ``--format json|markdown`` put the result alone on stdout
(tables and messages go to stderr), for every command that writes a result."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest

from assay._cli import main
from tests.conftest import write_jsonl


def run_cli(capsys: pytest.CaptureFixture[str], *args: str) -> tuple[int, str, str]:
    code = main(list(args))
    captured = capsys.readouterr()
    return code, captured.out, captured.err


def stdout_json(capsys: pytest.CaptureFixture[str], *args: str, code: int = 0) -> Any:
    """The command's stdout, which must be one JSON document and nothing else."""
    got, out, err = run_cli(capsys, *args)
    assert got == code, err
    return json.loads(out)


LABELS = ["contract", "invoice", "memo"]


@pytest.fixture
def runs(
    tmp_path: Path, labels_files: tuple[Path, Path], capsys: pytest.CaptureFixture[str]
) -> tuple[Path, Path]:
    gold, pred = labels_files
    better = write_jsonl(
        tmp_path / "better.jsonl",
        [{"id": f"d{i}", "predicted": lab} for i, lab in enumerate(LABELS * 4)],
    )
    paths = []
    for name, p in (("a", pred), ("b", better)):
        out_path = tmp_path / f"{name}.json"
        args = ("score", "classification", "--pred", str(p), "--gold", str(gold))
        assert main([*args, "-o", str(out_path), "--n-bootstrap-ci", "100"]) == 0
        paths.append(out_path)
    capsys.readouterr()
    return paths[0], paths[1]


def test_score_dash_o_writes_the_artifact_alone_on_stdout(
    tmp_path: Path,
    labels_files: tuple[Path, Path],
    capsys: pytest.CaptureFixture[str],
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    monkeypatch.chdir(tmp_path)
    gold, pred = labels_files
    args = ("score", "classification", "--pred", str(pred), "--gold", str(gold), "--no-ci")
    code, out, err = run_cli(capsys, *args, "-o", "-")
    assert code == 0
    run = json.loads(out)
    assert run["task"] == "classification" and run["cohort"]["attempted"] == 12
    assert "exact_match" in err and f"as {run['run_id']} in" in err  # the scorecard: stderr
    assert not (tmp_path / "-").exists()
    assert stdout_json(capsys, *args, "--format", "json")["run_id"] == run["run_id"]
    code, out, _ = run_cli(capsys, *args, "--format", "markdown")
    assert code == 0 and out.startswith("#### pred · classification") and "| metric |" in out


def test_compare_and_significance_json_and_markdown(
    runs: tuple[Path, Path], capsys: pytest.CaptureFixture[str]
) -> None:
    a, b = (str(p) for p in runs)
    cmp = stdout_json(capsys, "compare", b, a, "--significance", "-o", "-", "--n-bootstrap", "200")
    assert cmp["metrics"] and cmp["significance"] and cmp["method"] == "bootstrap"
    sig = stdout_json(capsys, "significance", b, a, "--format", "json", "--n-bootstrap", "200")
    assert sig["significance"] == cmp["significance"]
    code, out, err = run_cli(capsys, "compare", b, a, "--format", "markdown")
    assert code == 0 and out.lstrip().startswith("#") and "Δ" in err


def test_gate_json_keeps_the_exit_code(
    runs: tuple[Path, Path], capsys: pytest.CaptureFixture[str]
) -> None:
    a, b = (str(p) for p in runs)
    passed = stdout_json(capsys, "gate", b, "--threshold", "0.9", "--format", "json")
    assert passed["passed"] is True and passed["threshold"] == 0.9
    failed = stdout_json(capsys, "gate", a, "--threshold", "0.9", "--format", "json", code=1)
    assert failed["passed"] is False
    assert [c["name"] for c in failed["checks"] if not c["passed"]]


def test_report_markdown_and_runs_show(
    runs: tuple[Path, Path], capsys: pytest.CaptureFixture[str]
) -> None:
    a, b = (str(p) for p in runs)
    code, out, _ = run_cli(capsys, "report", a, b, "--markdown", "-")
    assert code == 0 and out.lstrip().startswith("#") and "written" not in out
    run_id = json.loads(Path(a).read_text())["run_id"]
    shown = stdout_json(capsys, "runs", "show", run_id, "--format", "json")
    assert shown["run_id"] == run_id


def test_a_suite_group_writes_json_on_stdout(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    ref = tmp_path / "ref.txt"
    ref.write_text("".join(f"the cat sat on mat {i}\n" for i in range(12)), encoding="utf-8")
    base = tmp_path / "base.txt"
    base.write_text("".join(f"the cat sat on the mat {i}\n" for i in range(12)), encoding="utf-8")
    system = tmp_path / "sys.txt"
    system.write_text("".join(f"a cat sat on mat {i}\n" for i in range(12)), encoding="utf-8")
    args = ("mt", "sacrebleu", "-r", str(ref), "-i", str(base), str(system), "--paired-bs-n", "50")
    result = stdout_json(capsys, *args, "-o", "-")
    assert isinstance(result, dict) and result


def test_the_console_script_pipes_json(tmp_path: Path, labels_files: tuple[Path, Path]) -> None:
    gold, pred = labels_files
    exe = Path(sys.executable).with_name("assay")
    res = subprocess.run(
        [str(exe), "score", "classification", "--pred", str(pred), "--gold", str(gold),
         "--no-ci", "--no-store", "-o", "-"],
        capture_output=True, text=True, check=False, cwd=tmp_path,
    )  # fmt: skip
    assert res.returncode == 0, res.stderr
    assert json.loads(res.stdout)["task"] == "classification"
    assert "exact_match" in res.stderr
