"""The claims suite's item is a paper: its runs say so (``units``), with nothing to collapse."""

from __future__ import annotations

from pathlib import Path

from tests.suites.claims.test_claims_task import build_extracted, score


def test_claims_runs_resample_papers_explicitly(tmp_path: Path) -> None:
    build_extracted(tmp_path)
    run = score(tmp_path)
    assert run.units is not None
    assert run.units.by == "paper" and run.units.n_clusters == run.surface.n_items
    assert run.units.source == "suite: each item is one paper"
    assert "clusters" not in run.stats and run.table_units().labels is None
    assert "|cl:" not in run.signature
