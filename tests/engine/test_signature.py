"""Reproducibility signatures: the run's and the comparison's lines, and sacrebleu's beside
corpus BLEU/chrF/TER, checked against the sacrebleu CLI's own output."""

from __future__ import annotations

import json
import re
import subprocess
import sys
from pathlib import Path

import pytest

import assay
from assay._cli import main
from assay._compare.comparison import comparison_signature
from assay._engine.signature import run_signature, signature_lines
from tests.conftest import write_jsonl

LABELS = ["contract", "invoice", "memo"]


def _fields(line: str) -> dict[str, str]:
    return dict(part.split(":", 1) for part in line.split("|")[1:])


def test_a_run_carries_its_signature(labels_files: tuple[Path, Path]) -> None:
    gold, pred = labels_files
    run = assay.score("classification", pred=pred, gold=gold, n_bootstrap_ci=200, seed=7)
    assert run.signature == run_signature(run)
    head, *_ = run.signature.split("|")
    assert head.split("+") == [n for n, m in run.metrics.items() if m.tier == "headline"]
    fields = _fields(run.signature)
    assert fields == {
        "task": "classification",
        "mv": str(run.metrics_version),
        "n": "12",
        "bs": "200",
        "seed": "7",
        "alpha": "0.05",
        "resampling": "multinomial",
        "cfg": run.provenance.config_sha256[:8],
        "assay": assay.__version__,
    }
    assert json.loads(run.to_json())["signature"] == run.signature
    no_ci = assay.score("classification", pred=pred, gold=gold, ci=False)
    assert _fields(no_ci.signature)["bs"] == "none"
    other = assay.score("classification", pred=pred, gold=gold, positive="invoice", ci=False)
    assert _fields(other.signature)["cfg"] != _fields(no_ci.signature)["cfg"]


def test_a_comparison_carries_its_signature(
    labels_files: tuple[Path, Path], tmp_path: Path
) -> None:
    gold, pred = labels_files
    better = write_jsonl(
        tmp_path / "b.jsonl",
        [{"id": f"d{i}", "predicted": lab} for i, lab in enumerate(LABELS * 4)],
    )
    a = assay.score("classification", pred=pred, gold=gold, ci=False)
    b = assay.score("classification", pred=better, gold=gold, ci=False)
    cmp = assay.compare(a, b, significance=True, n_bootstrap=300, seed=3)
    line = comparison_signature(cmp)
    # 12 shared items: the exact sign-flip test decided, and the signature names it
    assert line.startswith("exact|task:classification|")
    assert _fields(line) | {} == {
        "task": "classification",
        "runs": f"{a.run_id},{b.run_id}",
        "n": "12",
        "seed": "3",
        "alpha": "0.05",
        "p": "assay",
        "family": "headline",
        "correction": "holm",
        "assay": assay.__version__,
    }
    assert cmp.to_json()["signature"] == line
    boot = assay.compare(a, b, significance=True, n_bootstrap=300, seed=3, p_value="sacrebleu")
    assert comparison_signature(boot).startswith("paired-bs|task:classification|")
    assert _fields(comparison_signature(boot))["bs"] == "300"


def _sacrebleu_cli_signatures(ref: Path, base: Path, system: Path) -> dict[str, str]:
    exe = Path(sys.executable).with_name("sacrebleu")
    res = subprocess.run(
        [str(exe), str(ref), "-i", str(base), str(system), "-m", "bleu", "chrf", "ter",
         "--chrf-word-order", "2", "--paired-bs", "-f", "text"],
        capture_output=True, text=True, check=True,
    )  # fmt: skip
    found = re.findall(r"^ - (\S+)\s+(nrefs:\S+)$", res.stdout, flags=re.MULTILINE)
    return {name: f"{name}|{sig}" for name, sig in found}


def test_sacrebleu_signatures_match_the_sacrebleu_cli(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    ref, base, system = (tmp_path / f"{n}.txt" for n in ("ref", "base", "sys"))
    ref.write_text("".join(f"the cat sat on the mat {i}\n" for i in range(15)), encoding="utf-8")
    base.write_text("".join(f"the cat sat on a mat {i}\n" for i in range(15)), encoding="utf-8")
    system.write_text("".join(f"a cat sat on the mat {i}\n" for i in range(15)), encoding="utf-8")
    expected = _sacrebleu_cli_signatures(ref, base, system)
    assert set(expected) == {"BLEU", "chrF2++", "TER"}

    args = ["mt", "sacrebleu", "-r", str(ref), "-i", str(base), str(system), "-m", "bleu,chrf,ter"]
    assert main([*args, "-o", "-"]) == 0
    out = json.loads(capsys.readouterr().out)
    printed = [line.split(": ", 1)[1] for line in out["signature_lines"][1:]]
    assert sorted(printed) == sorted(expected.values())
    # 15 segments: the exact test decided
    assert out["signature_lines"][0].startswith("signature: exact|task:translation|systems:2|")

    # a scored translation run prints the same sacrebleu signatures beside its corpus metrics
    report = write_jsonl(
        tmp_path / "report.jsonl",
        [
            {"id": str(i), "prediction": f"a cat sat {i}", "reference": f"the cat sat {i}"}
            for i in range(15)
        ],
    )
    run = assay.score("translation", pred=report, n_bootstrap_ci=1000)
    lines = signature_lines(run)
    assert lines[0] == f"signature: {run.signature}"
    by_name = {
        line.split(": ", 1)[1].split("|", 1)[0]: line.split(": ", 1)[1] for line in lines[1:]
    }
    assert by_name["BLEU"] == expected["BLEU"]
    assert by_name["chrF2++"] == expected["chrF2++"]
