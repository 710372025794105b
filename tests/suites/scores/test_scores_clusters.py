"""The scores suite resamples the tool's clusters (``--cluster-field metadata.topic``)."""

from __future__ import annotations

from pathlib import Path

import assay

ZSTD = Path(__file__).parent / "data" / "inspect" / "epochs-strids.eval"


def test_cluster_field_is_the_resampling_unit() -> None:
    run = assay.score(
        "scores", pred=ZSTD, cluster_field="metadata.topic", inspect_reader="builtin", ci=True
    )
    assert run.units is not None
    assert (run.units.by, run.units.source) == ("cluster", "suite default")
    assert run.units.n_clusters == run.summaries["clusters"]["n_clusters"]
    assert run.summaries["clusters"]["note"] == "the CIs and paired tests resample these clusters"
    plain = assay.score("scores", pred=ZSTD, inspect_reader="builtin")
    assert plain.units is None
