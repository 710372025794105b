"""Paired significance tests: seed 001's checklist, p-value rules, alignment, the generic path."""

from __future__ import annotations

import dataclasses
import math

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from hypothesis.extra import numpy as hnp
from sacrebleu.significance import _compute_p_value

from assay.errors import UsageError
from assay.metrics import (
    StatsTable,
    fbeta_metric,
    mean_columns,
    mean_metric,
    precision_metric,
    ratio_metric,
)
from assay.stats import (
    DEFAULT_N_TRIALS,
    SignificanceResult,
    approximate_randomization_test,
    paired_bootstrap_deltas,
    paired_bootstrap_generic,
    paired_bootstrap_test,
    paired_test,
    randomization_p,
    sacrebleu_bootstrap_p,
    two_sided_sign_p,
)

SETTINGS = settings(max_examples=60, deadline=None, derandomize=True)
ACC = mean_metric("accuracy", "correct")
B = 1000


def _scores_table(scores: np.ndarray | list[float], prefix: str = "i") -> StatsTable:
    return StatsTable.from_rows(
        [f"{prefix}{i}" for i in range(len(scores))],
        [mean_columns("correct", float(v)) for v in scores],
    )


def _pair(seed: int = 0, n: int = 120, p_a: float = 0.7, p_b: float = 0.65):
    rng = np.random.default_rng(seed)
    return (
        _scores_table((rng.random(n) < p_a).astype(float)),
        _scores_table((rng.random(n) < p_b).astype(float)),
    )


# ---------------------------------------------------------------- the result record


def test_significance_result_has_seed_001s_fields_first() -> None:
    """Seed 001's 13 fields, in its order, then assay's (the unit, SE, MDE, smallest p and the
    family's adjusted p): a deliberate extension; a caller reading seed 001's fields sees them."""
    names = [f.name for f in dataclasses.fields(SignificanceResult)]
    assert names[:13] == [
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
    ]
    assert names[13:] == [
        "unit",
        "n_units",
        "se",
        "mde",
        "min_p",
        "p_adjusted",
        "correction",
        "family",
        "higher_is_better",
    ]
    (result,) = paired_bootstrap_test(*_pair(), [ACC], n_resamples=100)
    assert list(result.to_json()) == names


def test_result_values_are_consistent() -> None:
    table_a, table_b = _pair(seed=1)
    (r,) = paired_bootstrap_test(table_a, table_b, [ACC], n_resamples=B, seed=12345)
    assert r.metric_name == "accuracy"
    assert r.system_a_score == pytest.approx(ACC.value(table_a))
    assert r.system_b_score == pytest.approx(ACC.value(table_b))
    assert r.delta == pytest.approx(r.system_a_score - r.system_b_score)
    assert r.n_bootstrap == B and r.seed == 12345 and r.method == "paired_bootstrap"
    assert r.confidence_level == pytest.approx(0.95)
    assert r.significant == (r.p_value < 0.05)
    assert r.ci_lower is not None and r.ci_upper is not None
    assert r.ci_lower <= r.delta <= r.ci_upper


@pytest.mark.parametrize(("p", "stars"), [(0.001, "**"), (0.0099, "**"), (0.01, "*"), (0.2, "")])
def test_stars(p: float, stars: str) -> None:
    (r,) = paired_bootstrap_test(*_pair(), [ACC], n_resamples=10)
    assert dataclasses.replace(r, p_value=p).stars == stars


# ---------------------------------------------------------------- seed 001's checklist


@pytest.mark.parametrize("method", ["bootstrap", "ar"])
def test_deterministic_with_a_seed(method: str) -> None:
    table_a, table_b = _pair(seed=2)
    spec = [ACC]
    first = paired_test(table_a, table_b, spec, method=method, n_resamples=500, seed=7)  # type: ignore[arg-type]
    again = paired_test(table_a, table_b, spec, method=method, n_resamples=500, seed=7)  # type: ignore[arg-type]
    other = paired_test(table_a, table_b, spec, method=method, n_resamples=500, seed=8)  # type: ignore[arg-type]
    assert first == again
    assert first[0].seed == 7 and other[0].seed == 8
    assert (first[0].p_value, first[0].ci_lower, first[0].ci_upper) != (
        other[0].p_value,
        other[0].ci_lower,
        other[0].ci_upper,
    )


