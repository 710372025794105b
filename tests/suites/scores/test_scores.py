"""The scores suite end to end: assay's mean equals each tool's own figure where it must, the
stated differences where it need not, missing and unreadable items listed, and the CLI's
score / compare / gate on other tools' files."""

from __future__ import annotations

import math
from pathlib import Path

import pytest

import assay
from assay._cli import main
from assay.errors import InputError, UsageError
from assay.suites.scores import figure_lines, reduce_samples, write_demo
from assay.suites.scores.examples import write_inspect_demo
from tests.conftest import SHARED

DATA = Path(__file__).parent / "data"
ZSTD = DATA / "inspect" / "epochs-strids.eval"
LM_A = DATA / "lm-eval" / "example-org__model-a"
LM_B = DATA / "lm-eval" / "example-org__model-b"
RESULTS = DATA / "promptfoo" / "results.json"
SECURITY = SHARED / "data" / "bridges" / "inspect" / "2025-05-12T20-28-26-04-00_security-guide.json"


def _samples(folder: Path, task: str) -> Path:
    return next(folder.glob(f"samples_{task}_*.jsonl"))


def _own(run: assay.Run) -> dict[str, dict[str, object]]:
    return {e["score"]: e for e in run.summaries["own"]}


@pytest.mark.parametrize("how", ["mean", "median", "max", "min"])
def test_reduce_samples(how: str) -> None:
    assert (
        reduce_samples([1.0, 0.0, 0.5], how)
        == {  # type: ignore[arg-type]
            "mean": 0.5,
            "median": 0.5,
            "max": 1.0,
            "min": 0.0,
        }[how]
    )


def test_inspect_mean_equals_the_logs_own_figures() -> None:
    run = assay.score("scores", pred=ZSTD)
    assert run.name == "inspect:epochs_strids · mockllm/model"
    assert run.settings["scores"]["source"] == "inspect"
    own = _own(run)
    for score, value in (("match_like", 0.5555555555555556), ("rubric", 0.6027777777777777)):
        assert run.metrics[score].value == pytest.approx(value)
        assert own[score]["value"] == pytest.approx(value)
        assert own[score]["difference"] == pytest.approx(0.0, abs=1e-12)
    assert run.metrics["match_like"].tier == "headline"
    assert run.cohort.attempted == 6 and run.cohort.failed == 0
    # the errored epoch is flagged on its item, not lost
    foxtrot = next(i for i in run.items if i.id == "q-foxtrot")
    assert "sample_error" in foxtrot.flags and foxtrot.details["samples"] == 3
    assert any("clustered" in n for n in own["rubric"]["notes"])
    lines = figure_lines(run)
    assert lines[1].startswith("Inspect match_like accuracy 0.5556 ± stderr 0.147 (n 6) · assay")


@pytest.mark.skipif(not SECURITY.exists(), reason="Inspect logs absent")
def test_a_shared_json_log_scores() -> None:
    run = assay.score("scores", pred=SECURITY, source="inspect")
    assert run.metrics["model_graded_fact"].value == 1.0
    assert run.summaries["source"]["tool_version"] == "0.3.95.dev16+g6527d0861"


def test_lm_eval_missing_doc_counts_zero_and_is_listed() -> None:
    run = assay.score("scores", pred=_samples(LM_B, "arc_mini"), source="lm-eval")
    assert run.cohort.missing_ids == ["5"]
    assert run.metrics["acc"].value == pytest.approx(0.625)  # 0.7143 · 7 / 8
    own = _own(run)["acc"]
    assert own["value"] == pytest.approx(5 / 7) and own["n"] == 7 and own["assay_n"] == 8
    assert any("missing" in n for n in own["notes"])  # type: ignore[union-attr]
    model_a = assay.score("scores", pred=_samples(LM_A, "arc_mini"))
    assert model_a.metrics["acc"].value == pytest.approx(0.75)
    assert model_a.surface.fingerprint == run.surface.fingerprint  # one benchmark: pairs on ids


def test_lm_eval_filter_and_thresholds() -> None:
    path = _samples(LM_A, "gsm8k_mini")
    run = assay.score("scores", pred=path, filter="flexible-extract", threshold=["exact_match>=1"])
    assert run.metrics["exact_match"].value == pytest.approx(5 / 6)
    assert run.metrics["exact_match>=1"].value == pytest.approx(5 / 6)
    with pytest.raises(UsageError, match="no score 'acc'"):
        assay.score("scores", pred=path, scores=["acc"])


