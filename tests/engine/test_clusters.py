"""Clusters end to end in a run: labels from a field or a file, the cluster bootstrap CI over
the collapsed table (widened for few clusters), design effects, the artifact's round trip,
old artifacts as iid, the signature, refusals, and the same run in memory, out of core and
on Dask."""

from __future__ import annotations

import itertools
import json
import random
from pathlib import Path
from typing import Any

import numpy as np
import pytest

import assay
from assay._engine.run import Run
from assay.errors import InputError, UsageError
from assay.stats.bootstrap import bootstrap_distributions
from assay.stats.intervals import percentile_interval
from assay.stats.units import ITEMS, collapse, few_units_factor, widen


def write_clustered(
    folder: Path, n_clusters: int = 40, per: int = 15, *, seed: int = 1, field: str = "contract"
) -> tuple[Path, Path]:
    """Classification gold and predictions whose correctness varies by cluster (a skill per
    cluster): the design effect is well above 1."""
    rng = random.Random(seed)
    gold, pred = [], []
    for c in range(n_clusters):
        skill = rng.random()
        for k in range(per):
            item_id = f"c{c:03d}-{k:02d}"
            label = rng.choice(["yes", "no"])
            right = rng.random() < skill
            gold.append({"id": item_id, field: f"K{c}", "expected": label})
            other = "no" if label == "yes" else "yes"
            pred.append({"id": item_id, "predicted": label if right else other})
    g, p = folder / "gold.jsonl", folder / "pred.jsonl"
    g.write_text("".join(json.dumps(r) + "\n" for r in gold), encoding="utf-8")
    p.write_text("".join(json.dumps(r) + "\n" for r in pred), encoding="utf-8")
    return g, p


@pytest.fixture
def data(tmp_path: Path) -> tuple[Path, Path]:
    return write_clustered(tmp_path)


def _body(run: Run) -> dict[str, Any]:
    body: dict[str, Any] = json.loads(run.to_json())
    body.pop("generated_at")
    return body


def test_cluster_ci_is_the_percentile_ci_of_the_collapsed_table(data: tuple[Path, Path]) -> None:
    gold, pred = data
    run = assay.score("classification", pred=pred, gold=gold, cluster_by="contract", seed=7)
    table, specs = run.table(), run.metric_specs()
    units = run.table_units()
    assert units.by == "contract" and units.labels is not None
    collapsed = collapse(table, units.labels)
    assert len(collapsed) == 40
    dists = bootstrap_distributions(collapsed, specs, n_resamples=1000, seed=7)
    m = run.metrics["exact_match"]
    interval = percentile_interval(dists["exact_match"], 0.05)
    assert m.value is not None
    lo, hi = widen(interval.lower, interval.upper, m.value, few_units_factor(40))
    assert (m.ci_lower, m.ci_upper) == pytest.approx((lo, hi), abs=1e-12)
    assert m.n == 600 and m.n_units == 40 and m.unit == "contract"
    assert m.ci_method == "cluster_percentile_bootstrap"
    assert m.design_effect is not None and m.design_effect > 2


def test_point_values_do_not_change_and_cis_widen_by_about_root_deff(
    data: tuple[Path, Path],
) -> None:
    gold, pred = data
    iid = assay.score("classification", pred=pred, gold=gold)
    clustered = assay.score("classification", pred=pred, gold=gold, cluster_by="contract")
    a, b = iid.metrics["exact_match"], clustered.metrics["exact_match"]
    assert a.value == b.value
    assert a.design_effect is None and a.n_units is None and a.unit is None
    assert None not in (a.ci_lower, a.ci_upper, b.ci_lower, b.ci_upper, b.design_effect)
    ratio = (b.ci_upper - b.ci_lower) / (a.ci_upper - a.ci_lower)  # type: ignore[operator]
    expected = np.sqrt(b.design_effect) * few_units_factor(40)  # type: ignore[arg-type]
    assert ratio == pytest.approx(expected, rel=0.25)