def test_identical_results_give_p_one_for_both_methods() -> None:
    table, _ = _pair(seed=3)
    copy = StatsTable(table.ids, table.columns, table.values.copy())
    for result in (
        paired_bootstrap_test(table, copy, [ACC], n_resamples=B)[0],
        approximate_randomization_test(table, copy, [ACC], n_trials=B)[0],
    ):
        assert result.p_value == 1.0
        assert result.significant is False
        assert result.winner is None
        assert result.delta == 0.0
        assert (result.ci_lower, result.ci_upper) == (0.0, 0.0)


def test_sacrebleu_rules_call_identical_systems_significant() -> None:
    """sacrebleu's quirk, reproduced on purpose in compatibility mode: with Δ = 0 and every
    Δ* = 0, its strict ``>`` counts nothing, so p = 1/(B+1) — "significant" at any α."""
    table, _ = _pair(seed=3)
    (boot,) = paired_bootstrap_test(table, table, [ACC], n_resamples=B, p_value="sacrebleu")
    assert boot.p_value == 1 / (B + 1)
    assert boot.significant is True
    assert boot.method == "paired_bootstrap_sacrebleu"
    # Δ = 0: no winner even though "significant"
    assert boot.winner is None
    (ar,) = approximate_randomization_test(table, table, [ACC], n_trials=B, p_value="sacrebleu")
    assert ar.p_value == 1 / (B + 1)
    assert ar.method == "approximate_randomization_sacrebleu"


@pytest.mark.parametrize("method", ["bootstrap", "ar"])
def test_clearly_better_system_gets_p_near_zero(method: str) -> None:
    n = 50
    good, bad = _scores_table(np.ones(n)), _scores_table(np.zeros(n))
    (r,) = paired_test(good, bad, [ACC], method=method, n_resamples=B)  # type: ignore[arg-type]
    assert r.p_value <= 2 / (B + 1)
    assert r.significant and r.winner == "A"
    assert r.delta == 1.0
    (r,) = paired_test(bad, good, [ACC], method=method, n_resamples=B)  # type: ignore[arg-type]
    assert r.p_value <= 2 / (B + 1)
    assert r.winner == "B" and r.delta == -1.0


@pytest.mark.parametrize("method", ["bootstrap", "ar"])
def test_winner_follows_higher_is_better(method: str) -> None:
    n = 80
    rng = np.random.default_rng(5)
    # per item: errors out of 4 fields; A makes far fewer errors than B
    total = np.full(n, 4.0)
    err_a = rng.binomial(4, 0.1, n).astype(float)
    err_b = rng.binomial(4, 0.5, n).astype(float)
    ids = tuple(f"d{i}" for i in range(n))
    cols = ("err", "total", "ok")
    table_a = StatsTable(ids, cols, np.column_stack([err_a, total, total - err_a]))
    table_b = StatsTable(ids, cols, np.column_stack([err_b, total, total - err_b]))
    error_rate = ratio_metric("error_rate", "err", "total", higher_is_better=False)
    accuracy = ratio_metric("accuracy", "ok", "total")
    kw = {"method": method, "n_resamples": B}
    by_name = {
        r.metric_name: r for r in paired_test(table_a, table_b, [error_rate, accuracy], **kw)
    }  # type: ignore[arg-type]
    assert by_name["error_rate"].delta < 0 < by_name["accuracy"].delta  # type: ignore[operator]
    assert by_name["error_rate"].winner == "A"
    assert by_name["accuracy"].winner == "A"
    swapped = {
        r.metric_name: r for r in paired_test(table_b, table_a, [error_rate, accuracy], **kw)
    }  # type: ignore[arg-type]
    assert swapped["error_rate"].winner == "B"
    assert swapped["accuracy"].winner == "B"


