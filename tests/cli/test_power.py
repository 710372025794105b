"""``assay power``: units needed for Δ from a pilot (one run, two runs, a comparison) or a rate."""

from __future__ import annotations

import json
import math
from pathlib import Path

import pytest

from assay._cli import main
from assay.stats.power import units_from_pilot, units_from_rate, z_sum


@pytest.fixture(scope="module")
def demo(tmp_path_factory: pytest.TempPathFactory) -> Path:
    out = tmp_path_factory.mktemp("demo")
    assert main(["demo", "--out", str(out)]) == 0
    return out


def _json(capsys: pytest.CaptureFixture[str], *args: str) -> dict[str, object]:
    assert main(["power", *args, "--json"]) == 0
    data: dict[str, object] = json.loads(capsys.readouterr().out)
    return data


def test_rate_alone_is_the_closed_form(capsys: pytest.CaptureFixture[str]) -> None:
    data = _json(capsys, "--rate", "0.8", "--deff", "2", "--correlation", "0.5", "--delta", "0.03")
    (row,) = data["rows"]  # type: ignore[misc]
    expected = 2 * z_sum() ** 2 * 2 * 0.8 * 0.2 * 0.5 / 0.03**2
    assert row["units_needed"] == math.ceil(expected)
    assert (
        row["units_needed"]
        == units_from_rate(0.03, rate=0.8, design_effect=2, correlation=0.5).units_needed
    )


def test_two_runs_use_the_paired_se_and_a_comparison_gives_the_same_answer(
    demo: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    runs = [str(demo / "candidate.run.json"), str(demo / "baseline.run.json")]
    paired = _json(capsys, *runs, "--delta", "0.05", "--metric", "exact_match")
    (row,) = paired["rows"]  # type: ignore[misc]
    assert row["unit"] == "item" and row["units_now"] == 400
    assert row["mde_now"] == pytest.approx(z_sum() * row["se"])
    assert row["units_needed"] == units_from_pilot(0.05, se=row["se"], n_units=400).units_needed
    cmp = demo / "cmp.json"
    assert main(["compare", *runs, "--significance", "-o", str(cmp)]) == 0
    capsys.readouterr()
    recorded = _json(capsys, str(cmp), "--delta", "0.05", "--metric", "exact_match")
    (again,) = recorded["rows"]  # type: ignore[misc]
    assert again["se"] == pytest.approx(row["se"]) and again["units_needed"] == row["units_needed"]


def test_one_run_over_clusters_counts_clusters_and_reports_the_design_effect(
    demo: Path, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    ids = [json.loads(line)["id"] for line in (demo / "gold.jsonl").read_text().splitlines()]
    clusters = tmp_path / "clusters.json"
    clusters.write_text(json.dumps({i: f"c{k % 40}" for k, i in enumerate(ids)}))
    run = str(demo / "candidate.run.json")
    data = _json(capsys, run, "--clusters", str(clusters), "--delta", "0.05")
    rows = data["rows"]
    assert {r["unit"] for r in rows} == {"cluster"}  # type: ignore[union-attr]
    assert {r["units_now"] for r in rows} == {40}  # type: ignore[union-attr]
    assert all(r["design_effect"] > 0 for r in rows)  # type: ignore[union-attr]
    assert main(["power", run, "--clusters", str(clusters), "--delta", "0.05"]) == 0
    text = capsys.readouterr().out
    assert "clusters needed" in text and "design effect" in text


def test_a_run_scored_over_clusters_brings_its_own_units(
    demo: Path, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """The pilot's clusters come from the run itself when it was scored with them."""
    ids = [json.loads(line)["id"] for line in (demo / "gold.jsonl").read_text().splitlines()]
    clusters = tmp_path / "clusters.json"
    clusters.write_text(json.dumps({i: f"c{k % 25}" for k, i in enumerate(ids)}))
    run = tmp_path / "clustered.run.json"
    args = ["score", "classification", "--pred", str(demo / "candidate.jsonl")]
    args += ["--gold", str(demo / "gold.jsonl"), "--clusters", str(clusters), "--no-store"]
    assert main([*args, "-o", str(run)]) == 0
    capsys.readouterr()
    data = _json(capsys, str(run), "--delta", "0.05", "--metric", "exact_match")
    (row,) = data["rows"]  # type: ignore[misc]
    assert row["unit"] == "cluster" and row["units_now"] == 25


def test_without_delta_the_mde_now_is_printed(
    demo: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    assert main(["power", str(demo / "candidate.run.json"), "--metric", "f1"]) == 0
    text = capsys.readouterr().out
    assert "MDE now" in text and "f1" in text and "—" in text


@pytest.mark.parametrize(
    ("args", "message"),
    [
        (["--rate", "0.5"], "--delta"),
        (["--delta", "0.1"], "PILOT"),
        (["--rate", "0.5", "--delta", "0"], "non-zero"),
        (["x.json", "--rate", "0.5", "--delta", "0.1"], "not both"),
    ],
)
def test_bad_input_is_a_usage_error(
    args: list[str], message: str, capsys: pytest.CaptureFixture[str]
) -> None:
    assert main(["power", *args]) == 2
    assert message in capsys.readouterr().err


def test_an_unknown_metric_or_cluster_id_names_what_is_wrong(
    demo: Path, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    run = str(demo / "candidate.run.json")
    assert main(["power", run, "--metric", "nope", "--delta", "0.1"]) == 2
    assert "nope" in capsys.readouterr().err
    partial = tmp_path / "partial.json"
    partial.write_text(json.dumps({"doc-0001": "a"}))
    assert main(["power", run, "--clusters", str(partial), "--delta", "0.1"]) == 2
    assert "partial.json" in capsys.readouterr().err