def test_artifact_round_trip_and_signature(data: tuple[Path, Path], tmp_path: Path) -> None:
    gold, pred = data
    run = assay.score("classification", pred=pred, gold=gold, cluster_by="contract")
    assert run.units is not None
    assert (run.units.by, run.units.source, run.units.n_clusters) == ("contract", "cluster_by", 40)
    assert "|cl:contract|" in run.signature
    assert run.settings["stats"]["cluster_by"] == "contract"
    path = run.save(tmp_path / "run.json")
    back = Run.load(path)
    assert back.units == run.units
    assert back.table_units() == run.table_units()
    assert back.stats["clusters"][:2] == ["K0", "K0"]
    assert back.metrics == run.metrics
    assert Run.load(path, lazy_items=True).table_units() == run.table_units()


def test_iid_run_is_unchanged_by_the_feature(data: tuple[Path, Path]) -> None:
    gold, pred = data
    run = assay.score("classification", pred=pred, gold=gold)
    text = run.to_json()
    assert '"units"' not in text and '"clusters"' not in text and "design_effect" not in text
    assert "|cl:" not in run.signature and "cluster_by" not in run.settings["stats"]
    assert "cluster_by" not in run.settings["classification"]
    assert run.table_units() == ITEMS


def test_old_artifact_without_clusters_loads_as_iid(
    data: tuple[Path, Path], tmp_path: Path
) -> None:
    gold, pred = data
    run = assay.score("classification", pred=pred, gold=gold, cluster_by="contract")
    body = json.loads(run.to_json())
    del body["units"], body["stats"]["clusters"]
    for m in body["metrics"].values():
        for key in ("design_effect", "n_units", "unit"):
            m.pop(key, None)
    path = tmp_path / "old.json"
    path.write_text(json.dumps(body), encoding="utf-8")
    old = Run.load(path)
    assert old.units is None and old.table_units() == ITEMS
    assert old.metrics["exact_match"].design_effect is None


def test_tampered_cluster_labels_are_refused(data: tuple[Path, Path], tmp_path: Path) -> None:
    gold, pred = data
    run = assay.score("classification", pred=pred, gold=gold, cluster_by="contract")
    body = json.loads(run.to_json())
    body["stats"]["clusters"] = body["stats"]["clusters"][:-1]
    path = tmp_path / "bad.json"
    path.write_text(json.dumps(body), encoding="utf-8")
    with pytest.raises(InputError, match=r"bad\.json.*stats\.clusters"):
        Run.load(path)


def test_cluster_map_file_equals_the_field(data: tuple[Path, Path], tmp_path: Path) -> None:
    gold, pred = data
    by_field = assay.score("classification", pred=pred, gold=gold, cluster_by="contract")
    mapping = {
        json.loads(line)["id"]: json.loads(line)["contract"]
        for line in gold.read_text().splitlines()
    }
    (tmp_path / "map.json").write_text(json.dumps(mapping), encoding="utf-8")
    by_file = assay.score(
        "classification",
        pred=pred,
        gold=gold,
        clusters=tmp_path / "map.json",
        cluster_by="contract",
    )
    assert by_file.metrics == by_field.metrics
    assert by_file.units is not None and by_file.units.source.startswith("file ")
    assert "clusters_sha256" in by_file.settings["stats"]
    unnamed = assay.score("classification", pred=pred, gold=gold, clusters=tmp_path / "map.json")
    assert unnamed.units is not None and unnamed.units.by == "cluster"


def test_cluster_map_missing_an_id_names_the_file(data: tuple[Path, Path], tmp_path: Path) -> None:
    gold, pred = data
    (tmp_path / "map.json").write_text('{"c000-00": "K0"}', encoding="utf-8")
    with pytest.raises(InputError, match=r"map\.json: no cluster for 599 of 600"):
        assay.score("classification", pred=pred, gold=gold, clusters=tmp_path / "map.json")