def test_no_winner_when_not_significant() -> None:
    table_a, table_b = _pair(seed=6, p_a=0.70, p_b=0.69, n=60)
    for r in paired_bootstrap_test(table_a, table_b, [ACC], n_resamples=B):
        assert not r.significant and r.winner is None


def test_misaligned_tables_raise() -> None:
    table_a, table_b = _pair(seed=7, n=10)
    reordered = table_b.take(list(reversed(table_b.ids)))
    other_ids = _scores_table(np.ones(10), prefix="x")
    shorter = table_b.take(list(table_b.ids[:9]))
    for bad in (reordered, other_ids, shorter):
        with pytest.raises(UsageError, match="aligned"):
            paired_bootstrap_test(table_a, bad, [ACC])
        with pytest.raises(UsageError, match="aligned"):
            approximate_randomization_test(table_a, bad, [ACC])
    # aligning with take() is the fix
    (r,) = paired_bootstrap_test(table_a, reordered.take(list(table_a.ids)), [ACC], n_resamples=50)
    assert r.delta == pytest.approx(ACC.value(table_a) - ACC.value(table_b))


def test_empty_tables_raise() -> None:
    empty = StatsTable.empty(ACC.columns)
    with pytest.raises(UsageError, match="at least one"):
        paired_bootstrap_test(empty, empty, [ACC])
    with pytest.raises(UsageError, match="at least one"):
        approximate_randomization_test(empty, empty, [ACC])
    with pytest.raises(UsageError):
        paired_bootstrap_generic([], [], lambda s: 0.0)
    with pytest.raises(UsageError, match="differ in length"):
        paired_bootstrap_generic([1, 2], [1], lambda s: 0.0)


def test_bad_arguments_raise() -> None:
    table_a, table_b = _pair(n=10)
    with pytest.raises(UsageError, match="p_value"):
        paired_bootstrap_test(table_a, table_b, [ACC], p_value="moses")  # type: ignore[arg-type]
    with pytest.raises(UsageError, match="p_value"):
        approximate_randomization_test(table_a, table_b, [ACC], p_value="x")  # type: ignore[arg-type]
    with pytest.raises(UsageError, match="method"):
        paired_test(table_a, table_b, [ACC], method="permutation")  # type: ignore[arg-type]
    with pytest.raises(UsageError, match="alpha"):
        paired_bootstrap_test(table_a, table_b, [ACC], alpha=1.5)


def test_undefined_metric_gives_no_delta_and_no_winner() -> None:
    """Precision of a system that predicted nothing is undefined (0/0): Δ is None, p = 1."""
    ids = tuple(f"i{i}" for i in range(20))
    table_a = StatsTable(ids, ("tp", "fp"), np.tile([1.0, 0.0], (20, 1)))
    table_b = StatsTable(ids, ("tp", "fp"), np.zeros((20, 2)))
    spec = precision_metric("precision", "tp", "fp")
    for r in (
        paired_bootstrap_test(table_a, table_b, [spec], n_resamples=100)[0],
        approximate_randomization_test(table_a, table_b, [spec], n_trials=100)[0],
    ):
        assert r.system_a_score == 1.0 and r.system_b_score is None
        assert r.delta is None
        assert r.p_value == 1.0 and not r.significant and r.winner is None


def test_paired_test_dispatch_and_defaults() -> None:
    table_a, table_b = _pair(seed=8, n=60)
    (boot,) = paired_test(table_a, table_b, [ACC])
    assert boot == paired_bootstrap_test(table_a, table_b, [ACC])[0]
    (small,) = paired_test(*_pair(seed=8, n=40), [ACC])  # below 50 units: AR decides
    assert small.method == "approximate_randomization" and small.n_bootstrap == 10_000
    assert boot.n_bootstrap == 1000 and boot.seed == 12345
    (ar,) = paired_test(table_a, table_b, [ACC], method="ar")
    assert ar.n_bootstrap == DEFAULT_N_TRIALS == 10_000
    assert ar.method == "approximate_randomization"
    assert ar == approximate_randomization_test(table_a, table_b, [ACC])[0]


