"""The exact sign-flip test: against brute-force enumeration, its floor, the dispatch in
``paired_test``, and its type-I error by simulation beside the percentile bootstrap's."""

from __future__ import annotations

import itertools

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from assay.metrics import StatsTable, mean_columns, mean_metric, ratio_metric
from assay.stats import paired_test
from assay.stats.exact import EXACT_METHOD, exact_randomization_test, use_exact
from assay.stats.simulation import null_rejection_rates

ACC = mean_metric("acc", "correct")
RATIO = ratio_metric("micro", "num", "den")


def _table(values: list[float], nums: list[float] | None = None) -> StatsTable:
    nums = nums or values
    return StatsTable.from_rows(
        [f"i{k}" for k in range(len(values))],
        [
            {**mean_columns("correct", v), "num": n, "den": 2.0 + k % 3}
            for k, (v, n) in enumerate(zip(values, nums, strict=True))
        ],
    )


def _brute_force_p(a: list[float], b: list[float], den: list[float] | None = None) -> float:
    """Enumerate every swap with itertools: the definition, independently of the matrix code."""

    def stat(x: list[float], y: list[float]) -> float:
        if den is None:
            return float(np.mean(x) - np.mean(y))
        return sum(x) / sum(den) - sum(y) / sum(den)

    observed = abs(stat(a, b))
    count = total = 0
    for flips in itertools.product((False, True), repeat=len(a)):
        x = [bb if f else aa for aa, bb, f in zip(a, b, flips, strict=True)]
        y = [aa if f else bb for aa, bb, f in zip(a, b, flips, strict=True)]
        total += 1
        count += abs(stat(x, y)) >= observed - 1e-12
    return count / total


@settings(max_examples=40, deadline=None, derandomize=True)
@given(
    pairs=st.lists(
        st.tuples(st.floats(0, 1, allow_nan=False), st.floats(0, 1, allow_nan=False)),
        min_size=1,
        max_size=8,
    )
)
def test_exact_p_equals_brute_force(pairs: list[tuple[float, float]]) -> None:
    a, b = [x for x, _ in pairs], [y for _, y in pairs]
    ta, tb = _table(a), _table(b)
    acc, micro = exact_randomization_test(ta, tb, [ACC, RATIO], n_bootstrap_ci=50)
    assert acc.method == micro.method == EXACT_METHOD and acc.n_bootstrap == 2 ** len(a)
    assert acc.p_value == pytest.approx(_brute_force_p(a, b))
    den = [2.0 + k % 3 for k in range(len(a))]
    assert micro.p_value == pytest.approx(_brute_force_p(a, b, den))
    # a mask and its complement tie: p is never below 2 / 2^n
    assert acc.p_value >= 2 / 2 ** len(a) - 1e-12


def test_three_papers_each_losing_a_claim_cannot_be_significant() -> None:
    """The issue's case: the bootstrap says p = 0, the exact test 0.25."""
    base, cand = _table([1.0, 0.95, 0.9]), _table([0.95, 0.9, 0.85])
    (boot,) = paired_test(cand, base, [ACC], exact=False)
    assert boot.p_value == 0.0 and boot.significant
    (exact,) = paired_test(cand, base, [ACC])
    assert exact.method == EXACT_METHOD and exact.p_value == pytest.approx(0.25)
    assert not exact.significant and exact.winner is None


def test_dispatch_rule() -> None:
    assert use_exact(9, 1000) and not use_exact(10, 1000) and use_exact(13, 10_000)
    assert not use_exact(0, 1000) and not use_exact(25, 10**9)
    rng = np.random.default_rng(0)
    small = [_table(list(rng.random(16))) for _ in range(2)]
    middle = [_table(list(rng.random(17))) for _ in range(2)]
    large = [_table(list(rng.random(50))) for _ in range(2)]
    # exact while n <= 16 whatever the resample count, AR below 50 units, bootstrap above
    assert paired_test(*small, [ACC])[0].method == EXACT_METHOD
    assert paired_test(*small, [ACC], method="ar")[0].method == EXACT_METHOD
    assert paired_test(*small, [ACC], n_resamples=32)[0].method == EXACT_METHOD
    assert paired_test(*middle, [ACC])[0].method == "approximate_randomization"
    assert paired_test(*small, [ACC], exact=False)[0].method == "paired_bootstrap"
    assert paired_test(*small, [ACC], p_value="sacrebleu")[0].method.endswith("sacrebleu")
    assert paired_test(*large, [ACC])[0].method == "paired_bootstrap"
    assert paired_test(*large, [ACC], method="ar")[0].method == "approximate_randomization"
    (r,) = paired_test(*small, [ACC])
    assert r.n_units == 16 and r.unit == "item" and r.min_p == pytest.approx(2 / 2**16)


def test_exact_test_is_deterministic_and_identical_systems_give_one() -> None:
    t = _table([0.2, 0.4, 0.9, 0.1])
    (same,) = paired_test(t, t, [ACC])
    assert same.p_value == 1.0 and same.delta == 0.0
    other = _table([0.3, 0.1, 0.8, 0.6])
    first = paired_test(t, other, [ACC, RATIO])
    assert first == paired_test(t, other, [ACC, RATIO])


#: n = 3, 5, 10: exact (n ≤ 16); n = 30: approximate randomization with R = 1000
TYPE1_CASES = [
    (3, EXACT_METHOD),
    (5, EXACT_METHOD),
    (10, EXACT_METHOD),
    (30, "approximate_randomization"),
]


@pytest.mark.slow
@pytest.mark.parametrize(("n_items", "method"), TYPE1_CASES)
def test_type1_error_by_simulation(n_items: int, method: str) -> None:
    """Under a true null (baseline and candidate from the same process) the dispatched test
    rejects at most about alpha = 0.05 of the time; the percentile bootstrap over few papers
    rejects far more often (the table in suites/claims/docs.md is the same simulation, 2000
    sets)."""
    rates = null_rejection_rates(n_items, n_datasets=300, seed=7)
    assert rates["dispatched_method"] == method
    dispatched, bootstrap = float(rates["dispatched"]), float(rates["bootstrap"])
    # 300 datasets: a rate near 0.05 has a standard error of ≈ 0.013
    assert dispatched <= 0.05 + 3 * 0.013, rates
    if n_items <= 5:
        assert dispatched == 0.0  # the exact floor 2 / 2^n is above 0.05
        assert bootstrap >= 0.08, rates  # anti-conservative at few papers


def test_console_names_the_exact_test() -> None:
    from assay._report.console import significance_text

    small = [_table([0.1, 0.5, 0.9]), _table([0.2, 0.4, 0.3])]
    text = significance_text(paired_test(*small, [ACC]), method="bootstrap", n=1000, alpha=0.05)
    assert "exact sign-flip over all swaps of items, n=8" in text
    large = [_table([0.1, 0.5] * 10), _table([0.2, 0.4] * 10)]
    text = significance_text(paired_test(*large, [ACC]), method="bootstrap", n=1000, alpha=0.05)
    assert "approximate randomization, n=10000" in text  # 20 items: below 50, AR decides
