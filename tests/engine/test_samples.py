"""k samples per item (``score(samples=True)``): pairing, the mean row, pass@k, the within-item
variance share, failures and refusals."""

from __future__ import annotations

import math
from pathlib import Path

import numpy as np
import pytest

import assay
from assay._engine.cohort import SampleKey, build_cohort
from assay._engine.samples import _within_share
from assay._io.records import ParseFailure, SourceRecord
from assay.errors import ConfigError
from tests.conftest import write_jsonl

GOLD = [{"id": f"d{i}", "expected": "a" if i % 2 else "b"} for i in range(40)]


def _samples(pattern: dict[int, list[bool]], *, field: str | None = "sample") -> list[dict]:
    """Predictions of each item: right or wrong per sample, in reverse sample order."""
    rows = []
    for i, rights in pattern.items():
        gold = GOLD[i]["expected"]
        for s, right in reversed(list(enumerate(rights))):
            row = {"id": f"d{i}", "predicted": gold if right else "zzz"}
            if field:
                row[field] = s
            rows.append(row)
    return rows


def _pattern(seed: int = 3, k: int = 4) -> dict[int, list[bool]]:
    rng = np.random.default_rng(seed)
    p = rng.uniform(0.1, 0.9, len(GOLD))
    return {i: list(rng.uniform(size=k) < p[i]) for i in range(len(GOLD))}


def _src(rec: dict, line: int) -> SourceRecord:
    return SourceRecord(record=rec, file="p.jsonl", line=line, id=rec.get("id"))


# ----------------------------------------------------------------------------- pairing


def test_cohort_pairs_samples_in_sample_order_and_lists_repeated_sample_indexes() -> None:
    gold = [_src({"id": "x", "expected": "a"}, 1), _src({"id": "y", "expected": "b"}, 2)]
    preds = [
        _src({"id": "x", "epoch": 2, "predicted": "b"}, 1),
        _src({"id": "x", "epoch": 1, "predicted": "a"}, 2),
        _src({"id": "x", "epoch": 10, "predicted": "c"}, 3),
        _src({"id": "x", "epoch": 1, "predicted": "z"}, 4),  # the same sample again
    ]
    cohort = build_cohort(preds, gold, samples=SampleKey())
    x, y = cohort.items
    assert cohort.sample_field == "epoch"
    assert x.samples is not None and [s.pred["predicted"] for s in x.samples] == ["a", "b", "c"]
    assert x.pred == x.samples[0].pred and x.status == "ok"
    assert y.status == "missing" and y.samples is None
    assert [d.reason for d in cohort.duplicates] == ["duplicate sample '1' of id 'x'"]
    assert not cohort.warnings


def test_unreadable_samples_are_failed_samples_and_all_failed_is_a_failed_item() -> None:
    gold = [_src({"id": "x", "expected": "a"}, 1), _src({"id": "y", "expected": "b"}, 2)]
    preds = [
        ParseFailure(file="p.jsonl", line=1, reason="bad JSON", id="x"),
        _src({"id": "x", "predicted": "a"}, 2),
        ParseFailure(file="p.jsonl", line=3, reason="bad JSON", id="y"),
        ParseFailure(file="p.jsonl", line=4, reason="bad JSON", id="y"),
    ]
    x, y = build_cohort(preds, gold, samples=SampleKey()).items
    assert x.status == "ok" and x.samples is not None
    assert [s.status for s in x.samples] == ["ok", "failed"]
    assert y.status == "failed" and y.samples is not None and len(y.samples) == 2
    assert y.error == "bad JSON"


def test_a_named_field_missing_from_a_record_is_listed() -> None:
    gold = [_src({"id": "x", "expected": "a"}, 1)]
    preds = [_src({"id": "x", "s": 0, "predicted": "a"}, 1), _src({"id": "x", "predicted": "a"}, 2)]
    cohort = build_cohort(preds, gold, samples=SampleKey("s"))
    assert cohort.items[0].samples is not None and len(cohort.items[0].samples) == 1
    assert cohort.duplicates[0].reason == "prediction has no sample index in field 's'"
    assert cohort.duplicates[0].where == "p.jsonl:2"