def test_ar_interval_is_the_paired_bootstrap_interval() -> None:
    table_a, table_b = _pair(seed=9)
    (ar,) = approximate_randomization_test(
        table_a, table_b, [ACC], n_trials=300, n_bootstrap_ci=700, seed=4
    )
    (boot,) = paired_bootstrap_test(table_a, table_b, [ACC], n_resamples=700, seed=4)
    assert (ar.ci_lower, ar.ci_upper) == (boot.ci_lower, boot.ci_upper)
    assert ar.n_bootstrap == 300


def test_bootstrap_deltas_share_the_resamples_of_a_and_b() -> None:
    """Δ* = f(W S_A) − f(W S_B) with one W: recompute it by hand from the seeded draws."""
    table_a, table_b = _pair(seed=10, n=30)
    deltas = paired_bootstrap_deltas(table_a, table_b, [ACC], n_resamples=200, seed=21)[ACC.name]
    idx = np.random.default_rng(21).choice(30, size=(200, 30), replace=True)
    a, b = table_a.column("correct"), table_b.column("correct")
    np.testing.assert_allclose(deltas, a[idx].mean(axis=1) - b[idx].mean(axis=1), atol=1e-12)


# ---------------------------------------------------------------- generic path


def _entries(seed: int, n: int = 90, p: float = 0.6, dyadic: bool = True) -> list[dict]:
    rng = np.random.default_rng(seed)
    raw = rng.random(n)
    scores = np.floor(raw * 4) / 4 if dyadic else raw  # quarters: sums exact in floating point
    return [{"id": f"e{i}", "score": float(s), "error": None} for i, s in enumerate(scores)]


def _mean_score(entries) -> float:
    return sum(e["score"] for e in entries) / len(entries)


@pytest.mark.parametrize("seed", [12345, 1])
def test_generic_path_agrees_with_the_fast_path(seed: int) -> None:
    entries_a, entries_b = _entries(11), _entries(12)
    generic = paired_bootstrap_generic(
        entries_a, entries_b, _mean_score, n_resamples=B, seed=seed, metric_name="accuracy"
    )
    table_a = _scores_table([e["score"] for e in entries_a])
    table_b = _scores_table([e["score"] for e in entries_b])
    (fast,) = paired_bootstrap_test(table_a, table_b, [ACC], n_resamples=B, seed=seed)
    assert generic.method == "paired_bootstrap_generic"
    # quarter scores: every sum and mean is exact, so the two paths agree to the last bit
    assert dataclasses.replace(generic, method=fast.method) == fast


def test_generic_path_agrees_with_the_fast_path_on_float_scores() -> None:
    entries_a, entries_b = _entries(13, dyadic=False), _entries(14, p=0.5, dyadic=False)
    generic = paired_bootstrap_generic(entries_a, entries_b, _mean_score, n_resamples=B, seed=3)
    table_a = _scores_table([e["score"] for e in entries_a])
    table_b = _scores_table([e["score"] for e in entries_b])
    (fast,) = paired_bootstrap_test(table_a, table_b, [ACC], n_resamples=B, seed=3)
    assert generic.p_value == fast.p_value
    assert generic.delta == pytest.approx(fast.delta, abs=1e-12)
    assert generic.ci_lower == pytest.approx(fast.ci_lower, abs=1e-12)
    assert generic.ci_upper == pytest.approx(fast.ci_upper, abs=1e-12)


def test_generic_path_winner_follows_higher_is_better() -> None:
    good = [{"latency": 1.0}] * 30
    slow = [{"latency": 3.0}] * 30

    def mean_latency(entries) -> float:
        return sum(e["latency"] for e in entries) / len(entries)

    r = paired_bootstrap_generic(good, slow, mean_latency, n_resamples=200, higher_is_better=False)
    assert r.delta == -2.0 and r.p_value == 0.0 and r.winner == "A"
    r = paired_bootstrap_generic(good, good, mean_latency, n_resamples=200)
    assert r.p_value == 1.0 and r.winner is None and not r.significant