def test_promptfoo_one_system_its_error_a_listed_failure() -> None:
    with pytest.raises(UsageError, match=r"4 systems in it.*--system"):
        assay.score("scores", pred=RESULTS)
    run = assay.score("scores", pred=RESULTS, system="haiku · careful")
    assert run.metrics["pass"].value == pytest.approx(0.8)  # promptfoo's own pass rate
    assert run.metrics["score"].value == pytest.approx(0.78)
    assert run.metrics["assert:style"].tier == "diagnostic"
    assert run.cohort.failed == 1
    failure = run.cohort.failures[0]
    assert failure.id == "3" and "API error: 529 Overloaded" in failure.reason
    assert "results.results[15]" in failure.reason
    own = _own(run)
    assert own["correct"]["value"] == 1.0 and run.metrics["correct"].value == pytest.approx(0.8)


def test_promptfoo_id_field_and_system_index() -> None:
    run = assay.score("scores", pred=RESULTS, system="0", id_field="vars.id")
    assert "cap-fr" in {i.id for i in run.items}


def test_lower_is_better_leaves_missing_items_out(tmp_path: Path) -> None:
    run = assay.score("scores", pred=_samples(LM_B, "arc_mini"), lower=["acc"])
    assert run.metrics["acc"].higher_is_better is False
    assert run.metrics["acc"].n == 7 and run.metrics["acc"].value == pytest.approx(5 / 7)


def test_reducer_max(tmp_path: Path) -> None:
    run = assay.score("scores", pred=ZSTD, reducer="max")
    assert run.metrics["match_like"].value > 0.5556
    assert any("reduced its samples by 'mean'" in w for w in run.warnings)


def test_bad_inputs_are_refused_by_name(tmp_path: Path) -> None:
    plain = tmp_path / "p.jsonl"
    plain.write_text('{"id": 1}\n')
    with pytest.raises(InputError, match="--from inspect"):
        assay.score("scores", pred=plain)
    with pytest.raises(UsageError, match="takes no gold"):
        assay.score("scores", pred=ZSTD, gold=plain)


def test_ci_against_the_tools_stderr(tmp_path: Path) -> None:
    """The stated difference: a percentile-bootstrap 95% half-width near
    1.96 · stderr · √((n−1)/n) (here n = 60 items, 4000 resamples)."""
    for log in write_inspect_demo(tmp_path):
        run = assay.score("scores", pred=log, n_bootstrap_ci=4000)
        own = _own(run)["match"]
        metric = run.metrics["match"]
        assert metric.value == pytest.approx(own["value"])
        n = own["assay_n"]
        assert isinstance(n, int) and isinstance(own["stderr"], float)
        expected = 1.96 * own["stderr"] * math.sqrt((n - 1) / n)
        half = (metric.ci_upper - metric.ci_lower) / 2  # type: ignore[operator]
        assert 0.85 < half / expected < 1.15


def test_cli_score_compare_gate_on_the_demo(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    write_demo(tmp_path)
    base, cand = tmp_path / "inspect" / "baseline.eval", tmp_path / "inspect" / "candidate.eval"
    out = tmp_path / "run.json"
    code = main(["score", "scores", "--pred", str(cand), "--from", "inspect", "-o", str(out)])
    assert code == 0 and out.exists()
    text = capsys.readouterr().out
    assert "Inspect match accuracy" in text and "· assay" in text
    assert main(["compare", str(cand), str(base), "--significance"]) == 0
    assert "match" in capsys.readouterr().out
    # a run artifact and a log mix
    assert main(["compare", str(out), str(base)]) == 0
    capsys.readouterr()
    lm = tmp_path / "lm-eval"
    code = main(
        [
            "gate",
            str(next((lm / "org__model-b").glob("samples_*.jsonl"))),
            "--baseline",
            str(next((lm / "org__model-a").glob("samples_*.jsonl"))),
            "--from",
            "lm-eval",
            "--filter",
            "flexible-extract",
            "--max-failed",
            "0.05",
        ]
    )
    assert code == 0, capsys.readouterr().out
    pf = tmp_path / "promptfoo"
    assert main(["gate", str(pf / "before.json"), "--baseline", str(pf / "after.json")]) == 1
    assert "gate failed" in capsys.readouterr().out


def test_cli_compare_every_column_of_a_promptfoo_file(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["compare", str(RESULTS), "--from", "promptfoo"]) == 0
    out = capsys.readouterr().out
    assert "haiku · careful" in out
    assert main(["gate", str(RESULTS), "--threshold", "0.5"]) == 2
    assert "pick one with --system" in capsys.readouterr().err
