"""assay.compare: metrics side by side, paired tests on shared ids, the edge cases of seed 001."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

import assay
from assay._compare import compare
from assay._engine.run import LazyItems, Run
from assay.errors import UsageError
from assay.suites.classification.examples import write_classification_demo
from tests.conftest import write_jsonl

FIELDS = {
    "metric_name",
    "system_a_score",
    "system_b_score",
    "delta",
    "p_value",
    "n_bootstrap",
    "confidence_level",
    "significant",
    "winner",
    "ci_lower",
    "ci_upper",
    "method",
    "seed",
    "unit",
    "n_units",
    "se",
    "mde",
    "min_p",
    "p_adjusted",
    "correction",
    "family",
    "higher_is_better",
}


@pytest.fixture(scope="module")
def demo_runs(tmp_path_factory: pytest.TempPathFactory) -> tuple[Run, Run]:
    files = write_classification_demo(tmp_path_factory.mktemp("demo"), n_items=300)
    base = assay.score(
        "classification",
        pred=files.baseline,
        gold=files.gold,
        ci=False,
        name="baseline",
        expected_ids=files.expected_ids,
    )
    cand = assay.score(
        "classification",
        pred=files.candidate,
        gold=files.gold,
        ci=False,
        name="candidate",
        expected_ids=files.expected_ids,
    )
    return base, cand


def test_two_runs(demo_runs: tuple[Run, Run]) -> None:
    base, cand = demo_runs
    cmp = compare(cand, base, significance=True, family="all")
    assert len(cmp.pairs) == 1
    pair = next(iter(cmp.pairs.values()))
    assert pair.same_surface and pair.n_shared == 300
    names = [s.metric_name for s in cmp.significance]
    assert "exact_match" in names and "macro_accuracy" in names and "accuracy[memo]" in names
    for s in cmp.significance:
        assert set(s.to_json()) == FIELDS
        assert s.seed == 12345 and s.n_bootstrap == 1000
        assert s.confidence_level == pytest.approx(0.95)
        # the two-sided p agrees with the CI of the delta
        assert (s.p_value < 0.05) == (s.ci_lower > 0 or s.ci_upper < 0)  # type: ignore[operator]
    em = next(s for s in cmp.significance if s.metric_name == "exact_match")
    assert em.delta == pytest.approx(
        cand.metrics["exact_match"].value - base.metrics["exact_match"].value
    )  # type: ignore[operator]
    data = cmp.to_json()
    assert isinstance(data["significance"], list) and data["significance"][0]["metric_name"]
    json.dumps(data)


def test_identical_runs_p_one(demo_runs: tuple[Run, Run]) -> None:
    base, _ = demo_runs
    for method in ("bootstrap", "ar"):
        cmp = compare(base, base.model_copy(update={"run_id": "other"}), method=method)  # type: ignore[arg-type]
        assert all(s.p_value == 1.0 and not s.significant for s in cmp.significance)


def test_deterministic(demo_runs: tuple[Run, Run]) -> None:
    base, cand = demo_runs
    one = compare(cand, base).to_json()
    two = compare(cand, base).to_json()
    assert one == two
    other = compare(cand, base, seed=1).to_json()
    assert other["significance"] != one["significance"]


def test_three_runs_all_pairs(demo_runs: tuple[Run, Run]) -> None:
    base, cand = demo_runs
    third = cand.model_copy(update={"run_id": "third"})
    cmp = compare(base, cand, third, n_bootstrap=200)
    assert set(cmp.pairs) == {
        f"({base.run_id}, {cand.run_id})",
        f"({base.run_id}, third)",
        f"({cand.run_id}, third)",
    }
    assert cmp.significance == []
    assert set(cmp.to_json()["pairs"]) == set(cmp.pairs)


def _run(tmp_path: Path, name: str, gold: dict[str, str], pred: dict[str, str]) -> Run:
    g = write_jsonl(
        tmp_path / f"{name}-g.jsonl", [{"id": k, "expected": v} for k, v in gold.items()]
    )
    p = write_jsonl(
        tmp_path / f"{name}-p.jsonl", [{"id": k, "predicted": v} for k, v in pred.items()]
    )
    return assay.score("classification", pred=p, gold=g, ci=False, name=name)


def test_mismatched_ids_use_intersection(tmp_path: Path) -> None:
    gold = {str(i): "a" if i % 2 else "b" for i in range(30)}
    a = _run(tmp_path, "a", gold, {k: "a" for k in gold})
    gold_b = {k: v for k, v in gold.items() if k not in ("0", "1")}
    b = _run(tmp_path, "b", gold_b, {k: "b" for k in gold_b})
    cmp = compare(a, b)
    pair = next(iter(cmp.pairs.values()))
    assert pair.n_shared == 28 and pair.only_a == ["0", "1"] and not pair.same_surface
    assert any("28 shared ids" in w for w in cmp.warnings)


def test_gold_mismatch_is_an_error_unless_allowed(tmp_path: Path) -> None:
    gold = {str(i): "a" for i in range(12)}
    a = _run(tmp_path, "a", gold, gold)
    b = _run(tmp_path, "b", {**gold, "3": "b"}, gold)
    with pytest.raises(UsageError, match="gold differs"):
        compare(a, b)
    cmp = compare(a, b, allow_gold_mismatch=True)
    assert any("gold differs" in w for w in cmp.warnings)


def test_no_shared_items_and_small_n(tmp_path: Path) -> None:
    a = _run(tmp_path, "a", {"1": "a", "2": "b"}, {"1": "a", "2": "a"})
    b = _run(tmp_path, "b", {"3": "a"}, {"3": "a"})
    cmp = compare(a, b)
    assert all(s.p_value == 1.0 and s.delta is None for s in cmp.significance)
    assert any("no shared items" in w for w in cmp.warnings)
    c = _run(tmp_path, "c", {"1": "a", "2": "b"}, {"1": "b", "2": "b"})
    assert any("unreliable" in w for w in compare(a, c).warnings)


def test_different_tasks_refused(demo_runs: tuple[Run, Run]) -> None:
    base, cand = demo_runs
    with pytest.raises(UsageError, match="different tasks"):
        compare(base, cand.model_copy(update={"task": "translation"}))
    with pytest.raises(UsageError, match="at least two"):
        compare(base)


def test_sacrebleu_rule_calls_identical_significant(demo_runs: tuple[Run, Run]) -> None:
    base, _ = demo_runs
    twin = base.model_copy(update={"run_id": "twin"})
    cmp = compare(base, twin, p_value="sacrebleu")
    assert all(s.p_value == pytest.approx(1 / 1001) for s in cmp.significance)


def test_class_with_only_failed_rows_is_still_compared(tmp_path: Path) -> None:
    gold = {str(i): ("a" if i < 10 else "b") for i in range(20)}
    a = _run(tmp_path, "a", gold, gold)
    b = _run(tmp_path, "b", gold, {k: ("ERROR: x" if v == "b" else v) for k, v in gold.items()})
    tested = {s.metric_name for s in compare(a, b, family="all").significance}
    assert {"macro_accuracy", "accuracy[a]", "accuracy[b]"} <= tested
    # every row of class b failed: a miss each (the README), so 0.0; undefined only over usable
    # rows, seed 000 §2's diagnostic
    assert b.metrics["accuracy[b]"].value == 0.0
    assert b.metrics["macro_accuracy_usable"].value == 1.0


def _lazy(run: Run, path: Path) -> Run:
    return Run.load(run.save(path), lazy_items=True)


def test_lazy_runs_on_one_surface_compare_without_reading_their_records(
    demo_runs: tuple[Run, Run], tmp_path: Path
) -> None:
    base, cand = demo_runs
    a, b = _lazy(cand, tmp_path / "a.json"), _lazy(base, tmp_path / "b.json")
    got = compare(a, b, n_bootstrap=200).to_json()
    assert got == compare(cand, base, n_bootstrap=200).to_json()
    assert isinstance(a.items, LazyItems) and isinstance(b.items, LazyItems)
    assert a.items._keys is None and b.items._keys is None  # the fingerprint said it all


@pytest.mark.parametrize("ids_b", ["same", "fewer"])
def test_lazy_runs_on_other_surfaces_read_their_gold_digests(tmp_path: Path, ids_b: str) -> None:
    gold = {str(i): "a" for i in range(12)}
    gold_b = {**gold, "3": "b"} if ids_b == "same" else {k: gold[k] for k in list(gold)[2:]}
    runs = [_run(tmp_path, "a", gold, gold), _run(tmp_path, "b", gold_b, gold)]
    a, b = (_lazy(r, tmp_path / f"{r.name}.json") for r in runs)
    if ids_b == "same":
        with pytest.raises(UsageError, match=r"gold differs .* 1 shared id\(s\) \(3\)"):
            compare(a, b)
    expected = compare(*runs, allow_gold_mismatch=True).to_json()
    assert compare(a, b, allow_gold_mismatch=True).to_json() == expected
    assert isinstance(a.items, LazyItems) and a.items._keys is not None