def test_repeated_ids_without_samples_stay_duplicates_with_a_warning_naming_the_option() -> None:
    run = assay.score("classification", predictions=_samples({0: [True, False]}), gold=GOLD[:1])
    assert run.cohort.evaluated == 1 and len(run.cohort.duplicates) == 1
    assert "samples" not in run.summaries
    assert any("--samples" in w and "duplicates" in w for w in run.warnings)


# ----------------------------------------------------------------------------- the mean row


def test_each_item_row_is_the_mean_over_its_samples_and_the_item_is_the_unit() -> None:
    pattern = _pattern()
    run = assay.score(
        "classification", predictions=_samples(pattern), gold=GOLD, samples=True, seed=7
    )
    per_item = [float(np.mean(r)) for r in pattern.values()]
    assert run.metrics["exact_match"].value == pytest.approx(np.mean(per_item))
    assert run.metrics["exact_match"].n == len(GOLD) == len(run.table())
    # the CI resamples the per-item means, exactly as a one-prediction run of those means would
    table = run.table()
    col = table.columns.index("exact_match")
    assert table.values[:, col] == pytest.approx(per_item)
    record = run.items[0]
    assert record.details["samples"] == 4 and len(record.details["sample_scores"]) == 4
    assert record.scores["exact_match"] == pytest.approx(per_item[0])
    assert run.summaries["samples"]["counts"] == {"4": len(GOLD)}
    assert "|k:4|" in run.signature and run.settings["samples"]["field"] is None


def test_pass_at_k_is_the_mean_of_per_item_unbiased_estimates() -> None:
    pattern = _pattern(seed=5, k=5)
    run = assay.score(
        "classification", predictions=_samples(pattern), gold=GOLD, samples=True, ci=False
    )
    assert set(run.summaries["samples"]["pass_at"]) == {1, 5}
    for k in (1, 5):
        want = np.mean([1 - math.comb(5 - sum(r), k) / math.comb(5, k) for r in pattern.values()])
        assert run.metrics[f"pass@{k}"].value == pytest.approx(want)
    assert run.metrics["pass@1"].value == pytest.approx(run.metrics["exact_match"].value)
    asked = assay.score(
        "classification", predictions=_samples(pattern), gold=GOLD, samples=True, pass_at=[2, 3]
    )
    assert [m for m in asked.metrics if m.startswith("pass@")] == ["pass@2", "pass@3"]
    assert asked.metrics["pass@3"].ci_lower is not None  # a per-item mean: it has a CI


def test_within_item_variance_share_is_within_ss_over_total_ss() -> None:
    pattern = _pattern(seed=11)
    run = assay.score("classification", predictions=_samples(pattern), gold=GOLD, samples=True)
    x = np.array([float(v) for r in pattern.values() for v in r])
    means = np.repeat([np.mean(r) for r in pattern.values()], 4)
    want = np.sum((x - means) ** 2) / np.sum((x - x.mean()) ** 2)
    share = run.summaries["samples"]["within_item_variance_share"]["exact_match"]
    assert share == pytest.approx(want)
    # equal sample counts: the same as E_items[Var_within] / Var_total
    within = np.mean([np.var(np.asarray(r, dtype=float)) for r in pattern.values()])
    assert share == pytest.approx(within / np.var(x))


def test_within_share_edges() -> None:
    assert _within_share(np.array([1.0, 1.0, 0.0, 0.0]), np.array([0, 0, 1, 1])) == 0.0
    assert _within_share(np.array([1.0, 0.0, 1.0, 0.0]), np.array([0, 0, 1, 1])) == 1.0
    assert _within_share(np.array([1.0, 0.0]), np.array([0, 1])) is None  # one sample each
    assert _within_share(np.array([1.0, 1.0]), np.array([0, 0])) is None  # no variance


