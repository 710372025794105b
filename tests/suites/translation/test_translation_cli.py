"""`assay mt sacrebleu`'s plain output and its settings: the defaults without the settings
models, and a settings file or configure() override whenever one is in effect."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from assay._cli import main
from assay._settings import configure

REF = "the cat sat on the mat {}"
BASE = "the cat sat on mat {}"
SYSTEM = "a cat sat on the mat {}"


@pytest.fixture
def files(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> list[str]:
    monkeypatch.chdir(tmp_path)
    texts = {"ref.txt": REF, "base.txt": BASE, "sys.txt": SYSTEM}
    for name, text in texts.items():
        lines = [text.format(i) for i in range(12)]
        if name == "sys.txt":
            lines[3] = ""  # a blank hypothesis: scored as translation.empty_prediction
        (tmp_path / name).write_text("".join(line + "\n" for line in lines), encoding="utf-8")
    return list(texts)


def run(files: list[str], capsys: pytest.CaptureFixture[str], *extra: str) -> tuple[str, str]:
    ref, base, system = files
    code = main(["mt", "sacrebleu", "-r", ref, "-i", base, system, "--paired-bs-n", "50", *extra])
    captured = capsys.readouterr()
    assert code == 0, captured.err
    return captured.out, captured.err


def test_the_table_and_signatures_on_stdout(
    files: list[str], capsys: pytest.CaptureFixture[str]
) -> None:
    out, err = run(files, capsys)
    lines = out.splitlines()
    # 12 segments: the exact sign-flip test over all 2^12 swaps decides
    assert lines[0].startswith("exact sign-flip, n=4096, seed=12345, p-value rule: assay")
    assert lines[1].startswith("┏") and lines[2].startswith("┃ system")
    assert lines[4].startswith("│ base.txt (baseline) ")
    assert lines[5].startswith("│ sys.txt ") and "p=" in lines[5] and "p-adj=" in lines[5]
    assert lines[6].startswith("└")
    assert lines[7].startswith("family: headline, 2 tests; correction holm controls the family")
    assert lines[8].startswith("smallest detectable Δ (power 0.8), sys.txt: corpus_bleu ")
    assert lines[9].startswith("signature: exact|task:translation|systems:2|n:12|seed:12345|")
    assert lines[10].startswith("sacrebleu corpus_bleu: BLEU|nrefs:1|bs:50|seed:12345|")
    assert lines[11].startswith("sacrebleu corpus_chrf: chrF2++|nrefs:1|bs:50|seed:12345|")
    assert err == ""  # 12 segments: at or above min_items_test (10), no warning


def test_with_json_on_stdout_the_table_goes_to_stderr(
    files: list[str], capsys: pytest.CaptureFixture[str]
) -> None:
    out, err = run(files, capsys, "-o", "-", "--p-value", "sacrebleu")
    assert json.loads(out)["signature_lines"][0].startswith("signature: paired-bs|")
    assert "┏" in err and "note: --p-value sacrebleu reproduces sacrebleu 2.x" in err


def test_quiet_prints_nothing(files: list[str], capsys: pytest.CaptureFixture[str]) -> None:
    out, err = run(files, capsys, "--quiet", "--p-value", "sacrebleu")
    assert out == "" and err == ""


def test_a_settings_file_in_effect_is_read(
    files: list[str], tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    default = json.loads(run(files, capsys, "-o", "-")[0])
    (tmp_path / "assay.yaml").write_text(
        "stats:\n  min_items_test: 1000\ntranslation:\n  empty_prediction: cat\n"
    )
    out, err = run(files, capsys, "-o", "-")
    assert "only 12 segments: significance tests are unreliable" in err
    configured = json.loads(out)
    assert configured["systems"][1]["scores"] != default["systems"][1]["scores"]
    assert configured["systems"][0] == default["systems"][0]  # the baseline has no blank


def test_a_configure_override_is_read(files: list[str], capsys: pytest.CaptureFixture[str]) -> None:
    configure(stats={"min_items_test": 13})
    _, err = run(files, capsys)
    assert "warning: only 12 segments: significance tests are unreliable" in err


def test_a_broken_settings_file_is_an_error_naming_it(
    files: list[str], tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    (tmp_path / "assay.yaml").write_text("stats:\n  min_items_tset: 3\n")
    ref, base, system = files
    assert main(["mt", "sacrebleu", "-r", ref, "-i", base, system]) == 2
    assert "assay.yaml: stats.min_items_tset: unknown key" in capsys.readouterr().err


def test_sacrebleu_table_says_p_below_0_001_not_p_zero(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """A p-value below 0.001 prints as p<0.001 (never p=0.0000); others with 3 decimals."""
    from assay.suites.translation.examples import write_demo

    write_demo(tmp_path)
    files = [str(tmp_path / n) for n in ("ref.txt", "base.txt", "sys1.txt", "sys2.txt")]
    code = main(["mt", "sacrebleu", "-r", files[0], "-i", *files[1:], "--paired-bs"])
    out = capsys.readouterr().out
    assert code == 0 and "p<0.001 p-adj<0.001**" in out and "p=0.0000" not in out
    assert "p=0.010 p-adj=0.016*" in out  # sys1's BLEU, Holm over 2 systems × 2 metrics
