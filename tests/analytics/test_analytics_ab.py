"""A/B (seed 000 §9–§10): Δ = candidate − baseline, the verdict, significance by CI, the
same-surface rule."""

from __future__ import annotations

import contextlib
import io
import json
from pathlib import Path

import pytest

import assay
from assay._analytics import (
    WITHIN_NOISE,
    SurfaceMismatch,
    ab_compare,
    ab_memo,
    leader_of,
    measure_noise_floor,
    save_noise_floor,
    surface_mismatches,
    verdict_of,
)
from assay._cli import main
from tests.analytics.conftest import MakeRun


def _cli(args: list[str]) -> tuple[int, str, str]:
    out, err = io.StringIO(), io.StringIO()
    with contextlib.redirect_stdout(out), contextlib.redirect_stderr(err):
        code = main(args)
    return code, out.getvalue(), err.getvalue()


def test_leader_and_verdict_rules() -> None:
    assert leader_of(0.001, True, 0.001) == "tie"
    assert leader_of(-0.001, True, 0.001) == "tie"
    assert leader_of(0.0011, True, 0.001) == "candidate"
    assert leader_of(-0.0011, True, 0.001) == "baseline"
    assert leader_of(0.01, False, 0.001) == "baseline"  # lower is better: the candidate rose
    assert leader_of(None, True, 0.001) == "tie"
    assert verdict_of("candidate", True, False) == "candidate wins"
    assert verdict_of("candidate", True, True) == WITHIN_NOISE
    assert verdict_of("baseline", False, False).startswith("inconclusive (baseline ahead")
    assert verdict_of("tie", True, True) == "tie"


def test_clear_win_is_the_candidates_with_delta_candidate_minus_baseline(make_run: MakeRun) -> None:
    a = make_run("base", p=0.6, seed=1, n=300)
    b = make_run("cand", p=0.9, seed=2, n=300)
    res = ab_compare(candidate=b, baseline=a)
    head = res.headline
    assert res.metric == "exact_match"
    assert head.delta == pytest.approx(
        b.metrics["exact_match"].value - a.metrics["exact_match"].value
    )
    assert res.delta is not None and res.delta > 0.2
    assert res.verdict == "candidate wins" and res.significant
    assert res.ci_lower is not None and res.ci_lower > 0
    assert res.test == "paired_bootstrap" and res.n == 300
    # one convention: assay.compare(candidate, baseline) has the same Δ
    cmp = assay.compare(b, a)
    sig = {s.metric_name: s for s in cmp.significance}["exact_match"]
    assert sig.delta == pytest.approx(res.delta)
    reverse = ab_compare(candidate=a, baseline=b)
    assert reverse.verdict == "baseline wins"
    assert json.dumps(ab_compare(candidate=b, baseline=a).to_json()) == json.dumps(
        res.to_json()
    )  # deterministic


def test_identical_runs_tie_and_small_gaps_are_inconclusive(make_run: MakeRun) -> None:
    a = make_run("a", p=0.8, seed=3, n=40)
    same = ab_compare(candidate=a, baseline=a)
    assert same.verdict == "tie" and same.delta == 0.0 and not same.significant
    correct = [True] * 30 + [False] * 10
    base = make_run("base", correct=correct)
    cand = make_run("cand", correct=[True] * 32 + [False] * 8)
    res = ab_compare(candidate=cand, baseline=base)
    assert res.leader == "candidate"
    assert res.verdict.startswith("inconclusive (candidate ahead")
    assert res.ci_lower is not None and res.ci_lower <= 0 <= (res.ci_upper or 0)


def test_delta_inside_noise_floor_is_never_a_win(make_run: MakeRun) -> None:
    a = make_run("a", p=0.6, seed=1, n=300)
    b = make_run("b", p=0.9, seed=2, n=300)
    res = ab_compare(candidate=b, baseline=a, noise_floor=0.5)
    assert res.significant and res.verdict == WITHIN_NOISE
    assert res.noise_band == 0.5 and res.noise_source == "given"
    assert ab_compare(candidate=b, baseline=a, noise_floor=0.01).verdict == "candidate wins"