# ---------------------------------------------------------------- p-value rules


def test_two_sided_sign_p_hand_computed() -> None:
    deltas = np.array([1.0, 2.0, -1.0, 0.0, 3.0, np.nan])
    assert two_sided_sign_p(deltas, 1.0) == pytest.approx(2 * 2 / 5)  # -1 and 0 count
    assert two_sided_sign_p(deltas, -1.0) == 1.0  # 2 × 4/5, capped
    assert two_sided_sign_p(deltas, 0.0) == 1.0
    assert two_sided_sign_p(deltas, math.nan) == 1.0
    assert two_sided_sign_p(np.array([np.nan]), 1.0) == 1.0
    assert two_sided_sign_p(np.full(40, 0.5), 0.5) == 0.0


def test_randomization_p_counts_ties_with_the_assay_rule() -> None:
    stats = np.array([0.5, -0.5, 0.2, 0.0, -0.7])
    assert randomization_p(stats, 0.5) == (3 + 1) / 6  # |T| ≥ 0.5: 0.5, -0.5, -0.7
    assert randomization_p(stats, 0.5, "sacrebleu") == (1 + 1) / 6  # |T| > 0.5: -0.7
    assert randomization_p(np.zeros(9), 0.0) == 1.0
    assert randomization_p(np.zeros(9), 0.0, "sacrebleu") == 1 / 10
    # |T_r| that equals |Δ| up to float rounding of the same sum counts as a tie
    assert randomization_p(np.array([0.1 + 0.2]), 0.3) == 1.0


_deltas = hnp.arrays(
    np.float64,
    st.integers(1, 60),
    elements=st.floats(-1, 1, allow_nan=False).map(lambda x: round(x, 2)),
)


@SETTINGS
@given(deltas=_deltas, observed=st.floats(-1, 1).map(lambda x: round(x, 2)))
def test_sacrebleu_rules_equal_sacrebleus_compute_p_value(
    deltas: np.ndarray, observed: float
) -> None:
    """Against sacrebleu's own ``_compute_p_value``, on values with many exact ties."""
    sample = np.abs(deltas)
    expected_bs = _compute_p_value(sample - sample.mean(), abs(observed))
    assert sacrebleu_bootstrap_p(deltas, observed) == expected_bs
    assert randomization_p(deltas, observed, "sacrebleu") == _compute_p_value(
        np.abs(deltas), abs(observed)
    )


@SETTINGS
@given(deltas=_deltas, observed=st.floats(-1, 1).map(lambda x: round(x, 2)))
def test_assay_rules_are_valid_p_values(deltas: np.ndarray, observed: float) -> None:
    p = two_sided_sign_p(deltas, observed)
    assert 0.0 <= p <= 1.0
    # the two-sided rule is symmetric in the direction of the comparison
    assert two_sided_sign_p(-deltas, -observed) == p
    r = randomization_p(deltas, observed)
    assert 1 / (len(deltas) + 1) <= r <= 1.0
    # counting ties can only raise the p-value over sacrebleu's strict rule
    assert r >= randomization_p(deltas, observed, "sacrebleu")


def test_multiple_specs_in_one_test() -> None:
    rng = np.random.default_rng(15)
    n = 100
    ids = tuple(f"d{i}" for i in range(n))
    cols = ("tp", "fp", "fn")
    table_a = StatsTable(ids, cols, rng.poisson([3.0, 0.5, 0.5], (n, 3)).astype(float))
    table_b = StatsTable(ids, cols, rng.poisson([2.0, 1.5, 1.5], (n, 3)).astype(float))
    specs = [fbeta_metric("f1", *cols), fbeta_metric("f2", *cols, beta=2.0)]
    together = paired_bootstrap_test(table_a, table_b, specs, n_resamples=300, seed=2)
    assert [r.metric_name for r in together] == ["f1", "f2"]
    for spec, r in zip(specs, together, strict=True):
        assert paired_bootstrap_test(table_a, table_b, [spec], n_resamples=300, seed=2) == [r]
        assert r.winner == "A"
