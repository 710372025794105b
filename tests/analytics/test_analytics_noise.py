"""The rerun noise floor (seed 000 §10): definition, persistence and the refusals."""

from __future__ import annotations

import contextlib
import io
import itertools
import json
from pathlib import Path

import numpy as np
import pytest

from assay._analytics import load_noise_floor, measure_noise_floor, save_noise_floor
from assay._analytics.noise import NoiseFloor, noise_floor_path
from assay._cli import main
from assay.errors import InputError, UsageError
from tests.analytics.conftest import MakeRun


def test_identical_reruns_have_zero_band(make_run: MakeRun) -> None:
    correct = [True, False] * 20
    a = make_run("a", correct=correct)
    b = a.model_copy(update={"run_id": "other"})
    floor = measure_noise_floor([a, b], n_trials=200)
    f = floor.floors["exact_match"]
    assert f.band == 0.0 and f.observed_max_abs_delta == 0.0 and f.swap_quantile == 0.0
    assert f.n_reruns == 2 and f.n_pairs == 1 and f.n_items == 40


def test_band_matches_the_swap_distribution(make_run: MakeRun) -> None:
    """With d discordant items of N, a swap gives Δ = (1/N)·Σ ±1 over those d items."""
    n, d = 100, 12
    a = make_run("a", correct=[True] * n)
    b = make_run("b", correct=[False] * d + [True] * (n - d))
    floor = measure_noise_floor([a, b], n_trials=4000, level=0.95)
    f = floor.floors["exact_match"]
    assert f.observed_max_abs_delta == pytest.approx(d / n)
    # exact distribution of |2·Binomial(d, 1/2) − d| / N
    k = np.arange(d + 1)
    from scipy.stats import binom

    values = np.abs(2 * k - d) / n
    order = np.argsort(values)
    cdf = np.cumsum(binom.pmf(k[order], d, 0.5))
    exact_q = values[order][np.searchsorted(cdf, 0.95)]
    assert f.swap_quantile == pytest.approx(exact_q, abs=2 / n + 1e-9)
    assert f.band == max(f.observed_max_abs_delta, f.swap_quantile)


def test_band_is_at_least_every_observed_pairwise_gap(make_run: MakeRun) -> None:
    runs = [make_run(f"r{i}", p=0.7, seed=i, n=150) for i in range(4)]
    floor = measure_noise_floor(runs, n_trials=300)
    f = floor.floors["exact_match"]
    values = [r.metrics["exact_match"].value or 0.0 for r in runs]
    gaps = [abs(x - y) for x, y in itertools.combinations(values, 2)]
    assert f.observed_max_abs_delta == pytest.approx(max(gaps))
    assert f.band >= max(gaps)
    assert f.n_pairs == 6 and f.values == pytest.approx(values)


def test_persistence_round_trip(make_run: MakeRun, tmp_path: Path) -> None:
    runs = [make_run(f"r{i}", p=0.7, seed=i, n=60) for i in range(2)]
    floor = measure_noise_floor(runs, n_trials=200)
    path = save_noise_floor(floor, tmp_path / "noise")
    assert path == noise_floor_path(runs[0].surface.fingerprint, tmp_path / "noise")
    again = load_noise_floor(runs[0].surface.fingerprint, tmp_path / "noise")
    assert again == floor
    assert load_noise_floor("0" * 64, tmp_path / "noise") is None
    path.write_text("{not json")
    with pytest.raises(InputError, match="unreadable noise-floor"):
        load_noise_floor(runs[0].surface.fingerprint, tmp_path / "noise")
    with pytest.raises(InputError, match="not a noise-floor record"):
        NoiseFloor.from_json({"task": "x"})


def test_refusals(make_run: MakeRun) -> None:
    a = make_run("a", n=30, seed=1)
    with pytest.raises(UsageError, match="at least two reruns"):
        measure_noise_floor([a])
    with pytest.raises(UsageError, match="given twice"):
        measure_noise_floor([a, a])
    with pytest.raises(UsageError, match="not the same surface"):
        measure_noise_floor([a, make_run("b", n=31, seed=1)])
    other_cfg = make_run("c", n=30, seed=2)
    other_cfg = other_cfg.model_copy(
        update={"provenance": other_cfg.provenance.model_copy(update={"config_sha256": "x"})}
    )
    with pytest.raises(UsageError, match="different settings"):
        measure_noise_floor([a, other_cfg])


def test_cli_noise_floor_records(
    make_run: MakeRun, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.chdir(tmp_path)
    for i in range(2):
        make_run(f"r{i}", p=0.8, seed=i, n=80)
    buf = io.StringIO()
    with contextlib.redirect_stdout(buf):
        code = main(["noise-floor", "r0.json", "r1.json", "--trials", "200", "-o", "nf.json"])
    assert code == 0
    recorded = list((tmp_path / ".assay" / "noise").glob("*.json"))
    assert len(recorded) == 1
    assert json.loads(recorded[0].read_text()) == json.loads((tmp_path / "nf.json").read_text())
    assert "accuracy[contract]" in buf.getvalue()