def test_items_with_different_sample_counts_and_failures(tmp_path: Path) -> None:
    """Each item's mean over its own samples; the count distribution reported; a failed
    sample scored as a miss; an item with only failed samples failed and in the denominator."""
    pattern = {0: [True, True, False], 1: [True], 2: [False, True]}
    rows = _samples(pattern)
    path = tmp_path / "p.jsonl"
    write_jsonl(path, rows)
    with path.open("a") as fh:
        fh.write('{"id": "d1", "sample": 1, "predicted": NaN}\n')  # unreadable sample of d1
        fh.write('{"id": "d3", "sample": 0, "predicted": NaN}\n')  # d3's only sample
    gold = write_jsonl(tmp_path / "g.jsonl", GOLD[:5])
    run = assay.score("classification", pred=path, gold=gold, samples=True, pass_at=[1, 3])
    s = run.summaries["samples"]
    assert s["counts"] == {"0": 1, "1": 1, "2": 2, "3": 1}
    assert (s["min"], s["max"], s["items"], s["samples"]) == (1, 3, 4, 8)
    assert run.cohort.failed == 1 and run.cohort.missing == 1 and run.cohort.attempted == 5
    # d0 2/3, d1 1/2 (its failed sample a miss), d2 1/2, d3 0 (failed), d4 0 (missing)
    assert run.metrics["exact_match"].value == pytest.approx((2 / 3 + 0.5 + 0.5) / 5)
    assert run.metrics["pass@3"].n == 3  # d1 and d2 have fewer than 3 samples
    assert run.metrics["pass@3"].value == pytest.approx(1 / 3)
    assert any("pass@3 is undefined for 2 item(s)" in w for w in run.warnings)
    assert any("1 to 3 samples" in w for w in run.warnings)
    assert "|k:1-3|" in run.signature


def test_repeated_ids_without_a_field_are_samples_in_file_order() -> None:
    rows = _samples({0: [True, False, False]}, field=None)
    run = assay.score("classification", predictions=rows, gold=GOLD[:1], samples=True)
    assert run.summaries["samples"]["field"] is None
    assert run.items[0].details["sample_scores"] == [
        {"exact_match": 0.0},
        {"exact_match": 0.0},
        {"exact_match": 1.0},
    ]


def test_suite_summaries_count_every_sample() -> None:
    run = assay.score(
        "classification",
        predictions=_samples({0: [True, False, True]}),
        gold=GOLD[:1],
        samples=True,
    )
    assert run.summaries["per_class"]["b"]["n"] == 3


def test_the_run_settings_turn_samples_on(tmp_path: Path) -> None:
    from assay._settings import load_settings

    config = tmp_path / "assay.yaml"
    config.write_text("run:\n  sample_field: sample\n  pass_at: [2]\n")
    run = assay.score(
        "classification",
        predictions=_samples({0: [True, False]}),
        gold=GOLD[:1],
        settings=load_settings(config),
    )
    assert run.summaries["samples"]["field"] == "sample"
    assert "pass@2" in run.metrics and "pass@1" not in run.metrics


def test_refusals_are_named() -> None:
    rows = _samples({0: [True, False]})
    with pytest.raises(ConfigError, match="--pass-at needs --samples"):
        assay.score("classification", predictions=rows, gold=GOLD[:1], pass_at=[2])
    with pytest.raises(ConfigError, match=r"in memory only.*--no-spill"):
        assay.score("classification", predictions=rows, gold=GOLD[:1], samples=True, spill=True)


def test_samples_scored_on_a_pool_equal_samples_scored_here() -> None:
    rows = _samples(_pattern(seed=2))
    here = assay.score("classification", predictions=rows, gold=GOLD, samples=True)
    pool = assay.score(
        "classification", predictions=rows, gold=GOLD, samples=True, jobs=2, executor="thread"
    )
    assert pool.to_json().replace(pool.generated_at, "") == here.to_json().replace(
        here.generated_at, ""
    )
