"""A clustered run on a local Dask cluster resamples clusters as the local run does: with
Poisson weights keyed by the cluster label the partitions' replicate sums add up to the same
CIs (and design effects) as the in-memory run, however the partitions split the clusters."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

import assay
from tests.engine.test_clusters import write_clustered
from tests.scale.helpers import artifact_body as _body
from tests.scale.helpers import local_dask_address

distributed = pytest.importorskip("distributed", reason="dask.distributed (extra [dask]) absent")


@pytest.fixture(scope="module")
def cluster() -> Iterator[str]:
    with local_dask_address() as address:
        yield address


@pytest.mark.parametrize("resampling", ["poisson", "multinomial"])
@pytest.mark.parametrize("spill", [False, True])
def test_dask_cluster_run_equals_local_run(
    cluster: str, tmp_path: Path, resampling: str, spill: bool
) -> None:
    gold, pred = write_clustered(tmp_path, 35, 12)
    common: dict[str, Any] = {
        "pred": pred,
        "gold": gold,
        "cluster_by": "contract",
        "resampling": resampling,
        "spill": spill,
    }
    local = assay.score("classification", **common)
    remote = assay.score("classification", executor=cluster, partitions=9, **common)
    assert _body(remote) == _body(local)
    m = remote.metrics["exact_match"]
    kind = "poisson" if resampling == "poisson" else "percentile"
    assert m.n_units == 35 and m.ci_method == f"cluster_{kind}_bootstrap"
    iid = assay.score("classification", pred=pred, gold=gold, resampling=resampling)
    wide, narrow = m, iid.metrics["exact_match"]
    assert None not in (wide.ci_lower, wide.ci_upper, narrow.ci_lower, narrow.ci_upper)
    width = wide.ci_upper - wide.ci_lower  # type: ignore[operator]
    assert width > 1.5 * (narrow.ci_upper - narrow.ci_lower)  # type: ignore[operator]
