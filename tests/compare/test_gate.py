"""The regression gate: the absolute bar, the baseline check and the failed-share check."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

import assay
from assay._cli import main
from assay._compare import gate
from assay._engine.run import Run
from assay.errors import UsageError
from assay.suites.classification.examples import write_classification_demo
from tests.conftest import write_jsonl


def test_threshold_gate(labels_files: tuple[Path, Path]) -> None:
    gold, pred = labels_files
    run = assay.score("classification", pred=pred, gold=gold, ci=False)
    # headline: exact_match 0.667, macro 0.667 (0.806 over usable rows, the diagnostic
    # macro_accuracy_usable); 1 failed + 1 missing of 12 = 16.7%
    assert gate(run, 0.6, max_failed=0.2).passed
    res = gate(run, 0.7, max_failed=0.2)
    assert not res.passed
    assert [c.name for c in res.failures] == ["exact_match", "macro_accuracy"]
    assert gate(run, 0.7, metrics=["macro_accuracy_usable"], max_failed=0.2).passed
    # lower is better: failure 0.083 fails a 0.05 bar
    assert not gate(run, 0.05, metrics=["failure"], max_failed=0.2).passed
    assert gate(run, 0.5, tier="diagnostic", max_failed=0.2).passed
    # without a baseline the default allowance is 5%: 16.7% fails even a bar every metric clears
    res = gate(run, 0.1)
    assert not res.passed and not res.failures
    assert res.failed_share is not None and res.failed_share.limit == 0.05
    with pytest.raises(UsageError, match="unknown metric"):
        gate(run, 0.5, metrics=["nope"])
    with pytest.raises(UsageError, match="tier"):
        gate(run, 0.5, tier="bogus")
    with pytest.raises(UsageError, match="finite"):
        gate(run, float("nan"))
    with pytest.raises(UsageError, match="threshold"):
        gate(run)


@pytest.fixture(scope="module")
def demo_runs(tmp_path_factory: pytest.TempPathFactory) -> tuple[Run, Run, Path]:
    """The demo's runs: the candidate is significantly better on exact_match (p = 0.024) and
    macro_accuracy (p = 0.030)."""
    root = tmp_path_factory.mktemp("demo")
    files = write_classification_demo(root)
    kw = {"gold": files.gold, "expected_ids": files.expected_ids, "ci": False}
    base = assay.score("classification", pred=files.baseline, name="baseline", **kw)
    cand = assay.score("classification", pred=files.candidate, name="candidate", **kw)
    return base, cand, root


def test_baseline_regression(demo_runs: tuple[Run, Run, Path]) -> None:
    base, cand, _ = demo_runs
    res = gate(base, baseline=cand, max_failed=1.0)  # the old system gated against the new
    assert not res.passed
    assert [r.name for r in res.regressions] == ["exact_match", "macro_accuracy"]
    reg = res.regressions[0]
    assert reg.verdict == "REGRESSION"
    assert reg.delta == pytest.approx(-0.0625)  # candidate − baseline
    assert reg.ci_lower is not None and reg.ci_upper is not None and reg.ci_upper < 0
    assert reg.p_value is not None and reg.p_value < 0.05
    # "materially": a margin wider than |Δ| lets it pass, and so does a recorded noise band
    # (macro_accuracy's Δ is -0.0763)
    assert gate(base, baseline=cand, margin=0.08, max_failed=1.0).passed
    bands = {"exact_match": 0.07, "macro_accuracy": 0.08}
    assert gate(base, baseline=cand, noise=bands, max_failed=1.0).passed
    within = gate(base, baseline=cand, noise=bands, max_failed=1.0)
    assert within.baseline_checks[0].verdict.startswith("within the noise band")


def test_baseline_improvement_and_no_change(demo_runs: tuple[Run, Run, Path]) -> None:
    base, cand, _ = demo_runs
    res = gate(cand, baseline=base)
    assert res.passed and not res.regressions
    verdicts = {c.name: c.verdict for c in res.baseline_checks}
    # both headlines improve significantly (macro_accuracy did not while it left failed rows
    # out of its denominators: p = 0.070)
    assert verdicts == {"exact_match": "improvement", "macro_accuracy": "improvement"}
    same = gate(cand, baseline=cand)
    assert same.passed
    assert all(c.delta == 0 and c.verdict == "no significant change" for c in same.baseline_checks)


def test_lower_is_better_direction(demo_runs: tuple[Run, Run, Path]) -> None:
    base, cand, _ = demo_runs
    # failure: baseline 5/400 ERROR rows, candidate 2/400 — a drop is an improvement
    res = gate(cand, baseline=base, metrics=["failure"])
    (check,) = res.baseline_checks
    assert check.delta is not None and check.delta < 0 and check.passed
    assert gate(base, baseline=cand, metrics=["failure"], max_failed=1.0).passed  # not significant


def test_failed_share_rise(demo_runs: tuple[Run, Run, Path], tmp_path: Path) -> None:
    _, cand, root = demo_runs
    # a --predicted-field typo: every prediction unreadable, every item a failure
    typo = assay.score(
        "classification",
        pred=root / "candidate.jsonl",
        gold=root / "gold.jsonl",
        expected_ids=root / "expected_ids.json",
        predicted_field="prediction",
        ci=False,
    )
    res = gate(typo, baseline=cand)
    assert not res.passed
    assert res.failed_share is not None and res.failed_share.candidate_share > 0.9
    assert res.failed_share.rule == "no rise over the baseline"
    assert not gate(typo, 0.0).passed  # no baseline: over 5%
    # a rise of one item over the baseline fails by default, passes an explicit allowance
    rows = [json.loads(line) for line in (root / "candidate.jsonl").read_text().splitlines()]
    one_more = write_jsonl(tmp_path / "minus_one.jsonl", rows[:-1])
    fewer = assay.score(
        "classification",
        pred=one_more,
        gold=root / "gold.jsonl",
        expected_ids=root / "expected_ids.json",
        ci=False,
    )
    assert fewer.cohort.missing == cand.cohort.missing + 1
    res = gate(fewer, baseline=cand)
    assert not res.passed and not res.regressions
    assert gate(fewer, baseline=cand, max_failed=0.05).passed


def test_every_metric_null_fails(labels_files: tuple[Path, Path]) -> None:
    gold, pred = labels_files
    run = assay.score("classification", pred=pred, gold=gold, ci=False)
    run = run.model_copy(
        update={
            "metrics": {k: m.model_copy(update={"value": None}) for k, m in run.metrics.items()}
        }
    )
    res = gate(run, 0.5, max_failed=1.0)
    assert res.all_null and not res.passed
    assert "null" in res.failure_reasons()[0]


def test_gate_cli(demo_runs: tuple[Run, Run, Path], capsys: pytest.CaptureFixture[str]) -> None:
    base, cand, root = demo_runs
    a, b = root / "cand.json", root / "base.json"
    cand.save(a)
    base.save(b)
    assert main(["gate", str(a), "--baseline", str(b)]) == 0
    out = capsys.readouterr().out
    assert "Δ = candidate − baseline" in out and "improvement" in out
    assert main(["gate", str(b), "--baseline", str(a), "--max-failed", "0.05"]) == 1
    out = capsys.readouterr().out
    assert "REGRESSION" in out and "-0.062 " in out and "0.024" in out
    assert "gate failed: exact_match regressed; macro_accuracy regressed" in out
    assert main(["gate", str(a), "--threshold", "nan"]) == 2
    assert "finite" in capsys.readouterr().err
    assert main(["gate", str(a)]) == 2


def test_gate_cli_reads_the_recorded_noise_floor(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    from assay._analytics.noise import measure_noise_floor, noise_floor_path, save_noise_floor
    from assay._cli.analytics_demo import write_demo

    write_demo(tmp_path)
    reruns = [Run.load(tmp_path / f"rerun{k}.json") for k in (1, 2, 3)]
    noise = tmp_path / "noise"
    path = save_noise_floor(measure_noise_floor(reruns), noise)
    assert path == noise_floor_path(reruns[0].surface.fingerprint, noise)
    base, cand = str(tmp_path / "baseline.json"), str(tmp_path / "candidate.json")
    args = ["gate", base, "--baseline", cand, "--max-failed", "1", "--noise-dir", str(noise)]
    args += ["--correction", "none"]  # one metric's regression at its own α (raw p 0.024)
    assert main(args) == 1  # the recorded band (0.015) is narrower than the drop (0.0625)
    assert "REGRESSION" in capsys.readouterr().out
    data = json.loads(path.read_text())
    data["floors"]["exact_match"]["band"] = 0.07  # a noisier configuration
    data["floors"]["macro_accuracy"]["band"] = 0.09  # (its drop: 0.0829)
    path.write_text(json.dumps(data))
    assert main(args) == 0
    assert "within the noise band ±0.07" in capsys.readouterr().out
    assert main([*args, "--no-noise-floor"]) == 1