def test_missing_field_names_the_gold_file_item_and_field(tmp_path: Path) -> None:
    gold, pred = write_clustered(tmp_path, 3, 2)
    lines = gold.read_text().splitlines()
    record = json.loads(lines[3])
    del record["contract"]
    lines[3] = json.dumps(record)
    gold.write_text("\n".join(lines) + "\n", encoding="utf-8")
    with pytest.raises(InputError, match=r"gold\.jsonl: item 'c001-01' has no field 'contract'"):
        assay.score("classification", pred=pred, gold=gold, cluster_by="contract")


def test_a_field_absent_everywhere_is_an_error(data: tuple[Path, Path]) -> None:
    gold, pred = data
    with pytest.raises(InputError, match="has no field 'document'"):
        assay.score("classification", pred=pred, gold=gold, cluster_by="document")


def test_a_field_of_the_prediction_record_and_a_nested_path(tmp_path: Path) -> None:
    gold, pred = write_clustered(tmp_path, 5, 4, field="unused")
    rows = [json.loads(line) for line in pred.read_text().splitlines()]
    for row in rows:
        row["meta"] = {"doc": row["id"][:4]}
    pred.write_text("".join(json.dumps(r) + "\n" for r in rows), encoding="utf-8")
    run = assay.score("classification", pred=pred, gold=gold, cluster_by="meta.doc")
    assert run.units is not None and run.units.n_clusters == 5
    assert "|cl:meta.doc|" in run.signature


def test_few_clusters_warn_and_widen(tmp_path: Path) -> None:
    gold, pred = write_clustered(tmp_path, 8, 10)
    run = assay.score("classification", pred=pred, gold=gold, cluster_by="contract")
    (warning,) = [w for w in run.warnings if "clusters (contract)" in w]
    assert "only 8 clusters" in warning and "poor coverage below 30" in warning
    assert "exact or randomization test" in warning
    assert f"×{few_units_factor(8):.2f}" in warning


def test_item_turns_clustering_off(data: tuple[Path, Path]) -> None:
    gold, pred = data
    run = assay.score("classification", pred=pred, gold=gold, cluster_by="item")
    assert run.units is None and run.table_units() == ITEMS


def test_bad_path_is_a_usage_error(data: tuple[Path, Path]) -> None:
    gold, pred = data
    with pytest.raises(UsageError, match=r"cluster_by 'a\.\.b'"):
        assay.score("classification", pred=pred, gold=gold, cluster_by="a..b")


@pytest.mark.parametrize("resampling", ["multinomial", "poisson"])
def test_out_of_core_equals_in_memory(data: tuple[Path, Path], resampling: str) -> None:
    gold, pred = data
    common: dict[str, Any] = {"pred": pred, "gold": gold, "cluster_by": "contract"}
    memory = assay.score("classification", spill=False, resampling=resampling, **common)
    spilled = assay.score("classification", spill=True, resampling=resampling, **common)
    assert _body(spilled) == _body(memory)


def test_poisson_cluster_weights_are_the_poisson_bootstrap_of_the_cluster_sums(
    data: tuple[Path, Path],
) -> None:
    """Keying each item's Poisson weight by its cluster label (what the Dask workers do per
    partition) gives the Poisson bootstrap of the collapsed table, whatever the split."""
    from assay._engine.dask import summed_replicates
    from assay.stats.poisson import item_keys, poisson_replicate_sums

    gold, pred = data
    run = assay.score("classification", pred=pred, gold=gold, cluster_by="contract")
    table, labels = run.table(), run.table_units().labels
    assert labels is not None
    cuts = [0, 7, 250, 251, 600]  # partitions that split clusters
    parts = [
        (table.columns, poisson_replicate_sums(item_keys(labels[a:b]), table.values[a:b], 200, 3))
        for a, b in itertools.pairwise(cuts)
    ]
    _, summed = summed_replicates(parts, 200)
    collapsed = collapse(table, labels)
    whole = poisson_replicate_sums(item_keys(collapsed.ids), collapsed.values, 200, 3)
    np.testing.assert_allclose(summed, whole, rtol=1e-12, atol=1e-9)
