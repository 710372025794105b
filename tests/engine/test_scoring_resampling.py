"""The flow with --resampling and --jobs: provenance, paired tests, and the defaults unchanged."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

import assay
from assay._cli import main
from assay._compare import compare
from assay._engine.run import Run
from assay.errors import ConfigError, UsageError
from tests.scale.helpers import write_classification


def _text(run: Run) -> str:
    return "\n".join(ln for ln in run.to_json().splitlines() if '"generated_at"' not in ln)


@pytest.fixture
def inputs(tmp_path: Path) -> tuple[Path, Path]:
    return write_classification(tmp_path, 600, seed=5)


def test_jobs_two_equals_one_byte_for_byte(inputs: tuple[Path, Path]) -> None:
    gold, pred = inputs
    one = assay.score("classification", pred=pred, gold=gold, n_bootstrap_ci=200, jobs=1)
    two = assay.score("classification", pred=pred, gold=gold, n_bootstrap_ci=200, jobs=2)
    assert _text(two) == _text(one)
    threads = assay.score(
        "classification", pred=pred, gold=gold, n_bootstrap_ci=200, jobs=2, executor="thread"
    )
    assert _text(threads) == _text(one)


def test_default_run_does_not_mention_resampling(inputs: tuple[Path, Path]) -> None:
    gold, pred = inputs
    run = assay.score("classification", pred=pred, gold=gold, n_bootstrap_ci=200)
    explicit = assay.score(
        "classification", pred=pred, gold=gold, n_bootstrap_ci=200, resampling="multinomial"
    )
    assert _text(explicit) == _text(run)
    assert "resampling" not in run.settings["stats"]
    assert {m.ci_method for m in run.metrics.values()} == {"percentile_bootstrap"}


def test_poisson_is_recorded_and_changes_the_run_id(inputs: tuple[Path, Path]) -> None:
    gold, pred = inputs
    multi = assay.score("classification", pred=pred, gold=gold, n_bootstrap_ci=200)
    pois = assay.score(
        "classification", pred=pred, gold=gold, n_bootstrap_ci=200, resampling="poisson"
    )
    assert pois.settings["stats"]["resampling"] == "poisson"
    assert pois.run_id != multi.run_id
    assert pois.provenance.config_sha256 != multi.provenance.config_sha256
    for name, m in pois.metrics.items():
        assert m.value == multi.metrics[name].value  # point values do not depend on resampling
        if m.value is not None:
            assert m.ci_method == "poisson_bootstrap"
            assert m.ci_lower is not None and m.ci_upper is not None
            assert m.ci_lower <= m.value <= m.ci_upper


def test_poisson_ci_does_not_depend_on_item_order(tmp_path: Path) -> None:
    gold, pred = write_classification(tmp_path, 500, seed=2)
    lines = gold.read_text().splitlines(keepends=True)
    shuffled = tmp_path / "gold_reversed.jsonl"
    shuffled.write_text("".join(reversed(lines)))
    a = assay.score("classification", pred=pred, gold=gold, resampling="poisson")
    b = assay.score("classification", pred=pred, gold=shuffled, resampling="poisson")
    for name, m in a.metrics.items():
        assert (m.ci_lower, m.ci_upper) == (b.metrics[name].ci_lower, b.metrics[name].ci_upper)


def test_unknown_resampling_names_the_key(inputs: tuple[Path, Path]) -> None:
    gold, pred = inputs
    with pytest.raises(ConfigError, match=r"stats\.resampling"):
        assay.score("classification", pred=pred, gold=gold, resampling="jackknife")


def test_compare_uses_poisson_only_when_both_runs_do(tmp_path: Path) -> None:
    gold, pred_a = write_classification(tmp_path, 300, seed=3)
    other = tmp_path / "other"
    other.mkdir()
    _, pred_b = write_classification(other, 300, seed=4)
    a = assay.score("classification", pred=pred_a, gold=gold, resampling="poisson")
    b = assay.score("classification", pred=pred_b, gold=gold, resampling="poisson")
    result = compare(a, b, n_bootstrap=300)
    assert {s.method for s in result.significance} == {"paired_bootstrap_poisson"}
    m = assay.score("classification", pred=pred_b, gold=gold)
    with pytest.raises(UsageError, match="different bootstrap resampling"):
        compare(a, m, n_bootstrap=300)
    plain = compare(assay.score("classification", pred=pred_a, gold=gold), m, n_bootstrap=300)
    assert {s.method for s in plain.significance} == {"paired_bootstrap"}


def test_cli_resampling_option(
    inputs: tuple[Path, Path], tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    gold, pred = inputs
    out = tmp_path / "run.json"
    code = main(
        [
            "score",
            "classification",
            "--pred",
            str(pred),
            "--gold",
            str(gold),
            "--resampling",
            "poisson",
            "--executor",
            "thread",
            "--jobs",
            "2",
            "--no-store",
            "-o",
            str(out),
        ]
    )
    capsys.readouterr()
    assert code == 0
    data = json.loads(out.read_text())
    assert data["settings"]["stats"]["resampling"] == "poisson"
    assert data["metrics"]["exact_match"]["ci_method"] == "poisson_bootstrap"


def test_settings_file_chooses_resampling_and_checks_the_dask_address(
    inputs: tuple[Path, Path],
) -> None:
    from assay._settings import settings_from_mapping

    gold, pred = inputs
    settings = settings_from_mapping({"stats": {"resampling": "poisson", "n_bootstrap_ci": 100}})
    run = assay.score("classification", pred=pred, gold=gold, settings=settings)
    assert run.settings["stats"]["resampling"] == "poisson"
    with pytest.raises(ConfigError, match="dask://HOST:PORT"):
        settings_from_mapping({"run": {"dask": "tcp://127.0.0.1:8786"}})
