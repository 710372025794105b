"""Scoring on a 2-worker local Dask cluster equals the local run, even when a worker dies."""

from __future__ import annotations

import json
import sys
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

import assay
from assay.errors import ConfigError
from tests.scale.helpers import KillOnceTask, local_dask_address, write_classification
from tests.scale.helpers import artifact_body as _body

distributed = pytest.importorskip("distributed", reason="dask.distributed (extra [dask]) absent")


@pytest.fixture(scope="module")
def cluster() -> Iterator[str]:
    with local_dask_address() as address:
        yield address


@pytest.fixture(scope="module")
def inputs(tmp_path_factory: pytest.TempPathFactory) -> tuple[Path, Path]:
    return write_classification(tmp_path_factory.mktemp("dask"), 3000, seed=1)


def test_dask_run_equals_local_run_exactly(cluster: str, inputs: tuple[Path, Path]) -> None:
    gold, pred = inputs
    common: dict[str, Any] = {"pred": pred, "gold": gold, "resampling": "poisson", "seed": 99}
    local = assay.score("classification", **common)
    remote = assay.score("classification", executor=cluster, partitions=7, **common)
    assert _body(remote) == _body(local)
    assert local.metrics["exact_match"].ci_method == "poisson_bootstrap"
    assert local.settings["stats"]["resampling"] == "poisson"


def test_dask_with_multinomial_bootstraps_on_the_client(
    cluster: str, inputs: tuple[Path, Path]
) -> None:
    gold, pred = inputs
    local = assay.score("classification", pred=pred, gold=gold, n_bootstrap_ci=300)
    remote = assay.score(
        "classification", pred=pred, gold=gold, n_bootstrap_ci=300, executor=cluster
    )
    assert _body(remote) == _body(local)


def test_a_killed_worker_is_retried_and_numbers_do_not_change(
    cluster: str, inputs: tuple[Path, Path], tmp_path: Path
) -> None:
    gold, pred = inputs
    marker = tmp_path / "killed"
    common: dict[str, Any] = {"pred": pred, "gold": gold, "resampling": "poisson"}
    local = assay.score("classification", **common)
    task = KillOnceTask(str(marker), victim="doc-1500")
    remote = assay.score(task, executor=cluster, partitions=6, **common)
    assert marker.exists()  # a worker process really died mid-run
    assert _body(remote) == _body(local)


@pytest.mark.parametrize("resampling", ["poisson", "multinomial"])
def test_spilled_dask_run_equals_local_in_memory_run(
    cluster: str, inputs: tuple[Path, Path], monkeypatch: pytest.MonkeyPatch, resampling: str
) -> None:
    from assay._engine import dask as dask_cluster

    gold, pred = inputs
    common: dict[str, Any] = {"pred": pred, "gold": gold, "resampling": resampling}
    local = assay.score("classification", spill=False, n_bootstrap_ci=300, **common)
    # 11 partitions, at most 4 in flight: results arrive out of order and are put back in order
    remote = assay.score(
        "classification", executor=cluster, spill=True, partitions=11, n_bootstrap_ci=300, **common
    )
    assert remote.spilled
    assert _body(remote) == _body(local)
    monkeypatch.setattr(dask_cluster, "MAX_PARTITION_ITEMS", 500)
    assert dask_cluster.default_partitions(3000, 2) == 8
    assert dask_cluster.default_partitions(6001, 1) == 13
    default = assay.score("classification", executor=cluster, n_bootstrap_ci=300, **common)
    assert _body(default) == _body(local)


def test_missing_extra_is_a_clear_error(
    monkeypatch: pytest.MonkeyPatch, inputs: tuple[Path, Path]
) -> None:
    gold, pred = inputs
    monkeypatch.setitem(sys.modules, "distributed", None)
    with pytest.raises(ConfigError, match=r"extra dask \(in a checkout: `uv sync --extra dask`"):
        assay.score("classification", pred=pred, gold=gold, executor="dask://127.0.0.1:1")


def test_bad_executor_string_is_a_config_error(inputs: tuple[Path, Path]) -> None:
    gold, pred = inputs
    with pytest.raises(ConfigError, match="dask://HOST:PORT"):
        assay.score("classification", pred=pred, gold=gold, executor="spark://x:1")


def test_cli_executor_option_on_dask(
    cluster: str, inputs: tuple[Path, Path], tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    from assay._cli import main

    gold, pred = inputs
    paths: dict[str, Path] = {}
    runs: dict[str, list[str]] = {"local": [], "dask": ["--executor", cluster, "--partitions", "3"]}
    for label, extra in runs.items():
        paths[label] = tmp_path / f"{label}.json"
        args = ["score", "classification", "--pred", str(pred), "--gold", str(gold)]
        args += ["--resampling", "poisson", "--no-store", "-o", str(paths[label]), *extra]
        assert main(args) == 0
    capsys.readouterr()
    local, remote = (json.loads(paths[k].read_text()) for k in ("local", "dask"))
    local.pop("generated_at")
    remote.pop("generated_at")
    assert remote == local
