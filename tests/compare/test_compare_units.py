"""Comparisons resample the clusters both runs declare, and refuse runs whose cluster
settings differ (naming both), in ``compare_pair`` and in the gate."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

import assay
from assay._compare.comparison import compare_pair
from assay._compare.gate import gate
from assay._compare.units import shared_units
from assay.errors import UsageError
from assay.stats.units import ITEMS
from tests.engine.test_clusters import write_clustered


@pytest.fixture
def runs(tmp_path: Path) -> dict[str, assay.Run]:
    gold, pred = write_clustered(tmp_path, 20, 6)
    rows = [json.loads(line) for line in pred.read_text().splitlines()]
    for k, row in enumerate(rows[::3]):  # another system: a third of its answers flipped
        row["predicted"] = "yes" if row["predicted"] == "no" or k % 2 else "no"
    other = tmp_path / "other.jsonl"
    other.write_text("".join(json.dumps(r) + "\n" for r in rows), encoding="utf-8")
    score = assay.score
    return {
        "a": score("classification", pred=pred, gold=gold, cluster_by="contract", name="a"),
        "b": score("classification", pred=other, gold=gold, cluster_by="contract", name="b"),
        "iid": score("classification", pred=other, gold=gold, name="iid"),
    }


def test_shared_units_are_the_clusters_of_the_shared_ids(runs: dict[str, assay.Run]) -> None:
    shared = runs["a"].stats["ids"][5:40]
    units = shared_units(runs["a"], runs["b"], shared)
    assert units.by == "contract" and units.labels is not None and len(units.labels) == 35
    assert units.labels[0] == "K0" and units.labels[-1] == "K6"
    assert shared_units(runs["iid"], runs["iid"], shared) == ITEMS


def test_paired_tests_resample_clusters(runs: dict[str, assay.Run]) -> None:
    pair = compare_pair(runs["a"], runs["b"])
    tested = {s.metric_name: s for s in pair.significance}
    assert tested["exact_match"].unit == "contract"
    assert tested["exact_match"].n_units == 20


def test_different_cluster_settings_are_refused_naming_both(runs: dict[str, assay.Run]) -> None:
    a, iid = runs["a"], runs["iid"]
    with pytest.raises(UsageError, match="runs differ in cluster settings") as err:
        compare_pair(a, iid)
    text = str(err.value)
    assert f"a (run {a.run_id}) resamples clusters by 'contract'" in text
    assert f"iid (run {iid.run_id}) resamples items (no clusters)" in text
    assert "--cluster-by" in text


def test_different_labels_on_shared_ids_are_refused(runs: dict[str, assay.Run]) -> None:
    b = runs["b"].model_copy(deep=True)
    b.stats["clusters"] = ["X", *list(b.stats["clusters"][1:])]
    with pytest.raises(UsageError, match=r"'c000-00' is in 'K0' in a .* and in 'X' in b"):
        compare_pair(runs["a"], b)


def test_gate_uses_the_same_units_and_refusal(runs: dict[str, assay.Run]) -> None:
    result = gate(runs["a"], baseline=runs["b"])
    assert result.n_shared == 120
    with pytest.raises(UsageError, match="runs differ in cluster settings"):
        gate(runs["a"], baseline=runs["iid"])