def test_same_surface_rule_refuses_with_reasons(make_run: MakeRun) -> None:
    a = make_run("a", n=30, seed=1)
    smaller = make_run("b", n=29, seed=1)
    reseeded = make_run("c", n=30, seed=2, score_seed=7)
    with pytest.raises(SurfaceMismatch, match="different sample sizes"):
        ab_compare(candidate=smaller, baseline=a)
    with pytest.raises(SurfaceMismatch, match=r"different seeds \(12345 vs 7\)"):
        ab_compare(candidate=reseeded, baseline=a)
    other_task = a.model_copy(update={"task": "translation"})
    reasons = surface_mismatches(a, other_task)
    assert reasons == ["different tasks ('classification' vs 'translation')"]
    with pytest.raises(SurfaceMismatch, match="different tasks"):
        ab_compare(candidate=other_task, baseline=a)


def test_cli_ab_refuses_exit_2(make_run: MakeRun, tmp_path: Path) -> None:
    make_run("a", n=30, seed=1)
    make_run("b", n=29, seed=1)
    code, _, err = _cli(["ab", str(tmp_path / "b.json"), "--baseline", str(tmp_path / "a.json")])
    assert code == 2
    assert "not the same surface" in err and "different sample sizes (30 vs 29)" in err


def test_cli_ab_uses_recorded_floor(
    make_run: MakeRun, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.chdir(tmp_path)
    reruns = [make_run(f"r{i}", p=0.75, seed=10 + i, n=200) for i in range(3)]
    cand = make_run("cand", p=0.77, seed=20, n=200)
    floor = measure_noise_floor(reruns, n_trials=500)
    save_noise_floor(floor, tmp_path / ".assay" / "noise")
    out_json = tmp_path / "ab.json"
    md = tmp_path / "ab.md"
    code, out, _ = _cli(
        [
            "ab",
            "cand.json",
            "--baseline",
            "r0.json",
            "--compare-only",
            "-o",
            str(out_json),
            "--markdown",
            str(md),
        ]
    )
    assert code == 0
    data = json.loads(out_json.read_text())
    assert data["noise_band"] == pytest.approx(floor.band("exact_match"))
    assert data["noise_source"].startswith("recorded")
    res = ab_compare(candidate=cand, baseline=reruns[0], noise_floor=floor)
    assert data["verdict"] == res.verdict
    if res.delta is not None and abs(res.delta) <= (res.noise_band or 0) and res.leader != "tie":
        assert res.verdict == WITHIN_NOISE
    assert "noise band" in out
    assert md.read_text() == ab_memo(res)
    code, _, _ = _cli(
        ["ab", "cand.json", "--baseline", "r0.json", "--no-noise-floor", "-o", str(out_json)]
    )
    assert json.loads(out_json.read_text())["noise_band"] is None


def test_unknown_metric_is_an_error(make_run: MakeRun) -> None:
    a = make_run("a", n=20)
    with pytest.raises(assay.errors.UsageError, match="no metric 'bleu'"):
        ab_compare(candidate=a, baseline=a, metric="bleu")


def test_cli_ab_takes_the_candidate_first_and_names_the_baseline(
    make_run: MakeRun, tmp_path: Path
) -> None:
    """The old form (baseline first, candidate second) is refused, never read swapped."""
    make_run("a", n=30, seed=1)
    make_run("b", n=30, seed=2)
    code, _, err = _cli(["ab", str(tmp_path / "a.json"), str(tmp_path / "b.json")])
    assert code == 2 and "--baseline" in err and "CANDIDATE" in err
    code, out, _ = _cli(["ab", str(tmp_path / "b.json"), "--baseline", str(tmp_path / "a.json")])
    assert code == 0 and "candidate = b · baseline = a" in out and "Δ = candidate − baseline" in out
