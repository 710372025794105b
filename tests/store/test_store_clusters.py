"""A clustered run comes back from the store with its clusters: byte-identical artifact, the
same resampling units."""

from __future__ import annotations

from pathlib import Path

import assay
from assay._store import RunStore
from tests.engine.test_clusters import write_clustered


def test_clustered_run_round_trips_through_the_store(tmp_path: Path) -> None:
    gold, pred = write_clustered(tmp_path, 12, 5)
    run = assay.score("classification", pred=pred, gold=gold, cluster_by="contract")
    with RunStore(f"sqlite:///{tmp_path / 'assay.db'}") as st:
        st.add(run)
        back = st.get(run.run_id)
    assert back.to_json() == run.to_json()
    assert back.table_units() == run.table_units()
    assert back.units == run.units
