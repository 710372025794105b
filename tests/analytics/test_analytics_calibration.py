"""Judge calibration (seed 000 §11): the seed's definitions on hand-made judgments."""

from __future__ import annotations

import contextlib
import io
import json
from pathlib import Path

import pytest

from assay._analytics import judge_calibration, read_judgments
from assay._analytics.calibration import Judgment, calibration_path
from assay._cli import main
from assay.errors import InputError, UsageError
from tests.analytics.conftest import MakeRun
from tests.conftest import write_jsonl

ROWS = [
    {"row": "d000", "field": "parties", "score": 0.90, "verdict": "accurate"},  # agree
    {"row": "d001", "field": "parties", "score": 0.85, "verdict": "inaccurate"},  # strict
    {"row": "d002", "field": "parties", "score": 0.40, "verdict": "inaccurate"},  # agree
    {"row": "d003", "field": "date", "score": 0.50, "verdict": "accurate"},  # lenient
    {"row": "d004", "field": "date", "score": 0.70, "verdict": "accurate"},  # band: neither
    {"row": "d005", "field": "date", "score": 0.95, "verdict": None},  # not scored
    {"row": "d006", "field": "date", "score": 0.20, "verdict": "unscored"},  # not scored
    {"row": "d007", "kind": "note", "score": 0.2, "verdict": "accurate"},  # other kind: skipped
]


def test_seed_definitions(tmp_path: Path) -> None:
    js = read_judgments(write_jsonl(tmp_path / "j.jsonl", ROWS))
    cal = judge_calibration(js)
    assert (cal.n_judged, cal.n_scored) == (7, 5)
    assert (cal.agree_rate.k, cal.agree_rate.n) == (2, 5) and cal.agree_rate.value == 0.4
    assert (cal.judge_strict.k, cal.judge_lenient.k) == (1, 1)
    assert cal.judge_strict.value == 0.2 and cal.lean == "none"
    assert cal.agree_rate.ci_lower is not None and cal.agree_rate.ci_lower < 0.4
    assert cal.per_field["parties"]["agree_rate"]["k"] == 2
    assert cal.per_field["date"]["n_scored"] == 2


def test_lean_and_empty() -> None:
    js = [Judgment(str(i), None, 0.9, False) for i in range(3)]
    assert judge_calibration(js).lean == "strict"
    empty = judge_calibration([Judgment("a", None, 0.9, None)])
    assert empty.n_scored == 0 and empty.agree_rate.value is None
    assert "undefined" in empty.warnings[0]
    with pytest.raises(UsageError, match="weak"):
        judge_calibration(js, strong=0.5, weak=0.6)


@pytest.mark.parametrize(
    ("record", "message"),
    [
        ({"row": "a", "score": 0.9, "verdict": "acurate"}, "verdict: expected accurate"),
        ({"row": "a", "score": 1.5, "verdict": "accurate"}, r"score: must lie in \[0, 1\]"),
        ({"row": "a", "verdict": "accurate"}, "score: expected the deterministic score"),
        ({"score": 0.3, "verdict": "accurate"}, "row: expected the row id"),
        ({"row": "a", "score": 0.3}, "no field 'verdict'"),
    ],
)
def test_bad_records_name_line_and_field(tmp_path: Path, record: dict, message: str) -> None:
    f = write_jsonl(tmp_path / "j.jsonl", [ROWS[0], record])
    with pytest.raises(InputError, match=rf"j\.jsonl:2: {message}"):
        read_judgments(f)


def test_cli_writes_next_to_run(make_run: MakeRun, tmp_path: Path) -> None:
    run = make_run("run", n=12, seed=1)
    j = write_jsonl(tmp_path / "j.jsonl", [*ROWS[:5], {**ROWS[0], "row": "zz"}])
    with contextlib.redirect_stdout(io.StringIO()), contextlib.redirect_stderr(io.StringIO()):
        code = main(["judge-calibration", str(j), "--run", str(tmp_path / "run.json")])
    assert code == 0
    out = calibration_path(tmp_path / "run.json")
    assert out.name == "run.judge_calibration.json"
    data = json.loads(out.read_text())
    assert data["run_id"] == run.run_id and data["n_judged"] == 6
    assert data["agree_rate"]["k"] == 3
    assert any("not items of the run" in w for w in data["warnings"])
